"""Saving games so that a crash, a full disk or a kill never costs the previous file.

:func:`save_pdn` writes to a temporary file beside the target, forces it to disk, and
only then puts it in the target's place with one atomic rename; until that rename the
old file is untouched, and after it the new one is complete.  The autosave helpers keep
the game in progress in the user's data folder (``$XDG_DATA_HOME/shashki``, by default
``~/.local/share/shashki``) for the application to offer again after a crash.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..rules import Game
from .model import GameRecord
from .pdn import read_game, write_games

AUTOSAVE_NAME = "autosave.pdn"


class SaveError(OSError):
    """A save failed; the message says why.  The previous file, if any, is intact."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if errno is not None:
            self.errno = errno

    def __str__(self) -> str:
        return self.message


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


def save_pdn(
    path: str | os.PathLike[str],
    games: GameRecord | Iterable[GameRecord],
    *,
    columns: int = 80,
) -> int:
    """Write games to a PDN file atomically; returns how many were written.

    Raises SaveError (an OSError) saying why when anything goes wrong — the folder is
    missing or read-only, the disk is full, a game cannot be written — and then the
    file at ``path`` is exactly what it was before, and no temporary file is left.
    """
    target = Path(path)
    records = [games] if isinstance(games, GameRecord) else games
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"cannot save {target}: {exc.strerror or exc}", exc.errno) from exc
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            count = write_games(fh, records, columns)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise SaveError(f"cannot save {target}: {exc.strerror or exc}", exc.errno) from exc
        if isinstance(exc, ValueError):  # a game that cannot be written (ShashkiError)
            raise SaveError(f"cannot save {target}: {exc}") from exc
        raise
    _fsync_folder(folder)
    return count


def data_dir() -> Path:
    """The user's shashki data folder: $XDG_DATA_HOME/shashki or ~/.local/share/shashki."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "shashki"


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


def autosave(game: GameRecord | Game, headers: dict[str, str] | None = None) -> Path:
    """Save the game in progress (a record, or a rules game with its moves) to the
    autosave file; returns its path.  Raises SaveError; the previous autosave stays."""
    record = game if isinstance(game, GameRecord) else GameRecord.from_game(game, headers)
    path = autosave_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(f"cannot save {path}: {exc.strerror or exc}", exc.errno) from exc
    save_pdn(path, record)
    return path


def load_autosave() -> GameRecord | None:
    """The autosaved game, or None when there is none (or it cannot be read at all).

    A game read with errors is still returned: check ``record.ok``.
    """
    path = autosave_path()
    try:
        with open(path, "rb") as fh:
            return read_game(fh)
    except OSError:
        return None


def clear_autosave() -> None:
    """Forget the autosaved game (when it ended or was saved by the player)."""
    try:
        autosave_path().unlink()
    except FileNotFoundError:
        pass
