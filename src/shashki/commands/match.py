"""``shashki match VARIANT``: games between shashki's levels and Hub engines."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..base.numbers import bounded_decimal, bounded_int, quoted
from ..i18n import _, ngettext
from ..rules import find_variant
from ..rules.errors import ShashkiError
from .bars import Bar
from .common import add_engine_log

if TYPE_CHECKING:
    from rich.console import Console

    from ..engine.limits import Limit
    from ..hub.match import Played
    from ..records.clocks import TimeControl
    from ..rules.variant import Variant
    from ..session.game import GameSession
    from ..session.players import Player
    from ..session.seats import Engines
    from ..store.storage import GameLog

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


@dataclass(frozen=True)
class _Limits:
    """How long a match's players think: a clock, or a time or a depth a move."""

    clock: TimeControl | None
    limit: Limit
    #: The limit as the record's tags say it (English).
    text: str
    #: The limit for people, in the language spoken.
    said: str


def _clock(args: argparse.Namespace) -> TimeControl | None:
    """The clock ``--clock`` asks for; raises ShashkiError for one that cannot be read."""
    from ..records.clocks import BadTimeControl, TimeControl

    if args.clock is None:
        return None
    try:
        return TimeControl.parse(args.clock)
    except BadTimeControl as exc:
        raise ShashkiError(_("{option}: {reason}").format(option="--clock", reason=exc)) from None


def _limits(
    args: argparse.Namespace, clock: TimeControl | None, players: tuple[Player, Player]
) -> _Limits:
    """The limits ``--clock``, ``--time`` or ``--depth`` ask for (0.5 s a move when none
    does), said as each player searches: a level of a fixed depth (1-4) searches to its
    depth, never longer than the time a move."""
    from ..engine.limits import Limit

    seconds = args.time if args.depth is None and clock is None else None
    if seconds is None and args.depth is None and clock is None:
        seconds = 0.5
    limit = Limit(seconds=seconds, depth=args.depth)
    if clock is not None:
        label = clock.label()
        return _Limits(clock, limit, f"clock {label}", _("clock {clock}").format(clock=label))
    if args.depth:
        said = _("depth {depth}").format(depth=args.depth)
        return _Limits(None, limit, f"depth {args.depth}", said)
    hows = [_own_depth(player) for player in players]
    texts = [f"depth {d}" if d else f"{seconds:g} s a move" for d in hows]
    saids = [
        _("depth {depth}").format(depth=d)
        if d
        else _("{seconds} s a move").format(seconds=f"{seconds:g}")
        for d in hows
    ]
    if texts[0] == texts[1]:
        return _Limits(None, limit, texts[0], saids[0])
    return _Limits(
        None,
        limit,
        f"{texts[0]} v {texts[1]}",
        _("{first} v {second}").format(first=saids[0], second=saids[1]),
    )


def _own_depth(player: Player) -> int | None:
    """The fixed depth a player searches to when no depth is asked for: a level's own
    (levels 1-4), None for the others (they think for the time given)."""
    from ..engine.player import LEVELS
    from ..session.players import Computer

    if isinstance(player, Computer):
        return LEVELS[player.level].depth
    return None


def _seat_both(white: str, black: str, engines: Engines) -> tuple[Player, Player]:
    """The two players, started (the first closed again when the second cannot be);
    a name names one of ``engines`` (the settings')."""
    from ..hub.match import match_player

    first = match_player(white, seed=1, engines=engines)
    try:
        return first, match_player(black, seed=2, engines=engines)
    except BaseException:
        first.close()
        raise


def _counted(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=n)


class _Tally:
    """The games a match has played so far, each said in a line as it ends; each game's
    recorder writes it to the PDN file (``log``) as it ends: an interruption keeps them."""

    def __init__(self, console: Console, log: GameLog | None) -> None:
        self.console = console
        self.log = log
        self.played: list[Played] = []
        #: Why the PDN file stopped being written, if it did.
        self.problem = ""

    def log_failed(self, reason: str) -> None:
        """The PDN file cannot be written (the recorder said why): the games from now on
        are not written, and the match ends saying so."""
        written = self.log.count if self.log is not None else 0
        self.problem = _("{reason} ({games} written before)").format(
            reason=reason, games=_counted(written)
        )
        self.console.print(
            _("{reason}: the games from now on are not written").format(reason=reason),
            markup=False,
        )
        self.log = None

    def add(self, game: Played) -> None:
        self.played.append(game)
        record = game.record
        self.console.print(
            _("game {number}: {white} - {black}  {result}  ({why})").format(
                number=game.round,
                white=record.headers.get("White", "?"),
                black=record.headers.get("Black", "?"),
                result=record.result,
                why=game.why,
            ),
            markup=False,
        )

    def score_line(self) -> str:
        """The score so far, for the progress bar."""
        scores = [g.score for g in self.played]
        return _("score {score}/{games} ({percent}%)").format(
            score=f"{sum(scores):g}",
            games=len(scores),
            percent=f"{sum(scores) / len(scores) * 100:.0f}",
        )


