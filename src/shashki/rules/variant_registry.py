"""The one registry of variants: the built-in definition files, the user's folder and
the files given on the command line, looked up by id, alias, name or PDN GameType.

``find_variant`` looks a variant up; the command line, the menu, the PDN reader and the
tests all use it.  A bad file in the user's folder is skipped with one line in
``registry().errors``; given on the command line it is an error.  Reading a file and
building its :class:`~.variant.Variant` is :mod:`.variant_file`'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from .. import i18n
from ..base.logs import package_logger
from ..base.numbers import is_digits, quoted
from ..base.userfiles import user_folder
from ..i18n import _, ngettext, os_reason
from .errors import UnknownVariantError, VariantFileError
from .schema import key_text
from .variant import Variant, gametype_number
from .variant_file import read_variant_file, resolve_variant

logger = package_logger(__name__)


def builtin_variant_dir() -> Path:
    """The folder of the shipped definition files (in the wheel or in a source checkout)."""
    try:
        packaged = resources.files("shashki") / "variants"
        if packaged.is_dir():
            return Path(str(packaged))
    except (ModuleNotFoundError, NotADirectoryError):  # pragma: no cover
        pass
    return Path(__file__).resolve().parents[3] / "variants"


class Registry:
    """The known variants, in a stable order, with look-up by any of their names.

    A variant comes from the shipped files (``builtin``), the user's folder (``user``)
    or the command line (``command``, ``--variant-file``).  A user's file never takes
    over what names a built-in variant (its id, an alias, a name, what its PDN GameType
    number means): from the folder the clash is a warning in :attr:`errors` and the
    built-in wins; from the command line it is an error.
    """

    def __init__(self) -> None:
        self._variants: dict[str, Variant] = {}
        self._index: dict[str, str] = {}
        #: The raw definition tables by id, for variants built on a host.
        self.raw: dict[str, dict[str, Any]] = {}
        #: Where each raw table comes from.
        self.raw_source: dict[str, str] = {}
        #: Problems with user definition files, one line each (shown, never fatal), in
        #: :attr:`language` (:func:`user_file_problems` says them in the one spoken now).
        self.errors: list[str] = []
        self.language = i18n.language()
        #: The ids of the shipped variants.
        self.builtin: set[str] = set()

    def owner(self, key: str) -> Variant | None:
        """The variant that ``key`` (an id, alias or name, any case) names, or None."""
        found = self._index.get(key.lower())
        return self._variants[found] if found is not None else None

    def host_id(self, name: str) -> str | None:
        """The id of the variant ``name`` names (an id, alias, name or PDN GameType), or
        None: how a variant file's ``host`` is found by another of its names."""
        try:
            return self.find(name).id
        except UnknownVariantError:
            return None

    def describe(self, variant: Variant) -> str:
        """'the built-in variant russian' or 'the variant mine (of /path/mine.toml)'."""
        if variant.id in self.builtin:
            return _("the built-in variant {id}").format(id=variant.id)
        return _("the variant {id} (of {source})").format(id=variant.id, source=variant.source)

    def add(self, variant: Variant, *, origin: str = "builtin") -> Variant:
        """Register ``variant`` and return it as registered.

        ``origin`` is "builtin", "user" or "command".  Raises VariantFileError when its
        id is taken (a command-line file may replace a user's variant, never a built-in
        one), or when it would take over a built-in's alias, name or GameType (for
        "builtin" and "command"); for "user" such a name is left out, with a warning
        in :attr:`errors`.
        """
        source = variant.source
        taken = self._variants.get(variant.id) or self.owner(variant.id)
        if taken is not None:
            if origin != "command" or taken.id in self.builtin:
                raise VariantFileError(f"{source}: " + self.id_taken(variant.id, taken))
            if taken.id == variant.id:  # the user's own variant, replaced
                self._forget(taken.id)
        keys: list[str] = [variant.id]
        aliases: list[str] = []
        for label, text in [
            *((_("alias {name}").format(name=quoted(a)), a) for a in variant.aliases),
            (_("name {name}").format(name=quoted(variant.name)), variant.name),
            *((f"[names] {key_text(lang)} {quoted(t)}", t) for lang, t in variant.names.items()),
        ]:
            owner = self.owner(text)
            if owner is None or owner.id == variant.id:
                keys.append(text)
            elif origin == "command" and owner.id not in self.builtin:
                keys.append(text)  # the user named this file: it takes the name over
            elif origin == "user":
                self.errors.append(
                    f"{source}: "
                    + _("{what} is ignored: it already names {variant}").format(
                        what=label, variant=self.describe(owner)
                    )
                )
                continue
            else:
                raise VariantFileError(
                    f"{source}: "
                    + _("{what} already names {variant}").format(
                        what=label, variant=self.describe(owner)
                    )
                )
            if text in variant.aliases:
                aliases.append(text)
        number = variant.gametype_number if variant.gametype_primary else None
        # a built-in of that number keeps it (a built-in only clashes with a primary one)
        clash = next(
            (
                v
                for v in self._variants.values()
                if number is not None
                and v.id in self.builtin
                and v.gametype_number == number
                and (v.gametype_primary or origin != "builtin")
            ),
            None,
        )
        if clash is not None:
            reason = _("GameType {number} means {variant}").format(
                number=number, variant=self.describe(clash)
            )
            if origin != "user":
                raise VariantFileError(
                    f"{source}: " + _("[pdn] primary: {reason}").format(reason=reason)
                )
            self.errors.append(
                f"{source}: " + _("[pdn] primary is ignored: {reason}").format(reason=reason)
            )
            variant = replace(variant, gametype_primary=False)
        if len(aliases) != len(variant.aliases):
            variant = replace(variant, aliases=tuple(aliases))
        self._variants[variant.id] = variant
        if origin == "builtin":
            self.builtin.add(variant.id)
        for key in keys:
            self._index[key.lower()] = variant.id
        return variant

    def id_taken(self, variant_id: str, owner: Variant) -> str:
        """Why a file may not take ``variant_id``: it names ``owner`` already."""
        return _("id {id} already names {variant}").format(
            id=quoted(variant_id), variant=self.describe(owner)
        )

    def _forget(self, variant_id: str) -> None:
        """Drop a (user's) variant and its names, before another one replaces it."""
        self._variants.pop(variant_id, None)
        for key in [k for k, v in self._index.items() if v == variant_id]:
            del self._index[key]

    def __iter__(self) -> Iterator[Variant]:
        return iter(self._variants.values())

    def __len__(self) -> int:
        return len(self._variants)

    def find(self, name: str) -> Variant:
        """A variant by id, alias, name or PDN GameType ("25" or "25,W,8,8,A0,0");
        raises UnknownVariantError (a text of any length, a number of any size)."""
        key = name.strip().lower()
        head = key.split(",", 1)[0].strip()
        if is_digits(head):  # a GameType: built-in first, then the variant it means
            number = gametype_number(head)
            same = [v for v in self._variants.values() if v.gametype_number == number]
            if number is not None and same:
                same.sort(key=lambda v: (v.id not in self.builtin, not v.gametype_primary))
                return same[0]
        elif key in self._index:
            return self._variants[self._index[key]]
        ids = list(self._variants)
        known = ", ".join(ids[:12])
        if len(ids) > 12:
            more = len(ids) - 12
            known += " " + ngettext("and {n} more", "and {n} more", more).format(n=more)
        raise UnknownVariantError(
            _("unknown variant {name} (known: {known})").format(
                name=quoted(name.strip()), known=known
            )
        )


