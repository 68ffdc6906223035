"""Property tests over every registered variant, with seeded random games.

For each variant of the registry (so a new variant file is covered the day it is
added), hypothesis plays random games to their end and checks at every ply:

* the FEN round trip: ``Game(variant, game.fen())`` has the same position, FEN,
  counters and legal moves;
* the move text round trip: every legal move, written short or in full, reads back as
  itself;
* move identity (RULES.md A.2): no two legal moves share start, end and resulting
  position;

then that the game ended with a named outcome, and that popping every move restores
each earlier position, FEN, counter and move list exactly.

The runs are derandomized (the same games on every machine) and small, so the file
stays fast.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.notation import move_text, parse_move
from shashki.rules import Color, Game, Termination, all_variants, find_variant

VARIANTS = [v.id for v in all_variants()]
#: Plies after which a random game counts as endless (every variant has a draw rule or
#: a goal that ends random play long before this).
MAX_PLIES = 3000

SETTINGS = settings(
    max_examples=4,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.position,
        game.fen(),
        game.turn,
        game.ply,
        game.reversible_plies,
        game.material_plies,
        sorted(game.legal_moves()),
    )


def check_fen_round_trip(game: Game) -> None:
    fen = game.fen()
    again = Game(game.variant, fen)
    assert again.position == game.position, fen
    assert again.fen() == fen
    assert again.turn is game.turn
    assert again.reversible_plies == game.reversible_plies
    assert again.fullmove_number == game.fullmove_number
    assert sorted(again.legal_moves()) == sorted(game.legal_moves()), fen


def check_move_texts(game: Game) -> None:
    variant = game.variant
    legal = game.legal_moves()
    for move in legal:
        for text in (move_text(variant, move, legal), move_text(variant, move, full=True)):
            assert parse_move(variant, text, legal, game.position) == move, (text, game.fen())


def check_move_identity(game: Game) -> None:
    after: dict[tuple[int, int, object], object] = {}
    for move in game.legal_moves():
        copy = game.copy()
        copy.push_unchecked(move)
        key = (move.start, move.end, copy.position)
        assert key not in after, f"{move!r} and {after[key]!r} are one move in {game.fen()}"
        after[key] = move


def new_game(variant: str, rng: random.Random) -> Game:
    """A game from the start, or from one of the variant's start options (the wolf's
    square, Artamonov's first mover), chosen by ``rng`` so that nothing is left to lot."""
    options = find_variant(variant).start_options
    if options:
        return Game(variant, start=rng.choice([label for label, _ in options]))
    return Game(variant)


def play_random_game(variant: str, rng: random.Random) -> Game:
    game = new_game(variant, rng)
    history = [snapshot(game)]
    while game.outcome() is None:
        assert game.ply < MAX_PLIES, f"{variant}: no end after {MAX_PLIES} plies: {game.fen()}"
        check_fen_round_trip(game)
        check_move_texts(game)
        check_move_identity(game)
        legal = game.legal_moves()
        assert legal, "a game with no legal move must have an outcome"
        played = game.push(rng.choice(legal))
        assert game.move_stack[-1] == played
        history.append(snapshot(game))

    outcome = game.outcome()
    assert outcome is not None
    assert isinstance(outcome.termination, Termination) and outcome.termination.value
    assert outcome.rule, outcome
    assert outcome.winner in (None, Color.WHITE, Color.BLACK)
    if outcome.termination is Termination.NO_LEGAL_MOVES:
        assert game.legal_moves() == []
    check_fen_round_trip(game)

    # pop everything: each earlier state comes back exactly
    for _ in range(len(history) - 1):
        history.pop()
        played = game.move_stack[-1]
        assert game.pop() == played
        assert snapshot(game) == history[-1]
    assert game.move_stack == []
    with pytest.raises(IndexError):
        game.pop()
    return game


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_random_games(variant: str, rng: random.Random) -> None:
    play_random_game(variant, rng)


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False), plies=st.integers(0, 60))
def test_copy_is_independent(variant: str, rng: random.Random, plies: int) -> None:
    game = new_game(variant, rng)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        game.push(rng.choice(game.legal_moves()))
    before = snapshot(game)
    copy = game.copy()
    assert snapshot(copy) == before
    if copy.outcome() is None:
        copy.push(rng.choice(copy.legal_moves()))
        assert snapshot(game) == before
        copy.pop()
    assert snapshot(copy) == before


def test_move_stack_lists_the_moves_played() -> None:
    # it once read the wrong field of the push stack and raised IndexError
    game = Game("russian")
    played = [game.push(game.legal_moves()[0]) for _ in range(3)]
    assert game.move_stack == played
