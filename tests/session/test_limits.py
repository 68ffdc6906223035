"""The search keeps its time and its memory in hostile positions: crowds of flying kings
whose exchanges go on for dozens of plies, positions whose legal moves take longer to list
than the time given, searches without a clock.

Nothing here measures time: the search is stopped by its own logic (a node budget, a
``cancelled`` callback, or a fake clock), and what is checked is what it then returns.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.engine import ComputerPlayer, Search, endings
from shashki.engine import search as search_module
from shashki.engine.limits import Limit
from shashki.engine.search import CHECK, _trim
from shashki.rules import Game, Move
from shashki.rules.game import game_state
from shashki.rules.interrupt import Interrupted, interruptible
from shashki.rules.variant import Variant
from shashki.rules.variant_file import variant_from_mapping
from shashki.session.players import Computer

#: International draughts, twenty kings against twenty: their exchanges went on for
#: forty plies, and depth 1 took half a million nodes (34 s).
KINGS_20 = (
    "W:W"
    + ",".join(f"K{i}" for i in range(31, 51))
    + ":B"
    + ",".join(f"K{i}" for i in range(1, 21))
)
#: Turkish draughts, one king against twenty: listing its 64 moves walks half a million
#: states of the capture search (a second or more).
TURKISH_CROWD = (
    "W:WKd8:BKe1,Kg7,Kc1,Ka7,Ke3,Ke5,Kd6,Kd2,Kc8,Kh6,Kf6,Kb6,Ka4,Kf2,Kb2,Kc3,Ke8,Kc5,Kd4,Kg5"
)
#: The same crowd with a king in the corner no capture can reach: the most a sequence
#: takes (20) is no longer every black piece (21), so no move is known to be legal
#: before all are listed.
TURKISH_CROWD_CORNER = TURKISH_CROWD + ",Kh1"


def frisian_like_12() -> Variant:
    """A user's variant (not registered): 12×12, all squares, kings flying in eight
    directions, pieces removed at once, free choice; a king among twenty pieces has
    hundreds of thousands of moves (seconds to list them all)."""
    return variant_from_mapping(
        {
            "id": "frisian-like-12",
            "name": "Frisian-like 12x12",
            "summary": "test",
            "board": {"width": 12, "height": 12, "squares": "all", "start": "W:Wa1:Bl12"},
            "rules": {
                "man_moves": ["forward", "left", "right"],
                "man_captures": ["forward", "left", "right"],
                "king_moves": ["orthogonal", "diagonal"],
                "king_captures": ["orthogonal", "diagonal"],
                "capture_choice": "free",
                "removal": "immediate",
            },
        }
    )


#: A king among twenty in :func:`frisian_like_12`: 517,032 moves.
FRISIAN_CROWD = (
    "W:WKd2:BKh11,Ka3,Kl7,Kl3,Kf12,Kh12,Kd3,Ki5,Kb9,Kc5,Kf7,Kh10,Kf5,Kd9,Ki2,Ka7,Kb3,Ka2,Kk12,Kh2"
)


def _looked_at(search: Search, game: Game, move: Move) -> int:
    """The evaluation of the position ``move`` leads to, for the side that plays it."""
    pos = game_state(game)
    child = search.gen.apply(pos, move.fast())
    v = search.evaluate(child)
    return v if child[3] == pos[3] else -v


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The search's clock, moving on a second at every reading."""
    now = [0.0]

    def perf_counter() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(search_module, "perf_counter", perf_counter)
    yield now


def clock_at(monkeypatch: pytest.MonkeyPatch, later: float) -> None:
    """The search's clock: 0 at its first reading (the search's start), ``later`` at every
    reading after."""
    readings = iter([0.0])
    monkeypatch.setattr(search_module, "perf_counter", lambda: next(readings, later))


