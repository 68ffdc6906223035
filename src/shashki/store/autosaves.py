"""One autosave per unfinished game, safe with several shashki processes at once.

Every unfinished game has a file of its own in the autosave folder
(``$XDG_DATA_HOME/shashki/autosave/KEY.pdn``), written atomically by
:func:`~shashki.store.storage.save_pdn` after each move.  A process that has a game
open holds that game's lock (``KEY.lock``, a :class:`~shashki.store.locks.FileLock`):
so two processes never write, resume or delete the same game, a game open elsewhere is
shown as such, and the lock of a process that died is stale and simply taken over.

:func:`scan` (at start) tidies the folder and lists the games:

- the single autosave of older versions (``shashki/autosave.pdn``) joins the folder as
  one more game, so nobody loses the game he had;
- temporary files of saves killed midway are removed, never those of a live process;
- a file that does not read back completely as one game (random bytes, a truncated or
  empty file, a folder or FIFO in its place) is moved to ``damaged/`` beside it and
  reported, never deleted and never offered as a game;
- an entry shashki must not write (a game or lock file that is a link, a lock file with
  other names, another user's file) is moved to ``damaged/`` the same way, never
  followed; an autosave or data folder that is a link is not used at all (see
  :mod:`shashki.base.ownfiles`).
"""

from __future__ import annotations

import errno
import io
import os
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..base.ownfiles import (
    UnsafeFile,
    check_target,
    is_own_folder,
    own_folder,
    refusal_in_place,
)
from ..base.userfiles import read_limited
from ..i18n import _, ngettext
from ..records.clocks import set_clocks
from ..records.model import GameRecord
from ..records.reader import iter_games
from ..rules import Game, ShashkiError
from .locks import FileLock, GameLocked, LockOwner
from .storage import (
    SaveError,
    _reason,
    data_dir,
    free_name,
    own_data_folder,
    remove_stale_temporaries,
    save_pdn,
)

#: The single autosave file of versions before one file per game.
LEGACY_NAME = "autosave.pdn"
#: The folder of damaged files, inside the autosave folder.
DAMAGED = "damaged"
#: No autosave is anywhere near this big; a larger file is not one.
SIZE_LIMIT = 4 << 20
#: How long to wait for a game's lock that another process may hold only for a
#: moment (while it looks at the folder at its start), in seconds.
PATIENCE = 0.2

__all__ = [
    "AutosaveSlot",
    "Damaged",
    "DamagedSave",
    "GameLocked",
    "LockOwner",
    "Scan",
    "Unfinished",
    "UnknownVariant",
    "autosave_dir",
    "check_autosave",
    "delete_unfinished",
    "scan",
]


def autosave_dir() -> Path:
    """The folder of the unfinished games: ``data_dir()/autosave``."""
    return data_dir() / "autosave"


# -- reading an autosave back -----------------------------------------------------------


class DamagedSave(ValueError):
    """An autosave that does not read back completely as one game; the message says
    why in a few words."""


class UnknownVariant(ValueError):
    """An autosave of a variant shashki does not have now (a variant file removed)."""


_TERMINATION = re.compile(rb"(\*|1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0)\s*$")


