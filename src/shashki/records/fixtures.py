"""JSON fixtures: the PDN texts of a JSON file (a list of PDN texts, or an object whose
values are such lists, as py-draughts' fixtures are), read without recursion.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ..base.userfiles import decode_text, read_limited
from ..i18n import N_, _

#: The largest JSON file read (it is read whole).
JSON_LIMIT = 32 << 20

#: Python's words for a JSON string it cannot read, and ours in the catalogs.
_JSON_REASONS = {
    "Unterminated string starting at": N_("a string that is never closed"),
    "Invalid control character at": N_("a control character inside a string"),
    "Invalid \\escape": N_("a backslash escape that JSON does not have"),
    "Invalid \\uXXXX escape": N_("a \\u escape without four hexadecimal digits"),
}


def _json_reason(msg: str) -> str:
    """Python's reason for a JSON string it cannot read, in the language spoken now."""
    known = _JSON_REASONS.get(msg)
    return _(known) if known is not None else msg


_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON_SCALAR = re.compile(
    r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|-?Infinity"
)


def json_string_starts(text: str) -> list[int]:
    """Where the string values of a JSON document (not the keys of its objects) begin,
    in order, at any depth: the document is read with a stack, not recursion, so that no
    nesting is too deep, and its strings are not kept (:func:`json_string` reads one).

    Raises ValueError with the line and column where the text stops being JSON.
    """
    out: list[int] = []
    closers: list[str] = []  # "]" or "}" for each open array or object
    pos = _JSON_SPACE.match(text, 0).end()  # type: ignore[union-attr]
    state = "value"
    n = len(text)

    def fail(what: str, at: int) -> ValueError:
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        return ValueError(
            _("{reason} at line {line}, column {column}").format(
                reason=what, line=line, column=column
            )
        )

    while True:
        if state == "value":
            c = text[pos : pos + 1]
            if c in ("[", "{"):
                closers.append("]" if c == "[" else "}")
                pos = _JSON_SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                if text[pos : pos + 1] == closers[-1]:
                    closers.pop()
                    pos += 1
                    state = "after"
                else:
                    state = "key" if c == "{" else "value"
                continue
            if c == '"':
                out.append(pos)
                try:
                    _value, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
                except json.JSONDecodeError as exc:
                    raise fail(_json_reason(exc.msg), exc.pos) from None
            else:
                m = _JSON_SCALAR.match(text, pos)
                if m is None:
                    raise fail(_("expecting a value"), pos)
                pos = m.end()
            state = "after"
        elif state == "key":
            if text[pos : pos + 1] != '"':
                raise fail(_("expecting a name in double quotes"), pos)
            try:
                _key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
            except json.JSONDecodeError as exc:
                raise fail(_json_reason(exc.msg), exc.pos) from None
            pos = _JSON_SPACE.match(text, pos).end()  # type: ignore[union-attr]
            if text[pos : pos + 1] != ":":
                raise fail(_("expecting ':'"), pos)
            pos = _JSON_SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            state = "value"
        else:  # after a value
            pos = _JSON_SPACE.match(text, pos).end()  # type: ignore[union-attr]
            if not closers:
                if pos != n:
                    raise fail(_("extra data"), pos)
                return out
            c = text[pos : pos + 1]
            if c == ",":
                pos = _JSON_SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                state = "key" if closers[-1] == "}" else "value"
            elif c == closers[-1]:
                closers.pop()
                pos += 1
            else:
                raise fail(_("expecting ',' or '{closer}'").format(closer=closers[-1]), pos)


def json_string(text: str, start: int) -> str:
    """The JSON string that begins at ``start`` (its opening quote)."""
    value: str = json.decoder.scanstring(text, start + 1)[0]  # type: ignore[attr-defined]
    return value


def json_strings(text: str) -> list[str]:
    """The string values of a JSON document, in order, at any depth."""
    return [json_string(text, start) for start in json_string_starts(text)]


def json_pdn_texts(path: str) -> Iterator[str]:
    """The string values of the JSON file at ``path``, in order, at any depth.

    The whole file is read and checked first: raises ValueError when it is not JSON (or
    not text), OSError when it cannot be read or is larger than :data:`JSON_LIMIT`,
    before any text is given.
    """
    text = decode_text(read_limited(path, JSON_LIMIT))
    starts = json_string_starts(text)
    return (json_string(text, start) for start in starts)
