"""The computer opponent seated in the app: the session's :class:`Computer` (a
:class:`~shashki.session.Player` around the engine's :class:`~shashki.engine.ComputerPlayer`,
seated by the one ``make_player``), and the hint."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import ComputerPlayer
from ..rules import Game, Move
from ..session.players import Computer


def hint(game: Game, cancelled: Callable[[], bool], seconds: float = 1.5) -> Move | None:
    """The engine's suggestion for the side to move (a short search at the top level:
    at most ``seconds``, and no new depth past half of it, the player waiting for it)."""
    player = ComputerPlayer(8, seconds=seconds)
    player.per_move = False
    return player.think(game, cancelled)


__all__ = ["Computer", "hint"]
