"""The capture searches against plain enumerations of every sequence, and their interruption.

A capture search does not walk the same state twice (the same square reached with the
same pieces taken, in another order): that is what keeps kings flying over a crowded
board from taking seconds.  The moves must stay exactly those of the plain walk over
every sequence, in the same order and with the same path kept for each, whatever the rule
switches.  A search with a deadline can stop a long generation (``interruptible``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.rules import Game, find_variant
from shashki.rules.anycapture import AnyCaptureSearch, Capture
from shashki.rules.bashni import BashniGenerator
from shashki.rules.game import fast_moves, game_state
from shashki.rules.geometry import geometry
from shashki.rules.interrupt import STEPS, interruptible
from shashki.rules.move import FastMove
from shashki.rules.movegen import MoveGenerator, State
from shashki.rules.switches import CaptureChoice, KingLanding, PromotionInCapture, Removal

from .test_movegen_fast import BOARDS, random_rules

#: Turkish draughts, one king against twenty: 64 moves of twenty captures each, found
#: among more than half a million states (a few seconds without the memory of states).
TURKISH_CROWD = (
    "W:WKd8:BKe1,Kg7,Kc1,Ka7,Ke3,Ke5,Kd6,Kd2,Kc8,Kh6,Kf6,Kb6,Ka4,Kf2,Kb2,Kc3,Ke8,Kc5,Kd4,Kg5"
)


def plain_captures(gen: MoveGenerator, pos: State) -> list[FastMove]:
    """Every capture sequence walked one by one, nothing remembered: the moves, the first
    sequence found kept for each (start, end, captured set, crowned)."""
    geo, rules = gen.geo, gen.rules
    w, b, k, turn, _ = pos
    own, opp = (b, w) if turn else (w, b)
    promo = gen.promo[turn]
    majority = rules.capture_choice is CaptureChoice.MAJORITY
    # docs/rules/switches.md#precedence, written out plainly: each criterion's value, higher better
    precedence = rules.precedence
    enemy_kings = opp & k
    best: list[tuple[object, ...]] = []
    spared = 0 if rules.man_captures_kings else opp & k  # docs/rules/switches.md#men-and-kings
    immediate = rules.removal is Removal.IMMEDIATE
    must_continue = rules.king_landing is KingLanding.MUST_CONTINUE
    # docs/rules/switches.md#landing: a sequence that ends after taking a king ends just beyond it
    halt_behind_king = rules.king_landing is KingLanding.BEHIND_LAST_KING
    # docs/rules/switches.md#landing: directly-behind, every landing is the square just beyond the
    # piece
    directly_behind = rules.king_landing is KingLanding.DIRECTLY_BEHIND
    rule = rules.promotion_in_capture
    found: dict[tuple[int, int, int, bool], FastMove] = {}
    most = 0
    path: list[int] = []
    caps: list[int] = []

    def allowed(dirs: tuple[int, ...], last: int) -> list[int]:
        return [d for d in dirs if not (rules.no_180 and last >= 0 and d == (last + 4) % 8)]

    def score() -> tuple[object, ...]:
        kings = [i for i, c in enumerate(caps) if enemy_kings >> c & 1]
        values = {
            "count": len(caps),
            "value": (len(caps) + len(kings)) * 10_000 - len(kings),  # men + 2 kings, - kings
            "with-king": int(bool(k >> path[0] & 1)),
            "kings": len(kings),
            "king-order": tuple(-i for i in kings),
        }
        return tuple(values[c] for c in precedence)

    def record(end: int, crowned: bool) -> None:
        nonlocal most
        if precedence and not majority:
            value = score()
            if best and value < best[0]:
                return
            if not best or value > best[0]:
                found.clear()
                best[:] = [value]
        elif majority:
            if len(caps) < most:
                return
            if len(caps) > most:
                found.clear()
                most = len(caps)
        key = (path[0], end, sum(1 << c for c in caps), crowned)
        found.setdefault(key, FastMove(path, caps))

    def jump(d: int, cur: int, occ: int, jumpable: int) -> tuple[int, int] | None:
        v = geo.step[d][cur]
        land = geo.step[d][v] if v >= 0 else -1
        if land < 0 or not jumpable >> v & 1 or occ >> land & 1:
            return None
        return v, land

    def man(cur: int, occ: int, jumpable: int, last: int) -> bool:
        jumped = False
        for d in allowed(gen.man_cap_dirs[turn], last):
            j = jump(d, cur, occ, jumpable)
            if j is None:
                continue
            jumped = True
            v, land = j
            occ2 = occ & ~(1 << v) if immediate else occ
            caps.append(v)
            path.append(land)
            if promo >> land & 1 and rule is not PromotionInCapture.AT_END:
                rest = jumpable & ~(1 << v) | spared  # (crowned, it may jump kings again)
                if rule is PromotionInCapture.STOP or not king(land, occ2, rest, d):
                    record(land, True)
            elif not man(land, occ2, jumpable & ~(1 << v), d):
                record(land, False)
            path.pop()
            caps.pop()
        return jumped

    def short_king(cur: int, occ: int, jumpable: int, last: int) -> bool:
        jumped = False
        for d in allowed(gen.king_cap_dirs, last):
            j = jump(d, cur, occ, jumpable)
            if j is None:
                continue
            jumped = True
            v, land = j
            caps.append(v)
            path.append(land)
            if not short_king(land, occ & ~(1 << v) if immediate else occ, jumpable & ~(1 << v), d):
                record(land, True)
            path.pop()
            caps.pop()
        return jumped

    def flying_king(cur: int, occ: int, jumpable: int, last: int) -> bool:
        jumped = False
        for d in allowed(gen.king_cap_dirs, last):
            ray = geo.ray[d][cur]
            i = 0
            while i < len(ray) and not occ >> ray[i] & 1:
                i += 1
            if i >= len(ray) or not jumpable >> ray[i] & 1:
                continue
            victim = ray[i]
            lands = []
            for sq in ray[i + 1 :]:
                if occ >> sq & 1:
                    break
                lands.append(sq)
            if directly_behind:
                lands = lands[:1]
            if not lands:
                continue
            jumped = True
            occ2 = occ & ~(1 << victim) if immediate else occ
            caps.append(victim)
            terminal = []
            goes_on = False
            for land in lands:
                path.append(land)
                if flying_king(land, occ2, jumpable & ~(1 << victim), d):
                    goes_on = True
                elif must_continue:
                    terminal.append(land)
                elif halt_behind_king and k >> victim & 1 and land != lands[0]:
                    pass
                else:
                    record(land, True)
                path.pop()
            if terminal and not goes_on:
                for land in terminal:
                    path.append(land)
                    record(land, True)
                    path.pop()
            caps.pop()
        return jumped

    king = flying_king if rules.king_captures_fly else short_king
    occupied = w | b
    for piece, walk, prey in ((own & ~k, man, opp & ~spared), (own & k, king, opp)):
        for sq in geo.positions(piece):
            path.append(sq)
            walk(sq, occupied & ~(1 << sq), prey, -1)
            path.pop()
    return list(found.values())


def crowded(rng: random.Random, gen: MoveGenerator, pieces: int) -> State:
    """A random placement, mostly kings."""
    squares = rng.sample(list(gen.geo.squares), min(pieces, len(gen.geo.squares)))
    w = b = k = 0
    for i, sq in enumerate(squares):
        if i % 3 == 0:
            w |= 1 << sq
        else:
            b |= 1 << sq
        if rng.random() < 0.7:
            k |= 1 << sq
    return (w, b, k, rng.randint(0, 1), None)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_the_capture_search_finds_the_moves_of_the_plain_walk(seed: int) -> None:
    rng = random.Random(seed)
    width, height, all_squares = rng.choice(BOARDS)
    gen = MoveGenerator(geometry(width, height, all_squares), random_rules(rng, all_squares))
    pos = crowded(rng, gen, rng.randint(4, 13))
    assert gen.captures(pos) == plain_captures(gen, pos)


@pytest.mark.parametrize(
    "variant", ["international", "russian", "brazilian", "turkish", "tama", "english"]
)
def test_the_capture_search_of_each_variant_finds_the_moves_of_the_plain_walk(
    variant: str,
) -> None:
    gen = find_variant(variant).generator
    rng = random.Random(variant)
    for _ in range(60):
        pos = crowded(rng, gen, rng.randint(6, 14))
        assert gen.captures(pos) == plain_captures(gen, pos), pos


class _PlainAnyCapture(AnyCaptureSearch):
    """The any-colour search as it walked before it remembered states: every sequence."""

    def _walk(
        self,
        cur: int,
        king: bool,
        occ: int,
        jumpable: int,
        last: int,
        path: list[int],
        caps: list[int],
        cmask: int,
    ) -> bool:
        jumps = self._jumps(cur, king, occ, jumpable, last)
        if not jumps:
            return False
        if caps and self._may_stop is not None and self._may_stop(cur, king, occ, jumpable, last):
            self._record(cur, king, path, caps, cmask)
        promo = self.promo[self._turn]
        for d, victim, lands in jumps:
            vbit = 1 << victim
            occ2 = occ & ~vbit if self.immediate else occ
            caps.append(victim)
            terminal = []
            goes_on = False
            for land in lands:
                path.append(land)
                crowned = not king and promo >> land & 1
                if crowned and self.promo_rule is PromotionInCapture.STOP:
                    self._record(land, True, path, caps, cmask | vbit)
                else:
                    now_king = king or (
                        crowned and self.promo_rule is PromotionInCapture.CONTINUE_AS_KING
                    )
                    if self._walk(
                        land, bool(now_king), occ2, jumpable & ~vbit, d, path, caps, cmask | vbit
                    ):
                        goes_on = True
                    else:
                        terminal.append((land, bool(now_king)))
                path.pop()
            if not (goes_on and self.must_continue and len(lands) > 1):
                for land, now_king in terminal:
                    path.append(land)
                    self._record(land, now_king, path, caps, cmask | vbit)
                    path.pop()
            caps.pop()
        return True


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.booleans())
def test_the_any_colour_search_finds_the_moves_of_the_plain_walk(seed: int, stops: bool) -> None:
    rng = random.Random(seed)
    width, height, all_squares = rng.choice(BOARDS)
    geo = geometry(width, height, all_squares)
    rules = random_rules(rng, all_squares)
    squares = rng.sample(list(geo.squares), min(rng.randint(4, 12), len(geo.squares)))
    occupied = geo.bits(squares)
    counting = geo.bits(squares[1::2])
    # a stop allowed after some jumps (self-capture's optional own-piece jumps)
    may_stop: Any = (
        (lambda cur, king, occ, jumpable, last: (cur + last) % 3 == 0) if stops else None
    )
    for start in squares[:4]:
        king = rng.random() < 0.6
        turn = rng.randint(0, 1)
        args = (start, king, occupied, occupied, counting, turn, may_stop)
        got: list[Capture] = AnyCaptureSearch(geo, rules).search(*args)
        assert got == _PlainAnyCapture(geo, rules).search(*args)


class _PlainBashni(BashniGenerator):
    """Bashni's capture search as it walked before it remembered states."""

    def _walk(  # type: ignore[override]
        self,
        start: int,
        cur: int,
        king: bool,
        moving: list[str],
        stacks: dict[int, str],
        occ: int,
        turn: int,
        last_victim: int,
        path: list[int],
        caps: list[int],
        found: dict[Any, FastMove],
    ) -> bool:
        jumps = self._jumps(cur, king, stacks, occ, turn, last_victim)
        if not jumps:
            return False
        promo = self._promo_rows[turn] if self.rules.promotion else 0
        must_continue = self.rules.king_landing is KingLanding.MUST_CONTINUE
        for _d, v, lands in jumps:
            victim = stacks[v]
            prisoner, rest = victim[-1], victim[:-1]
            moving.insert(0, prisoner)
            if rest:
                stacks[v] = rest
                occ2 = occ
            else:
                del stacks[v]
                occ2 = occ & ~(1 << v)
            caps.append(v)
            terminal = []
            goes_on = False
            for land in lands:
                path.append(land)
                crowned = not king and bool(promo >> land & 1)
                top = moving[-1]
                if crowned and self.rules.promotion_in_capture is not PromotionInCapture.AT_END:
                    moving[-1] = top.upper()
                now_king = king or (
                    crowned
                    and self.rules.promotion_in_capture is PromotionInCapture.CONTINUE_AS_KING
                )
                if crowned and self.rules.promotion_in_capture is PromotionInCapture.STOP:
                    self._record(start, land, moving, path, caps, found)
                elif self._walk(
                    start, land, now_king, moving, stacks, occ2, turn, v, path, caps, found
                ):
                    goes_on = True
                else:
                    terminal.append((land, moving[-1]))
                moving[-1] = top
                path.pop()
            if not (goes_on and must_continue):
                for land, top_code in terminal:
                    path.append(land)
                    saved = moving[-1]
                    moving[-1] = top_code
                    self._record(start, land, moving, path, caps, found)
                    moving[-1] = saved
                    path.pop()
            caps.pop()
            stacks[v] = victim
            moving.pop(0)
        return True


