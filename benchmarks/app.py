#!/usr/bin/env python
"""App benchmark: the time from launch to the menu, and from a key press to the redrawn board.

Run it from the project root::

    python benchmarks/app.py              # 10 runs of each launch, 40 moves per board
    python benchmarks/app.py --runs 5 --moves 20
    python benchmarks/app.py --no-pty     # headless figures only
    python benchmarks/app.py --table-only --table-runs 3   # section 5 alone
    python benchmarks/app.py --clock-only --moves 20       # section 6 alone

Six sections, each with the median and the worst of its runs:

1. **launch to menu, real terminal**: ``python -m shashki`` started in a pseudo-terminal
   (100x32, ``TERM=xterm-256color``); the clock runs from the spawn until the menu's text
   ("Russian draughts") has been written to the terminal.  This is what a user waits for:
   interpreter start, imports, app construction and the first frame.  Then Ctrl+Q.
2. **launch to menu, headless**: in this process (imports warm), from constructing
   ``ShashkiApp`` to the first line of the variant list painted, under ``App.run_test``.
3. **key press to redrawn board, headless**: a game played by keys (arrows to the square,
   then Enter), on 8x8 and 10x10; from sending the key to the last line of the board
   painted for it.  Selecting a piece, playing a move, and an arrow key are timed apart.
   The ``cpu`` column is this process's CPU time for the same key (less disturbed by the
   other work of a shared machine); a key bound to nothing shows what the test driver
   alone costs, to subtract.
4. **key press to redrawn board, real terminal**: the same keys sent to
   ``python -m shashki play russian`` in a pseudo-terminal; from writing Enter to the
   last byte of the screen update (the output is read until it has been quiet 150 ms).
5. **opening the largest game file**: the largest file of ``../shared/corpora/pdn`` (by
   size) opened in the replay's game table, read as the file says (PDN's default variant
   when it names none) and as its folder's variant; from constructing ``ShashkiApp`` (or,
   in a real terminal, from spawning ``python -m shashki replay FILE``) to the first rows
   of the table shown, and to the whole file read into the table; "table open to rows"
   runs from the table screen's mount (the file opened from a running app's menu).
   Goal: first rows under 1 s.  Skipped where ``../shared`` is absent.
6. **clocks running**: a game on a 5+3 clock.  Key press to redrawn board, headless, as
   in section 3 while the side to move's clock ticks; the board's repaints while nothing
   happens but the clock (a ticking clock repaints its own line, so: none); and the CPU
   used while idle with the clock running, in this process headless and by
   ``python -m shashki play russian --clock 5+3`` in a pseudo-terminal (its own CPU
   time from ``/proc``, beside the same game without a clock).  Goals: under 50 ms a
   key, under 5 % of one core idle.

Goals on the development machine: under 1 s to the menu, under 50 ms per move redraw.
A shared machine drifts, so read the median; nothing here asserts on time.  Settings,
autosave and saved games go to a temporary folder, never the user's own.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SIZE = (100, 32)
MENU_TEXT = "Russian draughts"
ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>NOM78]"
)


def figures(
    label: str, values: list[float], goal: float | None = None, cpu: list[float] | None = None
) -> None:
    """Print the median and the worst of ``values`` (seconds) in milliseconds, and the
    median of ``cpu`` (this process's CPU time for the same runs) when given."""
    if not values:
        print(f"  {label:<40} (no figures)")
        return
    med, worst = statistics.median(values), max(values)
    extra = f"   cpu {statistics.median(cpu) * 1000:6.1f} ms" if cpu else ""
    note = ""
    if goal is not None:
        note = f"   goal < {goal * 1000:.0f} ms: {'met' if med < goal else 'NOT met'}"
    print(
        f"  {label:<40} median {med * 1000:7.1f} ms   worst {worst * 1000:7.1f} ms"
        f"{extra}   n={len(values)}{note}"
    )


def private_env(folder: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        XDG_DATA_HOME=os.path.join(folder, "data"),
        XDG_CONFIG_HOME=os.path.join(folder, "config"),
        TERM="xterm-256color",
        COLORTERM="truecolor",
    )
    env.pop("NO_COLOR", None)
    env.pop("TEXTUAL", None)
    return env


# -- a pseudo-terminal ----------------------------------------------------------------------


class Terminal:
    """A child process in a pseudo-terminal of a fixed size."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = SIZE) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True
        )
        os.close(slave)
        self.output = bytearray()

    def read(self, timeout: float) -> tuple[bytes, float]:
        """What arrives within ``timeout`` seconds, and the time of its last byte."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b"", 0.0
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return b"", 0.0
        self.output += data
        return data, time.perf_counter()

    def wait_for_text(self, text: str, timeout: float = 30.0) -> float:
        """Read until ``text`` shows in the screen output; the time it arrived."""
        end = time.perf_counter() + timeout
        needle = text.encode()
        while time.perf_counter() < end:
            data, when = self.read(0.5)
            if data and needle in ANSI.sub(b"", bytes(self.output)).replace(b"\r", b"").replace(
                b"\n", b""
            ):
                return when
            if self.proc.poll() is not None:
                break
        tail = ANSI.sub(b"", bytes(self.output[-400:])).decode(errors="replace")
        raise RuntimeError(f"{text!r} never appeared; the output ended with {tail!r}")

    def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> float:
        """Read until the output has been quiet for ``quiet`` seconds; the last byte's time."""
        last = 0.0
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            data, when = self.read(quiet)
            if not data:
                return last
            last = when
        return last

    def send(self, keys: bytes) -> float:
        sent = time.perf_counter()
        os.write(self.master, keys)
        return sent

    def close(self) -> None:
        try:
            os.write(self.master, b"\x11")  # Ctrl+Q
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            os.close(self.master)


KEY_BYTES = {
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "enter": b"\r",
}


def launch_real(runs: int) -> list[float]:
    times: list[float] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            term = Terminal([sys.executable, "-m", "shashki"], private_env(folder))
            try:
                shown = term.wait_for_text(MENU_TEXT)
                times.append(shown - term.started)
                term.settle(0.2)
            finally:
                term.close()
    return times


def moves_real(key_script: list[tuple[list[str], str]]) -> dict[str, list[float]]:
    """Replay (arrows, kind) steps in a real terminal: arrows untimed, then a timed Enter."""
    out: dict[str, list[float]] = {"select": [], "move": []}
    with tempfile.TemporaryDirectory() as folder:
        term = Terminal([sys.executable, "-m", "shashki", "play", "russian"], private_env(folder))
        try:
            term.wait_for_text("White to move")
            term.settle(0.3)
            for arrows, kind in key_script:
                if arrows:
                    term.send(b"".join(KEY_BYTES[k] for k in arrows))
                    term.settle()
                sent = term.send(KEY_BYTES["enter"])
                last = term.settle()
                if last:
                    out[kind].append(last - sent)
        finally:
            term.close()
    return out


# -- headless ------------------------------------------------------------------------------


def _arrow_path(board: Any, target: int) -> list[str]:
    """The fewest arrow keys that take the board's cursor to ``target`` (asked of the board)."""
    from collections import deque

    from shashki.app.board import BoardWidget

    steps = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}

    def step(start: int, dx: int, dy: int) -> int:
        saved = board.cursor
        board.set_reactive(BoardWidget.cursor, start)
        try:
            board.move_cursor(dx, dy)
            return int(board.cursor)
        finally:
            board.set_reactive(BoardWidget.cursor, saved)

    start = board.cursor
    paths: dict[int, list[str]] = {start: []}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == target:
            return paths[here]
        for key, (dx, dy) in steps.items():
            there = step(here, dx, dy)
            if there not in paths:
                paths[there] = paths[here] + [key]
                queue.append(there)
    raise RuntimeError(f"square {target} cannot be reached by the arrow keys")


