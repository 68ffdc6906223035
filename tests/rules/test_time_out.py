"""A flag fall (Game.time_out): a loss on time, or a draw when the other side cannot win."""

from __future__ import annotations

from shashki.rules import Color, Game, Termination
from shashki.rules.endrules import EndRules
from shashki.rules.game import game_state


def test_the_side_whose_time_ran_out_loses() -> None:
    game = Game("russian")
    game.push_text("c3-d4")
    out = game.time_out()  # Black to move: Black's flag
    assert out.termination is Termination.TIME_FORFEIT
    assert out.winner is Color.WHITE and "Black ran out of time" in out.describe()
    assert game.outcome() == out and out.result() == "1-0"
    # a named side, not the side to move
    assert Game("russian").time_out(Color.BLACK).winner is Color.WHITE


def test_a_side_without_pieces_cannot_win_on_time() -> None:
    game = Game("russian", "W:Wc3:B")  # Black has nothing left
    assert game.outcome() is None
    out = game.time_out()
    assert out.termination is Termination.TIME_FORFEIT and out.winner is None
    assert out.describe() == "Draw: White ran out of time, but Black cannot win."


def test_a_material_draw_of_the_variant_means_no_win() -> None:
    # a balance the variant's rules call drawn by the material alone (no move counter)
    game = Game("traditional", "W:WK1,K2:BK30")
    ends = EndRules(game.variant)
    assert not ends.could_win(game_state(game), Color.WHITE)
    assert not ends.could_win(game_state(game), Color.BLACK)
    # a side with pieces and no such rule may still win
    start = Game("russian")
    assert EndRules(start.variant).could_win(game_state(start), Color.BLACK)


def test_a_time_forfeit_is_taken_back_like_a_resignation() -> None:
    game = Game("russian")
    game.time_out()
    copy = game.copy()
    assert copy.outcome() is not None and copy.ended == game.ended
    assert game.reopen() and game.outcome() is None
