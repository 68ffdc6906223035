r"""Engines: shashki's own computer opponent, and other programs' engines over the Hub
protocol — python-chess's ``chess.engine`` for draughts.

Other engines: :func:`open_engine` starts one from its command (any Hub engine: dame-rs,
Scan, shashki's own ``shashki hub``) and :meth:`HubEngine.analyse` asks it about a
position within a :class:`Limit` (a time a move, a depth, a clock).  Every wait is
bounded, an engine that fails raises :class:`EngineError` (one line, its last words on
its standard error), and its traffic goes to the engine log when there is one
(``SHASHKI_ENGINE_LOG``, or ``log=``).  A game of a PDN file, analysed move by move:

>>> import io, sys
>>> import shashki
>>> from shashki.engine import Limit, open_engine
>>> pdn = io.StringIO('[GameType "25"]\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 *')
>>> record = next(shashki.read_games(pdn))
>>> game = record.start()
>>> with open_engine([sys.executable, "-m", "shashki", "hub"]) as engine:
...     for move in record.mainline_moves():
...         best = engine.analyse(game, Limit(depth=4))
...         played = game.push(move)
...         print(f"{played}: the engine says {best.move} ({best.score})")
c3-d4: the engine says ... (...)
f6-g5: the engine says ... (...)
b2-c3: the engine says ... (...)
g5-h4: the engine says ... (...)

shashki's own engine, in this process: :class:`ComputerPlayer` plays at one of the
:data:`LEVELS` (:class:`Level`: 1, a beginner, to 8, the strongest), :class:`Search` is
the search itself.  It uses the rules through the move generator's protocol and nothing
above them:

>>> from shashki.rules import Game
>>> from shashki.engine import ComputerPlayer
>>> move = ComputerPlayer(level=2, seed=1).think(Game("russian"))
>>> move in Game("russian").legal_moves()
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules.endrules import EndRules
    from .evaluate import evaluator_for
    from .hub.client import Analysis, EngineError, EngineLog, HubEngine, open_engine
    from .limits import Limit
    from .player import LEVELS, ComputerPlayer, Level, describe_levels
    from .search import Iteration, Search, SearchResult, score_text
    from .solver import GoalTable, goal_table, solvable

#: Where each name is defined: imported when first used, so that a module that needs one
#: part (the session its ``Limit``) does not load the search with it.
_PARTS = {
    "EndRules": "..rules.endrules",
    "evaluator_for": ".evaluate",
    **dict.fromkeys(
        ("Analysis", "EngineError", "EngineLog", "HubEngine", "open_engine"), ".hub.client"
    ),
    "Limit": ".limits",
    **dict.fromkeys(("LEVELS", "ComputerPlayer", "Level", "describe_levels"), ".player"),
    **dict.fromkeys(("Iteration", "Search", "SearchResult", "score_text"), ".search"),
    **dict.fromkeys(("GoalTable", "goal_table", "solvable"), ".solver"),
}


def __getattr__(name: str) -> Any:
    where = _PARTS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "LEVELS",
    "Analysis",
    "ComputerPlayer",
    "EndRules",
    "EngineError",
    "EngineLog",
    "GoalTable",
    "HubEngine",
    "Iteration",
    "Level",
    "Limit",
    "Search",
    "SearchResult",
    "describe_levels",
    "evaluator_for",
    "goal_table",
    "open_engine",
    "score_text",
    "solvable",
]
