"""The log (issue 46): one logger a package, silent unless asked; ``--log FILE`` or
``SHASHKI_LOG`` writes what an engine, a peer or a file did wrong, a line each, as plain
text."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.base.logs import LOG_VARIABLE, log_to, package_logger
from shashki.engine import EngineError, open_engine
from shashki.rules import Game

FAKE = str(Path(__file__).resolve().parent / "hub" / "fake_engine.py")
BAD_PDN = '[GameType "25"]\n1. c3-d4 d4-e5 *\n'


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[Path]:
    """This process logging to a file of its own while the test runs."""
    path = tmp_path / "shashki.log"
    log_to(path)
    try:
        yield path
    finally:
        log_to(None)


def shashki(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shashki", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_each_package_has_one_logger_under_shashki() -> None:
    assert package_logger("shashki.hub.server").name == "shashki.hub"
    assert package_logger("shashki.engine.hub.client").name == "shashki.engine"
    assert package_logger("shashki").name == "shashki"
    assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger("shashki").handlers)


def test_a_file_s_mistakes_are_logged_with_log_or_shashki_log(tmp_path: Path) -> None:
    pdn = tmp_path / "bad.pdn"
    pdn.write_text(BAD_PDN, encoding="utf-8")
    quiet = shashki("check", str(pdn))
    log = tmp_path / "by-option.log"
    by_option = shashki("--log", str(log), "check", str(pdn))
    assert (by_option.stdout, by_option.stderr, by_option.returncode) == (
        quiet.stdout,
        quiet.stderr,
        quiet.returncode,
    )  # the log is the log's: the command says what it said
    text = log.read_text(encoding="utf-8")
    assert f"INFO shashki.records: {pdn}, game 1: line 2, column 10: " in text
    assert "d4-e5" in text
    env_log = tmp_path / "by-variable.log"
    shashki("check", str(pdn), env={LOG_VARIABLE: str(env_log)})
    assert "INFO shashki.records:" in env_log.read_text(encoding="utf-8")
    assert oct(env_log.stat().st_mode & 0o777) == "0o600"  # (a new log is the user's alone)


def test_a_log_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    done = shashki("--log", str(tmp_path / "no-folder" / "x.log"), "perft", "russian", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("shashki: error: cannot write the log ")
    assert len(done.stderr.splitlines()) == 1
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = shashki("--log", str(fifo), "perft", "russian", "1")  # nobody reads it: refused
    assert done.returncode == 2 and "cannot write the log" in done.stderr


def test_an_engine_that_fails_is_logged_as_plain_text(logged: Path) -> None:
    with pytest.raises(EngineError):
        with open_engine([sys.executable, FAKE, "crash"]) as engine:
            engine.analyse(Game("international"))
    with open_engine([sys.executable, FAKE, "escape"]) as engine:
        engine.analyse(Game("international"))
    text = logged.read_text(encoding="utf-8")
    assert "INFO shashki.engine: engine fake-crash started: " in text
    assert "WARNING shashki.engine: engine fake-crash stopped (while answering go think)" in text
    assert "INFO shashki.engine: engine fake-esca pe started" in text
    assert not any((ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0 for c in text)
    assert "\x1b" not in text and "\u202e" not in text
    lines = text.splitlines()
    assert all(line[:4].isdigit() and " shashki" in line for line in lines)


def test_a_peer_s_words_drive_no_terminal_that_shows_the_log(logged: Path) -> None:
    said = "a peer says \x1b]0;pwned\x07\x1b[2J\x1b[31mhello\u202e\rthere\nsecond line\x9b1m"
    package_logger("shashki.online").warning("online: %s", said)
    line = logged.read_text(encoding="utf-8").splitlines()[-1]
    assert line.endswith("WARNING shashki.online: online: a peer says hello there second line")


def test_shashki_hub_logs_what_its_client_asked_wrong(tmp_path: Path) -> None:
    log = tmp_path / "hub.log"
    done = subprocess.run(
        [sys.executable, "-m", "shashki", "--log", str(log), "hub"],
        input="hub\npos pos=Wzz\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "error" in done.stdout
    assert "WARNING shashki.hub: shashki hub: the client's line refused: " in log.read_text(
        encoding="utf-8"
    )


def test_a_settings_file_that_cannot_be_read_is_logged(logged: Path, tmp_path: Path) -> None:
    from shashki.store.settings import Settings

    broken = tmp_path / "settings.json"
    broken.write_text('{"language": 7, "theme": ', encoding="utf-8")
    assert Settings.load(broken) == Settings()
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"language": 7}', encoding="utf-8")
    assert Settings.load(wrong) == Settings()
    assert Settings.load(tmp_path / "missing.json") == Settings()  # no file: nothing to say
    text = logged.read_text(encoding="utf-8")
    assert f"WARNING shashki.store: settings {broken} not read, the defaults used: " in text
    assert f"WARNING shashki.store: settings {wrong}: 'language' left out" in text
    assert "missing.json" not in text
