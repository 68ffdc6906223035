"""PDN for Breakthrough, Antidraughts and Killer (docs/rules/national.md#gametypes;
docs/rules/conventions.md#pdn-reading): the GameType each writes, and the variant a record's tags
pick."""

from __future__ import annotations

import pytest

from shashki.records import GameRecord, read_games_text, write_game
from shashki.records.gametypes import variant_from_headers
from shashki.rules import Game, find_variant


@pytest.mark.parametrize(
    ("variant", "gametype", "tag"),
    [
        ("breakthrough", "96,W,10,10,N2,0", False),
        ("antidraughts", "98,W,10,10,N2,0", False),
        ("killer", "20,W,10,10,N2,0", True),
    ],
)
def test_the_record_names_the_variant(variant: str, gametype: str, tag: bool) -> None:
    game = Game(variant)
    game.push_text("32-28")
    text = write_game(GameRecord.from_game(game))
    assert f'[GameType "{gametype}"]' in text
    assert (f'[Variant "{variant}"]' in text) is tag
    back = read_games_text(text)[0]
    assert back.variant is find_variant(variant)


def test_the_variant_tag_picks_killer_among_the_games_of_number_20() -> None:
    assert variant_from_headers({"GameType": "20"}) is find_variant("international")
    assert variant_from_headers({"GameType": "20", "Variant": "killer"}) is find_variant("killer")
    assert variant_from_headers({"GameType": "96"}) is find_variant("breakthrough")
    assert variant_from_headers({"GameType": "98"}) is find_variant("antidraughts")
    # lidraughts' own names in the Variant tag
    assert variant_from_headers({"Variant": "Breakthrough"}) is find_variant("breakthrough")
    assert variant_from_headers({"Variant": "Antidraughts"}) is find_variant("antidraughts")
