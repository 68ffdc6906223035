"""The end of the game: every draw rule of the five classic variant files fires in a
position of its own (with the termination and the rule's name checked) and, where it
means something, a near miss does not; no legal move, resignation, agreed draw and the
first mover.

Counts are in plies. A FEN's ``H`` field sets both counters (plies since a man move or
capture, and since a capture or promotion), so most tests start one or two plies short
of a limit and play the last plies on the board; the FMJD-64 7.2.6 tests play the whole
count, with men moving now and then so that the "only kings moved" rule stays quiet.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shashki.rules import Color, DrawRule, Game, IllegalMoveError, Outcome, Termination
from shashki.rules.game import game_state

from ..conftest import mv

CLASSIC = ("traditional", "russian", "brazilian", "international", "english")


def rule(variant: str, marker: str) -> DrawRule:
    """The draw rule of ``variant`` whose id or name contains ``marker``."""
    found = [r for r in Game(variant).variant.draws if marker == r.rule_id or marker in r.name]
    assert len(found) == 1, (variant, marker, found)
    return found[0]


def play(game: Game, *moves: str) -> Game:
    """Push quiet moves written "h2-g3" (every push is checked for legality)."""
    v = game.variant.id
    for text in moves:
        start, end = text.split("-")
        game.push(mv(v, start, end))
    return game


def assert_draw(game: Game, termination: Termination, expected: DrawRule) -> Outcome:
    outcome = game.outcome()
    assert outcome is not None, f"no draw in {game.fen()}"
    assert outcome.termination is termination
    assert outcome.winner is None and outcome.is_draw
    assert outcome.rule == expected.name and outcome.rule
    assert outcome.result() == "1/2-1/2"
    assert game.is_over()
    return outcome


def walk(
    game: Game,
    plies: int,
    *,
    men_at: tuple[int, ...] = (),
    check: Callable[[Game, int], None] | None = None,
) -> None:
    """Play ``plies`` quiet moves: king moves, and man moves at the indices ``men_at``.

    Every move captures nothing, crowns nothing, leads to a position not seen before in
    the walk and leaves the opponent without a capture; so no capture, promotion or
    repetition can end a count early. The walk is found by a depth-first search in a
    fixed order (no randomness). ``check`` is called after each ply with the number of
    plies played.
    """
    seen = {game_state(game)}

    def candidates(ply: int) -> list:
        want_king = ply not in men_at
        out = []
        for move in sorted(game.legal_moves(), key=lambda m: m.path):
            moving = game.piece_at(move.start)
            assert moving is not None
            if move.is_capture or moving.is_king != want_king:
                continue
            after = game.copy()
            after.push(move)
            if after.piece_at(move.end) == moving and game_state(after) not in seen:
                if not after.captures():
                    out.append(move)
        shift = (ply * 7) % len(out) if out else 0
        return out[shift:] + out[:shift]

    def extend(ply: int) -> bool:
        if ply == plies:
            return True
        for move in candidates(ply):
            game.push(move)
            seen.add(game_state(game))
            if check is not None:
                check(game, ply + 1)
            if extend(ply + 1):
                return True
            seen.discard(game_state(game))
            game.pop()
        return False

    assert extend(0), f"no walk of {plies} plies from {game.fen()}"


def quiet_until(last: int) -> Callable[[Game, int], None]:
    def check(game: Game, played: int) -> None:
        if played < last:
            assert game.outcome() is None, (played, game.outcome(), game.fen())

    return check


# -- threefold repetition ----------------------------------------------------------

# Kings shuffle e1-f2-e1 and d8-e7-d8; the men are bystanders (legal on both boards).
SHUFFLE = "W:WKe1,a3,c3:BKd8,f8,h8"
CYCLE = ("e1-f2", "d8-e7", "f2-e1", "e7-d8")


@pytest.mark.parametrize("variant", CLASSIC)
def test_threefold_repetition(variant: str) -> None:
    game = Game(variant, SHUFFLE)
    expected = rule(variant, "7.2.3") if variant == "russian" else rule(variant, "three times")
    assert expected.kind == "repetition"
    play(game, *CYCLE)
    assert game.repetitions() == 2
    assert game.outcome() is None  # twice is not enough
    play(game, *CYCLE[:3])
    assert game.outcome() is None
    play(game, CYCLE[3])
    assert game.repetitions() == 3
    outcome = assert_draw(game, Termination.REPETITION, expected)
    assert "three times" in outcome.rule
    game.pop()
    assert game.outcome() is None


@pytest.mark.parametrize("variant", ["traditional", "russian", "brazilian", "international"])
def test_repetition_needs_the_same_side_to_move(variant: str) -> None:
    # White's flying king goes round e1-g3-f2-e1 (three moves), Black's d8-e7-d8 (two):
    # after 12 plies every placement has been seen once with each side to move, which an
    # engine blind to the side to move would already count as a third occurrence.
    game = Game(variant, SHUFFLE)
    white = ("e1-g3", "g3-f2", "f2-e1")
    black = ("d8-e7", "e7-d8")
    for i in range(12):
        play(game, white[(i // 2) % 3] if i % 2 == 0 else black[(i // 2) % 2])
        assert game.outcome() is None, i
    assert game.repetitions() == 2
    for i in range(12, 24):
        play(game, white[(i // 2) % 3] if i % 2 == 0 else black[(i // 2) % 2])
        if i < 23:
            assert game.outcome() is None, i
    expected = rule(variant, "7.2.3" if variant == "russian" else "three times")
    assert_draw(game, Termination.REPETITION, expected)


# -- Russian draughts: FMJD-64 7.2.4 - 7.2.8 -------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKh2,Ka3,Kc1:BKd4:H8",  # three kings
        "W:WKh2,Kc1,a3:BKd4:H8",  # two kings and a man
        "W:WKh2,a3,e1:BKd4:H8",  # a king and two men
        "B:WKd4:BKh2,Ka3,Kc1:H8",  # colours swapped, Black the stronger side
    ],
)
def test_russian_7_2_7_lone_king_on_the_main_road(fen: str) -> None:
    game = play(Game("russian", fen), "h2-g3")  # the side to move owns h2
    assert game.outcome() is None  # 9 plies
    play(game, "d4-c3")
    assert game.material_plies == 10
    outcome = assert_draw(game, Termination.ENDGAME_LIMIT, rule("russian", "7.2.7"))
    assert "7.2.7" in outcome.rule


def test_russian_7_2_7_needs_the_main_road() -> None:
    # the lone king off the long diagonal: 7.2.7 does not apply (7.2.4 waits for 15 moves)
    game = play(Game("russian", "W:WKh2,Ka3,Kc1:BKa7:H8"), "h2-g3", "a7-b8")
    assert game.material_plies == 10
    assert game.outcome() is None


def test_russian_7_2_7_needs_the_lone_king_alone_on_the_main_road() -> None:
    # a white man on a1 shares the long diagonal: no draw; the same man on a3: draw
    game = play(Game("russian", "W:WKh2,Kc1,a1:BKd4:H8"), "h2-g3", "d4-c3")
    assert game.outcome() is None
    game = play(Game("russian", "W:WKh2,Kc1,a3:BKd4:H8"), "h2-g3", "d4-c3")
    assert_draw(game, Termination.ENDGAME_LIMIT, rule("russian", "7.2.7"))


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKh2,Kc1:BKa7:H8",  # two kings
        "W:WKh2,c3:BKa7:H8",  # a king and a man
        "W:WKh2:BKa7:H8",  # king against king
        "W:WKa7:BKh2,Kc1:H8",  # Black the stronger side
    ],
)
def test_russian_7_2_8(fen: str) -> None:
    game = Game("russian", fen)
    white_king = "h2" if "WKh2" in fen else "a7"
    black_king = "a7" if white_king == "h2" else "h2"
    step = {"h2": "h2-g3", "a7": "a7-b8"}
    play(game, step[white_king])
    assert game.outcome() is None
    play(game, step[black_king])
    outcome = assert_draw(game, Termination.ENDGAME_LIMIT, rule("russian", "7.2.8"))
    assert "7.2.8" in outcome.rule


@pytest.mark.parametrize(
    ("fen", "said"),
    [
        ("W:WKh2,Kc1:BKa7:H8", "2 kings against 1 king"),
        ("W:WKh2,c3:BKa7:H8", "1 king and 1 man against 1 king"),
        ("W:WKa7:BKh2,Kc1:H8", "2 kings against 1 king"),  # Black the stronger side
    ],
)
def test_a_draw_of_a_listed_material_says_the_material_on_the_board(fen: str, said: str) -> None:
    """7.2.8 lists three balances; the draw says the one on the board, in the language
    spoken (the record keeps the rule's name)."""
    from shashki.i18n import set_language

    game = Game("russian", fen)
    for move in ("h2-g3", "a7-b8") if "WKh2" in fen else ("a7-b8", "h2-g3"):
        play(game, move)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.ENDGAME_LIMIT
    shown = outcome.describe(variant=game.variant)
    assert shown == f"Draw: {said}, no win within 5 moves.", shown
    assert "king and man, or" in outcome.describe()  # the record: the rule's name
    try:
        set_language("uk")
        shown = outcome.describe(variant=game.variant)
        assert shown.startswith("Нічия: ") and "дамк" in shown and "проти 1\u00a0дамки" in shown
        assert "або" not in shown, shown  # not the rule's list
    finally:
        set_language("en")


def test_a_draw_at_once_by_a_listed_material_says_the_material() -> None:
    game = Game("turkish", "W:WKa1:Bh8:H0")  # one piece against one piece: at once
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.MATERIAL
    assert outcome.describe(variant=game.variant) == "Draw: 1 king against 1 man on the board."


@pytest.mark.parametrize("fen", ["W:WKh2,Ka3,Kc1:BKa7:H28", "W:WKh2,Ka3,Kc1,Ke1:BKa7:H28"])
def test_russian_7_2_4_three_or_more_kings(fen: str) -> None:
    game = play(Game("russian", fen), "h2-g3")
    assert game.outcome() is None  # 29 plies
    play(game, "a7-b8")
    outcome = assert_draw(game, Termination.ENDGAME_LIMIT, rule("russian", "7.2.4"))
    assert "7.2.4" in outcome.rule


def test_russian_7_2_4_is_about_kings_only() -> None:
    # three kings and a man against a king, off the main road: no 7.2.4 and no 7.2.7;
    # the man walks, so the 7.2.5 count starts again
    game = play(Game("russian", "W:WKh2,Ka3,Kc1,e1:BKa7:H28"), "e1-d2", "a7-b8")
    assert game.material_plies == 30
    assert game.outcome() is None


def test_russian_7_2_5_only_kings_moved() -> None:
    game = play(Game("russian", "W:WKh2,a3,c3:BKa7,h6:H28"), "h2-g1")
    assert game.outcome() is None
    play(game, "a7-b8")
    assert game.reversible_plies == 30
    outcome = assert_draw(game, Termination.MOVE_LIMIT, rule("russian", "7.2.5"))
    assert "7.2.5" in outcome.rule


def test_russian_7_2_5_man_move_starts_again() -> None:
    game = play(Game("russian", "W:WKh2,a3,c3:BKa7,h6:H29"), "c3-b4")
    assert game.reversible_plies == 0
    play(game, "a7-b8")
    assert game.outcome() is None


def test_russian_7_2_5_capture_starts_again() -> None:
    game = Game("russian", "W:WKh2,a3,c3:BKa7,h6,d4:H29")
    game.push(mv("russian", "c3", "e5", captured=("d4",)))
    assert (game.reversible_plies, game.material_plies) == (0, 0)
    play(game, "a7-b8")
    assert game.outcome() is None


# 7.2.6: kings on both sides, 4-5 pieces: 30 moves; 6-7 pieces: 60 moves, without a
# capture or a promotion. Men move now and then, so that 7.2.5 (only kings) stays quiet.
FOUR = ("W:WKd2,a1:BKe7,h8", 60, (0, 28, 56))
FIVE = ("W:WKd2,a1:BKe7,h8,f8", 60, (0, 28, 56))
SIX = ("W:WKd2,a1,c1:BKe7,h8,f8", 120, (0, 28, 56, 84, 112))
SEVEN = ("W:WKd2,a1,c1:BKe7,h8,f8,d8", 120, (0, 28, 56, 84, 112))


@pytest.mark.parametrize(
    ("fen", "limit", "men_at", "rule_id"),
    [(*FOUR, "7.2.6a"), (*FIVE, "7.2.6a"), (*SIX, "7.2.6b"), (*SEVEN, "7.2.6b")],
    ids=["4-pieces", "5-pieces", "6-pieces", "7-pieces"],
)
def test_russian_7_2_6(fen: str, limit: int, men_at: tuple[int, ...], rule_id: str) -> None:
    game = Game("russian", fen)
    walk(game, limit, men_at=men_at, check=quiet_until(limit))
    assert game.material_plies == limit
    assert game.reversible_plies < 30
    outcome = assert_draw(game, Termination.ENDGAME_LIMIT, rule("russian", rule_id))
    assert "7.2.6" in outcome.rule


def test_russian_7_2_6_eight_pieces_go_on() -> None:
    game = Game("russian", "W:WKd2,a1,c1,e1:BKe7,h8,f8,d8")
    walk(game, 120, men_at=(0, 28, 56, 84, 112), check=quiet_until(121))
    assert game.material_plies == 120
    assert game.outcome() is None


@pytest.mark.parametrize(
    ("fen", "drawn"),
    [
        ("W:WKd2,a1:BKe7,h8:H59", True),
        ("W:WKd2,a1:Be7,h8:H59", False),  # Black has no king
        ("W:Wd2,a1:BKe7,h8:H59", False),  # White has no king
        ("W:WKd2,a1,c1:BKe7,h8,f8:H119", True),
        ("W:WKd2,a1,c1,e1:BKe7,h8,f8,d8:H119", False),  # eight pieces
    ],
)
def test_russian_7_2_6_needs_kings_on_both_sides(fen: str, drawn: bool) -> None:
    # one man move: the "only kings" count starts again, the balance of forces does not
    game = Game("russian", fen)
    man = next(m for m in game.legal_moves() if not game.piece_at(m.start).is_king)
    game.push(man)
    assert game.reversible_plies == 0
    outcome = game.outcome()
    if drawn:
        assert outcome is not None and "7.2.6" in outcome.rule
        assert outcome.termination is Termination.ENDGAME_LIMIT
    else:
        assert outcome is None


# -- International draughts: 25 moves, 16 moves, 5 moves ---------------------------------


def test_international_25_king_moves() -> None:
    game = play(Game("international", "W:WKc1,a1,e1:BKh10,f10,j10:H48"), "c1-d2")
    assert game.outcome() is None
    play(game, "h10-g9")
    assert game.reversible_plies == 50
    outcome = assert_draw(game, Termination.MOVE_LIMIT, rule("international", "25 moves"))
    assert "25 moves" in outcome.rule


def test_international_25_moves_man_move_starts_again() -> None:
    game = play(Game("international", "W:WKc1,a1,e1:BKh10,f10,j10:H49"), "a1-b2", "h10-g9")
    assert game.reversible_plies == 1
    assert game.outcome() is None


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKc1,Ke1,Kg1:BKj10:H30",  # three kings
        "W:WKc1,Ke1,a1:BKj10:H30",  # two kings and a man
        "W:WKc1,a1,e1:BKj10:H30",  # a king and two men
    ],
)
def test_international_16_moves(fen: str) -> None:
    game = play(Game("international", fen), "c1-d2")
    assert game.outcome() is None
    play(game, "j10-i9")
    assert game.material_plies == 32
    outcome = assert_draw(game, Termination.ENDGAME_LIMIT, rule("international", "16 moves"))
    assert "16 moves" in outcome.rule


