"""The capture precedence of docs/rules/switches.md#precedence: each criterion on a constructed
position.

The host is Brazilian (8×8, men capture backward, flying kings, crowned at the end of the
move), with its capture rule replaced; squares are the docs/rules/conventions.md#numbering numbers
(1 = b8, 32 = g1).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from shashki.rules import Game, find_variant
from shashki.rules.errors import VariantFileError
from shashki.rules.geometry import geometry
from shashki.rules.movegen import MoveGenerator, State
from shashki.rules.switches import PRECEDENCE_CRITERIA, CaptureChoice, Rules
from shashki.rules.variant_file import merge_with_host, variant_from_mapping


def legal(fen: str, precedence: tuple[str, ...]) -> set[str]:
    host = find_variant("brazilian")
    variant = replace(host, rules=replace(host.rules, capture_precedence=precedence))
    game = Game.from_fen(variant, fen)
    return {game.move_text(m) for m in game.legal_moves()}


# P1: White man a3 can take b4 and d6 (a3:c5:e7, 2 pieces); White king h2 can take d6
# alone (h2:c7 or h2:b8, 1 piece).
P1 = "W:W21,K28:B10,17"


@pytest.mark.parametrize(
    ("precedence", "moves"),
    [
        ((), {"a3xe7", "h2xc7", "h2xb8"}),
        (("count",), {"a3xe7"}),
        (("with-king",), {"h2xc7", "h2xb8"}),
        (("count", "with-king"), {"a3xe7"}),
        (("with-king", "count"), {"h2xc7", "h2xb8"}),
        (("kings",), {"a3xe7", "h2xc7", "h2xb8"}),
    ],
)
def test_count_and_with_king(precedence: tuple[str, ...], moves: set[str]) -> None:
    assert legal(P1, precedence) == moves


# P2: White man c3 takes either the man b4 (c3:a5) or the king d4 (c3:e5), one piece each.
P2 = "W:W22:B17,K18"


@pytest.mark.parametrize(
    ("precedence", "moves"),
    [
        ((), {"c3xa5", "c3xe5"}),
        (("count",), {"c3xa5", "c3xe5"}),
        (("with-king",), {"c3xa5", "c3xe5"}),
        (("kings",), {"c3xe5"}),
        (("value",), {"c3xe5"}),
        (("count", "kings"), {"c3xe5"}),
    ],
)
def test_kings_and_value(precedence: tuple[str, ...], moves: set[str]) -> None:
    assert legal(P2, precedence) == moves


# P3: White man c3 takes two men (b4, b6: c3:a5:c7) or one king (d4: c3:e5).  By value
# two men (2) tie with one king (2) and fewer kings win: the men.
P3 = "W:W22:B9,17,K18"


@pytest.mark.parametrize(
    ("precedence", "moves"),
    [
        ((), {"c3xc7", "c3xe5"}),
        (("count",), {"c3xc7"}),
        (("value",), {"c3xc7"}),
        (("kings",), {"c3xe5"}),
        (("kings", "count"), {"c3xe5"}),
    ],
)
def test_value_prefers_fewer_kings(precedence: tuple[str, ...], moves: set[str]) -> None:
    assert legal(P3, precedence) == moves


# P4: White man e3 takes the king d4 then the man b6 (e3:c5:a7) or the man f4 then the
# king f6 (e3:g5:e7): two pieces, one king each; the king met first wins.
P4 = "W:W23:B9,K11,K18,19"


@pytest.mark.parametrize(
    ("precedence", "moves"),
    [
        ((), {"e3xa7", "e3xe7"}),
        (("count", "kings"), {"e3xa7", "e3xe7"}),
        (("king-order",), {"e3xa7"}),
        (("count", "with-king", "kings", "king-order"), {"e3xa7"}),
    ],
)
def test_king_order(precedence: tuple[str, ...], moves: set[str]) -> None:
    assert legal(P4, precedence) == moves


def test_capture_choice_is_an_alias() -> None:
    assert Rules().precedence == ()
    assert Rules(capture_choice=CaptureChoice.MAJORITY).precedence == ("count",)
    assert Rules(capture_precedence=("count",)).capture_choice is CaptureChoice.MAJORITY
    assert Rules(capture_precedence=()).capture_choice is CaptureChoice.FREE
    assert Rules(capture_precedence=("with-king",)).capture_choice is CaptureChoice.FREE
    with pytest.raises(ValueError, match="unknown capture precedence"):
        Rules(capture_precedence=("most",))
    with pytest.raises(ValueError, match="twice"):
        Rules(capture_precedence=("count", "count"))


def test_variant_files_say_it_either_way() -> None:
    host = {
        "id": "h",
        "name": "H",
        "board": {"width": 8, "height": 8, "start": "W:W21-32:B1-12"},
        "rules": {"capture_choice": "majority"},
    }
    assert variant_from_mapping(host).rules.precedence == ("count",)
    child = {"id": "c", "name": "C", "host": "h", "rules": {"capture_precedence": ["with-king"]}}
    merged = merge_with_host(child, host)
    assert "capture_choice" not in merged["rules"]
    assert variant_from_mapping(merged).rules.precedence == ("with-king",)
    back = {"id": "d", "name": "D", "host": "c", "rules": {"capture_choice": "free"}}
    assert variant_from_mapping(merge_with_host(back, merged)).rules.precedence == ()
    bad = dict(host, rules={"capture_precedence": ["count", "most"]})
    with pytest.raises(VariantFileError, match="capture_precedence"):
        variant_from_mapping(bad)
    twice = dict(host, rules={"capture_precedence": ["count", "count"]})
    with pytest.raises(VariantFileError, match="repeats"):
        variant_from_mapping(twice)


def test_columns_refuse_a_precedence_they_cannot_apply() -> None:
    bashni = find_variant("bashni")
    with pytest.raises(ValueError, match="precedence"):
        bashni.generator_class(bashni.board, replace(bashni.rules, capture_precedence=("kings",)))


def _key(mv: tuple[object, ...]) -> tuple[object, ...]:
    return (mv[2], mv[3], mv[4])


def _filtered(gen: MoveGenerator, pos: State, precedence: tuple[str, ...]) -> set[object]:
    """The precedence applied by hand to the free-choice moves (every criterion but
    king-order depends on the start piece and the captured set only)."""
    w, b, k, turn, _ = pos
    opp = w if turn else b
    moves = gen.moves(pos)
    if not moves or not moves[0][4]:
        return {_key(m) for m in moves}
    n = gen.geo.size + 1

    def value(mv: tuple[object, ...]) -> tuple[int, ...]:
        cm, fm = int(mv[4]), int(mv[2])  # type: ignore[call-overload]
        kings = (cm & opp & k).bit_count()
        out = []
        for c in precedence:
            out.append(
                {
                    "count": cm.bit_count(),
                    "value": (cm.bit_count() + kings) * n - kings,
                    "with-king": int(bool(fm & k)),
                    "kings": kings,
                }[c]
            )
        return tuple(out)

    best = max(value(m) for m in moves)
    return {_key(m) for m in moves if value(m) == best}


@pytest.mark.parametrize("seed", range(6))
def test_precedence_equals_filtering_the_free_moves(seed: int) -> None:
    rng = random.Random(seed)
    criteria = [c for c in PRECEDENCE_CRITERIA if c != "king-order"]
    for width, fly in ((8, True), (10, True), (8, False)):
        geo = geometry(width, width, False)
        base = Rules(king_moves_fly=fly, king_captures_fly=fly)
        free = MoveGenerator(geo, base)
        for _ in range(4):
            precedence = tuple(rng.sample(criteria, rng.randint(1, len(criteria))))
            gen = MoveGenerator(geo, replace(base, capture_precedence=precedence))
            squares = list(geo.squares)
            for _ in range(60):
                rng.shuffle(squares)
                w = b = k = 0
                for i, sq in enumerate(squares[: rng.randint(3, 16)]):
                    if i % 2:
                        w |= 1 << sq
                    else:
                        b |= 1 << sq
                    if rng.random() < 0.35:
                        k |= 1 << sq
                pos: State = (w, b, k, rng.randint(0, 1), None)
                assert {_key(m) for m in gen.moves(pos)} == _filtered(free, pos, precedence)
                assert gen.count(pos) == len(gen.moves(pos))
                assert gen.perft(pos, 2) == sum(
                    gen.count(gen.apply(pos, m)) for m in gen.moves(pos)
                )


def test_why_not_names_the_precedence() -> None:
    from shashki.rules.explain import why_not_select

    host = find_variant("brazilian")
    variant = replace(host, rules=replace(host.rules, capture_precedence=("with-king",)))
    game = Game.from_fen(variant, P1)
    text = why_not_select(game, variant.board.parse_square("a3"))
    assert text is not None and "capture with a king if a king can" in text
