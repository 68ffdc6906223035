"""Lists that stay whole under any keys, however fast they come.

Textual's lists assume two things that fast keys break:

- ``OptionList``'s PageUp/PageDown measure a page in drawn lines, which exist only once the
  list has been laid out with a size. A list just filled (the command palette's, between a
  typed letter and the next frame) or one with no room (a tiny terminal) has none, and the
  keys raised ``KeyError``/``IndexError``.
- ``DataTable`` clamps its cursor to the rows it has: with no rows that is row -1, and it
  announces a highlighted row -1 with no key (the game table after a search that matches
  nothing, then ↓ or PageDown).

A priority binding is acted on as soon as the app reads its key, ahead of the keys read
before it that still wait at the focused widget: ↓ ↓ Enter typed fast (or pasted, or
sent by a terminal multiplexer at once) opened a new game of the variant highlighted
before the arrows moved it. :func:`after_keys` runs such an action in its turn.

And a screen's ``dismiss()`` pops whatever screen is on top: a dialog answered by a key
that is handled after another screen was opened above it (Enter on a button, then Ctrl+P,
both typed fast) closed that screen instead of itself. And ``Header`` sets its title
from callbacks run later, which failed once its screen had closed meanwhile.

The subclasses here keep Textual's behaviour wherever it holds and fix those cases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.console import RenderableType
from textual import on, widgets
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.content import Content
from textual.coordinate import Coordinate
from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.geometry import Region
from textual.message import Message
from textual.screen import ModalScreen, Screen, ScreenResultType
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Header, Input, OptionList
from textual.widgets._footer import FooterKey, FooterLabel
from textual.widgets._header import HeaderTitle
from textual.widgets._select import SelectCurrent

from ..i18n import N_, _

T = TypeVar("T")


class Button(widgets.Button):
    """Textual's button, whose pressed look follows the app's ``animation_level``.

    Textual shows a pressed button for a fifth of a second and ignores another press of
    it (a click, Enter) until then. With animations off (``TEXTUAL_ANIMATIONS=none``, or
    ``App.animation_level = "none"``) the look is not shown, and a press right after
    another is acted on: a value refused, corrected and Play pressed again at once."""

    def on_mount(self) -> None:
        if self.app.animation_level == "none":
            self.active_effect_duration = 0


class Select(widgets.Select[T]):
    """Textual's Select that says which choices it offers: :attr:`choices`."""

    def __init__(self, options: Iterable[tuple[RenderableType, T]], **kwargs: Any) -> None:
        self._offered = tuple(options)
        super().__init__(self._offered, **kwargs)

    def set_options(self, options: Iterable[tuple[RenderableType, T]]) -> None:
        self._offered = tuple(options)
        super().set_options(self._offered)

    @property
    def choices(self) -> tuple[tuple[RenderableType, T], ...]:
        """The choices offered, label and value, in their order (the blank, a Select that
        allows none, is not one of them)."""
        return self._offered