@pytest.mark.parametrize(
    ("limit", "depth"),
    [(Limit(seconds=1.0, depth=4), 4), (Limit(left=60.0, depth=4), 1)],
    ids=["a time a move", "a clock"],
)
def test_a_time_a_move_is_spent_whole_and_a_clock_s_share_is_not(
    monkeypatch: pytest.MonkeyPatch, limit: Limit, depth: int
) -> None:
    """Past the share of its time after which a search starts no new depth, with time
    left: a time a move (what is left over is lost) is spent on the next depths; a
    clock's share (what is left over stays on the clock) is not."""
    computer = Computer(5)
    clock_at(monkeypatch, 0.6 * limit.move_seconds(1.0))
    assert computer.think(Game("russian"), limit, lambda: False) is not None
    assert computer.engine.last is not None and computer.engine.last.depth == depth


def test_depth_one_finishes_among_forty_kings() -> None:
    game = Game("international", KINGS_20)
    result = Search("international").search(game, depth=1, nodes=50_000)
    assert result.depth == 1 and not result.stopped
    assert result.move in game.legal_moves()


def test_a_search_stopped_before_depth_one_plays_a_move_it_looked_at() -> None:
    game = Game("international", KINGS_20)
    search = Search("international")
    moves = game.legal_moves()
    best = max(moves, key=lambda m: _looked_at(search, game, m))
    assert best != moves[0]  # (else the test would show nothing)
    result = search.search(game, nodes=1)  # stopped at the first look at the clock
    assert result.stopped and result.depth == 0
    assert result.move == best
    assert result.root_scores[0] == (best, _looked_at(search, game, best))


def test_a_stopped_search_chooses_among_the_moves_it_looked_at() -> None:
    game = Game("international", KINGS_20)
    for budget in (1, 200, 2000, 5000):
        result = Search("international").search(game, nodes=budget, exact_root=True)
        assert result.move == result.root_scores[0][0]
        assert result.move in game.legal_moves()


def test_the_clock_stops_a_long_listing_of_the_moves() -> None:
    game = Game("turkish", TURKISH_CROWD_CORNER)
    asked = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 1

    result = Search("turkish").search(game, seconds=60, cancelled=cancelled)
    assert result.unlisted and result.stopped and result.move is None
    assert len(asked) == 2  # read by the listing itself, which stopped at once


def test_a_move_is_found_when_the_listing_takes_all_the_time(fake_clock: list[float]) -> None:
    game = Game("turkish", TURKISH_CROWD_CORNER)
    search = Search("turkish")
    result = search.search(game, seconds=0.5)
    assert result.unlisted and result.move is None
    result = search.search(game.copy(), seconds=0.5, must_move=True)
    assert result.unlisted and result.move in game.legal_moves()
    # chosen by a look at each move's position
    assert result.move == max(game.legal_moves(), key=lambda m: _looked_at(search, game, m))


def test_under_free_choice_the_moves_found_in_time_are_chosen_from(
    fake_clock: list[float],
) -> None:
    variant = frisian_like_12()
    assert variant.generator.partial_moves
    game = Game(variant, FRISIAN_CROWD)
    for must_move in (False, True):
        result = Search(variant).search(game, seconds=0.5, must_move=must_move)
        assert result.unlisted and result.listed and result.move is not None
        assert result.move.is_capture and result.move.start == game.variant.board.parse_square("d2")
        # a legal move: a complete sequence (the king cannot go on), whoever else is listed
        after = variant.generator.apply(game_state(game), result.move.fast())
        assert not variant.generator.captures((*after[:3], game_state(game)[3], None))


def test_under_the_majority_rule_moves_taking_every_piece_are_chosen_from(
    fake_clock: list[float],
) -> None:
    """A sequence that takes every enemy piece takes the most there can be: the moves
    found before the clock stops the listing are legal, and one of them is played."""
    game = Game("turkish", TURKISH_CROWD)
    assert game.variant.generator.partial_moves
    result = Search("turkish").search(game, seconds=0.5)  # (before the moves are cached)
    assert result.unlisted and result.listed and result.move in game.legal_moves()
    assert result.listed < len(game.legal_moves())  # stopped midway: some were not found
    assert len(result.move.captured) == 20


