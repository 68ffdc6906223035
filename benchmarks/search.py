"""Nodes per second of the search for each family of variants, and the cost of the
transposition table's key (Python's tuple hash against an incremental Zobrist key).

    python benchmarks/search.py [--seconds 2] [--positions 6] [--nodes N | --depth D]

Positions come from seeded random games (12 to 30 plies in, with a choice of moves).
Every search runs for ``--seconds``; the figure is nodes over CPU time of this process
(less disturbed by other work on the machine than the wall clock), with the wall-clock
rate beside it.  With ``--nodes`` every search stops after that many nodes instead: the
same work for any build whose search visits the same tree, so that the whole run's time
compares two builds.  With ``--depth`` every search goes that deep and the figure to
read is the nodes it took: the size of the tree, which a change of the move ordering or
of the pruning makes smaller or larger (``--seed`` picks other positions;
``--options name=value,...`` sets the search's switches, as ``benchmarks/selfplay.py``
does, to weigh one against the defaults).  With
``--profile`` the searches run under ``cProfile`` and the figures are where the node's
time goes: the share of the searches' own time of every module of the package, and of
the functions that take most of it (the profiler slows every call alike, about twice:
the shares are what to read, not the speed).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections import Counter
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine import Search
from shashki.engine.search import Options
from shashki.rules import Game, ShashkiError, find_variant
from shashki.rules.game import game_state

sys.path.insert(0, str(Path(__file__).parent))
from match import parse_options

FAMILIES = [
    ("diagonal 8x8, flying kings", "russian"),
    ("diagonal 8x8, majority rule", "brazilian"),
    ("diagonal 10x10", "international"),
    ("diagonal 8x8, short kings", "english"),
    ("orthogonal (Turkish)", "turkish"),
    ("orthogonal (Tama)", "tama"),
    ("columns (Bashni)", "bashni"),
    ("shared pieces (Artamonov)", "artamonov"),
    ("goal game (Wolf and Sheep)", "wolf-sheep"),
    ("giveaway", "giveaway"),
    ("modifier: double move", "double-move"),
    ("modifier: move the opponent", "move-opponent"),
    ("modifier: self-capture", "self-capture"),
]


def positions(variant: str, count: int, seed: int = 1) -> list[Game]:
    rng = random.Random(f"{seed}-{variant}")
    out: list[Game] = []
    while len(out) < count:
        game = Game(variant, seed=rng.randrange(100))
        for _ in range(rng.randrange(12, 31)):
            if game.outcome() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        # a forced move is played at once (depth 1): it would say nothing of the speed
        if game.outcome() is None and len(game.legal_moves()) > 1:
            out.append(game)
    return out


def nps(
    variant: str,
    seconds: float | None,
    count: int,
    nodes_each: int | None = None,
    *,
    to_depth: int | None = None,
    seed: int = 1,
    options: Options | None = None,
) -> tuple[float, float, float, int]:
    """(nodes per CPU second, nodes per wall second, mean depth, nodes) over the
    positions; with ``to_depth`` every search goes that deep, whatever it costs."""
    nodes = 0
    cpu = wall = 0.0
    depth = 0
    games = positions(variant, count, seed)
    for game in games:
        search = Search(variant, options=options)
        c0, w0 = time.process_time(), time.perf_counter()
        if to_depth is not None:
            result = search.search(game, depth=to_depth)
        else:
            result = search.search(game, seconds=seconds, nodes=nodes_each, soft=1.0)
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
        nodes += result.nodes
        depth += result.depth
    return nodes / max(cpu, 1e-9), nodes / max(wall, 1e-9), depth / len(games), nodes


def key_costs(variant: str = "international", rounds: int = 20000) -> tuple[float, float]:
    """Microseconds per node for the table key: the position tuple itself (hashed by the
    dict), and an incremental Zobrist key updated from the bitboard differences."""
    game = positions(variant, 1, 5)[0]
    gen = game.variant.generator
    pairs = []
    pos = game_state(game)
    rng = random.Random(3)
    while len(pairs) < 200:
        moves = gen.moves(pos)
        if not moves:
            pos = game_state(game)
            continue
        child = gen.apply(pos, rng.choice(moves))
        pairs.append((pos, child))
        pos = child
    size = game.variant.board.size
    zr = random.Random(7)
    table = [[zr.getrandbits(64) for _ in range(size)] for _ in range(3)]
    side = zr.getrandbits(64)
    memo: dict[object, int] = {}

    def tuple_key() -> None:
        for _parent, child in pairs:
            memo.get(child)

    def zobrist_key() -> None:
        h = 0
        for parent, child in pairs:
            for i in range(3):
                diff = parent[i] ^ child[i]
                zi = table[i]
                while diff:
                    low = diff & -diff
                    h ^= zi[low.bit_length() - 1]
                    diff ^= low
            h ^= side
            if child[4] is not None:
                h ^= hash(child[4])
            memo.get(h)

    out = []
    for fn in (tuple_key, zobrist_key):
        t = time.process_time()
        for _ in range(rounds // len(pairs)):
            fn()
        out.append((time.process_time() - t) / rounds * 1e6)
    return out[0], out[1]


def where(path: str) -> str:
    """A profiled function's module, as a path inside the package (or what it is else)."""
    path = path.replace("\\", "/")
    if "/shashki/" in path:
        return path.rsplit("/shashki/", 1)[1]
    if path == "<string>":
        return "code made at run time (exec)"
    return "Python itself" if path.startswith("~") or "<" in path else "the standard library"


