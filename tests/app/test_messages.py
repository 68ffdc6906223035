"""Couple down, message up: the board and the move list tell their screen what happened
by messages (Textual's ``@on``), and never call its methods; a screen sets what a widget
needs by declared attributes (the board's ``takes_typed_moves`` and ``typing``, a
controller's ``interactive``)."""

from __future__ import annotations

from textual import on
from textual.app import App, ComposeResult
from textual.message import Message

from shashki.app.board import BoardWidget
from shashki.app.controller import GameController
from shashki.app.game_screen import MoveList
from shashki.rules import Game

from .conftest import press, settle


class BoardAlone(App[None]):
    """A board in an app that knows nothing of moves typed: it only keeps the messages."""

    def __init__(self, *, takes_typed_moves: bool) -> None:
        super().__init__()
        self.seen: list[Message] = []
        self.board = BoardWidget(GameController(Game("russian")), id="board")
        self.board.takes_typed_moves = takes_typed_moves

    def compose(self) -> ComposeResult:
        yield self.board
        yield MoveList("1. c3-d4", id="moves")

    def on_mount(self) -> None:
        self.board.focus()

    @on(BoardWidget.TypeMove)
    @on(BoardWidget.KeyForMoveBox)
    @on(MoveList.Resized)
    def _keep(self, message: Message) -> None:
        self.seen.append(message)


async def test_the_board_asks_for_the_move_box_by_messages() -> None:
    app = BoardAlone(takes_typed_moves=True)
    async with app.run_test(size=(120, 40)) as pilot:
        app.seen.clear()
        await press(pilot, "colon", "c", "3", "backspace", "enter", "f1")
        await settle(pilot)
        assert isinstance(app.seen[0], BoardWidget.TypeMove)
        keys = [m.key for m in app.seen[1:]]  # type: ignore[attr-defined]
        assert keys == ["c", "3", "backspace", "enter"]  # not F1: no text, it is not taken
        assert app.seen[1].character == "c"  # type: ignore[attr-defined]
        assert app.board.typing  # until the screen's box has sent the move
        await press(pilot, "escape")
        await settle(pilot)
        assert not app.board.typing and len(app.seen) == 5  # Escape ends typing, says nothing


async def test_a_board_without_a_move_box_keeps_its_keys() -> None:
    app = BoardAlone(takes_typed_moves=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.seen.clear()
        await press(pilot, "colon", "c")
        await settle(pilot)
        assert app.seen == [] and not app.board.typing


async def test_the_move_list_says_it_was_resized() -> None:
    app = BoardAlone(takes_typed_moves=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.seen.clear()
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert any(isinstance(m, MoveList.Resized) for m in app.seen)


def test_a_board_that_only_shows_is_declared_so() -> None:
    from shashki.app.replay_controller import _shown

    assert _shown(Game("russian")).interactive is False
    assert GameController(Game("russian")).interactive is True
