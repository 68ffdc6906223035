"""The Textual application, :class:`ShashkiApp`: the settings, the language, the notices,
the first screen, the game open and its autosave; its other parts are modules of their
own (see the class), and its screens see it as a :class:`~shashki.app.shell.Shell`."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from ..base.numbers import first_upper
from ..i18n import LANGUAGES, N_, _, ngettext, set_language
from ..session.autosave import AutosaveWriter
from ..session.recorder import Recorder
from ..session.served import hide_paths, served
from ..store.settings import Choices, Settings
from ..store.settings import settings_path as default_settings_path
from ..store.studies import Origin
from .assembly import assembled, is_assembled
from .board import PIECE_SETS
from .controller import GameController, UndoPolicy
from .files import GameFiles
from .launch import HostRequest, JoinRequest, PlayRequest, ReplayRequest, StartRequest
from .menu import MenuScreen
from .navigation import Navigation
from .palette import Palette
from .plain import visible
from .shell import Shell
from .themes import BOARD_THEMES, board_theme_css
from .unfinished import UnfinishedGames
from .widgets import InTurn

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.notifications import SeverityLevel

    from ..store import AutosaveSlot


#: The names the app gives the settings that name one of its things.
SETTING_CHOICES: Choices = {
    "piece_set": tuple(PIECE_SETS),
    "board_theme": BOARD_THEMES,
    "undo_policy": tuple(policy.value for policy in UndoPolicy),
}


def use_language(language: str | None, settings: Settings) -> None:
    """Speak, in this process, ``language`` (``--lang``, for this run), else the language
    of ``settings``, else the one spoken already (the locale's, which the command line
    set).  The program's choice, made by the entry point before the app is made
    (:func:`run`); the app's constructor sets nothing outside the app."""
    if language or settings.language:
        set_language(language or settings.language)


def load_settings(path: Path) -> Settings:
    """The app's settings from ``path`` (:meth:`Settings.load`, with the app's names);
    with NO_COLOR, the pieces that are told apart by colour alone are shown by shape."""
    settings = Settings.load(path, choices=SETTING_CHOICES)
    if os.environ.get("NO_COLOR") and settings.piece_set == "unicode":
        settings.piece_set = "contrast"
    return settings


class AutosaveFailed(Message):
    """Sent from the autosave thread when autosaving stops working."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class TableUnusable(Message):
    """Sent from a search's or a game's thread when an ending table that came with
    shashki is found damaged or of other rules (the line the engine said of it)."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line


#: How many of the latest notifications :attr:`ShashkiApp.notices` keeps.
NOTICES_KEPT = 100


