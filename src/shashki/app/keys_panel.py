"""The keys panel (the palette's "Keys"), in the language spoken now.

Textual's panel lists the keys of the screen on show with their bindings' descriptions as
they were written, in English: ours are marked with ``N_`` where they are bound and
Textual's own (its input box's, lists', tables', the drop-down's "Dismiss menu") are
marked here, so that this panel and the footer (:class:`~shashki.app.widgets.LocalFooter`)
say both in the language spoken. A widget's own help text (Textual's are English) is
not shown: the keys are.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from operator import itemgetter

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import HelpPanel, KeyPanel
from textual.widgets._key_panel import BindingsTable

from ..i18n import N_, _

#: The descriptions (and tooltips) of the bindings of Textual's own widgets the app
#: shows, marked for the catalogs: the panel and the footer translate them where shown.
TEXTUAL_KEYS = frozenset(
    (
        # the app and every screen; the input box's group of keys
        N_("Input"),
        N_("Quit"),
        N_("Quit the app and return to the command prompt."),
        N_("Focus Next"),
        N_("Focus Previous"),
        N_("Copy selected text"),
        # an input box
        N_("Move cursor left"),
        N_("Move cursor left and select"),
        N_("Move cursor left a word"),
        N_("Move cursor left a word and select"),
        N_("Move cursor right or accept the completion suggestion"),
        N_("Move cursor right and select"),
        N_("Move cursor right a word"),
        N_("Move cursor right a word and select"),
        N_("Delete character left"),
        N_("Select all"),
        N_("Go to start"),
        N_("Go to end"),
        N_("Select line start"),
        N_("Select line end"),
        N_("Delete character right"),
        N_("Submit"),
        N_("Delete left to start of word"),
        N_("Delete all to the left"),
        N_("Delete right to start of word"),
        N_("Delete all to the right"),
        N_("Cut selected text"),
        N_("Paste text from the clipboard"),
        # what scrolls
        N_("Scroll Up"),
        N_("Scroll Down"),
        N_("Scroll Left"),
        N_("Scroll Right"),
        N_("Scroll Home"),
        N_("Scroll End"),
        N_("Page Up"),
        N_("Page Down"),
        N_("Page Left"),
        N_("Page Right"),
        # lists, tables and the folder tree
        N_("Down"),
        N_("Last"),
        N_("Select"),
        N_("First"),
        N_("Up"),
        N_("Cursor up"),
        N_("Cursor down"),
        N_("Cursor right"),
        N_("Cursor left"),
        N_("Page up"),
        N_("Page down"),
        N_("Top"),
        N_("Bottom"),
        N_("Home"),
        N_("End"),
        N_("Cursor to parent"),
        N_("Cursor to next ancestor"),
        N_("Cursor to previous sibling"),
        N_("Cursor to next sibling"),
        N_("Toggle"),
        N_("Expand or collapse all"),
        N_("Cursor Up"),
        N_("Cursor Down"),
        # a drop-down, a button, the command palette
        N_("Show menu"),
        N_("Dismiss menu"),
        N_("Press button"),
        N_("Go to bottom"),
        N_("Go to top"),
        N_("Next command"),
        N_("Exit the command palette"),
        N_("Next page"),
        N_("Previous page"),
        N_("Previous command"),
    )
)


class LocalBindingsTable(BindingsTable):
    """Textual's table of keys, each key's description (and tooltip) in the language
    spoken now; made as Textual's is: a row an action, its keys together, a section a
    widget."""

    def render_bindings_table(self) -> Table:
        bindings = self.screen.active_bindings.values()
        key_style = self.get_component_rich_style("bindings-table--key")
        description_style = self.get_component_rich_style("bindings-table--description")
        divider_transparent = self.get_component_styles("bindings-table--divider").color.a == 0
        table = Table(
            padding=(0, 0),
            show_header=False,
            box=box.SIMPLE if divider_transparent else box.HORIZONTALS,
            border_style=self.get_component_rich_style("bindings-table--divider"),
        )
        table.add_column("", justify="right")
        header_style = self.get_component_rich_style("bindings-table--header")
        previous: object = None
        for namespace, group in groupby(bindings, key=itemgetter(0)):
            rows = list(group)
            if not rows:
                continue
            title = getattr(namespace, "BINDING_GROUP_TITLE", None)
            if title:
                table.add_row("", Text(_(title), style=header_style, end=""))
            by_action: defaultdict[str, list[Binding]] = defaultdict(list)
            for _node, binding, _enabled, _tooltip in rows:
                if not binding.system:
                    by_action[binding.action].append(binding)
            for same in by_action.values():
                keys = " ".join(dict.fromkeys(self.app.get_key_display(b) for b in same))
                table.add_row(
                    Text(keys, style=key_style), self._description(same[0], description_style)
                )
            if namespace != previous:
                table.add_section()
            previous = namespace
        return table

    @staticmethod
    def _description(binding: Binding, style: object) -> Text:
        # a description is a name, never markup (Textual reads it as markup)
        text = Text(_(binding.description), end="", style=style)  # type: ignore[arg-type]
        if binding.tooltip:
            if binding.description:
                text.append(" ")
            text.append(_(binding.tooltip), "dim")
        return text


class LocalKeyPanel(KeyPanel):
    """Textual's key panel, its table :class:`LocalBindingsTable`."""

    def compose(self) -> ComposeResult:
        yield LocalBindingsTable(shrink=True, expand=False)


class LocalHelpPanel(HelpPanel):
    """Textual's keys and help panel, its keys in the language spoken now, and no
    widget's help text (Textual's widgets write theirs in English)."""

    def compose(self) -> ComposeResult:
        yield LocalKeyPanel(id="keys-help")

    def update_help(self, focused_widget: Widget | None) -> None:
        self.remove_class("-show-help")


def show_keys_panel(screen: Widget) -> None:
    """Show the keys panel on ``screen`` (the palette's "Keys"), unless it is there."""
    if not screen.query(HelpPanel):
        screen.mount(LocalHelpPanel())


__all__ = ["TEXTUAL_KEYS", "LocalBindingsTable", "LocalHelpPanel", "show_keys_panel"]