class Checkbox(widgets.Checkbox):
    """Textual's check box with an empty box when unticked: Textual's shows its X there
    too, only dimmer, which a player reads as ticked."""

    def render(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super().render()


class InTurn(Message, bubble=True):
    """A priority binding's action, on its way to the app behind the keys typed before
    it: a key's bindings are looked up once it has bubbled from the focused widget up to
    the app, and this message takes the same road (the app runs it: ShashkiApp)."""

    def __init__(self, screen: Screen[Any], action: Callable[[], object]) -> None:
        super().__init__()
        self.screen = screen
        self.action = action

    def run(self) -> None:
        """The action, if its screen is still the one shown."""
        if self.screen.is_current:
            self.action()


def after_keys(screen: Screen[Any], action: Callable[[], object]) -> None:
    """Run ``action`` (a priority binding's) once the keys typed before it have been acted
    on, and only if ``screen`` is still the one shown then."""
    (screen.focused or screen).post_message(InTurn(screen, action))


def move_page(options: OptionList, direction: int) -> None:
    """PageDown (``direction`` 1) or PageUp (-1) on an option list.

    A list that has no size yet (not laid out, or no room) has no page to measure: the
    highlight moves by one option, as the arrow keys do, instead of failing.
    """
    if options.highlighted is not None and not options.scrollable_content_region:
        if direction > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()
    elif direction > 0:
        OptionList.action_page_down(options)  # type: ignore[no-untyped-call]
    else:
        OptionList.action_page_up(options)  # type: ignore[no-untyped-call]


class PagedOptionList(OptionList):
    """An ``OptionList`` whose PageUp/PageDown also work before it is laid out, and
    which keeps room for one character per line in the tiniest terminal (its minimum
    width, in styles/widgets.tcss)."""

    def action_page_down(self) -> None:
        move_page(self, 1)

    def action_page_up(self) -> None:
        move_page(self, -1)


class RowTable(DataTable):  # type: ignore[type-arg]
    """A ``DataTable`` whose cursor never leaves the table: with no rows it rests on row 0
    (and no row is announced as highlighted) instead of on row -1."""

    def validate_cursor_coordinate(self, value: Coordinate) -> Coordinate:
        row, column = super().validate_cursor_coordinate(value)
        return Coordinate(max(row, 0), max(column, 0))


class CoversGame:
    """A screen shown over a game for a while (the help, the settings, the command
    palette): the game's clocks pause as long as it covers the game, where the game may
    be paused (not online: there they run, as the help leaves them)."""


class ShashkiCommandPalette(CoversGame, CommandPalette):
    """Textual's command palette, its page keys safe while the list is being refilled,
    and searching no more once it is closed; the game's clocks pause while it is open."""

    BINDINGS = [
        Binding("pagedown", "page(1)", N_("Next page"), show=False),
        Binding("pageup", "page(-1)", N_("Previous page"), show=False),
    ]

    def action_page(self, direction: int) -> None:
        move_page(self.query_one(CommandList), direction)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """Textual's "No matches found", said in the language spoken now."""
        super()._start_no_matches_countdown(search_value)
        timer = getattr(self, "_no_matches_timer", None)
        if timer is None or not search_value:
            return
        timer.stop()

        def show() -> None:
            from rich.align import Align
            from rich.text import Text
            from textual.widgets.option_list import Option

            try:
                listed = self.query_one(CommandList)
            except (NoMatches, NoScreen):
                return  # closed meanwhile
            said = Text(_("No matches found"), style="not bold")
            listed.add_option(Option(Align.center(said), disabled=True, id=self._NO_MATCHES))
            self._list_visible = True

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show)

    def _action_command_list(self, action: str) -> None:
        """Textual's own page keys of the palette (bound as well as ours, and run instead
        of ours on a loaded machine) page safely too."""
        if action in ("page_down", "page_up"):
            self.action_page(1 if action == "page_down" else -1)
        else:
            super()._action_command_list(action)

    @on(Input.Changed)
    def _closed_input(self, event: Input.Changed) -> None:
        """Letters typed right before Escape reach the palette's box after it has closed:
        Textual started a search then, which failed on the list already taken down. A
        palette that is no longer on top ignores them (its own handler is not called)."""
        if not self.is_active:
            event.stop()
            event.prevent_default()


class Dialog(ModalScreen[ScreenResultType]):
    """A modal screen that only ever closes itself, its own keys in a footer.

    An answer (a button pressed, a line chosen) that is handled once another screen has
    been opened above the dialog is dropped: the dialog is still there, to be answered
    again when the screen above is closed. (Textual's ``dismiss`` would pop the screen
    above instead, and call back with the answer while the dialog stayed on show.)
    """

    @on(Mount)
    def _show_keys(self) -> None:
        """A footer of the dialog's own keys, over the one of the screen below (whose keys
        do nothing while the dialog is open)."""
        self.mount(LocalFooter())

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        """Close the dialog with ``result`` (and call back with it) if it is on top."""
        if not self.is_active:
            return AwaitComplete.nothing()  # type: ignore[no-untyped-call,no-any-return]
        return super().dismiss(result)


class ScreenHeader(Header):
    """Textual's header, whose title is set safely once its screen is closing.

    The header sets its title from callbacks that the app and the screen run later; when
    its screen was closed right after it opened (on a loaded machine), the title widget
    was gone by then, and Textual's callback failed with ``NoMatches``. This one does what
    Textual's does, and lets such a late title go."""

    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # instead of Textual's own handler (the same, but this)

        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoMatches, NoScreen):
                pass  # the header is being taken down

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)


@dataclass(frozen=True)
class FooterEntry:
    """A key of the footer, as it is drawn."""

    #: The binding's action (``app.command_palette`` for the palette's key).
    action: str
    #: Its name, in the language spoken.
    description: str
    #: Where it is drawn on the screen (empty until laid out).
    region: Region
    #: False for a key left out for want of room.
    shown: bool
    #: The command palette's key, docked at the right.
    palette: bool


