"""The board widget: every square within reach of the arrow keys, clicks mapped to squares,
the cell size chosen from the room given."""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.app.board import BoardWidget

from .conftest import (
    ARROWS,
    _cursor_step,
    cell_offset,
    clicks_play,
    game_screen,
    make_app,
    press,
    settle,
)


def _reachable(steps: dict[int, list[int]], start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        for there in steps[todo.pop()]:
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


@pytest.mark.parametrize("variant", ["russian", "international", "turkish"])
async def test_the_arrow_keys_reach_every_square(home: Path, variant: str) -> None:
    app = make_app(home, variant=variant)
    async with app.run_test(size=(100, 32)):
        board = game_screen(app).board
        geo = game_screen(app).controller.variant.board
        squares = set(geo.squares)
        for flipped in (False, True):
            board.flipped = flipped
            steps = {
                sq: [_cursor_step(board, sq, dx, dy) for dx, dy in ARROWS.values()]
                for sq in squares
            }
            for start in squares:
                assert _reachable(steps, start) == squares, (geo.name(start), flipped)
            for sq in squares:
                up = steps[sq][0]
                # up and down keep to the square's column or the next one
                assert abs(geo.file_of[up] - geo.file_of[sq]) <= 1
                # away from the edges (where a step must lean the other way) down undoes up
                col, _ = board.cell_of(sq)
                if up != sq and 0 < col < geo.width - 1:
                    assert steps[up][1] == sq, (geo.name(sq), flipped)


DIAGONALS = {"home": (-1, 1), "pageup": (1, 1), "end": (-1, -1), "pagedown": (1, -1)}


@pytest.mark.parametrize("variant", ["russian", "international", "canadian", "turkish"])
async def test_home_pgup_end_pgdn_step_along_the_diagonals(home: Path, variant: str) -> None:
    """From b2, PgUp goes to c3 and Home to a3 in one key (issue 49: Up always went to
    a3); each of the four keys is one diagonal step as seen on screen, on every board
    size, flipped too, and where men move straight (Turkish); at an edge it stays."""
    app = make_app(home, variant=variant)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = game_screen(app)
        board = screen.board
        geo = screen.controller.variant.board
        board.focus()
        board.cursor = geo.parse_square("b2")
        await press(pilot, "pageup")
        assert geo.name(board.cursor) == "c3"
        await press(pilot, "home")
        assert geo.name(board.cursor) == "b4"
        await press(pilot, "end", "pagedown")
        assert geo.name(board.cursor) == "b2"
        for flipped in (False, True):
            board.flipped = flipped
            up = -1 if flipped else 1  # the screen's up is down the board when flipped
            for sq in geo.squares:
                f, r = geo.file_of[sq], geo.rank_of[sq]
                for key, (dx, dy) in DIAGONALS.items():
                    board.cursor = sq
                    await press(pilot, key)
                    tf, tr = f + dx * up, r + dy * up
                    inside = 0 <= tf < geo.width and 0 <= tr < geo.height
                    want = geo.at(tf, tr) if inside and geo.playable(tf, tr) else sq
                    assert board.cursor == want, (geo.name(sq), key, flipped)
                if sq > 12:  # a sample of squares (every key, both sides, keeps it quick)
                    break


async def test_the_cell_size_follows_the_terminal(home: Path) -> None:
    app = make_app(home, variant="international")
    async with app.run_test(size=(100, 32)) as pilot:
        board = game_screen(app).board
        for size, cell in (
            ((80, 24), (5, 2)),
            ((100, 36), (5, 2)),
            ((200, 60), (9, 4)),
            ((140, 40), (7, 3)),
            ((40, 14), (3, 1)),
        ):
            await pilot.resize_terminal(*size)
            await settle(pilot)  # the side panel fitted to the new width, then the board
            layout = board.board_layout()
            assert layout is not None and (layout.cell_w, layout.cell_h) == cell, size
        # the smallest cells still take clicks
        await clicks_play(pilot, "32", "28")
        assert game_screen(app).controller.move_list() == ["32-28"]


async def test_every_square_is_found_under_its_cell(home: Path) -> None:
    app = make_app(home, variant="international")
    async with app.run_test(size=(100, 32)) as pilot:
        board = game_screen(app).board
        geo = game_screen(app).controller.variant.board
        for sq in geo.squares:
            x, y = cell_offset(board, sq)
            strip = board.render_line(y)
            metas = {seg.style.meta.get("sq") for seg in strip.crop(x, x + 1) if seg.style}
            assert metas == {sq}, geo.name(sq)
        # a click on a light square or the margin selects nothing
        await pilot.click(BoardWidget, offset=(0, 0))
        assert game_screen(app).controller.selection.square is None