_REGISTRY: Registry | None = None

_GROUP_ORDER = {"classic": 0, "national": 1, "orthogonal": 2, "family": 3, "modified": 4, "user": 5}
_BUILTIN_ORDER = {
    "traditional": 0,
    "russian": 1,
    "brazilian": 2,
    "international": 3,
    "english": 4,
    "turkish": 10,
    "tama": 11,
    "tama-armenian": 12,
    "bashni": 20,
    "artamonov": 21,
    "wolf-sheep": 22,
    "diagonal": 30,
    "giveaway": 31,
    "giveaway-russian": 32,
    "self-capture": 33,
    "demotion": 34,
    "move-opponent": 35,
    "double-move": 36,
}


def user_variant_dir() -> Path:
    """Where a user's own definition files live: $XDG_DATA_HOME/shashki/variants."""
    return user_folder("data") / "variants"


def _load_folder(reg: Registry, files: list[Path], *, origin: str) -> None:
    """Load definition files, hosts before the variants built on them.

    The built-in files ("builtin") must all load; a user's file ("user") that does not
    is left out with a line in ``reg.errors``.
    """
    strict = origin == "builtin"
    tables: dict[Path, dict[str, Any]] = {}
    for f in files:
        try:
            table = read_variant_file(f)
            _claim_raw(reg, table, str(f), replace=False)
        except VariantFileError as exc:
            if strict:
                raise
            reg.errors.append(skipped(exc))
            continue
        tables[f] = table
    loaded: list[Variant] = []
    for f, table in tables.items():
        try:
            # the built-in files (strict) are checked by the test suite: build lazily
            variant = resolve_variant(
                table, str(f), reg.raw, find_host=reg.host_id, check_start=not strict
            )
        except VariantFileError as exc:
            if strict:
                raise
            reg.errors.append(skipped(exc))
            continue
        loaded.append(variant)
    loaded.sort(key=lambda v: (_GROUP_ORDER.get(v.group, 9), _BUILTIN_ORDER.get(v.id, 99), v.id))
    for v in loaded:
        try:
            reg.add(v, origin=origin)
        except VariantFileError as exc:
            if strict:
                raise
            reg.errors.append(skipped(exc))


