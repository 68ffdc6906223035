"""A puzzle's themes and difficulty, read from its solution (the solver's moves and the
replies) — nothing here names a variant: what a theme needs is what every variant's
moves say (captured squares, a crowning) and the pieces on the board.

- ``shot``: the solver gives a piece or more (a reply captures) and then takes more
  than it gave in one capture of two pieces or more — a combination;
- ``crown``: a breakthrough: one of the solver's men crowns;
- ``king``: the solver takes one of the opponent's kings;
- ``ending``: at most a third of the pieces of the start are on the board;
- ``quiet``: the first move captures nothing (the win starts with a quiet move);
- ``strike``: the Turkish strike, in the variants that have the rule
  (:func:`~shashki.rules.strike.has_turkish_strike`: captured pieces stay on the board
  until the capture ends): one of the opponent's captures is stopped by the pieces it
  has taken (:func:`~shashki.rules.strike.stopped_by_captured`), where it would have
  gone on had they left the board as they were jumped.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import N_, _, ngettext
from ..rules.game import Game
from ..rules.move import Move
from ..rules.strike import has_turkish_strike, stopped_by_captured
from ..rules.variant import Variant

#: Each theme's name, in the order they are listed.
THEMES: dict[str, str] = {
    "shot": N_("shot"),
    "crown": N_("breakthrough to crown"),
    "king": N_("king caught"),
    "ending": N_("ending"),
    "quiet": N_("quiet move"),
    "strike": N_("Turkish strike"),
}


def themes_for(variant: Variant) -> tuple[str, ...]:
    """The themes a puzzle of ``variant`` can have (the Turkish strike only where the
    rule is), in :data:`THEMES`' order."""
    return tuple(t for t in THEMES if t != "strike" or has_turkish_strike(variant))


def theme_name(theme: str) -> str:
    """A theme in the language spoken (an unknown one as it is written)."""
    return _(THEMES[theme]) if theme in THEMES else theme


def _walk(game: Game, line: Sequence[Move]) -> list[tuple[int, int, bool, bool]]:
    """For each move of the line: (who: 0 the solver, pieces captured, a king among
    them, a crowning)."""
    g = game.copy()
    out = []
    for ply, move in enumerate(line):
        kings = False
        for square in move.captured:
            piece = g.piece_at(square)
            kings = kings or bool(piece is not None and piece.is_king)
        out.append((ply % 2, len(move.captured), kings, bool(move.promotion)))
        g.push(move)
    return out


def turkish_strike(game: Game, line: Sequence[Move]) -> bool:
    """Whether one of the opponent's captures in the line is stopped by the pieces it
    has taken (see the module)."""
    if not has_turkish_strike(game.variant):
        return False
    g = game.copy()
    for ply, move in enumerate(line):
        if ply % 2 == 1 and move.captured and stopped_by_captured(g, move):
            return True
        g.push(move)
    return False


def shot_size(game: Game, line: Sequence[Move]) -> int:
    """The pieces of the solver's biggest capture after a piece was given, 0 when the
    line is no shot (see the module)."""
    given = taken = biggest = 0
    for who, captured, _kings, _crowned in _walk(game, line):
        if who == 1:
            given += captured
            continue
        taken += captured
        if given and captured >= 2:
            biggest = max(biggest, captured)
    return biggest if taken > given else 0


def themes_of(game: Game, line: Sequence[Move], score: int) -> tuple[str, ...]:
    """The themes of a solution (see the module), in :data:`THEMES`' order."""
    found: set[str] = set()
    walked = _walk(game, line)
    if shot_size(game, line):
        found.add("shot")
    for who, _captured, kings, crowned in walked:
        if who == 0 and crowned:
            found.add("crown")
        if who == 0 and kings:
            found.add("king")
    start = len(Game(game.variant).pieces())
    if start and 3 * len(game.pieces()) <= start:
        found.add("ending")
    if walked and walked[0][1] == 0:
        found.add("quiet")
    if turkish_strike(game, line):
        found.add("strike")
    del score  # (a won ending's score is a win: the ending theme says it)
    return tuple(t for t in THEMES if t in found)


def difficulty(game: Game, line: Sequence[Move]) -> int:
    """An estimate of the rating of a player who solves it half the time: longer
    solutions, pieces given and a quiet first move make it harder (a first guess, which
    the trainer's ratings correct)."""
    walked = _walk(game, line)
    solver_moves = sum(1 for w in walked if w[0] == 0)
    given = sum(w[1] for w in walked if w[0] == 1)
    quiet = bool(walked) and walked[0][1] == 0
    rating = 900 + 200 * (solver_moves - 1) + 120 * min(given, 4) + (150 if quiet else 0)
    return max(600, min(2600, rating))


def describe(game: Game, line: Sequence[Move], themes: Sequence[str]) -> str:
    """The themes in words, a shot with its size: "a shot of 3 pieces, ending"."""
    words = []
    for theme in themes:
        if theme == "shot":
            n = shot_size(game, line)
            words.append(ngettext("a shot of {n} piece", "a shot of {n} pieces", n).format(n=n))
        else:
            words.append(theme_name(theme))
    return ", ".join(words)


__all__ = [
    "THEMES",
    "describe",
    "difficulty",
    "shot_size",
    "theme_name",
    "themes_for",
    "themes_of",
    "turkish_strike",
]
