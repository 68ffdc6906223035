"""Variants as data: definition files (``variants/*.toml``) and the one registry.

A definition file gives a variant's id, names, aliases, PDN GameType, board, start
position, rule switches, draw rules and rule card.  ``find_variant`` looks a variant up
by id, alias, name or PDN GameType; the command line, the menu, the PDN reader and the
tests all use it.

A user's file is untrusted: it is read only if it is a regular file of at most 1 MB in
UTF-8 (or UTF-16/32 with a BOM), its nesting is bounded before TOML is parsed, and every
key is checked against :data:`VARIANT_SCHEMA` (type, range, length) before and after it
is merged with its host.  Ids are safe in file names.  A bad file in the user's folder is
skipped with one line in ``registry().errors``; given on the command line it is an error.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import UnknownVariantError, VariantFileError
from .geometry import (
    DIRECTION_GROUPS,
    MAX_SIZE,
    MIN_SIZE,
    RELATIVE_DIRECTIONS,
    Geometry,
    geometry,
)
from .move import Color
from .movegen import MoveGenerator
from .numbers import bounded_int, is_digits, quoted
from .schema import (
    Boolean,
    Either,
    Integer,
    ListOf,
    MapOf,
    SchemaError,
    Table,
    Text,
    check,
    key_text,
)
from .switches import (
    CaptureChoice,
    Counter,
    DrawRule,
    KingLanding,
    MaterialPattern,
    NoMoves,
    PromotionInCapture,
    Removal,
    Rules,
)
from .userfiles import UserFileError, decode_text, read_limited


@dataclass(frozen=True)
class Goal:
    """``side`` wins as soon as one of its pieces stands on ``rank`` (1-based)."""

    side: Color
    rank: int
    name: str


@dataclass(frozen=True, eq=False)
class Variant:
    """Everything the engine and the interface know about one variant."""

    id: str
    name: str
    board: Geometry
    rules: Rules
    start: str
    draws: tuple[DrawRule, ...] = ()
    aliases: tuple[str, ...] = ()
    #: Names in other languages, e.g. {"ru": "Русские шашки"}.
    names: Mapping[str, str] = field(default_factory=dict)
    #: Menu group: classic, national, orthogonal, family, modified.
    group: str = "classic"
    #: One line for lists and menus.
    summary: str = ""
    #: The rule card: the prose a player reads before choosing the variant.
    card: str = ""
    #: PDN GameType tag value, e.g. "25,W,8,8,A0,0", or "" when PDN has none.
    gametype: str = ""
    #: This variant is what its GameType number means (others share it with a Variant tag).
    gametype_primary: bool = False
    #: How squares are written in moves and positions: "numeric" or "algebraic".
    notation: str = "algebraic"
    #: The capture separator the variant writes ("x" or ":").
    capture_mark: str = "x"
    side_names: tuple[str, str] = ("White", "Black")
    #: Where the definition came from.
    source: str = ""
    #: The variant this one is built on (its id), if any.
    host: str = ""
    #: The generator family, for what data cannot say: "standard", "bashni", "artamonov".
    family: str = "standard"
    #: Rule modifiers applied on top of the host rules, with their options.
    modifiers: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Alternative start positions the players choose from: (label, FEN); the one
    #: that is ``start`` is the default (else the first).  Empty: ``start`` is the only
    #: one.
    start_options: tuple[tuple[str, str], ...] = ()
    #: What the choice is about, for the new-game dialog ("Wolf's square").
    start_choice: str = ""
    #: The start option is drawn by lot (Artamonov's first mover).
    start_by_lot: bool = False
    #: Ways to win besides leaving the opponent without a move.
    goals: tuple[Goal, ...] = ()

    def __post_init__(self) -> None:
        # the id names files (the ending tables' cache): never a path of its own
        if not is_valid_id(self.id):
            raise VariantFileError(
                f"{self.source or '<data>'}: id must be {ID_RULE}, not {quoted(self.id)}"
            )

    @cached_property
    def generator(self) -> MoveGenerator:
        from .generators import generator_class

        cls = generator_class(self.family, self.modifiers, bool(self.goals))
        gen = cls(self.board, self.rules)
        gen.configure(self)
        return gen

    @property
    def numeric(self) -> bool:
        return self.notation == "numeric"

    @property
    def gametype_number(self) -> int | None:
        """The number of the PDN GameType (25 for "25,W,8,8,A0,0"), or None."""
        return gametype_number(self.gametype)

    def __repr__(self) -> str:
        return f"<Variant {self.id}>"


# -- reading definition files ---------------------------------------------------

#: What a variant id and an alias may be: they name files (the ending tables' cache)
#: and are typed on the command line.  All digits would read as a PDN GameType.
ID_PATTERN = re.compile(r"(?![0-9]+\Z)[a-z0-9][a-z0-9-]{0,39}")
ID_RULE = (
    "lower-case letters a-z, digits and '-' (at most 40, not starting with '-', not all digits)"
)
#: The largest PDN GameType number read (the standard's go up to about 40).
MAX_GAMETYPE = 9999
_GAMETYPE = re.compile(r"(?:[0-9]{1,4}(?:,[A-Za-z0-9]{0,8}){0,8})?")
#: The largest variant file read (the shipped ones are about 3 KB).
MAX_FILE_SIZE = 256 << 10
#: Brackets nested deeper, or keys of more dotted parts, are refused before TOML is
#: parsed (tomllib recurses once per bracket and is quadratic in a key's parts).
MAX_NESTING = 16
MAX_KEY_PARTS = 4


def gametype_number(text: str) -> int | None:
    """The number a PDN GameType text starts with ("25" of "25,W,8,8,A0,0"), or None when
    it starts with no number of at most :data:`MAX_GAMETYPE` (a number of any length is
    answered at once)."""
    return bounded_int(text.split(",", 1)[0].strip(), MAX_GAMETYPE)


def is_valid_id(text: str) -> bool:
    """Whether ``text`` may be a variant id or alias (see :data:`ID_PATTERN`)."""
    return ID_PATTERN.fullmatch(text) is not None


def _enum(kind: type[Enum]) -> Text:
    return Text(choices=tuple(str(member.value) for member in kind))


_ID = Text(pattern=ID_PATTERN, rule=ID_RULE)
_NAME = Text(80)
_LINE = Text(300)
_CARD = Text(20_000, multiline=True)
_FEN = Text(4000)
_DIRECTION = Text(choices=(*RELATIVE_DIRECTIONS, *DIRECTION_GROUPS))
_DIRECTIONS = Either((_DIRECTION, ListOf(_DIRECTION, 16)))
_MATERIAL = Text(40)
_MATERIALS = Either((_MATERIAL, ListOf(_MATERIAL, 20)))
_TOTAL = Integer(0, MAX_SIZE * MAX_SIZE)
_SCALAR = Either((Text(200), Integer(-(10**9), 10**9), Boolean()))
_COLOR = Text(choices=("white", "black"))
_ENUMS: dict[str, type[Enum]] = {
    "capture_choice": CaptureChoice,
    "removal": Removal,
    "promotion_in_capture": PromotionInCapture,
    "king_landing": KingLanding,
    "no_moves": NoMoves,
}

_BOARD = Table(
    {
        "width": Integer(MIN_SIZE, MAX_SIZE),
        "height": Integer(MIN_SIZE, MAX_SIZE),
        "squares": Text(choices=("dark", "all")),
        "notation": Text(choices=("numeric", "algebraic")),
        "capture": Text(choices=("x", ":")),
        "start": _FEN,
        "start_options": ListOf(
            Table({"label": Text(40), "start": _FEN}, required=("label", "start")), 20
        ),
        "start_choice": _NAME,
        "start_by_lot": Boolean(),
    },
    required=("start",),
    inheritable=True,
)
_RULES = Table(
    {
        "first": _COLOR,
        "man_moves": _DIRECTIONS,
        "man_captures": _DIRECTIONS,
        "king_moves": _DIRECTIONS,
        "king_moves_fly": Boolean(),
        "king_captures": _DIRECTIONS,
        "king_captures_fly": Boolean(),
        "capture_mandatory": Boolean(),
        "capture_choice": _enum(CaptureChoice),
        "removal": _enum(Removal),
        "no_180": Boolean(),
        "promotion_in_capture": _enum(PromotionInCapture),
        "king_landing": _enum(KingLanding),
        "no_moves": _enum(NoMoves),
        "promotion": Boolean(),
    },
    inheritable=True,
)
_DRAW = Table(
    {
        "id": Text(40),
        "kind": Text(choices=("repetition", "count")),
        "name": _LINE,
        "count": Integer(2, 100),
        "counter": _enum(Counter),
        "plies": Integer(0, 10_000),
        "strong": _MATERIALS,
        "weak": _MATERIALS,
        "total": Either((_TOTAL, ListOf(_TOTAL, MAX_SIZE * MAX_SIZE))),
        "both_have_kings": Boolean(),
        "weak_on_main_road": Boolean(),
        "unless_capture": Boolean(),
    }
)
_GOAL = Table(
    {"side": _COLOR, "rank": Integer(1, MAX_SIZE), "name": _NAME}, required=("side", "rank")
)

#: Every key a definition file may have, its type and its limits.
VARIANT_SCHEMA = Table(
    {
        "id": _ID,
        "name": _NAME,
        "names": MapOf(
            _NAME,
            re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}"),
            "a language code such as 'ru' or 'pt-BR'",
        ),
        "aliases": ListOf(_ID, 20),
        "group": Text(40),
        "summary": _LINE,
        "card": Either((_CARD, Table({"text": _CARD}))),
        "pdn": Table(
            {
                "gametype": Text(
                    pattern=_GAMETYPE, rule="a PDN GameType such as '25' or '25,W,8,8,A0,0'"
                ),
                "primary": Boolean(),
            },
            inheritable=True,
        ),
        "board": _BOARD,
        "rules": _RULES,
        "draws": ListOf(_DRAW, 50),
        "sides": Table({"names": ListOf(Text(40), 2, 2)}, inheritable=True),
        "host": _NAME,
        "generator": Text(40),
        "engine": Text(40),  # the old name of "generator", still read
        "modifiers": ListOf(Text(40), 10),
        "options": MapOf(
            Either((_SCALAR, ListOf(_SCALAR, 100))),
            re.compile(r"[A-Za-z0-9_-]{1,40}"),
            "letters, digits, '_' or '-'",
        ),
        "goals": ListOf(_GOAL, 10),
    },
    required=("id", "name", "board", "rules"),
    inheritable=True,
)


def check_definition(data: Mapping[str, Any], source: str, *, complete: bool = True) -> None:
    """Check every key of a definition table against :data:`VARIANT_SCHEMA`; raises
    VariantFileError naming ``source``, the key and the type expected.  ``complete``:
    the table is merged with its host, so the required keys must be there."""
    try:
        check(data, VARIANT_SCHEMA, complete=complete)
    except SchemaError as exc:
        raise VariantFileError(f"{source}: {exc}") from None


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def variant_from_mapping(
    data: Mapping[str, Any], source: str = "<data>", *, check_start: bool = True
) -> Variant:
    """Build a Variant from a parsed (and merged) definition; raises VariantFileError on
    any mistake, naming ``source`` and the key.

    With ``check_start`` the generator is built and the start positions are read at once,
    so that a broken file fails when it is loaded, not in the middle of a game (the
    built-in files skip it: the test suite reads every one of them).
    """
    check_definition(data, source)
    board = data["board"]
    squares = board.get("squares", "dark")
    geo = geometry(board.get("width", 8), board.get("height", 8), squares == "all")
    notation = board.get("notation", "algebraic")

    kwargs: dict[str, Any] = {}
    for key, value in data["rules"].items():
        if key == "first":
            kwargs[key] = Color.WHITE if value == "white" else Color.BLACK
        elif key in _ENUMS:
            kwargs[key] = _ENUMS[key](value)
        elif key in ("man_moves", "man_captures", "king_moves", "king_captures"):
            kwargs[key] = tuple(_as_list(value))
        else:
            kwargs[key] = value
    rules = Rules(**kwargs)
    modifiers = tuple(data.get("modifiers", []))
    from .generators import GENERATORS, MODIFIERS

    for name in modifiers:
        if name not in MODIFIERS:
            raise VariantFileError(
                f"{source}: unknown modifier {quoted(name)} (known: {', '.join(MODIFIERS)})"
            )
        rules = MODIFIERS[name].adjust_rules(rules)
    family = data.get("generator", data.get("engine", "standard"))
    if family not in GENERATORS:
        raise VariantFileError(
            f"{source}: unknown generator {quoted(family)} (known: {', '.join(GENERATORS)})"
        )
    for name in modifiers:
        if MODIFIERS[name].families and family not in MODIFIERS[name].families:
            raise VariantFileError(
                f"{source}: modifier {name!r} cannot be applied to the {family!r} generator "
                f"(it works with: {', '.join(MODIFIERS[name].families)})"
            )

    draws = []
    for i, raw in enumerate(data.get("draws", [])):
        kind = raw.get("kind", "count")
        counter = raw.get("counter")
        patterns: dict[str, tuple[MaterialPattern, ...]] = {}
        for key in ("strong", "weak"):
            try:
                patterns[key] = tuple(MaterialPattern.parse(t) for t in _as_list(raw.get(key, [])))
            except ValueError as exc:
                raise VariantFileError(f"{source}: [[draws]] #{i + 1} {key}: {exc}") from None
        draws.append(
            DrawRule(
                kind=kind,
                name=raw.get("name", "") or kind,
                count=raw.get("count", 3),
                counter=Counter(counter) if counter else None,
                plies=raw.get("plies", 0),
                strong=patterns["strong"],
                weak=patterns["weak"],
                total=tuple(_as_list(raw.get("total", []))),
                both_have_kings=raw.get("both_have_kings", False),
                weak_on_main_road=raw.get("weak_on_main_road", False),
                unless_capture=raw.get("unless_capture", False),
                rule_id=raw.get("id", ""),
            )
        )

    pdn = data.get("pdn", {})
    side_names = data.get("sides", {}).get("names", ("White", "Black"))
    card = data.get("card", "")
    if isinstance(card, Mapping):
        card = card.get("text", "")
    start_options = [(raw["label"], raw["start"]) for raw in board.get("start_options", [])]
    goals = []
    for i, raw in enumerate(data.get("goals", [])):
        if raw["rank"] > geo.height:
            raise VariantFileError(
                f"{source}: [[goals]] #{i + 1} rank must be between 1 and {geo.height}, "
                f"not {raw['rank']}"
            )
        side = Color.WHITE if raw["side"] == "white" else Color.BLACK
        goals.append(Goal(side, raw["rank"], raw.get("name", "")))
    variant = Variant(
        id=data["id"],
        name=data["name"],
        board=geo,
        rules=rules,
        start=board["start"],
        draws=tuple(draws),
        aliases=tuple(data.get("aliases", [])),
        names=dict(data.get("names", {})),
        group=data.get("group", "classic"),
        summary=data.get("summary", ""),
        card=card.strip(),
        gametype=pdn.get("gametype", ""),
        gametype_primary=pdn.get("primary", False),
        notation=notation,
        capture_mark=board.get("capture", "x"),
        side_names=(side_names[0], side_names[1]),
        source=source,
        host=data.get("host", ""),
        family=family,
        modifiers=modifiers,
        options=dict(data.get("options", {})),
        start_options=tuple(start_options),
        start_choice=board.get("start_choice", ""),
        start_by_lot=board.get("start_by_lot", False),
        goals=tuple(goals),
    )
    if not variant.start.strip():
        raise VariantFileError(f"{source}: [board] start must not be empty")
    if not check_start:
        return variant
    from .fen import parse_fen  # local: fen imports this module

    for label, fen in [("", variant.start), *variant.start_options]:
        try:
            parse_fen(variant, fen)
        except ValueError as exc:
            where = f"start option {label!r}" if label else "[board] start"
            raise VariantFileError(f"{source}: {where}: {exc}") from None
    return variant


#: What the shape check of a TOML text looks at: strings and comments (skipped whole),
#: brackets, dots and the characters that end a dotted key.
_TOML_TOKENS = re.compile(
    r'"""(?:[^"\\]|\\.|""?(?!"))*+"""(?:""?)?'  # multi-line basic string
    r"|'''(?:[^']|''?(?!'))*+'''(?:''?)?"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*+"'  # basic string
    r"|'[^'\n]*+'"  # literal string
    r"|#[^\n]*+"  # comment
    r"|[\[\]{}=,.\n]",
    re.DOTALL,
)


def _toml_shape_error(text: str) -> str | None:
    """Why ``text`` is nested too deeply for tomllib, or None: brackets deeper than
    :data:`MAX_NESTING`, or a dotted key of more than :data:`MAX_KEY_PARTS` parts.

    Strings and comments are skipped whole; a dot outside them belongs to a dotted key
    (or is the one dot of a number), so the dots between two of ``=,[]{}`` or line ends
    count a key's parts.
    """
    depth = dots = 0
    for m in _TOML_TOKENS.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth, dots = depth + 1, 0
            if depth > MAX_NESTING:
                line = text.count("\n", 0, m.start()) + 1
                return f"line {line}: lists or tables nested more than {MAX_NESTING} deep"
        elif c in "]}":
            depth, dots = max(0, depth - 1), 0
        elif c == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                line = text.count("\n", 0, m.start()) + 1
                return f"line {line}: a dotted key of more than {MAX_KEY_PARTS} parts"
        elif c in "=,\n":
            dots = 0
    return None


def read_variant_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The table of a definition file, every key of it type-checked (the keys it may
    inherit from a host may be missing); raises VariantFileError in one line naming the
    file and the problem.

    Only a regular file of at most :data:`MAX_FILE_SIZE` bytes is read (a FIFO or a
    device is refused at once), in UTF-8 with or without BOM or in UTF-16/32 with BOM.
    """
    p = Path(path)
    try:
        data = read_limited(p, MAX_FILE_SIZE)
    except UserFileError as exc:
        raise VariantFileError(f"{p}: cannot read: {exc.reason}") from None
    except OSError as exc:
        raise VariantFileError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        text = decode_text(data, "it")
    except ValueError as exc:
        raise VariantFileError(f"{p}: {exc}; save it as UTF-8") from None
    if "\x00" in text:
        raise VariantFileError(
            f"{p}: not a text file: it holds NUL characters "
            "(UTF-16 or UTF-32 without a byte-order mark?); save it as UTF-8"
        )
    problem = _toml_shape_error(text)
    if problem is not None:
        raise VariantFileError(f"{p}: not a variant file: {problem}")
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantFileError(f"{p}: not valid TOML: {exc}") from None
    except RecursionError:  # the shape check keeps far below the limit: a last guard
        raise VariantFileError(f"{p}: not a variant file: nested too deeply") from None
    except ValueError:  # int() of an integer of more than Python's 4,300 digits
        raise VariantFileError(
            f"{p}: not a variant file: it holds an integer of thousands of digits"
        ) from None
    check_definition(table, str(p), complete=False)
    if "engine" in table:  # the old name of "generator"
        old = table.pop("engine")
        table.setdefault("generator", old)
    return table