class ShashkiApp(Palette, GameFiles, UnfinishedGames, Navigation, Shell):
    """shashki in the terminal: the screens' :class:`~shashki.app.shell.Shell`.

    Its parts, one module each: the way between the menu and the games
    (:class:`~shashki.app.navigation.Navigation`), saving and opening files
    (:class:`~shashki.app.files.GameFiles`), the unfinished games
    (:class:`~shashki.app.unfinished.UnfinishedGames`), the command palette
    (:class:`~shashki.app.palette.Palette`); here, the settings, the language, the
    notices, the first screen (:mod:`.launch`'s request), the open game and its autosave,
    and the screens' teardown."""

    BINDINGS = [Binding("comma", "settings", N_("Settings"), show=False, key_display=",")]

    TITLE = "shashki"
    #: The screens' and widgets' styles (the paths are relative to this file).
    CSS_PATH = [
        "styles/widgets.tcss",
        "styles/menu.tcss",
        "styles/game.tcss",
        "styles/replay.tcss",
        "styles/dialogs.tcss",
        "styles/puzzles.tcss",
    ]
    #: The board's colours, from the themes' table.
    CSS = board_theme_css()
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(
        self,
        *,
        start: StartRequest | None = None,
        settings_path: Path | None = None,
        settings: Settings | None = None,
        autosave: bool = True,
        offer_resume: bool = True,
    ) -> None:
        super().__init__()
        #: What the command line asked to open first (None: the menu).
        self.start = start
        #: Where the game clocks take their time (a test moves a fake one by hand).
        self.clock_time: Callable[[], float] = time.monotonic
        self.settings_path = settings_path or default_settings_path()
        #: The settings (read from ``settings_path`` unless given), kept there on change.
        self.settings = settings if settings is not None else load_settings(self.settings_path)
        self._settings_problem_said = False
        self.autosave_enabled = autosave
        self.offer_resume = offer_resume
        self.controller: GameController | None = None
        self.theme = "textual-dark"
        #: The autosave writer: one worker thread, the newest state of a game.
        self._autosave = AutosaveWriter(on_failure=self._autosave_failed)
        #: The open game's recorder (None: no game open, or autosave off).
        self._recorder: Recorder | None = None
        #: What the player was told in notifications, oldest first, as shown (the latest
        #: NOTICES_KEPT): each kept the moment it is raised, where Textual's own toasts
        #: show it a moment later and drop it when its time is up.
        self.notices: deque[str] = deque(maxlen=NOTICES_KEPT)

    # -- settings ----------------------------------------------------------------------

    def save_settings(self) -> None:
        """Keep the settings for next time; when they cannot be written, the player is
        told once (and not at every change)."""
        problem = self.settings.save(self.settings_path)
        if problem is not None and not self._settings_problem_said:
            self._settings_problem_said = True
            self.notify(
                _("Settings not saved: {reason}.").format(reason=problem),
                severity="warning",
                timeout=10,
                markup=False,
            )

    def apply_language(self, code: str) -> None:
        """Speak ``code`` from now on ("en", "uk", "ru"; "" for the system's), save it
        in the settings, and redraw every screen's words in it at once: each screen that
        shows text has a ``retranslate()`` that keeps its state."""
        set_language(code or None)
        self.settings.language = code if code in LANGUAGES else ""
        self.save_settings()
        for screen in list(self.screen_stack):
            if is_assembled(screen):
                self._retranslate(screen)
            else:
                # still being put together: its words are redrawn once it is whole (now,
                # half-made, the redrawing stopped at the first widget not yet made)
                self.run_worker(self._retranslate_when_assembled(screen), group="retranslate")
            screen.refresh_bindings()

    def _retranslate(self, screen: Screen) -> None:  # type: ignore[type-arg]
        """Redraw the words of ``screen`` in the language spoken now (its ``retranslate``)."""
        from textual.css.query import NoMatches

        retranslate = getattr(screen, "retranslate", None)
        if callable(retranslate):
            try:
                retranslate()
            except NoMatches:  # taken down meanwhile
                pass

    async def _retranslate_when_assembled(self, screen: Screen) -> None:  # type: ignore[type-arg]
        await assembled(screen)
        if screen.is_attached:
            self._retranslate(screen)

    def next_board_theme(self) -> None:
        themes = BOARD_THEMES
        current = self.settings.board_theme if self.settings.board_theme in themes else themes[0]
        self.settings.board_theme = themes[(themes.index(current) + 1) % len(themes)]
        self.save_settings()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's notification (every screen's notify() comes here).  shashki's own say
        markup=False, as they quote names, paths and errors; such a message has its
        control characters shown as symbols, since a path may hold any; it is kept in
        :attr:`notices`.  In a served app no notice names the owner's folders
        (:func:`~shashki.session.served.hide_paths`): a file of the games folder is named
        as the visitor would type it."""
        if served():
            message, title = hide_paths(message), hide_paths(title)
        shown = message if markup else visible(message)
        self.notices.append(shown)
        super().notify(
            shown,
            title=title,
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def error_notice(self, message: str) -> None:
        """Say in one line what went wrong (``message`` is shown as it is: it quotes
        paths and errors)."""
        self.notify(message, severity="error", timeout=8, markup=False)

    # -- flow ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        from ..engine.endings import listen

        # a shipped ending table found damaged (the analysis, a game, a review): said
        # once, in one line, whichever thread found it; the engine searches instead
        self._stop_listening = listen(self._table_unusable)
        start = self.start
        found = self.tidy_autosaves() if self.autosave_enabled else None
        if isinstance(start, (HostRequest, JoinRequest)):
            from .online import start_from_command

            self.push_screen(MenuScreen())
            start_from_command(self, start)
            return
        if isinstance(start, PlayRequest):
            # the game asked for starts at once; the others wait, listed, for next time
            self.start_game(
                start.variant,
                fen=start.fen,
                kinds=start.kinds,
                seed=start.seed,
                clock=start.clock,
            )
            waiting = len(found.resumable) if found is not None else 0
            if waiting:
                self.notify(
                    ngettext(
                        "{n} other unfinished game is kept: press u in the menu to see it.",
                        "{n} other unfinished games are kept: press u in the menu to see them.",
                        waiting,
                    ).format(n=waiting),
                    timeout=8,
                    markup=False,
                )
            return
        self.push_screen(MenuScreen())
        if isinstance(start, ReplayRequest):
            self.open_game_file(start.path, start.game, start.default_variant, review=start.review)
            return
        if found is not None and self.offer_resume and found.resumable:
            self._list_unfinished(found)

    # -- the game open -----------------------------------------------------------------

    def show_game(
        self,
        controller: GameController,
        screen: Screen[Any],
        slot: AutosaveSlot | None = None,
        *,
        on_top: bool = False,
    ) -> None:
        """Show ``screen`` for ``controller``'s game, with its own autosave (``slot``, or a
        new one); the game left, if any, is given up (its file stays, for later).  The
        screen replaces all above the menu and the game is autosaved at once; ``on_top``,
        it opens above the screen shown (a replay waits underneath) and is autosaved from
        its first move."""
        self.controller = controller
        self._attach_game(controller, slot, save_now=not on_top)
        if on_top:
            self.push_screen(screen)
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        self.push_screen(screen)

    def autosave(self, controller: GameController) -> None:
        """Autosave ``controller``'s game now (its recorder saves it after every change
        of the session's; this is for what changed outside it)."""
        recorder = self._recorder
        if recorder is not None and recorder.session is controller.session:
            recorder.save()

    def headers(self, controller: GameController) -> dict[str, str]:
        """The tags of the game's record (the session's)."""
        return controller.session.headers()

    # -- autosave -----------------------------------------------------------------------

    def _attach_game(
        self,
        controller: GameController,
        slot: AutosaveSlot | None = None,
        *,
        save_now: bool = True,
    ) -> None:
        """The game now open is autosaved by its session's recorder, in ``slot`` or a new
        one (the app chooses only where: the recorder saves after every change, keeps a
        finished game in My games); ``save_now``: its state is written at once, not from
        its first move.  The game left, if any, is given up (its file stays, for later)."""
        from ..store import AutosaveSlot

        self.leave_game()
        if not self.autosave_enabled:
            if slot is not None:
                slot.release()
            return
        self._recorder = Recorder(
            controller.session,
            writer=self._autosave,
            slot=slot if slot is not None else AutosaveSlot.new(),
        )
        if save_now:
            self._recorder.save()

    def leave_game(self) -> None:
        """Give up the open game's autosave once its last state is written (the file
        stays, for later)."""
        recorder, self._recorder = self._recorder, None
        if recorder is not None:
            recorder.close()

    def forget_autosave(self, controller: GameController) -> None:
        """``controller``'s game goes on elsewhere (an online game joined again from
        another shashki): its autosave is removed and it is autosaved no more here."""
        recorder = self._recorder
        if recorder is None or recorder.session is not controller.session:
            return
        self._recorder = None
        recorder.forget()

    @property
    def autosave_key(self) -> str | None:
        """The key of the open game's autosave (None: autosave off, or no game)."""
        recorder = self._recorder
        slot = recorder.slot if recorder is not None else None
        return slot.key if slot is not None else None

    def on_unmount(self) -> None:
        """However the app ends, the newest state is autosaved and the game given up."""
        stop = getattr(self, "_stop_listening", None)
        if stop is not None:
            stop()
        self.leave_game()
        self.flush_autosave()

    def _table_unusable(self, line: str) -> None:
        """(Any thread) the engine found a shipped ending table unusable."""
        try:
            self.post_message(TableUnusable(line))
        except RuntimeError:  # the app has gone
            pass

    def on_table_unusable(self, message: TableUnusable) -> None:
        line = message.line  # (the engine's line, as a sentence)
        self.notify(first_upper(line), severity="warning", timeout=12, markup=False)

    @property
    def autosave_problem(self) -> str | None:
        """Why autosaving fails at present, or None while it works."""
        return self._autosave.problem

    def _autosave_failed(self, reason: str) -> None:
        """(The writer's thread) autosaving stopped working: said once."""
        try:
            self.post_message(AutosaveFailed(reason))
        except RuntimeError:  # the app has gone
            pass

    def on_autosave_failed(self, message: AutosaveFailed) -> None:
        self.notify(
            _("Autosave failed: {reason}. Save the game with s to keep it.").format(
                reason=message.reason
            ),
            severity="error",
            timeout=12,
            markup=False,
        )

    def review_game(self, controller: GameController) -> None:
        """Review a finished game (and study it): its record as My games keeps it, the
        player's side the one person's against a program."""
        from ..store.archive import for_archive

        session = controller.session
        outcome = session.outcome
        if outcome is None or not session.game.move_stack:
            return
        record = for_archive(session.record(), outcome)
        people = [i for i, p in enumerate(session.players) if p.is_human]
        side = people[0] if len(people) == 1 else (0 if people else None)
        recorder = self._recorder
        slot = recorder.slot if recorder is not None and recorder.session is session else None
        origin = Origin(kept=slot.key if slot is not None else "", player_side=side)
        self.flush_autosave()  # the game is in My games before its study replaces it
        self.open_replay(record, _("the game just played"), origin, review=True)

    def flush_autosave(self, timeout: float = 5.0) -> None:
        """Wait until the newest state is on disk (before quitting, and in tests)."""
        self._autosave.flush(timeout)

    # -- keys and screens ---------------------------------------------------------------

    def on_in_turn(self, message: InTurn) -> None:
        """A priority binding's action, here after the keys typed before it (see
        :func:`~shashki.app.widgets.after_keys`)."""
        message.stop()
        message.run()

    async def on_event(self, event: events.Event) -> None:
        """Once the app is quitting, keys and clicks are not acted on: one typed right
        behind the quit (Ctrl+Q, then Ctrl+P) opened a screen while the app was being
        taken down, and it failed there. Nor once the app is being taken down without a
        quit (as a test's ``run_test`` ends it) or has no screen left: keys still queued
        then were looked up on a screen stack already emptied (ScreenStackError)."""
        if isinstance(event, events.InputEvent) and (
            self.return_code is not None or not self.is_running or not self.screen_stack
        ):
            return
        await super().on_event(event)

    # -- a screen is taken down only once it is put together -------------------------------

    async def _replace_screen(self, screen: Screen) -> Screen:  # type: ignore[type-arg]
        """A screen closed (popped, dismissed, switched away) is taken down once it has
        been put together: see :func:`assembled`."""
        await assembled(screen)
        return await super()._replace_screen(screen)

    def exit(
        self,
        result: None = None,
        return_code: int = 0,
        message: RenderableType | None = None,
    ) -> None:
        """Quit, once every screen is put together (see :func:`assembled`): Textual mounts
        nothing more once the app exits, so a screen opened right before the quit (Ctrl+P
        then Ctrl+Q, typed fast) was left half-made and its mount handlers failed."""
        unmade = [
            screen
            for stack in self._screen_stacks.values()
            for screen in stack
            if not is_assembled(screen)
        ]
        if not unmade or not self.is_running:
            super().exit(result, return_code, message)
            return

        async def when_assembled() -> None:
            for screen in unmade:
                await assembled(screen)
            super(ShashkiApp, self).exit(result, return_code, message)

        # the app's own queue waits: keys typed after the quit are not acted on meanwhile
        self.call_next(when_assembled)


def run(
    start: StartRequest | None = None, *, mouse: bool = True, language: str | None = None
) -> int:
    """Run the app until it is quit, opening ``start`` first (None: the menu); its exit
    status (1 if it failed, else 0).  ``language`` (``--lang``) wins over the setting for
    this run."""
    path = default_settings_path()
    settings = load_settings(path)
    use_language(language, settings)
    app = ShashkiApp(start=start, settings_path=path, settings=settings)
    app.run(mouse=mouse)
    app.flush_autosave()
    return app.return_code or 0


__all__ = ["ShashkiApp", "run", "use_language"]
