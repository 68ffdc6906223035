"""The chat of an online game (m) as drawn: both sides' lines with who said them, a
peer's words shown as they are (never markup), the box to type in — at 80x24 in
Ukrainian and Russian (pictures), and whole at 60x20. The chat over the network:
tests/online/test_app.py."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from shashki.app.online import ChatScreen
from shashki.i18n import set_language
from shashki.online.link import ChatEntry

from .conftest import make_app, screen_made, settle


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def a_link() -> Any:
    """What the chat reads of a link: the friend's name and the lines so far."""
    lines = deque(
        [
            ChatEntry(False, "Оксана", "Привіт! Граємо до трьох перемог?"),
            ChatEntry(True, "", "Так, давай."),
            ChatEntry(False, "Оксана", "[b]не жирний[/b] [/x] [@click=app.quit]ні[/]"),
        ]
    )
    return SimpleNamespace(remote=SimpleNamespace(name="Оксана"), chat_log=lines)


async def chat_open(pilot: Pilot[None]) -> None:
    await settle(pilot)
    pilot.app.push_screen(ChatScreen(a_link(), lambda text: None))
    await screen_made(pilot, ChatScreen)
    await settle(pilot)


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_snapshot_chat(snap_compare, home: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    set_language(language)
    assert snap_compare(make_app(home), terminal_size=(80, 24), run_before=chat_open)


async def test_the_chat_shows_whole_at_60x20(home: Path) -> None:
    set_language("uk")
    app = make_app(home)
    async with app.run_test(size=(60, 20)) as pilot:
        await chat_open(pilot)
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        box = screen.query_one(Input)
        assert box.region.bottom <= 19 and box.region.width > 20, box.region
        text = screen.lines().plain
        assert text.splitlines() == [
            "Оксана: Привіт! Граємо до трьох перемог?",
            "Ви: Так, давай.",
            "Оксана: [b]не жирний[/b] [/x] [@click=app.quit]ні[/]",
        ]
