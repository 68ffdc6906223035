"""The README's picture: the app itself, headless, takes a screenshot of a game.

    python tools/screenshot.py                      # docs/screenshot.svg
    python tools/screenshot.py --out shot.svg --size 110x32

A game of Russian draughts between two people is started in a private home (no settings,
games or autosaves of yours are read or written), a few moves are typed in the move box
as a player types them (``:``, the move, Enter), and Textual's own ``export_screenshot``
writes the screen as SVG. The same moves and size give the same picture; run it again
after a change to the game screen. ``tests/test_screenshot.py`` makes one to check that
the script still works.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

#: The moves played before the picture is taken (an opening of Russian draughts).
MOVES = ["c3-d4", "f6-g5", "g3-f4", "g7-f6", "b2-c3", "h8-g7", "a1-b2"]

#: Columns and rows of the terminal drawn.
SIZE = (100, 30)

#: Seconds the app may take to show the game or a move before the script gives up.
WAIT = 60.0


async def take(out: Path, size: tuple[int, int] = SIZE, moves: list[str] = MOVES) -> None:
    """Play ``moves`` in a fresh app of ``size`` and write its screen to ``out``."""
    from shashki.app.app import ShashkiApp
    from shashki.app.game_screen import GameScreen
    from shashki.app.launch import PlayRequest
    from shashki.i18n import set_language

    set_language("en")  # (the picture in English, whatever the settings say)
    app = ShashkiApp(start=PlayRequest("russian"), autosave=False, offer_resume=False)
    app.animation_level = "none"  # (no blinking cursor caught half-way)
    async with app.run_test(size=size) as pilot:

        async def until(condition: object, what: str) -> None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT
            while not callable(condition) or not condition():
                if loop.time() > deadline:
                    raise SystemExit(f"screenshot: {what} did not come in {WAIT:g} s")
                await pilot.pause()

        def game() -> GameScreen | None:
            screen = app.screen
            return screen if isinstance(screen, GameScreen) and screen.is_mounted else None

        await until(game, "the game")
        screen = game()
        assert screen is not None
        for number, move in enumerate(moves, 1):
            await pilot.press("colon", *move, "enter")
            await until(lambda n=number: len(screen.controller.game.move_stack) == n, move)
        await pilot.press("escape")  # (the move box closed, the board focused)
        await pilot.pause()
        out.write_text(app.export_screenshot(title="shashki"), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.svg")
    parser.add_argument("--size", default=f"{SIZE[0]}x{SIZE[1]}", help="COLUMNSxROWS")
    args = parser.parse_args(argv)
    try:
        columns, rows = (int(n) for n in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size: COLUMNSxROWS, not {args.size!r}")
    with tempfile.TemporaryDirectory(prefix="shashki-screenshot-") as home:
        # a home of its own: nothing of the user's is read or written
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            os.environ[name] = str(Path(home) / name.lower())
        os.environ.pop("NO_COLOR", None)
        asyncio.run(take(args.out, (columns, rows)))
    print(f"screenshot: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
