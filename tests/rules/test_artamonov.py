"""Artamonov's single-colour draughts (docs/rules/family.md#artamonov).

South (side 0) sits at rank 1 and North (side 1) at rank 8; the 24 pieces belong to
nobody and are written in an ``N`` section. ``Z`` names the frozen square (the piece that
made the last move), ``C`` the pieces captured by South and by North, ``L`` the plies
since four or fewer pieces remained. A small independent generator written from the
text of docs/rules/family.md#artamonov is compared with the engine on seeded random positions.
"""

from __future__ import annotations

import random

import pytest

from shashki.rules import BadFenError, Color, Game, Kind, Piece, Termination
from shashki.rules.game import game_state

from ..conftest import mv, paths

SOUTH, NORTH = Color.WHITE, Color.BLACK
FILES = "abcdefgh"


def gen(game: Game):  # type: ignore[no-untyped-def]
    return game.variant.generator


def frozen(game: Game) -> str | None:
    square = gen(game).frozen(game_state(game))
    return None if square < 0 else game.variant.board.name(square)


def legal(fen: str) -> set[str]:
    return paths(Game("artamonov", fen))


# -- first move by lot -----------------------------------------------------------------


def test_first_mover_is_drawn_by_lot_reproducibly() -> None:
    drawn = {}
    for seed in range(12):
        game = Game("artamonov", seed=seed)
        again = Game("artamonov", seed=seed)
        assert game.start_label == again.start_label
        assert game.start_label in ("South", "North")
        assert game.seed == seed
        assert game.turn is (SOUTH if game.start_label == "South" else NORTH)
        drawn[seed] = game.start_label
    assert set(drawn.values()) == {"South", "North"}  # the lot can fall either way


def test_first_mover_may_be_chosen() -> None:
    assert Game("artamonov", start="North").turn is NORTH
    assert Game("artamonov", start="south").start_label == "South"
    with pytest.raises(ValueError, match="start option"):
        Game("artamonov", start="East")


def test_the_lot_is_a_start_option_of_the_variant() -> None:
    game = Game("artamonov", seed=1)
    variant = game.variant
    assert variant.start_by_lot
    assert [label for label, _ in variant.start_options] == ["South", "North"]
    assert variant.side_names == ("South", "North")


# -- the start: compulsory forward captures over one's own front row -------------------


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("South", {"b2-d4", "d2-b4", "d2-f4", "f2-d4", "f2-h4", "h2-f4"}),
        ("North", {"a7-c5", "c7-a5", "c7-e5", "e7-c5", "e7-g5", "g7-e5"}),
    ],
)
def test_opening_captures(start: str, expected: set[str]) -> None:
    assert paths(Game("artamonov", start=start)) == expected


@pytest.mark.parametrize("start", ["South", "North"])
def test_perft_from_the_start(start: str) -> None:
    # the reference generator at the end of this file gives the same counts (and the
    # board is symmetric, so North first gives South's numbers)
    assert [Game("artamonov", start=start).perft(d) for d in range(1, 7)] == [
        6,
        14,
        47,
        113,
        225,
        481,
    ]


# -- the frozen piece -----------------------------------------------------------------------


def test_the_piece_that_just_moved_may_not_move() -> None:
    game = Game("artamonov", "W:Nc3,h8")
    game.push(mv("artamonov", "c3", "d4"))
    assert frozen(game) == "d4"
    assert paths(game) == {"h8-g7"}  # North may not move d4 (d4-c3, d4-e3)
    game.push(mv("artamonov", "h8", "g7"))
    assert frozen(game) == "g7"
    assert paths(game) == {"d4-c5", "d4-e5"}  # and South may not move g7


def test_the_frozen_piece_may_be_captured() -> None:
    assert legal("B:Nd4,e5:Zd4") == {"e5-c3"}
    game = Game("artamonov", "B:Nd4,e5:Zd4")
    game.push(game.legal_moves()[0])
    assert frozen(game) == "c3"  # now the capturing piece is frozen
    assert gen(game).captured_counts(game_state(game)) == (0, 1)
    # the same position with e5 frozen: d4 moves instead, and nothing is captured
    assert legal("B:Nd4,e5:Ze5") == {"d4-c3", "d4-e3"}


def test_the_first_move_has_no_frozen_piece() -> None:
    assert frozen(Game("artamonov", start="South")) is None


# -- men: forward by the mover's forward ----------------------------------------------------


def test_men_step_forward_for_the_player_who_moves_them() -> None:
    assert legal("W:Nd4") == {"d4-c5", "d4-e5"}
    assert legal("B:Nd4") == {"d4-c3", "d4-e3"}


def test_a_man_captures_only_forward() -> None:
    # South: c3 jumps d4 (forward); d4 may not jump c3 (backward for South)
    assert legal("W:Nd4,c3") == {"c3-e5"}
    # North: the same two pieces the other way round
    assert legal("B:Nd4,c3") == {"d4-b2"}
    # nothing in front: quiet moves only, though a king could jump c3 backward
    assert legal("W:Nd4,c3,e5") == {"d4-f6"}
    assert legal("W:Nc5,b4") == {"b4-d6"}


