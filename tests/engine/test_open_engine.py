"""The engine on the library's surface (issue 46): ``shashki.engine.open_engine`` starts
any Hub engine from its command, ``analyse`` asks it about a position within a
``Limit``, and the block's end stops it; what it gets wrong is an EngineError."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from shashki.engine import Analysis, EngineError, HubEngine, Limit, open_engine
from shashki.engine.hub.client import _line
from shashki.rules import Game

FAKE = str(Path(__file__).resolve().parents[1] / "hub" / "fake_engine.py")
SHASHKI_HUB = [sys.executable, "-m", "shashki", "hub"]


def test_shashki_s_own_hub_engine_analyses_a_position(tmp_path: Path) -> None:
    game = Game("russian")
    game.push_text("c3-d4")
    log = tmp_path / "engine.log"
    with open_engine(SHASHKI_HUB, log=log) as engine:
        opened: HubEngine = engine
        assert engine.running and engine.name == "shashki"
        result = engine.analyse(game, Limit(depth=3))
    assert not opened.running  # stopped at the end of the block
    assert isinstance(result, Analysis) and result.move in game.legal_moves()
    assert result.depth == 3 and abs(float(result.score)) < 100  # (men, as version 2 writes)
    assert result.pv and result.pv[0] == result.move
    walk = game.copy()
    for move in result.pv:  # the line, legal move after move
        walk.push(move)
    assert result.info["depth"] == "3"
    traffic = log.read_text(encoding="utf-8")
    assert " > hub" in traffic and " < wait" in traffic and " > quit" in traffic


@pytest.mark.parametrize("mode", ["ok", "v1"])
def test_a_hub_engine_of_either_version_is_asked_within_a_limit(mode: str) -> None:
    game = Game("international")
    with open_engine([sys.executable, FAKE, mode]) as engine:
        by_time = engine.analyse(game, Limit(seconds=0.2))
        by_depth = engine.analyse(game, Limit(depth=2))
        on_clock = engine.analyse(game, Limit(left=30.0, increment=1.0))
    for result in (by_time, by_depth, on_clock):
        assert result.move == game.legal_moves()[0] and result.pv == [result.move]
        assert result.depth == 1  # (what the fake engine's info line says)


def test_an_engine_that_fails_is_an_engine_error_and_is_stopped() -> None:
    with open_engine([sys.executable, FAKE, "crash"]) as engine:
        with pytest.raises(EngineError, match="stopped"):
            engine.analyse(Game("international"), Limit(seconds=0.1))
        assert not engine.running
    with pytest.raises(EngineError, match="answered an illegal move"):
        with open_engine([sys.executable, FAKE, "illegal"]) as engine:
            engine.analyse(Game("international"))


def test_an_engine_that_cannot_start_or_does_not_answer_is_an_engine_error(
    tmp_path: Path,
) -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        with open_engine([str(tmp_path / "no-such-engine")]):
            pass
    with pytest.raises(EngineError, match="did not answer hub"):
        with open_engine([sys.executable, FAKE, "mute"], start_timeout=0.5):
            pass


def test_a_number_of_nodes_alone_is_refused_before_the_engine_is_asked() -> None:
    with open_engine([sys.executable, FAKE, "ok"]) as engine:
        with pytest.raises(EngineError, match="number of nodes"):
            engine.analyse(Game("international"), Limit(nodes=1000))
        assert engine.running  # nothing was sent: the engine goes on
        assert engine.analyse(Game("international"), Limit(nodes=1000, depth=1)).move


def test_an_engine_s_line_is_kept_as_far_as_it_is_legal() -> None:
    game = Game("international")
    assert [str(m) for m in _line(game, "32-28 19-23 28x19 99-98 14x23")] == [
        "32-28",
        "19-23",
        "28x19",
    ]
    assert _line(game, "") == [] and _line(game, "junk") == []
