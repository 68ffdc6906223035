"""The settings screen (,): every setting of settings.json that is not data, changed on
screen, saved at once and applied to the board on show."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Select, Switch

from shashki.app.board import BoardWidget
from shashki.app.settings_screen import SettingsScreen
from shashki.i18n import set_language
from shashki.session.seats import PERSON

from .conftest import game_screen, make_app, press, settle


async def test_settings_change_the_board_and_are_saved(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game("russian", kinds=(PERSON, PERSON))
        await settle(pilot)
        board = game_screen(app).query_one(BoardWidget)
        await press(pilot, "comma")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#piece_set", Select).value = "ascii"
        screen.query_one("#coords", Switch).value = not board.show_coords
        screen.query_one("#undo_policy", Select).value = "off"
        await settle(pilot)
        assert board.piece_set == "ascii" and not board.show_coords
        saved = json.loads((home / "settings.json").read_text(encoding="utf-8"))
        assert saved["piece_set"] == "ascii" and saved["coords"] is False
        assert saved["undo_policy"] == "off"
        await press(pilot, "escape")
        await settle(pilot)
        assert not isinstance(app.screen, SettingsScreen)
        await press(pilot, "comma")  # the key opens it again, and only once
        await press(pilot, "comma")
        await settle(pilot)
        assert sum(isinstance(s, SettingsScreen) for s in app.screen_stack) == 1


async def test_the_menu_opens_the_settings_and_the_palette_lists_them(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "comma")
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        await press(pilot, "escape")
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles.count("Settings") == 1


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    set_language("en")


async def test_the_review_depth_is_chosen_on_the_settings_screen(
    home: Path, english_after: None
) -> None:
    """The whole-game review's depth (quick, normal, deep) is a row of the screen, chosen
    with the keyboard, saved at once, and named in the language spoken."""
    from shashki.app.settings_screen import REVIEW_DEPTH_NAMES
    from shashki.engine.review import DEPTHS

    assert list(REVIEW_DEPTH_NAMES) == list(DEPTHS)  # every depth, in the order of cost
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "comma")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        select = screen.query_one("#review_depth", Select)
        assert select.value == "normal"
        select.focus()
        await press(pilot, "enter", "down", "enter")  # normal -> deep
        await settle(pilot)
        assert select.value == "deep" and app.settings.review_depth == "deep"
        saved = json.loads((home / "settings.json").read_text(encoding="utf-8"))
        assert saved["review_depth"] == "deep"
        app.apply_language("uk")
        await settle(pilot)
        label = str(screen.query_one("#label-review_depth").content)  # type: ignore[attr-defined]
        assert label != "Game review depth" and label.strip()
        assert select.value == "deep"
