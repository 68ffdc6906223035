"""The game session (layer between the engine and records below, the front ends above):
one game in progress with its clocks, seats, offers and end, for every front end — the
Textual app, ``shashki match``, and the network play to come.  It imports no Textual.

>>> from shashki.rules import Game
>>> from shashki.session import GameSession, Computer, Person
>>> session = GameSession(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
>>> session.play(session.game.parse_move("c3-d4"))
True
>>> session.run()  # the computer answers on this thread; then a person is to move
>>> len(session.game.move_stack), session.player_to_move.name
(2, 'Anna')
"""

from .clock import GameClock
from .game import (
    Changed,
    ClockChanged,
    DrawAnswered,
    DrawOffered,
    Event,
    GameEnded,
    GameSession,
    MovePlayed,
    Paused,
    SeatFailed,
    TakebackAsked,
    TakenBack,
    UndoPolicy,
)
from .limits import Limit, move_seconds
from .players import Computer, Person, Player, PlayerFailed
from .seats import parse_seat, set_engines

__all__ = [
    "Changed",
    "ClockChanged",
    "Computer",
    "DrawAnswered",
    "DrawOffered",
    "Event",
    "GameClock",
    "GameEnded",
    "GameSession",
    "Limit",
    "MovePlayed",
    "Paused",
    "Person",
    "Player",
    "PlayerFailed",
    "SeatFailed",
    "TakebackAsked",
    "TakenBack",
    "UndoPolicy",
    "move_seconds",
    "parse_seat",
    "set_engines",
]
