"""The board: one widget painted line by line, for every geometry and variant.

Cells are sized to the space given (9×4, 7×3, 5×2 or 3×1 characters, about twice as wide
as tall so the squares look square); when even the smallest does not fit, the widget says
how much room it needs.  Colours come from component classes (the themes: themes.py);
shapes alone also tell men from kings, the cursor, the selection and the hints apart, so
the board stays readable with NO_COLOR.  Each cell's segments carry the square in their
metadata, so a click maps to its square.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from ..i18n import N_, _
from ..rules.game import game_state
from ..rules.move import Color, Move, Piece
from .controller import GameController

_MARK_NAMES = (
    "selected",
    "dest",
    "waypoint",
    "must",
    "last",
    "last_cap",
    "route",
    "ghost",
    "frozen",
)

_Row = list[tuple[str, Style]]
"""One text row of a cell, a character and its style a column."""


def _draw_brackets(
    row: _Row, sq: int, cursor: bool, base: Style, marks: dict[str, set[int]]
) -> None:
    """The shapes that need no colour: brackets for the cursor, parentheses for the
    selection, an exclamation mark for a piece that must capture."""
    if cursor:
        row[0], row[-1] = ("[", base), ("]", base)
    elif sq in marks["selected"]:
        row[0], row[-1] = ("(", base), (")", base)
    elif sq in marks["must"]:
        row[0] = ("!", base)


def _merge_runs(row: _Row) -> list[Segment]:
    """A cell's row as segments: the runs of one style merged."""
    segments: list[Segment] = []
    run, run_style = "", row[0][1]
    for c, style in row:
        if style is run_style:
            run += c
        else:
            segments.append(Segment(run, run_style))
            run, run_style = c, style
    segments.append(Segment(run, run_style))
    return segments


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
#: How each piece set is called on the screen (``_(name)`` where shown).
PIECE_SET_NAMES = {
    "unicode": N_("Discs (unicode)"),
    "contrast": N_("High contrast"),
    "ascii": N_("Letters (ASCII)"),
}


