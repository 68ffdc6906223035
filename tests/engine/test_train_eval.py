"""The pattern fit of tools/train_eval.py recovers what a teacher planted (needs numpy,
which comes with the bench extra; skipped without it)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shashki.engine import patterns
from shashki.engine.evaluate import diagonal_evaluator
from shashki.rules import Game, find_variant
from shashki.rules.game import game_state

ROOT = Path(__file__).resolve().parents[2]


def test_the_least_squares_fit_learns_a_planted_pattern_and_the_hand_weight(
    tmp_path: Path,
) -> None:
    pytest.importorskip("numpy", reason="the fit needs numpy (the bench extra)")
    intl = find_variant("international")
    geo = intl.board
    hand = diagonal_evaluator(intl, patterns=False)
    pats = patterns.Patterns(geo, shape="blocks")
    # the teacher: half the hand evaluation, and 60 for a white man on square 28 with
    # a white man on 33 behind it (the same for Black, turned round)
    a, b = geo.by_number[28], geo.by_number[33]
    ra, rb = (pats.rotate(1 << p).bit_length() - 1 for p in (a, b))

    def teacher(w: int, bl: int, k: int) -> float:
        wm, bm = w & ~k, bl & ~k
        planted = 60 * ((wm >> a & wm >> b & 1) - (bm >> ra & bm >> rb & 1))
        return hand((w, bl, k, 0, None)) / 2 + planted

    rng = random.Random(4)
    lines = []
    positions = []
    for _ in range(80):
        game = Game(intl)
        rows = []
        for _ in range(rng.randrange(10, 60)):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.push(rng.choice(moves))
            w, bl, k, turn = game_state(game)[:4]
            white_view = teacher(w, bl, k)
            rows.append([w, bl, k, turn, white_view if turn == 0 else -white_view])
            positions.append((w, bl, k))
        lines.append(json.dumps({"result": 0.5, "positions": rows}))
    data = tmp_path / "taught.jsonl"
    data.write_text("\n".join(lines) + "\n")
    out = tmp_path / "fitted.bin"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "train_eval.py"),
            "fit",
            "--shape",
            "blocks",
            "--scale",
            "1",
            "--damp",
            "0.3",
            "--hand-weights",
            "--out",
            str(out),
            str(data),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    table = patterns.read(out, geo)
    assert table is not None and table.shape == "blocks"
    # the teacher's weight of the hand evaluation, at the start and at the end
    assert all(abs(h / patterns.ONE - 0.5) < 0.1 for h in table.hand), table.hand
    fitted = diagonal_evaluator(intl, patterns=table)
    # the fitted evaluation follows the teacher, planted pattern included, far closer
    # than the hand evaluation at the teacher's weight does
    planted_error = sum(abs(teacher(*p) - hand((*p, 0, None)) / 2) for p in positions)
    fitted_error = sum(abs(teacher(*p) - fitted((*p, 0, None))) for p in positions)
    assert planted_error > 0
    assert fitted_error < planted_error / 2, (fitted_error, planted_error)
