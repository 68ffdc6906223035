"""The board themes: a table of data (``styles/board_themes.toml``), read once and turned
into the TCSS that colours the board."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.widget import Widget

from ..i18n import N_, _

#: The board themes' table.
THEMES_FILE = Path(__file__).parent / "styles" / "board_themes.toml"


def _read_themes() -> dict[str, dict[str, str]]:
    with THEMES_FILE.open("rb") as fh:
        return tomllib.load(fh)


_THEMES = _read_themes()
#: The board themes' names, in the order the t key goes through them (the first is the
#: default).
BOARD_THEMES: tuple[str, ...] = tuple(_THEMES)


#: How the themes are called on the screen (a theme not listed: by its name).
THEME_NAMES = {
    "classic": N_("Classic"),
    "green": N_("Green"),
    "contrast": N_("High contrast"),
    "ansi": N_("Terminal colours (ANSI)"),
}


def theme_name(name: str) -> str:
    """A board theme's name as the screen shows it, in the language spoken now."""
    if name in THEME_NAMES:
        return _(THEME_NAMES[name])
    return name.replace("-", " ").capitalize()


def board_theme_css() -> str:
    """The TCSS of every theme: the first colours every board, each other one the boards
    of its class (``-theme-<name>``, see :func:`set_board_theme`)."""
    rules: list[str] = []
    for i, (name, parts) in enumerate(_THEMES.items()):
        board = "BoardWidget" if i == 0 else f"BoardWidget.-theme-{name}"
        rules.extend(f"{board} > .{part} {{ {css} }}" for part, css in parts.items())
    return "\n".join(rules) + "\n"


def set_board_theme(board: Widget, theme: str) -> None:
    """Colour ``board`` with the theme called ``theme``."""
    for name in BOARD_THEMES:
        board.set_class(name == theme, f"-theme-{name}")
    board.refresh()
