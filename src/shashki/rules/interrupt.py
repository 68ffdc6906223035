"""Stopping a long move generation from outside it (a search with a deadline).

Listing the legal moves of one position can take seconds: a flying king over a board
full of pieces has exponentially many capture sequences, and under free choice each
different one is a move.  A search with a deadline cannot wait for that.  It generates
inside ``with interruptible(check):``, and the capture searches of that thread call
``check()`` every :data:`STEPS` steps; ``check`` raises to abandon the generation (the
generator stays usable: every generation starts from a clean state).  When it raises an
:class:`Interrupted`, a generator whose moves found so far are known to be legal puts
them on it.  Other threads, and code outside the block, are not affected.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .move import FastMove

#: Steps of a capture search (new partial sequences) between two calls of the check.
STEPS = 1024

_local = threading.local()


class Interrupted(Exception):
    """Raised by a check to stop a generation.

    ``moves``: the legal moves found before the stop, when the generator knows them to be
    legal (``MoveGenerator.partial_moves``: under free choice every complete capture
    sequence is a move), else None.
    """

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        # (set here, not as a class attribute: compiled, an exception's instance has no
        # class defaults, shashki.native)
        self.moves: list[FastMove] | None = None


@contextmanager
def interruptible(check: Callable[[], None]) -> Iterator[None]:
    """Within the block, long capture searches of this thread call ``check()`` now and
    then; an exception it raises ends the generation and leaves the block."""
    previous = getattr(_local, "check", None)
    _local.check = check
    try:
        yield
    finally:
        _local.check = previous


def poll() -> None:
    """Call the check of this thread's :func:`interruptible` block, if there is one.

    Raises: whatever the check raises.
    """
    check = getattr(_local, "check", None)
    if check is not None:
        check()
