"""Pool, Czech, Canadian and Malaysian draughts (docs/rules/national.md#pool, #czech, #canadian,
#malaysian): the hand-checked positions of docs/rules/national.md, one test each, and the published
start-position perft counts of ../shared/vectors/perft.json (drop-duplicates convention, PERFT.md).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from shashki.rules import Game, Variant, find_variant
from shashki.rules.switches import KingLanding

from ..conftest import shared_path

# perft.json record name -> our variant id (drop-duplicates records only)
RECORDS = {
    "pool (American pool checkers)": "pool",
    "czech": "czech",
    "canadian (12x12)": "canadian",
}
# Deepest depth in the quick suite / under the `slow` marker.
QUICK = {"pool": 6, "czech": 6, "canadian": 5}
# (the deepest, pool d10 and Czech d11, take 14 and 37 s of CPU, 33 and 94 s of a loaded
# 2-core machine's time: 2026-12-03)
SLOW = {"pool": 10, "czech": 11, "canadian": 7}


def _published() -> dict[str, dict[int, int]]:
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    out: dict[str, dict[int, int]] = {}
    for record in records:
        variant = RECORDS.get(record["variant"])
        if variant and record["counting_convention"].startswith("drop"):
            out[variant] = {int(d): n for d, n in record["depth_counts"].items()}
    return out


def _cases(deep: bool) -> list[object]:
    cases = []
    for variant in RECORDS.values():
        first = QUICK[variant] + 1 if deep else 1
        last = SLOW[variant] if deep else QUICK[variant]
        for depth in range(first, last + 1):
            cases.append(pytest.param(variant, depth, id=f"{variant}-{depth}"))
    return cases


@pytest.mark.parametrize(("variant", "depth"), _cases(False))
def test_perft_start(variant: str, depth: int) -> None:
    """PL3, CZ4, CA1: the published counts from the start position."""
    assert Game(variant).perft(depth) == _published()[variant][depth]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "depth"), _cases(True))
def test_perft_start_deep(variant: str, depth: int) -> None:
    assert Game(variant).perft(depth) == _published()[variant][depth]


def test_published_records_are_there() -> None:
    assert set(_published()) == set(RECORDS.values())


def test_malaysian_start_moves_as_canadian() -> None:
    # no published count: from the start no capture is possible before ply 3, and up to
    # ply 4 no man can be taken backward or a king exist, so the counts are Canadian's
    game = Game("malaysian")
    assert [game.perft(d) for d in (1, 2, 3)] == [11, 121, 1222]


def legal(variant: str | Variant, fen: str) -> set[object]:
    game = Game.from_fen(variant, fen)
    return set(game.legal_moves())


def moves(variant: str | Variant, fen: str, texts: list[str]) -> set[object]:
    game = Game.from_fen(variant, fen)
    return {game.parse_move(t) for t in texts}


@pytest.mark.parametrize(
    ("test_id", "variant", "fen", "expected"),
    [
        # PL1: the man touches d8, must jump e7 backward and ends on f6 uncrowned
        ("PL1", "pool", "W:W9:B6,7", ["9x2x11"]),
        # PL2: free choice, the 1-piece capture is legal
        ("PL2", "pool", "W:W23:B11,18,19", ["23x14", "23x16x7"]),
        # CZ1: a king capture exists, so the man's 2-piece capture is illegal
        ("CZ1", "czech", "W:W15,21,K4:B8,9,17", ["h8xf6"]),
        # CZ2: no majority among king captures
        ("CZ2", "czech", "W:WK30:B16,23,25", ["c1xa3", "c1xf4xh6"]),
        # CZ3: the man is crowned when the move ends
        ("CZ3", "czech", "W:W9:B6", ["b6xd8"]),
        # CA2: majority: e3xg5xe7 (2), not e3xc5 (1); 57=e3, 46=g5, 33=e7, 44=c5
        ("CA2", "canadian", "W:W57:B39,50,51", ["57x46x33"]),
        # ML1: the king must capture (as many as the man's forward capture)
        ("ML1", "malaysian", "W:W45,K72:B39,50", ["72x33", "72x26", "72x20", "72x13", "72x7"]),
    ],
)
def test_hand_checked(test_id: str, variant: str, fen: str, expected: list[str]) -> None:
    assert legal(variant, fen) == moves(variant, fen, expected), test_id


def landing_anywhere(variant: str) -> Variant:
    """``variant`` with the first edition's landing rule: any empty square beyond."""
    v = find_variant(variant)
    return replace(v, rules=replace(v.rules, king_landing=KingLanding.ANY))


# docs/rules/national.md#pool-czech-landing: a flying king that can land where its capture goes on
# must land there. Minimal position (pool numbering; the Czech FEN uses the same numbers): the king
# on a1 takes c3 and must stop on e5, from where it takes f4 (landing on g3 or h2).
LANDING = "W:WK29:B22,19"
LANDING_ANYWHERE = ["29x18", "29x11", "29x8", "29x4"]  # d4, f6, g7, h8: wrongly legal


