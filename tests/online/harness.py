"""Two ends of an online game in one process: a host on 127.0.0.1 and a guest, each
with its own session, both on the test's loop.  Waits are for states, each bounded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from shashki.online.events import LinkEvent, PeerJoined, Synced
from shashki.online.guest import Guest, GuestLink
from shashki.online.host import Host, HostLink
from shashki.online.link import online_headers
from shashki.online.player import RemotePlayer
from shashki.online.protocol import FRAME_LIMIT, Message, encode, new_code, parse, rules_digest
from shashki.online.seal import Pake, SealedLine, guest_line, host_line
from shashki.records.clocks import TimeControl
from shashki.rules import Color, Game, find_variant
from shashki.session import AsyncioExecutor, GameClock, GameSession, Person, UndoPolicy

from .. import waiting

#: Seconds any wait of these tests may take before it fails, saying what it waited for.
WAIT = 30.0


async def until(condition: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Let the loop run until ``condition()`` holds; fail saying ``what`` after ``timeout``
    (:func:`tests.waiting.until`, looking every 2 ms)."""
    await waiting.until(condition, what, timeout=timeout, step=0.002)


@dataclass
class Heard:
    """What a link told its front end."""

    events: list[LinkEvent] = field(default_factory=list)

    def __call__(self, event: LinkEvent) -> None:
        self.events.append(event)

    def saw(self, kind: type[LinkEvent]) -> bool:
        return any(isinstance(e, kind) for e in self.events)

    def of(self, kind: type[LinkEvent]) -> list[LinkEvent]:
        return [e for e in self.events if isinstance(e, kind)]

    def texts(self, kind: type[LinkEvent]) -> list[str]:
        return [e.text for e in self.of(kind)]


@dataclass
class Pair:
    host: Host
    link: HostLink
    heard: Heard
    address: str
    guest: Guest | None = None
    glink: GuestLink | None = None
    gheard: Heard = field(default_factory=Heard)
    reader: asyncio.Task[None] | None = None

    async def join(self, name: str = "Boris", code: str | None = None) -> GuestLink:
        guest = Guest(self.address, code or self.link.code, name)
        await guest.connect()
        link = guest.make_link()
        self.gheard = Heard()
        link.subscribe(self.gheard)
        self.guest, self.glink = guest, link
        self.reader = asyncio.create_task(guest.run())
        link.session.start(AsyncioExecutor())
        await until(lambda: self.gheard.saw(Synced), "the guest's first state")
        return link

    async def drop(self) -> None:
        """The guest's connection is cut (no goodbye)."""
        assert self.guest is not None and self.reader is not None
        await self.guest.close()
        await until(self.reader.done, "the guest's reader ending")
        await until(lambda: self.link.guest is None, "the host seeing the guest gone")

    async def close(self) -> None:
        if self.guest is not None:
            await self.guest.close()
        if self.reader is not None:
            await until(self.reader.done, "the guest's reader ending")
        await self.host.stop()


async def hosted(
    variant: str = "russian",
    *,
    clock: str | None = None,
    side: Color = Color.WHITE,
    takebacks: bool = True,
    now: Callable[[], float] = time.monotonic,
    seed: int | None = None,
) -> Pair:
    game = Game(find_variant(variant), seed=seed)
    remote = RemotePlayer("Guest")
    me = Person("Anna")
    players = (me, remote) if side is Color.WHITE else (remote, me)
    control = TimeControl.parse(clock) if clock else None
    session = GameSession(
        game,
        players,
        clock=GameClock(control, now=now) if control else None,
        undo_policy=UndoPolicy.ASK if takebacks else UndoPolicy.OFF,
        headers=online_headers("127.0.0.1"),
    )
    link = HostLink(session, side, remote, new_code(), name="Anna", now=now)
    heard = Heard()
    link.subscribe(heard)
    host = Host(link)
    port = await host.start("127.0.0.1", 0)
    link.address = f"127.0.0.1:{port}"
    session.base_headers = online_headers(link.address)
    session.start(AsyncioExecutor())  # (driven on the test's loop: a person's first turn waits)
    link.subscribe(lambda event: session.start_clock() if isinstance(event, PeerJoined) else None)
    return Pair(host, link, heard, link.address)


def play(session: GameSession, text: str) -> None:
    assert session.play(session.game.parse_move(text)), text


# -- hand-made peers: the handshake done with the code they are given, then any frame ----


