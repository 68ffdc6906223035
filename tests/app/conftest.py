"""Helpers for driving the app headless: a private home, keys, square names to keys and
clicks, and waiting for the app's states.

Every test gets its own ``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` (the ``home`` fixture),
so no test reads or writes the user's real settings, autosave or saved games.

Only Textual's public API is used: ``run_test`` and its pilot, ``post_message`` and
``call_later``, the widgets' public attributes, and accessors of the app's own
(``ShashkiApp.notices``, ``LocalFooter.entries``, ``Select.choices``…). A test waits for
a state (:func:`wait_for`, :func:`settle`), never for a time nor for the process to look
idle: Textual's ``pilot.pause()`` and ``pilot.press()`` wait until the process spends
little CPU time, which a computer thinking in a thread never does (a second a look) and a
loaded machine fakes; :func:`press` and :func:`settle` wait for the app to have handled
what it was sent instead.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.keys import KEY_NAME_REPLACEMENTS, key_to_character
from textual.message_pump import MessagePump
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from shashki.app.app import ShashkiApp, load_settings, use_language
from shashki.app.board import BoardWidget
from shashki.app.dialogs import GameOverScreen
from shashki.app.game_screen import GameScreen
from shashki.app.launch import PlayRequest, ReplayRequest
from shashki.app.widgets import FooterEntry, LocalFooter
from shashki.records.clocks import TimeControl

from .. import waiting
from ..waiting import until

#: Black c5 has two capture routes to g1: c5:e3:g1 and c5:a3:c1:e3:g1.
TWO_ROUTES = "B:Wg5,b4,d4,g3,b2,d2,f2,h2:Ba7,e7,g7,b6,a5,c5"

#: How long a test waits for the app to reach a state before it fails.
WAIT = waiting.WAIT

#: Arrow keys and the display step each one asks for.
ARROWS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private data and config folder for the app (never the user's own)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


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
    # the language, as the entry point chooses it: ``language`` (--lang), else the file's
    path = home / "settings.json"
    settings = load_settings(path)
    use_language(kwargs.pop("language", None), settings)
    app = ShashkiApp(settings_path=path, settings=settings, **kwargs)
    app.animation_level = "none"
    return app


def ended(app: App[Any]) -> str | None:
    """Why ``app`` can reach no state any more (it failed, or it ended and stopped), or
    None (while it quits, it still runs)."""
    code = app.return_code
    if code == 1:
        return "the app failed"
    if code is not None and not app.is_running:
        return f"the app ended (return code {code})"
    return None


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

    Between two looks the app handles what it was sent (:func:`handled`), and the loop
    runs for ``step`` seconds when given (a state a thread brings about: the computer's
    search, a file read)."""
    app = pilot.app

    async def between() -> None:
        await handled(pilot)
        await asyncio.sleep(waiting.STEP if step is None else step)

    await until(condition, what, timeout=timeout, between=between, gone=lambda: ended(app))


async def screen_made(pilot: Pilot[None], kind: type[Screen[Any]], what: str = "") -> None:
    """Wait until the app's screen is a ``kind`` and made (mounted): a screen is on the
    stack before its widgets are, and a test that reads one then finds none."""
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, kind) and app.screen.is_mounted,
        what or f"the {kind.__name__} made",
    )


def pumps(app: App[Any]) -> list[MessagePump]:
    """The app, its screens and every widget of them: all that takes messages."""
    found: list[MessagePump] = [app]
    for screen in app.screen_stack:
        found.extend(screen.walk_children(with_self=True))
    return found


def quiet(app: App[Any]) -> bool:
    """Whether the app has nothing left to handle: no message waits in its queue nor in
    that of any screen or widget."""
    return all(pump.message_queue_size == 0 for pump in pumps(app))


def busy(app: App[Any]) -> list[MessagePump]:
    """What may still be handling a message: the app, the screen on top and its widgets
    (a key's handler may be running in any of them), and any other that has a message
    waiting."""
    found: dict[int, MessagePump] = {id(app): app}
    try:
        found.update((id(node), node) for node in app.screen.walk_children(with_self=True))
    except Exception:  # (no screen: the app starting or ending)
        pass
    found.update((id(pump), pump) for pump in pumps(app) if pump.message_queue_size)
    return list(found.values())


