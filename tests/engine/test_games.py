"""Seeded computer-against-computer games: every variant's game ends with a named outcome,
and the engine's moves are legal all the way."""

from __future__ import annotations

import pytest

from shashki.engine import ComputerPlayer, goal_table
from shashki.rules import Color, Game, Termination, all_variants
from shashki.rules.game import game_state

VARIANTS = [v.id for v in all_variants()]


def play(
    variant: str,
    white: ComputerPlayer,
    black: ComputerPlayer,
    *,
    start: str | None = None,
    limit: int = 1000,
) -> Game:
    game = Game(variant, start=start, seed=1)
    players = (white, black)
    for _ in range(limit):
        if game.outcome() is not None:
            return game
        move = players[game.turn].think(game.copy())
        assert move is not None
        game.push(move)  # refuses an illegal move
    raise AssertionError(f"{variant}: no end after {limit} plies ({game.fen()})")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_computer_game_ends_with_a_named_outcome(variant: str) -> None:
    game = play(
        variant,
        ComputerPlayer(2, seed=1, seconds=0.05, depth=2),
        ComputerPlayer(1, seed=2, seconds=0.05, depth=1),
    )
    out = game.outcome()
    assert len(game.move_stack) >= 4
    assert out is not None and out.termination in Termination
    assert out.rule or out.termination is Termination.NO_LEGAL_MOVES
    assert out.describe(game.variant.side_names)


def test_the_perfect_sheep_always_win() -> None:
    # the sheep at the top level against wolves of every level, from every wolf square
    for start in ("a1", "c1", "e1", "g1"):
        for level in (1, 5):
            game = play(
                "wolf-sheep",
                ComputerPlayer(level, seed=3, seconds=0.05, depth=4),
                # depth 1 bounds its search; the time only bounds its wait for the goal
                # table (built in a thread: on a loaded machine not within 0.05 s, and
                # the sheep then played by a depth-1 search and lost)
                ComputerPlayer(8, seconds=600, depth=1),
                start=start,
            )
            out = game.outcome()
            assert out is not None and out.winner is Color.BLACK, (start, level, out)
    table = goal_table(Game("wolf-sheep").variant)
    for start in ("a1", "c1", "e1", "g1"):
        assert not table.wins(game_state(Game("wolf-sheep", start=start)))  # the wolf loses
