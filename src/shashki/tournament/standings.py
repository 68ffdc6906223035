"""The standings of an event: points, the usual tie-breaks, Elo estimates with their
margins, and the crosstable as text and as HTML.

* Points: a win 1, a draw ½, a loss 0; a Swiss bye 2 (a pairing's two games won).
* Tie-breaks, in order: in a round robin or a gauntlet, Sonneborn-Berger (the points of
  the players one beat, and half of those one drew), then the points scored between the
  tied players (head to head), then the wins; in a Swiss event, Buchholz (the points of
  one's opponents), then Sonneborn-Berger, then the wins.
* Elo: the ratings most likely to give the results (the Bradley-Terry model on the Elo
  scale, a draw half a win, solved by Zermelo's iteration, their mean 0; each player is
  given a draw against a player rated 0 before its games, so that one that won or lost
  every game still has a rating), each with the margin of its 95% interval (1.96
  standard errors, from the games' information).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import _
from .schedule import BYE_POINTS, Pairing

#: The games of a draw against a player of rating 0 that every player is given before
#: its own (a player who won or lost every game still gets a finite rating).
PRIOR = 1.0

#: A played game: its pairing and White's score (1, 0.5, 0).
Played = tuple[Pairing, float]


@dataclass
class Row:
    """One player's line of the standings."""

    player: int
    name: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    tiebreaks: tuple[float, ...] = ()
    elo: float | None = None
    margin: float | None = None
    rank: int = 0


def _points(players: int, played: Sequence[Played], byes: Sequence[tuple[int, int]]) -> list[float]:
    points = [0.0] * players
    for g, s in played:
        points[g.white] += s
        points[g.black] += 1.0 - s
    for _round, p in byes:
        points[p] += BYE_POINTS
    return points


def _elo(players: int, played: Sequence[Played]) -> tuple[list[float | None], list[float | None]]:
    """Each player's rating (mean 0) and its 95% margin, as the module says."""
    points = [[0.0] * players for _ in range(players)]
    games = [[0] * players for _ in range(players)]
    for g, s in played:
        points[g.white][g.black] += s
        points[g.black][g.white] += 1.0 - s
        games[g.white][g.black] += 1
        games[g.black][g.white] += 1
    strength = [1.0] * players
    for _step in range(500):  # (Zermelo's iteration, each with a draw against 1.0)
        new = []
        for i in range(players):
            won = sum(points[i]) + PRIOR / 2
            expected = PRIOR / (strength[i] + 1.0) + sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(players) if games[i][j]
            )
            new.append(won / expected)
        strength = new
    logs = [math.log10(x) for x in strength]
    mean = sum(logs) / players
    elo: list[float | None] = []
    margins: list[float | None] = []
    for i in range(players):
        if not any(games[i]):
            elo.append(None)
            margins.append(None)
            continue
        elo.append(400 * (logs[i] - mean))
        information = sum(
            games[i][j] * strength[i] * strength[j] / (strength[i] + strength[j]) ** 2
            for j in range(players)
        )
        margins.append(1.96 * 400 / math.log(10) / math.sqrt(information) if information else None)
    return elo, margins


def standings(
    names: Sequence[str],
    played: Sequence[Played],
    *,
    swiss: bool = False,
    byes: Sequence[tuple[int, int]] = (),
) -> list[Row]:
    """The standings, best first, with ranks (shared by players tied on everything)."""
    players = len(names)
    points = _points(players, played, byes)
    rows = [Row(p, names[p], points[p]) for p in range(players)]
    sb = [0.0] * players
    buchholz = [0.0] * players
    for g, s in played:
        for me, other, mine in ((g.white, g.black, s), (g.black, g.white, 1.0 - s)):
            row = rows[me]
            row.games += 1
            row.wins += mine == 1.0
            row.draws += mine == 0.5
            row.losses += mine == 0.0
            sb[me] += mine * points[other]
            buchholz[me] += points[other]
    elo, margins = _elo(players, played)

    def head_to_head(p: int) -> float:
        tied = {q for q in range(players) if points[q] == points[p]}
        return sum(
            (s if g.white == p else 1.0 - s)
            for g, s in played
            if p in (g.white, g.black) and {g.white, g.black} <= tied
        )

    for row in rows:
        p = row.player
        if swiss:
            row.tiebreaks = (buchholz[p], sb[p], float(row.wins))
        else:
            row.tiebreaks = (sb[p], head_to_head(p), float(row.wins))
        row.elo, row.margin = elo[p], margins[p]
    rows.sort(key=lambda r: (-r.points, *(-t for t in r.tiebreaks), r.player))
    for i, row in enumerate(rows):
        same = i and (row.points, row.tiebreaks) == (rows[i - 1].points, rows[i - 1].tiebreaks)
        row.rank = rows[i - 1].rank if same else i + 1
    return rows


