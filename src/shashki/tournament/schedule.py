"""Who plays whom: the games of a round robin, a gauntlet and a Swiss event.

Every pairing plays each opening twice, each player White once.  A game is numbered from
1 in the order it is scheduled; the numbers of a round robin and a gauntlet are fixed by
the event alone, those of a Swiss event by the results of the rounds before (so a
resumed event pairs its rounds again the same way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """One scheduled game: its ``number``, ``round``, the players (by their index in the
    event) and the opening's index."""

    number: int
    round: int
    white: int
    black: int
    opening: int


def _circle(players: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin by the circle method (a bye where the count is
    odd, left out)."""
    seats = list(range(players)) + ([-1] if players % 2 else [])
    n = len(seats)
    rounds = []
    for _r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if a >= 0 and b >= 0:
                pairs.append((min(a, b), max(a, b)))
        rounds.append(pairs)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def _games(
    pairs_by_round: list[list[tuple[int, int]]],
    openings: int,
    first_round: int = 1,
    first_number: int = 1,
) -> list[Pairing]:
    out: list[Pairing] = []
    number = first_number
    for r, pairs in enumerate(pairs_by_round, start=first_round):
        for opening in range(openings):
            for a, b in pairs:
                for white, black in ((a, b), (b, a)):
                    out.append(Pairing(number, r, white, black, opening))
                    number += 1
    return out


def round_robin(players: int, openings: int) -> list[Pairing]:
    """Every player meets every other, each opening with both colours."""
    return _games(_circle(players), openings)


def gauntlet(players: int, openings: int) -> list[Pairing]:
    """The first player meets every other, each opening with both colours."""
    return _games([[(0, j)] for j in range(1, players)], openings)


#: The points of a bye: the two games of a pairing won.
BYE_POINTS = 2.0

#: The result of a game for its White: 1, 0.5 or 0.
Scores = Mapping[int, float]


def swiss(
    players: int, rounds: int, openings: int, results: Scores
) -> tuple[list[Pairing], list[tuple[int, int]]]:
    """The games of a Swiss event as far as the results allow pairing it (a round is
    paired once every game before it is played), and its byes (round, player): in each
    round the players sorted by score (then by their order in the event) are paired from
    the top, each with the next one it has not met, the last without a bye getting one
    (:data:`BYE_POINTS`) when their count is odd; a pairing plays that round's opening (the
    openings in turn) with both colours, as a two-game match."""
    games: list[Pairing] = []
    byes: list[tuple[int, int]] = []
    met: set[tuple[int, int]] = set()
    points = [0.0] * players
    number = 1
    for r in range(1, rounds + 1):
        order = sorted(range(players), key=lambda p: (-points[p], p))
        if players % 2:
            had = {p for _r, p in byes}
            bye = next((p for p in reversed(order) if p not in had), order[-1])
            order.remove(bye)
            byes.append((r, bye))
            points[bye] += BYE_POINTS
        pairs: list[tuple[int, int]] = []
        while order:
            a = order.pop(0)
            b = next((p for p in order if (min(a, p), max(a, p)) not in met), order[0])
            order.remove(b)
            pairs.append((a, b))
            met.add((min(a, b), max(a, b)))
        opening = (r - 1) % max(1, openings)
        this = []
        for a, b in pairs:
            for white, black in ((a, b), (b, a)):
                this.append(Pairing(number, r, white, black, opening))
                number += 1
        games += this
        if not all(g.number in results for g in this):
            break  # (the next round is paired once this one is played)
        for g in this:
            points[g.white] += results[g.number]
            points[g.black] += 1.0 - results[g.number]
    return games, byes


__all__ = ["BYE_POINTS", "Pairing", "gauntlet", "round_robin", "swiss"]
