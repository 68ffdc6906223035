"""Writing shashki's files never follows a link, never writes a FIFO, a device, a file
with other names or another user's file or folder (issue 23: files must never act)."""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from shashki.base.ownfiles import (
    UnsafeFile,
    check_target,
    is_own_folder,
    open_in_place,
    own_folder,
    replace_file,
    temporary_beside,
    trust_refusal,
)

#: Running as root, a test can give a file to another user (to see it refused).
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
#: A user id that is not this process's.
OTHER_USER = 4242


def victim(tmp_path: Path) -> Path:
    """A file of the user's that a planted link points at."""
    path = tmp_path / "precious.txt"
    path.write_text("the user's own words\n")
    return path


def untouched(path: Path) -> bool:
    return path.read_text() == "the user's own words\n"


def in_time(action: Callable[[], object], seconds: float = 10.0) -> None:
    """Run ``action`` in a thread; fail if it has not ended in ``seconds`` (it blocked)."""
    done = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            action()
        except BaseException as exc:
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(seconds), "it blocked"
    if errors:
        raise errors[0]


# -- open_in_place: a lock file, a file added to -----------------------------------------


def test_a_link_is_never_opened_for_writing(tmp_path: Path) -> None:
    target = victim(tmp_path)
    (tmp_path / "x.lock").symlink_to(target)
    for append in (False, True):
        for create in (True, False):
            with pytest.raises(UnsafeFile, match="a link, not a file"):
                open_in_place(tmp_path / "x.lock", create=create, append=append)
    assert untouched(target)
    # a link to nowhere is not made into a file where it points
    (tmp_path / "dangling.lock").symlink_to(tmp_path / "made-through-the-link")
    with pytest.raises(UnsafeFile):
        open_in_place(tmp_path / "dangling.lock")
    assert not (tmp_path / "made-through-the-link").exists()


def test_a_hard_link_to_another_file_is_refused(tmp_path: Path) -> None:
    target = victim(tmp_path)
    os.link(target, tmp_path / "x.lock")
    with pytest.raises(UnsafeFile, match="other names"):
        open_in_place(tmp_path / "x.lock")
    assert untouched(target)


def test_a_fifo_a_folder_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.lock")
    (tmp_path / "folder.lock").mkdir()
    cases = [
        (tmp_path / "fifo.lock", r"a pipe \(FIFO\), not a file"),
        (tmp_path / "folder.lock", "a folder, not a file"),
        (Path("/dev/null"), "a device, not a file"),
    ]
    for path, why in cases:

        def attempt(path: Path = path, why: str = why) -> None:
            with pytest.raises(UnsafeFile, match=why):
                open_in_place(path)

        in_time(attempt)


def test_a_file_is_made_anew_or_its_own_opened(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    fd = open_in_place(path)
    os.write(fd, b"one")
    os.close(fd)
    fd = open_in_place(path, append=True)
    os.write(fd, b" two")
    os.close(fd)
    assert path.read_bytes() == b"one two"
    with pytest.raises(FileNotFoundError):
        open_in_place(tmp_path / "missing", create=False)


@pytest.mark.skipif(not ROOT, reason="only root can give a file to another user")
def test_another_users_file_or_folder_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.lock"
    theirs.write_text("not yours\n")
    os.chown(theirs, OTHER_USER, -1)
    with pytest.raises(UnsafeFile, match="another user's file"):
        open_in_place(theirs)
    with pytest.raises(UnsafeFile, match="another user's file"):
        check_target(theirs)
    folder = tmp_path / "their-folder"
    folder.mkdir()
    os.chown(folder, OTHER_USER, -1)
    assert not is_own_folder(folder)
    with pytest.raises(UnsafeFile, match="another user's folder"):
        own_folder(folder)
    assert theirs.read_text() == "not yours\n"


# -- folders -----------------------------------------------------------------------------


def test_a_folder_is_made_and_checked(tmp_path: Path) -> None:
    made = own_folder(tmp_path / "a" / "b" / "c", top=tmp_path / "a")
    assert made.is_dir() and is_own_folder(made) and is_own_folder(tmp_path / "a")
    assert own_folder(made) == made  # already there: fine


def test_a_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "autosave").symlink_to(elsewhere)
    with pytest.raises(UnsafeFile, match="a link, not a folder") as info:
        own_folder(tmp_path / "data" / "autosave")
    assert info.value.errno == errno.ELOOP and "\n" not in str(info.value)
    assert not is_own_folder(tmp_path / "data" / "autosave")
    # a link between the top and the folder is refused as well, and nothing is made in it
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "shashki").symlink_to(elsewhere)
    with pytest.raises(UnsafeFile, match="a link, not a folder"):
        own_folder(tmp_path / "top" / "shashki" / "endings", top=tmp_path / "top" / "shashki")
    assert list(elsewhere.iterdir()) == []
    # links above the top are the user's own set-up and are followed
    (tmp_path / "home").symlink_to(elsewhere)
    assert own_folder(tmp_path / "home" / "shashki", top=tmp_path / "home" / "shashki").is_dir()


