"""What ``shashki serve`` lets a visitor, a page of another site and a stranger do, tried
with real processes: the server on a free port, WebSockets and HTTP requests from
aiohttp's client with the headers a hostile page or a rebound DNS name would send.

- Every request must name this server in its ``Host`` (DNS rebinding refused); the
  WebSocket that starts an app must come from this server's own page (``Origin``);
  ``--public`` binds wider and keeps the rule; ``--allow-host`` adds a name.
- A visitor's terminal is bounded (a resize to 10000 by 10000 stays small); an app ends
  when its visitor goes, also one that will not quit, with what it started; every app
  ends when the server ends (SIGTERM, SIGINT, SIGHUP, SIGKILL).
- Nothing a visitor sends prints a traceback, or the visitor's words, on the owner's
  terminal.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from shashki.serve import Addresses, make_server
from shashki.session.served import MOST_COLUMNS, MOST_ROWS

from ..waiting import until
from .conftest import WAIT, Serving, alive, children, needs_proc, peak_memory, poll

#: What a page of the app shows first (the menu's title).
MENU = b"choose a variant"


async def _refused(url: str, headers: dict[str, str]) -> int:
    """The status a WebSocket handshake with ``headers`` gets (101: opened)."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers) as ws:
                await ws.close()
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


async def _get(url: str, host: str | None = None) -> int:
    headers = {"Host": host} if host is not None else {}
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers=headers) as response:
            await response.read()
            return response.status


def _raw_status(port: int, request: bytes) -> int:
    """The status line's code of a request written by hand (no ``Host`` at all)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(request)
        answer = sock.recv(200)
    return int(answer.split()[1])


async def _drawn(ws: aiohttp.ClientWebSocketResponse, words: bytes) -> bytes:
    """What the app sends until ``words`` are among it."""
    data = b""
    deadline = time.monotonic() + WAIT
    while words not in data:
        message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        if message.type == aiohttp.WSMsgType.BINARY:
            data += message.data
        elif message.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"the app ended before {words!r}: {message}")
    return data


# -- who may connect --------------------------------------------------------------------------


async def test_a_foreign_host_is_refused_everywhere(serve: Callable[..., Serving]) -> None:
    """A name an attacker's DNS points at 127.0.0.1 (DNS rebinding) reads nothing and
    starts nothing: every path answers 403 to a Host that is not this server's."""
    server = serve()
    server.ready()
    base = f"http://127.0.0.1:{server.port}"
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
        assert await _get(base + "/", host) == 200, host
    for host in (
        f"evil.example:{server.port}",
        "evil.example",
        f"127.0.0.1.evil.example:{server.port}",
        f"localhost.evil.example:{server.port}",
        f"127.0.0.1:{server.port + 1}",
        "127.0.0.1",
        f"10.0.0.1:{server.port}",  # (an address not of this machine's loopback)
        f"[::1]:{server.port}x",
        "",
    ):
        for path in ("/", "/static/js/textual.js", "/shashki/page.js", "/ws", "/download/x"):
            assert await _get(base + path, host) == 403, (host, path)
        origin = {"Origin": f"http://{host}", "Host": host}
        assert await _refused(base + "/ws", origin) == 403, host
    # (a link of another site to a download: the browser says so, and it is refused)
    here = f"127.0.0.1:{server.port}"
    async with aiohttp.ClientSession() as session:
        for site, status in (("cross-site", 403), ("same-site", 403), ("same-origin", 404)):
            headers = {"Host": here, "Sec-Fetch-Site": site}
            async with session.get(base + "/download/x", headers=headers) as response:
                assert response.status == status, site
    request = b"GET / HTTP/1.0\r\n\r\n"  # (no Host header at all)
    assert _raw_status(server.port, request) == 403
    assert not server.apps()


@needs_proc
async def test_the_socket_opens_only_from_this_servers_page(
    serve: Callable[..., Serving],
) -> None:
    """A page of another site (another port of this machine too) cannot open the app's
    socket: no app starts; the page of this server can."""
    server = serve()
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws?width=80&height=24"
    other = server.port + 1 if server.port < 65535 else server.port - 1
    for origin in (
        None,
        "null",
        "http://evil.example",
        f"http://evil.example:{server.port}",
        f"http://127.0.0.1:{other}",
        f"http://localhost:{other}",
        f"http://127.0.0.1:{server.port}.evil.example",
        f"http://user@127.0.0.1:{server.port}",
        f"file://127.0.0.1:{server.port}",
        f"chrome-extension://127.0.0.1:{server.port}",
        f"http://127.0.0.1:{server.port}/path",
    ):
        headers = {} if origin is None else {"Origin": origin}
        assert await _refused(url, headers) == 403, origin
    assert not server.apps()
    for origin in (server.origin, f"http://localhost:{server.port}"):
        async with aiohttp.ClientSession(headers={"Origin": origin}) as session:
            async with session.ws_connect(url) as ws:
                await _drawn(ws, MENU)
                assert len(server.apps()) == 1


