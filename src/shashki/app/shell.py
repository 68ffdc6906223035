"""The app as its screens see it: :class:`Shell`, Textual's ``App`` and what shashki's
screens ask of it — the settings, and a small navigation service (the menu, a game, a
file, the unfinished games).

The screens import this module, never :mod:`shashki.app.app`: :class:`ShashkiApp
<shashki.app.app.ShashkiApp>` is the one shell, made of parts that each implement a share
of it (:mod:`.navigation`, :mod:`.files`, :mod:`.unfinished`, :mod:`.palette`), and the
app package has no circle of imports.  A screen reaches it as ``shell_of(self)``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen

from ..session.seats import PERSON, Seat

if TYPE_CHECKING:
    from ..records import GameRecord
    from ..records.clocks import TimeControl
    from ..rules import Game
    from ..rules.variant import Variant
    from ..store import AutosaveSlot
    from ..store.settings import Settings
    from ..store.studies import Origin
    from .controller import GameController


class Shell(App[None]):
    """What shashki's screens may ask of the app.  Every method here is implemented by
    :class:`~shashki.app.app.ShashkiApp` (or one of its parts)."""

    #: The user's settings (saved by :meth:`save_settings`).
    settings: Settings
    #: Whether games are autosaved (off in tests and benchmarks).
    autosave_enabled: bool
    #: Where the game clocks take their time (a test moves a fake one by hand).
    clock_time: Callable[[], float]
    #: The game open now (None before the first).
    controller: GameController | None

    # -- settings ------------------------------------------------------------------------

    def save_settings(self) -> None:
        """Keep the settings for next time (a failure is said once)."""
        raise NotImplementedError

    def apply_language(self, code: str) -> None:
        """Speak ``code`` ("" for the system's) from now on, on every screen."""
        raise NotImplementedError

    def next_board_theme(self) -> None:
        """The board's next colour theme, saved."""
        raise NotImplementedError

    def error_notice(self, message: str) -> None:
        """Say in one line what went wrong (``message`` is shown as it is)."""
        raise NotImplementedError

    # -- games (.navigation, and the app's autosave) ---------------------------------------

    def open_menu(self) -> None:
        """Leave the game open (its autosave kept) for the menu."""
        raise NotImplementedError

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
        """A new game of ``variant`` on its screen."""
        raise NotImplementedError

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
        """Go on with ``game`` on its screen (``slot``: its autosave, when it has one)."""
        raise NotImplementedError

    def take_over(self, game: Game, names: tuple[str, str]) -> GameController:
        """A live game from a replayed position, opened above the replay."""
        raise NotImplementedError

    def show_game(
        self,
        controller: GameController,
        screen: Screen[Any],
        slot: AutosaveSlot | None = None,
        *,
        on_top: bool = False,
    ) -> None:
        """Show ``screen`` for ``controller``'s game, autosaved as every game is (in
        ``slot`` when it was resumed from one)."""
        raise NotImplementedError

    def leave_game(self) -> None:
        """Give up the open game (its autosave kept, for later)."""
        raise NotImplementedError

    def flush_autosave(self, timeout: float = 5.0) -> None:
        """Wait until the newest state of the games is on disk."""
        raise NotImplementedError

    def forget_autosave(self, controller: GameController) -> None:
        """``controller``'s game goes on elsewhere: its autosave is removed, and it is
        autosaved no more here."""
        raise NotImplementedError

    @property
    def autosave_key(self) -> str | None:
        """The key of the open game's autosave (None: autosave off, or no game)."""
        raise NotImplementedError

    def autosave(self, controller: GameController) -> None:
        """Autosave ``controller``'s game now (its record changed other than by a move)."""
        raise NotImplementedError

    @property
    def autosave_problem(self) -> str | None:
        """Why autosaving fails at present, or None while it works."""
        raise NotImplementedError

    def headers(self, controller: GameController) -> dict[str, str]:
        """The tags of the game's record."""
        raise NotImplementedError

    def online_menu(self, variant: str | None) -> None:
        """Play online: host a game of ``variant``, or join one."""
        raise NotImplementedError

    def host_from_dialog(
        self,
        variant: str,
        names: tuple[str, str],
        kinds: tuple[str, str],
        clock: TimeControl | None,
    ) -> None:
        """Host the game the new-game dialog set up with a friend's seat."""
        raise NotImplementedError

    # -- files (.files) --------------------------------------------------------------------

    def save_game_dialog(self, controller: GameController) -> None:
        """Ask for a file name and save the game there."""
        raise NotImplementedError

    def open_game_dialog(self) -> None:
        """Choose a PDN file and open it in the replay viewer."""
        raise NotImplementedError

    def save_record_dialog(
        self, record: GameRecord, origin: Origin, on_saved: Callable[[], None]
    ) -> None:
        """Save a study's record: back into My games, or to a file the player names."""
        raise NotImplementedError

    def open_game_file(
        self,
        path: Path,
        game_number: int | None = None,
        default_variant: str | None = None,
        *,
        review: bool = False,
    ) -> None:
        """The table of a file's games (or the one game asked for) in the replay viewer
        (``review``: the game asked for with its review under way)."""
        raise NotImplementedError

    def open_record(
        self,
        record: GameRecord,
        source: str = "",
        origin: Origin | None = None,
        *,
        review: bool = False,
    ) -> None:
        """Replay (and study) a record (``origin``: where it came from, its unsaved study
        offered; ``review``: reviewed at once); a position without moves opens as a
        position to play."""
        raise NotImplementedError

    def open_replay(
        self,
        record: GameRecord,
        source: str,
        origin: Origin | None,
        *,
        changed: bool = False,
        review: bool = False,
    ) -> None:
        """The replay of ``record`` at once (``changed``: its study's unsaved state)."""
        raise NotImplementedError

    def review_game(self, controller: GameController) -> None:
        """Review the game of ``controller``, just finished."""
        raise NotImplementedError

    # -- unfinished and finished games (.unfinished, .navigation) ---------------------------

    def show_unfinished(self) -> None:
        """The list of unfinished games."""
        raise NotImplementedError

    def resume_unfinished(self, key: str) -> GameController | None:
        """Go on with an unfinished game of the autosave folder."""
        raise NotImplementedError

    def delete_unfinished(self, key: str) -> str | None:
        """Delete an unfinished game; None when done, else why not in one line."""
        raise NotImplementedError

    def show_my_games(self) -> None:
        """The list of finished games."""
        raise NotImplementedError


def shell_of(node: DOMNode) -> Shell:
    """The app ``node`` (a screen, a widget) belongs to, as its screens see it."""
    app = node.app
    assert isinstance(app, Shell), "a shashki screen runs in shashki's app"
    return app


__all__ = ["Shell", "shell_of"]
