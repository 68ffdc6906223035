"""Moves counted as players count them (and as the move list numbers them): a move
number holds a turn of each side."""

from __future__ import annotations

from shashki.rules import Game

OPENING = "c3-d4 f6-g5 b2-c3 g7-f6 g3-f4 h8-g7 a3-b4 b6-a5 b4-c5 d6xb4".split()


def test_plies_pair_into_moves() -> None:
    game = Game("russian")
    assert game.move_count() == 0
    counts = []
    for text in OPENING:
        game.push_text(text)
        counts.append(game.move_count())
    game.push(game.legal_moves()[0])
    counts.append(game.move_count())
    assert counts == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]
    assert len(game.move_stack) == 11


def test_a_game_begun_by_the_second_side_counts_its_first_turn_as_a_move() -> None:
    game = Game("russian", "B:W21,22,23:B9,10,11")
    game.push(game.legal_moves()[0])
    assert game.move_count() == 1  # "1. … x"
    game.push(game.legal_moves()[0])
    assert game.move_count() == 2  # "1. … x", "2. y"


def test_a_turn_of_two_moves_is_one() -> None:
    game = Game("double-move")
    counts = []
    for text in ("c3-d4", "d4-c5", "b6:d4", "f6-g5", "e3:c5"):
        game.push_text(text)
        counts.append(game.move_count())
    assert counts == [1, 1, 1, 1, 2]  # 1. c3-d4; d4-c5  b6:d4; f6-g5  2. e3:c5


def test_the_resume_list_counts_as_the_game_does(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from shashki.records import GameRecord
    from shashki.store.autosaves import _entry

    game = Game("russian", "B:W21,22,23:B9,10,11")
    for _ in range(2):
        game.push(game.legal_moves()[0])
    record = GameRecord.from_game(game, {})
    entry = _entry("k", tmp_path / "k.pdn", record, None)
    assert entry.moves == game.move_count() == 2
