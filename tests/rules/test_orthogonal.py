"""The orthogonal games on all 64 squares: Turkish draughts (Dama), the document's Tama
and real Armenian Tama (docs/rules/orthogonal.md#tama, #tama-armenian, #turkish).

Moves are compared as full paths of landing squares ("a3-e3-e6-b6-b1"), with the
captured squares where they matter. Where a rule is a switch of the variant file, a copy
of the file with the switch flipped shows that the switch, not something else, makes
the difference.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from shashki.rules import (
    Color,
    Game,
    Kind,
    Piece,
    Termination,
    Variant,
    find_variant,
    load_variant_file,
)
from shashki.rules.notation import move_text

from ..conftest import move_set, mv, paths, shared_path, sq

WHITE_MAN = Piece(Color.WHITE, Kind.MAN)
WHITE_KING = Piece(Color.WHITE, Kind.KING)


def legal(variant: str | Variant, fen: str) -> set[str]:
    return paths(Game(variant, fen))


def play(variant: str | Variant, fen: str, path: str) -> Game:
    """The game after the legal move whose landing squares are ``path``."""
    game = Game(variant, fen)
    for move in game.legal_moves():
        if "-".join(game.variant.board.name(p) for p in move.path) == path:
            game.push(move)
            return game
    raise AssertionError(f"{path} is not legal in {fen}: {sorted(paths(game))}")


def at(game: Game, name: str) -> Piece | None:
    return game.piece_at(game.variant.board.parse_square(name))


def switched(tmp_path: Path, host: str, **rules: str) -> Variant:
    """``host`` with some rule switches changed, as a user's variant file would do it."""
    lines = [f'id = "{host}-switched"', f'name = "{host} switched"', f'host = "{host}"', "[rules]"]
    lines += [f"{key} = {value}" for key, value in rules.items()]
    path = tmp_path / f"{host}-switched.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_variant_file(path)


# -- docs/rules/switches.md#positions T4: Turkish no-180° ------------------------------------------

T4 = "W:WKd4:Bc4,f4"


def test_t4_turkish_no_180() -> None:
    game = Game("turkish", T4)
    assert move_set(game) == {
        (("d4", "b4"), frozenset({"c4"})),
        (("d4", "a4"), frozenset({"c4"})),
        (("d4", "g4"), frozenset({"f4"})),
        (("d4", "h4"), frozenset({"f4"})),
    }


@pytest.mark.parametrize(("path", "gone", "stays"), [("d4-b4", "c4", "f4"), ("d4-h4", "f4", "c4")])
def test_t4_result(path: str, gone: str, stays: str) -> None:
    game = play("turkish", T4, path)
    end = path.split("-")[-1]
    assert at(game, end) == WHITE_KING
    assert at(game, "d4") is None and at(game, gone) is None
    assert at(game, stays) == Piece(Color.BLACK, Kind.MAN)
    assert game.turn is Color.BLACK


def test_t4_without_the_no_180_rule(tmp_path: Path) -> None:
    # the same file with no_180 off: the king turns back over the cleared line and the
    # majority rule keeps only two-capture moves. docs/rules/switches.md#positions counts 8 of them,
    # which are paths (b4 or a4, then g4 or h4, and the other way round); by the move identity
    # of docs/rules/conventions.md#move-identity the paths d4-b4-g4 and d4-a4-g4 leave the same
    # position and are one move.
    variant = switched(tmp_path, "turkish", no_180="false")
    game = Game(variant, T4)
    both = frozenset({"c4", "f4"})
    ends = {"g4", "h4", "b4", "a4"}
    assert {(m[0][-1], m[1]) for m in move_set(game)} == {(end, both) for end in ends}
    assert len(game.legal_moves()) == 4
    assert paths(game) & {"d4-b4-g4", "d4-a4-g4"}


# -- docs/rules/switches.md#positions T5: Turkish promotion at the end of the move -----------------

T5 = "W:Wd6:Bd7,Kb8"


