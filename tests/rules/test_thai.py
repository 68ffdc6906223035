"""Thai draughts and the king landing ``directly-behind`` (docs/rules/national.md#thai;
docs/rules/switches.md#landing): the hand-checked positions TH1-TH4, one test each, the published
perft counts of the Thai rules from the 12-man start (docs/rules/national.md#thai-counts), and the
generators that refuse the landing."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from shashki.rules import Game, Variant, VariantFileError, find_variant, load_variant_file
from shashki.rules.explain import why_not_move
from shashki.rules.game import game_state
from shashki.rules.switches import KingLanding, Removal

from ..conftest import shared_path

#: docs/rules/national.md#thai-counts: dctl's "thai" counts are Thai rules from the 12-man start.
TWELVE_MEN = "W:W21-32:B1-12"
TH1 = "W:WK29:B11,22"
# perft.json "thai", drop-duplicates (dctl; damforum.nl t=2822), depth 1-10
PUBLISHED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648, 18363523]
QUICK = 7
SLOW = 10


def thai_with(**rules: object) -> Variant:
    v = find_variant("thai")
    return replace(v, rules=replace(v.rules, **rules))


def paths(variant: str | Variant, fen: str) -> set[str]:
    """The legal moves with every landing square written."""
    game = Game.from_fen(variant, fen)
    return {game.move_text(m, full=True) for m in game.legal_moves()}


def test_the_variant_file_follows_the_switch_matrix() -> None:
    v = find_variant("thai")
    r = v.rules
    assert v.gametype == "31,W,8,8,N2,0" and v.gametype_primary
    assert v.start == "W:W25-32:B1-8" and v.capture_mark == "-"
    assert r.king_landing is KingLanding.DIRECTLY_BEHIND
    assert r.removal is Removal.IMMEDIATE and not r.no_180
    assert r.precedence == () and r.promotion_in_capture.value == "stop"
    assert set(r.man_captures) == {"forward-left", "forward-right"} and r.king_captures_fly
    assert (v.draws[0].kind, v.draws[0].count) == ("repetition", 3)
    assert v.draws[1].plies == 40 and not v.draws[1].has_material_condition
    assert find_variant("mak-hos") is v
    assert Game(v).turn == 0  # docs/rules/national.md#thai [DECISION]: White moves first


def test_th1_each_landing_is_directly_behind() -> None:
    # a1 x c3 lands on d4 (not e5 ... h8), then x f6 lands on g7
    assert paths("thai", TH1) == {"29-18-8"}
    # with any landing the king could also stop on h8 after the second capture
    anywhere = paths(thai_with(king_landing=KingLanding.ANY), TH1)
    assert {"29-18-8", "29-18-4"} <= anywhere


def test_th2_a_king_turns_back_over_the_emptied_square() -> None:
    assert paths("thai", "W:WK22:B15,25") == {"22-11-29", "22-29-11"}
    # with end-of-move removal (e5 still blocks) or a 180-degree ban: single captures
    for rules in ({"removal": Removal.END_OF_MOVE}, {"no_180": True}):
        assert paths(thai_with(**rules), "W:WK22:B15,25") == {"22-11", "22-29"}, rules


def test_th2_the_moves_are_written_and_read_with_dashes() -> None:
    game = Game("thai", "W:WK22:B15,25")
    texts = {game.move_text(m) for m in game.legal_moves()}
    assert texts == {"22-29", "22-11"}  # the ends only: no two moves share them
    move = game.parse_move("22-11-29")
    assert move.path == tuple(game.variant.board.parse_square(s) for s in ("22", "11", "29"))
    assert game.parse_move("22x29") == move  # "x" is read too


def test_th3_start_position_moves() -> None:
    game = Game("thai")
    assert game.fen().startswith("W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8")
    assert {game.move_text(m) for m in game.legal_moves()} == {
        "25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"
    }  # fmt: skip
    assert game.perft(1) == 7


@pytest.mark.parametrize("depth", range(1, QUICK + 1))
def test_th4_perft_from_the_twelve_man_start(depth: int) -> None:
    assert Game("thai", TWELVE_MEN).perft(depth) == PUBLISHED[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("depth", range(QUICK + 1, SLOW + 1))
def test_th4_perft_from_the_twelve_man_start_deep(depth: int) -> None:
    assert Game("thai", TWELVE_MEN).perft(depth) == PUBLISHED[depth - 1]


def test_perft_vectors_file_thai() -> None:
    """The drop-duplicates "thai" records of ../shared/vectors/perft.json, from the 12-man
    start they were computed from (docs/rules/national.md#thai-counts), never from the Thai
    start."""
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    game = Game("thai", TWELVE_MEN)
    checked = 0
    for record in records:
        if record["variant"] != "thai" or not record["counting_convention"].startswith("drop"):
            continue
        squares = record["fen"].split()[0]  # "W:W21,…,32:B1,…,12 (the 12-man start…)"
        assert game_state(Game("thai", squares)) == game_state(game)
        for depth_text, count in record["depth_counts"].items():
            depth = int(depth_text)
            if depth <= len(PUBLISHED):
                assert PUBLISHED[depth - 1] == count
            if depth <= QUICK:
                assert game.perft(depth) == count, (record["source"], depth)
                checked += 1
    assert checked == QUICK


def test_directly_behind_composes_with_another_host(tmp_path: Path) -> None:
    path = tmp_path / "thai-russian.toml"
    path.write_text(
        'id = "thai-russian"\nname = "Thai landing on Russian"\nhost = "russian"\n'
        '[rules]\nking_landing = "directly-behind"\n',
        encoding="utf-8",
    )
    game = Game(load_variant_file(path), "W:WKa1:Bc3")
    assert sorted(game.move_text(m) for m in game.legal_moves()) == ["a1:d4"]
    assert sorted(m.end for m in Game("russian", "W:WKa1:Bc3").legal_moves()) != [
        game.variant.board.parse_square("d4")
    ]


@pytest.mark.parametrize("landing", [KingLanding.DIRECTLY_BEHIND, KingLanding.BEHIND_LAST_KING])
def test_columns_refuse_a_landing_they_cannot_apply(landing: KingLanding) -> None:
    bashni = find_variant("bashni")
    with pytest.raises(ValueError, match="king_landing"):
        bashni.generator_class(bashni.board, replace(bashni.rules, king_landing=landing))


@pytest.mark.parametrize("host", ["bashni", "artamonov", "self-capture"])
def test_a_variant_file_asking_for_it_is_refused_in_one_line(host: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        f'id = "bad"\nname = "Bad"\nhost = "{host}"\n[rules]\nking_landing = "directly-behind"\n',
        encoding="utf-8",
    )
    with pytest.raises(VariantFileError) as err:
        load_variant_file(path)
    text = str(err.value)
    assert "\n" not in text and "[rules]" in text and "directly-behind" in text


@pytest.mark.parametrize(("fen", "to", "ends"), [("W:WK29:B22", "11", "18"), (TH1, "4", "8")])
def test_the_refusal_names_the_landing_rule(fen: str, to: str, ends: str) -> None:
    game = Game("thai", fen)
    geo = game.variant.board
    text = why_not_move(game, geo.parse_square("29"), geo.parse_square(to))
    assert text == (
        "In Thai draughts a king lands on the square just beyond each piece it takes: "
        f"go to {ends}."
    )
    assert why_not_move(game, geo.parse_square("29"), geo.parse_square(ends)) is None
