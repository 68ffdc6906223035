"""The host's door: who may open a connection, for how long before the handshake, and how
many codes an address may try.

Every connection is counted from the moment it is accepted (below HTTP: a socket that
never says a word counts as well) until its key is confirmed:

- it has :data:`HANDSHAKE_SECONDS` to finish the handshake, or it is cut;
- at most :data:`PER_ADDRESS` connections of one address wait at a time (an IPv6
  address counts by its /64 network, which one machine usually has whole), and at most
  :data:`WAITING` in all: when all are taken, a connection of an address that holds
  fewer than the most crowded one still gets in — the oldest connection of the most
  crowded address is cut for it — so strangers at a few addresses cannot keep a friend
  at another one out;
- one handshake of an address at a time, and a few a minute (:data:`HANDSHAKE_BURST`,
  then one every :data:`HANDSHAKE_EVERY` seconds); SPAKE2's work is bounded in all too
  (:data:`PAKES_PER_SECOND`);
- each connection tries one code (SPAKE2 gives no way to try more); after
  :data:`WRONG_CODES` wrong codes in a row, an address waits :data:`PAUSE` seconds,
  twice as long after each further pause (up to :data:`LONGEST_PAUSE`), before it may try
  again.  A right code clears its address.  Nothing closes the room for good: strangers
  slow down only their own addresses, never the friend's.

Plain Python and asyncio (no aiohttp here): the host's web app asks it, and its site
tells it of every connection.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from ..base.door import address_key

#: Seconds from a connection's acceptance to its confirmed key (HTTP, WebSocket, SPAKE2).
HANDSHAKE_SECONDS = 10.0
#: Connections that may wait for their handshake, of one address and in all.
PER_ADDRESS = 4
WAITING = 32
#: Handshakes an address may start at once, then one every this many seconds.
HANDSHAKE_BURST = 6
HANDSHAKE_EVERY = 3.0
#: SPAKE2 runs the host makes a second (each costs some milliseconds of work).
PAKES_PER_SECOND = 20.0
#: Wrong codes in a row after which an address pauses, and the pauses.
WRONG_CODES = 5
PAUSE = 60.0
LONGEST_PAUSE = 3600.0
#: Addresses remembered (the least recently seen one is forgotten beyond).
REMEMBERED = 4096


@dataclass
class _Address:
    """What the gate knows of one address."""

    #: Its connections waiting for their handshake, oldest first.
    waiting: list[asyncio.BaseTransport] = field(default_factory=list)
    #: Handshakes it may start now (a bucket), and when that was counted.
    tokens: float = float(HANDSHAKE_BURST)
    at: float = 0.0
    #: A handshake of it is under way.
    guessing: bool = False
    #: Wrong codes in a row, pauses so far, the end of the pause under way.
    wrong: int = 0
    pauses: int = 0
    paused_until: float = 0.0


@dataclass(frozen=True)
class Refusal:
    """Why a handshake may not start: the ``refused`` code and its English line."""

    code: str
    line: str

    def wire(self) -> str:
        return f"{self.code}: {self.line}"


class Gate:
    """The caps and the lock-outs of one host (on its loop's thread only)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._addresses: OrderedDict[str, _Address] = OrderedDict()
        #: Connections waiting for their handshake: their address and their timer.
        self._waiting: dict[asyncio.BaseTransport, tuple[str, asyncio.TimerHandle | None]] = {}
        self._pakes = PAKES_PER_SECOND
        self._pakes_at = now()
        #: Connections cut or turned away (for the tests and the log).
        self.cut = 0

    def _address(self, key: str) -> _Address:
        entry = self._addresses.get(key)
        if entry is None:
            entry = _Address(at=self.now())
            self._addresses[key] = entry
            self._forget()
        else:
            self._addresses.move_to_end(key)
        return entry

    def _forget(self) -> None:
        """Forget the least recently seen addresses beyond :data:`REMEMBERED` (those with
        a connection waiting or a handshake under way are kept)."""
        for key in list(self._addresses):
            if len(self._addresses) <= REMEMBERED:
                return
            entry = self._addresses[key]
            if not entry.waiting and not entry.guessing:
                del self._addresses[key]

    # -- connections ---------------------------------------------------------------------

    @property
    def waiting(self) -> int:
        """Connections waiting for their handshake now."""
        return len(self._waiting)

    def opened(self, transport: asyncio.BaseTransport, peer: str | None) -> bool:
        """A connection was accepted: False when it is to be closed at once (its address
        has :data:`PER_ADDRESS` waiting already); may cut the oldest waiting connection
        of the most crowded address to make room."""
        key = address_key(peer)
        entry = self._address(key)
        if len(entry.waiting) >= PER_ADDRESS:
            self.cut += 1
            return False
        if len(self._waiting) >= WAITING:
            crowded = max(self._addresses.values(), key=lambda e: len(e.waiting))
            if len(crowded.waiting) <= len(entry.waiting):
                self.cut += 1
                return False
            self.drop(crowded.waiting[0])
        timer: asyncio.TimerHandle | None = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            timer = loop.call_later(HANDSHAKE_SECONDS, self.drop, transport)
        self._waiting[transport] = (key, timer)
        entry.waiting.append(transport)
        return True

    def drop(self, transport: asyncio.BaseTransport) -> None:
        """Cut a connection that waits for its handshake (its time is up, or its room
        is given to another address's)."""
        if transport in self._waiting:
            self.cut += 1
            self._forget_transport(transport)
            transport.abort() if isinstance(transport, asyncio.Transport) else transport.close()

    def admitted(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection's key is confirmed: it no longer counts as waiting."""
        if transport is not None:
            self._forget_transport(transport)

    def closed(self, transport: asyncio.BaseTransport) -> None:
        """The connection is over."""
        self._forget_transport(transport)

    def _forget_transport(self, transport: asyncio.BaseTransport) -> None:
        found = self._waiting.pop(transport, None)
        if found is None:
            return
        key, timer = found
        if timer is not None:
            timer.cancel()
        entry = self._addresses.get(key)
        if entry is not None and transport in entry.waiting:
            entry.waiting.remove(transport)

    def abort_all(self) -> None:
        """Cut every connection still waiting (the host stops)."""
        for transport in list(self._waiting):
            self.drop(transport)

    # -- handshakes and codes ----------------------------------------------------------------

    def may_guess(self, peer: str | None) -> Refusal | None:
        """Whether a handshake of ``peer`` may start now (None), else why not; when it may,
        it is counted as started (:meth:`guessed` ends it)."""
        key = address_key(peer)
        entry = self._address(key)
        now = self.now()
        if entry.paused_until > now:
            wait = int(entry.paused_until - now) + 1
            return Refusal("wait", f"too many wrong codes from this address: try again in {wait} s")
        if entry.guessing:
            return Refusal("busy", "a handshake of this address is under way")
        entry.tokens = min(
            float(HANDSHAKE_BURST), entry.tokens + max(0.0, now - entry.at) / HANDSHAKE_EVERY
        )
        entry.at = now
        gained = max(0.0, now - self._pakes_at) * PAKES_PER_SECOND
        self._pakes = min(PAKES_PER_SECOND, self._pakes + gained)
        self._pakes_at = now
        if entry.tokens < 1:
            return Refusal(
                "busy", "too many handshakes from this address: try again in a few seconds"
            )
        if self._pakes < 1:
            return Refusal("busy", "too many handshakes at once: try again in a few seconds")
        entry.tokens -= 1
        self._pakes -= 1
        entry.guessing = True
        return None

    def guessed(self, peer: str | None, right: bool | None) -> int:
        """The handshake of ``peer`` ended: with the right code (True), a wrong one
        (False), or none given (None: it was cut, or its messages could not be read).
        The wrong codes of that address in a row (0 after a right one)."""
        entry = self._address(address_key(peer))
        entry.guessing = False
        if right is True:
            entry.wrong = entry.pauses = 0
            entry.paused_until = 0.0
        elif right is False:
            entry.wrong += 1
            if entry.wrong >= WRONG_CODES:
                pause = min(LONGEST_PAUSE, PAUSE * 2**entry.pauses)
                entry.pauses += 1
                entry.paused_until = self.now() + pause
                wrong, entry.wrong = entry.wrong, 0
                return wrong
        return entry.wrong


__all__ = [
    "HANDSHAKE_SECONDS",
    "PER_ADDRESS",
    "WAITING",
    "WRONG_CODES",
    "Gate",
    "Refusal",
    "address_key",
]
