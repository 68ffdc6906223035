"""The settings screen (,): every setting of settings.json that is not data, changed on
screen, saved at once and applied to the board on show."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Select, Switch

from shashki.app.board import BoardWidget
from shashki.app.settings_screen import SettingsScreen
from shashki.session.seats import PERSON

from .conftest import game_screen, make_app


async def test_settings_change_the_board_and_are_saved(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game("russian", kinds=(PERSON, PERSON))
        await pilot.pause()
        board = game_screen(app).query_one(BoardWidget)
        await pilot.press("comma")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#piece_set", Select).value = "ascii"
        screen.query_one("#coords", Switch).value = not board.show_coords
        screen.query_one("#undo_policy", Select).value = "off"
        await pilot.pause()
        assert board.piece_set == "ascii" and not board.show_coords
        saved = json.loads((home / "settings.json").read_text(encoding="utf-8"))
        assert saved["piece_set"] == "ascii" and saved["coords"] is False
        assert saved["undo_policy"] == "off"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
        await pilot.press("comma")  # the key opens it again, and only once
        await pilot.press("comma")
        await pilot.pause()
        assert sum(isinstance(s, SettingsScreen) for s in app.screen_stack) == 1


async def test_the_menu_opens_the_settings_and_the_palette_lists_them(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("comma")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("escape")
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles.count("Settings") == 1