def check_autosave(data: bytes) -> GameRecord:
    """The one game of an autosave's bytes, checked to be whole.

    The file must hold exactly one game, read without errors or warnings, with a
    GameType (or Variant) tag, at least one move, the game's termination marker at the
    end, and as many moves as its PlyCount tag says.  Raises DamagedSave saying what is
    wrong, or UnknownVariant when the file is whole but of a variant not installed.
    """
    if not data.strip():
        raise DamagedSave(_("the file is empty"))
    games = list(iter_games(io.BytesIO(data)))
    if not games:
        raise DamagedSave(_("no game in the file"))
    if len(games) > 1:
        raise DamagedSave(_("{n} games in one autosave").format(n=len(games)))
    record = games[0]
    if not (record.header("GameType") or record.header("Variant")):
        raise DamagedSave(_("no GameType tag: not an autosave"))
    if record.variant is None:
        _check_unknown(record, data)
        tag = record.header("Variant") or f"GameType {record.header('GameType')}"
        raise UnknownVariant(
            _("{variant} is not a variant shashki has now").format(variant=_short(tag))
        )
    if record.errors:
        raise DamagedSave(_short(str(record.errors[0])))
    if record.warnings:
        raise DamagedSave(_short(str(record.warnings[0])))
    moves = record.mainline_moves()
    if not moves:
        raise DamagedSave(_("no moves"))
    if not _TERMINATION.search(data):
        raise DamagedSave(_("the file ends before the game does"))
    plies = record.header("PlyCount")
    if plies and plies != str(len(moves)):
        raise DamagedSave(
            _("{n} moves of the {count} it should have").format(n=len(moves), count=_short(plies))
        )
    try:
        record.end().replay()
    except ValueError as exc:  # read without error, so only a change of rules could
        raise DamagedSave(_short(str(exc))) from None
    return record


#: A GameType as shashki writes it: the PDN game number, then fields of plain text.
_GAMETYPE = re.compile(r"[0-9]{1,6}(,[ -~]{0,60})?")
#: A Variant tag: a variant's id or name, of printable characters.
_VARIANT = re.compile(r"[^\x00-\x1f\x7f-\x9f]{1,80}")


def _check_unknown(record: GameRecord, data: bytes) -> None:
    """Raise DamagedSave unless an autosave whose variant shashki does not have is whole
    in every way that can be told without the variant: its GameType (or Variant tag)
    well formed, the variant's the only error, the termination marker at the end.  Only
    such a file is kept for a variant that may come back; any other is damaged."""
    gametype = record.header("GameType").strip()
    named = record.header("Variant").strip()
    garbled = not _GAMETYPE.fullmatch(gametype) if gametype else not _VARIANT.fullmatch(named)
    if garbled and record.errors:  # (the reader always says why it found no variant)
        raise DamagedSave(_short(str(record.errors[0])))
    if len(record.errors) > 1 or record.warnings:
        problems = [*record.errors[1:], *record.warnings]
        raise DamagedSave(_short(str(problems[0])))
    if not _TERMINATION.search(data):
        raise DamagedSave(_("the file ends before the game does"))


def _short(text: str, limit: int = 80) -> str:
    """One line of at most ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _read_checked(path: Path) -> GameRecord:
    """The game of the autosave at ``path``; raises DamagedSave, UnknownVariant, or
    FileNotFoundError when the file is gone."""
    try:
        data = read_limited(path, SIZE_LIMIT, follow=False)
        check_target(path)  # a file it would be unsafe to write again: another user's
    except FileNotFoundError:
        raise
    except OSError as exc:  # a link, a folder, a FIFO, too large, unreadable
        reason = getattr(exc, "reason", None) or _reason(exc)
        raise DamagedSave(_short(str(reason))) from None
    return check_autosave(data)


def _move_aside(path: Path) -> Path:
    """Move a damaged file (or whatever stands in its place) to ``damaged/`` beside
    it, under a name not yet taken there; returns where it went.  Raises OSError."""
    folder = own_folder(path.parent / DAMAGED)  # never a link to elsewhere
    stem, dot, ext = path.name.rpartition(".")
    target = free_name(folder, stem, dot + ext) if stem else free_name(folder, path.name, "")
    os.rename(path, target)
    return target


# -- one game's autosave ----------------------------------------------------------------


def new_key() -> str:
    """A name for a new game's files: the time and a random part (unique without
    asking anyone)."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(4)


