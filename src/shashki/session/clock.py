"""The game clock: two countdowns, one running at a time.

Time comes from a function (``time.monotonic`` by default) that a test replaces with one
it moves by hand, so that a flag fall is tested without waiting.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..records.clocks import MAX_SECONDS, TimeControl
from ..rules import Color


class GameClock:
    """The clocks of both sides under one time control (Fischer increment: a side gets
    the increment when its turn is complete; a control of moves in a time gives the
    time again when a side completes a period's moves)."""

    def __init__(
        self,
        control: TimeControl,
        *,
        now: Callable[[], float] = time.monotonic,
        left: tuple[float, float] | None = None,
    ) -> None:
        self.control = control
        self.now = now
        self._left = list(left) if left is not None else [control.seconds, control.seconds]
        #: The turns each side has completed (a period's moves counted from them).
        self.turns = [0, 0]
        #: The side whose clock runs, and since when (None: both stopped).
        self.running: Color | None = None
        self._since = 0.0

    @classmethod
    def resumed(
        cls,
        control: TimeControl,
        marks: Sequence[float | None],
        sides: Sequence[Color],
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> GameClock:
        """The clocks of a saved game: each side's time is the last ``[%clk]`` of its own
        moves (``sides[i]`` played move ``i``), or the full time before its first."""
        left = [control.seconds, control.seconds]
        for side, mark in zip(sides, marks, strict=False):
            if mark is not None:
                left[side] = max(0.0, mark)
        clock = cls(control, now=now, left=(left[0], left[1]))
        clock.turns = [
            sum(
                1
                for i, s in enumerate(sides)
                if s is side and (i + 1 == len(sides) or sides[i + 1] is not side)
            )
            for side in (Color.WHITE, Color.BLACK)
        ]
        return clock

    def left(self, side: Color) -> float:
        """Seconds left to ``side`` now (never below 0)."""
        value = self._left[side]
        if self.running is side:
            value -= self.now() - self._since
        return max(0.0, value)

    def start(self, side: Color) -> None:
        """Run ``side``'s clock (the other one stops)."""
        self.stop()
        self.running = side
        self._since = self.now()

    def stop(self) -> None:
        """Stop the running clock, its time kept."""
        if self.running is not None:
            self._left[self.running] = self.left(self.running)
        self.running = None

    def turn_done(self, side: Color, following: Color) -> None:
        """``side`` completed its turn: it gets the increment (up to the ten hours a clock
        can show, :data:`~shashki.records.clocks.MAX_SECONDS`, as its ``[%clk]`` mark
        can say), ``following``'s clock runs."""
        self.stop()
        added = self.control.increment
        self.turns[side] += 1
        if self.control.moves and self.turns[side] % self.control.moves == 0:
            added += self.control.seconds  # (a period's moves made: its time again)
        self._left[side] = min(max(self._left[side], MAX_SECONDS), self._left[side] + added)
        self.start(following)

    def moves_to_go(self, side: Color) -> int | None:
        """The moves ``side`` has still to make in this period (None: a whole game)."""
        if not self.control.moves:
            return None
        return self.control.moves - self.turns[side] % self.control.moves

    def set_left(self, white: float, black: float) -> None:
        """Both clocks show these seconds from now (a peer's copy of the clocks made
        equal to the referee's); the running side keeps running."""
        self._left = [max(0.0, white), max(0.0, black)]
        if self.running is not None:
            self._since = self.now()

    def flagged(self) -> Color | None:
        """The side whose time has run out, if any (only a running clock runs out)."""
        side = self.running
        if side is not None and self.left(side) <= 0:
            return side
        return None


@dataclass(frozen=True)
class ClockReading:
    """What both clocks showed at a moment of the day, and which one ran: kept in an
    autosave (``ShashkiClock``) for a game whose clock goes on while no program plays it
    (an online game's referee), so that resuming it charges the time since."""

    white: float
    black: float
    running: Color | None
    #: When it was read: seconds since the epoch (the time of day, not a process's clock).
    at: float

    @classmethod
    def of(cls, clock: GameClock, at: float) -> ClockReading:
        return cls(clock.left(Color.WHITE), clock.left(Color.BLACK), clock.running, at)

    def text(self) -> str:
        running = {Color.WHITE: "white", Color.BLACK: "black", None: "-"}[self.running]
        return f"{self.white:.3f} {self.black:.3f} {running} {self.at:.3f}"

    @classmethod
    def read(cls, text: str) -> ClockReading | None:
        """The reading a tag says (from a file: read strictly), or None."""
        words = text[:100].split()
        if len(words) != 4:
            return None
        running = {"white": Color.WHITE, "black": Color.BLACK, "-": None}.get(words[2], "?")
        try:
            white, black, at = float(words[0]), float(words[1]), float(words[3])
        except ValueError:
            return None
        if running == "?" or not all(math.isfinite(v) for v in (white, black, at)):
            return None
        if not (0 <= white <= MAX_SECONDS and 0 <= black <= MAX_SECONDS and at > 0):
            return None
        return cls(white, black, running if isinstance(running, Color) else None, at)

    def left(self, now: float) -> tuple[float, float]:
        """Both clocks at ``now`` (seconds since the epoch): the running one charged the
        time since the reading (never below 0: a flag fall), the other as read."""
        left = [self.white, self.black]
        if self.running is not None:
            left[self.running] = max(0.0, left[self.running] - max(0.0, now - self.at))
        return left[0], left[1]


__all__ = ["ClockReading", "GameClock"]
