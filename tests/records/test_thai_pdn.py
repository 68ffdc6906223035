"""PDN of Thai draughts (docs/rules/national.md#gametypes; docs/rules/conventions.md#gametype;
docs/rules/national.md#thai): shashki writes ``31,W,8,8,N2,0`` (1 = b8, White's seat) and reads the
PDN table's ``31,B,8,8,N2,0`` too, where square 1 is g1, 4 is a1 and 32 is b8, Black moves first and
the colours stay as written."""

from __future__ import annotations

import pytest

from shashki.records import read_games_text, write_game
from shashki.records.gametypes import needs_variant_tag, variant_from_headers
from shashki.records.viewpoint import record_board
from shashki.rules import Game, find_variant

#: A game as a program using the PDN table's numbering writes it (numbers from Black's
#: seat): Black c7-d6, White d2-e3, Black d6-c5.  Written here by hand for the test.
TABLE_NUMBERED = """[Event "Thai, numbered as the PDN table"]
[GameType "31,B,8,8,N2,0"]

1. 27-23 7-10 2. 23-19 *
"""


@pytest.mark.parametrize(
    "headers", [{"GameType": "31"}, {"GameType": "31,W,8,8,N2,0"}, {"GameType": "31,B,8,8,N2,0"}]
)
def test_the_tags_pick_thai(headers: dict[str, str]) -> None:
    assert variant_from_headers(headers).id == "thai"
    assert not needs_variant_tag(find_variant("thai"))


def test_the_table_numbering_is_g1_a1_b8() -> None:
    thai = find_variant("thai")
    assert record_board(thai, {"GameType": "31,W,8,8,N2,0"}) is None
    theirs = record_board(thai, {"GameType": "31,B,8,8,N2,0"})
    assert theirs is not None
    assert [theirs.name(theirs.by_number[n]) for n in (1, 4, 5, 29, 32)] == [
        "g1", "a1", "h2", "h8", "b8"
    ]  # fmt: skip
    assert [thai.board.name(thai.board.by_number[n]) for n in (1, 4, 29, 32)] == [
        "b8", "h8", "a1", "g1"
    ]  # fmt: skip


def test_a_game_numbered_from_blacks_seat_is_read_square_by_square() -> None:
    (record,) = read_games_text(TABLE_NUMBERED)
    assert record.variant.id == "thai" and not record.errors and not record.warnings
    # no FEN tag: the Thai start with Black to move (the GameType's colour)
    assert record.fen == "B:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8"
    game = Game("thai", record.fen)
    played = []
    for move in record.mainline_moves():
        played.append(f"{game.variant.board.name(move.start)}-{game.variant.board.name(move.end)}")
        game.push(move)
    assert played == ["c7-d6", "d2-e3", "d6-c5"]


def test_it_is_written_back_in_shashkis_numbering() -> None:
    (record,) = read_games_text(TABLE_NUMBERED)
    text = write_game(record)
    assert '[GameType "31,W,8,8,N2,0"]' in text and "31,B" not in text
    assert '[FEN "B:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8"]' in text
    assert "1... 6-10 2. 26-23 10-14 *" in text
    (again,) = read_games_text(text)
    assert list(again.mainline_moves()) == list(record.mainline_moves())


def test_a_fen_tag_is_numbered_as_the_gametype_and_captures_use_dashes() -> None:
    # the table's numbers: White king on 4 (a1), Black men on 15 (d4) and 22 (f6);
    # the king takes d4 landing on e5 (18), then f6 landing on g7 (25)
    text = '[GameType "31,B,8,8,N2,0"]\n[SetUp "1"]\n[FEN "W:WK4:B15,22"]\n\n1. 4-18-25 *\n'
    (record,) = read_games_text(text)
    assert not record.errors, record.errors
    assert record.fen == "W:WK29:B11,18"  # a1, f6, d4 in shashki's numbers
    (move,) = record.mainline_moves()
    game = Game("thai", record.fen)
    assert game.move_text(move, full=True) == "29-15-8"  # a1, e5, g7
    assert "1. 29-8 *" in write_game(record)


def test_a_white_gametype_starts_with_white_and_a_wrong_move_says_how_it_was_read() -> None:
    (record,) = read_games_text('[GameType "31,W,8,8,N2,0"]\n\n1. 25-21 *\n')
    assert record.fen is None and not record.errors
    (bad,) = read_games_text('[GameType "31,B,8,8,N2,0"]\n\n1. 27-19 *\n')
    assert bad.errors
    assert "numbered as GameType 31,B,8,8,N2,0" in bad.errors[0].message
