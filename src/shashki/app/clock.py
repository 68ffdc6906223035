"""The game clock as players read it (the clocks themselves are the session's:
:class:`~shashki.session.clock.GameClock`)."""

from __future__ import annotations

import math

from ..i18n import N_
from ..session.clock import GameClock

#: The clocks the new-game dialog offers: (label, minutes+seconds); "" is no clock.
CLOCK_CHOICES: list[tuple[str, str]] = [
    (N_("none"), ""),
    (N_("1+0 (bullet)"), "1+0"),
    (N_("3+2 (blitz)"), "3+2"),
    (N_("5+3 (blitz)"), "5+3"),
    (N_("10+5 (rapid)"), "10+5"),
    (N_("15+10 (rapid)"), "15+10"),
    (N_("custom…"), "custom"),
]


def clock_display(seconds: float) -> str:
    """A clock as players read it: ``5:00``, ``1:02:03``; tenths under ten seconds
    (``0:09.4``).  Shown rounded down, so ``0:00.0`` is the flag falling.

    >>> clock_display(300), clock_display(9.47), clock_display(3723)
    ('5:00', '0:09.4', '1:02:03')
    """
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:0{math.floor(seconds * 10) / 10:.1f}"
    whole = math.floor(seconds)
    if whole >= 3600:
        return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
    return f"{whole // 60}:{whole % 60:02d}"


__all__ = ["CLOCK_CHOICES", "GameClock", "clock_display"]
