"""Numbers of any size in user text (issue 11): a variant name or PDN GameType of
thousands of digits, square numbers, material patterns, Artamonov's FEN fields.  No
ValueError from int()'s 4,300-digit limit, no RecursionError: "unknown variant" or
"not a square", in one line that quotes at most a few dozen characters.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shashki.base.numbers import bounded_decimal, bounded_int, is_digits, one_line, quoted
from shashki.cli import main
from shashki.rules import Game, UnknownVariantError, find_variant
from shashki.rules.errors import BadFenError
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


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0.0), ("1", 1.0), ("0.5", 0.5), ("007.25", 7.25), ("3600", 3600.0),
     ("0" * 5000 + "1", 1.0), ("1." + "5" * 5000, 1.5555555555555556)],
)  # fmt: skip
def test_bounded_decimal_reads_seconds(text: str, value: float) -> None:
    assert bounded_decimal(text, 3600) == value


@pytest.mark.parametrize(
    "text",
    ["", ".5", "5.", "1e3", "1E3", "inf", "nan", "-1", "+1", " 1", "1 ", "1_0", "１", "٣",
     "0x10", "1.2.3", "3600.5", "3601", HUGE, "1,5"],
)  # fmt: skip
def test_bounded_decimal_refuses_what_float_would_read_or_choke_on(text: str) -> None:
    assert bounded_decimal(text, 3600) is None


@given(st.text(max_size=40))
def test_bounded_decimal_takes_only_ascii_digits_and_a_point(text: str) -> None:
    value = bounded_decimal(text, 10**9)
    if value is not None:
        assert set(text) <= set("0123456789.") and value == float(text)


#: Characters that would reach a terminal or a file as something else than text.
_NOT_TEXT = ("Cc", "Cf", "Cs", "Zl", "Zp")


@given(st.text(max_size=400), st.integers(min_value=1, max_value=100))
def test_one_line_is_plain_text_on_one_line(text: str, limit: int) -> None:
    import unicodedata

    plain = one_line(text, limit)
    assert len(plain) <= limit
    assert not any(unicodedata.category(c) in _NOT_TEXT for c in plain), repr(plain)
    assert " ".join(plain.split()) == plain  # (one space between words, no other space)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("Scan 3.1", "Scan 3.1"),
        ("dame\x1b[2J\x1b[31mred\x1b[0m", "damered"),  # a screen clear, a colour
        ("a\x1b]0;title\x07b", "ab"),  # a window title (OSC ended by BEL)
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # a hyperlink (ST)
        ("a\x9b31mb\x9d0;t\x9cc", "abc"),  # the C1 forms of CSI, OSC and ST
        ("a\x1bPq#0;2\x1b\\b", "ab"),  # DCS (sixel)
        ("a\x1b7b\x1bc", "ab"),  # save the cursor, reset the terminal
        ("abc\u202eevil\u2066x\u2069", "abcevilx"),  # bidirectional override, isolate
        ("zero\u200bwidth\ufeff", "zerowidth"),
        ("one\ntwo\r\nthree\u2028four\x85five\tsix", "one two three four five six"),
        ("bell\x07del\x7fbs\x08nul\x00", "belldelbsnul"),
        ("\x1b[", ""),
        ("Шашки — 𝄞 ✓", "Шашки — 𝄞 ✓"),
    ],
)
def test_one_line_removes_what_drives_a_terminal(text: str, plain: str) -> None:
    assert one_line(text) == plain


def test_one_line_is_cut_and_quick_on_megabytes() -> None:
    assert one_line("x" * 300, 10) == "xxxxxxxxx…"
    assert one_line("\x1b[31m" * 1_000_000 + "name", 20) == "…"  # never cleans it all
    assert len(one_line("word " * 1_000_000, 50)) == 50


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
