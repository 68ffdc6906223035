"""The layers of ARCHITECTURE.md hold: one test, driven by the table there.

The table's rows are read from ARCHITECTURE.md itself (its "Layers" section): a layer
number, the packages of the row, and what they may import (the rows named there, and the
other programs' packages).  Every import of every module under ``src/shashki`` is read
with ``ast`` (at module level and inside functions alike) and checked against it:

- every module belongs to one row, and every row names modules that exist;
- a row may import only rows of a lower layer: the table has no circle, and two rows of
  one layer (the Hub beside online play, the app beside ``shashki serve``) never import
  each other;
- every import of a module names its own row, a row its row may import, the standard
  library, or another program's package its row names (those under ``if TYPE_CHECKING:``
  count too for shashki's own rows: an annotation is a dependency as well);
- no package's modules import each other in a circle (here the imports under ``if
  TYPE_CHECKING:``, which never run, are left out);
- in a fresh interpreter, importing every module of a row loads nothing of shashki it may
  not import, and no other program it does not name.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
ARCHITECTURE = ROOT / "ARCHITECTURE.md"


# -- the table -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row of the table: its layer, its packages, what it may import."""

    layer: int
    name: str
    packages: tuple[str, ...]
    #: The rows (by a package of theirs) and other programs' packages it may import.
    may_import: tuple[str, ...]


def read_table(text: str) -> list[Row]:
    """The rows of the table under the "## Layers" heading of ARCHITECTURE.md's text.

    A row's cells: ``N name`` (the layer), the packages (each between backticks), what
    they hold (words), what they may import (each between backticks; "every layer below"
    for all the rows of a lower layer)."""
    section = text.split("\n## Layers", 1)[1].split("\n## ", 1)[0]
    rows: list[Row] = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not re.match(r"\d+ ", cells[0]):
            continue
        number, name = cells[0].split(" ", 1)
        packages = tuple(re.findall(r"`([^`]+)`", cells[1]))
        allowed = re.findall(r"`([^`]+)`", cells[3])
        if "every layer below" in cells[3]:
            allowed += [p for row in rows if row.layer < int(number) for p in row.packages]
        rows.append(Row(int(number), name, packages, tuple(allowed)))
    return rows


ROWS = read_table(ARCHITECTURE.read_text(encoding="utf-8"))


def row_of(module: str, rows: Iterable[Row] = ROWS) -> Row | None:
    """The row ``module`` (a dotted name) belongs to: the row of its longest package."""
    best: tuple[int, Row | None] = (-1, None)
    for row in rows:
        for package in row.packages:
            if (module == package or module.startswith(package + ".")) and len(package) > best[0]:
                best = (len(package), row)
    return best[1]


