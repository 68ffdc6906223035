#!/usr/bin/env python
"""Perft benchmark: shashki against py-draughts, in one process, on the same positions.

Run it from the project root::

    python benchmarks/perft.py            # full run (a few minutes)
    python benchmarks/perft.py --quick    # smaller depths, two rounds

It prints three sections:

1. **push/pop throughput** (leaves per second) for russian, brazilian, international and
   english: a perft in which every leaf position is made with ``push`` and undone with
   ``pop``, the same harness for both libraries.  shashki uses ``legal_moves()``,
   ``push_unchecked`` and ``pop``; its checked ``push`` is shown too.
2. **fastest perft** on international: shashki's ``Game.perft`` (copy-make, counting at
   the last ply) against py-draughts' ``turbo`` perft (bulk counting).
3. **correctness**: the counts each library gets, with the published counts from the
   start positions (english, depth 3: 302).

The speed of a shared machine drifts, so the libraries are timed interleaved in one
process (shashki, py-draughts, py-draughts, shashki, ... round after round), with the
garbage collector off while a clock runs.  Each round prints its figures and ratio;
the summary gives each library's best round and the median of the per-round ratios.
Nothing here asserts on time.

py-draughts is optional (``pip install -e '.[bench]'``).  ``--py-draughts-venv DIR``
adds the site-packages of another virtual environment to the import path first.
"""

from __future__ import annotations

import argparse
import gc
import glob
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

# -- the positions -------------------------------------------------------------------
#
# Numeric FENs, which both libraries read; 8x8 squares are numbered 1 = b8 ... 32 = g1,
# White on 21-32, as both libraries do.  The middle-game and king positions were
# written for this benchmark.

START_8 = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# English checkers: Black (on 1-12) moves first.
START_ENGLISH = "B" + START_8[1:]
START_10 = "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))
MIDDLE_8 = "W:W21,22,23,24,28,29,31,32:B1,2,4,6,7,8,12,16"
KINGS_8 = "W:WK4,21,22,25,26,27,30:B6,9,10,12,K29,16"
MIDDLE_10 = "W:W30,31,32,35,36,37,39,41,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,14,15,16,17,19,23"
KINGS_10 = "B:WK1,K50,27,28,33,38:B9,12,13,K45,19,24"

# variant -> [(label, fen, push/pop depth (full), push/pop depth (quick))]
PUSH_POP: dict[str, list[tuple[str, str, int, int]]] = {
    "russian": [("start", START_8, 6, 5), ("middle", MIDDLE_8, 5, 4), ("kings", KINGS_8, 6, 5)],
    "brazilian": [("start", START_8, 6, 5), ("middle", MIDDLE_8, 5, 4), ("kings", KINGS_8, 6, 5)],
    "international": [
        ("start", START_10, 5, 4),
        ("middle", MIDDLE_10, 4, 3),
        ("kings", KINGS_10, 5, 4),
    ],
    "english": [
        ("start", START_ENGLISH, 6, 5),
        ("middle", MIDDLE_8, 5, 4),
        ("kings", KINGS_8, 6, 5),
    ],
}

# International positions for the fastest perft: (label, fen, depth (full), depth (quick)).
FASTEST: list[tuple[str, str, int, int]] = [
    ("start", START_10, 7, 6),
    ("middle", MIDDLE_10, 6, 5),
    ("kings", KINGS_10, 6, 5),
]

# Published perft counts from the start position (drop-duplicates convention), depth 1...
PUBLISHED: dict[str, list[int]] = {
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564],
}

PY_DRAUGHTS_BOARDS = {
    "russian": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "international": "StandardBoard",
    "english": "AmericanBoard",
}

# -- the harnesses ---------------------------------------------------------------------


def shashki_push_pop(game: Any, depth: int) -> int:
    """Leaves at ``depth``, every one made with push_unchecked and undone with pop."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.push_unchecked(move)
        total += shashki_push_pop(game, depth - 1)
        game.pop()
    return total


def shashki_push_pop_checked(game: Any, depth: int) -> int:
    """As ``shashki_push_pop`` with the public, checked ``push``."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += shashki_push_pop_checked(game, depth - 1)
        game.pop()
    return total


