"""The engine's optional compiled build: its hot modules compiled by mypyc, kept in the
cache folder, used when they were compiled from the very sources installed.

shashki is pure Python.  ``shashki compile`` (with ``pip install mypy``, a C compiler and
Python's headers) compiles :data:`MODULES` — the move generator, the end rules, the
search, the evaluation, the ending tables' probe — into
``$XDG_CACHE_HOME/shashki/compiled/<key>/``, where the key is a digest of every source
file of the package and of the interpreter's version and ABI, with a manifest of the
files' checksums.  The build runs about twice the nodes a second of the pure search
(docs/ENGINE.md) and searches the same trees (to a depth or a number of nodes, the same
choices): ``shashki compile`` searches a few positions with both before it keeps a build.

:func:`use` is called by the ``shashki`` command before it imports the rules
(:mod:`shashki.__main__`), never by ``import shashki``: a program that uses the library
and wants the build calls it itself, before it first uses the rules or the engine
(``import shashki.native; shashki.native.use()``; once they are imported it is too late,
and the pure modules stay).  It finds the build whose key is
that of the sources and the interpreter running now, checks every file of it against its
manifest (never through a link; only files and folders of the user's that no one else
may write), loads its shared library, and then has the compiled modules imported in place
of their sources.  Anything
else — no build, a build of other sources (an upgrade, an edited file), a damaged file,
a library that does not load, ``SHASHKI_PURE=1`` in the environment — leaves the pure
modules in use, silently: the build is only ever a faster copy of the same program.

Standard library only: it runs before any other module of shashki is imported.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .base.folders import user_folder

__all__ = [
    "MODULES",
    "PURE_VARIABLE",
    "Build",
    "build_folder",
    "builds_folder",
    "in_use",
    "source_key",
    "use",
]

#: The modules of the search's every node, compiled together (paths under the package).
MODULES = (
    "rules/movegen.py",
    "rules/hooks.py",
    "rules/endrules.py",
    "rules/interrupt.py",
    "engine/search.py",
    "engine/evaluate.py",
    "engine/patterns.py",
    "engine/endings.py",
)

#: Set (to anything but empty or 0) to run the pure modules whatever is in the cache.
PURE_VARIABLE = "SHASHKI_PURE"

#: The manifest's name in a build's folder, and the format it is written in.
MANIFEST = "manifest.json"
FORMAT = 1
#: No file of a build is read beyond this size (a link or a planted file is refused
#: anyway; this bounds what a damaged manifest can make the loader read).
MAX_FILE = 64 * 1024 * 1024

PACKAGE = Path(__file__).resolve().parent
_TOP = __name__.rpartition(".")[0]


@dataclass(frozen=True)
class Build:
    """A compiled build in use: its folder and the modules it provides."""

    folder: Path
    modules: tuple[str, ...]


_in_use: Build | None = None
#: Why the pure modules run (when they do): a word for ``shashki compile --status``.
_why_pure = "not looked for"


def in_use() -> Build | None:
    """The compiled build in use in this process, or None (the pure modules run)."""
    return _in_use


def why_pure() -> str:
    """Why no compiled build is in use: ``off`` (SHASHKI_PURE), ``none`` (no build of
    these sources), ``damaged`` (a build that failed its checks or did not load), or
    ``in use``."""
    return _why_pure


def source_key(package: Path = PACKAGE) -> str:
    """The digest of every source file of the package and of this interpreter: a build
    is used only by the sources and the Python it was made from and for."""
    digest = hashlib.sha256()
    tag = (
        importlib.machinery.EXTENSION_SUFFIXES[0] if importlib.machinery.EXTENSION_SUFFIXES else ""
    )
    digest.update(f"{FORMAT}\0{sys.version}\0{sys.implementation.cache_tag}\0{tag}\0".encode())
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def builds_folder() -> Path:
    """Where the compiled builds are kept: ``$XDG_CACHE_HOME/shashki/compiled``."""
    return user_folder("cache") / "compiled"


def build_folder(key: str | None = None) -> Path:
    """The folder of the build of the sources installed (or of ``key``)."""
    return builds_folder() / (key or source_key())


def _mine(info: os.stat_result) -> bool:
    """Whether a file or folder is this user's and no one else may write it: code is
    loaded from it (a cache folder shared with others would let them plant a build)."""
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _own_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of this user's alone (not a link) of a sane
    size."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE and _mine(info)


def _own_folder(path: Path) -> bool:
    """Whether ``path`` is a folder of this user's alone (not a link)."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(info.st_mode) and _mine(info)


