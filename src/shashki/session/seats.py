"""Who plays a side: the typed seat kinds, and the one parser of their words.

A seat is a :data:`Seat`: a person (:class:`PersonSeat`), shashki's computer at a level
1-8 (:class:`LevelSeat`), an engine of the user's settings by its name
(:class:`NamedEngineSeat`), a Hub engine started from a command (:class:`CommandSeat`)
or a DXP engine listening at an address (:class:`DxpSeat`).  Words — from the command
line, the new-game dialog, a file — are parsed once, by :func:`parse_seat`, where they
come in; from there on a seat is one of these, and :func:`shashki.hub.player.make_player`
(the one maker of players) seats the player it names.  A seat's :attr:`word` is its words
again (``human``, ``computer-N``, ``engine:NAME``, ``hub:COMMAND``, ``dxp:HOST:PORT``),
for a dialog's choice or an event file.

The engines of the user's settings a seat may name by name (:data:`Engines`) are passed
in by whoever parses or seats — the app its settings' ``engine_list``, a command the
settings file's (``read_engines``), an event's worker its job's — never kept here:
:func:`parse_seat` with no engines knows no named engine.

Words from a FILE (an autosave, a saved game, the settings, a replay taken over) go
through ``parse_seat(text, from_file=True)``, which never gives a :class:`CommandSeat`
nor a :class:`DxpSeat`: a file may name a program the user set up, never run one nor make
shashki connect anywhere.  Nor does any word in a served
app (``shashki serve``: a visitor at the keys, see :mod:`shashki.session.served`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..base.numbers import bounded_int
from ..store.settings import EngineSetting
from .served import served

#: The computer's levels are 1 to this (the engine's LEVELS; not imported at start-up).
TOP_LEVEL = 8

#: The engines of the user's settings a seat may name (the settings' ``engine_list``, in
#: their order; of two with one name, in any case, the first is meant).
Engines = Sequence[EngineSetting]


def find_engine(engines: Engines, name: str) -> EngineSetting | None:
    """The first of ``engines`` called ``name`` (in any case), or None."""
    wanted = name.lower()
    return next((engine for engine in engines if engine.name.lower() == wanted), None)


@dataclass(frozen=True)
class PersonSeat:
    """A person at this keyboard plays the side."""

    @property
    def word(self) -> str:
        return "human"


@dataclass(frozen=True)
class LevelSeat:
    """shashki's computer at ``level`` (1 to :data:`TOP_LEVEL`)."""

    level: int

    @property
    def word(self) -> str:
        return f"computer-{self.level}"


@dataclass(frozen=True)
class NamedEngineSeat:
    """An engine of the user's settings, by its ``name`` (its command is the settings')."""

    name: str

    @property
    def word(self) -> str:
        return f"engine:{self.name}"


@dataclass(frozen=True)
class CommandSeat:
    """A Hub engine started from ``command`` (typed by the user: never from a file)."""

    command: str

    @property
    def word(self) -> str:
        return f"hub:{self.command}"


@dataclass(frozen=True)
class DxpSeat:
    """A DXP engine listening at ``host``:``port`` (typed by the user: never from a file)."""

    host: str
    port: int

    @property
    def word(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"dxp:{host}:{self.port}"


#: Who plays a side.
Seat = PersonSeat | LevelSeat | NamedEngineSeat | CommandSeat | DxpSeat

#: A person's seat (the default of both sides).
PERSON = PersonSeat()


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


def engine_setting(seat: NamedEngineSeat, engines: Engines) -> EngineSetting | None:
    """The engine of ``engines`` (the settings') ``seat`` names, if they have it (still)."""
    return find_engine(engines, seat.name)


def parse_seat(text: str, *, from_file: bool = False, engines: Engines = ()) -> Seat | None:
    """The seat words name: ``person`` (or ``human``), a computer level (``5``,
    ``computer-5``), the name of one of ``engines`` (the settings': ``Dame``,
    ``engine:Dame``; with none given, no name is an engine), or — unless the words come
    ``from_file`` or the app is served to a browser — ``hub:COMMAND`` and
    ``dxp:HOST:PORT``; None if they are none of them (any text, of any length)."""
    word = text.strip()
    if word.lower().startswith("hub:"):
        command = word[4:].strip()
        return CommandSeat(command) if command and not from_file and not served() else None
    if word.lower().startswith("dxp:"):
        address = dxp_address(word[4:])
        if from_file or served() or address is None:
            return None
        return DxpSeat(*address)
    word = word.lower()
    if word in ("person", "human"):
        return PERSON
    word = word.removeprefix("engine:")
    engine = find_engine(engines, word)
    if engine is not None:
        return NamedEngineSeat(engine.name)
    word = word.removeprefix("computer-").removeprefix("computer")
    level = bounded_int(word, TOP_LEVEL)  # any text, of any length: a level or None
    if level is not None and level >= 1:
        return LevelSeat(level)
    return None


__all__ = [
    "PERSON",
    "TOP_LEVEL",
    "CommandSeat",
    "DxpSeat",
    "Engines",
    "LevelSeat",
    "NamedEngineSeat",
    "PersonSeat",
    "Seat",
    "dxp_address",
    "engine_setting",
    "find_engine",
    "parse_seat",
]
