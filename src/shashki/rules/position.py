"""A position of a game as the library hands it out: :class:`Position`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fen import format_fen
from .move import Color, Piece

if TYPE_CHECKING:
    from .hooks import State
    from .variant import Variant


class Position:
    """What stands where and whose turn it is, in one variant: an immutable, hashable
    value (:attr:`Game.position <shashki.rules.Game.position>` gives the current one).

    Two positions are equal when they are of the same variant and everything on the board
    and in the variant's own state is the same (Bashni's columns, the piece Artamonov's
    game freezes, the half of a double-move turn, …) with the same side to move; the draw
    counters and the move number are the game's, not the position's.  A position can be
    kept in a set or a dict to see whether it comes back.

    >>> from shashki import Game
    >>> game = Game("russian", "W:WKc1,a3:BKh8")
    >>> start = game.position
    >>> start.turn, start.piece_at(game.variant.parse_square("c1"))
    (<Color.WHITE: 0>, Piece(color=<Color.WHITE: 0>, kind=<Kind.KING: 1>))
    >>> for text in ("c1-d2", "h8-g7", "d2-c1", "g7-h8"):
    ...     _ = game.push_text(text)
    >>> game.position == start, game.fen() == start.fen()
    (True, False)
    >>> start
    Position('russian', 'W:Wa3,Kc1:BKh8')
    """

    __slots__ = ("_state", "variant")

    variant: Variant
    _state: State

    def __init__(self, variant: Variant, state: State) -> None:
        """The position ``state`` (the generators' form) of ``variant``: made by the game
        (:attr:`Game.position <shashki.rules.Game.position>`), or read from a FEN with
        :meth:`from_fen`."""
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "_state", state)

    @classmethod
    def from_fen(cls, variant: Variant, fen: str) -> Position:
        """The position a FEN describes; raises BadFenError."""
        from .fen import parse_fen

        return cls(variant, parse_fen(variant, fen).position)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Position cannot be changed ({name})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.variant is other.variant and self._state == other._state

    def __hash__(self) -> int:
        return hash(self._state)

    def __repr__(self) -> str:
        return f"Position({self.variant.id!r}, {self.fen()!r})"

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: object) -> Position:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_unpickle, (self.variant.id, self.fen()))

    @property
    def turn(self) -> Color:
        """The side to move."""
        return Color(self._state[3])

    def piece_at(self, square: int) -> Piece | None:
        """The piece on ``square`` (the top of a column), or None."""
        return self.variant.generator.piece_at(self._state, square)

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square and its piece (the top of a column)."""
        gen = self.variant.generator
        out = {}
        for sq in self.variant.board.squares:
            piece = gen.piece_at(self._state, sq)
            if piece is not None:
                out[sq] = piece
        return out

    def column(self, square: int) -> str:
        """The column of pieces on ``square`` in a game of columns (Bashni), bottom to top,
        one letter a piece (``w b W B``: white man, black man, white king, black king);
        "" for an empty square and in the other games."""
        return self.variant.generator.stack(self._state, square)

    def fen(self) -> str:
        """The position as a FEN, squares in the variant's notation (no draw counter,
        no move number: see :meth:`Game.fen <shashki.rules.Game.fen>`)."""
        return format_fen(self.variant, self._state)


def _unpickle(vid: str, fen: str) -> Position:
    from .variant_registry import find_variant

    return Position.from_fen(find_variant(vid), fen)


def position_state(position: Position) -> State:
    """The generators' form of ``position`` (internal: the rules and the engine)."""
    return position._state
