"""Goals (``Variant.goals``) on any engine and modifier: once a side's piece stands on a
goal rank the game is decided, the position has no legal move, and perft counts nothing
below it.  Variants without goals keep their generator (and its fast perft) unchanged.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

from shashki.engine.search import Search
from shashki.rules import Game, Termination, Variant, all_variants, load_variant_file
from shashki.rules.endrules import EndRules
from shashki.rules.game import fast_moves, game_state
from shashki.rules.goals import GoalsMixin
from shashki.rules.movegen import MoveGenerator

#: Both sides win on reaching their crowning row (the coming "breakthrough"), on hosts
#: of every engine and with modifiers that change who moves what.
GOALS = """
[[goals]]
side = "white"
rank = 8
name = "White broke through"

[[goals]]
side = "black"
rank = 1
name = "Black broke through"
"""
HOSTS = {
    "g-russian": 'host = "russian"',
    "g-turkish": 'host = "turkish"',
    "g-bashni": 'host = "bashni"',
    "g-move-opponent": 'host = "move-opponent"',
    "g-double-move": 'host = "double-move"',
    "g-demotion": 'host = "demotion"',
}
_MADE: dict[str, Variant] = {}


def variant_of(name: str) -> Variant:
    if name not in _MADE:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{name}.toml"
            path.write_text(f'id = "{name}"\nname = "{name}"\n{HOSTS[name]}\n{GOALS}', "utf-8")
            _MADE[name] = load_variant_file(path)
    return _MADE[name]


def goal_reached(game: Game) -> bool:
    out = game.outcome()
    return out is not None and out.termination is Termination.GOAL


def reference_perft(game: Game, depth: int) -> int:
    """Perft by the game object, stopping where a goal decides the game."""
    if depth == 0:
        return 1
    if goal_reached(game):
        return 0
    total = 0
    for move in game.legal_moves():
        game.push_unchecked(move)
        total += reference_perft(game, depth - 1)
        game.pop()
    return total


def random_game(variant: Variant, rng: random.Random, plies: int) -> Game:
    """A game after up to ``plies`` random moves from the start."""
    game = Game(variant)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push_unchecked(rng.choice(moves))
    return game


def test_variants_without_goals_keep_their_generator() -> None:
    for variant in all_variants():
        gen = variant.generator
        assert isinstance(gen, GoalsMixin) is bool(variant.goals), variant.id
        if (
            not variant.goals
            and not variant.modifiers
            and variant.family == "standard"
            and not variant.rules.king_move_limit
        ):
            assert type(gen) is MoveGenerator, variant.id  # the fast perft


@pytest.mark.parametrize("name", sorted(HOSTS))
def test_no_legal_move_once_a_goal_is_reached(name: str) -> None:
    variant = variant_of(name)
    rng = random.Random(name)
    reached = 0
    for _ in range(30):
        game = random_game(variant, rng, rng.randrange(10, 60))
        if goal_reached(game):
            reached += 1
            assert game.legal_moves() == [] and game.captures() == []
            assert game.perft(1) == 0 and list(game.divide(2)) == []
            assert variant.generator.horizon(game_state(game)) == ([], False)
            ends = EndRules(variant)
            assert ends.outcome(game_state(game), [], 0, 0, [game_state(game)]) == game.outcome()
            result = Search(variant).search(game, depth=2)
            assert result.move is None and result.outcome == game.outcome()
        else:
            assert game.perft(3) == reference_perft(game, 3), game.fen()
            moves = game.legal_moves()
            captures, movable = variant.generator.horizon(game_state(game))
            assert movable is bool(moves)
            assert sorted(captures) == (sorted(fast_moves(game)) if captures else [])
            divided = {str(m): n for m, n in game.divide(2)}
            for move in game.legal_moves():
                game.push_unchecked(move)
                assert divided[str(move)] == reference_perft(game, 1), game.fen()
                game.pop()
    assert reached  # some random games did break through


def test_perft_near_the_goal() -> None:
    # White's man on g7 reaches the far row and wins: nothing is counted below
    game = Game(variant_of("g-russian"), "W:Wg7,a1:Bh4,a7")
    assert game.perft(1) == 3  # g7-f8, g7-h8, a1-b2
    assert game.perft(2) == reference_perft(game, 2) == 2  # only a1-b2 has replies
