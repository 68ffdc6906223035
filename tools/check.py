"""The project's checks, in the order CI runs them: lint, format, types, then the tests.

    .venv/bin/python tools/check.py              # everything (what .ci/run runs)
    .venv/bin/python tools/check.py -k replay    # the same, the arguments go to pytest
    .venv/bin/python tools/check.py --no-tests   # ruff and mypy only (a few seconds)

Each step runs with the interpreter that runs this script (``python -m ruff``, ``-m mypy``,
``-m pytest``), so the versions the test extras pin are the ones used.  The first step that
fails stops the run, and its exit status is the script's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What runs before the tests: each must pass on the whole tree (mypy's files and strictness
#: are pyproject.toml's ``[tool.mypy]``; ruff's rules are its ``[tool.ruff]``).
CHECKS: list[tuple[str, list[str]]] = [
    ("ruff check", ["-m", "ruff", "check", "."]),
    ("ruff format --check", ["-m", "ruff", "format", "--check", "."]),
    ("mypy --strict", ["-m", "mypy", "--strict"]),
]


def run(name: str, args: list[str]) -> int:
    print(f"== {name}", flush=True)
    return subprocess.run([sys.executable, *args], cwd=ROOT, check=False).returncode


def main(argv: list[str]) -> int:
    tests = "--no-tests" not in argv
    pytest_args = [a for a in argv if a != "--no-tests"]
    for name, args in CHECKS:
        status = run(name, args)
        if status != 0:
            print(f"== {name} failed (exit status {status})", file=sys.stderr, flush=True)
            return status
    if not tests:
        return 0
    return run("pytest", ["-m", "pytest", "-q", *pytest_args])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
