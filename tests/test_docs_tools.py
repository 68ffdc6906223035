"""The tools that make documentation still make it: the README's screenshot (taken by the
app itself, tools/screenshot.py) and the API reference (pdoc, tools/api.py)."""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> ModuleType:
    """The script ``tools/NAME.py`` as a module."""
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def svg_text(svg: str) -> str:
    """The words an SVG screenshot shows, its non-breaking spaces as spaces."""
    root = ET.fromstring(svg)  # (well formed, or this raises)
    words = " ".join("".join(node.itertext()) for node in root.iter() if node.text)
    return html.unescape(words).replace("\xa0", " ")


def test_the_screenshot_is_taken_by_the_app(tmp_path: Path) -> None:
    out = tmp_path / "shot.svg"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "screenshot.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    text = svg_text(out.read_text(encoding="utf-8"))
    assert "Russian draughts" in text
    # every move played is in the move list, the last one too
    moves = tool("screenshot").MOVES
    assert all(move in text for move in moves), text


def test_the_readme_is_a_front_door() -> None:
    """At most 150 lines: what it is, a picture, how to install and play, a library
    example, links; the details are in docs/ (and CONTRIBUTING.md, SECURITY.md)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150


def test_the_readme_shows_the_screenshot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"!\[[^\]]+\]\(docs/screenshot\.svg\)", readme)
    svg = (ROOT / "docs" / "screenshot.svg").read_text(encoding="utf-8")
    assert "Russian draughts" in svg_text(svg)


def test_the_api_reference_documents_the_library_not_the_programs() -> None:
    names = tool("api").modules()
    assert {"shashki", "shashki.rules.game", "shashki.records", "shashki.engine"} <= set(names)
    assert not [n for n in names if n.startswith(("shashki.app", "shashki.commands"))]
    assert not [n for n in names if "._" in n]


def test_the_api_reference_is_made_from_the_docstrings(tmp_path: Path) -> None:
    pytest.importorskip("pdoc", reason="pdoc comes with the docs extra")
    page = tool("api").make(tmp_path, ["shashki", "shashki.rules.game"])
    assert page.exists()
    game = (tmp_path / "shashki" / "rules" / "game.html").read_text(encoding="utf-8")
    assert "push_text" in game and "legal_moves" in game
