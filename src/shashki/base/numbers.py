"""Numbers, quotations and lines of text taken from user text, of any length, safely.

A user may write a number of any size where shashki expects a small one (a square, a
PDN GameType, a count in a variant file).  Python's ``int()`` refuses a decimal text of
more than 4,300 digits with a ``ValueError`` that says nothing useful, and
``str.isdigit()`` accepts characters such as "²" that ``int()`` cannot read.
:func:`bounded_int` reads only ASCII digits and never converts more digits than the
largest accepted value has, so any text is answered at once with a number or None.
:func:`bounded_decimal` reads a number of seconds the same way (``1.5``, never
``1e9``, ``nan`` or ``١``).  :func:`quoted` quotes user text in a message without
echoing megabytes of it.  :func:`one_line` makes the text of another program (an
engine's name, its error, what it wrote on its standard error) one line of plain text
that may be shown or written anywhere.

Standard library only: the rules layer and everything above may use it.
"""

from __future__ import annotations

import re
import unicodedata

from .. import i18n

__all__ = ["bounded_decimal", "bounded_int", "first_upper", "is_digits", "one_line", "quoted"]

_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"([0-9]+)(?:\.([0-9]+))?")


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (nothing else, no sign, no spaces)."""
    return _DIGITS.fullmatch(text) is not None


def bounded_int(text: str, maximum: int) -> int | None:
    """The number ``text`` writes in ASCII digits, or None when it is not such a text or
    its value is above ``maximum`` (leading zeros are allowed).  Raises nothing."""
    if not is_digits(text):
        return None
    significant = text.lstrip("0") or "0"
    if len(significant) > len(str(maximum)):  # too large: never int() a long text
        return None
    value = int(significant)
    return value if value <= maximum else None


def bounded_decimal(text: str, maximum: float) -> float | None:
    """The number ``text`` writes as ASCII digits with at most one decimal point and
    digits after it (``3``, ``0.25``, ``007.5``), or None when it is not such a text or
    its value is above ``maximum``.  No sign, exponent, ``inf``, ``nan``, underscore,
    space or digit of another script; any length is answered at once."""
    match = _DECIMAL.fullmatch(text)
    if match is None:
        return None
    whole = bounded_int(match[1], int(maximum))
    if whole is None:
        return None
    fraction = match[2] or ""
    value = float(f"{whole}.{fraction[:20] or 0}")
    return value if value <= maximum else None


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted as Python's ``repr`` does (control characters escaped, so the
    quotation stays on one line), cut after ``limit`` characters with "..."; in Ukrainian
    and Russian between «» (LANGUAGE.md, Typography)."""
    shown = repr(text[:limit]) + ("..." if len(text) > limit else "")
    if i18n.language() in ("uk", "ru"):
        end = shown.rindex(shown[0])
        return "«" + shown[1:end] + "»" + shown[end + 1 :].replace("...", "…")
    return shown


# An escape sequence as a terminal reads it: a CSI (``ESC [`` or the C1 CSI) with its
# parameters; a string (OSC, DCS, SOS, PM, APC, in 7 or 8 bits) up to BEL, ST or the end;
# or ESC and the characters of a short sequence.
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
#: Characters that end a line or space words apart for a terminal or a text reader.
_BREAKS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")


def _plain_char(char: str) -> str:
    if char in _BREAKS:
        return " "
    # controls (C0, DEL, C1), format characters (the bidirectional overrides and
    # isolates, zero-width characters, the BOM), surrogates, line and paragraph marks
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
        return ""
    return char


def one_line(text: str, limit: int = 200) -> str:
    """``text`` from another program as one line of plain text: its escape sequences
    removed (a colour, a cursor move, a window title), its other control and format
    characters too (C0, DEL, C1, the bidirectional overrides that reorder what a
    terminal shows, zero-width characters), line breaks and runs of white space made
    one space, and cut after ``limit`` characters with "…".  What it gives drives no
    terminal and breaks no line of a file."""
    head = text[: 4 * limit + 64]  # (never clean megabytes to keep a few words)
    plain = "".join(_plain_char(c) for c in _ESCAPE.sub("", head))
    words = " ".join(plain.split())
    if len(words) > limit or len(text) > len(head):
        return words[: max(0, limit - 1)].rstrip() + "…"
    return words


def first_upper(text: str) -> str:
    """``text`` begun with a capital (a sentence's start, a list's item), the rest as it
    is.

    >>> first_upper("тихий хід — 1 задача")
    'Тихий хід — 1 задача'
    """
    return text[:1].upper() + text[1:]
