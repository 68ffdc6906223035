"""The learned patterns of men: the windows, the fast term, the files."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from shashki.engine import patterns
from shashki.engine.evaluate import diagonal_evaluator
from shashki.rules import Game, find_variant
from shashki.rules.game import game_state


def random_men(rng: random.Random, mask: int) -> tuple[int, int]:
    w = rng.getrandbits(mask.bit_length()) & mask & rng.getrandbits(mask.bit_length())
    b = rng.getrandbits(mask.bit_length()) & mask & ~w
    return w, b


@pytest.mark.parametrize("shape", patterns.SHAPES)
@pytest.mark.parametrize("variant", ["international", "russian", "english"])
def test_windows_cover_the_board_and_turn_round(variant: str, shape: str) -> None:
    geo = find_variant(variant).board
    pats = patterns.Patterns(geo, shape=shape)
    covered = set().union(*pats.windows)
    assert covered == set(geo.squares)
    for window in pats.windows:
        if shape == "rows":
            # three squares of a rank and the three next to them above
            low, high = window[:3], window[3:]
            assert len({geo.rank_of[p] for p in low}) == 1
            assert {geo.rank_of[p] for p in high} == {geo.rank_of[low[0]] + 1}
        else:
            # the dark squares of a 4x4 square: two on each of four ranks
            files = sorted({geo.file_of[p] for p in window})
            ranks = sorted({geo.rank_of[p] for p in window})
            assert len(window) == 8 and len(files) == len(ranks) == 4
            assert files[-1] - files[0] == ranks[-1] - ranks[0] == 3
    if shape == "blocks":
        assert len(pats.windows) == {10: 16, 8: 9}[geo.height]
    # the set of windows is the same seen from the other side
    turned = {frozenset(pats.rotate(1 << p).bit_length() - 1 for p in w) for w in pats.windows}
    assert turned == {frozenset(w) for w in pats.windows}
    rng = random.Random(variant)
    for _ in range(50):
        bits = rng.getrandbits(geo.size) & geo.mask
        assert pats.rotate(pats.rotate(bits)) == bits
        assert pats.rotate(bits).bit_count() == bits.bit_count()


@pytest.mark.parametrize("shape", patterns.SHAPES)
@pytest.mark.parametrize("variant", ["international", "russian"])
def test_the_written_out_term_is_the_sum_of_the_windows(variant: str, shape: str) -> None:
    geo = find_variant(variant).board
    pats = patterns.Patterns(geo, shape=shape)
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
    # each index is the base-3 number of the window's squares (1 white, 2 black)
    for _ in range(50):
        w, b = random_men(rng, geo.mask)
        expected = [
            sum(3**j * (1 if w >> q & 1 else 2 if b >> q & 1 else 0) for j, q in enumerate(win))
            for win in pats.windows
        ]
        assert pats.indices(w, b) == expected


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
        assert patterns.load("international", intl.board) == patterns.Table(tuple(weights))
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
    pos = game_state(game)
    intl = find_variant("international")
    table = patterns.load("international", intl.board)
    hand = diagonal_evaluator(intl, patterns=False)(pos)
    full = diagonal_evaluator(intl)(pos)
    if table is None:
        assert full == hand
    else:
        # the shipped file is the one used, and it has something to say here
        assert full == diagonal_evaluator(intl, patterns=table)(pos) != hand
    # a variant without a file: the hand evaluation alone
    russian = find_variant("russian")
    assert patterns.load("russian", russian.board) is None
    pos = game_state(Game("russian"))
    assert diagonal_evaluator(russian)(pos) == diagonal_evaluator(russian, patterns=False)(pos)


def test_two_phase_files_round_trip(tmp_path: Path) -> None:
    intl = find_variant("international")
    pats = patterns.Patterns(intl.board)
    count = len(pats.windows) * pats.entries
    weights = [(i * 53) % 301 - 150 for i in range(2 * count)]
    patterns.save(tmp_path / "two.bin", pats, weights)
    assert patterns.read(tmp_path / "two.bin", intl.board) == patterns.Table(tuple(weights))
    patterns.save(tmp_path / "hand.bin", pats, weights, hand=(300, 200))
    assert patterns.read(tmp_path / "hand.bin", intl.board) == (tuple(weights), (300, 200), "rows")
    with pytest.raises(ValueError):  # hand weights go with two sets only
        patterns.save(tmp_path / "one.bin", pats, weights[:count], hand=(300, 200))
    with pytest.raises(ValueError):
        patterns.save(tmp_path / "neg.bin", pats, weights, hand=(-1, 200))
    assert patterns.phases(pats, weights) == 2
    assert patterns.phases(pats, weights[:count]) == 1
    with pytest.raises(ValueError):
        patterns.save(tmp_path / "three.bin", pats, weights + weights[:count])
    # a two-phase file cut short is refused, not read as one phase
    data = (tmp_path / "two.bin").read_bytes()
    (tmp_path / "short.bin").write_bytes(data[: len(data) - 2 * count])
    assert patterns.read(tmp_path / "short.bin", intl.board) is None


def test_the_phase_slides_from_the_start_to_the_end_in_steps() -> None:
    values = [patterns.phase_of(men, 40) for men in range(41)]
    assert values[40] == 1.0 and values[0] == 0.0
    assert values == sorted(values)
    assert {v * patterns.STEPS for v in values} == set(range(patterns.STEPS + 1))
    assert patterns.phase_of(45, 40) == 1.0  # (a set-up position with more men)


def test_the_evaluation_blends_the_start_and_end_tables_by_the_men_left() -> None:
    intl = find_variant("international")
    pats = patterns.Patterns(intl.board)
    count = len(pats.windows) * pats.entries
    rng = random.Random(5)
    start = [rng.randrange(-200, 200) for _ in range(count)]
    end = [rng.randrange(-200, 200) for _ in range(count)]
    hand = diagonal_evaluator(intl, patterns=False)
    full = diagonal_evaluator(intl, patterns=start + end)
    for men in (40, 30, 20, 12, 5, 1):
        pos = None
        while pos is None or (pos[0] | pos[1]).bit_count() != men:
            w, b = random_men(rng, intl.board.mask)
            while (w | b).bit_count() > men:
                w &= w - 1 if w.bit_count() > b.bit_count() else w
                b &= b - 1 if b.bit_count() >= w.bit_count() else b
            pos = (w, b, 0, 0, None)
        phase = patterns.phase_of(men, 40)
        blend = patterns.blend(start, end, phase)
        assert blend == [
            math.floor(phase * a + (1 - phase) * z + 0.5) for a, z in zip(start, end, strict=True)
        ]
        term = pats.evaluator(blend)(pos[0], pos[1])
        # (the hand terms folded into the tables are the same in both evaluations)
        assert full(pos) - hand(pos) == term


def test_the_hand_weights_scale_the_hand_written_terms_by_the_phase() -> None:
    intl = find_variant("international")
    pats = patterns.Patterns(intl.board)
    zeros = (0,) * (2 * len(pats.windows) * pats.entries)
    hand = diagonal_evaluator(intl, patterns=False)
    twice = diagonal_evaluator(intl, patterns=patterns.Table(zeros, (2 * patterns.ONE,) * 2))
    slide = diagonal_evaluator(intl, patterns=patterns.Table(zeros, (2 * patterns.ONE, 0)))
    game = Game("international")
    rng = random.Random(8)
    for _ in range(30):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
        pos = game_state(game)
        assert twice(pos) == 2 * hand(pos)
    # at the start the start's weight (2), with no men the end's (0: nothing but the
    # learned part, here none)
    assert slide(game_state(Game("international"))) == 2 * hand(game_state(Game("international")))
    kings = game_state(Game("international", "W:WK46,K47,K48,K49:BK5"))
    assert slide(kings) == 0 != hand(kings)


def test_a_file_of_blocks_is_read_as_blocks(tmp_path: Path) -> None:
    intl = find_variant("international")
    pats = patterns.Patterns(intl.board, shape="blocks")
    count = len(pats.windows) * pats.entries
    weights = [(i * 7) % 61 - 30 for i in range(2 * count)]
    patterns.save(tmp_path / "blocks.bin", pats, weights, hand=(384, 160))
    table = patterns.read(tmp_path / "blocks.bin", intl.board)
    assert table == (tuple(weights), (384, 160), "blocks")
    with pytest.raises(ValueError):  # the old one-set format holds rows only
        patterns.save(tmp_path / "one.bin", pats, weights[:count])
    # the evaluation reads it with its shape
    hand = diagonal_evaluator(intl, patterns=False)
    full = diagonal_evaluator(intl, patterns=table)
    assert table is not None
    pos = game_state(Game("international"))
    term = pats.evaluator(table.values[:count])(pos[0], pos[1])
    assert full(pos) == hand(pos) * 384 // patterns.ONE + term


def test_saving_tables_never_writes_through_a_link(tmp_path: Path) -> None:
    """Issue 23: the pattern tables are written whole beside their file and renamed; a
    link in the file's place is refused, and the file it points at is left alone."""
    from shashki.base.ownfiles import UnsafeFile

    intl = find_variant("international")
    pats = patterns.Patterns(intl.board)
    weights = [0] * (len(pats.windows) * pats.entries)
    target = tmp_path / "precious.txt"
    target.write_text("the user's own words\n")
    (tmp_path / "linked.bin").symlink_to(target)
    with pytest.raises(UnsafeFile, match="a link, not a file"):
        patterns.save(tmp_path / "linked.bin", pats, weights)
    assert target.read_text() == "the user's own words\n"
