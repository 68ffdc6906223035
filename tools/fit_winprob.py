"""Fit the review's win-probability curves: the expected score of a game as a function of
the search's score, one curve for each kind of board (docs/REVIEW.md).

    python tools/fit_winprob.py play --games 48 --nodes 6000 --jobs 2 --out selfplay.jsonl
    python tools/fit_winprob.py fit selfplay.jsonl          # writes src/shashki/engine/winprob.json

``play`` has shashki play itself: for each kind of board (``8x8``, ``10x10``, ``12x12``,
``8x8-all``: every variant on it in turn), ``--games`` games, each from its own random
opening (4 to 8 random moves, seeded), both sides searching ``--nodes`` nodes a move and
playing the best move.  A game ends by the rules, or is a draw after ``--max-plies``.  It
writes one JSON line per game: the board, the variant, the result for each position's side
to move and the search's score there (hundredths of a man, for the side to move; positions
with one legal move, or a score that sees the end of the game, are left out).  Lines are
appended, so a run can be stopped and taken up again with another ``--seed``.

``fit`` finds for each board the ``k`` of ``E(s) = 1 / (1 + exp(-s / k))`` that makes the
games' results most likely (a win 1, a draw 1/2, a loss 0 for the side to move: the
binary cross-entropy, minimised over ``k`` by golden-section search), prints it with the
number of games and positions and the loss, and writes the table the review reads.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from shashki.engine import Search
from shashki.engine.search import WON
from shashki.engine.winprob import board_key
from shashki.rules import Game, all_variants, find_variant

TABLE = Path(__file__).resolve().parents[1] / "src" / "shashki" / "engine" / "winprob.json"


def boards() -> dict[str, list[str]]:
    """The variants on each kind of board (their ids, sorted)."""
    out: dict[str, list[str]] = defaultdict(list)
    for v in all_variants():
        out[board_key(v)].append(v.id)
    return {key: sorted(ids) for key, ids in sorted(out.items())}


def play_one(job: tuple[str, str, int, int, int]) -> str:
    board, variant_id, seed, nodes, max_plies = job
    variant = find_variant(variant_id)
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(rng.randrange(4, 9)):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    search = Search(variant)
    seen: list[tuple[int, int]] = []  # (side to move, score)
    while game.outcome() is None and game.ply < max_plies:
        result = search.search(game, nodes=nodes)
        if result.move is None:
            break
        if len(game.legal_moves()) > 1 and abs(result.score) < WON:
            seen.append((int(game.turn), result.score))
        game.push(result.move)
    out = game.outcome()
    winner = None if out is None else out.winner
    points = []
    for side, score in seen:
        value = 0.5 if winner is None else (1.0 if int(winner) == side else 0.0)
        points.append([score, value])
    return json.dumps(
        {
            "board": board,
            "variant": variant_id,
            "seed": seed,
            "plies": game.ply,
            "ended": out is not None,
            "points": points,
        }
    )


def cmd_play(args: argparse.Namespace) -> int:
    jobs = []
    only = set(args.boards.split(",")) if args.boards else None
    for board, ids in boards().items():
        if only is not None and board not in only:
            continue
        for i in range(args.games):
            variant = ids[i % len(ids)]
            jobs.append((board, variant, args.seed * 1_000_000 + i, args.nodes, args.max_plies))
    started = time.time()
    with open(args.out, "a", encoding="utf-8") as out, ProcessPoolExecutor(args.jobs) as pool:
        for done, line in enumerate(pool.map(play_one, jobs, chunksize=1), 1):
            out.write(line + "\n")
            out.flush()
            if done % 10 == 0 or done == len(jobs):
                rate = done / (time.time() - started) * 60
                print(f"{done}/{len(jobs)} games, {rate:.1f} a minute", file=sys.stderr)
    return 0


def loss(points: list[tuple[float, float]], k: float) -> float:
    """The mean binary cross-entropy of the results under the curve of ``k``."""
    total = 0.0
    for score, value in points:
        p = 1.0 / (1.0 + math.exp(-score / k))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= value * math.log(p) + (1 - value) * math.log(1 - p)
    return total / len(points)


def fit_k(points: list[tuple[float, float]], low: float = 10.0, high: float = 5000.0) -> float:
    """The ``k`` of least loss (golden-section search over log k)."""
    a, b = math.log(low), math.log(high)
    ratio = (math.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = loss(points, math.exp(c)), loss(points, math.exp(d))
    for _ in range(60):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = loss(points, math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = loss(points, math.exp(d))
    return math.exp((a + b) / 2)


def cmd_fit(args: argparse.Namespace) -> int:
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    games: dict[str, int] = defaultdict(int)
    for name in args.data:
        with open(name, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                games[row["board"]] += 1
                points[row["board"]].extend((float(s), float(v)) for s, v in row["points"])
    table: dict[str, dict[str, float | int]] = {}
    for board in sorted(points):
        rows = points[board]
        k = fit_k(rows)
        table[board] = {
            "k": round(k, 1),
            "games": games[board],
            "positions": len(rows),
            "loss": round(loss(rows, k), 4),
        }
        print(
            f"{board}: k = {k:.1f} from {games[board]} games, {len(rows)} positions, "
            f"loss {loss(rows, k):.4f} (k/2: {loss(rows, k / 2):.4f}, 2k: "
            f"{loss(rows, 2 * k):.4f})"
        )
    if args.dry_run:
        return 0
    document = json.loads(TABLE.read_text(encoding="utf-8"))
    document["boards"] = table
    document["made"] = " ".join(["python", "tools/fit_winprob.py", "fit", *args.data])
    TABLE.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written: {TABLE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="self-play games to fit from")
    play.add_argument("--games", type=int, default=48, help="games for each kind of board")
    play.add_argument("--nodes", type=int, default=6000, help="nodes a move")
    play.add_argument("--jobs", type=int, default=2, help="worker processes")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--max-plies", type=int, default=250)
    play.add_argument("--boards", default="", help="only these boards (8x8,10x10,...)")
    play.add_argument("--out", required=True)
    fit = sub.add_parser("fit", help="fit the curves and write the table")
    fit.add_argument("data", nargs="+")
    fit.add_argument("--dry-run", action="store_true", help="print, write nothing")
    args = p.parse_args(argv)
    return cmd_play(args) if args.command == "play" else cmd_fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