def test_international_16_moves_counts_man_moves() -> None:
    # a man moving does not restart the count (the balance of forces is unchanged)
    game = play(Game("international", "W:WKc1,a1,e1:BKj10:H30"), "e1-f2", "j10-i9")
    assert game.reversible_plies == 1
    assert_draw(game, Termination.ENDGAME_LIMIT, rule("international", "16 moves"))


def test_international_16_moves_near_misses() -> None:
    game = play(Game("international", "W:WKc1,Ke1,Kg1:BKj10:H29"), "c1-d2", "j10-i9")
    assert game.material_plies == 31
    assert game.outcome() is None
    # four kings against one: neither endgame rule (the 25-move rule comes later)
    game = play(Game("international", "W:WKc1,Ke1,Kg1,Ki1:BKj10:H30"), "c1-d2", "j10-i9")
    assert game.outcome() is None


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKc1,Ke1:BKj10:H8",  # two kings
        "W:WKc1,a1:BKj10:H8",  # a king and a man
        "W:WKc1:BKj10:H8",  # king against king
        "W:WKj10:BKc1,Ke1:H8",  # Black the stronger side
    ],
)
def test_international_5_moves(fen: str) -> None:
    game = Game("international", fen)
    first, second = ("c1-d2", "j10-i9") if "WKc1" in fen else ("j10-i9", "c1-d2")
    play(game, first)
    assert game.outcome() is None
    play(game, second)
    outcome = assert_draw(game, Termination.ENDGAME_LIMIT, rule("international", "within 5 moves"))
    assert "within 5 moves" in outcome.rule


