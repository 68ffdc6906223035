"""How long a player may think: one :class:`Limit` and one time-allocation function.

Every player (shashki's levels, a Hub engine, ``shashki hub`` serving a client, the Hub
client speaking to an engine, a friend online) takes the time for a move from here, so
that a clock is shared out the same way everywhere.  Standard library only.

>>> move_seconds(300, 3), move_seconds(60, 0), move_seconds(0.5, 0)
(12.4, 2.0, 0.02)
>>> [Limit(left=60).move_seconds(1.0), Limit(seconds=0.5).move_seconds(1.0)]
[2.0, 0.5]
>>> Limit(depth=4).move_seconds(1.0)  # a depth alone: the player's own time bounds it
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

#: The moves a whole game is taken to have still to come, when nobody says.
MOVES_TO_COME = 30
#: The least time a move gets (a search always looks at something).
LEAST_SECONDS = 0.02


def move_seconds(
    left: float, increment: float = 0.0, moves: int | None = None, *, overhead: float = 0.0
) -> float:
    """The time for one move with ``left`` seconds on the clock, ``increment`` added
    every move and ``moves`` moves to the next time control (None: a whole game, taken as
    :data:`MOVES_TO_COME` more moves).

    A share of the time left and most of the increment, never more than a third of what
    is left (all of it, less a margin, for the last move before the control) after
    ``overhead`` (what the caller spends around the search: showing the move, a pipe),
    so that the flag does not fall for thinking; at least :data:`LEAST_SECONDS`.
    """
    budget = left / max(1, moves or MOVES_TO_COME) + 0.8 * increment
    share = min(3, moves) if moves else 3
    cap = (left - max(overhead, 0.05)) / share
    return round(max(LEAST_SECONDS, min(budget, cap)), 3)


@dataclass(frozen=True)
class Limit:
    """What bounds one move's thinking: a time per move, a depth, a number of nodes, or a
    clock (the time ``left``, the ``increment`` per move, ``moves`` to the next control).
    Nothing set: the player's own time."""

    seconds: float | None = None
    depth: int | None = None
    nodes: int | None = None
    #: The clock: seconds left to the side to move (None: no clock).
    left: float | None = None
    increment: float = 0.0
    moves: int | None = None
    #: Seconds the front end spends around a move (showing it), kept off the clock's share.
    overhead: float = 0.0

    @property
    def on_clock(self) -> bool:
        return self.left is not None

    def move_seconds(self, default: float) -> float:
        """The seconds for this move: the clock's share, the time per move, or ``default``
        (a depth or nodes alone: ``default`` bounds the time)."""
        if self.left is not None:
            return move_seconds(self.left, self.increment, self.moves, overhead=self.overhead)
        if self.seconds is not None:
            return self.seconds
        return default


__all__ = ["LEAST_SECONDS", "Limit", "move_seconds"]
