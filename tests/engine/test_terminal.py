"""The search's end-of-game rules agree with Game.outcome() everywhere (seeded random games
over every variant, and endings chosen to bring the draw counters into play)."""

from __future__ import annotations

import random

import pytest

from shashki.engine.search import _history_keys
from shashki.rules import Game, all_variants
from shashki.rules.endrules import EndRules
from shashki.rules.game import game_state

VARIANTS = [v.id for v in all_variants()]


def _same(game: Game, ends: EndRules) -> None:
    keys = _history_keys(game, ends)
    mine = ends.outcome(
        game_state(game), game.legal_moves(), game.reversible_plies, game.material_plies, keys
    )
    assert mine == game.outcome(), game.fen()


def _play_out(game: Game, ends: EndRules, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        _same(game, ends)
        if game.outcome() is not None:
            return
        moves = game.legal_moves()
        # prefer king moves now and then, so that the counters run
        kings = [m for m in moves if game_state(game)[2] >> m.start & 1]
        game.push(rng.choice(kings if kings and rng.random() < 0.7 else moves))


@pytest.mark.parametrize("variant", VARIANTS)
def test_end_rules_match_game_outcome_in_random_games(variant: str) -> None:
    rng = random.Random(f"terminal-{variant}")
    ends = EndRules(Game(variant).variant)
    for _ in range(4):
        game = Game(variant, seed=rng.randrange(1000))
        _play_out(game, ends, rng, 400)


ENDINGS = {
    "russian": ["W:WK1,K2,K3:BK32", "W:WK1,K2:BK29", "W:WK10,K28:BK5,K19", "W:WK1,K2,K3:BK29:H20"],
    "international": ["W:WK1,K2,K3:BK50", "W:WK6,K44:BK5", "W:WK6,15:BK50"],
    "traditional": ["W:WK1,K2:BK29", "W:WK1,K2,K3:BK29", "W:WK1:BK32"],
    "brazilian": ["W:WK1,K2:BK32:H30"],
    "english": ["W:WK1,K2:BK32:H70"],
    "turkish": ["W:WKa1:BKh8", "W:WKa1,b2:Bh7"],
    "tama": ["W:WKa1:BKh8", "W:WKa1,Kb2:BKh8"],
    "bashni": ["W:WK1,K2:BK32:H20"],
    "giveaway": ["W:WK1,K2:BK32:H20"],
    "artamonov": ["W:NK1,K2,K30,K32", "W:NK1,K2,K30,K32:C3,5:L25"],
}


@pytest.mark.parametrize("variant", sorted(ENDINGS))
def test_end_rules_match_game_outcome_in_endings(variant: str) -> None:
    rng = random.Random(f"endings-{variant}")
    for fen in ENDINGS[variant]:
        for _ in range(3):
            game = Game(variant, fen)
            _play_out(game, EndRules(game.variant), rng, 200)