async def handled(pilot: Pilot[None]) -> None:
    """Let the app handle every message sent to it so far: each screen and widget that
    may be busy (:func:`busy`) is asked to call back once it has (``call_later`` queues
    the call behind the messages waiting), and this returns when all of them have, or
    are gone (a screen closed meanwhile), or the app has ended."""
    app = pilot.app
    waiting_for: dict[int, MessagePump] = {}
    all_called = asyncio.Event()

    def called(pump: MessagePump) -> None:
        waiting_for.pop(id(pump), None)
        if not waiting_for:
            all_called.set()

    for pump in busy(app):
        if pump.call_later(called, pump):
            waiting_for[id(pump)] = pump
    if not waiting_for:
        return
    deadline = time.monotonic() + WAIT
    while waiting_for and app.return_code is None:
        try:
            await asyncio.wait_for(all_called.wait(), timeout=0.05)
        except TimeoutError:
            for key, pump in list(waiting_for.items()):
                if not pump.is_running:  # closed before it came to the call
                    del waiting_for[key]
            if time.monotonic() > deadline:
                raise AssertionError(f"the app did not handle its messages in {WAIT:g} s") from None


#: Looks after which :func:`settle` takes one quiet look for enough: a timer that ticks
#: (a clock, a blinking cursor, the palette's search) can keep some queue from being empty
#: at two looks in a row for good.
LOOKS_FOR_TWO = 10


async def settle(pilot: Pilot[None]) -> None:
    """Let the app handle everything sent to it (a key or a burst of keys, and all that
    they set off: screens pushed and mounted, the messages they send), however long that
    takes: until it is quiet at two looks in a row, each look after the app has handled
    what was waiting (:func:`handled`); after :data:`LOOKS_FOR_TWO` looks, at one. An app
    that has ended has nothing more to handle."""
    calm = looks = 0

    def done() -> bool:
        nonlocal calm, looks
        if pilot.app.return_code is not None:
            return True  # ended: what is left is its teardown
        looks += 1
        calm = calm + 1 if quiet(pilot.app) else 0
        return calm >= 2 or (calm >= 1 and looks > LOOKS_FOR_TWO)

    await handled(pilot)
    await until(done, "the app handling all it was sent", between=lambda: handled(pilot))


def key_event(key: str) -> events.Key:
    """The event of ``key``, a key's name (``"enter"``, ``"ctrl+p"``, ``"colon"``) or a
    character typed (``":"``, ``"a"``), as a terminal sends it."""
    if len(key) == 1 and not key.isalnum():
        name = unicodedata.name(key, key).lower().replace("-", "_").replace(" ", "_")
        return events.Key(KEY_NAME_REPLACEMENTS.get(name, name), key)
    return events.Key(key, key_to_character(key))


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Press ``keys`` one after another, as ``pilot.press`` does, each handled by the app
    (and all it sets off) before the next."""
    for key in keys:
        pilot.app.post_message(key_event(key))
        await settle(pilot)


def burst(pilot: Pilot[None], *keys: str) -> None:
    """Queue ``keys`` all at once (the app is not given a turn between them), as a paste
    or a terminal multiplexer sends them."""
    for key in keys:
        pilot.app.post_message(key_event(key))


def footer_entries(screen: Screen[Any]) -> list[FooterEntry]:
    """The keys in the footer of ``screen`` (none without one), as drawn."""
    return [entry for footer in screen.query(LocalFooter) for entry in footer.entries()]


def footer_keys(screen: Screen[Any]) -> list[str]:
    """The names of the keys in the footer of ``screen``, as shown."""
    return [entry.description for entry in footer_entries(screen)]


async def footer_shows(pilot: Pilot[None], *names: str, screen: Screen[Any] | None = None) -> None:
    """Wait until the footer (of ``screen``, else of the screen on top) names every key in
    ``names``: the footer is made again a refresh after the keys change (a language, a
    screen), later than the app has handled the keys that changed them."""

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
        await press(pilot, *keys)
    assert board.cursor == target, f"cursor on {board.cursor}, not on {name}"


async def keys_play(pilot: Pilot[None], *names: str) -> None:
    """Walk the cursor to each square in turn and press Enter on it."""
    for name in names:
        await cursor_to(pilot, name)
        await press(pilot, "enter")
    await settle(pilot)


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
    await settle(pilot)
    app = pilot.app
    board = game_screen(app).board  # type: ignore[arg-type]
    await pilot.click(BoardWidget, offset=cell_offset(board, square(app, name)))  # type: ignore[arg-type]
    await settle(pilot)


async def clicks_play(pilot: Pilot[None], *names: str) -> None:
    for name in names:
        await click_square(pilot, name)


async def game_over_text(pilot: Pilot[None]) -> str:
    """The sentence of the game-over dialog (which must be on top)."""
    await settle(pilot)
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
        await settle(pilot)
        widget = pilot.app.screen.query_one(selector)
        before = widget.region
        await settle(pilot)
        if widget.region != before or not widget.region:
            continue
        if await pilot.click(selector):
            await settle(pilot)
            return
    raise AssertionError(f"{selector} could not be clicked in {tries} tries")
