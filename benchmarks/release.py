"""How much stronger each variant's computer is than an earlier build's: self-play over
the Hub protocol, variant by variant (most have no outside engine to measure against).

    git worktree add /tmp/prev OLD_COMMIT && python -m venv /tmp/prev/.venv \\
        && /tmp/prev/.venv/bin/pip install -e /tmp/prev
    python benchmarks/release.py --old "/tmp/prev/.venv/bin/shashki hub" --games 8 --time 0.1

This build plays level 8's search (no randomness) at ``--time`` a move against the earlier
build's ``shashki hub`` at the same time a move.  Each variant's games start from
``--games / 2`` random openings of ``--plies`` plies kept when a depth-4 search scores them
within 0.3 men (``benchmarks/openings.py``; the seed makes the same set; in a game that is
never level, as Wolf and Sheep, any random opening; longer ones where the first moves are
few), each played twice
(each side White once); this build's rules referee, and a move the earlier build's rules
allowed and today's do not loses that game (the line says so).  A variant the earlier
build does not know is passed over.  The score is this build's, with its margin when the
games allow one (``shashki match``'s statistics).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.hub.match import Opening, Played, match_stats, run_match
from shashki.hub.player import HubPlayer
from shashki.rules import Game, ShashkiError, all_variants, find_variant
from shashki.session.players import Computer

sys.path.insert(0, str(Path(__file__).parent))
from openings import fresh


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--old", required=True, help="the earlier build's Hub command")
    p.add_argument("--variants", default="all", help="variant ids, separated by commas")
    p.add_argument("--games", type=int, default=8, help="games a variant (even)")
    p.add_argument("--time", type=float, default=0.1, help="seconds a move, each side")
    p.add_argument("--plies", type=int, default=2, help="random plies of an opening")
    p.add_argument("--seed", type=int, default=29)
    p.add_argument("--max-plies", type=int, default=300)
    args = p.parse_args(argv)
    if args.variants == "all":
        chosen = [v.id for v in all_variants()]
    else:
        try:
            chosen = [find_variant(name.strip()).id for name in args.variants.split(",")]
        except ShashkiError as e:
            p.error(str(e))
    total: list[float] = []
    print(f"{'variant':18} {'games':>5} {'+':>3} {'=':>3} {'-':>3}  score", flush=True)
    for vid in chosen:
        variant = find_variant(vid)
        started = time.perf_counter()
        pairs = max(1, args.games // 2)
        texts: list[str] = []
        # a game never level (Wolf and Sheep) gets random openings; one with few first
        # moves, longer ones
        tries = [(args.plies, 0.3)] + [(args.plies + i, float("inf")) for i in range(4)]
        for plies, within in tries:
            try:
                texts = fresh(vid, pairs, plies, args.seed, 4, within)
                break
            except ValueError:
                continue
        if not texts:
            print(f"{vid:18} passed over: no {pairs} different openings", flush=True)
            continue
        openings = []
        for text in texts:
            game = Game(vid)
            openings.append(Opening(None, [game.push_text(word) for word in text.split()], text))
        new = Computer(8, "this build", seconds=args.time, seed=1)
        old = HubPlayer(args.old)
        old.seconds = args.time
        why: list[str] = []

        def one(game: Played, why: list[str] = why) -> None:
            if "lost:" in game.why:  # (an engine that failed or played an illegal move)
                why.append(f"game {game.round}: {game.why}")

        try:
            played = run_match(
                variant,
                new,
                old,
                games=args.games,
                openings=openings,
                max_plies=args.max_plies,
                limit_text=f"{args.time:g} s a move",
                on_game=one,
            )
        except ShashkiError as e:
            print(f"{vid:18} passed over: {e}", flush=True)
            continue
        finally:
            old.close()
        stats = match_stats([g.score for g in played])
        total.extend(g.score for g in played)
        print(
            f"{vid:18} {stats.games:5} {stats.wins:3} {stats.draws:3} {stats.losses:3}  "
            f"{stats.describe()}  ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        for line in why:
            print(f"    {line}", flush=True)
    if total:
        print(f"{'all':18} {match_stats(total).describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
