"""Work spread over every core: jobs run in worker processes, their results given as
they come (the whole-game review, puzzle mining, the explorer's index).

:class:`Jobs` takes a function and a stream of argument tuples (read lazily: a million
games are never all in memory) and runs each call as one job, a few jobs ahead of the
workers, so that :meth:`Jobs.cancel` leaves little to finish.  Iterate it for
``(number, result)`` pairs in the order the jobs end (``number`` counts the jobs from 0
in the order they were given).  The function and its arguments must be picklable: a
function at the top of a module, plain values.

Where the jobs run is a :class:`Backend`: by default :class:`LocalBackend`, a pool of
processes on this machine (``spawn``: a fresh interpreter, nothing of the app's threads
carried over; with one worker, no process at all: the jobs run in the caller); another
backend (a Dask cluster, :mod:`shashki.training.cluster`) gives the same four calls.

A worker process runs what its parent runs: what the parent asked to be done at each
worker's start (:func:`at_worker_start`) is done there before any job.  The engine's
compiled build does so (:func:`shashki.native.use` names itself once it is in use), so the
workers of a ``shashki`` command that runs compiled run compiled too, and those of a
process that runs the pure modules (``SHASHKI_PURE=1``, or a program that never asked
for the build) run pure.

>>> from operator import add
>>> sorted(Jobs(add, [(1, 2), (3, 4)], workers=1))
[(0, 3), (1, 7)]
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, Protocol, TypeVar

R = TypeVar("R")

#: How long one look for finished jobs waits before it looks at ``cancelled`` again.
POLL = 0.5


def workers_wanted() -> int:
    """Every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # (not on every system)
        return max(1, os.cpu_count() or 1)


#: What each worker process does at its start, in this order (functions at the top of a
#: module, called with no argument).
_STARTS: list[Callable[[], object]] = []

#: A call a worker makes at its start, by name: (module, function, arguments).  By name,
#: so that each module is imported only when its turn comes (the compiled build must be
#: in use before a module that imports the rules is imported).
Start = tuple[str, str, tuple[Any, ...]]


def at_worker_start(fn: Callable[[], object]) -> None:
    """Have every worker process started from now on call ``fn()`` before its first job
    (once, however often it is asked)."""
    if fn not in _STARTS:
        _STARTS.append(fn)


def worker_starts() -> tuple[Start, ...]:
    """What a worker process started now does at its start (:func:`at_worker_start`)."""
    return tuple((fn.__module__, fn.__qualname__, ()) for fn in _STARTS)


def start_worker(nice: int, starts: tuple[Start, ...] = ()) -> None:
    """A worker's start: what the parent does (``starts``: the compiled build when the
    parent uses it; each module imported in its turn), then a lower priority when asked
    (the app's game goes first)."""
    import importlib

    for module, name, args in starts:
        getattr(importlib.import_module(module), name)(*args)
    if nice:
        try:
            os.nice(nice)
        except (AttributeError, OSError):
            pass


_TRACKER = threading.Lock()


def tracker_running() -> None:
    """Start multiprocessing's resource tracker (once): it hands the tracker the standard
    error's descriptor, which an app that captures the standard error (Textual does) has
    replaced by an object whose descriptor is not one (-1); the real one is lent for
    that moment."""
    from multiprocessing import resource_tracker

    with _TRACKER:
        if sys.stderr is sys.__stderr__ or sys.__stderr__ is None:
            resource_tracker.ensure_running()
            return
        captured, sys.stderr = sys.stderr, sys.__stderr__
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = captured


