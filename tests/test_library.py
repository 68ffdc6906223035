"""The README's "Use it as a library" example runs as written (a doctest), and ``import
shashki`` gives the library surface without importing the terminal app."""

from __future__ import annotations

import doctest
import io
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_example() -> str:
    """The example of the README's library section: a doctest (``pycon``)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Use it as a library", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```pycon\n(.*?)```", section, re.S)
    assert match, "the library section has no example"
    return match.group(1)


def test_the_readme_library_example_runs() -> None:
    example = doctest.DocTestParser().get_doctest(readme_example(), {}, "README.md", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    runner.run(example, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, out.getvalue()
    assert result.attempted >= 8  # (not an example that lost its lines)


def test_the_readme_library_example_is_short() -> None:
    assert len(readme_example().splitlines()) <= 15


def test_import_shashki_brings_no_interface_code() -> None:
    code = (
        "import sys, shashki; shashki.Game('russian').legal_moves();"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')"
        " or m.startswith(('shashki.app', 'shashki.engine', 'shashki.cli'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_library_names_are_exported() -> None:
    import shashki

    for name in shashki.__all__:
        assert hasattr(shashki, name), name
    for name in ("Game", "Move", "Outcome", "Variant", "all_variants", "find_variant"):
        assert name in shashki.__all__
    for name in ("read_games", "write_game"):
        assert name in shashki.__all__
