"""Keys that once crashed the app, each kept as a regression test: lists that are empty or
refilled while keys arrive faster than the screen is redrawn, answers and commands that
arrive after their screen was left or covered, keys typed behind Escape or the quit, and
terminals a few columns wide.  (tests/app/test_storm.py sends random keys everywhere.)

"Fast keys" are sent with :func:`burst`: all queued at once, as key repeat or a paste
delivers them, rather than one at a time, each handled before the next (:func:`press`).
A priority binding typed behind other keys acts after them (``after_keys``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.command import CommandList, CommandPalette
from textual.containers import Vertical
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList

from shashki.app.replay import GameTableScreen, ReplayScreen
from shashki.app.widgets import PagedOptionList
from shashki.session.seats import PERSON, LevelSeat

from .conftest import WAIT, burst, click_widget, make_app, press, screen_made, settle, wait_for

SIZE = (120, 40)

#: Three games; no player is called "zzz".
THREE_GAMES = "".join(
    f'[Event "Club"]\n[White "{w}"]\n[Black "{b}"]\n[Result "*"]\n[GameType "25"]\n\n'
    "1. c3-d4 f6-e5 *\n\n"
    for w, b in (("Anna", "Boris"), ("Boris", "Clara"), ("Clara", "Anna"))
)


# -- the command palette ----------------------------------------------------------------------


async def test_palette_page_keys_while_the_list_refills(home: Path) -> None:
    """Ctrl+P, a letter and PageDown at once: the list has its commands but has not been laid
    out yet (KeyError in OptionList's page movement)."""
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        for keys in (
            ("ctrl+p", "t", "pagedown"),
            ("ctrl+p", "u", "pageup", "pagedown", "down", "pagedown"),
            ("ctrl+p", "f", "l", "pagedown", "backspace", "pagedown", "pageup"),
        ):
            burst(pilot, *keys)
            await settle(pilot)
            assert isinstance(app.screen, CommandPalette)
            await press(pilot, "escape")
        assert app.return_code is None  # still running


class _HiddenList(App[None]):
    CSS = "#box { display: none; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield PagedOptionList(*[f"option {i}" for i in range(30)], id="options")


async def test_option_list_pages_without_a_size() -> None:
    """An option list with options and no size (never laid out) pages by one option."""
    app = _HiddenList()
    async with app.run_test(size=(40, 10)) as pilot:
        options = app.query_one(PagedOptionList)
        assert not options.scrollable_content_region
        options.highlighted = 3
        options.action_page_down()
        assert options.highlighted == 4
        options.action_page_up()
        options.action_page_up()
        assert options.highlighted == 2
        await settle(pilot)


async def test_the_palette_list_is_one_that_pages_safely(home: Path) -> None:
    """The app opens its own palette (whose page keys are safe), from Ctrl+P and from the
    header's icon alike."""
    from shashki.app.widgets import ShashkiCommandPalette

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "ctrl+p")
        assert isinstance(app.screen, ShashkiCommandPalette)
        assert app.screen.query_one(CommandList) is not None
        await press(pilot, "escape")
        app.action_command_palette()
        await settle(pilot)
        assert isinstance(app.screen, ShashkiCommandPalette)


