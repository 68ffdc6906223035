"""How a game ended: a named termination, the winner, and the rule that decided it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from ..i18n import _, agree
from .move import Color

if TYPE_CHECKING:
    from .variant import Variant


class Termination(Enum):
    """Why a game ended.  ``Outcome.rule`` names the exact rule of the variant."""

    #: The side to move has no legal move (no pieces, or every piece blocked).
    NO_LEGAL_MOVES = "no legal moves"
    #: A variant's goal was reached (the wolf on its target rank…).
    GOAL = "goal reached"
    #: The first king made won the game (the modifier ``promotion-wins``, Breakthrough).
    BREAKTHROUGH_KING = "first king"
    #: The same position occurred for the n-th time with the same side to move.
    REPETITION = "repetition"
    #: A move-count rule: n plies without the kind of move that makes progress.
    MOVE_LIMIT = "move limit"
    #: An endgame whose material did not change within the allowed number of moves.
    ENDGAME_LIMIT = "endgame move limit"
    #: A material balance that the variant declares drawn at once.
    MATERIAL = "drawn material"
    #: A variant's own tie-break decided the game.
    TIE_BREAK = "tie-break"
    RESIGNATION = "resignation"
    #: A player's clock ran out: a loss, or a draw when the other side has nothing left
    #: that could win (:meth:`Game.time_out <shashki.rules.Game.time_out>`).
    TIME_FORFEIT = "time forfeit"
    AGREED_DRAW = "agreed draw"
    #: A player left an online game and stayed away: the other side claimed it
    #: (:meth:`Game.abandon <shashki.rules.Game.abandon>`).
    ABANDONED = "abandoned"
    #: A player could not go on (an engine that stopped, hung or answered an illegal
    #: move) and the referee scored the game a loss for it
    #: (:meth:`Game.forfeit <shashki.rules.Game.forfeit>`: a match's policy).
    FORFEIT = "forfeit"
    #: The referee ended a game still going after a number of plies: a draw
    #: (:meth:`Game.adjudicate <shashki.rules.Game.adjudicate>`: a match's policy).
    ADJUDICATED = "adjudication"


#: The rules whose verb agrees with the side they name: each is translated once a kind of
#: name (:func:`~shashki.i18n.agree`: "білі здалися", "Південь здався").
_AGREEING = frozenset(("{side} resigned", "{side} made the first king", "{side} left the game"))


def _agreeing_messages(side: str) -> tuple[str, ...]:  # pragma: no cover - marks them
    return (
        agree("{side} resigned", side),
        agree("{side} made the first king", side),
        agree("{side} left the game", side),
    )


@dataclass(frozen=True)
class Outcome:
    """The end of a game.  ``winner`` is None for a draw."""

    termination: Termination
    winner: Color | None
    #: The variant's name for the rule that ended the game, e.g. "FMJD-64 7.2.5".
    rule: str = ""
    #: The rule as a message of the catalogs (``N_("{side} resigned")``), said in the
    #: language spoken when it is described; "" when ``rule`` is the variant's own text
    #: (a draw rule's or goal's name, translated by its file).
    message: str = field(default="", compare=False)
    #: The message's placeholders: a :class:`Color` is said as that side's name.
    params: Mapping[str, object] = field(default_factory=dict, compare=False)

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def result(self) -> str:
        """The PDN result: "1-0" (side 0 won), "0-1" or "1/2-1/2"."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.WHITE else "0-1"

    def describe(
        self, side_names: tuple[str, str] = ("White", "Black"), variant: Variant | None = None
    ) -> str:
        """A sentence for players: who won and by which rule.

        Without ``variant``, in English with ``side_names`` (game records, logs); with
        it, in the language spoken now, the sides and the rule named as the variant's
        file names them there."""
        if variant is None:
            reason = self.rule or self.termination.value
            if self.winner is None:
                return f"Draw: {reason}."
            return f"{side_names[self.winner]} wins: {reason}."
        names = (variant.local_side(0), variant.local_side(1))
        reason = self.local_rule(variant)
        if self.winner is None:
            return _("Draw: {reason}.").format(reason=reason)
        # "Перемога: Вівці" needs no verb to agree with a side's name
        return _("{side} wins: {reason}.").format(side=names[self.winner], reason=reason)

    def local_rule(self, variant: Variant) -> str:
        """The rule that ended the game, in the language spoken now."""
        if self.message:
            values = {
                key: variant.local_side(value) if isinstance(value, Color) else value
                for key, value in self.params.items()
            }
            side = values.get("side")
            if self.message in _AGREEING and isinstance(side, str):
                return agree(self.message, side).format(**values)
            return _(self.message).format(**values)
        return variant.local(self.rule or self.termination.value)