class LocalFooter(Footer):
    """Textual's footer, its key names in the language spoken now, and the keys that do
    not fit left out whole: help and quit (or back) always show, the others give way
    from the last.

    Binding descriptions are written once, when a class is made, so they are marked with
    ``N_`` there and translated here each time the footer is drawn: a footer recomposed
    after the language changes speaks the new one.  Textual's footer cuts the keys off
    at the right edge (at 80 columns the game's help and quit keys were lost, a key cut
    in the middle of its name); this one fits them to its width, in the compact style
    (one space less per key) when the usual one does not hold them all."""

    #: The actions that always show: the way to help and the way out.
    KEEP = frozenset({"help", "quit", "quit_game", "back", "close"})

    def __init__(self, *children: Widget, compact_style: bool = True, **kwargs: Any) -> None:
        """``compact_style``: Textual's compact style when the usual one does not hold
        every key (a key's name then runs into the next key); without it the keys that
        do not fit are left out (the replay's: "←→ Хідt Дограти" was read as one)."""
        super().__init__(*children, **kwargs)
        self.compact_style = compact_style

    def compose(self) -> ComposeResult:
        hidden = self._left_out()
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
                if widget.tooltip and isinstance(widget.tooltip, str):
                    widget.tooltip = _(widget.tooltip)
            elif isinstance(widget, FooterLabel):  # a group's name (the replay's "Move")
                widget.update(_(str(widget.content)))
            if isinstance(widget, FooterKey) and widget.action in hidden:
                widget.display = False
            yield widget

    def entries(self) -> list[FooterEntry]:
        """The keys the footer holds, in their order, as drawn."""
        return [
            FooterEntry(
                action=key.action,
                description=key.description,
                region=key.region,
                shown=bool(key.display),
                palette=key.has_class("-command-palette"),
            )
            for key in self.query(FooterKey)
        ]

    def _left_out(self) -> set[str]:
        """The actions of the keys that do not fit in the footer's width (and sets the
        compact style when it lets more of them show)."""
        if not self._bindings_ready:
            return set()
        width = self.size.width or self.app.size.width
        shown: dict[str, tuple[str, str, object]] = {}  # action: key, description, group
        groups: dict[object, int] = {}
        for _node, binding, _enabled, _tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in shown:
                if binding.group is not None:
                    groups[binding.group] = groups.get(binding.group, 0) + 1
                shown[binding.action] = (
                    self.app.get_key_display(binding),
                    _(binding.description),
                    binding.group,
                )
        palette, palette_action = 0, ""
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                binding = found[1]
                palette = cell_len(self.app.get_key_display(binding) + _(binding.description)) + 3
                palette_action = binding.action

        def key_width(key: str, description: str, compact: bool) -> int:
            # (measured on Textual's footer: its paddings and margins)
            if compact:
                return cell_len(key) + 1 + (cell_len(description) + 1 if description else 0)
            return cell_len(key) + 2 + (cell_len(description) + 1 if description else 0)

        for compact in (False, True):
            room = width - palette
            # a group of keys (the replay's moves) shows its keys and its name as one:
            # its keys, a space either side and its name (and one more unless compact)
            for group, count in groups.items():
                if count > 1:
                    label = _(getattr(group, "description", ""))
                    room -= cell_len(label) + (2 if compact else 3)
                    if not getattr(group, "compact", False):
                        room -= 2 * count
            droppable: list[tuple[str, int]] = []
            for action, (key, description, group) in shown.items():
                if group is not None and groups[group] > 1:
                    room -= cell_len(key)
                    continue
                needs = key_width(key, description, compact)
                if action in self.KEEP:
                    room -= needs
                else:
                    droppable.append((action, needs))
            hidden = set()
            if room < 0 and palette:  # help and quit come before the palette's key
                hidden.add(palette_action)
                room += palette
            for action, needs in droppable:
                if needs <= room:
                    room -= needs
                else:
                    hidden.add(action)
                    room = -1  # the keys after one left out go too: the order stays
            if not hidden or compact or not self.compact_style:
                self.compact = compact
                return hidden
        return hidden  # pragma: no cover (the loop returns)

    def on_resize(self) -> None:
        """Another width: the keys are fitted to it again."""
        if self._bindings_ready and self.is_attached:
            self.call_later(self.recompose)


def relabel_select(
    select: widgets.Select,  # type: ignore[type-arg]
    options: Sequence[tuple[RenderableType, object]],
) -> None:
    """Give ``select`` the same choices under new labels (the language changed), its
    value kept and no ``Changed`` message sent: nothing chosen changes."""
    value = select.value
    with select.prevent(widgets.Select.Changed):
        select.set_options(options)
        if any(v == value for _label, v in options):
            select.value = value
        # the value may not have changed (then Textual redraws nothing): redraw its label
        for label, v in options:
            if v == select.value:
                try:
                    select.query_one(SelectCurrent).update(label)
                except NoMatches:  # not composed yet
                    pass
                break


def relabel_button(screen: Widget, selector: str, label: str) -> None:
    """Give the button ``selector`` of ``screen`` a new label, if it is there."""
    try:
        screen.query_one(selector, widgets.Button).label = label
    except NoMatches:
        pass
