"""Saving games so that a crash, a full disk or a kill never costs the previous file.

:func:`save_pdn` writes to a temporary file beside the target, forces it to disk, and
only then puts it in the target's place with one atomic rename; until that rename the
old file is untouched, and after it the new one is complete.  It never replaces a file
unless asked to (``replace=True``), so a second game saved under the same name cannot
silently take the place of the first; :func:`free_name` suggests a name not yet taken.

The temporary file's name carries the writer's process id
(``.NAME.PID.XXXXXXXX.tmp``), so that :func:`remove_stale_temporaries` can clear what a
save killed midway left behind without touching the file another process is writing
at that very moment.

The games in progress are kept in the user's data folder (:func:`data_dir`,
``$XDG_DATA_HOME/shashki``, by default ``~/.local/share/shashki``); see
:mod:`shashki.store.autosaves`.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from ..base.ownfiles import (
    UnsafeFile,
    check_target,
    is_own_folder,
    open_in_place,
    own_folder,
    temporary_beside,
)
from ..base.userfiles import user_folder
from ..i18n import _, os_reason
from ..records.model import GameRecord
from ..records.writer import write_game, write_games


class SaveError(OSError):
    """A save failed; the message says why.  The previous file, if any, is intact."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if errno is not None:
            self.errno = errno

    def __str__(self) -> str:
        return self.message


class TargetExists(SaveError):
    """A save was asked not to replace an existing file, and the file exists."""


def _reason(exc: BaseException) -> str:
    """An exception's reason in one line (no paths repeated, no line breaks)."""
    text = os_reason(exc)
    return " ".join(text.split())


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _target(path: str | os.PathLike[str]) -> Path:
    """The Path of a save's name; raises SaveError for an empty one (``Path("")`` is the
    current folder)."""
    if not os.fspath(path):
        raise SaveError(_("cannot save '': the file name is empty"), errno.ENOENT)
    return Path(path)


def _check_target(target: Path) -> os.stat_result | None:
    """Refuse to put a save in the place of something that is not a regular file of this
    user (a link: the save would take the link's place, not its file's; a folder, a
    device such as /dev/null, a FIFO; another user's file); raises SaveError.  Returns
    the file's lstat, or None when there is no file yet."""
    try:
        return check_target(target)
    except UnsafeFile as exc:
        raise SaveError(
            _("cannot save {path}: {reason}").format(path=target, reason=exc.reason), exc.errno
        ) from None
    except OSError as exc:  # a name too long, a folder that is not one, no access
        raise SaveError(
            _("cannot save {path}: {reason}").format(path=target, reason=_reason(exc)), exc.errno
        ) from None


def _put_in_place(tmp: Path, target: Path, replace: bool) -> None:
    """Rename the finished temporary file to ``target``: atomically replacing it, or
    (``replace=False``) only if no file has that name, raising TargetExists if one has."""
    if replace:
        os.replace(tmp, target)
        return
    try:
        # a hard link fails when the name is taken: no window between check and write
        os.link(tmp, target)
    except FileExistsError:
        raise TargetExists(f"{target} already exists", errno.EEXIST) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, None):
            raise
        # a file system without hard links: check, then rename
        if os.path.lexists(target):
            raise TargetExists(f"{target} already exists", errno.EEXIST) from None
        os.replace(tmp, target)
        return
    tmp.unlink()


def _temporary(target: Path) -> tuple[int, Path]:
    """A new temporary file beside ``target`` (its descriptor and path); raises SaveError
    saying why when the folder cannot take one."""
    try:
        return temporary_beside(target)
    except (OSError, ValueError) as exc:
        raise SaveError(
            _("cannot save {path}: {reason}").format(path=target, reason=_reason(exc)),
            getattr(exc, "errno", None),
        ) from exc


