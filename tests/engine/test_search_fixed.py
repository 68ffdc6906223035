"""The search at fixed depths finds what it found when ``data/fixed_depth.jsonl`` was
recorded: the same move, score, principal variation and node count, depth by depth, on
positions of every variant (a fresh search, the same search again deeper with its tables
kept, one with exact root scores, and one with the switches that are off by default
turned on and ProbCut off).  The file was recorded from the search as it was before it
was split into parts (commit 125f304).

A change meant to leave the search's result alone (a refactoring, a speed-up that
visits the same tree) must keep this test passing unchanged.  A change meant to alter
the tree records the file again, and says so in its commit::

    python tests/engine/test_search_fixed.py > tests/engine/data/fixed_depth.jsonl

The searches leave the ending tables out (``endings=False``): which of them are in memory
depends on the tests run before, and a table settles a node before the search does.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from shashki.engine import Search
from shashki.engine.search import Options
from shashki.rules import Game, all_variants

DATA = Path(__file__).with_name("data") / "fixed_depth.jsonl"
#: Deepest first: the second search of a position is the deepest of these that stays
#: within NODES nodes, so that the whole table replays in seconds.
DEEP = (6, 5, 4, 3)
NODES = 10_000
SWITCHED = Options(threats=True, exchanges=True, probcut=False)


def _game(variant: str, seed: int, plies: int) -> tuple[Game, list[str]]:
    rng = random.Random(f"identical-{variant}-{seed}")
    game = Game(variant)
    texts: list[str] = []
    for _ in range(plies):
        if game.outcome() is not None:
            break
        mv = rng.choice(game.legal_moves())
        texts.append(game.move_text(mv))
        game.push(mv)
    return game, texts


def _run(search: Search, game: Game, depth: int, exact: bool) -> dict[str, Any]:
    r = search.search(game, depth=depth, exact_root=exact)
    line = game.copy()
    pv = []
    for m in r.pv:
        pv.append(line.move_text(m))
        line.push(m)
    return {
        "depth": depth,
        "exact": exact,
        "move": r.move and game.move_text(r.move),
        "score": r.score,
        "nodes": r.nodes,
        "pv": " ".join(pv),
        "iterations": [[i.depth, i.score, i.nodes] for i in r.iterations],
    }


def _record() -> list[dict[str, Any]]:
    rows = []
    for v in all_variants():
        for seed, plies in ((1, 14), (2, 40), (3, 70)):
            game, texts = _game(v.id, seed, plies)
            if game.outcome() is not None:
                continue
            for deep in DEEP:
                search = Search(v.id, endings=False)
                first = _run(search, game, 3, False)
                second = _run(search, game, deep, False)
                if second["nodes"] <= NODES:
                    break
            third = _run(Search(v.id, endings=False), game, 3, True)
            fourth = _run(Search(v.id, options=SWITCHED, endings=False), game, 3, False)
            searches = [first, second, third, fourth]
            rows.append({"variant": v.id, "moves": " ".join(texts), "searches": searches})
    return rows


def _recorded() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]


RECORDED = _recorded()
IDS = [f"{r['variant']}-{i}" for i, r in enumerate(RECORDED)]


@pytest.mark.parametrize("row", RECORDED, ids=IDS)
def test_the_search_finds_what_it_found_before(row: dict[str, Any]) -> None:
    game = Game(row["variant"])
    for text in row["moves"].split():
        game.push_text(text)
    searches = row["searches"]
    search = Search(row["variant"], endings=False)
    # the first two share one search (its tables kept), the others start afresh
    assert _run(search, game, searches[0]["depth"], False) == searches[0]
    assert _run(search, game, searches[1]["depth"], False) == searches[1]
    assert (
        _run(Search(row["variant"], endings=False), game, searches[2]["depth"], True) == searches[2]
    )
    switched = Search(row["variant"], options=SWITCHED, endings=False)
    assert _run(switched, game, searches[3]["depth"], False) == searches[3]


def test_the_table_covers_every_variant() -> None:
    assert {r["variant"] for r in RECORDED} == {v.id for v in all_variants()}


if __name__ == "__main__":
    for row in _record():
        sys.stdout.write(json.dumps(row) + "\n")