def py_draughts_push_pop(board: Any, depth: int) -> int:
    """Leaves at ``depth``, every one made with push and undone with pop."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += py_draughts_push_pop(board, depth - 1)
        board.pop()
    return total


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(result, seconds) of ``run()``, with the garbage collector off while it runs."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        result = run()
        return result, time.perf_counter() - t0
    finally:
        gc.enable()


# -- py-draughts -------------------------------------------------------------------------


def load_py_draughts(venv: str | None) -> Any:
    """The ``draughts`` module, or None when it cannot be imported."""
    if venv:
        pattern = os.path.join(venv, "lib", "python*", "site-packages")
        found = sorted(glob.glob(pattern))
        if not found:
            print(f"no site-packages under {venv!r}", file=sys.stderr)
        sys.path[:0] = found
    try:
        import draughts  # type: ignore[import-not-found]
    except ImportError:
        return None
    return draughts


class PyDraughts:
    """The few entry points of py-draughts this benchmark calls."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.version = getattr(module, "__version__", "?")
        try:
            from draughts.engines.turbo import perft_from_board  # type: ignore[import-not-found]
        except ImportError:
            perft_from_board = None
        self.turbo = perft_from_board

    def board(self, variant: str, fen: str) -> Any:
        return getattr(self.module, PY_DRAUGHTS_BOARDS[variant]).from_fen(fen)


# -- reporting -----------------------------------------------------------------------------


def rate(leaves: int, seconds: float) -> float:
    return leaves / seconds if seconds > 0 else float("inf")


def fmt(x: float) -> str:
    return f"{x / 1e3:9,.0f}k"


class Tally:
    """Leaves and seconds per library per round, and the counts each run returned."""

    def __init__(self) -> None:
        self.rounds: list[dict[str, float]] = []
        self.counts: dict[tuple[str, str, int], dict[str, set[int]]] = {}

    def add_count(self, key: tuple[str, str, int], lib: str, count: int) -> None:
        self.counts.setdefault(key, {}).setdefault(lib, set()).add(count)


def summary(name: str, rounds: list[dict[str, float]], libs: list[str], ref: str) -> str:
    """One line: best and median rate per library, ratios of the best and median per round."""
    parts = [f"{name:<14}"]
    for lib in libs:
        rates = [r[lib] for r in rounds if lib in r]
        if rates:
            parts.append(f"{lib} best {fmt(max(rates))}/s median {fmt(statistics.median(rates))}/s")
    if ref in libs and any(ref in r for r in rounds):
        for lib in libs:
            if lib == ref or not all(lib in r and ref in r for r in rounds):
                continue
            ratios = [r[lib] / r[ref] for r in rounds]
            best = max(r[lib] for r in rounds) / max(r[ref] for r in rounds)
            parts.append(
                f"{lib}/{ref}: best/best {best:.2f}x, per round "
                + " ".join(f"{x:.2f}" for x in ratios)
                + f" (median {statistics.median(ratios):.2f}x)"
            )
    return "\n    ".join(parts)


# -- the sections ----------------------------------------------------------------------


