"""``shashki puzzles mine FILE…`` (puzzles from archives, My games) and ``shashki puzzles
list``: the book of puzzles, a PDN file (docs/TRAINING.md)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..i18n import _, ngettext
from ..rules import Game, find_variant
from .bars import Bar
from .common import Parser, fail, whole_number

if TYPE_CHECKING:
    from ..base.workers import Backend
    from ..training.book import BookWriter
    from ..training.harvest import MiningReport
    from ..training.mining import MiningOptions


def _book_path(args: argparse.Namespace) -> str:
    from ..training.book import default_book

    return args.book or os.fspath(default_book())


def _my_games() -> list[str]:
    from ..store.archive import archive_dir

    try:
        return sorted(
            entry.path
            for entry in os.scandir(archive_dir())
            if entry.name.endswith(".pdn") and entry.is_file(follow_symlinks=False)
        )
    except OSError:
        return []


def cmd_mine(args: argparse.Namespace) -> int:
    from ..training.book import BookWriter
    from ..training.cluster import ClusterError, backend_for
    from ..training.mining import MiningOptions
    from ..training.selfplay import MAX_GAMES, SELF_PLAY_LEVELS

    if args.variant is not None:
        find_variant(args.variant)  # (an unknown one said before anything is read)
    files = list(args.files)
    if args.mine:
        files += _my_games()
    if args.self_play is not None:
        if args.variant is None:
            return fail(_("--self-play needs --variant: the variant shashki plays"))
        if not 1 <= args.self_play <= MAX_GAMES:
            return fail(_("--self-play must be between 1 and {n}").format(n=f"{MAX_GAMES:,}"))
        if args.level not in SELF_PLAY_LEVELS:
            return fail(
                _("--level must be between {low} and {high}").format(
                    low=min(SELF_PLAY_LEVELS), high=max(SELF_PLAY_LEVELS)
                )
            )
    if not files and args.self_play is None:
        return fail(_("no games to mine: name PDN files, --mine for My games, or --self-play N"))
    if not 1 <= args.depth <= 20:
        return fail(_("--depth must be between 1 and 20"))
    options = MiningOptions(depth=args.depth, verify_depth=args.depth + 4)
    path = _book_path(args)
    try:
        writer = BookWriter(path)
    except OSError as exc:
        reason = getattr(exc, "reason", None) or exc.strerror or str(exc)
        return fail(_("cannot use the book {path}: {reason}").format(path=path, reason=reason))
    for problem in writer.problems:
        print(problem, file=sys.stderr)
    try:
        backend = backend_for(args.cluster)
    except ClusterError as exc:
        return fail(str(exc))
    started = time.perf_counter()
    try:
        mined = _mine_showing_progress(writer, files, options, args, backend)
        if args.self_play is not None:
            played = _mine_showing_progress(writer, [], options, args, backend, self_play=True)
            mined = _joined(mined, played)
    except KeyboardInterrupt:
        print(_("stopped: mining goes on from there next time"), file=sys.stderr)
        return 130
    except OSError as exc:
        return fail(str(exc))
    finally:
        if backend is not None:
            backend.close(cancel=False)
    _say_mined(mined, time.perf_counter() - started, path)
    return 1 if mined.problems and not mined.games and not mined.kept else 0


def _mine_showing_progress(
    writer: BookWriter,
    files: list[str],
    options: MiningOptions,
    args: argparse.Namespace,
    backend: Backend | None,
    self_play: bool = False,
) -> MiningReport:
    """Mine ``files`` (or, ``self_play``, the games of ``--self-play``) into the book
    with a bar on a terminal's standard error."""
    from rich.console import Console
    from rich.progress import DownloadColumn, MofNCompleteColumn, TimeRemainingColumn

    from ..training.harvest import MiningReport, mine_files
    from ..training.selfplay import SelfPlay, mine_self_play

    if not files and not self_play:
        return MiningReport()
    console = Console(stderr=True, highlight=False)
    bar = Bar(
        console,
        MofNCompleteColumn() if self_play else DownloadColumn(),
        TimeRemainingColumn(),
        label=_("Playing and mining") if self_play else _("Mining"),
    )
    with bar:
        if self_play:
            run = SelfPlay(
                find_variant(args.variant).id,
                args.self_play,
                level=args.level,
                seed=args.seed,
                date=time.strftime("%Y-%m-%d"),
            )
            return mine_self_play(
                writer,
                run,
                options=options,
                workers=args.workers,
                backend=backend,
                progress=bar.report,
            )
        return mine_files(
            writer,
            files,
            options=options,
            default_variant=args.variant,
            workers=args.workers,
            backend=backend,
            progress=bar.report,
        )


def _joined(first: MiningReport, second: MiningReport) -> MiningReport:
    """What two runs of mining did together."""
    from ..training.harvest import MiningReport

    return MiningReport(
        files=first.files + second.files,
        kept=first.kept + second.kept,
        games=first.games + second.games,
        positions=first.positions + second.positions,
        found=first.found + second.found,
        repeated=first.repeated + second.repeated,
        problems=first.problems + second.problems,
        notes=first.notes + second.notes,
        stopped=first.stopped or second.stopped,
    )


def _say_mined(mined: MiningReport, seconds: float, path: str) -> None:
    """The notes and problems of a run of mining, and what it found."""
    for note in mined.notes:
        print(note, file=sys.stderr)
    for problem in mined.problems:
        print(problem, file=sys.stderr)
    print(
        ngettext(
            "{found} new puzzle from {games} games ({positions} positions judged in "
            "{seconds} s; {kept} files mined before); the book {path}",
            "{found} new puzzles from {games} games ({positions} positions judged in "
            "{seconds} s; {kept} files mined before); the book {path}",
            mined.found,
        ).format(
            found=mined.found,
            games=f"{mined.games:,}",
            positions=f"{mined.positions:,}",
            seconds=f"{seconds:.1f}",
            kept=mined.kept,
            path=path,
        )
    )


