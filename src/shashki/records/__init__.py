"""Game records: PDN reading and writing, and saving that cannot lose a game.

:func:`read_games` streams the records of a PDN file (a path or a handle);
:func:`write_game` writes one back.  The modules, from the bottom up: ``tags`` (results,
tag lookup, move marks) and ``quoting``; ``lines`` (decoding, and one game's lines with
their places), ``movetext`` (move texts matched to legal moves), ``viewpoint`` (mirrored
squares) and ``gametypes`` (the variant and start a game's tags name); ``tokens`` (the
tokenizer), ``visitor``, ``fixtures`` (JSON lists of PDN texts); ``writer``, ``model``
(the record tree), ``reader``, ``guess`` (the variant of untagged games, from their moves).
What is kept on disk (saved games, autosaves, the archive, the settings) is
:mod:`shashki.store`'s.

>>> from shashki.records import read_games_text
>>> [game] = read_games_text('[GameType "25"]\\n1. c3-d4 f6-g5 *')
>>> game.variant.id, len(game.mainline_moves()), game.ok
('russian', 2, True)
"""

from ..rules.errors import BadPdnError
from .gametypes import PDN_GAMETYPES, variant_from_headers
from .guess import VariantGuess, guess_variant
from .model import GameNode, GameRecord
from .movetext import match_move
from .reader import (
    GameBuilder,
    HeadersScanner,
    PdnReader,
    iter_games,
    read_file,
    read_game,
    read_games,
    read_games_text,
    scan_headers,
)
from .tags import normalize_result
from .visitor import SKIP, Visitor
from .writer import PdnWriter, pdn_headers, write_game, write_games

__all__ = [
    "PDN_GAMETYPES",
    "SKIP",
    "BadPdnError",
    "GameBuilder",
    "GameNode",
    "GameRecord",
    "HeadersScanner",
    "PdnReader",
    "PdnWriter",
    "VariantGuess",
    "Visitor",
    "guess_variant",
    "iter_games",
    "match_move",
    "normalize_result",
    "pdn_headers",
    "read_file",
    "read_game",
    "read_games",
    "read_games_text",
    "scan_headers",
    "variant_from_headers",
    "write_game",
    "write_games",
]