def push_pop_section(
    variants: list[str], rounds: int, quick: bool, pd: PyDraughts | None, checked: bool, tally: Tally
) -> dict[str, list[dict[str, float]]]:
    from shashki.rules import Game

    print("== push/pop perft: every leaf made with push and undone with pop (leaves/s) ==")
    for variant in variants:
        spec = ", ".join(f"{label} d{dq if quick else df}" for label, _, df, dq in PUSH_POP[variant])
        print(f"  {variant}: {spec}")
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}

    def run_lib(variant: str, lib: str) -> float:
        leaves = 0
        seconds = 0.0
        for label, fen, df, dq in PUSH_POP[variant]:
            depth = dq if quick else df
            if lib == "py-draughts":
                assert pd is not None
                board = pd.board(variant, fen)
                n, t = timed(lambda: py_draughts_push_pop(board, depth))
            else:
                game = Game(variant, fen)
                harness = shashki_push_pop_checked if lib == "shashki(push)" else shashki_push_pop
                n, t = timed(lambda: harness(game, depth))
            tally.add_count((variant, label, depth), lib, n)
            leaves += n
            seconds += t
        return rate(leaves, seconds)

    for r in range(rounds):
        for variant in variants:
            libs = ["shashki"] + (["py-draughts"] if pd else [])
            if r % 2:
                libs.reverse()
            if checked:
                libs.append("shashki(push)")
            row = {lib: run_lib(variant, lib) for lib in libs}
            results[variant].append(row)
            line = "  ".join(f"{lib} {fmt(row[lib])}/s" for lib in sorted(row))
            ratio = f"  ratio {row['shashki'] / row['py-draughts']:.2f}x" if pd else ""
            print(f"  round {r + 1} {variant:<14}{line}{ratio}", flush=True)
    print()
    for variant in variants:
        libs = ["shashki", "shashki(push)", "py-draughts"] if checked else ["shashki", "py-draughts"]
        print("  " + summary(variant, results[variant], libs, "py-draughts"))
    print()
    return results


def fastest_section(rounds: int, quick: bool, pd: PyDraughts | None, tally: Tally) -> None:
    from shashki.rules import Game

    print("== fastest perft, international (leaves/s) ==")
    print("  shashki: Game.perft (copy-make, counts at the last ply)")
    turbo = pd.turbo if pd else None
    if pd and turbo is None:
        print("  py-draughts: draughts.engines.turbo is missing in this version")
    elif turbo:
        print("  py-draughts: draughts.engines.turbo.perft_from_board (bulk counting)")
    spec = ", ".join(f"{label} d{dq if quick else df}" for label, _, df, dq in FASTEST)
    print(f"  positions: {spec}")
    rows: list[dict[str, float]] = []
    per_pos: dict[str, list[dict[str, float]]] = {label: [] for label, *_ in FASTEST}
    for r in range(rounds):
        libs = ["shashki"] + (["py-draughts"] if turbo else [])
        if r % 2:
            libs.reverse()
        leaves = {lib: 0 for lib in libs}
        seconds = {lib: 0.0 for lib in libs}
        for label, fen, df, dq in FASTEST:
            depth = dq if quick else df
            pos_row = {}
            for lib in libs:
                if lib == "shashki":
                    game = Game("international", fen)
                    n, t = timed(lambda: game.perft(depth))
                else:
                    board = pd.board("international", fen)  # type: ignore[union-attr]
                    n, t = timed(lambda: turbo(board, depth))  # type: ignore[misc]
                tally.add_count(("international", label, depth), lib + " fastest", n)
                leaves[lib] += n
                seconds[lib] += t
                pos_row[lib] = rate(n, t)
            per_pos[label].append(pos_row)
        row = {lib: rate(leaves[lib], seconds[lib]) for lib in libs}
        rows.append(row)
        line = "  ".join(f"{lib} {fmt(row[lib])}/s" for lib in sorted(row))
        ratio = f"  ratio {row['shashki'] / row['py-draughts']:.2f}x" if turbo else ""
        print(f"  round {r + 1} all positions  {line}{ratio}", flush=True)
    print()
    libs = ["shashki", "py-draughts"] if turbo else ["shashki"]
    for label, *_ in FASTEST:
        print("  " + summary(label, per_pos[label], libs, "py-draughts"))
    print("  " + summary("all positions", rows, libs, "py-draughts"))
    print()


def other_fastest_section(variants: list[str], quick: bool) -> None:
    """shashki's fastest perft on the other variants (py-draughts has no counterpart)."""
    from shashki.rules import Game

    others = [v for v in variants if v != "international"]
    if not others:
        return
    print("== fastest perft, shashki only (start position) ==")
    for variant in others:
        depth = 6 if quick else 7
        game = Game(variant, PUSH_POP[variant][0][1])
        n, t = timed(lambda: game.perft(depth))
        print(f"  {variant:<14} d{depth} {n:>9,} leaves  {fmt(rate(n, t))}/s")
    print()


