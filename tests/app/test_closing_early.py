"""Screens closed, and the app quit, at every moment of a screen being put together.

On a slow or loaded machine a screen can be closed (the app replacing the screens above
the menu, a test's own ``pop_screen``) or the app quit (Ctrl+Q typed right behind the
key that opened a screen) before the screen has composed and mounted its widgets.
Textual then mounts no children into it but still runs its mount handlers, and the
handlers that look their children up failed with ``NoMatches``: the screens' own, and
Textual's ``Select``, ``Header`` and command palette (issue 23). Each case here closes a
screen after 0, 1, 2... turns of the event loop, which covers every stage of its
making on any machine (turns, not seconds).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widget import Widget

from shashki.app.app import ShashkiApp
from shashki.app.dialogs import ConfirmScreen, HelpScreen
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.app.settings_screen import SettingsScreen
from shashki.rules import find_variant

from .conftest import make_app, settle, wait_for

#: Turns of the event loop between opening a screen and closing it: every stage of its
#: making, from not started to whole (a screen is whole within a few turns).
TURNS = range(10)

Opener = Callable[[ShashkiApp], object]

OPENERS: dict[str, Opener] = {
    "settings (Selects)": lambda app: app.push_screen(SettingsScreen()),
    "new-game dialog": lambda app: app.push_screen(NewGameScreen(find_variant("russian"))),
    "help": lambda app: app.push_screen(HelpScreen(find_variant("russian"))),
    "confirmation": lambda app: app.push_screen(ConfirmScreen("Leave?")),
    "command palette": lambda app: app.action_command_palette(),
    "game (header)": lambda app: app.start_game("russian"),
    "menu (header)": lambda app: app.push_screen(MenuScreen()),
    "open-file dialog": lambda app: app.open_game_dialog(),
}


async def turns(n: int) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


@pytest.mark.parametrize("opener", OPENERS.values(), ids=OPENERS.keys())
async def test_a_screen_closed_while_it_is_put_together(home: Path, opener: Opener) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), what="the menu")
        for n in TURNS:
            opener(app)
            await turns(n)
            await app.pop_screen()
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 2,
                what=f"the menu again (closed after {n} turns)",
            )
            assert app.return_code is None, f"closed after {n} turns"
            # what was closed is gone, the menu works on: every widget left is mounted (a
            # widget the menu is still mounting, on a loaded machine, is waited for)
            await wait_for(
                pilot,
                lambda: all(
                    node.is_mounted
                    for screen in app.screen_stack
                    for node in screen.walk_children(Widget, with_self=True)
                ),
                what=f"every widget left mounted (closed after {n} turns)",
            )
            assert app.return_code is None
    assert app.return_code is None


#: The screens quit during (one of each kind: Selects, Textual's palette and header, a
#: screen of ours looking up its widgets).
QUIT_DURING = ["settings (Selects)", "command palette", "game (header)", "confirmation"]


@pytest.mark.parametrize("name", QUIT_DURING)
@pytest.mark.parametrize("n", range(6))
async def test_the_app_quit_while_a_screen_is_put_together(home: Path, name: str, n: int) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), what="the menu")
        OPENERS[name](app)
        await turns(n)
        app.exit()
        await wait_for(pilot, lambda: app.return_code is not None, what="the app's end")
    assert app.return_code == 0


async def test_a_palette_command_run_as_the_app_ends_is_dropped(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game command chosen in the palette runs a moment after the palette closes; when the
    app was being taken down meanwhile (no longer running, the game screen still on the
    stack but its widgets gone: seen on a loaded machine) it failed with NoMatches for the
    analysis panel. It is dropped then. (The moment of the teardown is made here as Textual
    makes it: the app stops running, then the screen's widgets are removed: here the
    analysis panel, the one the command looks up.)"""
    from shashki.app.analysis import AnalysisPanel
    from shashki.app.game_screen import GameScreen
    from shashki.app.palette import _on_screen

    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game("russian")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
        await settle(pilot)
        screen = app.screen
        command = _on_screen(screen, "analysis")
        with monkeypatch.context() as patch:
            patch.setattr(ShashkiApp, "is_running", property(lambda self: False))
            await screen.query_one(AnalysisPanel).remove()
            await command()  # dropped: no NoMatches
        assert app.return_code is None
        app.exit()
    assert app.return_code == 0
