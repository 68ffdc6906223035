"""No module of the records package imports another in a circle.

The imports are read from the source (``ast``), so an import inside a function counts
as much as one at the top of the module; only the imports under ``if TYPE_CHECKING:``
(for annotations, never run) are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import shashki.records

PACKAGE = "shashki.records"
RECORDS = Path(shashki.records.__file__).parent


def _type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module that run (those under ``if TYPE_CHECKING:``
    left out, their ``else:`` kept)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def imports_within(folder: Path, package: str = PACKAGE) -> dict[str, set[str]]:
    """For each module of ``folder`` (a package, ``__init__`` included), the modules of
    the same package it imports when it runs (``__init__`` for the package itself)."""
    modules = {path.stem for path in folder.glob("*.py")}

    def target(name: str) -> str | None:
        if name == package:
            return "__init__"
        if name.startswith(package + "."):
            head = name[len(package) + 1 :].split(".")[0]
            return head if head in modules else None
        return None

    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        found: set[str | None] = set()
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(target(alias.name) for alias in node.names)
                continue
            if node.level:  # relative to the package the module is in
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            if name == package:  # "from . import model" imports a module, else the package
                found.update(
                    alias.name if alias.name in modules else "__init__" for alias in node.names
                )
            else:
                found.add(target(name))
        graph[path.stem] = {t for t in found if t is not None and t != path.stem}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports (its modules in order, the first again at the end), or None."""
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        path.append(root)
        on_path.add(root)
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
                continue
            nxt = todo.pop(0)
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt in done or nxt not in graph:
                continue
            stack.append((nxt, sorted(graph[nxt])))
            path.append(nxt)
            on_path.add(nxt)
    return None


def test_find_cycle_sees_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_imports_within_reads_what_runs(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("from .model import Node\n")
    (tmp_path / "model.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .pdn import Visitor\n"
        "def show():\n    from .pdn import write\n"
    )
    (tmp_path / "pdn.py").write_text("from . import model\nfrom .model import Node\n")
    graph = imports_within(tmp_path)
    assert graph == {"__init__": {"model"}, "model": {"pdn"}, "pdn": {"model"}}
    assert find_cycle(graph) == ["model", "pdn", "model"]


def test_records_modules_import_each_other_in_no_circle() -> None:
    graph = imports_within(RECORDS)
    assert "model" in graph and len(graph) > 3
    cycle = find_cycle(graph)
    assert cycle is None, "records modules import each other in a circle: " + " -> ".join(cycle)
