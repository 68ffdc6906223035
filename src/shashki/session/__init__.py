"""The game session (layer between the engine and records below, the front ends above):
one game in progress with its clocks, seats, offers and end, for every front end — the
Textual app, ``shashki match``, and the network play to come.  It imports no Textual.

>>> from shashki.rules import Game
>>> from shashki.session import GameSession, Computer, Person
>>> session = GameSession(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
>>> session.start()  # driven on this thread: the computer answers at once
>>> session.play(session.game.parse_move("c3-d4"))
True
>>> len(session.game.move_stack), session.player_to_move.name
(2, 'Anna')

A front end with an event loop starts it with its executor instead
(:mod:`shashki.session.driver`): the computer then thinks in a thread of its own and its
move is played on the loop's thread.
"""

from ..engine.limits import Limit, move_seconds
from .clock import GameClock
from .driver import (
    AsyncioExecutor,
    Executor,
    InlineExecutor,
    ManualTime,
    ThreadExecutor,
)
from .game import (
    Abandoned,
    Changed,
    ClockChanged,
    DrawAnswered,
    DrawOffered,
    Dropped,
    DropReason,
    Event,
    GameEnded,
    GameSession,
    MovePlayed,
    OnFailure,
    Paused,
    Retagged,
    SeatFailed,
    SeatReady,
    TakebackAsked,
    TakenBack,
    Thinking,
    UndoPolicy,
)
from .players import Computer, Person, Player, PlayerFailed
from .recorder import Recorder
from .seats import parse_seat

__all__ = [
    "Abandoned",
    "AsyncioExecutor",
    "Changed",
    "ClockChanged",
    "Computer",
    "DrawAnswered",
    "DrawOffered",
    "DropReason",
    "Dropped",
    "Event",
    "Executor",
    "GameClock",
    "GameEnded",
    "GameSession",
    "InlineExecutor",
    "Limit",
    "ManualTime",
    "MovePlayed",
    "OnFailure",
    "Paused",
    "Person",
    "Player",
    "PlayerFailed",
    "Recorder",
    "Retagged",
    "SeatFailed",
    "SeatReady",
    "TakebackAsked",
    "TakenBack",
    "Thinking",
    "ThreadExecutor",
    "UndoPolicy",
    "move_seconds",
    "parse_seat",
]
