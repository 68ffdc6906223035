"""The Turkish strike: a capture stopped by the pieces it has taken.

Where captured pieces stay on the board until the capture ends (``removal =
"end-of-move"``, docs/rules/switches.md: Russian, International, Brazilian and most
diagonal games), a piece already jumped may be neither jumped again nor crossed, so a
capture may have to stop where it could have gone on had each piece left the board as it
was jumped.  Composers build combinations on it: the opponent's king is made to capture
into a place where its own victims stop it.  Where each piece leaves at once
(``"immediate"``: Turkish draughts) there is no such thing.

:func:`has_turkish_strike` says whether a variant has the rule (a switch of its rules,
never its name); :func:`stopped_by_captured` whether one capture was stopped by it.
"""

from __future__ import annotations

from dataclasses import replace

from .game import Game, game_state
from .move import Move
from .movegen import MoveGenerator
from .switches import PromotionInCapture, Removal
from .variant import Variant


def has_turkish_strike(variant: Variant) -> bool:
    """Whether captured pieces stay on the board until the capture ends in ``variant``
    (and its captures are the plain generator's, which :func:`stopped_by_captured`
    can look into)."""
    return (
        variant.rules.removal is Removal.END_OF_MOVE
        and variant.generator_class is MoveGenerator
        and bool(variant.rules.man_captures or variant.rules.king_captures)
    )


def stopped_by_captured(game: Game, move: Move) -> bool:
    """Whether ``move``, a capture legal in ``game``'s position, stopped only because
    pieces it had taken were still on the board: with them gone, the piece where it
    stopped (as the piece it was there: a man crowned only at the end of the capture
    counts as the man) could capture again.  False for a move that takes nothing and
    in a variant without the rule (:func:`has_turkish_strike`)."""
    variant = game.variant
    if not move.captured or not has_turkish_strike(variant):
        return False
    after = game.copy()
    after.push(move)
    w, b, k, turn, extra = game_state(after)
    end = 1 << move.end
    crowned = not (game_state(game)[2] & (1 << move.start)) and bool(k & end)
    if crowned and variant.rules.promotion_in_capture is not PromotionInCapture.CONTINUE_AS_KING:
        k &= ~end  # (it goes on, if it can, as the man it was)
    try:
        free = MoveGenerator(variant.board, replace(variant.rules, capture_precedence=()))
        captures = free.captures((w, b, k, turn ^ 1, extra))
    except (TypeError, ValueError, AttributeError):  # (rules the plain generator refuses)
        return False
    return any(m.start == move.end for m in captures)


__all__ = ["has_turkish_strike", "stopped_by_captured"]
