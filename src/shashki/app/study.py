"""The dialogs of a study: the comment on a move, the move's mark, and unsaved changes
found when a game is opened again."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, OptionList
from textual.widgets.option_list import Option

from ..i18n import N_, _
from ..records.annotations import (
    BLUNDER,
    BRILLIANT,
    DUBIOUS,
    GOOD,
    INTERESTING,
    MISTAKE,
)
from .dialogs import Words, say
from .plain import Plain, literal
from .widgets import Dialog, relabel_button

#: The marks a person gives a move: the NAG, its sign, what it says.
MARK_CHOICES = (
    (GOOD, "!", N_("good move")),
    (MISTAKE, "?", N_("mistake")),
    (BRILLIANT, "!!", N_("brilliant move")),
    (BLUNDER, "??", N_("blunder")),
    (INTERESTING, "!?", N_("interesting move")),
    (DUBIOUS, "?!", N_("dubious move")),
)


class CommentDialog(Dialog[str | None]):
    """Write or edit the comment on a move: Enter keeps it (empty: no comment), Esc
    leaves it as it was."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: Words, text: str = "") -> None:
        super().__init__()
        self.words = question
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(say(self.words), id="question")
            # a comment is data: shown as typed
            yield Input(value=self.text, id="text", max_length=2000)
            yield Plain(_("Enter: keep it (empty: no comment) · Esc: leave it"), id="keys")

    def retranslate(self) -> None:
        self.query_one("#question", Plain).update(say(self.words))
        self.query_one("#keys", Plain).update(
            _("Enter: keep it (empty: no comment) · Esc: leave it")
        )

    def on_mount(self) -> None:
        box = self.query_one(Input)
        box.focus()
        box.cursor_position = len(box.value)

    @on(Input.Submitted)
    def _kept(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class MarkDialog(Dialog[int | None]):
    """Choose a move's mark: ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!`` (the keys 1 to 6,
    or the list), or none (0); Esc leaves it as it was.  The answer is the NAG, 0 for no
    mark, None for no change."""

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        *(
            Binding(str(i + 1), f"choose({nag})", show=False)
            for i, (nag, _s, _w) in enumerate(MARK_CHOICES)
        ),
        Binding("0", "choose(0)", N_("No mark"), show=False),
    ]

    def __init__(self, current: int | None) -> None:
        super().__init__()
        self.current = current

    def _options(self) -> list[Option]:
        options = [
            Option(literal(f"{i + 1}  {sign:<3}{_(words)}"), id=str(nag))
            for i, (nag, sign, words) in enumerate(MARK_CHOICES)
        ]
        options.append(Option(literal(f"0  {_('no mark')}"), id="0"))
        return options

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(_("Mark the move:"), id="question")
            yield OptionList(*self._options(), id="marks")

    def retranslate(self) -> None:
        self.query_one("#question", Plain).update(_("Mark the move:"))
        marks = self.query_one(OptionList)
        highlighted = marks.highlighted
        marks.clear_options()
        marks.add_options(self._options())
        marks.highlighted = highlighted

    def on_mount(self) -> None:
        marks = self.query_one(OptionList)
        nags = [nag for nag, _s, _w in MARK_CHOICES]
        marks.highlighted = nags.index(self.current) if self.current in nags else 0
        marks.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_choose(self, nag: int) -> None:
        self.dismiss(nag)

    def action_cancel(self) -> None:
        self.dismiss(None)


class UnsavedStudyDialog(Dialog[str]):
    """A study of this game has changes that were never saved: take them up again
    (``restore``), or open the game as it is (``open``; the changes stay on disk until
    the study is saved or changed again), or throw them away (``discard``)."""

    BINDINGS = [
        Binding("r,enter", "answer('restore')", N_("Restore")),
        Binding("o,escape", "answer('open')", N_("Open as it is")),
        Binding("d", "answer('discard')", N_("Discard")),
    ]
    BUTTONS = (
        ("restore", N_("Restore (r)")),
        ("open", N_("Open as it is (o)")),
        ("discard", N_("Discard (d)")),
    )

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(self._question(), id="question")
            with Horizontal():
                for key, label in self.BUTTONS:
                    yield Button(
                        _(label), id=key, variant="primary" if key == "restore" else "default"
                    )

    def _question(self) -> str:
        return _(
            "This game has a study with changes that were not saved (variations, comments, "
            "marks or a review). Restore them?"
        )

    def retranslate(self) -> None:
        self.query_one("#question", Plain).update(self._question())
        for key, label in self.BUTTONS:
            relabel_button(self, f"#{key}", _(label))

    def on_mount(self) -> None:
        self.query_one("#restore", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "open")

    def action_answer(self, choice: str) -> None:
        self.dismiss(choice)


__all__ = ["MARK_CHOICES", "CommentDialog", "MarkDialog", "UnsavedStudyDialog"]
