"""Colours, pieces and moves: small immutable value types.

A move has two forms.  :class:`Move`, the library's, is a frozen dataclass: the squares
the piece stands on, the squares of the pieces it takes, whether it crowns, written in
its variant's notation.  :class:`FastMove` is the form the move generators and the
engine pass among themselves (a tuple with the squares' bitboards precomputed); it
stays inside the rules and the engine, and :class:`~shashki.rules.Game` turns one into
the other.  :class:`MoveLike` is what both offer, for the code that reads either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from .variant import Variant

#: A square of a board: its index in the board's layout (:class:`~shashki.rules.geometry.Geometry`).
#: :meth:`Variant.square_name <shashki.rules.Variant.square_name>` writes it as players do
#: (``c3``, ``32``), :meth:`Variant.parse_square <shashki.rules.Variant.parse_square>` reads it.
Square = int


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


class MoveLike(Protocol):
    """What both forms of a move offer: the code that reads either (the notation, the
    explanations, the panel's lines) asks only this."""

    @property
    def path(self) -> tuple[int, ...]: ...

    @property
    def captured(self) -> tuple[int, ...]: ...

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def is_capture(self) -> bool: ...


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One move: the squares the piece stands on from start to end (``path``, every
    landing square of a capture), the squares of the pieces it takes in the order they
    are jumped (``captured``), and whether the piece is crowned (``promotion``).

    A move listed by a :class:`~shashki.rules.Game` knows its variant: ``str(move)``
    writes it in the variant's notation with every landing square (``c3-d4``, ``32-28``,
    ``c3:e5:g3``), and so does its ``repr``.  (:meth:`Game.move_text
    <shashki.rules.Game.move_text>` writes the short form players use, which depends on
    the other moves of the position.)  Two moves are equal when their squares and
    promotion are (the variant is not compared), and they sort by their squares.  A move
    made by hand (``Move((10, 15))``) is played by :meth:`Game.push
    <shashki.rules.Game.push>`, which finds the legal move of the same squares.

    >>> from shashki import Game
    >>> Game("russian").legal_moves()[0]
    <Move c3-b4>
    >>> capture = Game("russian", "W:Wc3,g7:Bd4,h6").legal_moves()[0]
    >>> capture, capture.path, capture.captured, capture.promotion
    (<Move c3:e5>, (10, 20), (15,), False)
    >>> crowning = Game("russian", "W:Wg7:Bd4").parse_move("g7-h8")
    >>> str(crowning), crowning.promotion, crowning == Move(crowning.path, promotion=True)
    ('g7-h8', True, True)
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    promotion: bool = False
    #: The variant whose notation writes the move (not compared).
    variant: Variant | None = field(default=None, compare=False, repr=False, kw_only=True)
    # the generator's form of the move, kept by the moves a game lists (not compared)
    _fast: FastMove | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        path = tuple(self.path)
        if len(path) < 2:
            raise ValueError(f"a move needs at least two squares, got {path!r}")
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "captured", tuple(self.captured))

    @property
    def start(self) -> int:
        """The square the piece leaves."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The square the piece ends on."""
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def text(self) -> str | None:
        """The move in its variant's notation, every landing square written (``c3:e5:g3``),
        or None for a move that knows no variant."""
        variant = self.variant
        if variant is None:
            return None
        sep = variant.capture_mark if self.captured else "-"
        return sep.join(variant.square_name(sq) for sq in self.path)

    def __str__(self) -> str:
        text = self.text()
        return repr(self) if text is None else text

    def __repr__(self) -> str:
        text = self.text()
        if text is not None:
            return f"<Move {text}>"
        extra = f", captured={self.captured!r}" if self.captured else ""
        if self.promotion:
            extra += ", promotion=True"
        return f"Move(path={self.path!r}{extra})"

    def fast(self) -> FastMove:
        """The generator's form of this move (internal: the rules and the engine)."""
        fast = self._fast
        if fast is None:
            fast = FastMove(self.path, self.captured)
            object.__setattr__(self, "_fast", fast)
        return fast

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: Any) -> Move:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled without its variant (whose generator is code, not data)
        return (Move, (self.path, self.captured, self.promotion))


_set_path = Move.__dict__["path"].__set__
_set_captured = Move.__dict__["captured"].__set__
_set_promotion = Move.__dict__["promotion"].__set__
_set_variant = Move.__dict__["variant"].__set__
_set_fast = Move.__dict__["_fast"].__set__
_new = object.__new__


def public_move(fast: FastMove, promotion: bool, variant: Variant | None) -> Move:
    """The library's :class:`Move` of a generator's ``fast`` move (internal: made for
    every move a game lists, without the checks of the constructor)."""
    move: Move = _new(Move)
    _set_path(move, fast[0])
    _set_captured(move, fast[1])
    _set_promotion(move, promotion)
    _set_variant(move, variant)
    _set_fast(move, fast)
    return move


class FastMove(tuple):  # type: ignore[type-arg]
    """A move as the move generators and the engine pass it among themselves: a tuple
    ``(path, captured, start bit, end bit, captured bitboard, landing bitboard)``.

    Internal to the rules and the engine (the library's form is :class:`Move`).  Squares
    are board positions (see :class:`~shashki.rules.geometry.Geometry`).  Immutable and
    hashable; two are equal when their paths and captured squares are equal.

    >>> FastMove((18, 22))
    FastMove((18, 22))
    """

    __slots__ = ()

    def __new__(
        cls, path: tuple[int, ...] | list[int], captured: tuple[int, ...] | list[int] = ()
    ) -> FastMove:
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
            return f"FastMove({self[0]!r}, {self[1]!r})"
        return f"FastMove({self[0]!r})"

    def __getnewargs__(self) -> tuple[tuple[int, ...], tuple[int, ...]]:  # pickling, copying
        return (self[0], self[1])