class PaintClock:
    """Records when a widget last painted a line."""

    def __init__(self, widget: Any) -> None:
        self.last = 0.0
        original: Callable[[int], Any] = widget.render_line

        def render_line(y: int) -> Any:
            strip = original(y)
            self.last = time.perf_counter()
            return strip

        widget.render_line = render_line


async def _menu_headless(folder: Path) -> float:
    from textual.widgets import OptionList

    from shashki.app.app import ShashkiApp

    painted: list[float] = []
    original = OptionList.render_line

    def render_line(self: OptionList, y: int) -> Any:
        if not painted:
            painted.append(time.perf_counter())
        return original(self, y)

    OptionList.render_line = render_line  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        app = ShashkiApp(settings_path=folder / "settings.json", autosave=False, offer_resume=False)
        async with app.run_test(size=SIZE) as pilot:
            while not painted:
                await pilot.pause(0.005)
    finally:
        OptionList.render_line = original  # type: ignore[method-assign]
    return painted[0] - start


async def _moves_headless(
    folder: Path,
    variant: str,
    plies: int,
    script: list[tuple[list[str], str]] | None,
    clock: Any = None,
) -> dict[str, list[float]]:
    from shashki.app.app import ShashkiApp
    from shashki.app.launch import PlayRequest

    out: dict[str, list[float]] = {name: [] for name in ("select", "move", "arrow", "none")}
    cpu: dict[str, list[float]] = {name: [] for name in out}
    app = ShashkiApp(
        start=PlayRequest(variant, clock=clock),
        settings_path=folder / "settings.json",
        autosave=False,
        offer_resume=False,
    )
    async with app.run_test(size=SIZE) as pilot:
        screen: Any = app.screen
        ctl, board = screen.controller, screen.board
        clock = PaintClock(board)
        await pilot.pause()

        async def timed(key: str, kind: str) -> None:
            clock.last = 0.0
            start, start_cpu = time.perf_counter(), time.process_time()
            await pilot.press(key)
            await pilot.pause()
            cpu[kind].append(time.process_time() - start_cpu)
            out[kind].append((clock.last or time.perf_counter()) - start)

        for _ in range(plies):
            if ctl.outcome is not None:
                break
            # a fixed, varied game: the legal move whose text sorts first after the ply number
            legal = sorted(ctl.legal, key=ctl.text)
            move = legal[len(ctl.game.move_stack) * 7 % len(legal)]
            for square, kind in ((move.start, "select"), (move.end, "move")):
                arrows = _arrow_path(board, square)
                if script is not None:
                    script.append((arrows, kind))
                for key in arrows:
                    await timed(key, "arrow")
                await timed("enter", kind)
            await timed("x", "none")  # a key bound to nothing: the cost of the test driver alone
            if ctl.selection.routes:  # two routes to one square: play the one on show
                await pilot.press("enter")
            assert ctl.game.move_stack[-1] == move, "the move played by keys is not the one meant"
    return {**out, **{f"{name} cpu": values for name, values in cpu.items()}}


