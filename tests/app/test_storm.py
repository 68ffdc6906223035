"""Key storms: on every screen of the app, random keys from a fixed seed (letters, digits,
arrows, Tab, Enter, Escape, the app's bindings, Ctrl+P...), some one at a time and some in
bursts faster than the screen is redrawn, with the terminal resized in between. No key may
end in an exception (``run_test`` re-raises the app's) or an error exit.

A key that leaves the screen brings the storm back to it (the screens above are closed as
the app closes them); one that quits the app starts it again. The default run sends
``STORM_KEYS`` keys per screen; ``pytest -m slow`` runs a longer storm, and the environment
variable ``SHASHKI_STORM_KEYS`` sets any length (``SHASHKI_STORM_SEED`` another seed).

The keys never reach outside the test's home: the home is also ``$HOME`` and the working
folder, writing or making a folder anywhere else is refused (as a read-only disk would),
the file chooser lists only the home and the folders that lead to it, and no FIFO, device,
``/proc`` or ``/sys`` file is ever opened.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
import random
import stat
import string
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen

from shashki.app.app import ShashkiApp
from shashki.app.dialogs import ConfirmScreen, GameOverScreen, HelpScreen, TextPrompt
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.app.replay import FileChooserScreen, FolderTree, GameTableScreen, ReplayScreen
from shashki.app.unfinished import UnfinishedScreen
from shashki.records import read_file
from shashki.rules import all_variants, find_variant
from shashki.session.seats import PERSON, LevelSeat, Seat

from .conftest import TWO_ROUTES, burst, make_app, press, settle, wait_for
from .test_replay import BROKEN_FILE, OWN_GAME, PROBLEM

#: Keys per screen in the default run (the storms and the tiny terminal then take about a
#: minute together).
STORM_KEYS = 45
#: Keys per screen in the slow run (``pytest -m slow``).
SLOW_STORM_KEYS = 3000
SEED = int(os.environ.get("SHASHKI_STORM_SEED", "11"))

#: Keys with a name (the printable ones are added below); the app's own bindings are
#: letters, digits and these.
NAMED_KEYS = [
    "up",
    "down",
    "left",
    "right",
    "tab",
    "shift+tab",
    "enter",
    "escape",
    "space",
    "backspace",
    "delete",
    "pageup",
    "pagedown",
    "home",
    "end",
    "ctrl+p",
    "colon",
    "slash",
    "question_mark",
    "plus",
    "minus",
    "equals_sign",
    "full_stop",
    "comma",
    "ctrl+z",
    "ctrl+y",
    "ctrl+s",
    "ctrl+f",
    "ctrl+u",
    "ctrl+w",
    "ctrl+home",
    "ctrl+end",
    "shift+home",
    "shift+end",
    "f1",
    "ctrl+c",
    "ctrl+q",
]
#: Keys that quit the app from most screens: rarer, so that each app lives a while.
RARE_KEYS = {"ctrl+q", "ctrl+c", "escape", "q"}
PRINTABLE = list(string.ascii_letters + string.digits)


def random_key(rng: random.Random) -> str:
    while True:
        key = rng.choice(NAMED_KEYS) if rng.random() < 0.6 else rng.choice(PRINTABLE)
        if key not in RARE_KEYS or rng.random() < 0.35:
            return key


def random_size(rng: random.Random) -> tuple[int, int]:
    return rng.randint(20, 200), rng.randint(10, 60)


# -- keeping the storm inside the home ---------------------------------------------------------


@dataclass
class Confinement:
    """What the storm's keys tried outside the home (refused), for the failure message."""

    home: Path
    roots: tuple[Path, ...]
    refused: list[str] = field(default_factory=list)

    def inside(self, path: Any) -> bool:
        try:
            real = Path(os.fsdecode(path)).resolve()
        except (TypeError, ValueError, OSError):
            return False
        return any(real == root or root in real.parents for root in self.roots)

    def check_write(self, what: str, path: Any) -> None:
        if not self.inside(path):
            self.refused.append(f"{what} {path}")
            raise PermissionError(errno.EACCES, "refused by the key-storm test", str(path))

    def check_read(self, path: Any) -> None:
        """Never a FIFO, a device or a kernel file (they block or never end)."""
        if isinstance(path, int):
            return
        text = os.fsdecode(path)
        real = Path(text).resolve()
        if real.parts[1:2] in (("proc",), ("sys",), ("dev",)):
            raise AssertionError(f"the storm opened {text}")
        try:
            mode = os.stat(text).st_mode
        except OSError:
            return
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise AssertionError(f"the storm opened the special file {text}")


