"""Bashni, column draughts (docs/rules/family.md#bashni).

Columns are written bottom to top with ``w b W B`` (white man, black man, white king,
black king), as in the position text. Besides the hand-checked positions, a small
independent generator written from the text of docs/rules/family.md#bashni (columns as strings in a
dict, no bitboards) is compared with the engine on seeded random positions.
"""

from __future__ import annotations

import random

import pytest

from shashki.rules import BadFenError, Color, Game, Kind, Piece, Termination
from shashki.rules.game import game_state
from shashki.rules.notation import move_text

from ..conftest import move_set, mv, paths

FILES = "abcdefgh"
PERFT = [7, 49, 302, 1469, 7482, 37908]  # from the start; the reference below agrees


def column(game: Game, name: str) -> str:
    """The column on ``name`` bottom to top ("" if empty)."""
    gen = game.variant.generator
    return gen.stack(game_state(game), game.variant.board.parse_square(name))  # type: ignore[attr-defined,no-any-return]


def columns(game: Game) -> dict[str, str]:
    geo = game.variant.board
    out = {}
    for p in geo.squares:
        st = column(game, geo.name(p))
        if st:
            out[geo.name(p)] = st
    return out


def after(fen: str, path: str) -> Game:
    """The game after the legal move whose landing squares are ``path``."""
    game = Game("bashni", fen)
    for move in game.legal_moves():
        if "-".join(game.variant.board.name(p) for p in move.path) == path:
            game.push(move)
            return game
    raise AssertionError(f"{path} is not legal in {fen}: {sorted(paths(game))}")


def results(fen: str) -> dict[str, dict[str, str]]:
    """Each legal move's path and the columns it leaves."""
    game = Game("bashni", fen)
    out = {}
    for move in game.legal_moves():
        g = game.copy()
        g.push(move)
        out["-".join(game.variant.board.name(p) for p in move.path)] = columns(g)
    return out


def at(game: Game, name: str) -> Piece | None:
    return game.piece_at(game.variant.board.parse_square(name))


# -- docs/rules/switches.md#positions T6 -----------------------------------------------------------


def test_t6a_capture_puts_the_prisoner_under_the_capturer() -> None:
    assert move_set(Game("bashni", "W:Wc3:Bd4")) == {(("c3", "e5"), frozenset({"d4"}))}
    game = after("W:Wc3:Bd4", "c3-e5")
    assert columns(game) == {"e5": "bw"}  # d4 is empty
    assert at(game, "e5") == Piece(Color.WHITE, Kind.MAN)
    assert game.fen() == "B:We5=bw:B"


def test_t6b_liberation() -> None:
    fen = "B:We5=bw:Bf6"
    assert move_set(Game("bashni", fen)) == {(("f6", "d4"), frozenset({"e5"}))}
    game = after(fen, "f6-d4")
    # Black took only the white top piece and put it under its own man; the black man
    # left on e5 is free again and belongs to Black
    assert columns(game) == {"d4": "wb", "e5": "b"}
    assert at(game, "e5") == Piece(Color.BLACK, Kind.MAN)
    assert game.fen() == "W:W:Be5,d4=wb:H0:F2"


def test_a_freed_column_moves_for_its_new_owner() -> None:
    game = after("B:Wa1,e5=bw:Bf6", "f6-d4")
    game.push(mv("bashni", "a1", "b2"))
    # e5 is Black's again: it steps towards rank 1 (d4 is Black's own column)
    assert paths(game) == {"e5-f4", "d4-c3", "d4-e3"}
    game.push(mv("bashni", "d4", "c3"))
    assert columns(game) == {"b2": "w", "c3": "wb", "e5": "b"}
    # White must take the top of c3 from b2 (and then e5); that frees White's man on c3
    assert paths(game) == {"b2-d4-f6"}
    game.push(game.legal_moves()[0])
    assert columns(game) == {"c3": "w", "f6": "bbw"}
    assert at(game, "c3") == Piece(Color.WHITE, Kind.MAN)


def test_only_the_top_piece_of_a_column_leaves_a_jumped_square() -> None:
    game = after("W:Wa1:Bb2=wbb", "a1-c3")
    assert columns(game) == {"b2": "wb", "c3": "bw"}


