"""Code in parts a person can hold (issue 46): no function of the package runs over 80
lines of body (its signature and docstring left out), except the hot paths that
docs/PERFORMANCE.md names in its table, with the benchmark that keeps them whole."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "shashki"
#: The most lines of body a function has.
MOST_LINES = 80


def allowed() -> set[tuple[str, str]]:
    """(file under src/shashki, function name) of each row of PERFORMANCE.md's table of
    hot paths: "| `rules/movegen.py` `_perft` (its `walk`) | 114 | …"."""
    text = (ROOT / "docs" / "PERFORMANCE.md").read_text(encoding="utf-8")
    found: set[tuple[str, str]] = set()
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        cell = line.split("|")[1]
        names = re.findall(r"`([^`]+)`", cell)
        path, functions = names[0], names[1:]
        if path.endswith(".py"):
            found.update((path, name.rpartition(".")[2]) for name in functions)
    return found


def body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str) and len(body) > 1:
            first = body[1]
    end = node.end_lineno or node.lineno
    return end - first.lineno + 1


def long_functions() -> list[tuple[str, str, int]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = body_lines(node)
                if lines > MOST_LINES:
                    out.append((where, node.name, lines))
    return out


def test_the_table_of_hot_paths_is_read() -> None:
    names = allowed()
    assert ("rules/movegen.py", "_perft") in names
    assert ("engine/search.py", "search_moves") in names


def test_no_function_is_longer_than_80_lines_but_the_named_hot_paths() -> None:
    names = allowed()
    over = [(where, name, n) for where, name, n in long_functions() if (where, name) not in names]
    assert not over, (
        f"over {MOST_LINES} lines of body: {over}; cut them into parts by what they do, "
        "or name a measured hot path in docs/PERFORMANCE.md's table"
    )
