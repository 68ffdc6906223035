"""The app in a real browser: ``shashki serve`` on a free port, the page opened in the
system's Chromium driven headless by Playwright's Python client; Russian picked from the
command palette, a game of Russian draughts started, three moves played by mouse clicks
on the board, and the board checked; the app is in served mode (its settings say so).

The terminal is drawn by xterm.js on a canvas, so the page's DOM holds no text: the test
reads what the app drew from the WebSocket's frames (recorded by a script put in the page
before it loads), and the game's state from the app's own files (the settings and the
autosave, in the test's own data folders).  Where to click is asked of the same app run
headless at the page's terminal size (the layout is the same: same size, same settings).
Every wait is for a state, bounded.  A screenshot of the page is left in the test's
folder and its path printed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shashki.rules import Game

from ..waiting import until, until_blocking

#: The system's Chromium (Debian's package); never a browser downloaded by Playwright.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The longest any one state is waited for (the app's start on a loaded machine is the
#: slowest: a few seconds when idle).
WAIT = 90.0

#: Put in the page before it loads: every frame the app sends is decoded and kept in
#: ``window.__drawn`` (the last megabyte or two), the terminal's output as text.
RECORDER = """
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  window.__drawn = "";
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (typeof event.data === "string") return;
        window.__drawn += decoder.decode(new Uint8Array(event.data), {stream: true});
        if (window.__drawn.length > 4000000) window.__drawn = window.__drawn.slice(-2000000);
      });
    }
  };
})();
"""

#: Escape sequences (colours, cursor moves, modes) between the words drawn.
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")

#: The three moves, a click on each square in turn (Russian draughts, no capture among them).
MOVES = ("c3", "d4", "f6", "g5", "g3", "h4")


def poll(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """``condition()``'s first true value, looked at until ``timeout`` seconds pass."""
    return until_blocking(condition, what, timeout=timeout, step=0.05)


@dataclass
class Served:
    url: str
    home: Path
    process: subprocess.Popen[bytes]

    @property
    def settings(self) -> dict[str, Any]:
        try:
            data = json.loads((self.home / "config" / "shashki" / "settings.json").read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def autosaved(self) -> list[Game]:
        """The games of the autosave folder, as written so far."""
        from shashki.store.autosaves import DamagedSave, check_autosave

        games = []
        for path in (self.home / "data" / "shashki" / "autosave").glob("*.pdn"):
            try:
                games.append(check_autosave(path.read_bytes()).end().replay())
            except (OSError, DamagedSave):
                continue  # (being replaced right now)
        return games


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """``shashki serve`` on a free port, its files in ``tmp_path``; stopped after."""
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.split("_")[1].lower())
    env.pop("SHASHKI_SERVED", None)
    port = _free_port()
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "shashki", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/"

    def answers() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"shashki serve ended: {(tmp_path / 'serve.log').read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    try:
        poll(answers, "the page served")
        yield Served(url, tmp_path, process)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)
        log.close()


class Page:
    """The page, and what the app drew on it as text."""

    def __init__(self, page: Any) -> None:
        self.page = page
        #: The terminal's size (columns, rows) as the page last told the app.
        self.size: tuple[int, int] | None = None
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        query = dict(re.findall(r"(width|height)=(\d+)", ws.url))
        if query:
            self.size = (int(query["width"]), int(query["height"]))

        def sent(payload: object) -> None:
            if isinstance(payload, str) and payload.startswith('["resize"'):
                data = json.loads(payload)[1]
                self.size = (int(data["width"]), int(data["height"]))

        ws.on("framesent", sent)

    async def drawn(self) -> str:
        """Everything the app drew so far, as text without escape sequences."""
        return ESCAPES.sub("", await self.page.evaluate("window.__drawn"))

    async def mark(self) -> int:
        return len(await self.page.evaluate("window.__drawn"))

    async def wait_drawn(self, words: str, since: int = 0, timeout: float = WAIT) -> None:
        """Wait until ``words`` are drawn (after the mark ``since``)."""
        text = ""

        async def read() -> None:
            nonlocal text
            await self.page.wait_for_timeout(50)
            raw = await self.page.evaluate("window.__drawn")
            text = ESCAPES.sub("", raw[since:])

        await read()
        first = words.split()[0]
        try:
            await until(lambda: words in text, timeout=timeout, between=read)
        except AssertionError:
            near = [line.strip() for line in text.splitlines() if first in line][:5]
            raise AssertionError(
                f"{words!r} not drawn in {timeout:g} s; lines with {first!r}: {near!r};"
                f" last drawn: {text[-600:]!r}"
            ) from None

    async def wait_for(self, condition: Callable[[], Any], what: str) -> Any:
        return await until(condition, what, between=lambda: self.page.wait_for_timeout(50))


