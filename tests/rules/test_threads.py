"""Two threads listing moves at once: the engine's long listing never holds up the
screen's (each capture search has a state of its own)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from shashki.rules import Game
from shashki.rules.game import game_state
from shashki.rules.interrupt import interruptible

#: Turkish draughts, one flying king against twenty: its 64 moves take half a million
#: states of the capture search, which calls the thread's check every STEPS of them.
TURKISH_CROWD = (
    "W:WKd8:BKe1,Kg7,Kc1,Ka7,Ke3,Ke5,Kd6,Kd2,Kc8,Kh6,Kf6,Kb6,Ka4,Kf2,Kb2,Kc3,Ke8,Kc5,Kd4,Kg5"
)
#: The same side to move with a king that captures: a listing through the same capture
#: search of the same generator.
SMALL = "W:WKd1,a2:Bd5,Kh7"
#: Long enough for a listing that does not wait for another thread; one that does wait
#: is held until the other is let go, which happens only after this.
PATIENCE = 20.0


def test_a_listing_does_not_wait_for_another_threads_listing() -> None:
    crowd = Game("turkish", TURKISH_CROWD)
    small = Game("turkish", SMALL)
    expected_crowd = crowd.variant.generator.moves(game_state(crowd))
    expected_small = small.variant.generator.moves(game_state(small))
    assert len(expected_crowd) == 64 and expected_small and expected_small[0].captured
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:  # the engine's check, called mid-way through its listing
        held.set()
        release.wait(PATIENCE * 2)

    def engine() -> list:
        with interruptible(hold):
            return crowd.variant.generator.moves(game_state(crowd))

    with ThreadPoolExecutor(2) as pool:
        engine_listing = pool.submit(engine)
        try:
            assert held.wait(PATIENCE), "the engine's listing never reached its check"
            # the screen lists its moves while the engine's listing is held mid-way
            screen_listing = pool.submit(small.variant.generator.moves, game_state(small))
            screen_moves = screen_listing.result(PATIENCE)  # (raises if it waits)
            assert not engine_listing.done()
        finally:
            release.set()
        assert screen_moves == expected_small
        assert engine_listing.result(PATIENCE) == expected_crowd


def test_listings_in_many_threads_at_once_agree_with_one_thread() -> None:
    # the short listings run while the long one is under way, in the other threads
    crowd = Game("turkish", TURKISH_CROWD)
    games = [Game("turkish", SMALL), Game("turkish")]
    for fen in ("W:WK31:BK10,K12,K14,K21,K23,K24,K34,K42,K43", "W:WK46,23:B8,9,18,19,29,32"):
        games.append(Game("international", fen))
    expected = [g.variant.generator.moves(game_state(g)) for g in games]
    with ThreadPoolExecutor(4) as pool:
        long = pool.submit(crowd.variant.generator.moves, game_state(crowd))
        listings = [pool.submit(g.variant.generator.moves, game_state(g)) for g in games * 20]
        got = [f.result(PATIENCE) for f in listings]
        assert len(long.result(PATIENCE * 2)) == 64
    assert got == expected * 20