def test_international_5_moves_needs_a_lone_king() -> None:
    game = play(Game("international", "W:WKc1,Ke1:BKj10,a9:H8"), "c1-d2", "j10-i9")
    assert game.outcome() is None


# -- Brazilian and English: the move-count rules ---------------------------------------


def test_brazilian_20_king_moves() -> None:
    game = play(Game("brazilian", "W:WKh2,a3,c3:BKa7,h6,f8:H38"), "h2-g1")
    assert game.outcome() is None
    play(game, "a7-b8")
    outcome = assert_draw(game, Termination.MOVE_LIMIT, rule("brazilian", "20 moves"))
    assert "20 moves" in outcome.rule


def test_brazilian_20_moves_near_miss() -> None:
    game = play(Game("brazilian", "W:WKh2,a3,c3:BKa7,h6,f8:H39"), "c3-b4", "a7-b8")
    assert game.outcome() is None
    # and lone-king endings have no faster rule in Brazilian draughts
    game = play(Game("brazilian", "W:WKh2,Kc1:BKa7:H8"), "h2-g1", "a7-b8")
    assert game.outcome() is None


def test_english_40_moves() -> None:
    game = play(Game("english", "B:WKe1,a3,c3:BKd8,f8,h8:H78"), "d8-e7")
    assert game.outcome() is None
    play(game, "e1-f2")
    assert game.reversible_plies == 80
    outcome = assert_draw(game, Termination.MOVE_LIMIT, rule("english", "40 moves"))
    assert "40 moves" in outcome.rule


