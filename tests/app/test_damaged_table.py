"""A damaged ending table that came with shashki: the app says so once, in one line, in
the language spoken, and the engine searches instead (the analysis, a game against the
computer); nothing is raised at the player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shashki.app.analysis import AnalysisPanel
from shashki.engine import endings
from shashki.i18n import set_language
from shashki.rules import find_variant
from shashki.session.seats import PERSON, LevelSeat

from .conftest import game_screen, make_app, notes, press, settle
from .test_computer import wait_for

SIZE = (100, 32)


@pytest.fixture
def damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shipped tables as they came, but for two cut short: three kings against one
    on the 10x10 board, and a king and a man each on the 8x8 board (Russian draughts);
    the test's own empty cache, and no table in memory."""
    folder = tmp_path / "tables"
    folder.mkdir()
    for path in endings.SHIPPED.iterdir():
        (folder / path.name).symlink_to(path)
    cut = [
        endings.shipped_name(find_variant("international"), (3, 0, 1, 0)),
        endings.shipped_half_name(find_variant("russian"), (1, 1, 1, 1)),
    ]
    for name in cut:
        (folder / name).unlink()
        (folder / name).write_bytes((endings.SHIPPED / name).read_bytes()[:-40])
    monkeypatch.setattr(endings, "SHIPPED", folder)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name, empty in (("_TABLES", {}), ("_ABSENT", {}), ("_UNUSABLE", set()), ("_UNSHOWN", [])):
        monkeypatch.setattr(endings, name, empty)
    return folder


def said(app: object, name: str) -> list[str]:
    return [line for line in notes(app) if name in line]  # type: ignore[arg-type]


def depth(panel: AnalysisPanel) -> int:
    found = re.search(r"(?:depth|глибина|глубина) (\d+)", str(panel.content))
    return int(found.group(1)) if found else 0


async def test_the_analysis_says_a_damaged_table_once_and_searches(
    home: Path, damaged: Path
) -> None:
    name = endings.shipped_name(find_variant("international"), (3, 0, 1, 0))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("international", fen="B:WK7,K12,K45:BK5", kinds=(PERSON, PERSON))
        await settle(pilot)
        panel = game_screen(app).query_one(AnalysisPanel)
        await press(pilot, "e")
        await wait_for(pilot, lambda: depth(panel) >= 2 and said(app, name))
        assert "ending database" not in str(panel.content)  # (searched, not read off it)
        (line,) = said(app, name)
        assert "\n" not in line and "damaged" in line
        # the same position again, and the next: nothing more is said
        await press(pilot, "e", "e")
        await wait_for(pilot, lambda: depth(panel) >= 2)
        assert said(app, name) == [line]


async def test_a_game_against_the_computer_says_it_in_the_language_spoken(
    home: Path, damaged: Path
) -> None:
    name = endings.shipped_half_name(find_variant("russian"), (1, 1, 1, 1))
    try:
        app = make_app(home, language="uk")
        async with app.run_test(size=SIZE) as pilot:
            ctl = app.start_game("russian", fen="B:WKa1,c3:BKh8,f6", kinds=(PERSON, LevelSeat(6)))
            await wait_for(pilot, lambda: ctl.game.move_stack and said(app, name))
            (line,) = said(app, name)
            assert "пошкоджено" in line and "\n" not in line
            assert ctl.game.outcome() is None
    finally:
        set_language(None)  # (the language of the other tests)
