"""The styles are data: the style sheets the app loads exist, and the board themes' table
names only parts the board has, the first theme every one of them."""

from __future__ import annotations

import tomllib
from pathlib import Path

from shashki.app import app as app_module
from shashki.app.app import ShashkiApp
from shashki.app.board import BoardWidget
from shashki.app.themes import BOARD_THEMES, THEMES_FILE, board_theme_css


def test_the_style_sheets_are_there() -> None:
    folder = Path(app_module.__file__).parent
    for path in ShashkiApp.CSS_PATH:  # type: ignore[union-attr]
        assert (folder / path).is_file(), path


def test_the_themes_colour_the_board_parts() -> None:
    with THEMES_FILE.open("rb") as fh:
        table = tomllib.load(fh)
    assert tuple(table) == BOARD_THEMES == ("classic", "green", "contrast", "ansi")
    parts = BoardWidget.COMPONENT_CLASSES
    first, *others = table.values()
    assert set(first) == parts  # the first theme gives every part
    for theme in others:
        assert set(theme) <= parts
    css = board_theme_css()
    assert "BoardWidget > .board--light { background: #e9dcc0; }" in css
    assert "BoardWidget.-theme-green > .board--light { background: #eeeed2; }" in css
