"""An output closed before the command is done (``shashki check FILE | head``) ends every
command quietly: no "cannot read FILE: Broken pipe", no Python message as it exits, the
status of a program a closed pipe stops (141).  An output that cannot be written (a full
disk) is one line on stderr.

Each command runs as a process whose standard output is a pipe with no reader left, so
its first write (or the flush as it ends) meets the closed pipe; both with Python's
buffered output, as a user runs it, and unbuffered (PYTHONUNBUFFERED, as in CI).
"""

from __future__ import annotations

import errno
import io
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from shashki.hub.server import HubServer

from .waiting import until_blocking

#: The status of a program a closed pipe stops: 128 + SIGPIPE.
CLOSED_OUTPUT = 141

GAMES = '[Event "a"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. b2-c3 *\n\n' * 200


def run_closed(args: list[str], *, buffered: bool, stdin: bytes = b"") -> tuple[int, str]:
    """Run ``shashki ARGS`` with its output closed before it starts; (status, stderr)."""
    env = dict(os.environ)
    if buffered:
        env.pop("PYTHONUNBUFFERED", None)
    else:
        env["PYTHONUNBUFFERED"] = "1"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "shashki", *args],
            input=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=env,
            timeout=300,
        )
    finally:
        os.close(write_end)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def pdn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("closed") / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


COMMANDS = [
    ["check", "{pdn}"],
    ["check", "--verbose", "{pdn}"],
    ["check", "--json", "{pdn}", "{pdn}"],
    ["variants"],
    ["variants", "--json"],
    ["rules", "russian"],
    ["perft", "russian", "3", "--divide"],
    ["best", "russian", "--depth", "2"],
    ["match", "russian", "--white", "1", "--black", "1", "--games", "2", "--depth", "1"],
    ["hub"],
]


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_closed_output_ends_every_command_quietly(
    command: list[str], buffered: bool, pdn: Path
) -> None:
    args = [a.replace("{pdn}", str(pdn)) for a in command]
    status, err = run_closed(args, buffered=buffered, stdin=b"hub\n")
    assert err == ""
    assert status == CLOSED_OUTPUT


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["--version"]])
def test_help_to_a_closed_output_says_nothing(args: list[str]) -> None:
    # (argparse drops an error of its own writes: unbuffered, the help was lost unsaid)
    assert run_closed(args, buffered=True) == (CLOSED_OUTPUT, "")
    assert run_closed(args, buffered=False) == (CLOSED_OUTPUT, "")


def test_an_error_of_the_command_is_still_said(pdn: Path) -> None:
    """Only the output is closed: a file that cannot be read is said on stderr as ever
    (the summary then meets the closed output)."""
    missing = pdn.parent / "nope.pdn"
    status, err = run_closed(["check", str(missing)], buffered=True)
    assert err == f"shashki: error: cannot read {missing}: No such file or directory\n"
    assert status == CLOSED_OUTPUT


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("command", [["variants"], ["check", "{pdn}"], ["--help"]])
def test_an_output_that_cannot_be_written_is_one_line(
    command: list[str], buffered: bool, pdn: Path
) -> None:
    """An output on a full disk (/dev/full) is said in one line, status 2: no traceback,
    no "cannot read FILE", no message from Python as it exits."""
    env = dict(os.environ)
    if buffered:
        env.pop("PYTHONUNBUFFERED", None)
    else:
        env["PYTHONUNBUFFERED"] = "1"
    args = [a.replace("{pdn}", str(pdn)) for a in command]
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "shashki", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            env=env,
            timeout=300,
        )
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith("shashki: error: ") and "no space left on device" in err.lower()
    assert "cannot read" not in err


# -- the Hub session: its search writes from a thread of its own --------------------------


class _BadOutput(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


class _Lines:
    """A stdin that gives the lines put in it, blocking until one is there."""

    def __init__(self) -> None:
        self.lines: queue.Queue[bytes] = queue.Queue()

    def readline(self, limit: int = -1) -> bytes:
        return self.lines.get(timeout=60)


@pytest.mark.parametrize(
    "error",
    [BrokenPipeError(errno.EPIPE, "Broken pipe"), OSError(errno.ENOSPC, "No space left")],
    ids=["closed", "full"],
)
@pytest.mark.parametrize("then", ["ping\n", ""], ids=["a line", "the end"])
def test_the_hub_search_meets_an_output_it_cannot_write_without_a_traceback(
    error: OSError, then: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GUI closes its end (or the output's disk is full) while shashki's search runs:
    the search stops, no thread dies with a traceback on stderr, and the session ends
    with that error at the next line it reads, or at the end of its input (the command
    line then ends quietly, or says it in one line)."""
    failures: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    server = HubServer(_BadOutput(error))
    stdin = _Lines()
    ended: list[BaseException | None] = []

    def session() -> None:
        try:
            server.run(stdin)  # type: ignore[arg-type]
        except BaseException as exc:  # what ended the session is the result
            ended.append(exc)
        else:
            ended.append(None)

    thread = threading.Thread(target=session, daemon=True)
    thread.start()
    stdin.lines.put(b"level infinite\n")
    stdin.lines.put(b"go think\n")
    # the error seen, then the search's end (a thread made but not yet started is not
    # alive either: on a loaded machine that was read as the search's end)
    until_blocking(lambda: server.closed is not None, "the server closed")
    until_blocking(
        lambda: server.thread is None or not server.thread.is_alive(), "the server's thread ended"
    )
    assert server.closed is error and failures == []
    stdin.lines.put(then.encode())
    thread.join(60)
    assert ended == [error] and failures == []
