"""The code cites the rules by a file and an anchor of docs/rules/: every citation in src/,
variants/, tests/, tools/ and benchmarks/ names a file and anchors that exist, nothing cites
the old specifications any more, and tools/cite_rules.py (which rewrites old citations) has
nothing left to do and does what it says on small texts."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "docs" / "rules"
FOLDERS = ("src", "variants", "tests", "tools", "benchmarks")
CITATION = re.compile(r"docs/rules/([\w.-]+?\.md)((?:#[\w-]+)?)((?:,\s*#[\w-]+)*)")
ANCHOR = re.compile(r"<a id=\"([\w-]+)\"></a>")
# The names of the old specifications, spelt so that this file does not cite them.
OLD = re.compile(r"\b(?:RULES|NATIONAL)\.md\b")


def cite_rules() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cite_rules", ROOT / "tools" / "cite_rules.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cite_rules", module)
    spec.loader.exec_module(module)
    return module


def sources() -> list[Path]:
    out = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                out.append(path)
    return out


def anchors(file: Path) -> set[str]:
    return set(ANCHOR.findall(file.read_text(encoding="utf-8")))


def test_every_citation_names_a_file_and_anchors_that_exist() -> None:
    bad: list[str] = []
    seen = 0
    for path in sources():
        text = path.read_text(encoding="utf-8")
        for m in CITATION.finditer(text):
            seen += 1
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            target = RULES_DIR / m.group(1)
            if not target.is_file():
                bad.append(f"{where}: no file docs/rules/{m.group(1)}")
                continue
            names = [m.group(2)[1:]] if m.group(2) else []
            names += re.findall(r"#([\w-]+)", m.group(3))
            missing = [name for name in names if name not in anchors(target)]
            if missing:
                bad.append(f"{where}: docs/rules/{m.group(1)} has no anchor {missing}")
    assert seen > 100  # the code does cite the rules
    assert not bad, "\n".join(bad)


def test_the_rules_reference_links_to_itself_correctly() -> None:
    link = re.compile(r"\]\(([\w.-]*\.md)?#([\w-]+)\)")
    bad = []
    for file in sorted(RULES_DIR.glob("*.md")):
        for target_name, anchor in link.findall(file.read_text(encoding="utf-8")):
            target = RULES_DIR / (target_name or file.name)
            if not target.is_file() or anchor not in anchors(target):
                bad.append(f"{file.name}: ({target_name}#{anchor})")
    assert not bad, bad


def test_anchors_are_unique_within_a_file() -> None:
    for file in sorted(RULES_DIR.glob("*.md")):
        found = ANCHOR.findall(file.read_text(encoding="utf-8"))
        assert len(found) == len(set(found)), file.name


def test_no_code_cites_the_old_specifications() -> None:
    own = {Path(__file__).resolve(), (ROOT / "tools" / "cite_rules.py").resolve()}
    bad = [
        str(path.relative_to(ROOT))
        for path in sources()
        if path.resolve() not in own and OLD.search(path.read_text(encoding="utf-8"))
    ]
    assert not bad, f"run tools/cite_rules.py: {bad}"


def test_cite_rules_has_nothing_left_to_rewrite() -> None:
    tool = cite_rules()
    left = []
    for path in tool.files():
        source, new = tool.rewrite_file(path)
        if new != source:
            left.append(str(path.relative_to(ROOT)))
    assert not left, f"run tools/cite_rules.py: {left}"


OLD_R, OLD_N = "RULES" + ".md", "NATIONAL" + ".md"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (f"# Bashni. {OLD_R} V11, A.3.12.\n", "# Bashni. docs/rules/family.md#bashni.\n"),
        (f"x = 1  # {OLD_N} C.5\n", "x = 1  # docs/rules/switches.md#precedence\n"),
        (
            f"# ({OLD_R} V5, V6, V14-V16)\n",
            "# (docs/rules/modified.md#diagonal, #giveaway, #demotion, #move-opponent,"
            " #double-move)\n",
        ),
        (
            f'"""Frisian ({OLD_N} N8, C.7)."""\n',
            '"""Frisian (docs/rules/national.md#frisian; docs/rules/switches.md#king-limit)."""\n',
        ),
        ("# one move (A.2)\n", "# one move (docs/rules/conventions.md#move-identity)\n"),
        (f"# {OLD_R} §2.17 T4: no 180\n", "# docs/rules/switches.md#positions T4: no 180\n"),
        ("# document 000 §9 says so\n", "# document 000 §9 says so\n"),
        ('s = "RULES.md V11"  # code stays\n', 's = "RULES.md V11"  # code stays\n'),
        ("x = 1  # GameType 31,B,8,8,N2,0\n", "x = 1  # GameType 31,B,8,8,N2,0\n"),
    ],
)
def test_cite_rules_rewrites_comments_and_docstrings(before: str, after: str) -> None:
    tool = cite_rules()
    assert tool.rewrite(before, "py") == after
    assert tool.rewrite(after, "py") == after  # idempotent


def test_cite_rules_leaves_bare_numbers_alone_outside_the_rules() -> None:
    tool = cite_rules()
    text = "# the V1 and V2 dialects (A.2)\n"
    assert tool.rewrite(text, "py", bare=False) == text
    assert tool.rewrite(f"# {OLD_N} C.4\n", "py", bare=False) == (
        "# docs/rules/switches.md#men-and-kings\n"
    )


def test_cite_rules_wraps_a_line_it_makes_too_long() -> None:
    tool = cite_rules()
    before = "    # " + "word " * 15 + f"({OLD_N} C.4, C.6) and more words after it\n"
    after = tool.rewrite(before, "py")
    assert all(len(line) <= 100 for line in after.splitlines())
    assert after.replace("\n    # ", " ") == before.replace(
        f"{OLD_N} C.4, C.6", "docs/rules/switches.md#men-and-kings, #landing"
    )


def test_cite_rules_in_a_variant_file_drops_the_variant_own_section() -> None:
    tool = cite_rules()
    before = f'# Pool. {OLD_N} N1.\nfirst = "black"  # N1: Black moves first\n'
    after = tool.rewrite(before, "toml")
    assert after == '# Pool. docs/rules/national.md#pool.\nfirst = "black"  # Black moves first\n'
