"""What an engine tournament is: its players, its format, its openings, its time, where
its games go — read from a TOML file (``shashki tournament event.toml``) or made from the
command line and written to one, so that the event can be run again (and resumed).

An event file::

    name = "Autumn cup"
    variant = "international"
    format = "round-robin"        # or "gauntlet" (the first player meets every other),
                                  # or "swiss" (rounds = N)
    openings = "ballot-2"         # a ballot shashki ships (ballot-2, ballot-3), or a file
                                  # of openings (PDN, or a FEN or moves a line), beside
                                  # this file; each opening is played with both colours
    openings_count = 4            # how many of them (default: all)
    time = 0.5                    # seconds a move; or clock = "1+0.5" (minutes +
                                  # increment), clock = "40/5" (40 moves in 5 minutes);
                                  # or depth = 6
    concurrency = 2               # games at once
    max_plies = 400               # a game this long is adjudicated a draw

    [[player]]
    name = "dame"                 # an engine of the settings, by its name
    [[player]]
    seat = "dxp:127.0.0.1:27531"  # a DXP engine listening there
    name = "Scan"
    [[player]]
    seat = "5"                    # shashki's level 5
    [[player]]
    seat = "7"
    depth = 6                     # this player held to a depth, whatever the time

A file names players, never runs a program: a player is a level, an engine of the
settings (its command is the settings', set up by the user) or a DXP address; a
``hub:COMMAND`` is taken only from the command line (``--player``).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..base.numbers import one_line, quoted
from ..base.userfiles import read_limited
from ..i18n import _
from ..records.clocks import BadTimeControl, TimeControl
from ..records.gametypes import DEFAULT_VARIANT
from ..rules import find_variant
from ..rules.errors import ShashkiError
from ..session.seats import Engines, LevelSeat, NamedEngineSeat, PersonSeat, parse_seat

#: The formats of an event.
FORMATS = ("round-robin", "gauntlet", "swiss")
#: The most players, games at once, rounds of a Swiss event, and bytes of an event file.
MAX_PLAYERS = 64
MAX_CONCURRENCY = 32
MAX_ROUNDS = 100
MAX_FILE = 256 * 1024


class EventError(ShashkiError):
    """An event that cannot be run: one line saying why."""


@dataclass(frozen=True)
class Entrant:
    """One player of the event: the ``name`` its games and tables give, and its ``seat``
    (words :func:`~shashki.session.seats.parse_seat` reads: ``5``, ``engine:NAME``,
    ``dxp:HOST:PORT``, or from the command line ``hub:COMMAND``)."""

    name: str
    seat: str
    #: A depth this player is held to, whatever the event's time (an engine's ladder).
    depth: int | None = None


@dataclass
class Event:
    """An engine tournament."""

    name: str
    variant: str
    entrants: list[Entrant]
    format: str = "round-robin"
    rounds: int = 0
    openings: str = ""
    openings_count: int = 0
    time: float | None = None
    clock: str = ""
    depth: int | None = None
    concurrency: int = 1
    max_plies: int = 400
    #: The folder of its games, tables and state.
    folder: Path = field(default_factory=lambda: Path("tournament"))
    #: The folder relative paths of the file are read from.
    base: Path = field(default_factory=Path.cwd)

    def control(self) -> TimeControl | None:
        return TimeControl.parse(self.clock) if self.clock else None

    def limit_text(self) -> str:
        """The time as the games' records say it (English)."""
        if self.clock:
            return f"clock {self.clock}"
        if self.depth is not None:
            return f"depth {self.depth}"
        return f"{self.time if self.time is not None else 0.5:g} s a move"

    def toml(self) -> str:
        """The event as a file that runs it again."""

        def text(value: str) -> str:
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'

        lines = [
            f"name = {text(self.name)}",
            f"variant = {text(self.variant)}",
            f"format = {text(self.format)}",
        ]
        if self.format == "swiss":
            lines.append(f"rounds = {self.rounds}")
        if self.openings:
            lines.append(f"openings = {text(self.openings)}")
        if self.openings_count:
            lines.append(f"openings_count = {self.openings_count}")
        if self.clock:
            lines.append(f"clock = {text(self.clock)}")
        elif self.depth is not None:
            lines.append(f"depth = {self.depth}")
        else:
            lines.append(f"time = {self.time if self.time is not None else 0.5:g}")
        lines += [f"concurrency = {self.concurrency}", f"max_plies = {self.max_plies}"]
        for entrant in self.entrants:
            lines += [
                "",
                "[[player]]",
                f"name = {text(entrant.name)}",
                f"seat = {text(entrant.seat)}",
            ]
            if entrant.depth is not None:
                lines.append(f"depth = {entrant.depth}")
        return "\n".join(lines) + "\n"


def _refuse(path: str, why: str) -> EventError:
    return EventError(_("{path}: {reason}").format(path=quoted(path, 80), reason=why))


def entrant(
    words: str, name: str = "", *, from_file: bool = False, engines: Engines = ()
) -> Entrant:
    """The entrant ``words`` seat (and ``name``), a name naming one of ``engines`` (the
    settings'); raises EventError.  Words from a file may name a DXP address (a game is
    asked for there; nothing is run)."""
    dxp = words.strip().lower().startswith("dxp:")
    seat = parse_seat(words, from_file=from_file and not dxp, engines=engines)
    if seat is None or isinstance(seat, PersonSeat):
        if from_file and words.strip().lower().startswith("hub:"):
            raise EventError(
                _(
                    "an event file names engines, it does not run commands: set {words} up "
                    "as an engine of the settings, or give it with --player"
                ).format(words=quoted(words, 60))
            )
        raise EventError(
            _(
                "a player is a level 1-8, an engine named in the settings, dxp:HOST:PORT "
                "or (on the command line) hub:COMMAND, not {words}"
            ).format(words=quoted(words, 60))
        )
    if not name:
        if isinstance(seat, LevelSeat):
            name = f"shashki {seat.level}"
        elif isinstance(seat, NamedEngineSeat):
            name = seat.name
        else:
            name = words.strip()
    return Entrant(one_line(name, 40), seat.word)