@pytest.mark.parametrize("size", [(1, 1), (10, 5), (80, 24)])
async def test_the_palette_s_own_page_actions_are_safe(home: Path, size: tuple[int, int]) -> None:
    """Textual's palette binds PageDown/PageUp to its list's own page movement as well as
    the app's safe one; on a loaded machine its own ran, before the list had room, and
    failed (KeyError: 1 in OptionList's page movement, the tiny-terminal test). Both page
    safely."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "ctrl+p", "e")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, CommandPalette)
                and app.screen.query_one(CommandList).option_count > 2
            ),
            what="the palette's commands",
        )
        palette = app.screen
        commands = palette.query_one(CommandList)
        commands.highlighted = 1
        await pilot.resize_terminal(*size)
        await settle(pilot)
        # the actions of Textual's own bindings, as its PageDown and PageUp run them
        await palette.run_action("command_list('page_down')")
        await palette.run_action("command_list('page_up')")
        await palette.run_action("command_list('cursor_down')")  # the others as they are
        assert commands.highlighted is not None
        await settle(pilot)
        assert app.return_code is None


# -- the game table -----------------------------------------------------------------------------


async def _table_with_no_match(pilot: Pilot[None]) -> GameTableScreen:
    """The game table, all read, filtered by a name no game has, the table focused."""
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, GameTableScreen)
    await wait_for(pilot, lambda: screen.done, "the file read")
    await press(pilot, "slash", "z", "z", "z", "enter")
    grid = screen.query_one(DataTable)
    assert grid.row_count == 0 and screen.focused is grid
    return screen


async def test_game_table_keys_on_no_rows(home: Path, tmp_path: Path) -> None:
    """A search that matches nothing, then ↓, PageDown, Tab round to the table and
    PageDown again: the empty table once announced row -1 with no key (AttributeError)."""
    path = tmp_path / "three.pdn"
    path.write_text(THREE_GAMES, encoding="utf-8")
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _table_with_no_match(pilot)
        grid = screen.query_one(DataTable)
        await press(pilot, "down", "pagedown", "pageup", "end", "home", "up", "enter")
        await press(pilot, "tab", "tab", "tab", "pagedown", "down")
        burst(pilot, "pagedown", "down", "end", "enter", "pageup", "up")
        await settle(pilot)
        assert app.screen is screen and grid.cursor_row == 0
        # the search cleared: every game is back, and Enter opens the first
        await press(pilot, "slash", "backspace", "backspace", "backspace", "enter")
        assert grid.row_count == 3 and grid.cursor_row == 0
        await press(pilot, "enter")
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.source == "three.pdn #1"


async def test_option_lists_of_the_app_page_safely(home: Path) -> None:
    """Every option list the app shows is one whose page keys are safe."""
    from shashki.app.game_screen import GameScreen
    from shashki.app.menu import MenuScreen

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        assert all(isinstance(o, PagedOptionList) for o in app.screen.query(OptionList))
        await press(pilot, "enter")  # the new-game dialog, its focus on the first field
        await click_widget(pilot, "#play")  # a game of the first variant
        assert isinstance(app.screen, GameScreen)
        assert all(isinstance(o, PagedOptionList) for o in app.screen.query(OptionList))


# -- answers that arrive after another screen was opened above --------------------------------
#
# A button's press (a click) is a message handled after the click: Ctrl+P typed right
# behind it opens the palette first. Textual's dismiss() pops whatever screen is on top, so
# the late answer closed the palette (its search then failed on its removed list) and left
# the dialog, answered, on the screen. An answer now counts only while its dialog is on top.


async def test_a_late_answer_never_closes_the_screen_above(home: Path) -> None:
    from textual.widgets import Button

    from shashki.app.dialogs import ConfirmScreen

    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        game = app.screen
        await press(pilot, "R")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        await press(pilot, "ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        dialog.query_one("#yes", Button).press()  # the click, handled only now
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette), app.screen_stack
        assert app.screen_stack[-2] is dialog
        assert game.controller.session.outcome is None  # type: ignore[attr-defined]
        await press(pilot, "escape")  # the dialog is still there to be answered
        assert app.screen is dialog
        await press(pilot, "y")
        assert game.controller.session.outcome is not None  # type: ignore[attr-defined]


async def test_a_late_play_starts_no_game_under_the_palette(home: Path) -> None:
    from textual.widgets import Button

    from shashki.app.menu import NewGameScreen

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        await press(pilot, "ctrl+p")
        dialog.query_one("#play", Button).press()
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette), app.screen_stack
        assert app.screen_stack[-2] is dialog and app.controller is None
        await press(pilot, "escape")
        assert app.screen is dialog


async def test_the_computers_move_arriving_after_the_game_was_left(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer's move is on its way to the session (its search has ended without
    being cancelled) when N leaves the game: the move was played in the game left behind
    (had it ended the game, its game-over dialog would have opened over the menu). A move
    from a search given up is now dropped on arrival."""
    import threading

    from shashki.app.game_screen import GameScreen
    from shashki.app.menu import MenuScreen
    from shashki.session import AsyncioExecutor

    on_its_way = threading.Event()
    go_on = threading.Event()
    arrived = threading.Event()
    real_post = AsyncioExecutor.post

    def held_post(self, action):  # type: ignore[no-untyped-def]
        if threading.current_thread() is not threading.main_thread():
            on_its_way.set()
            go_on.wait(WAIT)  # the answer waits here while the game is left

            def then() -> None:
                try:
                    action()
                finally:
                    arrived.set()  # (handled by the session, or dropped by it)

            return real_post(self, then)
        return real_post(self, action)

    monkeypatch.setattr(AsyncioExecutor, "post", held_post)
    monkeypatch.setattr(GameScreen, "MIN_MOVE_DELAY", 0.0)
    app = make_app(home, variant="russian", kinds=(LevelSeat(1), PERSON))
    try:
        async with app.run_test(size=SIZE) as pilot:
            game = app.screen
            assert isinstance(game, GameScreen)
            await wait_for(pilot, on_its_way.is_set, "the move on its way", step=0.02)
            await press(pilot, "n")  # no move played yet: straight to the menu
            assert isinstance(app.screen, MenuScreen)
            go_on.set()
            await wait_for(pilot, arrived.is_set, "the move arrived", step=0.02)
            await settle(pilot)
            assert not game.controller.game.move_stack  # the late move was not played
            assert isinstance(app.screen, MenuScreen)
    finally:
        go_on.set()


# -- keys typed behind Escape or the quit ------------------------------------------------------


async def test_letters_typed_into_the_palette_as_it_closes(home: Path) -> None:
    """Escape, Ctrl+P and letters at once: Escape is resolved against the palette (then on
    top) and closes it, and the letters reach its box afterwards: Textual started a search
    in the closed palette, which failed on its removed list (NoMatches)."""
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        for keys in (
            ("escape", "ctrl+p", "full_stop", "K"),
            ("escape", "ctrl+p", "u", "n", "d", "o"),
            ("ctrl+p", "escape", "a", "b"),
        ):
            burst(pilot, *keys)
            await settle(pilot)
            if isinstance(app.screen, CommandPalette):
                await press(pilot, "escape")
        assert app.return_code is None


