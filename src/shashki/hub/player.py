"""A Hub engine as a :class:`~shashki.session.Player`, and the players of seat kinds.

A seat is ``hub:COMMAND`` (from the command line or the new-game dialog) or the name of
an engine the user set up in the settings (``engines``: name, command, working folder).
The engine is started as the game starts (:meth:`HubPlayer.start`, called by the
session's turn driver, so that its seat shows the name it gives at once), and stopped
when the game ends or is left; an engine that stops, hangs or answers an illegal move raises
:class:`~shashki.session.PlayerFailed` and is stopped (it is started again on the next
move asked of it).  A command is never taken from a game file: a saved game names an
engine of the settings (:func:`~shashki.session.seats.parse_seat` with ``from_file``).
"""

from __future__ import annotations

import threading

from ..engine.hub.client import EngineError, HubEngine, split_command
from ..engine.limits import Limit
from ..rules import Game, Move
from ..rules.variant import Variant
from ..session.players import Cancelled, Computer, Person, Player, PlayerFailed
from ..session.seats import (
    TOP_LEVEL,
    CommandSeat,
    DxpSeat,
    Engines,
    LevelSeat,
    NamedEngineSeat,
    Seat,
    engine_setting,
)
from ..session.served import served

#: Seconds an engine gets for a move when nothing else says (no clock, no limit).
ENGINE_SECONDS = 1.0


class HubPlayer(Player):
    """A Hub engine playing one side."""

    is_human = False

    def __init__(self, command: str, name: str = "", folder: str = "", setting: str = "") -> None:
        split_command(command)  # a command that cannot be split is refused at once
        self.command = command
        self.folder = folder or None
        #: The name of the settings' engine this seat is, "" for a ``hub:`` command.
        self.setting = setting
        self.name = name or command
        self.engine: HubEngine | None = None
        #: Seconds a move when the limit says nothing.
        self.seconds = ENGINE_SECONDS
        self._lock = threading.Lock()
        #: The engine was told of a new game and asked no move since.
        self._fresh = False

    def start(self, variant: Variant) -> None:
        """A new game: the engine is started (its seat shows the name the engine gives
        in its handshake, ``id name=…``, at once), or told of the new game."""
        with self._lock:
            self._started(variant, new_game=True)

    def _started(self, variant: Variant, *, new_game: bool = False) -> HubEngine:
        try:
            if self.engine is None or not self.engine.running:
                if self.engine is not None:
                    self.engine.close()
                self.engine = HubEngine(self.command, cwd=self.folder).start()
                if not self.setting:
                    self.name = self.engine.name
                self.engine.new_game(variant)
                self._fresh = True
            elif new_game and not self._fresh:
                self.engine.new_game(variant)
                self._fresh = True
            return self.engine
        except EngineError as exc:
            self._close()
            raise PlayerFailed(str(exc), exc.said()) from None

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        with self._lock:
            engine = self._started(game.variant)
            self._fresh = False  # (a move asked: the next game is told it is new)
            try:
                if limit.left is not None:  # the engine manages the clock's time itself
                    return engine.best_move(
                        game,
                        remaining=limit.left,
                        increment=limit.increment,
                        moves=limit.moves,
                        cancelled=cancelled,
                    )
                if limit.depth is not None and limit.seconds is None:
                    return engine.best_move(game, depth=limit.depth, cancelled=cancelled)
                seconds = limit.move_seconds(self.seconds)
                return engine.best_move(game, seconds=seconds, cancelled=cancelled)
            except EngineError as exc:
                self._close()
                raise PlayerFailed(str(exc), exc.said()) from None

    def answer_draw(self, game: Game) -> bool | None:
        return False

    def answer_takeback(self, game: Game) -> bool | None:
        return True

    def tags(self) -> dict[str, str]:
        tags = {"Type": "program"}
        if self.setting:
            tags["Engine"] = self.setting  # (a name of the settings, never a command)
        return tags

    def close(self) -> None:
        """Stop the engine (the game ended or was left)."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def make_player(seat: Seat, name: str, *, seed: int | None = None, engines: Engines = ()) -> Player:
    """The player of ``seat`` (the one maker of players: the app, ``shashki match``, an
    event, resumed games), called ``name`` when the seat does not name itself: an engine
    of the settings (one of ``engines``, which the caller passes: its settings') is
    called by its name, a Hub engine of a command or a DXP engine by the name it gives.
    An engine ``engines`` do not (or no longer) have seats a person; so does a
    ``hub:`` command or a ``dxp:`` address in a served app (a visitor at the keys: no
    program is started, nor a connection made, but the engines of the owner's
    settings).  A command that cannot be split raises EngineError."""
    match seat:
        case CommandSeat(command=command):
            if served():
                return Person(name)
            return HubPlayer(command)
        case DxpSeat(host=host, port=port):
            if served():
                return Person(name)
            from .dxp_player import DxpPlayer

            return DxpPlayer(host, port)
        case NamedEngineSeat():
            setting = engine_setting(seat, engines)
            if setting is None:
                return Person(name)
            return HubPlayer(setting.command, setting.name, setting.folder, setting=setting.name)
        case LevelSeat(level=level) if 1 <= level <= TOP_LEVEL:
            return Computer(level, name, seed=seed)
    return Person(name)


__all__ = ["ENGINE_SECONDS", "HubPlayer", "make_player"]
