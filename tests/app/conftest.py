"""Helpers for driving the app headless: a private home, square names to keys and clicks.

Every test gets its own ``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` (the ``home`` fixture),
so no test reads or writes the user's real settings, autosave or saved games.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import textual.app
import textual.pilot
from textual._context import active_app
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from shashki.app.app import ShashkiApp
from shashki.app.board import BoardWidget
from shashki.app.dialogs import GameOverScreen
from shashki.app.game_screen import GameScreen
from shashki.app.launch import PlayRequest, ReplayRequest
from shashki.records.clocks import TimeControl

from .. import waiting
from ..waiting import until

#: Black c5 has two capture routes to g1: c5:e3:g1 and c5:a3:c1:e3:g1.
TWO_ROUTES = "B:Wg5,b4,d4,g3,b2,d2,f2,h2:Ba7,e7,g7,b6,a5,c5"

#: How long a test waits for the app to reach a state before it fails.
WAIT = waiting.WAIT

#: The longest a pause looks for the whole process to fall idle (Textual's look, which a
#: thinking computer keeps busy): the test's waits for a state decide, not this look.
IDLE_LOOK = 0.1
#: The step of that look: Textual's own, a fiftieth of a second, made every key a test
#: presses cost two steps of sleep at least (a tenth of the app tests' time).
IDLE_STEP = 0.004
#: How long that look waits for the app to have handled every message it was sent (on a
#: loaded machine the process looks idle while it waits for a core).
QUIET_LOOK = 2.0

#: Arrow keys and the display step each one asks for.
ARROWS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private data and config folder for the app (never the user's own)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


@pytest.fixture(autouse=True)
def _pause_until_handled(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pilot.pause()`` returns only once the app has handled all it was sent (at most
    :data:`WAIT` seconds of looks), not as soon as it looks idle.

    Textual's pause waits for the screen to be idle, which on a loaded machine it can
    look before a key's handler, a pushed screen or a refresh has run: a test that
    asserted right after a pause then read the state before it (issue 23). When the app
    never falls quiet (a computer that keeps moving) the pause gives up silently after
    the bound and the test's own waits decide. A pause with a delay is left as it is.

    Textual's own pause also waits, for up to a second, until the whole process looks
    idle (under a millisecond of CPU time in a fiftieth of a second): with the computer
    thinking in a thread it never does, and the key storms spent half their time in
    those looks. The look is bounded here by :data:`IDLE_LOOK`: the wait for the app to
    be quiet above, and each test's wait for its state, decide. It is also made in
    steps of :data:`IDLE_STEP` rather than Textual's fiftieth of a second, also the look
    after each key a test presses (two of them a key): those steps of sleep were about a
    third of the app tests' time. A look is not over while a message waits in the app
    (for at most :data:`QUIET_LOOK` seconds): on a loaded machine the process can look
    idle while it only waits for a core."""
    real = Pilot.pause

    async def idle(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
        # Textual's look, in steps of IDLE_STEP instead of a fiftieth of a second, and
        # not over while a message waits in the app (at most QUIET_LOOK seconds)
        start = time.monotonic()
        bound = min(max_sleep, IDLE_LOOK)
        while True:
            cpu = time.process_time()
            await asyncio.sleep(IDLE_STEP)
            busy = time.process_time() - cpu
            elapsed = time.monotonic() - start
            if elapsed < QUIET_LOOK and not _app_quiet():
                continue
            if elapsed >= bound or (elapsed > min_sleep and busy < IDLE_STEP / 20):
                return

    # (the pilot's pause, and the app's own look after each key a test presses)
    monkeypatch.setattr(textual.pilot, "wait_for_idle", idle)
    monkeypatch.setattr(textual.app, "wait_for_idle", idle)

    async def pause(self: Pilot[Any], delay: float | None = None) -> None:
        await real(self, delay)
        if delay is not None:
            return
        deadline = time.monotonic() + WAIT
        app = self.app
        while not quiet(app) and time.monotonic() < deadline:
            if app._exception is not None or app._exit or not app.is_running:
                return  # failed, or ending: what is left to handle is the app's teardown
            await real(self)

    monkeypatch.setattr(Pilot, "pause", pause)


def _app_quiet() -> bool:
    """Whether the app under test (none: yes) has nothing left to handle."""
    try:
        app = active_app.get()
    except LookupError:
        return True
    try:
        return quiet(app)
    except Exception:  # (an app that is not running, or its screens being taken down)
        return True


def notes(app: App[Any]) -> list[str]:
    """The notifications the app has raised so far, oldest first, as shown: kept the
    moment each is raised (``ShashkiApp.notices``), where Textual's toasts show one only
    once the app has handled its message and drop it when its time is up."""
    assert isinstance(app, ShashkiApp)
    return list(app.notices)


def make_app(
    home: Path,
    *,
    variant: str | None = None,
    fen: str | None = None,
    kinds: tuple[str, str] = ("human", "human"),
    seed: int | None = None,
    clock: TimeControl | None = None,
    replay: str | Path | None = None,
    game_number: int | None = None,
    default_variant: str | None = None,
    **kwargs: Any,
) -> ShashkiApp:
    """The app with a settings file in ``home``; no autosave and no resume offer unless
    asked.  ``variant`` (with ``fen``, ``kinds``, ``seed``, ``clock``) opens a game at once,
    as ``shashki play`` does; ``replay`` (with ``game_number``, ``default_variant``) a
    file, as ``shashki replay`` does.

    Its animations are off (Textual's ``animation_level``): a button then shows no pressed
    look, during which Textual ignores another press of it (a fifth of a second) — a test
    that pressed the same button twice (a value refused, corrected, Play again) lost the
    second press when its steps came faster than that, and went on as if it had been made."""
    kwargs.setdefault("autosave", False)
    kwargs.setdefault("offer_resume", False)
    if variant is not None:
        kwargs["start"] = PlayRequest(variant, fen=fen, kinds=kinds, seed=seed, clock=clock)
    elif replay is not None:
        kwargs["start"] = ReplayRequest(Path(replay), game_number, default_variant)
    app = ShashkiApp(settings_path=home / "settings.json", **kwargs)
    app.animation_level = "none"
    return app


def ended(app: App[Any]) -> str | None:
    """Why ``app`` can reach no state any more (it ended, or failed), or None."""
    code = app.return_code
    if code is None:
        return None
    return "the app failed" if code == 1 else f"the app ended (return code {code})"


async def wait_for(
    pilot: Pilot[None],
    condition: Callable[[], object],
    what: str = "",
    *,
    timeout: float = WAIT,
    step: float | None = None,
) -> None:
    """Let the app run until ``condition()`` holds (``what`` it is, for the failure), at
    most ``timeout`` seconds (:func:`tests.waiting.until`).

    Between two looks the app runs a ``pilot.pause()``, or ``step`` seconds when given:
    while the computer keeps moving, the move list changes faster than the pilot's wait
    for every widget to be idle settles."""
    app = pilot.app
    await until(
        condition,
        what,
        timeout=timeout,
        between=pilot.pause if step is None else (lambda: asyncio.sleep(step)),
        gone=lambda: ended(app),
    )


async def screen_made(pilot: Pilot[None], kind: type[Screen[Any]], what: str = "") -> None:
    """Wait until the app's screen is a ``kind`` and made (mounted): a screen is on the
    stack before its widgets are, and a test that reads one then finds none."""
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, kind) and app.screen.is_mounted,
        what or f"the {kind.__name__} made",
    )


