"""The evaluation graph of a reviewed game: the first side's expected score after each
move (0 to 1, a draw in the middle), the move shown marked by a vertical line, the moves
the review marked as dots; a click on the graph jumps to that move.

It is Textual's plotting widget for Plotext (``textual-plotext``): the line is drawn in
braille dots, the theme follows the app's.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import RenderResult
from textual.message import Message
from textual_plotext import PlotextPlot

#: The colours of the moves the review marked, worst first.
MARK_COLOURS = {"??": "red", "?": "orange", "?!": "yellow"}


class EvalGraph(PlotextPlot):
    """The evaluation of a game after each move; :meth:`show` gives what it draws."""

    DEFAULT_CSS = """
    EvalGraph { height: 7; width: 1fr; }
    """

    class Chosen(Message):
        """A click on the graph: the move ``ply`` (0: the start)."""

        def __init__(self, ply: int) -> None:
            self.ply = ply
            super().__init__()

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.values: list[float | None] = []
        self.current = 0
        self.marks: dict[int, str] = {}

    def show(self, values: Sequence[float | None], current: int, marks: dict[int, str]) -> None:
        """Draw ``values`` (the first side's expected score after each ply, None where
        not known yet), the ply ``current`` marked, and the marked moves."""
        values = list(values)
        if values == self.values and current == self.current and marks == self.marks:
            return
        self.values, self.current, self.marks = values, current, dict(marks)
        self.refresh()

    def render(self) -> RenderResult:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        count = max(2, len(self.values))
        plt.xlim(0, count - 1)
        plt.ylim(0, 1)
        plt.xfrequency(0)
        plt.yfrequency(0)
        plt.frame(False)
        plt.hline(0.5, "gray")
        known = [(i, v) for i, v in enumerate(self.values) if v is not None]
        if known:
            plt.plot([i for i, _ in known], [v for _, v in known], marker="braille", color="cyan")
        for mark, colour in MARK_COLOURS.items():
            points = [(i, v) for i, v in known if self.marks.get(i) == mark]
            if points:
                plt.scatter(
                    [i for i, _ in points], [v for _, v in points], marker="●", color=colour
                )
        if self.values:
            plt.vline(min(self.current, count - 1), "white")
        return super().render()

    def ply_at(self, x: int) -> int:
        """The move whose place on the graph is column ``x``."""
        width = max(2, self.size.width)
        count = max(2, len(self.values))
        ply = round(x / (width - 1) * (count - 1))
        return max(0, min(len(self.values) - 1, ply))

    def on_click(self, event: events.Click) -> None:
        if not self.values:
            return
        event.stop()
        self.post_message(self.Chosen(self.ply_at(event.x)))


__all__ = ["EvalGraph"]
