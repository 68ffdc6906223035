"""``shashki hub``: shashki's engine as a Hub engine (protocol version 2), for every
variant shashki plays.

The commands (one per line on stdin; the answers on stdout)::

    hub                         -> id …, param …, wait
    init                        -> ready
    set-param name=variant value=<a Hub name of a variant, or a shashki id>
    new-game
    pos pos=<position> [moves="<move> …"]
    level move-time=S | depth=N | nodes=N | infinite | [moves=N] time=S [inc=S]
                                (time: the clock's time left before the increment inc is
                                added for this move, as the specification has it; moves:
                                the moves to the next time control; remaining-time and
                                increment are read as time and inc)
    go think | go ponder | go analyze   -> info … lines, then done move=… ponder=…
    ponder-hit                  (the ponder search becomes a timed one)
    stop                        (ends the search: done follows)
    ping                        -> pong
    quit

As the specification asks, a command or an argument that the engine does not know is
ignored (a command it does not know leaves a search running); a value it cannot use (a
position, a move, a number of seconds, a variant) and a line it cannot read get an
``error`` line, and the session goes on.  The end of the input ends it as ``quit``
does, and so does an output nobody reads any more.  The input is read as bytes and
decoded as UTF-8 (a byte that is not UTF-8 becomes U+FFFD), and the output is written in
UTF-8, under any locale.  Any line it knows but ``ping`` and ``ponder-hit`` sent while a
search runs stops it first (its ``done`` comes before the line's answer).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import BinaryIO, TextIO

from .. import __version__
from ..base.logs import package_logger
from ..base.numbers import bounded_int, quoted
from ..engine.hub.text import (
    DEFAULT_HUB_VARIANT,
    MAX_LINE,
    HubError,
    find_move,
    format_value,
    hub_name,
    hub_variants,
    line,
    move_text,
    parse_line,
    variant_by_hub_name,
)
from ..engine.hub.text import parse_position as parse_hub_position
from ..engine.limits import move_seconds
from ..engine.scores import WON
from ..engine.search import SOFT, Iteration, Search
from ..rules import Game, Move
from ..rules.errors import ShashkiError
from ..rules.variant import Variant
from ..rules.variation import variation_text

logger = package_logger(__name__)

#: The time per move when no ``level`` says otherwise.
DEFAULT_SECONDS = 1.0


def seconds_for(remaining: float, increment: float, moves: int | None) -> float:
    """The time to spend on one move with ``remaining`` seconds on the clock, an
    ``increment`` per move and ``moves`` moves to the next time control (None: a whole
    game, taken as 30 more moves)."""
    return move_seconds(remaining, increment, moves)  # (the one share of a clock)


def score_value(score: int) -> str:
    """A score as Hub info lines write it: in men, two decimals (a won game far above)."""
    if abs(score) >= WON:
        return f"{score / 100:+.2f}"
    return f"{score / 100:.2f}"


class HubServer:
    """One Hub session: a variant, a position, a level, and at most one search."""

    def __init__(self, out: TextIO, *, clock: Callable[[], float] = time.perf_counter) -> None:
        self.out = out
        self.clock = clock
        self.write_lock = threading.Lock()
        self.variant = variant_by_hub_name(DEFAULT_HUB_VARIANT)
        #: The position of the next search (None after a ``pos`` that could not be read:
        #: a search of the one before would answer a move the GUI cannot play).
        self.game: Game | None = Game(self.variant)
        self.engine = Search(self.variant)
        self.level: dict[str, float | int | None] = {"seconds": DEFAULT_SECONDS}
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        #: When the search must end (None: only when stopped); ponder-hit sets it.
        self.deadline: float | None = None
        self.mode = ""
        #: Why the output cannot be written any more (closed, full), once it cannot:
        #: nothing more is written (see :meth:`send`).
        self.closed: OSError | None = None
        #: The thread that reads the commands (the search thread only writes).
        self.session = threading.current_thread()

    # -- output -------------------------------------------------------------------------

    def send(self, text: str) -> None:
        """Write one line to the GUI.  Once the output cannot be written (the GUI closed
        its end of the pipe, a full disk), nothing more is written: the search stops, and
        the session ends at the next line it would read (or at once, in the session's
        own thread) with that error, which the command line ends quietly (a closed pipe)
        or says in one line."""
        with self.write_lock:
            if self.closed is not None:
                return
            try:
                self.out.write(text + "\n")
                self.out.flush()
            except OSError as exc:
                self.closed = exc
                self.stop.set()
            except ValueError:  # (a closed file object: as a closed pipe)
                self.closed = BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
                self.stop.set()
        if self.closed is not None and threading.current_thread() is self.session:
            raise self.closed

    def error(self, message: str) -> None:
        """Tell the client what it asked wrong (and the log)."""
        logger.warning("shashki hub: the client's line refused: %s", message)
        self.send(line("error", message=message))

    # -- the loop -------------------------------------------------------------------------

    def run(self, stdin: BinaryIO) -> int:
        """Read commands (bytes, any of them) until ``quit`` or the end of the input; the
        exit status.  An output that cannot be written ends it with that error."""
        self.session = threading.current_thread()
        try:
            while True:
                raw = stdin.readline(MAX_LINE + 1)
                if self.closed is not None:  # (by the search's output)
                    raise self.closed
                if not raw:
                    break
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    while True:  # the rest of an over-long line is dropped
                        more = stdin.readline(MAX_LINE + 1)
                        if not more or more.endswith(b"\n"):
                            break
                    self.error(f"line longer than {MAX_LINE} bytes")
                    continue
                if not self.handle(raw.decode("utf-8", "replace")):
                    break
        finally:
            self.finish_search()
        if self.closed is not None:  # (the search's last lines met it)
            raise self.closed
        return 0

    def handle(self, text: str) -> bool:
        """Carry out one line; False once the session should end."""
        try:
            command, args = parse_line(text)
        except HubError as exc:
            self.error(str(exc))
            return True
        if not command:
            return True
        if command == "ping":
            self.send("pong")
            return True
        if command == "ponder-hit":
            if self.searching() and self.mode == "ponder":
                self.mode = "think"
                self.deadline = self.clock() + self.think_seconds()
            return True
        handler = self.COMMANDS.get(command)
        if handler is None and command not in ("stop", "quit"):
            return True  # (the specification: ignored, so that the protocol can grow)
        if self.searching():
            self.finish_search()
            if command == "stop":
                return True
        elif self.thread is not None:  # a search that ended by itself
            self.thread.join()
            self.thread = None
        if command == "quit":
            return False
        if handler is None:  # (stop: nothing more to stop)
            return True
        try:
            handler(self, args)
        except (HubError, ShashkiError, ValueError) as exc:
            self.error(str(exc))
        return True

    # -- commands -------------------------------------------------------------------------

    def cmd_hub(self, args: dict[str, str]) -> None:
        self.send(line("id", name="shashki", version=__version__, author="the shashki team"))
        values = " ".join(hub_variants())  # (the Hub's own names first)
        self.send(
            line(
                "param",
                name="variant",
                value=hub_name(self.variant),
                type="enum",
                values=values,
            )
        )
        self.send("wait")

    def cmd_init(self, args: dict[str, str]) -> None:
        self.send("ready")

    def cmd_set_param(self, args: dict[str, str]) -> None:
        if args.get("name") != "variant":
            return  # (a parameter the engine does not declare is ignored)
        variant = variant_by_hub_name(args.get("value", ""))
        if variant is not self.variant:
            self.variant = variant
            self.engine = Search(variant)
        self.game = Game(variant)

    def cmd_new_game(self, args: dict[str, str]) -> None:
        self.engine.clear()
        self.game = Game(self.variant)

    def cmd_pos(self, args: dict[str, str]) -> None:
        self.game = None
        text = args.get("pos", "")
        game = parse_hub_position(self.variant, text) if text else Game(self.variant)
        for token in args.get("moves", "").split():
            try:
                game.push(find_move(game, token))
            except HubError as exc:
                raise HubError(f"moves: {exc}") from None
        self.game = game

    def cmd_level(self, args: dict[str, str]) -> None:
        """The limit of the next searches; a level with no word the engine knows leaves
        the limit as it was."""
        level: dict[str, float | int | None] = {}
        for name, value in args.items():
            if name == "infinite":
                level["infinite"] = 1
            elif name in ("time", "remaining-time"):  # (may be below 0: see _clock_seconds)
                level["remaining-time"] = _clock_seconds(name, value)
            elif name in ("move-time", "increment", "inc"):
                level[_CLOCK_WORDS.get(name, name)] = _seconds(name, value)
            elif name in ("depth", "nodes", "moves"):
                number = bounded_int(value.strip(), 10**12)
                if number is None or number < (0 if name == "moves" else 1):
                    least = 0 if name == "moves" else 1
                    raise HubError(
                        f"level {name}={quoted(value, 20)} is not a whole number "
                        f"from {least} to 10^12"
                    )
                level[name] = number
            # (any other word is ignored)
        if not level:
            return
        if "move-time" in level:
            level["seconds"] = level.pop("move-time")
        self.level = level

    def cmd_go(self, args: dict[str, str]) -> None:
        # the first mode the engine knows; none (a bare go, a word it does not know):
        # think, so that the GUI gets the done it waits for
        mode = next((word for word in args if word in ("think", "ponder", "analyze")), "think")
        if self.game is None:
            self.error("no position to search: the last pos could not be read")
            self.send("done")
            return
        moves = self.game.legal_moves()
        outcome = self.game.outcome()
        if outcome is not None or not moves:
            self.error("the game is over: no move to search")
            self.send("done")
            return
        self.mode = mode
        self.stop.clear()
        self.deadline = None if mode != "think" else self.clock() + self.think_seconds()
        if mode == "think" and self.level.get("infinite"):
            self.deadline = None
        game = self.game.copy()
        self.thread = threading.Thread(
            target=self.search, args=(game,), daemon=True, name="shashki hub search"
        )
        self.thread.start()

    COMMANDS: dict[str, Callable[[HubServer, dict[str, str]], None]] = {
        "hub": cmd_hub,
        "init": cmd_init,
        "set-param": cmd_set_param,
        "new-game": cmd_new_game,
        "pos": cmd_pos,
        "level": cmd_level,
        "go": cmd_go,
    }

    # -- the search -------------------------------------------------------------------

    def think_seconds(self) -> float:
        level = self.level
        if "seconds" in level and level["seconds"] is not None:
            return float(level["seconds"])
        if "remaining-time" in level:
            # "the increment is added before every move" (the specification): the clock
            # holds the time left and this move's increment
            increment = float(level.get("increment") or 0)
            remaining = max(0.0, float(level["remaining-time"] or 0) + increment)
            moves = level.get("moves")
            return seconds_for(remaining, increment, int(moves) if moves else None)
        if "depth" in level or "nodes" in level or "infinite" in level:
            return 1e9  # (bounded by depth or nodes, or by stop)
        return DEFAULT_SECONDS

    def searching(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def finish_search(self) -> None:
        """Stop the search that runs, if any, and wait for its ``done``."""
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self.thread = None

    def cancelled(self) -> bool:
        if self.stop.is_set():
            return True
        return self.deadline is not None and self.clock() >= self.deadline

    def search(self, game: Game) -> None:
        def info(it: Iteration) -> None:
            pv = variation_text(game, it.pv, write=_hub_move)
            nps = it.nodes / it.seconds / 1e6 if it.seconds > 0 else 0.0
            self.send(
                line(
                    "info",
                    depth=it.depth,
                    score=score_value(it.score),
                    nodes=it.nodes,
                    time=f"{it.seconds:.3f}",
                    nps=f"{nps:.2f}",
                    pv=pv,
                )
            )

        depth = self.level.get("depth")
        nodes = self.level.get("nodes")
        seconds = None
        if self.mode == "think" and self.deadline is not None:
            seconds = max(0.01, self.deadline - self.clock())
        best: Move | None = None
        ponder: str | None = None
        try:
            result = self.engine.search(
                game,
                seconds=seconds,
                depth=int(depth) if depth else None,
                nodes=int(nodes) if nodes else None,
                cancelled=self.cancelled,
                on_iteration=info,
                # a time a move is spent whole; a clock keeps what is left over
                soft=1.0 if self.level.get("seconds") is not None else SOFT,
                must_move=True,
            )
            best = result.move
            if best is None:
                legal = game.legal_moves()
                best = legal[0] if legal else None
            if best is not None and len(result.pv) > 1 and result.pv[0] == best:
                after = game.copy()
                after.push(best)
                try:
                    ponder = move_text(game.variant, after.find_move(result.pv[1]))
                except ShashkiError:
                    ponder = None
        except Exception as exc:  # (a search must never end the session)
            self.error(f"the search failed: {exc}")
        # analysis and pondering go on until they are stopped (or hit)
        while self.mode in ("analyze", "ponder") and not self.stop.is_set():
            time.sleep(0.005)
        if best is None:
            self.send("done")
        else:
            self.send(line("done", move=move_text(game.variant, best), ponder=ponder))


#: The clock's words of the specification (``level moves=9 time=291.587 inc=2``), and
#: the longer ones shashki also reads (its own first words).
_CLOCK_WORDS = {"time": "remaining-time", "inc": "increment"}
#: The most seconds a level takes.
MAX_LEVEL_SECONDS = 10**7


#: A real number as a GUI writes one: ASCII digits, a decimal point, an exponent (C's
#: ``%g`` and Python's ``repr`` write ``7.0101e-05``), each part bounded in length.
_REAL = re.compile(r"[0-9]{1,30}(?:\.[0-9]{1,30})?(?:[eE][-+]?[0-9]{1,4})?", re.ASCII)


def _seconds(name: str, value: str) -> float:
    """Seconds as a real number of ASCII digits, a decimal point or none, an exponent or
    none (``0.5``, ``7.0101e-05``; never ``nan``, ``inf``, ``.5``, ``1_0`` or digits of
    another script), at most 10^7; raises HubError."""
    if _REAL.fullmatch(value) is not None:
        seconds = float(value)
        if seconds <= MAX_LEVEL_SECONDS:
            return seconds
    raise HubError(
        f"level {name}={quoted(value, 20)} is not a number of seconds from 0 to 10^7 "
        "(digits, a decimal point, an exponent: 0.5, 7.5e-05)"
    )


def _clock_seconds(name: str, value: str) -> float:
    """The clock's time left before this move's increment: seconds as :func:`_seconds`
    reads them, or below 0 (``-0.4``) where a GUI took the increment from a clock that
    held less (pydraughts sends ``time`` as the clock less the increment, since the
    engine adds it)."""
    if value.startswith("-") and value[1:2].isdigit():
        with contextlib.suppress(HubError):
            return -_seconds(name, value[1:])
    return _seconds(name, value)  # (or its error, quoting the whole value)


def _hub_move(variant: Variant, move: Move, legal: object) -> str:
    """A move of a line as the Hub writes it (every captured square: no legal moves
    needed)."""
    return move_text(variant, move)


def main(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a Hub session on the standard streams: bytes in, UTF-8 out, whatever the
    locale says (under a UTF-8 locale Python's own stdin stops at the first byte that is
    not UTF-8, and an ASCII stdout at the first letter that is not ASCII)."""
    standard = stdout is None
    if stdout is None:
        stdout = sys.stdout
        reconfigure = getattr(stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")
    server = HubServer(stdout)
    try:
        return server.run(stdin if stdin is not None else sys.stdin.buffer)
    except KeyboardInterrupt:
        return 0
    finally:
        if standard and server.closed is not None:  # (the interpreter's last flush would fail)
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(devnull, sys.stdout.fileno())
                finally:
                    os.close(devnull)


__all__ = ["HubServer", "format_value", "hub_name", "main", "variant_by_hub_name"]
