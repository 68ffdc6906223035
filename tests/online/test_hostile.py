"""Hostile peers: each case is refused in one line, the game goes on, nothing a peer
sends reaches a file, a program or the terminal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from shashki.online.events import ChatLine, Info, Refused, Synced
from shashki.online.guest import Guest, JoinError, read_welcome
from shashki.online.protocol import (
    FRAME_LIMIT,
    MAX_MESSAGE,
    MAX_WRONG_CODES,
    Message,
    encode,
    parse,
    rules_digest,
)
from shashki.rules import Color, find_variant

from .harness import Heard, Pair, hosted, play, until


class Raw:
    """A hand-made guest: any frame at all."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http, self.ws = http, ws

    @classmethod
    async def open(cls, address: str) -> Raw:
        http = aiohttp.ClientSession()
        ws = await http.ws_connect(f"ws://{address}/ws", max_msg_size=FRAME_LIMIT * 2)
        return cls(http, ws)

    async def send(self, type_: str, **fields: Any) -> None:
        await self.ws.send_str(encode(type_, **fields))

    async def read(self, kind: str | None = None) -> Message:
        """The next message (of ``kind``), within the wait's bound."""
        while True:
            frame = await asyncio.wait_for(self.ws.receive(), 30)
            assert frame.type is aiohttp.WSMsgType.TEXT, f"the connection ended: {frame}"
            message = parse(frame.data)
            if kind is None or message.type == kind:
                return message

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    pair = await hosted(clock="5+0")
    yield pair
    await pair.close()


async def joined(pair: Pair, name: str = "Mallory") -> Raw:
    raw = await Raw.open(pair.address)
    await raw.send("join", code=pair.link.code, name=name)
    welcome = await raw.read()
    assert welcome.type == "welcome", welcome
    await raw.read("state")
    return raw


def refusals(pair: Pair) -> list[str]:
    return pair.heard.texts(Refused)


async def refused(pair: Pair, count: int, what: str) -> str:
    await until(lambda: len(refusals(pair)) >= count, what)
    line = refusals(pair)[count - 1]
    assert "\n" not in line and "\x1b" not in line
    return line


# -- a hostile guest ---------------------------------------------------------------------


async def test_a_wrong_code_is_refused(pair: Pair) -> None:
    raw = await Raw.open(pair.address)
    await raw.send("join", code="AAAA-AA", name="Mallory")
    answer = await raw.read()
    assert answer.type == "refused" and "wrong room code" in answer.get("text")
    assert "wrong room code" in await refused(pair, 1, "the refusal")
    await raw.close()
    assert pair.link.accepting and not pair.link.joined


async def test_after_n_wrong_codes_nobody_is_taken(pair: Pair) -> None:
    for _ in range(MAX_WRONG_CODES):
        raw = await Raw.open(pair.address)
        await raw.send("join", code="AAAA-AA")
        assert (await raw.read()).type == "refused"
        await raw.close()
    await until(lambda: not pair.link.accepting, "the host closing its door")
    assert "no more guests" in pair.heard.texts(Info)[-1]
    with pytest.raises(JoinError, match="no more guests"):
        await Guest(pair.address, pair.link.code, "Boris").connect()


async def test_a_second_guest_is_refused_and_the_first_plays_on(pair: Pair) -> None:
    first = await pair.join("Boris")
    with pytest.raises(JoinError, match="already"):
        await Guest(pair.address, pair.link.code, "Eve").connect()
    assert "second guest" in await refused(pair, 1, "the refusal")
    play(pair.link.session, "c3-d4")
    await until(lambda: len(first.session.game.move_stack) == 1, "the game going on")


async def test_a_first_message_that_is_not_a_join_is_refused(pair: Pair) -> None:
    raw = await Raw.open(pair.address)
    await raw.send("move", ply=0, move="c3-d4")
    assert (await raw.read()).type == "refused"
    await raw.close()
    assert pair.link.session.game.move_stack == []
    assert "first message must be a join" in pair.link.log[-1]


