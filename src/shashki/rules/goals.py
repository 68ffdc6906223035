"""Goals (``Variant.goals``): a side wins as soon as one of its pieces stands on a rank.

A goal reached decides the game, so the position has no legal moves: ``moves``,
``captures`` and ``count`` are empty there, and perft counts nothing below it.  The
generator of a variant with goals gets :class:`GoalsMixin` on top of its engine and
modifiers (:func:`~shashki.rules.generators.generator_class`); a variant without goals
keeps its generator as it is, fast perft included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hooks import walk_perft
from .move import FastMove

if TYPE_CHECKING:
    from .movegen import MoveGenerator, State
    from .variant import Variant

    _Base = MoveGenerator
else:
    _Base = object


class GoalsMixin(_Base):
    """No legal move once a side's piece stands on one of its goal ranks."""

    #: The goal squares of side 0 and of side 1, as bitboards.
    goal_masks: tuple[int, int] = (0, 0)

    def configure(self, variant: Variant) -> None:
        super().configure(variant)
        masks = [0, 0]
        for goal in variant.goals:
            masks[int(goal.side)] |= variant.board.rank_mask[goal.rank - 1]
        self.goal_masks = (masks[0], masks[1])
        # away from the goals the moves are those of the generator below: where that is
        # the plain one, ``horizon`` may still test captures and steps apart (the search)
        from .movegen import MoveGenerator

        mro = type(self).__mro__
        below = mro[mro.index(GoalsMixin) + 1 :]

        def plain(name: str) -> bool:
            """Whether ``name`` below the goals is MoveGenerator's own."""
            own = next(cls.__dict__[name] for cls in below if name in cls.__dict__)
            return bool(own is MoveGenerator.__dict__[name])

        self._plain_horizon = (
            self.mandatory and plain("moves") and plain("captures") and plain("_captures")
        )

    def goal_reached(self, pos: State) -> bool:
        """Whether a piece of a side stands on one of its goal squares in ``pos``."""
        white, black = self.goal_masks
        return bool(pos[0] & white or pos[1] & black)

    def evaluation_family(self) -> str:
        """The goal games' evaluation: a race to the goal row against a wall."""
        return "goal-race"

    def moves(self, pos: State) -> list[FastMove]:
        if self.goal_reached(pos):
            return []
        return super().moves(pos)

    def captures(self, pos: State) -> list[FastMove]:
        if self.goal_reached(pos):
            return []
        return super().captures(pos)

    def count(self, pos: State) -> int:
        if self.goal_reached(pos):
            return 0
        return super().count(pos)

    def horizon(self, pos: State) -> tuple[list[FastMove], bool]:
        if self.goal_reached(pos):
            return [], False
        return super().horizon(pos)

    def perft(self, pos: State, depth: int) -> int:
        """Perft over the hooks below the goals, with the goal tested once per node."""
        if depth <= 0:
            return 1
        white, black = self.goal_masks
        return walk_perft(
            pos,
            depth,
            super().moves,
            super().count,
            self.apply,
            lambda p: bool(p[0] & white or p[1] & black),
        )
