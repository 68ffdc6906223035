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

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shashki.rules import Game

from ..waiting import until
from .conftest import WAIT, free_port, poll

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


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """``shashki serve`` on a free port, its files in ``tmp_path``; stopped after."""
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.split("_")[1].lower())
    env.pop("SHASHKI_SERVED", None)
    port = free_port()
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


#: The only name besides 127.0.0.1 the browser resolves (to 127.0.0.1: a name an
#: attacker's DNS would point here); every other name is not found, as offline.
REBOUND = "rebound.test"
RESOLVER = f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


@contextlib.asynccontextmanager
async def browser(executable: str, tmp_path: Path) -> AsyncIterator[Any]:
    """A page of a fresh headless Chromium that can reach 127.0.0.1 (and
    :data:`REBOUND`) only; a skip when it cannot start here."""
    import playwright.async_api as api

    async with api.async_playwright() as playwright:
        try:
            context = await playwright.chromium.launch_persistent_context(
                str(tmp_path / "chromium-profile"),  # a fresh user-data-dir
                executable_path=executable,
                args=[*CHROMIUM_ARGS, RESOLVER],
                headless=True,
                viewport={"width": 1280, "height": 1000},  # (the card of Russian draughts, whole)
            )
        except api.Error as exc:
            pytest.skip(f"Chromium cannot start here: {str(exc).splitlines()[0]}")
        try:
            yield context.pages[0]
        finally:
            await context.close()


async def test_a_game_of_russian_draughts_in_chromium(
    chromium: str, served: Served, tmp_path: Path
) -> None:
    async with browser(chromium, tmp_path) as page:
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        await _play_in(served, Page(page), tmp_path)
        # the page drew with its own font, and asked nothing of any other server (this
        # browser reaches no other: the page drew as it would offline)
        assert await page.evaluate("document.fonts.check('16px \"Roboto Mono\"')")
        fonts = await page.evaluate(
            "[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
        )
        assert any("Roboto Mono" in family for family in fonts), fonts
        origin = served.url.rstrip("/")
        elsewhere = [url for url in asked if not url.startswith((origin + "/", "data:"))]
        assert not elsewhere, elsewhere


#: A page of another site: it tries to open the app's socket, and to show the app in a
#: frame (where a click would be the visitor's).
HOSTILE = """<!DOCTYPE html><html><body><script>
window.result = "pending";
const ws = new WebSocket("ws://127.0.0.1:PORT/ws?width=80&height=24");
ws.onopen = () => { window.result = "opened"; };
ws.onerror = () => { if (window.result === "pending") window.result = "refused"; };
ws.onclose = () => { if (window.result === "pending") window.result = "closed"; };
</script><iframe id="app" src="http://127.0.0.1:PORT/" width="800" height="600"></iframe>
</body></html>"""


@contextlib.contextmanager
def hostile_site(port: int) -> Iterator[str]:
    """A web server of its own on another port of this machine, serving
    :data:`HOSTILE` aimed at ``port``; its address."""
    import http.server
    import threading

    body = HOSTILE.replace("PORT", str(port)).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


async def test_a_page_of_another_origin_cannot_drive_the_app(
    chromium: str, served: Served, tmp_path: Path
) -> None:
    """The owner, with ``shashki serve`` running, opens a page of another site (here
    another port of this machine): its script cannot open the app's socket, its frame
    cannot show the app, and no app starts; a name rebound to 127.0.0.1 (DNS
    rebinding) gets neither the page nor the socket."""
    port = int(served.url.rstrip("/").rsplit(":", 1)[1])
    async with browser(chromium, tmp_path) as page:
        view = Page(page)
        with hostile_site(port) as address:
            await page.goto(address)

            result = "pending"

            async def look() -> None:
                nonlocal result
                await page.wait_for_timeout(50)
                result = str(await page.evaluate("window.result"))

            await until(lambda: result != "pending", "the socket's end", between=look)
            assert result in ("refused", "closed"), result
            (frame,) = [f for f in page.frames if f is not page.main_frame]
            assert not frame.url.startswith(served.url), frame.url  # (not shown)
        response = await page.goto(f"http://{REBOUND}:{port}/")
        assert response is not None and response.status == 403
        opened = await page.evaluate(
            f"""new Promise(done => {{
                const ws = new WebSocket("ws://{REBOUND}:{port}/ws");
                ws.onopen = () => done("opened");
                ws.onerror = () => done("refused");
            }})"""
        )
        assert opened == "refused"
        await view.page.screenshot(path=str(tmp_path / "rebound.png"))
    assert served.process.poll() is None
    assert "came" not in (served.home / "serve.log").read_text(), "an app was started"


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
