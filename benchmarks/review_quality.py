"""How good the review's blunder marks are, on real games (issue 47's goal: of the moves
marked ``??``, at least 90 % that a search four times longer also finds losing a
blunder's worth; of the blunders that longer search finds, at least 80 % marked).

    python benchmarks/review_quality.py --games 60 --jobs 2 --out quality.jsonl
    python benchmarks/review_quality.py --report quality.jsonl [scan.jsonl]
    python benchmarks/review_quality.py --scan /tmp/scan-2.0/scan --out quality.jsonl \\
        --scan-out scan.jsonl

Games come from ``../shared/corpora/pdn`` (International and Russian, the first
``--games`` of each with at least 40 plies and no error, taken in turn: one
International, one Russian, …, so that a run stopped part-way has both; the corpus is
only read).  Each game is first reviewed as ``shashki review`` reviews it, by the
review's own code (:class:`shashki.session.review.Review`) at the default budget of nodes
a position, its second look included: its ``??`` marks are what is measured.  Then the
longer search (four times the budget, the same code, the same curve and rules; its first
searches alone, no second look of its own) judges:

- on every ``--full-every``-th game of each variant (5: the 1st, 6th, 11th…), every
  move: the whole game reviewed again at four times the budget;
- on the others, the *candidates*: the moves whose player's expected score dropped by at
  least ``--candidate`` (0.06, an inaccuracy's worth, a third of a blunder's) by the
  short review's two searches — the engine's own choice included, which the review never
  marks — the positions before and after each searched at four times the budget.

A ``??`` has a drop of at least 0.2, so every move the review marked is judged by the
longer search: the precision is measured on every game.  The recall (of the longer
search's blunders, the share marked) is given twice: on the fully judged games (every
blunder the longer search finds), and on all games among the candidates; the report also
says how many of the fully judged games' blunders were not candidates — what judging only
the candidates leaves out.

One line of JSON a game is appended to ``--out`` as soon as it is done (its key, the
engine's source key and whether it ran compiled, both reviews' figures, the CPU seconds
of each), so a run can be stopped at any time and taken up again with the same command:
games already in the file are skipped.  The compiled build is used when there is one of
these sources (``shashki compile``; ``SHASHKI_PURE=1``: not): the workers are started
fresh (``spawn``) and load it before the engine, as this script does.

With ``--scan COMMAND`` (Scan 2.0, ``./scan hub``: Hub version 1; build it with
``../shared/engines/scan-2.0/build.sh``) the International games already in ``--out`` are
also judged by Scan at ``--scan-depth`` (14): the positions before and after each move the
review marked ``??`` (is it a blunder for Scan too?), and on the first ``--scan-games``
of them (by default every one: Scan takes seconds a game) every position (Scan's
blunders, and the share the review marked).  Scan plays a forced move without searching
(its score then 0): a position with one legal move takes the value of the position after
it.  A score of Scan is taken to shashki's scale by ``--scan-scale`` (1.16, as
``tools/train_eval.py`` does) and to an expected score by the same curve; a move is a
blunder for Scan when its player's expected score drops by 0.2 from the position before
it to the position after it.  One line a game (``"kind": "scan"``) is appended to
``--scan-out`` (``--out`` unless named: a run of the reviews may be writing ``--out``
meanwhile), and ``--report`` reads any number of files.
"""

from __future__ import annotations

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

import argparse
import json
import math
import multiprocessing
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from shashki.engine.hub.text import position_text
from shashki.engine.review import DEFAULT_DEPTH, DEPTHS, Analysis
from shashki.engine.winprob import BLUNDER, INACCURACY, curve_for
from shashki.records import GameRecord, read_file, read_games_text, write_game
from shashki.session.review import Review

