"""Hand-made positions, one or more per rule switch of docs/rules/switches.md#switches, with the
exact set of legal moves each variant must give.

The first group is the rule-discriminating table of docs/rules/switches.md#positions (T1-T3) for the
five classic variants, with the analogous positions on the International 10x10 board. The
later groups add positions of the same kind for each switch the five variants use.

Moves are compared as full paths of landing squares ("b6-d8-f6"), so a wrong landing
square, a missing continuation or an extra capture all fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.rules import (
    Color,
    Game,
    IllegalMoveError,
    Kind,
    Piece,
    load_variant_file,
)
from shashki.rules.game import game_state
from shashki.rules.notation import move_text

from ..conftest import ROOT, move_set, mv, paths, sq

CLASSIC = ("traditional", "russian", "brazilian", "international", "english")
EIGHT = ("traditional", "russian", "brazilian", "english")
MAJORITY = ("traditional", "brazilian", "international")
WHITE_MAN = Piece(Color.WHITE, Kind.MAN)
WHITE_KING = Piece(Color.WHITE, Kind.KING)
BLACK_KING = Piece(Color.BLACK, Kind.KING)


def legal(variant: str, fen: str) -> set[str]:
    return paths(Game(variant, fen))


def play(variant: str, fen: str, path: str) -> Game:
    """The game after the legal move whose landing squares are ``path`` ("b6-d8-f6")."""
    game = Game(variant, fen)
    for move in game.legal_moves():
        if "-".join(game.variant.board.name(p) for p in move.path) == path:
            game.push(move)
            return game
    raise AssertionError(f"{path} is not legal in {variant} {fen}: {sorted(paths(game))}")


def piece(game: Game, name: str) -> Piece | None:
    return game.piece_at(sq(game.variant.id, name))


def variant_with(base: str, tmp_path: Path, **changes: str):
    """A copy of a shipped variant file with some rule switches changed (to show that a
    switch, not something else, makes the difference)."""
    text = (ROOT / "variants" / f"{base}.toml").read_text(encoding="utf-8")
    text = text.replace(f'id = "{base}"', f'id = "{base}-test"', 1)
    for key, value in changes.items():
        lines = [line for line in text.splitlines() if line.startswith(f"{key} = ")]
        if lines:
            text = text.replace(lines[0], f"{key} = {value}")
        else:
            text = text.replace("[rules]\n", f"[rules]\n{key} = {value}\n", 1)
    path = tmp_path / f"{base}-test.toml"
    path.write_text(text, encoding="utf-8")
    return load_variant_file(path)


# -- docs/rules/switches.md#positions --------------------------------------------------------------

T1 = "W:Wb6:Bc7,e7"


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("english", {"b6-d8"}),
        ("traditional", {"b6-d8-f6"}),
        ("brazilian", {"b6-d8-f6"}),
        ("russian", {"b6-d8-f6", "b6-d8-g5", "b6-d8-h4"}),
    ],
)
def test_t1_promotion_during_capture(variant: str, expected: set[str]) -> None:
    assert legal(variant, T1) == expected


def test_t1_english_crowns_and_stops() -> None:
    game = Game("english", T1)
    (move,) = game.legal_moves()
    assert move_text(game.variant, move, game.legal_moves()) == "9x2"
    game.push(move)
    assert piece(game, "d8") == WHITE_KING
    # the king could jump e7 at once, but promotion ended the move: e7 is still there
    assert piece(game, "e7") is not None
    assert game.turn is Color.BLACK


@pytest.mark.parametrize("variant", ["traditional", "brazilian"])
def test_t1_passing_the_far_row_does_not_crown(variant: str) -> None:
    game = play(variant, T1, "b6-d8-f6")
    assert piece(game, "f6") == WHITE_MAN
    assert piece(game, "c7") is None and piece(game, "e7") is None


@pytest.mark.parametrize("end", ["f6", "g5", "h4"])
def test_t1_russian_goes_on_as_a_king(end: str) -> None:
    game = play("russian", T1, f"b6-d8-{end}")
    assert piece(game, end) == WHITE_KING


def test_t1_international() -> None:
    # the same shape one row higher on 10x10: c9 and e9, the far row is rank 10
    assert legal("international", "W:Wb8:Bc9,e9") == {"b8-d10-f8"}
    assert piece(play("international", "W:Wb8:Bc9,e9", "b8-d10-f8"), "f8") == WHITE_MAN


T2 = "W:WKa1:Bc3,e3"


@pytest.mark.parametrize("variant", ["russian", "brazilian", "traditional", "international"])
def test_t2_king_must_land_where_the_capture_goes_on(variant: str) -> None:
    assert legal(variant, T2) == {"a1-d4-f2", "a1-d4-g1"}


@pytest.mark.parametrize("end", ["e5", "f6", "g7", "h8"])
def test_t2_stopping_short_is_refused(end: str) -> None:
    game = Game("russian", T2)
    before = game.fen()
    with pytest.raises(IllegalMoveError):
        game.push(mv("russian", "a1", end, captured=("c3",)))
    assert game.fen() == before


def test_t2_english_short_king_has_no_capture() -> None:
    # c3 is two squares away: a short king cannot reach it, so it just moves
    assert legal("english", T2) == {"a1-b2"}


T3 = "W:We3:Bd4,f4,f6"


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("traditional", {"e3-g5-e7"}),
        ("brazilian", {"e3-g5-e7"}),
        ("international", {"e3-g5-e7"}),
        ("russian", {"e3-c5", "e3-g5-e7"}),
        ("english", {"e3-c5", "e3-g5-e7"}),
    ],
)
def test_t3_majority_vs_free_choice(variant: str, expected: set[str]) -> None:
    assert legal(variant, T3) == expected


# -- men's directions -------------------------------------------------------------


@pytest.mark.parametrize("variant", CLASSIC)
def test_men_step_forward_only(variant: str) -> None:
    assert legal(variant, "W:Wd4:Bh2") == {"d4-c5", "d4-e5"}
    assert legal(variant, "B:Wh2:Bd4") == {"d4-c3", "d4-e3"}


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("english", {"d4-c5", "d4-e5"}),  # c3 is behind the man: no capture, it just steps
        ("traditional", {"d4-b2"}),
        ("russian", {"d4-b2"}),
        ("brazilian", {"d4-b2"}),
        ("international", {"d4-b2"}),
    ],
)
def test_white_man_captures_backward(variant: str, expected: set[str]) -> None:
    assert legal(variant, "W:Wd4:Bc3") == expected


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("english", {"d4-b2"}),  # Black's forward is down: c3 yes, c5 no
        ("traditional", {"d4-b2", "d4-b6"}),
        ("russian", {"d4-b2", "d4-b6"}),
        ("brazilian", {"d4-b2", "d4-b6"}),
        ("international", {"d4-b2", "d4-b6"}),
    ],
)
def test_black_man_capture_directions(variant: str, expected: set[str]) -> None:
    assert legal(variant, "B:Wc3,c5:Bd4") == expected


def test_english_man_multi_capture_never_turns_back() -> None:
    # On e5 the man has f4 behind it: only men that capture backward take it too.
    assert legal("english", "W:We1:Bd2,d4,f4") == {"e1-c3-e5"}
    for variant in ("traditional", "russian", "brazilian", "international"):
        assert legal(variant, "W:We1:Bd2,d4,f4") == {"e1-c3-e5-g3"}


# -- flying and short kings ---------------------------------------------------------

FLYING_D4 = {
    "d4-a1",
    "d4-b2",
    "d4-c3",
    "d4-e5",
    "d4-f6",
    "d4-g7",
    "d4-h8",
    "d4-a7",
    "d4-b6",
    "d4-c5",
    "d4-e3",
    "d4-f2",
    "d4-g1",
}


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("english", {"d4-c3", "d4-c5", "d4-e3", "d4-e5"}),
        ("traditional", FLYING_D4),
        ("russian", FLYING_D4),
        ("brazilian", FLYING_D4),
        ("international", FLYING_D4 | {"d4-i9", "d4-j10"}),
    ],
)
def test_king_moves(variant: str, expected: set[str]) -> None:
    assert legal(variant, "W:WKd4:Bh2") == expected


def test_flying_king_stops_before_a_piece() -> None:
    # its own man on f6 cuts the long diagonal
    assert legal("russian", "W:WKd4,f6:Bh2") == (FLYING_D4 - {"d4-f6", "d4-g7", "d4-h8"}) | {
        "f6-e7",
        "f6-g7",
    }


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("english", {"a1-b2"}),
        ("traditional", {"a1-e5", "a1-f6", "a1-g7", "a1-h8"}),
        ("russian", {"a1-e5", "a1-f6", "a1-g7", "a1-h8"}),
        ("brazilian", {"a1-e5", "a1-f6", "a1-g7", "a1-h8"}),
        ("international", {"a1-e5", "a1-f6", "a1-g7", "a1-h8", "a1-i9", "a1-j10"}),
    ],
)
def test_king_captures_at_a_distance(variant: str, expected: set[str]) -> None:
    assert legal(variant, "W:WKa1:Bd4") == expected


@pytest.mark.parametrize("variant", CLASSIC)
def test_king_captures_backward(variant: str) -> None:
    # A black king on h8 captures "backward" for Black (towards rank 8 is its back).
    expected = {"d4-f6"} if variant == "english" else {"d4-f6", "d4-g7", "d4-h8"}
    if variant == "international":
        expected |= {"d4-i9", "d4-j10"}
    assert legal(variant, "B:WKa1,e5:BKd4") == expected


def test_flying_king_cannot_jump_two_in_a_row() -> None:
    # d4 and e5 stand next to each other on the king's line: no capture, only moves
    for variant in ("russian", "international"):
        assert legal(variant, "W:WKa1:Bd4,e5") == {"a1-b2", "a1-c3"}


def test_flying_king_cannot_jump_own_piece() -> None:
    assert legal("russian", "W:WKa1,c3:Bd4") == {"c3-e5"}


# -- compulsory capture -----------------------------------------------------------


@pytest.mark.parametrize("variant", CLASSIC)
def test_capture_is_compulsory(variant: str) -> None:
    game = Game(variant, "W:Wc3,g3:Bd4,h8")
    assert paths(game) == {"c3-e5"}
    before = game.fen()
    with pytest.raises(IllegalMoveError):
        game.push(mv(variant, "g3", "h4"))
    assert game.fen() == before
    game.push(mv(variant, "c3", "e5", captured=("d4",)))
    assert piece(game, "d4") is None


@pytest.mark.parametrize("variant", ["traditional", "russian", "brazilian"])
def test_distant_king_capture_is_compulsory_too(variant: str) -> None:
    assert legal(variant, "W:Wg3,Ka1:Bd4,h8") == {"a1-e5", "a1-f6", "a1-g7"}


def test_distant_king_capture_is_compulsory_on_10x10() -> None:
    assert legal("international", "W:Wg3,Ka1:Bd4,j10") == {
        "a1-e5",
        "a1-f6",
        "a1-g7",
        "a1-h8",
        "a1-i9",
    }
    # with h8 taken as well the king must go on along the same line: two pieces
    assert legal("international", "W:Wg3,Ka1:Bd4,h8") == {"a1-e5-i9", "a1-e5-j10"}


# -- free choice vs majority ------------------------------------------------------


@pytest.mark.parametrize("variant", MAJORITY)
def test_majority_counts_kings_as_men(variant: str) -> None:
    # one king or two men: the two men must be taken (a king is worth no more)
    assert legal(variant, "W:We3:BKd4,f4,f6") == {"e3-g5-e7"}
    # one man or two kings: the count decides, not the kind
    assert legal(variant, "W:We3:Bd4,Kf4,Kf6") == {"e3-g5-e7"}
    # one king or one man: equal counts, free choice (no duty to take the king)
    assert legal(variant, "W:We3:BKd4,f4") == {"e3-c5", "e3-g5"}


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_free_choice_ignores_count(variant: str) -> None:
    assert legal(variant, "W:We3:BKd4,f4,f6") == {"e3-c5", "e3-g5-e7"}


@pytest.mark.parametrize("variant", MAJORITY)
def test_majority_has_no_king_priority(variant: str) -> None:
    # a man and a king can each take one piece: either may capture
    expected = {"a3-c5", "h2-f4", "h2-e5", "h2-d6", "h2-c7", "h2-b8"}
    if variant == "international":
        expected.add("h2-a9")
    assert legal(variant, "W:Wa3,Kh2:Bb4,g3") == expected


@pytest.mark.parametrize("variant", ["traditional", "brazilian"])
def test_majority_over_all_pieces(variant: str) -> None:
    # the man's single capture loses to the king's triple capture
    assert legal(variant, "W:Wh2,Ka1:Bb2,d2,g3") == {"a1-c3-e1-h4"}
    # two pieces by the man or by the king, in three ways: all allowed; a3:c5 is not
    assert legal(variant, "W:Wa3,Ka1:Bb2,b4,d2") == {"a1-c3-a5", "a1-c3-e1", "a3-c1-e3"}


def test_russian_free_choice_over_all_pieces() -> None:
    assert legal("russian", "W:Wh2,Ka1:Bb2,d2,g3") == {"a1-c3-e1-h4", "h2-f4"}
    assert legal("russian", "W:Wa3,Ka1:Bb2,b4,d2") == {"a1-c3-a5", "a1-c3-e1", "a3-c1-e3", "a3-c5"}


# -- removal at the end of the move (no piece jumped twice; captured pieces block) --


@pytest.mark.parametrize("variant", ["traditional", "russian", "brazilian", "international"])
def test_captured_piece_blocks_the_way_back(variant: str) -> None:
    # After d4:b2 (or a1) the king may not come back across c3 to take e5: c3 is still
    # on the board until the move ends. With immediate removal it would be d4:b2:f6 etc.
    extra = {"d4-i9", "d4-j10"} if variant == "international" else set()
    assert legal(variant, "W:WKd4:Bc3,e5") == {"d4-a1", "d4-b2", "d4-f6", "d4-g7", "d4-h8"} | extra


def test_captured_piece_blocks_a_landing_square() -> None:
    # e1:h4:e7:c5 has taken f2; from c5 the jump over e3 would land on f2, where the
    # captured piece still stands (immediate removal would allow c5:f2 and c5:g1).
    three = {"e1-h4-e7-a3", "e1-h4-e7-b4", "e1-h4-e7-c5"}
    fen = "W:WKe1:Bg5,e3,d6,f2"
    assert legal("russian", fen) == three | {"e1-g3-b8", "e1-g3-c7"}
    for variant in MAJORITY:
        assert legal(variant, fen) == three


def test_immediate_removal_switch_changes_the_moves(tmp_path: Path) -> None:
    """The same positions under the same rules with immediate removal: the difference
    above really comes from the removal switch."""
    immediate = variant_with("russian", tmp_path, removal='"immediate"', no_180="true")
    fen = "W:WKe1:Bg5,e3,d6,f2"
    assert legal(immediate, fen) == {
        "e1-g3-b8",
        "e1-g3-c7",
        "e1-h4-e7-c5-f2",
        "e1-h4-e7-c5-g1",
    }


@pytest.mark.parametrize("variant", CLASSIC)
def test_ring_of_four_no_piece_twice(variant: str) -> None:
    # The king goes round the ring c3 c5 e5 e3 and is back on d2: it may not jump c3 a
    # second time (the sequence would never end), and it may cross d2 again.
    game = Game(variant, "W:WKd2:Bc3,e3,c5,e5")
    ring = frozenset({"c3", "e3", "c5", "e5"})
    ends = {path[-1] for path, captured in move_set(game)}
    assert all(captured == ring for _, captured in move_set(game))
    if variant == "english":
        assert ends == {"d2"}
    else:
        assert ends == {"d2", "c1", "e1"}


# -- promotion during a capture: continue as king / at the end / stop -----------------


@pytest.mark.parametrize(
    ("variant", "expected", "kind"),
    [
        ("russian", {"b6-d8-g5", "b6-d8-h4"}, Kind.KING),  # crowned on d8, flies over f6
        ("traditional", {"b6-d8"}, Kind.KING),  # as a man it has nothing to jump: ends, crowned
        ("brazilian", {"b6-d8"}, Kind.KING),
        ("english", {"b6-d8"}, Kind.KING),
    ],
)
def test_promotion_then_distant_capture(variant: str, expected: set[str], kind: Kind) -> None:
    fen = "W:Wb6:Bc7,f6"
    assert legal(variant, fen) == expected
    for path in expected:
        game = play(variant, fen, path)
        assert piece(game, path[-2:]) == Piece(Color.WHITE, kind)


def test_promotion_at_the_end_of_a_capture_on_10x10() -> None:
    game = play("international", "W:Wb8:Bc9,g7", "b8-d10")
    assert piece(game, "d10") == WHITE_KING
    assert piece(game, "g7") is not None


@pytest.mark.parametrize("variant", CLASSIC)
def test_promotion_by_a_step(variant: str) -> None:
    fen, steps = (
        ("W:Wc9:Bh2", ("c9-b10", "c9-d10"))
        if variant == "international"
        else ("W:Wc7:Bh2", ("c7-b8", "c7-d8"))
    )
    assert legal(variant, fen) == set(steps)
    for path in steps:
        assert piece(play(variant, fen, path), path[-3:].lstrip("-")) == WHITE_KING
    # one row short: still a man; Black crowns on rank 1
    assert piece(play(variant, "W:Wc5:Bh2", "c5-d6"), "d6") == WHITE_MAN
    assert piece(play(variant, "B:Wh8:Bd2", "d2-c1"), "c1") == BLACK_KING


@pytest.mark.parametrize("variant", EIGHT)
def test_a_capture_ending_on_the_far_row_crowns(variant: str) -> None:
    game = play(variant, "W:Wd4:Be5,e7", "d4-f6-d8")
    assert piece(game, "d8") == WHITE_KING


def test_a_capture_ending_on_the_far_row_crowns_on_10x10() -> None:
    game = play("international", "W:Wf6:Bg7,g9", "f6-h8-f10")
    assert piece(game, "f10") == WHITE_KING


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("english", {"b6-d8-f6"}),  # "promotion ends the move" is about men only
        ("russian", {"b6-d8-f6", "b6-d8-g5", "b6-d8-h4"}),
        ("brazilian", {"b6-d8-f6", "b6-d8-g5", "b6-d8-h4"}),
    ],
)
def test_a_king_crossing_the_far_row_goes_on(variant: str, expected: set[str]) -> None:
    assert legal(variant, "W:WKb6:Bc7,e7") == expected


def test_russian_crowned_man_uses_the_landing_rule() -> None:
    # c7 crowns the man on d8; as a king it jumps e7 and must land on f6, from where
    # it goes on over g5 (landing on g7/h8 would stop the capture)
    assert legal("russian", "W:Wb6:Bc7,e7,g5") == {"b6-d8-f6-h4"}


# -- the Russian landing rule vs any landing ----------------------------------------


def test_landing_rule_mid_sequence() -> None:
    # a1 jumps b2; from c3 it can go on over d2, from e5 over d6; d4, f6, g7, h8 stop.
    fen = "W:WKa1:Bb2,d2,d6"
    expected = {"a1-c3-e1", "a1-e5-c7", "a1-e5-b8"}
    assert legal("russian", fen) == expected
    for variant in ("traditional", "brazilian"):
        assert legal(variant, fen) == expected
    assert legal("international", fen) == expected | {"a1-e5-a9"}


@pytest.mark.parametrize("variant", ["russian", "brazilian", "traditional"])
def test_king_lands_anywhere_after_its_last_jump(variant: str) -> None:
    assert legal(variant, "W:WKa1:Bc3") == {"a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"}


def test_landing_switch_changes_the_moves(tmp_path: Path) -> None:
    """Russian rules with any landing: T2 then allows stopping after one capture."""
    anywhere = variant_with("russian", tmp_path, king_landing='"any"')
    assert legal(anywhere, T2) == {
        "a1-d4-f2",
        "a1-d4-g1",
        "a1-e5",
        "a1-f6",
        "a1-g7",
        "a1-h8",
    }
    assert legal(anywhere, "W:WKa1:Bb2,d2,d6") == {
        "a1-c3-e1",
        "a1-e5-c7",
        "a1-e5-b8",
        "a1-d4",
        "a1-f6",
        "a1-g7",
        "a1-h8",
    }


# -- move identity (docs/rules/conventions.md#move-identity) ---------------------------------------

RING = "W:WKd2:Bc3,e3,c5,e5"
RING_CW = ("d2", "b4", "d6", "f4", "d2")
RING_CCW = ("d2", "f4", "d6", "b4", "d2")
RING_PIECES = ("c3", "e3", "c5", "e5")


@pytest.mark.parametrize("variant", CLASSIC)
def test_ring_both_ways_is_one_move(variant: str) -> None:
    game = Game(variant, RING)
    round_trips = [m for m in game.legal_moves() if m.end == sq(variant, "d2")]
    assert len(round_trips) == 1
    (listed,) = round_trips
    expected_count = 1 if variant == "english" else 3
    assert len(game.legal_moves()) == expected_count
    assert game.perft(1) == expected_count
    # either direction, given in full, names that one move and gives the same position
    results = []
    for path, order in ((RING_CW, ("c3", "c5", "e5", "e3")), (RING_CCW, ("e3", "e5", "c5", "c3"))):
        g = Game(variant, RING)
        played = g.push(mv(variant, *path, captured=order))
        assert played == listed
        results.append(game_state(g))
    assert results[0] == results[1]
    # Black has no piece left after any of them: nothing at depth 2
    # (docs/rules/conventions.md#move-identity)
    assert Game(variant, RING).perft(2) == 0


@pytest.mark.parametrize(
    ("variant", "fen", "moves"),
    [
        # same start and end, different captured pieces: two moves
        ("english", "W:We1:Bd2,f2,d4,f4", {("e1-c3-e5", "d2 d4"), ("e1-g3-e5", "f2 f4")}),
        (
            "russian",
            "W:WKe3:Bc5,f4,f6,g7",
            {
                ("e3-a7", "c5"),
                ("e3-b6", "c5"),
                ("e3-g5-e7-a3", "c5 f4 f6"),
                ("e3-g5-e7-b4", "c5 f4 f6"),
                ("e3-h6-f8-a3", "c5 f4 g7"),
                ("e3-h6-f8-b4", "c5 f4 g7"),
            },
        ),
        (
            "brazilian",
            "W:WKa5:Bb4,e3,d4,c7",
            {("a5-c3-e5-b8", "b4 c7 d4"), ("a5-d2-f4-b8", "b4 c7 e3")},
        ),
        (
            "international",
            "W:WKc1:Bb6,f6,f4,h8",
            {("c1-i7-f10-a5", "b6 f4 h8"), ("c1-g5-d8-a5", "b6 f4 f6")},
        ),
    ],
)
def test_same_ends_different_captures_are_two_moves(
    variant: str, fen: str, moves: set[tuple[str, str]]
) -> None:
    game = Game(variant, fen)
    assert {
        (path, " ".join(sorted(game.variant.board.name(c) for c in m.captured)))
        for m in game.legal_moves()
        for path in ["-".join(game.variant.board.name(p) for p in m.path)]
    } == moves


def test_men_ring_is_one_move() -> None:
    # Men capturing backward can go round d2 d4 f4 f2 both ways, back to e1: one move.
    for variant in ("traditional", "russian", "brazilian"):
        game = Game(variant, "W:We1:Bd2,f2,d4,f4")
        assert {(m[0][-1], frozenset(m[1])) for m in move_set(game)} == {
            ("e1", frozenset({"d2", "f2", "d4", "f4"}))
        }
        assert len(game.legal_moves()) == 1


def test_russian_crowning_cannot_split_a_move() -> None:
    """docs/rules/conventions.md#move-identity: two paths with the same start, end and captures that
    leave different positions (one crowned, one not) would be two moves. On an 8x8 board with short
    man jumps no such pair exists: the jump that crowns takes a piece on the row before the
    far row, and a man can take that piece only by landing on the far row too. So every
    pair of Russian legal moves with the same start and end differs in its captures;
    checked here on the positions above where a man may or may not crown."""
    for fen in (T1, "W:Wb6:Bc7,f6", "W:Wb6:Bc7,e7,g5", "W:Wc5:Bb6,d6,d4,f6,f4"):
        game = Game("russian", fen)
        seen: dict[tuple[int, int, frozenset[int]], object] = {}
        for move in game.legal_moves():
            key = (move.start, move.end, frozenset(move.captured))
            assert key not in seen, (fen, move)
            seen[key] = move