# -- clocks running -------------------------------------------------------------------------


async def _idle_headless(folder: Path, seconds: float, clock: Any) -> tuple[float, int, int]:
    """A game left alone for ``seconds`` (its clock running when ``clock``): this
    process's CPU time over the wall time, the board's repaints and the clock lines'."""
    from shashki.app.app import ShashkiApp
    from shashki.app.launch import PlayRequest

    app = ShashkiApp(
        start=PlayRequest("russian", clock=clock),
        settings_path=folder / "settings.json",
        autosave=False,
        offer_resume=False,
    )
    async with app.run_test(size=SIZE) as pilot:
        screen: Any = app.screen
        await pilot.pause(0.5)
        board_paints = [0]
        seat_paints = [0]
        for widget, counter in [(screen.board, board_paints)] + [
            (seat, seat_paints) for seat in screen.seats
        ]:
            original = widget.render_line

            def render_line(y: int, original: Any = original, counter: list[int] = counter) -> Any:
                counter[0] += 1
                return original(y)

            widget.render_line = render_line
        start, start_cpu = time.perf_counter(), time.process_time()
        await pilot.pause(seconds)
        share = (time.process_time() - start_cpu) / (time.perf_counter() - start)
    return share, board_paints[0], seat_paints[0]


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_real(seconds: float, clock: str | None) -> tuple[float, float]:
    """``python -m shashki play russian`` (``--clock``) left alone in a pseudo-terminal:
    its CPU share of one core, and the bytes it wrote a second."""
    argv = [sys.executable, "-m", "shashki", "play", "russian"]
    if clock:
        argv += ["--clock", clock]
    with tempfile.TemporaryDirectory() as folder:
        term = Terminal(argv, private_env(folder))
        try:
            term.wait_for_text("White to move")
            term.settle(0.5)
            written = len(term.output)
            start, start_cpu = time.perf_counter(), _cpu_seconds(term.proc.pid)
            end = start + seconds
            while time.perf_counter() < end:
                term.read(max(0.0, end - time.perf_counter()))
            wall = time.perf_counter() - start
            share = (_cpu_seconds(term.proc.pid) - start_cpu) / wall
            return share, (len(term.output) - written) / wall
        finally:
            term.close()


