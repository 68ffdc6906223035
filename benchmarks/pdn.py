"""PDN reading speed and memory: python benchmarks/pdn.py [--corpus DIR] [--copies N]

Prints, for the largest files of the shared corpus (of variants shashki plays): games
per second when only the tags are scanned, and when every game is read and replayed
(every move matched to a legal move, variations included).  Then the peak memory
(tracemalloc) of reading one file and of reading a temporary file made of N copies of
it: streaming keeps the peak flat, whatever the size.  Prints figures, asserts nothing.

``--broken N`` instead measures ``shashki check`` (and ``check --json``) as a separate
process over a generated file of N broken games — illegal moves, junk, games of no
variant, prose, unclosed braces — and prints the peak resident memory of each run
(``getrusage`` of that child) for N/10 and N games: it stays flat whatever N.

``--huge MB`` measures it over single games of MB megabytes: one line with no line end,
a line of words, a comment never closed, a move of a million squares, a million marks.
No line, comment or game is held whole, so the peak stays far below the file's size.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

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


#: The broken games of ``--broken``, in turn: every kind of problem a check reports.
BROKEN_GAMES = [
    '[Event "illegal {n}"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. d4-f6 *\n',
    '[Event "junk {n}"]\n[GameType "20"]\n1. 32-28 19-23 2. -- 14-19 *\n',
    '[Event "no variant {n}"]\n[GameType "31"]\n1. 32-28 *\n',
    '[Event "bad FEN {n}"]\n[FEN "W:W99:B1"]\n1. 32-28 *\n',
    '[Event "prose {n}"]\n1. 32-28 19-23 White resigns {{never closed\n2. 28x19 *\n',
]


def write_broken(path: Path, count: int) -> int:
    """A file of ``count`` broken games; returns its size in bytes."""
    with open(path, "w", encoding="utf-8") as fh:
        for n in range(count):
            fh.write(BROKEN_GAMES[n % len(BROKEN_GAMES)].format(n=n))
            fh.write("\n")
    return path.stat().st_size


def check_peak(path: Path, *options: str) -> tuple[float, float, int]:
    """(peak resident megabytes, seconds, exit status) of ``shashki check`` over
    ``path`` in a process of its own, its output thrown away."""
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "shashki", "check", *options, str(path)],
            stdout=sink,
            stderr=sink,
            stdin=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is in kilobytes on Linux (bytes on macOS)
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1 << 20)
    return usage.ru_maxrss * scale, time.perf_counter() - start, proc.returncode


def broken_memory(count: int) -> None:
    print(f"shashki check over N broken games ({len(BROKEN_GAMES)} kinds in turn), peak RSS:")
    with tempfile.TemporaryDirectory() as folder:
        for n in sorted({max(1, count // 10), count}):
            path = Path(folder) / f"broken-{n}.pdn"
            size = write_broken(path, n)
            for options in ((), ("--json",)):
                peak, seconds, status = check_peak(path, *options)
                label = " ".join(["check", *options])
                print(
                    f"  {label:13} {n:>9} games {size / 1e6:8.1f} MB  peak {peak:7.1f} MB  "
                    f"{seconds:6.1f} s  ({n / seconds:,.0f} games/s, exit {status})"
                )
            path.unlink()


#: The shapes of ``--huge``: a name, the game's start, a piece repeated to the size.
HUGE_SHAPES = [
    ("one line, no line end", b"", b"x" * 1000),
    ("a line of words", b'[GameType "20"]\n1. 32-28 ', b"word " * 200),
    ("a comment never closed", b'[GameType "20"]\n1. 32-28 {', b"note " * 200),
    ("a move of a million squares", b'[GameType "20"]\n1. ', b"32-28-" * 200),
    ("a million marks", b'[GameType "20"]\n1. 32-28 ', b"$1 !? " * 100),
    ("lines in a comment", b'[GameType "20"]\n1. 32-28 {', b"\n" * 1000),
]


def huge_memory(megabytes: int) -> None:
    print(f"shashki check over one game of {megabytes} MB, peak RSS:")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "huge.pdn"
        for name, head, piece in HUGE_SHAPES:
            with open(path, "wb") as fh:
                fh.write(head)
                for _ in range(megabytes * (1 << 20) // len(piece)):
                    fh.write(piece)
            peak, seconds, status = check_peak(path)
            size = path.stat().st_size
            print(
                f"  {name:28} {size / 1e6:7.1f} MB  peak {peak:7.1f} MB  {seconds:6.1f} s"
                f"  (exit {status})"
            )
            path.unlink()


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
    parser.add_argument(
        "--broken",
        type=int,
        metavar="N",
        help="only measure the memory of 'shashki check' over N generated broken games",
    )
    parser.add_argument(
        "--huge",
        type=int,
        metavar="MB",
        help="only measure the memory of 'shashki check' over single games of MB megabytes",
    )
    args = parser.parse_args(argv)
    if args.broken is not None or args.huge is not None:
        if args.broken is not None:
            broken_memory(max(1, args.broken))
        if args.huge is not None:
            huge_memory(max(1, args.huge))
        return 0
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
