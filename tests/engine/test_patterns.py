"""The learned patterns of men: the windows, the fast term, the files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from shashki.engine import patterns
from shashki.engine.evaluate import diagonal_evaluator
from shashki.rules import Game, find_variant


def random_men(rng: random.Random, mask: int) -> tuple[int, int]:
    w = rng.getrandbits(mask.bit_length()) & mask & rng.getrandbits(mask.bit_length())
    b = rng.getrandbits(mask.bit_length()) & mask & ~w
    return w, b


@pytest.mark.parametrize("variant", ["international", "russian", "english"])
def test_windows_cover_the_board_and_turn_round(variant: str) -> None:
    geo = find_variant(variant).board
    pats = patterns.Patterns(geo)
    covered = set().union(*pats.windows)
    assert covered == set(geo.squares)
    # every window is three squares of a rank and the three next to them above
    for window in pats.windows:
        low, high = window[:3], window[3:]
        assert len({geo.rank_of[p] for p in low}) == 1
        assert {geo.rank_of[p] for p in high} == {geo.rank_of[low[0]] + 1}
    # the set of windows is the same seen from the other side
    turned = {frozenset(pats.rotate(1 << p).bit_length() - 1 for p in w) for w in pats.windows}
    assert turned == {frozenset(w) for w in pats.windows}
    rng = random.Random(variant)
    for _ in range(50):
        bits = rng.getrandbits(geo.size) & geo.mask
        assert pats.rotate(pats.rotate(bits)) == bits
        assert pats.rotate(bits).bit_count() == bits.bit_count()


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_the_written_out_term_is_the_sum_of_the_windows(variant: str) -> None:
    geo = find_variant(variant).board
    pats = patterns.Patterns(geo)
    rng = random.Random(1)
    weights = [rng.randrange(-300, 300) for _ in range(len(pats.windows) * pats.entries)]
    term = pats.evaluator(weights)
    for _ in range(300):
        w, b = random_men(rng, geo.mask)
        idx = pats.indices(w, b)
        assert all(0 <= i < pats.entries for i in idx)
        assert term(w, b) == sum(weights[n * pats.entries + i] for n, i in enumerate(idx))
    # one man on its own square: exactly the windows holding that square see it
    p = geo.squares[7]
    holding = [n for n, win in enumerate(pats.windows) if p in win]
    assert holding
    assert [i != 0 for i in pats.indices(1 << p, 0)] == [
        n in holding for n in range(len(pats.windows))
    ]


def test_files_round_trip_and_refuse_another_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(patterns, "_DIR", tmp_path)
    patterns.load.cache_clear()
    try:
        intl = find_variant("international")
        pats = patterns.Patterns(intl.board)
        weights = [(i * 37) % 201 - 100 for i in range(len(pats.windows) * pats.entries)]
        patterns.save(patterns.weights_path("international"), pats, weights)
        assert patterns.load("international", intl.board) == tuple(weights)
        # a file of the wrong board is not used; a missing or short file neither
        (tmp_path / "russian.bin").write_bytes(patterns.weights_path("international").read_bytes())
        assert patterns.load("russian", find_variant("russian").board) is None
        assert patterns.load("brazilian", find_variant("brazilian").board) is None
        data = patterns.weights_path("international").read_bytes()
        (tmp_path / "international.bin").write_bytes(data[:-10])
        patterns.load.cache_clear()
        assert patterns.load("international", intl.board) is None
        with pytest.raises(ValueError):
            patterns.save(tmp_path / "x.bin", pats, weights[:-1])
    finally:
        patterns.load.cache_clear()


def test_the_evaluation_adds_the_patterns_only_where_there_are_tables() -> None:
    game = Game("international")
    rng = random.Random(3)
    for _ in range(12):
        game.push(rng.choice(game.legal_moves()))
    pos = game.position
    intl = find_variant("international")
    table = patterns.load("international", intl.board)
    hand = diagonal_evaluator(intl, patterns=False)(pos)
    full = diagonal_evaluator(intl)(pos)
    if table is None:
        assert full == hand
    else:
        w, b, k = pos[0], pos[1], pos[2]
        term = patterns.Patterns(intl.board).evaluator(table)(w & ~k, b & ~k)
        assert full == hand + (term if pos[3] == 0 else -term)
