"""The move list as players write it, shared by the game screen and the replay: one
numbered row per move number with both sides' moves ("12. c3-d4  f6-g5"), a turn of two
moves in one column ("c3-d4; d4-c5"), "…" where a row starts with the second side, and
the move looked at marked in its row.

The rows are plain data (:func:`turn_rows`); :func:`draw_row` draws one in columns
within a width; :class:`MoveList` shows them, changing only the rows that differ.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.message import Message

from .plain import visible
from .widgets import PagedOptionList

#: The mark of the move looked at (walking the list, or replaying).
CURRENT = "reverse"
#: A row's indent per variation level, and the mark of an alternative's first row.
INDENT = "\u00a0\u00a0"
BRANCH = "\u2514 "


@dataclass(frozen=True)
class Entry:
    """One move for :func:`turn_rows`: the side that made it, its text, what it stands
    for (a ply, a record's node…), the comments after it, and whether the row must end
    after it (a variation follows)."""

    side: int
    text: str
    key: Hashable
    note: str = ""
    breaks: bool = False


@dataclass(frozen=True)
class Cell:
    """One side's turn in a row: its moves' text ("c3-d4", "c3-d4; d4-c5", "…"), the keys
    of its moves in order (none for "…"), and the comments after it."""

    text: str
    keys: tuple[Hashable, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class TurnRow:
    """A numbered row: the move number ("12."), the first side's turn and the second's
    (``None`` when not played), its variation level and whether it starts an
    alternative."""

    number: str
    first: Cell
    second: Cell | None = None
    depth: int = 0
    branch: bool = False

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def last(self) -> Hashable | None:
        """The key of the row's last move (a row clicked shows the position after it)."""
        for cell in reversed(self.cells):
            if cell.keys:
                return cell.keys[-1]
        return None

    def holds(self, key: Hashable) -> bool:
        return any(key in cell.keys for cell in self.cells)

    def columns(self) -> tuple[str, str, str]:
        """(number, first side's turn, second side's turn): the row as text."""
        return (self.number, self.first.text, "" if self.second is None else self.second.text)

    def name(self, key: Hashable, text: str) -> str:
        """The move ``key`` of this row as players say it: "8. c3-d4", "8… a7-b6"."""
        number = self.number.rstrip(".")
        second = self.second is not None and key in self.second.keys
        return f"{number}… {text}" if second or self.first.text == "…" else f"{number}. {text}"


def turn_rows(
    entries: Sequence[Entry], first: int, number: int, *, depth: int = 0, branch: bool = False
) -> list[TurnRow]:
    """The numbered rows of a line of moves: ``first`` is the side that opens a move
    number, ``number`` the move number of the first entry.  A run of moves by one side
    is one turn (one column); a row ends after the second side's turn, or after a turn
    with comments or one that a variation follows (the next row then starts with "…")."""
    rows: list[TurnRow] = []
    cells: list[Cell] = []
    turns: list[list[Entry]] = []
    for entry in entries:
        if turns and turns[-1][-1].side == entry.side and not turns[-1][-1].breaks:
            turns[-1].append(entry)
        else:
            turns.append([entry])

    def flush() -> None:
        if cells:
            rows.append(
                TurnRow(
                    f"{number}.",
                    cells[0],
                    cells[1] if len(cells) > 1 else None,
                    depth,
                    branch and not rows,
                )
            )
            cells.clear()

    for n, turn in enumerate(turns):
        side = turn[0].side
        if side == first:
            flush()
            if n:
                number += 1
        elif len(cells) > 1:  # (two turns of the second side in a row: a new row)
            flush()
        if not cells and side != first:
            cells.append(Cell("…"))
        note = " ".join(e.note for e in turn if e.note)
        cells.append(Cell("; ".join(e.text for e in turn), tuple(e.key for e in turn), note))
        if note or turn[-1].breaks:
            flush()
    flush()
    return rows


def wrap_move(text: str, width: int) -> list[str]:
    """A turn's text in lines of at most ``width``: broken between its moves ("c3-d4;"
    and "d4-c5"), a move too long for a line after a square ("c1:e3:" and "g5:e7"), and
    within a square only if it must."""
    lines: list[str] = []
    line = ""
    moves = text.split("; ")
    for n, move in enumerate(moves):
        word = move + (";" if n < len(moves) - 1 else "")
        if line and len(line) + 1 + len(word) <= width:
            line += " " + word
            continue
        if line:
            lines.append(line)
        line = ""
        for piece in re.findall(r"[^:x\-;]+[:x\-;]?", word) or [word]:
            if line and len(line) + len(piece) > width:
                lines.append(line)
                line = ""
            line += piece
            while len(line) > width:
                lines.append(line[:width])
                line = line[width:]
    lines.append(line)
    return lines


def draw_row(row: TurnRow, number_width: int, width: int, current: Hashable | None = None) -> Text:
    """A row drawn in columns within ``width`` cells: a long move wraps inside its own
    column (between squares), never under the number or into the other side's column;
    the turn holding the move ``current`` is marked; a variation's row is indented and
    dim; comments follow on lines of their own."""
    # a variation's rows are indented, its first marked as a branch (same width)
    first_lead = ""
    if row.depth:
        first_lead = INDENT * (row.depth - 1) + (BRANCH if row.branch else INDENT)
    room = max(12, width - len(first_lead))
    column = max(5, (room - number_width - 2) // 2)
    wrapped = [wrap_move(cell, column) for cell in row.columns()[1:]]
    marked = [current is not None and current in cell.keys for cell in row.cells]
    marked += [False] * (2 - len(marked))
    height = max(len(lines) for lines in wrapped)
    # moves are data (a variant file's square names): plain text, never markup
    out = Text(style="dim" if row.depth else "")
    for i in range(height):
        first, second = (lines[i] if i < len(lines) else "" for lines in wrapped)
        if i:
            out.append("\n")
        out.append(first_lead if i == 0 else " " * len(first_lead))
        out.append(f"{row.number if i == 0 else '':>{number_width}} ")
        if second:
            out.append(first, style=CURRENT if marked[0] and first else "")
            out.append(" " * (column - len(first) + 1))
            out.append(second, style=CURRENT if marked[1] else "")
        else:
            out.append(first, style=CURRENT if marked[0] and first else "")
    out.rstrip()
    for cell in row.cells:
        if cell.note:
            out.append("\n" + " " * (len(first_lead) + number_width + 1))
            out.append("{" + visible(" ".join(cell.note.split())) + "}", style="green")
    return out


class MoveList(PagedOptionList):
    """The move list: numbered rows, the move looked at marked, redrawn in its new
    width when it changes size."""

    class Resized(Message):
        """The list changed size: its rows are to be drawn again in the new width."""

    def on_resize(self) -> None:
        if self.is_mounted:
            self.post_message(self.Resized())

    #: The rows as last drawn, each with the key marked in it (None: none).
    _drawn: list[tuple[TurnRow, Hashable | None]] = []

    def show(
        self,
        rows: Sequence[TurnRow],
        current: Hashable | None = None,
        *,
        redraw: bool = False,
        keep: bool = False,
    ) -> None:
        """Show ``rows``, the move ``current`` marked and its row highlighted (None: the
        last row highlighted, no move marked); only the rows that differ are drawn.
        ``keep``: the row highlighted stays where the player left it (the same rows
        drawn again in a new width)."""
        kept = self.highlighted if keep else None
        drawn = [(row, current if row.holds(current) else None) for row in rows]
        old = [] if redraw else list(self._drawn)
        number_width = max((len(row.number) for row in rows), default=0)
        if old and max(len(row.number) for row, _ in old) != number_width:
            old = []  # the numbers grew a digit: all drawn again
        width = self.scrollable_content_region.width or 28
        if not old:
            self.clear_options()
        self._drawn = drawn
        # one widget whose rows are drawn in the same frame as the board (a ListView
        # mounts a widget per row, drawn a frame or two later); only the rows that differ
        common = 0
        while common < min(len(old), len(drawn)) and old[common] == drawn[common]:
            common += 1
        for i in range(common, min(len(old), len(drawn))):
            row, key = drawn[i]
            self.replace_option_prompt_at_index(i, draw_row(row, number_width, width, key))
        if len(old) > len(drawn):
            for i in range(len(old) - 1, len(drawn) - 1, -1):
                self.remove_option_at_index(i)
        elif len(drawn) > len(old):
            self.add_options(
                [draw_row(row, number_width, width, key) for row, key in drawn[len(old) :]]
            )
        at = next((i for i, (_, key) in enumerate(drawn) if key is not None), None)
        if current is None and drawn:
            at = len(drawn) - 1
        if kept is not None and kept < len(drawn):
            at = kept
        self.highlighted = at
        if at is not None:
            self.scroll_to_highlight()


__all__ = [
    "Cell",
    "Entry",
    "MoveList",
    "TurnRow",
    "draw_row",
    "turn_rows",
    "wrap_move",
]