def check(event: Event) -> Event:
    """``event`` checked whole; raises EventError for the first thing wrong."""
    if event.format not in FORMATS:
        raise EventError(
            _("the format is one of {formats}, not {value}").format(
                formats=", ".join(FORMATS), value=quoted(event.format, 30)
            )
        )
    if not 2 <= len(event.entrants) <= MAX_PLAYERS:
        raise EventError(_("an event has 2 to {n} players").format(n=MAX_PLAYERS))
    names = [e.name.lower() for e in event.entrants]
    for name in names:
        if names.count(name) > 1:
            raise EventError(
                _("two players are called {name}: give one another name").format(
                    name=quoted(name, 40)
                )
            )
    try:
        find_variant(event.variant)
    except ShashkiError as exc:
        raise EventError(str(exc)) from None
    if event.format == "swiss" and not 1 <= event.rounds <= MAX_ROUNDS:
        raise EventError(_("a Swiss event has 1 to {n} rounds").format(n=MAX_ROUNDS))
    if not 1 <= event.concurrency <= MAX_CONCURRENCY:
        raise EventError(_("games at once: 1 to {n}").format(n=MAX_CONCURRENCY))
    if event.clock:
        try:
            event.control()
        except BadTimeControl as exc:
            raise EventError(str(exc)) from None
    if event.time is not None and not 0 < event.time <= 3600:
        raise EventError(_("the time a move is above 0 and at most 3600 seconds"))
    if event.depth is not None and not 1 <= event.depth <= 60:
        raise EventError(_("the depth is 1 to 60"))
    if not 10 <= event.max_plies <= 10_000:
        raise EventError(_("max_plies is 10 to 10000"))
    return event


_KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "variant": str,
    "format": str,
    "rounds": int,
    "openings": str,
    "openings_count": int,
    "time": (int, float),
    "clock": str,
    "depth": int,
    "concurrency": int,
    "max_plies": int,
    "folder": str,
    "player": list,
}


def read_event(path: str, *, engines: Engines = ()) -> Event:
    """The event of a TOML file (its players may name ``engines``, the settings', by
    name); raises EventError in one line."""
    try:
        data = read_limited(path, MAX_FILE)
    except OSError as exc:
        raise _refuse(path, str(getattr(exc, "strerror", None) or exc)) from None
    if len(data) > MAX_FILE:
        raise _refuse(path, _("longer than {n} bytes").format(n=MAX_FILE))
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _refuse(path, one_line(str(exc), 120)) from None
    for key, value in table.items():
        kind = _KEYS.get(key)
        if kind is None:
            raise _refuse(path, _("unknown key {key}").format(key=quoted(key, 30)))
        if not isinstance(value, kind) or isinstance(value, bool):
            raise _refuse(path, _("{key} has a value of the wrong kind").format(key=key))
    players: list[Entrant] = []
    for item in table.get("player", []):
        if not isinstance(item, dict) or set(item) - {"name", "seat", "depth"}:
            raise _refuse(path, _("a [[player]] has a name, a seat and a depth"))
        name, seat, depth = item.get("name", ""), item.get("seat", ""), item.get("depth")
        if not isinstance(name, str) or not isinstance(seat, str) or not (name or seat):
            raise _refuse(path, _("a [[player]] has a name, a seat and a depth"))
        if depth is not None and (type(depth) is not int or not 1 <= depth <= 60):
            raise _refuse(path, _("the depth is 1 to 60"))
        try:
            made = entrant(seat or name, name if seat else "", from_file=True, engines=engines)
        except EventError as exc:
            raise _refuse(path, str(exc)) from None
        players.append(Entrant(made.name, made.seat, depth))
    base = Path(path).resolve().parent
    stem = Path(path).stem
    folder = table.get("folder") or stem
    if not re.fullmatch(r"[\w.-]{1,80}", folder) or folder in (".", ".."):
        raise _refuse(
            path, _("the folder is a name, not a path: {value}").format(value=quoted(folder, 40))
        )
    event = Event(
        name=one_line(table.get("name") or stem, 80),
        variant=table.get("variant", DEFAULT_VARIANT),
        entrants=players,
        format=table.get("format", "round-robin"),
        rounds=table.get("rounds", 0),
        openings=table.get("openings", ""),
        openings_count=table.get("openings_count", 0),
        time=float(table["time"]) if "time" in table else None,
        clock=table.get("clock", ""),
        depth=table.get("depth"),
        concurrency=table.get("concurrency", 1),
        max_plies=table.get("max_plies", 400),
        folder=base / folder,
        base=base,
    )
    try:
        return check(event)
    except EventError as exc:
        raise _refuse(path, str(exc)) from None


def openings_path(event: Event) -> str:
    """The openings' file: a ballot shashki ships, or a path beside the event."""
    if not event.openings:
        return ""
    from .ballots import ballot_file

    shipped = ballot_file(event.variant, event.openings)
    if shipped is not None:
        return str(shipped)
    return os.path.join(event.base, event.openings)


__all__ = [
    "FORMATS",
    "Entrant",
    "Event",
    "EventError",
    "check",
    "entrant",
    "openings_path",
    "read_event",
]
