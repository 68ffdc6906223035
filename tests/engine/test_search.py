"""The search over every variant: legal moves only, the time limit kept, cancellation,
scores of won and lost games, the double move, repetitions and the draw counters."""

from __future__ import annotations

import gc
import random
import time

import pytest

from shashki.engine import LEVELS, ComputerPlayer, Search, score_text
from shashki.engine.search import (
    UPPER,
    WIN,
    WON,
    Clock,
    Options,
    Tree,
    choose,
    node_search,
)
from shashki.rules import Game, all_variants
from shashki.rules.game import fast_moves, game_state

VARIANTS = [v.id for v in all_variants()]


def _random_game(variant: str, rng: random.Random, plies: int) -> Game:
    game = Game(variant, seed=rng.randrange(1000))
    for _ in range(plies):
        if game.outcome() is not None:
            break
        game.push(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_only_returns_legal_moves(variant: str) -> None:
    rng = random.Random(f"legal-{variant}")
    search = Search(variant)
    for _ in range(6):
        game = _random_game(variant, rng, rng.randrange(0, 60))
        result = search.search(game, depth=3, seconds=1.0)
        if game.outcome() is not None:
            assert result.move is None and result.outcome == game.outcome()
            continue
        assert result.move in game.legal_moves()
        # the principal variation is a line of legal moves
        line = game.copy()
        for mv in result.pv:
            if line.outcome() is not None:
                break
            assert mv in line.legal_moves()
            line.push(mv)


@pytest.mark.parametrize("variant", ["international", "bashni", "artamonov", "double-move"])
def test_the_time_limit_is_kept(variant: str) -> None:
    rng = random.Random(7)
    game = _random_game(variant, rng, 10)
    while len(game.legal_moves()) < 4:  # a position with a choice, so the search runs
        game.push(rng.choice(game.legal_moves()))
    search = Search(variant)
    for limit in (0.05, 0.3):
        # The limit is wall time; what is measured here is this process's CPU time, which
        # never exceeds it.  Other processes on a loaded test machine then cannot make the
        # test fail, while a search that checks its clock too seldom still does.  The
        # garbage of earlier tests is collected first, so that its pause is not counted.
        gc.collect()
        started = time.process_time()
        result = search.search(game, seconds=limit)
        spent = time.process_time() - started
        assert result.move in game.legal_moves()
        assert spent < limit + 0.1, f"{spent:.3f} s of CPU time for a {limit} s search"


def test_a_cancelled_search_stops_at_once() -> None:
    game = Game("international")
    asked = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 3

    started = time.perf_counter()
    result = Search("international").search(game, seconds=30, cancelled=cancelled)
    assert time.perf_counter() - started < 1.0
    assert result.stopped
    assert ComputerPlayer(8).think(game, lambda: True) is None


def test_won_and_lost_positions_score_as_such() -> None:
    # White takes the last black piece: a win in one ply
    game = Game("russian", "W:Wc3:Bd4")
    result = Search("russian").search(game, depth=4)
    assert result.score == WIN - 1 and score_text(result.score) == "win in 1"
    # giveaway: the side left without pieces wins, so White must give its man away
    game = Game("giveaway", "W:Wc3:Be5,h8")
    result = Search("giveaway").search(game, depth=4)
    assert game.variant.board.name(result.move.end) == "d4"
    assert result.score >= WON


def test_the_double_move_keeps_the_side_to_move() -> None:
    # White's second move of the turn: it takes, and then Black has nothing left
    game = Game("double-move", "W:Wc3,a1:Bd4:T2")
    result = Search("double-move").search(game, depth=3)
    assert result.score >= WON


def test_a_repetition_is_a_draw_and_a_won_ending_is_pressed() -> None:
    # three kings against a lone king off the main road win in Russian (7.2.4 allows 15
    # moves): the search keeps a winning score instead of a draw
    game = Game("russian", "W:WK1,K6,K30:BK12")
    result = Search("russian").search(game, seconds=2.0)
    assert result.score > 100, score_text(result.score)
    # with the counter almost run out, the draw is seen
    game = Game("traditional", "W:WK1,K6:BK32:H29")
    result = Search("traditional").search(game, depth=4)
    assert result.score == 0


def test_contempt_scores_a_draw_against_the_side_the_search_moves_for() -> None:
    # a lone king against two on the big board: every line ends within ten plies by the
    # five-move rule (the tables left out, so that the rule ends them)
    game = Game("international", "B:WK1,K2:BK46")
    assert Search("international", endings=False).search(game, depth=10).score == 0
    contempt = Options(contempt=15)
    search = Search("international", endings=False, options=contempt)
    assert search.search(game, depth=10).score == -15
    # and so for the other side, and for a game met again by the same engine
    white = Game("international", "W:WK46:BK1,K2")
    assert search.search(white, depth=10).score == -15
    assert search.search(game, depth=10).score == -15
    assert Options().contempt == 0  # (the hint and the analysis: an honest score)


# A game of shashki (White, level 8 at 0.5 s a move) against dame-rs, drawn by the third
# repetition of a position where White was a king and two men ahead: the search of each
# move kept the table of the one before, whose entries said the line 30-19 36-31 went on
# (the position it comes back to had been met once then) and now ends the game.
_REPEATED = (
    "35-30 17-21 34-29 19-23 30-25 23x34 40x29 20-24 29x20 15x24 39-34 14-20 25x14 10x19 "
    "32-28 5-10 37-32 11-17 45-40 6-11 31-26 1-6 36-31 10-14 42-37 18-22 41-36 13-18 47-42 "
    "8-13 31-27 22x31 36x27 18-22 27x18 13x22 46-41 12-18 43-39 7-12 28-23 19x28 32x23 "
    "18x29 34x23 22-27 37-32 14-20 32-28 9-13 23-19 20-25 19x8 2x13 41-36 3-8 49-43 25-30 "
    "39-34 30x39 43x34 13-19 44-39 8-13 40-35 12-18 34-29 18-22 29x20 13-18 48-43 18-23 "
    "42-37 23x41 36x47 19-23 35-30 27-31 26x37 21-27 20-14 23-28 30-25 16-21 25-20 21-26 "
    "47-41 27-31 41-36 31x42 38x47 28-32 20-15 32-37 36-31 17-21 31x42 22-28 33x22 21-27 "
    "22x31 26x48 14-10 11-17 10-5 48-26 5-19 26-31 19-30 31-36 30-19 36-31 19-30 31-36"
).split()


def test_a_move_s_search_does_not_trust_what_an_earlier_one_found_of_a_repetition() -> None:
    game = Game("international")
    search = Search("international", endings=False)
    for ply, text in enumerate(_REPEATED):
        if ply >= 102 and ply % 2 == 0:  # White's moves, searched one after the other
            search.search(game, depth=6)
        game.push_text(text)
    # the position the line 30-19 36-31 comes back to has been met twice now
    result = search.search(game, depth=6)
    after = game.copy()
    after.push(result.move)
    for reply in after.legal_moves():
        line = after.copy()
        line.push(reply)
        assert line.outcome() is None, f"{game.move_text(result.move)} lets it be repeated"
    assert result.score > 200, score_text(result.score)


def test_the_levels_are_honest() -> None:
    assert sorted(LEVELS) == list(range(1, 9))
    assert [lv.seconds for lv in LEVELS.values()] == sorted(lv.seconds for lv in LEVELS.values())
    assert LEVELS[1].margin > LEVELS[4].margin > LEVELS[6].margin == 0
    # level 1 chooses at random among reasonable moves: not always the same one
    game = Game("russian")
    moves = {ComputerPlayer(1, seed=s).think(game) for s in range(12)}
    assert len(moves) >= 3


def test_choose_never_gives_a_win_away() -> None:
    game = Game("russian", "W:Wc3,h2:Bd4")
    result = Search("russian").search(game, depth=3, exact_root=True)
    rng = random.Random(0)
    for _ in range(10):
        assert choose(result, 10_000, rng) == result.move


def test_the_garbage_collector_is_paused_only_while_searching() -> None:
    seen = []
    game = Game("russian")
    Search("russian").search(game, depth=2, on_iteration=lambda it: seen.append(gc.isenabled()))
    assert seen and not any(seen)  # paused during the search
    assert gc.isenabled()  # and running again after it
    gc.disable()
    try:
        Search("russian").search(game, depth=2)
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_a_move_that_is_the_only_choice_is_searched_as_deep_as_asked() -> None:
    """One move to choose from is not searched deeper than depth 1 when only a move is
    wanted (a game's forced move: the time is kept), but to the depth asked for when one
    is given (a score wanted: an analysis of that one move)."""
    game = Game("russian")
    move = game.legal_moves()[2]
    search = Search("russian")
    assert search.search(game, moves=[move], nodes=100_000).depth == 1
    asked = search.search(game, moves=[move], depth=5)
    assert asked.move == move and asked.depth == 5
    forced = Game("russian", "W:Wc3:Bd4,h8")  # the capture is the only legal move
    assert len(forced.legal_moves()) == 1
    assert search.search(forced, nodes=100_000).depth == 1
    assert search.search(forced, depth=3).depth == 3


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_a_node_where_every_move_fails_low_keeps_the_table_s_move(variant: str) -> None:
    """All moves below alpha: which scored highest says nothing, so the node stores the
    move its entry had (the next visit tries it first), or none, never a move of its own."""
    game = Game(variant)
    pos = game_state(game)
    moves = fast_moves(game)
    alpha = WON - 1  # (no move of the start comes near: every one fails low)
    for seeded in (None, moves[-1]):
        search = Search(variant, endings=False)
        if seeded is not None:
            search.table[pos] = (1, UPPER, -20, tuple(seeded), -1)
        nodes = node_search(
            search, Tree(game, search.ends), Clock(time.perf_counter(), None, 1.0, None, None)
        )
        v = nodes.node(pos, 3, alpha, alpha + 1, 0, 0, 0)
        assert v <= alpha
        depth, flag, _score, move, _by = search.table[pos]
        assert (depth, flag) == (3, UPPER)
        assert move == (None if seeded is None else tuple(seeded))


def test_the_quiescence_switch_searches_a_crowning_past_the_horizon() -> None:
    """``Options.exchanges``: past the horizon, a quiet position without kings has its
    crowning moves searched too.  Black searches one ply; then White, to move and with
    nothing to take, crowns c7 on the next move: seen with the switch (a king's worth
    more for White), judged by the evaluation alone without it."""
    game = Game("russian", "B:WC7,G3:BA5,H6")
    scores = {
        on: Search("russian", options=Options(exchanges=on), endings=False)
        .search(game, depth=1)
        .score
        for on in (False, True)
    }
    assert scores[True] < scores[False] - 50, scores