def test_a_mans_strike_ends_when_only_backward_jumps_remain() -> None:
    # c1xd2 lands on e3; from there only a backward jump (over f2 to g1) is left: the
    # strike ends on e3. A king would go on (c1-e3-g1).
    assert legal("W:Nc1,d2,f2") == {"c1-e3"}
    assert legal("W:NKc1,d2,f2") == {"c1-e3-g1"}
    # a forward jump after the first one is taken (and the backward one still is not)
    assert legal("W:Nc1,d2,f4,f2") == {"c1-e3-g5"}
    # North's forward is towards rank 1: f8xe7 lands on d6, c7 is behind it
    assert legal("B:Nf8,e7,c7") == {"f8-d6"}


def test_majority_rule_counts_every_piece() -> None:
    # the king takes two (e5, g7); the single capture of c3 is not allowed
    assert legal("W:NKd4,c3,e5,g7") == {"d4-f6-h8"}
    assert legal("B:NKd4,c3,e5,g7") == {"d4-f6-h8"}  # kings are shared


# -- promotion on the mover's far row ----------------------------------------------------------


def test_promotion_on_the_movers_far_row() -> None:
    game = Game("artamonov", "W:Nc7,a1")
    game.push(mv("artamonov", "c7", "d8"))
    assert game.piece_at(game.variant.board.parse_square("d8")) == Piece(None, Kind.KING)
    game = Game("artamonov", "B:Nd2,h8")
    game.push(mv("artamonov", "d2", "e1"))
    assert game.piece_at(game.variant.board.parse_square("e1")) == Piece(None, Kind.KING)
    # a man ending a capture on the far row is crowned too
    game = Game("artamonov", "W:Nb6,c7")
    game.push(mv("artamonov", "b6", "d8", captured=("c7",)))
    assert game.piece_at(game.variant.board.parse_square("d8")) == Piece(None, Kind.KING)


def test_a_man_on_the_near_row_is_not_crowned() -> None:
    # North moves a man onto rank 8? impossible; South moving on rank 1 neither: a man
    # that reaches rank 1 by North's move is crowned for North, rank 8 stays a man's row
    game = Game("artamonov", "B:Nc3,h8")
    game.push(mv("artamonov", "c3", "b2"))
    assert game.piece_at(game.variant.board.parse_square("b2")) == Piece(None, Kind.MAN)
    # men standing on rank 8 at the start are ordinary men
    start = Game("artamonov", start="South")
    assert start.piece_at(start.variant.board.parse_square("b8")) == Piece(None, Kind.MAN)


# -- end of the game ---------------------------------------------------------------------------


def test_no_move_loses() -> None:
    # South's only movable piece is the frozen one; h8 cannot go forward for South
    outcome = Game("artamonov", "W:Nh8,c3:Zc3").outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is NORTH and outcome.rule == "South has no legal move"


def test_an_empty_board_loses_for_the_player_to_move() -> None:
    outcome = Game("artamonov", "B:N").outcome()
    assert outcome is not None and outcome.winner is SOUTH


FOUR = "W:NKa1,Kh2,a7,h8:Zh2"
SHUFFLE = [("a1", "b2"), ("h2", "g1"), ("b2", "a1"), ("g1", "h2")]


@pytest.mark.parametrize(("counts", "winner"), [("C3,1", SOUTH), ("C1,3", NORTH), ("C2,2", None)])
def test_tie_break_30_plies_after_four_pieces(counts: str, winner: Color | None) -> None:
    game = Game("artamonov", f"{FOUR}:{counts}:L29")
    assert game.outcome() is None
    game.push(mv("artamonov", "a1", "b2"))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.TIE_BREAK
    assert outcome.winner is winner
    assert "30 plies" in outcome.rule


def test_tie_break_count_starts_when_four_pieces_remain() -> None:
    # five pieces: f6xg7 leaves four, and the count starts at 0
    game = Game("artamonov", "W:NKa1,Kh2,c5,g7,f6:Zh2:C3,1")
    assert "L" not in game.fen().split(":")[-1]
    game.push(mv("artamonov", "f6", "h8", captured=("g7",)))
    assert game.fen().endswith(":Zh8:C4,1:L0")
    game.push(mv("artamonov", "h2", "g1"))
    assert game.fen().endswith(":Zg1:C4,1:L1")


def test_a_position_with_four_pieces_starts_the_count_at_once() -> None:
    game = Game("artamonov", FOUR)
    assert game.fen().endswith(":L0")
    game.push(mv("artamonov", "a1", "b2"))
    assert game.fen().endswith(":L1")


@pytest.mark.parametrize(("fen", "winner"), [(FOUR + ":C3,1:L0", SOUTH), (FOUR + ":C5,5:L0", None)])
def test_threefold_repetition_is_decided_by_the_captured_pieces(
    fen: str, winner: Color | None
) -> None:
    game = Game("artamonov", fen)
    for i in range(8):
        assert game.outcome() is None, (i, game.fen())
        game.push(mv("artamonov", *SHUFFLE[i % 4]))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.TIE_BREAK
    assert outcome.winner is winner
    assert "three times" in outcome.rule


