"""``shashki hub``: shashki's engine as a Hub engine (protocol version 2), for every
variant shashki plays.

The commands (one per line on stdin; the answers on stdout)::

    hub                         -> id …, param …, wait
    init                        -> ready
    set-param name=variant value=normal|killer|bt|frisian|losing|<shashki id>
    new-game
    pos pos=<position> [moves="<move> …"]
    level move-time=S | depth=N | nodes=N | infinite | time=S [inc=S] [moves=N]
                                (time and inc: the clock's time left and increment, as the
                                specification writes them; remaining-time and increment too)
    go think | go ponder | go analyze   -> info … lines, then done move=… ponder=…
    ponder-hit                  (the ponder search becomes a timed one)
    stop                        (ends the search: done follows)
    ping                        -> pong
    quit

A line that cannot be understood gets an ``error`` line and the engine goes on; the end
of the input ends it as ``quit`` does, and so does an output nobody reads any more.  The
input is read as bytes and decoded as UTF-8 (a byte that is not UTF-8 becomes U+FFFD), and
the output is written in UTF-8, under any locale.  Any line but ``ping`` and ``ponder-hit`` sent
while a search runs stops it first (its ``done`` comes before the line's answer).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import BinaryIO, TextIO

from .. import __version__
from ..engine.search import WON, Iteration, Search
from ..rules import Game, Move, all_variants, find_variant
from ..rules.errors import ShashkiError
from ..rules.limits import move_seconds
from ..rules.numbers import bounded_decimal, bounded_int, quoted
from ..rules.variant import Variant
from .text import MAX_LINE, HubError, find_move, format_value, line, move_text, parse_line
from .text import parse_position as parse_hub_position

#: The variant a Hub GUI gets when it names none (the Hub protocol's own game).
DEFAULT_HUB_VARIANT = "normal"
#: The time per move when no ``level`` says otherwise.
DEFAULT_SECONDS = 1.0


def hub_name(variant: Variant) -> str:
    """The name the Hub protocol gives ``variant``: its Hub name, else its id."""
    return variant.hub_name or variant.id


def variant_by_hub_name(name: str) -> Variant:
    """The variant a Hub name (or a shashki id or alias) means; raises HubError (also
    for an empty name, which names no variant)."""
    if not name.strip():
        raise HubError("no variant named: value=normal, killer, bt, frisian, losing or an id")
    for variant in all_variants():
        if variant.hub_name and variant.hub_name == name:
            return variant
    try:
        return find_variant(name)
    except ShashkiError:
        raise HubError(f"unknown variant {quoted(name, 40)}") from None


def hub_variants() -> list[str]:
    """The values of the ``variant`` parameter: the Hub names first, then the ids."""
    named = [v.hub_name for v in all_variants() if v.hub_name]
    return named + sorted(v.id for v in all_variants() if not v.hub_name)


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
        self.game = Game(self.variant)
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
        if self.searching():
            self.finish_search()
            if command == "stop":
                return True
        elif self.thread is not None:  # a search that ended by itself
            self.thread.join()
            self.thread = None
        if command == "quit":
            return False
        if command == "stop":
            return True  # (nothing to stop)
        handler = self.COMMANDS.get(command)
        if handler is None:
            self.error(f"unknown command {quoted(command, 40)}")
            return True
        try:
            handler(self, args)
        except (HubError, ShashkiError, ValueError) as exc:
            self.error(str(exc))
        return True

    # -- commands -------------------------------------------------------------------------

    def cmd_hub(self, args: dict[str, str]) -> None:
        self.send(line("id", name="shashki", version=__version__, author="the shashki team"))
        values = " ".join(hub_variants())
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
        name = args.get("name", "")
        if name != "variant":
            raise HubError(f"unknown parameter {quoted(name, 40)}")
        variant = variant_by_hub_name(args.get("value", ""))
        if variant is not self.variant:
            self.variant = variant
            self.engine = Search(variant)
        self.game = Game(variant)

    def cmd_new_game(self, args: dict[str, str]) -> None:
        self.engine.clear()
        self.game = Game(self.variant)

    def cmd_pos(self, args: dict[str, str]) -> None:
        text = args.get("pos", "")
        game = parse_hub_position(self.variant, text) if text else Game(self.variant)
        for token in args.get("moves", "").split():
            try:
                game.push(find_move(game, token))
            except HubError as exc:
                raise HubError(f"moves: {exc}") from None
        self.game = game

    def cmd_level(self, args: dict[str, str]) -> None:
        level: dict[str, float | int | None] = {}
        for name, value in args.items():
            if name == "infinite":
                level["infinite"] = 1
            elif name in ("move-time", "remaining-time", "increment", "time", "inc"):
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
            else:
                raise HubError(f"unknown level {quoted(name, 40)}")
        if not level:
            raise HubError("level needs move-time, depth, nodes, infinite or time")
        if "move-time" in level:
            level["seconds"] = level.pop("move-time")
        self.level = level

    def cmd_go(self, args: dict[str, str]) -> None:
        mode = next(iter(args), "think")
        if mode not in ("think", "ponder", "analyze"):
            raise HubError(f"go {quoted(mode, 20)}: think, ponder or analyze")
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
            remaining = float(level["remaining-time"] or 0)
            increment = float(level.get("increment") or 0)
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
            pv = _pv_text(game, it.pv)
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
#: the longer ones shashki also reads.
_CLOCK_WORDS = {"time": "remaining-time", "inc": "increment"}
#: The most seconds a level takes.
MAX_LEVEL_SECONDS = 10**7


def _seconds(name: str, value: str) -> float:
    """Seconds as ASCII digits with a decimal point or none (``0.5``; never ``1e3``,
    ``nan`` or digits of another script); raises HubError."""
    seconds = bounded_decimal(value, MAX_LEVEL_SECONDS)
    if seconds is None:
        raise HubError(
            f"level {name}={quoted(value, 20)} is not a number of seconds from 0 to 10^7 "
            "(digits and a decimal point: 0.5)"
        )
    return seconds


def _pv_text(game: Game, pv: list[Move]) -> str:
    """A principal variation as Hub moves, as far as it replays."""
    copy = game.copy()
    out = []
    for move in pv:
        try:
            legal = copy.find_move(move)
        except ShashkiError:
            break
        out.append(move_text(copy.variant, legal))
        copy.push(legal)
    return " ".join(out)


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
