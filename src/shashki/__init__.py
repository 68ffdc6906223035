"""shashki: draughts in all its forms — the rules of every variant, their notation and
game records, usable as a library the way python-chess is (no Textual is imported here:
the terminal app lives in :mod:`shashki.app`, the computer opponent in
:mod:`shashki.engine`).

>>> import shashki
>>> game = shashki.Game("russian")
>>> game.move_text(game.push_text("c3-d4"))
'c3-d4'
>>> shashki.find_variant("dama").name
'Turkish draughts'
"""

from . import native

native.use()  # (the compiled build of the engine, when there is one of these sources)

from .records import GameNode, GameRecord, read_games, write_game, write_games  # noqa: E402
from .rules import (  # noqa: E402
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
