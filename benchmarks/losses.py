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

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.records import read_file
from shashki.rules import Game
from shashki.rules.game import game_state

sys.path.insert(0, str(Path(__file__).parent))
from endings import Scan, judge

#: A won game, as Scan scores one (less the plies to the end).
WON = 2000
#: The phases, by the pieces on the board: (the fewest, its name).
PHASES = ((31, "31+ pieces"), (21, "21-30"), (11, "11-20"), (0, "10 or fewer"))


def phase(game: Game) -> str:
    pos = game_state(game)
    pieces = (pos[0] | pos[1]).bit_count()
    return next(name for least, name in PHASES if pieces >= least)


def choices(record: object) -> list[tuple[Game, str, str]]:
    """The positions of a game's main line where the side to move has a choice, each
    with the mover's name and the move played; and, last, the game's end (a copy of the
    final position, with no name and no move)."""
    names = {0: record.headers.get("White", "White"), 1: record.headers.get("Black", "Black")}  # type: ignore[attr-defined]
    game = record.start()  # type: ignore[attr-defined]
    out = []
    for mv in record.mainline_moves():  # type: ignore[attr-defined]
        if len(game.legal_moves()) > 1:
            out.append((game.copy(), names[int(game_state(game)[3])], game.move_text(mv)))
        game.push(mv)
    out.append((game.copy(), "", ""))
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
    return WON if winner == int(game_state(game)[3]) else -WON


def costs(
    records: Iterable[object],
    score: Callable[[Game], int],
    clip: int,
    worst: list[tuple[int, str, int, str, str]] | None = None,
) -> tuple[int, dict[tuple[str, str], list[int]]]:
    """The games read and, for each (player, phase), [moves, their total cost, those
    costing half a man or more, a man or more]; ``score`` is Scan's score of a position
    for the side to move.  ``worst`` gets every move costing a man or more: (its cost,
    the player, the game's number, the position's FEN, the move)."""
    sums: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    games = 0
    for record in records:
        games += 1
        line = choices(record)
        scores = []
        for game, name, _ in line:
            v = score(game) if name else end_value(record, game)
            scores.append(max(-clip, min(clip, v)))
        for i, (game, name, move) in enumerate(line[:-1]):
            nxt = line[i + 1][0]
            after = scores[i + 1] if game_state(nxt)[3] == game_state(game)[3] else -scores[i + 1]
            cost = max(0, scores[i] - after)
            row = sums[(name, phase(game))]
            row[0] += 1
            row[1] += cost
            row[2] += cost >= 50
            row[3] += cost >= 100
            if worst is not None and cost >= 100:
                worst.append((cost, name, games, game.fen(), move))
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
    parser.add_argument(
        "--worst", action="store_true", help="also list every move that cost a man or more"
    )
    parser.add_argument(
        "--again",
        metavar="PLAYER",
        help="each move of PLAYER that cost a man or more with 11 pieces or more: every "
        "legal move judged by Scan 2 plies deeper, and shashki's choice at 0.5, 2 and 8 s",
    )
    args = parser.parse_args()
    scan = Scan(args.scan, args.folder)
    try:
        records = (r for path in args.pdn for r in read_file(path, args.variant))
        worst: list[tuple[int, str, int, str, str]] = []
        games, sums = costs(records, lambda game: scan.score(game, args.depth), args.clip, worst)
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
    if args.worst:
        print("\nthe moves that cost a man or more (cost, player, game, position, move):")
        for cost, player, number, fen, move in sorted(worst, reverse=True):
            print(f"{cost:4} {player} game {number}: {fen} {move}")
    if args.again:
        again(args, [w for w in sorted(worst, reverse=True) if w[1] == args.again])
    return 0


def again(args: argparse.Namespace, worst: list[tuple[int, str, int, str, str]]) -> None:
    """Each costly move of a middle game judged again: Scan's score of every legal move
    (2 plies deeper) and what shashki chooses now, with more time (level 8 as it plays
    a match: the time a move spent whole)."""
    from shashki.engine import ComputerPlayer

    scan = Scan(args.scan, args.folder)
    print(f"\n{args.again}'s costly moves again (Scan at depth {args.depth + 2}):")
    try:
        for cost, _player, number, fen, played in worst:
            game = Game(args.variant, fen=fen)
            pos = game_state(game)
            if (pos[0] | pos[1]).bit_count() < 11:
                continue
            scores = judge(scan, game, args.depth + 2)
            best = max(scores.values())
            line = [f"game {number}, cost {cost}: {played} {scores[played]}, best {best}"]
            for seconds in (0.5, 2.0, 8.0):
                player = ComputerPlayer(8, seconds=seconds, seed=1)
                move = player.think(game)
                assert move is not None and player.last is not None
                chosen = game.move_text(move)
                line.append(f"{seconds:g} s: {chosen} {scores[chosen]} (depth {player.last.depth})")
            print(" | ".join(line), flush=True)
    finally:
        scan.close()


if __name__ == "__main__":
    sys.exit(main())
