"""Opening ballots: the first moves of a game drawn (or listed) so that engines do not
play the same game over and over.

shashki ships ballots of its own making for some variants, in ``ballots/``: every
opening of two plies (``ballot-2``: each side's first move) or of three (``ballot-3``)
whose score after a fixed-depth search of shashki's engine is within a margin of equal
(:func:`make_ballot`; ``tools/make_ballots.py`` writes the files), one opening a line,
moves in the variant's notation, a comment ``#`` saying how it was made.  Ballots of
other programs are read in the usual formats: a PDN file (each game's start and main
line), or one FEN or move sequence a line (``shashki.hub.match.read_openings``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..rules import Game, Move
from ..rules.variant import Variant

#: The ballots shipped, by the name an event gives (the file is ``<variant>-<n>.txt``).
BALLOTS = {"ballot-2": 2, "ballot-3": 3}


def ballot_file(variant: str, name: str) -> Path | None:
    """The shipped ballot ``name`` of ``variant`` (an id), or None."""
    plies = BALLOTS.get(name.strip().lower())
    if plies is None:
        return None
    from ..rules import find_variant

    try:
        vid = find_variant(variant).id
    except Exception:
        return None
    path = Path(str(resources.files(__package__).joinpath("ballots", f"{vid}-{plies}.txt")))
    return path if path.is_file() else None


def shipped() -> list[str]:
    """The ballots shipped, as ``variant-n`` names."""
    folder = resources.files(__package__).joinpath("ballots")
    return sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt"))


def make_ballot(
    variant: Variant, plies: int, *, depth: int = 6, margin: int = 60
) -> list[tuple[list[Move], int]]:
    """Every opening of ``plies`` plies from the start whose score, searched to
    ``depth`` for the side to move after it, is within ``margin`` hundredths of a man of
    equal; each with that score (from White's side), in the order the moves are listed."""
    from ..engine.search import Search

    search = Search(variant)
    found: list[tuple[list[Move], int]] = []

    def walk(game: Game, line: list[Move]) -> None:
        if game.is_over():
            return
        if len(line) == plies:
            score = search.search(game, depth=depth).score
            white = score if game.turn.name == "WHITE" else -score
            if abs(white) <= margin:
                found.append((list(line), white))
            return
        for move in game.legal_moves():
            game.push(move)
            walk(game, [*line, move])
            game.pop()

    walk(Game(variant), [])
    return found


def ballot_text(
    variant: Variant, plies: int, openings: list[tuple[list[Move], int]], how: str
) -> str:
    """A ballot file: its comment, then one opening a line (moves, then its score)."""
    lines = [f"# {variant.name}: {len(openings)} openings of {plies} plies, {how}"]
    for moves, score in openings:
        game = Game(variant)
        words = []
        for move in moves:
            words.append(game.move_text(move))
            game.push(move)
        lines.append(f"{' '.join(words)}  # {score:+d}")
    return "\n".join(lines) + "\n"


__all__ = ["BALLOTS", "ballot_file", "ballot_text", "make_ballot", "shipped"]
