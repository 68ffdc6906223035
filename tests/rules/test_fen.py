"""PDN FEN in and out: every accepted form, the counters, and a clear BadFenError for
anything else (no other exception may escape the reader)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.rules import BadFenError, Color, Game, Kind, all_variants, find_variant, parse_fen
from shashki.rules.game import game_state

from ..conftest import mv, sq

CLASSIC = ("traditional", "russian", "brazilian", "international", "english")
ALL = [v.id for v in all_variants()]


def position(variant: str, fen: str) -> object:
    return parse_fen(find_variant(variant), fen).position


def listed(numbers: range) -> str:
    return ",".join(str(n) for n in numbers)


# -- the accepted forms ---------------------------------------------------------------


def test_ranges() -> None:
    assert position("international", "W:W31-50:B1-20") == game_state(Game("international"))
    assert position("international", "W:W31-50:B1-20") == position(
        "international", f"W:W{listed(range(31, 51))}:B{listed(range(1, 21))}"
    )
    # lidraughts writes the Russian start out in full, with counters
    assert position("russian", f"W:W{listed(range(21, 33))}:B{listed(range(1, 13))}:H0:F1") == (
        game_state(Game("russian"))
    )
    # ranges mix with single squares, and a K before a range crowns the whole range
    game = Game("international", "W:WK46-48,50:B1-3,K5")
    number = game.variant.board.number
    assert sorted(number(s) for s in game.pieces()) == [1, 2, 3, 5, 46, 47, 48, 50]
    kings = {number(s) for s, p in game.pieces().items() if p.kind is Kind.KING}
    assert kings == {5, 46, 47, 48}


@pytest.mark.parametrize("variant", CLASSIC)
def test_start_position_round_trip(variant: str) -> None:
    game = Game(variant)
    assert game_state(Game(variant, game.fen())) == game_state(game)
    assert Game(variant, game.variant.start).fen() == game.fen()


def test_trailing_dot_quotes_and_spaces() -> None:
    start = game_state(Game("russian"))
    for text in (
        "W:W21-32:B1-12.",
        '"W:W21-32:B1-12"',
        "  W:W21-32:B1-12 .  ",
        "W : W21-32 : B1-12",
        "W:W21, 22,23-32:B1-12",
        "w:w21-32:b1-12",
    ):
        assert position("russian", text) == start, text


def test_unknown_side_to_move() -> None:
    assert Game("russian", "?:W21-32:B1-12").turn is Color.WHITE
    assert Game("english", "?:W21-32:B1-12").turn is Color.BLACK
    assert Game("international", "?:W31-50:B1-20").turn is Color.WHITE


def test_doubled_legacy_prefix() -> None:
    # "W:B:W…:B…": the second letter is the side to move
    game = Game("russian", "W:B:W21-32:B1-12")
    assert game.turn is Color.BLACK
    assert game_state(game)[:3] == game_state(Game("russian"))[:3]
    assert Game("russian", "B:W:W21-32:B1-12").turn is Color.WHITE
    assert game_state(Game("international", "W:W:W31-50:B1-20")) == game_state(
        Game("international")
    )


def test_empty_side() -> None:
    game = Game("international", "B:W50:B")
    assert game.turn is Color.BLACK
    assert list(game.pieces()) == [sq("international", "50")]
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE
    assert Game("russian", "W:W:Bc3").pieces() == {sq("russian", "c3"): (Color.BLACK, Kind.MAN)}
    assert Game("russian", "W:W:B").pieces() == {}


def test_algebraic_and_numeric_squares() -> None:
    # algebraic squares in a numeric game, numeric squares in an algebraic game, mixed
    assert position("international", "W:Wa1,Kc1:Bj10") == position("international", "W:W46,K47:B5")
    assert position("english", "B:Wa1,c1:Bb8") == position("english", "B:W29,30:B1")
    assert position("russian", "W:W21,Kg1:B1,h8") == position("russian", "W:Wa3,K32:Bb8,4")
    # written back in the variant's own notation, in PDN number order, K for kings
    assert Game("international", "W:W50,a1,K47:B5").fen() == "W:W46,K47,50:B5"
    assert Game("russian", "W:W32,K21:B1").fen() == "W:WKa3,g1:Bb8"
    assert Game("english", "B:Wa1:Bb8").fen() == "B:W29:B1"


def test_colour_sections_in_either_order() -> None:
    assert position("russian", "W:B1-12:W21-32") == game_state(Game("russian"))
    swapped = position("international", "B:B1-20:W31-50")
    assert swapped == position("international", "B:W31-50:B1-20")


def test_counters() -> None:
    game = Game("russian", "W:WKa1:BKh2:H7:F12")
    assert (game.reversible_plies, game.fullmove_number, game.ply) == (7, 12, 22)
    assert game.fen() == "W:WKa1:BKh2:H7:F12"
    game.push(mv("russian", "a1", "b2"))  # a king move: the count goes on
    assert (game.reversible_plies, game.fullmove_number) == (8, 12)
    assert game.fen().endswith(":H8:F12")
    game.push(mv("russian", "h2", "g1"))  # Black's move ends the full move
    assert (game.reversible_plies, game.fullmove_number) == (9, 13)
    assert game.fen() == "W:WKb2:BKg1:H9:F13"
    # Black to move in move 3: White's third move came first
    assert Game("russian", "B:WKa1:BKh2:F3").ply == 5
    # counters are optional, in either order, and left out of the FEN when trivial
    assert Game("russian", "W:WKa1:BKh2:F12:H7").fen() == "W:WKa1:BKh2:H7:F12"
    assert Game("russian", "W:WKa1:BKh2:H0:F1").fen() == "W:WKa1:BKh2"
    assert Game("russian", "W:WKa1:BKh2:h3:f4").fen() == "W:WKa1:BKh2:H3:F4"


def test_counters_after_a_man_move() -> None:
    game = Game("english", "B:W21-32:B1-12:H5:F3")
    assert game.ply == 4  # Black moves first in English draughts
    game.push(game.legal_moves()[0])
    assert game.reversible_plies == 0
    assert game.fen().endswith(":H0:F3")


# -- mistakes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        ".",
        '""',
        "X:W21:B1",
        "W21:B1",
        "W:W21:B1:W22",  # White listed twice
        "W:W21:B21",  # a square of both colours
        "W:W21,21:B1",  # a square twice
        "W:W0:B1",
        "W:W33:B1",  # 8x8 has 32 squares
        "W:Wb1:B1",  # a light square
        "W:Wi1:B1",  # off the board
        "W:Wz9:B1",
        "W:W5-3:B1",  # empty range
        "W:W1-:B1",
        "W:W-5:B1",
        "W:Wa1-c3:B1",
        "W:W21-40:B1",  # a range beyond the board
        "W:W21:B1:Q5",  # unknown field
        "W:W21:B1:H",  # counter without a number
        "W:W21:B1:H-1",
        "W:W21:B1:Fx",
        "W::B1",  # empty field
        "W:W21:B1::",
        "W:WKK21:B1",
        "W:W2 1:B1",
        "W:W21;B1",
        "W:W21:B1:N5",  # colourless pieces in a two-colour game
        "W:W21=wb:B1",  # a column in a game without columns
    ],
)
@pytest.mark.parametrize("variant", ["russian", "english"])
def test_bad_fen(variant: str, text: str) -> None:
    with pytest.raises(BadFenError) as info:
        Game(variant, text)
    message = str(info.value)
    assert message and "\n" not in message
    if text.strip() not in ("", '""', "."):
        assert repr(text) in message or text.strip() in message, message


@pytest.mark.parametrize(
    "text",
    [
        "W:W21:B1:H\u00b2",  # a digit that int() does not read
        "W:W21:B1:F\u00b2",
        "W:W1-\u00b2:B1",
        "W:W\u00b2:B1",
        "W:W21:B1:F" + "9" * 5000,  # beyond int()'s digit limit
        "W:W1-" + "9" * 5000 + ":B1",
        "W:W21:B1:H16777216",  # beyond what the game's clock can hold
        "W:W21:B1:F99999999999",
    ],
    ids=[
        "H-superscript",
        "F-superscript",
        "range-superscript",
        "square-superscript",
        "huge-F",
        "huge-range",
        "H-2**24",
        "huge-F-11-digits",
    ],
)
def test_bad_numbers_in_fen(text: str) -> None:
    with pytest.raises(BadFenError):
        Game("russian", text)


def test_large_counters_round_trip() -> None:
    game = Game("russian", "W:WKa1:BKh2:H1000:F5000")
    assert (game.reversible_plies, game.fullmove_number) == (1000, 5000)
    assert game.fen() == "W:WKa1:BKh2:H1000:F5000"


def test_bad_fen_on_10x10() -> None:
    for text in ("W:W51:B1", "W:Wk1:B1", "W:W31-51:B1", "W:Wa2:B1"):
        with pytest.raises(BadFenError):
            Game("international", text)


def test_set_fen_keeps_the_game_on_error() -> None:
    game = Game("russian")
    before = game.fen()
    with pytest.raises(BadFenError):
        game.set_fen("W:W99:B1")
    assert game.fen() == before


FEN_ALPHABET = "WBKHFN?:,.-=x 0123456789abcdefghijklmwbk\"'\t\u00b2\u0663"


@pytest.mark.parametrize("variant", ALL)
@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    text=st.one_of(
        st.text(FEN_ALPHABET, max_size=40),
        st.text(max_size=20),
        st.lists(
            st.sampled_from(
                [
                    "W",
                    "B",
                    "?",
                    "K",
                    "H",
                    "F",
                    "N",
                    ":",
                    ",",
                    "-",
                    ".",
                    "=",
                    "1",
                    "5",
                    "12",
                    "21",
                    "32",
                    "50",
                    "99",
                    "a1",
                    "c3",
                    "h8",
                    "j10",
                    "w",
                    "b",
                    "99999999999",
                    "16777216",
                ]
            ),
            max_size=14,
        ).map("".join),
    )
)
def test_fen_reader_raises_only_bad_fen_error(variant: str, text: str) -> None:
    try:
        game = Game(variant, text)
    except BadFenError as exc:
        assert str(exc)
    else:
        # whatever was accepted writes out and reads back to the same position
        assert game_state(Game(variant, game.fen())) == game_state(game)
