"""Moves as players type them (issue 49): squares run together or apart, in either case,
numbers run together where one cut fits, the landing square alone when one move goes
there, and an ambiguous short form answered with the moves it could be — on every board
and in every notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.rules import (
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    all_variants,
)
from shashki.rules.notation import move_text

from ..conftest import mv

VARIANTS = [v.id for v in all_variants()]


def typed(game: Game, text: str) -> Move:
    return game.parse_typed_move(text)


# -- tables ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["c3d4", "C3D4", "c3 d4", "C3 d4", " c3  d4 ", "c3-d4", "c3:d4", "c3xd4", "22-18", "22 18"],
)
def test_russian_forms_of_c3_d4(text: str) -> None:
    assert typed(Game("russian"), text) == mv("russian", "c3", "d4")


@pytest.mark.parametrize("text", ["3228", "32 28", "32-28", "32x28", "{a}{b}", "{A} {B}"])
def test_international_forms_of_32_28(text: str) -> None:
    game = Game("international")
    move = game.parse_move("32-28")
    a, b = (game.variant.board.name(s) for s in (move.start, move.end))
    assert typed(game, text.format(a=a, b=b, A=a.upper(), B=b.upper())) == move


def test_the_landing_square_alone_when_one_move_goes_there() -> None:
    game = Game("russian")
    assert typed(game, "h4") == mv("russian", "g3", "h4")
    assert typed(game, "H4") == mv("russian", "g3", "h4")
    with pytest.raises(AmbiguousMoveError) as info:
        typed(game, "d4")
    assert str(info.value) == "d4: c3-d4 or e3-d4?"
    assert set(info.value.moves) == {mv("russian", "c3", "d4"), mv("russian", "e3", "d4")}
    with pytest.raises(IllegalMoveError) as nowhere:
        typed(game, "e5")
    assert "e5" in str(nowhere.value)


def test_three_moves_to_one_square_are_all_named() -> None:
    game = Game("russian", "W:Wc3,e3,Kh8:Ba7")
    with pytest.raises(AmbiguousMoveError) as info:
        typed(game, "d4")
    assert str(info.value) == "d4: c3-d4, e3-d4 or h8-d4?"


def test_a_capture_typed_by_its_squares_or_its_landing_square() -> None:
    game = Game("russian", "W:We3:Bd4,f4,f6")
    long = game.parse_move("e3:g5:e7")
    assert typed(game, "e3e7") == typed(game, "e7") == typed(game, "e3 g5 e7") == long
    assert typed(game, "e3xe7") == typed(game, "E3:E7") == long
    assert typed(game, "c5") == game.parse_move("e3:c5")


def test_numbers_run_together_only_where_one_cut_fits() -> None:
    # 3-28 or 32-8: both squares of the board; only one is a legal move here
    game = Game("international")
    assert typed(game, "3328") == game.parse_move("33-28")
    with pytest.raises(IllegalMoveError):
        typed(game, "329")  # 3-29, 32-9: neither is legal
    # a position where two cuts are legal moves: 1-12 and 11-2?  White king on 1 and on 11
    amb = Game("international", "W:WK1,K11:B50")
    moves = {amb.move_text(m) for m in amb.legal_moves()}
    assert {"1-12", "11-2"} <= moves, moves
    with pytest.raises(AmbiguousMoveError) as info:
        typed(amb, "112")
    assert str(info.value) == "112: 1-12 or 11-2?"


@pytest.mark.parametrize("text", ["", "hello", "c3-", "c3/d4", "zz9"])
def test_what_is_no_move_still_says_how_to_write_one(text: str) -> None:
    with pytest.raises(NotationError) as info:
        typed(Game("russian"), text)
    assert "c3-d4" in str(info.value)


@pytest.mark.parametrize("text", ["z9", "c0", "99", "m3n4"])
def test_squares_of_no_board_are_named(text: str) -> None:
    with pytest.raises((NotationError, IllegalMoveError)):
        typed(Game("russian"), text)


# -- every board, every notation ---------------------------------------------------------


def _positions(variant: str, seed: int, plies: int) -> Game:
    game = Game(variant)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = game.legal_moves()
        if not legal or game.outcome() is not None:
            break
        game.push(rng.choice(legal))
    return game


def _check_every_move(game: Game) -> None:
    legal = game.legal_moves()
    board = game.variant.board
    for move in legal:
        same_ends = [m for m in legal if m.start == move.start and m.end == move.end]
        short = move_text(game.variant, move, legal)
        names = [board.name(s) for s in (move.start, move.end)]
        forms = [short, "".join(names), " ".join(names), "".join(names).upper()]
        if len(same_ends) == 1:
            for text in forms:
                assert typed(game, text) == move, (game.fen(), text)
        else:
            for text in forms[1:]:
                with pytest.raises(AmbiguousMoveError) as info:
                    typed(game, text)
                assert set(info.value.moves) == set(same_ends)
        going = [m for m in legal if m.end == move.end]
        alone = board.name(move.end)
        if len(going) == 1:
            assert typed(game, alone) == move
        else:
            with pytest.raises(AmbiguousMoveError) as info:
                typed(game, alone)
            assert set(info.value.moves) == set(going)
        if game.variant.numeric:
            digits = "".join(str(board.number(s)) for s in (move.start, move.end))
            try:
                got = typed(game, digits)
            except AmbiguousMoveError as exc:
                assert move in exc.moves
            else:
                # the one cut that fits; it names this move unless the start and end are shared
                assert got == move or got in same_ends


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_move_of_every_variant_in_every_typed_form(variant: str) -> None:
    for seed, plies in ((0, 0), (1, 9), (2, 24)):
        _check_every_move(_positions(variant, seed, plies))


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), plies=st.integers(0, 60))
def test_typed_forms_in_random_positions(variant: str, seed: int, plies: int) -> None:
    _check_every_move(_positions(variant, seed, plies))