# -- the imports -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """A module an import statement names: absolute, and whether it only runs for the
    type checker (under ``if TYPE_CHECKING:``)."""

    name: str
    typing_only: bool
    line: int


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> list[Import]:
    """Every module the import statements of ``source`` (the module ``module``) name,
    wherever they are; ``from X import y`` names ``X.y`` when that is a module of
    ``known``, else ``X``."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for part in child.body:
                    visit_one(part, True)
                for part in child.orelse:
                    visit_one(part, typing_only)
                continue
            visit_one(child, typing_only)

    def visit_one(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend(Import(a.name, typing_only, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            for alias in node.names:
                full = f"{name}.{alias.name}"
                found.append(Import(full if full in known else name, typing_only, node.lineno))
        visit(node, typing_only)

    visit(ast.parse(source), False)
    return found


def modules_under(src: Path) -> dict[str, Path]:
    """Every module under ``src`` by its dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = modules_under(SRC)


def all_imports(modules: Mapping[str, Path]) -> dict[str, list[Import]]:
    known = set(modules)
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known)
        for name, path in modules.items()
    }


IMPORTS = all_imports(MODULES)


def outside_the_rows(
    rows: list[Row], imports: Mapping[str, list[Import]], modules: Mapping[str, Path]
) -> list[str]:
    """Each import that its module's row may not make, as "module:line imports name"."""
    bad: list[str] = []
    for module, found in imports.items():
        row = row_of(module, rows)
        assert row is not None, f"{module} is in no row of the table"
        for imp in found:
            top = imp.name.split(".")[0]
            if top == "shashki":
                target = row_of(imp.name, rows)
                allowed = target is row or (
                    target is not None and any(p in row.may_import for p in target.packages)
                )
            elif imp.typing_only or top in sys.stdlib_module_names or top == "__future__":
                allowed = True
            else:
                allowed = top in row.may_import
            if not allowed:
                bad.append(f"{module}:{imp.line} imports {imp.name}")
    return sorted(bad)


# -- circles inside a package ------------------------------------------------------------------


def package_graph(
    package: str, imports: Mapping[str, list[Import]], modules: Mapping[str, Path]
) -> dict[str, set[str]]:
    """The modules of ``package`` (its own files, ``__init__`` by the package's name) and
    those of the same package each imports when it runs."""
    members = {name for name in modules if name == package or name.rpartition(".")[0] == package}
    graph: dict[str, set[str]] = {}
    for name in members:
        targets = set()
        for imp in imports[name]:
            if imp.typing_only:
                continue
            # the member it reaches: the module itself, or the one it is inside of
            for member in members:
                if imp.name == member or (member != package and imp.name.startswith(member + ".")):
                    targets.add(member)
                    break
            else:
                if imp.name.startswith(package + "."):
                    targets.add(package)  # a name of the package's __init__
        graph[name] = targets - {name}
    return graph


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
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


PACKAGES = sorted(name for name, path in MODULES.items() if path.name == "__init__.py")


# -- the tests ---------------------------------------------------------------------------------


def test_the_table_is_read() -> None:
    names = [row.name for row in ROWS]
    assert {"rules", "records", "engine", "store", "session", "hub", "online", "app"} <= set(names)
    assert len(names) == len(set(names)), "two rows of one name"


def test_every_module_is_in_one_row_and_every_row_is_there() -> None:
    homeless = [name for name in MODULES if row_of(name) is None]
    assert homeless == [], "add these to ARCHITECTURE.md's table of layers"
    for row in ROWS:
        for package in row.packages:
            assert package in MODULES, f"{row.name}: no module {package}"
        for name in row.may_import:
            if name.startswith("shashki"):
                assert row_of(name) is not None, f"{row.name} may import {name}: no such row"


def test_a_row_imports_only_lower_layers() -> None:
    """So the table has no circle, and two rows of one layer (hub and online, app and
    serve) never import each other."""
    for row in ROWS:
        for name in row.may_import:
            target = row_of(name)
            if target is not None:
                assert target.layer < row.layer, f"{row.name} may import {target.name}"


def test_every_import_is_one_the_table_allows() -> None:
    assert outside_the_rows(ROWS, IMPORTS, MODULES) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_circle_inside_a_package(package: str) -> None:
    assert cycles(package_graph(package, IMPORTS, MODULES)) == []


def test_a_variant_is_data() -> None:
    """The Variant dataclass builds no generator and reads no file: the families, the
    loader, the registry and the game are above it."""
    graph = package_graph("shashki.rules", IMPORTS, MODULES)
    above = {"generators", "bashni", "artamonov", "modifiers", "goals", "game", "fen"}
    above |= {"notation", "variant_file", "variant_registry"}
    reached = reachable(graph, "shashki.rules.variant")
    assert reached & {f"shashki.rules.{name}" for name in above} == set()


#: Imports every module of the packages named on its command line and prints the modules
#: that then appeared.
PROBE = r"""
import importlib, json, pkgutil, sys
before = set(sys.modules)
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), name + "."):
        importlib.import_module(info.name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""

#: The rows under the front ends, proven in a fresh interpreter too.
PROBED = ("rules", "records", "engine", "store", "session", "hub", "online")


@pytest.mark.parametrize("name", PROBED)
def test_a_row_loads_only_what_it_may_in_a_fresh_interpreter(name: str) -> None:
    row = next(r for r in ROWS if r.name == name)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *row.packages],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert set(row.packages) <= set(loaded)
    rows = {row.name} | {r.name for r in ROWS if any(p in row.may_import for p in r.packages)}
    library = next(r for r in ROWS if "shashki" in r.packages)
    # (any module of shashki loads the package itself, and so the library surface: it is
    # checked on its own row)
    rows |= {library.name} | {
        r.name for r in ROWS if any(p in library.may_import for p in r.packages)
    }
    above = sorted(
        m
        for m in loaded
        if m.split(".")[0] == "shashki" and getattr(row_of(m), "name", None) not in rows
    )
    assert above == []
    programs = [name for name in row.may_import if not name.startswith("shashki")]
    if not programs:  # (another program loads its own dependencies, which no row names)
        others = {m.split(".")[0] for m in loaded} - set(sys.stdlib_module_names)
        assert sorted(others - {"shashki", "_distutils_hack"}) == []


# -- the checks see what they look for ---------------------------------------------------------


def _tree(tmp_path: Path, files: Mapping[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = tmp_path / "shashki" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return modules_under(tmp_path)


TABLE = """
## Layers

| layer | package | holds | may import |
|---|---|---|---|
| 0 low | `shashki.low` | a | the standard library |
| 1 mid | `shashki.mid` | b | `shashki.low` |
| 1 side | `shashki.side` | c | `shashki.low`, `textual` |
| 2 top | `shashki.top`, `shashki.cli` | d | every layer below |

## Next
"""


def test_the_check_sees_an_import_the_table_does_not_allow(tmp_path: Path) -> None:
    rows = read_table(TABLE)
    assert [(r.layer, r.name) for r in rows] == [(0, "low"), (1, "mid"), (1, "side"), (2, "top")]
    assert rows[3].may_import == ("shashki.low", "shashki.mid", "shashki.side")
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "",
            "low/a.py": "def f():\n    from ..mid import x\n",  # up, inside a function
            "mid/__init__.py": "from ..side import y\nimport textual\n",  # sideways; a program
            "side/__init__.py": (
                "from typing import TYPE_CHECKING\nimport textual.app\n"
                "if TYPE_CHECKING:\n    from ..top import z\n    import rich\n"
            ),
            "top/__init__.py": "from .. import low\nfrom ..mid import x\nimport json\n",
            "cli.py": "from .top import t\n",
        },
    )
    rows = [*rows, Row(0, "library", ("shashki",), ())]
    assert outside_the_rows(rows, all_imports(modules), modules) == [
        "shashki.low.a:2 imports shashki.mid",
        "shashki.mid:1 imports shashki.side",
        "shashki.mid:2 imports textual",
        "shashki.side:4 imports shashki.top",
    ]


def test_the_check_sees_a_circle_through_a_function(tmp_path: Path) -> None:
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "pkg/__init__.py": "from .a import f\n",
            "pkg/a.py": "from .b import f\n",
            "pkg/b.py": "def f():\n    from .c import g\n",
            "pkg/c.py": "import shashki.pkg.a\nfrom shashki.pkg import d\n",
            "pkg/d.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n"
            ),
            "pkg/e.py": "from . import f\n",  # a name of __init__, which imports a
        },
    )
    imports = all_imports(modules)
    graph = package_graph("shashki.pkg", imports, modules)
    short = {k.rpartition(".")[2]: {v.rpartition(".")[2] for v in vs} for k, vs in graph.items()}
    assert short == {
        "pkg": {"a"},
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"pkg"},
    }
    assert cycles(graph) == [["shashki.pkg.a", "shashki.pkg.b", "shashki.pkg.c"]]
