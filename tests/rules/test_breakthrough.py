"""Breakthrough draughts and the modifier ``promotion-wins`` (docs/rules/switches.md#promotion-wins;
docs/rules/national.md#breakthrough): one test per sentence of docs/rules/switches.md#promotion-wins
and per hand-checked position of docs/rules/national.md#breakthrough."""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.engine.search import WIN, Search
from shashki.rules import BadFenError, Color, Game, Termination, find_variant, load_variant_file
from shashki.rules.endrules import EndRules
from shashki.rules.explain import goal_sentence
from shashki.rules.game import game_state


def texts(game: Game) -> list[str]:
    return sorted(game.move_text(m) for m in game.legal_moves())


def test_the_variant_is_international_with_the_modifier_and_no_draws() -> None:
    v = find_variant("breakthrough")
    assert v.modifiers == ("promotion-wins",)
    assert v.rules == find_variant("international").rules
    assert v.draws == ()  # docs/rules/national.md#breakthrough: none by rule (lidraughts)
    assert v.gametype == "96,W,10,10,N2,0"
    assert find_variant("bt") is v


def test_c8_after_a_move_the_mover_with_a_king_wins() -> None:
    # BT1: the only move 6-1 crowns the man, and White wins at once
    game = Game("breakthrough", "W:W6:B50")
    assert texts(game) == ["6-1"]
    game.push_text("6-1")
    out = game.outcome()
    assert out is not None and out.termination is Termination.BREAKTHROUGH_KING
    assert out.winner is Color.WHITE
    assert out.describe() == "White wins: White made the first king."
    assert game.legal_moves() == [] and game.captures() == []
    # the same for Black
    game = Game("breakthrough", "B:W1:B45")
    game.push_text("45-50")
    out = game.outcome()
    assert out is not None and out.termination is Termination.BREAKTHROUGH_KING
    assert out.winner is Color.BLACK


def test_the_first_king_comes_before_every_other_way_to_end() -> None:
    # Black, to move after White's crowning, is also blocked: the king decides
    # (docs/rules/conventions.md#end-order)
    game = Game("breakthrough", "W:W6,44:B50")
    game.push_text("6-1")
    out = game.outcome()
    assert out is not None and out.termination is Termination.BREAKTHROUGH_KING


def test_c8_a_fen_where_the_side_to_move_owns_a_king_is_invalid() -> None:
    with pytest.raises(BadFenError, match="owns a king"):
        Game("breakthrough", "W:WK6:B50")
    with pytest.raises(BadFenError):
        Game("breakthrough", "B:W6:BK45")
    # the other side's king: the game is over, won by its owner
    game = Game("breakthrough", "B:WK1:B50")
    out = game.outcome()
    assert out is not None and out.winner is Color.WHITE
    # the host reads both
    Game("international", "W:WK6:B50")


def test_bt2_a_compulsory_capture_prevents_the_promotion() -> None:
    game = Game("breakthrough", "W:W6,33:B28,50")
    assert texts(game) == ["33x22"]


def test_c8_a_man_passing_the_far_row_in_a_capture_is_not_crowned() -> None:
    # BT3: b8xd10xf8 passes d10 uncrowned; no win, the move is an ordinary capture
    game = Game("breakthrough", "W:W11:B7,8")
    assert texts(game) == ["11x13"]
    game.push_text("11x13")
    assert game_state(game)[2] == 0
    out = game.outcome()
    # Black has nothing left: White wins, but by the ordinary rule, not by a king
    assert out is not None and out.termination is Termination.NO_LEGAL_MOVES


def test_c8_on_a_continue_as_king_host_the_crowning_in_a_capture_wins(tmp_path: Path) -> None:
    path = tmp_path / "bt-russian.toml"
    path.write_text(
        'id = "bt-russian"\nname = "Breakthrough on Russian"\nhost = "russian"\n'
        'modifiers = ["promotion-wins"]\ndraws = []\n',
        encoding="utf-8",
    )
    v = load_variant_file(path)
    # f6xd8 crowns, and the new king goes on: d8xb6 or d8xa5
    game = Game(v, "W:Wf6:Be7,c7,h2")
    assert texts(game) == ["f6:a5", "f6:b6"]
    game.push(game.legal_moves()[0])
    out = game.outcome()
    assert out is not None and out.termination is Termination.BREAKTHROUGH_KING
    assert out.winner is Color.WHITE


def test_the_end_rules_of_the_search_see_the_win() -> None:
    game = Game("breakthrough", "W:W6:B50")
    game.push_text("6-1")
    ends = EndRules(game.variant)
    out = ends.outcome(game_state(game), [], 0, 0, [game_state(game)])
    assert out == game.outcome()


def test_the_search_sees_the_first_king_as_a_win_and_a_loss() -> None:
    game = Game("breakthrough", "W:W6:B45")
    result = Search("breakthrough").search(game, depth=4)
    assert game.move_text(result.move) == "6-1" and result.score == WIN - 1
    # Black to move cannot stop White's man; White's crowning is a loss for Black
    game = Game("breakthrough", "B:W7:B30")
    result = Search("breakthrough").search(game, depth=4)
    assert result.score < 0 and result.score <= 2 - WIN


def test_perft_is_internationals_until_a_king_can_be_made() -> None:
    # no man can reach the far row in the first plies: the counts are International's
    game = Game("breakthrough")
    assert [game.perft(d) for d in (1, 2, 3, 4)] == [9, 81, 658, 4265]


def test_perft_counts_nothing_below_the_first_king() -> None:
    # every move crowns a man (6-1, 7-1, 7-2): the game is over after each
    game = Game("breakthrough", "W:W6,7:B45")
    host = Game("international", "W:W6,7:B45")
    assert game.perft(1) == host.perft(1) == 3
    assert game.perft(2) == 0 < host.perft(2)


def test_the_goal_sentence_names_the_first_king() -> None:
    assert goal_sentence(Game("breakthrough")) == (
        "You win by making the first king, or when your opponent cannot move."
    )
