"""Rule modifiers: one change to the rules, written once, applicable to any host game.

Each modifier may change the rule switches (data) and may add a mixin to the host's
generator class (code).  A variant file lists them: ``host = "brazilian"`` with
``modifiers = ["double-move"]`` gives double-move Brazilian draughts.

* ``giveaway`` (docs/rules/modified.md#giveaway): the player who cannot move wins.
* ``self-capture`` (docs/rules/modified.md#self-capture): own pieces may be jumped too; only enemy
  pieces oblige and count.
* ``demotion`` (docs/rules/modified.md#demotion): a captured king is turned into a man instead of
  leaving the board.
* ``move-opponent`` (docs/rules/modified.md#move-opponent): a player without a capture may make a
  quiet move with an opponent's piece.
* ``double-move`` (docs/rules/modified.md#double-move): each player makes two moves in a row.
* ``promotion-wins`` (docs/rules/switches.md#promotion-wins, Breakthrough): the first player to make
  a king wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from ..base.numbers import quoted
from ..i18n import _
from .errors import BadFenError
from .fen import square_text
from .hooks import walk_perft
from .move import FastMove
from .quiet import quiet_generator
from .switches import CaptureChoice, Irreversible, NoMoves, Rules

if TYPE_CHECKING:
    from .fen import FenParts
    from .movegen import MoveGenerator, State
    from .variant import Variant

    _Base = MoveGenerator
else:
    _Base = object


class DemotionMixin(_Base):
    """docs/rules/modified.md#demotion: jumped kings stay on the board as men of their colour."""

    def irreversibility(self) -> Irreversible:
        """Nothing: a demoted king is crowned again, and a man may come back where a man
        once stood (``B:WKh4,a3:BKg1,a5``: g1-f2 h4xe1 f2-g1 e1-h4 is the start again)."""
        return Irreversible.NOTHING

    def apply(self, pos: State, mv: FastMove) -> State:
        demoted = mv[4] & pos[2] & ~mv[3]
        new = super().apply(pos, mv)
        if not demoted:
            return new
        w, b, k, turn, extra = new
        # each keeps its colour (with self-capture a player's own king may be jumped)
        return (w | (demoted & pos[0]), b | (demoted & pos[1]), k & ~demoted, turn, extra)

    def plain_positions(self) -> bool:
        """False: a captured king stays on the board."""
        return False


class MoveOpponentMixin(_Base):
    """docs/rules/modified.md#move-opponent: with no capture of his own, a player may make a quiet
    move with any piece of either colour; a piece moves by the rules of its own colour.

    What the host cannot undo stays so (``irreversibility``): only own pieces capture,
    taking pieces off the board; a crowned man stays a king; a man, whoever moves it,
    only goes forward for its owner.
    """

    def configure(self, variant: Variant) -> None:
        super().configure(variant)
        self._quiet = quiet_generator(self.geo, self.rules)

    def moves(self, pos: State) -> list[FastMove]:
        w, b, k, turn, extra = pos
        if not (b if turn else w):
            return []  # no piece of his own: he has lost
        own = super().moves(pos)
        # a compulsory capture of his own (not, say, a voluntary jump of self-capture)
        if own and own[0].is_capture and self.rules.capture_mandatory and super().captures(pos):
            return own
        theirs = self._quiet.moves((w, b, k, turn ^ 1, extra))
        result: list[FastMove] = own + theirs
        return result

    def count(self, pos: State) -> int:
        return len(self.moves(pos))

    def apply(self, pos: State, mv: FastMove) -> State:
        w, b, k, turn, extra = pos
        if (b if turn else w) & mv[2]:
            return super().apply(pos, mv)
        # an opponent's piece: moved (and crowned) as its owner would, then the turn passes
        nw, nb, nk, _, nextra = super().apply((w, b, k, turn ^ 1, extra), mv)
        return (nw, nb, nk, turn ^ 1, nextra)

    def may_move_opponent_pieces(self) -> bool:
        """True: with no capture of his own, a player may move the opponent's pieces."""
        return True

    def panel_lines(
        self, pos: State, lines: list[str], square: int, legal: Sequence[FastMove]
    ) -> list[str]:
        """The opponent's pieces the side to move may move, below the other lines."""
        lines = super().panel_lines(pos, lines, square, legal)
        own = pos[pos[3]]
        theirs = {m.start for m in legal if not own >> m.start & 1}
        if theirs and self.variant is not None:
            v = self.variant
            names = (square_text(v, q) for q in sorted(theirs, key=v.board.number))
            lines.append(_("You may also move: {squares}").format(squares=", ".join(names)))
        return lines

    def plain_positions(self) -> bool:
        """False: a player may move the opponent's pieces."""
        return False