def cmd_list(args: argparse.Namespace) -> int:
    from ..base.userfiles import UserFileError
    from ..training.book import read_book
    from ..training.themes import describe, theme_name

    path = _book_path(args)
    try:
        book = read_book(path)
    except FileNotFoundError:
        return fail(
            _(
                "{path}: no book of puzzles there; mine one with: `shashki puzzles mine FILE…`"
            ).format(path=path)
        )
    except (OSError, UserFileError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        return fail(_("cannot read {path}: {reason}").format(path=path, reason=reason))
    for problem in book.problems:
        print(problem, file=sys.stderr)
    puzzles = book.puzzles
    if args.variant:
        wanted = find_variant(args.variant).id
        puzzles = [p for p in puzzles if p.variant == wanted]
    print(ngettext("{n} puzzle", "{n} puzzles", len(puzzles)).format(n=len(puzzles)))
    by_variant = Counter(p.variant for p in puzzles)
    for variant_id, count in by_variant.most_common():
        themes = Counter(t for p in puzzles if p.variant == variant_id for t in p.themes)
        named = ", ".join(f"{theme_name(t)} {n}" for t, n in themes.most_common())
        print(
            f"  {find_variant(variant_id).local_name}: {count}" + (f" ({named})" if named else "")
        )
    if args.solutions:
        for number, puzzle in enumerate(puzzles, 1):
            game = Game(puzzle.variant, puzzle.fen)
            start = game.copy()
            line, texts = [], []
            for text in puzzle.line:
                move = game.parse_move(text)
                line.append(move)
                texts.append(game.move_text(move))
                game.push(move)
            print()
            print(f"{number}. {puzzle.fen}")
            words = describe(start, line, puzzle.themes)
            print("   " + " ".join(texts) + (f"  ({words})" if words else ""))
            print("   " + _("difficulty {n}").format(n=puzzle.difficulty) + " · " + puzzle.source)
    return 0


def add(sub: Any) -> None:
    """Add ``puzzles`` (``mine`` and ``list``) to the subcommands."""
    p = sub.add_parser(
        "puzzles",
        help=_("puzzles mined from games: one move wins, every other does not"),
        description=_(
            "Puzzle mining reads the games of PDN archives (and My games), judges each "
            "position with the engine and keeps those where one move wins decisively and "
            "every other does not, verified by a deeper search. The puzzles go to a book, "
            "a PDN file (shashki replay plays their solutions out)."
        ),
    )
    actions = p.add_subparsers(dest="action", metavar=_("ACTION"), parser_class=Parser)
    actions.required = True
    _add_mine(actions)
    _add_list(actions)


def _add_mine(actions: Any) -> None:
    """``puzzles mine`` and its options."""
    m = actions.add_parser(
        "mine",
        help=_("mine puzzles from the games of PDN files"),
        description=_(
            "Mine puzzles from the games of PDN files (and My games) into the book: in "
            "worker processes, resumed where it stopped, never a position twice."
        ),
    )
    m.add_argument(
        "files", nargs="*", metavar=_("FILE"), help=_("a PDN file (or a JSON list of PDN texts)")
    )
    m.add_argument("--mine", action="store_true", help=_("mine My games too"))
    m.add_argument(
        "--variant",
        metavar=_("VARIANT"),
        help=_("the variant of games that name none (default: guessed from their moves)"),
    )
    m.add_argument(
        "--depth",
        type=whole_number,
        default=4,
        metavar="N",
        help=_(
            "judge each position N plies deep; candidates are verified 4 plies deeper (default: 4)"
        ),
    )
    m.add_argument(
        "--self-play",
        type=whole_number,
        metavar="N",
        help=_(
            "play N games of --variant against itself at a low level, from openings of a "
            "few random moves, and mine them (for a variant with no archive)"
        ),
    )
    m.add_argument(
        "--level",
        type=whole_number,
        default=3,
        metavar="N",
        help=_("the level of --self-play (1 to 4; default: 3)"),
    )
    m.add_argument(
        "--seed",
        type=whole_number,
        default=1,
        metavar="N",
        help=_(
            "the seed of --self-play: the same seed plays the same games, so that a run "
            "goes on where it stopped (1 unless told)"
        ),
    )
    _book(m)
    m.add_argument(
        "--workers",
        type=whole_number,
        metavar="N",
        help=_("mine in N worker processes (default: one for each core)"),
    )
    m.add_argument(
        "--cluster",
        metavar=_("ADDRESS"),
        help=_("mine on the workers of a Dask cluster (tcp://host:8786); needs shashki[cluster]"),
    )
    m.set_defaults(func=cmd_mine)


def _add_list(actions: Any) -> None:
    """``puzzles list`` and its options."""
    s = actions.add_parser(
        "list",
        help=_("the puzzles of the book, by variant and theme"),
        description=_(
            "The puzzles of the book, counted by variant and theme; with --solutions each "
            "puzzle's position, solution, themes, difficulty and source."
        ),
    )
    s.add_argument("--variant", metavar=_("VARIANT"), help=_("only the puzzles of a variant"))
    s.add_argument(
        "--solutions", action="store_true", help=_("each puzzle: its position and its solution")
    )
    _book(s)
    s.set_defaults(func=cmd_list)


def _book(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--book",
        metavar=_("PATH"),
        help=_("the book of puzzles, a PDN file (default: puzzles/mined.pdn in the data folder)"),
    )
