#!/usr/bin/env python
"""Perft benchmark: shashki against py-draughts, in one process, on the same positions.

Run it from the project root::

    python benchmarks/perft.py            # full run (a minute or two)
    python benchmarks/perft.py --quick    # smaller depths, two rounds

It prints four sections:

1. **push/pop throughput** (leaves per second) for russian, brazilian, international and
   english: a perft in which every leaf position is made with ``push`` and undone with
   ``pop``, the same harness for both libraries.  shashki uses ``legal_moves()``,
   ``push_unchecked`` and ``pop``; its checked ``push`` is shown as well.
2. **fastest perft** on international: shashki's ``Game.perft`` (copy-make, counting at
   the last ply) against py-draughts' ``turbo`` perft (bulk counting).
3. **correctness**: the counts each library got, with the published counts from the
   start positions (english, depth 3: 302).
4. **summary** against the goals of the project (push/pop at least 2x py-draughts on
   russian, brazilian and international; fastest perft at least py-draughts' own).
5. **every variant**: shashki's push/pop throughput from the start position of every
   registered variant (Bashni's columns, Artamonov's shared pieces, the orthogonal games,
   the modifiers), with the cost of a leaf relative to Russian.

The speed of a shared machine drifts, so the libraries are timed interleaved in one
process: each position is run by one library and then by the other (the order
alternating from round to round), with the garbage collector off while the clock runs.
The clock is the process's CPU time by default (``--clock wall`` for elapsed time),
which other processes on the machine disturb less.  Each round prints its figures and
ratio; the summaries give each library's rate with every position at its best round,
the ratio of those, and the ratio of every round with their median.  Nothing here
asserts on time.

py-draughts is optional (``pip install -e '.[bench]'``).  ``--py-draughts-venv DIR``
puts the site-packages of another virtual environment on the import path first.
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
# White on 21-32, in both libraries.  The middle-game and king positions were written
# for this benchmark.

START_8 = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# English checkers: Black (on 1-12) moves first.
START_ENGLISH = "B" + START_8[1:]
START_10 = "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))
MIDDLE_8 = "W:W21,22,23,24,28,29,31,32:B1,2,4,6,7,8,12,16"
KINGS_8 = "W:WK4,21,22,25,26,27,30:B6,9,10,12,K29,16"
MIDDLE_10 = (
    "W:W30,31,32,35,36,37,39,41,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,14,15,16,17,19,23"
)
KINGS_10 = "B:WK1,K50,27,28,33,38:B9,12,13,K45,19,24"

# variant -> [(label, fen, push/pop depth of the full run, of the quick run)]
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

# International positions of the fastest perft: (label, fen, depth full, depth quick).
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

# The goals of the project on its reference machine.
PUSH_POP_GOAL = 2.0  # shashki / py-draughts, push/pop, russian, brazilian and international
FASTEST_GOAL = 1.0  # shashki's fastest perft / py-draughts' fastest, international

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


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(result, seconds) of ``run()``, with the garbage collector off while it runs."""
    gc.collect()
    gc.disable()
    try:
        t0 = clock()
        result = run()
        return result, clock() - t0
    finally:
        gc.enable()


# -- py-draughts -------------------------------------------------------------------------


def load_py_draughts(venv: str | None) -> Any:
    """The ``draughts`` module, or None when it cannot be imported."""
    if venv:
        found = sorted(glob.glob(os.path.join(venv, "lib", "python*", "site-packages")))
        if not found:
            print(f"no site-packages under {venv!r}", file=sys.stderr)
        sys.path[:0] = found
    try:
        import draughts  # type: ignore[import-not-found]
    except ImportError:
        return None
    return draughts


class PyDraughts:
    """The few entry points of py-draughts this benchmark calls (it is GPL: only called)."""

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


# -- timing and reporting --------------------------------------------------------------


def fmt(x: float) -> str:
    return f"{x / 1e3:7,.0f}k/s"


class Counts:
    """The leaf counts each library returned, per (variant, position, depth)."""

    def __init__(self) -> None:
        self.by_key: dict[tuple[str, str, int], dict[str, set[int]]] = {}

    def add(self, key: tuple[str, str, int], lib: str, count: int) -> None:
        self.by_key.setdefault(key, {}).setdefault(lib, set()).add(count)


Runner = Callable[[str, str], tuple[int, float]]


