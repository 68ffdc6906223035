"""The engines the user set up in the settings (``settings.json``'s ``engines``), read
without the app: ``shashki play`` and ``shashki match`` seat them by name."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..base.userfiles import decode_text, read_limited, user_folder

#: A settings file is a few hundred bytes; anything much larger is not ours.
SETTINGS_LIMIT = 64 * 1024


def config_dir() -> Path:
    """shashki's settings folder: $XDG_CONFIG_HOME/shashki or ~/.config/shashki."""
    return user_folder("config")


@dataclass(frozen=True)
class EngineSetting:
    """An engine the user set up: a name to pick it by, its command, its folder."""

    name: str
    command: str
    folder: str = ""


def engines_valid(value: object) -> bool:
    """Whether the settings' ``engines`` value has the shape it must have."""
    return (
        isinstance(value, list)
        and len(value) <= 20
        and all(
            isinstance(e, dict)
            and set(e) <= {"name", "command", "folder"}
            and all(isinstance(x, str) and len(x) <= 1000 for x in e.values())
            for e in value
        )
    )


def engine_settings(raw: Sequence[object]) -> list[EngineSetting]:
    """The well-formed engines of the settings' ``engines`` list (others are skipped)."""
    out: list[EngineSetting] = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        name, command, folder = item.get("name"), item.get("command"), item.get("folder", "")
        if not (isinstance(name, str) and isinstance(command, str) and isinstance(folder, str)):
            continue
        if not (0 < len(name) <= 40 and name.isprintable() and 0 < len(command) <= 1000):
            continue
        try:
            if not shlex.split(command):
                continue
        except ValueError:  # (a command that cannot be split: an unclosed quote)
            continue
        out.append(EngineSetting(name.strip(), command, folder))
    return out


def read_engines(path: Path | None = None) -> list[EngineSetting]:
    """The engines of the settings file (``config_dir()/settings.json`` by default); a
    missing, unreadable or damaged file gives none, never an error."""
    path = path if path is not None else config_dir() / "settings.json"
    try:
        data = json.loads(decode_text(read_limited(path, SETTINGS_LIMIT)))
    except (OSError, ValueError, RecursionError):
        return []
    raw = data.get("engines") if isinstance(data, dict) else None
    return engine_settings(raw) if isinstance(raw, list) and engines_valid(raw) else []


__all__ = ["EngineSetting", "config_dir", "engine_settings", "engines_valid", "read_engines"]
