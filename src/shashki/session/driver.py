"""How a front end runs a game session's turns: the executor it hands the session.

A :class:`~shashki.session.GameSession` belongs to one thread, its *owner's* (the
Textual app's event loop, the asyncio loop of ``shashki host --auto``, the caller's
thread in ``shashki match`` and the tests).  Every change of the game happens there:
the front end calls the session's methods on that thread, and the session's one turn
driver brings back there whatever happened elsewhere.  What happens elsewhere is only
a player's search (a computer's, an engine's), which gets a copy of the game and
touches nothing of the session's.

An :class:`Executor` gives the driver three things:

- :meth:`~Executor.submit`: run a search away from the owner's thread (a thread of its
  own, or at once on the caller's thread for :class:`InlineExecutor`);
- :meth:`~Executor.post`: run an action on the owner's thread (from any thread), after
  what runs there now — a search's answer is posted back this way;
- :meth:`~Executor.later`: run an action on the owner's thread after some seconds of
  real time (the computer's minimum move delay; a clock's deadline when the clock reads
  real time).  The timer can be cancelled; nothing polls.

Time that a test moves by hand is a :class:`ManualTime`: a game clock reading it has
its deadline fired when the test moves the time past it, not after real seconds.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol, TypeVar

#: Something to run (a search, or an action on the owner's thread).
Action = Callable[[], None]

T = TypeVar("T")


class Timer(Protocol):
    """A timer an executor set: :meth:`cancel` stops it from firing (if it has not)."""

    def cancel(self) -> None: ...


class Executor(Protocol):
    """How a session's driver runs work: see the module's documentation."""

    def submit(self, work: Action) -> None:
        """Run ``work`` (a player's search) away from the owner's thread."""

    def post(self, action: Action) -> None:
        """Run ``action`` on the owner's thread, after what runs there now (callable
        from any thread)."""

    def later(self, seconds: float, action: Action) -> Timer:
        """Run ``action`` on the owner's thread in ``seconds`` of real time (called on
        the owner's thread)."""
        ...


class _Cancelled:
    """A timer that was never set (nothing to cancel)."""

    def cancel(self) -> None:
        pass


class _Due:
    """One timer of a :class:`ManualTime` or an :class:`InlineExecutor`."""

    def __init__(self, due: float, action: Action) -> None:
        self.due = due
        self.action: Action | None = action

    def cancel(self) -> None:
        self.action = None