def correctness_section(variants: list[str], pd: PyDraughts | None, tally: Tally) -> None:
    from shashki.rules import Game

    print("== correctness: counts each library got ==")
    # From the start, at depth 3 (where py-draughts' English count goes wrong) and at the
    # depths timed above.
    for variant in variants:
        label, fen = PUSH_POP[variant][0][:2]
        for depth in (3,):
            tally.add_count((variant, label, depth), "shashki", Game(variant, fen).perft(depth))
            if pd:
                board = pd.board(variant, fen)
                tally.add_count((variant, label, depth), "py-draughts", py_draughts_push_pop(board, depth))
    header = f"  {'variant':<14}{'position':<9}{'depth':>5}  {'published':>10}  {'shashki':>10}  {'py-draughts':>11}  notes"
    print(header)
    problems = 0
    for (variant, label, depth), by_lib in sorted(tally.counts.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        published = None
        if label == "start" and depth <= len(PUBLISHED[variant]):
            published = PUBLISHED[variant][depth - 1]
        sh = set().union(*(c for lib, c in by_lib.items() if lib.startswith("shashki")))
        py = set().union(*(c for lib, c in by_lib.items() if lib.startswith("py-draughts")))
        notes = []
        if len(sh) > 1:
            notes.append(f"shashki's harnesses disagree: {sorted(sh)}")
        if len(py) > 1:
            notes.append(f"py-draughts' harnesses disagree: {sorted(py)}")
        if published is not None:
            if sh and published not in sh:
                notes.append("shashki differs from the published count")
            if py and published not in py:
                notes.append("py-draughts differs from the published count")
        elif sh and py and sh != py:
            notes.append("the libraries disagree")
        problems += bool(notes)
        sh_text = ",".join(f"{c:,}" for c in sorted(sh)) or "-"
        py_text = ",".join(f"{c:,}" for c in sorted(py)) or "-"
        pub_text = f"{published:,}" if published is not None else "-"
        print(
            f"  {variant:<14}{label:<9}{depth:>5}  {pub_text:>10}  {sh_text:>10}  {py_text:>11}  "
            + ("; ".join(notes) if notes else "ok")
        )
    print(f"  {problems} line(s) with a note")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths, 2 rounds")
    parser.add_argument("--rounds", type=int, help="push/pop rounds (default 5, quick 2)")
    parser.add_argument("--fast-rounds", type=int, help="fastest-perft rounds (default 3, quick 2)")
    parser.add_argument(
        "--variants",
        default="russian,brazilian,international,english",
        help="comma-separated push/pop variants (default: %(default)s)",
    )
    parser.add_argument("--no-checked", action="store_true", help="skip the checked push figure")
    parser.add_argument("--skip-push-pop", action="store_true")
    parser.add_argument("--skip-fastest", action="store_true")
    parser.add_argument(
        "--py-draughts-venv",
        metavar="DIR",
        help="also look for py-draughts in this virtual environment's site-packages",
    )
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in PUSH_POP]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(PUSH_POP)}")
    rounds = args.rounds or (2 if args.quick else 5)
    fast_rounds = args.fast_rounds or (2 if args.quick else 3)

    module = load_py_draughts(args.py_draughts_venv)
    pd = PyDraughts(module) if module else None
    import shashki

    print(f"python {sys.version.split()[0]}, shashki {getattr(shashki, '__version__', '?')}", end="")
    if pd:
        print(f", py-draughts {pd.version}")
    else:
        print()
        print("py-draughts is not installed: shashki's figures only (pip install -e '.[bench]')")
    print(f"{'quick' if args.quick else 'full'} run, {rounds} push/pop rounds, {fast_rounds} fastest-perft rounds")
    print()

    tally = Tally()
    if not args.skip_push_pop:
        push_pop_section(variants, rounds, args.quick, pd, not args.no_checked, tally)
    if not args.skip_fastest:
        fastest_section(fast_rounds, args.quick, pd, tally)
        other_fastest_section(variants, args.quick)
    correctness_section(variants, pd, tally)
    return 0


if __name__ == "__main__":
    sys.exit(main())