async def test_keys_typed_behind_quit_do_nothing(home: Path) -> None:
    """Ctrl+Q and Ctrl+P (or O, Enter) right behind it: the palette (the file chooser)
    opened while the app was being taken down, and failed there - a traceback on the way
    out. Once the app is quitting, keys are not acted on."""
    for keys in (
        ("ctrl+q", "ctrl+p"),
        ("ctrl+q", "ctrl+end", "c", "ctrl+p", "pageup"),
        ("ctrl+q", "o", "enter"),
    ):
        app = make_app(home)
        async with app.run_test(size=SIZE) as pilot:
            burst(pilot, *keys)
            # the app ends once it has handled the keys in front of the end
            await wait_for(pilot, lambda: not pilot.app.is_running, "the app's end")
            assert len(app.screen_stack) <= 2, app.screen_stack  # nothing opened
        assert app.return_code == 0, keys


@pytest.mark.parametrize("turns", range(6))
async def test_keys_still_queued_when_the_app_is_taken_down(home: Path, turns: int) -> None:
    """Keys queued when the app is taken down without a quit (a test's ``run_test``
    ending right after a burst, on a loaded machine: issue 23): they reached the app after
    its screens were gone, and failed on the empty screen stack (ScreenStackError). They
    are dropped."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        burst(pilot, *["down", "x"] * 20)
        for _ in range(turns):
            await asyncio.sleep(0)
    assert app.return_code is None


def test_an_app_that_failed_exits_with_status_1(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should anything still go wrong in the app, ``shashki play`` says so in its exit status
    (it printed the traceback and exited with 0)."""
    from shashki.app.app import ShashkiApp
    from shashki.cli import main

    def failed_run(self: ShashkiApp, **kwargs: object) -> None:
        pass  # (it ran, and failed: its return code says so)

    monkeypatch.setattr(ShashkiApp, "run", failed_run)
    # the return code Textual gives an app that ended on an exception
    monkeypatch.setattr(ShashkiApp, "return_code", property(lambda self: 1))
    # pytest: no terminal
    monkeypatch.setattr("shashki.commands.common.in_a_terminal", lambda: True)
    assert main(["play", "russian"]) == 1


async def test_a_palette_command_for_a_game_left_meanwhile(home: Path) -> None:
    """A game command chosen in the palette (turning the board) runs a moment after the palette has
    closed; should the game be left in that moment (a key right behind Enter), the command
    ran on the game screen already taken down (NoMatches). It now runs only on a screen
    still shown."""
    from shashki.app.game_screen import GameScreen
    from shashki.app.menu import MenuScreen

    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        game = app.screen
        assert isinstance(game, GameScreen)
        commands = {c.title: c.callback for c in app.get_system_commands(game)}
        app.open_menu()  # the game is left...
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        app.call_later(commands["Turn after every move"])  # ...before the command runs
        await settle(pilot)
        assert not game.autoflip  # dropped with its game
        assert app.return_code is None
        # on a game still shown, the command works
        app.start_game("russian")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        commands = {c.title: c.callback for c in app.get_system_commands(game)}
        app.call_later(commands["Turn after every move"])
        await settle(pilot)
        assert game.autoflip


# -- a priority binding behind the keys typed before it -------------------------------------


async def test_arrows_then_enter_typed_fast_open_the_variant_they_reached(home: Path) -> None:
    """Enter (the menu's priority binding) after four arrows sent at once: the new game is
    of the variant the arrows moved to, not of the one highlighted when Enter was read
    (as tmux's ``send-keys Down Down Down Down Enter`` opened the first variant)."""
    from shashki.app.menu import MenuScreen, NewGameScreen

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, MenuScreen, "the menu")
        menu = app.screen
        ol = menu.query_one("#variants", OptionList)
        enabled = [o.id for o in ol.options if not o.disabled]
        assert ol.highlighted is not None and ol.options[ol.highlighted].id == enabled[0]
        burst(pilot, "down", "down", "down", "down", "enter")
        await screen_made(pilot, NewGameScreen, "the new-game dialog")
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        assert dialog.variant.id == enabled[4]


async def test_a_name_then_f5_typed_fast_plays_under_the_name_typed(home: Path) -> None:
    """F5 (the new-game dialog's priority binding) right behind a name typed into the
    first box and mended with Backspace (a binding of the box, acted on once the key has
    reached the app): the game is played under the name as mended."""
    from textual.widgets import Input

    from shashki.app.game_screen import GameScreen
    from shashki.app.menu import NewGameScreen

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        await screen_made(pilot, NewGameScreen, "the new-game dialog")
        dialog = app.screen
        box = dialog.query_one("#name0", Input)
        await wait_for(pilot, lambda: dialog.focused is box, "the first name's box")
        box.value = ""
        await settle(pilot)
        burst(pilot, *"Zoë Quickk", "backspace", "f5")
        await screen_made(pilot, GameScreen, "the game")
        assert app.controller is not None
        assert app.controller.session.players[0].name == "Zoë Quick"
