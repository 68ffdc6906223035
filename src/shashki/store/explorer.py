"""The opening explorer's index: every position of an archive's games, the moves played
there, how those games ended and who played them, in one SQLite file on disk.

A position is found by its key (:func:`position_key`: the variant and the position's
FEN, hashed to 64 bits: move counters left out, so that transpositions meet).  The file
holds:

- ``sources``: each file indexed (its path, size and time of change, whether its
  indexing finished) — a file indexed again replaces its own games, and My games
  (``kind = 'mine'``, one file a game) are brought up to date by :func:`refresh_mine`;
  ``spans``: the rows of ``occ`` each piece of a source wrote (one transaction each),
  so that a source is forgotten without reading the rest;
- ``games``: each game's players, ratings, year, event, result and its place in its file;
- ``occ``: one row a game and position (the first time the game was there): the move
  played, the game's result, year and strength (its players' higher rating), kept in
  the order of strength so that the strongest games of a position are read first;
- ``stats``: for each position and move, how many games, won by each side or drawn —
  the answer without a filter is read from it whatever the number of games.

:func:`index_piece` reads the games of a piece of an archive (a worker's job:
:mod:`shashki.base.workers`); :meth:`Explorer.add_piece` writes what it read, the
pieces of a file in order.  :func:`build` does both for files.

A file that is not such an index — another program's database, a damaged one, one with
anything of its own in it (a trigger, a view) — is refused with one line
(:class:`BadIndex`), never read or changed.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.ownfiles import check_target
from ..base.userfiles import sizes_total
from ..base.workers import Backend, Jobs
from ..i18n import _
from ..records.model import GameRecord
from ..records.pieces import PIECE_BYTES, Piece, piece_games, pieces
from ..records.tags import BLACK_WINS, DRAW, WHITE_WINS
from ..rules.errors import ShashkiError
from ..rules.variant import Variant
from ..rules.variant_registry import find_variant
from .storage import data_dir, own_data_folder

#: The index's schema; a file of another is built again.
SCHEMA = 1
#: SQLite's application id of an explorer index ("SHXP").
APPLICATION_ID = 0x53485850
#: Plies of each game indexed by default (the opening and the middle game: past them the
#: positions of two games almost never meet).
DEFAULT_PLIES = 80
#: The strongest games named for a position.
TOP_GAMES = 5
#: The event shashki writes in a game of its own ("Event" tag): not an event's name.
DEFAULT_EVENT = "shashki game"

_TABLES = {
    "meta": "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID",
    "sources": (
        "CREATE TABLE sources(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL,"
        " kind TEXT NOT NULL, size INTEGER, mtime REAL, games INTEGER DEFAULT 0,"
        " done INTEGER DEFAULT 0)"
    ),
    "spans": (
        "CREATE TABLE spans(source INTEGER NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL)"
    ),
    "games": (
        "CREATE TABLE games(id INTEGER PRIMARY KEY, source INTEGER NOT NULL,"
        " number INTEGER NOT NULL, variant TEXT NOT NULL, white TEXT, black TEXT,"
        " white_elo INTEGER, black_elo INTEGER, year INTEGER, event TEXT, result INTEGER,"
        " strength INTEGER)"
    ),
    "occ": (
        "CREATE TABLE occ(pos INTEGER NOT NULL, move TEXT NOT NULL, game INTEGER NOT NULL,"
        " result INTEGER, year INTEGER, strength INTEGER)"
    ),
    "stats": (
        "CREATE TABLE stats(pos INTEGER NOT NULL, move TEXT NOT NULL, games INTEGER NOT NULL,"
        " white INTEGER NOT NULL, draws INTEGER NOT NULL, black INTEGER NOT NULL,"
        " PRIMARY KEY(pos, move)) WITHOUT ROWID"
    ),
}
_INDEXES = {
    "occ_pos": "CREATE INDEX occ_pos ON occ(pos, strength DESC, year DESC)",
    "games_source": "CREATE INDEX games_source ON games(source)",
    "spans_source": "CREATE INDEX spans_source ON spans(source)",
}
_KIND = "shashki explorer"

#: A year in a Date tag: "1996.01.13", "13-01-1996", "1950.", "2000".
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


class BadIndex(ShashkiError):
    """An index that cannot be used (not one, damaged, of another schema)."""


def position_key(variant_id: str, fen: str) -> int:
    """A position's key: 64 bits of a hash of its variant and FEN (signed, as SQLite
    keeps integers)."""
    digest = hashlib.blake2b(f"{variant_id}\n{fen}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def default_index() -> Path:
    """The index ``shashki explore build`` writes and the app reads by default."""
    return data_dir() / "explorer.sqlite"


# -- reading games: a worker's job -------------------------------------------------------


@dataclass(frozen=True)
class IndexedGame:
    """What the index keeps of one game."""

    number: int
    variant: str
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None
    year: int | None
    event: str
    #: 1 the first side won, 0 a draw, -1 the second side won, None unknown.
    result: int | None
    #: (position key, move in full notation) for each position of the game's main line,
    #: the first time the game was there.
    positions: tuple[tuple[int, str], ...]

    @property
    def strength(self) -> int:
        return max(self.white_elo or 0, self.black_elo or 0)


@dataclass(frozen=True)
class PieceIndex:
    """What :func:`index_piece` read of one piece."""

    source: str
    number: int
    games: tuple[IndexedGame, ...]
    #: Games that could not be used (no variant shashki plays, no move read).
    skipped: int = 0
    #: Of those, games without an error (a position without moves, a problem).
    moveless: int = 0
    #: The first error read, when no game could be used ("not a text file").
    error: str = ""


def _rating(record: GameRecord, *names: str) -> int | None:
    for name in names:
        text = record.header(name).strip()
        if text.isdigit() and 0 < len(text) <= 5:
            return int(text)
    return None


def _result(text: str) -> int | None:
    return {WHITE_WINS: 1, DRAW: 0, BLACK_WINS: -1}.get(text)


def game_entry(record: GameRecord, number: int, plies: int) -> IndexedGame | None:
    """What the index keeps of a record (None: nothing to keep)."""
    if record.variant is None:
        return None
    moves = record.mainline_moves()
    if not moves:
        return None
    try:
        game = record.start()
    except ShashkiError:
        return None
    variant_id = record.variant.id
    seen: set[int] = set()
    positions: list[tuple[int, str]] = []
    for move in moves[:plies]:
        key = position_key(variant_id, game.fen())
        text = game.move_text(move, full=True)
        if key not in seen:
            seen.add(key)
            positions.append((key, text))
        game.push(move)
    year = _YEAR.search(record.header("Date") or record.header("UTCDate"))
    return IndexedGame(
        number=number,
        variant=variant_id,
        white=(record.header("White") or record.header("P1")).strip()[:200],
        black=(record.header("Black") or record.header("P2")).strip()[:200],
        white_elo=_rating(record, "WhiteElo", "P1Elo"),
        black_elo=_rating(record, "BlackElo", "P2Elo"),
        year=int(year.group(1)) if year else None,
        event=record.header("Event").strip()[:200],
        result=_result(record.result),
        positions=tuple(positions),
    )


def index_piece(piece: Piece, default_variant: str | None, plies: int) -> PieceIndex:
    """Read the games of a piece for the index (a worker's job)."""
    games: list[IndexedGame] = []
    skipped = moveless = 0
    error = ""
    for number, record in enumerate(piece_games(piece, default_variant)):
        entry = game_entry(record, number, plies)
        if entry is not None:
            games.append(entry)
            continue
        skipped += 1
        if record.errors:
            error = error or record.errors[0].message
        else:
            moveless += 1
    return PieceIndex(piece.source, piece.number, tuple(games), skipped, moveless, error)


# -- answers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveStat:
    """A move played in a position: in how many games, and how they ended."""

    move: str
    games: int
    white: int
    draws: int
    black: int

    def score(self, side: int) -> float | None:
        """The share of the points ``side`` (0 the first side) scored in the games of
        known result, 0 to 1; None when there is none."""
        known = self.white + self.draws + self.black
        if not known:
            return None
        won = self.white if side == 0 else self.black
        return (won + self.draws / 2) / known


@dataclass(frozen=True)
class TopGame:
    """One of the strongest games that reached a position."""

    move: str
    white: str
    black: str
    result: int | None
    year: int | None
    event: str
    strength: int
    source: str
    number: int

    def players(self, variant: Variant) -> tuple[str, str]:
        """Who played, as a screen says it: a name as written, a side's name where the
        record names nobody (shashki writes "White" then: said in the language, «Білі»)."""
        sides = {name.lower() for name in variant.side_names} | {"white", "black"}

        def shown(side: int, name: str) -> str:
            return str(variant.local_side(side)) if name.lower() in sides else name or "?"

        return shown(0, self.white), shown(1, self.black)

    def shown_event(self) -> str:
        """The event as a screen says it: none for the one shashki writes itself."""
        return "" if self.event == DEFAULT_EVENT else self.event


@dataclass(frozen=True)
class Answer:
    """What the index knows of a position."""

    moves: list[MoveStat] = field(default_factory=list)
    games: list[TopGame] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(m.games for m in self.moves)


@dataclass(frozen=True)
class Filter:
    """Only some games: a player's (part of the name, either side), of some years."""

    player: str = ""
    first_year: int | None = None
    last_year: int | None = None

    @property
    def empty(self) -> bool:
        return not self.player and self.first_year is None and self.last_year is None


#: Years as a person writes them: "1990-2000", "1990-", "-2000", "1995" (a dash or a
#: en dash).
_YEARS_TEXT = re.compile(r"(\d{3,4})?\s*([-–])?\s*(\d{3,4})?")


def parse_years(text: str) -> tuple[int | None, int | None]:
    """Years as written (see :data:`_YEARS_TEXT`): (first, last), either None when open.
    Raises ValueError, in words, for anything else.

    >>> parse_years("1990-2000"), parse_years("1995"), parse_years("-2000")
    ((1990, 2000), (1995, 1995), (None, 2000))
    """
    found = _YEARS_TEXT.fullmatch(text.strip())
    if found is None or not (found[1] or found[3]):
        raise ValueError(
            _("not years: {text} (write 1990-2000, 1990-, -2000 or 1995)").format(
                text=text.strip()[:40]
            )
        )
    first = int(found[1]) if found[1] else None
    last = int(found[3]) if found[3] else None
    if found[2] is None:  # one year
        last = first
    if first is not None and last is not None and first > last:
        raise ValueError(
            _("the first year comes after the last: {text}").format(text=text.strip()[:40])
        )
    return first, last


def parse_filter(text: str) -> Filter:
    """A filter as one line: a player's name (or part of it) and years, either or both,
    in any order: "Ivanov 1990-2000", "1995", "Sijbrands".  Raises ValueError for years
    written wrong ("2000-1990")."""
    words = text.split()
    years = [w for w in words if re.fullmatch(r"[\d\-–]+", w)]
    if not any(c.isdigit() for w in years for c in w):
        years = []
    player = " ".join(w for w in words if w not in years)
    first = last = None
    if years:
        first, last = parse_years("".join(years))
    return Filter(player=player[:100], first_year=first, last_year=last)


def describe_filter(where: Filter) -> str:
    """A filter in words, as :func:`parse_filter` reads it back."""
    parts = [where.player] if where.player else []
    if where.first_year is not None or where.last_year is not None:
        if where.first_year == where.last_year:
            parts.append(str(where.first_year))
        else:
            first = "" if where.first_year is None else str(where.first_year)
            last = "" if where.last_year is None else str(where.last_year)
            parts.append(f"{first}–{last}")
    return " ".join(parts)


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


# -- the file -----------------------------------------------------------------------------


class Explorer:
    """An index file, opened (made when ``create``); a context manager."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = False) -> None:
        self.path = Path(path)
        try:
            check_target(self.path)  # (no link, no FIFO, no other user's file)
            exists = self.path.exists()
        except OSError as exc:
            raise BadIndex(
                _("{path} cannot be used ({reason})").format(path=path, reason=exc)
            ) from None
        if not exists and not create:
            raise BadIndex(
                _(
                    "{path}: no explorer index there; make one with: `shashki explore build FILE…`"
                ).format(path=path)
            )
        try:
            if not exists and _inside(self.path, data_dir()):
                own_data_folder(self.path.parent)
            self.db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise BadIndex(
                _("{path} cannot be opened ({reason})").format(path=path, reason=exc)
            ) from None
        try:
            self.db.execute("PRAGMA trusted_schema = OFF")
            if exists:
                self._check()
            else:
                self._make()
        except sqlite3.Error as exc:
            self.db.close()
            raise BadIndex(self._damaged(str(exc))) from None
        except BadIndex:
            self.db.close()
            raise

    def _damaged(self, reason: str) -> str:
        return _(
            "{path}: not an explorer index, or a damaged one ({reason}); build it again: "
            "`shashki explore build FILE… --index {path}`"
        ).format(path=self.path, reason=reason)

    def _make(self) -> None:
        with self.db:
            self.db.execute("PRAGMA journal_mode = WAL")
            for sql in (*_TABLES.values(), *_INDEXES.values()):
                self.db.execute(sql)
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version = {SCHEMA}")
            self.db.execute("INSERT INTO meta VALUES ('kind', ?)", (_KIND,))

    def _check(self) -> None:
        (app,) = self.db.execute("PRAGMA application_id").fetchone()
        if app != APPLICATION_ID:
            raise BadIndex(self._damaged(_("another program's file")))
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version != SCHEMA:
            raise BadIndex(self._damaged(_("made by another version of shashki")))
        found = {
            (kind, name): sql
            for kind, name, sql in self.db.execute("SELECT type, name, sql FROM sqlite_master")
        }
        wanted = {("table", n): s for n, s in _TABLES.items()}
        wanted |= {("index", n): s for n, s in _INDEXES.items()}
        extra = [name for (kind, name) in found if (kind, name) not in wanted and found[kind, name]]
        if extra or any(found.get(k) != s for k, s in wanted.items()):
            raise BadIndex(self._damaged(_("its tables are not an explorer's")))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Explorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------

    def source_state(self, path: str) -> tuple[int, float, bool] | None:
        """(size, time of change, finished) of a source indexed, None if it is not."""
        row = self.db.execute(
            "SELECT size, mtime, done FROM sources WHERE path = ?", (path,)
        ).fetchone()
        return None if row is None else (int(row[0] or 0), float(row[1] or 0), bool(row[2]))

    def up_to_date(self, path: str, size: int, mtime: float) -> bool:
        """Whether ``path`` was indexed whole as it is now."""
        state = self.source_state(path)
        return state is not None and state == (size, mtime, True)

    def begin_source(self, path: str, kind: str, size: int, mtime: float) -> int:
        """Start (again) indexing ``path``: what was kept of it goes; its id."""
        self.drop_source(path)
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO sources(path, kind, size, mtime) VALUES (?, ?, ?, ?)",
                (path, kind, size, mtime),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_piece(self, source: int, piece: PieceIndex, first_number: int) -> None:
        """Write the games of a piece of ``source`` (its games numbered from
        ``first_number``); the pieces of a source come in order."""
        stats: dict[tuple[int, str], list[int]] = {}
        with self.db:
            for game in piece.games:
                cursor = self.db.execute(
                    "INSERT INTO games(source, number, variant, white, black, white_elo,"
                    " black_elo, year, event, result, strength) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        source,
                        first_number + game.number,
                        game.variant,
                        game.white,
                        game.black,
                        game.white_elo,
                        game.black_elo,
                        game.year,
                        game.event,
                        game.result,
                        game.strength,
                    ),
                )
                game_id = cursor.lastrowid
                cursor = self.db.executemany(
                    "INSERT INTO occ(pos, move, game, result, year, strength) VALUES (?,?,?,?,?,?)",
                    [
                        (key, move, game_id, game.result, game.year, game.strength)
                        for key, move in game.positions
                    ],
                )
                column = {1: 1, 0: 2, -1: 3}.get(game.result) if game.result is not None else None
                for key, move in game.positions:
                    counts = stats.setdefault((key, move), [0, 0, 0, 0])
                    counts[0] += 1
                    if column is not None:
                        counts[column] += 1
            self._add_stats(stats, 1)
            count = sum(len(g.positions) for g in piece.games)
            if count:
                (last,) = self.db.execute("SELECT max(rowid) FROM occ").fetchone()
                self.db.execute(
                    "INSERT INTO spans VALUES (?, ?, ?)", (source, last - count + 1, last)
                )
            self.db.execute(
                "UPDATE sources SET games = games + ? WHERE id = ?", (len(piece.games), source)
            )

    def _add_stats(self, stats: dict[tuple[int, str], list[int]], sign: int) -> None:
        self.db.executemany(
            "INSERT INTO stats(pos, move, games, white, draws, black) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT(pos, move) DO UPDATE SET games = games + excluded.games,"
            " white = white + excluded.white, draws = draws + excluded.draws,"
            " black = black + excluded.black",
            [(key, move, *(sign * c for c in counts)) for (key, move), counts in stats.items()],
        )

    def finish_source(self, source: int) -> None:
        with self.db:
            self.db.execute("UPDATE sources SET done = 1 WHERE id = ?", (source,))

    def drop_source(self, path: str) -> bool:
        """Forget what was kept of ``path``; whether there was anything."""
        row = self.db.execute("SELECT id FROM sources WHERE path = ?", (path,)).fetchone()
        if row is None:
            return False
        (source,) = row
        with self.db:
            spans = self.db.execute(
                "SELECT first, last FROM spans WHERE source = ?", (source,)
            ).fetchall()
            stats: dict[tuple[int, str], list[int]] = {}
            for first, last in spans:
                rows = self.db.execute(
                    "SELECT pos, move, result FROM occ WHERE rowid BETWEEN ? AND ?", (first, last)
                )
                for key, move, result in rows:
                    counts = stats.setdefault((key, move), [0, 0, 0, 0])
                    counts[0] += 1
                    if result in (1, 0, -1):
                        counts[{1: 1, 0: 2, -1: 3}[result]] += 1
                self.db.execute("DELETE FROM occ WHERE rowid BETWEEN ? AND ?", (first, last))
            if stats:
                self._add_stats(stats, -1)
                self.db.execute("DELETE FROM stats WHERE games <= 0")
            self.db.execute("DELETE FROM spans WHERE source = ?", (source,))
            self.db.execute("DELETE FROM games WHERE source = ?", (source,))
            self.db.execute("DELETE FROM sources WHERE id = ?", (source,))
        return True

    def sources(self, kind: str | None = None) -> list[tuple[str, str, int, bool]]:
        """(path, kind, games, finished) of every source, or those of one kind."""
        sql = "SELECT path, kind, games, done FROM sources"
        rows = (
            self.db.execute(sql + " WHERE kind = ? ORDER BY id", (kind,))
            if kind
            else self.db.execute(sql + " ORDER BY id")
        )
        return [(str(p), str(k), int(g or 0), bool(d)) for p, k, g, d in rows]

    # -- reading --------------------------------------------------------------------------

    def answer(self, variant_id: str, fen: str, where: Filter | None = None) -> Answer:
        """The moves played in the position and the strongest games that reached it."""
        key = position_key(variant_id, fen)
        where = where or Filter()
        try:
            if where.empty:
                rows = self.db.execute(
                    "SELECT move, games, white, draws, black FROM stats WHERE pos = ?", (key,)
                ).fetchall()
                moves = [MoveStat(str(m), int(g), int(w), int(d), int(b)) for m, g, w, d, b in rows]
            else:
                moves = self._filtered(key, where)
            games = self._top(key, where)
        except sqlite3.Error as exc:
            raise BadIndex(self._damaged(str(exc))) from None
        moves.sort(key=lambda m: (-m.games, m.move))
        return Answer(moves, games)

    def _conditions(self, key: int, where: Filter) -> tuple[str, list[Any]]:
        sql = "o.pos = ?"
        args: list[Any] = [key]
        if where.first_year is not None:
            sql += " AND o.year >= ?"
            args.append(where.first_year)
        if where.last_year is not None:
            sql += " AND o.year <= ?"
            args.append(where.last_year)
        if where.player:
            sql += (
                " AND o.game IN (SELECT id FROM games WHERE white LIKE ? ESCAPE '\\'"
                " OR black LIKE ? ESCAPE '\\')"
            )
            args += [_like(where.player)] * 2
        return sql, args

    def _filtered(self, key: int, where: Filter) -> list[MoveStat]:
        sql, args = self._conditions(key, where)
        rows = self.db.execute(
            "SELECT o.move, count(*), sum(o.result = 1), sum(o.result = 0), sum(o.result = -1)"
            f" FROM occ o WHERE {sql} GROUP BY o.move",
            args,
        )
        return [
            MoveStat(str(m), int(g), int(w or 0), int(d or 0), int(b or 0))
            for m, g, w, d, b in rows
        ]

    def _top(self, key: int, where: Filter) -> list[TopGame]:
        sql, args = self._conditions(key, where)
        rows = self.db.execute(
            "SELECT o.move, g.white, g.black, g.result, g.year, g.event, g.strength, s.path,"
            " g.number FROM occ o JOIN games g ON g.id = o.game JOIN sources s ON s.id = g.source"
            f" WHERE {sql} ORDER BY o.strength DESC, o.year DESC LIMIT {TOP_GAMES}",
            args,
        )
        return [
            TopGame(
                str(m), str(w or ""), str(b or ""), r, y, str(e or ""), int(st or 0), str(p), int(n)
            )
            for m, w, b, r, y, e, st, p, n in rows
        ]

    def counts(self) -> tuple[int, int, int]:
        """(sources, games, positions with a move) in the index."""
        s = self.db.execute("SELECT count(*), coalesce(sum(games), 0) FROM sources").fetchone()
        p = self.db.execute("SELECT count(DISTINCT pos) FROM stats").fetchone()
        return int(s[0]), int(s[1]), int(p[0])


def _inside(path: Path, folder: Path) -> bool:
    try:
        return folder.resolve() in path.resolve().parents
    except OSError:
        return False


# -- building -----------------------------------------------------------------------------


@dataclass
class BuildReport:
    """What a build did."""

    files: int = 0
    #: Files left as they were (indexed whole already).
    kept: int = 0
    games: int = 0
    skipped: int = 0
    positions: int = 0
    #: One line for each file that could not be read, or held no game.
    problems: list[str] = field(default_factory=list)
    #: Those files.
    failed: set[str] = field(default_factory=set)
    #: What else to say (the variant guessed for a file's games that name none).
    notes: list[str] = field(default_factory=list)

    def fail(self, path: str, reason: str) -> None:
        self.failed.add(path)
        self.problems.append(f"{path}: {reason}")


def _guess(path: str, report: BuildReport) -> str | None:
    """The variant of the games of ``path`` that name none, guessed from their moves."""
    from ..records.gametypes import DEFAULT_VARIANT
    from ..records.guess import guess_variant

    try:
        guess = guess_variant(path)
    except (OSError, ValueError):
        return None
    if guess is None or guess.variant.id == DEFAULT_VARIANT:
        return None
    report.notes.append(f"{path}: {guess.line()}")
    return guess.variant.id


def _file_jobs(
    paths: Sequence[str],
    explorer: Explorer,
    report: BuildReport,
    kind: str,
    default: str | None,
    plies: int,
    started: Callable[[str, int], None],
    size: int,
) -> Iterator[tuple[Piece, str | None, int]]:
    for path in paths:
        try:
            info = os.stat(path)
        except OSError as exc:
            report.fail(path, exc.strerror or str(exc))
            continue
        if explorer.up_to_date(path, info.st_size, info.st_mtime):
            report.kept += 1
            continue
        report.files += 1
        started(path, info.st_size)
        try:
            read_as = default if default is not None else _guess(path, report)
            for piece in pieces(path, size):
                yield (piece, read_as, plies)
        except OSError as exc:
            report.fail(path, str(getattr(exc, "reason", None) or exc.strerror or exc))
        except ValueError as exc:
            report.fail(path, str(exc))


def build(
    explorer: Explorer,
    paths: Iterable[str | os.PathLike[str]],
    *,
    kind: str = "file",
    default_variant: str | None = None,
    plies: int = DEFAULT_PLIES,
    workers: int | None = None,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    piece_bytes: int = PIECE_BYTES,
) -> BuildReport:
    """Index the games of ``paths`` into ``explorer``, the pieces read in worker processes
    and written in order; a file indexed whole as it is now is left as it is.
    ``progress(bytes done, bytes in all)`` as pieces are written."""
    names = [os.fspath(p) for p in paths]
    if default_variant is not None:
        default_variant = find_variant(default_variant).id
    report = BuildReport()
    total = sizes_total(names)
    indexing = _Indexing(explorer, kind, report)
    jobs_made = _file_jobs(
        names, explorer, report, kind, default_variant, plies, indexing.started, piece_bytes
    )
    jobs: Jobs[PieceIndex] = Jobs(
        index_piece, indexing.numbered(jobs_made), workers=workers, backend=backend
    )
    done_bytes = 0
    for number, piece_index in jobs.in_order(cancelled):
        done_bytes += indexing.take(number, piece_index)
        if progress is not None:
            progress(done_bytes, total)
    if jobs.cancelled:
        return report
    indexing.close()
    return report


class _Indexing:
    """One run of :func:`build`: the sources begun, the pieces given to the workers in
    order, and what each file gave."""

    def __init__(self, explorer: Explorer, kind: str, report: BuildReport) -> None:
        self.explorer = explorer
        self.kind = kind
        self.report = report
        self.sources: dict[str, int] = {}
        #: Games of each file before its next piece.
        self.numbers: dict[str, int] = {}
        #: job number -> (source path, bytes)
        self.order: dict[int, tuple[str, int]] = {}
        self.games_of: dict[str, int] = {}
        self.moveless_of: dict[str, int] = {}
        self.error_of: dict[str, str] = {}

    def started(self, path: str, size: int) -> None:
        """A file's source begun in the index (its pieces follow)."""
        mtime = os.stat(path).st_mtime
        self.sources[path] = self.explorer.begin_source(path, self.kind, size, mtime)
        self.numbers[path] = 0

    def numbered(
        self, jobs_made: Iterator[tuple[Piece, str | None, int]]
    ) -> Iterator[tuple[Piece, str | None, int]]:
        """The jobs, each noted under its number with its file and bytes."""
        for count, job in enumerate(jobs_made):
            piece = job[0]
            size = len(piece.data) if isinstance(piece.data, bytes) else sum(map(len, piece.data))
            self.order[count] = (piece.source, size)
            yield job

    def take(self, job: int, piece_index: PieceIndex) -> int:
        """Write the games of piece number ``job`` (its turn has come); the piece's bytes."""
        path, size = self.order.pop(job)
        report = self.report
        self.explorer.add_piece(self.sources[path], piece_index, self.numbers[path])
        self.numbers[path] += len(piece_index.games) + piece_index.skipped
        self.games_of[path] = self.games_of.get(path, 0) + len(piece_index.games)
        self.moveless_of[path] = self.moveless_of.get(path, 0) + piece_index.moveless
        self.error_of.setdefault(path, piece_index.error)
        report.games += len(piece_index.games)
        report.skipped += piece_index.skipped
        report.positions += sum(len(g.positions) for g in piece_index.games)
        return size

    def close(self) -> None:
        """Every source finished, or dropped when its file failed or gave no game."""
        explorer, report = self.explorer, self.report
        for path, source in self.sources.items():
            if path in report.failed:
                explorer.drop_source(path)
            elif self.games_of.get(path, 0) == 0:
                explorer.drop_source(path)
                if self.moveless_of.get(path, 0):
                    report.fail(path, _("its games have no moves: nothing to index"))
                else:
                    reason = self.error_of.get(path) or _("no game in it")
                    report.fail(path, _("not a PDN file: {reason}").format(reason=reason))
            else:
                explorer.finish_source(source)


def refresh_mine(explorer: Explorer, folder: Path | None = None) -> BuildReport:
    """Bring My games up to date in the index: the games kept since are added, those
    deleted forgotten (in this process: a game is a small file)."""
    from .archive import archive_dir

    folder = folder if folder is not None else archive_dir()
    try:
        present = sorted(
            str(entry.path)
            for entry in os.scandir(folder)
            if entry.name.endswith(".pdn") and entry.is_file(follow_symlinks=False)
        )
    except FileNotFoundError:
        present = []
    except OSError as exc:
        report = BuildReport()
        report.fail(str(folder), exc.strerror or str(exc))
        return report
    kept = set(present)
    for path, _kind, _games, _done in explorer.sources("mine"):
        if path not in kept:
            explorer.drop_source(path)
    return build(explorer, present, kind="mine", workers=1)


__all__ = [
    "DEFAULT_PLIES",
    "Answer",
    "BadIndex",
    "BuildReport",
    "Explorer",
    "Filter",
    "IndexedGame",
    "MoveStat",
    "PieceIndex",
    "TopGame",
    "build",
    "default_index",
    "describe_filter",
    "game_entry",
    "index_piece",
    "parse_filter",
    "parse_years",
    "position_key",
    "refresh_mine",
]
