"""How good the review's blunder marks are, on real games (issue 47's goal: of the moves
marked ``??``, at least 90 % that a search four times longer also finds losing a
blunder's worth; of those it finds, at least 80 % marked).

    python benchmarks/review_quality.py --games 60 --jobs 2 --out quality.jsonl
    python benchmarks/review_quality.py --report quality.jsonl
    python benchmarks/review_quality.py --games 20 --scan /tmp/scan/scan --out scan.jsonl \\
        --variants international

Games come from ``../shared/corpora/pdn`` (International and Russian, the first
``--games`` of each with at least 20 moves and no error; the corpus is only read).  Each
game's main line is reviewed twice, at the default budget of nodes a position and at four
times it, by the review's own code (:class:`shashki.session.review.Review`): the second's
``??`` (a drop of the player's expected score of at least ``BLUNDER``, the same curve and
rules) is the truth the first is measured against.  One line of JSON a game is appended to
``--out`` as it is done, so a run can stop and be taken up again (games already in the file
are skipped).

With ``--scan COMMAND`` (Scan 2.0, ``./scan hub``: Hub version 1; build it with
``../shared/engines/scan-2.0/build.sh``) the International games are also judged by Scan
at ``--scan-depth`` (14): every position's score for the side to move (its scores taken to
shashki's scale by ``--scan-scale``, 1.16, as ``tools/train_eval.py`` does), and a move
is a blunder for Scan when its player's expected score drops by ``BLUNDER`` from the
position before it to the position after it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from shashki.engine.review import DEFAULT_DEPTH, DEPTHS
from shashki.engine.winprob import BLUNDER, curve_for
from shashki.records import GameRecord, read_file
from shashki.session.review import Review

#: The shared corpus: ../shared beside the project, or where SHASHKI_SHARED says.
CORPUS = (
    Path(os.environ.get("SHASHKI_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    / "corpora"
    / "pdn"
)
VARIANTS = ("international", "russian")


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


def blunders(review: Review) -> list[int]:
    return [v.ply for v in review.verdicts() if v.mark == "??"]


def judge_game(job: tuple[str, str, int]) -> dict[str, object]:
    """One game reviewed at the budget and at four times it (one core)."""
    key, text, budget = job
    from shashki.records import read_games_text

    [record] = read_games_text(text)
    short = Review(record, nodes=budget)
    short.run(workers=1)
    long = Review(record, nodes=4 * budget)
    long.run(workers=1)
    return {
        "game": key,
        "plies": short.total - 1,
        "marked": blunders(short),
        "found": blunders(long),
        "drops": [round(v.drop, 4) for v in short.verdicts()],
        "long_drops": [round(v.drop, 4) for v in long.verdicts()],
        "marks": [v.mark for v in short.verdicts()],
    }


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

    def score(self, game: object) -> int | None:
        """The side to move's score in hundredths of a man (Scan's own scale), or None."""
        pos = game.position  # type: ignore[attr-defined]
        geo = game.variant.board  # type: ignore[attr-defined]
        w, b, k, turn = pos[0], pos[1], pos[2], pos[3]
        board = ["w" if turn == 0 else "b"]
        for n in range(1, len(geo.by_number)):
            bit = 1 << geo.by_number[n]
            board.append(
                ("W" if k & bit else "w")
                if w & bit
                else ("B" if k & bit else "b")
                if b & bit
                else "e"
            )
        self.send("pos " + "".join(board))
        self.send(f"depth {self.depth}")
        self.send("go")
        infos = [t for t in self.until("move") if t.startswith("info")]
        parts = infos[-1].split() if infos else []
        try:
            return int(float(parts[3]))
        except (IndexError, ValueError):
            return None

    def close(self) -> None:
        self.send("quit")
        self.p.wait(10)


def scan_game(scan: Scan, record: GameRecord, scale: float) -> list[float | None]:
    """Scan's drop of the mover's expected score for each move (None: no score)."""
    assert record.variant is not None
    curve = curve_for(record.variant)
    game = record.start()
    values: list[float | None] = []  # the side to move's expected score
    turns: list[int] = []
    for move in [*record.mainline_moves(), None]:
        turns.append(int(game.turn))
        if game.outcome() is not None:
            out = game.outcome()
            assert out is not None
            mine = 0.5 if out.winner is None else float(int(out.winner) == int(game.turn))
            values.append(mine)
        else:
            score = scan.score(game)
            values.append(None if score is None else curve.expected(round(score * scale)))
        if move is not None:
            game.push(move)
    drops: list[float | None] = []
    for i in range(len(values) - 1):
        a, b = values[i], values[i + 1]
        if a is None or b is None:
            drops.append(None)
            continue
        after = b if turns[i + 1] == turns[i] else 1 - b
        drops.append(max(0.0, a - after))
    return drops


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


def report(rows: list[dict[str, object]]) -> None:
    by: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by.setdefault(str(row["game"]).split("/")[0], []).append(row)
    for variant, group in [*sorted(by.items()), ("all", rows)]:
        marked = sum(len(r["marked"]) for r in group)  # type: ignore[arg-type]
        found = sum(len(r["found"]) for r in group)  # type: ignore[arg-type]
        both = sum(len(set(r["marked"]) & set(r["found"])) for r in group)  # type: ignore[arg-type]
        moves = sum(int(r["plies"]) for r in group)  # type: ignore[call-overload]
        print(f"{variant}: {len(group)} games, {moves} moves")
        print(f"  precision of ?? (the 4x search agrees): {wilson(both, marked)}")
        print(f"  recall (4x blunders the review marked ??): {wilson(both, found)}")
        scanned = [r for r in group if "scan" in r]
        if scanned:
            s_marked = s_both = s_found = 0
            for r in scanned:
                drops = r["scan"]  # type: ignore[index]
                truth = {i + 1 for i, d in enumerate(drops) if d is not None and d >= BLUNDER}  # type: ignore[arg-type]
                mine = set(r["marked"])  # type: ignore[arg-type]
                s_marked += len(mine)
                s_found += len(truth)
                s_both += len(mine & truth)
            print(f"  against Scan: {len(scanned)} games")
            print(f"    precision: {wilson(s_both, s_marked)}")
            print(f"    recall: {wilson(s_both, s_found)}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=60, help="games of each variant")
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--jobs", type=int, default=2, help="games reviewed at once")
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--out", type=Path, help="append one JSON line a game here")
    p.add_argument("--report", type=Path, help="only print the figures of this file")
    p.add_argument("--scan", help="Scan 2.0's command (its folder has its data)")
    p.add_argument("--scan-depth", type=int, default=14)
    p.add_argument("--scan-scale", type=float, default=1.16)
    p.add_argument("--budget", type=int, default=DEPTHS[DEFAULT_DEPTH])
    args = p.parse_args(argv)
    if args.report:
        last: dict[str, dict[str, object]] = {}
        for line in args.report.read_text().splitlines():
            if line:
                row = json.loads(line)
                last[row["game"]] = row  # a game written again (with Scan's view): the last
        report(list(last.values()))
        return 0
    if args.out is None:
        p.error("--out FILE is needed (or --report FILE)")
    done = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            if line:
                row = json.loads(line)
                done[row["game"]] = row
    todo: list[tuple[str, GameRecord]] = []
    for variant in args.variants.split(","):
        found = games(args.corpus, variant, args.games)
        if not found:
            print(f"{variant}: no games in {args.corpus / variant}", file=sys.stderr)
        todo += [
            (key, r)
            for key, r in found
            if key not in done or (args.scan and "scan" not in done[key])
        ]
    scan = Scan(args.scan, args.scan_depth) if args.scan else None
    from shashki.records import write_game

    jobs = [(key, write_game(r), args.budget) for key, r in todo if key not in done]
    with open(args.out, "a", encoding="utf-8") as out:
        with ProcessPoolExecutor(args.jobs) as pool:
            for i, row in enumerate(pool.map(judge_game, jobs), 1):
                done[str(row["game"])] = row
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(
                    f"{i}/{len(jobs)} {row['game']}: ?? {row['marked']} / 4x {row['found']}",
                    file=sys.stderr,
                )
        if scan is not None:
            for key, record in todo:
                if record.variant is None or record.variant.id != "international":
                    continue  # Scan 2.0 plays International draughts only
                row = done[key]
                row["scan"] = scan_game(scan, record, args.scan_scale)
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"Scan: {key}", file=sys.stderr)
            scan.close()
    # a game written twice (once with Scan's view) counts once, with the last line
    rows = list(done.values())
    report(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