# -- captured kings, promotion -------------------------------------------------------


def test_a_captured_king_stays_a_king_inside_the_column() -> None:
    game = after("W:Wc3,a1:BKd4,f8", "c3-e5")
    assert columns(game) == {"a1": "w", "e5": "Bw", "f8": "b"}
    assert at(game, "e5") == Piece(Color.WHITE, Kind.MAN)  # a man commands it


def test_a_freed_king_commands_as_a_king_again() -> None:
    game = after("B:Wa1,e5=Bw:Bf6", "f6-d4")
    assert columns(game) == {"a1": "w", "d4": "wb", "e5": "B"}
    assert at(game, "e5") == Piece(Color.BLACK, Kind.KING)
    game.push(mv("bashni", "a1", "b2"))
    moves = paths(game)
    # it flies, backward (towards rank 8) as well as forward
    assert {
        "e5-f6",
        "e5-g7",
        "e5-h8",
        "e5-d6",
        "e5-c7",
        "e5-b8",
        "e5-f4",
        "e5-g3",
        "e5-h2",
    } <= moves


def test_only_the_top_piece_is_crowned() -> None:
    game = Game("bashni", "W:Wc7=bbw:Bh2")
    assert paths(game) == {"c7-b8", "c7-d8"}
    game.push(mv("bashni", "c7", "d8"))
    assert columns(game) == {"d8": "bbW", "h2": "b"}


def test_crowned_during_a_capture_the_top_goes_on_as_a_king() -> None:
    # T1 of docs/rules/switches.md#positions with a column: b6xd8 crowns the white top piece, which
    # flies on over e7; the black king inside stays a black king, the prisoners are men
    fen = "W:Wb6=Bw:Bc7,e7,a1"
    assert paths(Game("bashni", fen)) == {"b6-d8-f6", "b6-d8-g5", "b6-d8-h4"}
    assert results(fen)["b6-d8-g5"] == {"a1": "b", "g5": "bbBW"}


def test_a_king_must_land_where_its_capture_goes_on() -> None:
    # T2 of docs/rules/switches.md#positions on the Russian host
    assert results("W:WKa1:Bc3,e3") == {
        "a1-d4-f2": {"f2": "bbW"},
        "a1-d4-g1": {"g1": "bbW"},
    }


# -- jumping a column again (docs/rules/family.md#bashni: not_consecutive) -------------------------

RING = "W:Wc1:Bd2=bb,d4,b4,b2"


def test_a_column_may_be_jumped_again_later_in_the_move() -> None:
    # round the ring d2 d4 b4 b2 and over d2 a second time: d2 was not the last column
    # jumped before it, so the second jump is allowed (5 prisoners). The other way round
    # the ring ends on c1: the next jump would go straight back over d2.
    assert results(RING) == {
        "c1-e3-c5-a3-c1-e3": {"e3": "bbbbbw"},
        "c1-a3-c5-e3-c1": {"c1": "bbbbw", "d2": "b"},
    }


def test_a_column_may_not_be_jumped_straight_back() -> None:
    assert results("W:Wa1:Bb2=bb") == {"a1-c3": {"b2": "b", "c3": "bw"}}
    # the same for a flying king: it may not turn round over the column it just took from
    assert results("W:WKa1:Bc3=bb") == {
        "a1-d4": {"c3": "b", "d4": "bW"},
        "a1-e5": {"c3": "b", "e5": "bW"},
        "a1-f6": {"c3": "b", "f6": "bW"},
        "a1-g7": {"c3": "b", "g7": "bW"},
        "a1-h8": {"c3": "b", "h8": "bW"},
    }


# -- move identity (docs/rules/conventions.md#move-identity) ---------------------------------------


def test_capture_order_that_changes_the_column_makes_different_moves() -> None:
    # the king takes e5 (a man), b2 and g7 (kings) and ends on h8 either way round; the
    # prisoners lie in a different order, so the two are different moves
    fen = "W:WKc3:Be5,Kb2,Kg7"
    assert results(fen) == {
        "c3-f6-a1-h8": {"h8": "BBbW"},
        "c3-a1-f6-h8": {"h8": "BbBW"},
        "c3-f6-h8-a1": {"a1": "BBbW"},
    }
    game = Game("bashni", fen)
    to_h8 = [m for m in game.legal_moves() if m.end == game.variant.board.parse_square("h8")]
    assert len(to_h8) == 2 and set(to_h8[0].captured) == set(to_h8[1].captured)