async def test_connections_that_do_not_say_a_code_are_few_at_a_time(pair: Pair) -> None:
    from shashki.online.host import MAX_KNOCKING

    waiting = [await Raw.open(pair.address) for _ in range(MAX_KNOCKING)]
    await until(lambda: pair.link._knocking == MAX_KNOCKING, "the connections waiting")
    extra = await Raw.open(pair.address)
    answer = await extra.read()
    assert answer.type == "refused" and "too many" in answer.get("text")
    for raw in [*waiting, extra]:
        await raw.close()
    await until(lambda: pair.link._knocking == 0, "the waiting connections gone")
    guest = await pair.join("Boris")  # the holder of the code still gets in
    assert guest.session.players[1].name == "Boris"


async def test_garbage_truncated_and_oversized_messages_are_refused_the_game_goes_on(
    pair: Pair,
) -> None:
    raw = await joined(pair)
    host = pair.link.session
    await raw.ws.send_str("garbage")
    await raw.ws.send_str('{"v": 1, "t": "move", "ply": 0, "mo')
    await raw.ws.send_str(json.dumps({"v": 1, "t": "chat", "text": "x" * (MAX_MESSAGE + 10)}))
    await raw.ws.send_bytes(b"\x00" * 100)
    await refused(pair, 4, "four refusals")
    lines = refusals(pair)
    assert "not JSON" in lines[0] and "not JSON" in lines[1]
    assert "too long" in lines[2] and "binary" in lines[3]
    play(host, "c3-d4")
    moved = await raw.read("moved")
    assert moved.get("move") == "c3-d4"
    await raw.send("move", ply=1, move="f6-g5")
    await until(lambda: len(host.game.move_stack) == 2, "the game going on")
    await raw.close()


async def test_a_frame_past_the_limit_ends_that_connection_only(pair: Pair) -> None:
    raw = await joined(pair)
    await raw.ws.send_str("x" * (FRAME_LIMIT + 10))
    await until(lambda: pair.link.guest is None, "the host dropping that connection")
    await raw.close()
    again = await pair.join("Boris")  # the holder of the code comes back
    play(pair.link.session, "c3-d4")
    await until(lambda: len(again.session.game.move_stack) == 1, "the game going on")


async def test_a_flood_is_cut_and_memory_stays_bounded(pair: Pair) -> None:
    raw = await joined(pair)
    for _ in range(600):
        await raw.send("chat", text="spam")
    await until(lambda: pair.link.guest is None, "the flooding guest let go")
    lines = refusals(pair)
    assert any("too many messages" in line for line in lines)
    assert any("flooded" in line for line in lines)
    assert len(pair.heard.texts(ChatLine)) < 100
    assert len(pair.link.log) <= pair.link.log.maxlen  # type: ignore[operator]
    await raw.close()
    assert pair.link.session.outcome is None


async def test_moves_out_of_turn_illegal_or_for_another_ply_are_refused(pair: Pair) -> None:
    raw = await joined(pair)
    host = pair.link.session
    await raw.send("move", ply=0, move="f6-g5")  # white is to move: not the guest's turn
    assert "not the guest's turn" in await refused(pair, 1, "a move out of turn")
    assert (await raw.read("state")).get("moves") == []  # (the guest's copy set right)
    play(host, "c3-d4")
    await raw.send("move", ply=0, move="f6-g5")
    assert "ply 0" in await refused(pair, 2, "a move for another ply")
    await raw.send("move", ply=1, move="f6-e3")
    assert "refused" in await refused(pair, 3, "an illegal move")
    await raw.send("move", ply=1, move="\x1b[2J" + "a" * 150)
    line = await refused(pair, 4, "a move of escapes")
    assert "\x1b" not in line
    assert len(host.game.move_stack) == 1
    await raw.send("move", ply=1, move="f6-g5")
    await until(lambda: len(host.game.move_stack) == 2, "the legal move played")
    await raw.close()