#: The longest chain of hosts followed (a variant on a variant on ...).
MAX_HOSTS = 16

#: Keys a variant does not inherit from its host: they name the host itself.
_NOT_INHERITED = {"id", "name", "aliases", "names", "host", "summary", "card"}


def merge_with_host(data: Mapping[str, Any], host: Mapping[str, Any]) -> dict[str, Any]:
    """A definition completed from its host's (already merged) table.

    Tables merge key by key; arrays and plain values of the variant replace the host's;
    modifiers add up (the host's first).
    """
    out: dict[str, Any] = {k: v for k, v in host.items() if k not in _NOT_INHERITED}
    if isinstance(out.get("pdn"), Mapping):
        # the host's GameType is shared, but what the number means stays the host
        out["pdn"] = {k: v for k, v in out["pdn"].items() if k != "primary"}
    for key, value in data.items():
        if key == "modifiers":
            out[key] = list(host.get("modifiers", [])) + [
                m for m in value if m not in host.get("modifiers", [])
            ]
        elif isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            merged = dict(out[key])
            merged.update(value)
            out[key] = merged
        else:
            out[key] = value
    return out


def load_variant_file(
    path: str | os.PathLike[str], hosts: Mapping[str, Mapping[str, Any]] | None = None
) -> Variant:
    """Read one definition file; raises VariantFileError saying what is wrong.

    A file that names a ``host`` is completed from ``hosts`` (raw tables by id), by
    default from the registry's variants.
    """
    data = read_variant_file(path)
    return _resolve(data, str(path), hosts)


