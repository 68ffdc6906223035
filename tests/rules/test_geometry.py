"""Board geometry through its public face: square names and numbers, playing squares,
the main road and the lines a piece moves along."""

from __future__ import annotations

import pytest

from shashki.rules import Direction, all_variants, find_variant, geometry

EIGHT = find_variant("russian").board
TEN = find_variant("international").board


@pytest.mark.parametrize(
    ("board", "numbers"),
    [
        # docs/rules/conventions.md#numbering: 1 = b8 … 4 = h8, 5 = a7 … 29 = a1 … 32 = g1
        (
            EIGHT,
            {
                1: "b8",
                2: "d8",
                4: "h8",
                5: "a7",
                8: "g7",
                9: "b6",
                21: "a3",
                22: "c3",
                28: "h2",
                29: "a1",
                30: "c1",
                32: "g1",
            },
        ),
        # docs/rules/classic.md#international: 1 = b10, 5 = j10, 6 = a9 … 46 = a1, 50 = i1
        (
            TEN,
            {
                1: "b10",
                5: "j10",
                6: "a9",
                10: "i9",
                11: "b8",
                31: "b4",
                45: "j2",
                46: "a1",
                47: "c1",
                50: "i1",
            },
        ),
    ],
    ids=["8x8", "10x10"],
)
def test_pdn_numbering(board, numbers: dict[int, str]) -> None:
    for number, name in numbers.items():
        assert board.name(board.parse_square(str(number))) == name
        assert board.number(board.parse_square(name)) == number


def test_square_counts() -> None:
    assert EIGHT.square_count == 32
    assert TEN.square_count == 50
    assert geometry(8, 8, True).square_count == 64


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_every_square_round_trips(variant: str) -> None:
    board = find_variant(variant).board
    numbers = sorted(board.number(p) for p in board.squares)
    assert numbers == list(range(1, board.square_count + 1))
    for p in board.squares:
        assert board.parse_square(board.name(p)) == p
        assert board.parse_square(board.name(p).upper()) == p
        assert board.parse_square(str(board.number(p))) == p
        assert board.parse_square(board.name(p), numeric=False) == p
        assert board.parse_square(str(board.number(p)), numeric=True) == p


@pytest.mark.parametrize(
    ("board", "text"),
    [
        (EIGHT, "b1"),  # light squares
        (EIGHT, "a2"),
        (EIGHT, "h1"),
        (EIGHT, "i1"),  # off the board
        (EIGHT, "a9"),
        (EIGHT, "0"),
        (EIGHT, "33"),
        (EIGHT, ""),
        (EIGHT, "c"),
        (EIGHT, "3c"),
        (EIGHT, "c3x"),
        (TEN, "51"),
        (TEN, "k1"),
        (TEN, "a11"),
        (TEN, "a2"),
    ],
)
def test_bad_squares(board, text: str) -> None:
    with pytest.raises(ValueError) as info:
        board.parse_square(text)
    assert repr(text) in str(info.value)


def test_numeric_restriction() -> None:
    with pytest.raises(ValueError):
        EIGHT.parse_square("c3", numeric=True)
    with pytest.raises(ValueError):
        EIGHT.parse_square("22", numeric=False)


def test_dark_squares() -> None:
    # a1 is dark and (file + rank) even is dark on every dark-squares board
    for board in (EIGHT, TEN):
        names = {board.name(p) for p in board.squares}
        for f in range(board.width):
            for r in range(board.height):
                name = f"{'abcdefghij'[f]}{r + 1}"
                assert (name in names) == ((f + r) % 2 == 0), name
    assert len({geometry(8, 8, True).name(p) for p in geometry(8, 8, True).squares}) == 64


def test_main_road() -> None:
    def road(board) -> set[str]:
        return {board.name(p) for p in board.squares if board.main_road >> p & 1}

    assert road(EIGHT) == {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}
    assert road(TEN) == {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"}


def test_rays_and_steps() -> None:
    a1 = EIGHT.parse_square("a1")
    assert [EIGHT.name(p) for p in EIGHT.ray[Direction.NE][a1]] == [
        "b2",
        "c3",
        "d4",
        "e5",
        "f6",
        "g7",
        "h8",
    ]
    assert EIGHT.ray[Direction.SW][a1] == ()
    assert EIGHT.ray[Direction.NW][a1] == ()
    d4 = EIGHT.parse_square("d4")
    assert [EIGHT.name(p) for p in EIGHT.ray[Direction.SE][d4]] == ["e3", "f2", "g1"]
    assert EIGHT.name(EIGHT.step[Direction.NW][d4]) == "c5"
    assert EIGHT.step[Direction.SE][EIGHT.parse_square("h2")] == -1
    j10 = TEN.parse_square("j10")
    assert len(TEN.ray[Direction.SW][j10]) == 9
    # orthogonal lines exist on a board of all squares
    full = geometry(8, 8, True)
    a1 = full.parse_square("a1")
    assert [full.name(p) for p in full.ray[Direction.N][a1]] == [f"a{r}" for r in range(2, 9)]
    assert [full.name(p) for p in full.ray[Direction.E][a1]] == [f"{c}1" for c in "bcdefgh"]


@pytest.mark.parametrize("board", [EIGHT, TEN, geometry(8, 8, True), geometry(12, 12)])
def test_rays_stay_on_their_line(board) -> None:
    from shashki.rules.geometry import DIRECTION_STEPS

    for d in Direction:
        df, dr = DIRECTION_STEPS[d]
        for p in board.squares:
            f, r = board.file_of[p], board.rank_of[p]
            for i, q in enumerate(board.ray[d][p], start=1):
                assert (board.file_of[q], board.rank_of[q]) == (f + i * df, r + i * dr)
            # the ray runs to the edge: one more step would leave the board
            n = len(board.ray[d][p]) + 1
            nf, nr = f + n * df, r + n * dr
            on_board = 0 <= nf < board.width and 0 <= nr < board.height
            playing = board.all_squares or (nf + nr) % 2 == 0
            assert not (on_board and playing), (board.name(p), d)


def test_geometry_is_shared() -> None:
    assert geometry(8, 8) is geometry(8, 8)
    assert find_variant("russian").board is find_variant("english").board


def test_board_size_limits() -> None:
    with pytest.raises(ValueError):
        geometry(13, 13)
    with pytest.raises(ValueError):
        geometry(1, 8)
