"""The engine's optional compiled build (shashki.native, ``shashki compile``): used only
when it was made from the very sources installed and every file of it checks; the rules'
and the engine's tests run against it as they run against the pure modules."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from shashki import native

ROOT = Path(__file__).resolve().parents[1]


# -- what the loader accepts (no compiler needed) ---------------------------------------


def make_build(folder: Path, key: str, files: dict[str, bytes]) -> Path:
    """A build's folder as ``shashki compile`` writes it (made-up files)."""
    folder.mkdir(parents=True, mode=0o700)
    folder.parent.chmod(0o700)
    entries = {}
    for module, data in files.items():
        name = module.rpartition(".")[2] + ".so"
        data = data + b"\0PyInit_" + name.removesuffix(".so").encode() + b"\0"  # (its own)
        (folder / name).write_bytes(data)
        (folder / name).chmod(0o600)
        entries[module] = [name, hashlib.sha256(data).hexdigest()]
    manifest = {"format": native.FORMAT, "key": key, "files": entries}
    (folder / native.MANIFEST).write_text(json.dumps(manifest))
    (folder / native.MANIFEST).chmod(0o600)
    return folder


FILES = {
    "abc__mypyc": b"shared",
    "shashki.rules.movegen": b"shim",
    "shashki.engine.search": b"shim",
}


def test_a_sound_build_is_accepted(tmp_path: Path) -> None:
    folder = make_build(tmp_path / "k1", "k1", FILES)
    assert native.checked(folder, "k1") == {m: folder / f"{m.rpartition('.')[2]}.so" for m in FILES}


@pytest.mark.parametrize(
    "harm",
    [
        "another key",
        "a changed file",
        "a missing file",
        "a link for a file",
        "a name out of the folder",
        "a manifest that is not JSON",
        "a manifest of another format",
        "a manifest that is a list",
        "a manifest entry of three",
        "a folder that is a link",
        "a file others may write",
        "a folder others may write",
        "a folder above others may write",
        "a folder above that is a link to one others may write",
        "another module's file",
        "another module's file under its name",
        "a module not of the engine",
        "two shared libraries",
    ],
)
def test_a_build_that_does_not_check_is_not_used(tmp_path: Path, harm: str) -> None:
    folder = make_build(tmp_path / "cache" / "shashki" / "compiled" / "real", "k1", FILES)
    key = "k1"
    manifest = folder / native.MANIFEST
    data = json.loads(manifest.read_text())
    files = data["files"]

    def rewrite() -> None:
        manifest.write_text(json.dumps(data))

    if harm == "another key":
        key = "k2"
    elif harm == "a changed file":
        (folder / "movegen.so").write_bytes(b"shim!")
    elif harm == "a missing file":
        (folder / "movegen.so").unlink()
    elif harm == "a link for a file":
        (tmp_path / "elsewhere.so").write_bytes((folder / "movegen.so").read_bytes())
        (folder / "movegen.so").unlink()
        (folder / "movegen.so").symlink_to(tmp_path / "elsewhere.so")
    elif harm == "a name out of the folder":
        (folder.parent / "movegen.so").write_bytes((folder / "movegen.so").read_bytes())
        files["shashki.rules.movegen"][0] = "../movegen.so"
        rewrite()
    elif harm == "a manifest that is not JSON":
        manifest.write_text("{")
    elif harm == "a manifest of another format":
        data["format"] = native.FORMAT + 1
        rewrite()
    elif harm == "a manifest that is a list":
        manifest.write_text(json.dumps([data]))
    elif harm == "a manifest entry of three":
        files["shashki.rules.movegen"].append("x")
        rewrite()
    elif harm == "a folder that is a link":
        (tmp_path / "link").symlink_to(folder)
        folder = tmp_path / "link"
    elif harm == "a file others may write":
        (folder / "movegen.so").chmod(0o622)
    elif harm == "a folder others may write":
        folder.chmod(0o777)
    elif harm == "a folder above others may write":  # (~/.cache/shashki)
        (tmp_path / "cache" / "shashki").chmod(0o777)
    elif harm == "a folder above that is a link to one others may write":
        shared = tmp_path / "shared"
        shared.mkdir(mode=0o777)
        shared.chmod(0o777)
        (tmp_path / "cache").rename(shared / "cache")
        (tmp_path / "cache").symlink_to(shared / "cache")
    elif harm == "another module's file":  # (it would stop ``import shashki``)
        files["shashki.rules.movegen"] = files["shashki.engine.search"]
        rewrite()
    elif harm == "another module's file under its name":
        (folder / "search.so").replace(folder / "movegen.so")
        files["shashki.rules.movegen"][1] = files["shashki.engine.search"][1]
        del files["shashki.engine.search"]
        rewrite()
    elif harm == "a module not of the engine":
        files["shashki.cli"] = files.pop("shashki.engine.search")
        (folder / "search.so").rename(folder / "cli.so")
        files["shashki.cli"][0] = "cli.so"
        rewrite()
    elif harm == "two shared libraries":
        (folder / "def__mypyc.so").write_bytes(b"\0PyInit_def__mypyc\0")
        (folder / "def__mypyc.so").chmod(0o600)
        files["def__mypyc"] = [
            "def__mypyc.so",
            hashlib.sha256(b"\0PyInit_def__mypyc\0").hexdigest(),
        ]
        rewrite()
    assert native.checked(folder, key) is None


