"""Across sessions and sizes: save, quit, start again and resume; a terminal too small for
the board and back."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Input, OptionList

from shashki.app.board import BoardWidget
from shashki.app.dialogs import LeaveScreen, TextPrompt
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen
from shashki.app.unfinished import UnfinishedScreen
from shashki.records import read_file

from .conftest import (
    cell_offset,
    click_widget,
    game_screen,
    keys_play,
    make_app,
    press,
    settle,
    square,
    wait_for,
)

SIZE = (100, 32)


async def _choose(pilot, variant_id: str) -> None:  # type: ignore[no-untyped-def]
    """From the menu: highlight a variant by keys, open the dialog, play."""
    menu = pilot.app.screen.query_one("#variants", OptionList)
    target = next(i for i, o in enumerate(menu.options) if o.id == variant_id)
    await press(pilot, *["down"] * (target - menu.highlighted), "enter")
    await click_widget(pilot, "#play")  # (the dialog's focus is on its first field)


async def test_save_quit_start_again_and_resume(home: Path) -> None:
    app = make_app(home, autosave=True, offer_resume=True)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)  # nothing to resume yet
        await _choose(pilot, "russian")
        ctl = game_screen(app).controller
        await keys_play(pilot, "c3", "d4", "f6", "g5")
        assert ctl.move_list() == ["c3-d4", "f6-g5"]
        # save: the prompt offers a file in the data folder; Enter accepts it
        await press(pilot, "s")
        assert isinstance(app.screen, TextPrompt)
        default = Path(app.screen.query_one(Input).value)
        assert default.parent == home / "data" / "shashki" / "games"
        # a new name: the variant, the date and the time of day
        assert re.fullmatch(r"russian-\d{4}-\d\d-\d\d-\d{4}\.pdn", default.name)
        await press(pilot, "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert default.is_file()
        # quit asks first while a game is in progress
        await press(pilot, "q")
        assert isinstance(app.screen, LeaveScreen)  # keep it for later, or abandon it
        await press(pilot, "k")
        await settle(pilot)
    assert not app.is_running
    records = list(read_file(default))
    assert len(records) == 1 and records[0].variant is not None
    assert records[0].variant.id == "russian"
    assert len(records[0].mainline_moves()) == 2

    # start again: the unfinished game is listed, and resumed with Enter
    again = make_app(home, autosave=True, offer_resume=True)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(again.screen, UnfinishedScreen)
        [line] = [str(o.prompt) for o in again.screen.query_one(OptionList).options]
        assert "Russian draughts" in line and "1 move, " in line and "today" in line
        await press(pilot, "enter")
        ctl = game_screen(again).controller
        assert ctl.variant.id == "russian"
        assert ctl.move_list() == ["c3-d4", "f6-g5"]
        # and play goes on from there
        await keys_play(pilot, "d4", "e5")
        assert ctl.move_list() == ["c3-d4", "f6-g5", "d4-e5"]


async def test_the_list_can_be_left_for_a_new_game(home: Path) -> None:
    first = make_app(home, variant="turkish", autosave=True)
    async with first.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "a3", "a4")
        assert game_screen(first).controller.move_list() == ["a3-a4"]
    second = make_app(home, autosave=True, offer_resume=True)
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(second.screen, UnfinishedScreen)
        assert "Turkish" in str(second.screen.query_one(OptionList).options[0].prompt)
        await press(pilot, "n")
        assert isinstance(second.screen, MenuScreen)
        assert second.controller is None
    # the game declined is still there for next time
    third = make_app(home, autosave=True, offer_resume=True)
    async with third.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(third.screen, UnfinishedScreen)


async def test_a_finished_game_is_not_offered_again(home: Path) -> None:
    first = make_app(home, variant="russian", fen="W:Wc3,a1:Bd4,h8", autosave=True)
    async with first.run_test(size=SIZE) as pilot:
        ctl = game_screen(first).controller
        await keys_play(pilot, "c3", "e5", "h8", "g7")
        assert ctl.session.outcome is None and len(ctl.move_list()) == 2
        await press(pilot, "R", "y")  # White resigns: the game is over
        assert ctl.session.outcome is not None
    second = make_app(home, autosave=True, offer_resume=True)
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(second.screen, MenuScreen)


def _board_text(board: BoardWidget) -> str:
    return "\n".join(board.render_line(y).text for y in range(board.size.height))


async def test_too_small_then_large_again(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        ctl, board = screen.controller, screen.board
        offset = cell_offset(board, square(app, "c3"))
        await pilot.resize_terminal(24, 8)
        await wait_for(pilot, lambda: board.board_layout() is None, "the board too small")
        await wait_for(pilot, lambda: "Terminal too small" in _board_text(board), "the note")
        text = _board_text(board)
        assert "Terminal too small" in text and "29×11" in text and "24×8" in text
        # the board takes no input while it cannot be seen
        cursor = board.cursor
        await press(pilot, "enter", "up", "enter", "tab", "enter", "colon")
        await pilot.click(BoardWidget, offset=(2, 2))
        assert ctl.selection.square is None and ctl.game.move_stack == []
        assert board.cursor == cursor and app.focused is board
        # grown again: the board is back and play goes on
        await pilot.resize_terminal(*SIZE)
        await wait_for(pilot, lambda: board.board_layout() is not None, "the board again")
        await wait_for(pilot, lambda: "Terminal too small" not in _board_text(board), "no note")
        # (laid out at the full size again: a busy machine may show a size in between first)
        await wait_for(
            pilot, lambda: cell_offset(board, square(app, "c3")) == offset, "the board in place"
        )
        await keys_play(pilot, "c3", "d4")
        assert ctl.move_list() == ["c3-d4"]