def test_threefold_repetition_with_many_pieces() -> None:
    game = Game("artamonov", "W:NKa1,Kh2,a7,h8,b8,d8:Zh2:C1,2")
    for i in range(8):
        assert game.outcome() is None, i
        game.push(mv("artamonov", *SHUFFLE[i % 4]))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.TIE_BREAK
    assert outcome.winner is NORTH


def test_no_draw_rules_of_the_host() -> None:
    # traditional's king-against-king draw is not Artamonov's: two kings play on
    assert Game("artamonov").variant.draws == ()
    assert Game("artamonov", "W:NKa1,Kh8:L0").outcome() is None


# -- position text -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen", ["W:N1-12,21-32", "B:NKa1,c3,e5,g7:Zc3:C4,7", "W:Nh8,a7,Kb2,Kh2:Zb2:C9,11:L5"]
)
def test_fen_round_trip(fen: str) -> None:
    game = Game("artamonov", fen)
    again = Game("artamonov", game.fen())
    assert game_state(again) == game_state(game)


@pytest.mark.parametrize(
    "fen", ["W:W21-32:B1-12", "W:Nc3:Ze5", "W:Nc3:Cx,1", "W:Nc3:Q1", "W:Nc3=ww"]
)
def test_bad_fen_is_refused(fen: str) -> None:
    with pytest.raises(BadFenError):
        Game("artamonov", fen)


# -- an independent generator --------------------------------------------------------------------

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
Board = dict[tuple[int, int], str]  # "m" or "k"


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def reference_moves(board: Board, turn: int, frozen_at: tuple[int, int] | None) -> set:
    """(start, end, resulting board) of every legal move, from the text of
    docs/rules/family.md#artamonov."""
    forward, far = (-1, 0) if turn else (1, 7)
    captures: dict = {}

    def walk(start, kind, cur, taken: frozenset) -> bool:
        def free(s: tuple[int, int]) -> bool:
            return s not in board or s == start

        any_jump = False
        for df, dr in DIAGONALS:
            if kind == "m" and dr != forward:
                continue  # men jump forward only
            f, r = cur[0] + df, cur[1] + dr
            while kind == "k" and _on(f, r) and free((f, r)):
                f, r = f + df, r + dr
            victim = (f, r)
            if not _on(f, r) or free(victim) or victim in taken:
                continue
            f, r = f + df, r + dr
            while _on(f, r) and free((f, r)):
                any_jump = True
                if not walk(start, kind, (f, r), taken | {victim}):
                    left = {
                        s: k for s, k in board.items() if s not in taken | {victim} and s != start
                    }
                    left[(f, r)] = "k" if kind == "k" or r == far else "m"
                    captures[(start, (f, r), frozenset(left.items()))] = len(taken) + 1
                if kind == "m":
                    break
                f, r = f + df, r + dr
        return any_jump

    for start, kind in board.items():
        if start != frozen_at:
            walk(start, kind, start, frozenset())
    if captures:
        best = max(captures.values())
        return {key for key, n in captures.items() if n == best}
    out = set()
    for start, kind in board.items():
        if start == frozen_at:
            continue
        for df, dr in DIAGONALS:
            if kind == "m" and dr != forward:
                continue
            f, r = start[0] + df, start[1] + dr
            while _on(f, r) and (f, r) not in board:
                left = dict(board)
                del left[start]
                left[(f, r)] = "k" if kind == "k" or r == far else "m"
                out.add((start, (f, r), frozenset(left.items())))
                if kind == "m":
                    break
                f, r = f + df, r + dr
    return out


def engine_moves(game: Game) -> set:
    geo = game.variant.board
    out = set()
    for move in game.legal_moves():
        g = game.copy()
        g.push_unchecked(move)
        assert gen(g).frozen(game_state(g)) == move.end
        board = {}
        for p in geo.squares:
            piece = g.piece_at(p)
            if piece is not None:
                board[(geo.file_of[p], geo.rank_of[p])] = "k" if piece.is_king else "m"
        key = (
            (geo.file_of[move.start], geo.rank_of[move.start]),
            (geo.file_of[move.end], geo.rank_of[move.end]),
            frozenset(board.items()),
        )
        assert key not in out
        out.add(key)
    return out


def test_engine_agrees_with_the_reference_on_random_positions() -> None:
    rng = random.Random(7)
    dark = [(f, r) for f in range(8) for r in range(8) if (f + r) % 2 == 0]
    for _ in range(400):
        board = {s: rng.choice("mmmk") for s in rng.sample(dark, rng.randint(1, 16))}
        turn = rng.randint(0, 1)
        frozen_at = rng.choice([*board, None])
        items = ",".join(
            ("K" if k == "k" else "") + f"{FILES[f]}{r + 1}" for (f, r), k in board.items()
        )
        fen = f"{'WB'[turn]}:N{items}"
        if frozen_at is not None:
            fen += f":Z{FILES[frozen_at[0]]}{frozen_at[1] + 1}"
        assert engine_moves(Game("artamonov", fen)) == reference_moves(board, turn, frozen_at), fen
