"""One autosave per unfinished game: own files, locks between processes, damaged files
moved aside, the old single autosave adopted."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from shashki.records import GameRecord, read_file, write_game
from shashki.rules import Game
from shashki.store import (
    AutosaveSlot,
    DamagedSave,
    GameLocked,
    SaveError,
    delete_unfinished,
    scan_autosaves,
    storage,
)
from shashki.store import autosaves as autosaves_module
from shashki.store import locks as locks_module
from shashki.store.autosaves import UnknownVariant, check_autosave


def game(variant: str = "russian", plies: int = 4) -> Game:
    g = Game(variant)
    for _ in range(plies):
        g.push(g.legal_moves()[-1])
    return g


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder (``$XDG_DATA_HOME/shashki``) of a private home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "shashki"


def folder_of(base: Path) -> Path:
    return base / "autosave"


# -- one file per game ------------------------------------------------------------------


def test_each_game_has_its_own_file(base: Path) -> None:
    first, second = AutosaveSlot.new(), AutosaveSlot.new()
    assert first.path != second.path and first.path.parent == folder_of(base)
    assert not first.path.parent.exists()  # nothing is written before the first save
    first.save(game("russian", 3), {"White": "Ann", "Black": "Bob"})
    second.save(game("turkish", 2))
    found = scan_autosaves()
    assert sorted(g.variant_name for g in found.games) == ["Russian draughts", "Turkish draughts"]
    # each file is one whole game, with its moves counted in PlyCount
    [record] = list(read_file(first.path))
    assert record.ok and record.header("PlyCount") == "3" and record.header("White") == "Ann"
    assert len(record.mainline_moves()) == 3
    first.release()
    second.release()


def test_a_slot_holds_its_game_until_released(base: Path) -> None:
    slot = AutosaveSlot.new()
    slot.save(game())
    assert slot.held and slot.lock_path.is_file()
    # this process cannot take it twice, nor delete it while it is open
    with pytest.raises(GameLocked, match=rf"pid {os.getpid()}"):
        AutosaveSlot.claim(slot.key)
    with pytest.raises(GameLocked):
        delete_unfinished(slot.key)
    [listed] = scan_autosaves().games
    assert not listed.resumable and listed.owner is not None and listed.owner.pid == os.getpid()
    slot.release()
    assert not slot.lock_path.exists() and slot.path.is_file()  # left: the game stays
    again, record = AutosaveSlot.claim(slot.key)
    assert record.end().replay().fen() == game().fen()
    again.release()


def test_remove_deletes_the_game_but_keeps_the_hold(base: Path) -> None:
    slot = AutosaveSlot.new()
    slot.save(game())
    slot.remove()  # the game ended
    assert not slot.path.exists() and slot.held
    slot.save(game(plies=5))  # undone after the end: unfinished again
    assert slot.path.is_file()
    slot.release()
    untouched = AutosaveSlot.new()
    untouched.remove()  # never saved: nothing to do, no lock taken
    assert not untouched.held


def test_delete_unfinished(base: Path) -> None:
    slot = AutosaveSlot.new()
    slot.save(game())
    slot.release()
    delete_unfinished(slot.key)
    assert scan_autosaves().games == []
    assert sorted(os.listdir(folder_of(base))) == []
    with pytest.raises(FileNotFoundError):
        delete_unfinished(slot.key)
    with pytest.raises(FileNotFoundError):
        delete_unfinished("../escape")


def test_a_failing_autosave_keeps_the_previous_one(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slot = AutosaveSlot.new()
    slot.save(game(plies=2))
    before = slot.path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.os, "replace", broken_replace)
    with pytest.raises(SaveError, match="No space left on device"):
        slot.save(game(plies=6))
    assert slot.path.read_bytes() == before
    assert sorted(p.name for p in folder_of(base).iterdir()) == sorted(
        [slot.path.name, slot.lock_path.name]
    )
    slot.release()


def test_an_autosave_folder_that_cannot_be_made_says_why(base: Path) -> None:
    base.parent.mkdir(parents=True)
    base.write_text("a file where the data folder should be")
    with pytest.raises(SaveError, match="cannot save"):
        AutosaveSlot.new().save(game())
    found = scan_autosaves()
    assert found.games == [] and found.problems


# -- several processes ------------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from shashki.store.autosaves import AutosaveSlot
    from shashki.rules import Game

    folder, key, how = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    if how == "new":
        slot = AutosaveSlot(key, folder)
        g = Game("english")
        g.push(g.legal_moves()[0])
        slot.save(g, {"White": "elsewhere"})
    elif how == "lock-only":
        slot = AutosaveSlot(key, folder)
        slot.hold()
    else:
        try:
            slot, record = AutosaveSlot.claim(key, folder)
        except OSError as exc:
            print(f"refused: {exc}", flush=True)
            sys.exit(0)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "resign":
            slot.remove()
            slot.release()
            print("done", flush=True)
        elif line.strip() == "leave":
            slot.release()
            print("done", flush=True)
    """
)


