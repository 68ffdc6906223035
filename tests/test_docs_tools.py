"""The tools that make documentation still make it: the README's screenshot (taken by the
app itself, tools/screenshot.py) and the API reference (pdoc, tools/api.py)."""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import sys
import warnings
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
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # a package and a module it brings: pdoc warns of a module named twice
        names = [
            "shashki",
            "shashki.rules.game",
            "shashki.rules.move",
            "shashki.hub",
            "shashki.hub.dxp_server",
        ]
        page = tool("api").make(tmp_path, names)
    assert page.exists()
    game = (tmp_path / "shashki" / "rules" / "game.html").read_text(encoding="utf-8")
    assert "push_text" in game and "legal_moves" in game
    # every annotation read (a named tuple's too: Piece's ``Color | None``), no module twice
    assert [str(w.message) for w in caught] == []
    piece = (tmp_path / "shashki" / "rules" / "move.html").read_text(encoding="utf-8")
    assert "ForwardRef" not in piece


def test_the_engine_page_says_how_it_plays_and_one_strength_table() -> None:
    """docs/ENGINE.md: how the engine plays, and one table of its strength now, each row
    with the command that measured it; the dated measurements are benchmarks/RESULTS.md's
    (issue 46)."""
    text = (ROOT / "docs" / "ENGINE.md").read_text(encoding="utf-8")
    tables = [n for n, line in enumerate(text.splitlines()) if re.match(r"\|\s*:?-+", line)]
    assert len(tables) == 1, "one table: the strength"
    strength = text.split("\n## Strength\n", 1)[1].split("\n## ", 1)[0]
    header = strength.split("\n|---", 1)[0].rsplit("\n", 1)[1]
    assert "command" in header
    assert not re.search(r"\b20\d\d-[01]\d-[0-3]\d\b", text), "a dated log: benchmarks/RESULTS.md"
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    assert re.search(r"\b20\d\d-[01]\d-[0-3]\d\b", results)