def quiet(app: App[Any]) -> bool:
    """Whether the app has nothing left to handle: no message waits in its queue nor in
    that of any widget of its screens."""
    pumps = [app, *(node for screen in app.screen_stack for node in screen.walk_children())]
    pumps += app.screen_stack
    return all(pump._message_queue.empty() and not pump._next_callbacks for pump in pumps)


async def settle(pilot: Pilot[None]) -> None:
    """Let the app handle everything sent to it (a burst of keys, and all that they set
    off), however long that takes: until it is quiet at two looks in a row."""
    calm = 0

    def twice() -> bool:
        nonlocal calm
        calm = calm + 1 if quiet(pilot.app) else 0
        return calm >= 2

    await wait_for(pilot, twice, "the app handling all it was sent")


def footer_keys(screen: Screen[Any]) -> list[str]:
    """The names of the keys in the footer of ``screen``, as shown."""
    return [key.description for key in screen.query(FooterKey)]


async def footer_shows(pilot: Pilot[None], *names: str, screen: Screen[Any] | None = None) -> None:
    """Wait until the footer (of ``screen``, else of the screen on top) names every key in
    ``names``: the footer is made again a refresh after the keys change (a language, a
    screen), later than a ``pilot.pause()`` on a loaded machine."""

    def shown() -> bool:
        keys = footer_keys(screen or pilot.app.screen)
        return all(name in keys for name in names)

    await wait_for(pilot, shown, f"the footer naming {names}")