class Series:
    """Libraries timed on the same jobs, interleaved: in every round each job is run by
    each library in turn, the first two alternating their order from round to round.
    When the second library is py-draughts, the first is compared with it."""

    def __init__(self, libs: list[str], jobs: list[str]) -> None:
        self.libs = libs
        self.jobs = jobs
        self.compared = len(libs) >= 2 and libs[1] == "py-draughts"
        self.leaves: dict[str, int] = {}
        # seconds[lib][job][round]
        self.seconds: dict[str, dict[str, list[float]]] = {
            lib: {job: [] for job in jobs} for lib in libs
        }

    def run(
        self,
        rounds: int,
        runner: Runner,
        record: Callable[[str, str, int], None],
        show: Callable[[int], None],
    ) -> None:
        for r in range(rounds):
            for job in self.jobs:
                pair = self.libs[:2] if r % 2 == 0 else self.libs[1::-1]
                for lib in pair + self.libs[2:]:
                    n, t = runner(lib, job)
                    record(lib, job, n)
                    self.leaves[job] = n
                    self.seconds[lib][job].append(t)
            show(r)

    def rate(self, lib: str, jobs: list[str], r: int | None = None) -> float:
        """Leaves per second over ``jobs``: in round ``r``, or each job at its best round."""
        times = self.seconds[lib]
        total = sum(min(times[j]) if r is None else times[j][r] for j in jobs)
        return sum(self.leaves[j] for j in jobs) / total

    def ratios(self, jobs: list[str]) -> tuple[float, list[float]]:
        """The first library's rate over the second's: best against best, and per round."""
        a, b = self.libs[:2]
        rounds = len(self.seconds[a][jobs[0]])
        per_round = [self.rate(a, jobs, r) / self.rate(b, jobs, r) for r in range(rounds)]
        return self.rate(a, jobs) / self.rate(b, jobs), per_round

    def round_line(self, r: int, label: str) -> str:
        rates = {lib: self.rate(lib, self.jobs, r) for lib in self.libs}
        text = "  ".join(f"{lib} {fmt(x)}" for lib, x in rates.items())
        if self.compared:
            text += f"  ratio {rates[self.libs[0]] / rates[self.libs[1]]:.2f}x"
        return f"  round {r + 1} {label:<14}{text}"

    def summary(self, label: str, jobs: list[str] | None = None) -> list[str]:
        jobs = jobs or self.jobs
        line = f"  {label:<14}" + "  ".join(
            f"{lib} {fmt(self.rate(lib, jobs))}" for lib in self.libs
        )
        if not self.compared:
            return [line]
        best, per_round = self.ratios(jobs)
        a, b = self.libs[:2]
        return [
            line,
            f"  {'':<14}{a}/{b}: {best:.2f}x best against best; per round "
            + " ".join(f"{x:.2f}" for x in per_round)
            + f" (median {statistics.median(per_round):.2f}x)",
        ]


# -- the sections ----------------------------------------------------------------------


def push_pop_section(
    variants: list[str],
    rounds: int,
    quick: bool,
    pd: PyDraughts | None,
    checked: bool,
    counts: Counts,
) -> dict[str, Series]:
    from shashki.rules import Game

    print("== 1. push/pop perft: every leaf made with push and undone with pop ==")
    print("  shashki: legal_moves(), push_unchecked, pop; shashki(push): the checked push")
    if pd:
        print("  py-draughts: board.legal_moves, push, pop")
    setups: dict[tuple[str, str], tuple[str, int]] = {}
    for variant in variants:
        for label, fen, full, short in PUSH_POP[variant]:
            setups[(variant, label)] = (fen, short if quick else full)
        depths = ", ".join(
            f"{label} d{setups[(variant, label)][1]}" for label, *_ in PUSH_POP[variant]
        )
        print(f"  {variant}: {depths}")
    print()
    libs = ["shashki"] + (["py-draughts"] if pd else []) + (["shashki(push)"] if checked else [])
    results: dict[str, Series] = {}
    for variant in variants:

        def runner(lib: str, job: str, variant: str = variant) -> tuple[int, float]:
            fen, depth = setups[(variant, job)]
            if lib == "py-draughts":
                board = pd.board(variant, fen)  # type: ignore[union-attr]
                return timed(lambda: py_draughts_push_pop(board, depth))
            game = Game(variant, fen)
            harness = shashki_push_pop_checked if lib == "shashki(push)" else shashki_push_pop
            return timed(lambda: harness(game, depth))

        def record(lib: str, job: str, n: int, variant: str = variant) -> None:
            counts.add((variant, job, setups[(variant, job)][1]), lib, n)

        series = results[variant] = Series(libs, [label for label, *_ in PUSH_POP[variant]])
        series.run(
            rounds,
            runner,
            record,
            lambda r, s=series, v=variant: print(s.round_line(r, v), flush=True),
        )
    print()
    print("  each position at its best round:")
    for variant, series in results.items():
        for line in series.summary(variant):
            print(line)
    print()
    return results