def test_t5_turkish_crowns_only_at_the_end() -> None:
    assert move_set(Game("turkish", T5)) == {(("d6", "d8"), frozenset({"d7"}))}
    game = play("turkish", T5, "d6-d8")
    assert at(game, "d8") == WHITE_KING
    assert at(game, "b8") == Piece(Color.BLACK, Kind.KING)


def test_t5_tama_goes_on_as_a_king() -> None:
    # the same position in the document's Tama: crowned on d8, the king takes b8 at once
    assert legal("tama", T5) == {"d6-d8-a8"}
    assert at(play("tama", T5, "d6-d8-a8"), "a8") == WHITE_KING


def test_turkish_man_on_the_far_row_goes_on_as_a_man() -> None:
    # reaching d8 mid-capture, the man may only jump sideways (as a man) and is crowned
    # where the move ends; as a king (Tama) it could stop on g8 or h8 too
    fen = "W:Wd6:Bd7,e8"
    assert legal("turkish", fen) == {"d6-d8-f8"}
    assert at(play("turkish", fen, "d6-d8-f8"), "f8") == WHITE_KING
    assert legal("tama", fen) == {"d6-d8-f8", "d6-d8-g8", "d6-d8-h8"}


def test_turkish_promotion_switch(tmp_path: Path) -> None:
    variant = switched(tmp_path, "turkish", promotion_in_capture='"continue-as-king"')
    assert legal(variant, T5) == {"d6-d8-a8"}


# -- Turkish immediate removal -------------------------------------------------------

RECROSS = "W:WKa3:Bb3,e5,c6,b5"


def test_turkish_immediate_removal_lets_a_square_be_crossed_again() -> None:
    # a3xb3 (landing e3), e3xe5, e6xc6, b6xb5: b3 is empty again at once, so the king may
    # land on b3 or fly through it to b2 and b1
    game = Game("turkish", RECROSS)
    expected = {f"a3-e3-e6-b6-{end}" for end in ("b4", "b3", "b2", "b1")}
    assert paths(game) == expected
    assert all(
        set(m.captured) == {sq("turkish", s) for s in ("b3", "e5", "c6", "b5")}
        for m in game.legal_moves()
    )
    after = play("turkish", RECROSS, "a3-e3-e6-b6-b1")
    assert after.pieces() == {sq("turkish", "b1"): WHITE_KING}


def test_turkish_removal_switch(tmp_path: Path) -> None:
    # removed at the end of the move, the taken b3 still blocks: the king stops on b4
    variant = switched(tmp_path, "turkish", removal='"end-of-move"')
    assert legal(variant, RECROSS) == {"a3-e3-e6-b6-b4"}


def test_turkish_majority_counts_kings_as_men() -> None:
    # two men to the left (c2, then b3 forward) or a king to the right: the two men
    fen = "W:Wd2:Bc2,b3,Ke2"
    assert legal("turkish", fen) == {"d2-b2-b4"}
    # without the second man either capture is a single one and both are legal
    assert legal("turkish", "W:Wd2:Bc2,Ke2") == {"d2-b2", "d2-f2"}


def test_turkish_move_text_writes_every_landing_square() -> None:
    game = Game("turkish", RECROSS)
    move = next(m for m in game.legal_moves() if m.end == sq("turkish", "b3"))
    assert move_text(game.variant, move, game.legal_moves(), full=True) == "a3xe3xe6xb6xb3"


# -- Turkish perft ---------------------------------------------------------------------

# kish (Sanavesa/kish, perft.json): every capture path counts and a terminal node counts
# as 1; from the start neither convention matters at these depths.
KISH = [8, 64, 708, 7538, 85090, 931312]


@pytest.mark.parametrize("depth", range(1, 7))
def test_turkish_perft_matches_kish(depth: int) -> None:
    assert Game("turkish").perft(depth) == KISH[depth - 1]


def test_kish_counts_are_those_of_the_vectors_file() -> None:
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    (turkish,) = [r for r in records if r["variant"] == "turkish"]
    assert [turkish["depth_counts"][str(d)] for d in range(1, 7)] == KISH


