"""Every variant plays online: a host and a guest on 127.0.0.1 play moves of every
variant (lots drawn, start options, two-move turns, columns, shared pieces) and keep
the same position after every move, to the same record."""

from __future__ import annotations

import random

import pytest

from shashki.records import write_game
from shashki.rules import Color, Game, all_variants
from shashki.session import GameSession

from .harness import hosted, until

PLIES = 16


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
async def test_every_variant_plays_online(variant: str) -> None:
    pair = await hosted(variant, clock="5+0")
    try:
        guest = await pair.join("Boris")
        host, gs = pair.link.session, guest.session
        assert gs.game.fen() == host.game.fen()
        rng = random.Random(variant)
        for _ply in range(PLIES):
            if host.outcome is not None:
                break
            mover: GameSession = host if host.game.turn is Color.WHITE else gs
            moves = mover.legal
            assert mover.play(rng.choice(moves))
            n = len(mover.game.move_stack)
            await until(
                lambda n=n: len(host.game.move_stack) == n == len(gs.game.move_stack),
                f"{variant}: ply {n} on both sides",
            )
            assert gs.game.fen() == host.game.fen()
        if host.outcome is None:
            pair.link.resign()
        await until(lambda: gs.outcome is not None, f"{variant}: the end on the guest's side")
        assert write_game(gs.record()) == write_game(host.record())
    finally:
        await pair.close()


async def test_a_start_drawn_by_lot_is_the_hosts() -> None:
    lot = next((v for v in all_variants() if v.start_by_lot), None)
    if lot is None:
        pytest.skip("no variant draws its start by lot")
    starts = set()
    for seed in range(1, 40):
        starts.add(Game(lot, seed=seed).fen())
        if len(starts) > 1:
            break
    assert len(starts) > 1  # (the lot can give another start than the default)
    pair = await hosted(lot.id, seed=seed)
    try:
        guest = await pair.join()
        assert guest.session.game.seed == seed
        assert (
            guest.session.game.fen() == pair.link.session.game.fen() == Game(lot, seed=seed).fen()
        )
    finally:
        await pair.close()
