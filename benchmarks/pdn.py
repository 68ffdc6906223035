"""PDN reading speed and memory: python benchmarks/pdn.py [--corpus DIR] [--copies N]

Prints, for the largest files of the shared corpus (of variants shashki plays): games
per second when only the tags are scanned, and when every game is read and replayed
(every move matched to a legal move, variations included).  Then the peak memory
(tracemalloc) of reading one file and of reading a temporary file made of N copies of
it: streaming keeps the peak flat, whatever the size.  Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from shashki.records import PdnReader, scan_headers
from shashki.rules import ShashkiError, find_variant

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "pdn"
#: A file of real games small enough to read ten times over under tracemalloc quickly.
MEMORY_DEFAULT = "international/mig0-Games-Checkers/az2000.pdn"


def variant_of(root: Path, path: Path) -> str | None:
    folder = path.relative_to(root).parts[0]
    try:
        variant = find_variant(folder)
    except ShashkiError:
        return None
    return variant.id if variant.id == folder else None


def largest_files(root: Path, count: int) -> list[tuple[Path, str]]:
    files = [(p, variant_of(root, p)) for p in root.rglob("*.pdn")]
    playable = [(p, v) for p, v in files if v is not None]
    playable.sort(key=lambda pv: pv[0].stat().st_size, reverse=True)
    return playable[:count]


def timed_read(path: Path, variant: str, repeat: int) -> tuple[float, int, int, int]:
    """Best time of ``repeat`` full reads: (seconds, games, moves, games with errors)."""
    best = float("inf")
    games = moves = bad = 0
    for _ in range(repeat):
        start = time.perf_counter()
        games = moves = bad = 0
        with open(path, "rb") as fh:
            for game in PdnReader(fh, variant):
                games += 1
                moves += sum(1 for _ in game.nodes())
                bad += not game.ok
        best = min(best, time.perf_counter() - start)
    return best, games, moves, bad


def timed_scan(path: Path, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        with open(path, "rb") as fh:
            for _headers in scan_headers(fh):
                pass
        best = min(best, time.perf_counter() - start)
    return best


def peak_memory(path: Path, variant: str) -> tuple[int, int]:
    """(peak bytes traced while reading and replaying every game, games read)."""
    tracemalloc.start()
    games = 0
    with open(path, "rb") as fh:
        for _game in PdnReader(fh, variant):
            games += 1
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--files", type=int, default=4, help="how many of the largest files")
    parser.add_argument("--copies", type=int, default=10, help="size factor of the big file")
    parser.add_argument("--repeat", type=int, default=3, help="best of N timings")
    parser.add_argument(
        "--memory-file",
        type=Path,
        default=None,
        help=f"the file copied for the memory test (default: {MEMORY_DEFAULT}; tracemalloc "
        "makes reading some ten times slower)",
    )
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus} (give --corpus DIR)", file=sys.stderr)
        return 2

    files = largest_files(args.corpus, args.files)
    print(
        f"{'file':58} {'size':>8} {'games':>6} {'moves':>7} {'scan g/s':>9} "
        f"{'replay g/s':>10} {'moves/s':>8}"
    )
    for path, variant in files:
        seconds, games, moves, bad = timed_read(path, variant, args.repeat)
        scan = timed_scan(path, args.repeat)
        name = str(path.relative_to(args.corpus))
        note = f"  ({bad} with errors)" if bad else ""
        print(
            f"{name[-58:]:58} {path.stat().st_size // 1024:>6}KB {games:>6} {moves:>7} "
            f"{games / scan:>9.0f} {games / seconds:>10.0f} {moves / seconds:>8.0f}{note}"
        )

    if args.memory_file is not None:
        path = args.memory_file.resolve()
        found = variant_of(args.corpus, path) if path.is_relative_to(args.corpus) else None
        variant = found or "international"
    elif (args.corpus / MEMORY_DEFAULT).is_file():
        path, variant = args.corpus / MEMORY_DEFAULT, "international"
    else:
        path, variant = files[-1]
    data = path.read_bytes()
    print()
    print(f"memory, reading and replaying every game of {path.name} copied N times:")
    start = time.perf_counter()
    peaks = {}
    for copies in sorted({1, 3, args.copies}):
        fd, big_name = tempfile.mkstemp(suffix=".pdn")
        big = Path(big_name)
        try:
            with os.fdopen(fd, "wb") as fh:
                for _ in range(copies):
                    fh.write(data)
                    fh.write(b"\n\n")
            gc.collect()
            peaks[copies], games = peak_memory(big, variant)
        finally:
            big.unlink()
        print(
            f"  {copies:>3}x {len(data) * copies / 1e6:7.2f} MB  {games:6} games  "
            f"peak {peaks[copies] / 1e6:6.2f} MB"
        )
    print(
        f"  {args.copies}x the file: {peaks[args.copies] / peaks[1]:.2f} times the 1x peak, "
        f"{peaks[args.copies] / peaks[3]:.2f} times the 3x peak (games are freed by the "
        f"cycle collector, so the peak holds a few games)"
    )
    print(f"  (traced reading took {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
