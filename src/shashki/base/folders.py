"""Where shashki keeps a user's files: the XDG base directories.

Standard library only, and outside every layer's package: the compiled build's loader
(:mod:`shashki.native`) reads the cache folder before the rules are imported.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

__all__ = ["user_folder"]

#: The XDG base directories: the variable that names each, and its default under ~.
_XDG = {
    "data": ("XDG_DATA_HOME", (".local", "share")),
    "config": ("XDG_CONFIG_HOME", (".config",)),
    "cache": ("XDG_CACHE_HOME", (".cache",)),
}


def user_folder(kind: Literal["data", "config", "cache"]) -> Path:
    """shashki's folder of the user's ``kind`` of files: ``$XDG_DATA_HOME/shashki``
    (default ``~/.local/share/shashki``), ``$XDG_CONFIG_HOME/shashki``
    (``~/.config/shashki``) or ``$XDG_CACHE_HOME/shashki`` (``~/.cache/shashki``).  A
    variable that is empty or not an absolute path is ignored, as the XDG Base Directory
    specification says."""
    variable, default = _XDG[kind]
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), *default)
    return Path(base) / "shashki"
