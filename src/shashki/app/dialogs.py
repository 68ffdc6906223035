"""Modal dialogs: yes/no questions, the end of a game, help, file names."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Static

from ..rules.move import Move
from ..rules.variant import Variant
from .plain import Plain
from .widgets import Dialog


class ConfirmScreen(Dialog[bool]):
    """A yes/no question, answered with y/n, Enter/Esc or the buttons."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self.question)
            with Horizontal():
                yield Button("Yes (y)", id="yes", variant="primary")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class GameOverScreen(Dialog[str]):
    """The end of the game and the rule that ended it."""

    BINDINGS = [
        Binding("n", "choose('new')", "New game"),
        Binding("u", "choose('undo')", "Undo"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape,enter", "choose('stay')", "Look at the board"),
    ]

    def __init__(self, text: str, can_undo: bool) -> None:
        super().__init__()
        self.text = text
        self.can_undo = can_undo

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Game over", id="title")
            yield Plain(self.text, id="result")
            with Horizontal():
                yield Button("New game (n)", id="new", variant="primary")
                if self.can_undo:
                    yield Button("Undo (u)", id="undo")
                yield Button("Board (Esc)", id="stay")
                yield Button("Quit (q)", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        if choice == "undo" and not self.can_undo:
            return
        self.dismiss(choice)


class TextPrompt(Dialog[str | None]):
    """Ask for one line of text (a file name)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str = "") -> None:
        super().__init__()
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self.question)
            yield Input(value=self.value, id="text")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


KEYS_HELP = """\
| Key | Action |
|---|---|
| arrows, `h j k l` | move the cursor up, down, left or right to the nearest playable square |
| `Enter`, `Space` | pick a piece, then its destination |
| mouse click | the same |
| `Tab` / `Shift+Tab` | next capture route (when choosing one) or next piece that can move |
| `Esc` | cancel the selection |
| `:` | type a move in the variant's notation |
| `u` / `r` | undo / redo |
| `f` / `a` | flip the board / auto-flip after each move |
| `i` | hint: the computer's suggestion for the player to move |
| `[` / `]`, a move-list row | look at earlier positions without undoing (`Esc`: back) |
| `e` | analysis on/off: the engine's score (in men, White's), a bar and its best line |
| `y` / `Y` | copy the position's FEN / the game's PDN to the clipboard |
| `d` | offer a draw (or accept one) |
| `R` | resign |
| `s` | save the game as PDN |
| `c` / `t` / `p` | coordinates / board theme / piece set (ASCII) |
| `n` / `q` | back to the menu (a new game) / quit |
| `Ctrl+P` | every command |
"""


REPLAY_KEYS_HELP = """\
| Key | Action |
|---|---|
| `→` / `←` | next / previous move (captures shown jump by jump) |
| `Home` / `End` | start / end of the line |
| click or `Enter` in the move list | jump to that move |
| `Space` | auto-play on and off; `+` / `-` faster / slower |
| `v` | enter a variation (or the next one) |
| `Backspace` | leave the variation, back to where it branched |
| `t` | take over: a live game from this position |
| `f` | flip the board |
| `e` | analysis on/off: the engine's score, a bar and its best line |
| `y` | copy the shown position's FEN to the clipboard |
| `Esc` | back to the list of games |
"""


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


class HelpScreen(Dialog[None]):
    """Keys, the rule card and the notation of the variant in play."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, variant: Variant, *, replay: bool = False) -> None:
        super().__init__()
        self.variant = variant
        self.replay = replay

    def compose(self) -> ComposeResult:
        v = self.variant
        x = v.capture_mark
        move, capture = example_moves(v)
        example = f"{move}, {capture}" if capture else move
        marks = "`-`" if x == "-" else f"`-` or `{x}`"  # Thai writes captures with "-" too
        notation = (
            f"Moves are written {example}: the start square, {marks}, the end "
            "square; every landing square when two captures share both ends. When typing, `x` and "
            "`:` both work, and you may give only the ends when that is enough."
        )
        keys = REPLAY_KEYS_HELP if self.replay else KEYS_HELP
        text = f"## Notation\n\n{notation}\n\n## Keys\n\n{keys}"
        # the name and the card may come from a user's file: shown as written, never read
        # as Markdown (a link in it would open at a click); each paragraph one line
        card = "\n\n".join(" ".join(p.split()) for p in v.card.split("\n\n") if p.strip())
        with VerticalScroll():
            from textual.widgets import Markdown  # imported when help is first asked for

            yield Plain(v.name, id="help-title")
            yield Plain(card, id="help-card")
            yield Markdown(text)

    def action_close(self) -> None:
        self.dismiss(None)
