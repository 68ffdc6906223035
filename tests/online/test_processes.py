"""Two shashki processes on 127.0.0.1 play a whole game on a clock (``--auto``: the
computer plays each side), one of them dropped mid-game and joining again; both
records are the same at the end."""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from shashki.records.reader import read_file
from shashki.store import scan_autosaves

#: Seconds any wait for a process's line may take.
WAIT = 120.0
JOIN = re.compile(r"shashki join (\S+) (\S+)")


class Proc:
    """A shashki command whose output lines are read as they come; its data and settings
    in ``home`` (never the user's own: a game hosted or joined is autosaved)."""

    def __init__(self, *args: str, home: Path) -> None:
        env = dict(
            os.environ,
            LANGUAGE="en",
            PYTHONUNBUFFERED="1",
            XDG_DATA_HOME=str(home / "data"),
            XDG_CONFIG_HOME=str(home / "config"),
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shashki", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first line (from now) that ``pattern`` finds, within the bound."""
        found = re.compile(pattern)
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no line like {pattern!r} in {WAIT} s: {self.seen}") from None
            if line is None:
                raise AssertionError(f"the process ended before {pattern!r}: {self.seen}")
            self.seen.append(line)
            match = found.search(line)
            if match:
                return match

    def end(self) -> int:
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def test_two_processes_play_a_game_with_a_drop_and_a_rejoin(tmp_path: Path) -> None:
    host_pdn, guest_pdn = tmp_path / "host.pdn", tmp_path / "guest.pdn"
    host = Proc(
        "host", "russian", "--clock", "0.5+0", "--port", "0", "--local", "--auto", "1",
        "--name", "Anna", "--save", str(host_pdn), home=tmp_path / "host",
    )  # fmt: skip
    try:
        address, code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        assert address.startswith("127.0.0.1:")
        first = Proc("join", address, code, "--auto", "1", "--name", "Boris", home=tmp_path)
        try:
            first.wait_for(r"^6: ")
        finally:
            first.proc.kill()  # dropped mid-game, without a goodbye
            first.end()
        host.wait_for("Boris is away")
        again = Proc(
            "join", address, code, "--auto", "1", "--name", "Boris", "--save", str(guest_pdn),
            home=tmp_path,
        )  # fmt: skip
        try:
            resumed = int(again.wait_for(r"Resumed after (\d+) moves").group(1))
            assert resumed >= 5  # (the sixth may have been played but not sent)
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
    text = host_pdn.read_text()
    assert text == guest_pdn.read_text()
    [record] = list(read_file(str(host_pdn)))
    assert record.headers["White"] == "Anna" and record.headers["Black"] == "Boris"
    assert record.headers["Site"] == f"online {address}"
    assert record.headers["TimeControl"] == "30+0"
    assert record.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
    assert "%clk" in text
    # the moves the first guest saw are the start of the game both kept
    seen = [line.split(": ", 1)[1] for line in first.seen if re.match(r"^\d+: ", line)]
    assert " ".join(seen[:5]) in " ".join(
        line.split(": ", 1)[1] for line in host.seen if re.match(r"^\d+: ", line)
    )


def test_a_headless_host_killed_is_offered_again_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``shashki host --auto`` killed with ``kill -9`` mid-game (no goodbye, no last
    write): its game is in its autosave folder as an app game is, offered at the app's
    next start and hosted again from there with the same code on the same port; the
    guest's headless game is autosaved too, to join again."""
    host_home, guest_home = tmp_path / "host", tmp_path / "guest"
    host = Proc(
        "host", "russian", "--clock", "5+0", "--port", "0", "--local", "--auto", "1",
        "--name", "Anna", home=host_home,
    )  # fmt: skip
    try:
        address, code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        guest = Proc("join", address, code, "--auto", "1", "--name", "Boris", home=guest_home)
        try:
            host.wait_for(r"^6: ")
            host.proc.send_signal(signal.SIGKILL)
            host.end()
            guest.wait_for("is over; join again")  # (its host gone: it stops, kept)
            assert guest.end() == 1
        finally:
            if guest.proc.poll() is None:
                guest.proc.kill()
    finally:
        if host.proc.poll() is None:
            host.proc.kill()
    port = address.rsplit(":", 1)[1]
    monkeypatch.setenv("XDG_DATA_HOME", str(guest_home / "data"))
    [joined] = scan_autosaves().resumable
    assert f'[ShashkiOnline "join {address} {code} black on ' in joined.path.read_text()
    monkeypatch.setenv("XDG_DATA_HOME", str(host_home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(host_home / "config"))
    [hosted] = scan_autosaves().resumable  # (the dead process's lock is no one's now)
    text = hosted.path.read_text()
    assert f'[ShashkiOnline "host {code} {port} local white on ' in text
    [record] = list(read_file(str(hosted.path)))
    plies = len(record.mainline_moves())
    assert 1 <= plies <= 7 and record.headers["White"] == "Anna"
    asyncio.run(_resumed_at_the_next_start(host_home, code, address, plies))


async def _resumed_at_the_next_start(home: Path, code: str, address: str, plies: int) -> None:
    from shashki.app.online import OnlineGameScreen
    from shashki.app.unfinished import UnfinishedScreen
    from shashki.online.host import HostLink
    from tests.app.conftest import make_app, wait_for

    app = make_app(home, autosave=True, offer_resume=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the offer")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, OnlineGameScreen), "the game")
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen) and isinstance(screen.link, HostLink)
        link = screen.link
        assert link.code == code and len(screen.controller.game.move_stack) == plies
        await wait_for(pilot, lambda: link.address == address, "hosting on the same port")
        await screen.close_network()


def test_malformed_http_to_a_host_prints_no_traceback(tmp_path: Path) -> None:
    host = Proc("host", "russian", "--port", "0", "--local", "--auto", "1", home=tmp_path)
    try:
        address, _code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        port = int(address.split(":")[1])
        for request in (
            b"GARBAGE \x00\x01\r\n\r\n",
            b"GET /ws HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            b"GET /ws HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: xx\r\nSec-WebSocket-Version: 13\r\n\r\n",
        ):
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(request)
                assert s.recv(12).startswith(b"HTTP/1.")  # (answered: 400)
        # the host still takes a guest, and said nothing of the garbage
        guest = Proc("join", address, _code, "--auto", "1", "--name", "Boris", home=tmp_path)
        try:
            guest.wait_for(r"^Joined ")
        finally:
            guest.proc.kill()
            guest.end()
        host.wait_for("Boris joined")
    finally:
        host.proc.kill()
        host.end()
    assert not [line for line in host.seen if "Traceback" in line or "Error handling" in line]
    rest = "".join(line + "\n" for line in iter(host.lines.get, None))
    assert "Traceback" not in rest and "Error handling" not in rest


def test_joining_a_port_that_accepts_and_never_answers_gives_up_in_one_line(
    tmp_path: Path,
) -> None:
    """After the time ``--wait`` gives (a second here: the usual 15 would only slow the
    test down)."""
    with socket.create_server(("127.0.0.1", 0)) as silent:  # (the system accepts for it)
        port = silent.getsockname()[1]
        join = Proc(
            "join", f"127.0.0.1:{port}", "K7WQ-M2", "--auto", "1", "--wait", "1", home=tmp_path
        )
        assert join.end() == 2
        lines = [line for line in iter(join.lines.get, None) if line]
    assert lines == [f"shashki: error: cannot join 127.0.0.1:{port}: no answer in 1 s"]


def test_a_guest_joined_again_from_another_process_takes_the_game_over(tmp_path: Path) -> None:
    # (the host's side thinks long on a long clock: the game lasts while the second joins)
    host = Proc("host", "russian", "--clock", "30+0", "--port", "0", "--local",
                "--auto", "8", "--name", "Anna", home=tmp_path / "host")  # fmt: skip
    try:
        address, code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        # (both of the guest's programs are one user's: one autosave folder)
        first = Proc("join", address, code, "--auto", "1", "--name", "Boris", home=tmp_path)
        try:
            first.wait_for(r"^Joined ")
            second = Proc("join", address, code, "--auto", "1", "--name", "Boris", home=tmp_path)
            try:
                second.wait_for(r"^Joined ")
                first.wait_for(r"joined again elsewhere: it goes on there")
                assert first.end() == 1  # (its copy stops; the game goes on in the other)
                host.wait_for(r"Boris is back")
            finally:
                second.proc.kill()
                second.end()
        finally:
            if first.proc.poll() is None:
                first.proc.kill()
                first.end()
    finally:
        host.proc.kill()
        host.end()
