"""The user's settings (``settings.json`` in the settings folder): one model, one reader.

:class:`Settings` is every setting with its default; :meth:`Settings.load` is the one
reader of the file (the app, ``shashki play`` and ``shashki match`` all read through it:
the last two for the engines the user set up, which they seat by name) and
:meth:`Settings.save` the one writer.  A file that is missing, damaged or hostile gives
the defaults for what it gets wrong, never an error: settings are a convenience.

The names some settings take (a piece set, a board theme, an undo policy) belong to the
front end that shows them: it gives them to :meth:`Settings.load` as ``choices``.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..base.logs import package_logger
from ..base.ownfiles import UnsafeFile, own_folder, replace_file
from ..base.userfiles import decode_text, read_limited, user_folder
from ..i18n import LANGUAGES

logger = package_logger(__name__)

#: A settings file is a few hundred bytes; anything much larger is not ours.
SETTINGS_LIMIT = 64 * 1024


def config_dir() -> Path:
    """shashki's settings folder: $XDG_CONFIG_HOME/shashki or ~/.config/shashki."""
    return user_folder("config")


def settings_path() -> Path:
    """The settings file: ``settings.json`` in :func:`config_dir`."""
    return config_dir() / "settings.json"


#: The names a front end gives some settings (``{"piece_set": ("unicode", …)}``): a value
#: read for such a setting must be one of them.
Choices = Mapping[str, Collection[str]]


@dataclass
class Settings:
    """Every setting of the user, with its default."""

    piece_set: str = "unicode"
    coords: bool = True
    #: Every square's number shown on it, pieces' squares included (the game's # key).
    numbers: bool = False
    board_theme: str = "classic"
    bell: bool = False
    #: The terminal's bell when the other side (the computer, an engine, the friend
    #: online) has moved: a player looking away hears it is their turn.
    move_bell: bool = True
    undo_policy: str = "free"
    autoflip: bool = False
    names: list[str] = field(default_factory=lambda: ["", ""])
    #: Hub engines to seat by name: {"name", "command", "folder"} each.
    engines: list[dict[str, str]] = field(default_factory=list)
    #: The clock of the last new game ("5+3"; "" for none), the dialog's next choice.
    clock: str = ""
    #: The language of the app ("en", "uk", "ru"; "" for the system's: the locale).
    language: str = ""
    #: The Hub engine command last typed in the new-game dialog (offered there again).
    engine_command: str = ""
    #: How deep a whole-game review searches: "quick", "normal" or "deep"
    #: (:data:`shashki.engine.review.DEPTHS`).
    review_depth: str = "normal"
    #: The variant of the last new game (its id): the menu highlights it.
    variant: str = ""

    @classmethod
    def load(cls, path: Path | None = None, *, choices: Choices | None = None) -> Settings:
        """The settings in ``path`` (by default :func:`settings_path`); a missing,
        unreadable or damaged file (not JSON, too deep, a special file, a value of the
        wrong type, out of range, or not among its ``choices``) gives the defaults for
        what it gets wrong, and never an error."""
        settings = cls()
        data: object = None
        where = path or settings_path()
        try:
            data = json.loads(decode_text(read_limited(where, SETTINGS_LIMIT)))
        except FileNotFoundError:
            data = None
        except (OSError, ValueError, RecursionError) as exc:
            # RecursionError: json's own reader on arrays nested thousands deep
            logger.warning("settings %s not read, the defaults used: %s", where, exc)
            data = None
        if data is not None and not isinstance(data, dict):
            logger.warning("settings %s: not a JSON object, the defaults used", where)
        if isinstance(data, dict):
            for name, value in data.items():
                if isinstance(name, str) and _valid_setting(name, value, choices or {}):
                    setattr(settings, name, list(value) if name in ("names", "engines") else value)
                else:
                    logger.warning(
                        "settings %s: %.40r left out (its value is not one)", where, name
                    )
        return settings

    def save(self, path: Path | None = None) -> str | None:
        """Write the settings to ``path`` (by default :func:`settings_path`; atomically,
        never through a link, never over another user's file); None when done, else why
        not in one line.  A failure never stops a game."""
        path = path or settings_path()
        try:
            own_folder(path.parent)  # shashki's config folder: a real folder, no link
            replace_file(path, json.dumps(asdict(self), indent=2).encode("utf-8"))
        except UnsafeFile as exc:
            return str(exc)
        except (OSError, ValueError) as exc:
            return " ".join(str(exc).split())
        return None

    @property
    def engine_list(self) -> list[EngineSetting]:
        """The well-formed engines of :attr:`engines`."""
        return engine_settings(self.engines)


def _short_name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 40 and value.isprintable()


#: What each setting may be: a predicate on the value read from the file.
_SETTING_CHECKS: dict[str, Callable[[object], bool]] = {
    "piece_set": _short_name,
    "coords": lambda v: isinstance(v, bool),
    "numbers": lambda v: isinstance(v, bool),
    "board_theme": _short_name,
    "bell": lambda v: isinstance(v, bool),
    "move_bell": lambda v: isinstance(v, bool),
    "undo_policy": _short_name,
    "autoflip": lambda v: isinstance(v, bool),
    "engines": lambda v: engines_valid(v),
    "clock": lambda v: isinstance(v, str) and len(v) <= 40 and v.isprintable(),
    "engine_command": lambda v: isinstance(v, str) and len(v) <= 1000 and v.isprintable(),
    "review_depth": lambda v: v in ("quick", "normal", "deep"),
    "variant": lambda v: isinstance(v, str) and len(v) <= 100 and v.isprintable(),
    "language": lambda v: isinstance(v, str) and (v == "" or v in LANGUAGES),
    "names": lambda v: (
        isinstance(v, list)
        and len(v) == 2
        and all(isinstance(n, str) and len(n) <= 200 and n.isprintable() for n in v)
    ),
}


def _valid_setting(name: str, value: object, choices: Choices) -> bool:
    check = _SETTING_CHECKS.get(name)
    if check is None or not check(value):
        return False
    allowed = choices.get(name)
    return allowed is None or value in allowed


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
    """The well-formed engines of the settings' ``engines`` list (others are skipped, and
    so is one a name before it already names, in any case: a name seats one engine)."""
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
        if any(e.name.lower() == name.strip().lower() for e in out):
            continue
        out.append(EngineSetting(name.strip(), command, folder))
    return out


def read_engines(path: Path | None = None) -> list[EngineSetting]:
    """The engines of the settings file (:func:`settings_path` by default); a missing,
    unreadable or damaged file gives none, never an error."""
    return Settings.load(path).engine_list


__all__ = [
    "Choices",
    "EngineSetting",
    "Settings",
    "config_dir",
    "engine_settings",
    "engines_valid",
    "read_engines",
    "settings_path",
]