def _resolve(
    data: Mapping[str, Any],
    source: str,
    hosts: Mapping[str, Mapping[str, Any]] | None,
    seen: tuple[str, ...] = (),
    *,
    check_start: bool = True,
) -> Variant:
    return variant_from_mapping(_merged(data, source, hosts, seen), source, check_start=check_start)


def _merged(
    data: Mapping[str, Any],
    source: str,
    hosts: Mapping[str, Mapping[str, Any]] | None,
    seen: tuple[str, ...] = (),
) -> dict[str, Any]:
    host_id = data.get("host")
    if not host_id:
        return dict(data)
    tables = hosts if hosts is not None else registry().raw
    key = str(host_id).lower()
    table = tables.get(key)
    if table is None and _REGISTRY is not None:  # an alias or name of a known variant
        try:
            key = _REGISTRY.find(str(host_id)).id.lower()
            table = tables.get(key)
        except UnknownVariantError:
            table = None
    if table is None:
        raise VariantFileError(f"{source}: host variant {quoted(str(host_id))} is not known")
    if key in seen:
        raise VariantFileError(f"{source}: host chain loops through {quoted(str(host_id))}")
    if len(seen) >= MAX_HOSTS:
        raise VariantFileError(f"{source}: host chain of more than {MAX_HOSTS} variants")
    merged_host = _merged(table, source, tables, (*seen, key))
    return merge_with_host(data, merged_host)


