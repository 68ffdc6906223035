"""The Textual application: settings, themes, and the way between menu, games and dialogs."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from ..hub.player import make_player
from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, ngettext, os_reason, set_language
from ..rules import Game, ShashkiError
from ..rules.variant import Variant
from ..rules.variant_registry import find_variant
from ..session.autosave import AutosaveWriter
from ..session.autosave import one_line as _one_line
from ..session.game import GameSession
from ..session.recorder import Recorder
from ..session.seats import PERSON, LevelSeat, NamedEngineSeat, Seat
from ..session.served import (
    NotAllowed,
    games_file,
    hide_paths,
    inside_games,
    served,
    shown_path,
)
from ..store.settings import Choices, Settings, engine_settings
from ..store.settings import settings_path as default_settings_path
from .board import PIECE_SETS
from .controller import GameController, UndoPolicy
from .dialogs import ConfirmScreen, TextPrompt
from .launch import HostRequest, JoinRequest, PlayRequest, ReplayRequest, StartRequest
from .menu import MenuScreen
from .plain import visible
from .players import seat_from_file, set_engines
from .themes import BOARD_THEMES, board_theme_css
from .widgets import InTurn

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.notifications import SeverityLevel

    from ..records import GameRecord
    from ..records.clocks import TimeControl
    from ..store import AutosaveSlot
    from ..store.autosaves import Scan


#: Seconds the game screen spends around a computer's move on a clock (it shows the move
#: no sooner than GameScreen.MIN_MOVE_DELAY, a capture jump by jump): kept off the
#: clock's share of the time.
MOVE_OVERHEAD = 0.6


#: The names the app gives the settings that name one of its things.
SETTING_CHOICES: Choices = {
    "piece_set": tuple(PIECE_SETS),
    "board_theme": BOARD_THEMES,
    "undo_policy": tuple(policy.value for policy in UndoPolicy),
}


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


def one_line(exc: BaseException) -> str:
    """An error's message on one line."""
    return _one_line(exc)


#: The longest a screen is waited for to be put together before it is taken down (a safety
#: valve: it takes milliseconds, a little more on a loaded machine).
ASSEMBLY_WAIT = 30.0


def is_assembled(screen: Screen) -> bool:  # type: ignore[type-arg]
    """Whether ``screen`` and every widget in it are mounted."""
    return all(node.is_mounted for node in screen.walk_children(Widget, with_self=True))


async def assembled(screen: Screen) -> None:  # type: ignore[type-arg]
    """Wait until ``screen`` and every widget in it are composed and mounted.

    A screen taken down while it is still being put together (closed by the app right
    after it was opened, or the app quit by a key typed right behind the one that opened
    it, on a slow or loaded machine) was left half-made: Textual mounts no children into
    a widget being removed, nor once the app exits, but it still runs the widget's mount
    handler, and the handlers that look up their children (the screens' own, Textual's
    ``Select``, ``Header`` and command palette) failed with ``NoMatches``. Waiting for the
    mount first, a screen is taken down whole. (``_mounted_event`` is Textual's own signal
    of a finished mount; it is set also when a mount fails.)"""
    while not is_assembled(screen):
        waits: list[asyncio.Future[bool]] = [
            asyncio.ensure_future(node._mounted_event.wait())
            for node in screen.walk_children(Widget, with_self=True)
            if not node.is_mounted
        ]
        _done, pending = await asyncio.wait(waits, timeout=ASSEMBLY_WAIT)
        for task in pending:
            task.cancel()
        if pending:
            return  # never hang: taken down as it is, as Textual would


#: How many of the latest notifications :attr:`ShashkiApp.notices` keeps.
NOTICES_KEPT = 100


