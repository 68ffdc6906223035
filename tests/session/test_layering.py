"""The layers above the engine hold their lines: the session imports no Textual, no Rich
and no front end (app, hub, command line); the Hub layer imports no Textual, no app and
no command line; the app imports no command line.  Read from the source with ``ast``
(at module level and inside functions alike), and the session also proven in a fresh
interpreter, where nothing else was imported first."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import shashki
from tests.engine.test_layering import imports_of

PACKAGE = Path(shashki.__file__).parent

#: What each layer must not import.
FORBIDDEN = {
    "session": ("textual", "rich", "shashki.app", "shashki.hub", "shashki.cli"),
    "hub": ("textual", "shashki.app", "shashki.cli"),
    "app": ("shashki.cli",),
}


def forbidden_imports(folder: Path, package: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{path.name}: {name}"
        for path in folder.glob("*.py")
        for name in imports_of(path, package)
        if name.startswith(forbidden)
    )


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_each_layer_imports_only_the_layers_below(layer: str) -> None:
    folder = PACKAGE / layer
    assert len(list(folder.glob("*.py"))) >= 5
    assert forbidden_imports(folder, f"shashki.{layer}", FORBIDDEN[layer]) == []


def test_the_check_sees_a_front_end(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from ..app.board import BoardWidget\n")
    (tmp_path / "b.py").write_text("def f():\n    from textual.widget import Widget\n")
    (tmp_path / "c.py").write_text("from ..hub.player import HubPlayer\n")
    (tmp_path / "d.py").write_text("from ..engine import ComputerPlayer\n")
    assert forbidden_imports(tmp_path, "shashki.session", FORBIDDEN["session"]) == [
        "a.py: shashki.app.board",
        "a.py: shashki.app.board.BoardWidget",
        "b.py: textual.widget",
        "b.py: textual.widget.Widget",
        "c.py: shashki.hub.player",
        "c.py: shashki.hub.player.HubPlayer",
    ]


PROBE = r"""
import importlib, json, pkgutil, sys
import shashki.session
for info in pkgutil.walk_packages(shashki.session.__path__, "shashki.session."):
    importlib.import_module(info.name)
from shashki.rules import Game
from shashki.session import Computer, GameSession, Person
session = GameSession(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
session.start()
session.play(session.game.legal_moves()[0])
assert len(session.game.move_stack) == 2
print(json.dumps(sorted(sys.modules)))
"""


def test_a_session_runs_without_textual_in_a_fresh_interpreter() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "shashki.session.game" in loaded  # the probe did use the session
    assert not [m for m in loaded if m.split(".")[0] in ("textual", "rich")]
    assert not [m for m in loaded if m.startswith(("shashki.app", "shashki.hub", "shashki.cli"))]
