"""Input of any length is answered in a message of a few lines at most: a FEN, a move, a
player's seat or a level of megabytes is quoted in part, never echoed whole, and never
turned into Python's own ValueError about long integers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.app.players import seat
from shashki.cli import main
from shashki.rules import Game, ShashkiError, all_variants
from shashki.rules.game import game_state
from shashki.rules.notation import parse_move
from shashki.session.seats import LevelSeat, PersonSeat

#: A message may quote a FEN (80 characters) and a position; never the whole input.
LONGEST = 600

HOSTILE = [
    "W:W" + "9" * 5000,
    "W:W" + "1," * 200_000 + "2:B3",
    "X" * 1_000_000,
    "W:W31:B" + "K" * 100_000,
    "B:W" + "a1" * 100_000,
    "W:WK1:B" + "2-" * 50_000 + "3",
    "W:W1=" + "w" * 100_000 + ":B2",
    "W:W1:B2:H" + "9" * 5000,
]


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
@pytest.mark.parametrize("fen", HOSTILE, ids=range(len(HOSTILE)))
def test_a_long_fen_is_quoted_in_part(variant: str, fen: str) -> None:
    with pytest.raises(ShashkiError) as caught:
        Game(variant, fen)
    assert len(str(caught.value)) < LONGEST


@pytest.mark.parametrize("variant", ["russian", "international", "bashni", "artamonov"])
@pytest.mark.parametrize(
    "text", ["c3-" * 100_000 + "d4", "9" * 5000 + "-1", "x" * 1_000_000, "ed4" * 1000]
)
def test_a_long_move_is_quoted_in_part(variant: str, text: str) -> None:
    game = Game(variant)
    with pytest.raises(ShashkiError) as caught:
        parse_move(game.variant, text, game.legal_moves(), game_state(game))
    assert len(str(caught.value)) < LONGEST


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_seat_reads_any_text(text: str) -> None:
    kind = seat(text, engines=[])
    assert kind is None or isinstance(kind, (PersonSeat, LevelSeat))


def test_seat_of_a_huge_level() -> None:
    assert seat("9" * 5000, engines=[]) is None
    assert seat("computer-" + "0" * 5000 + "5", engines=[]) == LevelSeat(5)
    assert seat("²", engines=[]) is None


def test_a_huge_level_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "russian", "--white", "9" * 5000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < LONGEST


def test_a_huge_fen_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "russian", "1", "--fen", "W:W" + "1," * 100_000 + "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < LONGEST
