"""Walking the move list during a game: earlier positions are looked at without undoing,
moves are refused meanwhile with a word on how to come back, and Esc (or ] past the last
move) returns to the game."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import OptionList

from shashki.app.movelist import CURRENT
from shashki.rules import Game
from shashki.session.seats import PERSON

from .conftest import game_screen, keys_play, make_app, notes, press, settle, status

SIZE = (100, 32)


def marked(moves: OptionList, row: int) -> list[str]:
    """The text marked in a row of the move list (the move looked at)."""
    prompt = moves.get_option_at_index(row).prompt
    assert isinstance(prompt, Text)
    return [prompt.plain[span.start : span.end] for span in prompt.spans if span.style == CURRENT]


async def test_the_move_list_is_walked_without_undoing(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=(PERSON, PERSON))
        await settle(pilot)
        await keys_play(pilot, "c3", "d4")
        await keys_play(pilot, "f6", "g5")
        await keys_play(pilot, "g3", "h4")
        screen = game_screen(app)
        live = ctl.game.fen()
        await press(pilot, "left_square_bracket")
        await settle(pilot)
        assert screen.viewing is not None and screen.view_ply == 2
        assert screen.board.controller is screen.viewing
        after_two = Game("russian")
        after_two.push_text("c3-d4")
        after_two.push_text("f6-g5")
        assert screen.viewing.game.fen() == after_two.fen()
        # said as players say it, with the side to move of the position looked at; the
        # seats still mark the side whose turn it really is (Black, at the top: its clock)
        turn = str(screen.query_one("#turn").content)
        assert turn == "After 1… f6-g5: [ ] step, Esc back to the game\nWhite to move", turn
        assert [seat.to_move() for seat in screen.seats] == [True, False]
        # the move looked at is marked in its row, and that row highlighted
        moves = screen.query_one("#moves", OptionList)
        assert moves.highlighted == 0
        assert marked(moves, 0) == ["f6-g5"]
        await press(pilot, "left_square_bracket")
        await settle(pilot)
        assert str(screen.query_one("#turn").content).startswith("After 1. c3-d4: ")
        assert [seat.to_move() for seat in screen.seats] == [True, False]  # Black, still
        assert marked(moves, 0) == ["c3-d4"]
        await press(pilot, "right_square_bracket")
        await settle(pilot)
        # a move is refused while looking back, and the game is untouched
        await keys_play(pilot, "b6", "a5")
        assert "Esc back to the game" in status(app)
        assert ctl.game.fen() == live and len(ctl.game.move_stack) == 3
        await press(pilot, "left_square_bracket", "left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert screen.view_ply == 0 and screen.viewing.game.fen() == Game("russian").fen()
        assert str(screen.query_one("#turn").content).startswith("Start position: ")
        assert moves.highlighted is None and marked(moves, 0) == []
        await press(pilot, "escape")
        await settle(pilot)
        assert screen.viewing is None and screen.board.controller is ctl
        # back in the game: its last row highlighted, no move marked, Black to move
        assert moves.highlighted == 1 and marked(moves, 1) == []
        assert [seat.to_move() for seat in screen.seats] == [True, False]
        # ] past the last move comes back too
        await press(pilot, "left_square_bracket", "right_square_bracket")
        await settle(pilot)
        assert screen.viewing is None
        assert ctl.game.fen() == live


async def test_a_row_of_the_move_list_shows_the_position_after_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=(PERSON, PERSON))
        await settle(pilot)
        await keys_play(pilot, "c3", "d4")
        await keys_play(pilot, "f6", "g5")
        await keys_play(pilot, "g3", "h4")
        screen = game_screen(app)
        moves = screen.query_one("#moves", OptionList)
        moves.post_message(OptionList.OptionSelected(moves, moves.get_option_at_index(0), 0))
        await settle(pilot)
        assert screen.viewing is not None and screen.view_ply == 2  # after 1. c3-d4 f6-g5
        await keys_play(pilot, "a3", "b4")  # refused: the game goes on from the live position
        assert len(ctl.game.move_stack) == 3
        await press(pilot, "u")  # undo leaves the walk first, then takes back
        await settle(pilot)
        assert screen.viewing is None and len(ctl.game.move_stack) == 2


async def test_the_pdn_copied_counts_moves_as_players_do(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("russian", kinds=(PERSON, PERSON))
        await settle(pilot)
        for start, end in (("c3", "d4"), ("f6", "g5"), ("g3", "h4")):
            await keys_play(pilot, start, end)
        await press(pilot, "Y")
        await settle(pilot)
        assert "PDN copied (2 moves)" in notes(app)  # 1. c3-d4 f6-g5 2. g3-h4: 3 plies
