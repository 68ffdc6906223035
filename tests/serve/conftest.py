"""``shashki serve`` started for a test: on a free port, its files in the test's own
folders, stopped after; the apps it started found among its processes (Linux's /proc)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from shashki.session.served import JOIN_VARIABLE, SERVED_VARIABLE

from ..waiting import until_blocking

T = TypeVar("T")

#: The longest any one state is waited for (an app's start on a loaded machine is the
#: slowest: a few seconds when idle).
WAIT = 90.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def poll(condition: Callable[[], T], what: str, timeout: float = WAIT) -> T:
    """``condition()``'s first true value, looked at until ``timeout`` seconds pass."""
    return until_blocking(condition, what, timeout=timeout, step=0.05)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, running."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def peak_memory(pid: int) -> int:
    """The most memory process ``pid`` has held (its VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="the processes are read from Linux's /proc"
)


class Serving:
    """One ``shashki serve`` process."""

    def __init__(self, process: subprocess.Popen[bytes], log: Path, port: int) -> None:
        self.process, self.log, self.port = process, log, port
        self.origin = f"http://127.0.0.1:{port}"

    @property
    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def said(self, words: str) -> str:
        """What the server has printed once it has printed ``words``."""
        try:
            until_blocking(lambda: words in self.text, step=0.05, timeout=WAIT, gone=self.ended)
        except AssertionError:
            raise AssertionError(f"{words!r} not said: {self.text!r}") from None
        return self.text

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

    def apps(self) -> list[int]:
        """The apps it runs now (its child processes)."""
        return children(self.process.pid)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Serving]]:
    """Start ``shashki serve ARGS`` (its files in ``tmp_path``); stopped after, and every
    app it started with it."""
    started: list[Serving] = []
    env = dict(os.environ, LANGUAGE="en", COLUMNS="200")
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name)
    env.pop(SERVED_VARIABLE, None)
    env.pop(JOIN_VARIABLE, None)

    def start(*args: str) -> Serving:
        port = free_port()
        log = tmp_path / f"serve-{port}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "shashki", "serve", "--port", str(port), *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        started.append(Serving(process, log, port))
        return started[-1]

    yield start
    for serving in started:
        apps = serving.apps() if Path("/proc").exists() else []
        serving.process.terminate()
        try:
            serving.process.wait(15)
        except subprocess.TimeoutExpired:
            serving.process.kill()
            serving.process.wait(15)
        for pid in apps:  # (a test that failed may leave one: never an orphan)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
