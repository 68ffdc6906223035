"""Hub engines seated in the app: another program plays one side (issue: engines talk).

The seat is the Hub layer's :class:`~shashki.hub.player.HubPlayer` (a
:class:`~shashki.session.Player`); the engines the user set up are read by the session
(:mod:`shashki.store.settings`).  These names stay for the app's screens.
"""

from __future__ import annotations

from ..hub.player import ENGINE_SECONDS, HubPlayer
from ..session.players import PlayerFailed
from ..store.settings import EngineSetting, engine_settings

#: A Hub engine playing one side.
EngineSeat = HubPlayer
#: The engine of a seat stopped, hung or answered an illegal move (the message says
#: which, in one line); the seat becomes a person's.
EngineFailed = PlayerFailed

__all__ = ["ENGINE_SECONDS", "EngineFailed", "EngineSeat", "EngineSetting", "engine_settings"]
