"""Game records: PDN reading and writing, and saving that cannot lose a game.

>>> from shashki.records import read_games_text
>>> [game] = read_games_text('[GameType "25"]\\n1. c3-d4 f6-g5 *')
>>> game.variant.id, len(game.mainline_moves()), game.ok
('russian', 2, True)
"""

from ..rules.errors import BadPdnError
from .model import GameNode, GameRecord, normalize_result
from .pdn import (
    PDN_GAMETYPES,
    SKIP,
    GameBuilder,
    HeadersScanner,
    PdnReader,
    PdnWriter,
    Visitor,
    iter_games,
    match_move,
    pdn_headers,
    read_file,
    read_game,
    read_games_text,
    scan_headers,
    variant_from_headers,
    write_game,
    write_games,
)
from .storage import (
    SaveError,
    autosave,
    autosave_path,
    clear_autosave,
    data_dir,
    load_autosave,
    save_pdn,
)

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
    "SaveError",
    "Visitor",
    "autosave",
    "autosave_path",
    "clear_autosave",
    "data_dir",
    "iter_games",
    "load_autosave",
    "match_move",
    "normalize_result",
    "pdn_headers",
    "read_file",
    "read_game",
    "read_games_text",
    "save_pdn",
    "scan_headers",
    "variant_from_headers",
    "write_game",
    "write_games",
]
