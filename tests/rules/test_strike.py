"""The Turkish strike (shashki.rules.strike): a capture stopped by the pieces it has
taken, still on the board until it ends, told from one that simply ends."""

from __future__ import annotations

import pytest

from shashki.rules import Game, all_variants
from shashki.rules.strike import has_turkish_strike, stopped_by_captured
from shashki.rules.switches import Removal

#: Black has just given a man on f2: the white king's capture over f2, c3, b6 and e7
#: ends on f6, since c3, taken but still on the board, stands between f6 and b2 (with
#: c3 gone it would go on over b2 to a1); its other capture ends on f8, where nothing is
#: left to take; the man's capture from h4 ends on d2 or e1, with nothing left to take.
STOPPED = "W:WKg3,h4:Bf2,c3,b6,e7,b2,g5"


def captures(game: Game) -> dict[str, bool]:
    return {game.move_text(m, full=True): stopped_by_captured(game, m) for m in game.legal_moves()}


def test_a_capture_stopped_by_its_own_victims() -> None:
    assert captures(Game("russian", STOPPED)) == {
        "h4:f6:d8:a5:d2": False,
        "h4:f6:d8:a5:e1": False,
        "g3:e1:b4:f8": False,
        "g3:e1:a5:d8:f6": True,
    }


def test_with_the_blocking_piece_gone_the_capture_goes_on() -> None:
    """Without the man on b2 beyond c3 there is nothing the king is kept from."""
    got = captures(Game("russian", STOPPED.replace(",b2", "")))
    assert got["g3:e1:a5:d8:f6"] is False


def test_a_quiet_move_is_never_stopped() -> None:
    game = Game("russian")
    assert not any(stopped_by_captured(game, m) for m in game.legal_moves())


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_only_where_captured_pieces_stay_on_the_board(variant: object) -> None:
    from shashki.rules.variant import Variant

    assert isinstance(variant, Variant)
    if has_turkish_strike(variant):
        assert variant.rules.removal is Removal.END_OF_MOVE
    if variant.rules.removal is Removal.IMMEDIATE:
        assert not has_turkish_strike(variant)


def test_the_switch_not_the_name() -> None:
    assert has_turkish_strike(Game("russian").variant)
    assert has_turkish_strike(Game("international").variant)
    assert not has_turkish_strike(Game("turkish").variant)  # (each piece leaves at once)
