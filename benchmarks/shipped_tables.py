"""The ending tables shipped in the package: what they cost (size) and what they give
(an exact answer at once in a fresh install).

    python benchmarks/shipped_tables.py [--runs 3]

Prints the size of the tables folder (compressed, as shipped, and unpacked), of the
package folder with and without it, and, each in a fresh process with an empty cache
folder (a fresh install), the time of

* ``shashki best international --fen "B:WK7,K12,K45:BK5"`` (three kings against one on
  the long diagonal, a draw) with the shipped tables and without them (then the search
  answers after its 3 seconds, with a score that is not 0.00);
* ``shashki best russian --fen "W:WKa1,Kb2,Kc1:BKe7"`` (Petrov's triangle, won);
* ``shashki best czech --fen "B:Wa3,c3:Bf6,h6"`` (two men against two on the 8x8 board);
* ``shashki best turkish --fen "W:WKa1,c3:BKh8,f6"`` (a king and a man each on the board
  of 64 squares: 25.7 million positions, the biggest table shipped);
* ``shashki --version`` (the start of the program: the tables are read only when an
  ending needs them).

The best of ``--runs`` runs each (a busy machine's noise is one-sided), as wall time and as
processor time (user + system), which a busy machine's other work does not add to.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import shashki
from shashki.engine import endings
from shashki.rules import find_variant

#: Run in a fresh process: the CLI, with the shipped tables hidden when asked.
RUNNER = r"""
import sys
from pathlib import Path
if sys.argv[1] == "without":
    from shashki.engine import endings
    endings.SHIPPED = Path("/nonexistent")
from shashki.cli import main
sys.exit(main(sys.argv[2:]))
"""


def folder_size(path: Path, skip: Path | None = None) -> int:
    total = 0
    for p in path.rglob("*"):
        if skip is not None and (p == skip or skip in p.parents):
            continue
        if p.is_file() and "__pycache__" not in p.parts:
            total += p.stat().st_size
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tables_given(files: list[Path]) -> set[tuple[str, tuple[int, int, int, int]]]:
    """The tables the shipped ``files`` give (by game and material): each file's, and of
    kings alone the colours swapped too (read off it)."""
    out = set()
    for path in files:
        found = re.fullmatch(r"(.+)-(\d)k(\d)m-(\d)k(\d)m(?:\.white\.xz|\.xz|\.same)", path.name)
        if found is None:
            continue
        wk, wm, bk, bm = (int(found[i]) for i in range(2, 6))
        out.add((found[1], (wk, wm, bk, bm)))
        if not wm and not bm:
            out.add((found[1], (bk, bm, wk, wm)))
    return out


def timed(args: list[str], runs: int) -> tuple[float, float, str]:
    """The best wall time and the best processor time (user + system: what a busy
    machine's other work does not add to) of ``runs`` runs in a fresh cache folder, and
    the first line said."""
    best, best_cpu, last = float("inf"), float("inf"), ""
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "XDG_CACHE_HOME": cache, "SHASHKI_PURE": "1"}
            began, cpu = time.perf_counter(), _children_cpu()
            done = subprocess.run(
                [sys.executable, "-c", RUNNER, *args], capture_output=True, text=True, env=env
            )
            best = min(best, time.perf_counter() - began)
            best_cpu = min(best_cpu, _children_cpu() - cpu)
            lines = [x for x in done.stdout.splitlines() if x.strip()]
            last = (lines[0] if lines else done.stderr.strip()[-100:])[:70]
    return best, best_cpu, last


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tables = endings.SHIPPED
    package = Path(shashki.__file__).parent
    packed = folder_size(tables)
    files = [p for p in tables.iterdir() if p.is_file()]
    given = _tables_given(files)
    unpacked = sum(endings.table_size(find_variant(vid), m) for vid, m in given)
    print(
        f"tables: {len(files)} files giving {len(given)} tables, {packed / 1e6:.2f} MB as "
        f"shipped ({unpacked / 1e6:.1f} MB as the cache holds them)"
    )
    print(
        f"package folder: {folder_size(package) / 1e6:.2f} MB with them, "
        f"{folder_size(package, tables) / 1e6:.2f} MB without"
    )
    cases = [
        ("3K v 1K, International", ["best", "international", "--fen", "B:WK7,K12,K45:BK5"]),
        ("Petrov's triangle, Russian", ["best", "russian", "--fen", "W:WKa1,Kb2,Kc1:BKe7"]),
        ("2M v 2M, Czech", ["best", "czech", "--fen", "B:Wa3,c3:Bf6,h6"]),
        ("1K+1M v 1K+1M, Turkish", ["best", "turkish", "--fen", "W:WKa1,c3:BKh8,f6"]),
        ("shashki --version", ["--version"]),
    ]
    for label, words in cases:
        for which in ("with", "without"):
            seconds, cpu, said = timed([which, *words], args.runs)
            print(
                f"{label:28} {which:7} the tables: {seconds:6.2f} s "
                f"({cpu:5.2f} s of processor)  {said}"
            )


if __name__ == "__main__":
    main()
