"""``shashki compile``: make the engine's compiled build (:mod:`shashki.native`).

The package's sources are copied to a temporary folder and mypyc compiles
:data:`~shashki.native.MODULES` there (the sources as they are: they type-check under
``mypy --strict``, which is what mypyc needs).  The compiled files go to the cache folder
with a manifest of their checksums (written beside and renamed into place, never through
a link), and a fresh interpreter then searches a few positions with the build and with
the pure modules: a build that does not load, or that chooses another move, score, depth
or node count anywhere, is removed and the command fails.  Builds of other sources (an
earlier version) are removed once the new one is kept.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from . import native
from .base.ownfiles import own_folder
from .i18n import _

__all__ = ["CompileError", "compile_build", "compile_sources", "remove_builds"]

#: Seconds mypyc may take (about a minute on a small machine).
COMPILE_TIMEOUT = 1800
#: Seconds the check of a build may take (searches of a few thousand nodes, twice).
CHECK_TIMEOUT = 600
#: Seconds after which a build left half-written (its command stopped) is removed.
ABANDONED = 3 * 3600

#: Searches a few positions of several families of variants with a budget of nodes and
#: prints what each chose, and whether the compiled build was in use.
CHECK = r"""
import json, random, sys
from shashki import native
native.use()  # (as the shashki command does, before the engine is imported)
from shashki.engine import Search
from shashki.rules import Game
out = {"compiled": native.in_use() is not None, "searches": []}
for variant in ("russian", "international", "english", "brazilian", "turkish", "frisian"):
    rng = random.Random(7)
    game = Game(variant)
    for ply in range(12):
        if ply % 4 == 0:
            result = Search(variant).search(game, nodes=3000, soft=1.0)
            out["searches"].append(
                [variant, ply, str(result.move), result.score, result.depth, result.nodes]
            )
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
print(json.dumps(out))
"""


class CompileError(Exception):
    """The build could not be made or did not pass its check: ``str()`` says why."""


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def compile_sources(
    work: Path, say: Callable[[str], None], modules: Sequence[str] = native.MODULES
) -> dict[str, Path]:
    """Copy the package into ``work``/src and compile ``modules`` (paths under the
    package) there in place: the compiled files by module name.  The copy, its data
    included, is itself a compiled package (``benchmarks/compiled.py`` runs it).
    Raises CompileError."""
    src = work / "src"
    shutil.copytree(
        native.PACKAGE,
        src / "shashki",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
    )
    say(
        _("Compiling {count} modules of the engine with mypyc (a minute or a few)…").format(
            count=len(modules)
        )
    )
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *(f"shashki/{m}" for m in modules)],
            cwd=src,
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT,
            check=False,
            env={**os.environ, native.PURE_VARIABLE: "1"},
        )
    except subprocess.TimeoutExpired:
        raise CompileError(
            _("mypyc did not finish in {minutes} minutes").format(minutes=COMPILE_TIMEOUT // 60)
        ) from None
    except OSError as exc:
        raise CompileError(_("mypyc could not be started: {reason}").format(reason=exc)) from None
    if done.returncode:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise CompileError(
            _(
                "mypyc could not compile the engine (it needs a C compiler and Python's "
                "headers):\n{output}"
            ).format(output=tail)
        )
    suffix = _suffix()
    files: dict[str, Path] = {}
    for module in modules:
        name = "shashki." + module.removesuffix(".py").replace("/", ".")
        path = src / "shashki" / module.removesuffix(".py")
        path = path.with_name(path.name + suffix)
        if not path.is_file():
            raise CompileError(_("mypyc made no {file}").format(file=path.name))
        files[name] = path
    # (modules compiled together share one library; one module alone is its own)
    shared = sorted(p for p in src.glob(f"*__mypyc{suffix}") if p.is_file())
    if len(shared) != (1 if len(modules) > 1 else 0):
        raise CompileError(_("mypyc made no shared library"))
    files.update((p.name.removesuffix(suffix), p) for p in shared)
    return files


def _keep(files: dict[str, Path], key: str) -> Path:
    """Put the compiled files into the build folder of ``key``, with their manifest."""
    builds = native.builds_folder()
    own_folder(builds, top=builds.parent)
    os.chmod(builds, 0o700)  # (code is loaded from it: no one else may write there)
    staging = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=builds))  # (mode 0700)
    try:
        manifest: dict[str, object] = {"format": native.FORMAT, "key": key, "files": {}}
        entries: dict[str, list[str]] = {}
        for module, path in files.items():
            data = path.read_bytes()
            name = path.name
            (staging / name).write_bytes(data)
            os.chmod(staging / name, 0o600)
            entries[module] = [name, hashlib.sha256(data).hexdigest()]
        manifest["files"] = entries
        (staging / native.MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        os.chmod(staging / native.MANIFEST, 0o600)
        target = builds / key
        _remove(target)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _remove(path: Path) -> None:
    """Remove a build's folder (a link in its place is removed, never followed)."""
    if os.path.islink(path) or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _searches(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop(native.PURE_VARIABLE, None)
    if pure:
        env[native.PURE_VARIABLE] = "1"
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHECK],
            capture_output=True,
            text=True,
            timeout=CHECK_TIMEOUT,
            check=False,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise CompileError(_("the check of the build did not finish")) from None
    if done.returncode:
        tail = "\n".join(done.stderr.strip().splitlines()[-8:])
        raise CompileError(_("the check of the build failed:\n{output}").format(output=tail))
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def check_build(say: Callable[[str], None]) -> None:
    """Search the same positions with the build and with the pure modules, in fresh
    interpreters: the same choices everywhere, the build in use.  Raises CompileError."""
    say(_("Checking the build: the same searches with it and without it…"))
    compiled = _searches(pure=False)
    pure = _searches(pure=True)
    if not compiled.get("compiled"):
        raise CompileError(_("the build was made but does not load"))
    if compiled["searches"] != pure["searches"]:
        raise CompileError(_("the build searched otherwise than the pure modules"))