async def test_public_binds_wider_and_keeps_the_rule(serve: Callable[..., Serving]) -> None:
    server = serve("--public", "--allow-host", "shashki.example")
    server.ready()
    base = f"http://127.0.0.1:{server.port}"
    assert await _get(base + "/", f"evil.example:{server.port}") == 403
    assert await _get(base + "/", f"127.0.0.1:{server.port}") == 200
    assert await _get(base + "/", f"192.168.1.20:{server.port}") == 200  # (an address)
    assert await _get(base + "/", "shashki.example") == 200  # (the owner's name)
    assert await _get(base + "/", f"shashki.example:{server.port}") == 200
    assert await _get(base + "/", "www.shashki.example") == 403
    url = base + "/ws"
    assert await _refused(url, {"Origin": "http://evil.example"}) == 403
    assert await _refused(url, {"Origin": f"http://192.168.1.99:{server.port}"}) == 403
    host = {"Host": f"192.168.1.20:{server.port}"}
    assert await _refused(url, {**host, "Origin": f"http://192.168.1.20:{server.port}"}) == 101
    # (behind a proxy with TLS: the page is https://shashki.example, the Host passed on)
    proxied = {"Host": f"127.0.0.1:{server.port}", "Origin": "https://shashki.example"}
    assert await _refused(url, proxied) == 101


