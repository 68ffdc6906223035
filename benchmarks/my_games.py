#!/usr/bin/env python
"""My games with a big archive: how long the list takes to read a few thousand games.

Run it from the project root::

    python benchmarks/my_games.py                 # 3000 games, 5 runs
    python benchmarks/my_games.py --games 10000 --runs 3

A private data folder (a temporary ``XDG_DATA_HOME``) is filled with ``--games`` kept
games (random games of Russian and International draughts, 20 to 120 plies, against the
computer's levels, an engine and people), written as the app writes them.  Then, each
with the median and the worst of ``--runs`` runs:

1. **scan**: :func:`shashki.store.archive.scan`, the tags of every file read (what the
   screen's worker does), in this process;
2. **summary**: the score per opponent of every game;
3. **screen**: headless, from pressing ``m`` in the menu to the list's first rows shown
   ("1st rows": the archive read, the filters' choices set, the first batch of rows
   added; keys work from then on) and to every row added ("all rows": the rest join the
   table a batch at a time).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def fill(count: int, seed: int = 1) -> None:
    """``count`` kept games in the archive folder of the data folder set."""
    from shashki.records import GameRecord
    from shashki.rules import Game
    from shashki.store.archive import for_archive, keep_game

    rng = random.Random(seed)
    # a few dozen distinct games, each kept many times under other players and keys
    distinct = []
    for n in range(40):
        game = Game("russian" if n % 2 else "international")
        for _ in range(rng.randrange(20, 120)):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.push(rng.choice(moves))
        outcome = game.outcome() or game.resign()
        distinct.append((game, outcome))
    opponents = [{"Type": "program", "Level": str(level)} for level in range(1, 9)] + [
        {"Type": "program", "Engine": "scan"},
        {"Type": "human"},
    ]
    for n in range(count):
        game, outcome = distinct[n % len(distinct)]
        seat = opponents[n % len(opponents)]
        name = f"Computer {seat['Level']}" if "Level" in seat else f"Player {n % 7}"
        headers = {
            "Event": "shashki game",
            "Date": "2026.12.03",
            "White": "Me",
            "WhiteType": "human",
            "Black": name,
            "Result": outcome.result(),
            "Termination": outcome.describe(game.variant.side_names),
        }
        headers.update({"Black" + tag: value for tag, value in seat.items()})
        record = for_archive(GameRecord.from_game(game, headers), outcome)
        keep_game(record, f"20261203-{n:06d}-bench")


def timed(runs: int, action) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Wall-clock and CPU seconds of each run of ``action``."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


async def screen_time(home: Path) -> tuple[float, float, float]:
    """Seconds from m in the menu to the first rows of the list, and to all of them; and
    the CPU seconds of this process (all its threads) to all of them."""
    from shashki.app.app import ShashkiApp
    from shashki.app.my_games import MyGamesScreen

    app = ShashkiApp(settings_path=home / "settings.json", autosave=False, offer_resume=False)
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.screen.query("#variants"):
            await pilot.pause()
        start, cpu = time.perf_counter(), time.process_time()
        await pilot.press("m")
        while not (isinstance(app.screen, MyGamesScreen) and app.screen.loaded):
            await asyncio.sleep(0.002)
        first = time.perf_counter() - start
        screen = app.screen
        while not screen.filled:
            await asyncio.sleep(0.002)
        return first, time.perf_counter() - start, time.process_time() - cpu


def say(what: str, times: list[float], cpus: list[float] | None = None, extra: str = "") -> None:
    cpu = f"   cpu median {statistics.median(cpus) * 1000:8.1f} ms" if cpus else ""
    print(
        f"{what:<10} median {statistics.median(times) * 1000:8.1f} ms   "
        f"worst {max(times) * 1000:8.1f} ms{cpu}{extra}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="shashki-bench-") as tmp:
        home = Path(tmp)
        os.environ["XDG_DATA_HOME"] = str(home / "data")
        os.environ["XDG_CONFIG_HOME"] = str(home / "config")
        start = time.perf_counter()
        fill(args.games)
        print(f"{args.games} games written in {time.perf_counter() - start:.1f} s")
        from shashki.store.archive import scan, summary

        found = scan()
        assert len(found.games) == args.games and not found.damaged, "the archive is not whole"
        walls, cpus = timed(args.runs, scan)
        per_game = statistics.median(cpus) / args.games * 1e6
        say("scan", walls, cpus, f"   ({per_game:.0f} µs of CPU a game)")
        say("summary", *timed(args.runs, lambda: summary(found.games)))
        screens = [asyncio.run(screen_time(home)) for _ in range(args.runs)]
        say("1st rows", [first for first, _all, _cpu in screens])
        say("all rows", [whole for _first, whole, _cpu in screens], [c for *_, c in screens])
        print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
