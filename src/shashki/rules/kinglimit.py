"""The same-king move limit (docs/rules/switches.md#king-limit, Frisian draughts Art. 17).

While a player still has a man, one and the same king may make at most
``Rules.king_move_limit`` simple (non-capturing) moves in a row; it may still capture,
and a move of another piece lifts the ban.  With only kings left the rule does not apply.

The position keeps, per side, ``(count, square)``: how many simple moves in a row the
king now on ``square`` has made.  It is part of the position, so it enters the
repetition key and the FEN: a last field ``+<b><bsq>+<w><wsq>`` (lidraughts'), Black
first, e.g. ``+0+337`` when White's king on 37 has made three moves; an absent field
means ``+0+0``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from ..base.numbers import quoted
from ..i18n import N_, _, ngettext
from .errors import BadFenError
from .fen import square_text
from .move import FastMove

if TYPE_CHECKING:
    from .fen import FenParts
    from .movegen import MoveGenerator, State

    _Base = MoveGenerator
else:
    _Base = object

#: No king under the limit: (count 0, no square).
FREE = (0, -1)


class KingMoves(NamedTuple):
    """The extra state of a position under the limit: the host's, and per side (White,
    Black) the simple moves in a row of one king and the square it stands on."""

    extra: Any
    white: tuple[int, int] = FREE
    black: tuple[int, int] = FREE


_NUMBERS = {
    1: N_("one"),
    2: N_("two"),
    3: N_("three"),
    4: N_("four"),
    5: N_("five"),
    6: N_("six"),
}


def _number(n: int) -> str:
    """A small number in words in the language spoken now ("three"), else in digits."""
    return _(_NUMBERS[n]) if n in _NUMBERS else str(n)


_FIELD = re.compile(r"\+([0-9])([0-9]*)\+([0-9])([0-9]*)")


class KingMoveLimitMixin(_Base):
    """Generates and applies moves under the same-king move limit (see the module)."""

    @staticmethod
    def _split(pos: State) -> tuple[State, KingMoves]:
        extra = pos[4]
        if type(extra) is KingMoves:
            return (pos[0], pos[1], pos[2], pos[3], extra.extra), extra
        return pos, KingMoves(extra)

    def restricted(self, pos: State) -> int:
        """The square of the king of the side to move that may not make a simple move
        now, or -1."""
        extra = pos[4]
        if type(extra) is not KingMoves:
            return -1
        turn = pos[3]
        count, square = extra.black if turn else extra.white
        if count < self.rules.king_move_limit or square < 0:
            return -1
        own, kings = pos[turn], pos[2]
        if not own & ~kings or not (own & kings) >> square & 1:
            return -1  # only kings (the rule does not apply), or no king there
        return square

    def host_position(self, pos: State) -> State:
        return super().host_position(self._split(pos)[0])

    def host_view(self) -> Callable[[State], State] | None:
        """The host's form of a position: without the counters."""
        below = super().host_view()

        def inner(pos: State) -> State:
            return self._split(pos)[0]

        if below is None:
            return inner
        return lambda pos: below(inner(pos))

    def moves(self, pos: State) -> list[FastMove]:
        inner, _ = self._split(pos)
        moves = super().moves(inner)
        square = self.restricted(pos)
        if square >= 0:
            bit = 1 << square
            moves = [m for m in moves if m[1] or m[2] != bit]
        return moves

    def captures(self, pos: State) -> list[FastMove]:
        return super().captures(self._split(pos)[0])

    def count(self, pos: State) -> int:
        if self.restricted(pos) >= 0:
            return len(self.moves(pos))
        return super().count(self._split(pos)[0])

    def horizon(self, pos: State) -> tuple[list[FastMove], bool]:
        if self.restricted(pos) >= 0:
            moves = self.moves(pos)
            if moves and moves[0][1]:
                return moves, True
            return [], bool(moves)
        return super().horizon(self._split(pos)[0])

    def piece_at(self, pos: State, square: int) -> Any:
        return super().piece_at(self._split(pos)[0], square)

    def material(self, pos: State) -> Any:
        return super().material(self._split(pos)[0])

    def key(self, pos: State) -> Any:
        inner, state = self._split(pos)
        return (super().key(inner), state.white, state.black)

    def apply(self, pos: State, mv: FastMove) -> State:
        inner, state = self._split(pos)
        turn = pos[3]
        w, b, k, t, extra = super().apply(inner, mv)
        count, square = state.black if turn else state.white
        if mv[1] or not inner[2] & mv[2]:  # a capture or a man's move
            mine = FREE
        elif count and mv.start == square:
            mine = (count + 1, mv.end)
        else:
            mine = (1, mv.end)
        white, black = (state.white, mine) if turn else (mine, state.black)
        # with only kings the limit does not apply, and a count of a king taken is
        # gone with it: nothing is counted
        if not w & ~k or (white[1] >= 0 and not (w & k) >> white[1] & 1):
            white = FREE
        if not b & ~k or (black[1] >= 0 and not (b & k) >> black[1] & 1):
            black = FREE
        return (w, b, k, t, KingMoves(extra, white, black))

    def plain_positions(self) -> bool:
        """False: the position carries the kings' move counts."""
        return False

    # -- FEN: the host's, and the counts as a last field when one is not zero ----------

    def fen_sections(self, pos: State) -> list[tuple[str, int]]:
        return super().fen_sections(self._split(pos)[0])

    def fen_item(self, pos: State, square: int, name: str) -> str:
        return super().fen_item(self._split(pos)[0], square, name)

    def fen_fields(self, pos: State) -> list[str]:
        inner, state = self._split(pos)
        fields = super().fen_fields(inner)
        if state.white == FREE and state.black == FREE:
            return fields
        assert self.variant is not None

        def side(count: int, square: int) -> str:
            return f"+{count}" + (square_text(self.variant, square) if square >= 0 else "")  # type: ignore[arg-type]

        return [*fields, side(*state.black) + side(*state.white)]

    def fen_read(self, parts: FenParts) -> State:
        found: re.Match[str] | None = None
        rest = []
        for f in parts.fields:
            m = _FIELD.fullmatch(f)
            if m and found is None:
                found = m
            else:
                rest.append(f)
        w, b, k, t, extra = super().fen_read(replace(parts, fields=tuple(rest)))
        state = KingMoves(extra)
        if found is not None:
            black = self._counted(parts.fen, b & k, found.group(1), found.group(2))
            white = self._counted(parts.fen, w & k, found.group(3), found.group(4))
            state = KingMoves(extra, white if w & ~k else FREE, black if b & ~k else FREE)
        return (w, b, k, t, state)

    def _counted(self, fen: str, kings: int, count_text: str, square_text_: str) -> tuple[int, int]:
        """One side's (count, square) from the FEN field; a square named must be on the
        board, even with a count of zero (``+0+099``), and hold a king of that side when
        the count is not zero."""
        count = int(count_text)
        limit = self.rules.king_move_limit
        if count > limit:
            raise BadFenError(
                f"a king has made {count} moves in a row, more than the limit of {limit} "
                f"(FEN {quoted(fen, 80)})"
            )
        if not count and not square_text_:
            return FREE
        try:
            square = self.geo.parse_square(square_text_)
        except ValueError as exc:
            raise BadFenError(f"{exc} (FEN {quoted(fen, 80)})") from None
        if not count:
            return FREE
        if not kings >> square & 1:
            raise BadFenError(
                f"no king of that side on {quoted(square_text_)} for the move count "
                f"(FEN {quoted(fen, 80)})"
            )
        return (count, square)

    # -- what the players are told ---------------------------------------------------

    def why_not(self, pos: State, square: int) -> str | None:
        if square != self.restricted(pos) or self.variant is None:
            return super().why_not(pos, square)
        limit = self.rules.king_move_limit
        return ngettext(
            "In {variant} this king has made {n} move in a row: while you still have men "
            "it may only capture; move another piece.",
            "In {variant} this king has made {n} moves in a row: while you still have men "
            "it may only capture; move another piece.",
            limit,
        ).format(variant=self.variant.local_name, n=_number(limit))

    def panel_lines(
        self, pos: State, lines: list[str], square: int, legal: Sequence[FastMove]
    ) -> list[str]:
        """Which king may not make a simple move now, below the other lines."""
        lines = super().panel_lines(pos, lines, square, legal)
        sq = self.restricted(pos)
        if sq >= 0 and self.variant is not None:
            limit = self.rules.king_move_limit
            lines.append(
                ngettext(
                    "The king on {square} has made {n} move in a row: it may only capture",
                    "The king on {square} has made {n} moves in a row: it may only capture",
                    limit,
                ).format(square=square_text(self.variant, sq), n=_number(limit))
            )
        return lines