def test_capture_order_that_leaves_the_same_position_is_one_move() -> None:
    # the same with three men: both orders give "bbbW" on h8, so they are one move
    fen = "W:WKc3:Be5,b2,g7"
    game = Game("bashni", fen)
    ends = sorted(game.variant.board.name(m.end) for m in game.legal_moves())
    assert ends == ["a1", "h8"]
    assert all(cols == {m.split("-")[-1]: "bbbW"} for m, cols in results(fen).items())


def test_move_text_tells_the_two_orders_apart() -> None:
    game = Game("bashni", "W:WKc3:Be5,Kb2,Kg7")
    legal = game.legal_moves()
    texts = {move_text(game.variant, m, legal) for m in legal}
    assert texts == {"c3:a1", "c3:f6:a1:h8", "c3:a1:f6:h8"}


# -- end of the game ------------------------------------------------------------------------


def test_no_column_to_command_loses() -> None:
    # every black piece is a prisoner under White's man
    game = Game("bashni", "B:We5=bbw:B")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is Color.WHITE


def test_30_plies_without_capture_or_promotion() -> None:
    # man moves do not reset this count (unlike the Russian king-moves rule)
    game = Game("bashni", "W:WKa1,c1:BKh6,f8:H29:F40")
    assert game.outcome() is None
    game.push(mv("bashni", "c1", "d2"))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
    assert (
        outcome.is_draw
        and outcome.rule == "15 moves by each player without a capture or a promotion"
    )


def test_30_plies_near_miss_and_promotion_reset() -> None:
    game = Game("bashni", "W:WKa1,c1:BKh6,f8:H28:F40")
    game.push(mv("bashni", "c1", "d2"))
    assert game.outcome() is None
    game = Game("bashni", "W:WKa1,e7:BKh6:H29:F40")
    game.push(mv("bashni", "e7", "d8"))  # crowned: the balance of forces changed
    assert game.material_plies == 0
    assert game.outcome() is None


def test_bashni_threefold_repetition_and_no_material_draw() -> None:
    game = Game("bashni", "W:WKa1:BKf8")
    shuffle = [("a1", "b2"), ("f8", "e7"), ("b2", "a1"), ("e7", "f8")]
    for i in range(8):
        assert game.outcome() is None, i  # king against king is no draw in Bashni
        game.push(mv("bashni", *shuffle[i % 4]))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION


# -- position text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    ["W:Wa1,c3=BbW,e5=bw:Bd6=wB,h8,f6=WWb", "B:WKg1:Bb8=wwwwB", "W:Wd2=bw:B"],
)
def test_fen_round_trip(fen: str) -> None:
    game = Game("bashni", fen)
    again = Game("bashni", game.fen())
    assert game_state(again) == game_state(game)
    assert columns(again) == columns(game)


@pytest.mark.parametrize(
    "fen",
    ["W:Wd4=wB:Bh8", "W:Wd4=wx:Bh8", "W:WKd4=bw:Bh8", "W:Wd4=:Bh8"],
)
def test_bad_columns_are_refused(fen: str) -> None:
    with pytest.raises(BadFenError):
        Game("bashni", fen)


# -- perft --------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_from_the_start(depth: int) -> None:
    assert Game("bashni").perft(depth) == PERFT[depth - 1]


def test_perft_departs_from_russian_when_columns_matter() -> None:
    # no column can be jumped before the 4th ply, so the first 4 counts are Russian ones;
    # at ply 6 a freed piece has changed the play
    russian = Game("russian")
    assert [russian.perft(d) for d in range(1, 5)] == PERFT[:4]
    assert russian.perft(6) != PERFT[5]


