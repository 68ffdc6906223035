"""Clocks in game records: the ``TimeControl`` tag and the ``[%clk]`` comment after a move.

PDN takes both from PGN: ``[TimeControl "300+3"]`` (seconds for the game, then the
increment in seconds added after each turn) and ``{[%clk 0:04:53]}`` after a move (the
time its player had left once the move was made).

>>> control = TimeControl.parse("5+3")
>>> control.tag(), control.label()
('300+3', '5+3')
>>> TimeControl.from_tag("300+3") == control
True
>>> clock_comment(293.0), clock_in("[%clk 0:04:53]")
('[%clk 0:04:53]', 293.0)
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..base.numbers import bounded_int, quoted
from ..i18n import _
from .model import GameRecord

#: A clock's longest setting: ten hours for the game, an hour of increment.  A clock
#: never shows more than ten hours either (the increment stops there).
MAX_SECONDS = 10 * 3600
MAX_INCREMENT = 3600
#: A clock's shortest setting: a thousandth of a minute, the least ``--clock`` can say.
MIN_SECONDS = 0.06

_NUMBER = r"\d{1,6}(?:\.\d{1,3})?"
_CONTROL = re.compile(
    rf"\s*(?:(\d{{1,3}})\s*/\s*)?({_NUMBER})\s*(?:\+\s*({_NUMBER})\s*)?", re.ASCII
)
#: The most moves of one period of a control of moves in a time (``40/5``).
MAX_PERIOD_MOVES = 200
#: A ``TimeControl`` tag that gives seconds (and an increment), whatever the numbers.
_TAG_SHAPE = re.compile(r"\s*\d+(?:\.\d*)?\s*(?:\+\s*\d+(?:\.\d*)?\s*)?", re.ASCII)
#: A ``[%clk h:mm:ss]`` mark in a comment (whatever the numbers: one out of range, such
#: as ``[%clk 99:99:99]``, is a mark that is ignored).
CLK = re.compile(r"\[%clk\s+(\d{1,9}):(\d{1,9}):(\d{1,9}(?:\.\d{1,9})?)\s*\]", re.ASCII)


class BadTimeControl(ValueError):
    """A time control that cannot be read: the message says why, in one line."""


@dataclass(frozen=True)
class TimeControl:
    """Time for the whole game (or, with ``moves``, for each ``moves`` moves: the time
    is given again after each period) and the increment after each turn, in seconds."""

    seconds: float
    increment: float = 0.0
    #: The moves of one period (0: the time is for the whole game).
    moves: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A control as players write it, ``5+3``: minutes (a fraction allowed, ``0.5+0``)
        then the increment in seconds (none: ``5`` is ``5+0``); ``40/5`` (or ``40/5+3``)
        is 40 moves in 5 minutes, the time given again after each 40 moves.  Raises
        BadTimeControl."""
        match = _CONTROL.fullmatch(text[:40])
        if match is None or len(text) > 40:
            raise BadTimeControl(
                _(
                    "a clock is minutes + increment in seconds, e.g. 5+3 or 0.5+0, or "
                    "moves/minutes, e.g. 40/5, not {text}"
                ).format(text=quoted(_short(text)))
            )
        moves = int(match[1]) if match[1] else 0
        minutes, increment = float(match[2]), float(match[3] or 0)
        if match[1] and not 1 <= moves <= MAX_PERIOD_MOVES:
            raise BadTimeControl(
                _("the moves of a period must be 1 to {n}").format(n=MAX_PERIOD_MOVES)
            )
        return cls._checked(minutes * 60, increment, moves)

    @classmethod
    def from_tag(cls, text: str) -> TimeControl | None:
        """The control of a ``TimeControl`` tag (``300+3``, or ``300`` without increment,
        ``40/300`` for 40 moves in 300 seconds); None when the tag says something else
        (``-``, ``?``, several periods…)."""
        moves = 0
        head, slash, rest = text.strip().partition("/")
        if slash:
            if not (head.isascii() and head.isdigit() and len(head) <= 3):
                return None
            moves, text = int(head), rest
            if not 1 <= moves <= MAX_PERIOD_MOVES:
                return None
        base, _, inc = text.strip().partition("+")
        seconds = _seconds(base)
        increment = _seconds(inc) if inc else 0.0
        if seconds is None or increment is None:
            return None
        try:
            return cls._checked(seconds, increment, moves)
        except BadTimeControl:
            return None

    @classmethod
    def _checked(cls, seconds: float, increment: float, moves: int = 0) -> TimeControl:
        if not (MIN_SECONDS - 1e-9 <= seconds <= MAX_SECONDS):
            raise BadTimeControl(
                _("the clock's time must be more than 0 and at most {n} minutes").format(
                    n=MAX_SECONDS // 60
                )
            )
        if not (0 <= increment <= MAX_INCREMENT):
            raise BadTimeControl(
                _("the increment must be 0 to {n} seconds").format(n=MAX_INCREMENT)
            )
        return cls(seconds, increment, moves)

    def tag(self) -> str:
        """The ``TimeControl`` tag's value: ``300+3`` (``40/300+3`` with moves)."""
        period = f"{self.moves}/" if self.moves else ""
        return f"{period}{_number(self.seconds)}+{_number(self.increment)}"

    def label(self) -> str:
        """As players say it: ``5+3`` (minutes + seconds), ``40/5`` (moves in minutes)."""
        if self.moves:
            extra = f"+{_number(self.increment)}" if self.increment else ""
            return f"{self.moves}/{_number(self.seconds / 60)}{extra}"
        return f"{_number(self.seconds / 60)}+{_number(self.increment)}"


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _seconds(text: str) -> float | None:
    text = text.strip()
    if "." in text:
        whole, _, part = text.partition(".")
        if bounded_int(whole, MAX_SECONDS) is None or not part.isdigit() or len(part) > 3:
            return None
        return float(text)
    value = bounded_int(text, MAX_SECONDS)
    return None if value is None else float(value)


