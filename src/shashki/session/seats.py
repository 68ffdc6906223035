"""The one parser of seat words: who plays a side, from the command line, the new-game
dialog, or a file.

A seat's kind is ``human``, ``computer-N`` (a level 1-8), ``engine:NAME`` (an engine of
the user's settings, by its name), ``hub:COMMAND`` (a Hub engine started from a
command) or ``dxp:HOST:PORT`` (a DXP engine listening there).  Words from a FILE (an
autosave, a saved game, the settings, a replay taken over) go through
``parse_seat(text, from_file=True)``, which never gives ``hub:COMMAND`` nor
``dxp:HOST:PORT``: a file may name a program the user set up, never run one nor make
shashki connect anywhere.  Nor does any word in a served
app (``shashki serve``: a visitor at the keys, see :mod:`shashki.session.served`).
"""

from __future__ import annotations

from ..base.numbers import bounded_int
from ..store.settings import EngineSetting
from .served import served

#: The computer's levels are 1 to this (the engine's LEVELS; not imported at start-up).
TOP_LEVEL = 8

#: The engines of the user's settings, by lower-case name (``set_engines``).
ENGINES: dict[str, EngineSetting] = {}


def set_engines(engines: list[EngineSetting]) -> None:
    """The engines the settings name: seats and the new-game dialog offer them."""
    ENGINES.clear()
    for engine in engines:
        ENGINES.setdefault(engine.name.lower(), engine)


def engine_setting(kind: str) -> EngineSetting | None:
    """The settings' engine an ``engine:NAME`` kind names, if the settings have it."""
    if not kind.startswith("engine:"):
        return None
    return ENGINES.get(kind[7:].lower())


def dxp_address(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (``[::1]:PORT`` for an IPv6 address) as (host, port), or None."""
    host, sep, port_text = text.strip().rpartition(":")
    port = bounded_int(port_text, 65535)
    if not sep or port is None or port < 1:
        return None
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or len(host) > 253 or any(c.isspace() or c in "/@\\[]" for c in host):
        return None
    return host, port


def parse_seat(text: str, *, from_file: bool = False) -> str | None:
    """A player kind from words: ``person`` (or ``human``), a computer level (``5``,
    ``computer-5``), the name of an engine of the settings (``Dame``, ``engine:Dame``),
    or — unless the words come ``from_file`` or the app is served to a browser —
    ``hub:COMMAND`` and ``dxp:HOST:PORT``; None if they are none of them (any text, of
    any length)."""
    word = text.strip()
    if word.lower().startswith("hub:"):
        command = word[4:].strip()
        return "hub:" + command if command and not from_file and not served() else None
    if word.lower().startswith("dxp:"):
        address = word[4:].strip()
        if from_file or served() or dxp_address(address) is None:
            return None
        return "dxp:" + address
    word = word.lower()
    if word in ("person", "human"):
        return "human"
    word = word.removeprefix("engine:")
    if word in ENGINES:
        return f"engine:{ENGINES[word].name}"
    word = word.removeprefix("computer-").removeprefix("computer")
    level = bounded_int(word, TOP_LEVEL)  # any text, of any length: a level or None
    if level is not None and level >= 1:
        return f"computer-{level}"
    return None


__all__ = [
    "ENGINES",
    "TOP_LEVEL",
    "dxp_address",
    "engine_setting",
    "parse_seat",
    "set_engines",
]
