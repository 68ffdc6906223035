"""The board: one widget painted line by line, for every geometry and variant.

Cells are sized to the space given (9×4, 7×3, 5×2 or 3×1 characters, about twice as wide
as tall so the squares look square); when even the smallest does not fit, the widget says
how much room it needs.  Colours come from component classes (themes are plain TCSS);
shapes alone also tell men from kings, the cursor, the selection and the hints apart, so
the board stays readable with NO_COLOR.  Each cell's segments carry the square in their
metadata, so a click maps to its square.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..rules.fen import square_text
from ..rules.move import Color
from .controller import GameController

#: Cell sizes tried from the largest: (width, height).
CELL_SIZES = ((9, 4), (7, 3), (5, 2), (3, 1))
#: Left margin for rank labels and bottom margin for file labels.
MARGIN_LEFT = 3
MARGIN_BOTTOM = 1

PIECE_SETS: dict[str, dict[str, str]] = {
    # side 0 / side 1 / colourless; man / king
    "unicode": {"w": "●", "W": "◉", "b": "●", "B": "◉", "n": "●", "N": "◉"},
    "contrast": {"w": "○", "W": "◎", "b": "●", "B": "◉", "n": "●", "N": "◉"},
    "ascii": {"w": "w", "W": "W", "b": "b", "B": "B", "n": "o", "N": "O"},
}


@dataclass
class Layout:
    cell_w: int
    cell_h: int
    left: int
    top: int

    def board_size(self, files: int, ranks: int) -> tuple[int, int]:
        return self.cell_w * files + MARGIN_LEFT, self.cell_h * ranks + MARGIN_BOTTOM


def needed_size(files: int, ranks: int) -> tuple[int, int]:
    """The smallest room a board needs (3×1 cells and the margins)."""
    w, h = CELL_SIZES[-1]
    return w * files + MARGIN_LEFT, h * ranks + MARGIN_BOTTOM


class BoardWidget(Widget, can_focus=True):
    """Renders a :class:`GameController`'s game and reports clicks on squares."""

    COMPONENT_CLASSES = {
        "board--light",
        "board--dark",
        "board--cursor",
        "board--selected",
        "board--dest",
        "board--waypoint",
        "board--must",
        "board--last",
        "board--route",
        "board--ghost",
        "board--frozen",
        "board--coord",
        "board--number",
        "piece--white",
        "piece--black",
        "piece--neutral",
        "board--small",
    }

    DEFAULT_CSS = """
    BoardWidget { width: 1fr; height: 1fr; }
    """

    class SquareClicked(Message):
        def __init__(self, square: int) -> None:
            self.square = square
            super().__init__()

    class CursorMoved(Message):
        def __init__(self, square: int) -> None:
            self.square = square
            super().__init__()

    flipped: reactive[bool] = reactive(False)
    show_coords: reactive[bool] = reactive(True)
    piece_set: reactive[str] = reactive("unicode")
    cursor: reactive[int] = reactive(-1)

    def __init__(self, controller: GameController, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.controller = controller
        geo = controller.variant.board
        #: Squares highlighted as the last move's trail / route on show (set by the screen).
        self.hover = -1
        self.cursor = self._home_square()
        self._geo = geo

    # -- geometry -------------------------------------------------------------------

    def set_controller(self, controller: GameController) -> None:
        self.controller = controller
        self._geo = controller.variant.board
        self.cursor = self._home_square()
        self.refresh()

    def _home_square(self) -> int:
        geo = self.controller.variant.board
        movable = sorted(self.controller.movable(), key=geo.number)
        if movable:
            return movable[len(movable) // 2]
        return geo.squares[len(geo.squares) // 2]

    def board_layout(self) -> Layout | None:
        geo = self._geo
        width, height = self.size.width, self.size.height
        for cw, ch in CELL_SIZES:
            bw, bh = cw * geo.width + MARGIN_LEFT, ch * geo.height + MARGIN_BOTTOM
            if bw <= width and bh <= height:
                return Layout(cw, ch, max(0, (width - bw) // 2), max(0, (height - bh) // 2))
        return None

    def square_at(self, col: int, row: int) -> tuple[int, int] | None:
        """(file, rank) shown at display column and row (0-based, top-left)."""
        geo = self._geo
        if self.flipped:
            return geo.width - 1 - col, row
        return col, geo.height - 1 - row

    def cell_of(self, square: int) -> tuple[int, int]:
        """Display (column, row) of a square."""
        geo = self._geo
        f, r = geo.file_of[square], geo.rank_of[square]
        if self.flipped:
            return geo.width - 1 - f, r
        return f, geo.height - 1 - r

    # -- cursor -----------------------------------------------------------------------

    def move_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor by display columns/rows, skipping squares that are not played."""
        geo = self._geo
        if self.cursor < 0:
            self.cursor = self._home_square()
            return
        col, row = self.cell_of(self.cursor)
        for step in range(1, max(geo.width, geo.height) + 1):
            c, r = col + dx * step, row + dy * step
            if not (0 <= c < geo.width and 0 <= r < geo.height):
                break
            # on dark-squares boards a straight step lands on a light square: try its neighbours
            candidates = [(c, r)]
            if dx == 0:
                candidates += [(c + 1, r), (c - 1, r)]
            elif dy == 0:
                candidates += [(c, r + 1), (c, r - 1)]
            for cc, rr in candidates:
                if not (0 <= cc < geo.width and 0 <= rr < geo.height):
                    continue
                f, rank = self.square_at(cc, rr)  # type: ignore[misc]
                if geo.all_squares or (f + rank) % 2 == 0:
                    self.cursor = geo.at(f, rank)
                    self.post_message(self.CursorMoved(self.cursor))
                    return

    def watch_cursor(self) -> None:
        self.refresh()

    def watch_flipped(self) -> None:
        self.refresh()

    def watch_show_coords(self) -> None:
        self.refresh()

    def watch_piece_set(self) -> None:
        self.refresh()

    # -- mouse --------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        square = event.style.meta.get("sq") if event.style else None
        if square is None:
            return
        self.cursor = square
        event.stop()
        self.post_message(self.SquareClicked(square))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        square = event.style.meta.get("sq", -1) if event.style else -1
        if square != self.hover:
            self.hover = square
            if square >= 0:
                self.post_message(self.CursorMoved(square))

    # -- painting -------------------------------------------------------------------------

    def _sk_collect_styles(self) -> dict[str, Style]:
        full = {"board--light", "board--dark", "board--coord", "board--small"}
        return {
            n: self.get_component_rich_style(n, partial=n not in full) for n in self.COMPONENT_CLASSES
        }

    def _sk_compute_marks(self) -> dict[str, set[int]]:
        ctl = self.controller
        marks: dict[str, set[int]] = {
            "selected": set(),
            "dest": set(),
            "waypoint": set(),
            "must": set(),
            "last": set(),
            "last_cap": set(),
            "route": set(),
            "ghost": set(),
            "frozen": set(),
        }
        sel = ctl.selection
        route = ctl.shown_route()
        if route is not None:
            marks["route"] = set(route.path)
            marks["ghost"] = set(route.captured)
            marks["selected"] = {route.start}
        elif sel.square is not None:
            marks["selected"] = {sel.square}
            marks["dest"] = ctl.destinations()
            marks["waypoint"] = ctl.waypoints_available() | set(sel.waypoints)
        else:
            marks["must"] = ctl.must_capture()
        last = ctl.last_move
        if last is not None:
            marks["last"] = set(last.path)
            marks["last_cap"] = set(last.captured)
        frozen = getattr(ctl.variant.generator, "frozen", None)
        if frozen is not None:
            f = frozen(ctl.game.position)
            if f >= 0:
                marks["frozen"] = {f}
        return marks

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        layout = self.board_layout()
        if layout is None:
            return self._render_small(y, width)
        geo = self._geo
        styles = self._sk_styles()
        cw, ch = layout.cell_w, layout.cell_h
        rel = y - layout.top
        board_rows = ch * geo.height
        segments: list[Segment] = []
        if rel < 0 or rel > board_rows:
            return Strip.blank(width, styles["board--coord"])
        segments.append(Segment(" " * layout.left, styles["board--coord"]))
        if rel == board_rows:  # file letters
            segments.append(Segment(" " * MARGIN_LEFT, styles["board--coord"]))
            for col in range(geo.width):
                f = (geo.width - 1 - col) if self.flipped else col
                label = "abcdefghijkl"[f] if self.show_coords and not self.controller.variant.numeric else ""
                segments.append(Segment(label.center(cw), styles["board--coord"]))
            return self._finish(segments, width, styles)
        row, sub = divmod(rel, ch)
        _, rank = self.square_at(0, row)  # type: ignore[misc]
        label = str(rank + 1) if self.show_coords and sub == (ch - 1) // 2 and not self.controller.variant.numeric else ""
        segments.append(Segment(label.rjust(MARGIN_LEFT - 1) + " ", styles["board--coord"]))
        marks = self._sk_marks()
        for col in range(geo.width):
            f, r = self.square_at(col, row)  # type: ignore[misc]
            playable = geo.all_squares or (f + r) % 2 == 0
            if not playable:
                segments.append(Segment(" " * cw, styles["board--light"]))
                continue
            sq = geo.at(f, r)
            segments.extend(self._cell(sq, sub, cw, ch, marks, styles))
        return self._finish(segments, width, styles)

    def _finish(self, segments: list[Segment], width: int, styles: dict[str, Style]) -> Strip:
        strip = Strip(segments)
        return strip.extend_cell_length(width, styles["board--coord"]).crop(0, width)

    def _sk_styles(self) -> dict[str, Style]:
        return self._sk_collect_styles()

    def _sk_marks(self) -> dict[str, set[int]]:
        sel = self.controller.selection
        key = (self.controller.position_id, id(sel), sel.route_index, len(sel.waypoints), sel.square, len(sel.routes))
        if getattr(self, "_mkey", None) != key:
            self._sk_mkey = key
            self._sk_mval = self._sk_compute_marks()
        return self._sk_mval

    def _cell(
        self, sq: int, sub: int, cw: int, ch: int, marks: dict[str, set[int]], styles: dict[str, Style]
    ) -> list[Segment]:
        ctl = self.controller
        base = styles["board--dark"]
        if sq in marks["last"] or sq in marks["last_cap"]:
            base = base + styles["board--last"]
        if sq in marks["route"]:
            base = base + styles["board--route"]
        if sq in marks["dest"]:
            base = base + styles["board--dest"]
        if sq in marks["waypoint"]:
            base = base + styles["board--waypoint"]
        if sq in marks["must"]:
            base = base + styles["board--must"]
        if sq in marks["selected"]:
            base = base + styles["board--selected"]
        if sq == self.cursor and self.has_focus:
            base = base + styles["board--cursor"]
        meta = Style.from_meta({"sq": sq})
        base = base + meta
        piece_row = (ch - 1) // 2
        text = [" "] * cw
        piece_style = base
        pos = ctl.game.position
        piece = ctl.game.piece_at(sq)
        if sub == piece_row and piece is not None:
            key = "n" if piece.color is None else ("w" if piece.color is Color.WHITE else "b")
            if piece.is_king:
                key = key.upper()
            glyphs = PIECE_SETS.get(self.piece_set, PIECE_SETS["unicode"])
            glyph = glyphs[key]
            mid = cw // 2
            text[mid] = glyph
            cls = "piece--neutral" if piece.color is None else ("piece--white" if piece.color is Color.WHITE else "piece--black")
            piece_style = base + styles[cls]
            if sq in marks["ghost"] or sq in marks["frozen"]:
                piece_style = piece_style + styles["board--ghost"]
        elif sub == piece_row and sq in marks["dest"]:
            text[cw // 2] = "·" if self.piece_set != "ascii" else "."
        elif sub == piece_row and sq in marks["last_cap"] and piece is None:
            text[cw // 2] = "×" if self.piece_set != "ascii" else "x"
        # shapes for the no-colour case: brackets for the cursor, parentheses for the selection
        if sub == piece_row and cw >= 3:
            if sq == self.cursor and self.has_focus:
                text[0], text[-1] = "[", "]"
            elif sq in marks["selected"]:
                text[0], text[-1] = "(", ")"
            elif sq in marks["must"]:
                text[0], text[-1] = "!", " "
        # square number / stack in the spare rows
        extra = ""
        if ch >= 2:
            if sub == 0 and piece_row != 0 or (sub == 0 and ch == 2 and piece is None):
                pass
            if self.show_coords and ctl.variant.numeric and sub == 0 and (piece_row != 0 or piece is None):
                extra = str(ctl.variant.board.number(sq))
            stack_row = piece_row + 1
            if sub == stack_row:
                column = getattr(ctl.variant.generator, "stack", None)
                if column is not None:
                    st = column(pos, sq)
                    if len(st) > 1:
                        extra = _stack_text(st[:-1], cw, self.piece_set)
        if extra and sub != piece_row:
            for i, c in enumerate(extra[:cw]):
                text[i] = c
        if sub != piece_row and extra:
            return [Segment("".join(text), base + styles["board--number"])]
        if sub != piece_row:
            return [Segment("".join(text), base)]
        mid = cw // 2
        left = "".join(text[:mid])
        right = "".join(text[mid + 1 :])
        return [Segment(left, base), Segment(text[mid], piece_style), Segment(right, base)]

    def _render_small(self, y: int, width: int) -> Strip:
        geo = self._geo
        need_w, need_h = needed_size(geo.width, geo.height)
        lines = [
            "Terminal too small",
            f"{geo.width}×{geo.height} board needs {need_w}×{need_h} here",
            f"(now {self.size.width}×{self.size.height}); enlarge the window.",
        ]
        style = self.get_component_rich_style("board--small", partial=False)
        top = max(0, (self.size.height - len(lines)) // 2)
        if top <= y < top + len(lines):
            text = lines[y - top][:width].center(width)
            return Strip([Segment(text, style)], width)
        return Strip.blank(width, style)


def _stack_text(pieces: str, width: int, piece_set: str) -> str:
    """The pieces under the top of a column, top first, shortened to fit."""
    glyph = {"w": "○", "b": "●", "W": "◎", "B": "◉"} if piece_set != "ascii" else {
        "w": "w", "b": "b", "W": "W", "B": "B"}
    seq = "".join(glyph[c] for c in reversed(pieces))
    if len(seq) <= width:
        return seq.center(width)
    return seq[: width - 2] + f"+{len(seq) - width + 2}"[:2]


__all__ = ["BoardWidget", "needed_size", "square_text"]
