"""Saving cannot lose a game: atomic replace, interrupted saves, the autosave."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from shashki.records import (
    GameRecord,
    SaveError,
    autosave,
    autosave_path,
    clear_autosave,
    data_dir,
    load_autosave,
    read_file,
    save_pdn,
    storage,
)
from shashki.rules import Game, find_variant

from .randomgames import random_record

ROOT = Path(__file__).resolve().parents[2]


def records(n: int = 3) -> list[GameRecord]:
    return [random_record(find_variant("russian"), seed) for seed in range(n)]


def test_save_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    games = records()
    assert save_pdn(path, games) == 3
    back = list(read_file(path))
    assert [g.same_tree(o) for g, o in zip(back, games, strict=True)] == [True] * 3
    assert not [p for p in tmp_path.iterdir() if p.name != "games.pdn"]


def test_save_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text("old")
    path.chmod(0o640)
    save_pdn(path, GameRecord("russian"))
    assert path.stat().st_mode & 0o777 == 0o640


def test_a_failing_save_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.pdn"
    save_pdn(path, records(2))
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.os, "fsync", broken_fsync)
    with pytest.raises(SaveError) as info:
        save_pdn(path, records(5))
    assert "No space left on device" in str(info.value) and str(path) in str(info.value)
    assert isinstance(info.value, OSError)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["games.pdn"]


def test_a_game_that_cannot_be_written_fails_the_save_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    save_pdn(path, records(1))
    before = path.read_bytes()
    bad = GameRecord("russian")
    bad.add_variation(records(1)[0].next().next().move)  # not legal from the start
    with pytest.raises(SaveError):
        save_pdn(path, [*records(2), bad])
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["games.pdn"]


def test_interrupted_in_the_middle_of_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.pdn"
    save_pdn(path, records(2))
    before = path.read_bytes()
    written: list[int] = []
    real = storage.write_games

    def write_then_interrupt(handle, games, columns=80):  # type: ignore[no-untyped-def]
        real(handle, games[:1], columns)
        written.append(handle.tell())
        raise KeyboardInterrupt

    monkeypatch.setattr(storage, "write_games", write_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        save_pdn(path, records(3))
    assert written and written[0] > 0
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["games.pdn"]


def test_a_process_killed_midway_leaves_the_previous_file(tmp_path: Path) -> None:
    """A real kill (SIGKILL: no clean-up runs) while the new file is half written."""
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this platform")
    path = tmp_path / "games.pdn"
    save_pdn(path, records(2))
    before = path.read_bytes()
    ready = tmp_path / "half-written"
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from pathlib import Path
        from shashki.records import storage
        from tests.records.randomgames import random_record
        from shashki.rules import find_variant

        real = storage.write_games

        def slow(handle, games, columns=80):
            real(handle, games[:1], columns)
            handle.flush()
            Path({str(ready)!r}).write_text("yes")
            time.sleep(60)

        storage.write_games = slow
        games = [random_record(find_variant("english"), s) for s in range(3)]
        storage.save_pdn({str(path)!r}, games)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert proc.poll() is None, "the saving process ended early"
            assert time.monotonic() < deadline, "the saving process never started writing"
            time.sleep(0.05)
        temporaries = [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]
        assert temporaries and temporaries[0].stat().st_size > 0  # really half-way
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert path.read_bytes() == before
    assert [g.ok for g in read_file(path)] == [True, True]


def test_save_into_a_missing_folder_says_why(tmp_path: Path) -> None:
    with pytest.raises(SaveError) as info:
        save_pdn(tmp_path / "nowhere" / "games.pdn", GameRecord("russian"))
    assert "cannot save" in str(info.value)


# -- autosave ---------------------------------------------------------------------------


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def test_data_dir_follows_xdg(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert data_dir() == data_home / "shashki"
    assert autosave_path().parent == data_home / "shashki"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "/home/someone")
    assert data_dir() == Path("/home/someone/.local/share/shashki")


def test_autosave_after_every_move_and_resume(data_home: Path) -> None:
    assert load_autosave() is None
    game = Game("english")
    for _ in range(5):
        game.push(game.legal_moves()[-1])
        autosave(game, {"White": "me", "Black": "the computer"})
    record = load_autosave()
    assert record is not None and record.ok
    assert record.variant.id == "english" and record.header("White") == "me"
    assert len(record.mainline_moves()) == 5
    assert record.end().replay().fen() == game.fen()
    clear_autosave()
    assert load_autosave() is None
    clear_autosave()  # nothing to clear: no error


def test_autosave_of_a_record_with_variations(data_home: Path) -> None:
    record = random_record(find_variant("wolf-sheep"), 2)
    autosave(record)
    back = load_autosave()
    assert back is not None and back.same_tree(record) and back.fen == record.fen


def test_autosave_failure_keeps_the_previous_autosave(
    data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = GameRecord.from_game(Game("russian"))
    autosave(first)
    before = autosave_path().read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(storage.os, "replace", broken_replace)
    with pytest.raises(SaveError, match="Permission denied"):
        autosave(records(1)[0])
    assert autosave_path().read_bytes() == before
    assert sorted(os.listdir(autosave_path().parent)) == ["autosave.pdn"]
