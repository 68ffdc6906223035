"""The end of the game, compiled from the variant's data: its goals, the no-legal-move
rule, its own decisions (Artamonov's tie-break) and its draw rules, in that order.

:meth:`EndRules.outcome_of` is the one implementation: :meth:`shashki.rules.Game.outcome`
asks it about the game, and the search (:mod:`shashki.engine.search`) about its own
state through :meth:`EndRules.outcome`, :meth:`EndRules.draw_rule` and the compiled
tables.  It is built for the search: the draw rules are tuples checked from the
cheapest condition up, the legal moves are those already generated, and the history is
a plain list of repetition keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..i18n import N_
from .hooks import GeneratorHooks
from .move import Color, FastMove
from .movegen import MoveGenerator, State
from .outcome import MATERIAL_AT_ONCE, MATERIAL_DRAW, Material, NoWinWithin, Outcome, Termination
from .switches import Counter, DrawRule, Irreversible, MaterialPattern, NoMoves
from .variant import Variant

#: No bound on the number of pieces a rule's material condition allows.
_ANY = 1 << 30

#: Compiled draw rule: (kind, threshold, counter index, piece bound, rule, termination).
#: kind 0 = repetition (threshold = count), 1 = counter or material rule.
_Compiled = tuple[int, int, int, int, DrawRule, Termination]


def _pattern_men(rule: DrawRule) -> int:
    """The most men the board may hold while the rule's material condition holds."""
    if not (rule.strong and rule.weak):
        return _ANY
    patterns = rule.strong + rule.weak
    if any(p.men_or_more for p in patterns):
        return _ANY
    return max(p.men for p in rule.strong) + max(p.men for p in rule.weak)


def _pattern_total(rule: DrawRule) -> int:
    """The most pieces the board may hold while the rule's material condition holds."""
    if rule.total:
        return max(rule.total)
    if not (rule.strong and rule.weak):
        return _ANY

    def most(patterns: Sequence[MaterialPattern]) -> int:
        if any(p.kings_or_more or p.men_or_more for p in patterns):
            return _ANY
        return max(p.kings + p.men for p in patterns)

    return min(_ANY, most(rule.strong) + most(rule.weak))


class Played(Protocol):
    """What the end rules (and a generator's ``decide`` hook) read of a game: the position
    and how often it has occurred.  A Game is one; the search makes a :class:`GameView`."""

    @property
    def state(self) -> State: ...

    def repetitions(self) -> int: ...


class GameView:
    """What a generator's ``decide`` hook reads of a game: the position and how often it
    occurred.  Lets the hook run on the search's state without building a Game."""

    __slots__ = ("_count", "state")

    def __init__(self, state: State, count: Callable[[], int]) -> None:
        self.state = state
        self._count = count

    def repetitions(self) -> int:
        return int(self._count())


