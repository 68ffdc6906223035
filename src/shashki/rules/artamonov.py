"""Artamonov's single-colour draughts (docs/rules/family.md#artamonov).

24 pieces of one colour are shared by two players, South (sitting at rank 1, side 0)
and North (side 1).  "Forward" is the moving player's: towards rank 8 for South, rank 1
for North.  A player moves or captures with any piece except the one that made the
previous move (it may be captured, though).  Men step and capture forward only; a man's
multi-capture goes on with forward jumps and ends when only backward jumps remain.
Kings fly and capture in all directions and are shared too.  Capturing is compulsory
with the majority rule.  Each player's captured pieces are counted: when four or fewer
pieces remain and the game has not ended 30 plies later, the player who captured more
wins (equal: a draw); a threefold repetition is decided the same way.

The position keeps every piece in the ``white`` bitboard (``black`` stays empty) and,
as extra state, ``(frozen square or -1, South's captures, North's captures, plies since
four or fewer pieces remained or -1)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..base.numbers import bounded_int, quoted
from ..i18n import N_, _, ngettext
from .anycapture import AnyCaptureSearch
from .errors import BadFenError
from .fen import MAX_COUNTER, FenParts, square_text
from .geometry import absolute_direction
from .move import FastMove, Kind, Piece
from .movegen import MoveGenerator, State
from .outcome import Outcome, Termination
from .quiet import quiet_generator
from .switches import CaptureChoice, Irreversible, Rules

if TYPE_CHECKING:
    from .endrules import Played

#: Pieces left on the board that start the tie-break count, and its length in plies.
TIE_BREAK_PIECES = 4
TIE_BREAK_PLIES = 30


def _men_kings(men: int, kings: int) -> str:
    """ "8 men, 1 king" in the language spoken now."""
    return _("{men}, {kings}").format(
        men=ngettext("{n} man", "{n} men", men).format(n=men),
        kings=ngettext("{n} king", "{n} kings", kings).format(n=kings),
    )


class ArtamonovGenerator(MoveGenerator):
    general_precedence = False  # (free choice or majority only)

    def __init__(self, geo: Any, rules: Rules) -> None:
        super().__init__(geo, rules)
        self._quiet = quiet_generator(geo, rules)
        self._search = AnyCaptureSearch(geo, rules)
        self._promo_rows = (geo.rank_mask[geo.height - 1], geo.rank_mask[0])
        # the signed shift of each man's jump direction, per side: a man can jump only
        # where a piece is next to it and the square beyond is empty
        self._man_shifts = tuple(
            tuple(geo.shift[absolute_direction(n, side)] for n in rules.man_captures)
            for side in (0, 1)
        )

    def irreversibility(self) -> Irreversible:
        """Captures and crownings only: a man is moved forward by either player, so South
        may move back a man North has just moved."""
        return min(super().irreversibility(), Irreversible.MATERIAL)

    def _men_that_can_jump(self, men: int, pieces: int, turn: int) -> int:
        empty = self.geo.mask & ~pieces
        out = 0
        for s in self._man_shifts[turn]:
            if s > 0:
                out |= men & (pieces >> s) & (empty >> (2 * s))
            else:
                out |= men & (pieces << -s) & (empty << (-2 * s))
        return out

    @staticmethod
    def _extra(pos: State) -> tuple[int, int, int, int]:
        return pos[4] if pos[4] is not None else (-1, 0, 0, -1)

    def piece_at(self, pos: State, square: int) -> Piece | None:
        bit = 1 << square
        if not pos[0] & bit:
            return None
        return Piece(None, Kind.KING if pos[2] & bit else Kind.MAN)

    def material(self, pos: State) -> tuple[tuple[int, int], tuple[int, int]]:
        kings = (pos[0] & pos[2]).bit_count()
        return (kings, pos[0].bit_count() - kings), (0, 0)

    def key(self, pos: State) -> Any:
        """The position for the repetition rule: without the tie-break's ply count, which
        grows every ply and would hide a repetition once four or fewer pieces remain."""
        frozen, south, north, _ = self._extra(pos)
        return (pos[0], pos[2], pos[3], frozen, south, north)

    def has_pieces(self, pos: State, side: int) -> bool:
        """The pieces belong to no side: a side has pieces while any are left."""
        return bool(pos[0] | pos[1])

    def frozen(self, pos: State) -> int:
        """The square of the piece that may not move now, or -1."""
        return self._extra(pos)[0]

    def captured_counts(self, pos: State) -> tuple[int, int]:
        """Pieces captured so far by South and by North."""
        e = self._extra(pos)
        return e[1], e[2]

    # -- what the app and the engine ask ------------------------------------------------

    def panel_lines(
        self, pos: State, lines: list[str], square: int, legal: Sequence[FastMove]
    ) -> list[str]:
        """Instead of each side's pieces (they are shared): the pieces on the board, each
        player's captures, which way is forward for the side to move, the frozen piece."""
        v = self.variant
        if v is None:
            return lines
        (kings, men), _none = self.material(pos)
        south, north = self.captured_counts(pos)
        turn = pos[3]
        forward = _("up (towards rank 8)") if turn == 0 else _("down (towards rank 1)")
        south_name, north_name = v.local_side(0), v.local_side(1)
        out = [
            _("Pieces: {pieces}").format(pieces=_men_kings(men, kings)),
            _("Captured: {south} {south_count}, {north} {north_count}").format(
                south=south_name, south_count=south, north=north_name, north_count=north
            ),
            _("Forward for {side}: {way}").format(
                side=south_name if turn == 0 else north_name, way=forward
            ),
        ]
        frozen = self.frozen(pos)
        if frozen >= 0:
            out.append(_("Frozen: {square} (moved last)").format(square=square_text(v, frozen)))
        return out

    def evaluation_family(self) -> str:
        """The shared pieces' evaluation: the captured counts and the crowning chances."""
        return "shared-pieces"

    def plain_positions(self) -> bool:
        """False: the pieces have no colour, and the frozen piece and the counts are
        part of the position."""
        return False

    # -- moves ----------------------------------------------------------------------

    def captures(self, pos: State) -> list[FastMove]:
        pieces, _, k, turn, _ = pos
        frozen = self._extra(pos)[0]
        movers = pieces & ~(1 << frozen) if frozen >= 0 else pieces
        found: list[tuple[FastMove, int]] = []
        # only kings and the men with a first jump need the full search
        bits = (movers & k) | self._men_that_can_jump(movers & ~k, pieces, turn)
        while bits:
            low = bits & -bits
            bits ^= low
            sq = low.bit_length() - 1
            found.extend(self._search.search(sq, bool(k & low), pieces, pieces, pieces, turn))
        if not found:
            return []
        if self.rules.capture_choice is CaptureChoice.MAJORITY:
            best = max(n for _, n in found)
            return [m for m, n in found if n == best]
        return [m for m, _ in found]

    def moves(self, pos: State) -> list[FastMove]:
        caps = self.captures(pos)
        if caps and self.rules.capture_mandatory:
            return caps
        pieces, _, k, turn, _ = pos
        frozen = self._extra(pos)[0]
        fbit = 1 << frozen if frozen >= 0 else 0
        movers = pieces & ~fbit
        # the mover's pieces as "own", the frozen one as a mere obstacle
        own_view = (fbit, movers, k, 1, None) if turn else (movers, fbit, k, 0, None)
        return caps + self._quiet.moves(own_view)

    def count(self, pos: State) -> int:
        return len(self.moves(pos))

    def apply(self, pos: State, mv: FastMove) -> State:
        pieces, _, k, turn, _ = pos
        _frozen, south, north, low = self._extra(pos)
        fm, tm, cm = mv[2], mv[3], mv[4]
        was_king = k & fm
        pieces = ((pieces ^ fm) & ~cm) | tm
        k &= ~(fm | cm)
        if was_king or (self.rules.promotion and tm & self._promo_rows[turn]):
            k |= tm
        taken = cm.bit_count()
        if turn:
            north += taken
        else:
            south += taken
        if low >= 0:
            low += 1
        elif pieces.bit_count() <= TIE_BREAK_PIECES:
            low = 0
        return (pieces, 0, k, turn ^ 1, (mv[0][-1], south, north, low))

    # -- the end of the game ------------------------------------------------------------

    def decide_tie_break(self, pos: State, message: str) -> Outcome:
        """The tie-break by the captured pieces; ``message`` says the rule that called it
        (a message of the catalogs, with the placeholders ``{plies}``, ``{pieces}``,
        ``{south}``, ``{south_count}``, ``{north}``, ``{north_count}``), in English in
        the outcome's rule and in the language spoken where it is described."""
        from .move import Color

        _pieces, south, north, _low = self._extra(pos)
        names = self.variant.side_names if self.variant else ("South", "North")
        winner = None if south == north else Color.WHITE if south > north else Color.BLACK
        words: dict[str, object] = {
            "plies": TIE_BREAK_PLIES,
            "pieces": TIE_BREAK_PIECES,
            "south": Color.WHITE,
            "north": Color.BLACK,
            "south_count": south,
            "north_count": north,
        }
        detail = message.format(**{**words, "south": names[0], "north": names[1]})
        return Outcome(Termination.TIE_BREAK, winner, detail, message, words)

    def decide(self, game: Played) -> Outcome | None:
        pos = game.state
        if self._extra(pos)[3] >= TIE_BREAK_PLIES:
            return self.decide_tie_break(
                pos,
                N_(
                    "{plies} plies with {pieces} or fewer pieces on the board; captured "
                    "pieces: {south} {south_count}, {north} {north_count}"
                ),
            )
        # a threefold repetition is decided by the captured pieces too
        if game.repetitions() >= 3:
            return self.decide_tie_break(
                pos,
                N_(
                    "the same position three times; captured pieces: {south} {south_count}, "
                    "{north} {north_count}"
                ),
            )
        return None

    # -- FEN: "W:N1-12,21-32:Zc3:C1,0:L5" ---------------------------------------------------

    def fen_sections(self, pos: State) -> list[tuple[str, int]]:
        return [("N", pos[0])]

    def fen_fields(self, pos: State) -> list[str]:
        frozen, south, north, low = self._extra(pos)
        out = []
        if frozen >= 0:
            name = self.geo.name(frozen)
            if self.variant is not None and self.variant.numeric:
                name = str(self.geo.number(frozen))
            out.append(f"Z{name}")
        if south or north:
            out.append(f"C{south},{north}")
        if low >= 0:
            out.append(f"L{low}")
        return out

    def fen_read(self, parts: FenParts) -> State:
        fen, neutral = parts.fen, parts.neutral
        if parts.white or parts.black:
            raise BadFenError(
                _(
                    "Artamonov's pieces have no colour: list them in an N section (FEN {fen})"
                ).format(fen=quoted(fen, 80))
            )
        if parts.stacks:
            raise BadFenError(
                _("this variant has no columns of pieces (FEN {fen})").format(fen=quoted(fen, 80))
            )
        frozen, south, north, low = -1, 0, 0, -1
        for f in parts.fields:
            head, body = f[:1].upper(), f[1:]
            try:
                if head == "Z":
                    frozen = self.geo.parse_square(body)
                    if not neutral >> frozen & 1:
                        raise BadFenError(
                            _("the frozen square {square} is empty in FEN {fen}").format(
                                square=body, fen=quoted(fen, 80)
                            )
                        )
                elif head == "C":
                    # counts of captured pieces: small numbers of any length are refused
                    s_text, _sep, n_text = body.partition(",")
                    most = len(self.geo.squares)
                    s_count, n_count = bounded_int(s_text, most), bounded_int(n_text, most)
                    if s_count is None or n_count is None:
                        raise BadFenError(
                            _("bad field {field} in FEN {fen}").format(
                                field=quoted(f), fen=quoted(fen, 80)
                            )
                        )
                    south, north = s_count, n_count
                elif head == "L":
                    l_count = bounded_int(body, MAX_COUNTER)
                    if l_count is None:
                        raise BadFenError(
                            _("bad field {field} in FEN {fen}").format(
                                field=quoted(f), fen=quoted(fen, 80)
                            )
                        )
                    low = l_count
                else:
                    raise BadFenError(
                        _("unexpected field {field} in FEN {fen}").format(
                            field=quoted(f), fen=quoted(fen, 80)
                        )
                    )
            except ValueError as exc:
                if isinstance(exc, BadFenError):
                    raise
                raise BadFenError(
                    _("bad field {field} in FEN {fen}").format(field=quoted(f), fen=quoted(fen, 80))
                ) from None
        if low < 0 and neutral.bit_count() <= TIE_BREAK_PIECES:
            low = 0  # the tie-break count starts at the first moment: now, at the latest
        return (neutral, 0, parts.kings & neutral, parts.turn, (frozen, south, north, low))