def fastest_section(rounds: int, quick: bool, pd: PyDraughts | None, counts: Counts) -> Series:
    from shashki.rules import Game

    print("== 2. fastest perft, international ==")
    print("  shashki: Game.perft (copy-make, counts at the last ply)")
    turbo = pd.turbo if pd else None
    if pd and turbo is None:
        print("  py-draughts: draughts.engines.turbo is missing in this version")
    elif turbo:
        print("  py-draughts: draughts.engines.turbo.perft_from_board (bulk counting)")
    setups = {label: (fen, short if quick else full) for label, fen, full, short in FASTEST}
    print("  positions: " + ", ".join(f"{label} d{d}" for label, (_, d) in setups.items()))
    print()

    def runner(lib: str, job: str) -> tuple[int, float]:
        fen, depth = setups[job]
        if lib == "shashki":
            game = Game("international", fen)
            return timed(lambda: game.perft(depth))
        board = pd.board("international", fen)  # type: ignore[union-attr]
        return timed(lambda: turbo(board, depth))  # type: ignore[misc]

    def record(lib: str, job: str, n: int) -> None:
        counts.add(("international", job, setups[job][1]), lib + " fastest", n)

    series = Series(["shashki"] + (["py-draughts"] if turbo else []), list(setups))
    series.run(rounds, runner, record, lambda r: print(series.round_line(r, "all positions")))
    print()
    print("  each position at its best round:")
    for job in setups:
        for line in series.summary(job, [job]):
            print(line)
    for line in series.summary("all positions"):
        print(line)
    print()
    return series


def other_fastest_section(variants: list[str], quick: bool) -> None:
    """shashki's fastest perft on the other variants (py-draughts has no counterpart)."""
    from shashki.rules import Game

    others = [v for v in variants if v != "international"]
    if not others:
        return
    print("  shashki's fastest perft from the start of the other games:")
    for variant in others:
        depth = 6 if quick else 7
        game = Game(variant, PUSH_POP[variant][0][1])
        n, t = timed(lambda game=game, depth=depth: game.perft(depth))  # type: ignore[misc]
        print(f"  {variant:<14} d{depth} {n:>9,} leaves  {fmt(n / t)}")
    print()


def correctness_section(variants: list[str], pd: PyDraughts | None, counts: Counts) -> int:
    """Print the counts; returns the number of counts of shashki that are wrong."""
    from shashki.rules import Game

    print("== 3. correctness: the counts each library got ==")
    # From the start at depth 3, where py-draughts' English count goes wrong, besides the
    # depths timed above.
    for variant in variants:
        label, fen = PUSH_POP[variant][0][:2]
        counts.add((variant, label, 3), "shashki", Game(variant, fen).perft(3))
        if pd:
            n = py_draughts_push_pop(pd.board(variant, fen), 3)
            counts.add((variant, label, 3), "py-draughts", n)
    print(
        f"  {'variant':<14}{'position':<9}{'depth':>5}  {'published':>10}  {'shashki':>10}"
        f"  {'py-draughts':>11}  notes"
    )
    wrong = 0
    for (variant, label, depth), by_lib in sorted(counts.by_key.items()):
        published = None
        if label == "start" and depth <= len(PUBLISHED[variant]):
            published = PUBLISHED[variant][depth - 1]
        sh = set().union(*(c for lib, c in by_lib.items() if lib.startswith("shashki")))
        py = set().union(*(c for lib, c in by_lib.items() if lib.startswith("py-draughts")))
        notes = []
        if len(sh) > 1:
            notes.append(f"SHASHKI'S RUNS DISAGREE: {sorted(sh)}")
            wrong += 1
        if len(py) > 1:
            notes.append(f"py-draughts' runs disagree: {sorted(py)}")
        if published is not None:
            if sh and published not in sh:
                notes.append("SHASHKI DIFFERS FROM THE PUBLISHED COUNT")
                wrong += 1
            if py and published not in py:
                notes.append("py-draughts differs from the published count")
        elif sh and py and sh != py:
            notes.append("the libraries disagree")
        sh_text = ",".join(f"{c:,}" for c in sorted(sh)) or "-"
        py_text = ",".join(f"{c:,}" for c in sorted(py)) or "-"
        pub_text = f"{published:,}" if published is not None else "-"
        print(
            f"  {variant:<14}{label:<9}{depth:>5}  {pub_text:>10}  {sh_text:>10}  {py_text:>11}  "
            + ("; ".join(notes) if notes else "ok")
        )
    print()
    return wrong


