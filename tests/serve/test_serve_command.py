"""``shashki serve`` as a command: a bad or busy port is one line and exit status 2, the
address it listens on is said (127.0.0.1 unless ``--public``, which says plainly that
visitors play on this machine), the apps it starts are bounded in number, and each is
started in served mode with a command line that quotes what it passes on."""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from shashki.serve import app_command
from shashki.session.served import SERVED_VARIABLE

from ..test_cli import run
from .conftest import WAIT, Serving


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
    words = app_command(args)  # (run as it is: no shell reads it)
    assert words == [sys.executable, "-m", "shashki", "--lang", "ru", "--variant-file", str(odd)]


def test_a_served_app_refuses_a_command_on_its_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SERVED_VARIABLE, "1")
    code, _out, err = run(capsys, "play", "russian", "--white", "hub:touch pwned")
    assert code == 2 and "--white must be" in err


def test_it_says_where_it_listens(serve: Callable[..., Serving]) -> None:
    server = serve()
    text = " ".join(server.said("Ctrl+C").split())
    assert f"open http://127.0.0.1:{server.port} in a web browser" in text
    assert "Listening on 127.0.0.1 only: other machines cannot connect" in text


def test_public_says_that_visitors_play_on_this_machine(serve: Callable[..., Serving]) -> None:
    server = serve("--public")
    text = " ".join(server.said("Ctrl+C").split())
    assert f"Listening on every network interface, port {server.port}" in text
    assert "anyone who can reach this machine can open the app and play on it" in text


async def test_visitors_beyond_the_limit_are_turned_away(serve: Callable[..., Serving]) -> None:
    server = serve("--visitors", "1")
    server.ready()
    url = f"http://127.0.0.1:{server.port}/ws?width=80&height=24"
    async with aiohttp.ClientSession(headers={"Origin": server.origin}) as session:
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