def test_dama_is_turkish() -> None:
    assert find_variant("dama") is find_variant("turkish")


# -- Turkish draws (docs/rules/orthogonal.md#turkish) ----------------------------------------------


@pytest.mark.parametrize(
    "fen", ["W:WKa1:BKh7", "W:WKa1:Bh7", "W:Wa2:BKh7", "W:Wa2:Bh7", "B:Wa2:Bh7"]
)
def test_turkish_one_piece_against_one_piece_is_drawn(fen: str) -> None:
    outcome = Game("turkish", fen).outcome()
    assert outcome is not None and outcome.is_draw
    assert outcome.termination is Termination.MATERIAL
    assert outcome.rule == "one piece against one piece"


@pytest.mark.parametrize("fen", ["W:WKa1,b1:BKh7", "W:WKa1:Bh7,g7", "W:Wa2,b2:Bh7"])
def test_turkish_two_pieces_against_one_play_on(fen: str) -> None:
    assert Game("turkish", fen).outcome() is None


KINGS = "W:WKa1,Kb2:BKh8,Kg7"


def test_turkish_threefold_repetition() -> None:
    game = Game("turkish", KINGS)
    shuffle = [("a1", "a2"), ("h8", "h7"), ("a2", "a1"), ("h7", "h8")]
    for i in range(8):
        assert game.outcome() is None, i
        game.push(mv("turkish", *shuffle[i % 4]))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    assert outcome.is_draw and "three times" in outcome.rule


def test_turkish_100_plies_without_capture_or_man_move() -> None:
    game = Game("turkish", KINGS + ":H99:F80")
    assert game.outcome() is None
    game.push(mv("turkish", "a1", "a2"))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
    assert outcome.is_draw and "50 moves" in outcome.rule


def test_turkish_100_plies_near_miss_and_man_move() -> None:
    game = Game("turkish", KINGS + ":H98:F80")
    game.push(mv("turkish", "a1", "a2"))
    assert game.outcome() is None
    # a man move resets the count
    game = Game("turkish", "W:WKa1,Kb2,c2:BKh8,Kg7:H99:F80")
    game.push(mv("turkish", "c2", "c3"))
    assert game.reversible_plies == 0
    assert game.outcome() is None


def test_turkish_blocked_side_loses() -> None:
    # the white man on a7 cannot move: a8 is held, b7 too, and a jump needs a free square
    game = Game("turkish", "W:Wa7:Ba8,b7,c7,h1")
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is Color.BLACK


# -- Tama (document version, docs/rules/orthogonal.md#tama) ----------------------------------------


def test_tama_king_captures_diagonally() -> None:
    fen = "W:WKd4:Bf6,c4"
    assert legal("tama", fen) == {"d4-a4", "d4-b4", "d4-g7", "d4-h8"}


def test_tama_armenian_king_captures_only_orthogonally() -> None:
    fen = "W:WKd4:Bf6,c4"
    assert legal("tama-armenian", fen) == {"d4-a4", "d4-b4"}
    # with no orthogonal victim the king makes quiet moves, diagonal ones included,
    # and f6 is not taken
    moves = legal("tama-armenian", "W:WKd4:Bf6")
    assert {"d4-a1", "d4-c3", "d4-e5", "d4-a7", "d4-g1", "d4-d8", "d4-h4"} <= moves
    assert "d4-f6" not in moves and "d4-g7" not in moves
    assert len(moves) == 24  # 3+3+3+1 diagonal, 7+7 orthogonal (f6 blocks the NE ray)
    assert legal("tama", "W:WKd4:Bf6") == {"d4-g7", "d4-h8"}


