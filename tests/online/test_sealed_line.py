"""The line between two real shashki processes, seen and changed by a proxy on 127.0.0.1:
no move, name or room code crosses it in clear, and a byte changed on its way ends that
connection without the game taking the changed move.  Older and hostile peers at the
handshake get one line each."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import web

from shashki.online.guest import Guest, JoinError
from shashki.online.protocol import VERSION, encode, parse
from shashki.online.seal import Pake
from shashki.records.reader import read_file

from .harness import Pair, Raw, hosted, until
from .test_processes import JOIN, Proc

# -- a proxy that reads the WebSocket frames it passes on ----------------------------------


def frames(data: bytes) -> tuple[list[tuple[int, bytes]], int]:
    """The whole WebSocket frames at the start of ``data`` (opcode, unmasked payload),
    and how many bytes they take (RFC 6455, 5.2)."""
    out: list[tuple[int, bytes]] = []
    at = 0
    while len(data) - at >= 2:
        opcode, second = data[at] & 0x0F, data[at + 1]
        size, head = second & 0x7F, 2
        if size == 126:
            if len(data) - at < 4:
                break
            size, head = int.from_bytes(data[at + 2 : at + 4], "big"), 4
        elif size == 127:
            if len(data) - at < 10:
                break
            size, head = int.from_bytes(data[at + 2 : at + 10], "big"), 10
        mask = b""
        if second & 0x80:
            mask, head = data[at + head : at + head + 4], head + 4
        if len(data) - at < head + size:
            break
        payload = data[at + head : at + head + size]
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        out.append((opcode, payload))
        at += head + size
    return out, at


class Proxy:
    """A TCP proxy on 127.0.0.1 between a guest and a host: it keeps every frame's
    payload, each way, and may change one byte of the guest's n-th binary frame (of the
    first connection that has one)."""

    def __init__(self, target: int, change_frame: int | None = None) -> None:
        self.target = target
        self.change_frame = change_frame
        self.changed = threading.Event()
        self.seen: list[tuple[str, int, bytes]] = []
        self.raw = bytearray()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pump, args=(client, upstream, "up"), daemon=True).start()
            threading.Thread(
                target=self._pump, args=(upstream, client, "down"), daemon=True
            ).start()

    def _pump(self, source: socket.socket, sink: socket.socket, way: str) -> None:
        buffer, upgraded, binaries = b"", False, 0
        try:
            while chunk := source.recv(65536):
                with self.lock:
                    self.raw += chunk
                if not upgraded:
                    buffer += chunk
                    end = buffer.find(b"\r\n\r\n")
                    if end < 0:
                        sink.sendall(chunk)
                        continue
                    upgraded = True
                    sink.sendall(buffer[: end + 4])
                    chunk, buffer = buffer[end + 4 :], b""
                buffer += chunk
                found, used = frames(buffer)
                whole, buffer = bytearray(buffer[:used]), buffer[used:]
                at = 0
                for opcode, payload in found:
                    with self.lock:
                        self.seen.append((way, opcode, payload))
                    size = len(payload)
                    head = 2 + (2 if 126 <= size < 65536 else 8 if size >= 65536 else 0)
                    head += 4 if whole[at + 1] & 0x80 else 0
                    if way == "up" and opcode == 2:
                        binaries += 1
                        if binaries == self.change_frame and not self.changed.is_set():
                            whole[at + head + size // 2] ^= 0x20  # one byte of the middle
                            self.changed.set()
                    at += head + size
                sink.sendall(bytes(whole))
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def payloads(self) -> bytes:
        with self.lock:
            return b"\n".join(p for _w, _o, p in self.seen)

    def close(self) -> None:
        self.server.close()


def test_a_proxy_between_two_processes_sees_nothing_in_clear_and_cannot_change_a_move(
    tmp_path: Path,
) -> None:
    host_pdn, guest_pdn = tmp_path / "host.pdn", tmp_path / "guest.pdn"
    host = Proc(
        "host", "russian", "--clock", "0.5+0", "--port", "0", "--local", "--auto", "1",
        "--name", "Annabel", "--save", str(host_pdn), home=tmp_path / "host",
    )  # fmt: skip
    proxy: Proxy | None = None
    try:
        address, code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        proxy = Proxy(int(address.split(":")[1]), change_frame=3)
        through = f"127.0.0.1:{proxy.port}"
        first = Proc("join", through, code, "--auto", "1", "--name", "Borislav", home=tmp_path)
        try:
            first.wait_for(r"^4: ")  # the guest's second move: its third sealed frame changed
            assert proxy.changed.wait(60)
            first.wait_for(r"did not open|connection to .* is over")
        finally:
            first.proc.kill()
            first.end()
        host.wait_for(r"did not open with the room's key")
        moves_seen = [line for line in host.seen if re.match(r"^\d+: ", line)]
        again = Proc("join", through, code, "--auto", "1", "--name", "Borislav",
                     "--save", str(guest_pdn), home=tmp_path)  # fmt: skip
        try:
            again.wait_for(r"^Result: ")
            assert again.end() == 0
        finally:
            if again.proc.poll() is None:
                again.proc.kill()
        host.wait_for(r"^Result: ")
        assert host.end() == 0
    finally:
        if host.proc.poll() is None:
            host.proc.kill()
        if proxy is not None:
            proxy.close()
    # the changed frame was the guest's move of ply 3: the host never played it changed
    assert len(moves_seen) <= 3
    assert host_pdn.read_text() == guest_pdn.read_text()
    [record] = list(read_file(str(host_pdn)))
    assert record.headers["White"] == "Annabel" and record.headers["Black"] == "Borislav"
    on_the_wire = proxy.payloads() + bytes(proxy.raw)
    letters = code.replace("-", "")
    for secret in (b"Annabel", b"Borislav", code.encode(), letters.encode(), b"russian"):
        assert secret not in on_the_wire, secret
    for move in re.findall(r"[a-h][1-8][-:x][a-h][1-8]", host_pdn.read_text()):
        assert move.encode() not in on_the_wire, move
    assert record.mainline_moves()  # (the game was played)
    kinds = {opcode for _w, opcode, _p in proxy.seen}
    assert kinds <= {1, 2, 8, 9, 10}  # text (the handshake), binary (sealed), close, pings


# -- older and hostile peers at the handshake ----------------------------------------------


@pytest.fixture
async def pair() -> Pair:
    pair = await hosted()
    yield pair  # type: ignore[misc]
    await pair.close()


async def test_an_older_guest_is_answered_in_its_own_shape_and_learns_nothing(pair: Pair) -> None:
    raw = await Raw.open(pair.address)
    await raw.ws.send_str(json.dumps({"v": 1, "t": "join", "code": pair.link.code}))
    frame = await raw.ws.receive()
    assert frame.data == (
        '{"v":1,"t":"refused","text":"version: this host speaks version '
        f'{VERSION} of the protocol (update shashki)"}}'
    )
    await raw.close()
    assert not pair.link.joined


async def old_host(answer: Callable[[web.WebSocketResponse], object]) -> tuple[str, web.AppRunner]:
    async def handle(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.receive()
        await answer(ws)  # type: ignore[misc]
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/ws", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return f"127.0.0.1:{site.port}", runner


async def test_an_older_host_is_one_clear_line() -> None:
    async def refuse(ws: web.WebSocketResponse) -> None:
        text = "version: protocol version '2' is not 1 (update shashki)"
        await ws.send_str(json.dumps({"v": 1, "t": "refused", "text": text}))

    address, runner = await old_host(refuse)
    try:
        with pytest.raises(JoinError) as caught:
            await Guest(address, "K7WQ-M2", "Boris").connect()
        assert str(caught.value) == (
            "The host runs another version of shashki (protocol 1, this one 2): both players "
            "need the same version; update shashki."
        )
    finally:
        await runner.cleanup()


@pytest.mark.parametrize(
    "answer",
    [
        encode("pake", pake="00" * 33),  # not a point
        encode("pake", pake="53" + "11" * 31),  # truncated
        encode("pake", pake="zz" * 33),  # not hex
        encode("confirm", confirm="00" * 32),  # out of order
        "garbage",
    ],
)
async def test_a_host_with_a_forged_handshake_is_refused_in_one_line(answer: str) -> None:
    async def forge(ws: web.WebSocketResponse) -> None:
        await ws.send_str(answer)

    address, runner = await old_host(forge)
    try:
        with pytest.raises(JoinError) as caught:
            await Guest(address, "K7WQ-M2", "Boris").connect()
        assert "\n" not in str(caught.value) and "host" in str(caught.value)
    finally:
        await runner.cleanup()


async def test_a_handshake_recorded_and_replayed_proves_nothing(pair: Pair) -> None:
    """Someone on the path records a whole handshake of the real guest and host, then
    plays each side's part again to the other: fresh SPAKE2 secrets on each run make
    the replayed proof wrong both ways."""
    raw = await Raw.open(pair.address)
    pake = Pake(pair.link.code)
    await raw.ws.send_str(guest_pake := encode("pake", pake=pake.message.hex()))
    host_pake = (await raw.ws.receive()).data
    keys = pake.finish(bytes.fromhex(parse(host_pake).get("pake")))
    await raw.ws.send_str(guest_proof := encode("confirm", confirm=keys.guest_proof.hex()))
    host_proof = (await raw.ws.receive()).data
    assert parse(host_proof).type == "confirm"
    await raw.close()

    # the guest's part again, to the host: its proof is wrong for the new run
    again = await Raw.open(pair.address)
    await again.ws.send_str(guest_pake)
    assert parse((await again.ws.receive()).data).type == "pake"
    await again.ws.send_str(guest_proof)
    assert parse((await again.ws.receive()).data).get("text").startswith("wrong-code: ")
    await again.close()

    # the host's part again, to a guest: the guest finds its proof wrong
    async def replay(ws: web.WebSocketResponse) -> None:
        await ws.send_str(host_pake)
        await ws.receive()
        await ws.send_str(host_proof)

    address, runner = await old_host(replay)
    try:
        with pytest.raises(JoinError, match="did not prove that it holds the room code"):
            await Guest(address, pair.link.code, "Boris").connect()
    finally:
        await runner.cleanup()


async def test_a_guest_that_never_confirms_is_cut_at_the_deadline(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("shashki.online.host.HANDSHAKE_SECONDS", 0.2)
    raw = await Raw.open(pair.address)
    pake_only = encode("pake", pake=Pake(pair.link.code).message.hex())
    await raw.ws.send_str(pake_only)
    assert (await raw.read_clear()).type == "pake"
    answer = await raw.read_clear()  # (no proof given)
    assert answer.get("text").startswith("no-code: ")
    await raw.close()
    assert not pair.link.joined


async def test_a_join_to_a_port_that_accepts_and_never_answers_gives_up_in_bounded_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("shashki.online.guest.CONNECT_SECONDS", 0.3)
    silent = socket.create_server(("127.0.0.1", 0))
    try:
        port = silent.getsockname()[1]
        with pytest.raises(JoinError) as caught:
            await Guest(f"127.0.0.1:{port}", "K7WQ-M2", "Boris").connect()
        assert str(caught.value) == f"Cannot join 127.0.0.1:{port}: no answer in 0 s."
        assert caught.value.unreachable
    finally:
        silent.close()


async def test_a_move_changed_on_its_way_is_not_played(pair: Pair) -> None:
    raw = await Raw.joined(pair.address, pair.link.code)
    host = pair.link.session
    host.play(host.game.parse_move("c3-d4"))
    await raw.read("moved")
    assert raw.line is not None
    sealed = bytearray(raw.line.seal(encode("move", ply=1, move="f6-g5")))
    sealed[len(sealed) // 2] ^= 0x01
    await raw.ws.send_bytes(bytes(sealed))
    await until(lambda: pair.link.guest is None, "the host ending that connection")
    assert len(host.game.move_stack) == 1
    assert any("did not open" in line for line in pair.link.log)
    await raw.close()


async def test_a_clear_message_on_the_sealed_line_ends_the_connection(pair: Pair) -> None:
    raw = await Raw.joined(pair.address, pair.link.code)
    await raw.ws.send_str(encode("resign"))
    await until(lambda: pair.link.guest is None, "the host ending that connection")
    assert pair.link.session.outcome is None
    await raw.close()


async def test_a_sealed_message_replayed_on_a_new_connection_does_not_open(pair: Pair) -> None:
    first = await Raw.joined(pair.address, pair.link.code)
    assert first.line is not None
    resign = first.line.seal(encode("resign"))
    await first.close()
    await until(lambda: pair.link.guest is None, "the first connection gone")
    second = await Raw.joined(pair.address, pair.link.code)
    await second.ws.send_bytes(resign)  # (sealed with the first connection's key)
    await until(lambda: pair.link.guest is None, "the host ending that connection")
    assert pair.link.session.outcome is None
    await second.close()
