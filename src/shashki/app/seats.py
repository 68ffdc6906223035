"""Who sits at the board: one line per side in the game screen's panel, with its clock.

The line of the side to move is highlighted and marked; a ticking clock repaints its own
line only (``refresh()`` without layout), never the board.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from ..i18n import _
from ..rules import Color
from ..session.players import Computer
from .clock import clock_display
from .controller import GameController

#: Marks the side to move (the line is highlighted too).
TO_MOVE = "▶ "


class SeatLine(Widget):
    """One side's seat: ``▶ Anna (White)   4:53``."""

    DEFAULT_CSS = """
    SeatLine { height: 1; width: 1fr; }
    SeatLine.-to-move { background: $accent 40%; text-style: bold; }
    SeatLine.-clock-low { color: $warning; }
    """

    def __init__(
        self,
        controller: GameController,
        side_of: Callable[[], Color],
        *,
        id: str,
    ) -> None:
        super().__init__(id=id)
        self.controller = controller
        self.side_of = side_of
        #: The line as last painted (the tick repaints only when it changes).
        self.shown = ""

    @property
    def side(self) -> Color:
        return self.side_of()

    def label(self) -> str:
        """The seat's words: the player (or the computer and its level), the side."""
        ctl = self.controller
        side = self.side
        player = ctl.session.players[side]
        name = player.seat()
        english = ctl.variant.side_names[side]
        side_name = ctl.variant.local_side(side)  # in the language spoken now
        return side_name if name in (english, side_name) else f"{name} ({side_name})"

    def clock_text(self) -> str:
        clock = self.controller.session.clock
        return "" if clock is None else clock_display(clock.left(self.side))

    def to_move(self) -> bool:
        """Whether this side is to move in the game itself: while an earlier position is
        looked at, the side whose clock runs stays marked (a player short of time reads
        the clock that counts; the panel's turn line says who moved there)."""
        game = self.controller.game
        return game.outcome() is None and game.turn is self.side

    def text(self) -> str:
        """The line as shown (for tests and the tick's did-it-change check)."""
        return f"{TO_MOVE if self.to_move() else '  '}{self.label()}  {self.clock_text()}"

    def update_seat(self) -> None:
        """Follow the game: the highlight, the name, the clock."""
        self.set_class(self.to_move(), "-to-move")
        self.tick(force=True)

    def tick(self, *, force: bool = False) -> None:
        """Repaint this line alone, when what it shows changed."""
        clock = self.controller.session.clock
        self.set_class(clock is not None and clock.left(self.side) < 10, "-clock-low")
        shown = self.text()
        if force or shown != self.shown:
            self.shown = shown
            self.refresh()

    def render(self) -> Text:
        width = max(1, self.size.width)
        clock = self.clock_text()
        room = width - (cell_len(clock) + 1 if clock else 0)
        player = self.controller.session.players[self.side]
        # the marker of the side to move stays (a player reads it before the names): the
        # words give way first, "Anna (White)", then "Computer · level 4", then
        # "Computer 4", else the seat's words cut with "…"; the line never wraps under its clock
        marker = (TO_MOVE if self.to_move() else "  ") if room >= 8 else ""
        room -= cell_len(marker)
        shorter = [self.label(), player.seat()]
        if isinstance(player, Computer):
            shorter.append(_("Computer {n}").format(n=player.level))
        for words in shorter:
            label = Text(words, no_wrap=True)
            if label.cell_len <= room:
                break
        else:
            label = Text(player.seat(), no_wrap=True)
        label.truncate(max(0, room), overflow="ellipsis")
        pad = max(0, room - label.cell_len)
        line = Text(marker, no_wrap=True, overflow="crop")
        line.append_text(label)
        if clock:
            line.append(" " * pad + " ")
            line.append(clock, style="bold")
        return line


__all__ = ["SeatLine"]