def clock_section(folder: Path, plies: int, pty: bool, idle: float = 10.0) -> None:
    from shashki.records.clocks import TimeControl

    control = TimeControl.parse("5+3")
    result = asyncio.run(_moves_headless(folder, "russian", plies, None, clock=control))
    for kind, label in (
        ("move", "Enter plays a move"),
        ("select", "Enter selects a piece"),
        ("arrow", "an arrow moves the cursor"),
    ):
        figures(f"russian 5+3: {label}", result[kind], goal=0.05, cpu=result[f"{kind} cpu"])
    for clock, label in ((control, "clock running"), (None, "no clock")):
        share, board, seats = asyncio.run(_idle_headless(folder, idle, clock))
        print(
            f"  {'idle ' + f'{idle:g} s, headless, ' + label:<40} cpu {share * 100:5.1f} % "
            f"of one core   board repaints {board}   seat-line repaints {seats}"
        )
    if pty:
        for flag, label in (("5+3", "clock running"), (None, "no clock")):
            share, rate = idle_real(idle, flag)
            goal = "   goal < 5 %: " + ("met" if share < 0.05 else "NOT met") if flag else ""
            print(
                f"  {'idle ' + f'{idle:g} s, real terminal, ' + label:<40} cpu {share * 100:5.1f} %"
                f" of one core   {rate:6.0f} bytes/s written{goal}"
            )


# -- opening the largest game file: the replay's game table ---------------------------------

SHARED = Path(os.environ.get("SHASHKI_SHARED", ROOT.parent / "shared"))


def largest_game_file() -> Path | None:
    """The largest file (by size) under ../shared/corpora/pdn, or None when it is absent."""
    root = SHARED / "corpora" / "pdn"
    if not root.is_dir():
        return None
    files = [p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".pdn", ".json")]
    return max(files, key=lambda p: p.stat().st_size, default=None)


async def _table_headless(
    folder: Path, path: Path, variant: str | None
) -> tuple[float, float, float, int]:
    """From constructing ``ShashkiApp(start=ReplayRequest(path))`` to the first rows of the
    game table painted, the same from the table screen's mount (the file opened in a running app),
    and from constructing the app to the whole file read into the table:
    (first, first from the mount, whole, games)."""
    from textual.widgets import DataTable

    from shashki.app.app import ShashkiApp
    from shashki.app.launch import ReplayRequest
    from shashki.app.replay import GameTableScreen

    first: list[float] = []
    mounted: list[float] = []
    original = DataTable.render_line
    original_mount = GameTableScreen.on_mount

    def on_mount(self: GameTableScreen) -> None:
        mounted.append(time.perf_counter())
        original_mount(self)

    def render_line(self: DataTable[Any], y: int) -> Any:
        strip = original(self, y)
        if not first and self.row_count:
            first.append(time.perf_counter())
        return strip

    DataTable.render_line = render_line  # type: ignore[method-assign]
    GameTableScreen.on_mount = on_mount  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        app = ShashkiApp(
            start=ReplayRequest(path, default_variant=variant),
            settings_path=folder / "settings.json",
            autosave=False,
            offer_resume=False,
        )
        async with app.run_test(size=SIZE) as pilot:
            while not first:
                await pilot.pause(0.002)
            screen = app.screen
            assert isinstance(screen, GameTableScreen), screen
            while not screen.done:
                await pilot.pause(0.005)
            whole = time.perf_counter()
            games = len(screen.games)
    finally:
        DataTable.render_line = original  # type: ignore[method-assign]
        GameTableScreen.on_mount = original_mount  # type: ignore[method-assign]
    return first[0] - start, first[0] - mounted[0], whole - start, games


def table_real(path: Path, variant: str | None, runs: int) -> tuple[list[float], list[float]]:
    """``python -m shashki replay FILE`` in a pseudo-terminal: from the spawn to the first
    game's event written to the screen, and to "all read"."""
    from shashki.records import scan_headers

    with path.open("rb") as handle:
        event = next(scan_headers(handle, variant)).get("Event", "")
    argv = [sys.executable, "-m", "shashki", "replay", str(path)]
    if variant:
        argv += ["--variant", variant]
    first: list[float] = []
    whole: list[float] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            term = Terminal(argv, private_env(folder))
            try:
                first.append(term.wait_for_text(event) - term.started)
                whole.append(term.wait_for_text("games (all read)", 120.0) - term.started)
            finally:
                term.close()
    return first, whole


