"""My games: every finished game kept, one PDN file a game.

When a game played in the app ends, its record is written to the archive folder
(``$XDG_DATA_HOME/shashki/archive/KEY.pdn``, by default under
``~/.local/share/shashki``), under the key of the game's autosave (the time it started
and a random part): a game that is taken back and ends again replaces its own file,
never another's.  The file is written atomically (:func:`~shashki.store.storage.save_pdn`)
before the game's autosave is removed, so a crash between the two loses nothing; a
finished game still found in the autosave folder at start joins the archive then.

Each file is a plain PDN game the player can read, copy or open elsewhere; besides the
usual tags it has ``PlyCount`` (the list's length, read without the moves) and
``Ending`` (how the game ended: :class:`~shashki.rules.outcome.Termination`'s value,
e.g. ``resignation``).

:func:`scan` lists the folder for the "My games" screen: only the tags of each file are
read (the moves are skipped unparsed), so a few thousand games list in well under a
second.  A file that is not a game shashki wrote — binary, empty, cut short, too large,
a link, a folder, another user's file — is moved to ``damaged/`` beside it and reported
in one line, never followed and never deleted.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..base.ownfiles import UnsafeFile, check_target, is_own_folder, own_folder
from ..base.userfiles import read_limited
from ..i18n import _, ngettext
from ..records.gametypes import variant_from_headers
from ..records.model import GameRecord
from ..records.reader import iter_games
from ..records.tags import BLACK_WINS, DRAW, WHITE_WINS, normalize_result
from ..rules.errors import ShashkiError
from ..rules.outcome import Outcome
from ..rules.variant import Variant
from .autosaves import Damaged, DamagedSave, _move_aside, _short
from .storage import (
    SaveError,
    TargetExists,
    _reason,
    data_dir,
    free_name,
    games_dir,
    own_data_folder,
    remove_stale_temporaries,
    safe_stem,
    save_pdn,
)

#: The tag that says how the game ended, in words a program can read back.
ENDING_TAG = "Ending"
#: A kept game is a few kilobytes; a file larger than this is not one.
SIZE_LIMIT = 1 << 20

__all__ = [
    "ABANDONED_ENDING",
    "ArchiveScan",
    "KeptGame",
    "Score",
    "Seat",
    "abandoned_for_archive",
    "archive_dir",
    "delete_kept",
    "export_dir",
    "export_kept",
    "for_archive",
    "keep_game",
    "read_kept",
    "scan",
    "summary",
]


def archive_dir() -> Path:
    """The folder of the finished games: ``data_dir()/archive``."""
    return data_dir() / "archive"


def export_dir() -> Path:
    """Where ``e`` in My games puts a copy of a game: ``data_dir()/games/export``."""
    return games_dir() / "export"


_KEY = re.compile(r"[\w.-]{1,120}")


def _check_key(key: str) -> None:
    if not _KEY.fullmatch(key) or key.startswith("."):
        raise SaveError(_("cannot keep the game: {key} is not a game's name").format(key=key))


# -- writing ------------------------------------------------------------------------------


def for_archive(record: GameRecord, outcome: Outcome) -> GameRecord:
    """``record`` with the tags the list reads without the moves: ``PlyCount`` and
    ``Ending``; returns it."""
    record.headers["PlyCount"] = str(len(record.mainline_moves()))
    record.headers[ENDING_TAG] = outcome.termination.value
    return record


#: The ``Ending`` of a game its players left unfinished for good (result ``*``).
ABANDONED_ENDING = "abandoned unfinished"


def abandoned_for_archive(record: GameRecord) -> GameRecord:
    """``record``, a game left unfinished for good, with the tags the list reads:
    ``PlyCount`` and ``Ending`` (:data:`ABANDONED_ENDING`); returns it."""
    record.headers["PlyCount"] = str(len(record.mainline_moves()))
    record.headers[ENDING_TAG] = ABANDONED_ENDING
    return record


def keep_game(record: GameRecord, key: str, folder: Path | None = None) -> Path:
    """Write a finished game to the archive as ``KEY.pdn`` (atomically; the same game's
    earlier file is replaced); returns the file.  The folder is made if missing and is
    never a link; a link or another user's file in the file's place is refused.  Raises
    SaveError saying why."""
    _check_key(key)
    folder = archive_dir() if folder is None else folder
    try:
        own_data_folder(folder)
    except UnsafeFile as exc:
        raise SaveError(
            _("cannot save {path}: {reason}").format(path=folder, reason=exc.reason), exc.errno
        ) from None
    except OSError as exc:
        raise SaveError(
            _("cannot save {path}: {reason}").format(path=folder, reason=_reason(exc)), exc.errno
        ) from None
    path = folder / f"{key}.pdn"
    save_pdn(path, record, replace=True)
    return path


# -- who played -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """Who sat on one side of a kept game, as its tags say."""

    #: "person", "computer" (shashki at a level), "engine" (a Hub engine of the
    #: settings) or "program" (any other program).
    kind: str
    #: The name in the record's White or Black tag.
    name: str
    level: int | None = None
    engine: str = ""

    @property
    def key(self) -> str:
        """The same opponent in every game: the computer by level, an engine by its
        setting's name, a person or another program by name."""
        if self.kind == "computer":
            return f"computer:{self.level}"
        if self.kind == "engine":
            return f"engine:{self.engine}"
        return f"{self.kind}:{self.name}"

    def label(self) -> str:
        """The opponent in words, in the language spoken now."""
        if self.kind == "computer":
            return _("Computer, level {n}").format(n=self.level)
        if self.kind == "engine":
            return _("Engine {name}").format(name=self.engine)
        return self.name

    @property
    def is_person(self) -> bool:
        return self.kind == "person"