# -- the registry ---------------------------------------------------------------


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
        #: Problems with user definition files, one line each (shown, never fatal).
        self.errors: list[str] = []
        #: The ids of the shipped variants.
        self.builtin: set[str] = set()

    def owner(self, key: str) -> Variant | None:
        """The variant that ``key`` (an id, alias or name, any case) names, or None."""
        found = self._index.get(key.lower())
        return self._variants[found] if found is not None else None

    def describe(self, variant: Variant) -> str:
        """'the built-in variant russian' or 'the variant mine (of /path/mine.toml)'."""
        if variant.id in self.builtin:
            return f"the built-in variant {variant.id}"
        return f"the variant {variant.id} (of {variant.source})"

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
                raise VariantFileError(
                    f"{source}: id {variant.id!r} already names {self.describe(taken)}"
                )
            if taken.id == variant.id:  # the user's own variant, replaced
                self._forget(taken.id)
        keys: list[str] = [variant.id]
        aliases: list[str] = []
        for label, text in [
            *((f"alias {quoted(a)}", a) for a in variant.aliases),
            (f"name {quoted(variant.name)}", variant.name),
            *((f"[names] {key_text(lang)} {quoted(t)}", t) for lang, t in variant.names.items()),
        ]:
            owner = self.owner(text)
            if owner is None or owner.id == variant.id:
                keys.append(text)
            elif origin == "command" and owner.id not in self.builtin:
                keys.append(text)  # the user named this file: it takes the name over
            elif origin == "user":
                self.errors.append(
                    f"{source}: {label} is ignored: it already names {self.describe(owner)}"
                )
                continue
            else:
                raise VariantFileError(f"{source}: {label} already names {self.describe(owner)}")
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
            reason = f"GameType {number} means {self.describe(clash)}"
            if origin != "user":
                raise VariantFileError(f"{source}: [pdn] primary: {reason}")
            self.errors.append(f"{source}: [pdn] primary is ignored: {reason}")
            variant = replace(variant, gametype_primary=False)
        if len(aliases) != len(variant.aliases):
            variant = replace(variant, aliases=tuple(aliases))
        self._variants[variant.id] = variant
        if origin == "builtin":
            self.builtin.add(variant.id)
        for key in keys:
            self._index[key.lower()] = variant.id
        return variant

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
        known = ", ".join(self._variants)
        raise UnknownVariantError(f"unknown variant {quoted(name.strip())} (known: {known})")


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
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "shashki" / "variants"


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
            reg.errors.append(f"skipped {exc}")
            continue
        tables[f] = table
    loaded: list[Variant] = []
    for f, table in tables.items():
        try:
            # the built-in files (strict) are checked by the test suite: build lazily
            variant = _resolve(table, str(f), reg.raw, check_start=not strict)
        except VariantFileError as exc:
            if strict:
                raise
            reg.errors.append(f"skipped {exc}")
            continue
        loaded.append(variant)
    loaded.sort(key=lambda v: (_GROUP_ORDER.get(v.group, 9), _BUILTIN_ORDER.get(v.id, 99), v.id))
    for v in loaded:
        try:
            reg.add(v, origin=origin)
        except VariantFileError as exc:
            if strict:
                raise
            reg.errors.append(f"skipped {exc}")


