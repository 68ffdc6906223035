"""Perft from the start position against published counts (drop-duplicates convention).

The embedded table is transcribed from the published sources listed in
../shared/vectors/perft.json (dctl test suite, Aart Bik, dagaz-v2); a second test reads
that file itself when it is present, so a new record there is checked the day it lands.
"""

from __future__ import annotations

import json

import pytest

from shashki.rules import Game

from ..conftest import shared_path

# depth -> leaf count, duplicates dropped (docs/rules/conventions.md#move-identity)
PUBLISHED = {
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564],
}
# The traditional game has the Brazilian rule switches (docs/rules/classic.md#traditional): no count
# of its own is published, so it must reproduce the Brazilian numbers.
PUBLISHED["traditional"] = PUBLISHED["brazilian"]

# Deepest depth run in the quick suite / under the `slow` marker.
QUICK = {"russian": 7, "brazilian": 7, "traditional": 6, "international": 6, "english": 8}
SLOW = {"russian": 9, "brazilian": 9, "traditional": 8, "international": 8, "english": 10}


def _cases(limits: dict[str, int], after: dict[str, int] | None = None):
    for variant, counts in PUBLISHED.items():
        first = (after or {}).get(variant, 0) + 1
        for depth in range(first, limits[variant] + 1):
            yield pytest.param(variant, depth, counts[depth - 1], id=f"{variant}-{depth}")


@pytest.mark.parametrize(("variant", "depth", "expected"), list(_cases(QUICK)))
def test_perft_start(variant: str, depth: int, expected: int) -> None:
    assert Game(variant).perft(depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "depth", "expected"), list(_cases(SLOW, QUICK)))
def test_perft_start_deep(variant: str, depth: int, expected: int) -> None:
    assert Game(variant).perft(depth) == expected


def _push_pop_perft(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += _push_pop_perft(game, depth - 1)
        game.pop()
    return total


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_push_pop_perft_agrees(variant: str) -> None:
    """The checked push/pop path of the game object gives the same counts as fast perft."""
    depth = 4
    game = Game(variant)
    before = game.fen()
    assert _push_pop_perft(game, depth) == PUBLISHED[variant][depth - 1]
    assert game.fen() == before


def test_divide_sums_to_perft() -> None:
    game = Game("russian")
    parts = dict(game.divide(5))
    assert len(parts) == 7
    assert sum(parts.values()) == 7482


_NAMES = {"russian": "russian", "brazilian": "brazilian", "international": "international"}


def _variant_of(record_name: str) -> str | None:
    head = record_name.split()[0]
    if head == "english" and "6x6" not in record_name:
        return "english"
    if head in _NAMES and record_name == head:
        return head
    return None


def test_perft_vectors_file() -> None:
    """Every drop-duplicates start-position record of ../shared/vectors/perft.json for our
    variants, at the depths the quick suite runs."""
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    checked = 0
    for record in records:
        variant = _variant_of(record["variant"])
        if variant is None or not record["counting_convention"].startswith("drop"):
            continue
        game = Game(variant)
        for depth_text, count in record["depth_counts"].items():
            depth = int(depth_text)
            if depth <= QUICK[variant]:
                assert game.perft(depth) == count, (record["source"], depth)
                checked += 1
    assert checked >= 20
