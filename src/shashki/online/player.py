"""The friend on the other machine as a :class:`~shashki.session.Player`.

A remote player's moves do not come from :meth:`think`: the link plays them on the
session as they arrive, once checked (the referee's and the guest's own rules).  Its
``think`` only waits, so that a front end that asks every player who is not a person
for a move (the game screen, :meth:`GameSession.drive`) leaves the remote side to the
network and says that the friend is to move.
"""

from __future__ import annotations

import threading

from ..i18n import _
from ..rules import Game, Move
from ..rules.variant import Variant
from ..session.limits import Limit
from ..session.players import Cancelled, Player


class RemotePlayer(Player):
    """The person at the other end of the connection."""

    #: Not at this keyboard: the board takes no move for this side.
    is_human = False

    def __init__(self, name: str, *, program: bool = False) -> None:
        self.name = name
        #: The peer said a program plays its side (``--auto``), not a person.
        self.program = program
        #: Connected now (the link says so as its connection comes and goes).
        self.present = False
        self._closed = threading.Event()

    @property
    def first_turn_free(self) -> bool:
        """A person at the other end sits down as one at this keyboard does: the first
        turn is off the clock on both sides of the connection (so the clock shown here is
        the host's); a program (``--auto``) is timed from its first move."""
        return not self.program

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        """Wait (the move comes over the network) until ``cancelled()``: always None."""
        while not cancelled() and not self._closed.wait(0.05):
            pass
        return None

    def answer_draw(self, game: Game) -> bool | None:
        return None  # the friend is asked over the network

    def answer_takeback(self, game: Game) -> bool | None:
        return None

    def close(self) -> None:
        self._closed.set()

    def start(self, variant: Variant) -> None:
        self._closed.clear()

    def seat(self) -> str:
        if self.present:
            return _("{name} · online").format(name=self.name)
        return _("{name} · offline").format(name=self.name)

    def tags(self) -> dict[str, str]:
        return {"Type": "program" if self.program else "human"}


__all__ = ["RemotePlayer"]
