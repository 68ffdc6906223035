"""The terminal's bell when the other side has moved (the computer here; the friend online
rings the same way, through the same event): on by default, off in the settings and in
settings.json, never for a person's own move at one board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Switch

from shashki.app.settings_screen import SettingsScreen
from shashki.rules import Color
from shashki.session.seats import PERSON, LevelSeat
from shashki.store.settings import Settings

from .conftest import game_screen, keys_play, make_app, press, settle, wait_for

SIZE = (100, 32)


def count_bells(app: object, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bells rung, counted instead of written (a test's app is headless anyway)."""
    rung: list[int] = []
    monkeypatch.setattr(app, "bell", lambda: rung.append(1))
    return rung


async def test_the_computer_s_move_rings_and_the_setting_turns_it_off(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Settings().move_bell is True  # on by default
    app = make_app(home, variant="russian", kinds=(PERSON, LevelSeat(1)))
    rung = count_bells(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        game = screen.controller.game
        await keys_play(pilot, "c3", "d4")
        await wait_for(pilot, lambda: len(game.move_stack) == 2, "the computer's reply")
        await wait_for(pilot, lambda: rung == [1], "the bell of its move")
        # off in the settings screen: saved in settings.json, and the next reply is quiet
        await press(pilot, "comma")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        app.screen.query_one("#move_bell", Switch).value = False
        await settle(pilot)
        saved = json.loads((home / "settings.json").read_text(encoding="utf-8"))
        assert saved["move_bell"] is False
        await press(pilot, "escape")
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
        assert game.turn is Color.WHITE
        # (any legal move: after the computer's reply a capture may be the only kind)
        screen.controller.session.play(screen.controller.legal[0])
        await wait_for(pilot, lambda: len(game.move_stack) == 4, "the computer's reply")
        await settle(pilot)
        assert rung == [1]


async def test_no_bell_for_the_moves_of_two_people_at_one_board(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(home, variant="russian", kinds=(PERSON, PERSON))
    rung = count_bells(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        game = game_screen(app).controller.game
        await keys_play(pilot, "c3", "d4")
        await keys_play(pilot, "f6", "g5")
        assert len(game.move_stack) == 2
        await settle(pilot)
        assert rung == []


def test_the_setting_is_read_from_settings_json(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"move_bell": false}', encoding="utf-8")
    assert Settings.load(path).move_bell is False
    path.write_text('{"move_bell": "loud"}', encoding="utf-8")
    assert Settings.load(path).move_bell is True  # not a yes or no: the default