class HalfTurns(NamedTuple):
    """The extra state of a double-move position: the host's, and whether the next move
    is the turn's second."""

    extra: Any
    second: bool


class DoubleMoveMixin(_Base):
    """docs/rules/modified.md#double-move: a turn is two moves by the same player.

    The position's extra state becomes ``HalfTurns(host extra, second)`` where ``second``
    says the next move is the turn's second.  A second move that is impossible ends the
    turn; a first move that leaves the opponent without pieces ends the game.

    The hooks take either form of a position: the host's own code (and other modifiers
    below this one) call ``self.moves``, ``self.captures``… with the host's form.
    Every half-turn is a host move, so what the host cannot undo stays so.
    """

    @staticmethod
    def _inner(pos: State) -> State:
        extra = pos[4]
        if type(extra) is HalfTurns:
            return (pos[0], pos[1], pos[2], pos[3], extra.extra)
        return pos

    def host_position(self, pos: State) -> State:
        return super().host_position(self._inner(pos))

    def moves(self, pos: State) -> list[FastMove]:
        return super().moves(self._inner(pos))

    def captures(self, pos: State) -> list[FastMove]:
        return super().captures(self._inner(pos))

    def count(self, pos: State) -> int:
        return super().count(self._inner(pos))

    def piece_at(self, pos: State, square: int) -> Any:
        return super().piece_at(self._inner(pos), square)

    def material(self, pos: State) -> Any:
        return super().material(self._inner(pos))

    def key(self, pos: State) -> Any:
        if type(pos[4]) is HalfTurns:
            return (super().key(self._inner(pos)), pos[4].second)
        return super().key(pos)

    def apply(self, pos: State, mv: FastMove) -> State:
        if type(pos[4]) is not HalfTurns:  # the host's form: the host's move
            return super().apply(pos, mv)
        inner = self._inner(pos)
        w, b, k, turn, extra = super().apply(inner, mv)
        mover = pos[3]
        if pos[4].second:  # that was the second move: the opponent's turn begins
            return (w, b, k, turn, HalfTurns(extra, False))
        opponent_pieces = b if mover == 0 else w
        again = (w, b, k, mover, extra)
        if opponent_pieces and super().moves(again):
            return (w, b, k, mover, HalfTurns(extra, True))
        return (w, b, k, turn, HalfTurns(extra, False))

    def half_turn(self, pos: State) -> int:
        """1 or 2: which move of the turn the side to move is about to make."""
        return 2 if pos[4].second else 1

    def host_view(self) -> Callable[[State], State] | None:
        """The host's form of a position: without the half-turn."""
        below = super().host_view()
        inner = self._inner
        if below is None:
            return inner
        return lambda pos: below(inner(pos))

    def plain_positions(self) -> bool:
        """False: a turn is two moves."""
        return False

    # FEN: the host's, plus a field "T2" when the next move is the turn's second.
    def fen_sections(self, pos: State) -> list[tuple[str, int]]:
        return super().fen_sections(self._inner(pos))

    def fen_item(self, pos: State, square: int, name: str) -> str:
        return super().fen_item(self._inner(pos), square, name)

    def fen_fields(self, pos: State) -> list[str]:
        fields = super().fen_fields(self._inner(pos))
        return [*fields, "T2"] if pos[4].second else fields

    def fen_read(self, parts: FenParts) -> State:
        second = False
        rest = []
        for f in parts.fields:
            if f.upper() in ("T1", "T2"):
                second = f.upper() == "T2"
            else:
                rest.append(f)
        w, b, k, t, extra = super().fen_read(replace(parts, fields=tuple(rest)))
        return (w, b, k, t, HalfTurns(extra, second))


