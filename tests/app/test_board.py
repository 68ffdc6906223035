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
