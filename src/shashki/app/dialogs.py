"""Modal dialogs: yes/no questions, the end of a game, help, file names."""

from __future__ import annotations

import re
from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Static

from ..i18n import N_, _
from ..rules.move import Move
from ..rules.variant import Variant
from .plain import Plain
from .widgets import Button, CoversGame, Dialog, relabel_button

#: A text a dialog shows: an English message (translated when shown, its ``{names}``
#: filled from the dialog's values), or a function that says it in the language spoken.
Words = str | Callable[[], str]


def say(words: Words, values: dict[str, object] | None = None) -> str:
    """``words`` in the language spoken now."""
    if callable(words):
        return words()
    text = _(words)
    return text.format(**values) if values else text


class ConfirmScreen(Dialog[bool]):
    """A yes/no question, answered with y/n, Enter/Esc or the buttons."""

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: Words, **values: object) -> None:
        """``question``: an English message (its ``{names}`` filled from ``values``,
        which are shown as they are) or a function saying it in the language spoken."""
        super().__init__()
        self.words = question
        self.values = values

    @property
    def question(self) -> str:
        """The question, in the language spoken now."""
        return say(self.words, self.values)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self.question, id="question")
            with Horizontal():
                yield Button(_("Yes (y)"), id="yes", variant="primary")
                yield Button(_("No (n)"), id="no")

    def retranslate(self) -> None:
        self.query_one("#question", Plain).update(self.question)
        relabel_button(self, "#yes", _("Yes (y)"))
        relabel_button(self, "#no", _("No (n)"))

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class LeaveScreen(Dialog[str | None]):
    """Leaving a game in progress: keep it to go on later (k), abandon it for good (a:
    My games keeps it as abandoned, nothing piles up to resume), or stay (Esc)."""

    BINDINGS = [
        Binding("k,y", "choose('keep')", N_("Keep it for later")),
        Binding("a", "choose('abandon')", N_("Abandon it")),
        Binding("escape,n", "choose(None)", N_("Cancel")),
    ]

    #: The buttons: id, label.
    BUTTONS = (
        ("keep", N_("Keep (k)")),
        ("abandon", N_("Abandon (a)")),
        ("cancel", N_("Cancel (Esc)")),
    )

    def __init__(self, question: Words) -> None:
        """``question``: the question, what keeping and abandoning mean said with it (a
        function saying it in the language spoken now, or a message of the catalogs)."""
        super().__init__()
        self.words = question

    @property
    def question(self) -> str:
        return say(self.words)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self.question, id="question")
            with Horizontal():
                for key, label in self.BUTTONS:
                    yield Button(
                        _(label), id=key, variant="primary" if key == "keep" else "default"
                    )

    def retranslate(self) -> None:
        self.query_one("#question", Plain).update(self.question)
        for key, label in self.BUTTONS:
            relabel_button(self, f"#{key}", _(label))

    def on_mount(self) -> None:
        self.query_one("#keep", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        self.dismiss(choice if choice in ("keep", "abandon") else None)

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)


class GameOverScreen(Dialog[str]):
    """The end of the game and the rule that ended it."""

    BINDINGS = [
        Binding("n", "choose('new')", N_("New game")),
        Binding("r", "choose('review')", N_("Review")),
        Binding("u", "choose('undo')", N_("Undo")),
        Binding("q", "choose('quit')", N_("Quit")),
        Binding("escape,enter", "choose('stay')", N_("Look at the board")),
    ]

    #: The buttons: id, label.
    BUTTONS = (
        ("new", N_("New game (n)")),
        ("review", N_("Review (r)")),
        ("undo", N_("Undo (u)")),
        ("stay", N_("Board (Esc)")),
        ("quit", N_("Quit (q)")),
    )

    def __init__(self, text: Words, can_undo: bool) -> None:
        """``text``: why the game ended (a function that says it in the language spoken
        now, or a text, translated if it is a message of the catalogs)."""
        super().__init__()
        self.words = text
        self.can_undo = can_undo

    @property
    def text(self) -> str:
        return say(self.words)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Game over"), id="title")
            yield Plain(self.text, id="result")
            with Horizontal():
                for key, label in self.BUTTONS:
                    if key != "undo" or self.can_undo:
                        yield Button(
                            _(label), id=key, variant="primary" if key == "new" else "default"
                        )

    def retranslate(self) -> None:
        self.query_one("#title", Static).update(_("Game over"))
        self.query_one("#result", Plain).update(self.text)
        for key, label in self.BUTTONS:
            relabel_button(self, f"#{key}", _(label))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        if choice == "undo" and not self.can_undo:
            return
        self.dismiss(choice)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers only what works: no "u Undo" when the game cannot be taken
        back (lost on time, takebacks off)."""
        if action == "choose" and parameters == ("undo",):
            return self.can_undo
        return True


class TextPrompt(Dialog[str | None]):
    """Ask for one line of text (a file name)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: Words, value: str = "", **values: object) -> None:
        """``question`` as :class:`ConfirmScreen`'s; ``value`` the text offered."""
        super().__init__()
        self.words = question
        self.values = values
        self.value = value

    @property
    def question(self) -> str:
        return say(self.words, self.values)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self.question, id="question")
            yield Input(value=self.value, id="text")

    def retranslate(self) -> None:
        """The question in the new language; what was typed stays."""
        self.query_one("#question", Plain).update(self.question)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


