"""The host's door against strangers, over real sockets on 127.0.0.0/8 (an address of
that range is another machine to the host): idle sockets are cut at the deadline, an
address has a few connections at a time and all have a cap, wrong codes pause only
their own address and never for good, and the friend at another address always gets
in.  The gate's own rules are tested with a clock moved by hand."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import pytest

from shashki.online.gate import PER_ADDRESS, WAITING, WRONG_CODES, Gate, address_key

from .harness import Pair, Raw, hosted, until

FRIEND = "127.0.0.2"
STRANGER = "127.0.0.3"


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    pair = await hosted()
    yield pair
    await pair.close()


async def idle(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A socket that connects and never says a word."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def cut(reader: asyncio.StreamReader) -> bool:
    """Whether the host closed the socket (it never answers an idle one)."""
    try:
        return await asyncio.wait_for(reader.read(1), 30) == b""
    except ConnectionError:
        return True


def port_of(pair: Pair) -> int:
    return int(pair.address.split(":")[1])


async def test_idle_sockets_are_cut_at_the_handshake_deadline(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("shashki.online.gate.HANDSHAKE_SECONDS", 0.3)
    reader, writer = await idle(port_of(pair), STRANGER)
    await until(lambda: pair.link.gate.waiting == 1, "the socket counted")
    assert await cut(reader)
    await until(lambda: pair.link.gate.waiting == 0, "the socket forgotten")
    writer.close()


async def test_an_address_keeps_a_few_idle_sockets_the_rest_are_cut_at_once(pair: Pair) -> None:
    sockets = [await idle(port_of(pair), STRANGER) for _ in range(PER_ADDRESS)]
    await until(lambda: pair.link.gate.waiting == PER_ADDRESS, "the sockets counted")
    extra = [await idle(port_of(pair), STRANGER) for _ in range(50)]
    for reader, _writer in extra:
        assert await cut(reader)
    assert pair.link.gate.waiting == PER_ADDRESS
    guest = await Raw.joined(pair.address, pair.link.code, "Boris", source=FRIEND)
    assert pair.link.remote.name == "Boris"  # the friend elsewhere is in at once
    await guest.close()
    for _reader, writer in sockets + extra:
        writer.close()


async def test_when_all_places_are_taken_a_newcomer_of_another_address_gets_in(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (no socket is cut at the handshake deadline here: a cut is the room made)
    monkeypatch.setattr("shashki.online.gate.HANDSHAKE_SECONDS", 3600.0)
    sources = [f"127.0.1.{i}" for i in range(1, WAITING // PER_ADDRESS + 1)]
    held = [await idle(port_of(pair), s) for s in sources for _ in range(PER_ADDRESS)]
    await until(lambda: pair.link.gate.waiting == WAITING, "every place taken")
    guest = await Raw.joined(pair.address, pair.link.code, "Boris", source=FRIEND)
    assert pair.link.remote.name == "Boris"
    # one of the first address's sockets was cut to make room (the others stay)
    reads = [asyncio.ensure_future(cut(reader)) for reader, _w in held[:PER_ADDRESS]]
    done, waiting = await asyncio.wait(reads, return_when=asyncio.FIRST_COMPLETED)
    for read in waiting:
        read.cancel()
    assert any(read.result() for read in done)
    await guest.close()
    for _reader, writer in held:
        writer.close()


async def test_wrong_codes_pause_their_address_only_and_never_for_good(pair: Pair) -> None:
    now = [1000.0]
    pair.link.gate.now = lambda: now[0]
    for n in range(1, WRONG_CODES + 1):
        raw = await Raw.open(pair.address, STRANGER)
        answer = await raw.handshake("AAAA-AA")
        assert answer.get("text") == "wrong-code: wrong room code"
        await raw.close()
        line = pair.link.log[-1]
        assert f"({n} of {WRONG_CODES} before a pause)" in line and STRANGER in line
    raw = await Raw.open(pair.address, STRANGER)  # paused, even with the right code
    answer = await raw.handshake(pair.link.code)
    assert answer.get("text", "").startswith("wait: ")
    await raw.close()
    friend = await Raw.joined(pair.address, pair.link.code, "Boris", source=FRIEND)
    await friend.close()  # the friend, elsewhere, was never kept out
    await until(lambda: pair.link.guest is None, "the friend gone")
    now[0] += 61
    again = await Raw.open(pair.address, STRANGER)  # the pause is over
    answer = await again.handshake(pair.link.code)
    assert answer.type == "confirm"
    await again.close()


async def test_wrong_codes_at_once_from_one_address_are_one_at_a_time(pair: Pair) -> None:
    """Many handshakes of one address at once cannot try more codes than the limit:
    one at a time, each counted before the next (no "6 of 5")."""
    raws = [await Raw.open(pair.address, STRANGER) for _ in range(PER_ADDRESS)]
    answers = await asyncio.gather(*(raw.handshake("AAAA-AA") for raw in raws))
    texts = [a.get("text", "") for a in answers]
    assert texts.count("wrong-code: wrong room code") <= 1
    assert all(t.startswith(("wrong-code: ", "busy: ")) for t in texts)
    for raw in raws:
        await raw.close()
    for _ in range(3 * WRONG_CODES):
        raw = await Raw.open(pair.address, STRANGER)
        await raw.handshake("AAAA-AA")
        await raw.close()
    wrong = [line for line in pair.link.log if "wrong room code" in line.lower()]
    assert len(wrong) <= WRONG_CODES
    assert all(f" of {WRONG_CODES} " in line for line in wrong)
    counts = [int(line.split("(")[1].split(" ")[0]) for line in wrong]
    assert counts == sorted(counts) and max(counts) <= WRONG_CODES


def test_an_ipv6_address_counts_by_its_network_ipv4_by_itself() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") != address_key("192.0.2.8")
    assert address_key(None) == "?"


def test_pauses_grow_and_end() -> None:
    now = [0.0]
    gate = Gate(now=lambda: now[0])
    pauses = []
    for _round in range(3):
        for _ in range(WRONG_CODES):
            assert gate.may_guess("192.0.2.7") is None
            gate.guessed("192.0.2.7", False)
            now[0] += 4  # (within the handshakes an address may start)
        refusal = gate.may_guess("192.0.2.7")
        assert refusal is not None and refusal.code == "wait"
        pauses.append(int(refusal.line.split(" in ")[1].split(" ")[0]))
        now[0] += pauses[-1]
    assert pauses[0] < pauses[1] < pauses[2]
    assert gate.may_guess("192.0.2.7") is None  # (over: it may try again)
    gate.guessed("192.0.2.7", True)  # a right code clears the address
    for _ in range(WRONG_CODES - 1):
        now[0] += 4
        assert gate.may_guess("192.0.2.7") is None
        gate.guessed("192.0.2.7", False)
    assert gate.may_guess("198.51.100.1") is None  # another address was never paused


def test_a_burst_of_handshakes_of_one_address_is_slowed_not_stopped() -> None:
    now = [0.0]
    gate = Gate(now=lambda: now[0])
    taken = 0
    while gate.may_guess("192.0.2.7") is None:
        gate.guessed("192.0.2.7", None)
        taken += 1
    refusal = gate.may_guess("192.0.2.7")
    assert refusal is not None and refusal.code == "busy"
    now[0] += 60
    assert gate.may_guess("192.0.2.7") is None
    assert taken < 20


async def test_the_gate_counts_real_sockets_and_forgets_them(pair: Pair) -> None:
    _reader, writer = await idle(port_of(pair), STRANGER)
    await until(lambda: pair.link.gate.waiting == 1, "counted")
    writer.close()
    await until(lambda: pair.link.gate.waiting == 0, "forgotten when it closes")
    with socket.create_connection(("127.0.0.1", port_of(pair))):
        pass
    await until(lambda: pair.link.gate.waiting == 0, "forgotten")