def test_tama_men_step_forward_and_sideways() -> None:
    assert legal("tama", "W:Wd4:Ba8") == {"d4-c4", "d4-d5", "d4-e4"}
    assert legal("tama", "B:Wh1:Bd5") == {"d5-c5", "d5-d4", "d5-e5"}


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("W:Wd4:Ba8", {"d4-c4", "d4-c5", "d4-d5", "d4-e5", "d4-e4"}),
        ("B:Wa8:Bd5", {"d5-c5", "d5-c4", "d5-d4", "d5-e4", "d5-e5"}),
    ],
)
def test_tama_armenian_men_move_in_five_directions(fen: str, expected: set[str]) -> None:
    assert legal("tama-armenian", fen) == expected


def test_tama_armenian_men_capture_only_straight() -> None:
    # an enemy man diagonally in front cannot be taken; the one on the left must be
    assert legal("tama-armenian", "W:Wd4:Be5,c4") == {"d4-b4"}
    assert legal("tama-armenian", "W:Wd4:Be5") == {"d4-c4", "d4-c5", "d4-d5", "d4-e4"}


def test_tama_perft_from_the_start() -> None:
    # from the start the men of Tama and Turkish move alike; the kings differ later
    assert [Game("tama").perft(d) for d in (1, 2, 3)] == KISH[:3]


def test_tama_one_king_each_is_drawn() -> None:
    outcome = Game("tama", "W:WKa1:BKh7").outcome()
    assert outcome is not None and outcome.termination is Termination.MATERIAL
    assert outcome.is_draw and outcome.rule == "each player has one king left"


@pytest.mark.parametrize("fen", ["W:WKa1:Bh7", "W:Wa2:Bh7", "W:WKa1,Kb1:BKh7"])
def test_tama_other_endings_play_on(fen: str) -> None:
    assert Game("tama", fen).outcome() is None


def test_tama_armenian_has_no_material_draw() -> None:
    assert Game("tama-armenian", "W:WKa1:BKh7").outcome() is None
    assert [r.kind for r in find_variant("tama-armenian").draws] == ["repetition"]


@pytest.mark.parametrize("variant", ["tama", "tama-armenian"])
def test_tama_threefold_repetition(variant: str) -> None:
    game = Game(variant, "W:WKa1,Kc1:BKh8,Kh6")
    shuffle = [("a1", "a2"), ("h8", "g8"), ("a2", "a1"), ("g8", "h8")]
    for i in range(8):
        assert game.outcome() is None, (variant, i, game.fen())
        game.push(mv(variant, *shuffle[i % 4]))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION


NO_180_DIAGONAL = "W:WKc3:Bd4,b2"


def test_tama_no_180_for_the_diagonal_king() -> None:
    # after taking d4 the king may not turn straight back over the cleared diagonal to
    # take b2: one capture either way
    assert legal("tama", NO_180_DIAGONAL) == {"c3-e5", "c3-f6", "c3-g7", "c3-h8", "c3-a1"}


def test_tama_no_180_switch(tmp_path: Path) -> None:
    # without the rule the king comes back over d4 and c3 to take b2 (or the other way
    # round): only two-capture moves, one per end square (docs/rules/conventions.md#move-identity)
    variant = switched(tmp_path, "tama", no_180="false")
    game = Game(variant, NO_180_DIAGONAL)
    assert {(m[0][-1], m[1]) for m in move_set(game)} == {
        (end, frozenset({"d4", "b2"})) for end in ("a1", "e5", "f6", "g7", "h8")
    }


