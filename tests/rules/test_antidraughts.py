"""Antidraughts (docs/rules/national.md#antidraughts): the giveaway modifier on International
draughts, with lidraughts' draw set; its hand-checked positions, one test each."""

from __future__ import annotations

from dataclasses import replace

from shashki.rules import Color, Game, Termination, find_variant
from shashki.rules.switches import NoMoves


def test_the_variant_is_international_with_giveaway_and_threefold_repetition_only() -> None:
    v = find_variant("antidraughts")
    host = find_variant("international")
    assert v.modifiers == ("giveaway",)
    # the player with no legal move wins; everything else is International's
    assert v.rules == replace(host.rules, no_moves=NoMoves.WINS)
    assert [(d.kind, d.count, d.counter) for d in v.draws] == [("repetition", 3, None)]
    assert v.gametype == "98,W,10,10,N2,0"
    # the giveaway variant on the traditional host keeps its own draws
    assert len(find_variant("giveaway").draws) == 2


def test_ad1_the_player_without_a_legal_move_wins() -> None:
    game = Game("antidraughts", "W:W46:B37,41")
    assert game.legal_moves() == []
    out = game.outcome()
    assert out is not None and out.termination is Termination.NO_LEGAL_MOVES
    assert out.winner is Color.WHITE
    # in International White would lose
    out = Game("international", "W:W46:B37,41").outcome()
    assert out is not None and out.winner is Color.BLACK


def test_ad2_perft_is_internationals() -> None:
    game = Game("antidraughts")
    host = Game("international")
    assert [game.perft(d) for d in (1, 2, 3, 4)] == [9, 81, 658, 4265]
    assert game.perft(5) == host.perft(5) == 27117


def test_no_move_count_draw_applies() -> None:
    # kings only, long past International's 25-move rule: the game goes on
    game = Game("antidraughts", "W:WK46:BK5:H60:F60")
    assert game.outcome() is None