#: The shared corpus: ../shared beside the project, or where SHASHKI_SHARED says.
CORPUS = (
    Path(os.environ.get("SHASHKI_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    / "corpora"
    / "pdn"
)
VARIANTS = ("international", "russian")
Row = dict[str, Any]


def games(corpus: Path, variant: str, count: int, least: int = 40) -> list[tuple[str, GameRecord]]:
    """The first ``count`` whole games of ``variant`` with at least ``least`` plies."""
    out: list[tuple[str, GameRecord]] = []
    for path in sorted((corpus / variant).rglob("*.pdn")):
        for i, record in enumerate(read_file(path, variant)):
            if record.variant is None or record.variant.id != variant or record.errors:
                continue
            if len(record.mainline_moves()) < least:
                continue
            out.append((f"{variant}/{path.name}#{i + 1}", record))
            if len(out) == count:
                return out
    return out


def in_turn(lists: list[list[tuple[str, GameRecord]]]) -> list[tuple[str, GameRecord]]:
    """The games of each variant taken in turn: a1, b1, a2, b2, …"""
    out = []
    for i in range(max((len(x) for x in lists), default=0)):
        out += [x[i] for x in lists if i < len(x)]
    return out


def raw_drops(review: Review) -> dict[int, float]:
    """Each move's drop of its player's expected score by the review's two searches (the
    engine's own choice included, where the review's verdict says nothing lost)."""
    out = {}
    for ply in range(1, review.total):
        side = review.turns[ply - 1]
        before, after = review.expected(ply - 1, side), review.expected(ply, side)
        if before is not None and after is not None:
            out[ply] = max(0.0, before - after)
    return out


def judge_game(key: str, text: str, budget: int, full: bool, candidate: float) -> Row:
    """One game: reviewed at ``budget``, then judged at four times it (every move when
    ``full``, else the candidates); one core, in a worker process."""
    [record] = read_games_text(text)
    clock = time.process_time()
    short = Review(record, nodes=budget)
    short.run(workers=1)
    short_cpu = time.process_time() - clock
    verdicts = {v.ply: v for v in short.verdicts()}
    raw = raw_drops(short)
    checked = sorted(raw) if full else sorted(p for p, d in raw.items() if d >= candidate)
    long = Review(record, nodes=4 * budget, look_again=False)
    positions = sorted({p - 1 for p in checked} | set(checked))
    clock = time.process_time()
    if full:
        long.run(workers=1)
    elif positions:
        assert record.variant is not None
        analysis = Analysis(
            record.variant.id, record.fen, long.texts, nodes=long.budget, workers=1, plies=positions
        )
        for scores in analysis:
            long.add(scores)
    long_cpu = time.process_time() - clock
    long_drops: dict[str, float] = {}
    for ply in checked:
        v = long.verdict(ply)
        if v is not None:
            long_drops[str(ply)] = round(v.drop, 4)
    return {
        "game": key,
        "engine": native.source_key()[:16],
        "compiled": native.in_use() is not None,
        "plies": short.total - 1,
        "budget": budget,
        "full": full,
        "candidate": candidate,
        "marked": sorted(p for p, v in verdicts.items() if v.mark == "??"),
        "drops": {str(p): round(v.drop, 4) for p, v in verdicts.items()},
        "raw": {str(p): round(d, 4) for p, d in raw.items()},
        "checked": checked,
        "long_positions": len(positions),
        "looked_again": sum(short.deep),
        "long_drops": long_drops,
        "cpu": [round(short_cpu, 1), round(long_cpu, 1)],
    }


def _judge(args: tuple[str, str, int, bool, float]) -> Row:
    return judge_game(*args)


def as_done(jobs: list[tuple[str, str, int, bool, float]], workers: int) -> Iterator[Row]:
    """The rows of ``jobs`` as each game ends (fresh worker processes: ``spawn``)."""
    if workers <= 1:
        for job in jobs:
            yield _judge(job)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        pending: set[Future[Row]] = {pool.submit(_judge, job) for job in jobs}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()


# -- Scan ------------------------------------------------------------------------------


class Scan:
    """Scan 2.0 over Hub version 1: the score of a position at a fixed depth."""

    def __init__(self, command: str, depth: int) -> None:
        words = shlex.split(command)
        self.depth = depth
        self.p = subprocess.Popen(
            [*words, "hub"] if words[-1:] != ["hub"] else words,
            cwd=str(Path(words[0]).parent),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("hub")
        self.until("wait")
        self.send("set book false")
        self.send("init")
        self.until("ready")

    def send(self, text: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def until(self, word: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            text = self.p.stdout.readline()
            if not text:
                raise SystemExit("Scan stopped")
            lines.append(text.strip())
            if text.split()[:1] == [word]:
                return lines

    def score(self, game: Any) -> int | None:
        """The side to move's score in Scan's own scale, or None."""
        self.send("pos " + position_text(game, version=1))
        self.send(f"depth {self.depth}")
        self.send("go")
        infos = [t for t in self.until("move") if t.startswith("info")]
        parts = infos[-1].split() if infos else []
        try:
            return None if int(parts[1]) == 0 else int(float(parts[3]))
        except (IndexError, ValueError):
            return None

    def close(self) -> None:
        self.send("quit")
        self.p.wait(10)


def scan_value(scan: Scan, game: Any, curve: Any, scale: float) -> float | None:
    """The side to move's expected score by Scan; a position with one legal move takes the
    value of the position after it (Scan plays a forced move without searching: score 0)."""
    outcome = game.outcome()
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(int(outcome.winner) == int(game.turn))
    moves = game.legal_moves()
    if len(moves) == 1:
        after = game.copy()
        after.push(moves[0])
        value = scan_value(scan, after, curve, scale)
        if value is None or int(after.turn) == int(game.turn):
            return value
        return 1 - value
    score = scan.score(game)
    return None if score is None else curve.expected(round(score * scale))


def scan_drops(scan: Scan, record: GameRecord, plies: Iterable[int], scale: float) -> Row:
    """Scan's drop of the mover's expected score for each move of ``plies`` (None: no
    score), the positions before and after each searched."""
    assert record.variant is not None
    curve = curve_for(record.variant)
    wanted = set(plies)
    need = {p - 1 for p in wanted} | wanted
    game = record.start()
    values: dict[int, float | None] = {}
    turns: dict[int, int] = {}
    moves = record.mainline_moves()
    for ply in range(len(moves) + 1):
        if ply in need:
            turns[ply] = int(game.turn)
            values[ply] = scan_value(scan, game, curve, scale)
        if ply < len(moves):
            game.push(moves[ply])
    drops: dict[str, float | None] = {}
    for ply in sorted(wanted):
        a, b = values[ply - 1], values[ply]
        if a is None or b is None:
            drops[str(ply)] = None
            continue
        after = b if turns[ply] == turns[ply - 1] else 1 - b
        drops[str(ply)] = round(max(0.0, a - after), 4)
    return {"drops": drops}


# -- the figures -----------------------------------------------------------------------


def wilson(hits: int, total: int) -> str:
    """A share with its 95 % Wilson interval."""
    if not total:
        return "–"
    p = hits / total
    z = 1.96
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    low, high = 100 * (centre - half), 100 * (centre + half)
    return f"{100 * p:.1f}% ({hits}/{total}; 95% {low:.0f}–{high:.0f}%)"


def long_blunders(row: Row) -> set[int]:
    return {int(p) for p, d in row["long_drops"].items() if d >= BLUNDER}


def read_rows(*paths: Path) -> tuple[dict[str, Row], dict[str, Row]]:
    """The games' rows and Scan's rows of files, by game (a game written twice: the last)."""
    rows: dict[str, Row] = {}
    scans: dict[str, Row] = {}
    lines = [
        line
        for path in paths
        if path.exists()
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue  # (a line cut short when a run was stopped)
        if not isinstance(row, dict) or "game" not in row:
            continue
        if row.get("kind") == "scan":
            scans[row["game"]] = row
        elif "long_drops" in row:
            rows[row["game"]] = row
    return rows, scans


def report(rows: list[Row], scans: dict[str, Row]) -> None:
    by: dict[str, list[Row]] = {}
    for row in rows:
        by.setdefault(str(row["game"]).split("/")[0], []).append(row)
    engines = sorted({(r["engine"], r["compiled"]) for r in rows})
    for engine, compiled in engines:
        count = sum(r["engine"] == engine for r in rows)
        print(f"engine {engine} ({'compiled' if compiled else 'pure'}): {count} games")
    for variant, group in [*sorted(by.items()), ("all", rows)]:
        marked = both = 0
        strict = 0
        c_found = c_both = 0
        f_found = f_both = f_missed = 0
        for r in group:
            mine = set(r["marked"])
            truth = long_blunders(r)
            long = {int(p): d for p, d in r["long_drops"].items()}
            marked += len(mine)
            both += len(mine & truth)
            strict += sum(1 for p in mine if long.get(p, 0) >= r["drops"][str(p)])
            c_found += len(truth)
            c_both += len(mine & truth)
            if r["full"]:
                f_found += len(truth)
                f_both += len(mine & truth)
                f_missed += sum(1 for p in truth if r["raw"].get(str(p), 0) < r["candidate"])
        full = [r for r in group if r["full"]]
        moves = sum(int(r["plies"]) for r in group)
        cpu = sum(sum(r["cpu"]) for r in group)
        print(
            f"{variant}: {len(group)} games ({len(full)} judged in full), {moves} moves, "
            f"{cpu / 60:.0f} CPU-minutes"
        )
        print(f"  precision of ?? (the 4x search finds a blunder too): {wilson(both, marked)}")
        print(f"    (the 4x search finds it losing at least as much: {wilson(strict, marked)})")
        print(f"  recall, games judged in full (4x blunders marked ??): {wilson(f_both, f_found)}")
        print(f"    of those blunders, not candidates: {f_missed} of {f_found}")
        print(f"  recall, every game, among the candidates: {wilson(c_both, c_found)}")
        scanned = [(r, scans[r["game"]]) for r in group if r["game"] in scans]
        if scanned:
            s_marked = s_both = s_found = s_found_both = 0
            full_games = 0
            for r, s in scanned:
                drops = {int(p): d for p, d in s["drops"].items()}
                mine = set(r["marked"])
                s_marked += len(mine)
                s_both += sum(1 for p in mine if (drops.get(p) or 0) >= BLUNDER)
                if s["full"]:
                    full_games += 1
                    truth = {p for p, d in drops.items() if d is not None and d >= BLUNDER}
                    s_found += len(truth)
                    s_found_both += len(truth & mine)
            print(f"  against Scan (depth {scanned[0][1]['depth']}): {len(scanned)} games")
            print(f"    precision (Scan finds a blunder too): {wilson(s_both, s_marked)}")
            print(f"    recall ({full_games} games, every move): {wilson(s_found_both, s_found)}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--games", type=int, default=60, help="games of each variant")
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--jobs", type=int, default=2, help="games judged at once")
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--out", type=Path, help="append one JSON line a game here")
    p.add_argument("--report", type=Path, nargs="+", help="only print the figures of these files")
    p.add_argument(
        "--full-every", type=int, default=5, help="every move judged on every Nth game of a variant"
    )
    p.add_argument(
        "--from-end", action="store_true", help="the last games first (beside another run)"
    )
    p.add_argument("--candidate", type=float, default=INACCURACY, help="a candidate's drop")
    p.add_argument("--budget", type=int, default=DEPTHS[DEFAULT_DEPTH])
    p.add_argument("--scan", help="Scan 2.0's command (its folder has its data)")
    p.add_argument("--scan-depth", type=int, default=14)
    p.add_argument("--scan-scale", type=float, default=1.16)
    p.add_argument("--scan-games", type=int, default=1000, help="games Scan judges in full")
    p.add_argument("--scan-out", type=Path, help="append Scan's lines here (default: --out)")
    args = p.parse_args(argv)
    if args.report:
        rows, scans = read_rows(*args.report)
        report(list(rows.values()), scans)
        return 0
    if args.out is None:
        p.error("--out FILE is needed (or --report FILE)")
    scan_out = args.scan_out or args.out
    rows, scans = read_rows(args.out, scan_out)
    found = []
    for variant in args.variants.split(","):
        some = games(args.corpus, variant, args.games)
        if not some:
            print(f"{variant}: no games in {args.corpus / variant}", file=sys.stderr)
        found.append(some)
    every = in_turn(found)
    full_every = max(1, args.full_every)
    with open(scan_out if args.scan else args.out, "a", encoding="utf-8") as out:
        if args.scan:
            scan = Scan(args.scan, args.scan_depth)
            records = dict(every)
            full_left = args.scan_games - sum(1 for s in scans.values() if s["full"])
            for key, row in rows.items():
                record = records.get(key)
                if key in scans or record is None or not key.startswith("international/"):
                    continue
                full = full_left > 0
                full_left -= full
                plies = range(1, int(row["plies"]) + 1) if full else row["marked"]
                clock = time.monotonic()
                line = {"kind": "scan", "game": key, "depth": args.scan_depth, "full": full}
                line |= scan_drops(scan, record, plies, args.scan_scale)
                out.write(json.dumps(line) + "\n")
                out.flush()
                scans[key] = line
                print(f"Scan: {key} ({time.monotonic() - clock:.0f} s)", file=sys.stderr)
            scan.close()
        else:
            # every move judged on the 1st, (N+1)th… game of each variant
            place = {key: i for some in found for i, (key, _record) in enumerate(some)}
            jobs = [
                (key, write_game(record), args.budget, place[key] % full_every == 0, args.candidate)
                for key, record in every
                if key not in rows
            ]
            if args.from_end:  # (a second run beside a first: each from its own end)
                jobs.reverse()
            print(f"{len(every) - len(jobs)} games done before, {len(jobs)} to do", file=sys.stderr)
            for i, row in enumerate(as_done(jobs, args.jobs), 1):
                rows[row["game"]] = row
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(
                    f"{i}/{len(jobs)} {row['game']}: ?? {row['marked']} / 4x "
                    f"{sorted(long_blunders(row))} ({'full' if row['full'] else 'candidates'}, "
                    f"CPU {row['cpu'][0]:.0f} + {row['cpu'][1]:.0f} s)",
                    file=sys.stderr,
                )
    report(list(rows.values()), scans)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
