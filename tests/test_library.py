"""The README's "Use it as a library" example runs as written (a doctest), and ``import
shashki`` gives the library surface without importing the terminal app."""

from __future__ import annotations

import doctest
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert result.attempted >= 6  # (not an example that lost its lines)


def test_the_readme_library_example_is_short() -> None:
    assert len(readme_example().splitlines()) <= 12  # about ten lines


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


def test_import_shashki_changes_nothing_outside_it() -> None:
    """No import hook, the garbage collector on, no handler on the root logger, the
    language not set: and still so after a game and a search (issue 46)."""
    code = (
        "import gc, logging, sys, threading\n"
        "hooks = list(sys.meta_path)\n"
        "import shashki\n"
        "from shashki import i18n\n"
        "print(sys.meta_path == hooks, gc.isenabled(), logging.getLogger().handlers)\n"
        "game = shashki.Game('russian')\n"
        "game.push_text('c3-d4')\n"
        "from shashki.engine import Search\n"
        "Search('russian').search(game, depth=3)\n"
        "print(sys.meta_path == hooks, gc.isenabled(), logging.getLogger().handlers)\n"
        "print(i18n.language())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LANGUAGE": "uk", "LANG": "C.UTF-8", "LC_ALL": ""},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == ["True True []", "True True []", "en"]  # (LANGUAGE=uk: not asked)


def test_the_library_s_loggers_say_nothing_unless_asked() -> None:
    code = (
        "import logging, shashki\n"
        "logging.getLogger('shashki.hub').warning('an engine did something wrong')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == ""


def test_the_command_uses_the_compiled_build_the_library_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import shashki.__main__ as entry
    from shashki import native

    asked: list[object] = []
    monkeypatch.setattr(native, "use", lambda environ=None: asked.append(environ))
    with pytest.raises(SystemExit) as ended:  # (argparse's --version exits)
        entry.main(["--version"])
    assert ended.value.code == 0 and asked == [None]
    code = "import shashki; shashki.Game('russian'); from shashki import native as n;"
    code += "print(n.in_use(), n.why_pure())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["None", "not", "looked", "for"], done.stderr


def test_the_search_leaves_the_collector_as_it_found_it() -> None:
    """Off only while searches run, on again after the last of several at once, and a
    program's own choice (off) kept."""
    import gc
    import threading

    from shashki.engine import Search

    game = shashki_game()
    assert gc.isenabled()
    inside: list[bool] = []

    def search() -> None:
        def cancelled() -> bool:
            inside.append(gc.isenabled())
            return False

        Search("russian").search(game, depth=4, cancelled=cancelled)  # type: ignore[arg-type]

    threads = [threading.Thread(target=search) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert inside and not any(inside) and gc.isenabled()
    gc.disable()
    try:
        search()
        assert not gc.isenabled()
    finally:
        gc.enable()


def shashki_game() -> object:
    import shashki

    return shashki.Game("russian")
