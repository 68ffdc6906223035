"""Hub engines seated in the app: another program plays one side (issue: engines talk).

A seat is ``hub:COMMAND`` (from the command line or the new-game dialog) or the name of
an engine the user set up in the settings (``engines``: name, command, working folder).
The engine is started on its first move and stopped when the game ends or is left.  A
command is never taken from a game file: a saved game names an engine of the settings,
and is seated with it again only if the settings still have it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..hub.client import EngineError, HubEngine, split_command
from ..rules import Game, Move
from .controller import Player

#: Seconds an engine gets for a move in the app (no clock).
ENGINE_SECONDS = 1.0


@dataclass(frozen=True)
class EngineSetting:
    """An engine the user set up: a name to pick it by, its command, its folder."""

    name: str
    command: str
    folder: str = ""


class EngineFailed(Exception):
    """The engine of a seat stopped, hung or answered an illegal move (the message says
    which, in one line); the seat should become a person's."""


class EngineSeat(Player):
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
        self.seconds = ENGINE_SECONDS
        #: The clock's time left and increment for the next move (None: no clock).
        self.clock: tuple[float, float] | None = None
        self._lock = threading.Lock()

    def use_clock(self, left: float | None, increment: float = 0.0) -> None:
        self.clock = None if left is None else (left, increment)

    def think(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        with self._lock:
            try:
                if self.engine is None or not self.engine.running:
                    if self.engine is not None:
                        self.engine.close()
                    self.engine = HubEngine(self.command, cwd=self.folder).start()
                    if not self.setting:
                        self.name = self.engine.name
                    self.engine.new_game(game.variant)
                if self.clock is not None:  # the engine manages the clock's time itself
                    left, increment = self.clock
                    return self.engine.best_move(
                        game, remaining=left, increment=increment, cancelled=cancelled
                    )
                return self.engine.best_move(game, seconds=self.seconds, cancelled=cancelled)
            except EngineError as exc:
                self._close()
                raise EngineFailed(exc.said()) from None

    def close(self) -> None:
        """Stop the engine (the game ended or was left)."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def engine_settings(raw: Sequence[object]) -> list[EngineSetting]:
    """The well-formed engines of the settings' ``engines`` list (others are skipped)."""
    out: list[EngineSetting] = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        name, command, folder = item.get("name"), item.get("command"), item.get("folder", "")
        if not (isinstance(name, str) and isinstance(command, str) and isinstance(folder, str)):
            continue
        if not (0 < len(name) <= 40 and name.isprintable() and 0 < len(command) <= 1000):
            continue
        try:
            split_command(command)
        except EngineError:
            continue
        out.append(EngineSetting(name.strip(), command, folder))
    return out


__all__ = ["ENGINE_SECONDS", "EngineFailed", "EngineSeat", "EngineSetting", "engine_settings"]
