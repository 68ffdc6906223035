"""``shashki tournament``: an engine tournament — round robin, gauntlet or Swiss among
shashki's levels, Hub engines, DXP engines and the engines of the settings — played
several games at once, shown live, resumed where it stopped (docs/TOURNAMENT.md)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base.numbers import quoted
from ..i18n import _
from ..records.gametypes import DEFAULT_VARIANT
from ..rules.errors import ShashkiError
from .common import add_engine_log, whole_number

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..session.seats import Engines
    from ..tournament.event import Event
    from ..tournament.runner import Tournament


def _event(args: argparse.Namespace, engines: Engines) -> Event:
    from ..tournament.event import Event, EventError, check, entrant, read_event

    if args.event is not None:
        if args.player:
            raise ShashkiError(_("give the players in the event file or with --player, not both"))
        event = read_event(args.event, engines=engines)
        if args.concurrency is not None:
            event.concurrency = args.concurrency
        return check(event)
    if not args.player:
        raise ShashkiError(_("name an event file, or the players with --player (twice at least)"))
    try:
        entrants = [entrant(words, engines=engines) for words in args.player]
    except EventError as exc:
        raise ShashkiError(str(exc)) from None
    name = args.name or _("shashki tournament")
    folder = Path(args.folder or f"tournament-{time.strftime('%Y%m%d-%H%M%S')}").resolve()
    event = Event(
        name=name,
        variant=args.variant,
        entrants=entrants,
        format=args.format,
        rounds=args.rounds or 0,
        openings=args.openings or "",
        openings_count=args.openings_count or 0,
        time=args.time,
        clock=args.clock or "",
        depth=args.depth,
        concurrency=args.concurrency or 1,
        max_plies=args.max_plies,
        folder=folder,
        base=Path.cwd(),
    )
    if event.openings and not event.openings.startswith("ballot-"):
        event.openings = str(Path(event.openings).resolve())
    return check(event)


def _view(tournament: Tournament) -> RenderableType:
    """The live table: the games in play, the standings, the last games ended."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from ..tournament.standings import elo_text, standings, tiebreak_names

    now = time.monotonic()
    playing = Table(title=_("games in play"), expand=False, title_justify="left")
    for head in ("#", _("White"), _("Black"), _("move"), _("seconds")):
        playing.add_column(head)
    for number, game in sorted(tournament.in_play.items()):
        playing.add_row(
            str(number),
            tournament.names[game.pairing.white],
            tournament.names[game.pairing.black],
            tournament.live_move(number),
            f"{now - game.started:.0f}",
        )
    rows = standings(
        tournament.names, tournament.played(), swiss=tournament.swiss, byes=tournament.byes
    )
    table = Table(title=_("standings"), title_justify="left")
    heads = ["#", _("player"), _("points"), _("games"), *tiebreak_names(tournament.swiss), "Elo"]
    for head in heads:
        table.add_column(head)
    for row in rows:
        table.add_row(
            str(row.rank),
            row.name,
            f"{row.points:g}",
            str(row.games),
            *(f"{t:g}" for t in row.tiebreaks),
            elo_text(row),
        )
    last = Text("\n".join(tournament.said[-5:]), no_wrap=True, overflow="ellipsis")
    return Group(Text(tournament.heading(), style="bold"), playing, table, last)