def _columns_fen(rng: random.Random, names: list[str]) -> str:
    """A random Bashni position: a white king or two (White to move) among black columns,
    mostly away from the edges (where they can be jumped), of kings with men under them."""
    inner = [n for n in names if n[0] not in "ah" and n[1] not in "18"]
    squares = rng.sample(inner, rng.randint(3, 7))
    white = [
        f"{n}=" + "".join(rng.choice("bwW") for _ in range(rng.randint(0, 2))) + "W"
        for n in rng.sample([n for n in names if n not in squares], rng.randint(1, 2))
    ]
    black = [
        f"{n}=" + "".join(rng.choice("bbbBw") for _ in range(rng.randint(0, 3))) + rng.choice("bBB")
        for n in squares
    ]
    return f"W:W{','.join(white)}:B{','.join(black)}"


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_the_column_search_finds_the_moves_of_the_plain_walk(seed: int) -> None:
    rng = random.Random(seed)
    variant = find_variant("bashni")
    plain = _PlainBashni(variant.board, variant.rules)
    plain.configure(variant)
    names = [variant.board.name(sq) for sq in variant.board.squares]
    game = Game(variant, _columns_fen(rng, names))
    assert game.variant.generator.captures(game_state(game)) == plain.captures(game_state(game))


class _Stop(Exception):
    pass


