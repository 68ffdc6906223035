"""No code outside the rules package names a variant, a generator family or a modifier
(STYLE.md): the app and the engine ask the generator's hooks
(:class:`~shashki.rules.hooks.GeneratorHooks`) instead.

Every module of ``src/shashki`` except ``rules/`` is read with :mod:`ast`; a string
constant equal to a shipped variant's id or alias, a generator family (``GENERATORS``)
or a modifier (``MODIFIERS``) fails the test, and so does ``getattr``/``hasattr`` of a
hook's name (every generator has every hook: call it).  The few constants that are such
a name by coincidence are allowed below, each with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import shashki
from shashki.rules import all_variants
from shashki.rules.generators import GENERATORS, MODIFIERS
from shashki.rules.hooks import GeneratorHooks

#: The package as imported (the checkout's src/shashki, or whatever PYTHONPATH gives).
PACKAGE = Path(shashki.__file__).resolve().parent
#: The shipped variant files: in the wheel, or beside src/ in a checkout.
VARIANTS = (
    PACKAGE / "variants" if (PACKAGE / "variants").is_dir() else PACKAGE.parents[1] / "variants"
)

#: Constants that equal a reserved name but mean something else, and what they mean.
ALLOWED_VALUES = {
    "shashki": "the program's name (the app's title, the PDN Site tag, the data folders); "
    "also an alias of Russian draughts",
    "classic": "a board theme and the menu's group of the classic games; "
    "also an alias of the traditional game",
}

#: Module-level names whose value is the PDN standard's table of game names, not a
#: choice of ours: constants inside their assignment are allowed.
ALLOWED_ASSIGNMENTS = {
    "PDN_GAMETYPES": "the PDN GameType numbers and the names PDN gives their games",
    "_VARIANT_TAG_NAMES": "the names other programs write in a PDN Variant tag",
    "DEFAULT_VARIANT": "PDN's default game when a record has no GameType (International)",
}


def reserved_names() -> dict[str, str]:
    """Every name a variant, a family or a modifier goes by, and what it names."""
    names: dict[str, str] = {}
    for family in GENERATORS:
        names[family] = "a generator family"
    for modifier in MODIFIERS:
        names[modifier] = "a modifier"
    shipped = [v for v in all_variants() if Path(v.source).resolve().parent == VARIANTS]
    assert len(shipped) == len(list(VARIANTS.glob("*.toml"))), "not every variant file loaded"
    for v in shipped:
        names.setdefault(v.id, f"the id of {v.name}")
        for alias in v.aliases:
            names.setdefault(alias, f"an alias of {v.name}")
    return names


def hook_names() -> set[str]:
    """The public hooks every generator has."""
    return {name for name in vars(GeneratorHooks) if not name.startswith("_")}


def _allowed_nodes(tree: ast.Module) -> set[int]:
    """The ids of the nodes inside the allowed module-level assignments."""
    out: set[int] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign):
            targets = [stmt.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id in ALLOWED_ASSIGNMENTS for t in targets):
            out.update(id(node) for node in ast.walk(stmt))
    return out


def offences(source: str, names: dict[str, str], hooks: set[str]) -> Iterator[tuple[int, str]]:
    """(line, what) for every reserved name in ``source`` and every probe of a hook."""
    tree = ast.parse(source)
    allowed = _allowed_nodes(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in names
            and node.value not in ALLOWED_VALUES
            and id(node) not in allowed
        ):
            yield node.lineno, f"{node.value!r} ({names[node.value]})"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in hooks
        ):
            yield node.lineno, f"{node.func.id} of the hook {node.args[1].value!r} (call it)"


def test_no_code_outside_the_rules_names_a_variant_or_probes_a_hook() -> None:
    names = reserved_names()
    hooks = hook_names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "rules":
            continue
        for line, what in offences(path.read_text("utf-8"), names, hooks):
            found.append(f"{relative}:{line}: {what}")
    assert found == [], "\n".join(found)


def test_the_walk_finds_names_and_probes() -> None:
    # the check itself must see what it forbids, and let through what it allows
    names = reserved_names()
    hooks = hook_names()
    assert {"standard", "bashni", "double-move", "russian"} <= set(names)
    assert {"stack", "frozen", "half_turn", "panel_lines", "evaluation_family"} <= hooks
    source = (
        'if v.family == "artamonov": pass\n'
        'if "move-opponent" in v.modifiers: pass\n'
        'EVAL = {"bashni": f}\n'
        'f(find_variant("russian"))\n'
        'half = getattr(gen, "half_turn", None)\n'
        'TITLE = "shashki"\n'
        'PDN_GAMETYPES = {20: ("international", "International draughts")}\n'
        'x = getattr(screen, "redirect_key", None)\n'
    )
    assert sorted(line for line, _ in offences(source, names, hooks)) == [1, 2, 3, 4, 5]


def test_the_allowed_values_are_reserved_names() -> None:
    # an allowance that no longer matches a name is dead: drop it
    assert set(ALLOWED_VALUES) <= set(reserved_names())