# -- an independent generator ----------------------------------------------------------------

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
Board = dict[tuple[int, int], str]


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def reference_moves(
    board: Board, turn: int
) -> set[tuple[tuple[int, int], tuple[int, int], frozenset]]:
    """(start, end, resulting board) of every legal move, from the text of
    docs/rules/family.md#bashni."""
    enemy, own = ("wW", "bB") if turn else ("bB", "wW")
    far, forward = (0, -1) if turn else (7, 1)
    found: set = set()

    def walk(start, cur, col: str, rest: Board, last) -> bool:
        king = col[-1] in "WB"
        jumps = []
        for df, dr in DIAGONALS:
            f, r = cur[0] + df, cur[1] + dr
            while king and _on(f, r) and (f, r) not in rest:
                f, r = f + df, r + dr
            victim = (f, r)
            if (
                not _on(f, r)
                or victim not in rest
                or victim == last
                or rest[victim][-1] not in enemy
            ):
                continue
            lands = []
            f, r = f + df, r + dr
            while _on(f, r) and (f, r) not in rest:
                lands.append((f, r))
                if not king:
                    break
                f, r = f + df, r + dr
            if lands:
                jumps.append((victim, lands))
        for victim, lands in jumps:
            left = dict(rest)
            taken = left.pop(victim)
            if taken[:-1]:
                left[victim] = taken[:-1]
            grown = taken[-1] + col
            ends = []
            goes_on = False
            for land in lands:
                now = grown
                if now[-1] in "wb" and land[1] == far:
                    now = now[:-1] + now[-1].upper()  # crowned, goes on as a king
                if walk(start, land, now, left, victim):
                    goes_on = True
                else:
                    ends.append((land, now))
            if not goes_on:  # a king must land where the capture goes on, if it can
                for land, now in ends:
                    found.add((start, land, frozenset({**left, land: now}.items())))
        return bool(jumps)

    for start, col in board.items():
        if col[-1] in own:
            rest = dict(board)
            del rest[start]
            walk(start, start, col, rest, None)
    if found:
        return found
    for start, col in board.items():
        if col[-1] not in own:
            continue
        for df, dr in DIAGONALS:
            if col[-1] in "wb" and dr != forward:
                continue
            f, r = start[0] + df, start[1] + dr
            while _on(f, r) and (f, r) not in board:
                now = col[:-1] + col[-1].upper() if r == far else col
                rest = dict(board)
                del rest[start]
                found.add((start, (f, r), frozenset({**rest, (f, r): now}.items())))
                if col[-1] in "wb":
                    break
                f, r = f + df, r + dr
    return found


def engine_moves(game: Game) -> set[tuple[tuple[int, int], tuple[int, int], frozenset]]:
    geo = game.variant.board
    out = set()
    for move in game.legal_moves():
        g = game.copy()
        g.push_unchecked(move)
        board = {
            (geo.file_of[p], geo.rank_of[p]): st
            for p in geo.squares
            if (st := column(g, geo.name(p)))
        }
        key = (
            (geo.file_of[move.start], geo.rank_of[move.start]),
            (geo.file_of[move.end], geo.rank_of[move.end]),
            frozenset(board.items()),
        )
        assert key not in out, f"two moves leave the same position: {move}"
        out.add(key)
    return out


def random_fen(rng: random.Random) -> tuple[Board, int, str]:
    dark = [(f, r) for f in range(8) for r in range(8) if (f + r) % 2 == 0]
    board: Board = {}
    for s in rng.sample(dark, rng.randint(2, 12)):
        col = "".join(rng.choice("wwbbWB") for _ in range(rng.choice((1, 1, 1, 2, 3))))
        if (col[-1] == "w" and s[1] == 7) or (col[-1] == "b" and s[1] == 0):
            col = col[:-1] + col[-1].upper()
        board[s] = col
    turn = rng.randint(0, 1)
    white, black = [], []
    for (f, r), col in board.items():
        name = f"{FILES[f]}{r + 1}"
        item = f"{name}={col}" if len(col) > 1 else ("K" if col in "WB" else "") + name
        (black if col[-1] in "bB" else white).append(item)
    return board, turn, f"{'WB'[turn]}:W{','.join(white)}:B{','.join(black)}"


def test_engine_agrees_with_the_reference_on_random_positions() -> None:
    rng = random.Random(20240611)
    for _ in range(250):
        board, turn, fen = random_fen(rng)
        game = Game("bashni", fen)
        assert engine_moves(game) == reference_moves(board, turn), fen
