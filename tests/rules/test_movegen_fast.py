"""The generator's fast paths against its plain ones, over random rule switches.

``MoveGenerator.perft`` counts the last ply with whole-board operations and makes quiet
moves and single jumps from bits; ``count`` does not build the moves.  Both must agree
with the plain walk over ``moves`` and ``apply``, whatever the rule switches, and the
capture search (each search running at once with a state of its own) must give the
same moves when several threads use one generator.
"""

from __future__ import annotations

import random
import sys
import threading

import pytest

from shashki.rules import Game, all_variants
from shashki.rules.game import game_state
from shashki.rules.geometry import RELATIVE_DIRECTIONS, geometry
from shashki.rules.movegen import MoveGenerator, State
from shashki.rules.switches import (
    PRECEDENCE_CRITERIA,
    CaptureChoice,
    KingLanding,
    PromotionInCapture,
    Removal,
    Rules,
)

DIAGONAL = ("forward-left", "forward-right", "back-left", "back-right")
BOARDS = [
    (8, 8, False),
    (10, 10, False),
    (12, 12, False),
    (6, 6, False),
    (7, 9, False),
    (8, 8, True),
    (6, 7, True),
    (10, 10, True),
]


def random_rules(rng: random.Random, all_squares: bool) -> Rules:
    pool = RELATIVE_DIRECTIONS if all_squares else DIAGONAL
    forward = [d for d in pool if d.startswith("forward") or d in ("left", "right")]

    def some(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        return tuple(rng.sample(list(names), rng.randint(1, len(names))))

    return Rules(
        man_moves=some(forward),
        man_captures=some(pool),
        king_moves=some(pool),
        king_moves_fly=rng.random() < 0.6,
        king_captures=some(pool),
        king_captures_fly=rng.random() < 0.6,
        capture_mandatory=rng.random() < 0.85,
        capture_choice=rng.choice(list(CaptureChoice)),
        # docs/rules/switches.md#precedence: now and then a general precedence (it decides over the
        # choice)
        capture_precedence=(
            tuple(rng.sample(PRECEDENCE_CRITERIA, rng.randint(1, 3)))
            if rng.random() < 0.3
            else None
        ),
        removal=rng.choice(list(Removal)),
        no_180=rng.random() < 0.4,
        promotion_in_capture=rng.choice(list(PromotionInCapture)),
        king_landing=rng.choice(list(KingLanding)),
        promotion=rng.random() < 0.9,
        man_captures_kings=rng.random() < 0.8,
    )


def random_positions(rng: random.Random, gen: MoveGenerator, count: int) -> list[State]:
    """Positions met in random games from random placements of up to 16 pieces."""
    squares = list(gen.geo.squares)
    out: list[State] = []
    while len(out) < count:
        rng.shuffle(squares)
        w = b = k = 0
        for i, sq in enumerate(squares[: rng.randint(2, min(16, len(squares)))]):
            if i % 2:
                w |= 1 << sq
            else:
                b |= 1 << sq
            if rng.random() < 0.3:
                k |= 1 << sq
        pos: State = (w, b, k, rng.randint(0, 1), None)
        for _ in range(rng.randint(0, 8)):
            moves = gen.moves(pos)
            if not moves:
                break
            pos = gen.apply(pos, rng.choice(moves))
        out.append(pos)
    return out


def plain_perft(gen: MoveGenerator, pos: State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(plain_perft(gen, gen.apply(pos, mv), depth - 1) for mv in gen.moves(pos))


def check_horizon(gen: MoveGenerator, pos: State, moves: list) -> None:  # type: ignore[type-arg]
    """``horizon``: the moves when they are compulsory captures, and whether any exist."""
    caps, movable = gen.horizon(pos)
    assert movable == bool(moves), pos
    forced = gen.mandatory and moves and all(m.is_capture for m in moves)
    assert sorted(caps) == (sorted(moves) if forced else []), pos


def check_generator(gen: MoveGenerator, positions: list[State]) -> None:
    for pos in positions:
        moves = gen.moves(pos)
        assert gen.count(pos) == len(moves), pos
        assert len(set(moves)) == len(moves), pos
        assert set(gen.captures(pos)) == {m for m in moves if m.is_capture}, pos
        check_horizon(gen, pos, moves)
        if len(moves) <= 30:
            assert gen.perft(pos, 3) == plain_perft(gen, pos, 3), pos


@pytest.mark.parametrize("seed", range(40))
def test_fast_paths_agree_with_the_plain_walk(seed: int) -> None:
    rng = random.Random(f"movegen-fast-{seed}")
    width, height, all_squares = rng.choice(BOARDS)
    gen = MoveGenerator(geometry(width, height, all_squares), random_rules(rng, all_squares))
    check_generator(gen, random_positions(rng, gen, 6))


@pytest.mark.parametrize(
    "variant", [v.id for v in all_variants() if type(v.generator) is MoveGenerator]
)
def test_fast_paths_agree_on_every_plain_variant(variant: str) -> None:
    gen = Game(variant).variant.generator
    check_generator(gen, random_positions(random.Random(variant), gen, 12))


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_horizon_agrees_with_the_moves_in_every_variant(variant: str) -> None:
    """Every generator (the subclasses and modifiers too) over random games and random
    placements, blocked sides included."""
    rng = random.Random(f"horizon-{variant}")
    game = Game(variant)
    gen = game.variant.generator
    positions = []
    for _ in range(6):
        g = Game(variant, seed=rng.randrange(100))
        for _ in range(rng.randrange(10, 80)):
            if g.outcome() is not None:
                break
            g.push(rng.choice(g.legal_moves()))
            positions.append(game_state(g))
    if type(gen) is MoveGenerator:
        positions += random_positions(rng, gen, 30)
    for pos in positions:
        check_horizon(gen, pos, gen.moves(pos))


def test_a_subclass_with_its_own_moves_gets_the_plain_walk() -> None:
    game = Game("russian")
    base = game.variant.generator

    class OnlyFirstMove(MoveGenerator):
        def moves(self, pos: State) -> list:  # type: ignore[type-arg]
            return super().moves(pos)[:1]

        def count(self, pos: State) -> int:
            return len(self.moves(pos))

    gen = OnlyFirstMove(base.geo, base.rules)
    assert gen.perft(game_state(game), 6) == 1


def test_threads_share_a_generator() -> None:
    rng = random.Random("threads")
    game = Game("international")
    gen = game.variant.generator
    positions = []
    for _ in range(40):
        g = Game("international")
        for _ in range(rng.randint(10, 70)):
            moves = g.legal_moves()
            if not moves:
                break
            g.push_unchecked(rng.choice(moves))
        positions.append(game_state(g))
    expected = [(gen.moves(p), gen.count(p)) for p in positions]
    assert any(m and m[0].is_capture for m, _ in expected)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        r = random.Random(seed)
        try:
            for _ in range(3000):
                i = r.randrange(len(positions))
                assert (gen.moves(positions[i]), gen.count(positions[i])) == expected[i]
        except BaseException as exc:  # reported below
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors[0]


def test_a_position_is_defined_once() -> None:
    from shashki.rules import hooks, movegen

    assert movegen.State is hooks.State
