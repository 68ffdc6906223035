"""From the search's score to the expected score of a game, and a move judged by what it
lost: the arithmetic of the whole-game review (docs/REVIEW.md).

The expected score of the side to move (a win 1, a draw 1/2, a loss 0) is a logistic
curve of the search's score ``s`` in hundredths of a man::

    E(s) = 1 / (1 + exp(-s / k))

with one ``k`` for each kind of board, fitted by ``tools/fit_winprob.py`` from shashki's
own self-play games (the games' positions, each with the search's score and the game's
result for the side to move, by maximum likelihood) and kept in ``winprob.json`` beside
this module.  A move is judged by the drop of its player's expected score, from the
position before it (the best move's value) to the position after it:
:data:`INACCURACY` ``?!``, :data:`MISTAKE` ``?``, :data:`BLUNDER` ``??``.

>>> curve = Curve(150.0)
>>> round(curve.expected(0), 2), round(curve.expected(150), 2), curve.expected(WIN - 5)
(0.5, 0.73, 1.0)
>>> judge(0.62, 0.30)
'??'
>>> round(move_accuracy(0.0), 1), round(move_accuracy(0.3), 1)
(100.0, 24.8)
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..rules.variant import Variant
from .scores import WIN, WON

#: The drops of the expected score (0 to 1) that mark a move: ``?!``, ``?``, ``??``.
INACCURACY = 0.06
MISTAKE = 0.12
BLUNDER = 0.2
#: The marks, worst first, with the drop each needs.
MARKS = (("??", BLUNDER), ("?", MISTAKE), ("?!", INACCURACY))
#: The curve's ``k`` where ``winprob.json`` has none for a board (hundredths of a man).
DEFAULT_K = 180.0


@dataclass(frozen=True)
class Curve:
    """The expected score as a function of the search's score, for one kind of board."""

    k: float

    def expected(self, score: int) -> float:
        """The expected score (0 to 1) of the side whose score ``score`` is."""
        if score >= WON:
            return 1.0
        if score <= -WON:
            return 0.0
        return 1.0 / (1.0 + math.exp(-score / self.k))


def board_key(variant: Variant) -> str:
    """The kind of board a curve is fitted for: ``10x10``, ``8x8``, ``8x8-all`` (every
    square played)."""
    board = variant.board
    key = f"{board.width}x{board.height}"
    return f"{key}-all" if board.all_squares else key


@cache
def _table() -> dict[str, dict[str, float]]:
    text = resources.files(__package__).joinpath("winprob.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {str(key): dict(value) for key, value in data.get("boards", {}).items()}


def curve_for(variant: Variant) -> Curve:
    """The fitted curve of the variant's kind of board (a default one where none was)."""
    entry = _table().get(board_key(variant))
    k = float(entry["k"]) if entry and entry.get("k", 0) > 0 else DEFAULT_K
    return Curve(k)


def judge(before: float, after: float) -> str:
    """The mark of a move that took its player's expected score from ``before`` to
    ``after``: ``??``, ``?``, ``?!`` or ``""``."""
    drop = before - after
    for mark, least in MARKS:
        if drop >= least:
            return mark
    return ""


def move_accuracy(drop: float) -> float:
    """How accurate a move was, 0 to 100, from the drop of its player's expected score
    (0 to 1): 100 for none, falling steeply (lichess's curve, on its scale of 0 to 100)."""
    drop = max(0.0, drop) * 100
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def accuracy(drops: Sequence[float]) -> float | None:
    """A side's accuracy over a game, 0 to 100: the mean of the arithmetic and the
    harmonic mean of its moves' accuracies (the harmonic mean weighs the few bad moves
    that decided the game); None without moves."""
    if not drops:
        return None
    values = [move_accuracy(d) for d in drops]
    mean = sum(values) / len(values)
    harmonic = len(values) / sum(1.0 / max(v, 1.0) for v in values)
    return (mean + harmonic) / 2


def score_for(score: int, turn: int, side: int) -> int:
    """A score of the side to move (``turn``) as ``side``'s."""
    return score if turn == side else -score


__all__ = [
    "BLUNDER",
    "DEFAULT_K",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "WIN",
    "Curve",
    "accuracy",
    "board_key",
    "curve_for",
    "judge",
    "move_accuracy",
    "score_for",
]