def _seat(headers: dict[str, str], side: str, default: str) -> Seat:
    name = " ".join(headers.get(side, "").split())[:80] or default
    kind = headers.get(f"{side}Type", "").strip().lower()
    if kind != "program":
        return Seat("person", name)
    level = headers.get(f"{side}Level", "").strip()
    if level.isascii() and level.isdigit() and len(level) <= 2:
        return Seat("computer", name, level=int(level))
    engine = " ".join(headers.get(f"{side}Engine", "").split())[:80]
    if engine:
        return Seat("engine", name, engine=engine)
    return Seat("program", name)


# -- the list -------------------------------------------------------------------------------

#: A result as the player saw it.
WON, DRAWN, LOST = "won", "drawn", "lost"


@dataclass(eq=False)
class KeptGame:
    """One game of the archive, as its tags say (the moves are not read)."""

    key: str
    path: Path
    #: When the game was kept (the file's time, seconds since the epoch).
    when: float
    headers: dict[str, str]
    #: None when the game is of a variant shashki does not have now.
    variant: Variant | None
    seats: tuple[Seat, Seat]
    #: "1-0", "0-1", "1/2-1/2" or "*".
    result: str
    #: Plies of the game (None when the file does not say).
    plies: int | None
    #: How it ended: a Termination value ("resignation"…), or "" when not said.
    ending: str

    @property
    def moves(self) -> int | None:
        """Moves as players count them: a move of each side is one."""
        return None if self.plies is None else (self.plies + 1) // 2

    @cached_property
    def player_side(self) -> int | None:
        """Whose game it is: the one person's side against a program; with two people
        (hot-seat), the first seat's (White's tag); None when no person played."""
        people = [i for i, seat in enumerate(self.seats) if seat.is_person]
        return people[0] if people else None

    @cached_property
    def opponent(self) -> Seat | None:
        side = self.player_side
        return None if side is None else self.seats[1 - side]

    @cached_property
    def score(self) -> str | None:
        """WON, DRAWN or LOST from the player's side; None without a player or result."""
        side = self.player_side
        if side is None or self.result not in (WHITE_WINS, BLACK_WINS, DRAW):
            return None
        if self.result == DRAW:
            return DRAWN
        return WON if (self.result == WHITE_WINS) == (side == 0) else LOST


@dataclass
class ArchiveScan:
    """What :func:`scan` found."""

    folder: Path
    #: The games, the most recently kept first.
    games: list[KeptGame] = field(default_factory=list)
    damaged: list[Damaged] = field(default_factory=list)
    #: What went wrong with the folder itself, in words.
    problems: list[str] = field(default_factory=list)

    def damage_report(self) -> str | None:
        """One line for the player about the files moved aside, or None."""
        if not self.damaged:
            return None
        moved = [d for d in self.damaged if d.moved_to is not None]
        if len(self.damaged) == 1:
            d = self.damaged[0]
            if d.moved_to is not None:
                return _("A damaged file of My games ({reason}) was moved to {path}.").format(
                    reason=d.reason, path=d.moved_to
                )
            return _(
                "A damaged file of My games ({reason}) could not be moved aside: {path}."
            ).format(reason=d.reason, path=d.path)
        parts = []
        if moved:
            parts.append(
                ngettext(
                    "{n} damaged file of My games was moved to {path}.",
                    "{n} damaged files of My games were moved to {path}.",
                    len(moved),
                ).format(n=len(moved), path=self.folder / "damaged")
            )
        stuck = len(self.damaged) - len(moved)
        if stuck:
            parts.append(
                ngettext(
                    "{n} damaged file of My games could not be moved aside from {path}.",
                    "{n} damaged files of My games could not be moved aside from {path}.",
                    stuck,
                ).format(n=stuck, path=self.folder)
            )
        return " ".join(parts)


