"""The pieces of the search, each alone: the aspiration windows of the root, the node
search against a plain minimax over the game's own rules, and the limits that stop it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from shashki.engine import endings
from shashki.engine import search as search_module
from shashki.engine.search import (
    ASPIRATION,
    CHECK,
    INF,
    QFULL,
    WIN,
    Clock,
    Options,
    Search,
    Stopped,
    Tree,
    aspirate,
    node_search,
)
from shashki.rules import Game
from shashki.rules.game import game_state

from ..conftest import pure_only

# -- the aspiration windows -------------------------------------------------------------


def _fail_hard(score: int, asked: list[tuple[int, int]]) -> Callable[[int, int], int]:
    """A root search whose true score is ``score``, answering a bound when it falls
    outside the window (as a search that cuts off would), recording the windows."""

    def search(alpha: int, beta: int) -> int:
        asked.append((alpha, beta))
        return max(alpha, min(beta, score))

    return search


def test_a_score_inside_the_window_is_searched_once() -> None:
    asked: list[tuple[int, int]] = []
    assert aspirate(100, ASPIRATION, _fail_hard(120, asked)) == 120
    assert asked == [(100 - ASPIRATION, 100 + ASPIRATION)]


@pytest.mark.parametrize("score", [300, -300])
def test_the_window_is_widened_fourfold_until_the_score_falls_inside(score: int) -> None:
    asked: list[tuple[int, int]] = []
    assert aspirate(0, 35, _fail_hard(score, asked)) == score
    assert asked == [(-35, 35), (-140, 140), (-560, 560)]


def test_a_won_score_widens_the_window_to_the_full_one() -> None:
    asked: list[tuple[int, int]] = []
    assert aspirate(0, 35, _fail_hard(WIN - 3, asked)) == WIN - 3
    assert asked[-1] == (-INF, INF)
    # each window four times as wide as the one before, until the full one
    assert [b for _a, b in asked[:-1]] == [35 * 4**i for i in range(len(asked) - 1)]


def test_the_full_window_is_searched_once_whatever_the_score() -> None:
    asked: list[tuple[int, int]] = []
    assert aspirate(50, INF, _fail_hard(-INF, asked)) == -INF
    assert asked == [(-INF, INF)]


@pure_only
def test_the_root_searches_again_in_a_wider_window(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a position of the recorded table (tests/engine/data) whose depth 4 falls outside
    # the window round depth 3's score (without ending tables: the shipped ones of four
    # pieces in Russian draughts make its scores exact and the windows hold)
    monkeypatch.setattr(endings, "SHIPPED", tmp_path / "none shipped")
    monkeypatch.setattr(endings, "_TABLES", {})
    monkeypatch.setattr(endings, "_ABSENT", {})
    rng = random.Random("identical-russian-2")
    game = Game("russian")
    for _ in range(40):
        game.push(rng.choice(game.legal_moves()))
    seen: list[list[tuple[int, int, int]]] = []

    def spy(center: int, width: int, search: Callable[[int, int], int]) -> int:
        windows: list[tuple[int, int, int]] = []

        def recorded(alpha: int, beta: int) -> int:
            v = search(alpha, beta)
            windows.append((alpha, beta, v))
            return v

        seen.append(windows)
        return aspirate(center, width, recorded)

    monkeypatch.setattr(search_module, "aspirate", spy)
    result = Search("russian").search(game, depth=5)
    assert len(seen) == 5
    assert all(len(w) == 1 for w in seen[:3])  # no window before depth 4
    widened = [w for w in seen if len(w) > 1]
    assert widened, "no depth fell outside its window"
    for windows in widened:
        *failed, (alpha, beta, v) = windows
        assert all(not low < s < high for low, high, s in failed)
        assert alpha < v < beta
    # each depth's score is the one found in its last window
    assert [it.score for it in result.iterations] == [w[-1][2] for w in seen]


# -- the node search ---------------------------------------------------------------------

#: No forward pruning or reductions: the node search is then an exact alpha-beta.
EXACT = Options(probcut=False, lmr_depth=10**6)


def _minimax(game: Game, search: Search, depth: int, ply: int) -> int:
    """The score of ``game`` for the side to move, from the game's own rules: every
    move followed ``depth`` plies, then the forced captures until none is left."""
    out = game.outcome()
    if out is not None:
        if out.winner is None:
            return 0
        return WIN - ply if out.winner == game.turn else ply - WIN
    moves = game.legal_moves()
    if depth <= 0:
        assert depth > -QFULL, "an exchange too long for this reference"
        if not (moves[0].is_capture and game.variant.rules.capture_mandatory):
            return search.evaluate(game_state(game))
    best = -INF
    for mv in moves:
        turn = game.turn
        game.push(mv)
        v = _minimax(game, search, depth - 1, ply + 1)
        best = max(best, v if game.turn == turn else -v)
        game.pop()
    return best


def _node(search: Search, game: Game, depth: int, alpha: int, beta: int) -> int:
    tree = Tree(game, search.ends)
    tree.root_depth = 0  # no forced move extended
    nodes = node_search(search, tree, Clock(time.perf_counter(), None, 1.0, None, None))
    rev, mat = game.reversible_plies, game.material_plies
    return nodes.node(game_state(game), depth, alpha, beta, 0, rev, mat)


def _positions(variant: str, count: int) -> list[Game]:
    rng = random.Random(f"parts-{variant}")
    out = []
    while len(out) < count:
        game = Game(variant)
        for _ in range(rng.randrange(6, 40)):
            if game.outcome() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        if game.outcome() is None:
            out.append(game)
    return out


@pytest.mark.parametrize(
    "variant", ["russian", "brazilian", "international", "english", "turkish", "giveaway"]
)
def test_the_node_search_agrees_with_minimax(variant: str) -> None:
    for game in _positions(variant, 6):
        for depth in (1, 2, 3):
            expected = _minimax(game.copy(), Search(variant), depth, 0)
            assert _node(Search(variant, options=EXACT), game, depth, -INF, INF) == expected, (
                game.fen(),
                depth,
            )


def test_the_node_search_keeps_to_its_window() -> None:
    # fail-soft alpha-beta: a score outside the window is a bound on the true one
    for game in _positions("russian", 4):
        true = _minimax(game.copy(), Search("russian"), 3, 0)
        for alpha, beta in ((true - 50, true + 50), (true + 1, true + 60), (true - 60, true - 1)):
            v = _node(Search("russian", options=EXACT), game, 3, alpha, beta)
            if true <= alpha:
                assert v <= alpha
            elif true >= beta:
                assert v >= beta
            else:
                assert v == true


# -- the limits --------------------------------------------------------------------------


def test_the_node_budget_stops_the_node_search_soon_after_it() -> None:
    game = Game("international")
    search = Search("international")
    tree = Tree(game, search.ends)
    nodes = node_search(search, tree, Clock(time.perf_counter(), None, 1.0, None, 200))
    with pytest.raises(Stopped):
        nodes.node(game_state(game), 20, -INF, INF, 0, 0, 0)
    assert 200 <= nodes.counted() <= 200 + CHECK + 1


def test_the_clock_stops_on_its_deadline_and_when_cancelled() -> None:
    now = time.perf_counter()
    Clock(now, 60.0, 0.5, None, None).poll()  # in time: nothing happens
    with pytest.raises(Stopped):
        Clock(now - 1.0, 0.5, 0.5, None, None).poll()
    with pytest.raises(Stopped):
        Clock(now, 60.0, 0.5, lambda: True, None).poll()
    clock = Clock(now, 2.0, 0.25, None, 10)
    assert clock.soft_deadline == now + 0.5 and clock.deadline is not None
    assert clock.deadline < now + 2.0
    clock.check(9)
    with pytest.raises(Stopped):
        clock.check(10)


def test_a_search_leaves_no_cycle_for_the_collector() -> None:
    # a node search that called itself through a closure made a cycle, which kept the
    # tables alive until a collection found it (and compiled, a cycle of its own)
    import gc

    game = Game("russian")
    search = Search("russian")
    search.search(game, depth=2)
    gc.collect()
    for depth in (3, 4):
        search.search(game, depth=depth)
        assert gc.collect() == 0
