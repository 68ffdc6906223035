"""docs/rules/switches.md#men-and-kings: with ``man_captures_kings = false`` a man never jumps a
king.

The host is Brazilian (8×8, men capture backward, flying kings); squares are the
docs/rules/conventions.md#numbering numbers (1 = b8, 32 = g1).  The fast paths against the plain
walk, with this switch among the random ones, are in test_movegen_fast.py and
test_capture_search.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shashki.rules import Game, find_variant
from shashki.rules.game import game_state
from shashki.rules.variant_file import variant_from_mapping


def legal(fen: str, men_take_kings: bool) -> set[str]:
    host = find_variant("brazilian")
    variant = replace(host, rules=replace(host.rules, man_captures_kings=men_take_kings))
    game = Game.from_fen(variant, fen)
    return {game.move_text(m) for m in game.legal_moves()}


@pytest.mark.parametrize(
    ("fen", "with_kings", "without"),
    [
        # a man next to a king: the king is only an obstacle, no capture, quiet moves
        ("W:W22:BK18", {"c3xe5"}, {"c3-b4"}),
        # a king is not one either at the second jump: the man stops after b4
        ("W:W21:BK10,17", {"a3xe7"}, {"a3xc5"}),
        # with a man and a king to take, the man takes the man (majority has no say)
        ("W:W22:B17,K18", {"c3xe5", "c3xa5"}, {"c3xa5"}),
        # backward too
        ("W:W14:BK18", {"c5xe3"}, {"c5-b6", "c5-d6"}),
    ],
)
def test_a_man_never_jumps_a_king(fen: str, with_kings: set[str], without: set[str]) -> None:
    assert legal(fen, True) == with_kings
    assert legal(fen, False) == without


def test_kings_still_capture_kings() -> None:
    assert legal("W:WK22:BK18", False) == {"c3xe5", "c3xf6", "c3xg7", "c3xh8"}


def test_the_default_and_the_variant_file_key() -> None:
    data = {
        "id": "h",
        "name": "H",
        "board": {"width": 8, "height": 8, "start": "W:W21-32:B1-12"},
        "rules": {},
    }
    assert variant_from_mapping(data).rules.man_captures_kings is True
    data["rules"] = {"man_captures_kings": False}
    assert variant_from_mapping(data).rules.man_captures_kings is False


def test_perft_agrees_with_the_plain_walk() -> None:
    host = find_variant("brazilian")
    variant = replace(host, rules=replace(host.rules, man_captures_kings=False))
    game = Game.from_fen(variant, "W:W21,22,K27,30:B9,K10,K13,17,K18")
    gen = variant.generator
    pos = game_state(game)

    def walk(p: object, d: int) -> int:
        if d == 0:
            return 1
        return sum(walk(gen.apply(p, m), d - 1) for m in gen.moves(p))  # type: ignore[arg-type]

    for depth in (1, 2, 3, 4):
        assert gen.perft(pos, depth) == walk(pos, depth)


def test_why_not_says_a_man_may_not_capture_a_king() -> None:
    from shashki.rules.explain import why_not_move

    host = find_variant("brazilian")
    variant = replace(host, rules=replace(host.rules, man_captures_kings=False))
    game = Game.from_fen(variant, "W:W22:BK18")
    board = variant.board
    text = why_not_move(game, board.parse_square("c3"), board.parse_square("e5"))
    assert text is not None and "a man may not capture a king" in text, text
