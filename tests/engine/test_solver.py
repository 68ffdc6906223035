"""The Wolf and Sheep table is exact: it agrees with a plain search of the whole game tree
(seeded positions late enough for the tree to be small), and with the rules' outcomes."""

from __future__ import annotations

import random
from functools import cache

from shashki.engine import goal_table, solvable
from shashki.rules import Game, all_variants, find_variant
from shashki.rules.endrules import EndRules
from shashki.rules.game import game_state

WS = find_variant("wolf-sheep")


@cache
def brute(pos: tuple) -> bool:  # type: ignore[type-arg]
    """Whether the side to move wins, by searching every line to the end (no memo tricks
    beyond the cache: the game cannot repeat)."""
    ends = EndRules(WS)
    gen = WS.generator
    moves = gen.moves(pos)
    out = ends.outcome(pos, moves, 0, 0, [pos])
    if out is not None:
        return out.winner == pos[3]
    return any(not brute(gen.apply(pos, mv)) for mv in moves)


def test_only_wolf_and_sheep_is_solvable() -> None:
    assert [v.id for v in all_variants() if solvable(v)] == ["wolf-sheep"]


def test_the_table_agrees_with_a_full_search() -> None:
    table = goal_table(WS)
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        game = Game(WS, start=rng.choice(["a1", "c1", "e1", "g1"]))
        for _ in range(rng.randrange(20, 44)):
            if game.outcome() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        assert table.wins(game_state(game)) == brute(game_state(game)), game.fen()
        checked += 1
    assert checked == 200


def test_the_sheep_win_from_every_start() -> None:
    table = goal_table(WS)
    for label, _fen in WS.start_options:
        game = Game(WS, start=label)
        assert not table.wins(game_state(game))  # the wolf, to move, loses
        for mv in game.legal_moves():
            after = game.copy()
            after.push(mv)
            assert table.winning_moves(after)  # whatever it does, the sheep have a win