#: The game's keys (as written on the keyboard, never translated; the words among them,
#: "arrows", "mouse", are messages) and what each does (a message).
KEYS_HELP: tuple[tuple[str, str], ...] = (
    (
        N_("arrows, `h j k l`"),
        N_("move the cursor up, down, left or right to the nearest playable square"),
    ),
    (
        "`Home` `PgUp` `End` `PgDn`",
        N_("move the cursor one square diagonally: up-left, up-right, down-left, down-right"),
    ),
    ("`Enter`, `Space`", N_("pick a piece, then its destination")),
    (N_("mouse"), N_("a click does the same")),
    (
        "`Tab` / `Shift+Tab`",
        N_("next capture route (when choosing one) or next piece that can move"),
    ),
    ("`Esc`", N_("cancel the selection")),
    ("`:`", N_("type a move in the variant's notation")),
    ("`#`", N_("numbers on every square, the pieces' squares too (on or off)")),
    ("`u` / `r`", N_("undo / redo")),
    ("`f` / `a`", N_("flip the board / turn it after every move (hot-seat)")),
    ("`i`", N_("hint: the computer's suggestion for the player to move")),
    (
        "`[` / `]`",
        N_("look at earlier positions without undoing (`Esc`: back); also a move-list row"),
    ),
    ("`e`", N_("analysis on/off: the engine's score (in men, White's), a bar and its best line")),
    (
        "`x`",
        N_(
            "opening explorer on/off: the moves played here in the games of the index "
            "(`shashki explore build`) and My games; Enter plays one, `/` filters by player "
            "and years"
        ),
    ),
    ("`y` / `Y`", N_("copy the position's FEN / the game's PDN to the clipboard")),
    ("`d`", N_("offer a draw (or accept one)")),
    ("`R`", N_("resign")),
    ("`P`", N_("pause both clocks, and run them again (the help and the settings pause them too)")),
    ("`s`", N_("save the game as PDN")),
    ("`c` / `t` / `p`", N_("coordinates / board theme / piece set (ASCII)")),
    ("`n` / `q`", N_("back to the menu (a new game) / quit")),
    ("`Ctrl+P`", N_("every command")),
)


#: The replay viewer's keys and what each does.
REPLAY_KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("`→` / `←`", N_("next / previous move (captures shown jump by jump)")),
    ("`Home` / `End`", N_("start / end of the line")),
    ("`Enter`", N_("in the move list (or a click): jump to that move")),
    ("`Space`", N_("auto-play on and off; `+` / `-` faster / slower")),
    ("`v`", N_("enter a variation (or the next one)")),
    ("`Backspace`", N_("leave the variation, back to where it branched")),
    ("`t`", N_("take over: a live game from this position")),
    ("`f`", N_("flip the board")),
    ("`e`", N_("analysis on/off: the engine's score, a bar and its best line")),
    (
        "`x`",
        N_(
            "opening explorer on/off: the moves played here in other games; Enter goes "
            "to one this record has, `/` filters by player and years"
        ),
    ),
    ("`y`", N_("copy the shown position's FEN to the clipboard")),
    (
        N_("`:`, mouse"),
        N_(
            "play a move from the position shown: the record's own is followed, another "
            "one starts a variation"
        ),
    ),
    ("`c`", N_("write or edit the comment on the move shown")),
    ("`m`, `!`", N_("mark the move: ! ? !! ?? !? ?! (`m` chooses, `!` marks it good)")),
    ("`p` / `M`", N_("promote the variation shown / make it the main line")),
    ("`Delete`", N_("delete the variation shown")),
    ("`u` / `Ctrl+Y`", N_("take the last edit of the study back / make it again")),
    ("`s`", N_("save the study (every variation and comment) as PDN")),
    ("`r` / `L`", N_("review the game / learn from your mistakes (your own games)")),
    ("`b`", N_("set up the position shown on the board editor")),
    ("`Esc`", N_("back to the list of games")),
)


#: The board editor's keys and what each does.
EDITOR_KEYS_HELP: tuple[tuple[str, str], ...] = (
    (N_("arrows, `h j k l`"), N_("move the cursor")),
    ("`Home` `PgUp` `End` `PgDn`", N_("move the cursor one square diagonally")),
    (
        "`w` `b` `W` `B` `n` `N`",
        N_(
            "put a man or a king of a side (`n` `N`: a piece without colour) on the cursor's "
            "square; in a game of columns, on top of its column"
        ),
    ),
    (
        N_("`Enter`, `Space`, mouse"),
        N_(
            "put the piece chosen in the list (`Tab`: the next one); the same piece again "
            "takes it off"
        ),
    ),
    ("`x`, `Delete`", N_("take the piece off (the top of a column)")),
    ("`t`", N_("the side to move")),
    ("`c` / `i`", N_("an empty board / the start position")),
    ("`p` / `m`", N_("play the position: two people / against the computer")),
    ("`e`", N_("analysis on/off")),
    ("`y` / `s`", N_("copy the FEN / save the position as a PDN record")),
    ("`Esc`", N_("back")),
)


