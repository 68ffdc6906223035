"""Leaving a game in progress: keep it for later, abandon it, or stay — the dialog in
Ukrainian and Russian at 80x24 (pictures) and whole at 60x20 (every button's words).
What abandoning records: tests/app/test_unfinished.py and tests/session/test_recorder.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from shashki.app.dialogs import LeaveScreen
from shashki.i18n import set_language

from .conftest import keys_play, make_app, press, screen_made, settle


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


async def leaving(pilot: Pilot[None]) -> None:
    """A move each, then q: the dialog."""
    await settle(pilot)
    await keys_play(pilot, "c3", "d4", "f6", "g5")
    await press(pilot, "q")
    await screen_made(pilot, LeaveScreen)
    await settle(pilot)


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_snapshot_leave_dialog(snap_compare, home: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    set_language(language)
    app = make_app(home, variant="russian", autosave=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=leaving)


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_every_choice_shows_whole_at_60x20(home: Path, language: str) -> None:
    set_language(language)
    app = make_app(home, variant="russian", autosave=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await leaving(pilot)
        screen = app.screen
        assert isinstance(screen, LeaveScreen)
        for button in screen.query("Button"):
            label = str(button.label)
            region = button.content_region
            assert region.right <= 60 and region.bottom <= 20, (label, region)
            assert len(label) <= region.width, (label, region.width)
        await press(pilot, "escape")
        await settle(pilot)
        assert not isinstance(app.screen, LeaveScreen)
