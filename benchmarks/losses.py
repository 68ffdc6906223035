"""Where the points go: Scan 2.0's judgement of every move of a match, by engine and phase.

    python benchmarks/engines.py dame --games 24 --time 0.5 --pdn games.pdn
    python benchmarks/losses.py games.pdn --scan "/tmp/scan-2.0/scan hub" --folder /tmp/scan-2.0

Every position of the games where the side to move has a choice is scored by Scan 2.0 at
a fixed depth (Hub version 1; a forced move is played out first: Scan answers a position
with one legal move at once, unsearched, with the score 0).  What a move cost its player
is Scan's score before it less Scan's score at the next choice (or the game's end: 2000
for a win, 0 for a draw), the mover's view, each score first held within ``--clip`` (a
game already won or lost costs nothing more).  The figures, for each player of the games
(their PDN names) and each phase of the game (the pieces on the board): the moves, the
mean cost in hundredths of a man, and how many cost half a man or more and a man or more.
Scan does not know the draw counters of a position (the 25-move or 16-move rules), so an
ending drawn by them can read as a cost: the last phase is the least exact.

The player whose moves cost less in a phase plays it better, by Scan's lights: what the
figures say is where to look for the points a match gave away, not a score.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from shashki.records import read_file
from shashki.rules import Game

sys.path.insert(0, str(Path(__file__).parent))
from endings import Scan

#: A won game, as Scan scores one (less the plies to the end).
WON = 2000
#: The phases, by the pieces on the board: (the fewest, its name).
PHASES = ((31, "31+ pieces"), (21, "21-30"), (11, "11-20"), (0, "10 or fewer"))


def phase(game: Game) -> str:
    pos = game.position
    pieces = (pos[0] | pos[1]).bit_count()
    return next(name for least, name in PHASES if pieces >= least)


def choices(record: object) -> list[tuple[Game, str]]:
    """The positions of a game's main line where the side to move has a choice, each
    with the mover's name; and, last, the game's end (a copy of the final position with
    the name "")."""
    names = {0: record.headers.get("White", "White"), 1: record.headers.get("Black", "Black")}  # type: ignore[attr-defined]
    game = record.start()  # type: ignore[attr-defined]
    out = []
    for mv in record.mainline_moves():  # type: ignore[attr-defined]
        if len(game.legal_moves()) > 1:
            out.append((game.copy(), names[int(game.position[3])]))
        game.push(mv)
    out.append((game.copy(), ""))
    return out


def end_value(record: object, game: Game) -> int:
    """The game's result, the view of the side to move in its last position."""
    result = record.result  # type: ignore[attr-defined]
    if result in ("1-0", "2-0"):
        winner: int | None = 0
    elif result in ("0-1", "0-2"):
        winner = 1
    else:
        return 0
    return WON if winner == int(game.position[3]) else -WON


def costs(
    records: Iterable[object], score: Callable[[Game], int], clip: int
) -> tuple[int, dict[tuple[str, str], list[int]]]:
    """The games read and, for each (player, phase), [moves, their total cost, those
    costing half a man or more, a man or more]; ``score`` is Scan's score of a position
    for the side to move."""
    sums: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    games = 0
    for record in records:
        games += 1
        line = choices(record)
        scores = []
        for game, name in line:
            v = score(game) if name else end_value(record, game)
            scores.append(max(-clip, min(clip, v)))
        for i, (game, name) in enumerate(line[:-1]):
            nxt, _ = line[i + 1]
            after = scores[i + 1] if nxt.position[3] == game.position[3] else -scores[i + 1]
            cost = max(0, scores[i] - after)
            row = sums[(name, phase(game))]
            row[0] += 1
            row[1] += cost
            row[2] += cost >= 50
            row[3] += cost >= 100
        print(f"game {games}: {record.result} ({len(line) - 1} choices)", flush=True)  # type: ignore[attr-defined]
    return games, sums


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdn", nargs="+", type=Path, help="the games (PDN)")
    parser.add_argument("--scan", default="/tmp/scan-2.0/scan hub", help="Scan's command")
    parser.add_argument("--folder", default="/tmp/scan-2.0", help="the folder Scan runs in")
    parser.add_argument("--depth", type=int, default=14, help="Scan's depth (default: 14)")
    parser.add_argument("--clip", type=int, default=500, help="scores held within +-this")
    parser.add_argument("--variant", default="international")
    args = parser.parse_args()
    scan = Scan(args.scan, args.folder)
    try:
        records = (r for path in args.pdn for r in read_file(path, args.variant))
        games, sums = costs(records, lambda game: scan.score(game, args.depth), args.clip)
    finally:
        scan.close()
    players = sorted({name for name, _ in sums})
    print(f"\n{games} games, Scan 2.0 at depth {args.depth}, scores within +-{args.clip}")
    print(f"{'phase':<12} {'player':<24} {'moves':>6} {'mean cost':>10} {'>= 0.5':>7} {'>= 1':>5}")
    for _least, name in PHASES:
        for player in players:
            moves, total, half, whole = sums.get((player, name), [0, 0, 0, 0])
            if moves:
                print(
                    f"{name:<12} {player:<24} {moves:>6} {total / moves:>10.1f} "
                    f"{half:>7} {whole:>5}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
