"""Every repository path the documentation names exists: the top-level documents (README.md,
ARCHITECTURE.md, CONTRIBUTING.md, SECURITY.md, CHANGELOG.md…), docs/**/*.md and
benchmarks/*.md, wherever they name something under src/, tests/, docs/, benchmarks/, tools/
or variants/ (a glob such as ``variants/*.toml`` must match something), and ARCHITECTURE.md's
package paths (``rules/movegen.py``, ``app/styles/*.tcss``) under src/shashki/.

A path may be named before it exists only on a line that marks it "(planned)"; once it
exists, the mark must go.  Links between the documents ("[x](rules/switches.md)") resolve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROOTED = re.compile(r"(?<![\w./~$<-])((?:src|tests|docs|benchmarks|tools|variants)/[\w./*-]*)")
PACKAGE = re.compile(r"(?<![\w./~$<-])((?:rules|records|engine|session|hub|app)/[\w./*-]*)")
PLANNED = re.compile(r"\(planned\b")


def documents() -> list[Path]:
    return [
        *sorted(ROOT.glob("*.md")),
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "benchmarks").glob("*.md")),
    ]


def exists(base: Path, name: str) -> bool:
    if "*" in name:
        return any(base.glob(name))
    return (base / name).exists()


def problems(text: str, packages: bool = False) -> list[str]:
    """What is wrong with the paths ``text`` names: one line each."""
    out = []
    patterns = [(ROOTED, ROOT)] + ([(PACKAGE, ROOT / "src" / "shashki")] if packages else [])
    for number, line in enumerate(text.splitlines(), 1):
        planned = bool(PLANNED.search(line))
        for pattern, base in patterns:
            for m in pattern.finditer(line):
                name = m.group(1).rstrip(".")
                if name.endswith("/") and name.count("/") == 1 and pattern is PACKAGE:
                    continue  # "app/" alone is the package, named in prose
                there = exists(base, name)
                if not there and not planned:
                    out.append(f"line {number}: {name} does not exist")
                elif there and planned:
                    out.append(f"line {number}: {name} exists; the line still says it is planned")
    return out


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_the_docs_name_exists(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not problems(text, packages=path.name == "ARCHITECTURE.md")


def test_the_docs_name_paths() -> None:
    named = sum(len(ROOTED.findall(p.read_text(encoding="utf-8"))) for p in documents())
    assert named > 50


def test_a_path_that_is_gone_is_found() -> None:
    layout = "src/shashki/rules/      the rules\nsrc/shashki/notation/   moves as text\n"
    assert problems(layout) == ["line 2: src/shashki/notation/ does not exist"]
    assert problems("tests/rules/test_*.py and variants/*.toml, `benchmarks/perft.py`.") == []
    assert problems("variants/*.json") == ["line 1: variants/*.json does not exist"]
    assert problems("app/nothing.py", packages=True) == ["line 1: app/nothing.py does not exist"]


def test_a_planned_path_is_allowed_only_while_it_is_missing() -> None:
    assert problems("src/shashki/someday/ (planned)") == []
    assert problems("src/shashki/rules/ (planned)") == [
        "line 1: src/shashki/rules/ exists; the line still says it is planned"
    ]


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_between_the_docs_resolves(path: Path) -> None:
    targets = LINK.findall(path.read_text(encoding="utf-8"))
    broken = [t for t in targets if "://" not in t and not (path.parent / t).exists()]
    assert not broken


#: Words about how the work was organised, which a reader of the repository cannot follow.
WORK_WORDS = re.compile(r"\bthe client\b|\bclient's\b|\bissues?\b|\bthis session\b", re.I)


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_do_not_speak_of_how_the_work_was_organised(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [
        f"line {n}: {line.strip()}" for n, line in enumerate(lines, 1) if WORK_WORDS.search(line)
    ]
    assert not found
