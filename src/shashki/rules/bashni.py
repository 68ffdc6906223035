"""Bashni, column draughts (docs/rules/family.md#bashni).

Every occupied square holds a column of pieces, written bottom to top with ``w b W B``
(white man, black man, white king, black king).  The top piece commands: the column
belongs to its colour and moves and captures as it would, by the Russian rules of the
host.  Jumping a column takes only its top piece, which goes at once to the bottom of
the capturing column; what is left of the jumped column stays, commanded by its new
top piece (a column is "freed" when that piece is of the other colour).  A column may be
jumped again later in the same move, but not by the jump right after the one that took
from it.  Only the commander is crowned.

The position keeps the commanders in the usual bitboards (``white``, ``black``,
``kings``) and, as its extra state, the columns of two or more pieces:
a sorted tuple of ``(square, stack)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..base.numbers import quoted
from ..i18n import _
from .errors import BadFenError
from .fen import FenParts, square_text
from .geometry import absolute_direction
from .interrupt import STEPS, poll
from .move import Color, FastMove, Kind, Piece
from .movegen import MoveGenerator, State
from .quiet import quiet_generator
from .switches import CaptureChoice, Irreversible, KingLanding, PromotionInCapture, Rules

Columns = tuple[tuple[int, str], ...]
_CODES = {"w": (0, False), "b": (1, False), "W": (0, True), "B": (1, True)}


def _code(color: int, king: bool) -> str:
    return ("B" if king else "b") if color else ("W" if king else "w")


class _Stacks(dict):  # type: ignore[type-arg]
    """The columns by square during a capture search; a single piece's one-letter column
    is made from the bitboards the first time its square is looked at."""

    __slots__ = ("b", "k", "w")

    def __init__(self, cols: Columns, w: int, b: int, k: int) -> None:
        super().__init__(cols)
        self.w, self.b, self.k = w, b, k

    def __missing__(self, sq: int) -> str:
        bit = 1 << sq
        code = _code(1 if self.b & bit else 0, bool(self.k & bit))
        self[sq] = code
        return code


class BashniGenerator(MoveGenerator):
    """Move generation for columns; quiet moves are those of the host rules."""

    general_precedence = False  # (free choice or majority only)

    def __init__(self, geo: Any, rules: Rules) -> None:
        super().__init__(geo, rules)
        self._quiet = quiet_generator(geo, rules)
        self._man_dirs = (
            tuple(int(absolute_direction(n, 0)) for n in rules.man_captures),
            tuple(int(absolute_direction(n, 1)) for n in rules.man_captures),
        )
        self._king_dirs = tuple(int(absolute_direction(n, 0)) for n in rules.king_captures)
        self._promo_rows = (geo.rank_mask[geo.height - 1], geo.rank_mask[0])
        self._masks: dict[Columns, int] = {}
        self._steps = STEPS  # steps of the capture search until the next poll
        self._seen: dict[Any, bool] = {}  # the states of the capture search met so far

    def irreversibility(self) -> Irreversible:
        """Nothing is for good: a captured piece goes under the capturing column and
        comes back up when the pieces above it are taken in turn (``b2:g7 h8:f6:d4 e5:c3
        g7-h8 d4-e3 h8:a1 e3-c1 c3-h8 c1-b2 a1:e5`` from ``W:WKb2:BKh8,e5=WWB`` comes back
        to it after four captures), and a column's move may carry any pieces."""
        return Irreversible.NOTHING

    # -- columns ------------------------------------------------------------------

    def stack(self, pos: State, square: int) -> str:
        """The column on ``square`` bottom to top ("" if empty)."""
        pos = self.host_position(pos)
        for sq, st in pos[4] or ():
            if sq == square:
                return str(st)
        bit = 1 << square
        if pos[0] & bit:
            return _code(0, bool(pos[2] & bit))
        if pos[1] & bit:
            return _code(1, bool(pos[2] & bit))
        return ""

    def column(self, pos: State, square: int) -> list[Piece]:
        """The pieces of the column on ``square``, bottom first."""
        return [
            Piece(Color(_CODES[c][0]), Kind.KING if _CODES[c][1] else Kind.MAN)
            for c in self.stack(pos, square)
        ]

    def material(self, pos: State) -> tuple[tuple[int, int], tuple[int, int]]:
        """(kings, men) commanded by each side (pieces inside columns are prisoners)."""
        return super().material(pos)

    # -- what the app and the engine ask ------------------------------------------------

    def panel_lines(
        self, pos: State, lines: list[str], square: int, legal: Sequence[FastMove]
    ) -> list[str]:
        """The column under the cursor, top first, below the screen's own lines."""
        lines = super().panel_lines(pos, lines, square, legal)
        if square >= 0 and self.variant is not None:
            st = self.stack(pos, square)
            if st:
                where = square_text(self.variant, square)
                lines.append(
                    _("Column {square} (top first): {pieces}").format(
                        square=where, pieces=" ".join(reversed(st))
                    )
                )
        return lines

    def panel_follows_cursor(self) -> bool:
        """True: the panel shows the column under the cursor."""
        return True

    def evaluation_family(self) -> str:
        """The columns' evaluation: the commanders, and the pieces inside the columns."""
        return "stacks"

    def plain_positions(self) -> bool:
        """False: the squares hold columns."""
        return False

    # -- moves ----------------------------------------------------------------------

    def moves(self, pos: State) -> list[FastMove]:
        caps = self.captures(pos)
        if caps and self.rules.capture_mandatory:
            return caps
        return caps + self._quiet.moves((pos[0], pos[1], pos[2], pos[3], None))

    def count(self, pos: State) -> int:
        caps = self.captures(pos)
        if caps and self.rules.capture_mandatory:
            return len(caps)
        return len(caps) + self._quiet.count((pos[0], pos[1], pos[2], pos[3], None))

    def captures(self, pos: State) -> list[FastMove]:
        w, b, k, turn, cols = pos
        own = b if turn else w
        # a column's first jump is the host's first jump over the commanders: where the
        # host's (fast) generator finds none, there is none
        first = MoveGenerator.captures(self, (w, b, k, turn, None)) if own else []
        if not first:
            return []
        if self.rules.capture_choice is CaptureChoice.FREE:  # (no majority filter hid any)
            own = 0
            for m in first:
                own |= 1 << m.start
        # the columns as strings; single pieces are read from the bitboards when first
        # looked at (the search only looks at occupied squares)
        stacks = _Stacks(cols or (), w, b, k)
        occ = w | b
        found: dict[Any, FastMove] = {}
        bits = own
        while bits:
            low = bits & -bits
            bits ^= low
            sq = low.bit_length() - 1
            moving = stacks[sq]
            del stacks[sq]
            king = moving[-1] in "WB"
            self._seen = {}
            self._walk(sq, sq, king, list(moving), stacks, occ & ~low, turn, -1, [sq], [], found)
            self._seen = {}
            stacks[sq] = moving
        moves = list(found.values())
        if self.rules.capture_choice is CaptureChoice.MAJORITY and moves:
            best = max(len(m[1]) for m in moves)
            moves = [m for m in moves if len(m[1]) == best]
        return moves

    def _jumps(
        self, cur: int, king: bool, stacks: dict[int, str], occ: int, turn: int, last_victim: int
    ) -> list[tuple[int, int, list[int]]]:
        geo = self.geo
        out = []
        enemy = ("w", "W") if turn else ("b", "B")
        if king and self.rules.king_captures_fly:
            for d in self._king_dirs:
                ray = geo.ray[d][cur]
                i = 0
                while i < len(ray) and not occ >> ray[i] & 1:
                    i += 1
                if i >= len(ray) - 1:
                    continue
                v = ray[i]
                if v == last_victim or stacks[v][-1] not in enemy:
                    continue
                lands = []
                j = i + 1
                while j < len(ray) and not occ >> ray[j] & 1:
                    lands.append(ray[j])
                    j += 1
                if lands:
                    out.append((d, v, lands))
            return out
        for d in self._king_dirs if king else self._man_dirs[turn]:
            v = geo.step[d][cur]
            if v < 0 or not occ >> v & 1 or v == last_victim or stacks[v][-1] not in enemy:
                continue
            land = geo.step[d][v]
            if land >= 0 and not occ >> land & 1:
                out.append((d, v, [land]))
        return out

    def _walk(
        self,
        start: int,
        cur: int,
        king: bool,
        moving: list[str],
        stacks: dict[int, str],
        occ: int,
        turn: int,
        last_victim: int,
        path: list[int],
        caps: list[int],
        found: dict[Any, FastMove],
    ) -> bool:
        # A state met before adds no move (see MoveGenerator's capture search): the
        # columns follow from the pieces taken from each square (not their order), the
        # moving column is written out, and the last victim may not be jumped next.
        state = None
        if len(caps) > 1:
            state = (cur, king, last_victim, tuple(sorted(caps)), "".join(moving))
            seen = self._seen.get(state)
            if seen is not None:
                return seen
            self._steps -= 1
            if not self._steps:  # a search with a deadline may stop a long generation
                self._steps = STEPS
                poll()
        jumps = self._jumps(cur, king, stacks, occ, turn, last_victim)
        if not jumps:
            if state is not None:
                self._seen[state] = False
            return False
        promo = self._promo_rows[turn] if self.rules.promotion else 0
        must_continue = self.rules.king_landing is KingLanding.MUST_CONTINUE
        for _d, v, lands in jumps:
            victim = stacks[v]
            prisoner, rest = victim[-1], victim[:-1]
            moving.insert(0, prisoner)
            if rest:
                stacks[v] = rest
                occ2 = occ
            else:
                del stacks[v]
                occ2 = occ & ~(1 << v)
            caps.append(v)
            terminal = []
            goes_on = False
            for land in lands:
                path.append(land)
                crowned = not king and bool(promo >> land & 1)
                top = moving[-1]
                if crowned and self.rules.promotion_in_capture is not PromotionInCapture.AT_END:
                    moving[-1] = top.upper()
                now_king = king or (
                    crowned
                    and self.rules.promotion_in_capture is PromotionInCapture.CONTINUE_AS_KING
                )
                if crowned and self.rules.promotion_in_capture is PromotionInCapture.STOP:
                    self._record(start, land, moving, path, caps, found)
                elif self._walk(
                    start, land, now_king, moving, stacks, occ2, turn, v, path, caps, found
                ):
                    goes_on = True
                else:
                    terminal.append((land, moving[-1]))
                moving[-1] = top
                path.pop()
            if not (goes_on and must_continue):
                for land, top_code in terminal:
                    path.append(land)
                    saved = moving[-1]
                    moving[-1] = top_code
                    self._record(start, land, moving, path, caps, found)
                    moving[-1] = saved
                    path.pop()
            caps.pop()
            stacks[v] = victim
            moving.pop(0)
        if state is not None:
            self._seen[state] = True
        return True

    def _record(
        self,
        start: int,
        end: int,
        moving: list[str],
        path: list[int],
        caps: list[int],
        found: dict[Any, FastMove],
    ) -> None:
        # One move per resulting position (docs/rules/conventions.md#move-identity): the column that
        # arrives and how many pieces were taken from each square decide it.
        top = moving[-1]
        if self.rules.promotion_in_capture is PromotionInCapture.AT_END and top in "wb":
            if self._promo_rows[0 if top == "w" else 1] >> end & 1 and self.rules.promotion:
                top = top.upper()
        key = (start, end, "".join(moving[:-1]) + top, tuple(sorted(caps)))
        if key not in found:
            found[key] = FastMove(path, caps)

    def apply(self, pos: State, mv: FastMove) -> State:
        w, b, k, turn, cols = pos
        path, caps = mv[0], mv[1]
        start, end = path[0], path[-1]
        if not caps and not (cols and self._column_mask(cols) >> start & 1):
            # a single piece steps: the host's move, the other columns stay
            nw, nb, nk, nturn, _ = super().apply((w, b, k, turn, None), mv)
            return (nw, nb, nk, nturn, cols)
        stacks = dict(cols or ())

        def take(sq: int) -> str:
            nonlocal w, b, k
            bit = 1 << sq
            st = stacks.pop(sq, None) or _code(1 if b & bit else 0, bool(k & bit))
            w &= ~bit
            b &= ~bit
            k &= ~bit
            return st

        def put(sq: int, st: str) -> None:
            nonlocal w, b, k
            bit = 1 << sq
            color, is_king = _CODES[st[-1]]
            if color:
                b |= bit
            else:
                w |= bit
            if is_king:
                k |= bit
            if len(st) > 1:
                stacks[sq] = st
            else:
                stacks.pop(sq, None)

        moving = take(start)
        for c in caps:
            victim = take(c)
            moving = victim[-1] + moving
            if len(victim) > 1:
                put(c, victim[:-1])
        top = moving[-1]
        if top in "wb" and self.rules.promotion:
            promo = self._promo_rows[0 if top == "w" else 1]
            continues = self.rules.promotion_in_capture is PromotionInCapture.CONTINUE_AS_KING
            if (mv[5] if continues else mv[3]) & promo:
                moving = moving[:-1] + top.upper()
        put(end, moving)
        return (w, b, k, turn ^ 1, tuple(sorted(stacks.items())) or None)

    def _column_mask(self, cols: Columns) -> int:
        """The squares of the columns of two or more pieces (memoised: positions repeat)."""
        cache = self._masks
        mask = cache.get(cols)
        if mask is None:
            mask = 0
            for sq, _ in cols:
                mask |= 1 << sq
            if len(cache) > 50_000:
                cache.clear()
            cache[cols] = mask
        return mask

    # -- FEN: "e5=bW" lists a column bottom to top ------------------------------------

    def fen_item(self, pos: State, square: int, name: str) -> str:
        st = self.stack(pos, square)
        if len(st) > 1:
            return f"{name}={st}"
        return super().fen_item(pos, square, name)

    def fen_read(self, parts: FenParts) -> State:
        fen, stacks = parts.fen, parts.stacks
        base = super().fen_read(replace(parts, stacks={}))
        w, b, k = base[0], base[1], base[2]
        cols = []
        # no game holds more pieces than its board has squares: a column of a million
        # pieces is refused, not walked
        room = len(self.geo.squares)
        if sum(len(st) for st in stacks.values()) > room:
            raise BadFenError(
                f"FEN {quoted(fen, 80)} has more pieces in its columns than the board has "
                f"squares ({room})"
            )
        for sq, st in sorted(stacks.items()):
            if any(c not in _CODES for c in st):
                raise BadFenError(
                    f"column {quoted(st)} in FEN {quoted(fen, 80)}: use the letters w b W B"
                )
            color, is_king = _CODES[st[-1]]
            bit = 1 << sq
            if not (b if color else w) & bit:
                raise BadFenError(
                    f"column {quoted(st)} in FEN {quoted(fen, 80)} is listed under the other "
                    "colour than its top piece"
                )
            if is_king:
                k |= bit
            elif k & bit:
                raise BadFenError(
                    f"column {quoted(st)} in FEN {quoted(fen, 80)} has a man on top but is marked K"
                )
            if len(st) > 1:
                cols.append((sq, st))
        return (w, b, k, parts.turn, tuple(cols) or None)