class AutosaveSlot:
    """Where one game is autosaved, and this process's hold on it.

    A new game's slot takes its lock on the first save; a resumed game's slot is
    taken with :meth:`claim`.  Not for use from two threads at once.
    """

    def __init__(self, key: str, folder: Path | None = None) -> None:
        self.key = key
        self.folder = folder if folder is not None else autosave_dir()
        self._lock: FileLock | None = None

    @classmethod
    def new(cls, folder: Path | None = None) -> AutosaveSlot:
        """The slot of a new game (nothing is written yet)."""
        return cls(new_key(), folder)

    @property
    def path(self) -> Path:
        return self.folder / f"{self.key}.pdn"

    @property
    def lock_path(self) -> Path:
        return self.folder / f"{self.key}.lock"

    @property
    def held(self) -> bool:
        return self._lock is not None

    def __repr__(self) -> str:
        return f"<AutosaveSlot {self.key}{' held' if self.held else ''}>"

    def hold(self, patience: float = 0.0) -> None:
        """Take the game's lock (making the folder if needed), trying again for up to
        ``patience`` seconds (another shashki starting up holds each game for a moment
        while it looks at it).  Raises GameLocked when another process has the game
        open, OSError when the folder cannot be used."""
        if self._lock is not None:
            return
        own_data_folder(self.folder)  # a real folder of the user's, never a link
        deadline = time.monotonic() + patience
        while True:
            try:
                self._lock = FileLock.take(self.lock_path)
                return
            except GameLocked:
                if time.monotonic() >= deadline:
                    raise
            time.sleep(0.02)

    @classmethod
    def claim(cls, key: str, folder: Path | None = None) -> tuple[AutosaveSlot, GameRecord]:
        """Take an unfinished game to go on with it: its lock, and its record read
        again under the lock.

        Raises GameLocked (open in another process), FileNotFoundError (the game is
        gone: finished or deleted elsewhere), DamagedSave (the file was moved aside,
        the message says where), UnknownVariant, or OSError.  On error nothing is held.
        """
        if not re.fullmatch(r"[\w.-]+", key) or key.startswith("."):
            raise FileNotFoundError(errno.ENOENT, "no such unfinished game", key)
        slot = cls(key, folder)
        slot.hold(PATIENCE)
        try:
            try:
                record = _read_checked(slot.path)
            except DamagedSave as exc:
                moved = _move_aside(slot.path)
                raise DamagedSave(
                    _("{reason}; moved to {path}").format(reason=exc, path=moved)
                ) from None
        except BaseException:
            slot.release()
            raise
        return slot, record

    def save(
        self,
        game: Game,
        headers: dict[str, str] | None = None,
        clocks: Sequence[float | None] = (),
    ) -> Path:
        """Autosave the game (its start and the moves on its stack, with the time left
        after each move in ``clocks`` when the game has a clock) atomically, taking the
        lock first if needed; returns the file, readable by this user alone (0600: an
        online game's autosave holds its room code).  Raises SaveError or GameLocked;
        the previous autosave stays whole."""
        try:
            self.hold()
        except GameLocked:
            raise
        except UnsafeFile as exc:  # the folder or the lock file: the path and why
            raise SaveError(
                _("cannot save {path}: {reason}").format(path=self.path, reason=exc), exc.errno
            ) from exc
        except OSError as exc:
            said = _("cannot save {path}: {reason}").format(path=self.path, reason=_reason(exc))
            raise SaveError(said, exc.errno) from exc
        tags = dict(headers or {})
        tags["PlyCount"] = str(len(game.move_stack))  # a truncated file shows it
        record = GameRecord.from_game(game, tags)
        if clocks:
            set_clocks(record, clocks)
        save_pdn(self.path, record, mode=0o600)
        return self.path

    def remove(self) -> None:
        """Forget the game (it ended, or went back to no moves): its file goes, the
        lock stays held while the game is open.  Raises OSError."""
        if self._lock is None:
            return  # never held: nothing of ours was written
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass

    def release(self) -> None:
        """Leave the game (its file stays, for later); no error if not held."""
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()


def delete_unfinished(key: str, folder: Path | None = None) -> None:
    """Delete an unfinished game the player chose to delete.  Raises GameLocked (open
    in another process), FileNotFoundError (already gone) or OSError."""
    if not re.fullmatch(r"[\w.-]+", key) or key.startswith("."):
        raise FileNotFoundError(errno.ENOENT, "no such unfinished game", key)
    slot = AutosaveSlot(key, folder)
    slot.hold(PATIENCE)
    try:
        slot.path.unlink()
    finally:
        slot.release()


