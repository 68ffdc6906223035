"""The README's "Use it as a library" example runs as written, and ``import shashki``
gives the library surface without importing the terminal app."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_example() -> str:
    """The Python block of the README's library section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Use it as a library", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the library section has no python example"
    return match.group(1)


def test_the_readme_library_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # it writes games.pdn
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(readme_example(), "README.md", "exec"), {"__name__": "readme"})
    lines = out.getvalue().splitlines()
    assert lines[0] == "c3-d4"
    assert lines[1].startswith("W:") and lines[1].endswith(" None")
    assert lines[2].endswith(" Turkish draughts")
    assert lines[3] == "Ann 1 True []"  # the game as saved: c3-d4 (f6-g5 was taken back)
    assert (tmp_path / "games.pdn").read_text(encoding="utf-8").count("c3-d4") == 1


def test_import_shashki_brings_no_interface_code() -> None:
    code = (
        "import sys, shashki; shashki.Game('russian').legal_moves();"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')"
        " or m.startswith(('shashki.app', 'shashki.engine', 'shashki.cli'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_library_names_are_exported() -> None:
    import shashki

    for name in shashki.__all__:
        assert hasattr(shashki, name), name
    for name in ("Game", "Move", "Outcome", "Variant", "all_variants", "find_variant"):
        assert name in shashki.__all__
    for name in ("read_games", "write_game"):
        assert name in shashki.__all__