def _claim_raw(reg: Registry, table: dict[str, Any], source: str, *, replace: bool) -> None:
    """Keep a checked table as a possible host under its id; raises VariantFileError when
    the id is missing or taken (``replace``: a user's table of that id may be replaced;
    the id of a built-in, or a name of any known variant, never)."""
    variant_id = table.get("id")
    if variant_id is None:
        raise VariantFileError(f"{source}: missing key id")
    owner = reg.owner(variant_id)
    if owner is not None and (owner.id in reg.builtin or not replace):
        raise VariantFileError(f"{source}: id {variant_id!r} already names {reg.describe(owner)}")
    if variant_id in reg.raw and not replace:
        raise VariantFileError(
            f"{source}: id {variant_id!r} is already defined by {reg.raw_source[variant_id]}"
        )
    reg.raw[variant_id] = table
    reg.raw_source[variant_id] = source


def registry() -> Registry:
    """The registry: the built-in variants, then the user's own definition files."""
    global _REGISTRY
    if _REGISTRY is None:
        reg = Registry()
        folder = builtin_variant_dir()
        files = sorted(folder.glob("*.toml"))
        if not files:
            raise VariantFileError(f"no variant definitions found in {folder}")
        _REGISTRY = reg  # hosts resolve through it while loading
        try:
            _load_folder(reg, files, origin="builtin")
        except Exception:
            _REGISTRY = None
            raise
        user = user_variant_dir()
        try:
            found = sorted(user.glob("*.toml")) if user.is_dir() else []
        except OSError as exc:
            reg.errors.append(f"{user}: cannot read the folder: {exc.strerror or exc}")
            found = []
        _load_folder(reg, found, origin="user")
    return _REGISTRY


def add_variant_file(path: str | os.PathLike[str]) -> Variant:
    """Load a definition file given by the user (a path on the command line) into the
    registry, replacing a user's variant of the same id; raises VariantFileError (also
    when it would take over an id, alias, name or GameType of a built-in variant)."""
    reg = registry()
    table = read_variant_file(path)
    source = str(path)
    owner = reg.owner(table["id"]) if "id" in table else None
    if owner is not None and owner.id in reg.builtin:  # before its host is looked up
        raise VariantFileError(f"{source}: id {table['id']!r} already names {reg.describe(owner)}")
    variant = _resolve(table, source, reg.raw)
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
