"""Moves as text: each variant's own notation out, every usual spelling in, the full
path when the short form is ambiguous, and clear errors."""

from __future__ import annotations

import pytest

from shashki.rules import (
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    NotationError,
    ShashkiError,
)
from shashki.rules.game import game_state
from shashki.rules.notation import move_text, parse_move, split_move_text

from ..conftest import mv, sq


def texts(game: Game, *, full: bool = False) -> set[str]:
    legal = game.legal_moves()
    return {move_text(game.variant, m, legal, full=full) for m in legal}


def parse(game: Game, text: str):
    return parse_move(game.variant, text, game.legal_moves(), game_state(game))


# -- writing ---------------------------------------------------------------------------


def test_start_positions_in_each_notation() -> None:
    assert texts(Game("international")) == {
        "31-26",
        "31-27",
        "32-27",
        "32-28",
        "33-28",
        "33-29",
        "34-29",
        "34-30",
        "35-30",
    }
    assert texts(Game("english")) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    assert texts(Game("russian")) == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
    assert texts(Game("traditional")) == texts(Game("russian"))


def test_capture_marks() -> None:
    t3 = "W:We3:Bd4,f4,f6"
    assert texts(Game("russian", t3)) == {"e3:c5", "e3:e7"}
    assert texts(Game("russian", t3), full=True) == {"e3:c5", "e3:g5:e7"}
    assert texts(Game("brazilian", t3)) == {"e3xe7"}
    english = Game("english", t3)
    assert texts(english) == {f"{n('e3')}x{n('c5')}", f"{n('e3')}x{n('e7')}"}
    assert texts(english, full=True) == {f"{n('e3')}x{n('c5')}", f"{n('e3')}x{n('g5')}x{n('e7')}"}
    assert texts(Game("international", "W:W33:B28")) == {"33x22"}


def n(name: str) -> int:
    """The PDN number of an 8x8 square."""
    return Game("english").variant.board.number(sq("english", name))


def test_full_path_when_start_and_end_are_shared() -> None:
    # two captures from e1 to e5, over d2 d4 or over f2 f4
    game = Game("english", "W:We1:Bd2,f2,d4,f4")
    assert texts(game) == {"31x22x15", "31x24x15"}
    with pytest.raises(AmbiguousMoveError) as info:
        parse(game, "31x15")
    assert "31x22x15" in str(info.value) and "31x24x15" in str(info.value)
    assert parse(game, "31x22x15").captured == (sq("english", "d2"), sq("english", "d4"))
    assert parse(game, "31x24x15").captured == (sq("english", "f2"), sq("english", "f4"))
    assert parse(game, "31x24x15") == parse(game, "31-24-15") == parse(game, "e1:g3:e5")


# -- reading -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "c3-d4",
        "c3:d4",
        "c3xd4",
        "c3Xd4",
        "c3\u00d7d4",
        " c3 - d4 ",
        "C3-D4",
        "22-18",
        "22x18",
        "c3-18",
    ],
)
def test_separators_and_square_forms(text: str) -> None:
    game = Game("russian")
    assert parse(game, text) == mv("russian", "c3", "d4")


@pytest.mark.parametrize("text", ["e3:g5:e7", "e3xg5xe7", "e3-e7", "e3:e7", "23x7", "e3:g5-e7"])
def test_captures_in_any_spelling(text: str) -> None:
    game = Game("russian", "W:We3:Bd4,f4,f6")
    move = parse(game, text)
    assert move.path == (sq("russian", "e3"), sq("russian", "g5"), sq("russian", "e7"))


def test_landing_squares_may_be_left_out_or_given_any_way_round() -> None:
    # the king goes round c3 c5 e5 e3 in one direction or the other: one move
    # (docs/rules/conventions.md#move-identity), and either full path names it
    game = Game("russian", "W:WKd2:Bc3,e3,c5,e5")
    (round_trip,) = [m for m in game.legal_moves() if m.end == sq("russian", "d2")]
    for text in ("d2:d2", "d2:b4:d6:f4:d2", "d2:f4:d6:b4:d2", "d2:d6:d2", "d2:b4:d2"):
        assert parse(game, text) == round_trip, text


