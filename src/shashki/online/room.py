"""How an online game is gone on with after its process ended: the room kept in the
game's autosave.

An online game's autosave carries one more tag than its record, ``ShashkiOnline``,
written only into the autosave (never into a record saved, exported or kept in My
games, so that both sides' records stay the same): the host's room (its code, port,
how it listened, its side, whether takebacks are allowed) or the guest's way back
(the host's address, the code, its side, takebacks), and the game's identity, the same
on both sides for its whole life.  Resuming that autosave hosts the game again with the
same code, or joins it again.

The tag comes from a file, so it is read strictly and may only *name* things: a room
code of the code alphabet, a port number, a side, ``on``/``off``, 32 hex digits; an
address is checked as ``shashki join`` checks one.  It never widens what a game exposes: a room that
listened on every network (``--public``) listens again on this machine's own address
only (``--public`` must be asked for on the command line each time).  A tag that cannot
be read is ignored with one line, and the game goes on at this keyboard.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..records.clocks import record_clocks, time_control
from ..records.model import GameRecord
from ..rules import Color, Game
from ..session.clock import ClockReading, GameClock
from ..session.game import CLOCK_TAG, GameSession, UndoPolicy
from ..session.players import Person
from ..store import GameLocked, delete_unfinished, scan_autosaves
from .guest import JoinError, split_address
from .link import online_headers
from .player import RemotePlayer
from .protocol import CODE_LETTERS, MAX_NAME, clean, game_id

#: The autosave's tag of an online game (never in a record saved or kept).
TAG = "ShashkiOnline"

#: How a host listened: its own address on the network, 127.0.0.1, every network.
MODES = ("lan", "local", "public")


@dataclass(frozen=True)
class Room:
    """An online game's way back: ``hosting`` (this side hosted it) or joined."""

    hosting: bool
    code: str
    side: Color
    takebacks: bool
    #: The host's: its port and how it listened (``lan``, ``local``, ``public``).
    port: int = 0
    mode: str = "lan"
    #: The guest's: the host's address (``HOST:PORT``).
    address: str = ""
    #: The game's identity, the same on both sides (None: an older shashki's autosave).
    game: str | None = None

    def tag(self) -> str:
        side = "white" if self.side is Color.WHITE else "black"
        takebacks = "on" if self.takebacks else "off"
        game = f" {self.game}" if self.game else ""
        if self.hosting:
            return f"host {self.code} {self.port} {self.mode} {side} {takebacks}{game}"
        return f"join {self.address} {self.code} {side} {takebacks}{game}"


def plain_code(code: str) -> str:
    """A room code as one word (``K7WQ-M2``; any case, spaces and dashes given)."""
    letters = "".join(c for c in code.upper() if c.isalnum())
    return f"{letters[:4]}-{letters[4:]}" if len(letters) > 4 else letters


def _code(word: str) -> str | None:
    letters = word.replace("-", "")
    if len(letters) != 6 or any(c not in CODE_LETTERS for c in letters):
        return None
    return plain_code(letters)


def read_room(text: str) -> Room | None:
    """The room a ``ShashkiOnline`` tag names; None when it cannot be read (any word
    out of place: the tag is not trusted)."""
    words = text[:240].split()
    game = game_id(words[-1]) if words else None
    if game is not None:
        words.pop()
    if len(words) < 5:
        return None
    side = {"white": Color.WHITE, "black": Color.BLACK}.get(words[-2])
    takebacks = {"on": True, "off": False}.get(words[-1])
    if side is None or takebacks is None:
        return None
    if words[0] == "host" and len(words) == 6:
        code = _code(words[1])
        port = words[2]
        mode = words[3]
        if (
            code is None
            or not (port.isascii() and port.isdigit() and len(port) <= 5)
            or not 0 < int(port) < 65536
            or mode not in MODES
        ):
            return None
        return Room(True, code, side, takebacks, port=int(port), mode=mode, game=game)
    if words[0] == "join" and len(words) == 5:
        code = _code(words[2])
        if code is None:
            return None
        try:
            host, port_number = split_address(words[1])
        except JoinError:
            return None
        if not all(c.isascii() and (c.isalnum() or c in ".-:") for c in host):
            return None
        address = f"[{host}]:{port_number}" if ":" in host else f"{host}:{port_number}"
        return Room(False, code, side, takebacks, address=address, game=game)
    return None


def copies_of(game: str, keep: str | None = None) -> list[str]:
    """The keys of the autosaves of online game ``game`` (its identity) in the autosave
    folder, but ``keep``'s, that no live shashki has open: older copies of it (a process
    that died, a copy resumed and left)."""
    keys = []
    for entry in scan_autosaves().games:
        if entry.key == keep or entry.owner is not None or entry.record is None:
            continue
        room = read_room(entry.record.header(TAG))
        if room is not None and room.game == game:
            keys.append(entry.key)
    return keys


def forget_copies(game: str, keep: str | None = None) -> int:
    """Remove the older copies of online game ``game`` (:func:`copies_of`): one game has
    one autosave, so a copy left behind is never offered as unfinished, nor claimed.  How
    many were removed (a copy opened meanwhile by another shashki is left to it)."""
    removed = 0
    for key in copies_of(game, keep):
        try:
            delete_unfinished(key)
        except (GameLocked, OSError):  # (open elsewhere meanwhile, gone, unwritable)
            continue
        removed += 1
    return removed


def resumed_session(
    record: GameRecord,
    game: Game,
    room: Room,
    *,
    now: Callable[[], float] | None = None,
    wall: Callable[[], float] = time.time,
) -> tuple[GameSession, RemotePlayer]:
    """The session of an online game resumed from its autosave (``record``, replayed
    into ``game``): this side's person, the friend's seat, the record's own Event, Site
    and Date, and the clocks where they stand now: the referee's clock goes on across a
    crash, so the side to move is charged the time since the autosave's last reading
    (``wall``: the time of day), down to a flag fall; an autosave without a reading goes
    on from its last clock marks."""
    sides = ("White", "Black")
    mine = room.side
    theirs = Color(1 - mine)
    remote = RemotePlayer(
        clean(record.header(sides[theirs]), MAX_NAME) or game.variant.side_names[theirs],
        program=record.header(sides[theirs] + "Type") == "program",
    )
    me = Person(clean(record.header(sides[mine]), MAX_NAME) or game.variant.side_names[mine])
    players = (me, remote) if mine is Color.WHITE else (remote, me)
    control = time_control(record)
    clock = None
    marks: list[float | None] = []
    if control is not None:
        marks = list(record_clocks(record))
        movers = [side for side, _m in game.history()]
        clock = GameClock.resumed(control, marks, movers, **({"now": now} if now else {}))
        reading = ClockReading.read(record.header(CLOCK_TAG))
        if reading is not None:  # (the clock went on since: the side to move is charged)
            clock.set_left(*reading.left(wall()))
    headers = online_headers("")
    for tag in ("Event", "Site", "Date", "Round"):
        value = clean(record.header(tag), 80)
        if value:
            headers[tag] = value
    session = GameSession(
        game,
        (players[0], players[1]),
        clock=clock,
        clock_marks=marks if clock is not None else None,
        undo_policy=UndoPolicy.ASK if room.takebacks else UndoPolicy.OFF,
        headers=headers,
    )
    session.resume_tags[TAG] = room.tag()
    session.clock_goes_on = True
    return session, remote


__all__ = [
    "MODES",
    "TAG",
    "Room",
    "copies_of",
    "forget_copies",
    "plain_code",
    "read_room",
    "resumed_session",
]
