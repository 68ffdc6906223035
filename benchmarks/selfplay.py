"""Search options against each other: shashki against shashki, in one process.

    python benchmarks/selfplay.py --options lmr_scan=true --games 120 --time 0.25 \\
        --openings tune.txt

Level 8's search (no randomness) with ``--options`` plays level 8's search with
``--against`` (both ``name=value,...`` over the search's Options, e.g.
``probcut_margin=5,probcut_nested=false``; empty: the defaults), each with ``--time``
seconds a move, the two taking turns on one core.  Every game starts from an opening of
``--openings FILE`` (one a line, as ``shashki match`` reads them; ``benchmarks/openings.py``
makes a set) or, without it, from ``--games / 2`` fresh ones (``--seed``), each played
twice (each side White once); shashki's rules referee.  The score is that of
``--options``, with its margin (per pair of games) and the Elo difference.  Keep the
openings apart from those the strength is measured on (``benchmarks/engines.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.hub.match import Opening, Played, match_stats, read_openings, run_match
from shashki.rules import Game, ShashkiError, find_variant
from shashki.session.players import Computer

sys.path.insert(0, str(Path(__file__).parent))
from match import parse_options
from openings import fresh


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--options", default="", help="the options tried (name=value,...)")
    p.add_argument("--against", default="", help="the other side's options (default: none)")
    p.add_argument("--variant", default="international")
    p.add_argument("--games", type=int, default=40, help="games (even)")
    p.add_argument("--first", type=int, default=0, help="skip this many openings of the file")
    p.add_argument("--time", type=float, default=0.25, help="seconds a move, each side")
    p.add_argument("--openings", help="a file of openings, one a line")
    p.add_argument("--plies", type=int, default=4, help="random plies of a fresh opening")
    p.add_argument("--seed", type=int, default=41)
    p.add_argument("--max-plies", type=int, default=300)
    args = p.parse_args(argv)
    try:
        variant = find_variant(args.variant)
        tried, other = parse_options(args.options), parse_options(args.against)
    except (ShashkiError, TypeError, ValueError) as e:
        p.error(str(e))
    pairs = max(1, args.games // 2)
    try:
        if args.openings:
            openings = read_openings(args.openings, variant, args.first + pairs)[args.first :]
        else:
            texts = fresh(variant.id, pairs, args.plies, args.seed, 6, 0.3)
            openings = []
            for text in texts:
                game = Game(variant)
                moves = [game.push_text(word) for word in text.split()]
                openings.append(Opening(None, moves, text))
    except (ShashkiError, ValueError) as e:
        p.error(str(e))
    first = Computer(8, "options", seconds=args.time, seed=1, options=tried)
    second = Computer(8, "against", seconds=args.time, seed=1, options=other)
    print(f"{tried}\n  against {other}\n  {args.time:g} s a move", flush=True)

    def one(game: Played) -> None:
        print(f"  game {game.round}: {game.why} score {game.score:g}", flush=True)

    played = run_match(
        variant,
        first,
        second,
        games=args.games,
        openings=openings,
        max_plies=args.max_plies,
        limit_text=f"{args.time:g} s a move",
        on_game=one,
    )
    stats = match_stats([g.score for g in played])
    print(f"+{stats.wins} ={stats.draws} -{stats.losses}: {stats.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
