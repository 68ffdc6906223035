"""The computer opponent: search and evaluation for every variant.

Standard library only; it uses the rules engine through the move generator's protocol
(layer 3: imports only rules and records).

>>> from shashki.rules import Game
>>> from shashki.engine import ComputerPlayer
>>> move = ComputerPlayer(level=2, seed=1).think(Game("russian"))
>>> move in Game("russian").legal_moves()
True
"""

from ..rules.endrules import EndRules
from .evaluate import evaluator_for
from .player import LEVELS, ComputerPlayer, Level, describe_levels
from .search import Iteration, Search, SearchResult, score_text
from .solver import GoalTable, goal_table, solvable

__all__ = [
    "LEVELS",
    "ComputerPlayer",
    "EndRules",
    "GoalTable",
    "Iteration",
    "Level",
    "Search",
    "SearchResult",
    "describe_levels",
    "evaluator_for",
    "goal_table",
    "score_text",
    "solvable",
]
