"""The national games on a mirrored board (docs/rules/national.md#italian Italian,
docs/rules/national.md#spanish Spanish, docs/rules/national.md#portuguese Portuguese,
docs/rules/national.md#sri-lankan Sri Lankan): their numbering, their hand-checked positions and
their published perft counts."""

from __future__ import annotations

import json

import pytest

from shashki.records import read_games_text
from shashki.rules import Game, find_variant

from ..conftest import shared_path

#: perft.json record name -> our variants, and the depths run in CI (deeper under slow)
RECORDS = {
    "italian": ("italian",),
    "spanish": ("spanish", "portuguese"),
    "sri lankan (12x12)": ("sri-lankan",),
}
QUICK = {"italian": 6, "spanish": 6, "portuguese": 5, "sri-lankan": 4}
SLOW = {"italian": 7, "spanish": 7, "portuguese": 7, "sri-lankan": 6}


def published() -> list[tuple[str, int, int]]:
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    found = []
    for record in records:
        if not record["counting_convention"].startswith("drop"):
            continue
        for variant in RECORDS.get(record["variant"], ()):
            for depth, count in record["depth_counts"].items():
                found.append((variant, int(depth), count))
    return found


def test_the_published_perft_counts_at_shallow_depths() -> None:
    checked = set()
    for variant, depth, count in published():
        if depth <= QUICK[variant]:
            assert Game(variant).perft(depth) == count, (variant, depth)
            checked.add(variant)
    assert checked == {"italian", "spanish", "portuguese", "sri-lankan"}


@pytest.mark.slow
def test_the_published_perft_counts_deeper() -> None:
    for variant, depth, count in published():
        if QUICK[variant] < depth <= SLOW[variant]:
            assert Game(variant).perft(depth) == count, (variant, depth)


@pytest.mark.parametrize(
    ("variant", "numbers", "names"),
    [
        ("italian", (1, 4, 5, 29, 32), ["a8", "g8", "b7", "b1", "h1"]),
        ("spanish", (1, 2, 4, 5, 8, 29, 32), ["h1", "f1", "b1", "g2", "a2", "g8", "a8"]),
        ("portuguese", (1, 32), ["h1", "a8"]),
        ("sri-lankan", (1, 6, 7, 67, 72), ["a12", "k12", "b11", "b1", "l1"]),
    ],
)
def test_the_numbering_of_the_gametype(
    variant: str, numbers: tuple[int, ...], names: list[str]
) -> None:
    board = find_variant(variant).board
    assert board.mirrored
    assert [board.name(board.by_number[n]) for n in numbers] == names


@pytest.mark.parametrize(
    ("case", "variant", "fen", "legal"),
    [
        ("IT1 a man may not take a king", "italian", "W:W22:BK19", ["22-18"]),
        ("IT1 a man takes a man", "italian", "W:W22:B19", ["22x15"]),
        ("IT2 the king must capture", "italian", "W:W22,K12:B7,19", ["12x3"]),
        ("IT3 the most kings", "italian", "W:WK19:B14,K15", ["19x12"]),
        ("IT4 the king met first", "italian", "W:WK22:B12,18,K10,K19", ["22x15x8"]),
        ("SP1 quantity before quality", "spanish", "W:WK7:B11,18,K12", ["7x14x21", "7x14x25"]),
        ("SP2 quality: the king", "spanish", "W:W11,K9:B13,K14", ["11x18"]),
        ("SP1 in Portuguese", "portuguese", "W:WK7:B11,18,K12", ["7x14x21", "7x14x25"]),
        ("SP2 in Portuguese", "portuguese", "W:W11,K9:B13,K14", ["11x18"]),
    ],
)
def test_the_hand_checked_positions(case: str, variant: str, fen: str, legal: list[str]) -> None:
    game = Game(variant, fen)
    assert sorted(game.move_text(m, full=True) for m in game.legal_moves()) == legal, case


@pytest.mark.parametrize(
    ("gametype", "variant"),
    [
        ("22,W,8,8,N2,1", "italian"),
        ("24,W,8,8,N1,1", "spanish"),
        ("28,W,8,8,N1,1", "portuguese"),
        ("27,W,12,12,N2,1", "sri-lankan"),
    ],
)
def test_a_record_finds_its_variant_by_its_gametype(gametype: str, variant: str) -> None:
    start = Game(variant)
    first = start.move_text(start.legal_moves()[0])
    [record] = read_games_text(f'[GameType "{gametype}"]\n1. {first} *\n')
    assert record.ok and record.variant is not None and record.variant.id == variant
    assert len(record.mainline_moves()) == 1
