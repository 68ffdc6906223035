"""Colours, pieces and moves: small immutable value types."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Color(IntEnum):
    """The two sides.  White starts on ranks 1…, Black on the far side.

    In variants whose sides have other names (Wolf and Sheep, Artamonov's South and North)
    the variant gives the names; the engine only knows side 0 and side 1.
    """

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(self ^ 1)


class Kind(IntEnum):
    MAN = 0
    KING = 1


class Piece(NamedTuple):
    """A piece on the board.  ``color`` is None for the colourless pieces of Artamonov's game."""

    color: Color | None
    kind: Kind

    @property
    def is_king(self) -> bool:
        return self.kind is Kind.KING


class Move(tuple):  # type: ignore[type-arg]
    """One legal move: the full path of landing squares and the captured squares in order.

    Squares are board positions (see :class:`~shashki.rules.geometry.Geometry`); the
    notation layer turns them into text.  A move is immutable and hashable; two moves are
    equal when their paths and captured squares are equal.

    >>> Move((18, 22))
    Move((18, 22))
    """

    __slots__ = ()

    def __new__(
        cls, path: tuple[int, ...] | list[int], captured: tuple[int, ...] | list[int] = ()
    ) -> Move:
        path = tuple(path)
        captured = tuple(captured)
        if len(path) < 2:
            raise ValueError(f"a move needs at least two squares, got {path!r}")
        landing = 0
        for p in path[1:]:
            landing |= 1 << p
        cap = 0
        for c in captured:
            cap |= 1 << c
        return tuple.__new__(cls, (path, captured, 1 << path[0], 1 << path[-1], cap, landing))

    @property
    def path(self) -> tuple[int, ...]:
        """Every square the piece stands on, from start to end."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def captured(self) -> tuple[int, ...]:
        """The squares of the captured pieces, in the order they were jumped."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def start(self) -> int:
        return self[0][0]  # type: ignore[no-any-return]

    @property
    def end(self) -> int:
        return self[0][-1]  # type: ignore[no-any-return]

    @property
    def is_capture(self) -> bool:
        return bool(self[1])

    @property
    def captured_mask(self) -> int:
        return self[4]  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        if self[1]:
            return f"Move({self[0]!r}, {self[1]!r})"
        return f"Move({self[0]!r})"

    def __getnewargs__(self) -> tuple[tuple[int, ...], tuple[int, ...]]:  # pickling, copying
        return (self[0], self[1])
