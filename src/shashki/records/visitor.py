"""The visitor: what receives one game's events from the reader (or from a record's
:meth:`~shashki.records.model.GameRecord.accept`), and :data:`SKIP`.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from ..rules import Game, Move, Variant
from ..rules.errors import BadPdnError

T = TypeVar("T")


class SkipType:
    """The type of :data:`SKIP`."""

    def __repr__(self) -> str:
        return "SKIP"


#: Returned by :meth:`Visitor.end_headers` to have the reader skip the moves unparsed.
SKIP = SkipType()


class Visitor(Generic[T]):
    """Receives one game's events from the reader (or from
    :func:`~shashki.records.model.walk_record`).

    The order: ``begin_game``; ``visit_header`` per tag; ``end_headers`` (return
    :data:`SKIP` to skip the moves); ``visit_start`` with the variant and start
    position (or ``visit_error`` when the tags name no playable game); then comments,
    NAGs, moves and variations in file order; ``visit_result``; ``end_game``;
    and ``result()`` gives what the reader returns.  ``visit_error`` can come at any
    point.  The game passed to ``visit_move`` is in the position before the move and
    must not be kept or changed.
    """

    def begin_game(self, line: int) -> None:
        pass

    def visit_header(self, name: str, value: str) -> None:
        pass

    def end_headers(self) -> SkipType | None:
        return None

    def visit_start(self, variant: Variant, fen: str | None, game: Game) -> None:
        pass

    def visit_comment(self, text: str) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> None:
        pass

    def end_variation(self) -> None:
        pass

    def visit_move(self, game: Game, move: Move) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def visit_error(self, error: BadPdnError) -> None:
        pass

    def visit_warning(self, warning: BadPdnError) -> None:
        """Something odd that the reader could read all the same (text outside
        braces, an ambiguous move that the following moves settle)."""

    def end_game(self) -> None:
        pass

    def result(self) -> T:
        raise NotImplementedError
