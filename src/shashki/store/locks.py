"""Locks on files, safe with several shashki processes at once: :class:`FileLock`.

A process holds a lock file (an autosave's ``KEY.lock``) with an advisory lock that the
system drops by itself when the process ends, however it ends, with the process id, host
and time written in the file for people to read (:class:`LockOwner`).  A lock whose
holder has died is stale and simply taken over; where the system has no advisory locks,
the file's existence is the lock and its pid says whether the holder lives.  A lock file
is never followed through a link (:func:`~shashki.base.ownfiles.open_in_place`).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..base.ownfiles import NOFOLLOW, open_in_place
from ..i18n import _
from .storage import process_alive

try:  # advisory locks the system releases when their process ends (POSIX)
    import fcntl
except ImportError:  # pragma: no cover - Windows: the pid in the lock file decides
    fcntl = None  # type: ignore[assignment]

__all__ = ["FileLock", "GameLocked", "LockOwner", "owner_alive", "read_owner"]


@dataclass(frozen=True)
class LockOwner:
    """Who holds a game's lock, as its lock file says."""

    pid: int | None
    host: str = ""
    #: When the lock was taken (seconds since the epoch), if known.
    started: float | None = None

    def describe(self) -> str:
        """In words: "open in another shashki (pid 4242)"."""
        pid = f"pid {self.pid}" if self.pid is not None else _("pid unknown")
        if self.host and self.host != socket.gethostname():
            return _("open in shashki on {host} ({pid})").format(host=self.host, pid=pid)
        return _("open in another shashki ({pid})").format(pid=pid)


class GameLocked(OSError):
    """The game is open in another process (or elsewhere in this one)."""

    def __init__(self, path: Path, owner: LockOwner) -> None:
        super().__init__(errno.EBUSY, owner.describe(), str(path))
        self.owner = owner

    def __str__(self) -> str:
        return self.owner.describe()


#: The lock files this process holds, by absolute path: a second hold from this same
#: process is refused as well (locks over NFS are per process, not per open file).
_HELD: set[str] = set()
_HELD_GUARD = threading.Lock()


def read_owner(path: Path) -> LockOwner:
    """What a lock file says of its holder; pid None when it says nothing readable."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | NOFOLLOW)
    except OSError:
        return LockOwner(None)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return LockOwner(None)
        data = os.read(fd, 4096)
    except OSError:
        return LockOwner(None)
    finally:
        os.close(fd)
    try:
        info = json.loads(data.decode("utf-8"))
        pid = info.get("pid")
        host = info.get("host", "")
        started = info.get("started")
    except (ValueError, AttributeError):
        return LockOwner(None)
    return LockOwner(
        pid if isinstance(pid, int) and not isinstance(pid, bool) else None,
        host if isinstance(host, str) else "",
        float(started) if isinstance(started, int | float) else None,
    )


def owner_alive(owner: LockOwner) -> bool:
    """For systems without advisory locks: whether a lock file's writer still runs
    (one on another host is assumed to)."""
    if owner.pid is None:
        return False
    if owner.host and owner.host != socket.gethostname():
        return True
    return process_alive(owner.pid)


class FileLock:
    """A lock file this process holds (see :meth:`take`)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd: int | None = fd

    @classmethod
    def take(cls, path: Path) -> FileLock:
        """Hold the lock file ``path`` (made if missing), or raise GameLocked naming its
        live holder; a lock whose holder has died is taken over.  Raises OSError when
        the file cannot be made or is not a regular file.  Never blocks."""
        key = os.path.abspath(path)
        with _HELD_GUARD:
            if key in _HELD:
                raise GameLocked(path, read_owner(path))
            _HELD.add(key)
        try:
            fd = cls._acquire(path)
        except BaseException:
            with _HELD_GUARD:
                _HELD.discard(key)
            raise
        lock = cls(path, fd)
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
        try:
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(owner).encode("utf-8") + b"\n")
        except OSError:
            pass  # the lock holds all the same; only the words for people are missing
        return lock

    @staticmethod
    def _acquire(path: Path) -> int:
        while True:
            if fcntl is None:
                return FileLock._acquire_by_pid(path)
            # made anew, or a regular file of ours with no other name: never a link
            # followed (it was written through, truncating whatever it pointed at)
            fd = open_in_place(path)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as exc:
                    if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise GameLocked(path, read_owner(path)) from None
                    raise
                # the holder may have removed the file while we waited for it: a lock on
                # a file no longer at ``path`` locks nothing, so try again
                try:
                    same = os.path.samestat(os.fstat(fd), os.lstat(path))
                except FileNotFoundError:
                    same = False
                if same:
                    return fd
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)

    @staticmethod
    def _acquire_by_pid(path: Path) -> int:
        """Without advisory locks: the file's existence is the lock, its pid says
        whether the holder lives."""
        for _attempt in range(3):
            try:
                return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
            except FileExistsError:
                owner = read_owner(path)
                try:  # a holder that made its file a moment ago may not have written it yet
                    fresh = time.time() - os.lstat(path).st_mtime < 5.0
                except FileNotFoundError:
                    continue
                if owner_alive(owner) or (owner.pid is None and fresh):
                    raise GameLocked(path, owner) from None
                try:
                    os.unlink(path)  # stale: its holder has died
                except FileNotFoundError:
                    pass
        raise GameLocked(path, read_owner(path))

    def release(self) -> None:
        """Give the lock up and remove its file (no error if already given up)."""
        fd = self.fd
        if fd is None:
            return
        self.fd = None
        try:
            # removed while still held, and only if it is still our file
            if os.path.samestat(os.fstat(fd), os.lstat(self.path)):
                os.unlink(self.path)
        except OSError:
            pass
        finally:
            os.close(fd)
            with _HELD_GUARD:
                _HELD.discard(os.path.abspath(self.path))
