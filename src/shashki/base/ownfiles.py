"""Writing files without being led astray: no links followed, nothing but our own files.

Everything shashki writes (autosaves and their locks, saved games, settings, the caches
of ending tables) goes through these few functions, so that a link planted in one of its
folders, a FIFO or device in a file's place, a file with other names (a hard link to
another file of the user) or another user's file or folder is refused with a reason in
words, and never written through:

- :func:`own_folder` makes a folder (and the folders above it) and checks that it is a
  real folder of this user, not a link to somewhere else;
- :func:`check_target` checks a file that a new one is to replace by a rename (missing,
  or a regular file of this user);
- :func:`open_in_place` opens a file to be written where it is (a lock file, a file
  added to): made anew exclusively, or an existing regular file of this user with no
  other name, never following a link;
- :func:`temporary_beside` makes the temporary file of an atomic save, and
  :func:`replace_file` writes a small file whole by one (the rename never follows a link).

Each raises :class:`UnsafeFile` (an OSError) for what it refuses.  The links above the
folder a caller names (``~/.local/share`` itself a link, say) are the user's own set-up
and are followed.

What shashki *acts on* from its cache (the compiled build's code, the ending tables) is
trusted only when no one else could have put it there or changed it:
:func:`trust_refusal` says why not — the file or folder another user's, a link, or
writable by others, or any folder on the way to it, from the root down, one that
another user (not the system) owns or that others may write.

Standard library only (and the messages' catalogs): the rules layer and everything above
may use it.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from ..i18n import _

__all__ = [
    "NOFOLLOW",
    "UnsafeFile",
    "check_target",
    "entry_refusal",
    "is_own_folder",
    "open_in_place",
    "own_folder",
    "refusal_in_place",
    "replace_file",
    "temporary_beside",
    "trust_refusal",
]

#: Flags that keep an open from following a link or blocking on a FIFO (where the
#: system has them).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class UnsafeFile(OSError):
    """shashki will not write a file or use a folder: a link, not a regular file or
    folder, another user's, a file with other names.  ``str()`` is the path and the
    reason in words; ``reason`` the reason alone."""

    def __init__(self, path: str | os.PathLike[str], reason: str, err: int = errno.EPERM) -> None:
        super().__init__(err or errno.EPERM, reason, os.fspath(path))
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.filename}: {self.reason}"


def _user() -> int | None:
    """This process's user id (None where the system has none: Windows)."""
    getuid = getattr(os, "getuid", None)
    return getuid() if getuid is not None else None


def _kind(mode: int) -> str:
    """What an entry that is not a regular file is, in words."""
    if stat.S_ISLNK(mode):
        return _("a link, not a file")
    if stat.S_ISDIR(mode):
        return _("a folder, not a file")
    if stat.S_ISFIFO(mode):
        return _("a pipe (FIFO), not a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device, not a file")
    return _("not a regular file")


def _refusal(info: os.stat_result, *, folder: bool, in_place: bool = False) -> str | None:
    """Why the entry ``info`` (from lstat or fstat) may not be used, or None."""
    mode = info.st_mode
    user = _user()
    if folder:
        if stat.S_ISLNK(mode):
            return _("a link, not a folder")
        if not stat.S_ISDIR(mode):
            return _("not a folder")
        if user is not None and info.st_uid != user:
            return _("another user's folder")
        return None
    if not stat.S_ISREG(mode):
        return _kind(mode)
    if user is not None and info.st_uid != user:
        return _("another user's file")
    if in_place and info.st_nlink > 1:
        return _("a file with other names (hard links)")
    return None


def refusal_in_place(info: os.stat_result) -> str | None:
    """Why the file of ``info`` (its lstat) may not be written where it is (what
    :func:`open_in_place` refuses), in words; None when it may."""
    return _refusal(info, folder=False, in_place=True)


def entry_refusal(info: os.stat_result, *, folder: bool) -> str | None:
    """Why the file or folder of ``info`` (its lstat) is not to be trusted with what
    shashki loads from it (code, a table it plays by): a link, not a regular file or
    folder, another user's, or one that others may write; None when it may be."""
    reason = _refusal(info, folder=folder)
    if reason is None and _user() is not None and info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        reason = _("others may write it")
    return reason


#: The most links followed on the way to a path (as the system does).
_MOST_LINKS = 40


def _ancestor_refusal(info: os.stat_result) -> str | None:
    """Why a folder on the way to a trusted path lets someone else change what is below
    it: it is another user's (the system's, root's, is trusted), or others may write it
    — unless it is sticky (like /tmp: anyone may add an entry, only its owner remove or
    rename it)."""
    if not stat.S_ISDIR(info.st_mode):
        return _("not a folder")
    user = _user()
    if user is None:  # (no owners to compare: Windows)
        return None
    if info.st_uid not in (user, 0):
        return _("another user's folder")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX:
        return _("others may write it")
    return None