def test_full_path_of_a_short_capture_is_not_ambiguous() -> None:
    # Regression: "e3:a7" (one piece) was ambiguous with "e3:g5:e7:c5:a7", whose landing
    # squares contain it. The full path of a legal move names that move.
    game = Game("russian", "W:WKe3:Bd6,a3,b6,f6,c3,f4")
    short = parse(game, "e3:a7")
    assert short.captured == (sq("russian", "b6"),)
    long = parse(game, "e3:g5:e7:c5:a7")
    assert len(long.captured) == 4
    assert move_text(game.variant, short, game.legal_moves()) == "e3:a7"
    assert move_text(game.variant, long, game.legal_moves()) == "e3:g5:e7:c5:a7"


def test_every_legal_move_reads_back() -> None:
    for variant, fen in [
        ("russian", "W:WKe3:Bd6,a3,b6,f6,c3,f4"),
        ("russian", "W:WKe3:Bc5,f4,f6,g7"),
        ("brazilian", "W:WKa5:Bb4,e3,d4,c7"),
        ("international", "W:WKc1:Bb6,f6,f4,h8"),
        ("english", "W:WKe7:Bf4,d6,f2,d4,f6"),
        ("russian", "W:WKa1:Bb2,d2,d6"),
    ]:
        game = Game(variant, fen)
        legal = game.legal_moves()
        for move in legal:
            short = move_text(game.variant, move, legal)
            for text in (short, move_text(game.variant, move, full=True)):
                assert parse(game, text) == move, (variant, fen, text)


# -- mistakes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "c3", "hello", "c3-", "-d4", "c3 d4", "c3/d4", "33-", "1-2-q"]
)
def test_not_a_move(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(Game("russian"), text)
    assert repr(text) in str(info.value)
    assert "c3-d4" in str(info.value)  # the message shows how to write a move


@pytest.mark.parametrize("text", ["c3-d5", "a2-b3", "c3-99", "0-1"])
def test_no_such_square(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(Game("russian"), text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    ("text", "square"), [("c3-z9", "z9"), ("m3-n4", "m3"), ("C3-Z9", "Z9"), ("c0-d1", "c0")]
)
def test_a_move_in_shape_names_the_square_no_board_has(text: str, square: str) -> None:
    """Squares of no board ("z9") in a text shaped like a move: the square at fault is
    named, not "is not a move" (a record's "1. z9-z8" is a move that cannot be played)."""
    with pytest.raises(NotationError) as info:
        parse(Game("russian"), text)
    assert str(info.value) == f"{text!r}: {square!r} is not a square of this 8x8 board"


def test_numeric_games_show_numeric_examples() -> None:
    with pytest.raises(NotationError) as info:
        parse(Game("international"), "hello")
    assert "32-28" in str(info.value)


@pytest.mark.parametrize("text", ["c3-c5", "c3-e5", "d2-e3", "b2-a3"])
def test_illegal_move(text: str) -> None:
    game = Game("russian")
    with pytest.raises(IllegalMoveError) as info:
        parse(game, text)
    assert repr(text) in str(info.value) and game.fen() in str(info.value)


def test_a_quiet_move_when_a_capture_is_compulsory() -> None:
    game = Game("russian", "W:Wc3,g3:Bd4,h8")
    with pytest.raises(IllegalMoveError):
        parse(game, "g3-h4")
    assert parse(game, "c3-e5").is_capture


def test_errors_are_value_errors() -> None:
    for error in (NotationError, IllegalMoveError, AmbiguousMoveError):
        assert issubclass(error, ShashkiError) and issubclass(error, ValueError)


def test_split_move_text() -> None:
    game = Game("international")
    board = game.variant.board
    assert [board.number(s) for s in split_move_text(game.variant, "32x23x14")] == [32, 23, 14]
    assert [board.name(s) for s in split_move_text(game.variant, "a1:c3")] == ["a1", "c3"]


def test_a_capture_back_to_its_start_square_is_written_in_full() -> None:
    from shashki.rules import Game
    from shashki.rules.notation import move_text, parse_move

    # a Russian king takes four men round the board and lands where it started
    game = Game("russian", "W:WKc1:Bd2,f4,f6,d6,b4,b2")
    ring = [m for m in game.legal_moves() if m.start == m.end]
    assert ring, "the position must offer a ring capture"
    for m in ring:
        text = move_text(game.variant, m, game.legal_moves())
        assert text.count(":") == len(m.path) - 1
        assert parse_move(game.variant, text, game.legal_moves(), game_state(game)) == m
