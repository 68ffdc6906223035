"""Saving cannot lose a game: atomic replace, interrupted saves, no silent overwrite, and
what killed saves leave behind."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shashki.records import GameRecord, read_file, write_game
from shashki.rules import find_variant
from shashki.store import (
    SaveError,
    TargetExists,
    data_dir,
    free_name,
    games_dir,
    safe_stem,
    save_pdn,
    storage,
)
from shashki.store.storage import GameLog, process_alive, remove_stale_temporaries
from tests.records.randomgames import random_record
from tests.waiting import until_blocking

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
        from shashki.store import storage
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
        until_blocking(
            ready.exists,
            "the saving process writing",
            step=0.05,
            gone=lambda: None if proc.poll() is None else "the saving process ended early",
        )
        temporaries = [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]
        assert temporaries and temporaries[0].stat().st_size > 0  # really half-way
        # the writer's pid is in the name: while it lives its file is left alone
        assert f".games.pdn.{proc.pid}." in temporaries[0].name
        assert remove_stale_temporaries(tmp_path) == []
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert path.read_bytes() == before
    assert [g.ok for g in read_file(path)] == [True, True]
    # the next start clears what the killed save left, and only that
    assert remove_stale_temporaries(tmp_path) == temporaries
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pdn", "half-written"]


def test_save_into_a_missing_folder_says_why(tmp_path: Path) -> None:
    with pytest.raises(SaveError) as info:
        save_pdn(tmp_path / "nowhere" / "games.pdn", GameRecord("russian"))
    assert "cannot save" in str(info.value)


# -- never replacing a file silently ----------------------------------------------------


def test_save_without_replace_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    assert save_pdn(path, records(1), replace=False) == 1
    before = path.read_bytes()
    with pytest.raises(TargetExists, match="already exists") as info:
        save_pdn(path, records(3), replace=False)
    assert isinstance(info.value, SaveError) and info.value.errno == errno.EEXIST
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["games.pdn"]
    save_pdn(path, records(3))  # replace=True, the default: asked for
    assert len(list(read_file(path))) == 3


def test_save_without_replace_where_hard_links_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(src: str, dst: str) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(storage.os, "link", no_links)
    path = tmp_path / "games.pdn"
    save_pdn(path, records(1), replace=False)
    with pytest.raises(TargetExists):
        save_pdn(path, records(2), replace=False)
    assert len(list(read_file(path))) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["games.pdn"]


def test_save_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.pdn"
    folder.mkdir()
    fifo = tmp_path / "a-fifo.pdn"
    os.mkfifo(fifo)
    for target, why in ((folder, "a folder, not a file"), (fifo, r"a pipe \(FIFO\), not a file")):
        for replace in (True, False):
            with pytest.raises(SaveError, match=why):
                save_pdn(target, records(1), replace=replace)
    assert folder.is_dir() and not any(folder.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-fifo.pdn", "a-folder.pdn"]


def test_unusable_names_fail_in_one_line(tmp_path: Path) -> None:
    for name in ("nul\x00byte.pdn", "x" * 300 + ".pdn"):
        with pytest.raises(SaveError) as info:
            save_pdn(tmp_path / name, records(1))
        assert "\n" not in str(info.value) and str(info.value).startswith("cannot save")
    assert list(tmp_path.iterdir()) == []


def test_a_game_log_writes_each_game_as_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "match.pdn"
    path.write_text("an older file\n")
    games = records(3)
    log = GameLog(path)
    assert path.read_text() == "an older file\n"  # making the log touches nothing
    for done, game in enumerate(games, 1):
        log.add(game)
        back = list(read_file(path))  # complete after every game, not only at the end
        assert len(back) == done == log.count
        assert all(g.same_tree(o) for g, o in zip(back, games, strict=False))
    assert not [p for p in tmp_path.iterdir() if p.name != "match.pdn"]


def test_a_game_log_that_appends_keeps_what_the_file_held(tmp_path: Path) -> None:
    """A server's log (``append``): its first game is added after the games a run before
    wrote, not in their place; a file that is not there is made."""
    path = tmp_path / "dxp.pdn"
    games = records(3)
    GameLog(path, append=True).add(games[0])  # (made by the first game)
    log = GameLog(path, append=True)  # the server started again
    log.add(games[1])
    log.add(games[2])
    back = list(read_file(path))
    assert len(back) == 3 and all(g.same_tree(o) for g, o in zip(back, games, strict=True))


def test_games_ending_at_once_on_several_threads_are_each_kept_whole(tmp_path: Path) -> None:
    """The games of a server's connections end on their threads: each is added whole."""
    path = tmp_path / "dxp.pdn"
    log = GameLog(path, append=True)
    games = records(8)
    threads = [threading.Thread(target=log.add, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    back = list(read_file(path))
    assert len(back) == 8 == log.count and not any(g.errors for g in back)
    assert sorted(write_game(g) for g in back) == sorted(write_game(g) for g in games)


def test_a_game_log_that_appends_never_writes_through_a_link(tmp_path: Path) -> None:
    target = precious(tmp_path)
    link = tmp_path / "dxp.pdn"
    link.symlink_to(target)
    with pytest.raises(SaveError, match="a link, not a file"):
        GameLog(link, append=True).add(records(1)[0])
    assert target.read_text() == "the user's own words\n"


@pytest.mark.parametrize("where", ["missing/match.pdn", "."])
def test_a_game_log_that_cannot_be_written_is_refused_at_once(tmp_path: Path, where: str) -> None:
    with pytest.raises(SaveError, match="cannot save"):
        GameLog(tmp_path / where)
    assert list(tmp_path.iterdir()) == []


def test_a_game_log_whose_file_goes_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    log = GameLog(folder / "match.pdn")
    log.add(records(1)[0])
    (folder / "match.pdn").unlink()
    (folder / "match.pdn").mkdir()  # what was the file is a folder now
    with pytest.raises(SaveError, match="folder"):
        log.add(records(2)[1])
    assert log.count == 1


def precious(tmp_path: Path) -> Path:
    """A file of the user's that a planted link points at."""
    path = tmp_path / "precious.txt"
    path.write_text("the user's own words\n")
    return path


def test_a_save_never_writes_through_a_link(tmp_path: Path) -> None:
    """Issue 23: a save named like an existing link is refused in one line, asked to
    replace or not; the link and the file it points at stay as they were."""
    target = precious(tmp_path)
    link = tmp_path / "game.pdn"
    link.symlink_to(target)
    for replace in (True, False):
        with pytest.raises(SaveError, match="a link, not a file") as info:
            save_pdn(link, records(1), replace=replace)
        assert not isinstance(info.value, TargetExists)  # refused, not "replace it?"
        assert "\n" not in str(info.value)
    assert link.is_symlink() and target.read_text() == "the user's own words\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.pdn", "precious.txt"]
    with pytest.raises(SaveError, match="a link, not a file"):
        GameLog(link)


def test_a_game_log_never_adds_through_a_link_put_in_its_place(tmp_path: Path) -> None:
    """The second and later games are appended: only to the very file the first one made,
    never through a link (or to another file) put in its place meanwhile."""
    target = precious(tmp_path)
    path = tmp_path / "match.pdn"
    log = GameLog(path)
    log.add(records(1)[0])
    path.rename(tmp_path / "moved.pdn")  # (kept: its inode is not given to a new file)
    path.symlink_to(target)
    with pytest.raises(SaveError, match="a link, not a file"):
        log.add(records(2)[1])
    path.unlink()
    path.write_text("another file\n")
    with pytest.raises(SaveError, match="another file has taken its name"):
        log.add(records(2)[1])
    assert path.read_text() == "another file\n"
    assert target.read_text() == "the user's own words\n" and log.count == 1


@pytest.mark.skipif(
    not (hasattr(os, "geteuid") and os.geteuid() == 0),
    reason="only root can give a file to another user",
)
def test_a_save_never_replaces_another_users_file(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.pdn"
    theirs.write_text("theirs\n")
    os.chown(theirs, 4242, -1)
    with pytest.raises(SaveError, match="another user's file"):
        save_pdn(theirs, records(1))
    assert theirs.read_text() == "theirs\n"


def test_free_name(tmp_path: Path) -> None:
    assert (
        free_name(tmp_path, "russian-2026-12-01-1432") == tmp_path / "russian-2026-12-01-1432.pdn"
    )
    (tmp_path / "g.pdn").write_text("")
    assert free_name(tmp_path, "g") == tmp_path / "g-2.pdn"
    (tmp_path / "g-2.pdn").mkdir()
    (tmp_path / "g-3.pdn").symlink_to(tmp_path / "nowhere")  # a dangling link is taken too
    assert free_name(tmp_path, "g") == tmp_path / "g-4.pdn"


@given(st.text(max_size=200))
def test_safe_stem_is_always_a_plain_name(text: str) -> None:
    stem = safe_stem(text)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", stem) and len(stem) <= 40


def test_safe_stem_examples() -> None:
    assert safe_stem("russian") == "russian"
    assert safe_stem("../../x") == "x"
    assert safe_stem("Pool Checkers") == "pool-checkers"
    assert safe_stem("///") == "game"


# -- what a killed save leaves behind ----------------------------------------------------


def dead_pid() -> int:
    out = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


def test_process_alive() -> None:
    assert process_alive(os.getpid())
    assert not process_alive(dead_pid())
    assert not process_alive(0) and not process_alive(-5)


def test_remove_stale_temporaries(tmp_path: Path) -> None:
    now = time.time()
    dead = dead_pid()

    def temp(name: str, age: float = 0.0, data: bytes = b"half") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        os.utime(path, (now - age, now - age))
        return path

    gone = [
        temp(f".games.pdn.{dead}.abcdefgh.tmp"),  # its writer has ended
        temp(f".games.pdn.{os.getpid()}.abcdefg1.tmp", age=2 * 86400),  # pid reused since
        temp(".games.pdn.abcdefg2.tmp", age=2 * 3600),  # an old version's, long ago
        temp(f".with.dots.pdn.{dead}.a_c_e_g_.tmp"),
    ]
    kept = [
        temp(f".games.pdn.{os.getpid()}.abcdefg3.tmp"),  # a live writer, right now
        temp(".games.pdn.abcdefg4.tmp", age=60),  # an old version's, maybe still writing
        temp("games.pdn"),
        temp(f".games.pdn.{dead}.short.tmp"),  # not a name save_pdn makes
        temp(f"games.pdn.{dead}.abcdefgh.tmp"),  # not hidden: not ours
    ]
    folder = tmp_path / f".games.pdn.{dead}.abcdefgz.tmp"
    folder.mkdir()  # only files are removed
    assert sorted(remove_stale_temporaries(tmp_path, now=now)) == sorted(gone)
    assert all(p.exists() for p in [*kept, folder]) and not any(p.exists() for p in gone)
    assert remove_stale_temporaries(tmp_path / "missing") == []


def test_data_dir_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "shashki"
    assert games_dir() == tmp_path / "xdg" / "shashki" / "games"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "/home/someone")
    assert data_dir() == Path("/home/someone/.local/share/shashki")
