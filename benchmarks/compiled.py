"""How much faster the search is with its hot modules compiled by mypyc, on the same tree.

    pip install mypy          # mypyc comes with it; a C compiler and Python's headers too
    python benchmarks/compiled.py [--nodes 40000] [--positions 4] [--rounds 3]

shashki ships pure Python.  This benchmark copies ``src/shashki`` to a temporary folder,
compiles there the modules ``shashki compile`` compiles (or ``--modules``) with mypyc (the
sources as they are: they type-check under mypy --strict, which is what mypyc needs), and
searches the positions of
``benchmarks/search.py`` with a fixed number of nodes in the pure package and in the
compiled copy, in turn (``--rounds`` times each, the median kept).  Both builds must choose
the same moves with the same scores and depths — the compiled code is the same program —
or the benchmark says where they differ and exits 1.  The figure is nodes over the CPU time
of the searches alone (imports and the making of the positions left out).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"


VARIANTS = "russian,brazilian,international,english"


def worker(variants: list[str], positions: int, nodes: int) -> None:
    """One build's searches: a JSON line per position on standard output."""
    sys.path.insert(0, str(HERE))
    from search import positions as make_positions

    from shashki.engine import Search

    for variant in variants:
        for game in make_positions(variant, positions):
            search = Search(variant)
            t = time.process_time()
            result = search.search(game, nodes=nodes, soft=1.0)
            cpu = time.process_time() - t
            line = {
                "variant": variant,
                "move": str(result.move),
                "score": result.score,
                "depth": result.depth,
                "nodes": result.nodes,
                "cpu": cpu,
            }
            print(json.dumps(line), flush=True)


def run(path: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    # (either build as it is: a build of these sources in the cache folder, which
    # ``import shashki`` would use, is not; the copy's own compiled files still load)
    env = dict(os.environ, PYTHONPATH=str(path), SHASHKI_PURE="1")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    cmd += ["--only", args.only, "--positions", str(args.positions), "--nodes", str(args.nodes)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the build in {path} failed:\n{done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def compile_copy(folder: Path, modules: list[str] | None) -> Path:
    """``src/shashki`` copied into ``folder`` with ``modules`` (paths under the package;
    None: those ``shashki compile`` compiles) compiled in place, as ``shashki compile``
    does it (``shashki.compiling.compile_sources``, this checkout's)."""
    sys.path.insert(0, str(SRC))
    from shashki import compiling, native

    chosen = modules if modules is not None else list(native.MODULES)
    t = time.perf_counter()
    try:
        compiling.compile_sources(folder, lambda line: None, chosen)
    except compiling.CompileError as exc:
        sys.exit(str(exc))
    shutil.copytree(SRC.parent / "variants", folder / "variants")  # (found beside src/)
    print(f"compiled {len(chosen)} modules in {time.perf_counter() - t:.0f} s", flush=True)
    return folder / "src"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", type=int, default=40000, help="nodes per search")
    p.add_argument("--positions", type=int, default=4, help="positions per variant")
    p.add_argument("--only", default=VARIANTS, help="variant ids, separated by commas")
    p.add_argument("--rounds", type=int, default=3, help="runs of each build, in turn")
    p.add_argument(
        "--modules",
        default=None,
        help="the modules to compile, paths under the package separated by commas "
        "(rules/movegen.py,...; default: those shashki compile compiles)",
    )
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    variants = [v.strip() for v in args.only.split(",") if v.strip()]
    if args.worker:
        worker(variants, args.positions, args.nodes)
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        p.error("mypyc is not installed: pip install mypy")
    with tempfile.TemporaryDirectory(prefix="shashki-mypyc-") as tmp:
        chosen = [m.strip() for m in args.modules.split(",")] if args.modules else None
        compiled = compile_copy(Path(tmp), chosen)
        runs: dict[str, list[list[dict[str, object]]]] = {"pure": [], "compiled": []}
        for _ in range(args.rounds):
            runs["pure"].append(run(SRC, args))
            runs["compiled"].append(run(compiled, args))
    same = True
    keys = ("variant", "move", "score", "depth", "nodes")
    first = [tuple(r[k] for k in keys) for r in runs["pure"][0]]
    for build, rounds in runs.items():
        for results in rounds:
            if [tuple(r[k] for k in keys) for r in results] != first:
                same = False
                print(f"the {build} build searched differently:")
                for a, b in zip(first, [tuple(r[k] for k in keys) for r in results], strict=False):
                    if a != b:
                        print(f"  {a} / {b}")
    print(f"{'variant':15} {'nodes/s pure':>13} {'compiled':>10} {'ratio':>6}")
    ratios = []
    for variant in variants:
        rate = {}
        for build, rounds in runs.items():
            per_round = []
            for results in rounds:
                mine = [r for r in results if r["variant"] == variant]
                nodes = sum(int(str(r["nodes"])) for r in mine)
                cpu = sum(float(str(r["cpu"])) for r in mine)
                per_round.append(nodes / max(cpu, 1e-9))
            rate[build] = statistics.median(per_round)
        ratio = rate["compiled"] / rate["pure"]
        ratios.append(ratio)
        print(f"{variant:15} {rate['pure']:13.0f} {rate['compiled']:10.0f} {ratio:6.2f}")
    print(f"same moves, scores and depths in both builds: {'yes' if same else 'NO'}")
    print(f"median ratio: {statistics.median(ratios):.2f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