def test_english_40_moves_man_move_starts_again() -> None:
    game = play(Game("english", "B:WKe1,a3,c3:BKd8,f8,h8:H79"), "h8-g7", "e1-f2")
    assert game.reversible_plies == 1
    assert game.outcome() is None


# -- the traditional game: D1, D2, D3 and its backstops ------------------------------


@pytest.mark.parametrize(
    ("fen", "rule_id"),
    [
        ("W:WKa1:BKh2", "D1"),
        ("B:WKa1:BKh2", "D1"),
        ("W:WKa1,Kc1:BKh8", "D2"),
        ("W:WKh8:BKa1,Kc1", "D2"),  # Black has the two kings
        ("W:WKc1,Ke1,Kh2:BKd4", "D3"),
        ("B:WKc1,Ke1,Kh2:BKd4", "D3"),
        ("B:WKd4:BKc1,Ke1,Kh2", "D3"),  # Black has the three kings
    ],
)
def test_traditional_material_draws(fen: str, rule_id: str) -> None:
    game = Game("traditional", fen)
    outcome = assert_draw(game, Termination.MATERIAL, rule("traditional", rule_id))
    assert (
        outcome.rule
        == {
            "D1": "king against king",
            "D2": "two kings against one king",
            "D3": "three kings against one king on the main road",
        }[rule_id]
    )


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKc3:BKd4",  # D1, but White must capture (c3:e5 and beyond)
        "W:WKa1,Kc1:BKd4",  # D2, but a1 takes d4
        "W:WKc1,Ke1,Kg1:BKd4",  # D3, but g1 takes d4
        "W:Wa3:BKh2",  # a man, not a king
        "W:WKa1,c1:BKh8",  # two pieces, but one is a man
        "W:WKa1,Kc1,Ke1:BKh2",  # three kings, the lone one off the main road
        "B:WKc1,Ke1,Kh8:BKd4",  # the lone king shares the main road with h8
        "W:WKc1,Ke1,Kh2,Ka3:BKd4",  # four kings
        "W:WKc1,Ke1:BKh2,a7",  # two against two
    ],
)
def test_traditional_material_near_misses(fen: str) -> None:
    assert Game("traditional", fen).outcome() is None


