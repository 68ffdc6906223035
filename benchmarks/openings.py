"""A fresh set of balanced openings for engine matches, one a line (``shashki match
--openings FILE`` reads them).

    python benchmarks/openings.py international --count 100 --seed 2026 > openings.txt

Each opening is ``--plies`` random legal moves from the start (every move equally
likely), kept when shashki's search to ``--depth`` scores the position within ``--within``
men of equal, when it has more than one legal move, and when it does not begin with one of
the openings the engine was measured and tuned on (``benchmarks/match.py``'s).  The same
seed makes the same set, so a report can name the set by its command.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine import Search
from shashki.engine.evaluate import MAN
from shashki.rules import Game, ShashkiError, find_variant

sys.path.insert(0, str(Path(__file__).parent))
from match import OPENINGS


def fresh(variant: str, count: int, plies: int, seed: int, depth: int, within: float) -> list[str]:
    rng = random.Random(f"{seed}-{variant}")
    tuned = [text.split() for text in OPENINGS.get(variant, [])]
    out: list[str] = []
    seen: set[str] = set()
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > 100 * count:
            raise ValueError(f"only {len(out)} balanced openings found in {tries} tries")
        game = Game(variant)
        words: list[str] = []
        for _ in range(plies):
            if game.outcome() is not None:
                break
            move = rng.choice(game.legal_moves())
            words.append(game.move_text(move))
            game.push(move)
        text = " ".join(words)
        if len(words) < plies or text in seen or game.outcome() is not None:
            continue
        if any(words[: len(t)] == t for t in tuned if t):
            continue
        if len(game.legal_moves()) < 2:
            continue
        result = Search(variant).search(game, depth=depth)
        if abs(result.score) > within * MAN:
            continue
        seen.add(text)
        out.append(text)
        print(f"{len(out)}/{count} {text}  ({result.score / MAN:+.2f})", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variant", nargs="?", default="international")
    p.add_argument("--count", type=int, default=100, help="how many openings")
    p.add_argument("--plies", type=int, default=4, help="random plies each")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--depth", type=int, default=6, help="the balance check's search depth")
    p.add_argument("--within", type=float, default=0.3, help="kept within this many men")
    args = p.parse_args(argv)
    try:
        variant = find_variant(args.variant).id
    except ShashkiError as e:
        p.error(str(e))
    try:
        found = fresh(variant, args.count, args.plies, args.seed, args.depth, args.within)
    except ValueError as e:
        p.error(str(e))
    for text in found:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
