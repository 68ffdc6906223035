"""Walking the move list during a game: earlier positions are looked at without undoing,
moves are refused meanwhile with a word on how to come back, and Esc (or ] past the last
move) returns to the game."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from shashki.rules import Game

from .conftest import game_screen, keys_play, make_app, status

SIZE = (100, 32)


async def test_the_move_list_is_walked_without_undoing(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=("human", "human"))
        await pilot.pause()
        await keys_play(pilot, "c3", "d4")
        await keys_play(pilot, "f6", "g5")
        await keys_play(pilot, "g3", "h4")
        screen = game_screen(app)
        live = ctl.game.fen()
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert screen.viewing is not None and screen.view_ply == 2
        assert screen.board.controller is screen.viewing
        after_two = Game("russian")
        after_two.push_text("c3-d4")
        after_two.push_text("f6-g5")
        assert screen.viewing.game.fen() == after_two.fen()
        assert "Looking at the position after ply 2 of 3" in str(screen.query_one("#turn").content)
        # a move is refused while looking back, and the game is untouched
        await keys_play(pilot, "b6", "a5")
        assert "Esc back to the game" in status(app)
        assert ctl.game.fen() == live and len(ctl.game.move_stack) == 3
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert screen.view_ply == 0 and screen.viewing.game.fen() == Game("russian").fen()
        await pilot.press("escape")
        await pilot.pause()
        assert screen.viewing is None and screen.board.controller is ctl
        # ] past the last move comes back too
        await pilot.press("left_square_bracket", "right_square_bracket")
        await pilot.pause()
        assert screen.viewing is None
        assert ctl.game.fen() == live


async def test_a_row_of_the_move_list_shows_the_position_after_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=("human", "human"))
        await pilot.pause()
        await keys_play(pilot, "c3", "d4")
        await keys_play(pilot, "f6", "g5")
        await keys_play(pilot, "g3", "h4")
        screen = game_screen(app)
        moves = screen.query_one("#moves", OptionList)
        moves.post_message(OptionList.OptionSelected(moves, moves.get_option_at_index(0), 0))
        await pilot.pause()
        assert screen.viewing is not None and screen.view_ply == 2  # after 1. c3-d4 f6-g5
        await keys_play(pilot, "a3", "b4")  # refused: the game goes on from the live position
        assert len(ctl.game.move_stack) == 3
        await pilot.press("u")  # undo leaves the walk first, then takes back
        await pilot.pause()
        assert screen.viewing is None and len(ctl.game.move_stack) == 2
