"""A line of play — a search's principal variation — as text, move by move.

Writing a move short (``32-28`` rather than every landing square) takes the legal moves
of its position, and listing them can take seconds (a flying king over a board full of
pieces).  A line is shown while a search runs (the analysis panel, ``shashki best``, the
Hub's ``info`` lines), so each position's listing gets :data:`LISTING_SECONDS` at most;
where it takes longer, the move is taken as the search gave it and written in full, as
no other move need be looked at for that.

Standard library only, like all of the rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from .errors import ShashkiError
from .interrupt import interruptible
from .move import Move
from .notation import move_text

if TYPE_CHECKING:
    from .game import Game
    from .variant import Variant

#: The longest time the legal moves of one position of a line may take to list.
LISTING_SECONDS = 0.05

#: Writes one move of a line: the variant, the move, and the legal moves of its position
#: (None where listing them took too long: the text must then need none).
MoveWriter = Callable[["Variant", Move, "Sequence[Move] | None"], str]


def notation_writer(variant: Variant, move: Move, legal: Sequence[Move] | None) -> str:
    """The move in the variant's notation: short where that is unambiguous among
    ``legal``, every landing square where ``legal`` is unknown."""
    return move_text(variant, move, legal, full=legal is None)


class _Slow(Exception):
    """Listing the legal moves of a position took longer than it may."""


def variation_text(
    game: Game,
    moves: Iterable[Move],
    *,
    most: int | None = None,
    write: MoveWriter = notation_writer,
    seconds: float = LISTING_SECONDS,
) -> str:
    """The moves of a line from ``game``'s position, as text separated by spaces (at most
    ``most`` of them).  A move that is not legal where it stands ends the line there (a
    line from another position); where listing the legal moves takes longer than
    ``seconds``, the move is taken as given (a search's own line is legal) and written
    by ``write`` without them."""
    walk = game.copy()
    texts: list[str] = []
    for move in moves:
        if most is not None and len(texts) >= most:
            break
        until = time.perf_counter() + seconds

        def slow(until: float = until) -> None:
            if time.perf_counter() > until:
                raise _Slow

        legal: list[Move] | None
        try:
            with interruptible(slow):
                legal = walk.legal_moves()
        except _Slow:
            legal = None
        if legal is None:
            texts.append(write(walk.variant, move, None))
            walk.push_unchecked(move)
            continue
        try:
            found = walk.find_move(move)
        except ShashkiError:
            break
        texts.append(write(walk.variant, found, legal))
        walk.push(found)
    return " ".join(texts)


__all__ = ["LISTING_SECONDS", "MoveWriter", "notation_writer", "variation_text"]
