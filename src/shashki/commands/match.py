"""``shashki match VARIANT``: games between shashki's levels and Hub engines."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..base.numbers import bounded_decimal, bounded_int, quoted
from ..i18n import _, ngettext
from ..rules import find_variant
from ..rules.errors import ShashkiError
from .common import add_engine_log

#: The most games one match plays.
MAX_GAMES = 100_000

#: The deepest fixed depth a match asks for.
MAX_DEPTH = 60

#: The most seconds a move of a match.
MAX_SECONDS = 3600


def _positive_seconds(text: str) -> float:
    """Seconds as ``--clock`` reads numbers: ASCII digits, a decimal point or none."""
    value = bounded_decimal(text, 10**9)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("not a number of seconds (digits and a decimal point, e.g. 0.5): {text}").format(
                text=quoted(text, 40)
            )
        )
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            _("seconds must be above 0 and at most {most}, not {text}").format(
                most=MAX_SECONDS, text=quoted(text, 40)
            )
        )
    return value


def _bounded(most: int) -> Any:
    def parse(text: str) -> int:
        value = bounded_int(text.strip(), most)
        if value is None or value < 1:
            raise argparse.ArgumentTypeError(
                _("a whole number from 1 to {most}, not {text}").format(
                    most=most, text=quoted(text, 40)
                )
            )
        return value

    return parse


def cmd_match(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
    )
    from rich.text import Text

    from ..hub.match import (
        Opening,
        Played,
        clocks_text,
        match_player,
        match_stats,
        progress_text,
        read_openings,
        run_match,
    )
    from ..records.clocks import BadTimeControl, TimeControl
    from ..rules.limits import Limit
    from ..session.game import GameSession
    from ..session.seats import set_engines
    from ..store.settings import read_engines
    from ..store.storage import GameLog, SaveError

    variant = find_variant(args.variant)
    clock: TimeControl | None = None
    if args.clock is not None:
        try:
            clock = TimeControl.parse(args.clock)
        except BadTimeControl as exc:
            raise ShashkiError(
                _("{option}: {reason}").format(option="--clock", reason=exc)
            ) from None
    seconds = args.time if args.depth is None and clock is None else None
    if seconds is None and args.depth is None and clock is None:
        seconds = 0.5
    if clock is not None:
        limit_text = f"clock {clock.label()}"
    else:
        limit_text = f"depth {args.depth}" if args.depth else f"{seconds:g} s a move"
    if clock is not None:  # the same, for people
        limit_said = _("clock {clock}").format(clock=clock.label())
    elif args.depth:
        limit_said = _("depth {depth}").format(depth=args.depth)
    else:
        limit_said = _("{seconds} s a move").format(seconds=f"{seconds:g}")
    limit = Limit(seconds=seconds, depth=args.depth)
    set_engines(read_engines())  # the engines named in the settings, seated by name
    # (an empty name is a name: refused as any other unusable path, never left out)
    openings = [Opening(None)]
    if args.openings is not None:  # as many as the games need (each is played twice)
        openings = read_openings(args.openings, variant, count=(args.games + 1) // 2)
    log: GameLog | None = None
    if args.pdn is not None:
        try:
            log = GameLog(args.pdn)  # can it be written? known before the first game
        except SaveError as exc:
            raise ShashkiError(str(exc)) from None
    first = match_player(args.white, seed=1)
    try:
        second = match_player(args.black, seed=2)
    except BaseException:
        first.close()
        raise

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # a closed output ("| head") is the command line's to end, quietly, as for
            # every command (rich would exit with status 1 itself)
            self.quiet = True
            raise BrokenPipeError("the output was closed")

    console = _Console(stderr=False, highlight=False)
    played: list[Played] = []
    problem = ""  # why the PDN file stopped being written, if it did

    def counted(n: int) -> str:
        return ngettext("{n} game", "{n} games", n).format(n=n)

    # the game in play: its move and side to move (noted after each move), and its clocks,
    # read afresh each time the bar is drawn (by rich's thread: the clock of the side
    # thinking ticks down between moves)
    now: list[Any] = ["", None]

    class _GameInPlay(ProgressColumn):
        def render(self, task: Task) -> Text:
            head, clock = now
            if clock is not None:
                head += ", " + clocks_text(variant, clock)
            return Text(head, no_wrap=True, overflow="ellipsis")

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _GameInPlay(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task("games", total=args.games)

            def on_move(round_: int, session: GameSession) -> None:
                now[:] = [progress_text(round_, args.games, session, clocks=False), session.clock]

            def log_failed(reason: str) -> None:
                nonlocal log, problem
                written = log.count if log is not None else 0
                problem = _("{reason} ({games} written before)").format(
                    reason=reason, games=counted(written)
                )
                console.print(
                    _("{reason}: the games from now on are not written").format(reason=reason),
                    markup=False,
                )
                log = None

            def on_game(game: Played) -> None:
                played.append(game)
                record = game.record
                scores = [g.score for g in played]
                console.print(
                    _("game {number}: {white} - {black}  {result}  ({why})").format(
                        number=game.round,
                        white=record.headers.get("White", "?"),
                        black=record.headers.get("Black", "?"),
                        result=record.result,
                        why=game.why,
                    ),
                    markup=False,
                )
                mean = sum(scores) / len(scores)
                progress.update(
                    task,
                    advance=1,
                    description=_("score {score}/{games} ({percent}%)").format(
                        score=f"{sum(scores):g}", games=len(scores), percent=f"{mean * 100:.0f}"
                    ),
                )

            run_match(
                variant,
                first,
                second,
                games=args.games,
                openings=openings,
                max_plies=args.max_plies,
                limit=limit,
                clock=clock,
                limit_text=limit_text,
                on_game=on_game,
                on_move=on_move,
                log=log,  # (each game appended by its session's recorder as it ends)
                on_log_failure=log_failed,
            )
    except KeyboardInterrupt:
        interrupted = True
    else:
        interrupted = False
    finally:
        first.close()
        second.close()
    if not played:
        if interrupted:
            raise KeyboardInterrupt
        return 0
    if args.pdn is not None and log is not None:
        print(
            _("{games} written to {path}").format(
                games=counted(log.count), path=quoted(args.pdn, 80)
            )
        )
    # the score is the last line: the margin and Elo only where they mean something
    stats = match_stats([g.score for g in played], paired=True)
    print(
        _("{first} v {second}, {variant}, {limit}: +{wins} ={draws} -{losses}, {score}").format(
            first=first.name,
            second=second.name,
            variant=variant.local_name,
            limit=limit_said,
            wins=stats.wins,
            draws=stats.draws,
            losses=stats.losses,
            score=stats.describe(),
        )
    )
    sys.stdout.flush()
    if problem:
        raise ShashkiError(problem)
    if interrupted:
        print(
            ngettext(
                "interrupted after {n} of {total} game",
                "interrupted after {n} of {total} games",
                args.games,
            ).format(n=len(played), total=args.games),
            file=sys.stderr,
        )
        return 130
    return 0


def add(sub: Any) -> None:
    """Add ``match`` to the subcommands."""
    p = sub.add_parser(
        "match",
        help=_("play games between shashki's levels and Hub engines"),
        description=_(
            "Play a match: WHO is a level 1-8, hub:COMMAND (a Hub engine, e.g. "
            "'hub:dame hub') or an engine named in the settings. Colours alternate; each "
            "opening is played twice. The last line is the score of --white's player; from "
            "10 games on, with its 95% margin (per pair of games when they come in pairs) "
            "and Elo difference."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"))
    p.add_argument("--white", metavar=_("WHO"), required=True, help=_("the first player"))
    p.add_argument("--black", metavar=_("WHO"), required=True, help=_("the second player"))
    p.add_argument(
        "--games",
        type=_bounded(MAX_GAMES),
        default=2,
        metavar=_("N"),
        help=_("how many games (default 2)"),
    )
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--time",
        type=_positive_seconds,
        metavar=_("S"),
        help=_("seconds a move for both (default 0.5)"),
    )
    limit.add_argument(
        "--depth", type=_bounded(MAX_DEPTH), metavar=_("D"), help=_("a fixed depth for both")
    )
    limit.add_argument(
        "--clock",
        metavar=_("MIN+INC"),
        help=_(
            "play on a clock: minutes for the game, then the seconds added after each "
            "move (e.g. 1+0.5); a flag fall loses"
        ),
    )
    p.add_argument(
        "--openings",
        metavar=_("FILE"),
        help=_("a PDN file, or one FEN or move sequence a line; each is played twice"),
    )
    p.add_argument("--pdn", metavar=_("FILE"), help=_("write every game to this PDN file"))
    add_engine_log(p)
    p.add_argument(
        "--max-plies",
        type=_bounded(10_000),
        default=400,
        metavar=_("N"),
        help=_("adjudicate a draw after N plies (default 400)"),
    )
    p.set_defaults(func=cmd_match)