def compile_build(say: Callable[[str], None]) -> Path:
    """Make, keep and check the compiled build of the sources installed: its folder.
    Raises CompileError (with nothing kept) when it cannot."""
    if importlib.util.find_spec("mypyc") is None:
        raise CompileError(_("mypyc is not installed: pip install mypy"))
    key = native.source_key()
    builds = native.builds_folder()
    own_folder(builds, top=builds.parent)  # (refused before a minute of compiling)
    os.chmod(builds, 0o700)  # (code is loaded from it: no one else may write there)
    refused = native.refusal(builds)  # (a folder above that others may write: never used)
    if refused is not None:
        raise CompileError(
            _("the build would not be used: others could change it ({reason})").format(
                reason=refused
            )
        )
    with tempfile.TemporaryDirectory(prefix="shashki-compile-") as tmp:
        files = compile_sources(Path(tmp), say)
        folder = _keep(files, key)
    try:
        check_build(say)
    except BaseException:
        _remove(folder)
        raise
    for other in builds.iterdir():
        # (another command's build being written is left alone, unless long abandoned)
        if other.name != key and (not other.name.startswith(".") or _abandoned(other)):
            _remove(other)
    return folder


def _abandoned(path: Path) -> bool:
    """Whether ``path`` (a build being written) was left by a command that stopped."""
    try:
        return time.time() - os.lstat(path).st_mtime > ABANDONED
    except OSError:
        return False


def remove_builds() -> int:
    """Remove every compiled build: how many there were."""
    builds = native.builds_folder()
    if os.path.islink(builds) or not builds.is_dir():
        return 0
    count = 0
    for path in builds.iterdir():
        _remove(path)
        count += not path.name.startswith(".")
    return count
