"""The rules engine: pure Python, standard library only.

>>> from shashki.rules import Game
>>> game = Game("international")
>>> game.perft(3)
658
"""

from .errors import (
    AmbiguousMoveError,
    BadFenError,
    BadPdnError,
    IllegalMoveError,
    NotationError,
    ShashkiError,
    UnknownVariantError,
    VariantFileError,
)
from .fen import format_fen, parse_fen
from .game import Game, perft_count
from .geometry import Direction, Geometry, geometry
from .move import Color, Kind, Move, Piece
from .outcome import Outcome, Termination
from .position import Position
from .switches import CaptureChoice, DrawRule, KingLanding, PromotionInCapture, Removal, Rules
from .variant import Variant
from .variant_registry import all_variants, find_variant, load_variant_file, registry

__all__ = [
    "AmbiguousMoveError",
    "BadFenError",
    "BadPdnError",
    "CaptureChoice",
    "Color",
    "Direction",
    "DrawRule",
    "Game",
    "Geometry",
    "IllegalMoveError",
    "Kind",
    "KingLanding",
    "Move",
    "NotationError",
    "Outcome",
    "Piece",
    "Position",
    "PromotionInCapture",
    "Removal",
    "Rules",
    "ShashkiError",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "VariantFileError",
    "all_variants",
    "find_variant",
    "format_fen",
    "geometry",
    "load_variant_file",
    "parse_fen",
    "perft_count",
    "registry",
]