class Raw:
    """A hand-made guest: it does the handshake (SPAKE2 with the code it is given), then
    sends whatever the test says, sealed with the line's key (or not)."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http, self.ws = http, ws
        self.line: SealedLine | None = None

    @classmethod
    async def open(cls, address: str, source: str | None = None) -> Raw:
        """A WebSocket to the host (from ``source``, an address of 127.0.0.0/8)."""
        connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source else None
        http = aiohttp.ClientSession(connector=connector)
        ws = await http.ws_connect(f"ws://{address}/ws", max_msg_size=FRAME_LIMIT * 2)
        return cls(http, ws)

    @classmethod
    async def joined(
        cls, address: str, code: str, name: str = "Mallory", source: str | None = None
    ) -> Raw:
        """A guest with the code, joined: its welcome and first state read."""
        raw = await cls.open(address, source)
        answer = await raw.handshake(code)
        assert answer.type == "confirm", answer
        await raw.send("join", name=name)
        welcome = await raw.read()
        assert welcome.type == "welcome", welcome
        await raw.read("state")
        return raw

    async def handshake(self, code: str) -> Message:
        """Prove ``code``: the host's last handshake message (its ``confirm``, or a
        ``refused``)."""
        pake = Pake(code)
        await self.ws.send_str(encode("pake", pake=pake.message.hex()))
        answer = await self.read_clear()
        if answer.type != "pake":
            return answer
        keys = pake.finish(bytes.fromhex(answer.get("pake")))
        await self.ws.send_str(encode("confirm", confirm=keys.guest_proof.hex()))
        answer = await self.read_clear()
        if answer.type == "confirm":
            assert bytes.fromhex(answer.get("confirm")) == keys.host_proof
            self.line = guest_line(keys)
        return answer

    async def send(self, type_: str, **fields: Any) -> None:
        await self.send_text(encode(type_, **fields))

    async def send_text(self, text: str) -> None:
        """``text`` sealed (clear before the handshake)."""
        if self.line is None:
            await self.ws.send_str(text)
        else:
            await self.ws.send_bytes(self.line.seal(text))

    async def read_clear(self) -> Message:
        frame = await asyncio.wait_for(self.ws.receive(), WAIT)
        assert frame.type is aiohttp.WSMsgType.TEXT, f"the connection ended: {frame}"
        return parse(frame.data)

    async def read(self, kind: str | None = None) -> Message:
        """The next sealed message (of ``kind``), within the wait's bound."""
        assert self.line is not None
        while True:
            frame = await asyncio.wait_for(self.ws.receive(), WAIT)
            assert frame.type is aiohttp.WSMsgType.BINARY, f"the connection ended: {frame}"
            message = parse(self.line.open(frame.data))
            if kind is None or message.type == kind:
                return message

    async def ended(self) -> bool:
        """Whether the host closed this connection (frames before the end are skipped)."""
        while True:
            frame = await asyncio.wait_for(self.ws.receive(), WAIT)
            if frame.type in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.CLOSING,
                aiohttp.WSMsgType.ERROR,
            ):
                return True

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()


class FakeHost:
    """A hand-made host: the handshake with its code, a welcome, then whatever the test
    sends (sealed)."""

    def __init__(self, code: str = "ABCD-EF", welcome: dict[str, Any] | None = None) -> None:
        self.code = code
        self.welcome = welcome
        self.ws: web.WebSocketResponse | None = None
        self.line: SealedLine | None = None
        self.joined = asyncio.Event()
        self.got: list[Message] = []
        self.runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        hello = parse((await ws.receive()).data)
        pake = Pake(self.code)
        keys = pake.finish(bytes.fromhex(hello.get("pake")))
        await ws.send_str(encode("pake", pake=pake.message.hex()))
        await ws.receive()  # (the guest's proof: taken as it is)
        await ws.send_str(encode("confirm", confirm=keys.host_proof.hex()))
        self.line = line = host_line(keys)
        self.got.append(parse(line.open((await ws.receive()).data)))  # the join
        await ws.send_bytes(line.seal(encode("welcome", **(self.welcome or welcome_of()))))
        await ws.send_bytes(line.seal(encode("state", moves=[], marks=[], left=[300, 300])))
        self.ws = ws
        self.joined.set()
        async for frame in ws:
            if frame.type is WSMsgType.BINARY:
                self.got.append(parse(line.open(frame.data)))
        return ws

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/ws", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        return f"127.0.0.1:{site.port}"

    async def send(self, type_: str, **fields: Any) -> None:
        await self.send_text(encode(type_, **fields))

    async def send_text(self, text: str) -> None:
        assert self.ws is not None and self.line is not None
        await self.ws.send_bytes(self.line.seal(text))


def welcome_of(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "variant": "russian",
        "rules": rules_digest(find_variant("russian")),
        "side": "black",
        "clock": "300+0",
        "takeback": True,
        "host": "Mallory",
        "site": "127.0.0.1:1",
        "game": "0123456789abcdef0123456789abcdef",
    }
    fields.update(changes)
    return fields