@pytest.mark.skipif(
    not hasattr(os, "getuid") or os.getuid() != 0, reason="only root can give a folder away"
)
def test_a_build_under_another_users_folder_is_not_used(tmp_path: Path) -> None:
    folder = make_build(tmp_path / "cache" / "shashki" / "k1", "k1", FILES)
    assert native.checked(folder, "k1") is not None
    os.chown(tmp_path / "cache" / "shashki", 12345, 12345)  # (mode 0755: its owner writes)
    assert native.checked(folder, "k1") is None
    assert "another user's folder" in str(native.refusal(folder))


def test_a_refused_build_leaves_import_shashki_pure(tmp_path: Path) -> None:
    """A fresh interpreter with a build of these very sources in a cache folder others
    may write: ``import shashki`` and the engine run pure, and ``shashki compile
    --status`` says why."""
    cache = tmp_path / "cache"
    folder = make_build(
        cache / "shashki" / "compiled" / native.source_key(), native.source_key(), FILES
    )
    (cache / "shashki").chmod(0o777)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop(native.PURE_VARIABLE, None)
    status = shashki(["compile", "--status"], env)
    assert "pure Python" in status and "others" in status, status
    assert str(cache / "shashki") in status
    (cache / "shashki").chmod(0o700)
    assert "failed its checks" in shashki(["compile", "--status"], env)  # (made-up files)
    assert folder.is_dir()


def test_a_build_of_other_sources_is_said(tmp_path: Path) -> None:
    """Only a build of other sources (made before they changed): ``--status`` says so,
    not that there is none."""
    cache = tmp_path / "cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop(native.PURE_VARIABLE, None)
    make_build(cache / "shashki" / "compiled" / "0123456789abcdef01234567", "k1", FILES)
    status = shashki(["compile", "--status"], env)
    assert "pure Python" in status and "other sources" in status, status
    shutil.rmtree(cache / "shashki" / "compiled" / "0123456789abcdef01234567")
    assert "no compiled build" in shashki(["compile", "--status"], env)


def test_the_key_follows_every_source_file(tmp_path: Path) -> None:
    package = tmp_path / "shashki"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "rules" / "movegen.py").write_text("X = 1\n")
    first = native.source_key(package)
    assert native.source_key(package) == first
    (package / "rules" / "movegen.py").write_text("X = 2\n")
    second = native.source_key(package)
    (package / "other.py").write_text("")
    third = native.source_key(package)
    assert len({first, second, third}) == 3
    assert native.source_key() != first  # (the package's own sources)


def test_the_pure_modules_when_the_environment_says_so() -> None:
    was = native.why_pure()
    try:
        assert native.use({native.PURE_VARIABLE: "1"}) is None
        assert native.why_pure() == "off"
    finally:
        native._why_pure = was


# -- a real build (mypyc and a C compiler) ----------------------------------------------


def compiler_missing() -> str | None:
    """Why a build cannot be made here, or None."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install mypy)"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def shashki(args: list[str], env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "shashki", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


#: A program that asks for the build as the shashki command does: whether it, and the
#: worker processes of base.workers, run the compiled move generator.
WORKERS_COMPILED = """
from shashki import native
native.use()
from shashki.base.workers import Jobs
from shashki.rules import movegen
def compiled(n):
    from shashki.rules import movegen
    return not movegen.__file__.endswith(".py")
if __name__ == "__main__":
    print(not movegen.__file__.endswith(".py"))
    for _, c in sorted(Jobs(compiled, [(0,), (1,)], workers=2)):
        print(c)
