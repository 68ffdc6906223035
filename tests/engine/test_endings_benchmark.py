"""The positions of ``benchmarks/endings.py`` stay readable: each FEN is a legal position
and Scan's judgement covers exactly its legal moves, in shashki's notation."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from shashki.rules import Game
from shashki.rules.game import game_state

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "endings.py"


@pytest.mark.parametrize(("name", "savable"), [("endings.txt", 15), ("endings-depth14.txt", 32)])
def test_every_position_judges_exactly_its_legal_moves(name: str, savable: int) -> None:
    """Each edition of the judgement: 39 positions, every legal move judged and no other,
    and as many positions with a move that keeps the game as its notes say (Scan at depth 26
    finds 24 of them lost whatever is played, at depth 14 only 7)."""
    spec = importlib.util.spec_from_file_location("endings_bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.read(BENCH.parent / name)
    assert len(rows) == 39
    held = 0
    for fen, played, scores in rows:
        game = Game("international", fen=fen)
        assert set(scores) == {game.move_text(m) for m in game.legal_moves()}, fen
        assert played in scores, fen
        assert all(-2000 <= v <= 2000 for v in scores.values()), fen
        held += max(scores.values()) > bench.LOST
    assert held == savable


def test_a_forced_reply_is_played_out_before_the_engine_judges() -> None:
    """Scan 2.0 answers a position with one legal move unsearched (score 0): the judge
    plays the forced moves out and asks about the first position with a choice, or
    scores the end of the game itself."""
    spec = importlib.util.spec_from_file_location("endings_bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    asked: list[str] = []

    class Judge:
        def score(self, game: Game, depth: int) -> int:
            asked.append(game.fen())
            assert len(game.legal_moves()) > 1
            return 100 if game_state(game)[3] == 0 else -100

    # White's lone king on 1 against two kings and men: 1-29 and 1-40 give it away (the
    # only reply takes it: the game is lost), the other moves leave Black a choice
    game = Game("international", fen="W:WK1:B24,27,31,K47,K49")
    scores = bench.judge(Judge(), game, 14)
    assert scores["1-29"] == scores["1-40"] == -1998
    assert all(v in (100, -100) for m, v in scores.items() if m not in ("1-29", "1-40"))
    assert len(asked) == len(scores) - 2
