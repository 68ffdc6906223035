"""A Hub engine as a :class:`~shashki.session.Player`, and the players of seat kinds.

A seat is ``hub:COMMAND`` (from the command line or the new-game dialog) or the name of
an engine the user set up in the settings (``engines``: name, command, working folder).
The engine is started as the game screen opens (:meth:`HubPlayer.get_ready`, so that its
seat shows the name it gives at once), or else on its first move, and stopped when the
game ends or is left; an
engine that stops, hangs or answers an illegal move raises
:class:`~shashki.session.PlayerFailed` and is stopped (it is started again on the next
move asked of it).  A command is never taken from a game file: a saved game names an
engine of the settings (:func:`~shashki.session.seats.parse_seat` with ``from_file``).
"""

from __future__ import annotations

import threading

from ..rules import Game, Move
from ..rules.variant import Variant
from ..session.limits import Limit
from ..session.players import Cancelled, Computer, Person, Player, PlayerFailed
from ..session.seats import dxp_address, engine_setting
from ..session.served import served
from .client import EngineError, HubEngine, split_command

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

    def start(self, variant: Variant) -> None:
        """A new game: the engine is started, or told of the new game."""
        with self._lock:
            self._started(variant, new_game=True)

    def get_ready(self, variant: Variant) -> bool:
        """The engine is started now (not at its first move): its seat shows the name
        the engine gives in its handshake (``id name=…``) at once, not its command."""
        with self._lock:
            self._started(variant)
        return True

    def _started(self, variant: Variant, *, new_game: bool = False) -> HubEngine:
        try:
            if self.engine is None or not self.engine.running:
                if self.engine is not None:
                    self.engine.close()
                self.engine = HubEngine(self.command, cwd=self.folder).start()
                if not self.setting:
                    self.name = self.engine.name
                self.engine.new_game(variant)
            elif new_game:
                self.engine.new_game(variant)
            return self.engine
        except EngineError as exc:
            self._close()
            raise PlayerFailed(str(exc), exc.said()) from None

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        with self._lock:
            engine = self._started(game.variant)
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


def make_player(kind: str, name: str, *, seed: int | None = None) -> Player:
    """The player of a seat kind (see :func:`~shashki.session.seats.parse_seat`): a
    person for a kind that names nothing known; an engine of the settings is called by
    its name, a ``dxp:HOST:PORT`` engine by the name it gives.  A ``hub:`` command that
    cannot be split raises EngineError; in a served app (a visitor at the keys) a
    ``hub:`` command or a ``dxp:`` address seats a person: no program is started, nor a
    connection made, but the engines of the owner's settings."""
    if kind.startswith("hub:"):
        if served():
            return Person(name)
        return HubPlayer(kind[4:].strip())
    if kind.startswith("dxp:"):
        address = dxp_address(kind[4:])
        if served() or address is None:
            return Person(name)
        from .dxp_player import DxpPlayer

        return DxpPlayer(*address)
    if kind.startswith("engine:"):
        setting = engine_setting(kind)
        if setting is None:
            return Person(name)
        return HubPlayer(setting.command, setting.name, setting.folder, setting=setting.name)
    if kind.startswith("computer-"):
        level = kind[9:]
        if level.isdigit() and 1 <= int(level) <= 8:
            return Computer(int(level), name, seed=seed)
    return Person(name)


__all__ = ["ENGINE_SECONDS", "HubPlayer", "make_player"]
