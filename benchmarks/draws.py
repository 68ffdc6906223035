"""How a match's games were drawn: were they draws shashki held, or wins it let go?

    python benchmarks/draws.py GAMES.pdn [MORE.pdn ...] [--player shashki] [--ahead 200]
        [--plies 20] [--list]

For every game of the files (``benchmarks/engines.py --pdn`` writes them), the player's
own evaluation (static, shashki's of the variant, in hundredths of a man) of every
position after a move, from the player's side; a game counts as one where it stood
``--ahead`` or more in front (or behind) when that held for ``--plies`` positions or
more.  Printed: for each result, how many games are such, and how the draws ended; with
``--list``, each draw where the player stood ahead, with its number in its file, its
longest stretch ahead and the material at its end.  The evaluation is the player's view,
not the truth: Scan 2.0 (``benchmarks/losses.py``) says how far to believe it.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine.evaluate import Evaluator, evaluator_for
from shashki.records import read_file
from shashki.rules import ShashkiError
from shashki.rules.game import game_state

SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def material(pos: tuple[int, ...], side: int) -> str:
    """The pieces of ``side`` then of the other, as ``men+kings``."""
    own, other = pos[side], pos[side ^ 1]
    kings = pos[2]
    return (
        f"{(own & ~kings).bit_count()}+{(own & kings).bit_count()}K v "
        f"{(other & ~kings).bit_count()}+{(other & kings).bit_count()}K"
    )


def longest(values: list[int], test: Callable[[int], bool]) -> int:
    """The longest run of consecutive ``values`` that pass ``test``."""
    best = run = 0
    for v in values:
        run = run + 1 if test(v) else 0
        best = max(best, run)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="+", type=Path, help="PDN files of a match's games")
    parser.add_argument("--player", default="shashki", help="the player's name (White/Black)")
    parser.add_argument("--ahead", type=int, default=200, help="hundredths of a man")
    parser.add_argument("--plies", type=int, default=20, help="positions in a row")
    parser.add_argument("--list", action="store_true", help="each draw where it stood ahead")
    args = parser.parse_args()
    counts: Counter[tuple[float, str]] = Counter()
    endings: Counter[str] = Counter()
    listed: list[str] = []
    evaluators: dict[str, Evaluator] = {}  # (one a variant, not one a game)
    games = 0
    for path in args.files:
        try:
            records = list(read_file(path))
        except OSError as exc:
            raise SystemExit(f"{path}: {exc}") from exc
        for number, record in enumerate(records, 1):
            names = [record.header("White"), record.header("Black")]
            sides = [i for i, name in enumerate(names) if name.startswith(args.player)]
            result = SCORES.get(record.header("Result"))
            if len(sides) != 1 or result is None or record.variant is None:
                continue
            side = sides[0]
            score = result[side]
            evaluate = evaluators.get(record.variant.id)
            if evaluate is None:
                evaluate = evaluators[record.variant.id] = evaluator_for(record.variant)
            try:
                game = record.start()
                values = []
                for move in record.mainline_moves():
                    game.push(move)
                    pos = game_state(game)
                    v = evaluate(pos)
                    values.append(v if pos[3] == side else -v)
            except ShashkiError as exc:  # (a record that does not replay: said, skipped)
                print(f"{path} game {number}: left out ({exc})", file=sys.stderr)
                continue
            games += 1
            ahead = longest(values, lambda v: v >= args.ahead)
            behind = longest(values, lambda v: v <= -args.ahead)
            counts[(score, "ahead")] += ahead >= args.plies
            counts[(score, "behind")] += behind >= args.plies
            counts[(score, "all")] += 1
            if score == 0.5:
                endings[record.header("Termination", "?")] += 1
                if ahead >= args.plies:
                    listed.append(
                        f"  {path.name} game {number}: {ahead} positions ahead, at the end "
                        f"{material(game_state(game), side)}: {record.header('Termination')}"
                    )
    if not games:
        raise SystemExit(f"no game of {args.player!r} with a result in the files")
    print(
        f"{games} games of {args.player}; standing {args.ahead / 100:g} men or more ahead "
        f"(behind) for {args.plies} positions or more in a row, by its own evaluation:"
    )
    for score, name in ((1.0, "won"), (0.5, "drawn"), (0.0, "lost")):
        print(
            f"  {name}: {counts[(score, 'all')]}, of which ahead {counts[(score, 'ahead')]}, "
            f"behind {counts[(score, 'behind')]}"
        )
    print("the draws ended:")
    for text, n in endings.most_common():
        print(f"  {n:4d}  {text}")
    if args.list and listed:
        print("the draws where it stood ahead:")
        print("\n".join(listed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