def _read(path: Path) -> bytes:
    """The bytes of one of the build's own files (never through a link)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(f"{path}: not a regular file")
        return fh.read(MAX_FILE + 1)


def checked(folder: Path, key: str) -> dict[str, Path] | None:
    """The files of the build in ``folder`` by module name (the shared library's too),
    when its manifest is of ``key`` and every file matches its checksum; else None."""
    if not _own_folder(folder.parent) or not _own_folder(folder):
        return None
    manifest = folder / MANIFEST
    if not _own_file(manifest):
        return None
    try:
        data = json.loads(_read(manifest))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    files = data.get("files")
    if not isinstance(files, dict) or not files:
        return None
    found: dict[str, Path] = {}
    for module, entry in files.items():
        if not (isinstance(module, str) and isinstance(entry, list) and len(entry) == 2):
            return None
        name, digest = entry
        # a name of the folder itself: no separator, no way out of it
        if not isinstance(name, str) or not isinstance(digest, str):
            return None
        if not name or name != os.path.basename(name) or name in (".", "..") or "\0" in name:
            return None
        path = folder / name
        if not _own_file(path):
            return None
        try:
            if hashlib.sha256(_read(path)).hexdigest() != digest:
                return None
        except OSError:
            return None
        found[module] = path
    return found


class _Finder(importlib.abc.MetaPathFinder):
    """Imports the build's modules from its folder (and nothing else)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        where = self.files.get(fullname)
        if where is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(where))
        return importlib.util.spec_from_file_location(fullname, str(where), loader=loader)


def use(environ: dict[str, str] | os._Environ[str] | None = None) -> Build | None:
    """Have the compiled build of these sources imported in place of the pure modules,
    when there is a sound one and the environment does not say ``SHASHKI_PURE``; the
    build in use, or None.  Called once, by the ``shashki`` command or a program that
    wants the build, before the rules and the engine are imported; never raises."""
    global _in_use, _why_pure
    env = os.environ if environ is None else environ
    if env.get(PURE_VARIABLE, "") not in ("", "0"):
        _why_pure = "off"
        return None
    if not _own_folder(builds_folder()):  # (no build was ever made: nothing to read)
        _why_pure = "none"
        return None
    try:
        key = source_key()
        files = checked(build_folder(key), key)
    except Exception:  # (whatever a damaged build does, the pure modules run)
        files = None
        key = ""
    if files is None:
        _why_pure = "damaged" if key and _own_folder(build_folder(key)) else "none"
        return None
    # the shared library first, alone: a build that does not load leaves the pure modules
    shared = [m for m in files if "." not in m]
    modules = tuple(sorted(m for m in files if "." in m))
    if len(shared) != 1 or not all(m.startswith(_TOP + ".") for m in modules):
        _why_pure = "damaged"
        return None
    if any(m in sys.modules for m in modules):
        _why_pure = "damaged"  # (too late: the pure ones were imported first)
        return None
    finder = _Finder(files)
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module(shared[0])
    except Exception:
        sys.meta_path.remove(finder)
        sys.modules.pop(shared[0], None)
        _why_pure = "damaged"
        return None
    _in_use = Build(build_folder(key), modules)
    _why_pure = "in use"
    return _in_use
