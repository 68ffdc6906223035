"""Killer draughts and the king landing ``behind-last-king`` (docs/rules/switches.md#landing;
docs/rules/national.md#killer): the hand-checked positions KI1-KI4, one test each, and the published
perft counts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from shashki.rules import Game, find_variant, load_variant_file
from shashki.rules.explain import why_not_move
from shashki.rules.game import game_state
from shashki.rules.switches import KingLanding

from ..conftest import shared_path

# perft.json "killer (international rules, killer king rule)", drop-duplicates (dctl)
PUBLISHED = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423]
QUICK = 6
SLOW = 8


def texts(variant: str, fen: str) -> set[str]:
    game = Game(variant, fen)
    return {game.move_text(m) for m in game.legal_moves()}


def test_the_variant_is_international_with_the_killer_landing_and_its_draws() -> None:
    v = find_variant("killer")
    assert v.rules.king_landing is KingLanding.BEHIND_LAST_KING
    assert v.gametype == "20,W,10,10,N2,0" and not v.gametype_primary
    # threefold repetition and 25 king-only moves each; not the 16-/5-move endgame rules.
    # The same rules as International's first two, the second named as this program's own
    # (docs/rules/national.md#killer: the killer rules say nothing on draws).
    unnamed = [replace(d, name="") for d in v.draws]
    assert unnamed == [replace(d, name="") for d in find_variant("international").draws[:2]]
    assert v.draws[1].name.endswith("(a rule of this program)")
    assert (v.draws[0].kind, v.draws[0].count) == ("repetition", 3)
    assert v.draws[1].plies == 50 and not v.draws[1].has_material_condition


def test_ki1_a_king_taken_alone_is_jumped_to_just_beyond_it() -> None:
    assert texts("killer", "W:WK46:BK37") == {"46x32"}
    assert texts("international", "W:WK46:BK37") == {
        "46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"
    }  # fmt: skip


def test_ki2_only_the_final_landing_is_bound_the_one_after_a_man_is_free() -> None:
    assert texts("killer", "W:WK46:B37,K23") == {"46x19"}
    assert texts("international", "W:WK46:B37,K23") == {"46x19", "46x14", "46x10", "46x5"}


def test_ki3_a_man_taken_last_leaves_the_landing_free() -> None:
    expected = {"46x19", "46x14", "46x10", "46x5"}
    assert texts("killer", "W:WK46:BK37,23") == expected
    assert texts("international", "W:WK46:BK37,23") == expected


def test_an_intermediate_landing_beyond_a_king_is_free() -> None:
    # docs/rules/switches.md#landing: a1xc3 (a king) may land on e5, two squares beyond it, because
    # the sequence goes on from there over d6 (a man), after which the landing is free again
    expected = {"46x17", "46x11", "46x6"}
    assert texts("killer", "W:WK46:BK37,22") == expected
    assert texts("international", "W:WK46:BK37,22") == expected


def test_the_landing_rule_composes_with_another_host(tmp_path: Path) -> None:
    path = tmp_path / "killer-russian.toml"
    path.write_text(
        'id = "killer-russian"\nname = "Killer on Russian"\nhost = "russian"\n'
        '[rules]\nking_landing = "behind-last-king"\n',
        encoding="utf-8",
    )
    v = load_variant_file(path)
    game = Game(v, "W:WKa1:BKc3")
    assert sorted(game.move_text(m) for m in game.legal_moves()) == ["a1:d4"]


@pytest.mark.parametrize("depth", range(1, QUICK + 1))
def test_ki4_perft_start(depth: int) -> None:
    assert Game("killer").perft(depth) == PUBLISHED[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("depth", range(QUICK + 1, SLOW + 1))
def test_ki4_perft_start_deep(depth: int) -> None:
    assert Game("killer").perft(depth) == PUBLISHED[depth - 1]


def test_perft_vectors_file_killer() -> None:
    """The drop-duplicates killer records of ../shared/vectors/perft.json at the quick
    depths (the deeper ones are the table above, under ``slow``)."""
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    game = Game("killer")
    checked = 0
    for record in records:
        if not record["variant"].startswith("killer"):
            continue
        if not record["counting_convention"].startswith("drop"):
            continue
        assert game_state(Game("killer", record["fen"])) == game_state(game)
        for depth_text, count in record["depth_counts"].items():
            depth = int(depth_text)
            if depth <= len(PUBLISHED):
                assert PUBLISHED[depth - 1] == count
            if depth <= QUICK:
                assert game.perft(depth) == count, (record["source"], depth)
                checked += 1
    assert checked >= QUICK


def test_the_refusal_names_the_killer_rule() -> None:
    game = Game("killer", "W:WK46:BK37")
    geo = game.variant.board
    text = why_not_move(game, geo.parse_square("46"), geo.parse_square("28"))
    assert text == (
        "In Killer draughts a king that takes a king last must stop on the square just "
        "beyond it: go to 32."
    )
    assert why_not_move(game, geo.parse_square("46"), geo.parse_square("32")) is None
