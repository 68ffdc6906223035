"""How much of a file's text an error message quotes: :func:`quote` and :func:`clip`.

No message of the records layer echoes more than some 80 characters of a file, however
long the tag, comment or move it is about.
"""

from __future__ import annotations

import re

from ..i18n import language

#: How much of a text an error message quotes.
QUOTE_LIMIT = 80


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted as Python would (``repr``), cut to about ``limit`` characters;
    in Ukrainian and Russian between «» (LANGUAGE.md, Typography)."""
    shown = repr(text) if len(text) <= limit else repr(text[:limit])[:-1] + "…" + repr(text)[-1]
    if language() in ("uk", "ru"):
        return "«" + shown[1:-1] + "»"
    return shown


#: A quoted text inside a message from another layer ('…' or "…").
_QUOTED = re.compile(r"'[^'\\]*(?:\\.[^'\\]*){0,64}'|\"[^\"\\]*(?:\\.[^\"\\]*){0,64}\"|«[^«»]*»")


def clip(message: str) -> str:
    """A message from another layer with every quoted text in it cut to about
    :data:`QUOTE_LIMIT` characters, and the whole to a few lines' worth."""
    if len(message) <= QUOTE_LIMIT:
        return message

    def cut(m: re.Match[str]) -> str:
        text = m.group()
        if len(text) <= QUOTE_LIMIT + 2:
            return text
        return text[: QUOTE_LIMIT + 1] + "…" + text[-1]

    message = _QUOTED.sub(cut, message)
    if len(message) > 4 * QUOTE_LIMIT:
        message = message[: 4 * QUOTE_LIMIT] + "…"
    return message
