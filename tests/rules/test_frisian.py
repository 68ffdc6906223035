"""Frisian draughts and Frysk! (docs/rules/national.md#frisian, #frysk;
docs/rules/switches.md#orthogonal-steps, #precedence ``value``, docs/rules/switches.md#king-limit;
docs/rules/conventions.md#draws): the hand-checked positions FR1-FR9 and FY1, one test each, the
published perft counts, and the rule model behind them (orthogonal steps on a board of dark squares,
the same-king move limit in the position, the key and the FEN, the lone-kings draw)."""

from __future__ import annotations

import json

import pytest

from shashki.rules import Game, find_variant
from shashki.rules.errors import BadFenError, VariantFileError
from shashki.rules.explain import why_not_move, why_not_select
from shashki.rules.game import game_state
from shashki.rules.geometry import Direction, geometry
from shashki.rules.movegen import capture_value
from shashki.rules.outcome import Termination
from shashki.rules.variant_file import variant_from_mapping

from ..conftest import shared_path

# docs/rules/national.md#frisian-positions FR9 (= perft.json "frisian", drop-duplicates)
PUBLISHED = [9, 81, 658, 3874, 21265, 102431]
QUICK = 5


def texts(variant: str, fen: str) -> set[str]:
    game = Game(variant, fen)
    return {game.move_text(m) for m in game.legal_moves()}


def play(game: Game, moves: str) -> Game:
    for text in moves.split():
        game.push_text(text)
    return game


# -- docs/rules/switches.md#orthogonal-steps: steps of two squares on a board of dark squares ---


def test_a_wide_board_steps_two_files_or_ranks_orthogonally_and_never_wraps() -> None:
    geo = geometry(10, 10, wide=True)
    e3, e5, g3 = (geo.parse_square(s) for s in ("e3", "e5", "g3"))
    assert geo.step[Direction.N][e3] == e5 and geo.step[Direction.E][e3] == g3
    assert [geo.name(p) for p in geo.ray[Direction.N][geo.parse_square("j2")]] == [
        "j4", "j6", "j8", "j10"
    ]  # fmt: skip
    # a step of two files off the right or left edge lands outside the board's mask
    for name, d in (("j2", Direction.E), ("i1", Direction.E), ("a1", Direction.W)):
        p = geo.parse_square(name)
        shift = geo.shift[d]
        assert shift is not None
        assert geo.step[d][p] == -1
        bit = (1 << p << shift) if shift > 0 else (1 << p >> -shift)
        assert not bit & geo.mask, name
    # the numbering is the board's, whatever the layout
    plain = geometry(10, 10)
    assert [geo.name(geo.by_number[n]) for n in range(1, 51)] == [
        plain.name(plain.by_number[n]) for n in range(1, 51)
    ]
    assert plain.shift[Direction.N] is None  # (no orthogonal steps on a plain layout)


def test_fr1_men_capture_straight_along_a_file_and_a_rank() -> None:
    # e3 x e5 -> e7 (vertical) and e3 x g3 -> i3 (horizontal), equal value, free choice
    assert texts("frisian", "W:W38:B28,39") == {"38x18", "38x40"}


def test_fr2_two_kings_are_worth_more_than_three_men() -> None:
    assert texts("frisian", "W:W47:B8,17,37,K39,K42") == {"47x40"}


def test_fr3_four_men_are_worth_more_than_two_kings() -> None:
    assert texts("frisian", "W:W48:B7,16,18,38,K34,K43") == {"48x26"}


def test_fr4_at_equal_value_the_king_must_capture() -> None:
    assert texts("frisian", "W:W43,K25:B15,33") == {"25x5"}


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ((0, 3), (5, 0)),  # three kings beat five men
        ((2, 1), (0, 2)),  # one king and two men beat two kings
        ((4, 0), (0, 2)),  # four men beat two kings
        ((3, 0), (1, 1)),  # three men beat a king and a man
        ((6, 0), (0, 3)),  # ... and six men beat three kings
    ],
)
def test_fr8_value_arithmetic(better: tuple[int, int], worse: tuple[int, int]) -> None:
    """Art. 11 as the capture search scores a sequence (men, kings taken); pydraughts'
    king worth 1.501 men fails the first case."""
    unit = find_variant("frisian").board.size + 1
    assert capture_value(*better, unit) > capture_value(*worse, unit)


def test_fr8_a_capture_of_more_value_wins_over_a_longer_one_on_the_board() -> None:
    # FR2 and FR3 in one: the search keeps the sequence of the higher Art. 11 value
    assert texts("frisian", "W:W47:B8,17,37,K39,K42") == {"47x40"}  # 2K over 3M
    assert texts("frisian", "W:W48:B7,16,18,38,K34,K43") == {"48x26"}  # 4M over 2K