@pytest.fixture
def confined(home: Path, monkeypatch: pytest.MonkeyPatch) -> Confinement:
    """The home is ``$HOME`` and the working folder; writes elsewhere are refused."""
    home = home.resolve()
    monkeypatch.setenv("HOME", str(home))  # Textual's screenshots go to ~/Downloads
    monkeypatch.chdir(home)
    roots = [home]
    if os.environ.get("XDG_CACHE_HOME"):  # the engine's ending tables (tests/conftest.py)
        roots.append(Path(os.environ["XDG_CACHE_HOME"]).resolve())
    guard = Confinement(home, tuple(roots))

    real_open = builtins.open
    real_os_open = os.open
    real_mkdir = os.mkdir
    real_replace = os.replace
    real_rename = os.rename

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if not isinstance(file, int):
            if any(c in mode for c in "wax+"):
                guard.check_write("open", file)
            else:
                guard.check_read(file)
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC):
            guard.check_write("open", path)
        else:
            guard.check_read(path)
        return real_os_open(path, flags, *args, **kwargs)

    def guarded_mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
        guard.check_write("mkdir", path)
        real_mkdir(path, *args, **kwargs)

    def guarded_replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        guard.check_write("replace", dst)
        real_replace(src, dst, *args, **kwargs)

    def guarded_rename(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        guard.check_write("rename", dst)
        real_rename(src, dst, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded_open)
    monkeypatch.setattr(io, "open", guarded_open)
    monkeypatch.setattr(os, "open", guarded_os_open)
    monkeypatch.setattr(os, "mkdir", guarded_mkdir)
    monkeypatch.setattr(os, "replace", guarded_replace)
    monkeypatch.setattr(os, "rename", guarded_rename)

    # the file chooser shows the home and the folders on the way to it, nothing else
    def home_paths(self: FolderTree, paths: Iterable[Path]) -> Iterable[Path]:
        kept = []
        for path in paths:
            real = path.resolve()
            if real == home or home in real.parents or real in home.parents:
                kept.append(path)
        return kept

    monkeypatch.setattr(FolderTree, "filter_paths", home_paths)
    return guard


# -- the places the storm visits ------------------------------------------------------------


def write_files(home: Path) -> dict[str, Path]:
    """A file of many games (a table to page through) and the replay test's own game."""
    folder = home / "data" / "shashki" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    many = folder / "many.pdn"
    extra = "".join(
        f'[Event "Storm {i}"]\n[White "Player {i}"]\n[Black "Rival {i % 7}"]\n'
        f'[Result "*"]\n[GameType "25"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n\n'
        for i in range(80)
    )
    many.write_text(OWN_GAME + "\n" + BROKEN_FILE + "\n" + PROBLEM + "\n" + extra, "utf-8")
    own = folder / "own.pdn"
    own.write_text(OWN_GAME, encoding="utf-8")
    return {"many": many, "own": own}


Enter = Callable[[Pilot[None], "Storm"], Awaitable[None]]


@dataclass
class Place:
    """A screen of the app, how to go there from the menu, and how to know it is on top
    (``options``: how the app is made, e.g. with autosave on)."""

    name: str
    enter: Enter
    here: Callable[[ShashkiApp], bool]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Storm:
    home: Path
    files: dict[str, Path]
    rng: random.Random
    variants: list[str]
    visits: int = 0


async def _game(pilot: Pilot[None], storm: Storm, kinds: tuple[Seat, Seat]) -> None:
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    # every visit another variant: their boards, generators and panels differ
    variant = storm.variants[storm.visits % len(storm.variants)]
    app.start_game(variant, kinds=kinds)
    await settle(pilot)


async def enter_game(pilot: Pilot[None], storm: Storm) -> None:
    await _game(pilot, storm, (PERSON, PERSON))


async def enter_computer_game(pilot: Pilot[None], storm: Storm) -> None:
    await _game(pilot, storm, (PERSON, LevelSeat(1)))


async def enter_route_choice(pilot: Pilot[None], storm: Storm) -> None:
    """Black's c5 has two capture routes to g1: both picked, the choice is on show."""
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    ctl = app.start_game("russian", fen=TWO_ROUTES)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, GameScreen)
    board = ctl.variant.board
    for name in ("c5", "g1"):
        screen.after(ctl.click(board.parse_square(name)))
    assert ctl.selection.routes


def on_route_choice(app: ShashkiApp) -> bool:
    screen = app.screen
    return isinstance(screen, GameScreen) and bool(screen.controller.selection.routes)


async def enter_new_game(pilot: Pilot[None], storm: Storm) -> None:
    variant = storm.variants[storm.visits % len(storm.variants)]
    pilot.app.push_screen(NewGameScreen(find_variant(variant)))
    await settle(pilot)


async def enter_table(pilot: Pilot[None], storm: Storm) -> None:
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    app.open_game_file(storm.files["many"])
    await settle(pilot)