class ShashkiApp(App[None]):
    """shashki in the terminal."""

    BINDINGS = [Binding("comma", "settings", N_("Settings"), show=False, key_display=",")]

    TITLE = "shashki"
    #: The screens' and widgets' styles (the paths are relative to this file).
    CSS_PATH = [
        "styles/widgets.tcss",
        "styles/menu.tcss",
        "styles/game.tcss",
        "styles/replay.tcss",
        "styles/dialogs.tcss",
    ]
    #: The board's colours, from the themes' table.
    CSS = board_theme_css()
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(
        self,
        *,
        start: StartRequest | None = None,
        settings_path: Path | None = None,
        autosave: bool = True,
        offer_resume: bool = True,
        language: str | None = None,
    ) -> None:
        super().__init__()
        #: What the command line asked to open first (None: the menu).
        self.start = start
        #: Where the game clocks take their time (a test moves a fake one by hand).
        self.clock_time: Callable[[], float] = time.monotonic
        self.settings_path = settings_path or default_settings_path()
        self.settings = load_settings(self.settings_path)
        self._settings_problem_said = False
        # the language: --lang for this run, else the setting, else (automatic) the one
        # spoken already (the locale's, which the command line set)
        if language or self.settings.language:
            set_language(language or self.settings.language)
        set_engines(engine_settings(self.settings.engines))
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
            self.open_game_file(start.path, start.game, start.default_variant)
            return
        if found is not None and self.offer_resume and found.resumable:
            self._list_unfinished(found)

    # -- unfinished games --------------------------------------------------------------

    def tidy_autosaves(self) -> Scan:
        """Look at the autosave folder (adopting an old single autosave, clearing what
        killed saves left, moving damaged files aside) and say in one line what was
        damaged."""
        from ..store import scan_autosaves

        self.flush_autosave()  # this process's own last states first
        found = scan_autosaves()
        report = found.damage_report()
        if report:
            self.notify(report, severity="warning", timeout=12, markup=False)
        for problem in found.problems:
            self.notify(problem, severity="warning", timeout=10, markup=False)
        return found

    def show_unfinished(self) -> None:
        """The list of unfinished games (the menu's u)."""
        if not self.autosave_enabled:
            self.notify(
                _("Autosave is off: there are no unfinished games."), timeout=5, markup=False
            )
            return
        found = self.tidy_autosaves()
        if not found.games:
            self.notify(_("No unfinished games."), timeout=5, markup=False)
            return
        self._list_unfinished(found)

    def _list_unfinished(self, found: Scan) -> None:
        from .unfinished import UnfinishedScreen

        def chosen(key: str | None) -> None:
            if key is not None:
                self.resume_unfinished(key)

        self.push_screen(UnfinishedScreen(found.games), chosen)

    def show_my_games(self) -> None:
        """The list of finished games (the menu's m)."""
        from .my_games import MyGamesScreen

        self.push_screen(MyGamesScreen())

    def resume_unfinished(self, key: str) -> GameController | None:
        """Go on with an unfinished game of the autosave folder (taking its lock, so no
        other shashki can); says in one line why not when it cannot."""
        from ..store import AutosaveSlot, DamagedSave
        from ..store.autosaves import UnknownVariant

        self.flush_autosave()
        try:
            slot, record = AutosaveSlot.claim(key)
        except FileNotFoundError:
            self.notify(
                _("That game is not there any more: it ended or was deleted."),
                timeout=8,
                markup=False,
            )
            return None
        except (DamagedSave, UnknownVariant, OSError) as exc:
            self.notify(
                _("Cannot resume that game: {reason}.").format(reason=one_line(exc)),
                severity="error",
                timeout=10,
                markup=False,
            )
            return None
        game = record.end().replay()  # checked by claim()
        if game.outcome() is not None:
            slot.release()
            self.notify(_("That game is over already."), timeout=8, markup=False)
            return None
        from ..online.room import TAG

        if record.header(TAG):  # an online game: hosted again, or joined again
            from .online import resume_online

            online = resume_online(self, record, game, slot)
            if online is not None:
                return online
        names = (record.header("White"), record.header("Black"))
        seats = (seat_kind(record, "White"), seat_kind(record, "Black"))
        kinds = (seats[0][0], seats[1][0])
        from ..records.clocks import record_clocks, time_control

        control = time_control(record)
        marks = record_clocks(record) if control is not None else None
        controller = self.resume_game(
            game, names, kinds, slot=slot, clock=control, clock_marks=marks
        )
        for _kind, note in seats:  # a seat the file names that cannot be: one line each
            if note is not None:
                self.notify(note, severity="warning", timeout=10, markup=False)
        return controller

    def delete_unfinished(self, key: str) -> str | None:
        """Delete an unfinished game; None when done, else why not in one line."""
        from ..store import GameLocked, delete_unfinished

        self.flush_autosave()
        try:
            delete_unfinished(key)
        except FileNotFoundError:
            return None  # gone already: what was asked
        except GameLocked as exc:
            return _("Not deleted: it is {status}.").format(status=exc)
        except OSError as exc:
            return _("Not deleted: {reason}.").format(reason=one_line(exc))
        return None

    def open_menu(self) -> None:
        self._leave_game()
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
        players = (
            make_player(kinds[0], names[0] or sides[0]),
            make_player(kinds[1], names[1] or sides[1]),
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
        self.controller = controller
        self._attach_game(controller, slot, save_now=not on_top)
        from .game_screen import GameScreen

        screen = GameScreen(controller, autoflip=self.settings.autoflip)
        # a human alone against the computer sees the board from his own side
        if flip or (not players[0].is_human and players[1].is_human):
            screen.board.flipped = True
        if on_top:
            self.push_screen(screen)
            return controller
        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()
        self.push_screen(screen)
        return controller

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

        self._leave_game()
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

    def _leave_game(self) -> None:
        """Give up the open game's autosave once its last state is written."""
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
        self._leave_game()
        self.flush_autosave()

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

    def flush_autosave(self, timeout: float = 5.0) -> None:
        """Wait until the newest state is on disk (before quitting, and in tests)."""
        self._autosave.flush(timeout)

    def _record(self, controller: GameController):  # type: ignore[no-untyped-def]
        return controller.session.record()

    # -- saving a game ------------------------------------------------------------------

    def save_game_dialog(self, controller: GameController) -> None:
        """Ask for a file name (a new one is suggested) and save the game there; a file
        that exists is replaced only when the player says so."""
        from ..store import free_name, games_dir, safe_stem

        folder = games_dir()
        stem = f"{safe_stem(controller.variant.id)}-{datetime.now():%Y-%m-%d-%H%M}"
        default = free_name(folder, stem)

        def chosen(name: str | None) -> None:
            if not name:
                return
            if served():  # a visitor names a file of the games folder, nothing else
                try:
                    path = games_file(name, folder)
                except NotAllowed as exc:
                    self.error_notice(_("Not saved: {reason}").format(reason=exc))
                    return
                self.save_game_to(controller, path)
                return
            try:
                path = Path(name).expanduser()
            except RuntimeError as exc:  # "~nobody/x": no such home folder
                self.error_notice(_("Not saved: {reason}").format(reason=one_line(exc)))
                return
            if not path.is_absolute():
                path = folder / path
            self.save_game_to(controller, path)

        if served():
            self.push_screen(
                TextPrompt(N_("Save the game as (a PDN file of the games folder):"), default.name),
                chosen,
            )
            return
        self.push_screen(TextPrompt(N_("Save the game as (PDN file):"), str(default)), chosen)

    def save_game_to(
        self, controller: GameController, path: Path, *, replace: bool = False
    ) -> bool:
        """Save the game to ``path``; an existing file is first asked about (unless
        ``replace``).  Says in one line what happened; True when saved."""
        from ..store import TargetExists, games_dir, save_pdn
        from ..store.storage import own_data_folder

        try:
            if path.parent == games_dir():  # shashki's own folder: made, and never a link
                own_data_folder(path.parent)
            if served():  # (checked again: what a visitor saves stays in the games folder)
                inside_games(path)
            save_pdn(path, [self._record(controller)], replace=replace)
        except TargetExists:
            shown = path.name if served() else path  # (a visitor: not the owner's folders)

            def answered(ok: bool | None) -> None:
                if ok:
                    self.save_game_to(controller, path, replace=True)
                else:
                    self.notify(
                        _(
                            "Not saved: {path} is left as it was. Press s to choose another name."
                        ).format(path=shown),
                        timeout=8,
                        markup=False,
                    )

            self.push_screen(
                ConfirmScreen(N_("{path} already exists. Replace it with this game?"), path=shown),
                answered,
            )
            return False
        except (OSError, ValueError) as exc:
            self.error_notice(
                _("Not saved: {reason}. The game is still here.").format(reason=one_line(exc))
            )
            return False
        if served():  # a visitor is told the name, not where the owner's files are
            self.notify(
                _("Saved as {name} in the games folder").format(name=path.name), markup=False
            )
            return True
        self.notify(_("Saved to {path}").format(path=path), markup=False)
        return True

    def open_game_dialog(self) -> None:
        """Choose a PDN file (starting in the saved-games folder) and open it."""
        from ..store import data_dir
        from .replay import FileChooserScreen

        folder = data_dir() / "games"
        if served():  # a visitor browses the games folder, and nothing else
            from ..store.storage import own_data_folder

            try:
                own_data_folder(folder)
            except OSError as exc:
                self.error_notice(
                    _("Cannot open the games folder: {reason}").format(reason=one_line(exc))
                )
                return
        else:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                folder = Path.home()

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_game_file(path)

        self.push_screen(FileChooserScreen(folder, confined=served()), chosen)

    def open_game_file(
        self, path: Path, game_number: int | None = None, default_variant: str | None = None
    ) -> None:
        """The table of a file's games (or the one game asked for) in the replay viewer."""
        from ..base.userfiles import open_regular
        from ..records.gametypes import DEFAULT_VARIANT
        from ..records.guess import guess_variant
        from .replay import GameTableScreen, load_record

        if served():  # (whatever asked: what a visitor opens is in the games folder)
            try:
                path = inside_games(path)
            except NotAllowed as exc:
                self.error_notice(
                    _("Cannot open {path}: {reason}").format(path=shown_path(path), reason=exc)
                )
                return
        try:  # a folder, a FIFO or a device is refused at once, without blocking
            open_regular(path).close()
        except OSError as exc:
            reason = _("no such file") if isinstance(exc, FileNotFoundError) else os_reason(exc)
            self.error_notice(
                _("Cannot open {path}: {reason}").format(
                    path=shown_path(path), reason=reason or exc
                )
            )
            return
        if game_number is not None:
            try:
                if default_variant is None:  # untagged games: their variant guessed
                    guess = guess_variant(path)
                    if guess is not None and guess.variant.id != DEFAULT_VARIANT:
                        default_variant = guess.variant.id
                        self.notify(guess.line(), timeout=8, markup=False)
                record = load_record(path, game_number - 1, default_variant)
            except OSError as exc:
                self.error_notice(
                    _("Cannot read {path}: {reason}").format(
                        path=shown_path(path), reason=os_reason(exc)
                    )
                )
                return
            if record is None:
                self.error_notice(
                    _("{file} has no game number {number}.").format(
                        file=path.name, number=game_number
                    )
                )
                self.push_screen(GameTableScreen(path, default_variant))
                return
            self.open_record(record, source=f"{path.name} #{game_number}")
            return
        self.push_screen(GameTableScreen(path, default_variant))

    def open_record(self, record, source: str = "") -> None:  # type: ignore[no-untyped-def]
        """Replay a record; a position without moves opens as a position to play."""
        from .replay import ReplayScreen

        if record.variant is None:
            self.error_notice(_("This game is of a variant shashki does not play."))
            return
        if not record.mainline_moves() and not record.errors:
            try:
                game = record.start()
            except ShashkiError as exc:  # a bad FEN
                self.error_notice(_("Cannot set up this position: {reason}").format(reason=exc))
                return
            self.take_over(game, (record.header("White"), record.header("Black")))
            return
        try:
            screen = ReplayScreen(record, source)
        except ShashkiError as exc:  # its start position cannot be set up
            self.error_notice(_("Cannot replay this game: {reason}").format(reason=exc))
            return
        self.push_screen(screen)

    def take_over(self, game: Game, names: tuple[str, str]) -> GameController:
        """A live game from a replayed position, its record kept up to there."""
        return self._play(game, names, (PERSON, PERSON), on_top=True)

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

    # -- the command palette reaches every action --------------------------------------------

    def action_settings(self) -> None:
        """Open the settings screen (``,``), unless it is already on show."""
        from .settings_screen import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

    def action_command_palette(self) -> None:
        """Textual's palette, its page keys made safe for a list being refilled."""
        from textual.command import CommandPalette

        from .widgets import ShashkiCommandPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(
                ShashkiCommandPalette(id="--command-palette", placeholder=_("Search for commands…"))
            )

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:  # type: ignore[type-arg]
        from .game_screen import GameScreen

        in_game = isinstance(screen, GameScreen)
        for command in super().get_system_commands(screen):
            if command.title == "Quit" and in_game:
                continue  # the game's own Quit, which asks before leaving a game in play
            if command.title == "Theme":
                # Textual's theme colours the app; the board's theme is another command
                command = command._replace(
                    title=N_("App colour theme"), help=N_("Change the colours of the whole app")
                )
            if command.title in TEXTUAL_WORDS:  # Textual's own, in English
                command = command._replace(title=_(command.title), help=_(command.help))
            yield command
        yield SystemCommand(
            _("Settings"),
            _("Board theme, pieces, coordinates, sound, takebacks, language (,)"),
            self.action_settings,
        )
        if isinstance(screen, MenuScreen):
            yield SystemCommand(
                _("My games"),
                _("Every finished game: replay, export, delete; the score per opponent (m)"),
                self.show_my_games,
            )
        for code in ("", *LANGUAGES):
            name = LANGUAGE_NAMES[code] if code else _("Automatic (from the system)")
            yield SystemCommand(
                _("Language: {name}").format(name=name),
                _("Speak this language from now on (saved in the settings)"),
                partial(self.apply_language, code),
            )
        if isinstance(screen, MenuScreen):
            yield SystemCommand(
                _("Play online"),
                _("Host a game for a friend, or join one (w)"),
                screen.action_online,
            )
        if in_game:
            for binding in screen.BINDINGS:
                b = binding if not isinstance(binding, tuple) else None
                if b is None or b.action.startswith("cursor") or b.action.startswith("next"):
                    continue
                key = b.key_display or b.key.split(",")[0]  # "?" and ":", not "question_mark"
                title = _(PALETTE_TITLES.get(b.action, b.description))
                yield SystemCommand(title, f"{title} ({key})", _on_screen(screen, b.action))


#: The palette's names of game keys whose footer name alone would be unclear there.
PALETTE_TITLES = {
    "theme": N_("Board theme"),
    "pieces": N_("Piece set"),
    "coords": N_("Coordinates"),
    "numbers": N_("Numbers on every square"),
}

#: Textual's own words: its footer key, and its palette commands' titles and help texts
#: (marked for the catalogs, translated where shown).
TEXTUAL_WORDS = frozenset(
    (
        N_("palette"),
        N_("Open the command palette"),
        N_("App colour theme"),
        N_("Change the colours of the whole app"),
        N_("Quit"),
        N_("Quit the application as soon as possible"),
        N_("Keys"),
        N_("Hide the keys and widget help panel"),
        N_("Show help for the focused widget and a summary of available keys"),
        N_("Minimize"),
        N_("Minimize the widget and restore to normal size"),
        N_("Maximize"),
        N_("Maximize the focused widget"),
        N_("Screenshot"),
        N_("Save an SVG 'screenshot' of the current screen"),
    )
)


def _on_screen(screen: Screen, action: str) -> Callable[[], Awaitable[None]]:  # type: ignore[type-arg]
    """A palette command running ``action`` on ``screen``: it runs a moment after the
    palette has closed, and only if ``screen`` is then still the one on show (a key typed
    right behind may have left it, and its widgets are gone), and the app is running: one
    chosen as the app was taken down ran on the game screen whose widgets were already
    removed (NoMatches, on a loaded machine)."""

    async def run() -> None:
        if screen.app.is_running and screen.is_active and screen.is_attached:
            await screen.run_action(action)

    return run


def seat_kind(record: GameRecord, side: str) -> tuple[Seat, str | None]:
    """The seat a saved game's tags give one side, and a line for the player when the
    tags name a player that cannot be seated (None when all is well).

    A file seats a person, a computer level 1-8 (``{side}Level``) or an engine of the
    user's settings by its name (``{side}Engine``); anything else is read as a person.
    A file never gives a command: ``hub:…`` in any tag seats a person."""
    from ..records.quoting import quote

    if record.header(f"{side}Type").strip().lower() != "program":
        return PERSON, None
    engine = record.header(f"{side}Engine").strip()
    if engine:  # an engine of the user's settings, by name; a file never gives a command
        seat = seat_from_file(engine)
        if isinstance(seat, NamedEngineSeat):
            return seat, None
        return PERSON, _(
            "The saved game names the engine {name} (tag {tag}), which the settings do not "
            "have: a person plays that side."
        ).format(name=quote(engine, 40), tag=f"{side}Engine")
    level = record.header(f"{side}Level").strip()
    if not level:  # (a Hub engine of a typed command: its command is not in the file)
        return PERSON, _(
            "The saved game does not name its program (tag {tag}) by a computer level or "
            "an engine of the settings: a person plays that side."
        ).format(tag=f"{side}Type")
    seat = seat_from_file(level)
    if isinstance(seat, LevelSeat):
        return seat, None
    return PERSON, _(
        "The saved game's tag {tag} {value} is not a computer level from 1 to 8: a person "
        "plays that side."
    ).format(tag=f"{side}Level", value=quote(level, 40))


def run(
    start: StartRequest | None = None, *, mouse: bool = True, language: str | None = None
) -> int:
    """Run the app until it is quit, opening ``start`` first (None: the menu); its exit
    status (1 if it failed, else 0).  ``language`` (``--lang``) wins over the setting for
    this run."""
    app = ShashkiApp(start=start, language=language)
    app.run(mouse=mouse)
    app.flush_autosave()
    return app.return_code or 0


__all__ = ["ShashkiApp", "run"]
