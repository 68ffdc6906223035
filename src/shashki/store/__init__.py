"""What shashki keeps on disk, above the records and below the session.

- :mod:`~shashki.store.storage`: saving a game so that a crash never costs the previous
  file; the data and games folders;
- :mod:`~shashki.store.autosaves`: one autosave per unfinished game, safe with several
  shashki processes at once;
- :mod:`~shashki.store.locks`: the lock each process holds on the games it has open;
- :mod:`~shashki.store.archive`: My games, every finished game kept;
- :mod:`~shashki.store.settings`: the user's settings.

Every file goes through :mod:`shashki.base` (opened safely, written without following a
link).
"""

from .autosaves import (
    AutosaveSlot,
    DamagedSave,
    GameLocked,
    LockOwner,
    Unfinished,
    autosave_dir,
    delete_unfinished,
)
from .autosaves import scan as scan_autosaves
from .storage import (
    SaveError,
    TargetExists,
    data_dir,
    free_name,
    games_dir,
    safe_stem,
    save_pdn,
)

__all__ = [
    "AutosaveSlot",
    "DamagedSave",
    "GameLocked",
    "LockOwner",
    "SaveError",
    "TargetExists",
    "Unfinished",
    "autosave_dir",
    "data_dir",
    "delete_unfinished",
    "free_name",
    "games_dir",
    "safe_stem",
    "save_pdn",
    "scan_autosaves",
]
