"""Move texts as PDN files write them, matched to the legal moves of a game.

:func:`match_move` reads every form the variant's notation reads
(:meth:`~shashki.rules.Game.parse_move`), and the lenient forms of real files: squares
written without a separator (``a3b4``) and Russian short notation (``ed4``).  The
patterns of squares here are shared with the tokenizer.
"""

from __future__ import annotations

import re
from functools import cache

from ..rules import Game, Geometry, Move, ShashkiError
from ..rules.game import game_state
from ..rules.notation import parse_move, parse_short_move

SQ = r"(?:[a-l](?:1[0-2]|[1-9])|\d{1,3})"
ALG = r"[a-l](?:1[0-2]|[1-9])"
#: Squares in capitals ("C3-D4"), as some programs write them: read as the same squares.
SQ_UPPER = r"(?:[A-L](?:1[0-2]|[1-9])|\d{1,3})"
#: Anything shaped like a square, on a board or not: a letter (any but the capture mark
#: x) and a rank of one or two digits, or a number of up to three ("z9", "c0", "99").  A
#: token of such squares joined by separators ("z9-z8") has the shape of a move: it is
#: read as one, and refused with the square at fault when the board has no such square.
SQ_SHAPE = r"(?:[^\W\d_xX][0-9]{1,2}|[0-9]{1,3})"
_SHORT_MOVE = re.compile(r"[a-l][a-l](?:1[0-2]|[1-9])")
_GLUED_MOVE = re.compile(rf"(?:{ALG}){{2,}}")
ALG_SQUARE = re.compile(ALG)
_SIMPLE_MOVE = re.compile(rf"({SQ})[-x\u00d7:X]\s*({SQ})")
ANY_SQUARE = re.compile(SQ)


def match_move(game: Game, text: str) -> Move:
    """The one legal move of ``game`` that the move text names.

    Reads every form :meth:`~shashki.rules.Game.parse_move` reads, plus squares
    written without a separator (``a3b4``) and Russian short notation (``ed4``: the
    start file and the end square).  Raises NotationError, IllegalMoveError or
    AmbiguousMoveError.
    """
    return _match_in(game, text)


@cache
def _square_index(board: Geometry) -> dict[str, int]:
    """Every square of a board by its algebraic name and by its number."""
    index = {board.name(sq): sq for sq in board.squares}
    index.update({str(board.number(sq)): sq for sq in board.squares})
    return index


def _match_in(game: Game, text: str, only: list[Move] | None = None) -> Move:
    """The move that ``text`` names among ``only`` (by default every legal move of
    ``game``)."""
    legal = game.legal_moves() if only is None else only
    # Fast path for the usual two-square text that fits exactly one move; anything
    # else goes through the notation layer, which explains what is wrong.
    simple = _SIMPLE_MOVE.fullmatch(text)
    if simple is not None:
        index = _square_index(game.variant.board)
        start, end = index.get(simple.group(1)), index.get(simple.group(2))
        if start is not None and end is not None:
            found = [m for m in legal if m.path[0] == start and m.path[-1] == end]
            if len(found) == 1:
                return found[0]
    if _SHORT_MOVE.fullmatch(text):
        return parse_short_move(game.variant, text, legal)
    if _GLUED_MOVE.fullmatch(text):
        text = "-".join(ALG_SQUARE.findall(text))
    if only is None:
        return game.parse_move(text)
    # Some of the legal moves only: the notation layer, given just those.
    return parse_move(game.variant, text, only, game_state(game))


def matching_moves(game: Game, text: str) -> list[Move]:
    """Every legal move of ``game`` that the move text could name."""
    out = []
    for move in game.legal_moves():
        try:
            _match_in(game, text, [move])
        except ShashkiError:
            continue
        out.append(move)
    return out
