"""The computer opponent seated in the app: a thin :class:`Player` around the engine's
:class:`~shashki.engine.ComputerPlayer`."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import LEVELS, ComputerPlayer
from ..i18n import _
from ..rules import Game, Move
from .controller import Player


class Computer(Player):
    """A computer player at one of the engine's levels."""

    is_human = False

    def __init__(
        self,
        level: int,
        name: str | None = None,
        *,
        seconds: float | None = None,
        seed: int | None = None,
    ) -> None:
        self.engine = ComputerPlayer(level, seconds=seconds, seed=seed)
        self.level = level
        self.name = name or f"Computer {level}"
        self._own_seconds = self.engine.seconds

    def use_clock(self, left: float | None, increment: float = 0.0) -> None:
        from ..engine.player import clock_seconds

        self.engine.seconds = self._own_seconds if left is None else clock_seconds(left, increment)

    def seat(self) -> str:
        return _("Computer · level {n}").format(n=self.level)

    def shown_name(self) -> str:
        if self.name == f"Computer {self.level}":  # the default name, said in the language
            return _("Computer {n}").format(n=self.level)
        return self.name

    def think(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        return self.engine.think(game, cancelled)


def computer_kinds() -> list[tuple[str, str, Callable[[str], Player]]]:
    """(label, key, factory) of each level, for the new-game dialog."""

    def factory(level: int) -> Callable[[str], Player]:
        def make(name: str) -> Player:
            return Computer(level, name)

        return make

    return [
        (f"Computer, level {lv.number} ({lv.name})", f"computer-{lv.number}", factory(lv.number))
        for lv in LEVELS.values()
    ]


def hint(game: Game, cancelled: Callable[[], bool], seconds: float = 1.5) -> Move | None:
    """The engine's suggestion for the side to move (a short search at the top level)."""
    return ComputerPlayer(8, seconds=seconds).think(game, cancelled)
