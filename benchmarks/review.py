"""How long a whole-game review takes, the whole process timed: ``shashki review FILE
--print`` on a 50-move International game and a 40-move Russian game (issue 47's goals:
60 s and 30 s on the 2-core machine at the default setting).

    python benchmarks/review.py                      # both games, the default depth
    python benchmarks/review.py --depth quick --runs 3

The games are the first of ``../shared/corpora/pdn`` with enough moves, cut to exactly
100 and 80 plies (written to a temporary file; the corpus is only read).  Each run is a
fresh ``shashki review`` process: its start, the worker processes' start, every search,
the summary.  It prints the wall-clock time, the CPU time of the process and its workers,
the cores that makes (CPU over wall), and the machine's load average before and after —
on a shared machine the wall-clock time is what the others leave.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shashki.records import GameRecord, read_file, write_game

#: The shared corpus: ../shared beside the project, or where SHASHKI_SHARED says.
CORPUS = (
    Path(os.environ.get("SHASHKI_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    / "corpora"
    / "pdn"
)
#: (variant, plies, the goal in seconds, where to look for a game).
GAMES = (
    ("international", 100, 60.0, "international"),
    ("russian", 80, 30.0, "russian"),
)


def find_game(folder: Path, variant: str, plies: int) -> GameRecord | None:
    """The first game of ``variant`` in ``folder`` with at least ``plies`` moves, cut there."""
    for path in sorted(folder.rglob("*.pdn")):
        for record in read_file(path, variant):
            if record.variant is None or record.variant.id != variant or record.errors:
                continue
            moves = record.mainline_moves()
            if len(moves) >= plies:
                cut = GameRecord(record.variant, record.fen, dict(record.headers))
                node = cut
                for move in moves[:plies]:
                    node = node.add_variation(move)
                cut.headers["Source"] = f"{path.name}, cut to {plies} plies"
                return cut
    return None


def run(path: Path, depth: str) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its workers, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "shashki", "review", str(path), "--print", "--depth", depth],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"shashki review failed: {done.stderr.strip()}")
    return wall, cpu, done.stdout


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--depth", default="normal", help="quick, normal (the default) or deep")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--corpus", type=Path, default=CORPUS)
    args = p.parse_args(argv)
    print(f"cores: {os.cpu_count()}, depth: {args.depth}")
    with tempfile.TemporaryDirectory() as tmp:
        for variant, plies, goal, folder in GAMES:
            record = find_game(args.corpus / folder, variant, plies)
            if record is None:
                print(f"{variant}: no game of {plies} plies in {args.corpus / folder}")
                continue
            path = Path(tmp) / f"{variant}.pdn"
            path.write_text(write_game(record), encoding="utf-8")
            for i in range(args.runs):
                load = os.getloadavg()[0]
                wall, cpu, out = run(path, args.depth)
                load_after = os.getloadavg()[0]
                verdict = "within" if wall <= goal else "OVER"
                print(
                    f"{variant} ({record.headers['Source']}), run {i + 1}: {wall:.1f} s wall "
                    f"({verdict} the goal of {goal:.0f} s), {cpu:.1f} s CPU, "
                    f"{cpu / wall:.2f} cores used, load {load:.1f} -> {load_after:.1f}"
                )
            print("  " + out.strip().replace("\n", "\n  "))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
