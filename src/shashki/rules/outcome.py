"""How a game ended: a named termination, the winner, and the rule that decided it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from ..i18n import N_, _, agree, ngettext
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


def _pieces(kings: int, men: int) -> str:
    """ "2 kings and 1 man", in the language spoken now."""
    said = []
    if kings:
        said.append(ngettext("{n} king", "{n} kings", kings).format(n=kings))
    if men:
        said.append(ngettext("{n} man", "{n} men", men).format(n=men))
    if len(said) == 2:
        return _("{first} and {second}").format(first=said[0], second=said[1])
    return said[0] if said else ""


def _against(kings: int, men: int) -> str:
    """ "against 1 king", "against 1 king and 2 men" (the words after "against" take
    their own forms in some languages: each phrase is a message)."""
    if kings and men:
        return _("{against_kings} {and_men}").format(
            against_kings=ngettext("against {n} king", "against {n} kings", kings).format(n=kings),
            and_men=ngettext("and {n} man", "and {n} men", men).format(n=men),
        )
    if men:
        return ngettext("against {n} man", "against {n} men", men).format(n=men)
    return ngettext("against {n} king", "against {n} kings", kings).format(n=kings)


@dataclass(frozen=True)
class Material:
    """The material on the board when a draw rule of the material ended the game, said
    in the language spoken when it is shown: "2 kings against 1 king" (a rule that
    lists several balances is said by the one on the board, not by its whole list)."""

    #: (kings, men) of the stronger side, then of the weaker.
    strong: tuple[int, int]
    weak: tuple[int, int]
    #: The weaker side's lone king stands on the main road (the rule asks it).
    main_road: bool = False

    def __str__(self) -> str:
        said = f"{_pieces(*self.strong)} {_against(*self.weak)}"
        if self.main_road:
            said = _("{material} on the main road").format(material=said)
        return said

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


@dataclass(frozen=True)
class NoWinWithin:
    """ "no win within 5 moves" (a move is both sides', as players count), said in the
    language spoken when it is shown."""

    moves: int

    def __str__(self) -> str:
        n = self.moves
        return ngettext("no win within {n} move", "no win within {n} moves", n).format(n=n)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


#: How a draw of the material is said: the balance on the board, and the moves the rule
#: gave to win (a draw at once: the balance alone).
MATERIAL_DRAW = N_("{material}, {limit}")
MATERIAL_AT_ONCE = N_("{material} on the board")


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