@pytest.mark.parametrize(
    ("variant", "expected"),
    [("pool", ["29x15x24", "29x15x28"]), ("czech", ["a1xe5xg3", "a1xe5xh2"])],
    ids=["pool", "czech"],
)
def test_king_lands_where_its_capture_goes_on(variant: str, expected: list[str]) -> None:
    assert legal(variant, LANDING) == moves(variant, LANDING, expected)
    old = landing_anywhere(variant)
    assert legal(old, LANDING) == moves(old, LANDING, expected + LANDING_ANYWHERE)


# The depth-8 positions where the two landing rules part from the start position (a divide
# of depth 9 against the published counts: pool 4,570,534 and Czech 3,963,671, each two
# fewer than under "any").  In each, one king capture stops where it could have gone on.
@pytest.mark.parametrize(
    ("variant", "line", "fen", "expected", "stops_short"),
    [
        pytest.param(
            "pool",
            "10-15 22-18 15x22 26x17 9-13 31-26 13x22x31 24-19",
            "B:W19,21,23,25,27,28,29,30,32:B1,2,3,4,5,6,7,8,11,12,K31",
            ["31x24x10", "31x24x15"],  # e1xf2, must land on g3 and take f4
            "31x20",
            id="pool-10-15",
        ),
        pytest.param(
            "pool",
            "11-15 22-18 15x22 26x17 9-13 31-26 13x22x31 24-19",
            "B:W19,21,23,25,27,28,29,30,32:B1,2,3,4,5,6,7,8,10,12,K31",
            ["31x24x15"],
            "31x20",
            id="pool-11-15",
        ),
        pytest.param(
            "czech",
            "e3-d4 f6-e5 d4xf6 e7xg5 g3-h4 d8-e7 h4xf6xd8 b6-c5",
            "W:WKd8,a3,c3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,f8,h8,a7,c7,g7,d6,h6,c5",
            ["d8xb6xd4", "d8xb6xe3"],  # d8xc7, must land on b6 and take c5
            "d8xa5",
            id="czech-e3-d4",
        ),
        pytest.param(
            "czech",
            "c3-d4 f6-e5 d4xf6 e7xg5 g3-h4 d8-e7 h4xf6xd8 b6-c5",
            "W:WKd8,a3,e3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,f8,h8,a7,c7,g7,d6,h6,c5",
            ["d8xb6xd4"],
            "d8xa5",
            id="czech-c3-d4",
        ),
    ],
)
def test_depth_8_positions_where_the_landing_rules_part(
    variant: str, line: str, fen: str, expected: list[str], stops_short: str
) -> None:
    game = Game(variant)
    for text in line.split():
        game.push_text(text)
    assert game.fen().split(":H")[0] == fen
    assert set(game.legal_moves()) == moves(variant, fen, expected)
    old = landing_anywhere(variant)
    assert legal(old, fen) == moves(old, fen, [*expected, stops_short])


def test_pl1_ends_uncrowned() -> None:
    game = Game.from_fen("pool", "W:W9:B6,7")
    game.push(game.parse_move("9x2x11"))
    piece = game.piece_at(find_variant("pool").board.parse_square("f6"))
    assert piece is not None and not piece.is_king


def test_pl2_illegal_under_majority() -> None:
    # the same switches with the majority rule (Brazilian) leave only 23x16x7
    fen = "W:W23:B11,18,19"
    assert legal("brazilian", fen) == moves("brazilian", fen, ["e3xg5xe7"])


def test_cz1_under_free_choice_both() -> None:
    czech = find_variant("czech")
    free = replace(czech, rules=replace(czech.rules, capture_precedence=()))
    fen = "W:W15,21,K4:B8,9,17"
    assert legal(free, fen) == moves(free, fen, ["h8xf6", "a3xc5xa7"])


def test_cz3_crowned() -> None:
    game = Game.from_fen("czech", "W:W9:B6")
    game.push(game.parse_move("b6xd8"))
    piece = game.piece_at(find_variant("czech").board.parse_square("d8"))
    assert piece is not None and piece.is_king


def test_czech_reads_both_capture_signs() -> None:
    game = Game.from_fen("czech", "W:WK30:B16,23,25")
    assert game.parse_move("c1:a3") == game.parse_move("c1xa3")
    assert game.move_text(game.parse_move("c1:a3")) == "c1xa3"


def test_ml1_canadian_gives_all_seven() -> None:
    # "Canadian rules give all seven moves": men capture backward there, kings no priority
    fen = "W:W45,K72:B39,50"
    expected = ["72x33", "72x26", "72x20", "72x13", "72x7", "45x34", "45x56"]
    assert legal("canadian", fen) == moves("canadian", fen, expected)


def test_twelve_by_twelve_numbering() -> None:
    board = find_variant("canadian").board
    for number, name in ((1, "b12"), (6, "l12"), (7, "a11"), (67, "a1"), (72, "k1")):
        assert board.parse_square(str(number), numeric=True) == board.parse_square(name)