def _console() -> Console:
    """rich's console on the standard output, a closed output ("| head") left to the
    command line to end, quietly, as for every command (rich would exit with status 1)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError("the output was closed")

    # (soft_wrap: a line is never cut at the terminal's width, nor at 80 columns in a file)
    return _Console(stderr=False, highlight=False, soft_wrap=True)


def _progress(console: Console, variant: Variant, games: int) -> tuple[Bar, list[Any]]:
    """The progress bar of a match, and the game in play it shows beside the bar: its
    move and side to move (noted after each move), and its clocks, read afresh each time
    the bar is drawn (by rich's thread: the clock of the side thinking ticks down)."""
    from rich.progress import MofNCompleteColumn, ProgressColumn, Task
    from rich.text import Text

    from ..hub.match import clocks_text

    now: list[Any] = ["", None]

    class _GameInPlay(ProgressColumn):
        def render(self, task: Task) -> Text:
            head, clock = now
            if clock is not None:
                head += ", " + clocks_text(variant, clock)
            return Text(head, no_wrap=True, overflow="ellipsis")

    bar = Bar(console, MofNCompleteColumn(), _GameInPlay(), description=_("games"), total=games)
    return bar, now


def cmd_match(args: argparse.Namespace) -> int:
    from ..hub.match import Opening, progress_text, read_openings, run_match
    from ..store.settings import read_engines
    from ..store.storage import GameLog, SaveError

    variant = find_variant(args.variant)
    clock = _clock(args)  # (a clock that cannot be read: said before any engine starts)
    engines = read_engines()  # the engines named in the settings, seated by name
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
    first, second = _seat_both(args.white, args.black, engines)
    limits = _limits(args, clock, (first, second))
    console = _console()
    tally = _Tally(console, log)
    bar, now = _progress(console, variant, args.games)
    interrupted = False
    try:
        with bar:

            def on_move(round_: int, session: GameSession) -> None:
                now[:] = [progress_text(round_, args.games, session, clocks=False), session.clock]

            def on_game(game: Played) -> None:
                tally.add(game)
                bar.advance(tally.score_line())

            run_match(
                variant,
                first,
                second,
                games=args.games,
                openings=openings,
                max_plies=args.max_plies,
                limit=limits.limit,
                clock=limits.clock,
                limit_text=limits.text,
                on_game=on_game,
                on_move=on_move,
                log=log,  # (each game appended by its session's recorder as it ends)
                on_log_failure=tally.log_failed,
            )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        first.close()
        second.close()
    if not tally.played:
        if interrupted:
            raise KeyboardInterrupt
        return 0
    return _ended(args, (first.name, second.name), variant, limits, tally, interrupted)


def _ended(
    args: argparse.Namespace,
    names: tuple[str, str],
    variant: Variant,
    limits: _Limits,
    tally: _Tally,
    interrupted: bool,
) -> int:
    """A match's last lines (the score is the very last, with its margin and Elo only
    where they mean something), and its exit status."""
    from ..hub.match import match_stats

    if args.pdn is not None and tally.log is not None:
        print(
            _("{games} written to {path}").format(
                games=_counted(tally.log.count), path=quoted(args.pdn, 80)
            )
        )
    stats = match_stats([g.score for g in tally.played], paired=True)
    print(
        _("{first} v {second}, {variant}, {limit}: +{wins} ={draws} -{losses}, {score}").format(
            first=names[0],
            second=names[1],
            variant=variant.local_name,
            limit=limits.said,
            wins=stats.wins,
            draws=stats.draws,
            losses=stats.losses,
            score=stats.describe(),
        )
    )
    sys.stdout.flush()
    if tally.problem:
        raise ShashkiError(tally.problem)
    if interrupted:
        print(
            ngettext(
                "interrupted after {n} of {total} game",
                "interrupted after {n} of {total} games",
                args.games,
            ).format(n=len(tally.played), total=args.games),
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
            "'hub:dame hub') or an engine named in the settings. Colours alternate: "
            "--white's player has White in the first game, --black's in the second, and so "
            "on; each opening is played twice. The last line is the score of --white's "
            "player; from 10 games on, with the margin of its 95% confidence interval (per "
            "pair of games when they come in pairs) and the Elo difference."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.add_argument(
        "--white",
        metavar=_("WHO"),
        required=True,
        help=_("who has White in the first game (then Black in the second); the score is theirs"),
    )
    p.add_argument(
        "--black",
        metavar=_("WHO"),
        required=True,
        help=_("who has Black in the first game (then White in the second)"),
    )
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
        help=_(
            "seconds a move for both (default 0.5); a level of a fixed depth (1-4) searches "
            "to its depth within them"
        ),
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