async def test_an_impossible_clock_claim_is_refused_the_host_keeps_the_clock(pair: Pair) -> None:
    raw = await joined(pair)
    host = pair.link.session
    play(host, "c3-d4")
    await raw.send("move", ply=1, move="f6-g5", left=9999.0)
    assert "clock claim refused" in await refused(pair, 1, "the clock claim")
    await until(lambda: len(host.game.move_stack) == 2, "the move played on the host's clock")
    assert host.clock is not None and host.clock.left(Color.BLACK) <= 300
    await raw.close()


async def test_names_and_chat_with_escapes_reach_the_host_clean(pair: Pair) -> None:
    raw = await joined(pair, "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[31mEve\u202e")
    await raw.send("chat", text="\x1b[2J\x1b[Hhello\x9b31m\r\nworld")
    await until(lambda: pair.heard.texts(ChatLine), "the chat line")
    assert pair.link.remote.name == "Eve"
    assert pair.heard.texts(ChatLine) == ["Eve: hello world"]
    await raw.close()


async def test_messages_only_the_host_may_send_are_refused(pair: Pair) -> None:
    raw = await joined(pair)
    await raw.send("state", moves=["c3-d4"], end={"kind": "resign", "side": "white"})
    await raw.send("moved", ply=0, move="c3-d4")
    await raw.send("welcome", variant="/etc/passwd", rules="x", side="white", takeback=True)
    await refused(pair, 3, "three refusals")
    assert all("not for this side" in line for line in refusals(pair))
    assert pair.link.session.game.move_stack == [] and pair.link.session.outcome is None
    await raw.close()


# -- a hostile host ----------------------------------------------------------------------


def welcome_of(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "variant": "russian",
        "rules": rules_digest(find_variant("russian")),
        "side": "black",
        "clock": "300+0",
        "takeback": True,
        "host": "Mallory",
        "site": "127.0.0.1:1",
    }
    fields.update(changes)
    return fields


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"variant": "/etc/passwd"}, "does not have"),
        ({"variant": "../../../../home/user/.ssh/id_rsa"}, "does not have"),
        ({"variant": "Russian draughts"}, "not by its id"),
        ({"rules": "0" * 64}, "other rules"),
        ({"side": "red"}, "no side"),
        ({"clock": "forever"}, "clock"),
    ],
)
def test_a_welcome_that_cannot_be_played_is_refused_in_one_line(
    changes: dict[str, Any], says: str
) -> None:
    with pytest.raises(JoinError) as caught:
        read_welcome(Message("welcome", welcome_of(**changes)))
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_a_user_variant_with_other_rules_than_the_hosts_is_refused() -> None:
    host_rules = welcome_of(rules=rules_digest(find_variant("brazilian")))
    with pytest.raises(JoinError, match="other rules than this machine's file"):
        read_welcome(Message("welcome", host_rules))


