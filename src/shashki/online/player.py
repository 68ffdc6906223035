"""The friend on the other machine as a :class:`~shashki.session.Player`.

A remote player's moves come from the network: the link plays them on the session as
they arrive, once checked (the referee's and the guest's own rules).  It does not think
(:attr:`~shashki.session.Player.thinks` is false): the session's turn driver leaves its
turn to the network, and the front end says that the friend is to move.
"""

from __future__ import annotations

from ..i18n import _
from ..rules import Game
from ..session.players import Player


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

    @property
    def first_turn_free(self) -> bool:
        """A person at the other end sits down as one at this keyboard does: the first
        turn is off the clock on both sides of the connection (so the clock shown here is
        the host's); a program (``--auto``) is timed from its first move."""
        return not self.program

    @property
    def thinks(self) -> bool:
        """No: its moves come over the network, never from the driver."""
        return False

    def answer_draw(self, game: Game) -> bool | None:
        return None  # the friend is asked over the network

    def answer_takeback(self, game: Game) -> bool | None:
        return None

    def seat(self) -> str:
        if self.present:
            return _("{name} · online").format(name=self.name)
        return _("{name} · offline").format(name=self.name)

    def tags(self) -> dict[str, str]:
        return {"Type": "program" if self.program else "human"}


__all__ = ["RemotePlayer"]