def test_traditional_draw_after_the_capture() -> None:
    # two kings against a king and a man; a1 takes d4 and may stop on e5, f6, g7 or h8
    game = Game("traditional", "W:WKa1,Kh2:BKb8,d4")
    assert game.outcome() is None
    game.push(mv("traditional", "a1", "g7", captured=("d4",)))
    assert_draw(game, Termination.MATERIAL, rule("traditional", "D2"))
    game.pop()
    # on e5 the king can be taken by b8: Black must capture, so no draw yet
    game.push(mv("traditional", "a1", "e5", captured=("d4",)))
    assert game.captures()
    assert game.outcome() is None


def test_traditional_15_king_moves() -> None:
    game = play(Game("traditional", "W:WKh2,a3,c3:BKa7,h6:H28"), "h2-g1")
    assert game.outcome() is None
    play(game, "a7-b8")
    outcome = assert_draw(game, Termination.MOVE_LIMIT, rule("traditional", "15 moves"))
    assert "15 moves" in outcome.rule


def test_traditional_15_moves_near_miss() -> None:
    game = play(Game("traditional", "W:WKh2,a3,c3:BKa7,h6:H29"), "c3-b4", "a7-b8")
    assert game.outcome() is None


# -- no legal move, resignation, agreement, first mover -------------------------------


