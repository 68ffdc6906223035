"""The way between the menu and the games: a new game, a game resumed, a position taken
over from a replay, and the online ones (a part of :class:`~shashki.app.app.ShashkiApp`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..hub.player import make_player
from ..rules import Game
from ..rules.variant import Variant
from ..rules.variant_registry import find_variant
from ..session.game import GameSession
from ..session.seats import PERSON, Seat
from .controller import GameController, UndoPolicy
from .game_screen import GameScreen
from .menu import MenuScreen
from .shell import Shell

if TYPE_CHECKING:
    from ..records.clocks import TimeControl
    from ..store import AutosaveSlot

#: Seconds the game screen spends around a computer's move on a clock (it shows the move
#: no sooner than GameScreen.MIN_MOVE_DELAY, a capture jump by jump): kept off the
#: clock's share of the time.
MOVE_OVERHEAD = 0.6


class Navigation(Shell):
    """Opening the menu and the games."""

    def open_menu(self) -> None:
        self.leave_game()
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        if not isinstance(self.screen, MenuScreen):
            self.push_screen(MenuScreen())

    def start_game(
        self,
        variant: Variant | str,
        *,
        names: tuple[str, str] | None = None,
        kinds: tuple[Seat, Seat] = (PERSON, PERSON),
        start: str | None = None,
        seed: int | None = None,
        flip: bool = False,
        fen: str | None = None,
        clock: TimeControl | None = None,
    ) -> GameController:
        """A new game of ``variant`` (``clock``: played on time)."""
        v = find_variant(variant)
        if not fen and start is None and seed is None and v.start_by_lot:
            # a new game draws its lot (the seed goes into the record); only a game
            # object made without one starts from the default
            seed = random.SystemRandom().randrange(1 << 30)
        game = Game(v, fen) if fen else Game(v, start=start, seed=seed)
        names = names or (v.side_names[0], v.side_names[1])
        return self._play(game, names, kinds, flip=flip, clock=clock)

    def resume_game(
        self,
        game: Game,
        names: tuple[str, str],
        kinds: tuple[Seat, Seat] = (PERSON, PERSON),
        *,
        slot: AutosaveSlot | None = None,
        clock: TimeControl | None = None,
        clock_marks: list[float | None] | None = None,
    ) -> GameController:
        """Go on with a game; ``slot`` is its autosave when it comes from one (else it
        gets a new one); ``clock`` and the time left after each move, ``clock_marks``,
        when it is played on time."""
        return self._play(game, names, kinds, slot=slot, clock=clock, clock_marks=clock_marks)

    def take_over(self, game: Game, names: tuple[str, str]) -> GameController:
        """A live game from a replayed position, its record kept up to there."""
        return self._play(game, names, (PERSON, PERSON), on_top=True)

    def _play(
        self,
        game: Game,
        names: tuple[str, str],
        kinds: tuple[Seat, Seat],
        *,
        flip: bool = False,
        slot: AutosaveSlot | None = None,
        on_top: bool = False,
        clock: TimeControl | None = None,
        clock_marks: list[float | None] | None = None,
    ) -> GameController:
        """Open the game screen for ``game``: the players seated by kind (a player with
        no name is called by the side's), the user's undo policy, the game's autosave
        (``slot``, or a new one).  The screen replaces all above the menu and the game is
        autosaved at once; ``on_top``, it opens above the screen shown (a replay waits
        underneath) and is autosaved from its first move."""
        sides = game.variant.side_names
        engines = self.settings.engine_list  # (an engine gone from them seats a person)
        players = (
            make_player(kinds[0], names[0] or sides[0], engines=engines),
            make_player(kinds[1], names[1] or sides[1], engines=engines),
        )
        try:
            policy = UndoPolicy(self.settings.undo_policy)
        except ValueError:
            policy = UndoPolicy.FREE
        game_clock = None
        if clock is not None:
            from ..session.clock import GameClock

            movers = [side for side, _ in game.history()]
            game_clock = GameClock.resumed(clock, clock_marks or [], movers, now=self.clock_time)
        session = GameSession(
            game,
            players,
            undo_policy=policy,
            clock=game_clock,
            clock_marks=clock_marks,
            overhead=MOVE_OVERHEAD,
        )
        controller = GameController(session)
        screen = GameScreen(controller, autoflip=self.settings.autoflip)
        # a human alone against the computer sees the board from his own side
        if flip or (not players[0].is_human and players[1].is_human):
            screen.board.flipped = True
        self.show_game(controller, screen, slot, on_top=on_top)
        return controller

    def show_my_games(self) -> None:
        """The list of finished games (the menu's m)."""
        from .my_games import MyGamesScreen

        self.push_screen(MyGamesScreen())

    def online_menu(self, variant: str | None) -> None:
        from .online import online_menu

        online_menu(self, variant)

    def host_from_dialog(
        self,
        variant: str,
        names: tuple[str, str],
        kinds: tuple[str, str],
        clock: TimeControl | None,
    ) -> None:
        from .online import host_from_dialog

        host_from_dialog(self, variant, names, kinds, clock)


__all__ = ["MOVE_OVERHEAD", "Navigation"]