class _Timers:
    """Timers kept in order of their due time, fired by hand."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, _Due]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()

    def add(self, due: float, action: Action) -> _Due:
        timer = _Due(due, action)
        with self._lock:
            heapq.heappush(self._heap, (due, next(self._order), timer))
        return timer

    def fire(self, now: float) -> None:
        """Run every timer due by ``now``, earliest first."""
        while True:
            with self._lock:
                if not self._heap or self._heap[0][0] > now:
                    return
                _due, _n, timer = heapq.heappop(self._heap)
            action, timer.action = timer.action, None
            if action is not None:
                action()


class ManualTime:
    """A time source moved by hand (the tests' fake clock): ``time()`` reads it, and
    moving it (``time.t += 5``, :meth:`advance`) fires the timers it passes, in order,
    on the thread that moves it.  A :class:`~shashki.session.GameClock` reading it sets
    its deadline here (:meth:`call_later`), not on real time."""

    def __init__(self, start: float = 1000.0) -> None:
        self._t = start
        self._timers = _Timers()

    def __call__(self) -> float:
        return self._t

    @property
    def t(self) -> float:
        return self._t

    @t.setter
    def t(self, value: float) -> None:
        self._t = value
        self._timers.fire(value)

    def advance(self, seconds: float) -> None:
        self.t = self._t + seconds

    def call_later(self, seconds: float, action: Action) -> Timer:
        """Run ``action`` when the time has moved ``seconds`` on."""
        return self._timers.add(self._t + seconds, action)


def deadline_timer(
    now: Callable[[], float], executor: Executor
) -> Callable[[float, Action], Timer]:
    """How to set a timer of ``seconds`` on the time ``now`` reads: on a
    :class:`ManualTime` when it is one (the action then posted to the owner's thread),
    else on the executor's real time."""
    if isinstance(now, ManualTime):
        manual = now

        def on_manual(seconds: float, action: Action) -> Timer:
            return manual.call_later(seconds, lambda: executor.post(action))

        return on_manual
    return executor.later


class InlineExecutor:
    """Everything on the caller's thread (``shashki match``, the tests, a script): a
    search runs at once, where it is submitted (blocking); an action posted runs after
    the one running now, never inside it, so a game of two computers is a loop, not a
    recursion; a timer fires when :meth:`run_due` finds it due (on ``now``: real time, or
    a :class:`ManualTime`, whose own moving fires them)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._posted: deque[Action] = deque()
        self._running = False
        self._timers = _Timers()

    def submit(self, work: Action) -> None:
        work()

    def post(self, action: Action) -> None:
        self._posted.append(action)
        if self._running:
            return  # (run after the action running now)
        self._running = True
        try:
            while self._posted:
                self._posted.popleft()()
        finally:
            self._running = False

    def later(self, seconds: float, action: Action) -> Timer:
        if isinstance(self.now, ManualTime):
            return self.now.call_later(seconds, lambda: self.post(action))
        return self._timers.add(self.now() + seconds, lambda: self.post(action))

    def run_due(self) -> None:
        """Run the timers due by now."""
        self._timers.fire(self.now())


class AsyncioExecutor:
    """An asyncio loop is the owner (the Textual app's, ``shashki host --auto``'s): a
    search runs in a daemon thread of its own (a search never holds up the end of the
    program), its answer is posted with ``call_soon_threadsafe``, timers are the loop's
    ``call_later``.  Made on the loop's thread, or given the loop.  What it runs on the
    loop runs in the context it was made in (the context variables then set: Textual's
    app), whatever thread posted it."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop if loop is not None else asyncio.get_running_loop()
        self._context = contextvars.copy_context()

    def submit(self, work: Action) -> None:
        threading.Thread(target=work, daemon=True, name="shashki-search").start()

    def post(self, action: Action) -> None:
        try:
            self.loop.call_soon_threadsafe(action, context=self._context.copy())
        except RuntimeError:  # the loop is closed: the program is ending, nothing to do
            pass

    def later(self, seconds: float, action: Action) -> Timer:
        if self.loop.is_closed():
            return _Cancelled()
        return self.loop.call_later(max(0.0, seconds), action, context=self._context.copy())


class ThreadExecutor(AsyncioExecutor):
    """A thread of its own is the owner: an asyncio loop running in a daemon thread.  The
    caller hands its changes over with :meth:`call` (run there, the result waited for)."""

    def __init__(self) -> None:
        loop = asyncio.new_event_loop()
        super().__init__(loop)
        self._thread = threading.Thread(target=loop.run_forever, daemon=True, name="shashki-owner")
        self._thread.start()

    def call(self, function: Callable[[], T], timeout: float | None = 60.0) -> T:
        """``function()`` run on the owner's thread; its result (or its exception)."""
        future: Future[T] = Future()

        def run() -> None:
            try:
                future.set_result(function())
            except BaseException as exc:
                future.set_exception(exc)

        self.post(run)
        return future.result(timeout)

    def close(self) -> None:
        """Stop the owner's thread (what is posted after is dropped)."""
        loop = self.loop
        if not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(5.0)
            if not self._thread.is_alive():
                loop.close()


__all__ = [
    "Action",
    "AsyncioExecutor",
    "Executor",
    "InlineExecutor",
    "ManualTime",
    "ThreadExecutor",
    "Timer",
    "deadline_timer",
]