"""


#: Tests of tests/rules and tests/engine left out of the run against the build: the
#: slowest, each of which runs only lines of the compiled modules that the others run too
#: (measured with coverage.py: the rest run 99.97% of the lines of MODULES that all of
#: them run, every module 99.9-100%) — comparisons of two ways to the same answer (the
#: backwards build against the straightforward one: test_five_kings_agree... still
#: compares them; the capture search against the plain walk; a reference generator)
#: and checks of what is not compiled (schemas, FEN, variant files, shipped files).  The
#: tests of threads, interruption and time limits all run: that is where compiled code
#: behaves differently.  They all run pure in the suite.
SLOW_AND_COVERED = (
    "tests/engine/test_endings.py::test_the_backwards_build_makes_the_same_table_as_the_straightforward_one",
    "tests/engine/test_endings.py::test_three_kings_against_one_agree_with_their_moves",
    "tests/engine/test_endings.py::test_two_kings_against_one_agree_with_their_moves",
    "tests/engine/test_endings.py::test_the_search_probes_a_table_in_memory_and_never_builds_one",
    "tests/engine/test_shipped_tables.py::test_a_table_read_off_the_colours_swapped_is_the_one_built",
    "tests/engine/test_shipped_tables.py::test_every_shipped_table_is_of_todays_rules",
    "tests/engine/test_solver.py::test_the_table_agrees_with_a_full_search",
    "tests/engine/test_search.py::test_the_search_only_returns_legal_moves",
    "tests/engine/test_search_parts.py::test_a_search_leaves_no_cycle_for_the_collector",
    "tests/engine/test_search_parts.py::test_the_node_search_agrees_with_minimax",
    "tests/rules/test_properties.py::test_random_games",
    "tests/rules/test_properties.py::test_generator_agrees_with_a_reference",
    "tests/rules/test_capture_search.py::test_the_capture_search_finds_the_moves_of_the_plain_walk",
    "tests/rules/test_capture_search.py::test_the_column_search_finds_the_moves_of_the_plain_walk",
    "tests/rules/test_capture_search.py::test_states_are_walked_once",
    "tests/rules/test_irreversible.py::test_declaration_holds_on_small_positions",
    "tests/rules/test_schema.py::test_a_table_the_schema_accepts_builds_or_is_refused_in_one_line",
    "tests/rules/test_schema.py::test_any_value_anywhere_is_accepted_or_named",
    "tests/rules/test_schema.py::test_a_deeply_nested_value_is_refused_without_recursion",
    "tests/rules/test_fen.py::test_fen_reader_raises_only_bad_fen_error",
    "tests/rules/test_hostile_variant_files.py::test_the_same_file_on_the_command_line_is_an_error",
    "tests/rules/test_hostile_variant_files.py::test_the_shape_check_passes_what_tomllib_reads",
)  # fmt: skip


@pytest.mark.timeout(3600)
def test_a_build_is_made_checked_used_and_refused_once_damaged(tmp_path: Path) -> None:
    """``shashki compile`` makes the build; a fresh interpreter runs it; the rules' and
    the engine's tests pass against it; a damaged file, or SHASHKI_PURE, leaves the
    pure modules in use; ``--remove`` removes it."""
    why = compiler_missing()
    if why is not None:
        pytest.skip(f"no compiled build can be made here: {why}")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop(native.PURE_VARIABLE, None)
    said = shashki(["compile"], env, timeout=1800)
    assert "Compiled into" in said
    assert "runs compiled" in shashki(["compile", "--status"], env)
    # the same tests, against the build (tests/conftest.py refuses to run them pure),
    # less the slow ones whose lines the others run too
    leave_out = [f"--deselect={test}" for test in SLOW_AND_COVERED]
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         "tests/rules", "tests/engine", *leave_out],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**env, "SHASHKI_EXPECT_COMPILED": "1"},
        timeout=3000,
        check=False,
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert " passed" in tests.stdout
    # the worker processes of base.workers run what the command runs: compiled, and pure
    # with SHASHKI_PURE
    script = tmp_path / "workers_compiled.py"  # (a file: the workers import its function)
    script.write_text(WORKERS_COMPILED)
    for extra, compiled in (({}, "True"), ({native.PURE_VARIABLE: "1"}, "False")):
        workers = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True,
            env={**env, **extra}, timeout=600, check=False,
        )  # fmt: skip
        assert workers.stdout.split() == [compiled, compiled, compiled], workers.stderr
    pure = shashki(["compile", "--status"], {**env, native.PURE_VARIABLE: "1"})
    assert "pure Python" in pure and native.PURE_VARIABLE in pure
    builds = tmp_path / "cache" / "shashki" / "compiled"
    (folder,) = list(builds.iterdir())
    # a manifest that names another module's file (as its checksum says): the pure
    # modules, and ``import shashki`` and the engine work
    manifest = folder / native.MANIFEST
    sound = manifest.read_text()
    data = json.loads(sound)
    data["files"]["shashki.rules.movegen"] = data["files"]["shashki.engine.search"]
    manifest.write_text(json.dumps(data))
    assert "failed its checks" in shashki(["compile", "--status"], env)
    engine = subprocess.run(
        [sys.executable, "-c", "import shashki, shashki.engine.search, shashki.rules.movegen"],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert engine.returncode == 0, engine.stderr
    manifest.write_text(sound)
    assert "runs compiled" in shashki(["compile", "--status"], env)
    # the cache folder writable by others: they could have swapped the build
    (tmp_path / "cache" / "shashki").chmod(0o775)
    assert "someone else could have" in shashki(["compile", "--status"], env)
    (tmp_path / "cache" / "shashki").chmod(0o700)
    # one byte of the shared library changed: never loaded
    (shared,) = [p for p in folder.iterdir() if "__mypyc" in p.name]
    data = bytearray(shared.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shared.write_bytes(bytes(data))
    assert "failed its checks" in shashki(["compile", "--status"], env)
    assert "1 compiled build removed" in shashki(["compile", "--remove"], env)
    assert "no compiled build" in shashki(["compile", "--status"], env)
    assert list(builds.iterdir()) == []