def trust_refusal(path: str | os.PathLike[str], *, folder: bool = False) -> str | None:
    """Why what is at ``path`` (a file, or a ``folder``) may have been put there or
    changed by someone else, naming the entry at fault; None when no one else could.

    ``path`` itself must pass :func:`entry_refusal` (this user's, not a link, writable
    by no one else); every folder on the way to it, from the root down, must be this
    user's or the system's and writable by no one else (a sticky folder excepted).  A
    link on the way is followed, and the folders on the way to its target are looked at
    too (the folder that holds the link is already looked at: no one else can change
    it).  A path that is missing has a reason too."""
    text = os.fspath(path)
    if "\0" in text:
        return _("not a valid path")
    links = 0
    try:
        pending = list(Path(text if os.path.isabs(text) else os.path.join(os.getcwd(), text)).parts)
        here = Path(pending.pop(0))  # the root
        reason = _ancestor_refusal(os.stat(here))
        if reason is not None:
            return f"{here}: {reason}"
        while pending:
            part = pending.pop(0)
            if part in ("", "."):
                continue
            if part == "..":
                here = here.parent  # (``here`` has no link in it: its parent is real)
                continue
            entry = here / part
            info = os.lstat(entry)
            if all(rest in ("", ".") for rest in pending):  # the path itself
                reason = entry_refusal(info, folder=folder)
                return None if reason is None else f"{entry}: {reason}"
            if stat.S_ISLNK(info.st_mode):
                links += 1
                if links > _MOST_LINKS:
                    return f"{entry}: " + _("too many links")
                target = Path(os.readlink(entry))
                if target.is_absolute():
                    here = Path(target.anchor)
                    reason = _ancestor_refusal(os.stat(here))
                    if reason is not None:
                        return f"{here}: {reason}"
                    pending[:0] = list(target.parts[1:])
                else:
                    pending[:0] = list(target.parts)
                continue
            reason = _ancestor_refusal(info)
            if reason is not None:
                return f"{entry}: {reason}"
            here = entry
        # (a path that ends in ``..``, or the root itself)
        reason = entry_refusal(os.lstat(here), folder=folder)
        return None if reason is None else f"{here}: {reason}"
    except OSError as exc:
        return f"{exc.filename or text}: {exc.strerror or exc}"


def is_own_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a real folder of this user (not a link); False when missing."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return _refusal(info, folder=True) is None


def own_folder(path: str | os.PathLike[str], *, top: str | os.PathLike[str] | None = None) -> Path:
    """Make the folder ``path`` if it is missing (and the folders above it), and check
    that it, and each folder from ``top`` (default: ``path`` itself) down to it, is a
    real folder of this user.  Returns ``path``; raises UnsafeFile for a link, a file in
    the way or another user's folder, OSError when it cannot be made."""
    folder = Path(path)
    first = Path(top) if top is not None else folder
    if first != folder and first not in folder.parents:
        first = folder
    chain = [folder, *[p for p in folder.parents if p == first or first in p.parents]]
    try:
        first.parent.mkdir(parents=True, exist_ok=True)  # (the user's own set-up: followed)
    except FileExistsError:  # a file in the way
        raise NotADirectoryError(
            errno.ENOTDIR, os.strerror(errno.ENOTDIR), os.fspath(first.parent)
        ) from None
    for here in reversed(chain):  # from the top down
        try:
            os.mkdir(here)
        except FileExistsError:
            pass
        info = os.lstat(here)
        reason = _refusal(info, folder=True)
        if reason is not None:
            raise UnsafeFile(here, reason, errno.ELOOP if stat.S_ISLNK(info.st_mode) else 0)
    return folder


def check_target(path: str | os.PathLike[str]) -> os.stat_result | None:
    """Check a file that a new one is to take the place of by a rename: None when it
    is missing, else its lstat.  Raises UnsafeFile for a link (the rename would put the
    new file in the link's place, not where it points), a folder, a device or a FIFO,
    or another user's file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except ValueError as exc:  # a NUL in the name
        raise UnsafeFile(path, str(exc), errno.EINVAL) from None
    reason = _refusal(info, folder=False)
    if reason is not None:
        raise UnsafeFile(path, reason, errno.EISDIR if stat.S_ISDIR(info.st_mode) else 0)
    return info


def open_in_place(
    path: str | os.PathLike[str], *, create: bool = True, append: bool = False
) -> int:
    """A descriptor to write ``path`` where it is (read and write; ``append``: adding at
    the end only): a new file made exclusively (``create``), or the existing one when it
    is a regular file of this user with no other name.  A link is never followed, a
    FIFO or device never opened.  Raises UnsafeFile, FileNotFoundError (missing and not
    ``create``) or OSError."""
    access = (os.O_WRONLY | os.O_APPEND) if append else os.O_RDWR
    base = access | NOFOLLOW | _CLOEXEC
    while True:
        if create:
            try:
                return os.open(path, base | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                pass
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            if create:
                continue  # removed meanwhile: make it anew
            raise
        reason = _refusal(info, folder=False, in_place=True)
        if reason is not None:  # refused before opening: a device is never opened
            raise UnsafeFile(path, reason)
        try:
            fd = os.open(path, base | _NONBLOCK)
        except FileNotFoundError:
            if create:
                continue
            raise
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a link put there since the look
                raise UnsafeFile(path, _kind(stat.S_IFLNK), errno.ELOOP) from None
            raise
        try:
            opened = os.fstat(fd)
            reason = _refusal(opened, folder=False, in_place=True)
            if reason is None and not os.path.samestat(opened, info):
                reason = _("it was replaced while being opened")
            if reason is not None:
                raise UnsafeFile(path, reason)
            if _NONBLOCK:
                os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd


def temporary_beside(path: str | os.PathLike[str]) -> tuple[int, Path]:
    """A new temporary file in the folder of ``path`` (its descriptor, open for writing,
    and its path), named ``.NAME.PID.XXXXXXXX.tmp``: made exclusively, never through a
    link planted under its name; the process id tells a later start whether its writer
    still runs.  Raises OSError."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    # mkstemp opens O_CREAT | O_EXCL | O_NOFOLLOW, and tries another name if one is taken
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    return fd, Path(name)


def replace_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` as the whole of the file ``path``, atomically: a temporary file
    beside it, forced to disk, then renamed over it.  A link, a folder, a device or
    another user's file in its place is refused (UnsafeFile) and left as it is.  Raises
    OSError; on error the old file is intact and no temporary file is left."""
    check_target(path)
    fd, tmp = temporary_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        check_target(path)  # again: something may have been put there meanwhile
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
