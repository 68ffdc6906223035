"""The variant menu (with each variant's rule card and start position) and the new-game
dialog."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    Header,
    Input,
    Label,
    OptionList,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from ..i18n import N_, _, local_name
from ..rules import Game
from ..rules.variant import Variant
from ..rules.variant_registry import all_variants, registry
from .plain import Plain, literal, marked, visible
from .widgets import Dialog, LocalFooter, PagedOptionList

if TYPE_CHECKING:
    from ..records.clocks import TimeControl
    from .app import ShashkiApp

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
        return Text("(no picture)")
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


class MenuScreen(Screen[None]):
    """Choose a variant; its rule card and start position are shown beside the list."""

    BINDINGS = [
        # a priority binding, so that the footer shows it over the list's own Enter
        Binding("enter", "choose", N_("New game"), key_display="⏎", priority=True),
        Binding("o", "open_file", N_("Open game")),
        Binding("u", "unfinished", N_("Unfinished games")),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q,escape", "quit", N_("Quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._ids: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="menu"):
            options: list[Option | None] = []
            group = None
            for v in all_variants():
                if v.group != group:
                    group = v.group
                    if options:
                        options.append(None)
                    options.append(
                        Option(
                            Text(
                                _(GROUP_TITLES[group]) if group in GROUP_TITLES else group.title(),
                                style="bold",
                            ),
                            disabled=True,
                        )
                    )
                    self._ids.append(None)
                name = local_name(v.name, v.names)
                options.append(Option(Text(f"  {name}"), id=v.id))  # as text, not markup
                self._ids.append(v.id)
            yield PagedOptionList(*options, id="variants")
            with VerticalScroll(id="card-area"):
                yield Static(id="picture")
                yield Static(id="card")
        yield Static(_(MENU_HINT), id="menu-hint")
        yield LocalFooter()

    def on_mount(self) -> None:
        self.title = "shashki"
        self.sub_title = "choose a variant"
        ol = self.query_one("#variants", OptionList)
        ol.focus()
        first = next(i for i, opt in enumerate(ol.options) if not opt.disabled)
        ol.highlighted = first
        self._show(ol.options[first].id)
        errors = registry().errors
        if errors:
            self.notify(
                "Problems with your variant files:\n" + "\n".join(errors),
                severity="warning",
                timeout=10,
                markup=False,
            )

    @on(OptionList.OptionHighlighted, "#variants")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option.id)

    @on(OptionList.OptionSelected, "#variants")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.app.push_screen(NewGameScreen(registry().find(event.option.id)))

    def _show(self, variant_id: str | None) -> None:
        if not variant_id:
            return
        v = registry().find(variant_id)
        extra = []
        if v.aliases:
            extra.append("Also called: " + ", ".join(v.aliases))
        if v.gametype:
            extra.append(f"PDN GameType {v.gametype.split(',')[0]}")
        if v.source and not v.source.startswith(str(registry_dir())):
            extra.append(f"From {v.source}")
        self.query_one("#picture", Static).update(mini_board(v))
        card = Text()
        card.append(local_name(v.name, v.names) + "\n\n", style="bold underline")
        if v.summary:
            card.append(v.summary + "\n\n", style="italic")
        # the card's paragraphs, each joined into one line that the widget wraps
        paragraphs = [" ".join(p.split()) for p in v.card.split("\n\n") if p.strip()]
        card.append("\n\n".join(paragraphs))
        if extra:  # a user file's path may hold any character: control ones shown as symbols
            card.append(visible("\n\n" + "\n".join(extra)), style="dim")
        self.query_one("#card", Static).update(card)

    def action_choose(self) -> None:
        ol = self.query_one("#variants", OptionList)
        if ol.highlighted is not None:
            opt = ol.options[ol.highlighted]
            if opt.id:
                self.app.push_screen(NewGameScreen(registry().find(opt.id)))

    def action_open_file(self) -> None:
        self.app.open_game_dialog()  # type: ignore[attr-defined]

    def action_unfinished(self) -> None:
        self.app.show_unfinished()  # type: ignore[attr-defined]

    def action_help(self) -> None:
        from .dialogs import HelpScreen

        ol = self.query_one("#variants", OptionList)
        if ol.highlighted is not None and ol.options[ol.highlighted].id:
            self.app.push_screen(HelpScreen(registry().find(ol.options[ol.highlighted].id)))  # type: ignore[arg-type]

    def action_quit(self) -> None:
        self.app.exit()


#: The line above the menu's keys: how a game starts, and how to come back from one.
MENU_HINT = N_("Enter: a new game of the variant highlighted · in a game, n comes back here")


def registry_dir() -> str:
    from ..rules.variant_registry import builtin_variant_dir

    return str(builtin_variant_dir())


#: The start choice of a variant that draws its start: leave it to the lot.
LOT = "\x00lot"

#: The clocks the new-game dialog offers: (label, minutes+seconds); "" is no clock.
CLOCK_CHOICES: list[tuple[str, str]] = [
    ("none", ""),
    ("1+0 (bullet)", "1+0"),
    ("3+2 (blitz)", "3+2"),
    ("5+3 (blitz)", "5+3"),
    ("10+5 (rapid)", "10+5"),
    ("15+10 (rapid)", "15+10"),
    ("custom…", "custom"),
]


class NewGameScreen(Dialog[None]):
    """Names, sides, board options and the variant's own choices, then play."""

    BINDINGS = [Binding("escape", "cancel", "Back")]
    AUTO_FOCUS = "#play"

    def __init__(self, variant: Variant) -> None:
        super().__init__()
        self.variant = variant
        self.lot_label: str | None = None
        self.lot_seed: int | None = None

    @property
    def shashki(self) -> ShashkiApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        v = self.variant
        settings = self.shashki.settings
        from .players import player_kinds

        kinds = player_kinds()
        with VerticalScroll():
            yield Label(marked("[b]New game: $name[/b]", name=v.name))
            for side in (0, 1):
                with Horizontal(classes="row"):
                    yield Label(literal(f"{v.side_names[side]}:"))
                    yield Input(value=settings.names[side] or v.side_names[side], id=f"name{side}")
                    yield Select(kinds, value=kinds[0][1], allow_blank=False, id=f"kind{side}")
            if v.start_options and not v.start_by_lot:
                default = next(
                    (label for label, fen in v.start_options if fen == v.start),
                    v.start_options[0][0],
                )
                with Horizontal(classes="row"):
                    yield Label(literal(f"{v.start_choice or 'Start'}:"))
                    yield Select(
                        [(Text(label), label) for label, _ in v.start_options],
                        value=default,
                        allow_blank=False,
                        id="start",
                    )
            if v.start_by_lot:
                # the rule draws the start by lot; the players may still agree on one
                with Horizontal(classes="row"):
                    yield Label("Start:")
                    yield Select(
                        [(Text("by lot"), LOT)]
                        + [(Text(label), label) for label, _ in v.start_options],
                        value=LOT,
                        allow_blank=False,
                        id="start",
                    )
                yield Plain(f"{v.start_choice or 'First move'}: press 'Draw lots'", id="lot")
            with Horizontal(classes="row"):
                yield Label("Takebacks:")
                yield Select(
                    [("free", "free"), ("ask the other player", "ask"), ("off", "off")],
                    value=settings.undo_policy,
                    allow_blank=False,
                    id="undo",
                )
            custom = settings.clock not in {value for _, value in CLOCK_CHOICES}
            with Horizontal(classes="row"):
                yield Label("Clock:")
                yield Select(
                    CLOCK_CHOICES,
                    value="custom" if custom else settings.clock,
                    allow_blank=False,
                    id="clock",
                )
                yield Input(
                    value=settings.clock if custom else "",
                    placeholder="minutes+seconds, e.g. 7+5",
                    id="clock-custom",
                    classes="" if custom else "-hidden",
                )
            yield Plain(id="clock-problem", classes="-hidden")
            yield Checkbox(
                "Turn the board after every move (hot-seat)", settings.autoflip, id="autoflip"
            )
            yield Checkbox("Show the board from the other side", False, id="flip")
            with Horizontal(id="buttons"):
                if v.start_by_lot:
                    yield Button("Draw lots", id="draw-lots")
                yield Button("Play", id="play", variant="primary")
                yield Button("Back", id="back")

    def on_mount(self) -> None:
        self.query_one("#play", Button).focus()

    @on(Button.Pressed, "#draw-lots")
    def _draw_lots(self) -> None:
        if self.variant.start_by_lot:
            self.query_one("#start", Select).value = LOT
        self.lot_seed = random.SystemRandom().randrange(1 << 30)
        self.lot_label = random.Random(self.lot_seed).choice(self.variant.start_options)[0]
        self.query_one("#lot", Static).update(
            marked(
                "The lot is drawn: [b]$label[/b] moves first (seed $seed).",
                label=self.lot_label,
                seed=str(self.lot_seed),
            )
        )

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Select.Changed, "#start")
    def _start_chosen(self, event: Select.Changed) -> None:
        if not self.variant.start_by_lot or event.value == LOT:
            return
        # a start agreed on: no lot
        self.lot_label, self.lot_seed = str(event.value), None
        self.query_one("#lot", Static).update(
            marked("Chosen: [b]$label[/b] moves first.", label=self.lot_label)
        )

    @on(Select.Changed, "#clock")
    def _clock_chosen(self, event: Select.Changed) -> None:
        box = self.query_one("#clock-custom", Input)
        box.set_class(event.value != "custom", "-hidden")
        self.query_one("#clock-problem", Static).set_class(True, "-hidden")
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
        names = tuple(
            self.query_one(f"#name{s}", Input).value.strip() or v.side_names[s] for s in (0, 1)
        )
        kinds = tuple(str(self.query_one(f"#kind{s}", Select).value) for s in (0, 1))
        start = None
        if v.start_options and not v.start_by_lot:
            start = str(self.query_one("#start", Select).value)
        from ..records.clocks import BadTimeControl

        try:
            clock_words, clock = self.chosen_clock()
        except BadTimeControl as exc:
            problem = self.query_one("#clock-problem", Static)
            problem.update(f"Clock: {exc}.")
            problem.set_class(False, "-hidden")
            self.query_one("#clock-custom", Input).focus()
            return
        settings = self.shashki.settings
        settings.clock = clock_words
        settings.names = [names[0], names[1]]
        settings.undo_policy = str(self.query_one("#undo", Select).value)
        settings.autoflip = self.query_one("#autoflip", Checkbox).value
        self.shashki.save_settings()
        flip = self.query_one("#flip", Checkbox).value
        self.dismiss(None)
        self.shashki.start_game(
            v,
            names=names,  # type: ignore[arg-type]
            kinds=kinds,  # type: ignore[arg-type]
            start=start if start is not None else self.lot_label,
            seed=self.lot_seed,
            flip=flip,
            clock=clock,
        )


__all__ = ["MenuScreen", "NewGameScreen", "mini_board"]
