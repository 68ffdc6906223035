"""The engine finds the winning shot in hand-made positions of several variants: forced
multi-capture combinations, a promotion race, the Wolf and Sheep wall."""

from __future__ import annotations

import pytest

from shashki.engine import ComputerPlayer, Search, goal_table
from shashki.engine.search import WON, Options
from shashki.rules import Game, Move
from shashki.rules.game import game_state
from shashki.rules.notation import move_text, parse_move

# (variant, FEN, the winning move, why)
SHOTS = [
    (
        "russian",
        "W:Wa3,c3,d2,e1,h2:Ba5,c5,e7,h6,g7",
        "c3-b4",
        "give one man: a5:c3 is forced, then d2:b4:d6:f8 takes three and crowns",
    ),
    (
        "brazilian",
        "W:Wa3,c3,d2,e1,h2:Ba5,c5,e7,h6,g7",
        "c3-b4",
        "the same shot under the majority rule",
    ),
    (
        "international",
        "W:Wa3,c3,d2,e1,h2,i1:Ba5,c5,e7,h6,g7,j8",
        "c3-b4",
        "the shot on the big board: three for one, then one back",
    ),
    (
        "turkish",
        "W:Wa2,h2,b4,c3,c4,d4:Ba7,h7,c5,c6,d6,e5,f6",
        "d4-d5",
        "d6:d4 is forced, then c4:e4:e6:g6 takes three (orthogonal jumps, pieces leave at once)",
    ),
    (
        "russian",
        "W:Wg7,d2:Bd4,a3",
        "g7-h8",
        "the promotion race: crowned on the main road the king stops the black man; g7-f8 draws",
    ),
]


def _text(game: Game, move) -> str:  # type: ignore[no-untyped-def]
    return move_text(game.variant, move, game.legal_moves())


def _move(game: Game, text: str) -> Move:
    """The legal move written ``text`` (algebraic squares are read on every board)."""
    return parse_move(game.variant, text, game.legal_moves(), game_state(game))


@pytest.mark.parametrize(
    ("variant", "fen", "best", "why"), SHOTS, ids=[f"{s[0]}-{s[2]}" for s in SHOTS]
)
def test_the_search_finds_the_shot(variant: str, fen: str, best: str, why: str) -> None:
    game = Game(variant, fen)
    result = Search(variant).search(game, depth=6, seconds=20)
    assert result.move == _move(game, best), why
    # and it sees that it wins: a decisive score
    assert result.score >= 100 or result.score >= WON


@pytest.mark.parametrize(
    ("variant", "fen", "best", "why"), [SHOTS[0], SHOTS[3]], ids=["russian", "turkish"]
)
def test_a_middle_level_finds_the_shot_in_a_second(
    variant: str, fen: str, best: str, why: str
) -> None:
    game = Game(variant, fen)
    move = ComputerPlayer(5, seconds=1.0, seed=0).think(game)
    assert move == _move(game, best), why


#: The sheep to move must close the wall: h8-g7 is the only move that keeps their win.
WALL = "B:WKd4:Bh8,b6,d6,f6"


def test_the_sheep_close_the_wall() -> None:
    game = Game("wolf-sheep", WALL)
    table = goal_table(game.variant)
    assert [_text(game, m) for m in table.winning_moves(game)] == ["h8-g7"]
    for level in (6, 8):
        move = ComputerPlayer(level, seconds=0.5).think(game)
        assert _text(game, move) == "h8-g7"


def test_the_wolf_takes_the_gap_the_sheep_leave() -> None:
    # the sheep played d6-c5 instead of closing the wall: now the wolf wins
    game = Game("wolf-sheep", WALL)
    game.push(next(m for m in game.legal_moves() if _text(game, m) == "d6-c5"))
    table = goal_table(game.variant)
    winning = table.winning_moves(game)
    assert winning
    move = ComputerPlayer(8, seconds=0.5).think(game)
    assert move in winning


#: The switches of Scan 2.0's search shape and quiescence (``benchmarks/selfplay.py``
#: measures them against the defaults; benchmarks/RESULTS.md).
SCAN_SHAPES = {
    "scan-reductions": Options(lmr_scan=True),
    "probcut-not-nested": Options(probcut_nested=False),
    "whole-shape": Options(lmr_scan=True, probcut_nested=False, probcut_margin=5),
    "quiescence": Options(exchanges=True),
}


@pytest.mark.parametrize("shape", SCAN_SHAPES)
@pytest.mark.parametrize(
    ("variant", "fen", "best", "why"), SHOTS[:4], ids=[f"{s[0]}-{s[2]}" for s in SHOTS[:4]]
)
def test_scans_search_shapes_find_the_shot_too(
    shape: str, variant: str, fen: str, best: str, why: str
) -> None:
    game = Game(variant, fen)
    result = Search(variant, options=SCAN_SHAPES[shape]).search(game, depth=6, seconds=20)
    assert result.move == _move(game, best), why
    assert result.score >= 100 or result.score >= WON


def test_scans_search_shapes_search_other_trees() -> None:
    """Each switch changes what the search visits (from the start of Russian draughts, to
    depth 9: below the root, ProbCut's own search is 3 plies deep, deep enough for a
    ProbCut of its own): none is left unread."""
    game = Game("russian")

    def nodes(options: Options | None) -> int:
        return Search("russian", options=options, endings=False).search(game, depth=9).nodes

    default = nodes(None)
    counts = {shape: nodes(options) for shape, options in SCAN_SHAPES.items()}
    assert all(n != default for n in counts.values()), (default, counts)
    assert len(set(counts.values())) == len(counts), counts
