"""Numbers and quotations taken from user text, of any length, safely.

A user may write a number of any size where shashki expects a small one (a square, a
PDN GameType, a count in a variant file).  Python's ``int()`` refuses a decimal text of
more than 4,300 digits with a ``ValueError`` that says nothing useful, and
``str.isdigit()`` accepts characters such as "²" that ``int()`` cannot read.
:func:`bounded_int` reads only ASCII digits and never converts more digits than the
largest accepted value has, so any text is answered at once with a number or None.
:func:`quoted` quotes user text in a message without echoing megabytes of it.

Standard library only: the rules layer and everything above may use it.
"""

from __future__ import annotations

import re

__all__ = ["bounded_int", "is_digits", "quoted"]

_DIGITS = re.compile(r"[0-9]+")


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


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted as Python's ``repr`` does (control characters escaped, so the
    quotation stays on one line), cut after ``limit`` characters with "..."."""
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)
