"""The memory of a search without a clock, and its stop on Ctrl+C.

    python benchmarks/deep.py [--variant russian] [--minutes 3] [--every 10] [--fen FEN]

Runs ``shashki best VARIANT --depth 100`` in a new process, prints its resident memory
(RSS, read from /proc: Linux only) every ``--every`` seconds, then sends it SIGINT (what
Ctrl+C sends) and prints how it ended: its exit status, its last lines and how long it
took to stop.  The transposition table is capped during the search, so the memory
levels off instead of growing with the time searched.  Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from pathlib import Path


def rss_mb(pid: int) -> float | None:
    """The resident memory of process ``pid`` in MB (None when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="russian")
    p.add_argument("--fen", help="the position (default: the start)")
    p.add_argument("--minutes", type=float, default=3.0, help="how long to let it search")
    p.add_argument("--every", type=float, default=10.0, help="seconds between two readings")
    args = p.parse_args(argv)
    command = [sys.executable, "-m", "shashki", "best", args.variant, "--depth", "100"]
    if args.fen:
        command += ["--fen", args.fen]
    print("$", " ".join(command[1:]))
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1
    )
    started = time.perf_counter()
    peak = 0.0
    while time.perf_counter() - started < args.minutes * 60 and proc.poll() is None:
        time.sleep(args.every)
        mb = rss_mb(proc.pid)
        if mb is not None:
            peak = max(peak, mb)
            print(f"{time.perf_counter() - started:7.0f} s  RSS {mb:7.1f} MB", flush=True)
    if proc.poll() is None:
        stop = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        took = time.perf_counter() - stop
        print(f"SIGINT: stopped after {took:.2f} s, exit status {proc.returncode}")
    else:
        out, err = proc.communicate()
        print(f"finished by itself, exit status {proc.returncode}")
    print(f"peak RSS {peak:.1f} MB")
    for line in out.strip().splitlines()[-3:]:
        print("  stdout:", line[:150])
    for line in err.strip().splitlines():
        print("  stderr:", line[:150])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
