"""What PDN tags and marks say: the results and their standard forms, a tag's value
whatever the case of its name, and the move marks (``!?``) with the NAGs they stand for.
"""

from __future__ import annotations

#: Results as PDN writes them; ``*`` is an unfinished (or unknown) game.
WHITE_WINS, BLACK_WINS, DRAW, UNKNOWN = "1-0", "0-1", "1/2-1/2", "*"

#: Every result token seen in real files, with the standard form it stands for.
RESULT_FORMS: dict[str, str] = {
    "1-0": WHITE_WINS,
    "2-0": WHITE_WINS,
    "1:0": WHITE_WINS,
    "2:0": WHITE_WINS,
    "0-1": BLACK_WINS,
    "0-2": BLACK_WINS,
    "0:1": BLACK_WINS,
    "0:2": BLACK_WINS,
    "1/2-1/2": DRAW,
    "1-1": DRAW,
    "1:1": DRAW,
    "1/2:1/2": DRAW,
    "½-½": DRAW,
    "½:½": DRAW,
    "1/2": DRAW,
    "*": UNKNOWN,
    "0-0": UNKNOWN,
    "0:0": UNKNOWN,
}


def normalize_result(text: str) -> str | None:
    """The standard form ("1-0", "0-1", "1/2-1/2", "*") of a result token, or None."""
    return RESULT_FORMS.get(text.strip().replace(" ", ""))


def header_value(headers: dict[str, str], name: str, default: str = "") -> str:
    """A tag's value from ``headers`` whatever the case of its name."""
    if name in headers:
        return headers[name]
    low = name.lower()
    for key, value in headers.items():
        if key.lower() == low:
            return value
    return default


#: Move marks and the numeric annotation glyphs (NAGs) they stand for.
MARKS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
NAG_MARKS = {v: k for k, v in MARKS.items()}
