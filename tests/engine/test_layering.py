"""The engine (layer 2, beside the records) stands on the rules only: no module of it
imports the records, the app, the command line, Textual or Rich — read from the source
with ``ast``, at module level and inside functions alike."""

from __future__ import annotations

import ast
from pathlib import Path

import shashki.engine

ENGINE = Path(shashki.engine.__file__).parent
FORBIDDEN = ("shashki.records", "shashki.app", "shashki.cli", "textual", "rich")


def imports_of(path: Path, package: str) -> set[str]:
    """The absolute names of the modules that a module's import statements name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def forbidden_imports(folder: Path, package: str) -> list[str]:
    return sorted(
        f"{path.name}: {name}"
        for path in folder.glob("*.py")
        for name in imports_of(path, package)
        if name.startswith(FORBIDDEN)
    )


def test_the_engine_imports_only_the_rules() -> None:
    assert len(list(ENGINE.glob("*.py"))) >= 5
    assert forbidden_imports(ENGINE, "shashki.engine") == []


def test_the_check_sees_an_upper_layer(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from ..records import read_games\n")
    (tmp_path / "b.py").write_text("def f():\n    import textual.app\n")
    (tmp_path / "c.py").write_text("from ..rules import Game\n")
    assert forbidden_imports(tmp_path, "shashki.engine") == [
        "a.py: shashki.records",
        "a.py: shashki.records.read_games",
        "b.py: textual.app",
    ]