async def enter_replay(pilot: Pilot[None], storm: Storm) -> None:
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    record = next(iter(read_file(storm.files["own"])))
    app.open_record(record, source="own.pdn #1")
    await settle(pilot)


async def enter_help(pilot: Pilot[None], storm: Storm) -> None:
    variant = storm.variants[storm.visits % len(storm.variants)]
    pilot.app.push_screen(HelpScreen(find_variant(variant), replay=storm.visits % 2 == 1))
    await settle(pilot)


async def enter_confirm(pilot: Pilot[None], storm: Storm) -> None:
    await enter_game(pilot, storm)
    pilot.app.push_screen(ConfirmScreen("Leave this game for a new one? (it stays autosaved)"))
    await settle(pilot)


async def enter_game_over(pilot: Pilot[None], storm: Storm) -> None:
    await enter_game(pilot, storm)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    screen.controller.session.resign(screen.controller.game.turn)
    screen.refresh_panel()
    screen.show_game_over()
    await settle(pilot)


async def enter_save_prompt(pilot: Pilot[None], storm: Storm) -> None:
    await enter_game(pilot, storm)
    await press(pilot, "s")


async def enter_save_over(pilot: Pilot[None], storm: Storm) -> None:
    """A game saved under the name of a file that exists: the app asks first."""
    from shashki.store import games_dir

    await enter_game(pilot, storm)
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    taken = games_dir() / "taken.pdn"
    taken.parent.mkdir(parents=True, exist_ok=True)
    taken.write_text(OWN_GAME, encoding="utf-8")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    app.save_game_to(screen.controller, taken)
    await settle(pilot)


async def enter_unfinished(pilot: Pilot[None], storm: Storm) -> None:
    """The list of unfinished games, with two of them (made again when the keys have
    resumed or deleted them)."""
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    for variant in storm.variants[storm.visits % len(storm.variants) :][:2]:
        ctl = app.start_game(variant)
        await settle(pilot)
        move = next(iter(ctl.legal), None)
        if move is not None:
            app.screen.after(ctl.play(move))  # type: ignore[attr-defined]
        await back_to_menu(pilot)
    app.flush_autosave()
    app.show_unfinished()
    await settle(pilot)


async def enter_open_file(pilot: Pilot[None], storm: Storm) -> None:
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    app.open_game_dialog()
    await settle(pilot)


def on(kind: type[Screen[Any]]) -> Callable[[ShashkiApp], bool]:
    return lambda app: type(app.screen) is kind


PLACES = [
    Place("menu", lambda pilot, storm: settle(pilot), on(MenuScreen)),
    Place("new-game dialog", enter_new_game, on(NewGameScreen)),
    Place("game, person v person", enter_game, on(GameScreen)),
    Place("game v the computer (level 1)", enter_computer_game, on(GameScreen)),
    Place("capture route choice", enter_route_choice, on_route_choice),
    Place("game table", enter_table, on(GameTableScreen)),
    Place("replay", enter_replay, on(ReplayScreen)),
    Place("help", enter_help, on(HelpScreen)),
    Place("confirm dialog", enter_confirm, on(ConfirmScreen)),
    Place("game-over dialog", enter_game_over, on(GameOverScreen)),
    Place("save prompt", enter_save_prompt, on(TextPrompt)),
    Place("save-over confirmation", enter_save_over, on(ConfirmScreen)),
    Place("unfinished games", enter_unfinished, on(UnfinishedScreen), {"autosave": True}),
    Place("open-file dialog", enter_open_file, on(FileChooserScreen)),
]


async def back_to_menu(pilot: Pilot[None]) -> None:
    """Close every screen above the first menu, as the app itself leaves them (the
    command palette as a user closes it, with Escape: that also stops its search)."""
    app: ShashkiApp = pilot.app  # type: ignore[assignment]
    while len(app.screen_stack) > 2 or not isinstance(app.screen, MenuScreen):
        if len(app.screen_stack) <= 1:
            await app.push_screen(MenuScreen())
            continue
        screen = app.screen
        if isinstance(screen, CommandPalette):
            await press(pilot, "escape")
            continue
        if isinstance(screen, GameScreen):
            screen.cancel_thinking()
        if isinstance(screen, GameTableScreen):
            screen.workers.cancel_group(screen, "read")
        await app.pop_screen()


def running(app: ShashkiApp) -> bool:
    return app.return_code is None


