"""The endings shashki lost to dame-rs: does the engine now keep the game?

    python benchmarks/endings.py --time 0.5

``benchmarks/endings.txt`` holds 39 positions of the games shashki lost to dame-rs (220
games at 0.5 s a move) where shashki's move took a position Scan 2.0 (depth 12) did not
see lost into one it saw lost, with Scan 2.0's score (depth 26) of every legal move; in
15 of them Scan finds a move that is not lost, in the 24 others every move is.  For each,
a fresh search chooses a move in the time given; the figures are how many of the choices
Scan sees lost (a score of -1500 or less; in the positions where every move is lost any
choice is), how many hold the best score Scan found (within a tenth of a man), and how
many repeat the move of the game (``--each``: a line a position).  No engine is needed to
run it: Scan's judgement is in the file (``--rescore`` makes it again, ``--data`` reads
another edition: ``benchmarks/endings-depth14.txt``, Scan at depth 14).

The first edition of the file scored 38 of the positions drawn: it had asked Scan 2.0
about the position after each move, and Scan answers a position with one legal move at
once, unsearched, with the score 0; every one of those "draws" was a move with a forced
reply.  Against it the engine chose a move Scan sees lost in 29 positions at 0.5 s, 27
at 2 s, 25 at 8 s.  The second, at depth 14, held 32 positions savable; Scan deeper
finds 17 of them lost whatever is played (see the file's head and docs/ENGINE.md).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine.hub.text import position_text
from shashki.engine.search import Search
from shashki.rules import Game
from shashki.rules.game import game_state

DATA = Path(__file__).with_name("endings.txt")
#: A score at or below this is a loss Scan found.
LOST = -1500
#: Within this of Scan's best score, a move holds as well as the best.
HOLDS = 10


def read(path: Path) -> list[tuple[str, str, dict[str, int]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, played, judged = line.split("\t")
        scores = {m: int(s) for m, s in (item.rsplit("=", 1) for item in judged.split())}
        rows.append((fen, played, scores))
    return rows


class Scan:
    """Scan 2.0 over Hub version 1, searching positions to a fixed depth."""

    def __init__(self, command: str, folder: str | None) -> None:
        self.proc = subprocess.Popen(
            shlex.split(command),
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("hub")
        self.until("wait")
        self.send("set book false")  # (Scan 2.0's own word for a setting of scan.ini)
        self.send("init")
        self.until("ready")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, word: str) -> list[str]:
        assert self.proc.stdout is not None
        last: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the engine ended")
            if line.startswith("info"):
                last = line.split()
            if line.split()[:1] == [word]:
                return last

    def score(self, game: Game, depth: int) -> int:
        """Scan's score of ``game``'s position for the side to move.  Scan 2.0 tells its
        score from depth 12 on only; its opening book is off (a book move came with
        the score 0, unsearched), and a single legal move, which it plays unsearched
        (depth 0), is played here and the position after it scored."""
        self.send("pos " + position_text(game, version=1))
        self.send(f"depth {depth}")
        self.send("go")
        info = self.until("move")  # info DEPTH PLY-AVG SCORE NODES TIME SPEED PV
        if len(info) < 4:
            raise SystemExit(f"Scan 2.0 tells its score from depth 12 on, not at depth {depth}")
        moves = game.legal_moves()
        if info[1] == "0" and len(moves) == 1:
            after = game.copy()
            after.push(moves[0])
            value = self.score(after, depth)
            return value if after.turn == game.turn else -value
        return int(info[3])

    def close(self) -> None:
        self.send("quit")
        self.proc.wait()


def judge(scan: Scan, game: Game, depth: int) -> dict[str, int]:
    """Scan's score of every legal move of ``game``, the mover's view.  Scan 2.0 answers
    a position with one legal move at once, unsearched (depth 0, score 0): the forced
    moves are played out here first, and the first position with a choice is searched
    (or the end of the game scored: 2000 less the plies, as Scan scores a win)."""
    out = {}
    for mv in game.legal_moves():
        after = game.copy()
        after.push(mv)
        plies = 1
        while (end := after.outcome()) is None and len(replies := after.legal_moves()) == 1:
            after.push(replies[0])
            plies += 1
        if end is not None:
            winner = end.winner
            v = 0 if winner is None else 2000 - plies
            v = v if winner is not None and int(winner) == game_state(game)[3] else -v
        else:
            v = scan.score(after, depth)
            v = v if game_state(after)[3] == game_state(game)[3] else -v
        out[game.move_text(mv)] = v
    return out


def rescore(command: str, folder: str | None, depth: int, data: Path = DATA) -> None:
    """Judge every move of the positions again with Scan 2.0 and write the file anew."""
    scan = Scan(command, folder)
    head = [line for line in data.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    lines = list(head)
    try:
        for fen, played, _ in read(data):
            scores = judge(scan, Game("international", fen=fen), depth)
            ranked = sorted(scores.items(), key=lambda ms: -ms[1])
            judged = " ".join(f"{m}={v}" for m, v in ranked)
            lines.append(f"{fen}\t{played}\t{judged}")
            print(lines[-1], flush=True)
    finally:
        scan.close()
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.5, help="seconds a position")
    parser.add_argument("--variant", default="international")
    parser.add_argument(
        "--rescore",
        metavar="COMMAND",
        help="judge the moves again with Scan 2.0 (Hub version 1: 'scan hub'); rewrites the file",
    )
    parser.add_argument("--folder", help="the folder to run the engine from (Scan's own)")
    parser.add_argument("--depth", type=int, default=26, help="Scan's depth for --rescore")
    parser.add_argument(
        "--data",
        type=Path,
        default=DATA,
        help="the positions and their judgement (default: %(default)s)",
    )
    parser.add_argument(
        "--each", action="store_true", help="a line for each position: the choice and its score"
    )
    args = parser.parse_args()
    if args.rescore:
        rescore(args.rescore, args.folder, args.depth, args.data)
        return 0
    lost = held = repeated = hopeless = 0
    depths = []
    started = time.perf_counter()
    rows = read(args.data)
    for number, (fen, played, scores) in enumerate(rows, 1):
        game = Game(args.variant, fen=fen)
        result = Search(args.variant).search(game, seconds=args.time)
        assert result.move is not None
        chosen = game.move_text(result.move)
        score = scores[chosen]
        lost += score <= LOST
        hopeless += max(scores.values()) <= LOST
        held += score >= max(scores.values()) - HOLDS
        repeated += chosen == played
        depths.append(result.depth)
        if args.each:
            pos = game_state(game)
            best = max(scores.values())
            mark = "lost" if score <= LOST else "holds" if score >= best - HOLDS else "worse"
            print(
                f"{number:2} {(pos[0] | pos[1]).bit_count():2} pieces: {chosen} {score} "
                f"(best {best}: {' '.join(m for m, v in scores.items() if v == best)}) "
                f"depth {result.depth} {mark}{' (every move lost)' if best <= LOST else ''}",
                flush=True,
            )
    n = len(rows)
    print(
        f"{n} positions, {args.time:g} s each: a move Scan sees lost {lost} "
        f"({lost - hopeless} of the {n - hopeless} where a move is not lost), "
        f"holding as well as Scan's best {held}, the game's move again {repeated}; "
        f"mean depth {sum(depths) / n:.1f} ({time.perf_counter() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
