"""Wolf and Sheep (docs/rules/family.md#wolf-sheep).

The wolf is White's single piece (a one-step king that is never crowned: it is written
``K``), the four sheep are Black's men. The wolf moves first and wins on rank 8; the
sheep win when the wolf cannot move; a side with no move on its turn loses; no draws.
"""

from __future__ import annotations

import pytest

from shashki.engine.search import WIN, Search
from shashki.rules import Color, Game, IllegalMoveError, Kind, Piece, Termination, find_variant
from shashki.rules.endrules import EndRules
from shashki.rules.game import game_state

from ..conftest import mv, paths

WOLF, SHEEP = Color.WHITE, Color.BLACK
SHEEP_AT_HOME = "Bb8,d8,f8,h8"


# -- the wolf's start square ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "moves"),
    [
        ("a1", {"a1-b2"}),
        ("c1", {"c1-b2", "c1-d2"}),
        ("e1", {"e1-d2", "e1-f2"}),
        ("g1", {"g1-f2", "g1-h2"}),
    ],
)
def test_the_wolfs_player_chooses_its_square(label: str, moves: set[str]) -> None:
    game = Game("wolf-sheep", start=label)
    assert game.start_label == label
    assert game.fen() == f"W:WK{label}:{SHEEP_AT_HOME}"
    assert game.turn is WOLF  # the wolf moves first
    assert paths(game) == moves


def test_the_default_square_is_e1() -> None:
    game = Game("wolf-sheep")
    assert game.start_label == "e1"
    assert game.fen() == f"W:WKe1:{SHEEP_AT_HOME}"
    assert find_variant("wolf-sheep").start == f"W:WKe1:{SHEEP_AT_HOME}"


def test_the_start_options_are_the_four_dark_squares_of_rank_1() -> None:
    variant = find_variant("wolf-sheep")
    assert [label for label, _ in variant.start_options] == ["a1", "c1", "e1", "g1"]
    assert variant.start_choice
    assert not variant.start_by_lot
    with pytest.raises(ValueError, match="b1"):
        Game("wolf-sheep", start="b1")


# -- moves -----------------------------------------------------------------------------------


def test_sheep_step_forward_only() -> None:
    game = Game("wolf-sheep", f"B:WKe1:{SHEEP_AT_HOME}")
    assert paths(game) == {"b8-a7", "b8-c7", "d8-c7", "d8-e7", "f8-e7", "f8-g7", "h8-g7"}


def test_the_wolf_steps_forward_and_backward_and_never_jumps() -> None:
    assert paths(Game("wolf-sheep", "W:WKd4:Bb8,h8")) == {"d4-c3", "d4-e3", "d4-c5", "d4-e5"}
    # sheep in front with empty squares behind them: still no capture
    assert paths(Game("wolf-sheep", "W:WKd6:Bc7,e7,a7,g5")) == {"d6-c5", "d6-e5"}


def test_nobody_is_crowned() -> None:
    game = Game("wolf-sheep", "B:WKh6:Bb2")
    game.push(mv("wolf-sheep", "b2", "a1"))
    assert game.piece_at(game.variant.board.parse_square("a1")) == Piece(SHEEP, Kind.MAN)


# -- the end of the game -----------------------------------------------------------------------


def test_the_wolf_wins_on_rank_8() -> None:
    game = Game("wolf-sheep", "W:WKf6:Ba7,c7,e7,g5")
    game.push(mv("wolf-sheep", "f6", "g7"))
    assert game.outcome() is None
    game.push(mv("wolf-sheep", "a7", "b6"))
    game.push(mv("wolf-sheep", "g7", "h8"))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.GOAL
    assert outcome.winner is WOLF and outcome.rule == "the wolf reached the far row"


def test_the_goal_comes_before_the_sheeps_lack_of_moves() -> None:
    outcome = Game("wolf-sheep", "B:WKh8:Ba1,c1,e1,g1").outcome()
    assert outcome is not None and outcome.termination is Termination.GOAL
    assert outcome.winner is WOLF


@pytest.mark.parametrize("fen", ["W:WKa1:Bb2,c3", "W:WKh2:Bg3,g1", "W:WKe3:Bd4,f4,d2,f2"])
def test_a_blocked_wolf_loses(fen: str) -> None:
    game = Game("wolf-sheep", fen)
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is SHEEP and outcome.rule == "Wolf has no legal move"


