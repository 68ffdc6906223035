"""DXP against real programs, for whole games: Scan 2.0 (``../shared/engines/scan-2.0``,
built by its ``build.sh`` into a folder of the test's own) as the follower shashki asks
for a game, and as the initiator asking ``shashki dxp`` for games; pydraughts' DXP client
(PyPI, in a virtual environment of its own made by the test, as the Hub test does) asking
``shashki dxp`` for a game.  Where Scan cannot be built or pydraughts installed, the test
is skipped saying why.  Slow tests: each plays whole games on a busy machine.

Scan listens on (or connects to) the port its ``scan.ini`` names: the test writes a free
port of 127.0.0.1 there (Scan 2.0 as a server listens on every address of the machine;
nothing connects to it but the test).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.engine.limits import Limit
from shashki.hub.dxp_player import DxpPlayer
from shashki.hub.dxp_server import DxpServer
from shashki.hub.match import Opening, play_game
from shashki.records import GameRecord, read_games
from shashki.rules import find_variant
from shashki.session.players import Computer
from shashki.store.storage import GameLog
from tests.conftest import shared_path
from tests.waiting import until_blocking

pytestmark = pytest.mark.slow

INTERNATIONAL = find_variant("international")
#: The pydraughts release the driver below is written for.
PYDRAUGHTS = "pydraughts==0.6.7"


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as sock:
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def scan_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with Scan 2.0 built, or a skip saying why not."""
    build = shared_path("engines", "scan-2.0", "build.sh")
    if shutil.which("g++") is None or shutil.which("make") is None:
        pytest.skip("Scan 2.0 needs g++ and make to be built")
    folder = tmp_path_factory.mktemp("scan") / "scan-2.0"
    done = subprocess.run(
        ["sh", str(build), str(folder)], capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0 or not (folder / "scan").exists():
        pytest.skip(f"Scan 2.0 could not be built: {done.stderr.strip()[-300:]}")
    return folder


def _scan(build: Path, where: Path, **settings: object) -> Path:
    """A copy of the built Scan whose scan.ini says ``settings``."""
    folder = where / "scan"
    shutil.copytree(build, folder)
    lines = []
    for line in (build / "scan.ini").read_text().splitlines():
        key = line.split("=")[0].strip()
        if key.replace("-", "_") in settings:
            value = settings[key.replace("-", "_")]
            line = f"{key} = {str(value).lower() if isinstance(value, bool) else value}"
        lines.append(line)
    (folder / "scan.ini").write_text("\n".join(lines) + "\n")
    return folder


@pytest.fixture
def stopping() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_shashki_asks_scan_for_a_whole_game_over_dxp(
    scan_build: Path, tmp_path: Path, stopping: list[subprocess.Popen[bytes]]
) -> None:
    port = _free_port()
    folder = _scan(
        scan_build, tmp_path, dxp_port=port, dxp_server=True, dxp_board=False, dxp_search=False
    )
    out = (tmp_path / "scan.txt").open("wb")
    scan = subprocess.Popen(["./scan", "dxp"], cwd=folder, stdout=out, stderr=subprocess.STDOUT)
    stopping.append(scan)
    until_blocking(
        lambda: b"waiting for a connection" in (tmp_path / "scan.txt").read_bytes(),
        "Scan listening",
        timeout=300,
    )
    player = DxpPlayer("127.0.0.1", port)
    record, _score, why = play_game(
        INTERNATIONAL, Computer(2, seed=7), player, Opening(None), limit=Limit(seconds=0.1)
    )
    player.close()
    assert player.name == "Scan 2.0"
    assert "lost:" not in why, why  # (nobody failed: the game ended by the rules)
    assert record.result in ("1-0", "0-1", "1/2-1/2")
    assert len(record.mainline_moves()) > 10
    scan.wait(timeout=60)  # (told to stop, it ends)
    said = (tmp_path / "scan.txt").read_text(errors="replace")
    assert "games   1" in said  # its own tally of the game


def test_scan_asks_shashki_dxp_for_games(
    scan_build: Path, tmp_path: Path, stopping: list[subprocess.Popen[bytes]]
) -> None:
    said: list[str] = []
    server = DxpServer(
        lambda: Computer(2, seed=1),
        INTERNATIONAL,
        said.append,
        host="127.0.0.1",
        port=0,
        log=GameLog(tmp_path / "games.pdn", append=True),
    )
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        folder = _scan(
            scan_build,
            tmp_path,
            dxp_port=server.address[1],
            dxp_host="127.0.0.1",
            dxp_server=False,
            dxp_initiator=True,
            dxp_time=1,
            dxp_moves=0,
            dxp_board=False,
            dxp_search=False,
        )
        scan = subprocess.Popen(
            ["./scan", "dxp"], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        stopping.append(scan)
        # Scan plays games one after the other, colours alternating: two whole ones
        until_blocking(
            lambda: sum("ended (" in line for line in said) >= 2, "two games played", timeout=900
        )
    finally:
        for proc in stopping:
            proc.kill()
        server.stop()
    games: list[GameRecord] = list(read_games(str(tmp_path / "games.pdn")))
    assert [g.result for g in games[:2]] != ["*", "*"]
    assert games[0].headers["White"] == "Scan 2.0" and games[1].headers["Black"] == "Scan 2.0"
    for game in games[:2]:
        assert game.result in ("1-0", "0-1", "1/2-1/2"), said
        assert len(game.mainline_moves()) > 10
    assert not [line for line in said if "not DXP" in line or "legal" in line]


#: Plays one game with pydraughts' DXPEngine (the initiator) against shashki dxp on
#: 127.0.0.1:PORT, pydraughts moving for the side not the engine's at random; prints
#: what happened as JSON.
DRIVER = r"""
import json, os, random, sys
from draughts import Board
from draughts.engine import DXPEngine

port, most = sys.argv[1], int(sys.argv[2])
random.seed(1)
engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port}, initial_time=120)
board = Board("standard")
moves = []
while not board.is_over() and len(moves) < most:
    if len(moves) % 2 == 0:  # the engine (asked first) plays White
        result = engine.play(board)
        move = result.move
    else:
        move = random.choice(board.legal_moves())
    moves.append(move.li_one_move)
    board.push(move)
print(json.dumps({"moves": moves, "over": board.is_over(), "name": engine.id.get("name")}),
      flush=True)
engine.quit()  # (GAMEEND, its answer awaited)
os._exit(0)  # (pydraughts' reading thread never ends by itself)
"""


@pytest.fixture(scope="module")
def pydraughts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a virtual environment with pydraughts, or a skip saying why not."""
    venv = tmp_path_factory.mktemp("pydraughts-dxp") / "venv"
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300
        )
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no virtual environment can be made for pydraughts here: {exc}")
    python = venv / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYDRAUGHTS],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no message"])[-1]
        pytest.skip(f"{PYDRAUGHTS} cannot be installed with pip here: {said}")
    return python


def test_pydraughts_dxp_client_plays_a_whole_game_against_shashki_dxp(
    pydraughts: Path, tmp_path: Path
) -> None:
    said: list[str] = []
    server = DxpServer(
        lambda: Computer(1, seed=1),
        INTERNATIONAL,
        said.append,
        host="127.0.0.1",
        port=0,
        log=GameLog(tmp_path / "games.pdn", append=True),
    )
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        done = subprocess.run(
            [str(pydraughts), str(driver), str(server.address[1]), "300"],
            capture_output=True,
            text=True,
            timeout=900,
            env=env,
            cwd=tmp_path,
        )
        until_blocking(lambda: any("ended (" in line for line in said), "the game's end said")
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-2000:]
    game = json.loads(done.stdout.strip().splitlines()[-1])
    assert game["name"] == "shashki"
    assert game["over"], f"not over after {len(game['moves'])} plies"
    (kept,) = read_games(str(tmp_path / "games.pdn"))
    # every move shashki was told, the same; pydraughts sends its last move only when it
    # asks for another, so a game its own move ended is kept without that move
    assert len(game["moves"]) - 1 <= len(kept.mainline_moves()) <= len(game["moves"])
    if len(kept.mainline_moves()) == len(game["moves"]):
        assert kept.result != "*"