def _claim_raw(reg: Registry, table: dict[str, Any], source: str, *, replace: bool) -> None:
    """Keep a checked table as a possible host under its id; raises VariantFileError when
    the id is missing or taken (``replace``: a user's table of that id may be replaced;
    the id of a built-in, or a name of any known variant, never)."""
    variant_id = table.get("id")
    if variant_id is None:
        raise VariantFileError(f"{source}: " + _("missing key {key}").format(key="id"))
    owner = reg.owner(variant_id)
    if owner is not None and (owner.id in reg.builtin or not replace):
        raise VariantFileError(f"{source}: " + reg.id_taken(variant_id, owner))
    if variant_id in reg.raw and not replace:
        raise VariantFileError(
            f"{source}: "
            + _("id {id} is already defined by {other}").format(
                id=quoted(variant_id), other=reg.raw_source[variant_id]
            )
        )
    reg.raw[variant_id] = table
    reg.raw_source[variant_id] = source


def skipped(exc: VariantFileError) -> str:
    """The line of a user's file left out: "skipped PATH: why"."""
    return _("skipped {problem}").format(problem=exc)


def registry() -> Registry:
    """The registry: the built-in variants, then the user's own definition files."""
    global _REGISTRY
    if _REGISTRY is None:
        reg = Registry()
        folder = builtin_variant_dir()
        files = sorted(folder.glob("*.toml"))
        if not files:
            raise VariantFileError(
                _("no variant definitions found in {folder}").format(folder=folder)
            )
        _load_folder(reg, files, origin="builtin")  # raises: no registry is kept
        _REGISTRY = reg
        _read_user_folder(reg)
        for problem in reg.errors:
            logger.warning("a variant file of the user's: %s", problem)
    return _REGISTRY


def _read_user_folder(reg: Registry) -> None:
    """Load the user's own definition files into ``reg``, each problem a line of
    ``reg.errors``."""
    user = user_variant_dir()
    try:
        found = sorted(user.glob("*.toml")) if user.is_dir() else []
    except OSError as exc:
        reg.errors.append(
            f"{user}: " + _("cannot read the folder: {reason}").format(reason=os_reason(exc))
        )
        found = []
    _load_folder(reg, found, origin="user")


def user_file_problems() -> list[str]:
    """The problems with the user's definition files (``registry().errors``) in the
    language spoken now: when the language has changed since the registry was made
    (``--lang`` then the app's setting), the files are read again to say them in it."""
    reg = registry()
    if not reg.errors or reg.language == i18n.language():
        return reg.errors
    again = Registry()
    files = sorted(builtin_variant_dir().glob("*.toml"))
    _load_folder(again, files, origin="builtin")
    _read_user_folder(again)
    reg.errors, reg.language = again.errors, again.language
    return reg.errors


def load_variant_file(
    path: str | os.PathLike[str], hosts: Mapping[str, Mapping[str, Any]] | None = None
) -> Variant:
    """Read one definition file; raises VariantFileError saying what is wrong.

    A file that names a ``host`` is completed from ``hosts`` (raw tables by id), by
    default from the registry's variants.
    """
    data = read_variant_file(path)
    if hosts is None:
        hosts = registry().raw if data.get("host") else {}
    find_host = _REGISTRY.host_id if _REGISTRY is not None else None
    return resolve_variant(data, str(path), hosts, find_host=find_host)


def add_variant_file(path: str | os.PathLike[str]) -> Variant:
    """Load a definition file given by the user (a path on the command line) into the
    registry, replacing a user's variant of the same id; raises VariantFileError (also
    when it would take over an id, alias, name or GameType of a built-in variant)."""
    reg = registry()
    table = read_variant_file(path)
    source = str(path)
    owner = reg.owner(table["id"]) if "id" in table else None
    if owner is not None and owner.id in reg.builtin:  # before its host is looked up
        raise VariantFileError(f"{source}: " + reg.id_taken(table["id"], owner))
    variant = resolve_variant(table, source, reg.raw, find_host=reg.host_id)
    variant = reg.add(variant, origin="command")
    reg.raw[variant.id] = table
    reg.raw_source[variant.id] = source
    return variant


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by id, alias, name or PDN GameType; raises UnknownVariantError."""
    if isinstance(name, Variant):
        return name
    return registry().find(name)


def all_variants() -> list[Variant]:
    return list(registry())