class Backend(Protocol):
    """Where jobs run: a pool of processes here, or a cluster of machines."""

    #: How many jobs run at once.
    workers: int

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Start ``fn(*args)``; a handle of the job."""

    def wait(self, handles: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        """The jobs that ended, and those that did not, within ``timeout`` seconds."""

    def result(self, handle: Any) -> Any:
        """What an ended job returned (its exception raised)."""

    def close(self, cancel: bool) -> None:
        """Let the workers go, the jobs not started dropped when ``cancel``."""


class LocalBackend:
    """A pool of ``workers`` processes on this machine, each started with ``nice``."""

    def __init__(self, workers: int | None = None, nice: int = 0) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = max(1, workers or workers_wanted())
        tracker_running()
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=start_worker,
            initargs=(nice, worker_starts()),
        )

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        return self._pool.submit(fn, *args)

    def wait(self, handles: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        done, pending = wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)
        return set(done), set(pending)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self, cancel: bool) -> None:
        self._pool.shutdown(wait=not cancel, cancel_futures=True)


class Jobs(Generic[R]):
    """``fn(*args)`` for each ``args`` of ``jobs``, in worker processes (see the module's
    text); iterate for ``(number, result)`` as the jobs end.

    ``workers``: how many at once (None: every core; 1: in this process, one job after
    the other); ``nice``: the workers' lower priority; ``backend``: where the jobs run
    (made at the first iteration when None, closed at its end); ``ahead``: jobs handed
    out per worker before one ends.  A job's exception is raised from the iteration (the
    jobs of a long run catch their own errors and return them).
    """

    def __init__(
        self,
        fn: Callable[..., R],
        jobs: Iterable[tuple[Any, ...]],
        *,
        workers: int | None = None,
        nice: int = 0,
        backend: Backend | None = None,
        ahead: int = 2,
    ) -> None:
        self.fn = fn
        self.jobs = jobs
        self.workers = max(1, workers or workers_wanted()) if backend is None else backend.workers
        self.nice = nice
        self.backend = backend
        self.ahead = max(1, ahead)
        self.cancelled = False

    def cancel(self) -> None:
        """Stop handing out jobs; the iteration ends at its next look (what was started
        finishes in its worker, a few jobs at most)."""
        self.cancelled = True

    def __iter__(self) -> Iterator[tuple[int, R]]:
        if self.backend is None and self.workers == 1:
            for number, args in enumerate(self.jobs):
                if self.cancelled:
                    return
                yield number, self.fn(*args)
            return
        backend = self.backend
        own = backend is None
        if backend is None:
            backend = LocalBackend(self.workers, self.nice)
        todo = enumerate(iter(self.jobs))
        numbers: dict[Any, int] = {}
        pending: set[Any] = set()
        try:
            while True:
                room = self.ahead * backend.workers - len(pending)
                if room > 0 and not self.cancelled:
                    for number, args in itertools.islice(todo, room):
                        handle = backend.submit(self.fn, tuple(args))
                        numbers[handle] = number
                        pending.add(handle)
                if self.cancelled or not pending:
                    return
                done, pending = backend.wait(pending, POLL)
                for handle in done:
                    yield numbers.pop(handle), backend.result(handle)
        finally:
            if own:
                backend.close(cancel=self.cancelled or bool(pending))

    def in_order(self, cancelled: Callable[[], bool] = lambda: False) -> Iterator[tuple[int, R]]:
        """``(number, result)`` in the order the jobs were given (a result that comes early
        waits for those before it), for a caller that writes them in order; ``cancelled()``
        is asked each time a job ends, and the jobs are cancelled when it says so.

        >>> from operator import add
        >>> list(Jobs(add, [(1, 2), (3, 4)], workers=1).in_order())
        [(0, 3), (1, 7)]
        """
        waiting: dict[int, R] = {}
        next_job = 0
        for number, result in self:
            waiting[number] = result
            while next_job in waiting:
                yield next_job, waiting.pop(next_job)
                next_job += 1
            if cancelled():
                self.cancel()


__all__ = [
    "Backend",
    "Jobs",
    "LocalBackend",
    "at_worker_start",
    "start_worker",
    "tracker_running",
    "worker_starts",
    "workers_wanted",
]