class EndRules:
    """The ways a game of ``variant`` ends, checked on a Game or on the search's state.

    The state is: the position, its legal moves, the two draw counters (plies since the
    last man move or capture, plies since the last capture or promotion) and how often
    the position has occurred (for the search: the list of repetition keys of the
    positions played so far, the current one last).
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        gen = variant.generator
        self.gen = gen
        board = variant.board
        self.names = variant.side_names
        self.goals = tuple(
            (int(g.side), board.rank_mask[g.rank - 1], g.name) for g in variant.goals
        )
        self.no_moves_wins = variant.rules.no_moves is NoMoves.WINS
        #: Whether a king on the board means its owner has won (``promotion-wins``).
        self.king_wins = gen.first_king_wins()
        self.decide = gen.decide if type(gen).decide is not GeneratorHooks.decide else None
        self.key: Callable[[State], Any] | None = (
            None if type(gen).key is MoveGenerator.key else gen.key
        )
        self.road = board.main_road
        #: What the moves can never undo: how far back a repetition is looked for.
        self.irreversible = gen.irreversible
        compiled: list[_Compiled] = []
        for rule in variant.draws:
            if rule.kind == "repetition":
                compiled.append((0, rule.count, 0, _ANY, rule, Termination.REPETITION))
                continue
            if rule.counter is None:
                kind = Termination.MATERIAL
            elif rule.has_material_condition:
                kind = Termination.ENDGAME_LIMIT
            else:
                kind = Termination.MOVE_LIMIT
            counter = {None: 0, Counter.REVERSIBLE: 1, Counter.MATERIAL: 2}[rule.counter]
            compiled.append(
                (1, rule.plies if counter else 0, counter, _pattern_total(rule), rule, kind)
            )
        self.draws = tuple(compiled)
        #: Whether repeating a position can end the game (a draw rule or the variant's own
        #: decision, which may count repetitions).
        self.repetition_ends = any(c[0] == 0 for c in compiled) or self.decide is not None
        self.repetition_count = min((c[1] for c in compiled if c[0] == 0), default=3)
        #: Counter rules, for the search: (counter index 1 or 2, plies, bound on the
        #: pieces, bound on the men, rule).  Every change of material resets both
        #: counters, so a counter matters only while the material is within the bounds.
        self.counter_rules = tuple(
            (c[2], c[1], c[3], _pattern_men(c[4]), c[4]) for c in compiled if c[0] == 1 and c[2]
        )
        #: Draws declared at once by the material alone.
        self.material_rules = tuple(c[4] for c in compiled if c[0] == 1 and not c[2])
        self.repetition_threshold = min((c[1] for c in compiled if c[0] == 0), default=0)
        #: signature(pieces, men) by ``pieces << 8 | men``.
        self.signatures: dict[int, tuple[int, int, bool]] = {}

    # -- the state ------------------------------------------------------------------

    def key_of(self, pos: State) -> Any:
        """The repetition key of ``pos`` (the position itself for most variants)."""
        return pos if self.key is None else self.key(pos)

    def lookback(self, reversible: int, material: int, known: int) -> int:
        """How many of the ``known`` earlier positions may be the current one again: those
        since the last move the generator declares irreversible (``Game.lookback``)."""
        level = self.irreversible
        if level >= Irreversible.MEN:
            return min(known, reversible)
        if level >= Irreversible.MATERIAL:
            return min(known, material)
        return known

    def repetitions(self, keys: Sequence[Any], reversible: int, material: int) -> int:
        """How many times ``keys[-1]`` occurred among the positions that can still come
        back (``Game.repetitions``)."""
        n = len(keys) - 1
        window = self.lookback(reversible, material, n)
        if window < 1:
            return 1
        return 1 + keys[n - window : n].count(keys[-1])

    # -- the end ------------------------------------------------------------------------

    def outcome(
        self,
        pos: State,
        moves: Sequence[FastMove],
        reversible: int,
        material: int,
        keys: Sequence[Any],
    ) -> Outcome | None:
        """How the game ends in ``pos``, or None while it goes on.

        ``moves`` are the legal moves in ``pos``, ``reversible``/``material`` the draw
        counters, ``keys`` the repetition keys of the history with ``pos`` last.
        """
        view = GameView(pos, lambda: self.repetitions(keys, reversible, material))
        return self.outcome_of(view, moves, reversible, material)

    def outcome_of(
        self, game: Played, moves: Sequence[FastMove], reversible: int, material: int
    ) -> Outcome | None:
        """How ``game`` ends in its position, or None while it goes on: the first king
        made (``promotion-wins``), a goal reached, no legal move, the variant's own
        decision, then the first draw rule that holds.

        ``moves`` are the legal moves in the position, ``reversible``/``material`` the
        draw counters; ``game.repetitions()`` is asked only where a rule needs it.
        """
        pos = game.state
        if self.king_wins and pos[2]:
            winner = Color.WHITE if pos[2] & pos[0] else Color.BLACK
            return Outcome(
                Termination.BREAKTHROUGH_KING,
                winner,
                f"{self.names[winner]} made the first king",
                N_("{side} made the first king"),
                {"side": winner},
            )
        for goal_side, mask, name in self.goals:
            if pos[goal_side] & mask:
                return Outcome(Termination.GOAL, Color(goal_side), name)
        if not moves:
            side = Color(pos[3])
            # the reason said as it is: every piece taken, or every one blocked
            if self.gen.has_pieces(pos, side):
                text, said = f"{self.names[side]} has no legal move", N_("{side} has no legal move")
            else:
                text = f"{self.names[side]} has no pieces left"
                said = N_("{side} has no pieces left")
            return Outcome(
                Termination.NO_LEGAL_MOVES,
                side if self.no_moves_wins else side.other,
                text,
                said,
                {"side": side},
            )
        if self.decide is not None:
            decided = self.decide(game)
            if decided is not None:
                return decided
        rule = self.draw_rule(pos, reversible, material, (), game.repetitions)
        if rule is not None:
            return self._draw(pos, rule[4], rule[5])
        return None

    def _draw(self, pos: State, rule: DrawRule, kind: Termination) -> Outcome:
        """The draw by ``rule``: a rule of the material that lists several balances (or
        bounds one: "3+K", "4- or 5-piece ending") is said by the balance on the board
        ("2 kings against 1 king, no win within 5 moves"), never by its whole list; the
        record keeps the rule's name."""
        listed = (
            len(rule.strong) > 1
            or len(rule.weak) > 1
            or bool(rule.total)
            or rule.both_have_kings
            or any(p.kings_or_more or p.men_or_more for p in rule.strong + rule.weak)
        )
        if kind not in (Termination.MATERIAL, Termination.ENDGAME_LIMIT) or not listed:
            return Outcome(kind, None, rule.name)
        sides = self.gen.material(pos)
        strong = 0 if sum(sides[0]) >= sum(sides[1]) else 1
        if rule.strong or rule.weak:
            for side in (0, 1):
                if (not rule.strong or any(p.matches(*sides[side]) for p in rule.strong)) and (
                    not rule.weak or any(p.matches(*sides[1 - side]) for p in rule.weak)
                ):
                    strong = side
                    break
        balance = Material(sides[strong], sides[1 - strong], rule.weak_on_main_road)
        if kind is Termination.MATERIAL:
            return Outcome(kind, None, rule.name, MATERIAL_AT_ONCE, {"material": balance})
        limit = NoWinWithin((rule.plies + 1) // 2)
        return Outcome(kind, None, rule.name, MATERIAL_DRAW, {"material": balance, "limit": limit})

    def draw_rule(
        self,
        pos: State,
        reversible: int,
        material: int,
        keys: Sequence[Any],
        repetitions: Callable[[], int] | None = None,
    ) -> _Compiled | None:
        """The first draw rule that holds in ``pos`` (the variant's order), or None.

        A repetition rule counts the occurrences of ``pos`` in ``keys``, the repetition
        keys of the history with ``pos`` last, or asks ``repetitions()`` where it is given
        (a Game counts its own history).
        """
        pieces = -1
        for compiled in self.draws:
            kind, threshold, counter, bound, rule, _term = compiled
            if kind == 0:
                if repetitions is not None:
                    count = repetitions()
                else:
                    count = self.repetitions(keys, reversible, material)
                if count >= threshold:
                    return compiled
                continue
            if counter == 1:
                if reversible < threshold:
                    continue
            elif counter == 2 and material < threshold:
                continue
            if bound < _ANY:
                if pieces < 0:
                    pieces = (pos[0] | pos[1]).bit_count()
                if pieces > bound:
                    continue
            if rule.has_material_condition and not self.material_matches(pos, rule):
                continue
            if rule.unless_capture and self.gen.captures(pos):
                continue
            if rule.kind == "lone-kings" and not self.lone_kings_drawn(pos):
                continue
            return compiled
        return None

    def lone_kings_drawn(self, pos: State) -> bool:
        """docs/rules/conventions.md#draws (Frisian Art. 21.1), once each side has one king and
        nothing else: drawn unless the side to move can capture, or every move it has lets the
        opponent capture in reply."""
        gen = self.gen
        if gen.captures(pos):
            return False
        moves = gen.moves(pos)
        return not moves or any(not gen.captures(gen.apply(pos, mv)) for mv in moves)

    def signature(self, pieces: int, men: int) -> tuple[int, int, bool]:
        """What the draw rules that allow ``pieces`` pieces and ``men`` men ask for:
        (the lowest reversible-counter threshold, the lowest material-counter threshold,
        whether a rule without a counter may hold).  No rule outside these bounds can
        hold, and no counter can matter to them until the material changes, which resets
        both counters."""
        got = self.signatures.get(pieces << 8 | men)
        if got is None:
            never = 1 << 30
            rev = mat = never
            immediate = False
            for kind, threshold, counter, bound, rule, _term in self.draws:
                if kind == 0 or pieces > bound or men > _pattern_men(rule):
                    continue
                if counter == 1:
                    rev = min(rev, threshold)
                elif counter == 2:
                    mat = min(mat, threshold)
                else:
                    immediate = True
            got = self.signatures[pieces << 8 | men] = (rev, mat, immediate)
        return got

    def could_win(self, pos: State, side: int) -> bool:
        """Whether ``side`` has material that could still win in ``pos`` (asked when the
        other side's clock runs out).  No, when ``side`` has no piece left, or when a
        draw rule of the variant that the material alone decides (no move counter)
        holds; yes otherwise: a side with pieces may still win, however unlikely."""
        kings, men = self.gen.material(pos)[side]
        if not (kings or men):
            return False
        return not any(self.material_matches(pos, rule) for rule in self.material_rules)

    def material_matches(self, pos: State, rule: DrawRule) -> bool:
        """Whether the material condition of ``rule`` holds in ``pos``."""
        sides = self.gen.material(pos)
        if rule.total and sum(k + m for k, m in sides) not in rule.total:
            return False
        if rule.both_have_kings and not (sides[0][0] and sides[1][0]):
            return False
        if not (rule.strong or rule.weak):
            return True
        for strong in (0, 1):
            weak = 1 - strong
            if rule.strong and not any(p.matches(*sides[strong]) for p in rule.strong):
                continue
            if rule.weak and not any(p.matches(*sides[weak]) for p in rule.weak):
                continue
            if rule.weak_on_main_road:
                mine = pos[weak]
                everyone = pos[0] | pos[1]
                if not (mine.bit_count() == 1 and (everyone & self.road) == mine):
                    continue
            return True
        return False

    def repetition_outcome(self, pos: State, material: int, keys: Sequence[Any]) -> Outcome | None:
        """How the game would end if ``pos`` were repeated until a repetition rule fires
        (the search scores a position repeated inside its own tree this way)."""
        for kind, _threshold, _c, _b, rule, term in self.draws:
            if kind == 0:
                return Outcome(term, None, rule.name)
        if self.decide is not None:
            view = GameView(pos, lambda: self.repetition_count)
            return self.decide(view)
        return None