def _half(value: float) -> str:
    """1.5 as ``1½``, 0.5 as ``½``."""
    whole, half = int(value), value - int(value) >= 0.5
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def elo_text(row: Row) -> str:
    if row.elo is None:
        return "-"
    text = f"{row.elo:+.0f}"
    return text + (f" ±{row.margin:.0f}" if row.margin is not None else "")


def tiebreak_names(swiss: bool) -> list[str]:
    return [_("Buchholz"), _("SB"), _("wins")] if swiss else [_("SB"), _("h2h"), _("wins")]


def crosstable(names: Sequence[str], played: Sequence[Played]) -> list[list[str]]:
    """The points of each player (a row) against each other (a column), ``-`` unmet."""
    players = len(names)
    cells: list[list[list[float]]] = [[[] for _ in range(players)] for _ in range(players)]
    for g, s in played:
        cells[g.white][g.black].append(s)
        cells[g.black][g.white].append(1.0 - s)
    return [
        [
            "×" if a == b else (_half(sum(cells[a][b])) if cells[a][b] else "-")
            for b in range(players)
        ]
        for a in range(players)
    ]


def table_text(
    names: Sequence[str], rows: Sequence[Row], played: Sequence[Played], *, swiss: bool = False
) -> str:
    """The standings and the crosstable as plain text (a fixed-width table)."""
    cross = crosstable(names, played)
    order = [r.player for r in rows]
    heads = [
        "#",
        _("player"),
        _("points"),
        _("games"),
        "+",
        "=",
        "-",
        *tiebreak_names(swiss),
        "Elo",
    ]
    heads += [str(i + 1) for i in range(len(order))]
    lines = []
    for row in rows:
        line = [
            str(row.rank),
            row.name,
            _half(row.points),
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            *(_half(t) if i < 2 else f"{t:g}" for i, t in enumerate(row.tiebreaks)),
            elo_text(row),
        ]
        line += [cross[row.player][q] for q in order]
        lines.append(line)
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(heads)]
    out = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for line in lines:
        out.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
    return "\n".join(out) + "\n"


def table_html(
    title: str,
    names: Sequence[str],
    rows: Sequence[Row],
    played: Sequence[Played],
    *,
    swiss: bool = False,
    lines: Sequence[str] = (),
) -> str:
    """The standings and the crosstable as an HTML page (no script, no outside link)."""
    cross = crosstable(names, played)
    order = [r.player for r in rows]
    e = html.escape
    heads = [
        "#",
        _("player"),
        _("points"),
        _("games"),
        "+",
        "=",
        "-",
        *tiebreak_names(swiss),
        "Elo",
    ]
    heads += [str(i + 1) for i in range(len(order))]
    body = []
    for row in rows:
        cells = [
            str(row.rank),
            row.name,
            _half(row.points),
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            *(_half(t) if i < 2 else f"{t:g}" for i, t in enumerate(row.tiebreaks)),
            elo_text(row),
            *(cross[row.player][q] for q in order),
        ]
        body.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
    notes = "".join(f"<p>{e(line)}</p>" for line in lines)
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{e(title)}</title><style>"
        "body{font-family:sans-serif}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:2px 6px;text-align:center}"
        "td:nth-child(2){text-align:left}</style></head><body>"
        f"<h1>{e(title)}</h1>{notes}<table><tr>"
        + "".join(f"<th>{e(h)}</th>" for h in heads)
        + "</tr>"
        + "".join(body)
        + "</table></body></html>\n"
    )


__all__ = ["Row", "crosstable", "elo_text", "standings", "table_html", "table_text"]