def test_a_file_in_the_way_of_a_folder(tmp_path: Path) -> None:
    (tmp_path / "autosave").write_text("x")
    with pytest.raises(UnsafeFile, match="not a folder"):
        own_folder(tmp_path / "autosave")
    (tmp_path / "blocked").write_text("x")
    with pytest.raises(NotADirectoryError):
        own_folder(
            tmp_path / "blocked" / "shashki" / "autosave", top=tmp_path / "blocked" / "shashki"
        )


# -- replacing a file --------------------------------------------------------------------


def test_a_file_is_replaced_whole_never_through_a_link(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    replace_file(path, b"one")
    replace_file(path, b"two")
    assert path.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temporary left
    target = victim(tmp_path)
    link = tmp_path / "linked.json"
    link.symlink_to(target)
    with pytest.raises(UnsafeFile, match="a link, not a file"):
        replace_file(link, b"overwritten")
    assert untouched(target) and link.is_symlink()
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(UnsafeFile, match="a folder, not a file"):
        replace_file(tmp_path / "folder.json", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "folder.json",
        "linked.json",
        "precious.txt",
        "settings.json",
    ]


def test_a_temporary_file_is_never_made_through_a_link(tmp_path: Path) -> None:
    """The temporary file's name is new each time and made exclusively: a link planted
    under the name of a process's temporary file is never written through."""
    target = victim(tmp_path)
    pid = os.getpid()
    for n in range(50):  # links where a guessable name would have been
        (tmp_path / f".settings.json.{pid}.{n:08d}.tmp").symlink_to(target)
    (tmp_path / f".settings.json.{pid}.tmp").symlink_to(target)
    fd, tmp = temporary_beside(tmp_path / "settings.json")
    os.close(fd)
    assert not tmp.is_symlink() and tmp.stat().st_size == 0
    replace_file(tmp_path / "settings.json", b"{}")
    assert untouched(target)


def test_what_shashki_acts_on_is_trusted_only_when_no_one_else_could_change_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file itself and every folder on the way to it from the root: a folder others
    may write (not sticky), a file others may write, a link as the file, a link on the
    way to a folder others may write: each refused, naming the entry; a sticky folder
    and links through trusted folders are fine."""
    top = tmp_path / "cache"
    (top / "shashki").mkdir(parents=True)
    table = top / "shashki" / "table.bin"
    table.write_bytes(b"x")
    table.chmod(0o600)
    assert trust_refusal(table) is None
    assert trust_refusal(top / "shashki", folder=True) is None
    assert trust_refusal(top / "shashki" / "." / "table.bin") is None
    assert trust_refusal(top / "shashki" / "x" / ".." / "table.bin") is not None  # (no x)
    (top / "shashki" / "x").mkdir()
    assert trust_refusal(top / "shashki" / "x" / ".." / "table.bin") is None
    assert trust_refusal(top / "shashki" / "x" / "..", folder=True) is None
    monkeypatch.chdir(top)
    assert trust_refusal("shashki/table.bin") is None  # (relative to where it runs)
    # the folder above writable by others: refused, and named
    (top / "shashki").chmod(0o777)
    assert trust_refusal(table) == f"{top / 'shashki'}: others may write it"
    (top / "shashki").chmod(0o1777)  # (sticky: only an entry's owner removes it)
    assert trust_refusal(table) is None
    (top / "shashki").chmod(0o755)
    table.chmod(0o666)
    assert trust_refusal(table) == f"{table}: others may write it"
    table.chmod(0o600)
    # a link as the file: refused; a link on the way: followed, its target's way checked
    (top / "link.bin").symlink_to(table)
    assert "a link" in str(trust_refusal(top / "link.bin"))
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "shashki").mkdir()
    (shared / "shashki" / "table.bin").write_bytes(b"x")
    (shared / "shashki" / "table.bin").chmod(0o600)
    (top / "elsewhere").symlink_to(shared / "shashki")
    assert trust_refusal(top / "elsewhere" / "table.bin") is None
    (top / "relative").symlink_to(Path("..") / "shared" / "shashki")
    assert trust_refusal(top / "relative" / "table.bin") is None
    shared.chmod(0o777)
    assert trust_refusal(top / "elsewhere" / "table.bin") == f"{shared}: others may write it"
    assert trust_refusal(top / "relative" / "table.bin") == f"{shared}: others may write it"
    shared.chmod(0o755)
    # a loop of links, a missing file, a NUL: refused, never raised
    (top / "loop").symlink_to(top / "loop")
    assert trust_refusal(top / "loop" / "table.bin") is not None
    assert trust_refusal(top / "missing.bin") is not None
    assert trust_refusal(f"{top}/a\0b") is not None


@pytest.mark.skipif(not ROOT, reason="only root can give a folder away")
def test_a_folder_of_another_user_on_the_way_is_not_trusted(tmp_path: Path) -> None:
    folder = tmp_path / "theirs" / "mine"
    folder.mkdir(parents=True)
    (folder / "f").write_bytes(b"x")
    (folder / "f").chmod(0o600)
    assert trust_refusal(folder / "f") is None
    os.chown(tmp_path / "theirs", OTHER_USER, OTHER_USER)
    assert trust_refusal(folder / "f") == f"{tmp_path / 'theirs'}: another user's folder"
