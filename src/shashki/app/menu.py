"""The variant menu (with each variant's rule card and start position) and the new-game
dialog."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.visual import VisualType
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..i18n import N_, _
from ..rules import Game
from ..rules.variant import Variant
from ..rules.variant_registry import all_variants, registry, user_file_problems
from ..session.seats import parse_seat
from ..session.served import join_allowed, served
from .clock import CLOCK_CHOICES
from .plain import Plain, literal, marked, visible
from .shell import Shell, shell_of
from .widgets import (
    Button,
    Checkbox,
    Dialog,
    LocalFooter,
    PagedOptionList,
    ScreenHeader,
    Select,
    after_keys,
    relabel_button,
    relabel_select,
)

if TYPE_CHECKING:
    from ..records.clocks import TimeControl

GROUP_TITLES = {
    "classic": N_("Classic draughts"),
    "national": N_("National games"),
    "orthogonal": N_("Orthogonal games (all 64 squares)"),
    "family": N_("Family games"),
    "modified": N_("Modified rules"),
    "user": N_("Your variants"),
}


def mini_board(variant: Variant, fen: str | None = None) -> Text:
    """A small picture of a position: one character per square."""
    try:
        game = Game(variant, fen) if fen else Game(variant)
    except ValueError:
        return Text(_("(no picture)"))
    geo = variant.board
    out = Text()
    for r in range(geo.height - 1, -1, -1):
        for f in range(geo.width):
            playable = geo.playable(f, r)
            if not playable:
                out.append("  ", style="on #d8c8a8")
                continue
            sq = geo.at(f, r)
            piece = game.piece_at(sq)
            if piece is None:
                out.append("  ", style="on #7a5a36")
                continue
            glyph = "◉" if piece.is_king else "●"
            color = (
                "#f4f0e6" if piece.color == 0 else ("#1a1a1a" if piece.color == 1 else "#c8a060")
            )
            out.append(glyph + " ", style=f"bold {color} on #7a5a36")
        out.append("\n")
    return out


def other_names(v: Variant) -> list[str]:
    """The variant's other names to show a player: in English its aliases (what the
    command line takes); in another language its names in the other languages (its
    English name, "Dama"…), not ids written in Latin letters."""
    from ..i18n import language

    if language() == "en":
        return list(v.aliases)
    here = v.local_name
    names = [v.name, *v.names.values()]
    return [n for i, n in enumerate(names) if n != here and n not in names[:i]]


def _a_side_name(name: str) -> bool:
    """Whether ``name`` is some variant's name of a side, in English or in a language
    shashki speaks ("South", "Південь"): a name nobody typed, never carried to the next
    game."""
    from ..i18n import LANGUAGES

    for v in registry():
        for side in (0, 1):
            english = v.side_names[side]
            if name == english or name in (v.local(english, lang) for lang in LANGUAGES):
                return True
    return False


class MenuScreen(Screen[None]):
    """Choose a variant; its rule card and start position are shown beside the list."""

    BINDINGS = [
        # a priority binding, so that the footer shows it over the list's own Enter
        Binding("enter", "choose", N_("New game"), key_display="⏎", priority=True),
        Binding("o", "open_file", N_("Open game")),
        # (before the others: the footer of a small terminal keeps the first ones)
        Binding("p", "puzzles", N_("Puzzles")),
        Binding("e", "editor", N_("Set up a position"), show=False),
        Binding("u", "unfinished", N_("Unfinished games")),
        Binding("m", "my_games", N_("My games")),
        Binding("w", "online", N_("Play online")),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q,escape", "quit", N_("Quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._ids: list[str | None] = []
        #: The game open when the menu last highlighted the variant played.
        self._game_seen: object = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # (a served app whose owner did not allow joining has no online play to offer)
        if action == "online" and not join_allowed():
            return False
        return True

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Horizontal(id="menu"):
            options: list[Option | None] = []
            group = None
            for v in all_variants():
                if v.group != group:
                    group = v.group
                    if options:
                        options.append(None)
                    options.append(Option(group_title(group), disabled=True))
                    self._ids.append(None)
                options.append(Option(variant_line(v), id=v.id))
                self._ids.append(v.id)
            yield PagedOptionList(*options, id="variants")
            with VerticalScroll(id="card-area"):
                yield Static(id="picture")
                yield Static(id="card")
        yield Static(_(MENU_HINT), id="menu-hint")
        yield LocalFooter()

    def retranslate(self) -> None:
        """The list, the card and the hint in the language spoken now; the variant
        highlighted and the scroll stay."""
        self.sub_title = _("choose a variant")
        ol = self.query_one("#variants", OptionList)
        for index in range(ol.option_count):
            option = ol.get_option_at_index(index)
            prompt: VisualType = option.prompt
            if option.id:
                prompt = variant_line(registry().find(option.id))
            else:
                variant = self._group_variant(index)
                if variant is not None:
                    prompt = group_title(variant.group)
            ol.replace_option_prompt_at_index(index, prompt)
        if ol.highlighted is not None:
            self.show_variant(ol.options[ol.highlighted].id)
        self.query_one("#menu-hint", Static).update(_(MENU_HINT))

    def _group_variant(self, index: int) -> Variant | None:
        """The first variant under the group heading at ``index`` of the list."""
        ol = self.query_one("#variants", OptionList)
        for after in range(index + 1, ol.option_count):
            option_id = ol.get_option_at_index(after).id
            if option_id:
                return registry().find(option_id)
        return None

    def on_mount(self) -> None:
        self.title = _("shashki")
        self.sub_title = _("choose a variant")
        ol = self.query_one("#variants", OptionList)
        ol.focus()
        self._highlight_last_played()
        errors = user_file_problems()
        if errors:
            self.notify(
                _("Problems with your variant files:") + "\n" + "\n".join(errors),
                severity="warning",
                timeout=10,
                markup=False,
            )

    def on_screen_suspend(self) -> None:
        """A dialog over the menu: its hint ("Enter: a new game of the variant
        highlighted") is not true meanwhile, and is not shown; the footer shows the
        dialog's own keys."""
        self.query_one("#menu-hint", Static).display = False

    def on_screen_resume(self) -> None:
        self.query_one("#menu-hint", Static).display = True
        if self.shashki.controller is not self._game_seen:  # back from a game
            self._highlight_last_played()

    def _highlight_last_played(self) -> None:
        """The variant of the game open or last played (this time, else the last new
        game's, kept in the settings) highlighted; the first variant before any."""
        ol = self.query_one("#variants", OptionList)
        controller = self._game_seen = self.shashki.controller
        last = controller.variant.id if controller is not None else self.shashki.settings.variant
        index = next(
            (i for i, opt in enumerate(ol.options) if last and opt.id == last),
            next(i for i, opt in enumerate(ol.options) if not opt.disabled),
        )
        if ol.highlighted != index:
            ol.highlighted = index
        self.show_variant(ol.options[index].id)

    @on(OptionList.OptionHighlighted, "#variants")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_variant(event.option.id)

    @on(OptionList.OptionSelected, "#variants")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.app.push_screen(NewGameScreen(registry().find(event.option.id)))

    def show_variant(self, variant_id: str | None) -> None:
        """Show the rule card and the start position of the variant ``variant_id``."""
        if not variant_id:
            return
        v = registry().find(variant_id)
        extra = []
        others = other_names(v)
        if others:
            extra.append(_("Also called: {names}").format(names=", ".join(others)))
        if v.gametype:
            extra.append(_("PDN GameType {number}").format(number=v.gametype.split(",")[0]))
        # (a served app does not show a visitor where the owner's files are)
        if v.source and not v.source.startswith(str(registry_dir())) and not served():
            extra.append(_("From {path}").format(path=v.source))
        self.query_one("#picture", Static).update(mini_board(v))
        card = Text()
        card.append(v.local_name + "\n\n", style="bold underline")
        if v.summary:
            card.append(v.local(v.summary) + "\n\n", style="italic")
        # the card's paragraphs, each joined into one line that the widget wraps
        text = v.local(v.card)
        paragraphs = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
        card.append("\n\n".join(paragraphs))
        if extra:  # a user file's path may hold any character: control ones shown as symbols
            card.append(visible("\n\n" + "\n".join(extra)), style="dim")
        self.query_one("#card", Static).update(card)

    def action_choose(self) -> None:
        after_keys(self, self._choose)  # (the arrows typed before it moved the list first)

    def _choose(self) -> None:
        ol = self.query_one("#variants", OptionList)
        if ol.highlighted is not None:
            opt = ol.options[ol.highlighted]
            if opt.id:
                self.app.push_screen(NewGameScreen(registry().find(opt.id)))

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def action_open_file(self) -> None:
        self.shashki.open_game_dialog()

    def action_editor(self) -> None:
        """Set up a position of the variant highlighted (e)."""
        from .editor import EditorScreen

        ol = self.query_one("#variants", OptionList)
        if ol.highlighted is not None and ol.options[ol.highlighted].id:
            variant = registry().find(str(ol.options[ol.highlighted].id))
            self.app.push_screen(EditorScreen(variant))

    def action_unfinished(self) -> None:
        self.shashki.show_unfinished()

    def action_my_games(self) -> None:
        self.shashki.show_my_games()

    def action_puzzles(self) -> None:
        from .puzzles import PuzzleMenuScreen

        self.app.push_screen(PuzzleMenuScreen())

    def action_online(self) -> None:
        ol = self.query_one("#variants", OptionList)
        chosen = ol.options[ol.highlighted].id if ol.highlighted is not None else None
        self.shashki.online_menu(chosen)

    def action_help(self) -> None:
        from .dialogs import HelpScreen

        ol = self.query_one("#variants", OptionList)
        if ol.highlighted is not None and ol.options[ol.highlighted].id:
            self.app.push_screen(HelpScreen(registry().find(ol.options[ol.highlighted].id)))  # type: ignore[arg-type]

    def action_quit(self) -> None:
        self.app.exit()


#: The line above the menu's keys: how a game starts, and how to come back from one.
MENU_HINT = N_("Enter: a new game of the variant highlighted · in a game, n comes back here")


def group_title(group: str) -> Text:
    """A group's heading in the menu, in the language spoken now."""
    return Text(_(GROUP_TITLES[group]) if group in GROUP_TITLES else group.title(), style="bold")


class Indented(Padding):
    """A menu line indented under its group's heading, the lines a long name wraps to
    as well; it reads as its text (two spaces, then the name)."""

    def __init__(self, text: Text, columns: int = 2) -> None:
        super().__init__(text, (0, 0, 0, columns))
        self.text = text
        self.columns = columns

    def __str__(self) -> str:
        return " " * self.columns + self.text.plain


def variant_line(variant: Variant) -> Indented:
    """A variant's line in the menu: its name in the language spoken now (as text, never
    markup: a user's file may call it anything), indented under its group."""
    return Indented(Text(visible(variant.local_name)))


def registry_dir() -> str:
    from ..rules.variant_registry import builtin_variant_dir

    return str(builtin_variant_dir())


#: The start choice of a variant that draws its start: leave it to the lot.
LOT = "\x00lot"

#: The takeback policies the new-game dialog offers: (label, policy).
UNDO_CHOICES: list[tuple[str, str]] = [
    (N_("free"), "free"),
    (N_("ask the other player"), "ask"),
    (N_("off"), "off"),
]


def _choices(table: list[tuple[str, str]]) -> list[tuple[RenderableType, str]]:
    """A table of (message, value) choices in the language spoken now."""
    return [(_(label), value) for label, value in table]


def seat_width(kinds: list[tuple[str, str]]) -> int:
    """The width of the new-game dialog's seat choice: its longest label on one line
    ("Computer, level 1 (beginner)" in every language), in the box and in the list it
    opens (their borders, paddings, arrow and scroll bar), up to 50 columns."""
    return min(50, max(cell_len(label) for label, _key in kinds) + 9)


class NewGameScreen(Dialog[None]):
    """Names, sides, board options and the variant's own choices, then play."""

    BINDINGS = [
        Binding("escape", "cancel", N_("Back")),
        # from any field: the game as the fields stand (the focus starts on the first)
        Binding("f5", "play", N_("Play"), priority=True),
    ]
    #: The first field has the focus: Tab walks the fields in order down to Play.
    AUTO_FOCUS = "#name0"
    #: A terminal of fewer rows gets the one-line fields.
    SHORT = 34

    def action_play(self) -> None:
        # (the fields as the keys typed before F5 left them)
        after_keys(self, self.query_one("#play", Button).press)

    def __init__(self, variant: Variant) -> None:
        super().__init__()
        self.variant = variant
        self.lot_label: str | None = None
        self.lot_seed: int | None = None
        #: The names the name boxes were given (the sides', in the language spoken):
        #: a box still holding one is a name nobody typed, retranslated with the rest.
        self._offered = ["", ""]
        #: Why the clock typed cannot be read (shown under it), or None.
        self._clock_problem: str | None = None
        #: A Hub engine chosen without its command (said under the seats).
        self._engine_problem = False

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def _side(self, side: int) -> str:
        """A side's name in the language spoken now."""
        return self.variant.local_side(side)

    def _title(self) -> Text:
        return Text(
            _("New game: {name}").format(name=visible(self.variant.local_name)), style="bold"
        )

    def _start_label(self) -> str:
        v = self.variant
        if v.start_by_lot:
            return _("Start:")
        return _("{choice}:").format(
            choice=v.local(v.start_choice) if v.start_choice else _("Start")
        )

    def _start_choices(self) -> list[tuple[RenderableType, str]]:
        v = self.variant
        options: list[tuple[RenderableType, str]] = [
            (literal(v.local(label)), label) for label, _fen in v.start_options
        ]
        if v.start_by_lot:
            options.insert(0, (Text(_("by lot")), LOT))
        return options

    def _lot_text(self) -> Content | str:
        """The line under the start choice of a variant that draws it by lot."""
        v = self.variant
        if self.lot_label is None:
            choice = v.local(v.start_choice) if v.start_choice else _("First move")
            return _("{choice}: press 'Draw lots'").format(choice=choice)
        label = v.local(self.lot_label)
        if self.lot_seed is None:
            return marked(_("Chosen: [b]$label[/b] moves first."), label=label)
        return marked(
            _("The lot is drawn: [b]$label[/b] moves first (seed $seed)."),
            label=label,
            seed=str(self.lot_seed),
        )

    def compose(self) -> ComposeResult:
        v = self.variant
        settings = self.shashki.settings
        from .players import player_kinds

        kinds = player_kinds(engines=settings.engine_list)
        with Vertical(id="new-game"):
            with VerticalScroll(id="fields"):
                yield Label(self._title(), id="new-title")
                for side in (0, 1):
                    with Horizontal(classes="row"):
                        yield Label(literal(f"{self._side(side)}:"), id=f"side{side}")
                        name = settings.names[side]
                        if not name or _a_side_name(name):  # typed by nobody: this side's own
                            name = v.side_names[side]
                        if name == v.side_names[side]:  # the side's own name, in the language
                            name = self._offered[side] = self._side(side)
                        yield Input(value=name, id=f"name{side}")
                        yield Select(kinds, value=kinds[0][1], allow_blank=False, id=f"kind{side}")
                    # the command of a Hub engine, shown when that kind is chosen
                    with Horizontal(classes="row -hidden", id=f"engine-row{side}"):
                        yield Label(_("Command:"), id=f"engine-label{side}")
                        yield Input(
                            # (a visitor of a served app neither sees nor runs the owner's)
                            value="" if served() else settings.engine_command,
                            placeholder=_("e.g. dame hub or dxp:127.0.0.1:27531"),
                            id=f"engine{side}",
                        )
                yield Plain(id="engine-problem", classes="-hidden")
                if v.start_options or v.start_by_lot:
                    default = LOT
                    if not v.start_by_lot:
                        default = next(
                            (label for label, fen in v.start_options if fen == v.start),
                            v.start_options[0][0],
                        )
                    # (a variant that draws its start by lot: the players may still agree on one)
                    with Horizontal(classes="row"):
                        yield Label(literal(self._start_label()), id="start-label")
                        yield Select(
                            self._start_choices(), value=default, allow_blank=False, id="start"
                        )
                if v.start_by_lot:
                    yield Plain(self._lot_text(), id="lot")
                with Horizontal(classes="row"):
                    yield Label(_("Takebacks:"), id="undo-label")
                    yield Select(
                        _choices(UNDO_CHOICES),
                        value=settings.undo_policy,
                        allow_blank=False,
                        id="undo",
                    )
                custom = settings.clock not in {value for _, value in CLOCK_CHOICES}
                with Horizontal(classes="row"):
                    yield Label(_("Clock:"), id="clock-label")
                    yield Select(
                        _choices(CLOCK_CHOICES),
                        value="custom" if custom else settings.clock,
                        allow_blank=False,
                        id="clock",
                    )
                    yield Input(
                        value=settings.clock if custom else "",
                        placeholder=_("minutes+seconds, e.g. 7+5"),
                        id="clock-custom",
                        classes="" if custom else "-hidden",
                    )
                yield Plain(id="clock-problem", classes="-hidden")
                yield Checkbox(
                    _("Turn the board after every move (hot-seat)"),
                    settings.autoflip,
                    id="autoflip",
                )
                yield Checkbox(_("Show the board from the other side"), False, id="flip")
            # Play and Back below the fields, never over them: the fields scroll above
            with Horizontal(id="buttons"):
                if v.start_by_lot:
                    yield Button(_("Draw lots"), id="draw-lots")
                yield Button(_("Play"), id="play", variant="primary")
                yield Button(_("Back"), id="back")

    def retranslate(self) -> None:
        """Every word in the language spoken now; what was typed and chosen stays (a
        name box still holding the side's name gets it in the new language)."""
        from .players import player_kinds

        kinds = player_kinds(engines=self.shashki.settings.engine_list)
        self.query_one("#new-title", Label).update(self._title())
        for side in (0, 1):
            self.query_one(f"#side{side}", Label).update(literal(f"{self._side(side)}:"))
            box = self.query_one(f"#name{side}", Input)
            if self._offered[side] and box.value == self._offered[side]:
                box.value = self._offered[side] = self._side(side)
            seat = self.query_one(f"#kind{side}", Select)
            relabel_select(seat, kinds)
            self.query_one(f"#engine-label{side}", Label).update(_("Command:"))
            self.query_one(f"#engine{side}", Input).placeholder = _("e.g. dame hub")
        if self._engine_problem:
            self._show_engine_problem()
        if self.variant.start_options or self.variant.start_by_lot:
            self.query_one("#start-label", Label).update(literal(self._start_label()))
            relabel_select(self.query_one("#start", Select), self._start_choices())
        if self.variant.start_by_lot:
            self.query_one("#lot", Static).update(self._lot_text())
        self.query_one("#undo-label", Label).update(_("Takebacks:"))
        relabel_select(self.query_one("#undo", Select), _choices(UNDO_CHOICES))
        self.query_one("#clock-label", Label).update(_("Clock:"))
        relabel_select(self.query_one("#clock", Select), _choices(CLOCK_CHOICES))
        self.query_one("#clock-custom", Input).placeholder = _("minutes+seconds, e.g. 7+5")
        if self._clock_problem is not None:
            self._show_clock_problem(self._clock_problem)
        self.query_one("#autoflip", Checkbox).label = _(
            "Turn the board after every move (hot-seat)"
        )
        self.query_one("#flip", Checkbox).label = _("Show the board from the other side")
        relabel_button(self, "#draw-lots", _("Draw lots"))
        relabel_button(self, "#play", _("Play"))
        relabel_button(self, "#back", _("Back"))
        self._fit()

    def _show_clock_problem(self, problem: str) -> None:
        self._clock_problem = problem
        box = self.query_one("#clock-problem", Static)
        box.update(_("Clock: {problem}.").format(problem=problem))
        box.set_class(False, "-hidden")

    def on_mount(self) -> None:
        self._fit()
        self.query_one("#name0", Input).focus()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Under :data:`SHORT` rows, every field one line high (Textual's compact
        widgets): at 80x24 the board's check boxes are in view with Play and Back."""
        short = self.app.size.height < self.SHORT
        self.set_class(short, "-short")
        for box in self.query(Input):
            box.compact = short
        for choice in self.query(Select):
            choice.compact = short
        for tick in self.query(Checkbox):
            tick.compact = short
        for button in self.query(Button):
            button.compact = short
        # the seat choices as wide as their longest label, as far as the row has room
        # beside the label and a name box of 12 (at 60 columns they are cut, with "…")
        from .players import player_kinds

        inner = min(90, self.app.size.width * 98 // 100) - 6  # (border and padding)
        kinds = player_kinds(engines=self.shashki.settings.engine_list)
        width = max(12, min(seat_width(kinds), inner - 16 - 12))
        for side in (0, 1):
            self.query_one(f"#kind{side}", Select).styles.width = width

    @on(Button.Pressed, "#draw-lots")
    def _draw_lots(self) -> None:
        if self.variant.start_by_lot:
            self.query_one("#start", Select).value = LOT
        self.lot_seed = random.SystemRandom().randrange(1 << 30)
        self.lot_label = random.Random(self.lot_seed).choice(self.variant.start_options)[0]
        self.query_one("#lot", Static).update(self._lot_text())

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Select.Changed, "#start")
    def _start_chosen(self, event: Select.Changed) -> None:
        if not self.variant.start_by_lot or event.value == LOT:
            return
        # a start agreed on: no lot
        self.lot_label, self.lot_seed = str(event.value), None
        self.query_one("#lot", Static).update(self._lot_text())

    @on(Select.Changed, "#kind0, #kind1")
    def _kind_chosen(self, event: Select.Changed) -> None:
        from .players import OTHER_ENGINE

        side = 0 if event.select.id == "kind0" else 1
        other = event.value == OTHER_ENGINE
        self.query_one(f"#engine-row{side}").set_class(not other, "-hidden")
        if other:
            self.query_one(f"#engine{side}", Input).focus()
        if self._engine_problem:
            self._engine_problem = False
            self.query_one("#engine-problem", Static).set_class(True, "-hidden")

    def _show_engine_problem(self) -> None:
        self._engine_problem = True
        box = self.query_one("#engine-problem", Static)
        box.update(
            _(
                "Type the command that starts the Hub engine, e.g. dame hub, or "
                "dxp:HOST:PORT for a DXP engine listening there."
            )
        )
        box.set_class(False, "-hidden")

    @on(Select.Changed, "#clock")
    def _clock_chosen(self, event: Select.Changed) -> None:
        box = self.query_one("#clock-custom", Input)
        box.set_class(event.value != "custom", "-hidden")
        self.query_one("#clock-problem", Static).set_class(True, "-hidden")
        self._clock_problem = None
        if event.value == "custom":
            box.focus()

    def chosen_clock(self) -> tuple[str, TimeControl | None]:
        """The clock chosen (its words for the settings, and the control; None: no clock).
        Raises BadTimeControl for a custom clock that cannot be read."""
        from ..records.clocks import TimeControl

        value = str(self.query_one("#clock", Select).value)
        if value == "custom":
            value = self.query_one("#clock-custom", Input).value.strip()
        if not value:
            return "", None
        control = TimeControl.parse(value)
        return control.label(), control

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        """Enter in a text field goes on to the next field (Play starts the game)."""
        event.stop()
        self.focus_next()

    @on(Button.Pressed, "#play")
    def _play(self) -> None:
        if not self.is_active:
            return  # pressed, then another screen opened above before it was handled
        v = self.variant
        if v.start_by_lot and self.query_one("#start", Select).value == LOT:
            if self.lot_seed is None:
                self._draw_lots()
        # a side's own name (as offered, in the language spoken) is kept in English: the
        # saved games and settings name the sides as the variant file does
        typed = [self.query_one(f"#name{s}", Input).value.strip() for s in (0, 1)]
        names = tuple(
            v.side_names[s] if not typed[s] or typed[s] == self._side(s) else typed[s]
            for s in (0, 1)
        )
        from ..session.seats import PERSON
        from .players import OTHER_ENGINE, seat

        kinds = [str(self.query_one(f"#kind{s}", Select).value) for s in (0, 1)]
        command = ""
        for s in (0, 1):
            if kinds[s] == OTHER_ENGINE and served():  # (never offered there)
                kinds[s] = "human"
            if kinds[s] == OTHER_ENGINE:
                box = self.query_one(f"#engine{s}", Input)
                command = " ".join(box.value.split())
                dxp = command.lower().startswith("dxp:")
                if not command or (dxp and parse_seat(command) is None):
                    self._show_engine_problem()
                    box.focus()
                    return
                kinds[s] = f"dxp:{command[4:].strip()}" if dxp else f"hub:{command}"
        start = None
        if v.start_options and not v.start_by_lot:
            start = str(self.query_one("#start", Select).value)
        from ..records.clocks import BadTimeControl

        try:
            clock_words, clock = self.chosen_clock()
        except BadTimeControl as exc:
            self._show_clock_problem(str(exc))
            self.query_one("#clock-custom", Input).focus()
            return
        settings = self.shashki.settings
        settings.clock = clock_words
        settings.variant = v.id
        if command:
            settings.engine_command = command
        # a side's own name is typed by nobody: the next game (another variant, another
        # language) offers its own sides' names, not "South" and "North"
        settings.names = ["" if names[s] == v.side_names[s] else names[s] for s in (0, 1)]
        settings.undo_policy = str(self.query_one("#undo", Select).value)
        settings.autoflip = self.query_one("#autoflip", Checkbox).value
        self.shashki.save_settings()
        flip = self.query_one("#flip", Checkbox).value
        self.dismiss(None)
        if "online" in kinds:  # a friend online: this side hosts
            self.shashki.host_from_dialog(v.id, names, (kinds[0], kinds[1]), clock)  # type: ignore[arg-type]
            return
        # the dialog's words are parsed once, here (a command typed in a served app, or
        # an engine gone from the settings since the dialog opened, seats a person)
        engines = settings.engine_list
        seats = tuple(seat(kinds[s], engines=engines) or PERSON for s in (0, 1))
        self.shashki.start_game(
            v,
            names=names,  # type: ignore[arg-type]
            kinds=(seats[0], seats[1]),
            start=start if start is not None else self.lot_label,
            seed=self.lot_seed,
            flip=flip,
            clock=clock,
        )


__all__ = ["MenuScreen", "NewGameScreen", "mini_board"]
