"""A server's door: the connections that have no request under way, bounded in time and
in number (``shashki serve``'s; the online host has its own gate for its handshake).

A connection is *idle* from its acceptance (below HTTP: a socket that never says a word
counts as well) until its first request arrives, and again from the end of an answer
until the next request (HTTP keep-alive).  An idle connection:

- is cut :attr:`Door.seconds` after it became idle: a request that does not come is
  not waited for;
- counts against a share: at most :attr:`Door.per_address` idle connections of one
  address (an IPv6 address counts by its /64 network, which one machine usually has
  whole) and :attr:`Door.most` in all.  A new idle connection always gets its place:
  when its address holds its share, that address's oldest idle connection is cut; when
  every place is taken, the oldest idle connection of the most crowded address is.  So
  a stranger's idle sockets push out only the stranger's own, strangers at a few
  addresses cannot keep anyone else out, and a connection that sends its request at
  once is never the one cut (it is idle for a moment only).

A connection carrying a request is not counted among the idle ones; its answer must be
taken within :attr:`Door.answer_seconds` (a peer that asks and never reads would hold
its connection for ever), unless the server says it has no end (a WebSocket's whole
life, bounded by its heartbeat).  Plain asyncio: :class:`DoorProtocol` wraps the
server's own protocol of each connection; the server says when a request comes
(:meth:`Door.busy`) and when its answer has been written (:meth:`Door.idle`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds an idle connection is kept (from its acceptance, or the end of an answer).
REQUEST_SECONDS = 10.0
#: Seconds from a request to its answer written whole (the page's largest file, half a
#: megabyte, over a slow line).
ANSWER_SECONDS = 120.0
#: Idle connections of one address (a browser opens six to a server), and in all.
PER_ADDRESS = 8
MOST = 64


def address_key(peer: str | None) -> str:
    """What a peer's address counts as: itself (IPv4), its /64 network (IPv6).

    >>> address_key("2001:db8::1"), address_key("::ffff:127.0.0.1"), address_key(None)
    ('2001:db8::/64', '127.0.0.1', '?')
    """
    if not peer:
        return "?"
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])
    except ValueError:
        return peer[:64]
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def peer_of(transport: asyncio.BaseTransport) -> str | None:
    """The address of a connection's peer, or None."""
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else None


@dataclass
class _Idle:
    """One idle connection: its address's key and the timer that cuts it."""

    key: str
    timer: asyncio.TimerHandle | None


class Door:
    """The idle connections of one server (on its loop's thread only)."""

    def __init__(
        self,
        *,
        seconds: float = REQUEST_SECONDS,
        per_address: int = PER_ADDRESS,
        most: int = MOST,
        answer_seconds: float = ANSWER_SECONDS,
    ) -> None:
        self.seconds = seconds
        self.answer_seconds = answer_seconds
        #: The connections whose answer is under way, and the timer that cuts each.
        self._answering: dict[asyncio.BaseTransport, asyncio.TimerHandle] = {}
        self.per_address = per_address
        self.most = most
        #: The idle connections, oldest first (a dict keeps its order).
        self._idle: dict[asyncio.BaseTransport, _Idle] = {}
        #: Connections cut (for the tests and the log).
        self.cut = 0

    @property
    def waiting(self) -> int:
        """Idle connections now."""
        return len(self._idle)

    def of(self, key: str) -> list[asyncio.BaseTransport]:
        """The idle connections of the address ``key``, oldest first."""
        return [t for t, idle in self._idle.items() if idle.key == key]

    def idle(self, transport: asyncio.BaseTransport | None) -> None:
        """``transport`` has no request under way (just accepted, or its answer written):
        counted, its timer started, and another idle connection cut if the shares say
        so."""
        if transport is None or transport.is_closing():
            return
        self.closed(transport)
        key = address_key(peer_of(transport))
        mine = self.of(key)
        if len(mine) >= self.per_address:
            self.drop(mine[0])
        elif len(self._idle) >= self.most:
            crowded: dict[str, list[asyncio.BaseTransport]] = {}
            for other, entry in self._idle.items():
                crowded.setdefault(entry.key, []).append(other)
            oldest = max(crowded.values(), key=len)[0]  # (the first of the most crowded)
            self.drop(oldest)
        timer: asyncio.TimerHandle | None = None
        try:
            timer = asyncio.get_running_loop().call_later(self.seconds, self.drop, transport)
        except RuntimeError:  # (no loop: counted without a timer)
            timer = None
        self._idle[transport] = _Idle(key, timer)

    def busy(self, transport: asyncio.BaseTransport | None, *, ends: bool = True) -> None:
        """A request of ``transport`` has come: no longer idle; its answer is to be
        written within :attr:`answer_seconds`, or it is cut (``ends=False``: an answer
        with no end, a WebSocket's)."""
        self.closed(transport)
        if transport is None or not ends:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no loop: no timer)
            return
        self._answering[transport] = loop.call_later(self.answer_seconds, self._too_slow, transport)

    def closed(self, transport: asyncio.BaseTransport | None) -> None:
        """``transport`` is forgotten (the connection is over, or changes state)."""
        if transport is None:
            return
        entry = self._idle.pop(transport, None)
        if entry is not None and entry.timer is not None:
            entry.timer.cancel()
        answer = self._answering.pop(transport, None)
        if answer is not None:
            answer.cancel()

    @property
    def answering(self) -> int:
        """Connections whose answer is under way with a deadline."""
        return len(self._answering)

    def _too_slow(self, transport: asyncio.BaseTransport) -> None:
        """An answer not taken in time: its connection is cut — shut down below the
        server, whose writing then fails and ends it as a lost connection (an abort in
        the middle of a file sent whole would trip asyncio's own bookkeeping)."""
        if self._answering.pop(transport, None) is None:
            return
        self.cut += 1
        sock = transport.get_extra_info("socket")
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            transport.abort() if isinstance(transport, asyncio.Transport) else transport.close()

    def drop(self, transport: asyncio.BaseTransport) -> None:
        """Cut an idle connection (its time is up, or its place is given to another)."""
        if transport not in self._idle:
            return
        self.closed(transport)
        self.cut += 1
        # (what an answer left to send is sent first; nothing else is waited for)
        if isinstance(transport, asyncio.WriteTransport) and transport.get_write_buffer_size():
            transport.close()
        elif isinstance(transport, asyncio.Transport):
            transport.abort()
        else:
            transport.close()

    def abort_all(self) -> None:
        """Cut every idle connection, and forget the answers under way (the server
        stops, and ends them)."""
        for transport in list(self._idle):
            self.drop(transport)
        for transport in list(self._answering):
            self.closed(transport)


class DoorProtocol(asyncio.Protocol):
    """A connection as the door sees it: idle from its acceptance; the rest is the
    server's own protocol's (``inner``)."""

    def __init__(self, inner: asyncio.Protocol, door: Door) -> None:
        self.inner = inner
        self.door = door
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.inner.connection_made(transport)
        self.door.idle(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.door.closed(self.transport)
        self.inner.connection_lost(exc)


def doors(factory: Callable[[], asyncio.Protocol], door: Door) -> Callable[[], DoorProtocol]:
    """A protocol factory for ``loop.create_server``: ``factory``'s protocols behind
    ``door``."""
    return lambda: DoorProtocol(factory(), door)


__all__ = [
    "ANSWER_SECONDS",
    "MOST",
    "PER_ADDRESS",
    "REQUEST_SECONDS",
    "Door",
    "DoorProtocol",
    "address_key",
    "doors",
]
