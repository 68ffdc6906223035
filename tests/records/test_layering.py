"""The records layer stands on rules and notation only: standard library, no Textual,
no Rich, no app or engine code."""

from __future__ import annotations

import subprocess
import sys


def test_records_import_no_interface_code() -> None:
    code = (
        "import sys, importlib, pkgutil, shashki.records;"
        "[importlib.import_module('shashki.records.' + m.name)"
        " for m in pkgutil.iter_modules(shashki.records.__path__)];"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')"
        " or m.startswith(('shashki.app', 'shashki.engine')));"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
