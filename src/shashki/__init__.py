"""shashki: draughts in all its forms — the rules of every variant, their notation and
game records, usable as a library the way python-chess is (no Textual is imported here:
the terminal app lives in :mod:`shashki.app`, the computer opponent and other programs'
engines in :mod:`shashki.engine`).

>>> import shashki
>>> game = shashki.Game("russian")
>>> game.move_text(game.push_text("c3-d4"))
'c3-d4'
>>> shashki.find_variant("dama").name
'Turkish draughts'

Importing shashki changes nothing outside it: no import hook, no garbage collector
switched off, no language set, no handler on the root logger (its loggers, under
``shashki``, say nothing unless the program that uses them configures logging).  The
names below are imported when first used.  The engine's compiled build
(:mod:`shashki.native`, made by ``shashki compile``) is used by the ``shashki`` command;
a script asks for it with :func:`shashki.native.use` before it uses the rules.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .records import GameNode, GameRecord, read_games, write_game, write_games
    from .rules import (
        AmbiguousMoveError,
        BadFenError,
        BadPdnError,
        Color,
        Game,
        IllegalMoveError,
        Kind,
        Move,
        NotationError,
        Outcome,
        Piece,
        Position,
        ShashkiError,
        Termination,
        UnknownVariantError,
        Variant,
        VariantFileError,
        all_variants,
        find_variant,
        load_variant_file,
    )

__version__ = "0.1.0"

# The library's own loggers say nothing unless the program configures logging (the
# standard library's advice for libraries): not even the last resort's warnings.
logging.getLogger(__name__).addHandler(logging.NullHandler())

#: Where each name of the surface is defined (imported when first used).
_SURFACE = {
    "GameNode": "records",
    "GameRecord": "records",
    "read_games": "records",
    "write_game": "records",
    "write_games": "records",
    **{
        name: "rules"
        for name in (
            "AmbiguousMoveError",
            "BadFenError",
            "BadPdnError",
            "Color",
            "Game",
            "IllegalMoveError",
            "Kind",
            "Move",
            "NotationError",
            "Outcome",
            "Piece",
            "Position",
            "ShashkiError",
            "Termination",
            "UnknownVariantError",
            "Variant",
            "VariantFileError",
            "all_variants",
            "find_variant",
            "load_variant_file",
        )
    },
}


def __getattr__(name: str) -> Any:
    where = _SURFACE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{where}", __name__), name)
    globals()[name] = value  # (found directly from now on)
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "AmbiguousMoveError",
    "BadFenError",
    "BadPdnError",
    "Color",
    "Game",
    "GameNode",
    "GameRecord",
    "IllegalMoveError",
    "Kind",
    "Move",
    "NotationError",
    "Outcome",
    "Piece",
    "Position",
    "ShashkiError",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "VariantFileError",
    "__version__",
    "all_variants",
    "find_variant",
    "load_variant_file",
    "read_games",
    "write_game",
    "write_games",
]
