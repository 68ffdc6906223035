"""A GameType whose numbering contradicts its game (``20,W,10,10,N1,0`` over moves in
the standard numbering) is read in the variant's own numbering, with a warning."""

from __future__ import annotations

from shashki.records import read_games_text
from shashki.rules import Game

# 32-28 19-23 28x19 14x23 in International's own numbering (field value 2): in the numbering
# that the GameType writes (field value 1), square 32 is another square and 32-28 is illegal.
STANDARD_MOVES = "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 *\n"


def test_standard_moves_under_a_contradicting_gametype_are_read_in_the_standard_numbering() -> None:
    [game] = read_games_text('[GameType "20,W,10,10,N1,0"]\n' + STANDARD_MOVES)
    assert game.ok, game.errors
    assert game.variant is not None and game.variant.id == "international"
    [tagged] = read_games_text('[GameType "20"]\n' + STANDARD_MOVES)
    assert game.mainline_moves() == tagged.mainline_moves()
    [warning] = game.warnings
    assert (warning.line, warning.column) == (1, 1)
    assert "20,W,10,10,N1,0" in warning.message and "own numbering" in warning.message


def test_moves_in_the_written_numbering_stay_as_written() -> None:
    # the same game written in the numbering of field value 1: it replays as written, no warning
    standard = Game("international")
    [tagged] = read_games_text('[GameType "20"]\n' + STANDARD_MOVES)
    from shashki.records.viewpoint import record_board

    theirs = record_board(standard.variant, {"GameType": "20,W,10,10,N1,0"})
    assert theirs is not None
    board = standard.variant.board

    def written(n: int) -> int:  # the written number of the square the standard calls n
        return theirs.number(board.by_number[n])

    texts = []
    for ply, move in enumerate(tagged.mainline_moves()):
        a, b = board.number(move.start), board.number(move.end)
        sep = "x" if move.is_capture else "-"
        texts.append(
            (f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + f"{written(a)}{sep}{written(b)}"
        )
    [game] = read_games_text('[GameType "20,W,10,10,N1,0"]\n' + " ".join(texts) + " *")
    assert game.ok and game.warnings == []
    assert game.mainline_moves() == tagged.mainline_moves()


def test_a_game_that_replays_in_neither_numbering_keeps_the_written_one() -> None:
    [game] = read_games_text('[GameType "20,W,10,10,N1,0"]\n1. 1-2 *')
    assert not game.ok
    assert not any("own numbering" in w.message for w in game.warnings)
