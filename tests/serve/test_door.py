"""``shashki serve``'s door, over real sockets on 127.0.0.0/8 (an address of that range is
another machine to the server; the server on port 0): a connection that sends no request
is cut at the deadline, a few idle ones of an address and some dozens in all are kept,
a newcomer pushes out the oldest idle one of the most crowded address, and a page asked
for is answered.  The rules of :class:`shashki.base.door.Door` are the same object's in
every test."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from shashki.base.door import PER_ADDRESS, Door
from shashki.serve import Addresses, make_server

from ..waiting import until
from .conftest import Serving

FRIEND = "127.0.0.2"
STRANGER = "127.0.0.3"
#: The longest a socket is waited for to be cut or answered.
WAIT = 60.0
#: A deadline no test reaches (a busy machine may take long to open many sockets).
LONG = 3600.0


@dataclass
class Served:
    """A server in this process, its door's rules the test's."""

    server: Any
    runner: Any
    port: int

    @property
    def door(self) -> Door:
        door: Door = self.server.door
        return door


async def _served(door: Door) -> Served:
    server = make_server(
        [sys.executable, "-c", "pass"], Addresses(0, public=False), visitors=1, join=False
    )
    server.door = door
    runner, port = await server.listen("127.0.0.1", 0)
    return Served(server, runner, port)


@pytest.fixture
async def served() -> AsyncIterator[Callable[[Door], Any]]:
    started: list[Served] = []

    async def start(door: Door) -> Served:
        started.append(await _served(door))
        return started[-1]

    yield start
    for one in started:
        await one.runner.cleanup()


async def idle(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A socket that connects and never says a word."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def cut(reader: asyncio.StreamReader) -> bool:
    """Whether the server closed the socket (it never answers an idle one)."""
    try:
        return await asyncio.wait_for(reader.read(1), WAIT) == b""
    except ConnectionError:
        return True


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def page(port: int, source: str, connection: Connection | None = None) -> bytes:
    """The status line of ``GET /`` asked from ``source`` (on ``connection``, kept alive,
    when given)."""
    reader, writer = connection or await idle(port, source)
    writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    status = await asyncio.wait_for(reader.readline(), WAIT)
    length = 0
    while (line := await asyncio.wait_for(reader.readline(), WAIT)) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)
    return status


async def test_a_connection_that_sends_no_request_is_cut_at_the_deadline(
    served: Callable[[Door], Any],
) -> None:
    one: Served = await served(Door(seconds=0.5))
    reader, writer = await idle(one.port, STRANGER)
    await until(lambda: one.door.waiting == 1, "the socket counted")
    assert await cut(reader)
    await until(lambda: one.door.waiting == 0, "the socket forgotten")
    # a request begun and never ended is no request: cut the same
    reader, slow = await idle(one.port, STRANGER)
    slow.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{one.port}\r\n".encode())
    assert await cut(reader)
    assert one.door.cut == 2
    writer.close()
    slow.close()


async def test_a_connection_is_idle_again_after_its_answer_and_keeps_serving(
    served: Callable[[Door], Any],
) -> None:
    one: Served = await served(Door(seconds=LONG))
    friend = await idle(one.port, FRIEND)
    await until(lambda: one.door.waiting == 1, "counted from its acceptance")
    assert (await page(one.port, FRIEND, friend)).startswith(b"HTTP/1.1 200")
    await until(lambda: one.door.waiting == 1, "idle again once answered")
    assert (await page(one.port, FRIEND, friend)).startswith(b"HTTP/1.1 200")  # (kept alive)
    friend[1].close()
    await until(lambda: one.door.waiting == 0, "forgotten when it closes")
    assert one.door.cut == 0 and one.door.answering == 0


async def test_an_address_keeps_a_few_idle_sockets_newcomers_push_out_its_oldest(
    served: Callable[[Door], Any],
) -> None:
    one: Served = await served(Door(seconds=LONG))
    held = [await idle(one.port, STRANGER) for _ in range(PER_ADDRESS + 20)]
    for reader, _writer in held[:20]:
        assert await cut(reader)
    await until(lambda: one.door.waiting == PER_ADDRESS, "the address at its share")
    assert len(one.door.of(STRANGER)) == PER_ADDRESS
    assert (await page(one.port, FRIEND)).startswith(b"HTTP/1.1 200")  # the friend elsewhere
    assert (await page(one.port, STRANGER)).startswith(b"HTTP/1.1 200")  # a request: served
    for _reader, writer in held:
        writer.close()


async def test_when_every_place_is_taken_a_newcomer_of_another_address_gets_in(
    served: Callable[[Door], Any],
) -> None:
    one: Served = await served(Door(seconds=LONG, per_address=4, most=8))
    crowd = [await idle(one.port, f"127.0.1.{n}") for n in (1, 2) for _ in range(4)]
    await until(lambda: one.door.waiting == 8, "every place taken")
    friend = await idle(one.port, FRIEND)
    assert await cut(crowd[0][0])  # the oldest of a most crowded address made room
    await until(lambda: len(one.door.of(FRIEND)) == 1, "the newcomer counted")
    assert one.door.waiting == 8
    assert (await page(one.port, FRIEND, friend)).startswith(b"HTTP/1.1 200")
    for _reader, writer in [*crowd, friend]:
        writer.close()


async def test_an_answer_never_taken_cuts_its_connection(served: Callable[[Door], Any]) -> None:
    """A peer that asks for the page's largest file again and again and never reads
    would hold its connection (and the server's buffers) for ever once the system's
    buffers are full: cut when an answer is not written whole in time."""
    one: Served = await served(Door(seconds=LONG, answer_seconds=0.5))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # (the answer cannot pass)
    sock.bind((STRANGER, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", one.port))
    request = f"GET /static/js/textual.js HTTP/1.1\r\nHost: 127.0.0.1:{one.port}\r\n\r\n"
    await asyncio.get_running_loop().sock_sendall(sock, 20 * request.encode())  # (10 MB)
    await until(lambda: one.door.cut == 1, "the connection cut")
    await until(lambda: not one.runner.server.connections, "the connection gone")
    assert one.door.answering == 0 and one.door.waiting == 0
    sock.close()


async def test_the_serve_command_has_the_door(serve: Callable[..., Serving]) -> None:
    """``shashki serve`` itself: the oldest idle sockets of an address beyond its share
    are cut at once (not at any deadline), and the page is answered beside them."""
    server = serve()
    server.ready()
    held = [await idle(server.port, STRANGER) for _ in range(PER_ADDRESS + 3)]
    for reader, _writer in held[:3]:
        assert await cut(reader)
    assert (await page(server.port, FRIEND)).startswith(b"HTTP/1.1 200")
    for _reader, writer in held:
        writer.close()
