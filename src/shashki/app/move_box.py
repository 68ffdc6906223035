"""A screen with a board and a move box: ':' on the board (or the screen's key) opens the
box, the keys that reach the board meanwhile go to it, and Enter hands the move typed to
the screen (the game, a replay, a puzzle, a lesson: :class:`MoveBoxScreen`)."""

from __future__ import annotations

from textual import on
from textual.screen import Screen
from textual.widgets import Input

from .board import BoardWidget

__all__ = ["MoveBoxScreen", "MoveInput"]


class MoveInput(Input):
    """The move box: Enter sends the text and empties the box at once, so that a move
    typed right behind (keys coming fast) starts in an empty box."""

    async def action_submit(self) -> None:
        value, self.value = self.value, ""
        self.post_message(self.Submitted(self, value))


class MoveBoxScreen(Screen[None]):
    """A screen whose ``board`` and move box (a :class:`MoveInput` of id ``move-input``)
    work together.  A screen says what a move typed does (:meth:`move_typed`), and may
    say when no move can be typed (:meth:`can_type_move`) and what opening and closing
    the box shows (:meth:`move_box_shown`)."""

    board: BoardWidget

    # -- what a screen says ----------------------------------------------------------------

    def move_typed(self, text: str) -> None:
        """Play (or try) the move typed, ``text`` (stripped, never empty)."""
        raise NotImplementedError

    def can_type_move(self) -> bool:
        """Whether a move can be typed now (default: always)."""
        return True

    def move_box_shown(self, box: Input, shown: bool) -> None:
        """The box opens (``shown``) or closes (default: nothing to show)."""

    # -- the box ---------------------------------------------------------------------------

    @property
    def move_box(self) -> Input:
        return self.query_one("#move-input", Input)

    @property
    def typing(self) -> bool:
        """A move is being typed in the move box (from ':' to Enter or Escape): the
        board's, which sends the keys that reach it meanwhile to the box."""
        return self.board.typing

    @typing.setter
    def typing(self, value: bool) -> None:
        self.board.typing = value

    def action_type_move(self) -> None:
        """Type a move in the variant's notation (':')."""
        if not self.can_type_move():
            return  # (the box is hidden with the board: no typing blind)
        # at once, so that the keys typed right after ':' land in the box; keys already
        # on their way to the board are handed over by _board_key_for_box
        self.typing = True
        box = self.move_box
        self.move_box_shown(box, True)
        self.set_focus(box)

    @on(BoardWidget.TypeMove)
    def _board_type_move(self) -> None:
        self.action_type_move()
        if not self.can_type_move():
            self.typing = False

    @on(BoardWidget.KeyForMoveBox)
    def _board_key_for_box(self, event: BoardWidget.KeyForMoveBox) -> None:
        """A key that reached the board while a move is being typed goes to the move box
        (a pasted ':c3-d4' arrives faster than the focus moves)."""
        event.deliver(self.move_box)

    @on(Input.Submitted, "#move-input")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip().lstrip(":/ ")
        box = event.input
        self.typing = bool(box.value)  # the next move may already be on its way
        if not self.typing:
            self.move_box_shown(box, False)
        if text:
            self.move_typed(text)
        # at once (focus() waits a turn of the loop): the next key may already be queued;
        # the box keeps the focus while the next move is being typed into it
        if not self.typing:
            self.set_focus(self.board)
