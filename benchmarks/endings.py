"""The drawn endings shashki lost to dame-rs: does the engine now keep the draw?

    python benchmarks/endings.py --time 0.5

``benchmarks/endings.txt`` holds 39 positions of the games shashki lost to dame-rs (220
games at 0.5 s a move) where shashki's move took a position Scan 2.0 did not see lost
into one it saw lost, with Scan 2.0's score (depth 14) of every legal move; in 38 of
them Scan holds a move to a draw.  For each, a fresh search chooses a move in the time
given; the figures are how many of the choices Scan sees lost (a score of -1500 or
less), how many hold the best score Scan found (within a tenth of a man), and how many
repeat the move of the game.  No engine is needed to run it: Scan's judgement is in
the file.  Measured 2026-12-02 (the 2-core machine): a move Scan sees lost in 29 at 0.5 s a
position, 27 at 2 s, 25 at 8 s (depth 16); holding as well as Scan's best in 2, 4, 5: more
time hardly helps, knowing which endings are drawn would.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from shashki.engine.search import Search
from shashki.rules import Game

DATA = Path(__file__).with_name("endings.txt")
#: A score at or below this is a loss Scan found.
LOST = -1500
#: Within this of Scan's best score, a move holds as well as the best.
HOLDS = 10


def read(path: Path) -> list[tuple[str, str, dict[str, int]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, played, judged = line.split("\t")
        scores = {m: int(s) for m, s in (item.rsplit("=", 1) for item in judged.split())}
        rows.append((fen, played, scores))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.5, help="seconds a position")
    parser.add_argument("--variant", default="international")
    args = parser.parse_args()
    lost = held = repeated = 0
    depths = []
    started = time.perf_counter()
    rows = read(DATA)
    for fen, played, scores in rows:
        game = Game(args.variant, fen=fen)
        result = Search(args.variant).search(game, seconds=args.time)
        assert result.move is not None
        chosen = game.move_text(result.move)
        score = scores[chosen]
        lost += score <= LOST
        held += score >= max(scores.values()) - HOLDS
        repeated += chosen == played
        depths.append(result.depth)
    n = len(rows)
    print(
        f"{n} positions, {args.time:g} s each: a move Scan sees lost {lost}, "
        f"holding as well as Scan's best {held}, the game's move again {repeated}; "
        f"mean depth {sum(depths) / n:.1f} ({time.perf_counter() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
