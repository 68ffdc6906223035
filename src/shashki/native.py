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
may write, and every folder on the way to them, from the root down, the user's or the
system's and writable by no one else), checks that the manifest names only the engine's
modules, each by its own file, loads its shared library, and then has the compiled
modules imported in place of their sources (a module whose compiled file does not load
is imported from its source).  Anything
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
import re
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
    "checked",
    "in_use",
    "refusal",
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
    """Why no compiled build is in use: ``off`` (SHASHKI_PURE), ``none`` (no build),
    ``other`` (builds of other sources only: they changed since), ``refused`` (a build
    that someone else could have put there or changed: :func:`refusal` says why),
    ``damaged`` (a build that failed its checks or
    did not load), or ``in use``."""
    return _why_pure


def _other_builds() -> bool:
    """Whether the builds folder holds a build of other sources (made before the sources
    changed: an upgrade, an edited file; not a build being written, ``.KEY.…``)."""
    try:
        names = os.listdir(builds_folder())
        return any(not n.startswith(".") and _is_folder(builds_folder() / n) for n in names)
    except OSError:
        return False


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


def _own_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of this user's alone (not a link, writable by
    no one else: code is loaded from it) of a sane size."""
    from .base.ownfiles import entry_refusal

    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return False
    return entry_refusal(info, folder=False) is None and info.st_size <= MAX_FILE


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (not a link)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _module_file(module: str, name: str) -> bool:
    """Whether ``name`` is the file of ``module`` as mypyc names it: the module's last
    part (``movegen`` for ``shashki.rules.movegen``; the shared library's own name) and
    an extension module's suffix of this interpreter."""
    stem = module.rpartition(".")[2]
    return any(name == stem + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES)


#: The name of mypyc's shared library of the modules compiled together.
_SHARED = re.compile(r"[A-Za-z0-9_]{1,64}__mypyc")
#: The compiled modules a build may provide, by module name.
_MODULE_NAMES = frozenset(f"{_TOP}." + m.removesuffix(".py").replace("/", ".") for m in MODULES)


def _read(path: Path) -> bytes:
    """The bytes of one of the build's own files (never through a link)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(f"{path}: not a regular file")
        return fh.read(MAX_FILE + 1)


def refusal(folder: Path) -> str | None:
    """Why the build in ``folder`` may have been planted or changed by someone else (the
    folder, or a folder on the way to it from the root, another user's or writable by
    others: :func:`~shashki.base.ownfiles.trust_refusal`), or None."""
    from .base.ownfiles import trust_refusal

    return trust_refusal(folder, folder=True)


def checked(folder: Path, key: str) -> dict[str, Path] | None:
    """The files of the build in ``folder`` by module name (the shared library's too),
    when no one else could have put them there (:func:`refusal`), its manifest is of
    ``key``, names only modules of :data:`MODULES` (and one shared library), each by its
    own file (named after it, and defining its ``PyInit_`` function), and every file
    matches its checksum; else None."""
    if refusal(folder) is not None:
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
        # a module of the engine's, or the one shared library, each from its own file
        if module not in _MODULE_NAMES and not _SHARED.fullmatch(module):
            return None
        if not _module_file(module, name):
            return None
        path = folder / name
        if not _own_file(path):
            return None
        try:
            data = _read(path)
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            return None
        # the file is the module's: it defines the function that makes that module (a
        # file of another module's would stop ``import shashki`` when it is imported)
        if b"PyInit_" + module.rpartition(".")[2].encode() + b"\0" not in data:
            return None
        found[module] = path
    if sum("." not in module for module in found) > 1:
        return None
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
    if not _is_folder(builds_folder()):  # (no build was ever made: nothing to read)
        _why_pure = "none"
        return None
    try:
        key = source_key()
        files = checked(build_folder(key), key)
    except Exception:  # (whatever a damaged build does, the pure modules run)
        files = None
        key = ""
    if files is None:
        found = bool(key) and _is_folder(build_folder(key))
        _why_pure = "damaged" if found else "other" if _other_builds() else "none"
        if found and refusal(build_folder(key)) is not None:
            _why_pure = "refused"
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
    from .base.workers import at_worker_start

    at_worker_start(use)  # (the worker processes run what this process runs)
    return _in_use
