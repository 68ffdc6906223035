"""The settings screen: what ``settings.json`` holds, changed with the keyboard or the
mouse, saved at once and applied to the boards on show.

Opened with ``,`` from the menu, a game or the replay viewer, and from the command palette.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Label, Switch

from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, _
from ..session.seats import Engines
from ..session.served import served
from .board import PIECE_SET_NAMES, PIECE_SETS, BoardWidget
from .controller import UndoPolicy
from .plain import Plain, literal
from .shell import Shell, shell_of
from .themes import BOARD_THEMES, set_board_theme, theme_name
from .widgets import Button, CoversGame, Dialog, Select, relabel_button, relabel_select

#: How each takeback policy is called on the screen.
UNDO_NAMES = {
    UndoPolicy.FREE: N_("Free: undo at any time"),
    UndoPolicy.ASK: N_("Ask the opponent (two people)"),
    UndoPolicy.OFF: N_("Off: no takebacks"),
}

#: How each review depth (:data:`~shashki.engine.review.DEPTHS`) is called on the screen.
REVIEW_DEPTH_NAMES = {
    "quick": N_("Quick: a third of the time"),
    "normal": N_("Normal (the default)"),
    "deep": N_("Deep: four times the time"),
}

#: The rows: the setting (its widget's id) and its label.
LABELS = {
    "language": N_("Language"),
    "board_theme": N_("Board theme"),
    "piece_set": N_("Pieces"),
    "coords": N_("Coordinates"),
    "bell": N_("Sound (a bell on a refused move)"),
    "move_bell": N_("Sound when the other side moves"),
    "autoflip": N_("Turn the board after every move (hot-seat)"),
    "undo_policy": N_("Takebacks in new games"),
    "clock": N_("Clock in new games"),
    "review_depth": N_("Game review depth"),
}
NOTE = N_(
    'Saved at once in settings.json. Hub engines are named there too ("engines": name, '
    "command, folder)."
)
#: The note of a served app (``shashki serve``): what a visitor cannot change, and why.
SERVED_NOTE = N_(
    "This app is shown in a web browser: the engines, and every setting that names a "
    "program or a path, are set by the owner of the machine it runs on, and cannot be "
    "changed from here."
)


def engine_names(*, engines: Engines) -> str:
    """The engines of the owner's settings (``engines``), by name (read-only in a served
    app)."""
    names = [engine.name for engine in engines]
    return ", ".join(names) if names else _("no engines in the settings")


def clock_choices(current: str) -> list[tuple[str | Text, str]]:
    """The new-game dialog's clocks (and ``current``, a custom one, when it is not
    among them); "custom…" is typed in the dialog itself."""
    from .clock import CLOCK_CHOICES

    choices: list[tuple[str | Text, str]] = [
        (_(label), value) for label, value in CLOCK_CHOICES if value != "custom"
    ]
    if current not in {value for _, value in choices}:
        choices.append((Text(current), current))  # from the settings file: as it is
    return choices


def language_choices() -> list[tuple[str, str]]:
    """The languages to choose from: the system's ("") first, each in its own words."""
    return [(_("Automatic (from the system)"), "")] + [
        (LANGUAGE_NAMES[code], code) for code in LANGUAGES
    ]


class SettingsScreen(CoversGame, Dialog[None]):
    """The user's settings, one row each."""

    BINDINGS = [Binding("escape,q", "close", N_("Close"))]

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def _choices(self, setting: str) -> list[tuple[str | Text, str]]:
        """The choices of a setting chosen from a list, in the language spoken now."""
        s = self.shashki.settings
        if setting == "language":
            return list(language_choices())
        if setting == "board_theme":
            return [(theme_name(name), name) for name in BOARD_THEMES]
        if setting == "piece_set":
            return [(_(PIECE_SET_NAMES.get(k, k)), k) for k in PIECE_SETS]
        if setting == "undo_policy":
            return [(_(UNDO_NAMES[p]), p.value) for p in UndoPolicy]
        if setting == "review_depth":
            return [(_(name), depth) for depth, name in REVIEW_DEPTH_NAMES.items()]
        return clock_choices(s.clock)

    def compose(self) -> ComposeResult:
        s = self.shashki.settings
        values = {
            "language": s.language if s.language in LANGUAGES else "",
            "board_theme": s.board_theme,
            "piece_set": s.piece_set,
            "undo_policy": (
                s.undo_policy if s.undo_policy in {p.value for p in UndoPolicy} else "free"
            ),
            "clock": s.clock,
            "review_depth": s.review_depth if s.review_depth in REVIEW_DEPTH_NAMES else "normal",
        }
        with VerticalScroll(id="settings-box"):
            yield Plain(_("Settings"), id="settings-title")
            for setting, label in LABELS.items():
                with Horizontal(classes="setting"):
                    yield Label(_(label), id=f"label-{setting}")
                    if setting in values:
                        # made without the Changed message a Select sends of its first
                        # value as it mounts: a setting changed meanwhile (a language
                        # chosen in the palette right before) was set back by it
                        with self.prevent(Select.Changed):
                            select = Select(
                                self._choices(setting),
                                value=values[setting],
                                allow_blank=False,
                                id=setting,
                            )
                        yield select
                    else:
                        yield Switch(value=bool(getattr(s, setting)), id=setting)
            if served():  # shown, never changed: the owner's programs
                with Horizontal(classes="setting"):
                    yield Label(_("Engines"), id="label-engines")
                    yield Plain(literal(self._engine_names()), id="engines", classes="read-only")
            yield Plain(self._note(), id="settings-note")
            yield Button(_("Close"), id="settings-close", variant="primary")

    def _engine_names(self) -> str:
        return engine_names(engines=self.shashki.settings.engine_list)

    @staticmethod
    def _note() -> str:
        return _(SERVED_NOTE) if served() else _(NOTE)

    def on_mount(self) -> None:
        self.query_one("#language", Select).focus()

    def retranslate(self) -> None:
        """Every label and choice in the new language; the values stay."""
        self.query_one("#settings-title", Plain).update(_("Settings"))
        for setting, label in LABELS.items():
            self.query_one(f"#label-{setting}", Label).update(_(label))
            widget = self.query_one(f"#{setting}")
            if isinstance(widget, Select):
                relabel_select(widget, self._choices(setting))
        if served():
            self.query_one("#label-engines", Label).update(_("Engines"))
            self.query_one("#engines", Plain).update(literal(self._engine_names()))
        self.query_one("#settings-note", Plain).update(self._note())
        relabel_button(self, "#settings-close", _("Close"))

    @on(Select.Changed)
    def _select(self, event: Select.Changed) -> None:
        if event.value is Select.BLANK or event.select.id is None:
            return
        if event.select.id == "language":
            if str(event.value) != self.shashki.settings.language:
                self.shashki.apply_language(str(event.value))
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