def table_section(folder: Path, runs: int, pty: bool) -> None:
    path = largest_game_file()
    if path is None:
        print(f"  (skipped: {SHARED / 'corpora' / 'pdn'} is absent)")
        return
    # the file's folder names its variant; the file itself may not (then PDN's default applies)
    folder_variant = path.relative_to(SHARED / "corpora" / "pdn").parts[0]
    size = path.stat().st_size
    print(f"  {path.relative_to(SHARED)}: {size / 1024:.0f} KiB")
    for variant in (None, folder_variant):
        label = f"as {variant}" if variant else "as the file says"
        runs_out = [asyncio.run(_table_headless(folder, path, variant)) for _ in range(runs)]
        games = runs_out[0][3]
        figures(f"{label}, headless: first rows", [r[0] for r in runs_out], goal=1.0)
        figures(f"{label}, headless: table open to rows", [r[1] for r in runs_out], goal=1.0)
        figures(f"{label}, headless: all {games} games", [r[2] for r in runs_out])
        if pty:
            first, whole = table_real(path, variant, runs)
            figures(f"{label}, real terminal: first rows", first, goal=1.0)
            figures(f"{label}, real terminal: all read", whole)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10, help="launches of each kind (default 10)")
    parser.add_argument("--moves", type=int, default=40, help="plies per board (default 40)")
    parser.add_argument("--no-pty", action="store_true", help="skip the real-terminal figures")
    parser.add_argument(
        "--table-runs", type=int, default=3, help="openings of the largest game file (default 3)"
    )
    parser.add_argument("--table-only", action="store_true", help="section 5 alone")
    parser.add_argument("--clock-only", action="store_true", help="section 6 alone")
    args = parser.parse_args(argv)
    if args.clock_only:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ.update(private_env(tmp))
            print(f"clocks running (load average {os.getloadavg()[0]:.2f})")
            clock_section(Path(tmp), args.moves, not args.no_pty)
        return 0
    if args.table_only:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ.update(private_env(tmp))
            print(
                "opening the largest game file to the game table "
                f"(load average {os.getloadavg()[0]:.2f})"
            )
            table_section(Path(tmp), args.table_runs, not args.no_pty)
        return 0

    print(
        f"shashki app benchmark: {args.runs} launches, {args.moves} plies per board, "
        f"terminal {SIZE[0]}x{SIZE[1]}"
    )
    print(
        f"python {sys.version.split()[0]} on {sys.platform}; load average {os.getloadavg()[0]:.2f}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ.update(private_env(tmp))

        started = time.perf_counter()
        import shashki.app.app  # noqa: F401  (the import cost, once, in this process)

        imported = time.perf_counter() - started

        print("\nlaunch to menu")
        if not args.no_pty:
            figures("real terminal (python -m shashki)", launch_real(args.runs), goal=1.0)
        print(f"  {'import shashki.app.app (this process)':<40} {imported * 1000:7.1f} ms")
        headless = [asyncio.run(_menu_headless(folder)) for _ in range(args.runs)]
        figures("headless (construct + first paint)", headless, goal=1.0)

        print("\nkey press to redrawn board, headless")
        script: list[tuple[list[str], str]] = []
        for variant in ("russian", "international"):
            result = asyncio.run(
                _moves_headless(
                    folder, variant, args.moves, script if variant == "russian" else None
                )
            )
            for kind, label in (
                ("move", "Enter plays a move"),
                ("select", "Enter selects a piece"),
                ("arrow", "an arrow moves the cursor"),
            ):
                figures(f"{variant}: {label}", result[kind], goal=0.05, cpu=result[f"{kind} cpu"])
            driver = statistics.median(result["none cpu"]) * 1000
            print(
                f"  {variant + ': the test driver alone, cpu per key':<40} {driver:7.1f} ms"
                " (a key bound to nothing)"
            )

        if not args.no_pty:
            print("\nkey press to redrawn board, real terminal (russian, to the last byte written)")
            real = moves_real(script)
            figures("Enter plays a move", real["move"], goal=0.05)
            figures("Enter selects a piece", real["select"], goal=0.05)

        if args.table_runs > 0:
            print("\nopening the largest game file to the game table")
            table_section(folder, args.table_runs, not args.no_pty)

        print("\nclocks running")
        clock_section(folder, args.moves, not args.no_pty)
    return 0


if __name__ == "__main__":
    sys.exit(main())