def keys_table(keys: tuple[tuple[str, str], ...]) -> str:
    """A Markdown table of ``keys``, its words in the language spoken now."""
    rows = [f"| {_('Key')} | {_('Action')} |", "|---|---|"]
    rows += [f"| {_(key)} | {_(action)} |" for key, action in keys]
    return "\n".join(rows) + "\n"


def example_moves(variant: Variant) -> tuple[str, str]:
    """A move and a capture written as the variant writes them, for examples: the move is
    a legal first move of the variant (the usual opening, c3-d4 or 32-28, where it is
    one; else one from the mover's right side), the capture goes on the same way ("" in
    a game without captures, or when no first move is a quiet one)."""
    from ..rules import Game, ShashkiError
    from ..rules.fen import square_text

    game = Game(variant)
    legal = game.legal_moves()
    if not legal:
        return ("32-28" if variant.numeric else "c3-d4"), ""
    # the first moves are captures (Artamonov's): one of them, and no capture beyond
    quiet = [m for m in legal if not m.captured] or legal
    geo = variant.board
    captures = bool(variant.rules.man_captures or variant.rules.king_captures)
    captures = captures and not quiet[0].captured

    def jump(m: Move) -> int | None:
        """The square a capture from the move's start, the same way, would land on."""
        f = 2 * geo.file_of[m.end] - geo.file_of[m.start]
        r = 2 * geo.rank_of[m.end] - geo.rank_of[m.start]
        ok = captures and 0 <= f < geo.width and 0 <= r < geo.height and geo.playable(f, r)
        return geo.at(f, r) if ok else None

    right = 1 if game.turn == 0 else -1  # White looks up the board, Black down
    try:
        usual: Move | None = game.parse_move("32-28" if variant.numeric else "c3-d4")
    except ShashkiError:
        usual = None
    if usual not in quiet:
        usual = max(
            quiet,
            key=lambda m: (
                jump(m) is not None,
                right * geo.file_of[m.start],
                right * geo.file_of[m.end],
            ),
        )
    assert usual is not None
    landing = jump(usual)
    capture = ""
    if landing is not None:
        capture = square_text(variant, usual.start) + variant.capture_mark
        capture += square_text(variant, landing)
    return game.move_text(usual), capture


class HelpScreen(CoversGame, Dialog[None]):
    """Keys, the rule card and the notation of the variant in play."""

    BINDINGS = [Binding("escape,q,question_mark", "close", N_("Close"))]

    def __init__(
        self,
        variant: Variant,
        *,
        replay: bool = False,
        keys: tuple[tuple[str, str], ...] | None = None,
    ) -> None:
        """``keys``: the screen's keys (else the game's, or the replay's)."""
        super().__init__()
        self.variant = variant
        self.replay = replay
        self.keys = keys

    def _texts(self) -> tuple[str, str, str]:
        """The variant's name, its card and the help's Markdown, in the language spoken."""
        v = self.variant
        x = v.capture_mark
        move, capture = example_moves(v)
        example = f"{move}, {capture}" if capture else move
        ends = re.split(r"[^0-9a-z]+", move)
        glued, apart = "".join(ends), " ".join(ends)
        marks = "`-`" if x == "-" else _("`-` or `{mark}`").format(mark=x)  # Thai: "-" too
        notation = _(
            "Moves are written {example}: the start square, {marks}, the end square; every "
            "landing square when two captures share both ends. When typing, `x` and `:` both "
            "work, squares may run together or stand apart (`{glued}`, `{apart}`), and the two "
            "ends, or the landing square alone, are enough when only one move fits."
        ).format(example=example, marks=marks, glued=glued, apart=apart)
        keys = keys_table(self.keys or (REPLAY_KEYS_HELP if self.replay else KEYS_HELP))
        text = f"## {_('Notation')}\n\n{notation}\n\n## {_('Keys')}\n\n{keys}"
        # the name and the card may come from a user's file: shown as written, never read
        # as Markdown (a link in it would open at a click); each paragraph one line
        card = v.local(v.card)
        card = "\n\n".join(" ".join(p.split()) for p in card.split("\n\n") if p.strip())
        return v.local_name, card, text

    def compose(self) -> ComposeResult:
        name, card, text = self._texts()
        with VerticalScroll():
            from textual.widgets import Markdown  # imported when help is first asked for

            yield Plain(name, id="help-title")
            yield Plain(card, id="help-card")
            yield Markdown(text, id="help-keys")

    def retranslate(self) -> None:
        """The help in the new language, scrolled where it was."""
        from textual.widgets import Markdown

        name, card, text = self._texts()
        self.query_one("#help-title", Plain).update(name)
        self.query_one("#help-card", Plain).update(card)
        self.query_one("#help-keys", Markdown).update(text)

    def action_close(self) -> None:
        self.dismiss(None)