# -- docs/rules/switches.md#king-limit: the same-king move limit -----------------------------------


def test_fr5_a_king_that_made_three_moves_in_a_row_may_not_make_a_fourth() -> None:
    # FR5's (docs/rules/national.md#frisian-positions) sequence "28-37 1-6 37-28 6-11 28-37 11-16"
    # cannot be played as written: after 6-11 the king on 28 must capture 28x6 (e5 over b8 to a9).
    # The same three king moves with the black man walking 1-7-12-18, out of the king's lines:
    game = play(Game("frisian", "W:W50,K28:B1"), "28-37 1-7 37-28 7-12 28-37 12-18")
    assert {game.move_text(m) for m in game.legal_moves()} == {"50-44", "50-45"}
    assert game.fen() == "W:WK37,50:B18:H0:F4:+0+337"
    # FR5's FEN itself
    assert texts("frisian", "W:W50,K37:B16:H0:F4:+0+337") == {"50-44", "50-45"}


def test_the_limit_counts_only_one_king_s_simple_moves_in_a_row() -> None:
    game = Game("frisian", "W:W50,K28,K26:B15:+0+228")
    play(game, "26-21")  # another king moves: the count starts again, for it
    assert game.fen().endswith("+0+121")
    play(game, "15-20")  # (i7: out of both kings' lines)
    moves = {game.move_text(m) for m in game.legal_moves()}
    assert {"28-37", "21-26"} <= moves


def test_the_limit_lifts_after_a_man_moves_and_does_not_bind_captures() -> None:
    game = Game("frisian", "W:W50,K37:B16:H0:F4:+0+337")
    play(game, "50-44 16-21")
    assert "37-28" in {game.move_text(m) for m in game.legal_moves()}
    # a restricted king may still capture: b4 (31) in the king's line
    assert texts("frisian", "W:W50,K37:B31:+0+337") == {"37x26"}


def test_with_only_kings_the_limit_does_not_apply() -> None:
    game = Game("frisian", "W:WK37:B16:+0+337")  # (a count without men is dropped)
    assert game.fen() == "W:WK37:B16"
    game = play(Game("frisian", "W:WK28,K46:B1"), "28-37 1-7 37-28 7-12 28-37 12-18")
    assert ":+" not in game.fen()  # nothing counted
    assert "37-28" in {game.move_text(m) for m in game.legal_moves()}


def test_the_count_is_part_of_the_position_the_key_and_the_fen() -> None:
    v = find_variant("frisian")
    free = Game(v, "W:W50,K37:B16")
    bound = Game(v, "W:W50,K37:B16:+0+337")
    assert game_state(free)[:4] == game_state(bound)[:4]
    assert v.generator.key(game_state(free)) != v.generator.key(game_state(bound))
    for fen in ("W:W50,K37:B16:+0+337", "B:WK37,50:BK16,1:+216+0", "W:WK37,50:BK16,1:+116+237"):
        game = Game(v, fen)
        assert game_state(Game(v, game.fen())) == game_state(game)
        assert game.fen().split(":")[-1] == fen.split(":")[-1]


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("W:W50,K37:B16:+0+437", "more than the limit"),
        ("W:W50,K37:B16:+0+336", "no king"),
        ("W:W50,K37:B16:+0+399", "99"),
        # a square off the board is refused whatever the count
        ("W:W50,K37:B16:+0+099", "'99' is not between 1 and 50"),
        ("W:W50,K37:B16:+099+0", "'99' is not between 1 and 50"),
        ("W:W50,K37:B16:+0+00", "'0' is not between 1 and 50"),
        pytest.param("W:W50,K37:B16:+0+0" + "9" * 5000, "is not between 1", id="huge"),
    ],
)
def test_a_bad_move_count_in_a_fen_is_refused_with_a_reason(fen: str, message: str) -> None:
    with pytest.raises(BadFenError, match=message):
        Game("frisian", fen)


def test_why_a_restricted_king_may_not_move() -> None:
    game = Game("frisian", "W:W50,K37:B16:+0+337")
    v = game.variant
    king = v.board.parse_square("37")
    expected = "In Frisian draughts this king has made three moves in a row"
    assert (why_not_select(game, king) or "").startswith(expected)
    assert (why_not_move(game, king, v.board.parse_square("28")) or "").startswith(expected)
    panel = v.generator.panel_lines(game_state(game), [], -1, game.legal_moves())
    assert panel == ["The king on 37 has made three moves in a row: it may only capture"]


