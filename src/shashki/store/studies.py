"""Studies: a game being studied (variations, comments, marks, a review written in), where
it came from, and its unsaved changes kept on disk until it is saved.

A study's changes are autosaved after every edit to ``$XDG_DATA_HOME/shashki/studies/``
(one PDN file a study, written atomically by :func:`~shashki.store.storage.save_pdn` in a
background thread: the screen never waits for the disk), named by where the game came
from.  Opening the same game again finds them (:func:`unsaved`); saving the study, or
throwing the changes away, removes the file (:meth:`StudyAutosave.forget`).
"""

from __future__ import annotations

import hashlib
import io
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..base.userfiles import read_limited
from ..records.model import GameRecord
from ..records.reader import iter_games
from .storage import SaveError, data_dir, own_data_folder, save_pdn

#: No study's autosave is anywhere near this big.
SIZE_LIMIT = 8 << 20


@dataclass(frozen=True)
class Origin:
    """Where a studied game came from: a file (``path`` and the game's number in it, from
    1), or My games (``kept``: the game's key in the archive), or nowhere (a position set
    up, a record made in memory).  ``player_side`` is the side the player had (0 or 1),
    when known: My games knows it."""

    path: Path | None = None
    number: int = 0
    kept: str = ""
    player_side: int | None = None

    @property
    def key(self) -> str:
        """The name of the study's autosave: the same for the same game."""
        if self.kept:
            where = f"kept:{self.kept}"
        elif self.path is not None:
            try:
                resolved = self.path.resolve()
            except (OSError, RuntimeError):
                resolved = self.path
            where = f"file:{resolved}#{self.number}"
        else:
            return ""
        return hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def studies_dir() -> Path:
    """The folder of the studies' unsaved changes."""
    return data_dir() / "studies"


def unsaved(origin: Origin, folder: Path | None = None) -> GameRecord | None:
    """The unsaved changes of a study of the game ``origin`` names, or None (none, or a
    file that does not read back whole as one game)."""
    key = origin.key
    if not key:
        return None
    path = (folder or studies_dir()) / f"{key}.pdn"
    try:
        data = read_limited(path, SIZE_LIMIT, follow=False)
    except (OSError, ValueError):
        return None
    try:
        records = list(iter_games(io.BytesIO(data)))
    except (OSError, ValueError, UnicodeError):
        return None
    if len(records) != 1 or records[0].errors or records[0].variant is None:
        return None
    return records[0]


class StudyAutosave:
    """Keeps a study's newest state on disk, in a thread of its own; :meth:`problem`
    says why the last write failed (None while it works)."""

    def __init__(self, origin: Origin, folder: Path | None = None) -> None:
        self.origin = origin
        self.folder = folder or studies_dir()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shashki-study")
        self._lock = threading.Lock()
        self._waiting: GameRecord | None = None
        self._forget = False
        self.problem: str | None = None

    @property
    def path(self) -> Path | None:
        key = self.origin.key
        return self.folder / f"{key}.pdn" if key else None

    def save(self, record: GameRecord) -> None:
        """Write ``record`` (a copy is taken now) as the study's unsaved state."""
        if self.path is None:
            return
        with self._lock:
            self._waiting, self._forget = record.copy(), False
        self._submit()

    def forget(self) -> None:
        """The study was saved (or its changes thrown away): its autosave goes."""
        if self.path is None:
            return
        with self._lock:
            self._waiting, self._forget = None, True
        self._submit()

    def _submit(self) -> None:
        try:
            self._pool.submit(self._write)
        except RuntimeError:  # shut down: the process is ending
            pass

    def _write(self) -> None:
        path = self.path
        with self._lock:
            record, forget = self._waiting, self._forget
            self._waiting, self._forget = None, False
        if path is None or (record is None and not forget):
            return
        try:
            if forget:
                path.unlink(missing_ok=True)
            elif record is not None:
                own_data_folder(self.folder)
                save_pdn(path, record)
            self.problem = None
        except (OSError, SaveError) as exc:
            self.problem = " ".join(str(exc).split())

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until what was asked is on disk (at most ``timeout`` seconds)."""
        try:
            self._pool.submit(lambda: None).result(timeout)
        except Exception:  # (timed out, or shut down)
            pass

    def close(self) -> None:
        """Finish what was asked, then stop the thread."""
        self._pool.shutdown(wait=True)


__all__ = ["Origin", "StudyAutosave", "studies_dir", "unsaved"]