def game_screen(app: ShashkiApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), f"expected the game screen, not {screen!r}"
    return screen


def square(app: ShashkiApp, name: str) -> int:
    return game_screen(app).controller.variant.board.parse_square(name)


def under(app: ShashkiApp) -> GameScreen:
    """The game screen, also when a dialog is shown above it."""
    screens = [s for s in app.screen_stack if isinstance(s, GameScreen)]
    assert screens, f"no game screen in {app.screen_stack!r}"
    return screens[-1]


def status(app: ShashkiApp) -> str:
    """The status line under the turn (refusals and hints)."""
    return str(under(app).query_one("#status", Static).content)


def panel(app: ShashkiApp, widget_id: str) -> str:
    return str(under(app).query_one(f"#{widget_id}", Static).content)


def _cursor_step(board: BoardWidget, start: int, dx: int, dy: int) -> int:
    """Where one arrow key takes the cursor from ``start`` (asked of the widget itself)."""
    saved = board.cursor
    board.set_reactive(BoardWidget.cursor, start)
    try:
        board.move_cursor(dx, dy)
        return board.cursor
    finally:
        board.set_reactive(BoardWidget.cursor, saved)


def key_path(board: BoardWidget, target: int) -> list[str]:
    """The shortest list of arrow keys that takes the board's cursor to ``target``."""
    start = board.cursor
    seen: dict[int, list[str]] = {start: []}
    queue: deque[int] = deque([start])
    while queue:
        here = queue.popleft()
        if here == target:
            return seen[here]
        for key, (dx, dy) in ARROWS.items():
            there = _cursor_step(board, here, dx, dy)
            if there not in seen:
                seen[there] = seen[here] + [key]
                queue.append(there)
    raise AssertionError(f"the arrow keys cannot reach square {target} from {start}")


async def cursor_to(pilot: Pilot[None], name: str) -> None:
    """Walk the board cursor to the square called ``name`` with arrow keys."""
    app = pilot.app
    board = game_screen(app).board  # type: ignore[arg-type]
    target = square(app, name)  # type: ignore[arg-type]
    keys = key_path(board, target)
    if keys:
        await pilot.press(*keys)
    assert board.cursor == target, f"cursor on {board.cursor}, not on {name}"


async def keys_play(pilot: Pilot[None], *names: str) -> None:
    """Walk the cursor to each square in turn and press Enter on it."""
    for name in names:
        await cursor_to(pilot, name)
        await pilot.press("enter")
    await pilot.pause()


def cell_offset(board: BoardWidget, sq: int) -> tuple[int, int]:
    """The widget offset of the middle of a square's cell."""
    layout = board.board_layout()
    assert layout is not None, "the board is not drawn (terminal too small?)"
    col, row = board.cell_of(sq)
    x = layout.left + 3 + col * layout.cell_w + layout.cell_w // 2
    y = layout.top + row * layout.cell_h + (layout.cell_h - 1) // 2
    return x, y


async def click_square(pilot: Pilot[None], name: str) -> None:
    """Click the middle of a square's cell (after the layout has settled)."""
    await pilot.pause()
    app = pilot.app
    board = game_screen(app).board  # type: ignore[arg-type]
    await pilot.click(BoardWidget, offset=cell_offset(board, square(app, name)))  # type: ignore[arg-type]
    await pilot.pause()


async def clicks_play(pilot: Pilot[None], *names: str) -> None:
    for name in names:
        await click_square(pilot, name)


async def game_over_text(pilot: Pilot[None]) -> str:
    """The sentence of the game-over dialog (which must be on top)."""
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, GameOverScreen), f"no game-over dialog, the screen is {screen!r}"
    return str(screen.query_one("#result", Static).content)


async def click_widget(pilot: Pilot[None], selector: str, tries: int = 5) -> None:
    """Click a widget of the current screen where it is drawn once its place has settled.

    ``pilot.click`` takes the widget's place before it lets the app run, so a click made
    while a dialog still lays itself out (a line shown or hidden, the wide layout after
    the first resize) can land beside it, most often on a loaded machine. The place is
    read again until two reads agree, and a click that did not land is made again."""
    for _ in range(tries):
        await pilot.pause()
        widget = pilot.app.screen.query_one(selector)
        before = widget.region
        await pilot.pause()
        if widget.region != before or not widget.region:
            continue
        if await pilot.click(selector):
            await pilot.pause()
            return
    raise AssertionError(f"{selector} could not be clicked in {tries} tries")
