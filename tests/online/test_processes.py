"""Two shashki processes on 127.0.0.1 play a whole game on a clock (``--auto``: the
computer plays each side), one of them dropped mid-game and joining again; both
records are the same at the end."""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

from shashki.records.reader import read_file

#: Seconds any wait for a process's line may take.
WAIT = 120.0
JOIN = re.compile(r"shashki join (\S+) (\S+)")


class Proc:
    """A shashki command whose output lines are read as they come."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, LANGUAGE="en", PYTHONUNBUFFERED="1")
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
        "--name", "Anna", "--save", str(host_pdn),
    )  # fmt: skip
    try:
        address, code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        assert address.startswith("127.0.0.1:")
        first = Proc("join", address, code, "--auto", "1", "--name", "Boris")
        try:
            first.wait_for(r"^6: ")
        finally:
            first.proc.kill()  # dropped mid-game, without a goodbye
            first.end()
        host.wait_for("Boris is away")
        again = Proc(
            "join", address, code, "--auto", "1", "--name", "Boris", "--save", str(guest_pdn)
        )
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


def test_malformed_http_to_a_host_prints_no_traceback() -> None:
    host = Proc("host", "russian", "--port", "0", "--local", "--auto", "1")
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
        guest = Proc("join", address, _code, "--auto", "1", "--name", "Boris")
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


def test_joining_a_port_that_accepts_and_never_answers_gives_up_in_one_line() -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:  # (the system accepts for it)
        port = silent.getsockname()[1]
        join = Proc("join", f"127.0.0.1:{port}", "K7WQ-M2", "--auto", "1")
        assert join.end() == 2
        lines = [line for line in iter(join.lines.get, None) if line]
    assert lines == [f"shashki: error: Cannot join 127.0.0.1:{port}: no answer in 15 s."]


def test_a_guest_joined_again_from_another_process_takes_the_game_over() -> None:
    # (the host's side thinks long on a long clock: the game lasts while the second joins)
    host = Proc("host", "russian", "--clock", "30+0", "--port", "0", "--local",
                "--auto", "8", "--name", "Anna")  # fmt: skip
    try:
        address, code = JOIN.search(host.wait_for(r"shashki join").string).groups()  # type: ignore[union-attr]
        first = Proc("join", address, code, "--auto", "1", "--name", "Boris")
        try:
            first.wait_for(r"^Joined ")
            second = Proc("join", address, code, "--auto", "1", "--name", "Boris")
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