class SelfCaptureMixin(_Base):
    """docs/rules/modified.md#self-capture: a jump may pass over a piece of either colour.

    Compulsion, continuation and the majority count concern enemy pieces only: a
    sequence must go on while an enemy jump is available and may stop after any jump
    where none is; with no enemy capture on the board a player may make an ordinary
    move or a voluntary sequence of jumps over his own pieces.  Every jumped piece,
    own or enemy, leaves the board, so what the host cannot undo stays so.
    """

    general_precedence = False  # (free choice or majority only)

    def configure(self, variant: Variant) -> None:
        super().configure(variant)
        from .anycapture import AnyCaptureSearch

        self._any = AnyCaptureSearch(self.geo, self.rules)
        self._quiet = quiet_generator(self.geo, self.rules)

    def _sequences(self, pos: State) -> list[tuple[FastMove, int]]:
        w, b, k, turn, _ = pos
        own, opp = (b, w) if turn else (w, b)
        occupied = w | b
        search = self._any

        def may_stop(square: int, king: bool, occ: int, jumpable: int, last: int) -> bool:
            # allowed when no enemy piece can be jumped from here (by a legal jump: the
            # no-180° rule of the host counts)
            enemy = jumpable & opp
            return not search._jumps(square, king, occ, enemy, last)

        out = []
        bits = own
        while bits:
            low = bits & -bits
            bits ^= low
            sq = low.bit_length() - 1
            out.extend(search.search(sq, bool(k & low), occupied, occupied, opp, turn, may_stop))
        return out

    def moves(self, pos: State) -> list[FastMove]:
        seqs = self._sequences(pos)
        enemy = [(m, n) for m, n in seqs if n > 0]
        if enemy and self.rules.capture_mandatory:
            if self.rules.capture_choice is CaptureChoice.MAJORITY:
                best = max(n for _, n in enemy)
                return [m for m, n in enemy if n == best]
            return [m for m, _ in enemy]
        quiet: list[FastMove] = self._quiet.moves(pos)
        return quiet + [m for m, _ in seqs]

    def captures(self, pos: State) -> list[FastMove]:
        return [m for m, n in self._sequences(pos) if n > 0]

    def count(self, pos: State) -> int:
        return len(self.moves(pos))

    def apply(self, pos: State, mv: FastMove) -> State:
        w, b, k, turn, extra = super().apply(pos, mv)
        cm = mv[4]
        return (w & ~cm, b & ~cm, k & ~cm, turn, extra)

    def plain_positions(self) -> bool:
        """False: own pieces may be jumped."""
        return False


class PromotionWinsMixin(_Base):
    """docs/rules/switches.md#promotion-wins: the first player with a king on the board has won.

    A move that leaves its player a king ends the game (``first_king_wins`` tells the
    end rules and the search who won); the position after it has no legal move, and
    perft counts nothing below it.  A king exists only once the game is over, so the
    side to move owning one is a finished game: its FEN is refused.  Crowning is the
    host's: a man that only passes the far row during an ``at-end`` capture is not
    crowned; under ``continue-as-king`` the crowning wins at the end of the move.
    """

    def first_king_wins(self) -> bool:
        """True: whoever owns a king has won."""
        return True

    def moves(self, pos: State) -> list[FastMove]:
        if pos[2]:
            return []
        return super().moves(pos)

    def captures(self, pos: State) -> list[FastMove]:
        if pos[2]:
            return []
        return super().captures(pos)

    def count(self, pos: State) -> int:
        if pos[2]:
            return 0
        return super().count(pos)

    def horizon(self, pos: State) -> tuple[list[FastMove], bool]:
        if pos[2]:
            return [], False
        return super().horizon(pos)

    def perft(self, pos: State, depth: int) -> int:
        """Perft over the hooks below, with the king tested once per node."""
        if depth <= 0:
            return 1
        return walk_perft(
            pos, depth, super().moves, super().count, self.apply, lambda p: bool(p[2])
        )

    def plain_positions(self) -> bool:
        """False: a king ends the game."""
        return False

    def fen_read(self, parts: FenParts) -> State:
        pos = super().fen_read(parts)
        if pos[2] & pos[pos[3]]:
            raise BadFenError(
                "the side to move owns a king: when the first king wins, that game is "
                f"already over (FEN {quoted(parts.fen, 80)})"
            )
        return pos


@dataclass(frozen=True)
class Modifier:
    name: str
    description: str
    mixin: type | None = None
    rules_changes: tuple[tuple[str, Any], ...] = ()
    #: The generator families whose positions the mixin understands (empty: every one).  Bashni's
    #: columns and Artamonov's colourless pieces are no pieces of two colours.
    families: tuple[str, ...] = ()

    def adjust_rules(self, rules: Rules) -> Rules:
        return replace(rules, **dict(self.rules_changes)) if self.rules_changes else rules


MODIFIERS: dict[str, Modifier] = {
    m.name: m
    for m in (
        Modifier(
            "giveaway",
            "the player who cannot move (no pieces, or all blocked) wins",
            rules_changes=(("no_moves", NoMoves.WINS),),
        ),
        Modifier(
            "self-capture",
            "your own pieces may be captured too",
            SelfCaptureMixin,
            families=("standard",),
        ),
        Modifier(
            "demotion",
            "a captured king becomes a man instead of leaving the board",
            DemotionMixin,
            families=("standard",),
        ),
        Modifier(
            "move-opponent",
            "you may move one of your opponent's pieces",
            MoveOpponentMixin,
            families=("standard", "bashni"),
        ),
        Modifier(
            "double-move",
            "each player makes two moves in a row",
            DoubleMoveMixin,
            families=("standard", "bashni"),
        ),
        Modifier(
            "promotion-wins",
            "the first player to make a king wins",
            PromotionWinsMixin,
            families=("standard",),
        ),
    )
}

__all__ = ["MODIFIERS", "Modifier"]