def test_a_stopped_majority_listing_offers_only_moves_taking_every_piece() -> None:
    for fen, proven in ((TURKISH_CROWD, True), (TURKISH_CROWD_CORNER, False)):
        game = Game("turkish", fen)
        legal = {m.fast() for m in game.legal_moves()}
        offered = 0
        for budget in (1, 50, 200, 400):
            polls = [0]

            def check(polls: list[int] = polls, budget: int = budget) -> None:
                polls[0] += 1
                if polls[0] > budget:
                    raise Interrupted

            try:
                with interruptible(check):
                    game.variant.generator.moves(game_state(game))
            except Interrupted as stop:
                if stop.moves is not None:
                    assert proven and stop.moves and set(stop.moves) <= legal
                    offered += 1
            else:
                break  # listed in full within the budget
        assert bool(offered) == proven


def test_the_tables_keep_their_size_during_a_search() -> None:
    game = Game("russian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8")
    search = Search("russian", table_size=2000)
    sizes = []

    def cancelled() -> bool:  # read with the clock, every few nodes
        sizes.append((len(search.table), len(search.evals)))
        return False

    result = search.search(game, depth=9, cancelled=cancelled)
    assert result.depth == 9 and result.nodes > 20_000  # (without a cap: many more entries)
    assert max(t for t, _ in sizes) <= 2000 + CHECK + 1
    assert max(e for _, e in sizes) <= 2000 + CHECK + 1


def test_a_table_keeps_its_deepest_entries() -> None:
    table = {i: (i % 7, 0, 0, None, -1) for i in range(1000)}
    _trim(table, 300)
    assert 0 < len(table) <= 300
    assert {e[0] for e in table.values()} == {5, 6}
    _trim(table, 1000)  # small enough: nothing dropped
    assert len(table) > 0 and {e[0] for e in table.values()} == {5, 6}


def test_the_computer_moves_when_the_listing_takes_all_its_time(
    fake_clock: list[float],
) -> None:
    game = Game("turkish", TURKISH_CROWD)
    move = ComputerPlayer(5, seconds=0.5).think(game)
    assert move in game.legal_moves()


def test_a_move_does_not_wait_for_an_ending_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """Three kings against one: the table (seconds to build) is built in a worker process
    (waited for by a thread of its own); the moves use the search until it is ready, then
    the table."""
    from shashki.engine import player as player_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(endings, "_TABLES", {})
    # (a table that does not come with shashki: the shipped ones are hidden)
    monkeypatch.setattr(endings, "SHIPPED", Path(str(tmp_path)) / "none shipped")
    release = threading.Event()
    build = endings.build_in_worker

    def slow_build(variant: object, pos: object) -> None:
        release.wait(60)
        build(variant, pos)  # type: ignore[arg-type]

    monkeypatch.setattr(player_module, "build_in_worker", slow_build)
    game = Game("russian", "W:WKa1,Kb2,Kc1:BKe7")
    player = ComputerPlayer(6, seconds=0.2)
    move = player.think(game)
    assert move in game.legal_moves()
    assert player.last is not None and player.last.nodes > 0  # searched, not from the table
    assert not endings.is_built(game.variant, game_state(game))
    release.set()
    for thread in threading.enumerate():
        if thread.name.startswith("shashki table"):
            thread.join()  # seconds, a minute on a loaded machine (the test's limit bounds it)
    assert endings.is_built(game.variant, game_state(game))
    value, best = endings.perfect_moves(game) or (0, [])
    move = player.think(game)
    assert move in best and value > 0


def test_a_search_leaves_no_cycle_behind() -> None:
    """Its tables are freed as soon as it is dropped, not by the collector a second
    later (a pause that once came after every long search)."""
    import gc

    gc.collect()
    search = Search("russian")
    search.search(Game("russian"), depth=6)
    assert len(search.table) > 1000 and len(search.evals) > 1000
    del search
    # what the collector finds now, kept for a look: none of the tables (compiled, the
    # evaluator's nested functions are a small cycle of their own, shashki.native)
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        held = [len(o) for o in gc.garbage if isinstance(o, dict) and len(o) > 1000]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not held
