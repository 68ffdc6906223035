"""The replay controller on its own (no Textual app): the move list of the whole tree,
stepping, jumping to a move, entering, choosing and leaving variations, what it says about
the position, and taking over.

Positions are checked against FENs computed with the rules alone (``fen_after``)."""

from __future__ import annotations

import pytest

from shashki.app.replay_controller import ReplayController
from shashki.records import GameRecord, read_games_text
from shashki.rules import Game, ShashkiError

from .test_replay import FIRST_VARIATION, MAIN, NESTED, OWN_GAME, PROBLEM, fen_after


def own_game() -> ReplayController:
    [record] = read_games_text(OWN_GAME)
    return ReplayController(record)


def fen(replay: ReplayController) -> str:
    return replay.game.fen()


def test_the_move_list_holds_the_whole_tree() -> None:
    replay = own_game()
    names = [row.name for row in replay.rows]
    assert names == [
        "1. c3-d4",
        "1… f6-e5?",
        "1… f6-g5!",  # the variation, after the move it replaces
        "2. g3-h4",
        "2. b2-c3",  # nested one level deeper
        "2… g7-f6",
        "2… b6-c5",
        "2. d4:f6",
        "2… g7:e5",
        "3. b2-c3",
        "3… h6-g5",
        "4. g3-h4",
    ]
    depths = [row.depth for row in replay.rows]
    assert depths == [0, 0, 1, 1, 2, 2, 1, 0, 0, 0, 0, 0]
    assert [row.branch for row in replay.rows] == [
        False,
        False,
        True,
        False,
        True,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
    ]
    assert replay.rows[0].comments == ("A classical start.",)
    assert replay.rows[2].comments == ("The main alternative.",)
    assert replay.row_of(replay.record) is None
    assert all(replay.row_of(row.node) == i for i, row in enumerate(replay.rows))


def test_stepping_first_prev_next_last() -> None:
    replay = own_game()
    assert replay.node is replay.record and fen(replay) == Game("russian").fen()
    assert not replay.prev().moved  # nothing before the start
    for ply in range(1, len(MAIN) + 1):
        step = replay.next()
        assert step.moved and replay.node.ply() == ply
        assert fen(replay) == fen_after("russian", *MAIN[:ply])
        assert replay.controller.game is replay.game and not replay.controller.interactive
    assert not replay.next().moved and replay.node is replay.record.end()
    assert replay.prev().moved and fen(replay) == fen_after("russian", *MAIN[:-1])
    assert replay.first().moved and replay.node is replay.record
    assert replay.last().moved and fen(replay) == fen_after("russian", *MAIN)


def test_a_capture_of_several_jumps_is_given_to_be_shown_jump_by_jump() -> None:
    [record] = read_games_text('[GameType "25"]\n[FEN "W:Wc3:Bd4,f6"]\n1. c3:e5:g7 *')
    replay = ReplayController(record)
    step = replay.next()
    assert step.jumps is not None and len(step.jumps.path) == 3
    assert replay.prev().jumps is None  # back: at once
    assert replay.last().jumps is None  # a jump to a move: at once


def test_jumping_to_a_row_of_the_move_list() -> None:
    replay = own_game()
    assert replay.jump(5).moved  # 2… g7-f6, in the nested variation
    assert fen(replay) == fen_after("russian", *NESTED)
    assert not replay.node.is_mainline()
    assert replay.jump(len(MAIN) + 4).moved  # the last row: the end of the main line
    assert replay.node is replay.record.end()
    assert not replay.jump(len(replay.rows)).moved and not replay.jump(-1).moved


def test_entering_choosing_and_leaving_variations() -> None:
    replay = own_game()
    replay.next()  # 1. c3-d4: the variation is an alternative to the next move
    assert "1 variation here: press v" in replay.where()
    assert replay.enter_variation().moved
    assert fen(replay) == fen_after("russian", *FIRST_VARIATION[:2])
    assert "After 1… f6-g5! (in a variation)" in replay.where()
    replay.next()
    assert fen(replay) == fen_after("russian", *FIRST_VARIATION[:3])
    # at 2. g3-h4, the nested variation is its sibling: v goes round them
    assert replay.enter_variation().moved
    assert fen(replay) == fen_after("russian", *NESTED[:3])
    assert replay.enter_variation().moved
    assert fen(replay) == fen_after("russian", *FIRST_VARIATION[:3])
    replay.enter_variation()
    replay.next()
    assert fen(replay) == fen_after("russian", *NESTED)
    # leaving: out of the nested variation, then out of the first, to where each branched
    assert replay.leave_variation().moved
    assert fen(replay) == fen_after("russian", *FIRST_VARIATION[:2])
    assert replay.leave_variation().moved
    assert replay.node.is_mainline() and fen(replay) == fen_after("russian", "c3-d4")
    step = replay.leave_variation()
    assert not step.moved and step.refused == "Already on the main line."
    replay.last()
    step = replay.enter_variation()
    assert not step.moved and step.refused == "No variation here."


def test_what_it_says_about_the_position() -> None:
    replay = own_game()
    assert replay.where() == "Start position\nWhite to move"
    assert replay.comments() == "The opening of the test game."
    replay.next()
    assert replay.where().startswith("After 1. c3-d4\nBlack to move")
    assert replay.comments() == "A classical start."
    replay.enter_variation()
    assert replay.comments() == "The main alternative."
    replay.last()
    assert "Result: 1-0" in replay.where()


def test_taking_over() -> None:
    replay = own_game()
    replay.next()
    replay.next()
    taken = replay.take_over()
    assert taken.game is not None and taken.refused == ""
    assert taken.names == ("Anna", "Boris")
    assert taken.game.fen() == fen_after("russian", *MAIN[:2]) and len(taken.game.move_stack) == 2
    taken.game.push(taken.game.legal_moves()[0])  # a copy: the replay stays where it was
    assert fen(replay) == fen_after("russian", *MAIN[:2])


def test_no_taking_over_where_the_game_is_over() -> None:
    [record] = read_games_text('[GameType "25"]\n[FEN "W:Wc3:Bd4"]\n1. c3:e5 *')
    replay = ReplayController(record)
    replay.last()
    taken = replay.take_over()
    assert taken.game is None
    assert taken.refused == "The game is over here: step back to take over earlier."
    assert "White wins" in replay.where()


def test_a_position_without_moves() -> None:
    [record] = read_games_text(PROBLEM)
    replay = ReplayController(record)
    assert replay.rows == [] and replay.where() == "Start position\nWhite to move"
    assert not replay.next().moved
    replay.last()
    assert replay.node is replay.record


def test_a_record_of_no_variant_shashki_plays_is_refused() -> None:
    with pytest.raises(ShashkiError):
        ReplayController(GameRecord(None))
