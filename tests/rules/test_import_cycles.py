"""The rules package's modules import each other without a circle, and a variant is data:
read from the source with ``ast``, so that an import hidden in a function counts too
(only the imports under ``if TYPE_CHECKING:``, which never run, are left out)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import shashki.rules

RULES = Path(shashki.rules.__file__).parent


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node: ast.AST, package: str, modules: Iterable[str]) -> set[str]:
    """The modules of ``modules`` (names inside ``package``) that the code under ``node``
    imports when it runs: at module level or in a function, not under TYPE_CHECKING."""
    known = set(modules)
    out: set[str] = set()
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            out |= _imported(ast.Module(body=child.orelse, type_ignores=[]), package, known)
            continue
        names: list[str] = []
        if isinstance(child, ast.ImportFrom):
            if child.level == 1:  # from .x import y, from . import x
                names = [child.module] if child.module else [a.name for a in child.names]
            elif child.level == 0 and child.module and child.module.startswith(package + "."):
                names = [child.module[len(package) + 1 :]]
            elif child.level == 0 and child.module == package:  # from shashki.rules import x
                names = [a.name for a in child.names]
        elif isinstance(child, ast.Import):
            names = [a.name[len(package) + 1 :] for a in child.names if a.name.startswith(package)]
        out |= {name.split(".")[0] for name in names} & known
        out |= _imported(child, package, known)
    return out


def import_graph(folder: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``folder`` (the package ``package``) with the modules of the same
    folder it imports (``__init__`` left out: it only gathers the public names)."""
    sources = {p.stem: p for p in sorted(folder.glob("*.py")) if p.stem != "__init__"}
    return {
        name: _imported(ast.parse(path.read_text("utf-8")), package, sources) - {name}
        for name, path in sources.items()
    }


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: each group of modules that import each other, directly or
    through others (strongly connected components of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def reachable(graph: Mapping[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_rules_modules_import_each_other_without_a_circle() -> None:
    assert cycles(import_graph(RULES, "shashki.rules")) == []


def test_a_variant_is_data() -> None:
    # the dataclass builds no generator and reads no file: the families, the loader, the
    # registry and the game are above it
    above = {"generators", "bashni", "artamonov", "modifiers", "goals", "game", "fen"}
    above |= {"notation", "variant_file", "variant_registry"}
    assert reachable(import_graph(RULES, "shashki.rules"), "variant") & above == set()


def test_the_check_sees_a_circle_through_a_function(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from .b import f\n", "utf-8")
    (tmp_path / "b.py").write_text("def f():\n    from .c import g\n", "utf-8")
    (tmp_path / "c.py").write_text("import pkg.a\nfrom pkg import d\n", "utf-8")
    (tmp_path / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n", "utf-8"
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert reachable(graph, "d") == set()