def test_the_addresses_served_are_names_known_here_or_addresses() -> None:
    local = Addresses(8000, public=False)
    assert local.host_ok("127.0.0.1:8000") and local.host_ok("LOCALHOST:8000")
    assert local.host_ok("127.0.0.5:8000") and local.host_ok("[::1]:8000")
    for host in (
        None,
        "",
        "127.0.0.1",
        "127.0.0.1:8001",
        "192.168.1.2:8000",
        "evil.example:8000",
        "localhost",
        "127.0.0.1:8000/",
        "127.0.0.1:08000x",
        "[::1:8000",
        "\u0430pple.com:8000",
        "x" * 300,
    ):
        assert not local.host_ok(host), host
    assert local.origin_ok("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert local.origin_ok("http://localhost:8000", "127.0.0.1:8000")
    assert not local.origin_ok("http://127.0.0.5:8000", "127.0.0.1:8000")
    assert not local.origin_ok(None, "127.0.0.1:8000")
    public = Addresses(8000, public=True, allowed=["play.example.org", "box.lan:9000"])
    assert public.host_ok("10.1.2.3:8000") and public.host_ok("[fe80::1]:8000")
    assert public.host_ok("play.example.org") and public.host_ok("play.example.org:8000")
    assert public.host_ok("box.lan:9000") and not public.host_ok("box.lan:8000")
    assert not public.host_ok("10.1.2.3:8001") and not public.host_ok("evil.example:8000")
    assert public.origin_ok("https://play.example.org", "127.0.0.1:8000")
    assert not public.origin_ok("http://10.9.9.9:8000", "10.1.2.3:8000")


# -- what a visitor costs -----------------------------------------------------------------------


@needs_proc
async def test_a_huge_terminal_is_bounded(serve: Callable[..., Serving]) -> None:
    """A page that asks for 10000 by 10000 cells (at the start and in a resize) gets at
    most MOST_COLUMNS by MOST_ROWS, and its app stays small."""
    server = serve()
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws?width=10000&height=10000"
    async with aiohttp.ClientSession(headers={"Origin": server.origin}) as session:
        async with session.ws_connect(url) as ws:
            drawn = await _drawn(ws, MENU)
            await ws.send_str(json.dumps(["resize", {"width": 10000, "height": 10000}]))
            await ws.send_str(json.dumps(["resize", {"width": 10**30, "height": -5}]))
            await ws.send_str(json.dumps(["resize", {"width": 10000.5, "height": "9"}]))
            await ws.send_str(json.dumps(["resize", {"width": 10000, "height": 10000}]))
            # the screen drawn again at the bottom row of the largest size
            bottom = re.compile(rb"\x1b\[%d;\d+H" % MOST_ROWS)
            while not bottom.search(drawn):
                drawn += await _drawn(ws, b"\x1b[")
            (app,) = server.apps()
            assert peak_memory(app) < 250 * 2**20, peak_memory(app)
            places = [(int(r), int(c)) for r, c in re.findall(rb"\x1b\[(\d+);(\d+)H", drawn)]
            assert max(r for r, _c in places) == MOST_ROWS
            assert max(c for _r, c in places) <= MOST_COLUMNS


@needs_proc
async def test_an_app_ends_when_its_visitor_goes(serve: Callable[..., Serving]) -> None:
    server = serve("--visitors", "1")
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws"
    async with aiohttp.ClientSession(headers={"Origin": server.origin}) as session:
        async with session.ws_connect(url) as ws:
            await _drawn(ws, MENU)
            (app,) = server.apps()
    poll(lambda: not alive(app), "the app ended", timeout=30)
    poll(lambda: "left: 0 of at most 1" in server.text, "the slot freed", timeout=30)


#: An app that will not end: it says it is a Textual app, starts a child (an engine) in
#: its group, and then ignores its input's end, quit and SIGTERM.
STUBBORN = """
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time\\nwhile True: time.sleep(1)"])
os.write(1, b"__GANGLION__\\n")
text = ("%d %d" % (os.getpid(), child.pid)).encode()
os.write(1, b"D" + len(text).to_bytes(4, "big") + text)
while True:
    time.sleep(1)
"""


@needs_proc
async def test_an_app_that_will_not_quit_is_stopped_with_what_it_started() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    said: list[str] = []
    server = make_server(
        [sys.executable, "-c", STUBBORN],
        Addresses(port, public=False),
        visitors=1,
        join=False,
        say=said.append,
    )
    runner = web.AppRunner(await server.web_app())
    await runner.setup()
    await web.SockSite(runner, sock).start()
    try:
        url = f"http://127.0.0.1:{port}/ws"
        async with aiohttp.ClientSession(headers={"Origin": f"http://127.0.0.1:{port}"}) as s:
            async with s.ws_connect(url) as ws:
                message = await ws.receive(timeout=WAIT)
                app, child = (int(n) for n in message.data.split())
                assert alive(app) and alive(child)
        await until(lambda: not alive(app) and not alive(child), "both ended", step=0.05)
        assert any("left: 0 of at most 1" in line for line in said), said
    finally:
        await runner.cleanup()


@needs_proc
@pytest.mark.parametrize("number", ["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"])
async def test_every_app_ends_with_the_server(serve: Callable[..., Serving], number: str) -> None:
    """Stopped, interrupted, its terminal closed or killed outright, the server leaves no
    app behind (killed, its apps see their input end and quit)."""
    server = serve()
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws"
    async with aiohttp.ClientSession(headers={"Origin": server.origin}) as session:
        first = await session.ws_connect(url)
        second = await session.ws_connect(url)
        for ws in (first, second):
            await _drawn(ws, MENU)
        apps = server.apps()
        assert len(apps) == 2
        try:
            os.kill(server.process.pid, getattr(signal, number))
            server.process.wait(WAIT)
            for pid in apps:
                poll(lambda pid=pid: not alive(pid), f"app {pid} ended", timeout=30)
                assert not children(pid)
        finally:
            for pid in apps:  # (never an orphan left by a failure)
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            await first.close()
            await second.close()


# -- the owner's terminal ---------------------------------------------------------------------


@needs_proc
async def test_nothing_a_visitor_sends_prints_a_traceback(serve: Callable[..., Serving]) -> None:
    server = serve()
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws"
    secret = "K7WQ-M2-visitor-words"
    junk = [
        json.dumps({"type": "join", "code": secret, "name": secret}),  # (a shashki guest)
        f"not json {secret}",
        json.dumps([]),
        json.dumps([5, secret]),
        json.dumps(["stdin", 5]),
        json.dumps(["stdin", "\ud800" + secret]),
        json.dumps(["resize", secret]),
        json.dumps(["resize", {"width": secret, "height": None}]),
        json.dumps(["ping", secret * 10]),
        json.dumps(["nothing", secret]),
        json.dumps(["focus", secret]),
    ]
    async with aiohttp.ClientSession(headers={"Origin": server.origin}) as session:
        async with session.ws_connect(url) as ws:
            await _drawn(ws, MENU)
            for text in junk:
                await ws.send_str(text)
            await ws.send_bytes(secret.encode() * 10)
            await ws.send_str(json.dumps(["ping", "1"]))  # the app is still served
            while True:
                message = await ws.receive(timeout=WAIT)
                if message.type == aiohttp.WSMsgType.TEXT and message.data == '["pong", "1"]':
                    break
            await ws.send_str("x" * (300 * 1024))  # (too large: the connection ends)
            message = await ws.receive(timeout=WAIT)
            while message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                message = await ws.receive(timeout=WAIT)
    poll(lambda: "left: 0" in server.text, "the app ended")
    for request in (  # (not HTTP at all: a 400, nothing said)
        f"{secret}\r\n\r\n".encode(),
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX: \x1b{secret}\r\n\r\n".encode(),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
    ):
        assert _raw_status(server.port, request) == 400
    text = server.text
    assert "Traceback" not in text and secret not in text and "Error" not in text, text
    assert not any(Path(server.log.parent / "XDG_CACHE_HOME").rglob("*.log"))