_END = re.compile(rb"(\*|1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0)\s*$")


#: One tag line as PDN writes it: ``[Name "value"]``, ``\"`` and ``\\`` escaped in the value.
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]{1,40})\s+"((?:[^"\\]|\\.)*)"\s*\]')
_ESCAPE = re.compile(r"\\(.)")


def _head(text: str) -> dict[str, str]:
    """The tags at the top of a PDN text, read line by line up to the first line that is
    not a tag (the moves are never looked at: the list is read fast)."""
    headers: dict[str, str] = {}
    for line in text.lstrip("\ufeff").splitlines():
        line = line.strip()
        if not line:
            if headers:
                break
            continue
        m = _TAG.fullmatch(line)
        if m is None:
            break
        name, value = m.groups()
        headers.setdefault(name, _ESCAPE.sub(r"\1", value) if "\\" in value else value)
    return headers


def _tags(data: bytes) -> dict[str, str]:
    """The first game's tags of a kept file's bytes; raises DamagedSave when the bytes
    are not a finished PDN game."""
    if not data.strip():
        raise DamagedSave(_("the file is empty"))
    if b"\x00" in data:
        raise DamagedSave(_("not a text file"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DamagedSave(_("not a text file")) from None
    if not _END.search(data):
        raise DamagedSave(_("the file ends before the game does"))
    headers = _head(text)
    if not headers:
        raise DamagedSave(_("no game in the file"))
    if not (headers.get("GameType") or headers.get("Variant")):
        raise DamagedSave(_("no GameType tag: not a game of My games"))
    return headers


#: Variants by their tags, looked up once a scan.
_VariantCache = dict[tuple[str, str], Variant | None]


def _variant(headers: dict[str, str], cache: _VariantCache) -> Variant | None:
    key = (headers.get("GameType", ""), headers.get("Variant", ""))
    if key not in cache:
        try:
            cache[key] = variant_from_headers(headers)
        except ShashkiError:
            cache[key] = None
    return cache[key]


def _plies(headers: dict[str, str]) -> int | None:
    text = headers.get("PlyCount", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def _entry(path: Path, when: float, headers: dict[str, str], cache: _VariantCache) -> KeptGame:
    variant = _variant(headers, cache)
    sides = variant.side_names if variant is not None else ("White", "Black")
    return KeptGame(
        key=path.stem,
        path=path,
        when=when,
        headers=headers,
        variant=variant,
        seats=(_seat(headers, "White", sides[0]), _seat(headers, "Black", sides[1])),
        result=normalize_result(headers.get("Result", "*")) or "*",
        plies=_plies(headers),
        ending=" ".join(headers.get(ENDING_TAG, "").split())[:40],
    )


def _set_aside(path: Path, reason: str, found: ArchiveScan) -> None:
    try:
        found.damaged.append(Damaged(path, _move_aside(path), reason))
    except OSError:
        found.damaged.append(Damaged(path, None, reason))


def _read_bytes(path: Path) -> bytes:
    """A kept file's bytes: a regular file of this user, not a link, not too large;
    raises DamagedSave saying why, FileNotFoundError when it is gone."""
    try:
        data = read_limited(path, SIZE_LIMIT, follow=False)
        check_target(path)  # another user's file is not ours to list or delete
    except FileNotFoundError:
        raise
    except OSError as exc:  # a link, a folder, a FIFO, too large, unreadable
        reason = getattr(exc, "reason", None) or _reason(exc)
        raise DamagedSave(_short(str(reason))) from None
    return data


def scan(folder: Path | None = None) -> ArchiveScan:
    """The games of the archive folder, the most recently kept first.

    Removes the temporary files of killed saves and moves what is not a finished game
    to ``damaged/``.  Never raises for the files it finds; a folder that cannot be used
    (a link, another user's, unreadable) is reported in ``problems`` and not read."""
    folder = archive_dir() if folder is None else folder
    found = ArchiveScan(folder)
    if os.path.lexists(folder) and not is_own_folder(folder):
        try:
            own_folder(folder)
        except OSError as exc:
            problem = str(exc) if isinstance(exc, UnsafeFile) else _reason(exc)
            found.problems.append(_("My games cannot be read: {problem}.").format(problem=problem))
        return found
    remove_stale_temporaries(folder)
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return found
    except OSError as exc:
        found.problems.append(
            _("cannot read {folder}: {reason}").format(folder=folder, reason=_reason(exc))
        )
        return found
    cache: _VariantCache = {}
    for entry in entries:
        name = entry.name
        if name.startswith(".") or name == "damaged":
            continue
        path = Path(entry.path)
        if not name.endswith(".pdn"):
            if not entry.is_dir(follow_symlinks=False):
                _set_aside(path, _("not a game of My games"), found)
            continue
        try:
            data = _read_bytes(path)
            headers = _tags(data)
            when = entry.stat(follow_symlinks=False).st_mtime
        except FileNotFoundError:
            continue  # deleted meanwhile (in another shashki)
        except DamagedSave as exc:
            _set_aside(path, str(exc), found)
            continue
        found.games.append(_entry(path, when, headers, cache))
    found.games.sort(key=lambda g: (g.when, g.key), reverse=True)
    return found


# -- one game -------------------------------------------------------------------------------


def read_kept(game: KeptGame) -> GameRecord:
    """The whole record of a kept game, checked to be whole.  Raises DamagedSave (the
    file was moved aside: the message says where), FileNotFoundError (deleted
    meanwhile), or ValueError when its variant is not one shashki has now."""
    try:
        data = _read_bytes(game.path)
        records = list(iter_games(io.BytesIO(data))) if data.strip() else []
        if not records:
            raise DamagedSave(_("no game in the file"))
        record = records[0]
        if record.variant is None:
            raise ValueError(_("This game is of a variant shashki does not play."))
        if record.errors:
            raise DamagedSave(_short(str(record.errors[0])))
    except DamagedSave as exc:
        try:
            moved = _move_aside(game.path)
        except OSError:
            raise DamagedSave(str(exc)) from None
        raise DamagedSave(_("{reason}; moved to {path}").format(reason=exc, path=moved)) from None
    return record


def delete_kept(game: KeptGame) -> None:
    """Delete a kept game's file (a link in its place goes, never what it points at).
    Raises OSError; no error when it is already gone."""
    try:
        os.unlink(game.path)
    except FileNotFoundError:
        pass


def export_kept(game: KeptGame, folder: Path | None = None) -> Path:
    """Write a copy of a kept game to the export folder under a new name (date,
    variant, players), never over another file; returns it.  Raises DamagedSave,
    FileNotFoundError, ValueError or SaveError (an OSError) saying why."""
    record = read_kept(game)
    folder = export_dir() if folder is None else folder
    try:
        if folder == export_dir():  # shashki's own folder: made, and never a link
            own_data_folder(folder)
    except OSError as exc:
        reason = exc.reason if isinstance(exc, UnsafeFile) else _reason(exc)
        raise SaveError(
            _("cannot save {path}: {reason}").format(path=folder, reason=reason)
        ) from None
    date = game.headers.get("Date", "").replace(".", "-")
    white, black = (
        f"computer-{seat.level}" if seat.kind == "computer" else seat.engine or seat.name
        for seat in game.seats
    )
    variant = game.variant.id if game.variant is not None else "game"
    stem = safe_stem(f"{date}-{variant}-{white}-{black}", "game")
    for _attempt in range(5):
        target = free_name(folder, stem)
        try:
            save_pdn(target, record, replace=False)
        except TargetExists:
            continue  # taken meanwhile: the next free name
        return target
    raise SaveError(_("cannot save {path}: {reason}").format(path=folder, reason="no free name"))


# -- the summary ----------------------------------------------------------------------------


@dataclass
class Score:
    """The player's games against one opponent."""

    key: str
    label: str
    won: int = 0
    drawn: int = 0
    lost: int = 0

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost


def summary(games: Iterable[KeptGame]) -> list[Score]:
    """Won, drawn and lost against each opponent (each computer level, each engine,
    each person), from the player's side (:attr:`KeptGame.player_side`); games without
    a person or without a result are not counted.  The opponents most played first."""
    scores: dict[str, Score] = {}
    for game in games:
        score, opponent = game.score, game.opponent
        if score is None or opponent is None:
            continue
        entry = scores.setdefault(opponent.key, Score(opponent.key, opponent.label()))
        if score == WON:
            entry.won += 1
        elif score == DRAWN:
            entry.drawn += 1
        else:
            entry.lost += 1
    return sorted(scores.values(), key=lambda s: (-s.games, s.label.casefold()))