def test_a_player_whose_only_moves_are_a_fourth_king_move_loses() -> None:
    # White: a king on 37 that made three moves and a blocked man on 46 (a1, b2 taken)
    game = Game("frisian", "W:W46,K37:B41,35:+0+337")
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES


# -- docs/rules/conventions.md#draws: draws --------------------------------------------------------


def test_fr6_one_king_each_is_drawn_at_once() -> None:
    outcome = Game("frisian", "W:WK46:BK1").outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.rule == "one king against one king, with no capture to come"


def test_fr7_not_drawn_when_every_move_can_be_captured() -> None:
    game = Game("frisian", "W:WK46:BK5")
    assert game.outcome() is None
    assert all(Game("frisian", game.fen()).legal_moves())


def test_one_king_each_with_a_capture_on_the_board_is_not_drawn() -> None:
    assert Game("frisian", "W:WK46:BK28").outcome() is None  # 46x? over 28 (e5)? no: a1-e5
    game = Game("frisian", "W:WK46:BK28")
    assert game.captures()


def _quiet_line(game: Game, plies: int) -> bool:
    """Play ``plies`` moves after none of which a capture is on the board (depth first)."""
    if plies == 0:
        return True
    assert game.outcome() is None
    for move in game.legal_moves():
        game.push(move)
        if not game.captures() and _quiet_line(game, plies - 1):
            return True
        game.pop()
    return False


def test_two_kings_against_one_must_win_within_seven_moves() -> None:
    game = Game("frisian", "W:WK1,K3:BK46")
    assert _quiet_line(game, 13)
    assert game.outcome() is None
    game.push(next(m for m in game.legal_moves() if not m.is_capture))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.rule == "two kings against one king: no win within 7 moves"


def test_frisian_has_the_three_draw_rules_of_the_file_in_order() -> None:
    draws = find_variant("frisian").draws
    assert [d.kind for d in draws] == ["count", "lone-kings", "repetition"]
    assert (draws[0].plies, draws[2].count) == (14, 3)


# -- perft ------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(1, QUICK + 1))
def test_fr9_perft_from_the_start(depth: int) -> None:
    assert Game("frisian").perft(depth) == PUBLISHED[depth - 1]


@pytest.mark.slow
def test_fr9_perft_deeper_as_published() -> None:
    records = json.loads(shared_path("vectors", "perft.json").read_text(encoding="utf-8"))
    (record,) = [
        r for r in records
        if r["variant"] == "frisian" and r["counting_convention"].startswith("drop")
    ]  # fmt: skip
    game = Game("frisian")
    for depth in (6, 7):
        assert game.perft(depth) == record["depth_counts"][str(depth)]


def test_fy1_frysk_starts_from_five_men_each() -> None:
    v = find_variant("frysk")
    assert v.start == "W:W46-50:B1-5" and v.gametype == "97,W,10,10,N2,0"
    assert v.rules == find_variant("frisian").rules and v.draws == find_variant("frisian").draws
    game = Game("frysk")
    assert {game.move_text(m) for m in game.legal_moves()} == set(
        "46-41 47-41 47-42 48-42 48-43 49-43 49-44 50-44 50-45".split()
    )
    assert [game.perft(d) for d in (1, 2)] == [9, 81]


# -- composition -----------------------------------------------------------------------------


def _mapping(**rules: object) -> dict[str, object]:
    return {
        "id": "user-game",
        "name": "User game",
        "board": {"width": 8, "height": 8, "start": "W:W21-32:B1-12", "notation": "numeric"},
        "rules": rules,
    }


def test_orthogonal_captures_compose_with_an_8x8_board() -> None:
    v = variant_from_mapping(_mapping(man_captures=["diagonal", "orthogonal"]))
    assert v.board.wide
    # c3 (22) takes c5 (b: 14) landing on c7 (6): straight up the file
    game = Game(v, "W:W22:B14")
    assert {game.move_text(m) for m in game.legal_moves()} == {"22x6"}


def test_the_king_move_limit_is_refused_where_the_generator_does_not_know_it() -> None:
    data = _mapping(king_move_limit=3)
    data["generator"] = "bashni"
    with pytest.raises(VariantFileError, match="king_move_limit"):
        variant_from_mapping(data)


def test_a_lone_kings_rule_takes_no_counter_or_material() -> None:
    data = _mapping()
    data["draws"] = [{"kind": "lone-kings", "counter": "material", "plies": 4}]
    with pytest.raises(VariantFileError, match="lone-kings"):
        variant_from_mapping(data)