def cmd_tournament(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.live import Live

    from ..store.settings import read_engines
    from ..tournament.event import EventError
    from ..tournament.runner import Tournament

    engines = read_engines()  # the engines named in the settings, seated by name
    try:
        event = _event(args, engines)
        tournament = Tournament(event, engines=engines)
        tournament.prepare()
    except EventError as exc:
        raise ShashkiError(str(exc)) from None
    console = Console(highlight=False)
    print(
        _("{heading}; games and tables in {folder}").format(
            heading=tournament.heading(), folder=quoted(str(event.folder), 100)
        ),
        flush=True,
    )
    complete = False
    interrupted = False
    try:
        if console.is_terminal:
            with Live(_view(tournament), console=console, refresh_per_second=4) as live:
                complete = tournament.run(lambda: live.update(_view(tournament)))
        else:
            shown = [0]

            def said() -> None:
                for line in tournament.said[shown[0] :]:
                    print(line, flush=True)
                shown[0] = len(tournament.said)

            complete = tournament.run(said)
            said()
    except KeyboardInterrupt:
        interrupted = True
    except EventError as exc:
        raise ShashkiError(str(exc)) from None
    print()
    print(tournament.heading())
    print(tournament.standings_text(), end="")
    print(
        _("every game: {pdn}; the crosstable: {html}").format(
            pdn=event.folder / "event.pdn", html=event.folder / "crosstable.html"
        )
    )
    if interrupted or not complete:
        print(
            _(
                "stopped with {done} of {total} games finished; the same command, or "
                "shashki tournament {file}, goes on where it stopped"
            ).format(
                done=len(tournament.results),
                total=tournament.total(),
                file=quoted(str(event.folder / "event.toml"), 100),
            ),
            file=sys.stderr,
        )
        return 130 if interrupted else 1
    return 0


def add(sub: Any) -> None:
    """Add ``tournament`` to the subcommands."""
    p = sub.add_parser(
        "tournament",
        help=_("run an engine tournament: round robin, gauntlet or Swiss"),
        description=_(
            "Run an engine tournament among shashki's levels, Hub engines, DXP engines "
            "and the engines of the settings, from an event file (TOML) or the options "
            "below. Each opening is played with both colours. Every game is kept as it "
            "ends: stopped (Ctrl+C), the same command goes on where it stopped."
        ),
    )
    p.add_argument("event", nargs="?", metavar=_("EVENT.toml"), help=_("the event file"))
    p.add_argument(
        "--player",
        action="append",
        metavar=_("WHO"),
        help=_(
            "a player: a level 1-8, hub:COMMAND, dxp:HOST:PORT or an engine named in the "
            "settings (once for each)"
        ),
    )
    p.add_argument("--name", metavar=_("TITLE"), help=_("the event's name"))
    p.add_argument(
        "--variant",
        default=DEFAULT_VARIANT,
        metavar=_("VARIANT"),
        help=_("the variant played: its id, alias or PDN GameType (default international)"),
    )
    p.add_argument(
        "--format",
        choices=("round-robin", "gauntlet", "swiss"),
        default="round-robin",
        help=_("round-robin (default), gauntlet (the first player against the others), swiss"),
    )
    p.add_argument("--rounds", type=whole_number, metavar=_("N"), help=_("a Swiss event's rounds"))
    p.add_argument(
        "--openings",
        metavar=_("FILE"),
        help=_(
            "ballot-2 or ballot-3 (shipped with shashki), or a file: PDN, or a FEN or moves a line"
        ),
    )
    p.add_argument(
        "--openings-count", type=whole_number, metavar=_("N"), help=_("how many openings")
    )
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--time", type=float, metavar=_("S"), help=_("seconds a move"))
    limit.add_argument(
        "--clock",
        metavar=_("CLOCK"),
        help=_("a clock: minutes+increment (1+0.5) or moves/minutes (40/5)"),
    )
    limit.add_argument("--depth", type=whole_number, metavar=_("D"), help=_("a fixed depth"))
    p.add_argument(
        "--concurrency", type=whole_number, metavar=_("N"), help=_("games at once (default 1)")
    )
    p.add_argument(
        "--max-plies",
        type=whole_number,
        default=400,
        metavar=_("N"),
        help=_("adjudicate a draw after N plies (default 400)"),
    )
    p.add_argument(
        "--folder",
        metavar=_("DIR"),
        help=_("where the games and tables go (default: tournament-DATE-TIME)"),
    )
    add_engine_log(p)
    p.set_defaults(func=cmd_tournament)
