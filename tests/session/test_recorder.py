"""The recorder: a game saved as it goes, whatever drives it — its autosave after every
change (the tags kept only there too), a finished game kept in My games once and its
autosave gone, a match's PDN file given each game as it ends; the front end only says
where."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.records import read_file
from shashki.rules import Color, Game, Termination
from shashki.session import Computer, GameSession, OnFailure, Person, Recorder
from shashki.session.autosave import AutosaveWriter
from shashki.store import AutosaveSlot, scan_autosaves
from shashki.store.archive import archive_dir
from shashki.store.storage import GameLog

from .fakes import Dying, FakeExecutor, play


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    yield tmp_path / "data"


def recorded(session: GameSession) -> tuple[Recorder, AutosaveWriter, AutosaveSlot]:
    writer = AutosaveWriter()
    slot = AutosaveSlot.new()
    return Recorder(session, writer=writer, slot=slot), writer, slot


def test_every_change_is_autosaved_and_the_end_kept_once() -> None:
    session = GameSession(Game("russian"), (Person("Anna"), Person("Boris")))
    session.resume_tags["ShashkiOnline"] = "kept in the autosave only"
    recorder, writer, slot = recorded(session)
    play(session, "c3-d4")
    play(session, "f6-g5")
    assert writer.flush()
    [record] = list(read_file(slot.path))
    assert [str(m) for m in record.mainline_moves()] == [str(m) for m in session.game.move_stack]
    assert record.headers["White"] == "Anna" and record.headers["ShashkiOnline"]
    assert [g.key for g in scan_autosaves().games] == [slot.key]
    session.resign(Color.BLACK)
    assert writer.flush()
    assert not slot.path.exists()  # over: nothing to resume
    kept = list(archive_dir().glob("*.pdn"))
    assert [k.stem for k in kept] == [slot.key]
    [game] = list(read_file(kept[0]))
    assert game.headers["Result"] == "1-0" and "ShashkiOnline" not in game.headers
    session.undo()  # the resignation taken back, then the same end again: kept once more
    session.resign(Color.BLACK)
    assert writer.flush() and len(list(archive_dir().glob("*.pdn"))) == 1
    recorder.close()
    assert writer.flush() and not slot.held


def test_a_game_left_unfinished_stays_for_the_next_start() -> None:
    session = GameSession(Game("russian"))
    recorder, writer, slot = recorded(session)
    play(session, "c3-d4")
    recorder.close()
    play(session, "f6-g5")  # (after the game was left: not saved)
    assert writer.flush()
    [record] = list(read_file(slot.path))
    assert len(record.mainline_moves()) == 1
    [unfinished] = scan_autosaves().games
    assert unfinished.key == slot.key and unfinished.resumable


def test_a_game_abandoned_is_kept_as_that_and_not_to_resume() -> None:
    """The players leave the game for good: nobody won (``*``, Termination abandoned),
    My games keeps it, nothing is left to resume, and no move is played after."""
    session = GameSession(Game("russian"), (Person("Anna"), Person("Boris")))
    assert session.abandon_game() is False  # no move yet: nothing to abandon
    recorder, writer, slot = recorded(session)
    play(session, "c3-d4")
    assert writer.flush() and slot.path.exists()
    assert session.abandon_game() is True
    assert session.abandon_game() is False  # once
    assert session.outcome is None and not session.play(session.legal[0])
    assert writer.flush()
    assert not slot.path.exists() and not slot.held  # nothing to resume
    [kept] = list(archive_dir().glob("*.pdn"))
    [game] = list(read_file(kept))
    assert game.headers["Result"] == "*" and game.headers["Termination"] == "abandoned"
    assert game.headers["Ending"] == "abandoned unfinished" and game.headers["PlyCount"] == "1"
    recorder.close()  # (the app closes it as the screen goes: nothing more happens)
    assert writer.flush() and not slot.path.exists()


def test_tags_changed_are_saved() -> None:
    session = GameSession(Game("russian"))
    _recorder, writer, slot = recorded(session)
    play(session, "c3-d4")
    session.retag(headers={"Event": "a friendly game", "Site": "online 10.0.0.2:8765"})
    assert writer.flush()
    [record] = list(read_file(slot.path))
    assert record.headers["Site"] == "online 10.0.0.2:8765"


def test_a_match_log_gets_each_game_as_it_ends(tmp_path: Path) -> None:
    """``shashki match --pdn``: the recorder appends the record the session wrote — a
    forfeit and an adjudication say so in its own words."""
    log = GameLog(tmp_path / "match.pdn")
    dying = Dying("Dying")
    forfeit = GameSession(Game("russian"), (Person("Anna"), dying), on_failure=OnFailure.LOSE)
    Recorder(forfeit, log=log)
    executor = FakeExecutor()
    forfeit.start(executor)
    executor.run_work()
    executor.run_posted()
    play(forfeit, "c3-d4")
    executor.run_work()
    executor.run_posted()
    drawn = GameSession(
        Game("russian"), (Computer(1, seed=1, depth=1), Computer(1, seed=2, depth=1)), max_plies=4
    )
    Recorder(drawn, log=log)
    drawn.start()
    games = list(read_file(tmp_path / "match.pdn"))
    assert [g.headers["Result"] for g in games] == ["1-0", "1/2-1/2"]
    assert "Dying (Black) could not go on" in games[0].headers["Termination"]
    assert games[1].headers["Termination"] == "Draw: adjudicated at the limit of 4 plies."
    outcome = drawn.outcome
    assert outcome is not None and outcome.termination is Termination.ADJUDICATED


def test_a_log_that_cannot_be_written_is_said_once(tmp_path: Path) -> None:
    said: list[str] = []
    log = GameLog(tmp_path / "match.pdn")
    (tmp_path / "match.pdn").mkdir()  # (something took its place)
    session = GameSession(Game("russian"), (Computer(1, seed=1, depth=1), Computer(1, depth=1)))
    session.max_plies = 2
    recorder = Recorder(session, log=log, on_log_failure=said.append)
    session.start()
    assert len(said) == 1 and recorder.log is None
