"""Write the opening ballots shashki ships (src/shashki/tournament/ballots/).

    python tools/make_ballots.py international russian english --plies 2 3

Every opening of 2 (or 3) plies whose score, after a search of shashki's engine to a
fixed depth, is within a margin of equal: ``shashki.tournament.ballots.make_ballot``.
The same engine and depth make the same file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shashki.rules import find_variant
from shashki.tournament.ballots import ballot_text, make_ballot

FOLDER = Path(__file__).resolve().parent.parent / "src" / "shashki" / "tournament" / "ballots"
#: The depth of the search for each length of opening, and the margin kept (1/100 man).
DEPTHS = {2: 6, 3: 4}
MARGIN = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--plies", type=int, nargs="+", default=[2, 3])
    args = parser.parse_args()
    for name in args.variants:
        variant = find_variant(name)
        for plies in args.plies:
            depth = DEPTHS[plies]
            openings = make_ballot(variant, plies, depth=depth, margin=MARGIN)
            how = f"searched to depth {depth}, within {MARGIN / 100:g} man of equal"
            path = FOLDER / f"{variant.id}-{plies}.txt"
            path.write_text(ballot_text(variant, plies, openings, how), encoding="utf-8")
            print(f"{path.name}: {len(openings)} openings", flush=True)


if __name__ == "__main__":
    main()