class Holder:
    """Another shashki process with one game open."""

    def __init__(self, folder: Path, key: str, how: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(folder), key, how],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        #: "ready", or why the game could not be taken
        self.answer = self.proc.stdout.readline().strip()
        assert self.answer, "the other process failed"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def tell(self, what: str) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(what + "\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "done"

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


@pytest.fixture
def holders() -> Iterator[list[Holder]]:
    made: list[Holder] = []
    yield made
    for h in made:
        h.close()


def test_a_game_open_in_another_process_is_shown_not_resumed(
    base: Path, holders: list[Holder]
) -> None:
    mine = AutosaveSlot.new()
    mine.save(game())
    mine.release()
    other = Holder(folder_of(base), "their-game", "new")
    holders.append(other)
    found = {g.key: g for g in scan_autosaves().games}
    theirs = found["their-game"]
    assert not theirs.resumable and theirs.owner is not None and theirs.owner.pid == other.pid
    assert theirs.status == f"open in another shashki (pid {other.pid})"
    assert theirs.variant_name == "English draughts" and theirs.players[0] == "elsewhere"
    assert found[mine.key].resumable
    with pytest.raises(GameLocked, match=f"pid {other.pid}"):
        AutosaveSlot.claim("their-game", folder_of(base))
    with pytest.raises(GameLocked):
        delete_unfinished("their-game")
    # nor can the other process take mine while I have it open
    slot, _ = AutosaveSlot.claim(mine.key)
    second = Holder(folder_of(base), mine.key, "claim")
    holders.append(second)
    assert second.answer == f"refused: open in another shashki (pid {os.getpid()})"
    slot.release()


def test_a_stale_lock_is_taken_over(base: Path, holders: list[Holder]) -> None:
    mine = AutosaveSlot.new()
    mine.save(game())
    mine.release()
    other = Holder(folder_of(base), mine.key, "claim")
    holders.append(other)
    with pytest.raises(GameLocked):
        AutosaveSlot.claim(mine.key)
    other.kill()  # no clean-up runs: the lock file stays, with a dead pid in it
    assert mine.lock_path.is_file() and str(other.pid) in mine.lock_path.read_text()
    [listed] = scan_autosaves().games
    assert listed.resumable
    slot, _ = AutosaveSlot.claim(mine.key)
    assert str(os.getpid()) in slot.lock_path.read_text()
    slot.release()


def test_resigning_in_one_process_deletes_only_its_own_game(
    base: Path, holders: list[Holder]
) -> None:
    mine = AutosaveSlot.new()
    mine.save(game("russian", 6))
    mine_bytes = mine.path.read_bytes()
    other = Holder(folder_of(base), "their-game", "new")
    holders.append(other)
    other.tell("resign")
    assert not (folder_of(base) / "their-game.pdn").exists()
    assert mine.path.read_bytes() == mine_bytes and mine.held
    mine.release()
    assert [g.key for g in scan_autosaves().games] == [mine.key]


def test_lock_files_left_without_a_game(base: Path, holders: list[Holder]) -> None:
    folder = folder_of(base)
    live = Holder(folder, "just-started", "lock-only")  # a new game before its first move
    dead = Holder(folder, "crashed", "lock-only")
    holders += [live, dead]
    dead.kill()
    found = scan_autosaves()
    assert found.games == []
    assert (folder / "just-started.lock").is_file()  # its holder lives
    assert not (folder / "crashed.lock").exists()  # stale: removed


def test_locks_by_pid_where_the_system_has_no_advisory_locks(
    base: Path, monkeypatch: pytest.MonkeyPatch, holders: list[Holder]
) -> None:
    monkeypatch.setattr(locks_module, "fcntl", None)
    slot = AutosaveSlot.new()
    slot.save(game())
    slot.release()
    # a lock file naming a live process (another one) holds; a dead one does not
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        slot.lock_path.write_text(f'{{"pid": {sleeper.pid}, "host": "{socket.gethostname()}"}}')
        with pytest.raises(GameLocked, match=f"pid {sleeper.pid}"):
            AutosaveSlot.claim(slot.key)
    finally:
        sleeper.kill()
        sleeper.wait()
    slot.lock_path.write_text(f'{{"pid": {os.getpid()}}}')  # this process, alive
    with pytest.raises(GameLocked):
        AutosaveSlot.claim(slot.key)
    slot.lock_path.write_text("")  # made this very moment, its pid not yet written
    with pytest.raises(GameLocked, match="pid unknown"):
        AutosaveSlot.claim(slot.key)
    slot.lock_path.write_text(f'{{"pid": {sleeper.pid}}}')  # dead now
    again, _ = AutosaveSlot.claim(slot.key)
    assert str(os.getpid()) in again.lock_path.read_text()
    again.release()
    assert not again.lock_path.exists()


# -- damaged files ----------------------------------------------------------------------


def autosave_bytes(plies: int = 6) -> bytes:
    g = game("russian", plies)
    record = GameRecord.from_game(g, {"White": "a", "Black": "b", "PlyCount": str(plies)})
    return write_game(record).encode("utf-8")


def test_a_whole_autosave_passes_the_check() -> None:
    record = check_autosave(autosave_bytes())
    assert len(record.mainline_moves()) == 6
    check_autosave(autosave_bytes().rstrip())  # only the last line end gone


def test_every_truncation_of_an_autosave_is_damaged() -> None:
    data = autosave_bytes()
    whole = len(data.rstrip())
    for cut in range(whole):
        with pytest.raises(DamagedSave):
            check_autosave(data[:cut])


def test_a_truncated_old_autosave_without_plycount_is_damaged() -> None:
    g = game("russian", 6)
    data = write_game(GameRecord.from_game(g)).encode("utf-8")
    assert b"PlyCount" not in data
    check_autosave(data)
    cut = data.rstrip()[:-1]  # "... d6:d2 " without the "*": moves complete, game not
    with pytest.raises(DamagedSave, match="ends before"):
        check_autosave(cut)


def test_an_autosave_of_a_variant_not_installed_is_not_damaged() -> None:
    with pytest.raises(UnknownVariant):
        check_autosave(b'[GameType "77"]\n1. c3-d4 *\n')


def put(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


def test_damaged_files_are_moved_aside_never_offered(base: Path) -> None:
    folder = folder_of(base)
    whole = autosave_bytes()
    put(folder, "good.pdn", whole)
    put(folder, "empty.pdn", b"")
    put(folder, "truncated.pdn", whole[: len(whole) // 2])
    put(folder, "noise.pdn", bytes(range(256)) * 4)
    put(folder, "nothing-but-tags.pdn", b'[Event "x"]\n[GameType "25"]\n\n*\n')
    (folder / "a-folder.pdn").mkdir()
    os.mkfifo(folder / "a-fifo.pdn")  # reading it must not block
    found = scan_autosaves()
    assert [g.key for g in found.games] == ["good"]
    damaged = folder / "damaged"
    moved = {d.path.name: d for d in found.damaged}
    assert set(moved) == {
        "empty.pdn",
        "truncated.pdn",
        "noise.pdn",
        "nothing-but-tags.pdn",
        "a-folder.pdn",
        "a-fifo.pdn",
    }
    assert all(d.moved_to is not None and d.moved_to.parent == damaged for d in moved.values())
    # nothing is deleted: every file is there, byte for byte
    assert (damaged / "empty.pdn").read_bytes() == b""
    assert (damaged / "truncated.pdn").read_bytes() == whole[: len(whole) // 2]
    assert (damaged / "a-folder.pdn").is_dir()
    assert moved["a-fifo.pdn"].reason.startswith("a pipe")
    report = found.damage_report()
    assert report is not None and "\n" not in report and "6 damaged autosaves" in report
    # the same names damaged again are kept beside the first ones
    put(folder, "empty.pdn", b"")
    again = scan_autosaves()
    assert [d.moved_to.name for d in again.damaged if d.moved_to] == ["empty-2.pdn"]
    assert again.damage_report() == (
        f"A damaged autosave (the file is empty) was moved to {damaged / 'empty-2.pdn'}."
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=2000))
def test_random_bytes_are_never_offered_as_a_game(base: Path, data: bytes) -> None:
    folder = folder_of(base)
    path = put(folder, "random.pdn", data)
    found = scan_autosaves()
    assert found.games == []
    [d] = found.damaged
    assert d.moved_to is not None and d.moved_to.read_bytes() == data
    assert not path.exists()
    d.moved_to.unlink()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(min_value=0), junk=st.binary(max_size=40))
@example(cut=48332, junk=b"\x01]")  # the GameType tag cut: listed as of an unknown variant
def test_a_damaged_tail_is_never_offered(base: Path, cut: int, junk: bytes) -> None:
    """A whole autosave cut anywhere and followed by junk (a disk that lost the end)."""
    whole = autosave_bytes()
    data = whole[: cut % len(whole)] + junk
    path = put(folder_of(base), "cut.pdn", data)
    found = scan_autosaves()
    if found.games:  # only when the junk happens to complete the game as written
        [g] = found.games
        assert g.record is not None and g.record.header("PlyCount") == "6"
        path.unlink()
    else:
        [d] = found.damaged
        assert d.moved_to is not None and d.moved_to.read_bytes() == data
        d.moved_to.unlink()


def test_a_finished_or_unknown_game_is_not_offered_and_not_moved(base: Path) -> None:
    folder = folder_of(base)
    finished = Game("russian", "W:Wc3:Bd4")
    finished.push(finished.legal_moves()[0])  # c3:e5 takes Black's last man
    assert finished.outcome() is not None
    put(folder, "over.pdn", write_game(GameRecord.from_game(finished)).encode())
    put(folder, "elsewhere.pdn", b'[GameType "77"]\n[White "x"]\n1. c3-d4 *\n')
    found = scan_autosaves()
    assert found.damaged == []
    [unknown] = found.games
    assert unknown.key == "elsewhere" and not unknown.resumable
    assert "not a variant shashki has now" in unknown.status
    assert (folder / "over.pdn").is_file() and (folder / "elsewhere.pdn").is_file()


@pytest.mark.parametrize(
    "data",
    [
        b"[GameType \x01]",  # a tail cut in the GameType tag
        b'[GameType "\x01"]\n1. c3-d4 *\n',
        b'[GameType "25x"]\n1. c3-d4 *\n',
        b'[GameType "77"]\n1. c3-d4',  # no end
        b'[Variant "\x1b[2J"]\n1. c3-d4 *\n',
        b'[Variant ""]\n1. c3-d4 *\n',
    ],
)
def test_an_unknown_variant_is_only_kept_when_the_file_is_whole(base: Path, data: bytes) -> None:
    """A file of a variant shashki does not have now is listed (and kept in its place for
    when the variant comes back) only when it is whole in every way that can be told
    without the variant; a GameType cut into garbage is damaged and moved aside."""
    folder = folder_of(base)
    put(folder, "cut.pdn", data)
    found = scan_autosaves()
    assert found.games == []
    [d] = found.damaged
    assert d.moved_to is not None and d.moved_to.read_bytes() == data
    with pytest.raises(DamagedSave):
        check_autosave(data)
    for whole in (b'[GameType "77"]\n1. c3-d4 *\n', b'[Variant "gone"]\n1. c3-d4 *\n'):
        with pytest.raises(UnknownVariant):
            check_autosave(whole)


def test_claiming_a_game_damaged_since_the_list_moves_it_aside(base: Path) -> None:
    slot = AutosaveSlot.new()
    slot.save(game())
    slot.release()
    slot.path.write_bytes(slot.path.read_bytes()[:-30])
    with pytest.raises(DamagedSave, match="moved to"):
        AutosaveSlot.claim(slot.key)
    assert not slot.path.exists() and not slot.lock_path.exists()
    assert (folder_of(base) / "damaged" / slot.path.name).is_file()


# -- the old single autosave, and what killed saves left --------------------------------


def test_the_old_single_autosave_is_adopted(base: Path) -> None:
    old = game("turkish", 3)
    put(base, "autosave.pdn", write_game(GameRecord.from_game(old, {"White": "me"})).encode())
    found = scan_autosaves()
    [adopted] = found.games
    assert adopted.variant_name == "Turkish draughts" and adopted.players[0] == "me"
    assert adopted.moves == 2 and adopted.resumable
    assert not (base / "autosave.pdn").exists()
    assert adopted.path.parent == folder_of(base)
    slot, record = AutosaveSlot.claim(adopted.key)
    assert record.end().replay().fen() == old.fen()
    slot.release()


def test_a_damaged_old_autosave_is_moved_aside_too(base: Path) -> None:
    put(base, "autosave.pdn", b"\x00\xffrandom")
    found = scan_autosaves()
    assert found.games == []
    [d] = found.damaged
    assert d.moved_to is not None and d.moved_to.read_bytes() == b"\x00\xffrandom"


def dead_pid() -> int:
    out = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


def test_scan_removes_temporaries_of_dead_writers_only(base: Path) -> None:
    folder = folder_of(base)
    dead = put(folder, f".x.pdn.{dead_pid()}.abcd1234.tmp", b"half")
    live = put(folder, f".y.pdn.{os.getpid()}.abcd1234.tmp", b"half")
    in_games = put(base / "games", f".mine.pdn.{dead_pid()}.zzzz9999.tmp", b"half")
    in_data = put(base, f".autosave.pdn.{dead_pid()}.qqqq_qqq.tmp", b"half")
    found = scan_autosaves()
    assert sorted(found.removed) == sorted([dead, in_games, in_data])
    assert live.exists() and not dead.exists()


def test_the_lock_names_the_time_and_host(base: Path) -> None:
    slot = AutosaveSlot.new()
    before = time.time()
    slot.save(game())
    owner = locks_module.read_owner(slot.lock_path)
    assert owner.pid == os.getpid() and owner.host == socket.gethostname()
    assert owner.started is not None and owner.started >= before - 1
    slot.release()


def test_a_lock_held_for_a_moment_is_waited_for(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another shashki starting up holds each game a moment while it looks at it."""
    slot = AutosaveSlot.new()
    slot.save(game())
    slot.release()
    glance = AutosaveSlot(slot.key)
    glance.hold()
    waits: list[float] = []

    def wait(seconds: float) -> None:  # the other process is done looking meanwhile
        waits.append(seconds)
        glance.release()

    monkeypatch.setattr(autosaves_module.time, "sleep", wait)
    again, _ = AutosaveSlot.claim(slot.key)
    assert len(waits) == 1 and again.held
    again.release()


# -- links and foreign entries: never followed (issue 23) --------------------------------


def precious(tmp_path: Path) -> Path:
    """A file of the user's that a planted link points at."""
    path = tmp_path / "precious.txt"
    path.write_text("the user's own words\n")
    return path


def test_a_lock_file_that_is_a_link_is_never_written_through(base: Path, tmp_path: Path) -> None:
    """The autosave lock was opened O_RDWR|O_CREAT, following links: a KEY.lock link to
    any file of the user's truncated and overwrote it.  Now the save is refused in one
    line, and the scan moves the link aside; the game is kept and can be resumed."""
    target = precious(tmp_path)
    slot = AutosaveSlot.new()
    slot.save(game())
    slot.release()
    slot.lock_path.symlink_to(target)
    again = AutosaveSlot(slot.key)
    with pytest.raises(SaveError, match="a link, not a file") as info:
        again.save(game(plies=5))
    assert "\n" not in str(info.value)
    with pytest.raises(OSError, match="a link, not a file"):
        AutosaveSlot.claim(slot.key)
    assert target.read_text() == "the user's own words\n"
    found = scan_autosaves()
    [d] = found.damaged
    assert d.path == slot.lock_path and d.moved_to is not None and d.moved_to.is_symlink()
    assert [g.key for g in found.resumable] == [slot.key]
    taken, record = AutosaveSlot.claim(slot.key)
    assert len(record.mainline_moves()) == 4
    taken.release()
    assert target.read_text() == "the user's own words\n"


def test_a_lock_file_hard_linked_to_another_file_is_set_aside(base: Path, tmp_path: Path) -> None:
    target = precious(tmp_path)
    folder = folder_of(base)
    folder.mkdir(parents=True)
    os.link(target, folder / "stale.lock")  # (no game of that name)
    found = scan_autosaves()
    [d] = found.damaged
    assert d.moved_to is not None and "other names" in d.reason
    assert target.read_text() == "the user's own words\n"


def test_an_autosave_that_is_a_link_is_set_aside_not_read(base: Path, tmp_path: Path) -> None:
    """A KEY.pdn link (to a whole game elsewhere, even) is not one of shashki's games:
    moved to damaged/ as the link it is, never read through, never written through."""
    elsewhere = tmp_path / "elsewhere.pdn"
    elsewhere.write_bytes(autosave_bytes())
    folder = folder_of(base)
    folder.mkdir(parents=True)
    (folder / "linked.pdn").symlink_to(elsewhere)
    found = scan_autosaves()
    assert found.games == []
    [d] = found.damaged
    assert d.reason == "a link, not a file"
    assert d.moved_to is not None and d.moved_to.is_symlink()
    assert elsewhere.read_bytes() == autosave_bytes()


def test_an_autosave_folder_that_is_a_link_is_never_used(base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "theirs.pdn").write_bytes(b"junk")  # would be moved aside if looked at
    base.mkdir(parents=True)
    folder_of(base).symlink_to(elsewhere)
    found = scan_autosaves()
    [problem] = found.problems
    assert "Autosave is off" in problem and "a link, not a folder" in problem
    assert found.games == [] and found.damaged == []
    with pytest.raises(SaveError, match="a link, not a folder"):
        AutosaveSlot.new().save(game())
    assert [p.name for p in elsewhere.iterdir()] == ["theirs.pdn"]


def test_a_data_folder_that_is_a_link_is_never_used(base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    base.parent.mkdir(parents=True)
    base.symlink_to(elsewhere)
    found = scan_autosaves()
    assert found.problems and "a link, not a folder" in found.problems[0]
    with pytest.raises(SaveError, match="a link, not a folder"):
        AutosaveSlot.new().save(game())
    assert list(elsewhere.iterdir()) == []


def test_a_damaged_folder_that_is_a_link_is_not_moved_into(base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = folder_of(base)
    put(folder, "broken.pdn", b"junk")
    (folder / "damaged").symlink_to(elsewhere)
    found = scan_autosaves()
    [d] = found.damaged
    assert d.moved_to is None and (folder / "broken.pdn").read_bytes() == b"junk"
    report = found.damage_report()
    assert report is not None and "could not be moved aside" in report
    assert list(elsewhere.iterdir()) == []


def test_stale_temporaries_are_not_removed_through_a_linked_folder(
    base: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    stale = elsewhere / ".x.pdn.999999999.abcdefgh.tmp"
    stale.write_text("not shashki's")
    base.mkdir(parents=True)
    (base / "games").symlink_to(elsewhere)
    assert storage.remove_stale_temporaries(base / "games") == []
    scan_autosaves()
    assert stale.exists()


@pytest.mark.skipif(
    not (hasattr(os, "geteuid") and os.geteuid() == 0),
    reason="only root can give a file to another user",
)
def test_another_users_autosave_is_set_aside(base: Path) -> None:
    folder = folder_of(base)
    path = put(folder, "theirs.pdn", autosave_bytes())
    os.chown(path, 4242, -1)
    found = scan_autosaves()
    assert found.games == []
    [d] = found.damaged
    assert d.reason == "another user's file" and d.moved_to is not None
