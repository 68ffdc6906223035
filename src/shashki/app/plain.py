"""Text from outside shashki shown as it is: never read as markup, never sent to the
terminal as a control sequence.

Player names, a variant file's words, PDN tags and comments, autosaved games, file paths
and the error messages quoting them are data.  Textual reads a str given to a widget (a
Static, an option, a table cell, a notification) as markup, where ``[/x]`` is an error
(MarkupError), ``[b]`` a style and ``[@click=app.quit]x[/]`` an action the mouse runs;
escaping does not help (Textual's and Rich's ``escape()`` leave ``[B]x`` and ``[$v]``
alone).  And a control character such as ESC reaches the terminal as it is, which obeys
the sequence it starts.  So data is given to widgets through this module only:

- :class:`Plain`, a Static for panels and dialogs whose text is data;
- :func:`literal`, a rich Text (never markup) for options, table cells and selections;
- :func:`marked`, our own markup with data filled in as text;
- :func:`visible`, the data itself, its control characters shown as symbols.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.content import Content
from textual.visual import VisualType
from textual.widgets import Static

#: Control characters, bar newline and tab (C0, DEL and C1).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␛ for ESC
    return "\u2421" if code == 0x7F else "\ufffd"


def visible(text: str) -> str:
    """``text`` with each control character but newline and tab replaced by a symbol
    (ESC by ␛, DEL by ␡, the C1 controls by �): what is shown never drives the
    terminal, and every character takes its room on screen."""
    return _CONTROL.sub(_picture, text)


def literal(text: str, style: str = "") -> Text:
    """``text`` as a rich Text with ``style``: any widget (an option, a table cell, a
    selection, a Static) shows it as it is, never as markup."""
    return Text(visible(text), style=style)


def marked(template: str, **values: str) -> Content:
    """Our own markup ``template`` with each ``$name`` in it replaced by ``values[name]``
    as plain text (Textual's template variables, which are never read as markup).

    Raises MarkupError when ``template`` itself is not valid markup (a bug of ours).
    """
    return Content.from_markup(template, **{k: visible(v) for k, v in values.items()})


def _as_text(content: VisualType) -> VisualType:
    return visible(content) if isinstance(content, str) else content


class Plain(Static):
    """A Static whose text is data: a str given to it, when made or by :meth:`update`,
    is shown as it is (never markup; control characters as symbols).  Text, Content
    and other visuals are shown as usual."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(_as_text(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show ``content`` (a str as it is)."""
        super().update(_as_text(content), layout=layout)
