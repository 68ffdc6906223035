#!/usr/bin/env python
"""Perft from the start position at the published depths the slow tests leave out.

    python benchmarks/perft_deep.py                 # every count below (a few minutes)
    python benchmarks/perft_deep.py --variant czech --max-depth 10

The slow tests (``pytest -m slow``) check the start-position counts up to the depth a
test can afford; the deeper published counts, which take minutes in pure Python, are
checked here.  The counts are transcribed from ../shared/vectors/perft.json (dctl's
tables, drop-duplicates convention, as the tests): for pool and Czech draughts they are
reached only when a flying king that can land where its capture goes on must land there
(NATIONAL.md A.3).  Prints each count, whether it is the published one, and the time it
took (the process's CPU time); the exit status is 1 if a count differs.
"""

from __future__ import annotations

import argparse
import sys
import time

from shashki.rules import Game

#: (variant, depth, published leaf count), in the order they are run.
PUBLISHED: list[tuple[str, int, int]] = [
    ("pool", 10, 22_435_955),
    ("czech", 10, 18_368_918),
    ("czech", 11, 84_967_210),
]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", action="append", help="only this variant (repeatable)")
    p.add_argument("--max-depth", type=int, default=99, help="skip the deeper counts")
    args = p.parse_args(argv)
    wrong = 0
    head = f"{'variant':10} {'depth':>5} {'leaves':>12} {'published':>12}  {'':5} {'CPU s':>7}"
    print(head + "  leaves/s")
    for variant, depth, published in PUBLISHED:
        if (args.variant and variant not in args.variant) or depth > args.max_depth:
            continue
        game = Game(variant)
        started = time.process_time()
        count = game.perft(depth)
        took = time.process_time() - started
        ok = count == published
        wrong += not ok
        rate = count / took if took else 0.0
        print(
            f"{variant:10} {depth:5} {count:12,} {published:12,}  {'ok' if ok else 'WRONG':5}"
            f" {took:7.1f}  {rate / 1000:,.0f} k",
            flush=True,
        )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
