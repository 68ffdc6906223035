"""How a test waits: until a state holds, never for a time.

A busy machine (CI runs beside other work) takes far longer to reach a state than an idle
one, so a test never sleeps a fixed time and hopes: it names the state it needs and waits
for it, at most :data:`WAIT` seconds, then fails saying what it waited for.

- :func:`until` inside an event loop (the app under a pilot, an online link, a server);
  between two looks it gives the loop a turn (or runs ``between``, e.g. "let the app
  handle what it was sent").
- :func:`until_blocking` outside one (a thread, a subprocess, a file being written).

Both return the condition's first true value, so ``line = until_blocking(read, "a line")``
both waits and reads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds a wait may take before the test fails: far more than any state takes, also on a
#: loaded machine (a test waits only as long as its state takes).
WAIT = 60.0

#: Seconds between two looks, when nothing else is run between them.
STEP = 0.005


class _Deadline:
    def __init__(self, what: str, timeout: float) -> None:
        self.what = what or "the state waited for"
        self.timeout = timeout
        self.end = time.monotonic() + timeout

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise AssertionError(f"{self.what}: not reached in {self.timeout:g} s")


async def until(
    condition: Callable[[], T],
    what: str = "",
    *,
    timeout: float = WAIT,
    step: float = STEP,
    between: Callable[[], Awaitable[object]] | None = None,
    gone: Callable[[], str | None] | None = None,
) -> T:
    """Let the event loop run until ``condition()`` is true (``what`` it is, for the
    failure); its first true value.

    ``between`` is awaited between two looks (else a sleep of ``step`` seconds); ``gone``
    says why the state can no longer come (the app ended, a process died), and the wait
    fails at once saying so."""
    deadline = _Deadline(what, timeout)
    while True:
        value = condition()
        if value:
            return value
        why = gone() if gone is not None else None
        if why:
            raise AssertionError(f"{deadline.what}: {why}")
        deadline.check()
        if between is None:
            await asyncio.sleep(step)
        else:
            await between()


def until_blocking(
    condition: Callable[[], T],
    what: str = "",
    *,
    timeout: float = WAIT,
    step: float = STEP,
    gone: Callable[[], str | None] | None = None,
) -> T:
    """:func:`until` for a test outside an event loop: looks every ``step`` seconds."""
    deadline = _Deadline(what, timeout)
    while True:
        value = condition()
        if value:
            return value
        why = gone() if gone is not None else None
        if why:
            raise AssertionError(f"{deadline.what}: {why}")
        deadline.check()
        time.sleep(step)
