"""The score of one match played in several runs of ``benchmarks/engines.py``, taken together.

    python benchmarks/tally.py first.log second.log:70 third.log

A long match (200 games at 2 s a move is about twelve hours of a core) is best played in
parts, side by side or one after another, each on its own openings (``--first`` and
``--games``), each printing a line a game to its log ("  game 3: 1-0 (…) score 0.5": the
score is shashki's).  This reads those lines and gives the score of all the games together
with its 95% margin and the Elo difference, as a single run would (pentanomial, the games
taken in pairs: each opening played with both colours).  ``LOG:N`` reads only the first N
games of a log (a run stopped in the middle of a pair, or one whose later games another
run played again).  A log whose games do not come in twos has its last one left out, and
says so.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.hub.match import match_stats

GAME = re.compile(r"^\s*game \d+: .* score ([0-9.]+)\s*$", re.M)


def scores(spec: str) -> tuple[list[float], str | None]:
    """The scores of the games of ``spec`` (``LOG`` or ``LOG:N``), and what was left out."""
    path, _, count = spec.rpartition(":") if re.search(r":\d+$", spec) else (spec, "", "")
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    found = [float(s) for s in GAME.findall(text)]
    if any(not 0 <= s <= 1 for s in found):
        raise ValueError(f"{path}: a score outside 0 to 1")
    if count:
        found = found[: int(count)]
    said = None
    if len(found) % 2:
        found = found[:-1]
        said = f"{spec}: an odd number of games, the last one left out (pairs are whole)"
    return found, said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", metavar="LOG[:N]", help="a run's output")
    args = parser.parse_args(argv)
    everything: list[float] = []
    for spec in args.logs:
        try:
            found, said = scores(spec)
        except (OSError, ValueError) as e:
            print(f"tally: {e}", file=sys.stderr)
            return 2
        if said:
            print(said)
        if found:
            part = match_stats(found)
            print(f"{spec}: +{part.wins} ={part.draws} -{part.losses}, {part.describe()}")
        everything += found
    if not everything:
        print("tally: no games in those logs", file=sys.stderr)
        return 2
    stats = match_stats(everything)
    print(f"together: +{stats.wins} ={stats.draws} -{stats.losses}, {stats.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
