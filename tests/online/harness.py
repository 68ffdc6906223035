"""Two ends of an online game in one process: a host on 127.0.0.1 and a guest, each
with its own session, both on the test's loop.  Waits are for states, each bounded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from shashki.online.events import LinkEvent, PeerJoined, Synced
from shashki.online.guest import Guest, GuestLink
from shashki.online.host import Host, HostLink
from shashki.online.link import online_headers
from shashki.online.player import RemotePlayer
from shashki.online.protocol import new_code
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
