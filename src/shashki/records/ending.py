"""How a recorded game ended: its ``Result`` and ``Termination`` tags read as an
:class:`~shashki.rules.Outcome`, so that a replay says it as the game screen did ("White
wins: Black ran out of time.") in the language spoken, not only "Result: 0-1".

A ``Termination`` tag is free text: shashki writes the ending in English ("White wins:
Black ran out of time."), PGN's convention writes ``time forfeit``, ``normal``,
``abandoned``…  A loss on time, a resignation, a game left (an online game claimed of a
player away) and a draw by agreement are recognised by their words (``time``,
``resign``, ``left the game`` or ``abandon``, ``agree``); anything else is left as written.

>>> from shashki.records import read_games_text
>>> record = next(iter(read_games_text(
...     '[GameType "25"]\\n[Result "0-1"]\\n[Termination "time forfeit"]\\n\\n1. c3-d4 0-1\\n')))
>>> record_outcome(record, record.end().replay()).describe(record.variant.side_names)
'Black wins: White ran out of time.'
"""

from __future__ import annotations

import re

from ..i18n import N_
from ..rules import Color, Game, Outcome
from ..rules.outcome import Termination
from .model import GameRecord

_TIME = re.compile(r"\btime\b", re.IGNORECASE)
_RESIGN = re.compile(r"\bresign", re.IGNORECASE)
_AGREED = re.compile(r"\bagree", re.IGNORECASE)
_LEFT = re.compile(r"\bleft the game\b|\babandon", re.IGNORECASE)

_WINNERS = {"1-0": Color.WHITE, "0-1": Color.BLACK, "2-0": Color.WHITE, "0-2": Color.BLACK}
_DRAWS = frozenset({"1/2-1/2", "1-1", "½-½"})


def record_outcome(record: GameRecord, final: Game) -> Outcome | None:
    """How the game of ``record`` ended, ``final`` being the position at the end of its
    main line: the rules' own end there (no move left, a draw rule…), else a loss on
    time, a resignation or an agreed draw that its tags say; None when they say nothing
    this function can read (a result alone, or a termination of other words)."""
    ended = final.outcome()
    if ended is not None:
        return ended
    result = (record.header("Result") or record.result or "").strip()
    if result in _DRAWS:
        winner: Color | None = None
    elif result in _WINNERS:
        winner = _WINNERS[result]
    else:
        return None
    said = record.header("Termination")[:200]
    names = final.variant.side_names
    if _TIME.search(said):
        # only the running clock runs out: the side to move at the end, when a draw
        # does not say whose it was
        loser = final.turn if winner is None else winner.other
        if winner is None:
            other = loser.other
            return Outcome(
                Termination.TIME_FORFEIT,
                None,
                f"{names[loser]} ran out of time, but {names[other]} cannot win",
                N_("{side} ran out of time, but {other} cannot win"),
                {"side": loser, "other": other},
            )
        return Outcome(
            Termination.TIME_FORFEIT,
            winner,
            f"{names[loser]} ran out of time",
            N_("{side} ran out of time"),
            {"side": loser},
        )
    if _RESIGN.search(said) and winner is not None:
        return Outcome(
            Termination.RESIGNATION,
            winner,
            f"{names[winner.other]} resigned",
            N_("{side} resigned"),
            {"side": winner.other},
        )
    if _LEFT.search(said) and winner is not None:
        return Outcome(
            Termination.ABANDONED,
            winner,
            f"{names[winner.other]} left the game",
            N_("{side} left the game"),
            {"side": winner.other},
        )
    if _AGREED.search(said) and winner is None:
        return Outcome(Termination.AGREED_DRAW, None, "by agreement", N_("by agreement"))
    return None


__all__ = ["record_outcome"]
