"""Variant definition files (``variants/*.toml``): the schema of their keys, reading a
file, completing it from its host, and building the :class:`~.variant.Variant`.

A definition file gives a variant's id, names, aliases, PDN GameType, board, start
position, rule switches, draw rules and rule card.

A user's file is untrusted: it is read only if it is a regular file of at most 1 MB in
UTF-8 (or UTF-16/32 with a BOM), its nesting is bounded before TOML is parsed, and every
key is checked against :data:`VARIANT_SCHEMA` (type, range, length) before and after it
is merged with its host.  Ids are safe in file names.  Which hosts are known, and where
the files come from, is the registry's business (:mod:`.variant_registry`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from .. import i18n
from ..base.numbers import quoted
from ..base.userfiles import UserFileError, decode_text, read_limited
from ..i18n import N_, _, os_reason
from .errors import VariantFileError
from .fen import parse_fen
from .generators import GENERATORS, KING_LIMIT_FAMILIES, MODIFIERS, generator_class
from .geometry import (
    DIRECTION_GROUPS,
    MAX_SIZE,
    MIN_SIZE,
    RELATIVE_DIRECTIONS,
    geometry,
)
from .move import Color
from .schema import (
    Boolean,
    Either,
    Integer,
    ListOf,
    MapOf,
    Schema,
    SchemaError,
    Table,
    Text,
    check,
)
from .switches import (
    PRECEDENCE_CRITERIA,
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
from .variant import ID_PATTERN, ID_RULE, Goal, Variant

_GAMETYPE = re.compile(r"(?:[0-9]{1,4}(?:,[A-Za-z0-9]{0,8}){0,8})?")
#: The largest variant file read (the shipped ones are about 3 KB).
MAX_FILE_SIZE = 256 << 10
#: Brackets nested deeper, or keys of more dotted parts, are refused before TOML is
#: parsed (tomllib recurses once per bracket and is quadratic in a key's parts).
MAX_NESTING = 16
MAX_KEY_PARTS = 4


def _enum(kind: type[Enum]) -> Text:
    return Text(choices=tuple(str(member.value) for member in kind))


_ID = Text(pattern=ID_PATTERN, rule=ID_RULE)
_NAME = Text(80)
_LINE = Text(300)
_CARD = Text(20_000, multiline=True)
#: A language code, the key of a translation ("uk", "ru", "pt-BR").
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}")
_LANGUAGE_RULE = N_("a language code such as 'ru' or 'pt-BR'")


def _translations(value: Schema) -> MapOf:
    """A text in other languages: ``{ uk = …, ru = … }``."""
    return MapOf(value, _LANGUAGE, _LANGUAGE_RULE)


#: A card in another language: ``[card.uk]`` with its own summary and text.
_LOCAL_CARD = Table({"summary": _LINE, "text": _CARD})
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
        # docs/rules/conventions.md#colouring: a1 dark ("normal") or light ("mirrored")
        "colouring": Text(choices=("normal", "mirrored")),
        "notation": Text(choices=("numeric", "algebraic")),
        "capture": Text(choices=("x", ":", "-")),  # "-": Thai (docs/rules/national.md#thai)
        "start": _FEN,
        "start_options": ListOf(
            Table(
                {"label": Text(40), "labels": _translations(Text(40)), "start": _FEN},
                required=("label", "start"),
            ),
            20,
        ),
        "start_choice": _NAME,
        "start_choices": _translations(_NAME),
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
        # docs/rules/switches.md#precedence: the criteria, in order; decides over capture_choice
        "capture_precedence": ListOf(Text(choices=PRECEDENCE_CRITERIA), len(PRECEDENCE_CRITERIA)),
        # docs/rules/switches.md#men-and-kings
        "man_captures_kings": Boolean(),
        "removal": _enum(Removal),
        "no_180": Boolean(),
        "promotion_in_capture": _enum(PromotionInCapture),
        "king_landing": _enum(KingLanding),
        "no_moves": _enum(NoMoves),
        "promotion": Boolean(),
        # docs/rules/switches.md#king-limit: simple moves in a row of one king while men remain (0:
        # no limit)
        "king_move_limit": Integer(0, 9),
    },
    inheritable=True,
)
_DRAW = Table(
    {
        "id": Text(40),
        # docs/rules/conventions.md#draws: "lone-kings" is Frisian's Art. 21.1
        "kind": Text(choices=("repetition", "count", "lone-kings")),
        "name": _LINE,
        "names": _translations(_LINE),
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
    {
        "side": _COLOR,
        "rank": Integer(1, MAX_SIZE),
        "name": _NAME,
        "names": _translations(_NAME),
    },
    required=("side", "rank"),
)

#: Every key a definition file may have, its type and its limits.
VARIANT_SCHEMA = Table(
    {
        "id": _ID,
        "name": _NAME,
        "names": _translations(_NAME),
        "aliases": ListOf(_ID, 20),
        "group": Text(40),
        "summary": _LINE,
        # [card] text = …, and [card.uk], [card.ru]… for the card in other languages
        "card": Either((_CARD, Table({"text": _CARD}, others=_translations(_LOCAL_CARD)))),
        "pdn": Table(
            {
                "gametype": Text(
                    pattern=_GAMETYPE,
                    rule=N_("a PDN GameType such as '25' or '25,W,8,8,A0,0'"),
                ),
                "primary": Boolean(),
            },
            inheritable=True,
        ),
        "board": _BOARD,
        "rules": _RULES,
        "draws": ListOf(_DRAW, 50),
        # names = ["Wolf", "Sheep"], uk = ["Вовк", "Вівці"]…, and the forms a sentence
        # takes: forms = { uk = ["вовк, вовка, вовку, вовком; masculine", …] }
        "sides": Table(
            {"names": ListOf(Text(40), 2, 2), "forms": _translations(ListOf(Text(100), 2, 2))},
            inheritable=True,
            others=_translations(ListOf(Text(40), 2, 2)),
        ),
        "host": _NAME,
        "generator": Text(40),
        "engine": Text(40),  # the old name of "generator", still read
        "modifiers": ListOf(Text(40), 10),
        "options": MapOf(
            Either((_SCALAR, ListOf(_SCALAR, 100))),
            re.compile(r"[A-Za-z0-9_-]{1,40}"),
            N_("letters, digits, '_' or '-'"),
        ),
        "goals": ListOf(_GOAL, 10),
        # the name Hub engines give the game ("normal", "killer"…), where they have one
        "hub": Text(40, pattern=re.compile(r"[a-z0-9-]{1,40}"), rule=N_("a name of a-z, 0-9, '-'")),
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


def gametype_numbering(gametype: str) -> tuple[tuple[str, int], bool | None]:
    """The square numbering a PDN GameType ``"T,C,W,H,Xd,i"`` gives
    (docs/rules/conventions.md#gametype) — the starting side ``C`` and the corner ``d`` of square 1
    as that side sees the board, for a numeric ``X = N``; White's top-left otherwise — and its
    invert flag ``i`` (True: a1 is light), or None when the GameType has none.

    >>> gametype_numbering("22,W,8,8,N2,1")
    (('W', 2), True)
    >>> gametype_numbering("25,W,8,8,A0,0")
    (('W', 2), False)
    """
    parts = [p.strip() for p in gametype.split(",")]
    numbering = ("W", 2)
    if len(parts) >= 5:
        side, notation = parts[1].upper(), parts[4].upper()
        if (
            side in ("W", "B")
            and len(notation) == 2
            and notation[0] == "N"
            and notation[1] in "0123"
        ):
            numbering = (side, int(notation[1]))
    invert = {"0": False, "1": True}.get(parts[5]) if len(parts) >= 6 else None
    return numbering, invert


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
    mirrored, numbering = _colouring(data, source)
    rules = _rules_of(data["rules"], source)
    squares = board.get("squares", "dark")
    # docs/rules/switches.md#orthogonal-steps: orthogonal directions on a board of dark squares are
    # steps of two squares, which the board's layout must have room for
    orthogonal = not set(rules.man_moves + rules.man_captures + rules.king_moves).union(
        rules.king_captures
    ) <= set(DIRECTION_GROUPS["diagonal"])
    geo = geometry(
        board.get("width", 8),
        board.get("height", 8),
        squares == "all",
        mirrored,
        numbering,
        wide=orthogonal and squares != "all",
    )
    modifiers = tuple(data.get("modifiers", []))
    rules, family = _family_of(data, rules, modifiers, source)
    draws = tuple(_draw_rule(raw, i, source) for i, raw in enumerate(data.get("draws", [])))
    pdn = data.get("pdn", {})
    side_names = data.get("sides", {}).get("names", ("White", "Black"))
    card = data.get("card", "")
    local_cards = {}
    if isinstance(card, Mapping):
        local_cards = {k: v for k, v in card.items() if k != "text"}
        card = card.get("text", "")
    start_options = [(raw["label"], raw["start"]) for raw in board.get("start_options", [])]
    goals = tuple(_goal(raw, i, geo.height, source) for i, raw in enumerate(data.get("goals", [])))
    translations = _translations_of(data, board, local_cards, side_names, str(card).strip())
    variant = Variant(
        id=data["id"],
        name=data["name"],
        board=geo,
        rules=rules,
        start=board["start"],
        draws=draws,
        aliases=tuple(data.get("aliases", [])),
        names=dict(data.get("names", {})),
        group=data.get("group", "classic"),
        summary=data.get("summary", ""),
        card=card.strip(),
        gametype=pdn.get("gametype", ""),
        gametype_primary=pdn.get("primary", False),
        hub_name=data.get("hub", ""),
        notation=board.get("notation", "algebraic"),
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
        goals=goals,
        translations=translations,
        generator_class=generator_class(family, modifiers, bool(goals), rules.king_move_limit > 0),
    )
    if not variant.start.strip():
        raise VariantFileError(f"{source}: " + _("[board] start must not be empty"))
    if check_start:
        _check_start(variant, source)
    return variant


def _colouring(data: Mapping[str, Any], source: str) -> tuple[bool, tuple[str, int]]:
    """(whether the board is mirrored, the PDN numbering: side and corner), with the
    board's colouring and the PDN game type's invert flag agreeing."""
    board = data["board"]
    mirrored = board.get("colouring", "normal") == "mirrored"
    if mirrored and board.get("squares", "dark") == "all":
        raise VariantFileError(
            f"{source}: " + _("board.colouring: a board of all squares has none")
        )
    numbering, invert = gametype_numbering(data.get("pdn", {}).get("gametype", ""))
    if invert is not None and invert != mirrored:
        raise VariantFileError(
            f"{source}: "
            + _(
                "pdn.gametype says the board is {invert} (its invert flag), "
                "board.colouring says {colouring}"
            ).format(
                invert="mirrored" if invert else "normal",
                colouring="mirrored" if mirrored else "normal",
            )
        )
    return mirrored, numbering


def _rules_of(table: Mapping[str, Any], source: str) -> Rules:
    """The rules of the ``[rules]`` table."""
    kwargs: dict[str, Any] = {}
    for key, value in table.items():
        if key == "first":
            kwargs[key] = Color.WHITE if value == "white" else Color.BLACK
        elif key in _ENUMS:
            kwargs[key] = _ENUMS[key](value)
        elif key in ("man_moves", "man_captures", "king_moves", "king_captures"):
            kwargs[key] = tuple(_as_list(value))
        elif key == "capture_precedence":
            if len(set(value)) != len(value):
                raise VariantFileError(
                    f"{source}: " + _("[rules] capture_precedence repeats a criterion")
                )
            kwargs[key] = tuple(value)
        else:
            kwargs[key] = value
    return Rules(**kwargs)


def _family_of(
    data: Mapping[str, Any], rules: Rules, modifiers: tuple[str, ...], source: str
) -> tuple[Rules, str]:
    """(the rules as the ``modifiers`` change them, the generator's family), each
    modifier known and made for that family, a king's move limit known to it."""
    for name in modifiers:
        if name not in MODIFIERS:
            raise VariantFileError(
                f"{source}: "
                + _("unknown modifier {name} (known: {known})").format(
                    name=quoted(name), known=", ".join(MODIFIERS)
                )
            )
        rules = MODIFIERS[name].adjust_rules(rules)
    family = data.get("generator", data.get("engine", "standard"))
    if family not in GENERATORS:
        raise VariantFileError(
            f"{source}: "
            + _("unknown generator {name} (known: {known})").format(
                name=quoted(family), known=", ".join(GENERATORS)
            )
        )
    for name in modifiers:
        if MODIFIERS[name].families and family not in MODIFIERS[name].families:
            raise VariantFileError(
                f"{source}: "
                + _(
                    "modifier {name} cannot be applied to the {generator} generator "
                    "(it works with {known})"
                ).format(
                    name=quoted(name),
                    generator=quoted(family),
                    known=", ".join(MODIFIERS[name].families),
                )
            )
    if rules.king_move_limit and family not in KING_LIMIT_FAMILIES:
        raise VariantFileError(
            f"{source}: "
            + _(
                "[rules] king_move_limit is not known to the {generator} generator "
                "(it works with {known})"
            ).format(generator=quoted(family), known=", ".join(KING_LIMIT_FAMILIES))
        )
    return rules, family


def _draw_rule(raw: Mapping[str, Any], i: int, source: str) -> DrawRule:
    """The draw rule of the ``i``-th ``[[draws]]`` table (from 0)."""
    kind = raw.get("kind", "count")
    counter = raw.get("counter")
    patterns: dict[str, tuple[MaterialPattern, ...]] = {}
    for key in ("strong", "weak"):
        try:
            patterns[key] = tuple(MaterialPattern.parse(t) for t in _as_list(raw.get(key, [])))
        except ValueError as exc:
            raise VariantFileError(
                f"{source}: "
                + _("{where}: {reason}").format(where=f"[[draws]] #{i + 1} {key}", reason=exc)
            ) from None
    # docs/rules/conventions.md#draws: one king against one king, at once
    if kind == "lone-kings":
        if counter or raw.get("strong") or raw.get("weak"):
            raise VariantFileError(
                f"{source}: "
                + _(
                    "[[draws]] #{number}: a lone-kings rule has no counter and"
                    " no material patterns (it is one king against one king)"
                ).format(number=i + 1)
            )
        one_king = (MaterialPattern.parse("1K"),)
        patterns = {"strong": one_king, "weak": one_king}
    return DrawRule(
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


def _goal(raw: Mapping[str, Any], i: int, height: int, source: str) -> Goal:
    """The goal of the ``i``-th ``[[goals]]`` table (from 0) on a board ``height``
    ranks high."""
    if raw["rank"] > height:
        raise VariantFileError(
            f"{source}: "
            + _("[[goals]] #{number} rank must be between 1 and {height}, not {rank}").format(
                number=i + 1, height=height, rank=raw["rank"]
            )
        )
    side = Color.WHITE if raw["side"] == "white" else Color.BLACK
    return Goal(side, raw["rank"], raw.get("name", ""))


def _check_start(variant: Variant, source: str) -> None:
    """Build the generator and read the start positions of ``variant`` now, so that a
    broken file fails when it is loaded (VariantFileError)."""
    try:  # a generator that cannot apply the rules says so (e.g. a landing it lacks)
        variant.generator  # noqa: B018
    except ValueError as exc:
        raise VariantFileError(
            f"{source}: " + _("{where}: {reason}").format(where="[rules]", reason=exc)
        ) from None
    for label, fen in [("", variant.start), *variant.start_options]:
        try:
            parse_fen(variant, fen)
        except ValueError as exc:
            where = (
                _("start option {label}").format(label=quoted(label)) if label else "[board] start"
            )
            raise VariantFileError(
                f"{source}: " + _("{where}: {reason}").format(where=where, reason=exc)
            ) from None


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
                return _("line {line}: lists or tables nested more than {n} deep").format(
                    line=line, n=MAX_NESTING
                )
        elif c in "]}":
            depth, dots = max(0, depth - 1), 0
        elif c == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                line = text.count("\n", 0, m.start()) + 1
                return _("line {line}: a dotted key of more than {n} parts").format(
                    line=line, n=MAX_KEY_PARTS
                )
        elif c in "=,\n":
            dots = 0
    return None


#: tomllib's reasons (``"Invalid value (at line 3, column 9)"``), said in the catalogs'
#: words; a reason not in the table stays as tomllib says it.
_TOML_REASONS = {
    "Invalid statement": N_("a line that is neither a key = value nor a [table]"),
    "Cannot overwrite a value": N_("a key given a value twice"),
    "Expected ']' at the end of a table declaration": N_("a [table] header without its ]"),
    "Expected ']]' at the end of an array declaration": N_("a [[table]] header without its ]]"),
    "Expected '=' after a key in a key/value pair": N_("a key without = and its value"),
    "Invalid initial character for a key part": N_("a key that starts with a wrong character"),
    "Unclosed array": N_("a list without its closing ]"),
    "Unclosed inline table": N_("a table without its closing }"),
    "Unescaped '\\' in a string": N_("a lone backslash in a string"),
    "Invalid hex value": N_("a wrong \\u or \\U escape in a string"),
    "Escaped character is not a Unicode scalar value": N_("an escape that is no character"),
    "Unterminated string": N_("a string without its closing quote"),
    "Invalid date or datetime": N_("a wrong date or time"),
    "Invalid value": N_("a value that is not a string, number, true, false, list nor table"),
}
_TOML_PATTERNS = [
    (re.compile(r"Cannot declare (.+) twice"), N_("the table {name} declared twice")),
    (
        re.compile(r"Cannot (?:mutate immutable|redefine) namespace (.+)"),
        N_("the table {name} given twice"),
    ),
    (re.compile(r"Duplicate inline table key (.+)"), N_("the key {name} given twice")),
    (re.compile(r"Expected (.+)"), N_("{name} expected")),
    (re.compile(r"Found invalid character (.+)"), N_("the character {name} is not allowed here")),
    (re.compile(r"Illegal character (.+)"), N_("the character {name} is not allowed here")),
]
_TOML_PLACE = re.compile(r"(.*) \(at (?:line (\d+), column (\d+)|(end of document))\)", re.DOTALL)


def toml_reason(exc: ValueError) -> str:
    """Why tomllib refused a text, in the language spoken now: its reason and place
    (line and column) in the catalogs' words where the reason is one of tomllib's own."""
    text = str(exc)
    place = _TOML_PLACE.fullmatch(text)
    if place is None or i18n.language() == "en":  # English: tomllib's own words
        return text
    reason, line, column, end = place.groups()
    local = _(_TOML_REASONS[reason]) if reason in _TOML_REASONS else reason
    if reason not in _TOML_REASONS:
        for pattern, message in _TOML_PATTERNS:
            found = pattern.fullmatch(reason)
            if found is not None:
                name = found.group(1)
                if len(name) > 1 and name[0] == name[-1] and name[0] in "'\"":
                    name = "«" + name[1:-1] + "»"  # tomllib quotes as repr does
                local = _(message).format(name=name)
                break
    if end:
        return _("{reason} at the end of the file").format(reason=local)
    return _("{reason} (line {line}, column {column})").format(
        reason=local, line=line, column=column
    )


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
        raise VariantFileError(
            f"{p}: " + _("cannot read: {reason}").format(reason=exc.reason)
        ) from None
    except OSError as exc:
        raise VariantFileError(
            f"{p}: " + _("cannot read: {reason}").format(reason=os_reason(exc))
        ) from None
    try:
        text = decode_text(data, N_("it"))
    except ValueError as exc:
        raise VariantFileError(
            f"{p}: " + _("{reason}; save it as UTF-8").format(reason=exc)
        ) from None
    if "\x00" in text:
        raise VariantFileError(
            f"{p}: "
            + _(
                "not a text file: it holds NUL characters "
                "(UTF-16 or UTF-32 without a byte-order mark?); save it as UTF-8"
            )
        )
    problem = _toml_shape_error(text)
    if problem is not None:
        raise VariantFileError(f"{p}: " + _("not a variant file: {reason}").format(reason=problem))
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantFileError(
            f"{p}: " + _("not valid TOML: {reason}").format(reason=toml_reason(exc))
        ) from None
    except RecursionError:  # the shape check keeps far below the limit: a last guard
        raise VariantFileError(
            f"{p}: " + _("not a variant file: {reason}").format(reason=_("nested too deeply"))
        ) from None
    except ValueError:  # int() of an integer of more than Python's 4,300 digits
        raise VariantFileError(
            f"{p}: "
            + _("not a variant file: {reason}").format(
                reason=_("it holds an integer of thousands of digits")
            )
        ) from None
    check_definition(table, str(p), complete=False)
    if "engine" in table:  # the old name of "generator"
        old = table.pop("engine")
        table.setdefault("generator", old)
    return table


#: The key of a side's forms (:class:`~shashki.i18n.Noun`) in a variant's translations.
SIDE_FORMS = "side forms: "


def _translations_of(
    data: Mapping[str, Any],
    board: Mapping[str, Any],
    local_cards: Mapping[str, Mapping[str, str]],
    side_names: Any,
    card: str,
) -> dict[str, dict[str, str]]:
    """Each language's texts of a definition, by the English text they translate: the
    name, the summary and card (``[card.uk]``), the sides, the start choice and its
    options' labels, and the names of the draw rules and goals."""
    out: dict[str, dict[str, str]] = {}

    def add(language: str, english: str, local: object) -> None:
        if english and isinstance(local, str) and local.strip():
            out.setdefault(language, {})[english] = local.strip()

    for language, name in data.get("names", {}).items():
        add(language, data["name"], name)
    for language, local in local_cards.items():
        add(language, data.get("summary", ""), local.get("summary", ""))
        add(language, card, local.get("text", ""))
    for language, names in data.get("sides", {}).items():
        if language not in ("names", "forms"):
            for english, local in zip(side_names, names, strict=False):
                add(language, english, local)
    for language, forms in data.get("sides", {}).get("forms", {}).items():
        for english, local in zip(side_names, forms, strict=False):
            add(language, SIDE_FORMS + english, local)
    for language, local in board.get("start_choices", {}).items():
        add(language, board.get("start_choice", ""), local)
    for option in board.get("start_options", []):
        for language, local in option.get("labels", {}).items():
            add(language, option["label"], local)
    for raw in [*data.get("draws", []), *data.get("goals", [])]:
        for language, local in raw.get("names", {}).items():
            add(language, raw.get("name", ""), local)
    return out


#: The longest chain of hosts followed (a variant on a variant on ...).
MAX_HOSTS = 16

#: Keys a variant does not inherit from its host: they name the host itself.
_NOT_INHERITED = {"id", "name", "aliases", "names", "host", "summary", "card", "hub"}


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
            if key == "rules":  # the capture choice and its general form replace each other
                if "capture_choice" in value:
                    merged.pop("capture_precedence", None)
                if "capture_precedence" in value:
                    merged.pop("capture_choice", None)
            if key == "sides" and "names" in value:  # translations of the host's names
                merged = {k: v for k, v in merged.items() if k == "names"}
            if key == "board" and "start_choice" in value:
                merged.pop("start_choices", None)
            merged.update(value)
            out[key] = merged
        else:
            out[key] = value
    return out


#: Finds the id of a known variant by an alias, a name or a PDN GameType, or None: how a
#: ``host`` that is not an id is looked up.
HostFinder = Callable[[str], str | None]


def resolve_variant(
    data: Mapping[str, Any],
    source: str,
    hosts: Mapping[str, Mapping[str, Any]],
    *,
    find_host: HostFinder | None = None,
    check_start: bool = True,
) -> Variant:
    """The Variant of a definition table, completed from its host chain (``hosts``: raw
    tables by id; ``find_host``: the id a host named otherwise stands for); raises
    VariantFileError."""
    merged = merge_hosts(data, source, hosts, find_host=find_host)
    return variant_from_mapping(merged, source, check_start=check_start)


def merge_hosts(
    data: Mapping[str, Any],
    source: str,
    hosts: Mapping[str, Mapping[str, Any]],
    seen: tuple[str, ...] = (),
    *,
    find_host: HostFinder | None = None,
) -> dict[str, Any]:
    """A definition table completed from the chain of its hosts (:func:`merge_with_host`
    at each link); raises VariantFileError when a host is not known, the chain loops or
    is longer than :data:`MAX_HOSTS`."""
    host_id = data.get("host")
    if not host_id:
        return dict(data)
    key = str(host_id).lower()
    table = hosts.get(key)
    if table is None and find_host is not None:  # an alias or name of a known variant
        found = find_host(str(host_id))
        if found is not None:
            key = found.lower()
            table = hosts.get(key)
    if table is None:
        raise VariantFileError(
            f"{source}: " + _("host variant {name} is not known").format(name=quoted(str(host_id)))
        )
    if key in seen:
        raise VariantFileError(
            f"{source}: " + _("host chain loops through {name}").format(name=quoted(str(host_id)))
        )
    if len(seen) >= MAX_HOSTS:
        raise VariantFileError(
            f"{source}: " + _("host chain of more than {n} variants").format(n=MAX_HOSTS)
        )
    merged_host = merge_hosts(table, source, hosts, (*seen, key), find_host=find_host)
    return merge_with_host(data, merged_host)