# -- an independent generator ---------------------------------------------------------------

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
Board = dict[tuple[int, int], str]  # "w" "b" men, "W" "B" kings


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def reference_moves(variant: str, board: Board, turn: int) -> set:
    """(start, end, resulting board) of every legal move, from docs/rules/orthogonal.md#tama,
    #tama-armenian, #turkish: immediate removal, no 180° turn, majority, promotion at the end
    (Turkish) or at once (the Tamas)."""
    forward, far = (-1, 0) if turn else (1, 7)
    own, enemy = ("bB", "wW") if turn else ("wW", "bB")
    man_captures = ((0, forward), (1, 0), (-1, 0))
    man_steps = man_captures
    king_moves = king_captures = ORTHOGONAL
    at_once = variant != "turkish"
    if variant == "tama":
        king_moves = king_captures = ORTHOGONAL + DIAGONAL
    elif variant == "tama-armenian":
        man_steps = (*man_captures, (1, forward), (-1, forward))
        king_moves = ORTHOGONAL + DIAGONAL
    captures: dict = {}

    def walk(start, piece, cur, king: bool, rest: Board, last, taken: int) -> bool:
        jumped = False
        for d in king_captures if king else man_captures:
            if last is not None and d == (-last[0], -last[1]):
                continue
            f, r = cur[0] + d[0], cur[1] + d[1]
            while king and _on(f, r) and (f, r) not in rest:
                f, r = f + d[0], r + d[1]
            victim = (f, r)
            if not _on(f, r) or rest.get(victim, "") not in enemy or victim not in rest:
                continue
            left = dict(rest)
            del left[victim]  # removed at once
            f, r = f + d[0], r + d[1]
            while _on(f, r) and (f, r) not in left:
                jumped = True
                crowned = king or (at_once and r == far)
                if not walk(start, piece, (f, r), crowned, left, d, taken + 1):
                    end = piece.upper() if king or r == far else piece
                    captures[(start, (f, r), frozenset({**left, (f, r): end}.items()))] = taken + 1
                if not king:
                    break
                f, r = f + d[0], r + d[1]
        return jumped

    for start, piece in board.items():
        if piece in own:
            rest = dict(board)
            del rest[start]
            walk(start, piece, start, piece.isupper(), rest, None, 0)
    if captures:
        best = max(captures.values())
        return {key for key, n in captures.items() if n == best}
    out = set()
    for start, piece in board.items():
        if piece not in own:
            continue
        king = piece.isupper()
        for d in king_moves if king else man_steps:
            f, r = start[0] + d[0], start[1] + d[1]
            while _on(f, r) and (f, r) not in board:
                rest = dict(board)
                del rest[start]
                end = piece.upper() if r == far else piece
                out.add((start, (f, r), frozenset({**rest, (f, r): end}.items())))
                if not king:
                    break
                f, r = f + d[0], r + d[1]
    return out


def letters(game: Game) -> Board:
    geo = game.variant.board
    out = {}
    for p, piece in game.pieces().items():
        letter = "b" if piece.color else "w"
        out[(geo.file_of[p], geo.rank_of[p])] = letter.upper() if piece.is_king else letter
    return out


@pytest.mark.parametrize("variant", ["turkish", "tama", "tama-armenian"])
def test_engine_agrees_with_the_reference_on_random_positions(variant: str) -> None:
    rng = random.Random(variant)
    squares = [(f, r) for f in range(8) for r in range(8)]
    for _ in range(120):
        board: Board = {}
        for f, r in rng.sample(squares, rng.randint(2, 16)):
            color = rng.choice("wb")
            king = rng.random() < 0.3 or (color, r) in (("w", 7), ("b", 0))
            board[(f, r)] = color.upper() if king else color
        turn = rng.randint(0, 1)
        white = [
            ("K" if p == "W" else "") + "abcdefgh"[f] + str(r + 1)
            for (f, r), p in board.items()
            if p in "wW"
        ]
        black = [
            ("K" if p == "B" else "") + "abcdefgh"[f] + str(r + 1)
            for (f, r), p in board.items()
            if p in "bB"
        ]
        fen = f"{'WB'[turn]}:W{','.join(white)}:B{','.join(black)}"
        game = Game(variant, fen)
        geo = game.variant.board
        engine = set()
        for move in game.legal_moves():
            g = game.copy()
            g.push_unchecked(move)
            key = (
                (geo.file_of[move.start], geo.rank_of[move.start]),
                (geo.file_of[move.end], geo.rank_of[move.end]),
                frozenset(letters(g).items()),
            )
            assert key not in engine, (fen, move)
            engine.add(key)
        assert engine == reference_moves(variant, board, turn), fen