async def storm_place(home: Path, place: Place, keys: int, seed: int) -> dict[str, int]:
    """Send ``keys`` random keys to ``place`` (coming back to it whenever a key leaves it);
    the counts of what happened. A failure carries the last steps in a note."""
    rng = random.Random(f"{seed}:{place.name}")
    storm = Storm(home, write_files(home), rng, sorted(v.id for v in all_variants()))
    rng.shuffle(storm.variants)
    counts = {"keys": 0, "starts": 0, "returns": 0, "resizes": 0}
    recent: deque[str] = deque(maxlen=40)
    try:
        while counts["keys"] < keys:
            app = make_app(home, **place.options)
            counts["starts"] += 1
            size = random_size(rng)
            recent.append(f"start at {size}")
            async with app.run_test(size=size) as pilot:
                await place.enter(pilot, storm)
                away = 0  # entries in a row that did not reach the place (keys still queued)
                while counts["keys"] < keys and running(app):
                    if not place.here(app):
                        away += 1
                        assert away <= 5, f"cannot reach the {place.name}: {app.screen_stack}"
                        counts["returns"] += 1
                        storm.visits += 1
                        recent.append(f"back from {app.screen_stack[1:]}")
                        await back_to_menu(pilot)
                        await place.enter(pilot, storm)
                        continue
                    away = 0
                    roll = rng.random()
                    if roll < 0.04:
                        counts["resizes"] += 1
                        size = random_size(rng)
                        recent.append(f"resize to {size}")
                        await pilot.resize_terminal(*size)
                    elif roll < 0.7:
                        keys_now = [random_key(rng) for _ in range(rng.randint(2, 12))]
                        recent.append(f"burst {keys_now}")
                        burst(pilot, *keys_now)
                        counts["keys"] += len(keys_now)
                        await settle(pilot)
                    else:
                        key = random_key(rng)
                        recent.append(f"press {key!r}")
                        counts["keys"] += 1
                        await press(pilot, key)
            assert app.return_code in (None, 0), f"the app ended with {app.return_code}"
    except BaseException as exc:
        exc.add_note(f"The storm on the {place.name} (seed {seed}), its last steps:")
        for step in recent:
            exc.add_note(f"  {step}")
        raise
    return counts


@pytest.mark.parametrize("place", PLACES, ids=[p.name for p in PLACES])
async def test_key_storm(confined: Confinement, place: Place) -> None:
    keys = int(os.environ.get("SHASHKI_STORM_KEYS", STORM_KEYS))
    await storm_place(confined.home, place, keys, SEED)


@pytest.mark.slow
@pytest.mark.parametrize("place", PLACES, ids=[p.name for p in PLACES])
async def test_long_key_storm(confined: Confinement, place: Place) -> None:
    await storm_place(confined.home, place, SLOW_STORM_KEYS, SEED + 1)


# -- the tiny terminal ------------------------------------------------------------------------

#: Sizes down to one cell, wide and flat, narrow and tall.
TINY_SIZES = [(10, 5), (1, 1), (200, 1), (1, 40)]
#: Keys pressed at each size: moving, choosing, paging, typing, the palette.
TINY_KEYS = ["down", "right", "enter", "tab", "pagedown", "end", "x", "space", "ctrl+p", "p"]


@pytest.mark.parametrize("place", PLACES, ids=[p.name for p in PLACES])
async def test_tiny_terminal(confined: Confinement, place: Place) -> None:
    """Every screen shrunk to 10×5 and 1×1 (and other sizes), keys pressed at each size:
    no crash; the game board says the terminal is too small rather than drawing."""
    home = confined.home
    storm = Storm(home, write_files(home), random.Random(SEED), ["russian", "international"])
    app = make_app(home, **place.options)
    async with app.run_test(size=(80, 24)) as pilot:
        await place.enter(pilot, storm)
        for size in TINY_SIZES:
            if not running(app):
                break
            if not place.here(app):
                await back_to_menu(pilot)
                await place.enter(pilot, storm)
            await pilot.resize_terminal(*size)
            if isinstance(app.screen, GameScreen) and size[0] * size[1] < 200:
                board = app.screen.board  # (laid out again a refresh after the resize)
                await wait_for(
                    pilot, lambda b=board: b.board_layout() is None, f"no board at {size}"
                )
            burst(pilot, *TINY_KEYS)
            await settle(pilot)
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("size", [(1, 1), (10, 5)])
async def test_the_app_starts_in_a_tiny_terminal(
    confined: Confinement, size: tuple[int, int]
) -> None:
    """Started at 1×1 or 10×5: the menu, a game and its keys work without a crash."""
    app = make_app(confined.home)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "down", "pagedown", "enter", "tab", "enter")
        await settle(pilot)
        app.start_game("russian")
        await settle(pilot)
        await press(pilot, *TINY_KEYS)
        game = app.screen_stack[2]  # (the keys may have opened the palette or a dialog)
        assert isinstance(game, GameScreen) and game.board.board_layout() is None
    assert app.return_code in (None, 0)
