"""The static evaluation's knowledge of endings with kings."""

from __future__ import annotations

from shashki.engine.evaluate import MAN, diagonal_evaluator, evaluator_for
from shashki.rules import Game, find_variant
from shashki.rules.game import game_state


def value(variant: str, fen: str, **weights: int) -> int:
    position = game_state(Game(variant, fen))
    if weights:
        return diagonal_evaluator(find_variant(variant), weights=weights)(position)
    return evaluator_for(find_variant(variant))(position)


def test_three_pieces_against_a_king_on_the_big_board_are_drawish() -> None:
    three = value("international", "W:WK46,K47,K48:BK5")
    four = value("international", "W:WK46,K47,K48,K49:BK5")
    # three kings cannot catch a flying king on the 10x10 board; four can
    assert 0 < three < 2 * MAN
    assert three == value("international", "W:WK46,K47,K48:BK5", drawish=0) // 8
    assert four == value("international", "W:WK46,K47,K48,K49:BK5", drawish=0) > 5 * MAN
    # a lone king alone on the main road: never lost (the exact table of the material)
    alone = "W:WK47,K48,K49:BK5"
    assert 0 <= value("international", alone) == value("international", alone, drawish=0) // 64
    assert value("international", alone) < three
    # the same for the side behind, and for Black ahead
    assert value("international", "B:WK46,K47,K48:BK5") == -three
    assert value("international", "W:WK46:BK5,K4,K3") == -three
    # men that could still crown count as the material they are
    fen = "W:WK46,28,29,30:BK5,21"
    assert value("international", fen) == value("international", fen, drawish=0) > MAN


def test_kings_on_both_sides_with_the_men_level_halve_the_advantage() -> None:
    fen = "W:WK46,28,29,30:BK5,21,22"
    level = value("international", fen)
    assert level == value("international", fen, drawish=0) // 2
    assert value("international", "B" + fen[1:]) == -level
    # a man more is not level: the whole advantage counts
    fen = "W:WK46,28,29,30:BK5,21"
    assert value("international", fen) == value("international", fen, drawish=0) > MAN


def test_the_small_board_keeps_its_won_endings() -> None:
    # on 8x8 three kings catch a lone king off the main road (Petrov's triangle)
    for variant in ("russian", "brazilian"):
        fen = "W:WKC1,KE1,KG1:BKB8"
        assert value(variant, fen) == value(variant, fen, drawish=0) > 5 * MAN


def runaway_bonus(fen: str, variant: str = "russian") -> int:
    """What the runaway term adds to a position's value for the side to move."""
    return value(variant, fen, runaway=60) - value(variant, fen, runaway=0)


def test_a_man_no_enemy_piece_can_stop_is_worth_more() -> None:
    # e5 is three steps from its crown; the black man on b6 is off its road
    assert runaway_bonus("W:WE5:BB6") == 60
    assert runaway_bonus("B:WE5:BB6") == -60
    # a man ahead of it within reach (g7) can still stop it
    assert runaway_bonus("W:WE5:BG7") == 0
    # a king anywhere can catch it
    assert runaway_bonus("W:WE5:BKA1,B6") == 0
    # too far from its crown to count yet
    assert runaway_bonus("W:WE3:BA7") == 0


def test_of_two_runaways_the_first_to_crown_counts() -> None:
    # g5 and b4 are both three steps from their crowns: the side to move is first
    assert runaway_bonus("W:WG5:BB4") == 60
    assert runaway_bonus("B:WG5:BB4") == 60
    # b2 is two steps nearer: Black's, whoever moves
    assert runaway_bonus("W:WG5:BB2") == -60
    assert runaway_bonus("B:WG5:BB2") == 60