def _short(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def clock_text(seconds: float) -> str:
    """``h:mm:ss`` as ``[%clk]`` writes it (whole seconds, rounded down; tenths when
    under ten seconds)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:00:0{math.floor(seconds * 10) / 10:.1f}"
    whole = math.floor(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def clock_comment(seconds: float) -> str:
    """The comment after a move: ``[%clk 0:04:53]``."""
    return f"[%clk {clock_text(seconds)}]"


def clock_in(comment: str) -> float | None:
    """The seconds of a ``[%clk h:mm:ss]`` in a comment, or None (none there, or one
    that no clock can show: see :func:`clock_problem`)."""
    match = CLK.search(comment[:200])
    return None if match is None else _mark_seconds(match)


def _mark_seconds(match: re.Match[str]) -> float | None:
    """The seconds a ``[%clk]`` mark gives, when a clock can show them (minutes and
    seconds under 60, at most :data:`MAX_SECONDS` in all); else None."""
    minutes, seconds = int(match[2]), float(match[3])
    if minutes > 59 or seconds >= 60:
        return None
    total = int(match[1]) * 3600 + minutes * 60 + seconds
    return total if total <= MAX_SECONDS else None


def clock_problem(comment: str) -> str | None:
    """Why the ``[%clk]`` mark of a comment is ignored (one out of range, such as
    ``[%clk 99:99:99]``), or None when there is none or it is good."""
    match = CLK.search(comment[:200])
    if match is None or _mark_seconds(match) is not None:
        return None
    return _("clock mark {mark} ignored: a clock shows from 0:00:00 to {most}").format(
        mark=_short(match[0], 40), most=clock_text(MAX_SECONDS)
    )


def control_problem(value: str) -> str | None:
    """Why a ``TimeControl`` tag's value is ignored when it gives numbers out of range
    (``0.001+3600``: a thousandth of a second for the game), or None: a control this
    program can play, or a tag that says something else (``-``, ``40/7200:3600``)."""
    if not _TAG_SHAPE.fullmatch(value[:100]) or TimeControl.from_tag(value) is not None:
        return None
    return _(
        "TimeControl {value} ignored: the time for the game must be {least} to {most} "
        "seconds and the increment 0 to {increment} seconds"
    ).format(
        value=repr(_short(value, 40)),
        least=_number(MIN_SECONDS),
        most=MAX_SECONDS,
        increment=MAX_INCREMENT,
    )


def record_clocks(record: GameRecord) -> list[float | None]:
    """The time left after each move of the main line (None where none is written)."""
    out: list[float | None] = []
    for node in record.mainline():
        found = None
        for comment in node.comments:
            found = clock_in(comment)
            if found is not None:
                break
        out.append(found)
    return out


def set_clocks(record: GameRecord, marks: Sequence[float | None]) -> None:
    """Write the time left after each move of the main line as a ``[%clk]`` comment
    (replacing one already there)."""
    for node, seconds in zip(record.mainline(), marks, strict=False):
        node.comments = [c for c in node.comments if clock_in(c) is None]
        if seconds is not None:
            node.comments.append(clock_comment(seconds))


#: The tag of both clocks as they stood when the game ended: the first side's time, then
#: the second's (``[EndClock "0:04:53 0:03:10"]``). A game resigned, agreed drawn or left
#: ends between moves, while a clock ran: the last move's ``[%clk]`` does not say it.
END_CLOCK_TAG = "EndClock"


def end_clock_tag(left: tuple[float, float]) -> str:
    """The value of :data:`END_CLOCK_TAG` for the times ``left`` (the first side's first)."""
    return f"{clock_text(left[0])} {clock_text(left[1])}"


def end_clocks(record: GameRecord) -> tuple[float, float] | None:
    """The clocks at the end of the game of ``record`` (its :data:`END_CLOCK_TAG`), or
    None when it has none that reads as two times a clock can show."""
    parts = record.header(END_CLOCK_TAG)[:60].split()
    if len(parts) != 2:
        return None
    first, second = (clock_in(f"[%clk {part}]") for part in parts)
    if first is None or second is None:
        return None
    return first, second


def time_control(record: GameRecord) -> TimeControl | None:
    """The record's ``TimeControl`` tag, when it gives one this program can play."""
    return TimeControl.from_tag(record.header("TimeControl"))


__all__ = [
    "CLK",
    "END_CLOCK_TAG",
    "BadTimeControl",
    "TimeControl",
    "clock_comment",
    "clock_in",
    "clock_problem",
    "clock_text",
    "control_problem",
    "end_clock_tag",
    "end_clocks",
    "record_clocks",
    "set_clocks",
    "time_control",
]
