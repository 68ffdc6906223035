"""The rules layer (shashki.rules, move notation included) imports nothing outside the
standard library: proven in a fresh interpreter, where nothing else was imported first."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

# Imports the modules named on its command line, exercises every variant, and prints the
# modules that appeared and where each came from.
PROBE = r"""
import importlib, json, sys
before = set(sys.modules)
import pkgutil
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    walk = getattr(module, "__path__", []) if name.startswith("shashki") else []
    for info in pkgutil.walk_packages(walk, name + "."):
        importlib.import_module(info.name)  # every module of a package, not only its face
from shashki.rules import Game, all_variants
from shashki.rules.notation import move_text
for v in all_variants():  # load every variant file and compile its generator
    g = Game(v)
    [move_text(v, m, g.legal_moves()) for m in g.legal_moves()]
    g.fen(); g.outcome()
new = sorted(set(sys.modules) - before)
print(json.dumps(new))
"""


@functools.cache
def imported(*modules: str) -> tuple[str, ...]:
    """Every module a fresh interpreter imports to import ``modules`` and use the engine."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return tuple(json.loads(done.stdout))


def foreign_modules(*modules: str) -> list[str]:
    """The top-level modules outside the standard library (and outside shashki) among
    ``imported(*modules)``."""
    tops = {m.split(".")[0] for m in imported(*modules)}
    return sorted(tops - set(sys.stdlib_module_names) - {"shashki", "__main__"})


def test_engine_imports_only_the_standard_library() -> None:
    assert foreign_modules("shashki.rules") == []


def test_engine_imports_no_upper_layer() -> None:
    new = imported("shashki.rules")
    assert "shashki.rules" in new  # the probe did import the engine
    assert not [m for m in new if m.split(".")[0] in ("textual", "rich")]
    upper = [m for m in new if m.startswith(("shashki.app", "shashki.cli", "shashki.engine"))]
    assert upper == []


def test_the_probe_sees_a_foreign_module() -> None:
    # the same probe, with a third-party module imported on purpose, must report it
    assert "hypothesis" in foreign_modules("shashki.rules", "hypothesis")