@pytest.mark.parametrize("variant", CLASSIC)
@pytest.mark.parametrize(
    ("fen", "winner"),
    [
        ("W:W:Bc3", Color.BLACK),  # White has no pieces
        ("B:Wc3:B", Color.WHITE),  # Black has no pieces
        ("W:Wa3:Bb4,c5", Color.BLACK),  # White's only man is blocked
        ("B:Wb4,c3:Ba5", Color.WHITE),  # Black's only man is blocked
    ],
)
def test_no_legal_moves_loses(variant: str, fen: str, winner: Color) -> None:
    game = Game(variant, fen)
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is winner and not outcome.is_draw
    assert outcome.result() == ("1-0" if winner is Color.WHITE else "0-1")
    assert outcome.describe().startswith(f"{winner.name.title()} wins")


@pytest.mark.parametrize("variant", CLASSIC)
def test_resignation(variant: str) -> None:
    game = Game(variant)
    mover = game.turn
    game.push(game.legal_moves()[0])
    outcome = game.resign()  # the side to move resigns
    assert outcome.termination is Termination.RESIGNATION
    assert outcome.winner is mover
    assert game.outcome() == outcome and game.is_over()
    with pytest.raises(IllegalMoveError):
        game.push(game.legal_moves()[0])
    # a named side may resign out of turn
    other = Game(variant)
    assert other.resign(other.turn.other).winner is other.turn


@pytest.mark.parametrize("variant", CLASSIC)
def test_agreed_draw(variant: str) -> None:
    game = Game(variant)
    outcome = game.agree_draw()
    assert outcome.termination is Termination.AGREED_DRAW
    assert outcome.winner is None and outcome.result() == "1/2-1/2"
    assert game.outcome() == outcome
    # said once, in a record's words and on the screen ("Draw: draw agreed." said it twice)
    assert outcome.describe() == "Draw: by agreement."
    assert outcome.describe(variant=game.variant) == "Draw: by agreement."
    with pytest.raises(IllegalMoveError):
        game.push(game.legal_moves()[0])


@pytest.mark.parametrize(
    ("variant", "first"),
    [
        ("english", Color.BLACK),
        ("traditional", Color.WHITE),
        ("russian", Color.WHITE),
        ("brazilian", Color.WHITE),
        ("international", Color.WHITE),
    ],
)
def test_first_mover(variant: str, first: Color) -> None:
    game = Game(variant)
    assert game.turn is first
    assert game.variant.rules.first is first
    assert all(game.piece_at(m.start).color is first for m in game.legal_moves())
    assert Game(variant, "?:W21-30:B1-10").turn is first  # "?": the variant's first mover
    assert game.fen().startswith("B:" if first is Color.BLACK else "W:")


def test_english_black_moves_from_its_own_squares() -> None:
    game = Game("english")
    starts = {game.variant.board.number(m.start) for m in game.legal_moves()}
    assert starts == {9, 10, 11, 12}
    assert len(game.legal_moves()) == 7
