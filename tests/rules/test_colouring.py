"""Board colouring and numbering (docs/rules/conventions.md#colouring, #gametype): a mirrored board
(a1 light) is a real geometry — the mirror image of the normal one, move for move — and the PDN
numbers of the squares follow the variant's GameType."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from shashki.rules import Game, VariantFileError, all_variants, load_variant_file
from shashki.rules.geometry import geometry
from shashki.rules.variant_file import gametype_numbering

MIRRORED_RUSSIAN = """
id = "mirrored-russian"
name = "Russian draughts on a mirrored board"
host = "russian"
[pdn]
gametype = "{gametype}"
[board]
colouring = "mirrored"
start = "W:W21-32:B1-12"
"""


def names(geo_args: tuple[int, int, bool, str, int], numbers: tuple[int, ...]) -> list[str]:
    w, h, mirrored, side, corner = geo_args
    geo = geometry(w, h, False, mirrored, (side, corner))
    return [geo.name(geo.by_number[n]) for n in numbers]


@pytest.mark.parametrize(
    ("gametype", "board", "numbers", "expected"),
    [
        # the results of docs/rules/conventions.md#gametype, White's view, a1 bottom-left
        ("20,W,10,10,N2,0", (10, 10), (1, 46, 50), ["b10", "a1", "i1"]),
        ("21,B,8,8,N1,0", (8, 8), (1, 29, 32), ["b8", "a1", "g1"]),
        ("23,B,8,8,N1,0", (8, 8), (1, 29, 32), ["b8", "a1", "g1"]),
        ("22,W,8,8,N2,1", (8, 8), (1, 4, 5, 29, 32), ["a8", "g8", "b7", "b1", "h1"]),
        (
            "24,W,8,8,N1,1",
            (8, 8),
            (1, 2, 4, 5, 8, 29, 32),
            ["h1", "f1", "b1", "g2", "a2", "g8", "a8"],
        ),
        ("27,W,12,12,N2,0", (12, 12), (1, 67, 72), ["b12", "a1", "k1"]),
        ("27,W,12,12,N2,1", (12, 12), (1, 72), ["a12", "l1"]),
        ("31,W,8,8,N2,0", (8, 8), (1,), ["b8"]),
        ("31,B,8,8,N2,0", (8, 8), (1, 4, 32), ["g1", "a1", "b8"]),
    ],
)
def test_the_numbering_follows_the_gametype(
    gametype: str, board: tuple[int, int], numbers: tuple[int, ...], expected: list[str]
) -> None:
    (side, corner), invert = gametype_numbering(gametype)
    assert names((*board, bool(invert), side, corner), numbers) == expected


def test_the_normal_boards_keep_their_numbering() -> None:
    # every GameType of a normal board numbers from White's top-left, as before
    # docs/rules/conventions.md#gametype
    normal = [v for v in all_variants() if not v.board.mirrored]
    assert len(normal) >= 18
    for variant in normal:
        geo = variant.board
        plain = geometry(geo.width, geo.height, geo.all_squares, wide=geo.wide)
        assert geo.by_number == plain.by_number, variant.id


def test_a_mirrored_board_has_a1_light_and_both_near_right_corners_dark() -> None:
    geo = geometry(8, 8, mirrored=True)
    assert not geo.playable(0, 0) and geo.playable(1, 0) and geo.playable(7, 0)
    assert geo.square_count == 32
    with pytest.raises(ValueError, match="not a playing square"):
        geo.parse_square("a1")
    assert geo.name(geo.parse_square("h1")) == "h1"
    # the long diagonal h1-a8 is its main road
    road = {geo.name(p) for p in geo.positions(geo.main_road)}
    assert road == {"h1", "g2", "f3", "e4", "d5", "c6", "b7", "a8"}


def reflect(game: Game, fen_game: Game) -> str:
    """``game``'s position with every piece moved to the mirror file, as a FEN of
    ``fen_game``'s variant (the same rules on the other colouring)."""
    src, dst = game.variant.board, fen_game.variant.board
    parts = {0: [], 1: []}  # type: dict[int, list[str]]
    for square, piece in game.pieces().items():
        f, r = src.file_of[square], src.rank_of[square]
        target = dst.at(src.width - 1 - f, r)
        king = "K" if piece.kind.name == "KING" else ""
        parts[int(piece.color)].append(king + dst.name(target))
    turn = "W" if int(game.turn) == 0 else "B"
    return f"{turn}:W{','.join(parts[0])}:B{','.join(parts[1])}"


def test_a_mirrored_board_plays_the_mirror_image_of_the_normal_one(tmp_path: Path) -> None:
    path = tmp_path / "mirrored.toml"
    path.write_text(MIRRORED_RUSSIAN.format(gametype=""), encoding="utf-8")
    variant = load_variant_file(path)
    assert Game(variant).perft(4) == Game("russian").perft(4)
    rng = random.Random(5)
    for _ in range(30):  # random positions of Russian games, reflected move for move
        game = Game("russian")
        for _ply in range(rng.randrange(60)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        mirror = Game(variant, reflect(game, Game(variant)))
        assert len(mirror.legal_moves()) == len(game.legal_moves()), game.fen()
        assert mirror.perft(2) == game.perft(2), game.fen()


def test_a_gametype_that_says_another_colouring_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mirrored.toml"
    path.write_text(MIRRORED_RUSSIAN.format(gametype="25,W,8,8,A0,0"), encoding="utf-8")
    with pytest.raises(VariantFileError, match="invert flag"):
        load_variant_file(path)
    path.write_text(MIRRORED_RUSSIAN.format(gametype="25,W,8,8,A0,1"), encoding="utf-8")
    assert load_variant_file(path).board.mirrored
