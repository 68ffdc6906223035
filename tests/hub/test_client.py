"""Hub engines as players: version 2 and Scan 2.0's version 1, and engines that crash,
hang, answer an illegal move or do not start (a fake engine, tests/hub/fake_engine.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from shashki.hub.client import EngineError, HubEngine
from shashki.rules import Game, find_variant

FAKE = str(Path(__file__).with_name("fake_engine.py"))


def fake(mode: str, **kwargs: float) -> HubEngine:
    return HubEngine([sys.executable, FAKE, mode], **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("mode", "version"), [("ok", 2), ("v1", 1)])
def test_an_engine_plays_legal_moves_in_either_dialect(mode: str, version: int) -> None:
    game = Game("international")
    with fake(mode) as engine:
        assert engine.version == version
        for _ in range(6):
            move = engine.best_move(game, seconds=0.1)
            assert move in game.legal_moves()
            game.push(move)
        assert engine.last.depth == "1"
    assert len(game.move_stack) == 6


def test_an_engine_that_crashes_is_reported_in_one_line() -> None:
    with fake("crash") as engine, pytest.raises(EngineError, match="stopped"):
        engine.best_move(Game("international"), seconds=0.1)


def test_an_engine_that_hangs_is_stopped_after_its_time() -> None:
    engine = fake("hang", move_grace=0.5).start()
    try:
        with pytest.raises(EngineError, match="did not answer"):
            engine.best_move(Game("international"), seconds=0.1)
        assert engine._proc is not None and engine._proc.poll() is not None  # killed
    finally:
        engine.close()


def test_an_illegal_answer_is_refused_by_shashki_s_rules() -> None:
    with fake("illegal") as engine, pytest.raises(EngineError, match="illegal move"):
        engine.best_move(Game("international"), seconds=0.1)


def test_an_engine_that_does_not_answer_hub_times_out() -> None:
    engine = fake("mute", start_timeout=0.5)
    with pytest.raises(EngineError, match="did not answer hub"):
        engine.start()
    engine.close()


def test_a_command_that_cannot_start_is_one_line() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        HubEngine("/nonexistent/engine hub").start()
    with pytest.raises(EngineError, match="empty"):
        HubEngine("   ")
    with pytest.raises(EngineError, match="No closing quotation"):
        HubEngine('engine "hub')


def test_an_engine_is_asked_only_for_the_variants_it_offers() -> None:
    with fake("russian") as engine:
        assert engine.plays(find_variant("russian"))
        assert not engine.plays(find_variant("international"))
        with pytest.raises(EngineError, match="does not play International"):
            engine.new_game(find_variant("international"))
        game = Game("russian")
        engine.new_game(game.variant)
        move = engine.best_move(game, seconds=0.1)
        assert move in game.legal_moves()
    with fake("ok") as engine:  # no variant parameter: International only
        assert engine.plays(find_variant("international"))
        assert not engine.plays(find_variant("russian"))


def test_an_engine_error_is_english_in_records_and_said_in_the_language() -> None:
    """Match records keep the English sentence; the app tells a player in theirs."""
    from shashki.i18n import set_language

    error = EngineError(
        "engine {name} does not play {variant}", name="dame", variant=find_variant("russian")
    )
    assert str(error) == "engine dame does not play Russian draughts"
    try:
        set_language("uk")
        assert error.said() == "рушій dame не грає в «Російські шашки»"
        assert str(error) == "engine dame does not play Russian draughts"
    finally:
        set_language("en")
    assert error.said() == str(error)
