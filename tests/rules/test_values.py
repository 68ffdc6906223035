"""The library's value types: :class:`Move` (a frozen dataclass, written in its variant's
notation), :class:`Position` (an immutable, hashable position, not the generators' tuple),
and the naming of squares on the variant; the moves a game lists agree with the
generator's own (:class:`FastMove`), which stays inside the rules and the engine."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from shashki import Game, Move, NotationError, Position, all_variants, find_variant
from shashki.rules.game import fast_moves, game_state
from shashki.rules.move import FastMove, Kind

VARIANTS = [v.id for v in all_variants()]


def random_game(variant: str, rng: random.Random, plies: int) -> Game:
    """A game after up to ``plies`` random moves from the start."""
    game = Game(variant)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    return game


def test_a_move_is_a_frozen_dataclass_written_as_players_write_it() -> None:
    move = Game("russian").legal_moves()[0]
    assert dataclasses.is_dataclass(move) and not isinstance(move, tuple)
    assert repr(move) == "<Move c3-b4>" and str(move) == "c3-b4"
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.path = (1, 2)  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(move) if f.compare] == [
        "path",
        "captured",
        "promotion",
    ]
    numeric = Game("international").legal_moves()[0]
    assert repr(numeric) == "<Move 31-26>"
    capture = Game("international", "W:W32:B28").legal_moves()[0]
    assert repr(capture) == "<Move 32x23>" and capture.captured == (
        find_variant("international").parse_square("28"),
    )
    assert str(Game("russian", "W:Wc3:Bd4").legal_moves()[0]) == "c3:e5"


def test_a_move_no_longer_equals_a_raw_tuple() -> None:
    move = Game("russian").legal_moves()[0]
    assert move != (move.path, move.captured)
    assert move != tuple(move.fast())
    assert move.fast() == FastMove(move.path)  # (the generator's form, inside the rules)


def test_a_move_made_by_hand_is_the_listed_move() -> None:
    game = Game("russian")
    c3, d4 = game.variant.parse_square("c3"), game.variant.parse_square("d4")
    by_hand = Move((c3, d4))
    assert repr(by_hand) == f"Move(path=({c3}, {d4}))"  # no variant: the squares' numbers
    assert by_hand in game.legal_moves() and hash(by_hand) == hash(game.parse_move("c3-d4"))
    played = game.push(by_hand)
    assert played == by_hand and played.variant is game.variant and repr(played) == "<Move c3-d4>"
    assert game.move_stack == [by_hand] and game.history()[0][1] == by_hand
    assert repr(game.pop()) == "<Move c3-d4>"
    with pytest.raises(ValueError):
        Move((c3,))


def test_a_crowning_move_says_so_and_can_be_made_by_hand() -> None:
    game = Game("russian", "W:Wg7:Bd4")
    moves = game.legal_moves()
    assert [(str(m), m.promotion) for m in moves] == [("g7-f8", True), ("g7-h8", True)]
    played = game.push(Move(moves[1].path))  # without the promotion: found by its squares
    assert played.promotion and game.piece_at(played.end) is not None
    assert game.piece_at(played.end).kind is Kind.KING  # type: ignore[union-attr]
    assert game.move_stack[-1].promotion


def test_moves_copy_and_pickle_as_values() -> None:
    move = Game("russian", "W:Wg7:Bd4").legal_moves()[0]
    assert copy.copy(move) is move and copy.deepcopy(move) is move
    again = pickle.loads(pickle.dumps(move))
    assert again == move and again.variant is None  # (a variant is code: not pickled)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_listed_moves_are_the_generator_s(variant: str) -> None:
    """The differential test of the two forms: the same moves, the same order, and each
    one's promotion what playing it does (a man before, a king after)."""
    rng = random.Random(variant)
    for _ in range(6):
        game = random_game(variant, rng, rng.randrange(0, 40))
        listed = game.legal_moves()
        fast = fast_moves(game)
        assert [m.fast() for m in listed] == fast, game.fen()
        assert [(m.path, m.captured) for m in listed] == [(f.path, f.captured) for f in fast]
        assert game.captures() == [m for m in listed if m.is_capture] or not game.captures()
        for move in listed:
            assert move.variant is game.variant
            assert str(move) == game.move_text(move, full=True)
            before = game.piece_at(move.start)
            game.push_unchecked(move)
            after = game.piece_at(move.end)
            crowned = (
                before is not None
                and after is not None
                and before.kind is Kind.MAN
                and after.kind is Kind.KING
            )
            assert move.promotion == crowned, (game.fen(), move)
            assert game.pop() == move


def test_a_position_is_a_value_not_the_generators_tuple() -> None:
    game = Game("russian")
    start = game.position
    assert isinstance(start, Position) and not isinstance(start, tuple)
    assert start != game_state(game) and start == Game("russian").position
    assert start != Game("brazilian").position  # another variant, the same men
    assert start == Position.from_fen(game.variant, game.variant.start)
    assert {start: 1}[Game("russian").position] == 1
    assert start.pieces() == game.pieces() and start.turn == game.turn
    assert repr(start) == f"Position('russian', {start.fen()!r})"
    with pytest.raises(AttributeError):
        start.variant = find_variant("brazilian")  # type: ignore[misc]
    game.push_text("c3-d4")
    assert game.position != start and copy.deepcopy(start) is start
    assert pickle.loads(pickle.dumps(game.position)) == game.position


def test_a_position_keeps_a_variant_s_own_state() -> None:
    bashni = Game("bashni")
    bashni.push_text("c3-d4")
    bashni.push_text("f6-e5")
    bashni.push_text("d4:f6")
    column = bashni.position.column(bashni.variant.parse_square("f6"))
    assert column == "bw"  # the captured man under the capturer
    again = Position.from_fen(bashni.variant, bashni.position.fen())
    assert again == bashni.position and again.column(bashni.variant.parse_square("f6")) == "bw"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_square_is_named_and_read_back(variant: str) -> None:
    v = find_variant(variant)
    assert len(v.squares) == len(set(v.squares)) == len(v.board.squares)
    for number, square in enumerate(v.squares, 1):
        name = v.square_name(square)
        assert v.parse_square(name) == square
        assert v.parse_square(str(number)) == square  # a PDN number, in either notation
        assert v.parse_square(v.board.name(square)) == square
        assert name == (str(number) if v.numeric else v.board.name(square))


@pytest.mark.parametrize("text", ["", "z9", "0", "99", "c", "a1x", "c 3", "1" * 5000])
def test_a_square_that_is_not_one_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(NotationError) as raised:
        find_variant("russian").parse_square(text)
    assert str(raised.value) and isinstance(raised.value, ValueError)


@pytest.mark.parametrize("square", [-1, 10**6, 1.5, "c3", True])
def test_a_number_that_is_no_square_has_no_name(square: object) -> None:
    russian = find_variant("russian")
    with pytest.raises(ValueError):
        russian.square_name(square)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        russian.square_name(4)  # a padding index of the layout: no square