def test_a_long_generation_can_be_stopped_and_the_generator_still_works() -> None:
    game = Game("turkish", TURKISH_CROWD)
    gen = game.variant.generator
    calls = []

    def stop() -> None:
        calls.append(1)
        raise _Stop

    with pytest.raises(_Stop), interruptible(stop):
        gen.moves(game_state(game))
    assert calls == [1]
    moves = gen.moves(game_state(game))  # (the state of the stopped search is not left over)
    assert len(moves) == 64 and all(len(m.captured) == 20 for m in moves)
    assert gen.moves(game_state(Game("turkish"))) == fast_moves(Game("turkish"))


def test_states_are_walked_once() -> None:
    """The crowd's moves take a bounded number of new states (counted by the checks,
    one per STEPS states), not one per sequence."""
    game = Game("turkish", TURKISH_CROWD)
    polls = []
    with interruptible(lambda: polls.append(1)):
        moves = game.variant.generator.moves(game_state(game))
    assert len(moves) == 64
    assert 0 < len(polls) * STEPS <= 1_000_000


def test_the_check_is_of_this_thread_and_block_only() -> None:
    import threading

    game = Game("turkish", TURKISH_CROWD)
    gen = game.variant.generator
    polls: list[str] = []
    with interruptible(lambda: polls.append("inner")):
        with interruptible(lambda: polls.append("nested")):
            pass
        other = threading.Thread(target=gen.moves, args=(game_state(game),))
        other.start()
        other.join()
        assert polls == []  # the other thread's generation does not call this check
        gen.moves(game_state(game))
    assert polls and set(polls) == {"inner"}
    polls.clear()
    gen.moves(game_state(game))
    assert polls == []
