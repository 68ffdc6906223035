"""The help of Thai draughts writes captures as the variant does, with a dash
(docs/rules/national.md#thai: the PDN table's capture separator for GameType 31 is "-")."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown

from shashki.app.dialogs import HelpScreen

from .conftest import make_app, press


async def test_the_notation_example_uses_the_variants_capture_mark(home: Path) -> None:
    app = make_app(home, variant="thai")
    async with app.run_test(size=(100, 32)) as pilot:
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        # a legal first move, and a capture written with the dash (issue 14: the example
        # is taken from the variant's own first moves)
        assert "28-24, 28-19: the start square, `-`, the end square" in text
        assert "`-` or `-`" not in text
