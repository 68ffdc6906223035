"""The command palette (Ctrl+P): every action of the screen on show, the settings, My
games, the language, playing online (a part of :class:`~shashki.app.app.ShashkiApp`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from functools import partial

from textual.app import SystemCommand
from textual.keys import key_to_character
from textual.screen import Screen

from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, _
from .game_screen import GameScreen
from .menu import MenuScreen
from .shell import Shell


class Palette(Shell):
    """The palette's commands, and the settings' key."""

    def action_settings(self) -> None:
        """Open the settings screen (``,``), unless it is already on show."""
        from .settings_screen import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

    def action_show_help_panel(self) -> None:
        """The palette's "Keys": Textual's panel, in the language spoken now."""
        from .keys_panel import show_keys_panel

        show_keys_panel(self.screen)

    def action_command_palette(self) -> None:
        """Textual's palette, its page keys made safe for a list being refilled."""
        from textual.command import CommandPalette

        from .widgets import ShashkiCommandPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(
                ShashkiCommandPalette(id="--command-palette", placeholder=_("Search for commands…"))
            )

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:  # type: ignore[type-arg]

        in_game = isinstance(screen, GameScreen)
        for command in super().get_system_commands(screen):
            if command.title == "Quit" and in_game:
                continue  # the game's own Quit, which asks before leaving a game in play
            if command.title == "Theme":
                # Textual's theme colours the app; the board's theme is another command
                command = command._replace(
                    title=N_("App colour theme"), help=N_("Change the colours of the whole app")
                )
            if command.title in TEXTUAL_WORDS:  # Textual's own, in English
                command = command._replace(title=_(command.title), help=_(command.help))
            yield command
        yield SystemCommand(
            _("Settings"),
            _("Board theme, pieces, coordinates, sound, takebacks, language (,)"),
            self.action_settings,
        )
        if isinstance(screen, MenuScreen):
            yield SystemCommand(
                _("My games"),
                _("Every finished game: replay, export, delete; the score per opponent (m)"),
                self.show_my_games,
            )
        for code in ("", *LANGUAGES):
            name = LANGUAGE_NAMES[code] if code else _("Automatic (from the system)")
            yield SystemCommand(
                _("Language: {name}").format(name=name),
                _("Speak this language from now on (saved in the settings)"),
                partial(self.apply_language, code),
            )
        if isinstance(screen, MenuScreen):
            yield SystemCommand(
                _("Play online"),
                _("Host a game for a friend, or join one (w)"),
                screen.action_online,
            )
        if in_game:
            for binding in screen.BINDINGS:
                b = binding if not isinstance(binding, tuple) else None
                if b is None or b.action.startswith("cursor") or b.action.startswith("next"):
                    continue
                key = b.key_display or written_key(b.key.split(",")[0])  # "?", not "question_mark"
                title = _(PALETTE_TITLES.get(b.action, b.description))
                yield SystemCommand(title, f"{title} ({key})", _on_screen(screen, b.action))


#: Keys as they are written on the keyboard (LANGUAGE.md): "Enter", not "enter".
WRITTEN_KEYS = {"enter": "Enter", "escape": "Esc", "tab": "Tab", "space": "Space"}


def written_key(key: str) -> str:
    """A binding's key as the keyboard writes it: "Enter", "Esc", "Ctrl+S"; a letter or a
    sign as it is ("R", "?")."""
    if "+" in key:
        *mods, last = key.split("+")
        return "+".join([m.capitalize() for m in mods] + [written_key(last).capitalize()])
    if key in WRITTEN_KEYS:
        return WRITTEN_KEYS[key]
    return key_to_character(key) or key  # "number_sign": "#"


#: The palette's names of game keys whose footer name alone would be unclear there.
PALETTE_TITLES = {
    "theme": N_("Board theme"),
    "pieces": N_("Piece set"),
    "coords": N_("Coordinates"),
    "numbers": N_("Numbers on every square"),
}

#: Textual's own words: its footer key, and its palette commands' titles and help texts
#: (marked for the catalogs, translated where shown).
TEXTUAL_WORDS = frozenset(
    (
        N_("palette"),
        N_("Open the command palette"),
        N_("App colour theme"),
        N_("Change the colours of the whole app"),
        N_("Quit"),
        N_("Quit the application as soon as possible"),
        N_("Keys"),
        N_("Hide the keys and widget help panel"),
        N_("Show help for the focused widget and a summary of available keys"),
        N_("Minimize"),
        N_("Minimize the widget and restore to normal size"),
        N_("Maximize"),
        N_("Maximize the focused widget"),
        N_("Screenshot"),
        N_("Save an SVG 'screenshot' of the current screen"),
    )
)


def _on_screen(screen: Screen, action: str) -> Callable[[], Awaitable[None]]:  # type: ignore[type-arg]
    """A palette command running ``action`` on ``screen``: it runs a moment after the
    palette has closed, and only if ``screen`` is then still the one on show (a key typed
    right behind may have left it, and its widgets are gone), and the app is running: one
    chosen as the app was taken down ran on the game screen whose widgets were already
    removed (NoMatches, on a loaded machine)."""

    async def run() -> None:
        if screen.app.is_running and screen.is_active and screen.is_attached:
            await screen.run_action(action)

    return run


__all__ = ["PALETTE_TITLES", "TEXTUAL_WORDS", "Palette"]
