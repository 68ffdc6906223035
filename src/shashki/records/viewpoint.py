"""From whose side a record names the squares: :func:`square_view` turns the move texts
of a record written from the first mover's side (PlayStrategy) round to shashki's board.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..rules import Variant
from ..rules.geometry import FILES
from .movetext import ALG, ALG_SQUARE
from .tags import header_value

_SHORT_TEXT = re.compile(rf"([a-l])({ALG})")


def same_text(text: str) -> str:
    """A move text as the record wrote it: the view of a record that names the squares
    as shashki does."""
    return text


def square_view(variant: Variant, headers: dict[str, str]) -> Callable[[str], str]:
    """How a game's move texts name squares: a function from the record's text to
    shashki's.

    Standard PDN names squares as the variant does.  PlayStrategy (tags ``P1``/``P2``,
    or its address in ``Site``) writes algebraic squares as seen by the first mover,
    from a1 at that player's left: for a game where Black moves first (English
    draughts) that is shashki's board turned round, so c3-d4 there is f6-e5 here.
    """
    site = header_value(headers, "Site").lower()
    first_mover_view = "playstrategy." in site or bool(
        header_value(headers, "P1") or header_value(headers, "P2")
    )
    if not first_mover_view or int(variant.rules.first) == 0:
        return same_text
    board = variant.board

    def turn_round(match: re.Match[str]) -> str:
        name = match.group()
        file = FILES.index(name[0])
        rank = int(name[1:])
        return f"{FILES[board.width - 1 - file]}{board.height + 1 - rank}"

    def view(text: str) -> str:
        short = _SHORT_TEXT.fullmatch(text)
        if short is not None:  # "ed4": the file turns round with the square
            square = ALG_SQUARE.sub(turn_round, short.group(2))
            return FILES[board.width - 1 - FILES.index(short.group(1))] + square
        return ALG_SQUARE.sub(turn_round, text)

    return view
