"""The generators for what data cannot say, and the rule modifiers, by name.

A variant file names its ``engine`` (default ``standard``) and a list of ``modifiers``;
the variant's generator class is the engine with the modifiers' mixins on top, so any
modifier applies to any host game.
"""

from __future__ import annotations

from functools import cache

from .modifiers import MODIFIERS
from .movegen import MoveGenerator

from .artamonov import ArtamonovGenerator
from .bashni import BashniGenerator

ENGINES: dict[str, type[MoveGenerator]] = {
    "standard": MoveGenerator,
    "bashni": BashniGenerator,
    "artamonov": ArtamonovGenerator,
}


@cache
def generator_class(engine: str, modifiers: tuple[str, ...]) -> type[MoveGenerator]:
    """The generator class of an engine with modifiers applied (first listed = outermost)."""
    base = ENGINES[engine]
    mixins = tuple(MODIFIERS[m].mixin for m in modifiers if MODIFIERS[m].mixin is not None)
    if not mixins:
        return base
    name = "".join(m.__name__.replace("Mixin", "") for m in mixins) + base.__name__
    return type(name, (*mixins, base), {})


__all__ = ["ENGINES", "MODIFIERS", "generator_class"]
