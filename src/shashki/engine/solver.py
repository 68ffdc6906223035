"""An exact table for the goal games: one runner against blockers that only go forward
(Wolf and Sheep).

Wolf and Sheep is solved: the sheep win with perfect play.  Its positions are few, and
the blockers (the sheep) never step back, so the game can be solved backwards
(retrograde analysis): blocker formations are taken from the most advanced to the least,
and for each formation two bitboards hold, over every square of the runner (the wolf),
who wins with the runner to move and with the blockers to move.  A formation's values
depend only on those of the formations one blocker step further, and inside a formation
the runner's moves are whole-board shifts, so the whole table (36 000 formations for the
four sheep) takes about a second and a few megabytes.

Everything comes from the variant's data: the goal (side and rank), the directions of
the runner's king steps and of the blockers' man steps, the board; :func:`solvable` says
when a variant has that shape.
"""

from __future__ import annotations

import threading
from itertools import combinations
from math import comb

from ..rules.fen import parse_fen
from ..rules.game import Game, fast_moves, game_state, library_moves
from ..rules.geometry import absolute_direction
from ..rules.move import Move
from ..rules.movegen import State
from ..rules.variant import Variant

#: The most blocker formations the table will hold.
MAX_FORMATIONS = 250_000


def _start(variant: Variant) -> State:
    return parse_fen(variant, variant.start).position


def solvable(variant: Variant) -> bool:
    """Whether ``variant`` is a goal game of one runner (a king that steps) against men
    that only step forward, without captures, promotion or draw rules."""
    rules = variant.rules
    if len(variant.goals) != 1 or variant.draws or rules.promotion or variant.modifiers:
        return False
    if not variant.generator.plain_positions() or rules.man_captures or rules.king_captures:
        return False
    if rules.king_moves_fly:
        return False
    geo = variant.board
    runner = int(variant.goals[0].side)
    blocker = 1 - runner
    # every blocker step changes its rank the same way: formations never come back
    signs = set()
    for name in rules.man_moves:
        step = geo.shift[absolute_direction(name, blocker)]
        if step is None:
            return False
        signs.add(step > 0)
    if (
        len(signs) != 1
        or abs(min(abs(geo.shift[absolute_direction(n, blocker)] or 0) for n in rules.man_moves))
        < 2
    ):
        return False
    pos = _start(variant)
    if pos[runner].bit_count() != 1 or pos[runner] & ~pos[2] or pos[blocker] & pos[2]:
        return False
    return comb(len(geo.squares), pos[blocker].bit_count()) <= MAX_FORMATIONS


class GoalTable:
    """Who wins every position of a runner-against-blockers goal game."""

    def __init__(self, variant: Variant) -> None:
        if not solvable(variant):
            raise ValueError(f"{variant.name} is not a game the goal table can solve")
        self.variant = variant
        geo = variant.board
        rules = variant.rules
        goal = variant.goals[0]
        self.runner = runner = int(goal.side)
        self.blocker = blocker = 1 - runner
        self.goal = geo.rank_mask[goal.rank - 1]
        self.mask = geo.mask
        self.ups: tuple[int, ...] = tuple(
            geo.shift[absolute_direction(n, runner)]  # type: ignore[misc]
            for n in rules.king_moves
            if (geo.shift[absolute_direction(n, runner)] or 0) > 0
        )
        self.downs: tuple[int, ...] = tuple(
            -geo.shift[absolute_direction(n, runner)]  # type: ignore[operator]
            for n in rules.king_moves
            if (geo.shift[absolute_direction(n, runner)] or 0) < 0
        )
        # the blockers' steps from each square: (from bit, to bit)
        steps: dict[int, list[int]] = {}
        for p in geo.squares:
            for name in rules.man_moves:
                q = geo.step[absolute_direction(name, blocker)][p]
                if q >= 0:
                    steps.setdefault(p, []).append(q)
        self.steps = steps
        self.count = _start(variant)[blocker].bit_count()
        #: formation -> runner squares where the runner, to move, wins.
        self.runner_wins: dict[int, int] = {}
        #: formation -> runner squares where the blockers, to move, win.
        self.blockers_win: dict[int, int] = {}
        self._build()

    def _expand(self, bits: int) -> int:
        """The squares one runner step away from ``bits`` (backwards: from where a step
        lands in ``bits``)."""
        out = 0
        for s in self.ups:
            out |= bits >> s
        for s in self.downs:
            out |= bits << s
        return out & self.mask

    def _build(self) -> None:
        geo = self.variant.board
        rank_of = geo.rank_of
        squares = geo.squares
        toward = 1 if self.blocker == 0 else -1  # blockers' rank grows (side 0) or falls
        formations = []
        for combo in combinations(squares, self.count):
            bits = 0
            adv = 0
            for p in combo:
                bits |= 1 << p
                adv += rank_of[p] * toward
            formations.append((adv, bits, combo))
        formations.sort(reverse=True)  # the most advanced first
        runner_wins = self.runner_wins
        blockers_win = self.blockers_win
        mask = self.mask
        goal = self.goal
        steps = self.steps
        for _adv, bits, combo in formations:
            free = mask & ~bits
            # blockers to move, runner on a free square (not on the goal row: it has won)
            win = 0
            for p in combo:
                for q in steps.get(p, ()):
                    qbit = 1 << q
                    if bits & qbit:
                        continue
                    after = bits ^ (1 << p) ^ qbit
                    # the runner, to move in the new formation, loses there
                    lose = (mask & ~after) & ~runner_wins[after]
                    win |= lose & ~qbit
            win &= free & ~goal
            blockers_win[bits] = win
            # runner to move: it wins if one step reaches the goal row or a square where
            # the blockers, to move, lose
            good = free & (goal | ~win)
            runner_wins[bits] = self._expand(good) & free

    def wins(self, pos: State) -> bool:
        """Whether the side to move in ``pos`` wins with perfect play."""
        runner = pos[self.runner]
        if runner & self.goal:
            return pos[3] == self.runner
        formation = pos[self.blocker]
        if pos[3] == self.runner:
            return bool(self.runner_wins[formation] & runner)
        return bool(self.blockers_win[formation] & runner)

    def winning_moves(self, game: Game) -> list[Move]:
        """The legal moves after which the side to move still wins (empty if it loses)."""
        pos = game_state(game)
        gen = game.variant.generator
        out = []
        for mv in fast_moves(game):
            child = gen.apply(pos, mv)
            if self.wins(child) == (child[3] == pos[3]):
                out.append(mv)
        return library_moves(game, out)


_TABLES: dict[str, GoalTable] = {}
_LOCK = threading.Lock()


def goal_table(variant: Variant) -> GoalTable:
    """The (shared, built once) goal table of ``variant``."""
    with _LOCK:
        table = _TABLES.get(variant.id)
        if table is None or table.variant is not variant:
            table = _TABLES[variant.id] = GoalTable(variant)
        return table