# -- the list at start ------------------------------------------------------------------


@dataclass
class Unfinished:
    """One unfinished game of the autosave folder."""

    key: str
    path: Path
    #: The game as read (None when it could not be read: open elsewhere, or of a
    #: variant not installed).
    record: GameRecord | None
    variant_name: str
    players: tuple[str, str]
    #: Moves of the game, counted as players do (a move of each side is one).
    moves: int
    #: When the game was last played (the file's time, seconds since the epoch).
    last_played: float
    #: Who has it open, when another process has.
    owner: LockOwner | None = None
    #: Why it cannot be resumed now, in words, when it cannot for another reason.
    problem: str | None = None

    @property
    def resumable(self) -> bool:
        return self.owner is None and self.problem is None and self.record is not None

    @property
    def status(self) -> str:
        """Why it cannot be resumed, or ""."""
        if self.owner is not None:
            return self.owner.describe()
        return self.problem or ""


@dataclass
class Damaged:
    """A damaged autosave found at start."""

    path: Path
    #: Where it was moved (None when it could not be moved).
    moved_to: Path | None
    reason: str


@dataclass
class Scan:
    """What :func:`scan` found."""

    folder: Path
    games: list[Unfinished] = field(default_factory=list)
    damaged: list[Damaged] = field(default_factory=list)
    #: Temporary files of killed saves that were removed.
    removed: list[Path] = field(default_factory=list)
    #: What went wrong with the folder itself, in words.
    problems: list[str] = field(default_factory=list)

    @property
    def resumable(self) -> list[Unfinished]:
        return [g for g in self.games if g.resumable]

    def damage_report(self) -> str | None:
        """One line for the player about damaged files, or None."""
        if not self.damaged:
            return None
        moved = [d.moved_to for d in self.damaged if d.moved_to is not None]
        stuck = len(self.damaged) - len(moved)
        if len(self.damaged) == 1:
            d = self.damaged[0]
            if d.moved_to is not None:
                return _("A damaged autosave ({reason}) was moved to {path}.").format(
                    reason=d.reason, path=d.moved_to
                )
            return _("A damaged autosave ({reason}) could not be moved aside: {path}.").format(
                reason=d.reason, path=d.path
            )
        parts = []
        if moved:
            parts.append(
                ngettext(
                    "{n} damaged autosave was moved to {path}",
                    "{n} damaged autosaves were moved to {path}",
                    len(moved),
                ).format(n=len(moved), path=moved[0].parent)
            )
        if stuck:
            parts.append(
                ngettext(
                    "{n} damaged autosave could not be moved aside from {path}",
                    "{n} damaged autosaves could not be moved aside from {path}",
                    stuck,
                ).format(n=stuck, path=self.folder)
            )
        return "; ".join(parts) + "."


def _adopt_legacy(base: Path, folder: Path, found: Scan) -> None:
    """Make the single autosave of older versions one game of the folder."""
    legacy = base / LEGACY_NAME
    if not os.path.lexists(legacy):
        return
    try:
        own_data_folder(folder)
        os.rename(legacy, folder / f"{new_key()}.pdn")
    except FileNotFoundError:
        pass  # another process took it first
    except OSError as exc:
        found.problems.append(
            _("cannot move {path} into {folder}: {reason}").format(
                path=legacy, folder=folder, reason=_reason(exc)
            )
        )


def _entry(key: str, path: Path, record: GameRecord | None, owner: LockOwner | None) -> Unfinished:
    try:
        when = os.lstat(path).st_mtime
    except OSError:
        when = 0.0
    variant = record.variant if record is not None else None
    names = variant.side_names if variant is not None else ("White", "Black")
    players = (
        (record.header("White") if record is not None else "") or names[0],
        (record.header("Black") if record is not None else "") or names[1],
    )
    moves = 0
    if record is not None:  # counted as players do (and the game's move list)
        try:
            moves = record.end().replay().move_count()
        except ShashkiError:
            moves = (len(record.mainline_moves()) + 1) // 2
    return Unfinished(
        key=key,
        path=path,
        record=record,
        variant_name=variant.name if variant is not None else "?",
        players=players,
        moves=moves,
        last_played=when,
        owner=owner,
    )


