"""The engine (layer 3) stands on the rules only: every one of its modules imports
without Textual, Rich, the records, the app or the command line (beyond what ``import
shashki``, the library surface, brings by itself)."""

from __future__ import annotations

import subprocess
import sys

PROBE = (
    "import sys, importlib, pkgutil, shashki;"
    "before = set(sys.modules);"
    "import shashki.engine;"
    "names = [m.name for m in pkgutil.iter_modules(shashki.engine.__path__)];"
    "[importlib.import_module('shashki.engine.' + n) for n in names];"
    "bad = sorted(m for m in set(sys.modules) - before if m.split('.')[0] in ('textual', 'rich')"
    " or m.startswith(('shashki.app', 'shashki.cli', 'shashki.records')));"
    "print(len(names), ','.join(bad))"
)


def test_the_engine_imports_only_the_rules() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    count, bad = (
        out.stdout.strip().split(" ", 1) if " " in out.stdout.strip() else (out.stdout.strip(), "")
    )
    assert int(count) >= 5  # the probe saw the engine's modules
    assert bad == ""
