"""Where shashki stands among real engines: matches over the Hub protocol (``shashki
match``'s machinery), interleaved on this machine.

    python benchmarks/engines.py dame --games 60 --time 0.5
    python benchmarks/engines.py scan --scan /tmp/scan-2.0/scan --depths 2,4,6,8 --games 8

``dame``: shashki (level 8's search, no randomness) against dame-rs (``dame hub``), both
with the same time a move (``--dame-time S`` gives dame-rs its own: time odds, what a
faster shashki would score).  ``scan``: shashki at ``--time`` a move against Scan 2.0 held
to each fixed depth (Hub version 1: ``depth N``), to find the depth shashki matches.
Every game starts from one of the balanced three-ply openings of ``benchmarks/match.py``
(or of ``--openings FILE``, one a line: ``benchmarks/openings.py`` makes a fresh set), each
played twice (each side White once); shashki's rules referee.  The score is
shashki's with its 95% margin and the Elo difference.  ``--pdn FILE`` keeps the games;
``--options name=value,...`` sets shashki's search options (``contempt=15``: see
``shashki.engine.search.Options``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine.limits import Limit
from shashki.hub.match import Opening, Played, match_stats, read_openings, run_match
from shashki.hub.player import HubPlayer
from shashki.rules import Game, Move, find_variant
from shashki.session.players import Cancelled, Computer, Player
from shashki.store.storage import GameLog

sys.path.insert(0, str(Path(__file__).parent))
from match import OPENINGS, parse_options


def openings(variant: str) -> list[Opening]:
    out = []
    for text in OPENINGS[variant]:
        game = Game(variant)
        moves = [game.push_text(token) for token in text.split()]
        out.append(Opening(None, moves, text))
    return out


def report(label: str, played: list[Played], started: float) -> None:
    stats = match_stats([g.score for g in played])  # (in pairs: each opening twice)
    print(
        f"{label}: shashki +{stats.wins} ={stats.draws} -{stats.losses}, {stats.describe()}, "
        f"{time.perf_counter() - started:.0f} s",
        flush=True,
    )


class DepthHub(HubPlayer):
    """A Hub engine held to a fixed depth a move (Scan's ``level`` of the ladder),
    whatever the match's limit."""

    def __init__(self, command: str, depth: int, folder: str = "") -> None:
        super().__init__(command, folder=folder)
        self.depth = depth

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        return super().think(game, Limit(depth=self.depth), cancelled)


def play(
    label: str,
    first: Player,
    second: HubPlayer,
    args: argparse.Namespace,
    log: GameLog | None,
) -> list[Played]:
    variant = find_variant("international")
    started = time.perf_counter()
    if args.openings:  # (a set of one's own: benchmarks/openings.py makes a fresh one)
        chosen = read_openings(args.openings, variant)
    else:
        chosen = openings("international")

    def one(game: Played) -> None:
        print(
            f"  game {game.round}: {game.record.result} ({game.why}) score {game.score:g}",
            flush=True,
        )
        if log is not None:
            log.add(game.record)  # as each game ends: an interrupted run keeps its games

    try:
        played = run_match(
            variant,
            first,
            second,
            games=args.games,
            openings=chosen[args.first :],
            max_plies=args.max_plies,
            limit_text=label,
            on_game=one,
        )
    finally:
        second.close()
    report(label, played, started)
    return played


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("opponent", choices=("dame", "scan"))
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--time", type=float, default=0.5, help="shashki's seconds a move")
    parser.add_argument(
        "--dame-time",
        type=float,
        help="dame-rs's seconds a move (default: --time): time odds, what a faster shashki "
        "would score",
    )
    parser.add_argument("--depths", default="2,4,6,8", help="Scan's fixed depths (scan)")
    parser.add_argument("--scan", default="/tmp/scan-2.0/scan", help="Scan 2.0's binary")
    beside = Path(sys.executable).with_name("dame")  # (dame-rs in this venv)
    parser.add_argument(
        "--dame", default=str(beside) if beside.exists() else shutil.which("dame") or "dame"
    )
    parser.add_argument("--first", type=int, default=0, help="skip this many openings")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument(
        "--openings", help="a file of openings, one a line (default: benchmarks/match.py's)"
    )
    parser.add_argument("--pdn", help="write every game here")
    parser.add_argument(
        "--options", default="", help="shashki's search options (name=value,...; e.g. contempt=15)"
    )
    args = parser.parse_args()
    for name in ("time", "dame_time"):
        value = getattr(args, name)
        if value is not None and not 0 < value <= 3600:
            parser.error(f"--{name.replace('_', '-')} must be more than 0 and at most 3600 s")
    try:
        options = parse_options(args.options) if args.options else None
    except (TypeError, ValueError) as e:
        parser.error(f"--options: {e}")
    log = GameLog(args.pdn) if args.pdn else None
    if args.opponent == "dame":
        shashki = Computer(8, "shashki", seconds=args.time, seed=1, options=options)
        dame = HubPlayer(f"{args.dame} hub")
        dame_time = args.time if args.dame_time is None else args.dame_time
        dame.seconds = dame_time  # (the match's limit says nothing: each its own time)
        label = (
            f"dame-rs, {args.time:g} s a move each"
            if dame_time == args.time
            else f"dame-rs {dame_time:g} s a move, shashki {args.time:g} s"
        )
        play(label, shashki, dame, args, log)
    else:
        scan_dir = str(Path(args.scan).resolve().parent)  # (it reads scan.ini and data/ there)
        for depth in (int(d) for d in args.depths.split(",")):
            shashki = Computer(8, "shashki", seconds=args.time, seed=1, options=options)
            scan = DepthHub(f"{Path(args.scan).resolve()} hub", depth, scan_dir)
            label = f"Scan 2.0 at depth {depth}, shashki {args.time:g} s a move"
            play(label, shashki, scan, args, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
