"""The rough edges of issue 14, each seen on screen once: the cursor, focus, wording, the
move box, the move list, the pieces, the smallest terminal, the replay and the palette."""

from __future__ import annotations

from pathlib import Path

from .conftest import game_screen, make_app, square


async def test_up_goes_straight_up_without_drifting(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = game_screen(app)
        board, geo = screen.board, screen.controller.variant.board
        board.cursor = square(app, "e3")
        seen = []
        for _ in range(4):
            await pilot.press("up")
            seen.append(geo.name(board.cursor))
        assert seen == ["f4", "e5", "f6", "e7"]
        for _ in range(4):
            await pilot.press("down")
        assert geo.name(board.cursor) == "e3"
        await pilot.press("left", "left")
        assert geo.name(board.cursor) == "a3"
        await pilot.press("left")
        assert geo.name(board.cursor) == "a3"


async def test_the_help_says_how_the_arrows_move(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        from textual.widgets import Markdown

        text = "".join(m.source for m in app.screen.query(Markdown))
        assert "up, down, left or right to the nearest playable square" in text
