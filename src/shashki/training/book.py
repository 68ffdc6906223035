"""A book of puzzles: a PDN file, one game a puzzle — its position (``SetUp``/``FEN``),
its solution as the moves (the solver's first and last), and tags of its own:
``Theme`` (the themes' ids, :mod:`shashki.training.themes`), ``Difficulty`` (a rating)
and ``Source`` (where it comes from).  Any PDN program can open it; ``shashki replay``
plays the solutions out.

:func:`read_book` reads one back: a game of it that is no puzzle (a hand's edit: no
move, a move that is not legal, a variant shashki does not play) is one line of
:attr:`Book.problems` and left out, the others kept.  :class:`BookWriter` adds puzzles
to a book as they are found (each forced to disk), never a position the book holds
already, and keeps beside it what was mined of which file (``NAME.mined``, JSON), so
that mining stopped resumes where it stopped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..base.ownfiles import UnsafeFile, open_in_place, replace_file
from ..base.userfiles import UserFileError
from ..i18n import _
from ..records.model import GameNode, GameRecord
from ..records.reader import read_games
from ..records.writer import write_game
from ..rules.errors import ShashkiError
from ..rules.game import Game
from ..store.storage import data_dir, own_data_folder
from .mining import Puzzle
from .themes import THEMES

#: The resume file's form.
STATE_VERSION = 1
#: The biggest resume file read (bytes): it lists files mined, not games.
STATE_BYTES = 4 << 20


def default_book() -> Path:
    """The book ``shashki puzzles mine`` adds to by default."""
    return data_dir() / "puzzles" / "mined.pdn"


def puzzle_record(puzzle: Puzzle) -> GameRecord:
    """A puzzle as a PDN game."""
    headers = {
        "Event": "Puzzle",
        "Result": "*",
        "Theme": " ".join(puzzle.themes),
        "Difficulty": str(puzzle.difficulty),
        "Source": puzzle.source,
    }
    game = Game(puzzle.variant, puzzle.fen)
    usual = Game(puzzle.variant).fen()
    record = GameRecord(puzzle.variant, None if game.fen() == usual else game.fen(), headers)
    node: GameNode = record
    for text in puzzle.line:
        move = game.parse_move(text)
        game.push(move)
        node = node.add_variation(move)
    return record


def record_puzzle(record: GameRecord) -> Puzzle:
    """A PDN game read back as a puzzle; raises ShashkiError saying why it is none."""
    if record.errors:
        raise ShashkiError(record.errors[0].message)
    if record.variant is None:
        raise ShashkiError(_("the game is of a variant shashki does not play"))
    moves = record.mainline_moves()
    if not moves:
        raise ShashkiError(_("no solution: the game has no moves"))
    game = record.start()
    start = game.fen()
    texts = []
    for move in moves:
        texts.append(game.move_text(move, full=True))
        game.push(move)
    themes = tuple(t for t in record.header("Theme").split() if t in THEMES)
    text = record.header("Difficulty").strip()
    rating = int(text) if text.isdigit() and len(text) <= 4 else 1500
    return Puzzle(
        variant=record.variant.id,
        fen=start,
        line=tuple(texts),
        themes=themes,
        difficulty=max(100, min(3500, rating)),
        source=" ".join(record.header("Source").split())[:300],
    )


@dataclass
class Book:
    """The puzzles of a book and what could not be read."""

    puzzles: list[Puzzle] = field(default_factory=list)
    #: One line for each game that is no puzzle.
    problems: list[str] = field(default_factory=list)


def read_book(path: str | os.PathLike[str]) -> Book:
    """The puzzles of a book (see the module).  Raises OSError when the file cannot be
    read at all (missing, a folder, not text…)."""
    book = Book()
    seen: set[int] = set()
    for number, record in enumerate(read_games(os.fspath(path))):
        try:
            puzzle = record_puzzle(record)
        except ShashkiError as exc:
            where = _("game {n}").format(n=number + 1)
            if record.line:
                where += _(" (line {line})").format(line=record.line)
            book.problems.append(
                _("{path}, {where}: not a puzzle ({reason})").format(
                    path=path, where=where, reason=str(exc)
                )
            )
            continue
        if puzzle.key not in seen:
            seen.add(puzzle.key)
            book.puzzles.append(puzzle)
    return book


def _state_path(book: Path) -> Path:
    return book.with_name(book.name + ".mined")


class BookWriter:
    """Puzzles added to a book (see the module); made before anything is mined, so that
    a file that cannot be written is said at once.  Raises OSError saying why."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if self.path.parent == default_book().parent:
            own_data_folder(self.path.parent)
        #: The positions the book holds.
        self.keys: set[int] = set()
        #: Lines of the book that are no puzzle.
        self.problems: list[str] = []
        if self.path.exists():
            try:
                book = read_book(self.path)
            except UserFileError as exc:
                raise OSError(str(exc)) from None
            self.keys = {p.key for p in book.puzzles}
            self.problems = book.problems
        fd = open_in_place(self.path, create=True, append=True)
        os.close(fd)
        self.added = 0
        self._state = self._read_state()

    # -- what was mined -------------------------------------------------------------------

    def _read_state(self) -> dict[str, dict[str, float | int | bool]]:
        path = _state_path(self.path)
        try:
            with open(path, "rb") as fh:
                data = json.loads(fh.read(STATE_BYTES + 1)[:STATE_BYTES])
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return {}  # (a damaged one: every file is mined again, no puzzle twice)
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            return {}
        files = data.get("files")
        if not isinstance(files, dict):
            return {}
        out: dict[str, dict[str, float | int | bool]] = {}
        for name, entry in files.items():
            if isinstance(name, str) and isinstance(entry, dict):
                clean = {
                    k: v
                    for k, v in entry.items()
                    if k in ("size", "mtime", "pieces", "piece_bytes", "games", "done")
                    and isinstance(v, int | float | bool)
                }
                out[name] = clean
        return out

    def _write_state(self) -> None:
        data = {"version": STATE_VERSION, "files": self._state}
        replace_file(_state_path(self.path), json.dumps(data, indent=1).encode())

    def resume_at(self, source: str, size: int, mtime: float, piece_bytes: int) -> tuple[int, int]:
        """(pieces, games) of ``source`` mined already as it is now: 0, 0 when it
        changed, was never mined or was cut otherwise; -1 pieces when it was mined whole."""
        entry = self._state.get(source)
        if (
            entry is None
            or entry.get("size") != size
            or entry.get("mtime") != mtime
            or entry.get("piece_bytes") != piece_bytes
        ):
            return 0, 0
        if entry.get("done"):
            return -1, int(entry.get("games", 0))
        return int(entry.get("pieces", 0)), int(entry.get("games", 0))

    def mined(
        self,
        source: str,
        size: int,
        mtime: float,
        piece_bytes: int,
        pieces: int,
        games: int,
        done: bool,
    ) -> None:
        """Note how much of ``source`` is mined (written at once)."""
        self._state[source] = {
            "size": size,
            "mtime": mtime,
            "piece_bytes": piece_bytes,
            "pieces": pieces,
            "games": games,
            "done": done,
        }
        self._write_state()

    # -- the puzzles ----------------------------------------------------------------------

    def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Add the puzzles of positions the book does not hold; how many."""
        new = []
        for puzzle in puzzles:
            if puzzle.key in self.keys:
                continue
            self.keys.add(puzzle.key)
            new.append(puzzle)
        if not new:
            return 0
        text = "".join("\n" + write_game(puzzle_record(p)) for p in new)
        try:
            fd = open_in_place(self.path, create=True, append=True)
        except UnsafeFile as exc:
            raise OSError(
                _("cannot save {path}: {reason}").format(path=self.path, reason=exc.reason)
            ) from None
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        self.added += len(new)
        return len(new)


__all__ = [
    "Book",
    "BookWriter",
    "default_book",
    "puzzle_record",
    "read_book",
    "record_puzzle",
]
