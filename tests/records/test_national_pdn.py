"""PDN tags of Pool, Czech, Canadian and Malaysian draughts (docs/rules/national.md#gametypes;
docs/rules/conventions.md#pdn-reading)."""

from __future__ import annotations

import pytest

from shashki.records import read_games_text
from shashki.records.gametypes import needs_variant_tag, variant_from_headers
from shashki.rules import find_variant


@pytest.mark.parametrize(
    ("headers", "variant"),
    [
        ({"GameType": "23"}, "pool"),
        ({"GameType": "23,B,8,8,N1,0"}, "pool"),
        ({"GameType": "29"}, "czech"),
        ({"GameType": "27"}, "canadian"),  # the primary variant of 27
        ({"GameType": "27,W,12,12,N2,0"}, "canadian"),
        ({"GameType": "27,W,12,12,N2,0", "Variant": "malaysian"}, "malaysian"),
        ({"Variant": "singaporean"}, "malaysian"),
    ],
)
def test_the_tags_pick_the_variant(headers: dict[str, str], variant: str) -> None:
    assert variant_from_headers(headers).id == variant


def test_only_malaysian_needs_the_variant_tag() -> None:
    tags = {v: needs_variant_tag(find_variant(v)) for v in ("pool", "czech", "canadian")}
    assert tags == {"pool": False, "czech": False, "canadian": False}
    assert needs_variant_tag(find_variant("malaysian"))


def test_a_malaysian_game_reads_back() -> None:
    text = '[GameType "27,W,12,12,N2,0"]\n[Variant "malaysian"]\n\n1. 44-37 29-36 *\n'
    (record,) = read_games_text(text)
    assert record.variant.id == "malaysian"
