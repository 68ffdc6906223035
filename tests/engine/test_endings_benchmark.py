"""The positions of ``benchmarks/endings.py`` stay readable: each FEN is a legal position
and Scan's judgement covers exactly its legal moves, in shashki's notation."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from shashki.rules import Game

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "endings.py"


def test_every_position_judges_exactly_its_legal_moves() -> None:
    spec = importlib.util.spec_from_file_location("endings_bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.read(bench.DATA)
    assert len(rows) == 39
    drawn = 0
    for fen, played, scores in rows:
        game = Game("international", fen=fen)
        assert set(scores) == {game.move_text(m) for m in game.legal_moves()}, fen
        assert scores[played] < max(scores.values()), fen  # the game's move: not the best
        drawn += max(scores.values()) == 0
    assert drawn == 38