def profile(
    variants: list[str], count: int, nodes_each: int, options: Options | None = None
) -> None:
    """Where the time of the node goes: the searches of ``variants`` under cProfile."""
    for variant in variants:
        nps(variant, None, 1, 100)  # what is made once a process (tables, patterns) is left out
        profiler = cProfile.Profile()
        profiler.enable()
        nps(variant, None, count, nodes_each, options=options)
        profiler.disable()
        stats = pstats.Stats(profiler)
        modules: Counter[str] = Counter()
        functions: Counter[str] = Counter()
        raw = stats.stats  # type: ignore[attr-defined]
        for (path, line, name), (_cc, _nc, own, _cum, _callers) in raw.items():
            modules[where(path)] += own
            functions[f"{where(path)}:{line} {name}"] += own
        total = sum(modules.values()) or 1e-9
        print(f"\n{variant}: {total:.1f} s of profiled time")
        for module, own in modules.most_common(8):
            print(f"  {100 * own / total:5.1f}%  {module}")
        print("  the functions:")
        for function, own in functions.most_common(12):
            print(f"  {100 * own / total:5.1f}%  {function}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time per search")
    p.add_argument("--positions", type=int, default=4, help="positions per family")
    p.add_argument("--only", help="variant ids, separated by commas")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, help="nodes per search instead of --seconds")
    limit.add_argument(
        "--depth",
        type=int,
        help="every search to this depth: the nodes it took (the tree's size: a change of "
        "the move ordering or the pruning, judged)",
    )
    p.add_argument("--seed", type=int, default=1, help="the random games' seed")
    p.add_argument("--options", default="", help="the search's switches, name=value,... (Options)")
    p.add_argument(
        "--profile",
        action="store_true",
        help="where the time of the node goes (under cProfile; --nodes, 20000 if not given)",
    )
    args = p.parse_args(argv)
    try:
        options = parse_options(args.options)
    except (TypeError, ValueError) as e:
        p.error(f"--options {args.options!r}: {e}")
    only: set[str] = set()
    for name in (args.only or "").split(","):
        if name.strip():
            try:
                only.add(find_variant(name.strip()).id)
            except ShashkiError as e:
                p.error(str(e))
    if args.profile:
        chosen = [v for _, v in FAMILIES if not only or v in only]
        profile(chosen, args.positions, args.nodes or 20000, options)
        return 0
    if args.depth is not None and not 1 <= args.depth <= 64:
        p.error("--depth must be 1 to 64")
    print(
        f"{'family':34} {'variant':15} {'nodes/s (cpu)':>14} {'nodes/s (wall)':>15} {'depth':>6}"
        + (f" {'nodes':>10}" if args.depth else "")
    )
    for family, variant in FAMILIES:
        if only and variant not in only:
            continue
        seconds = None if args.nodes else args.seconds
        cpu, wall, depth, nodes = nps(
            variant,
            seconds,
            args.positions,
            args.nodes,
            to_depth=args.depth,
            seed=args.seed,
            options=options,
        )
        print(
            f"{family:34} {variant:15} {cpu:14.0f} {wall:15.0f} {depth:6.1f}"
            + (f" {nodes:10d}" if args.depth else ""),
            flush=True,
        )
    if not only and not args.nodes and not args.depth:
        t, z = key_costs()
        print()
        print(f"table key per node: tuple hash {t:.2f} us, incremental Zobrist {z:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
