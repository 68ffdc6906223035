"""Mining files into a book: :func:`mine_files` cuts each archive into pieces of a few
games, has :func:`~shashki.training.mining.mine_piece` judge them in worker processes
(or on a cluster: a :class:`~shashki.base.workers.Backend`), and adds the puzzles to a
:class:`~shashki.training.book.BookWriter` piece by piece, in the file's order, noting
after each how far the file is mined: mining stopped (Ctrl+C, a crash) starts again at
the first piece not written, and a file mined whole is left alone until it changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from ..base.userfiles import sizes_total
from ..base.workers import Backend, Jobs
from ..i18n import _
from ..records.gametypes import DEFAULT_VARIANT
from ..records.guess import guess_variant
from ..records.pieces import Piece, pieces
from ..rules.variant_registry import find_variant
from .book import BookWriter
from .mining import PIECE_BYTES, MiningOptions, PieceMined, mine_piece


@dataclass
class MiningReport:
    """What a run of mining did."""

    files: int = 0
    #: Files mined whole before, left as they were.
    kept: int = 0
    games: int = 0
    positions: int = 0
    found: int = 0
    #: Puzzles found whose position the book held already.
    repeated: int = 0
    #: One line for each file that could not be read or held no game.
    problems: list[str] = field(default_factory=list)
    #: What else to say (the variant guessed for a file's games that name none).
    notes: list[str] = field(default_factory=list)
    stopped: bool = False


@dataclass
class _File:
    path: str
    size: int
    mtime: float
    #: Pieces written (those of earlier runs included), games before the next piece.
    pieces: int = 0
    games: int = 0
    #: Every piece of the file was given to the workers.
    cut: bool = False
    #: Pieces given to the workers (those of earlier runs included).
    given: int = 0
    used: int = 0
    error: str = ""
    failed: bool = False
    #: Mined from its first piece in this run.
    fresh: bool = True


def mine_files(
    writer: BookWriter,
    paths: Iterable[str | os.PathLike[str]],
    *,
    options: MiningOptions | None = None,
    default_variant: str | None = None,
    workers: int | None = None,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    piece_bytes: int = PIECE_BYTES,
) -> MiningReport:
    """Mine the games of ``paths`` into ``writer``'s book (see the module);
    ``progress(bytes done, bytes in all)`` as pieces are written."""
    names = [os.fspath(p) for p in paths]
    if default_variant is not None:
        default_variant = find_variant(default_variant).id
    harvest = _Harvest(writer, options or MiningOptions(), default_variant, piece_bytes)
    total = sizes_total(names)
    running: Jobs[PieceMined] = Jobs(
        mine_piece, harvest.jobs(names), workers=workers, backend=backend
    )
    done_bytes = 0
    for number, mined in running.in_order(cancelled):
        done_bytes += harvest.take(number, mined)
        if progress is not None:
            progress(done_bytes, total)
    if running.cancelled:
        harvest.report.stopped = True
        return harvest.report
    for entry in harvest.files.values():
        harvest.close(entry)
    return harvest.report


class _Harvest:
    """One run of :func:`mine_files`: the pieces given to the workers, in order, and what
    each file and the whole run gave."""

    def __init__(
        self,
        writer: BookWriter,
        options: MiningOptions,
        default_variant: str | None,
        piece_bytes: int,
    ) -> None:
        self.writer = writer
        self.options = options
        self.default_variant = default_variant
        self.piece_bytes = piece_bytes
        self.report = MiningReport()
        self.files: dict[str, _File] = {}
        #: job number -> (path, bytes)
        self.order: list[tuple[str, int]] = []

    def jobs(self, names: list[str]) -> Iterator[tuple[Piece, str | None, MiningOptions]]:
        """The pieces of every file not mined whole yet, from the first not written."""
        report = self.report
        for name in names:
            try:
                info = os.stat(name)
            except OSError as exc:
                report.problems.append(f"{name}: {exc.strerror or exc}")
                continue
            done_pieces, games = self.writer.resume_at(
                name, info.st_size, info.st_mtime, self.piece_bytes
            )
            if done_pieces < 0:
                report.kept += 1
                continue
            report.files += 1
            entry = _File(name, info.st_size, info.st_mtime, done_pieces, games)
            entry.given = done_pieces
            entry.fresh = done_pieces == 0
            self.files[name] = entry
            yield from self._file_jobs(entry, done_pieces)

    def _file_jobs(
        self, entry: _File, done_pieces: int
    ) -> Iterator[tuple[Piece, str | None, MiningOptions]]:
        """The pieces of one file from ``done_pieces`` on; a file that cannot be cut is a
        problem of the report."""
        name = entry.path
        if self.default_variant is not None:
            read_as: str | None = self.default_variant
        else:
            read_as = _guess(name, self.report)
        try:
            for piece in pieces(name, self.piece_bytes):
                if piece.number < done_pieces:
                    continue
                entry.given += 1
                size = len(piece.data) if isinstance(piece.data, bytes) else 0
                self.order.append((name, size))
                yield (piece, read_as, self.options)
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
            self.report.problems.append(f"{name}: {reason}")
            entry.failed = True
        entry.cut = True

    def take(self, job: int, mined: PieceMined) -> int:
        """Write the puzzles of piece number ``job`` (its turn has come) and note how far
        its file is mined; the piece's bytes."""
        path, size = self.order[job]
        entry = self.files[path]
        puzzles = [
            replace(p, source=replace(o, game=o.game + entry.games).words()) for o, p in mined.found
        ]
        added = self.writer.add(puzzles)
        report = self.report
        report.found += added
        report.repeated += len(puzzles) - added
        entry.pieces += 1
        entry.games += mined.games + mined.skipped
        entry.used += mined.games
        entry.error = entry.error or mined.error
        report.games += mined.games
        report.positions += mined.positions
        self.writer.mined(
            path, entry.size, entry.mtime, self.piece_bytes, entry.pieces, entry.games, False
        )
        return size

    def close(self, entry: _File) -> None:
        """A file at the end of the run: noted mined whole when every piece was written;
        a fresh file that held no game (or none shashki can play) is a problem."""
        if entry.failed or not entry.fresh:
            if not entry.failed and entry.cut and entry.pieces == entry.given:
                self._mined_whole(entry)
            return
        if entry.cut and entry.pieces == entry.given:
            self._mined_whole(entry)
        if entry.used == 0 and entry.games == 0:
            reason = entry.error or _("no game in it")
            self.report.problems.append(
                f"{entry.path}: " + _("not a PDN file: {reason}").format(reason=reason)
            )
        elif entry.used == 0 and entry.given > 0:
            self.report.problems.append(
                f"{entry.path}: "
                + _("no game in it that shashki can play: {reason}").format(
                    reason=entry.error or _("no moves")
                )
            )

    def _mined_whole(self, entry: _File) -> None:
        self.writer.mined(
            entry.path, entry.size, entry.mtime, self.piece_bytes, entry.pieces, entry.games, True
        )


def _guess(path: str, report: MiningReport) -> str | None:
    """The variant of the games of ``path`` that name none, guessed from their moves."""
    try:
        guess = guess_variant(path)
    except (OSError, ValueError):
        return None
    if guess is None or guess.variant.id == DEFAULT_VARIANT:
        return None
    report.notes.append(f"{path}: {guess.line()}")
    return guess.variant.id


__all__ = ["MiningReport", "mine_files"]
