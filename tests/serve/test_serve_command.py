"""``shashki serve`` as a command: a bad or busy port is one line and exit status 2, the
address it listens on is said (127.0.0.1 unless ``--public``, which says plainly that
visitors play on this machine), the apps it starts are bounded in number, and each is
started in served mode with a command line that quotes what it passes on."""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from shashki.serve import app_command
from shashki.session.served import SERVED_VARIABLE

from ..test_cli import run
from ..waiting import until_blocking

WAIT = 60.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("port", ["0", "65536", "99999999999999999999", "-1", "80a", "", "٨٠"])
def test_a_bad_port_is_one_line(capsys: pytest.CaptureFixture[str], port: str) -> None:
    code, out, err = run(capsys, "serve", "--port", port)
    assert code == 2 and not out
    assert err.count("\n") == 1 and "--port" in err and "Traceback" not in err, err


def test_a_port_is_read_as_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _out, err = run(capsys, "serve", "--port", f"0000000000{port}")
    assert code == 2 and f"port {port}: Address already in use" in err


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run(capsys, "serve", "--port", str(port))
    assert code == 2 and not out
    assert (
        err == f"shashki: error: cannot listen on 127.0.0.1 port {port}: Address already in use\n"
    )
    assert SERVED_VARIABLE not in os.environ  # (refused before anything was set)


def test_the_apps_command_line_quotes_what_it_passes_on(tmp_path: Path) -> None:
    odd = tmp_path / 'it\'s a "file"; rm -rf ~.toml'
    args = argparse.Namespace(lang="ru", variant_file=[str(odd)])
    words = shlex.split(app_command(args))
    assert words == [sys.executable, "-m", "shashki", "--lang", "ru", "--variant-file", str(odd)]


def test_a_served_app_refuses_a_command_on_its_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SERVED_VARIABLE, "1")
    code, _out, err = run(capsys, "play", "russian", "--white", "hub:touch pwned")
    assert code == 2 and "--white must be" in err


class Serving:
    def __init__(self, process: subprocess.Popen[bytes], log: Path, port: int) -> None:
        self.process, self.log, self.port = process, log, port

    def said(self, words: str) -> str:
        """What the server has printed once it has printed ``words``."""
        text = ""

        def said() -> bool:
            nonlocal text
            text = self.log.read_text(encoding="utf-8", errors="replace")
            return words in text

        try:
            until_blocking(said, timeout=WAIT, step=0.05, gone=self.ended)
        except AssertionError:
            raise AssertionError(f"{words!r} not said: {text!r}") from None
        return text

    def ended(self) -> str | None:
        """Why the server can say nothing more (it ended), or None."""
        code = self.process.poll()
        return None if code is None else f"the server ended (exit status {code})"

    def ready(self) -> None:
        """Wait until the port takes connections (it is bound after the words are said)."""

        def connects() -> bool:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=5).close()
            except OSError:
                return False
            return True

        until_blocking(connects, f"port {self.port} taking connections", step=0.05, gone=self.ended)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    """Start ``shashki serve ARGS`` (its files in ``tmp_path``); stopped after."""
    started: list[subprocess.Popen[bytes]] = []
    env = dict(os.environ, LANGUAGE="en", COLUMNS="200")
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        env[name] = str(tmp_path / name)
    env.pop(SERVED_VARIABLE, None)

    def start(*args: str) -> Serving:
        port = _free_port()
        log = tmp_path / f"serve-{port}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "shashki", "serve", "--port", str(port), *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        started.append(process)
        return Serving(process, log, port)

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def test_it_says_where_it_listens(serve: object) -> None:
    server = serve()  # type: ignore[operator]
    text = " ".join(server.said("Ctrl+C").split())
    assert f"open http://127.0.0.1:{server.port} in a web browser" in text
    assert "Listening on 127.0.0.1 only: other machines cannot connect" in text


def test_public_says_that_visitors_play_on_this_machine(serve: object) -> None:
    server = serve("--public")  # type: ignore[operator]
    text = " ".join(server.said("Ctrl+C").split())
    assert f"Listening on every network interface, port {server.port}" in text
    assert "anyone who can reach this machine can open the app and play on it" in text


async def test_visitors_beyond_the_limit_are_turned_away(serve: object) -> None:
    server = serve("--visitors", "1")  # type: ignore[operator]
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws?width=80&height=24"
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url) as first:
            # the first visitor's app draws (its first bytes come back)
            message = await first.receive(timeout=WAIT)
            assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url)
            assert refused.value.status == 503
        # the first one gone, there is room again (once its app has ended)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                async with session.ws_connect(url) as again:
                    message = await again.receive(timeout=WAIT)
                    assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
                    break
            except aiohttp.WSServerHandshakeError as exc:
                assert exc.status == 503
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)


async def test_the_page_connects_back_to_the_address_used(serve: object) -> None:
    """The page's WebSocket address is the one the visitor used (with ``--public`` the
    server listens on 0.0.0.0, which no browser can connect to); a Host header that is
    not a host name and port is not put in the page."""
    server = serve()  # type: ignore[operator]
    server.ready()
    url = f"http://127.0.0.1:{server.port}/"
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers={"Host": "shashki.example:8443"}) as response:
            page = await response.text()
        assert 'data-session-websocket-url="ws://shashki.example:8443/ws"' in page
        hostile = 'x"><script>alert(1)</script>'
        async with session.get(url, headers={"Host": hostile}) as response:
            page = await response.text()
        assert "<script>alert" not in page
        assert f'data-session-websocket-url="ws://127.0.0.1:{server.port}/ws"' in page
