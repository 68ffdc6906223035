"""``shashki explore build FILE…`` and ``shashki explore show``: the opening explorer's
index of archives (and of My games, always up to date), and its answer for a position."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import Any

from ..i18n import _, ngettext
from ..records.gametypes import DEFAULT_VARIANT
from ..rules import Game, find_variant
from ..rules.errors import ShashkiError
from ..rules.variant import Variant
from .bars import Bar
from .common import Parser, fail, whole_number


def years_argument(text: str) -> tuple[int | None, int | None]:
    """``--years`` read: (first, last), either None when open."""
    from ..store.explorer import parse_years

    try:
        return parse_years(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _index_path(args: argparse.Namespace) -> str:
    from ..store.explorer import default_index

    return args.index or os.fspath(default_index())


def cmd_build(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import DownloadColumn, TimeRemainingColumn

    from ..store.explorer import BadIndex, Explorer, build, refresh_mine
    from ..training.cluster import ClusterError, backend_for

    if args.plies < 1:
        return fail(_("--plies must be at least 1"))
    if args.variant is not None:
        find_variant(args.variant)  # (an unknown one said before anything is read)
    try:
        explorer = Explorer(_index_path(args), create=True)
    except BadIndex as exc:
        return fail(str(exc))
    try:
        backend = backend_for(args.cluster)
    except ClusterError as exc:
        explorer.close()
        return fail(str(exc))
    console = Console(stderr=True, highlight=False)
    started = time.perf_counter()
    try:
        with Bar(console, DownloadColumn(), TimeRemainingColumn(), label=_("Indexing")) as bar:
            built = build(
                explorer,
                args.files,
                default_variant=args.variant,
                plies=args.plies,
                workers=args.workers,
                backend=backend,
                progress=bar.report,
            )
        mine = refresh_mine(explorer)
        sources, games, positions = explorer.counts()
    except KeyboardInterrupt:
        print(_("stopped: the files not finished are indexed again next time"), file=sys.stderr)
        return 130
    except BadIndex as exc:
        return fail(str(exc))
    finally:
        explorer.close()
        if backend is not None:
            backend.close(cancel=False)
    for note in built.notes:
        print(note, file=sys.stderr)
    for problem in built.problems + mine.problems:
        print(problem, file=sys.stderr)
    seconds = time.perf_counter() - started
    print(
        _(
            "{games} games of {files} files indexed in {seconds} s ({kept} already up to date); "
            "the index {path}: {total} games, {positions} positions"
        ).format(
            games=f"{built.games:,}",
            files=built.files,
            seconds=f"{seconds:.1f}",
            kept=built.kept,
            path=_index_path(args),
            total=f"{games:,}",
            positions=f"{positions:,}",
        )
    )
    del sources
    return 1 if built.problems and not built.games else 0


def _position(args: argparse.Namespace) -> Game:
    variant = find_variant(args.variant) if args.variant else None
    if args.fen:
        if variant is None:
            raise ShashkiError(_("give the position's variant with --variant"))
        game = Game(variant, args.fen)
    else:
        game = Game(variant or DEFAULT_VARIANT)
    for text in (args.moves or "").split():
        if re.fullmatch(r"\d+\.+", text):
            continue
        game.push(game.parse_typed_move(text))
    return game


def cmd_show(args: argparse.Namespace) -> int:
    from ..store.explorer import BadIndex, Explorer, Filter, refresh_mine

    game = _position(args)
    first, last = args.years or (None, None)
    where = Filter(player=(args.player or "").strip(), first_year=first, last_year=last)
    try:
        with Explorer(_index_path(args), create=True) as explorer:
            refresh_mine(explorer)
            answer = explorer.answer(game.variant.id, game.fen(), where)
    except BadIndex as exc:
        return fail(str(exc))
    side = int(game.turn)
    if args.json:
        out: dict[str, Any] = {
            "variant": game.variant.id,
            "fen": game.fen(),
            "moves": [
                {
                    "move": m.move,
                    "games": m.games,
                    "white": m.white,
                    "draws": m.draws,
                    "black": m.black,
                    "score": m.score(side),
                }
                for m in answer.moves
            ],
            "games": [g.__dict__ for g in answer.games],
        }
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if not answer.moves:
        print(_("no game of the index reached this position"))
        return 0
    print(
        ngettext(
            "{n} game reached this position", "{n} games reached this position", answer.total
        ).format(n=f"{answer.total:,}")
    )
    for m in answer.moves:
        score = m.score(side)
        shown = "–" if score is None else f"{100 * score:.0f}%"
        print(f"  {game.move_text(game.parse_move(m.move)):<12} {m.games:>8,}  {shown:>5}")
    if answer.games:
        print(_("The strongest games:"))
        for g in answer.games:
            print("  " + game_line(g, game.variant))
    return 0


def game_line(g: Any, variant: Variant) -> str:
    """One of the strongest games in a line: players, result, year, event, its move."""
    result = {1: "1-0", 0: "½-½", -1: "0-1"}.get(g.result, "*")
    names = " – ".join(g.players(variant))
    when = f", {g.year}" if g.year else ""
    event = f", {g.shown_event()}" if g.shown_event() else ""
    return f"{names} {result}{when}{event} ({g.move})"


def add(sub: Any) -> None:
    """Add ``explore`` (``build`` and ``show``) to the subcommands."""
    p = sub.add_parser(
        "explore",
        help=_("the opening explorer: index archives, ask what was played in a position"),
        description=_(
            "The opening explorer indexes every position of the games of PDN archives, and "
            "of My games, in a database on disk; from a position it gives the moves played "
            "there, how often, how they scored and the strongest games. In the app: press "
            "x on a game or a replay."
        ),
    )
    actions = p.add_subparsers(dest="action", metavar=_("ACTION"), parser_class=Parser)
    actions.required = True
    b = actions.add_parser(
        "build",
        help=_("index the games of PDN files (and My games)"),
        description=_(
            "Index every position of the games of PDN files, and of My games, into the "
            "explorer's index: a file indexed again replaces its own games, one indexed "
            "whole and unchanged is left as it is."
        ),
    )
    b.add_argument(
        "files", nargs="+", metavar=_("FILE"), help=_("a PDN file (or a JSON list of PDN texts)")
    )
    b.add_argument(
        "--variant",
        metavar=_("VARIANT"),
        help=_("the variant of games that name none (default: guessed from their moves)"),
    )
    b.add_argument(
        "--plies",
        type=whole_number,
        default=80,
        metavar="N",
        help=_("index the first N plies of each game (default: 80)"),
    )
    _common(b)
    b.add_argument(
        "--workers",
        type=whole_number,
        metavar="N",
        help=_("read in N worker processes (default: one for each core)"),
    )
    b.add_argument(
        "--cluster",
        metavar=_("ADDRESS"),
        help=_("read on the workers of a Dask cluster (tcp://host:8786); needs shashki[cluster]"),
    )
    b.set_defaults(func=cmd_build)
    s = actions.add_parser(
        "show",
        help=_("what was played in a position"),
        description=_(
            "The moves played in a position in the games of the explorer's index and of My "
            "games: how often, how they scored for the side to move, the strongest games."
        ),
    )
    s.add_argument("fen", nargs="?", metavar="FEN", help=_("the position (default: the start)"))
    s.add_argument(
        "--variant", metavar=_("VARIANT"), help=_("the variant (default: International)")
    )
    s.add_argument(
        "--moves", metavar=_("MOVES"), help=_("moves played from the position, e.g. 'c3-d4 f6-g5'")
    )
    s.add_argument(
        "--player", metavar=_("NAME"), help=_("only the games of a player (part of the name)")
    )
    s.add_argument(
        "--years",
        type=years_argument,
        metavar=_("YEARS"),
        help=_("only the games of some years: 1990-2000"),
    )
    s.add_argument("--json", action="store_true", help=_("write the answer as JSON"))
    _common(s)
    s.set_defaults(func=cmd_show)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--index",
        metavar=_("PATH"),
        help=_("the index file (default: explorer.sqlite in the data folder)"),
    )
