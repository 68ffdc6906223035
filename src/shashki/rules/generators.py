"""The generators for what data cannot say, and the rule modifiers, by name.

A variant file names its generator family (``generator``, default ``standard``) and a
list of ``modifiers``; the variant's generator class is the family's generator with the
modifiers' mixins on top, so any modifier applies to any host game.
"""

from __future__ import annotations

from functools import cache

from .artamonov import ArtamonovGenerator
from .bashni import BashniGenerator
from .goals import GoalsMixin
from .kinglimit import KingMoveLimitMixin
from .modifiers import MODIFIERS
from .movegen import MoveGenerator

GENERATORS: dict[str, type[MoveGenerator]] = {
    "standard": MoveGenerator,
    "bashni": BashniGenerator,
    "artamonov": ArtamonovGenerator,
}


#: The order of the mixins, outermost first, whatever order a variant file lists them in:
#: a king on the board ends the game before anything moves (promotion-wins), the turn
#: structure (double-move) sees whole moves of the modifiers below it, a move of
#: an opponent's piece is made by the rules below it, and demotion puts back the kings
#: that self-capture's removal took away.
MIXIN_ORDER = ("promotion-wins", "double-move", "move-opponent", "demotion", "self-capture")


#: The generator families that know the same-king move limit (docs/rules/switches.md#king-limit):
#: pieces of two colours, a king on one square.
KING_LIMIT_FAMILIES = ("standard",)


@cache
def generator_class(
    family: str, modifiers: tuple[str, ...], goals: bool = False, king_limit: bool = False
) -> type[MoveGenerator]:
    """The generator class of a family with modifiers applied (in ``MIXIN_ORDER``), and
    for a variant with ``goals`` the goal rule outermost (no moves once one is reached);
    with ``king_limit`` the same-king move limit innermost (the modifiers see its moves).
    """
    base = GENERATORS[family]
    rank = {m: i for i, m in enumerate(MIXIN_ORDER)}
    ordered = sorted(modifiers, key=lambda m: rank.get(m, len(rank)))
    mixins = tuple(mixin for m in ordered if (mixin := MODIFIERS[m].mixin) is not None)
    if king_limit:
        mixins = (*mixins, KingMoveLimitMixin)
    if goals:
        mixins = (GoalsMixin, *mixins)
    if not mixins:
        return base
    name = "".join(m.__name__.replace("Mixin", "") for m in mixins) + base.__name__
    return type(name, (*mixins, base), {})


__all__ = ["GENERATORS", "KING_LIMIT_FAMILIES", "MODIFIERS", "generator_class"]
