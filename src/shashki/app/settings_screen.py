"""The settings screen: what ``settings.json`` holds, changed with the keyboard or the
mouse, saved at once and applied to the boards on show.

Opened with ``,`` from the menu, a game or the replay viewer, and from the command palette.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Label, Select, Switch

from .board import PIECE_SETS, BoardWidget
from .controller import UndoPolicy
from .plain import Plain
from .themes import BOARD_THEMES, set_board_theme
from .widgets import Dialog

if TYPE_CHECKING:
    from .app import ShashkiApp

#: How each piece set is called on the screen.
PIECE_SET_NAMES = {
    "unicode": "Discs (unicode)",
    "contrast": "High contrast",
    "ascii": "Letters (ASCII)",
}
#: How each takeback policy is called on the screen.
UNDO_NAMES = {
    UndoPolicy.FREE: "Free: undo at any time",
    UndoPolicy.ASK: "Ask the opponent (two people)",
    UndoPolicy.OFF: "Off: no takebacks",
}


class SettingsScreen(Dialog[None]):
    """The user's settings, one row each."""

    BINDINGS = [Binding("escape,q", "close", "Close")]

    @property
    def shashki(self) -> ShashkiApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        s = self.shashki.settings
        with VerticalScroll(id="settings-box"):
            yield Plain("Settings", id="settings-title")
            with Horizontal(classes="setting"):
                yield Label("Board theme")
                themes = [(name.replace("-", " ").capitalize(), name) for name in BOARD_THEMES]
                yield Select(themes, value=s.board_theme, allow_blank=False, id="board_theme")
            with Horizontal(classes="setting"):
                yield Label("Pieces")
                sets = [(PIECE_SET_NAMES.get(k, k), k) for k in PIECE_SETS]
                yield Select(sets, value=s.piece_set, allow_blank=False, id="piece_set")
            with Horizontal(classes="setting"):
                yield Label("Coordinates")
                yield Switch(value=s.coords, id="coords")
            with Horizontal(classes="setting"):
                yield Label("Sound (a bell on a refused move)")
                yield Switch(value=s.bell, id="bell")
            with Horizontal(classes="setting"):
                yield Label("Turn the board for the side to move (two people)")
                yield Switch(value=s.autoflip, id="autoflip")
            with Horizontal(classes="setting"):
                yield Label("Takebacks in new games")
                policies = [(UNDO_NAMES[p], p.value) for p in UndoPolicy]
                value = s.undo_policy if s.undo_policy in {p.value for p in UndoPolicy} else "free"
                yield Select(policies, value=value, allow_blank=False, id="undo_policy")
            yield Plain(
                "Saved at once in settings.json. Hub engines are named there too "
                '("engines": name, command, folder).',
                id="settings-note",
            )
            yield Button("Close", id="settings-close", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#board_theme", Select).focus()

    @on(Select.Changed)
    def _select(self, event: Select.Changed) -> None:
        if event.value is Select.BLANK or event.select.id is None:
            return
        setattr(self.shashki.settings, event.select.id, str(event.value))
        self._changed()

    @on(Switch.Changed)
    def _switch(self, event: Switch.Changed) -> None:
        if event.switch.id is None:
            return
        setattr(self.shashki.settings, event.switch.id, bool(event.value))
        self._changed()

    @on(Button.Pressed, "#settings-close")
    def _close(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def _changed(self) -> None:
        """Save, and show the boards under this screen as the settings now say."""
        app = self.shashki
        app.save_settings()
        s = app.settings
        for screen in app.screen_stack:
            for board in screen.query(BoardWidget):
                board.piece_set = s.piece_set
                board.show_coords = s.coords
                set_board_theme(board, s.board_theme)
            if hasattr(screen, "autoflip"):
                screen.autoflip = s.autoflip


__all__ = ["SettingsScreen"]