@dataclass
class Layout:
    cell_w: int
    cell_h: int
    left: int
    top: int


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

    class SquareClicked(Message):
        def __init__(self, square: int) -> None:
            self.square = square
            super().__init__()

    class CursorMoved(Message):
        def __init__(self, square: int) -> None:
            self.square = square
            super().__init__()

    class TypeMove(Message):
        """':' (or '/') on the board: the player starts typing a move (the screen opens
        its move box; the keys right behind come as :class:`KeyForMoveBox`)."""

    class KeyForMoveBox(Message):
        """A key that reached the board while a move is being typed: it belongs to the
        move box (a pasted ':c3-d4' arrives faster than the focus moves)."""

        def __init__(self, key: str, character: str | None) -> None:
            self.key = key
            self.character = character
            super().__init__()

        def deliver(self, box: Input) -> None:
            """Give the key to ``box`` as if it had the focus: Enter submits what it holds."""
            if self.key == "enter":
                value, box.value = box.value, ""
                box.post_message(Input.Submitted(box, value))
            elif self.key == "backspace":
                box.action_delete_left()
            elif self.character:
                box.insert_text_at_cursor(self.character)

    flipped: reactive[bool] = reactive(False)
    show_coords: reactive[bool] = reactive(True)
    #: Every square's number (or name) on it, pieces' squares included: on the smallest
    #: cells an occupied square shows its piece and its number side by side.
    all_numbers: reactive[bool] = reactive(False)
    piece_set: reactive[str] = reactive("unicode")
    cursor: reactive[int] = reactive(-1)
    #: Whether ':' starts typing a move here (the screen has a move box: it sets this).
    takes_typed_moves: bool = False
    #: Whether a move is being typed (from ':' until the box sends it or is left): the
    #: keys that reach the board meanwhile go to the move box.
    typing: bool = False

    def __init__(self, controller: GameController, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.controller = controller
        geo = controller.variant.board
        self._sk_cells: dict[object, Any] = {}
        self._sk_frame: dict[str, Any] | None = None
        #: The square under the mouse, or -1.
        self.hover = -1
        #: A move shown part-way, (move, jumps shown): a capture shown jump by jump.
        self.partial: tuple[Move, int] | None = None
        self._jumps: Timer | None = None
        self._sk_partial_key: object = None
        self._sk_partial_view: dict[int, tuple[Piece | None, bool]] = {}
        self.cursor = self._home_square()
        self._geo = geo

    # -- geometry -------------------------------------------------------------------

    def set_controller(self, controller: GameController) -> None:
        self.controller = controller
        self._geo = controller.variant.board
        self.cursor = self._home_square()
        self.refresh()

    def _home_square(self) -> int:
        """Where the cursor starts: on a piece that can move; while the other side (the
        computer, the friend online) is to move, on a piece of the person's here, never
        on the other side's."""
        ctl = self.controller
        geo = ctl.variant.board
        players = ctl.session.players
        turn = ctl.game.turn
        if not players[turn].is_human and players[1 - turn].is_human:
            own = sorted(geo.positions(game_state(ctl.game)[1 - turn]), key=geo.number)
            if own:
                return int(own[len(own) // 2])
        movable = sorted(ctl.movable(), key=geo.number)
        if movable:
            return int(movable[len(movable) // 2])
        return int(geo.squares[len(geo.squares) // 2])

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
        """Move the cursor up, down, left or right to the nearest playing square that way,
        or one square along a diagonal.

        On a board of dark squares a sideways step goes two files along the row.  A step
        up or down goes to the row above or below, into the other column of the square's
        pair of columns (a and b, c and d, … as shown): up and down zigzag along one
        column pair instead of drifting to the edge, and down always undoes up.

        Both ``dx`` and ``dy`` given: one step along a diagonal as shown (Home, PgUp, End,
        PgDn: up-left, up-right, down-left, down-right), on every board; at an edge the
        cursor stays.
        """
        geo = self._geo
        if self.cursor < 0:
            self.cursor = self._home_square()
            return
        col, row = self.cell_of(self.cursor)
        if geo.all_squares or (dx and dy):
            targets = [(col + dx, row + dy)]
        elif dx:
            targets = [(col + 2 * dx, row)]
        else:
            partner = col + 1 if col % 2 == 0 else col - 1
            targets = [(partner, row + dy), (2 * col - partner, row + dy)]
        for c, r in targets:
            if 0 <= c < geo.width and 0 <= r < geo.height:
                f, rank = self.square_at(c, r)  # type: ignore[misc]
                if geo.playable(f, rank):
                    self.cursor = geo.at(f, rank)
                    self.post_message(self.CursorMoved(self.cursor))
                    return

    def watch_cursor(self, old: int, new: int) -> None:
        """Repaint only the cells the cursor leaves and enters."""
        layout = self.board_layout() if self.is_mounted else None
        if layout is None or old < 0 or new < 0:
            self.refresh()
            return
        self.refresh(self.cell_region(old, layout), self.cell_region(new, layout))

    def cell_region(self, square: int, layout: Layout) -> Region:
        """Where ``square``'s cell is drawn in the widget, for ``layout``."""
        col, row = self.cell_of(square)
        return Region(
            layout.left + MARGIN_LEFT + col * layout.cell_w,
            layout.top + row * layout.cell_h,
            layout.cell_w,
            layout.cell_h,
        )

    def watch_flipped(self) -> None:
        self.refresh()

    def watch_show_coords(self) -> None:
        self.refresh()

    def watch_all_numbers(self) -> None:
        self.refresh()

    def square_label(self, sq: int) -> str:
        """What a square shows of its name: its number, or its name ("c3") on boards
        named by files and ranks."""
        v = self.controller.variant
        if v.numeric:
            return str(v.board.number(sq))
        from ..rules.fen import square_text

        return square_text(v, sq)

    def watch_piece_set(self) -> None:
        self.refresh()

    def on_key(self, event: events.Key) -> None:
        # Keys come to the board one after another before any binding runs (bindings run
        # once a key has bubbled up to the app): ':' must open the move box here, so that
        # the keys right behind it (a paste, a fast typist) are typed into it.
        # While a move is being typed every key goes to the box first, ':' included (the
        # separator of ':d4:f6', pasted or typed fast).
        if self.typing:
            if event.key == "escape":
                self.typing = False
            elif not (
                event.key in ("enter", "backspace")
                or (event.character and event.character.isprintable())
            ):
                return
            else:
                self.post_message(self.KeyForMoveBox(event.key, event.character))
            event.stop()
            event.prevent_default()
            return
        if (
            event.key in ("colon", "slash")
            and self.takes_typed_moves
            and self.board_layout() is not None
        ):
            event.stop()
            event.prevent_default()
            self.typing = True  # (the keys already behind ':' go to the box)
            self.post_message(self.TypeMove())

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

    # -- a capture shown jump by jump -----------------------------------------------------

    def show_jumps(self, move: Move, seconds: float) -> None:
        """Show ``move``, a capture of several jumps just played, one jump at a time: the
        first jump now, one more every ``seconds``, then the position after the move.  A
        change of the game shown meanwhile ends it."""
        self.stop_jumps()
        if os.environ.get("TEXTUAL_ANIMATIONS", "").lower() == "none":
            return
        jumps = len(move.path) - 1
        shown_for = (self.controller, self.controller.session.position_id)
        self.partial = (move, 1)
        self.refresh()

        def tick() -> None:
            partial = self.partial
            if (
                partial is None
                or shown_for != (self.controller, self.controller.session.position_id)
                or partial[1] + 1 >= jumps
            ):
                self.stop_jumps()
            else:
                self.partial = (partial[0], partial[1] + 1)
                self.refresh()

        self._jumps = self.set_interval(seconds, tick)

    def stop_jumps(self) -> None:
        """Show the whole position again (a capture shown jump by jump ends)."""
        if self._jumps is not None:
            self._jumps.stop()
            self._jumps = None
        if self.partial is not None:
            self.partial = None
            self.refresh()

    # -- painting -------------------------------------------------------------------------

    def _sk_collect_styles(self) -> dict[str, Style]:
        full = {"board--light", "board--dark", "board--coord", "board--small"}
        styles = {
            n: self.get_component_rich_style(n, partial=n not in full)
            for n in self.COMPONENT_CLASSES
        }
        # on boards that play every square, every other one is a shade lighter (else one slab)
        dark = self.get_component_styles("board--dark").background
        light = self.get_component_styles("board--light").background
        styles["board--alt"] = styles["board--dark"] + Style(
            bgcolor=dark.blend(light, 0.25).rich_color
        )
        return styles

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
        elif ctl.interactive:
            marks["must"] = ctl.must_capture()
        last = ctl.session.last_move
        if last is not None:
            marks["last"] = set(last.path)
            marks["last_cap"] = set(last.captured)
        frozen = ctl.variant.generator.frozen(game_state(ctl.game))
        if frozen >= 0:
            marks["frozen"] = {frozen}
        return marks

    def render_line(self, y: int) -> Strip:
        if getattr(self, "_sk_style_cache", None) is None:
            # a line asked for outside a repaint (render_lines) shares no frame with another
            self._sk_frame = None
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
                label = (
                    "abcdefghijkl"[f]
                    if self.show_coords and not self.controller.variant.numeric
                    else ""
                )
                segments.append(Segment(label.center(cw), styles["board--coord"]))
            return self._finish(segments, width, styles)
        row, sub = divmod(rel, ch)
        _, rank = self.square_at(0, row)  # type: ignore[misc]
        label = (
            str(rank + 1)
            if self.show_coords and sub == (ch - 1) // 2 and not self.controller.variant.numeric
            else ""
        )
        segments.append(Segment(label.rjust(MARGIN_LEFT - 1) + " ", styles["board--coord"]))
        marks = self._sk_marks()
        for col in range(geo.width):
            f, r = self.square_at(col, row)  # type: ignore[misc]
            playable = geo.playable(f, r)
            if not playable:
                segments.append(Segment(" " * cw, styles["board--light"]))
                continue
            sq = geo.at(f, r)
            segments.extend(self._cell_row(sq, sub, cw, ch, marks, styles))
        return self._finish(segments, width, styles)

    def _cell_row(
        self,
        sq: int,
        sub: int,
        cw: int,
        ch: int,
        marks: dict[str, set[int]],
        styles: dict[str, Style],
    ) -> list[Segment]:
        """One text row of a cell, from a cache of whole cells keyed by what they show:
        a repaint recomputes only the cells whose piece, marks or cursor changed."""
        frame = self._sk_frame
        if frame is None:
            frame = self._sk_frame = self._sk_new_frame(cw, ch)
        piece, ghost = self._piece(sq)
        column = frame["column"]
        key = (
            sq,
            piece,
            ghost,
            tuple(sq in marks[name] for name in _MARK_NAMES),
            sq == frame["cursor"],
            column(frame["position"], sq),
        )
        cache = self._sk_cells
        if cache.get(None) != frame["look"] or len(cache) > 4096:
            cache.clear()
            cache[None] = frame["look"]
        rows = cache.get(key)
        if rows is None:
            rows = [self._cell(sq, s, cw, ch, marks, styles) for s in range(ch)]
            cache[key] = rows
        row: list[Segment] = rows[sub]
        return row

    def _sk_new_frame(self, cw: int, ch: int) -> dict[str, Any]:
        """What every cell of one repaint shares, looked up once."""
        return {
            "look": (
                cw,
                ch,
                self.piece_set,
                self.show_coords,
                self.all_numbers,
                tuple(sorted(self.classes)),
                self.app.theme,
            ),
            "cursor": self.cursor if self.has_focus else -1,
            "column": self.controller.variant.generator.stack,
            "position": game_state(self.controller.game),
        }

    def _finish(self, segments: list[Segment], width: int, styles: dict[str, Style]) -> Strip:
        strip = Strip(segments)
        return strip.extend_cell_length(width, styles["board--coord"]).crop(0, width)

    def render_lines(self, crop: Region) -> list[Strip]:
        # the component styles are looked up once per repaint, not once per line
        self._sk_style_cache: dict[str, Style] | None = self._sk_collect_styles()
        self._sk_frame = None
        try:
            return super().render_lines(crop)
        finally:
            self._sk_style_cache = None
            self._sk_frame = None

    def _sk_styles(self) -> dict[str, Style]:
        return getattr(self, "_sk_style_cache", None) or self._sk_collect_styles()

    def _sk_marks(self) -> dict[str, set[int]]:
        sel = self.controller.selection
        key = (
            self.controller.session.position_id,
            id(sel),
            sel.route_index,
            len(sel.waypoints),
            sel.square,
            len(sel.routes),
        )
        if getattr(self, "_sk_mkey", None) != key:
            self._sk_mkey = key
            self._sk_mval = self._sk_compute_marks()
        return self._sk_mval

    def _cell(
        self,
        sq: int,
        sub: int,
        cw: int,
        ch: int,
        marks: dict[str, set[int]],
        styles: dict[str, Style],
    ) -> list[Segment]:
        """The segments of one text row (``sub``) of the cell of ``sq``."""
        base, cursor = self._cell_base(sq, marks, styles)
        row: _Row = [(" ", base)] * cw
        piece, ghost = self._piece(sq)
        big = cw >= 7 and ch >= 3 and self.piece_set != "ascii"
        piece_rows = (ch // 2 - 1, ch // 2) if big else ((ch - 1) // 2,)
        mid = cw // 2
        if piece is not None and sub in piece_rows:
            shaded = ghost or sq in marks["ghost"] or sq in marks["frozen"]
            self._draw_piece(row, piece, shaded, sub, piece_rows, big, base, styles)
        elif sub == piece_rows[-1] and piece is None:
            self._draw_empty_mark(row, sq, mid, base, marks)
        # shapes for the no-colour case: brackets for the cursor, parentheses for the selection
        if sub == piece_rows[-1] and cw >= 3:
            _draw_brackets(row, sq, cursor, base, marks)
        # square numbers in a corner; a column's hidden pieces underneath
        if ch >= 2 and sub not in piece_rows:
            number_row = 0 if piece_rows[0] > 0 else piece_rows[-1] + 1
            stacked = sub == ch - 1 and self._draw_stack(row, sq, base, styles)
            if not stacked and sub == number_row and self._numbers_shown():
                number_style = base + styles["board--number"]
                for i, c in enumerate(self.square_label(sq)[:cw]):
                    row[i] = (c, number_style)
        elif ch == 1 and sub == 0 and piece is not None and self.all_numbers and cw >= 3:
            self._draw_number_beside_piece(row, sq, mid, base)
        elif ch == 1 and sub == 0 and piece is None and self._numbers_shown() and cw >= 3:
            if (
                sq not in marks["dest"]
                and sq not in marks["last_cap"]
                and sq not in marks["waypoint"]
            ):
                self._draw_number_alone(row, sq, base, styles)
        return _merge_runs(row)

    def _cell_base(
        self, sq: int, marks: dict[str, set[int]], styles: dict[str, Style]
    ) -> tuple[Style, bool]:
        """A cell's background: its square's colour, its marks, the cursor; and whether the
        cursor is on it."""
        geo = self._geo
        alt = geo.all_squares and (geo.file_of[sq] + geo.rank_of[sq]) % 2 == 1
        base = styles["board--alt" if alt else "board--dark"]
        for name, style_name in (
            ("last", "board--last"),
            ("last_cap", "board--last"),
            ("route", "board--route"),
            ("dest", "board--dest"),
            ("waypoint", "board--waypoint"),
            ("must", "board--must"),
            ("selected", "board--selected"),
        ):
            if sq in marks[name]:
                base = base + styles[style_name]
        cursor = sq == self.cursor and self.has_focus
        if cursor:
            base = base + styles["board--cursor"]
        return base + Style.from_meta({"sq": sq}), cursor

    def _draw_piece(
        self,
        row: _Row,
        piece: Piece,
        shaded: bool,
        sub: int,
        piece_rows: tuple[int, ...],
        big: bool,
        base: Style,
        styles: dict[str, Style],
    ) -> None:
        """A piece on its row of the cell: a disc of two rows (``big``) or one glyph."""
        cw = len(row)
        mid = cw // 2
        key = "n" if piece.color is None else ("w" if piece.color is Color.WHITE else "b")
        cls = {"n": "piece--neutral", "w": "piece--white", "b": "piece--black"}[key]
        pstyle = base + styles[cls]
        if shaded:
            pstyle = pstyle + styles["board--ghost"]
        if not big:
            glyphs = PIECE_SETS.get(self.piece_set, PIECE_SETS["unicode"])
            row[mid] = (glyphs[key.upper() if piece.is_king else key], pstyle)
            return
        top = sub == piece_rows[0]
        half = (cw - 3) // 2 - 1
        shape = (
            ("▄" + "█" * (cw - 2 * half - 2) + "▄")
            if top
            else ("▀" + "█" * (cw - 2 * half - 2) + "▀")
        )
        for i, c in enumerate(shape):
            row[half + i] = (c, pstyle)
        if self.piece_set == "contrast" and key == "w":
            for i in range(half + 1, half + len(shape) - 1):
                row[i] = ("░", pstyle)
        if piece.is_king:
            # a crown mark cut out of the disc (reverse colours keep it visible),
            # drawn last: the shading of a hollow piece never covers it
            mark = "♛" if top else "═"
            row[mid] = (mark, pstyle + Style(reverse=True))

    def _draw_empty_mark(
        self, row: _Row, sq: int, mid: int, base: Style, marks: dict[str, set[int]]
    ) -> None:
        """On an empty square: a destination's dot, a waypoint's ring or a capture's cross."""
        ascii_only = self.piece_set == "ascii"
        if sq in marks["dest"]:
            row[mid] = ("•" if not ascii_only else "*", base)
        elif sq in marks["waypoint"]:
            row[mid] = ("∘" if not ascii_only else "+", base)
        elif sq in marks["last_cap"]:
            row[mid] = ("×" if not ascii_only else "x", base)

    def _numbers_shown(self) -> bool:
        """Whether the squares' numbers are drawn in the cells."""
        return self.all_numbers or (self.show_coords and self.controller.variant.numeric)

    def _draw_stack(self, row: _Row, sq: int, base: Style, styles: dict[str, Style]) -> bool:
        """A column's pieces under its top one, top first, each in its own colour; False
        when ``sq`` holds no column (nothing drawn)."""
        ctl = self.controller
        st = ctl.variant.generator.stack(game_state(ctl.game), sq)
        if len(st) <= 1:
            return False
        cw = len(row)
        hidden = st[:-1][::-1]
        shown = hidden if len(hidden) <= cw else hidden[: cw - 2]
        start = (cw - len(shown)) // 2 if len(hidden) <= cw else 0
        letters = PIECE_SETS.get(self.piece_set, PIECE_SETS["unicode"])
        for i, c in enumerate(shown):
            cls = "piece--white" if c in "wW" else "piece--black"
            row[start + i] = (letters[c.lower() if c in "wb" else c], base + styles[cls])
        if len(hidden) > cw:
            more = f"+{len(hidden) - len(shown)}"[:2]
            for i, c in enumerate(more):
                row[cw - 2 + i] = (c, base + styles["board--number"])
        return True

    def _draw_number_beside_piece(self, row: _Row, sq: int, mid: int, base: Style) -> None:
        """A cell of one row: the piece on the left, its square's number beside it in the
        piece's colour (a name of three characters fills the cell, in the piece's colour)."""
        cw = len(row)
        text = self.square_label(sq).rjust(2)
        pstyle = row[mid][1]
        row[0] = row[mid]
        start = 1 if len(text) < cw else 0
        for i, c in enumerate(text[: cw - start]):
            row[start + i] = (c, pstyle if c != " " else base)

    def _draw_number_alone(self, row: _Row, sq: int, base: Style, styles: dict[str, Style]) -> None:
        """A cell of one row with no piece and no mark: its square's number, dimmed."""
        cw = len(row)
        text = self.square_label(sq)
        number_style = base + styles["board--number"] + Style(dim=True)
        for i, c in enumerate(text.rjust(2)[: cw - 1]):
            row[1 + i - (1 if len(text) > 2 else 0)] = (c, number_style)

    def _piece(self, sq: int) -> tuple[Piece | None, bool]:
        """The piece shown on ``sq`` and whether it is a ghost (captured, not yet removed)."""
        game = self.controller.game
        if self.partial is None:
            return game.piece_at(sq), False
        if self._sk_partial_key != (self.partial, self.controller.session.position_id):
            self._sk_partial_key = (self.partial, self.controller.session.position_id)
            move, shown = self.partial
            before = game.copy()
            before.pop()
            view: dict[int, tuple[Piece | None, bool]] = {}
            mover = before.piece_at(move.start)
            view[move.start] = (None, False)
            for c in move.captured[:shown]:
                view[c] = (before.piece_at(c), True)
            view[move.path[shown]] = (mover, False)
            self._sk_partial_view = view
            self._sk_before = before
        if sq in self._sk_partial_view:
            return self._sk_partial_view[sq]
        return self._sk_before.piece_at(sq), False

    def _render_small(self, y: int, width: int) -> Strip:
        geo = self._geo
        need_w, need_h = needed_size(geo.width, geo.height)
        lines = [
            _("Terminal too small."),
            _("This {board} board needs a terminal of at least {need} (now {size}).").format(
                board=f"{geo.width}×{geo.height}",
                need=f"{need_w + 2}×{need_h + 2}",
                size=f"{self.app.size.width}×{self.app.size.height}",
            ),
            _("Enlarge the window: the game goes on where it was."),
        ]
        import textwrap

        style = self.get_component_rich_style("board--small", partial=False)
        wrapped: list[str] = []
        for line in lines:
            wrapped.extend(textwrap.wrap(line, max(8, width)) or [""])
        top = max(0, (self.size.height - len(wrapped)) // 2)
        if top <= y < top + len(wrapped):
            text = wrapped[y - top][:width].center(width)
            return Strip([Segment(text, style)], width)
        return Strip.blank(width, style)


__all__ = ["BoardWidget", "needed_size"]
