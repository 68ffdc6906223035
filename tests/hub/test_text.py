"""The Hub protocol's texts: positions, moves and command lines."""

from __future__ import annotations

import pytest

from shashki.engine.hub.text import (
    HubError,
    exact_position_text,
    find_move,
    line,
    move_text,
    parse_line,
    parse_position,
    position_text,
)
from shashki.rules import Color, Game, find_variant
from shashki.rules.game import game_state

START = "W" + "b" * 20 + "e" * 10 + "w" * 20


def test_the_start_position_reads_and_writes_as_scan_and_dame_write_it() -> None:
    game = Game("international")
    assert position_text(game) == START
    assert position_text(game, version=1) == "w" + START[1:]
    assert game_state(parse_position(game.variant, START)) == game_state(game)


def test_kings_and_black_to_move_round_trip() -> None:
    game = Game("international", "B:WK46,31:BK5,20")
    text = position_text(game)
    assert text[0] == "B" and text[46] == "W" and text[31] == "w" and text[5] == "B"
    assert parse_position(game.variant, text).fen() == game.fen()


def test_positions_of_an_algebraic_variant_are_written_by_square_numbers() -> None:
    game = Game("russian")
    assert position_text(game) == "W" + "b" * 12 + "e" * 8 + "w" * 12


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W" + "e" * 49, "49 squares"),
        ("X" + "e" * 50, "side to move"),
        ("W" + "q" + "e" * 49, "is not w, b, W, B or e"),
        ("", "squares"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(HubError, match=message):
        parse_position(find_variant("international"), text)


def test_moves_quiet_and_captures_with_the_captured_squares() -> None:
    game = Game("international", "W:W28:B22,23,12")
    (capture,) = [m for m in game.legal_moves() if len(m.captured) == 2]
    text = move_text(game.variant, capture)
    assert text.startswith("28x") and text.count("x") == 3
    assert find_move(game, text) == capture
    # the captured squares in any order, or left out where the move is unique
    parts = text.split("x")
    assert find_move(game, "x".join([parts[0], parts[1], parts[3], parts[2]])) == capture
    assert find_move(game, f"{parts[0]}x{parts[1]}") == capture
    assert move_text(game.variant, Game("international").legal_moves()[0]).count("-") == 1


@pytest.mark.parametrize("text", ["1-2", "99-1", "32", "a-b", "31-26x", "", "9" * 5000 + "-1"])
def test_bad_moves_are_refused(text: str) -> None:
    with pytest.raises(HubError):
        find_move(Game("international"), text)


def test_the_variant_s_own_notation_is_read_too() -> None:
    game = Game("russian")
    assert find_move(game, "c3-d4") == game.parse_move("c3-d4")


def test_command_lines_with_quoted_values() -> None:
    assert parse_line('pos pos=Wbbe moves="32-28 19-23"') == (
        "pos", {"pos": "Wbbe", "moves": "32-28 19-23"}
    )  # fmt: skip
    assert parse_line("go think") == ("go", {"think": ""})
    assert parse_line("  ") == ("", {})
    text = line("info", depth=3, pv="32-28 19-23", note='a "b"', skip=None)
    assert text == 'info depth=3 pv="32-28 19-23" note="a \\"b\\""'
    assert parse_line(text)[1]["note"] == 'a "b"'
    with pytest.raises(HubError):
        parse_line("level =3")


def test_an_engine_s_line_is_read_as_far_as_it_can_be() -> None:
    """The client passes over what it cannot read (the specification: ignore what you
    do not understand); shashki hub says what it could not read."""
    import pytest

    from shashki.engine.hub.text import HubError, parse_line

    text = 'done move=32-28 =junk ponder=17-22 note="unterminated'
    assert parse_line(text, lenient=True) == (
        "done", {"move": "32-28", "ponder": "17-22", "note": '"unterminated'}
    )  # fmt: skip
    assert parse_line('info depth=3 pv="1-2 3-4"', lenient=True)[1]["pv"] == "1-2 3-4"
    with pytest.raises(HubError, match="cannot read '=junk"):
        parse_line(text)


# -- what the letters cannot say -------------------------------------------------------------


def test_the_exact_text_is_the_text_where_the_letters_say_the_whole_position() -> None:
    game = Game("russian")
    assert exact_position_text(game) == position_text(game)
    game.push_text("c3-d4")
    assert exact_position_text(game, version=1) == position_text(game, version=1)


def test_no_text_for_a_position_the_letters_would_empty_or_flatten() -> None:
    # Artamonov's pieces are shared (no letter: the board came out empty), Bashni's
    # columns keep pieces under their tops, a double move's turn can be half played
    assert exact_position_text(Game("artamonov")) is None
    bashni = Game("bashni")
    for text in ("c3-d4", "f6-e5", "d4:f6"):
        bashni.push_text(text)
    assert exact_position_text(bashni) is None
    double = Game("double-move")
    double.push(double.legal_moves()[0])
    if double.turn is Color.WHITE:  # (the first of White's two moves is played)
        assert exact_position_text(double) is None