def _look_at(key: str, folder: Path, found: Scan) -> None:
    """Check one game of the folder (under its lock) and file it in ``found``."""
    slot = AutosaveSlot(key, folder)
    path = slot.path
    try:
        slot.hold(PATIENCE)
    except GameLocked as exc:
        # open elsewhere: shown, never moved (its holder rewrites it whole anyway)
        try:
            record: GameRecord | None = _read_checked(path)
        except (DamagedSave, UnknownVariant, OSError):
            record = None
        found.games.append(_entry(key, path, record, exc.owner))
        return
    except OSError as exc:
        entry = _entry(key, path, None, None)
        entry.problem = _("cannot lock it: {reason}").format(reason=_reason(exc))
        found.games.append(entry)
        return
    try:
        try:
            record = _read_checked(path)
        except FileNotFoundError:
            return  # finished or deleted meanwhile
        except UnknownVariant as exc:
            entry = _entry(key, path, None, None)
            entry.problem = str(exc)
            found.games.append(entry)
            return
        except DamagedSave as exc:
            try:
                found.damaged.append(Damaged(path, _move_aside(path), str(exc)))
            except OSError:
                found.damaged.append(Damaged(path, None, str(exc)))
            return
        if record.end().replay().outcome() is not None:
            return  # a finished game is not offered (and is left where it is)
        found.games.append(_entry(key, path, record, None))
    finally:
        slot.release()


def scan(base: Path | None = None) -> Scan:
    """Tidy the autosave folder of ``base`` (the data folder, by default
    :func:`data_dir`) and list its unfinished games, the most recently played first.

    Adopts the single autosave of older versions, removes the temporary files of
    killed saves (in the data, autosave and saved-games folders), removes stale lock
    files left without a game, and moves damaged files to ``damaged/``.  Never raises
    for the files it finds; a folder that cannot be read is reported in ``problems``.
    """
    base = data_dir() if base is None else base
    folder = base / "autosave"
    found = Scan(folder)
    for place in (base, folder):
        if os.path.lexists(place) and not is_own_folder(place):
            # a link to elsewhere, a file, another user's folder: never used
            try:
                own_folder(place)
            except OSError as exc:
                problem = str(exc) if isinstance(exc, UnsafeFile) else _reason(exc)
                found.problems.append(_("Autosave is off: {problem}.").format(problem=problem))
            return found
    _adopt_legacy(base, folder, found)
    for place in (base, folder, base / "games"):
        found.removed += remove_stale_temporaries(place)
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return found
    except OSError as exc:
        found.problems.append(
            _("cannot read {folder}: {reason}").format(folder=folder, reason=_reason(exc))
        )
        return found
    keys = {n[:-4] for n in names if n.endswith(".pdn") and not n.startswith(".")}
    for name in names:
        if not name.endswith(".lock") or name.startswith("."):
            continue
        if not _lock_file_safe(folder / name, found):
            continue
        if name[:-5] not in keys:
            _remove_stale_lock(folder / name)
    for key in sorted(keys):
        _look_at(key, folder, found)
    found.games.sort(key=lambda g: g.last_played, reverse=True)
    return found


def _lock_file_safe(path: Path, found: Scan) -> bool:
    """Whether a lock file is one shashki may write (a regular file of this user with no
    other name); one that is not (a link planted there, a FIFO, a hard link to another
    file) is moved to ``damaged/`` and reported, never written through."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    reason = refusal_in_place(info)
    if reason is None:
        return True
    try:
        moved: Path | None = _move_aside(path)
    except OSError:
        moved = None
    found.damaged.append(Damaged(path, moved, reason))
    return False


def _remove_stale_lock(path: Path) -> None:
    """Remove a lock file left by a process that died before its game's first save (a
    live holder keeps it: its game is just starting)."""
    try:
        lock = FileLock.take(path)
    except OSError:
        return
    lock.release()
