"""The autosave writer: games' autosaves written on one worker thread.

A front end queues the newest state of a game after every change and goes on at once:
the board never waits for the disk.  Only the newest state of each game waits to be
written (an older one is replaced in the queue); the files are written one after the
other by a single-thread executor (:mod:`concurrent.futures`), and :meth:`flush` waits
for them with ``Future.result(timeout)`` — no busy flag, no sleeping loop.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import Game

if TYPE_CHECKING:
    from ..records import GameRecord
    from ..store import AutosaveSlot

#: What an autosave writes: the game, its tags, its clock marks.
State = tuple[Game, dict[str, str], list[float | None]]


@dataclass
class AutosaveJob:
    """What the writer has still to do for one game: only its newest state."""

    slot: AutosaveSlot
    #: The game, its tags and its clock marks to write, if a new state is waiting.
    write: State | None = None
    #: Remove the game's file (it ended, or went back to no moves).
    remove: bool = False
    #: Then give the game up (it was left): its lock goes, its file stays.
    release: bool = False
    #: The finished game to keep in My games (written before its autosave goes; if it
    #: cannot be written, the autosave stays).
    keep: GameRecord | None = None


def one_line(exc: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(exc).split())


class AutosaveWriter:
    """Writes autosaves in the background, the newest state of each game only.

    ``on_failure(reason)`` is called (from the writer's thread) when autosaving stops
    working — once, not after every move; :attr:`problem` says why while it fails."""

    def __init__(self, on_failure: Callable[[str], None] | None = None) -> None:
        self.on_failure = on_failure
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shashki-autosave")
        self._lock = threading.Lock()
        #: Waiting work, one entry per game, oldest first.
        self._jobs: dict[AutosaveSlot, AutosaveJob] = {}
        #: The writing under way (None: the writer is idle).
        self._future: Future[None] | None = None
        self._problem: str | None = None

    @property
    def problem(self) -> str | None:
        """Why the last autosave failed, or None while autosaving works."""
        with self._lock:
            return self._problem

    def queue(
        self,
        slot: AutosaveSlot,
        *,
        write: State | None = None,
        remove: bool = False,
        release: bool = False,
        keep: GameRecord | None = None,
    ) -> None:
        """Ask for ``slot``'s newest state to be written (or its file removed, or the game
        given up; ``keep``: the finished game to keep in My games first); nothing is
        written before :meth:`start`."""
        with self._lock:
            job = self._jobs.setdefault(slot, AutosaveJob(slot))
            if write is not None:
                job.write, job.remove = write, False
            elif remove:
                job.write, job.remove = None, True
            if keep is not None:
                job.keep = keep
            job.release = job.release or release

    def start(self) -> None:
        """Write what waits, in the writer's thread (at once if it is idle)."""
        with self._lock:
            if self._future is None and self._jobs:
                try:
                    self._future = self._executor.submit(self._drain)
                except RuntimeError:  # (shut down: the process is ending)
                    self._future = None

    def pending(self) -> bool:
        with self._lock:
            return self._future is not None or bool(self._jobs)

    def _drain(self) -> None:
        try:
            while True:
                with self._lock:
                    if not self._jobs:
                        self._future = None
                        return
                    job = self._jobs.pop(next(iter(self._jobs)))
                self._run(job)
        except BaseException:
            with self._lock:  # an unexpected error: later states still get written
                self._future = None
            raise

    def _run(self, job: AutosaveJob) -> None:
        problem: str | None = None
        try:
            if job.keep is not None:
                from ..store.archive import keep_game

                keep_game(job.keep, job.slot.key)
            if job.write is not None:
                job.slot.save(*job.write)
            elif job.remove:
                job.slot.remove()
        except OSError as exc:  # SaveError, GameLocked, a folder that cannot be made
            problem = one_line(exc)
        finally:
            if job.release:
                job.slot.release()
        if job.write is None and not job.remove and job.keep is None:
            return
        with self._lock:
            first = problem is not None and self._problem is None
            self._problem = problem
        if first and self.on_failure is not None:  # said once, not after every move
            self.on_failure(problem or "")

    def flush(self, timeout: float = 5.0) -> bool:
        """Write what waits and wait until it is on disk (before quitting, and in tests),
        at most ``timeout`` seconds; whether all was written."""
        deadline = time.monotonic() + timeout
        while True:
            self.start()
            with self._lock:
                future = self._future
            if future is None:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                future.result(timeout=left)
            except FutureTimeout:
                return False
            except Exception:
                pass


__all__ = ["AutosaveJob", "AutosaveWriter", "State"]