def summary_section(push_pop: dict[str, Series], fastest: Series | None, wrong: int) -> None:
    print("== 4. summary ==")
    for variant, series in push_pop.items():
        if not series.compared:
            break
        best, per_round = series.ratios(series.jobs)
        goal = variant != "english"
        mark = ("meets" if best >= PUSH_POP_GOAL else "MISSES") + f" the {PUSH_POP_GOAL:g}x goal"
        print(
            f"  push/pop {variant:<14}{best:5.2f}x py-draughts (rounds {min(per_round):.2f}"
            f"-{max(per_round):.2f}x)  " + (mark if goal else "(py-draughts' tree is wrong here)")
        )
    if fastest is not None and fastest.compared:
        best, per_round = fastest.ratios(fastest.jobs)
        mark = ("meets" if best >= FASTEST_GOAL else "MISSES") + f" the {FASTEST_GOAL:g}x goal"
        print(
            f"  fastest perft, international {best:5.2f}x py-draughts' turbo (rounds"
            f" {min(per_round):.2f}-{max(per_round):.2f}x)  {mark}"
        )
    print(f"  correctness: {'all of shashki counts right' if not wrong else f'{wrong} WRONG'}")


def every_variant_section(rounds: int, quick: bool) -> None:
    """Push/pop throughput of every registered variant from its start position."""
    from shashki.rules import Game, all_variants

    target = 6_000 if quick else 30_000
    print(f"5. every variant: push/pop from the start (best of {rounds} rounds)")
    print(
        f"   {'variant':<18} {'depth':>5} {'leaves':>9} {'leaves/s':>10} "
        f"{'us/leaf':>8} {'x russian':>9}"
    )
    rows = []
    for variant in all_variants():
        game = Game(variant)
        depth, leaves = 1, game.perft(1)
        while leaves < target and depth < 12:
            nxt = game.perft(depth + 1)
            if nxt == 0 or nxt > target * 8:
                break
            depth, leaves = depth + 1, nxt
        best = min(timed(lambda g=game, d=depth: shashki_push_pop(g, d))[1] for _ in range(rounds))
        rows.append((variant.id, depth, leaves, best))
    russian = next((best / leaves for vid, _, leaves, best in rows if vid == "russian"), None)
    for vid, depth, leaves, best in rows:
        per_leaf = best / max(leaves, 1)
        ratio = f"{per_leaf / russian:8.1f}x" if russian else ""
        print(
            f"   {vid:<18} {depth:>5} {leaves:>9,} {fmt(leaves / best):>10} "
            f"{per_leaf * 1e6:8.2f} {ratio:>9}"
        )
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths, 2 rounds")
    parser.add_argument("--rounds", type=int, help="push/pop rounds (default 5, quick 2)")
    parser.add_argument("--fast-rounds", type=int, help="fastest-perft rounds (default 3, quick 2)")
    parser.add_argument(
        "--variants",
        default="russian,brazilian,international,english",
        help="comma-separated push/pop variants (default: %(default)s)",
    )
    parser.add_argument("--no-checked", action="store_true", help="skip the checked push figure")
    parser.add_argument("--skip-push-pop", action="store_true", help="leave out section 1")
    parser.add_argument("--skip-fastest", action="store_true", help="leave out section 2")
    parser.add_argument("--skip-variants", action="store_true", help="leave out section 5")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: the process's CPU time, steadier on a busy machine (default); wall: elapsed",
    )
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
    global clock
    clock = CLOCKS[args.clock]

    module = load_py_draughts(args.py_draughts_venv)
    pd = PyDraughts(module) if module else None
    import shashki
    from shashki import native

    native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

    versions = f"python {sys.version.split()[0]}, shashki {getattr(shashki, '__version__', '?')}"
    print(versions + (f", py-draughts {pd.version}" if pd else ""))
    if not pd:
        print("py-draughts is not installed: shashki's figures only (pip install -e '.[bench]')")
    print(
        f"{'quick' if args.quick else 'full'} run: {rounds} push/pop rounds, {fast_rounds}"
        f" fastest-perft rounds; {args.clock} time; figures in leaves per second"
    )
    print()

    counts = Counts()
    push_pop: dict[str, Series] = {}
    fastest = None
    if not args.skip_push_pop:
        push_pop = push_pop_section(variants, rounds, args.quick, pd, not args.no_checked, counts)
    if not args.skip_fastest:
        fastest = fastest_section(fast_rounds, args.quick, pd, counts)
        other_fastest_section(variants, args.quick)
    wrong = correctness_section(variants, pd, counts)
    summary_section(push_pop, fastest, wrong)
    if not args.skip_variants:
        every_variant_section(max(1, rounds - 2), args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
