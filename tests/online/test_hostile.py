"""Hostile peers: each case is refused in one line, the game goes on, nothing a peer
sends reaches a file, a program or the terminal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from shashki.online.events import ChatLine, Refused, Superseded, Synced
from shashki.online.guest import Guest, JoinError, read_welcome
from shashki.online.protocol import FRAME_LIMIT, MAX_MESSAGE, RATE_BURST, Message
from shashki.rules import Color, find_variant

from .harness import FakeHost, Heard, Pair, Raw, hosted, play, until, welcome_of


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    pair = await hosted(clock="5+0")
    yield pair
    await pair.close()


async def joined(pair: Pair, name: str = "Mallory", source: str | None = None) -> Raw:
    return await Raw.joined(pair.address, pair.link.code, name, source)


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
    answer = await raw.handshake("AAAA-AA")
    assert answer.type == "refused" and answer.get("text") == "wrong-code: wrong room code"
    assert "wrong room code" in await refused(pair, 1, "the refusal")
    await raw.close()
    assert not pair.link.joined


async def test_messages_only_the_host_may_send_are_refused(pair: Pair) -> None:
    raw = await joined(pair)
    await raw.send("state", moves=["c3-d4"], end={"kind": "resign", "side": "white"})
    await raw.send("moved", ply=0, move="c3-d4")
    await raw.send(
        "welcome", variant="/etc/passwd", rules="x", side="white", takeback=True, game="0" * 32
    )
    await refused(pair, 3, "three refusals")
    assert all("not for this side" in line for line in refusals(pair))
    assert pair.link.session.game.move_stack == [] and pair.link.session.outcome is None
    for _ in range(3):
        assert (await raw.read("refused")).get("text").startswith("wrong-side: ")
    await raw.close()


async def test_a_second_connection_with_the_code_takes_the_game_over(pair: Pair) -> None:
    first = await pair.join("Boris")
    first_heard = pair.gheard
    reader = pair.reader
    assert reader is not None
    second = await joined(pair, "Eve")  # (the holder of the code, from elsewhere)
    await until(lambda: first_heard.saw(Superseded), "the first told it was superseded")
    await until(reader.done, "the first connection closed")
    assert first.superseded
    assert pair.link.remote.name == "Boris"  # (the guest keeps the name it joined with)
    play(pair.link.session, "c3-d4")
    assert (await second.read("moved")).get("move") == "c3-d4"
    await second.close()


async def test_a_first_message_that_is_not_the_handshake_is_refused(pair: Pair) -> None:
    raw = await Raw.open(pair.address)
    await raw.send("move", ply=0, move="c3-d4")
    assert (await raw.read_clear()).get("text").startswith("not-join: ")
    await raw.close()
    assert pair.link.session.game.move_stack == []
    assert "handshake" in pair.link.log[-1]


async def test_garbage_truncated_and_oversized_messages_are_refused_the_game_goes_on(
    pair: Pair,
) -> None:
    raw = await joined(pair)
    host = pair.link.session
    await raw.send_text("garbage")
    await raw.send_text('{"v": 2, "t": "move", "ply": 0, "mo')
    await raw.send_text(json.dumps({"v": 2, "t": "chat", "text": "x" * (MAX_MESSAGE + 10)}))
    await refused(pair, 3, "three refusals")
    lines = refusals(pair)
    assert "not JSON" in lines[0] and "not JSON" in lines[1] and "too long" in lines[2]
    play(host, "c3-d4")
    moved = await raw.read("moved")
    assert moved.get("move") == "c3-d4"
    await raw.send("move", ply=1, move="f6-g5")
    await until(lambda: len(host.game.move_stack) == 2, "the game going on")
    await raw.close()


async def test_a_frame_past_the_limit_ends_that_connection_only(pair: Pair) -> None:
    raw = await joined(pair)
    await raw.ws.send_bytes(b"x" * (FRAME_LIMIT + 10))
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
    assert len(pair.heard.texts(ChatLine)) <= RATE_BURST + 1
    assert len(pair.link.log) <= pair.link.log.maxlen  # type: ignore[operator]
    texts = []
    while len(texts) < 2 or not texts[-1].startswith("flood: "):
        texts.append((await raw.read("refused")).get("text"))
    assert texts[0].startswith("too-many: ") and texts[-1].startswith("flood: ")
    await raw.close()
    assert pair.link.session.outcome is None


async def test_twenty_thousand_illegal_moves_for_the_ply_are_limited_like_any_message(
    pair: Pair,
) -> None:
    raw = await joined(pair)
    host = pair.link.session
    play(host, "c3-d4")
    await raw.read("moved")
    assert raw.line is not None
    frames = [
        raw.line.seal(f'{{"v":2,"t":"move","ply":1,"move":"f6-{c}3"}}') for c in "abcdefgh" * 2500
    ]
    for frame in frames:
        await raw.ws.send_bytes(frame)
    await until(lambda: pair.link.guest is None, "the flooding guest let go")
    illegal = [line for line in refusals(pair) if "f6-" in line]
    assert 0 < len(illegal) <= RATE_BURST + 1  # (the rest dropped unread, then cut)
    assert len(pair.link.log) <= pair.link.log.maxlen  # type: ignore[operator]
    await raw.close()
    again = await pair.join("Boris")  # the game goes on: a legal move is played at once
    play(again.session, "f6-g5")
    await until(lambda: len(host.game.move_stack) == 2, "the legal move played")


async def test_moves_out_of_turn_illegal_or_for_another_ply_are_refused(pair: Pair) -> None:
    raw = await joined(pair)
    host = pair.link.session
    await raw.send("move", ply=0, move="f6-g5")  # white is to move: not the guest's turn
    assert "not the guest's turn" in await refused(pair, 1, "a move out of turn")
    answers = {m.type: m for m in [await raw.read(), await raw.read()]}
    assert answers["refused"].get("text").startswith("not-your-turn: ")
    assert answers["state"].get("moves") == []  # (the guest's copy set right)
    play(host, "c3-d4")
    await raw.send("move", ply=0, move="f6-g5")
    assert "ply 0" in await refused(pair, 2, "a move for another ply")
    await raw.send("move", ply=1, move="f6-e3")
    assert "refused" in await refused(pair, 3, "an illegal move")
    await raw.send("move", ply=1, move="\x1b[2J" + "a" * 150)
    line = await refused(pair, 4, "a move of escapes")
    assert "\x1b" not in line
    codes = []
    while len(codes) < 3:
        codes.append((await raw.read("refused")).get("text").split(":")[0])
    assert codes == ["wrong-ply", "illegal-move", "illegal-move"]
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


# -- a hostile host ----------------------------------------------------------------------


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
    from shashki.online.protocol import rules_digest

    host_rules = welcome_of(rules=rules_digest(find_variant("brazilian")))
    with pytest.raises(JoinError, match="other rules than this machine's file"):
        read_welcome(Message("welcome", host_rules))


async def test_a_hostile_host_is_refused_case_by_case_the_game_goes_on() -> None:
    fake = FakeHost()
    address = await fake.start()
    guest = Guest(address, fake.code, "Boris")
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
        await fake.send_text("{garbage")
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


async def test_a_hostile_host_floods_and_sends_oversized_messages_the_guest_goes_on() -> None:
    fake = FakeHost()
    address = await fake.start()
    guest = Guest(address, fake.code, "Boris")
    try:
        await guest.connect()
        link = guest.make_link()
        heard = Heard()
        link.subscribe(heard)
        reader = asyncio.create_task(guest.run())
        await until(lambda: heard.saw(Synced), "the first state")
        await fake.send_text(json.dumps({"v": 2, "t": "chat", "text": "x" * (MAX_MESSAGE + 10)}))
        await until(lambda: heard.texts(Refused), "the oversized message refused")
        assert "too long" in heard.texts(Refused)[0]
        for _ in range(1000):
            await fake.send("chat", text="spam")
        await until(
            lambda: any("too many messages" in t for t in heard.texts(Refused)), "the flood"
        )
        assert len(heard.texts(ChatLine)) < 1000
        await guest.close()
        await until(reader.done, "the reader's end")
    finally:
        await guest.close()
        assert fake.runner is not None
        await fake.runner.cleanup()


def test_the_hosts_name_is_cleaned() -> None:
    welcome = read_welcome(Message("welcome", welcome_of(host="\x1b]0;x\x07Mal\x1b[5mlory\n")))
    assert welcome.host == "Mallory"
