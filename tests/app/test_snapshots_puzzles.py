"""The puzzle trainer's screens in Ukrainian and Russian at 80x24: the choice of a
variant's puzzles, and a puzzle with a wrong move explained and the first hint (the
side declines, the count takes its noun, nothing is cut).

Kept in a file of their own: ``pytest tests/app/test_snapshots_puzzles.py
--snapshot-update`` re-records only these; then look at the new SVGs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from shashki.app.puzzles import PuzzleMenuScreen
from shashki.i18n import set_language

from .conftest import make_app, press, settle, wait_for
from .test_puzzles import books, open_puzzles  # noqa: F401  (the fixture)

LANGUAGES = [pytest.param("uk", id="uk"), pytest.param("ru", id="ru")]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_puzzle_choices(snap_compare, home: Path, books: Path, lang: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    async def english_choices(pilot: Pilot[None]) -> None:
        app: Any = pilot.app
        await press(pilot, "p")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, PuzzleMenuScreen) and app.screen.trainer is not None,
            "the puzzles read",
        )
        await press(pilot, "down", "enter")
        await wait_for(pilot, lambda: app.screen.variant_id == "english", "the choices")
        await settle(pilot)

    app = make_app(home, language=lang)
    assert snap_compare(app, terminal_size=(80, 24), run_before=english_choices)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_puzzle_wrong_move_and_hint(snap_compare, home: Path, books: Path, lang: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    async def wrong_then_hint(pilot: Pilot[None]) -> None:
        screen = await open_puzzles(pilot, "english", "mix")
        await press(pilot, "colon", *"29-25", "enter")
        await wait_for(
            pilot,
            lambda: "22x29" in str(screen.query_one("#puzzle-verdict").content),
            "the wrong move explained",
            step=0.05,
        )
        await press(pilot, "i")
        for box in screen.query(Input):
            box.cursor_blink = False
        await settle(pilot)

    app = make_app(home, language=lang)
    assert snap_compare(app, terminal_size=(80, 24), run_before=wrong_then_hint)