def test_blocked_sheep_lose() -> None:
    # every sheep on rank 1: they cannot move, and the sheep lose
    outcome = Game("wolf-sheep", "B:WKd4:Ba1,c1,e1,g1").outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is WOLF and outcome.rule == "Sheep has no legal move"
    # a sheep on a3 blocked by the wolf on b2, one on h2 by another on g1
    outcome = Game("wolf-sheep", "B:WKb2:Ba3,h2,g1").outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is WOLF


def test_there_are_no_draws() -> None:
    assert find_variant("wolf-sheep").draws == ()


def test_the_sheep_win_by_shutting_the_wolf_in() -> None:
    game = Game("wolf-sheep", "B:WKa1:Bc3,h8")
    assert game.outcome() is None
    game.push(mv("wolf-sheep", "c3", "b2"))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is SHEEP
    assert outcome.describe(game.variant.side_names) == "Sheep wins: Wolf has no legal move."


def test_perft_from_each_start() -> None:
    # the wolf's 1 or 2 moves, then the sheep's 7: depth 2 = 7 x depth 1
    for label, first in (("a1", 1), ("c1", 2), ("e1", 2), ("g1", 2)):
        game = Game("wolf-sheep", start=label)
        assert game.perft(1) == first
        assert game.perft(2) == 7 * first


# -- a goal reached ends the game: no legal move after it --------------------------------------

GOAL_REACHED = "B:WKh8:Ba5,c5,e5,g5"  # the sheep could still move, but the wolf has won
ONE_STEP_AWAY = "W:WKf6:Ba7,c7,e7,g5"  # f6-g7, then g7-h8 wins


def test_no_legal_move_once_the_wolf_has_won() -> None:
    game = Game("wolf-sheep", GOAL_REACHED)
    assert game.legal_moves() == []
    assert game.captures() == []
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.GOAL
    assert [game.perft(d) for d in (0, 1, 2, 3)] == [1, 0, 0, 0]
    assert list(game.divide(2)) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.push(mv("wolf-sheep", "a5", "b4"))


def reference_perft(game: Game, depth: int) -> int:
    """Perft by the game object: a position whose game is decided has no moves."""
    if depth == 0:
        return 1
    if game.outcome() is not None and game.outcome().termination is Termination.GOAL:  # type: ignore[union-attr]
        return 0
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += reference_perft(game, depth - 1)
        game.pop()
    return total


def test_perft_counts_nothing_below_the_goal() -> None:
    game = Game("wolf-sheep", ONE_STEP_AWAY)
    game.push(mv("wolf-sheep", "f6", "g7"))
    game.push(mv("wolf-sheep", "a7", "b6"))
    # g7-h8 and g7-f8 win at once: no replies; after g7-f6 and g7-h6 the sheep move
    divide = {str(m): n for m, n in game.divide(2)}
    assert divide[str(mv("wolf-sheep", "g7", "h8"))] == 0
    assert divide[str(mv("wolf-sheep", "g7", "f8"))] == 0
    assert sorted(divide.values()) == [0, 0, 6, 7]
    for depth in range(1, 6):
        assert game.perft(depth) == reference_perft(game, depth)
    assert Game("wolf-sheep", ONE_STEP_AWAY).perft(4) == reference_perft(
        Game("wolf-sheep", ONE_STEP_AWAY), 4
    )


def test_the_engine_agrees_the_game_is_won() -> None:
    game = Game("wolf-sheep", GOAL_REACHED)
    ends = EndRules(game.variant)
    assert ends.outcome(game_state(game), game.legal_moves(), 0, 0, [game_state(game)]) == (
        game.outcome()
    )
    result = Search(game.variant).search(game, depth=3)
    assert result.move is None and result.outcome == game.outcome()
    # one step from the goal the search sees the win: the wolf to move wins in one ply
    game = Game("wolf-sheep", "W:WKg7:Ba5,c5,e5,b8")
    result = Search(game.variant).search(game, depth=3)
    assert result.move == mv("wolf-sheep", "g7", "h8")
    assert result.score == WIN - 1
