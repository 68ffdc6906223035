"""A small typed checker for the tables read from TOML files (the variant definitions).

A schema is built from a few node types: :class:`Text`, :class:`Integer`,
:class:`Boolean`, :class:`ListOf`, :class:`Table`, :class:`MapOf` and :class:`Either`.
:func:`check` walks a value against one and raises :class:`SchemaError` at the first
mistake, with a one-line message that names the key the way the file writes it and the
type expected: ``[board] width must be an integer, not a string``,
``[[draws]] #2 plies must be an integer from 0 to 10000, not 99999``.

Every limit is part of the schema (text lengths, list lengths, integer ranges), so a
table that passes holds only small, printable values of the expected types, and code
reading it needs no further type test.  The walk follows the schema, never the data, so
a deeply nested value is refused without recursion.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.numbers import quoted
from ..i18n import _, ngettext

__all__ = [
    "Boolean",
    "Either",
    "Integer",
    "ListOf",
    "MapOf",
    "Schema",
    "SchemaError",
    "Table",
    "Text",
    "check",
]


class SchemaError(ValueError):
    """A value does not fit its schema; ``str()`` is the one-line reason."""


def type_name(value: object) -> str:
    """What a TOML value is, in words ("a string", "a table"...)."""
    if isinstance(value, bool):
        return _("true or false")
    if isinstance(value, int):
        return _("an integer")
    if isinstance(value, float):
        return _("a decimal number")
    if isinstance(value, str):
        return _("a string")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, Mapping):
        return _("a table")
    if isinstance(value, (datetime.date, datetime.time)):
        return _("a date or time")
    return type(value).__name__  # pragma: no cover - TOML has no other type


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")


def key_text(key: str) -> str:
    """A key as it may be quoted in a message: bare when TOML writes it bare."""
    return key if _BARE_KEY.fullmatch(key) else quoted(key)


@dataclass(frozen=True)
class Where:
    """How a message names a value (``label``) and the values inside it (``inner``)."""

    label: str
    inner: str
    top: bool = False

    def key(self, key: str, nested: bool) -> Where:
        """The place of ``key`` inside this table; ``nested``: its value is a table."""
        name = key_text(key)
        if self.top:
            return Where(name, f"[{name}]" if nested else name)
        text = f"{self.inner} {name}"
        return Where(text, text)

    def item(self, index: int, nested: bool) -> Where:
        """The place of the ``index``-th (0-based) item of this list."""
        if nested and not self.inner.startswith("["):
            text = f"[[{self.inner}]] #{index + 1}"  # an array of tables at the top
        else:
            text = f"{self.inner} #{index + 1}"
        return Where(text, text)


def must_be(where: Where, expected: str, actual: str) -> SchemaError:
    """The error of a value at ``where`` that is ``actual`` and must be ``expected``."""
    return SchemaError(
        _("{key} must be {expected}, not {actual}").format(
            key=where.label, expected=expected, actual=actual
        )
    )


class Schema:
    """A node of a schema: what a value must be."""

    def kind(self) -> str:
        """The node's type in words ("a string"), for a message about several types."""
        return _("a value")  # pragma: no cover - every node names its own

    def expected(self) -> str:
        """What the value must be, in words ("an integer from 2 to 12")."""
        raise NotImplementedError

    def accepts_type(self, value: object) -> bool:
        """Whether ``value`` is of this node's type (its contents aside)."""
        raise NotImplementedError

    def check(self, value: object, where: Where, complete: bool) -> None:
        """Raise SchemaError unless ``value`` fits; ``complete``: required keys of
        inheritable tables must be there too."""
        raise NotImplementedError

    def wrong_type(self, value: object, where: Where) -> SchemaError:
        return must_be(where, self.expected(), type_name(value))

    @property
    def nested(self) -> bool:
        """Whether the value is a table (its keys are named ``[key] sub``)."""
        return False


#: Control characters (C0, DEL, C1) a text may not hold: they would move the cursor or
#: change colours in a terminal.  A multi-line text may hold newlines and tabs.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_MULTILINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Text(Schema):
    """A string of at most ``max_len`` characters, without control characters (bar
    newlines and tabs when ``multiline``), one of ``choices`` when given, matching
    ``pattern`` when given (``rule`` says the pattern in words)."""

    def kind(self) -> str:
        return _("a string")

    max_len: int = 80
    multiline: bool = False
    choices: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    rule: str = ""

    def expected(self) -> str:
        if self.choices:
            if len(self.choices) == 2:
                return _("{first} or {second}").format(
                    first=quoted(self.choices[0]), second=quoted(self.choices[1])
                )
            return _("one of {choices}").format(choices=", ".join(quoted(c) for c in self.choices))
        return _("a string")

    def accepts_type(self, value: object) -> bool:
        return isinstance(value, str)

    def check(self, value: object, where: Where, complete: bool) -> None:
        if not isinstance(value, str):
            raise self.wrong_type(value, where)
        if self.choices:
            if value not in self.choices:
                raise must_be(where, self.expected(), quoted(value))
            return
        if len(value) > self.max_len:
            raise SchemaError(
                ngettext(
                    "{key} must be at most {n} character long, not {length}",
                    "{key} must be at most {n} characters long, not {length}",
                    self.max_len,
                ).format(key=where.label, n=self.max_len, length=len(value))
            )
        control = (_CONTROL_MULTILINE if self.multiline else _CONTROL).search(value)
        if control:
            raise SchemaError(
                _("{key} must not hold control characters ({char} at character {place})").format(
                    key=where.label, char=quoted(control.group()), place=control.start() + 1
                )
            )
        if self.pattern is not None and not self.pattern.fullmatch(value):
            raise must_be(where, _(self.rule), quoted(value))


@dataclass(frozen=True)
class Integer(Schema):
    """An integer from ``low`` to ``high`` (TOML's true and false are not integers)."""

    def kind(self) -> str:
        return _("an integer")

    low: int
    high: int

    def expected(self) -> str:
        return _("an integer")

    def accepts_type(self, value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def check(self, value: object, where: Where, complete: bool) -> None:
        if not self.accepts_type(value):
            raise self.wrong_type(value, where)
        assert isinstance(value, int)
        if not self.low <= value <= self.high:
            shown = str(value) if abs(value) < 10**12 else quoted(str(value), 12)
            raise must_be(
                where,
                _("an integer from {low} to {high}").format(low=self.low, high=self.high),
                shown,
            )


@dataclass(frozen=True)
class Boolean(Schema):
    """true or false."""

    def kind(self) -> str:
        return _("true or false")

    def expected(self) -> str:
        return _("true or false")

    def accepts_type(self, value: object) -> bool:
        return isinstance(value, bool)

    def check(self, value: object, where: Where, complete: bool) -> None:
        if not isinstance(value, bool):
            raise self.wrong_type(value, where)


@dataclass(frozen=True)
class ListOf(Schema):
    """A list of ``min_len`` to ``max_len`` items, each fitting ``item``."""

    def kind(self) -> str:
        return _("a list")

    item: Schema
    max_len: int
    min_len: int = 0

    def expected(self) -> str:
        return _("a list")

    def accepts_type(self, value: object) -> bool:
        return isinstance(value, list)

    def check(self, value: object, where: Where, complete: bool) -> None:
        if not isinstance(value, list):
            raise self.wrong_type(value, where)
        if not self.min_len <= len(value) <= self.max_len:
            if self.min_len == self.max_len:
                text = ngettext(
                    "{key} must have exactly {n} item, not {count}",
                    "{key} must have exactly {n} items, not {count}",
                    self.min_len,
                )
            elif self.min_len:
                text = ngettext(
                    "{key} must have from {low} to {n} item, not {count}",
                    "{key} must have from {low} to {n} items, not {count}",
                    self.max_len,
                )
            else:
                text = ngettext(
                    "{key} must have at most {n} item, not {count}",
                    "{key} must have at most {n} items, not {count}",
                    self.max_len,
                )
            raise SchemaError(
                text.format(
                    key=where.label,
                    n=self.min_len if self.min_len == self.max_len else self.max_len,
                    low=self.min_len,
                    count=len(value),
                )
            )
        for i, item in enumerate(value):
            self.item.check(item, where.item(i, self.item.nested), complete)


@dataclass(frozen=True)
class Table(Schema):
    """A table with the keys of ``fields`` only, and keys that ``others`` allows (a
    :class:`MapOf` saying which other keys, and what their values are).

    ``required`` keys must be there; in an ``inheritable`` table (one a variant may
    take from its host) only when the check is ``complete``.
    """

    def kind(self) -> str:
        return _("a table")

    fields: Mapping[str, Schema]
    required: tuple[str, ...] = ()
    inheritable: bool = False
    others: MapOf | None = None

    def expected(self) -> str:
        return _("a table")

    def accepts_type(self, value: object) -> bool:
        return isinstance(value, Mapping)

    @property
    def nested(self) -> bool:
        return True

    def check(self, value: object, where: Where, complete: bool) -> None:
        if not isinstance(value, Mapping):
            raise self.wrong_type(value, where)
        extra = [k for k in value if k not in self.fields]
        if extra and self.others is not None:
            # a key of the other kind must look like one ("txt" = "…" is a misspelt key)
            others = self.others
            theirs = {
                k: value[k]
                for k in extra
                if others.keys.fullmatch(k) and others.value.accepts_type(value[k])
            }
            others.check(theirs, where, complete)
            extra = [k for k in extra if k not in theirs]
        if extra:
            names = ", ".join(where.key(k, False).label for k in extra[:5])
            if len(extra) > 5:
                more = len(extra) - 5
                names += " " + ngettext("and {n} more", "and {n} more", more).format(n=more)
            raise SchemaError(
                ngettext("unknown key(s) {names}", "unknown key(s) {names}", len(extra)).format(
                    names=names
                )
            )
        if complete or not self.inheritable:
            for key in self.required:
                if key not in value:
                    raise SchemaError(
                        _("missing key {key}").format(key=where.key(key, False).label)
                    )
        for key, item in value.items():
            if key in self.fields:
                spec = self.fields[key]
                spec.check(item, where.key(key, spec.nested), complete)


@dataclass(frozen=True)
class MapOf(Schema):
    """A table of at most ``max_len`` keys matching ``keys`` (``rule`` in words), each
    value fitting ``value``."""

    def kind(self) -> str:
        return _("a table")

    value: Schema
    keys: re.Pattern[str]
    rule: str
    max_len: int = 40

    def expected(self) -> str:
        return _("a table")

    def accepts_type(self, value: object) -> bool:
        return isinstance(value, Mapping)

    @property
    def nested(self) -> bool:
        return True

    def check(self, value: object, where: Where, complete: bool) -> None:
        if not isinstance(value, Mapping):
            raise self.wrong_type(value, where)
        if len(value) > self.max_len:
            raise SchemaError(
                ngettext(
                    "{key} must have at most {n} key, not {count}",
                    "{key} must have at most {n} keys, not {count}",
                    self.max_len,
                ).format(key=where.label, n=self.max_len, count=len(value))
            )
        for key, item in value.items():
            if not self.keys.fullmatch(key):
                raise SchemaError(
                    _("{key}: key {name} must be {rule}").format(
                        key=where.label, name=quoted(key), rule=_(self.rule)
                    )
                )
            self.value.check(item, where.key(key, self.value.nested), complete)


@dataclass(frozen=True)
class Either(Schema):
    """A value fitting one of ``options`` (the first whose type it has)."""

    options: tuple[Schema, ...] = field(default=())

    def expected(self) -> str:
        kinds: list[str] = []
        for option in self.options:
            if option.kind() not in kinds:
                kinds.append(option.kind())
        text = kinds[0]
        for kind in kinds[1:]:
            text = _("{first} or {second}").format(first=text, second=kind)
        return text

    def kind(self) -> str:
        return self.expected()

    def accepts_type(self, value: object) -> bool:
        return any(o.accepts_type(value) for o in self.options)

    @property
    def nested(self) -> bool:
        return any(o.nested for o in self.options)

    def check(self, value: object, where: Where, complete: bool) -> None:
        for option in self.options:
            if option.accepts_type(value):
                option.check(value, where, complete)
                return
        raise self.wrong_type(value, where)


def check(value: Any, schema: Schema, *, complete: bool = True) -> None:
    """Raise SchemaError unless the top-level table ``value`` fits ``schema``.

    With ``complete`` False the keys a definition may inherit from its host may be
    missing (the check of a file before it is merged with its host).
    """
    schema.check(value, Where(_("the file"), "", top=True), complete)