async def square_cells(settings: Path, size: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """Where each square of ``MOVES`` is on the screen (column, row) in a game of Russian
    draughts: asked of the app run headless at ``size`` with the same settings."""
    from shashki.app.app import ShashkiApp
    from shashki.app.board import BoardWidget
    from shashki.app.game_screen import GameScreen
    from shashki.i18n import set_language

    from ..app.conftest import cell_offset, settle, wait_for

    twin = ShashkiApp(settings_path=settings, autosave=False, offer_resume=False)
    try:
        async with twin.run_test(size=size) as pilot:
            twin.start_game("russian")
            await wait_for(pilot, lambda: isinstance(twin.screen, GameScreen), "the game")
            await settle(pilot)
            board = twin.screen.query_one(BoardWidget)
            await wait_for(pilot, lambda: board.board_layout() is not None, "the board drawn")
            geo = board.controller.variant.board
            cells = {}
            for name in MOVES:
                x, y = cell_offset(board, geo.parse_square(name))
                cells[name] = (board.region.x + x, board.region.y + y)
            return cells
    finally:
        set_language("en")  # (the settings' language is this process's language too)


@pytest.fixture
def chromium() -> str:
    """The system's Chromium, or a skip saying what is missing (before anything starts)."""
    pytest.importorskip(
        "playwright.async_api", reason="Playwright's Python client is not installed"
    )
    found = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    if not found:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    return found


async def test_a_game_of_russian_draughts_in_chromium(
    chromium: str, served: Served, tmp_path: Path
) -> None:
    import playwright.async_api as api

    executable = chromium
    async with api.async_playwright() as playwright:
        try:
            context = await playwright.chromium.launch_persistent_context(
                str(tmp_path / "chromium-profile"),  # a fresh user-data-dir
                executable_path=executable,
                args=CHROMIUM_ARGS,
                headless=True,
                viewport={"width": 1280, "height": 800},
            )
        except api.Error as exc:
            pytest.skip(f"Chromium cannot start here: {str(exc).splitlines()[0]}")
        try:
            await _play_in(served, Page(context.pages[0]), tmp_path)
        finally:
            await context.close()


async def _play_in(served: Served, view: Page, tmp_path: Path) -> None:
    page = view.page
    await page.add_init_script(RECORDER)
    await page.goto(served.url)
    await view.wait_drawn("Russian draughts")  # the menu, in English
    await page.focus(".xterm-helper-textarea")  # (where xterm.js takes the keys typed)

    # Russian, picked from the command palette: the page speaks it, the settings keep it
    await page.keyboard.press("Control+p")
    await view.wait_drawn("Search for commands")
    mark = await view.mark()
    await page.keyboard.type("Русский")
    await view.wait_drawn("Language:", since=mark)  # the command listed
    await page.keyboard.press("Enter")
    await view.wait_for(lambda: served.settings.get("language") == "ru", "Russian chosen")
    await view.wait_drawn("Русские шашки", since=mark)  # the menu in Russian

    # a new game of Russian draughts (the second line of the menu), two people
    mark = await view.mark()
    # the card of Russian draughts drawn: the menu took the key (on a busy machine a key
    # sent while the command palette was closing was lost once, and Enter then opened the
    # first variant): a key lost is sent again, a key taken is not
    for attempt in range(3):
        await page.keyboard.press("ArrowDown")
        try:
            await view.wait_drawn("PDN GameType 25", since=mark, timeout=WAIT / 3)
            break
        except AssertionError:
            if attempt == 2:
                raise
    await page.keyboard.press("Enter")
    await view.wait_drawn("Новая партия: Русские шашки", since=mark)
    await view.wait_drawn("Играть", since=mark)
    await page.keyboard.press("F5")  # Play, from the first field that has the focus
    await view.wait_drawn("Ход белых", since=mark)  # the game's panel

    # the squares' places: the screen's cells from the twin, pixels from xterm's screen
    size = await view.wait_for(lambda: view.size, "the terminal's size")
    settings = tmp_path / "twin-settings.json"
    settings.write_text(json.dumps(served.settings), encoding="utf-8")
    cells = await square_cells(settings, size)
    box = await page.locator(".xterm-screen").bounding_box()
    assert box is not None, "no terminal on the page"
    width, height = box["width"] / size[0], box["height"] / size[1]

    expected = Game("russian")
    for ply in range(len(MOVES) // 2):
        for name in MOVES[2 * ply : 2 * ply + 2]:
            column, row = cells[name]
            await page.mouse.click(
                box["x"] + (column + 0.5) * width, box["y"] + (row + 0.5) * height
            )
        expected.push(expected.parse_move("-".join(MOVES[2 * ply : 2 * ply + 2])))

        def played(plies: int = ply + 1) -> list[Game]:
            return [g for g in served.autosaved() if len(g.move_stack) >= plies]

        await view.wait_for(played, f"move {ply + 1} autosaved")

    # the board: the autosaved game is the three moves clicked, and the page shows them
    (game,) = served.autosaved()
    assert game.fen() == expected.fen(), (game.fen(), expected.fen())
    assert [game.move_text(m) for m in game.move_stack] == ["c3-d4", "f6-g5", "g3-h4"]
    await view.wait_drawn("g3-h4")  # the move list on the page
    shot = tmp_path / "shashki-in-chromium.png"
    await page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")

    # the app runs in served mode: its settings say that the owner's are not changed here
    mark = await view.mark()
    await page.keyboard.press(",")
    await view.wait_drawn("веб-браузере", since=mark)
