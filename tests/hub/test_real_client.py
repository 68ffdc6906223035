"""``shashki hub`` driven by a real Hub client for a whole game: pydraughts' ``HubEngine``
(PyPI), which sends the specification's clock (``level time=… inc=…``, the time less the
increment, printed by Python's ``repr``: ``7.0101e-05`` near the end of a clock) and
``set-param`` for a parameter shashki does not declare.

pydraughts installs a top-level package ``draughts`` (so does py-draughts), so it gets a
virtual environment of its own, made in the test and installed with pip as this machine
is set up; where that cannot be done, the test is skipped and says why.  It takes a
minute (the environment, then a game of a hundred plies or more): a slow test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shashki.engine.hub.text import find_move
from shashki.rules import Game

pytestmark = pytest.mark.slow

#: The pydraughts release the driver below is written for.
PYDRAUGHTS = "pydraughts==0.6.7"

#: Plays one game with pydraughts' HubEngine against COMMAND (both sides), on a clock of
#: START seconds and INC seconds a move kept by the driver, at most MOST plies; prints
#: what happened as JSON.  pydraughts logs every line it does not expect (an ``error``
#: line among them) as a warning: they are kept.
DRIVER = r"""
import json, logging, sys, time
from draughts import Board
from draughts.engine import HubEngine, Limit

warnings = []

class Keep(logging.Handler):
    def emit(self, record):
        warnings.append(record.getMessage())

logging.getLogger("pydraughts").addHandler(Keep(level=logging.WARNING))
command, start, inc, most = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
engine = HubEngine([command])
engine.init()
engine.configure({"book": False})  # (a parameter shashki does not declare)
board = Board("standard")
clocks = [start, start]
moves, infos = [], 0
while not board.is_over() and len(moves) < most:
    side = len(moves) % 2
    began = time.monotonic()
    result = engine.play(board, Limit(time=clocks[side], inc=inc), ponder=False)
    clocks[side] = max(0.0, clocks[side] - (time.monotonic() - began)) + inc
    infos += "depth" in result.info
    moves.append(result.move.hub_move)
    board.push(result.move)
engine.quit()
engine.p.stdin.close()
status = engine.p.wait(timeout=60)
print(json.dumps({"moves": moves, "over": board.is_over(), "winner": board.winner(),
                  "infos": infos, "id": engine.id, "warnings": warnings, "status": status}))
"""


@pytest.fixture(scope="module")
def pydraughts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a virtual environment with pydraughts, or a skip saying why not."""
    folder = tmp_path_factory.mktemp("pydraughts")
    venv = folder / "venv"
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


def test_pydraughts_plays_a_whole_game_against_shashki_hub(
    pydraughts: Path, tmp_path: Path
) -> None:
    heard = tmp_path / "heard.txt"  # what pydraughts said to shashki hub
    command = tmp_path / "shashki-hub"
    # (pydraughts runs its command through the shell, by the real path of its first word:
    # a script that starts shashki hub with this Python, keeping a copy of its input)
    command.write_text(
        f'#!/bin/sh\ntee "{heard}" | "{sys.executable}" -m shashki hub\n', encoding="utf-8"
    )
    command.chmod(0o755)
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(pydraughts), str(driver), str(command), "1", "0.1", "600"],
        capture_output=True,
        text=True,
        timeout=1200,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    game = json.loads(done.stdout)
    assert game["warnings"] == []  # no error line, nothing it did not expect
    assert game["id"]["name"] == "shashki" and game["status"] == 0
    assert game["over"], f"not over after {len(game['moves'])} plies"
    assert game["infos"] == len(game["moves"])  # an info line read before every move
    referee = Game("international")  # every move legal by shashki's rules too
    for text in game["moves"]:
        referee.push(find_move(referee, text))
    said = heard.read_text(encoding="utf-8").splitlines()
    levels = [t for t in said if t.startswith("level ")]
    assert len(levels) == len(game["moves"])
    assert all(t.startswith("level time=") and " inc=0.1" in t for t in levels)
    assert "set-param name=book value=false" in said and said[-1] == "quit"
