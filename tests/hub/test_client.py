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
    with pytest.raises(EngineError, match="cannot start engine"):  # (settings.json may)
        HubEngine("engine\x00 hub").start()  # hold a NUL, which Popen refuses
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


# -- hostile engines (issue 23) -----------------------------------------------------------

#: Runs one engine of fake_engine.py against HubEngine, and prints how much the largest
#: memory of the process grew meanwhile (kilobytes) and what the engine was told.
MEMORY_PROBE = """
import resource, sys
from shashki.hub.client import EngineError, HubEngine
from shashki.rules import Game
engine = HubEngine([sys.executable, sys.argv[1], sys.argv[2]])
game = Game("international")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    engine.start()
    engine.best_move(game, seconds=0.1)
    said = "no error"
except EngineError as exc:
    said = str(exc)
engine.close()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
print(said)
"""


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("flood", "wrote more than 50000 lines without answering go think"),
        ("endless", "wrote a line longer than 64 KB (answering go think)"),
        ("paramflood", "wrote more than 50000 lines without answering hub"),
    ],
)
def test_an_engine_that_floods_is_stopped_and_memory_stays_bounded(mode: str, said: str) -> None:
    """An endless line, endless info lines or endless param lines: before, the lines were
    all kept until the deadline (0.2 to 1 GB in a match); now a line is at most 64 KB, a
    few dozen wait to be read, and the engine is stopped at the flood."""
    import subprocess

    probe = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, FAKE, mode],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    grown, message = probe.stdout.splitlines()
    assert message.endswith(said), probe.stdout
    assert int(grown) < 40_000, f"{mode}: the memory grew by {grown} KB"


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("error", "answered go think with an error: no net file: cannot search"),
        ("v1error", "answered go with an error: bad position"),
    ],
)
def test_an_error_line_is_reported_with_its_message(mode: str, said: str) -> None:
    """Not skipped until the time is up ("did not answer go think in 5 s"): said at once,
    its message as plain text (the escape sequence in it removed)."""
    engine = fake(mode, move_grace=30).start()
    try:
        with pytest.raises(EngineError) as info:
            engine.best_move(Game("international"), seconds=0.1)
        assert str(info.value) == f"engine {engine.name} {said}"
        assert not engine.running
    finally:
        engine.close()


def test_the_last_lines_of_standard_error_are_shown_when_an_engine_fails() -> None:
    engine = fake("stderr").start()
    try:
        with pytest.raises(EngineError, match="stopped") as info:
            engine.best_move(Game("international"), seconds=0.1)
    finally:
        engine.close()
    error = info.value
    assert error.stderr[-1] == "fatal: the net file is missing"  # (its colour removed)
    assert len(error.stderr) == 3 and error.stderr[0] == "noise line 299"
    assert error.stderr[1].startswith("xxx") and len(error.stderr[1]) == 160  # cut
    assert str(error).endswith(
        "; its standard error ends: noise line 299 | " + error.stderr[1] + " | fatal: the net "
        "file is missing"
    )
    assert len(engine._stderr) == 20  # of the 302 lines, the last 20 kept
    assert all(len(raw) <= 400 for raw in engine._stderr)


def test_an_engine_writing_endlessly_on_standard_error_still_plays() -> None:
    """Its standard error is read as it comes (a pipe nobody read would stop it)."""
    game = Game("international")
    with fake("stderrflood") as engine:
        for _ in range(4):
            move = engine.best_move(game, seconds=0.1)
            assert move is not None
            game.push(move)
        assert engine.stderr[-1].startswith("debug: noise")


def test_an_engine_s_name_is_plain_text() -> None:
    """An ``id name=`` with escape sequences (a window title, a screen clear, a colour),
    a right-to-left override, C1 controls, a carriage return, a bell, DEL."""
    import unicodedata

    with fake("escape") as engine:
        assert engine.name == "fake-esca pe"
        assert all(unicodedata.category(c)[0] not in "CZ" or c == " " for c in engine.name)
        assert engine.best_move(Game("international"), seconds=0.1) is not None


def test_a_closed_engine_can_be_started_again() -> None:
    game = Game("international")
    engine = fake("ok")
    for _ in range(3):
        engine.start()
        move = engine.best_move(game, seconds=0.1)
        assert move is not None
        game.push(move)
        engine.close()
        assert not engine.running
    engine = fake("crash").start()  # and after a failure
    with pytest.raises(EngineError, match="stopped"):
        engine.best_move(game, seconds=0.1)
    engine.start()
    assert engine.running and engine.name == "fake-crash" and engine.variant is None
    engine.close()


def test_a_clock_is_given_in_the_specification_s_words() -> None:
    """``level time=… inc=…`` (Scan 3 and dame ignore ``remaining-time=``, and search as
    long as they like); an engine that refuses other words plays on a clock."""
    game = Game("international")
    with fake("strict") as engine:
        for _ in range(2):
            move = engine.best_move(game, remaining=30.0, increment=1.0)
            assert move is not None
            game.push(move)


def test_shashki_hub_reads_the_clock_its_client_sends() -> None:
    engine = HubEngine([sys.executable, "-m", "shashki", "hub"])
    with engine:
        game = Game("international")
        move = engine.best_move(game, remaining=1.0, increment=0.0)
        assert move in game.legal_moves()