class FakeHost:
    """A hand-made host: welcomes, then sends whatever the test says."""

    def __init__(self) -> None:
        self.ws: web.WebSocketResponse | None = None
        self.joined = asyncio.Event()
        self.got: list[Message] = []
        self.runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.receive()  # the join
        await ws.send_str(encode("welcome", **welcome_of()))
        await ws.send_str(encode("state", moves=[], marks=[], left=[300, 300]))
        self.ws = ws
        self.joined.set()
        async for frame in ws:
            self.got.append(parse(frame.data))
        return ws

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/ws", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"127.0.0.1:{port}"

    async def send(self, type_: str, **fields: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(encode(type_, **fields))


async def test_a_hostile_host_is_refused_case_by_case_the_game_goes_on() -> None:
    fake = FakeHost()
    address = await fake.start()
    guest = Guest(address, "ABCD-EF", "Boris")
    try:
        await guest.connect()
        link = guest.make_link()
        heard = Heard()
        link.subscribe(heard)
        reader = asyncio.create_task(guest.run())
        await until(lambda: heard.saw(Synced), "the first state")
        game = link.session.game
        await fake.send("moved", ply=0, move="c3-e5")  # illegal
        await fake.send("moved", ply=5, move="c3-d4")  # another ply
        await fake.send("moved", ply=0, move="c3-d4", left=[5000, 300])  # a clock claim
        await fake.ws.send_str("{garbage")  # type: ignore[union-attr]
        await fake.send("chat", text="\x1b]0;owned\x07\x1b[2Jhi\r\nthere")
        await fake.send("state", moves=["c3-d4", "c3-d4"])  # an illegal state
        await fake.send("state", moves=[], end={"kind": "rules"})  # an end the rules deny
        await fake.send("draw_answer", accept=True)  # no offer was made
        await until(lambda: len(heard.texts(Refused)) >= 7, "seven refusals")
        lines = heard.texts(Refused)
        assert "refused" in lines[0]
        assert "ply 5" in lines[1]
        assert "clock claim refused" in lines[2]
        assert "not JSON" in lines[3]
        assert "refused" in lines[4] and "state" in lines[5]
        assert "no draw was offered" in lines[6]
        assert all("\x1b" not in line and "\n" not in line for line in lines)
        assert heard.texts(ChatLine) == ["Mallory: hi there"]
        assert game.move_stack == [] and link.session.outcome is None
        await fake.send("moved", ply=0, move="c3-d4", left=[299, 300])
        await until(lambda: len(game.move_stack) == 1, "a right move played")
        await fake.send("moved", ply=1, move="f6-g5")  # the guest's side: not the host's
        await until(lambda: len(heard.texts(Refused)) >= 8, "a move of the wrong side")
        assert "our turn" in heard.texts(Refused)[7]
        assert len(game.move_stack) == 1
        await guest.close()
        await until(reader.done, "the reader's end")
    finally:
        await guest.close()
        assert fake.runner is not None
        await fake.runner.cleanup()


async def test_a_quick_guests_move_is_never_dropped_by_the_rate_limit(pair: Pair) -> None:
    raw = await joined(pair)
    host = pair.link.session
    play(host, "c3-d4")
    await raw.read("moved")
    for _ in range(60):  # the budget spent on chat
        await raw.send("chat", text="hi")
    await raw.send("move", ply=1, move="f6-g5")
    await until(lambda: len(host.game.move_stack) == 2, "the move over the limit played")
    assert any("too many messages" in line for line in refusals(pair))
    await raw.close()


async def test_a_hostile_host_floods_and_sends_oversized_messages_the_guest_goes_on() -> None:
    fake = FakeHost()
    address = await fake.start()
    guest = Guest(address, "ABCD-EF", "Boris")
    try:
        await guest.connect()
        link = guest.make_link()
        heard = Heard()
        link.subscribe(heard)
        reader = asyncio.create_task(guest.run())
        await until(lambda: heard.saw(Synced), "the first state")
        await fake.ws.send_str(  # type: ignore[union-attr]
            json.dumps({"v": 1, "t": "chat", "text": "x" * (MAX_MESSAGE + 10)})
        )
        await until(lambda: heard.texts(Refused), "the oversized message refused")
        assert "too long" in heard.texts(Refused)[0]
        for _ in range(1000):
            await fake.send("chat", text="spam")
        await until(
            lambda: any("too many messages" in t for t in heard.texts(Refused)), "the flood"
        )
        assert len(heard.texts(ChatLine)) < 1000
        await fake.send("moved", ply=0, move="c3-d4", left=[299, 300])  # (its turn: taken)
        await until(lambda: len(link.session.game.move_stack) == 1, "the game going on")
        await guest.close()
        await until(reader.done, "the reader's end")
    finally:
        await guest.close()
        assert fake.runner is not None
        await fake.runner.cleanup()


def test_the_hosts_name_is_cleaned() -> None:
    welcome = read_welcome(Message("welcome", welcome_of(host="\x1b]0;x\x07Mal\x1b[5mlory\n")))
    assert welcome.host == "Mallory"