def save_pdn(
    path: str | os.PathLike[str],
    games: GameRecord | Iterable[GameRecord],
    *,
    columns: int = 80,
    replace: bool = True,
    mode: int | None = None,
) -> int:
    """Write games to a PDN file atomically; returns how many were written.

    The file keeps the mode of the one it replaces (a new one is 0644), or gets
    ``mode`` when it is given (0600: the user's alone, whatever it was).

    With ``replace=False`` an existing file is never replaced: TargetExists (a
    SaveError) is raised instead and nothing is written.  A target that is a folder,
    a device or a FIFO is refused.

    Raises SaveError (an OSError) saying why when anything goes wrong — the folder is
    missing or read-only, the disk is full, a game cannot be written — and then the
    file at ``path`` is exactly what it was before, and no temporary file is left.
    """
    target = _target(path)
    records = [games] if isinstance(games, GameRecord) else games
    folder = target.parent if str(target.parent) else Path(".")
    _check_target(target)
    fd, tmp = _temporary(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            count = write_games(fh, records, columns)
            fh.flush()
            os.fsync(fh.fileno())
        old = _check_target(target)  # again: something may have been put there meanwhile
        if mode is None:
            mode = old.st_mode & 0o7777 if old is not None else 0o644
        os.chmod(tmp, mode)
        _put_in_place(tmp, target, replace)
    except BaseException as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(exc, SaveError):
            raise
        if isinstance(exc, OSError):
            raise SaveError(
                _("cannot save {path}: {reason}").format(path=target, reason=_reason(exc)),
                exc.errno,
            ) from exc
        if isinstance(exc, ValueError):  # a game that cannot be written (ShashkiError)
            raise SaveError(
                _("cannot save {path}: {reason}").format(path=target, reason=_reason(exc))
            ) from exc
        raise
    _fsync_folder(folder)
    return count


class GameLog:
    """A PDN file that games are added to one by one as they end (a match's record), so
    that an interruption, a crash or a kill costs at most the game being played.

    Making one checks that the file can be written (its folder exists and takes new
    files; the name is not a folder or a device) without touching what is there, and
    raises SaveError if not: a match learns it before its first game, not after its
    last.  The first game replaces the file atomically (:func:`save_pdn`) — or, with
    ``append``, is added after what the file holds (a server's log across its runs) —;
    each next one is appended and forced to disk.  Raises SaveError saying why when a
    write fails.  Games ending on several threads at once are added one at a time.
    """

    def __init__(
        self, path: str | os.PathLike[str], columns: int = 80, *, append: bool = False
    ) -> None:
        self.path = _target(path)
        self.columns = columns
        self.append = append
        self.count = 0
        self._lock = threading.Lock()
        #: The file the first game made (device, inode): the next are added to it only.
        self._written: tuple[int, int] | None = None
        _check_target(self.path)
        fd, tmp = _temporary(self.path)
        os.close(fd)
        tmp.unlink()

    def add(self, record: GameRecord) -> None:
        """Write one more game to the file (the first replaces what was there, unless
        ``append``).  A game is added only to the very file the first one wrote: if a
        link, another file or anything else has taken its name since, SaveError says so
        and nothing is written through it."""
        with self._lock:
            self._add(record)

    def _add(self, record: GameRecord) -> None:
        first = not self.count
        if first and not self.append:
            save_pdn(self.path, [record], columns=self.columns)
            try:
                info = os.lstat(self.path)
                self._written = (info.st_dev, info.st_ino)
            except OSError:
                self._written = None
            self.count = 1
            return
        try:
            text = write_game(record, self.columns)
            fd = open_in_place(self.path, create=first, append=True)
        except UnsafeFile as exc:
            raise SaveError(
                _("cannot save {path}: {reason}").format(path=self.path, reason=exc.reason),
                exc.errno,
            ) from None
        except (OSError, ValueError) as exc:
            raise SaveError(
                _("cannot save {path}: {reason}").format(path=self.path, reason=_reason(exc)),
                getattr(exc, "errno", None),
            ) from exc
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            info = os.fstat(fh.fileno())
            if first:  # (appending: the file as it was found, or made now)
                self._written = (info.st_dev, info.st_ino)
            if (info.st_dev, info.st_ino) != self._written:
                raise SaveError(
                    _("cannot save {path}: {reason}").format(
                        path=self.path,
                        reason=_("another file has taken its name since the first game"),
                    )
                )
            try:
                fh.write("\n" + text if info.st_size else text)
                fh.flush()
                os.fsync(fh.fileno())
            except (OSError, ValueError) as exc:
                raise SaveError(
                    _("cannot save {path}: {reason}").format(path=self.path, reason=_reason(exc)),
                    getattr(exc, "errno", None),
                ) from exc
        self.count += 1


def free_name(folder: str | os.PathLike[str], stem: str, suffix: str = ".pdn") -> Path:
    """The first of ``stem.pdn``, ``stem-2.pdn``, ``stem-3.pdn``… in ``folder`` that no
    file, folder or link has taken."""
    base = Path(folder)
    n = 1
    while True:
        candidate = base / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
        n += 1


def safe_stem(text: str, fallback: str = "game") -> str:
    """``text`` made fit for a file name: lower-case letters, digits and hyphens only, at
    most 40 characters (a variant id from a user's file never names a path as it is)."""
    stem = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-")
    return stem or fallback


def data_dir() -> Path:
    """The user's shashki data folder: $XDG_DATA_HOME/shashki or ~/.local/share/shashki."""
    return user_folder("data")


def games_dir() -> Path:
    """Where the player's saved games go unless he names another folder."""
    return data_dir() / "games"


def own_data_folder(folder: Path) -> Path:
    """Make one of shashki's folders in the data folder (``autosave``, ``games``…) if
    missing, and check that it, and every folder between the data folder and it, is a
    real folder of this user, not a link; returns it.  Raises UnsafeFile (an OSError)
    saying why, or OSError."""
    base = data_dir()
    top = base if (folder == base or base in folder.parents) else folder
    return own_folder(folder, top=top)


# -- what a killed save leaves behind ---------------------------------------------------

#: ``.NAME.PID.XXXXXXXX.tmp`` (mkstemp's eight random characters).
_TEMPORARY = re.compile(r"^\.(?P<name>.+?)\.(?:(?P<pid>\d+)\.)?(?P<rand>[a-z0-9_]{8})\.tmp$")
#: A temporary file of a live writer older than this is left over all the same (its
#: pid belongs to another process by now).
STALE_AFTER = 24 * 3600.0
#: The temporary files of older versions carry no pid: left over once this old.
STALE_WITHOUT_PID = 3600.0


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine.  When it cannot be told (a system
    without signals), True: nothing of a process that may be alive is ever removed."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if os.name == "nt":  # os.kill would end the process there, not ask about it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, another user's
        return True
    try:  # a zombie (ended, not yet waited for) writes nothing any more
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[-1].split()
        return not (fields and fields[0] == b"Z")
    except OSError:
        return True


def remove_stale_temporaries(
    folder: str | os.PathLike[str], *, now: float | None = None
) -> list[Path]:
    """Remove what saves killed midway left in ``folder``; returns what was removed.

    A temporary file (``.NAME.PID.XXXXXXXX.tmp``) goes when the process that wrote it
    has ended, or when it is more than a day old; one of an older version (no pid)
    when it is more than an hour old.  The file of a save in progress in another
    process is never touched.  Folders that cannot be read are passed over.
    """
    base = Path(folder)
    now = time.time() if now is None else now
    removed: list[Path] = []
    if not is_own_folder(base):  # missing, or a link to elsewhere: nothing of ours there
        return removed
    try:
        names = os.listdir(base)
    except OSError:
        return removed
    for name in names:
        match = _TEMPORARY.match(name)
        if match is None:
            continue
        path = base / name
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        age = now - info.st_mtime
        pid = match.group("pid")
        if pid is None:
            stale = age > STALE_WITHOUT_PID
        else:
            stale = age > STALE_AFTER or not process_alive(int(pid))
        if not stale:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed
