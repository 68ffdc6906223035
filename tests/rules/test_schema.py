"""Every key of a variant file is type-checked (issue 11): the small typed schema of
``rules.schema`` and the variant files' schema built with it.

A value of the wrong type, out of range, too long or with control characters is refused
with one line naming the key as the file writes it and what it must be; a table the
schema accepts builds a variant or is refused with a VariantFileError, never anything
else.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.rules import Game, VariantFileError
from shashki.rules.schema import (
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
from shashki.rules.variant_file import VARIANT_SCHEMA, variant_from_mapping
from shashki.rules.variant_registry import builtin_variant_dir

BUILTIN = {
    p.stem: tomllib.loads(p.read_text("utf-8")) for p in builtin_variant_dir().glob("*.toml")
}


def fails(table: Mapping[str, Any], complete: bool = True) -> str:
    with pytest.raises(SchemaError) as info:
        check(table, VARIANT_SCHEMA, complete=complete)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    return message


# -- messages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"name": 5}, "name must be a string, not an integer"),
        ({"board": 3}, "board must be a table, not an integer"),
        ({"rules": "x"}, "rules must be a table, not a string"),
        ({"aliases": 7}, "aliases must be a list, not an integer"),
        ({"aliases": ["ok", 7]}, "aliases #2 must be a string, not an integer"),
        ({"draws": {}}, "draws must be a list, not a table"),
        ({"draws": [5]}, "[[draws]] #1 must be a table, not an integer"),
        ({"draws": [{}, {"plies": "30"}]}, "[[draws]] #2 plies must be an integer, not a string"),
        ({"draws": [{"plies": 10**6}]}, "[[draws]] #1 plies must be an integer from 0 to 10000"),
        ({"draws": [{"count": True}]}, "[[draws]] #1 count must be an integer, not true or false"),
        ({"draws": [{"strong": [1]}]}, "[[draws]] #1 strong #1 must be a string, not an integer"),
        ({"board": {"width": "8"}}, "[board] width must be an integer, not a string"),
        ({"board": {"width": 99999999999}}, "[board] width must be an integer from 2 to 12"),
        ({"board": {"height": 1.5}}, "[board] height must be an integer, not a decimal number"),
        ({"board": {"squares": "some"}}, "[board] squares must be 'dark' or 'all', not 'some'"),
        ({"board": {"start_options": [{"label": "a"}]}}, "missing key [board] start_options #1"),
        ({"board": {"start_options": [{"label": 1, "start": "W"}]}}, "start_options #1 label"),
        ({"rules": {"king_moves_fly": "yes"}}, "[rules] king_moves_fly must be true or false"),
        ({"rules": {"man_moves": ["up"]}}, "[rules] man_moves #1 must be one of"),
        ({"rules": {"man_moves": 1}}, "[rules] man_moves must be a string or a list"),
        ({"pdn": {"gametype": 25}}, "[pdn] gametype must be a string, not an integer"),
        ({"pdn": {"gametype": "9" * 5000}}, "[pdn] gametype must be at most"),
        ({"pdn": {"gametype": "99999"}}, "[pdn] gametype must be a PDN GameType"),
        ({"pdn": {"primary": "yes"}}, "[pdn] primary must be true or false"),
        ({"sides": {"names": ["a"]}}, "[sides] names must have exactly 2 items, not 1"),
        ({"sides": {"names": ["a", 2]}}, "[sides] names #2 must be a string"),
        ({"goals": [{"side": "white", "rank": 99}]}, "[[goals]] #1 rank must be an integer from"),
        ({"goals": [{"rank": 8}]}, "missing key [[goals]] #1 side"),
        ({"card": 5}, "card must be a string or a table, not an integer"),
        ({"card": {"text": 5}}, "[card] text must be a string, not an integer"),
        ({"card": {"txt": "x"}}, "unknown key(s) [card] txt"),
        ({"names": {"ru": 5}}, "[names] ru must be a string, not an integer"),
        ({"names": {"../x": "y"}}, "names: key '../x' must be a language code"),
        ({"options": {"x": {"y": 1}}}, "[options] x must be a string or an integer or true"),
        ({"options": {"x": [[1]]}}, "[options] x #1 must be a string or an integer"),
        ({"modifiers": "giveaway"}, "modifiers must be a list, not a string"),
        ({"modifiers": [1]}, "modifiers #1 must be a string, not an integer"),
        ({"host": ["russian"]}, "host must be a string, not a list"),
        ({"colour": "red"}, "unknown key(s) colour"),
        ({"rules": {"flying_men": True}}, "unknown key(s) [rules] flying_men"),
        ({'a"\nb': 1}, "unknown key(s) 'a\"\\nb'"),
        ({"name": "x" * 81}, "name must be at most 80 characters long, not 81"),
        ({"name": "red \x1b[31m"}, "name must not hold control characters ('\\x1b'"),
        ({"summary": "two\nlines"}, "summary must not hold control characters ('\\n'"),
        ({"id": "../../x"}, "id must be lower-case letters a-z, digits and '-'"),
        ({"id": "Russian"}, "id must be lower-case letters"),
        ({"id": "25"}, "not all digits"),
        ({"id": "-x"}, "not starting with '-'"),
        ({"id": "x" * 41}, "at most 40"),
        ({"aliases": ["a/b"]}, "aliases #1 must be lower-case letters"),
    ],
)
def test_a_wrong_value_names_the_key_and_the_type(table: dict[str, Any], message: str) -> None:
    assert message in fails(table, complete=False)


def test_a_multiline_card_may_hold_newlines_and_tabs() -> None:
    check({"card": {"text": "one\n\ttwo"}}, VARIANT_SCHEMA, complete=False)
    assert "control characters" in fails({"card": "bell \a"}, complete=False)


def test_required_keys_only_when_complete() -> None:
    check({"id": "x", "host": "russian"}, VARIANT_SCHEMA, complete=False)
    assert fails({"id": "x", "host": "russian"}) == "missing key name"
    table = copy.deepcopy(BUILTIN["russian"])
    del table["board"]["start"]
    assert fails(table) == "missing key [board] start"


def test_many_unknown_keys_are_listed_briefly() -> None:
    message = fails({f"k{i}": i for i in range(1000)}, complete=False)
    assert "and 995 more" in message


def test_huge_lists_are_refused_by_their_length() -> None:
    assert "draws must have at most 50 items, not 100000" in fails(
        {"draws": [{}] * 100_000}, complete=False
    )
    assert "names must have at most 40 keys, not 100" in fails(
        {"names": {f"l{i}": "x" for i in range(100)}}, complete=False
    )


@pytest.mark.parametrize("variant", sorted(BUILTIN))
def test_the_shipped_files_fit_the_schema(variant: str) -> None:
    check(BUILTIN[variant], VARIANT_SCHEMA, complete="host" not in BUILTIN[variant])


# -- the checker itself ------------------------------------------------------------------------


def test_an_either_reports_the_option_of_the_values_type() -> None:
    spec = Table({"x": Either((Text(3), ListOf(Integer(0, 9), 2)))})
    check({"x": "abc"}, spec)
    check({"x": [1, 2]}, spec)
    with pytest.raises(SchemaError, match=r"^x #2 must be an integer from 0 to 9, not 10$"):
        check({"x": [1, 10]}, spec)
    with pytest.raises(SchemaError, match=r"^x must be a string or a list, not true or false$"):
        check({"x": True}, spec)


def test_a_deeply_nested_value_is_refused_without_recursion() -> None:
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(SchemaError, match="must be a string or an integer or true or false"):
        check({"options": {"x": [deep]}}, VARIANT_SCHEMA, complete=False)
    nested: Any = {}
    for _ in range(100_000):
        nested = {"a": nested}
    with pytest.raises(SchemaError, match="unknown key"):
        check({"board": nested}, VARIANT_SCHEMA, complete=False)


def test_a_huge_integer_is_quoted_briefly() -> None:
    message = fails({"board": {"width": 10**4000}}, complete=False)
    assert len(message) < 120 and "..." in message


# -- generated tables --------------------------------------------------------------------------

#: Values of every TOML type, nested a little.
TOML_SCALARS = (
    st.text(max_size=20)
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.booleans()
    | st.floats(allow_nan=False)
)
TOML_VALUES = st.recursive(
    TOML_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(table: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path and list index of a table."""
    out = []
    items = table.items() if isinstance(table, dict) else enumerate(table)
    for key, value in items:
        out.append((*prefix, key))
        if isinstance(value, (dict, list)):
            out.extend(paths(value, (*prefix, key)))
    return out


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BUILTIN)), st.data(), TOML_VALUES)
def test_any_value_anywhere_is_accepted_or_named(
    variant: str, data: st.DataObject, value: Any
) -> None:
    table = copy.deepcopy(BUILTIN[variant])
    path = data.draw(st.sampled_from(paths(table)))
    parent = table
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    complete = "host" not in table
    try:
        check(table, VARIANT_SCHEMA, complete=complete)
    except SchemaError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 400, message
        named = [str(k) for k in path if isinstance(k, str)]
        assert named[0] in message or named[-1] in message or "#" in message, (path, message)


def strategy(spec: Schema, complete: bool = True) -> st.SearchStrategy[Any]:
    """Values that fit ``spec`` (a few of each kind)."""
    if isinstance(spec, Text):
        if spec.choices:
            return st.sampled_from(spec.choices)
        if spec.pattern is not None:
            return st.from_regex(spec.pattern, fullmatch=True).filter(
                lambda t: len(t) <= spec.max_len
            )
        return st.text(st.characters(blacklist_categories=["Cc", "Cs"]), max_size=12)
    if isinstance(spec, Integer):
        return st.integers(spec.low, spec.high)
    if isinstance(spec, Boolean):
        return st.booleans()
    if isinstance(spec, ListOf):
        return st.lists(strategy(spec.item), min_size=spec.min_len, max_size=min(spec.max_len, 3))
    if isinstance(spec, MapOf):
        return st.dictionaries(
            st.from_regex(spec.keys, fullmatch=True), strategy(spec.value), max_size=2
        )
    if isinstance(spec, Either):
        return st.one_of([strategy(o) for o in spec.options])
    assert isinstance(spec, Table)
    required = {k: strategy(v) for k, v in spec.fields.items() if k in spec.required}
    optional = {k: strategy(v) for k, v in spec.fields.items() if k not in spec.required}
    return st.fixed_dictionaries(required, optional=optional)


#: Start positions of several boards, so that some generated variants get to play.
STARTS = [
    "W:W21-32:B1-12",
    "W:W31-50:B1-20",
    "B:W21-32:B1-12",
    "W:Wa1:Bh8",
    "W:WKe1:Bb8,d8,f8,h8",
    "W:N1-12,21-32",
    "W:Wa2,b2,c2:Ba7,b7,c7",
    "W:W1:B2",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    strategy(VARIANT_SCHEMA),
    st.sampled_from(STARTS),
    st.sampled_from(["", "standard", "bashni", "artamonov"]),
)
def test_a_table_the_schema_accepts_builds_or_is_refused_in_one_line(
    table: dict[str, Any], start: str, engine: str
) -> None:
    table["board"]["start"] = start
    table["modifiers"] = [m for m in table.get("modifiers", []) if m in {"giveaway", "double-move"}]
    if engine:
        table["engine"] = engine
    else:
        table.pop("engine", None)
    table.pop("host", None)
    try:
        variant = variant_from_mapping(table, "gen.toml")
    except VariantFileError as exc:
        assert str(exc).startswith("gen.toml: ") and "\n" not in str(exc)
        return
    game = Game(variant)
    game.legal_moves()
    game.outcome()


def test_the_schema_of_the_files_is_one_table() -> None:
    assert isinstance(VARIANT_SCHEMA, Table)
    assert re.fullmatch(r"[a-z_]+", "".join(VARIANT_SCHEMA.fields))
    assert Path(builtin_variant_dir()).is_dir()
