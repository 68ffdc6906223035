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
    options = options or MiningOptions()
    names = [os.fspath(p) for p in paths]
    if default_variant is not None:
        default_variant = find_variant(default_variant).id
    report = MiningReport()
    files: dict[str, _File] = {}
    total = 0
    order: list[tuple[str, int]] = []  # job number -> (path, bytes)

    def jobs() -> Iterator[tuple[Piece, str | None, MiningOptions]]:
        for name in names:
            try:
                info = os.stat(name)
            except OSError as exc:
                report.problems.append(f"{name}: {exc.strerror or exc}")
                continue
            done_pieces, games = writer.resume_at(name, info.st_size, info.st_mtime, piece_bytes)
            if done_pieces < 0:
                report.kept += 1
                continue
            report.files += 1
            entry = _File(name, info.st_size, info.st_mtime, done_pieces, games)
            entry.given = done_pieces
            entry.fresh = done_pieces == 0
            files[name] = entry
            read_as = default_variant if default_variant is not None else _guess(name, report)
            try:
                for piece in pieces(name, piece_bytes):
                    if piece.number < done_pieces:
                        continue
                    entry.given += 1
                    size = len(piece.data) if isinstance(piece.data, bytes) else 0
                    order.append((name, size))
                    yield (piece, read_as, options)
            except (OSError, ValueError) as exc:
                reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
                report.problems.append(f"{name}: {reason}")
                entry.failed = True
            entry.cut = True

    for name in names:
        try:
            total += os.stat(name).st_size
        except OSError:
            pass
    running: Jobs[PieceMined] = Jobs(mine_piece, jobs(), workers=workers, backend=backend)
    waiting: dict[int, PieceMined] = {}
    next_job = 0
    done_bytes = 0
    for number, result in running:
        waiting[number] = result
        while next_job in waiting:
            mined = waiting.pop(next_job)
            path, size = order[next_job]
            entry = files[path]
            puzzles = [
                replace(p, source=replace(o, game=o.game + entry.games).words())
                for o, p in mined.found
            ]
            added = writer.add(puzzles)
            report.found += added
            report.repeated += len(puzzles) - added
            entry.pieces += 1
            entry.games += mined.games + mined.skipped
            entry.used += mined.games
            entry.error = entry.error or mined.error
            report.games += mined.games
            report.positions += mined.positions
            writer.mined(
                path, entry.size, entry.mtime, piece_bytes, entry.pieces, entry.games, False
            )
            done_bytes += size
            next_job += 1
            if progress is not None:
                progress(done_bytes, total)
        if cancelled():
            running.cancel()
    if running.cancelled:
        report.stopped = True
        return report
    for entry in files.values():
        if entry.failed or not entry.fresh:
            if not entry.failed and entry.cut and entry.pieces == entry.given:
                writer.mined(
                    entry.path,
                    entry.size,
                    entry.mtime,
                    piece_bytes,
                    entry.pieces,
                    entry.games,
                    True,
                )
            continue
        if entry.cut and entry.pieces == entry.given:
            writer.mined(
                entry.path, entry.size, entry.mtime, piece_bytes, entry.pieces, entry.games, True
            )
        if entry.used == 0 and entry.games == 0:
            reason = entry.error or _("no game in it")
            report.problems.append(
                f"{entry.path}: " + _("not a PDN file: {reason}").format(reason=reason)
            )
        elif entry.used == 0 and entry.given > 0:
            report.problems.append(
                f"{entry.path}: "
                + _("no game in it that shashki can play: {reason}").format(
                    reason=entry.error or _("no moves")
                )
            )
    return report


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
