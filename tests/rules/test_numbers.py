"""Numbers of any size in user text (issue 11): a variant name or PDN GameType of
thousands of digits, square numbers, material patterns, Artamonov's FEN fields.  No
ValueError from int()'s 4,300-digit limit, no RecursionError: "unknown variant" or
"not a square", in one line that quotes at most a few dozen characters.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shashki.cli import main
from shashki.rules import Game, UnknownVariantError, find_variant
from shashki.rules.errors import BadFenError
from shashki.rules.numbers import bounded_int, is_digits, quoted
from shashki.rules.switches import MaterialPattern
from shashki.rules.variant import gametype_number

HUGE = "9" * 5000  # int() refuses more than 4,300 digits


# -- the helpers ------------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=10**30), st.integers(min_value=0, max_value=10**12))
def test_bounded_int_reads_a_number_up_to_the_maximum(value: int, maximum: int) -> None:
    assert bounded_int(str(value), maximum) == (value if value <= maximum else None)
    assert bounded_int("000" + str(value), maximum) == (value if value <= maximum else None)


@given(st.text(max_size=60))
def test_bounded_int_takes_only_ascii_digits(text: str) -> None:
    value = bounded_int(text, 10**6)
    if value is not None:
        assert is_digits(text) and value == int(text)
    assert is_digits(text) == (text != "" and all(c in "0123456789" for c in text))


@pytest.mark.parametrize("text", ["²", "٣", "1_000", " 5", "-5", "+5", "5 ", "", "0x10"])
def test_texts_int_would_read_or_choke_on_are_not_numbers(text: str) -> None:
    assert bounded_int(text, 10**9) is None


@pytest.mark.parametrize("digits", [4300, 4301, 5000, 100_000])
def test_a_number_of_any_length_is_answered_at_once(digits: int) -> None:
    assert bounded_int("9" * digits, 10**9) is None
    assert bounded_int("0" * digits + "7", 10) == 7


@given(st.text(max_size=300), st.integers(min_value=1, max_value=80))
def test_quoted_is_one_short_line(text: str, limit: int) -> None:
    q = quoted(text, limit)
    assert "\n" not in q and "\r" not in q
    assert len(q) <= len(repr(text[:limit])) + 3


# -- variant names and GameTypes ------------------------------------------------------------


@pytest.mark.parametrize(
    "name", [HUGE, HUGE + ",W,8,8,A0,0", "1" + "0" * 5000, " " + HUGE + " ", "9" * 100_000]
)
def test_a_huge_variant_name_or_gametype_is_unknown(name: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant(name)
    message = str(info.value)
    assert "unknown variant" in message and "\n" not in message
    assert len(message) < 1000, message


@given(st.text(alphabet="0123456789, ", max_size=6000))
def test_find_answers_any_gametype_like_text(text: str) -> None:
    try:
        v = find_variant(text)
    except UnknownVariantError:
        return
    number = gametype_number(text)
    assert number is not None and v.gametype_number == number


@given(st.text(max_size=200))
def test_find_raises_only_unknown_variant(text: str) -> None:
    try:
        find_variant(text)
    except UnknownVariantError as exc:
        assert "\n" not in str(exc)


def test_gametype_number_is_bounded() -> None:
    assert gametype_number("25,W,8,8,A0,0") == 25
    assert gametype_number(" 20 ") == 20
    assert gametype_number(HUGE) is None
    assert gametype_number("²") is None
    assert gametype_number("") is None
    assert find_variant("025").id == "russian"


@pytest.mark.parametrize("args", [["rules", HUGE], ["perft", HUGE, "1"], ["best", HUGE]])
def test_the_command_line_says_unknown_variant(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("shashki: error: unknown variant") and err.count("\n") == 1
    assert len(err) < 1000


def test_a_pdn_game_naming_a_huge_variant_is_not_a_traceback() -> None:
    # the reader looks the Variant tag up with find_variant (its own GameType parsing is
    # the reader's)
    from shashki.records.reader import read_games_text

    for tag in (HUGE, HUGE + ",W,8,8,A0,0", "1" * 4301):
        games = read_games_text(f'[Variant "{tag}"]\n\n1. 32-28 *\n')
        assert len(games) == 1 and games[0].errors
        assert all("\n" not in str(e) for e in games[0].errors)


# -- squares, material patterns, FEN fields ---------------------------------------------------


@pytest.mark.parametrize("text", [HUGE, "0" * 5000, "0", "33", "²", "٣٢", "99999999999999999999"])
def test_a_square_number_of_any_size_is_not_a_square(text: str) -> None:
    board = find_variant("russian").board
    with pytest.raises(ValueError) as info:
        board.parse_square(text)
    message = str(info.value)
    assert "square" in message and len(message) < 200, message


def test_square_numbers_with_leading_zeros_still_read() -> None:
    board = find_variant("international").board
    assert board.parse_square("0050") == board.parse_square("50")


@pytest.mark.parametrize("fen", [f"W:W{HUGE}:B1", f"W:W1-{HUGE}:B2", f"W:W1:B2:H{HUGE}"])
def test_a_fen_with_huge_numbers_is_a_bad_fen(fen: str) -> None:
    with pytest.raises(BadFenError):
        Game("russian", fen)


@pytest.mark.parametrize("text", [HUGE + "K", "1" * 4301 + "M", "145K", "2K+" + HUGE + "M", "٣K"])
def test_a_material_pattern_with_a_huge_count_is_refused(text: str) -> None:
    with pytest.raises(ValueError) as info:
        MaterialPattern.parse(text)
    message = str(info.value)
    assert message.startswith("bad material pattern") and len(message) < 200, message


def test_material_patterns_up_to_a_full_board_read() -> None:
    assert MaterialPattern.parse("144K") == MaterialPattern(144, 0, False, False, "144K")
    assert MaterialPattern.parse("3+K").kings_or_more


@pytest.mark.parametrize(
    "field", [f"C{HUGE},0", "C-1,0", "C 1,0", "C1,33", f"L{HUGE}", "L-1", "L1000001"]
)
def test_artamonov_counts_of_any_size_are_bad_fields(field: str) -> None:
    with pytest.raises(BadFenError) as info:
        Game("artamonov", f"W:N1-12,21-32:{field}")
    assert "bad field" in str(info.value)


def test_artamonov_counts_still_read() -> None:
    game = Game("artamonov", "W:N1,2,3:C12,9:L4")
    assert game.fen().endswith("C12,9:L4")
