"""One :class:`Player` for every seat: a person (moves come from the front end), the
computer at a level, a Hub engine (``shashki.hub.player``), a remote player
(``shashki.online.player``).

A player that thinks is started once a game and asked to :meth:`~Player.think` on a
copy of the game within a :class:`~shashki.engine.limits.Limit` by the session's turn
driver (away from the session's own thread; it returns None as soon as ``cancelled()``
turns true), asked to answer offers, and closed when the game ends or is left.  A
player that can no longer play (an engine that stopped, hung, or answered an illegal
move) raises :class:`PlayerFailed`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.limits import Limit
from ..i18n import _
from ..rules import Game, Move
from ..rules.variant import Variant

if TYPE_CHECKING:
    from ..engine.search import Options

#: Whether a search should give up now.
Cancelled = Callable[[], bool]


class PlayerFailed(Exception):
    """A player cannot go on (an engine stopped, hung or answered an illegal move).

    ``str()`` is the English sentence (a match's record keeps it); :attr:`said` is the
    same in the language spoken when it failed (a front end tells the player)."""

    def __init__(self, text: str, said: str | None = None) -> None:
        super().__init__(text)
        self.said = said if said is not None else text


class Player:
    """A source of moves for one side.  The defaults are a person's: moves come from the
    front end, offers are answered by the person (None)."""

    name: str = "Player"
    is_human: bool = True

    @property
    def first_turn_free(self) -> bool:
        """Whether this player's first turn of a game is off the clock (the clocks start
        when the players do): a person's is, as on lidraughts (a remote person's too);
        a computer's or an engine's is not — it needs no time to sit down, and one that
        hangs on its first move must still lose on time."""
        return self.is_human

    @property
    def thinks(self) -> bool:
        """Whether the session's driver asks this player for its moves (:meth:`think`):
        a computer's or an engine's; not a person's, whose moves the front end plays,
        nor a remote player's, whose moves the network brings."""
        return not self.is_human

    def start(self, variant: Variant) -> None:
        """Get ready for a game of ``variant``, away from the owner's thread (the
        session's driver calls it once a game, before the first move is asked): an
        engine is started, or told of the new game, and says its name at once.  Raises
        PlayerFailed.  Default: nothing."""

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        """Choose a move for the side to move of ``game`` (a copy the player may change)
        within ``limit``.  Runs in a worker thread; None when ``cancelled()`` turns true.
        Raises PlayerFailed when the player can no longer play."""
        raise NotImplementedError

    def game_over(self, game: Game) -> None:
        """The game ended as ``game`` says (its outcome): a player that holds the game
        itself (a DXP engine) is told the result.  Default: nothing."""

    def close(self) -> None:
        """Stop what the player runs (the game ended or was left); it may start again."""

    def answer_draw(self, game: Game) -> bool | None:
        """The player's answer to a draw offer: None while a person is to be asked."""
        return None

    def answer_takeback(self, game: Game) -> bool | None:
        """The player's answer to a takeback request: None while a person is to be asked."""
        return None

    def seat(self) -> str:
        """Who sits at the board, for a front end: the person's name, or
        ``Computer · level 5``."""
        return self.name

    def shown_name(self) -> str:
        """The player's name as the screens say it ("Computer 5" in the language spoken
        now; a person's name as written)."""
        return self.name

    def tags(self) -> dict[str, str]:
        """The record's tags of this seat, without the side (``Type``, ``Level``,
        ``Engine``): what a saved game needs to seat the player again — never a command."""
        return {"Type": "human" if self.is_human else "program"}


@dataclass
class Person(Player):
    """A person: the front end plays the moves."""

    name: str = "Player"
    is_human: bool = True

    @property
    def first_turn_free(self) -> bool:
        """Whether this player's first turn of a game is off the clock (the clocks start
        when the players do): a person's is, as on lidraughts (a remote person's too);
        a computer's or an engine's is not — it needs no time to sit down, and one that
        hangs on its first move must still lose on time."""
        return self.is_human


class Computer(Player):
    """shashki's computer at one of the engine's levels (1-8).

    Its time for a move comes from the limit: the clock's share, the time per move, or
    the level's own time; a depth in the limit bounds the search too."""

    is_human = False

    def __init__(
        self,
        level: int,
        name: str | None = None,
        *,
        seconds: float | None = None,
        depth: int | None = None,
        seed: int | None = None,
        options: Options | None = None,
    ) -> None:
        from ..engine import ComputerPlayer  # (imported on first need, not at start-up)

        self.engine = ComputerPlayer(
            level, seconds=seconds, depth=depth, seed=seed, options=options
        )
        self.level = level
        self.name = name or f"Computer {level}"
        self._own_seconds = self.engine.seconds
        self._own_depth = self.engine.depth

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        self.engine.seconds = limit.move_seconds(self._own_seconds)
        self.engine.per_move = limit.left is None  # (a clock keeps what is not spent)
        self.engine.depth = limit.depth if limit.depth is not None else self._own_depth
        return self.engine.think(game, cancelled)

    def answer_draw(self, game: Game) -> bool | None:
        return False

    def answer_takeback(self, game: Game) -> bool | None:
        return True

    def seat(self) -> str:
        return _("Computer · level {n}").format(n=self.level)

    def shown_name(self) -> str:
        if self.name == f"Computer {self.level}":  # the default name, said in the language
            return _("Computer {n}").format(n=self.level)
        return self.name

    def tags(self) -> dict[str, str]:
        return {"Type": "program", "Level": str(self.level)}


__all__ = ["Cancelled", "Computer", "Person", "Player", "PlayerFailed"]
