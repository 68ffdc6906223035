"""Another program's engine as a player, over the Hub protocol (a subprocess).

Version 2 (dame-rs, Scan 3.x) and the version 1 dialect of Scan 2.0 are spoken; which
one is found out from the answer to ``hub`` (version 1 engines answer ``wait`` without
an ``id`` line).  Every wait has a timeout; an engine that stops, hangs, answers a move
that is not legal or an ``error`` line raises :class:`EngineError` and is stopped.  The
engine's moves are found among the legal moves of shashki's rules, like anyone's.

Whatever the engine writes, memory stays bounded: its output is read as bytes, a line
at most :data:`MAX_LINE` bytes long (a longer one is an error), a few dozen lines held
at a time (the engine waits on a full pipe while shashki does not read), only the lines
an answer needs kept (the last ``info``, the ``id`` and ``param`` lines), and an engine
that writes more than :data:`MAX_ANSWER_LINES` lines or :data:`MAX_ANSWER_BYTES` bytes
before its answer is stopped.  Its standard error is read too, and its last lines kept
(:data:`STDERR_LINES`), to be shown when it fails.  Every text of the engine that
reaches a player or a file (its name, its error, its standard error) is made one line
of plain text by :func:`~shashki.rules.numbers.one_line` first.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO

from ..i18n import N_, _
from ..rules import Game, Move
from ..rules.errors import ShashkiError
from ..rules.limits import move_seconds
from ..rules.numbers import one_line, quoted
from ..rules.variant import Variant
from .text import MAX_LINE, HubError, find_move, line, move_text, parse_line, position_text

#: Seconds an engine may take to start and answer ``hub`` / ``init``.
START_TIMEOUT = 20.0
#: Seconds an engine may take beyond the time it was given for a move.
MOVE_GRACE = 5.0
#: Seconds a search bounded by depth alone may take.
DEPTH_TIMEOUT = 120.0
#: Lines read from the engine and not yet handled, at most (then the engine waits).
QUEUE_LINES = 64
#: The most lines and bytes an engine may write before the answer awaited (``wait``,
#: ``ready``, ``done``): more is a flood, and the engine is stopped.
MAX_ANSWER_LINES = 50_000
MAX_ANSWER_BYTES = 8 * 1024 * 1024
#: The most ``param`` lines kept from the answer to ``hub``.
MAX_PARAMS = 100
#: The last lines of the engine's standard error kept, and the bytes kept of each.
STDERR_LINES = 20
STDERR_LINE_BYTES = 400
#: How many of them an error shows, and the characters of each.
STDERR_SHOWN = 3
STDERR_SHOWN_CHARS = 160
#: The longest engine name kept, and the longest error message quoted.
NAME_CHARS = 60
MESSAGE_CHARS = 200


class _TooLong:
    """The reader's mark: the engine wrote a line longer than MAX_LINE bytes."""


class EngineError(ShashkiError):
    """The engine stopped, did not answer in time, or answered something unusable.

    ``str()`` is the English sentence (match records keep it); :meth:`said` is the
    same in the language spoken now (the app tells a player)."""

    def __init__(self, template: str, *, stderr: Sequence[str] = (), **values: object) -> None:
        self.template = template
        self.values = values
        #: The last lines the engine wrote on its standard error (plain text).
        self.stderr = list(stderr)
        super().__init__(self._text(local=False))

    def _text(self, *, local: bool) -> str:
        say = _ if local else str
        text = say(self.template).format(**self._named(self.values, local=local))
        if self.stderr:
            text += say(N_("; its standard error ends: {lines}")).format(
                lines=" | ".join(self.stderr)
            )
        return text

    @staticmethod
    def _named(values: dict[str, object], *, local: bool) -> dict[str, object]:
        """The values, a variant by its name (in the language spoken, if ``local``)."""
        return {
            k: (v.local_name if local else v.name) if isinstance(v, Variant) else v
            for k, v in values.items()
        }

    def said(self) -> str:
        return self._text(local=True)


@dataclass
class Thinking:
    """The engine's last ``info`` of a search: depth, score (as written), pv."""

    depth: str = ""
    score: str = ""
    pv: str = ""
    raw: dict[str, str] = field(default_factory=dict)


def split_command(command: str) -> list[str]:
    """The argument list of an engine command line; raises EngineError."""
    try:
        args = shlex.split(command)
    except ValueError as exc:
        raise EngineError(
            N_("engine command {command}: {reason}"), command=quoted(command, 60), reason=exc
        ) from None
    if not args:
        raise EngineError(N_("the engine command is empty"))
    return args


class HubEngine:
    """A Hub engine run as a subprocess: ``start()``, then ``best_move()`` per move, then
    ``close()`` (also a context manager).  A closed engine may be started again."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        name: str | None = None,
        start_timeout: float = START_TIMEOUT,
        move_grace: float = MOVE_GRACE,
    ) -> None:
        self.args = split_command(command) if isinstance(command, str) else list(command)
        self.command = command if isinstance(command, str) else shlex.join(command)
        # an engine given by its path runs from its own folder (Scan reads scan.ini and
        # data/ from where it starts)
        folder = os.path.dirname(self.args[0])
        self.cwd = cwd if cwd is not None else (folder or None)
        self._given_name = one_line(name or os.path.basename(self.args[0]), NAME_CHARS)
        self.start_timeout = start_timeout
        self.move_grace = move_grace
        self._proc: subprocess.Popen[bytes] | None = None
        self._reset()

    def _reset(self) -> None:
        """What an engine knows before it is started."""
        self.name = self._given_name
        self.version = 2
        self.params: dict[str, dict[str, str]] = {}
        self.info: dict[str, str] = {}
        self.last = Thinking()
        self.variant: Variant | None = None
        self._lines: queue.Queue[str | _TooLong | None] = queue.Queue(QUEUE_LINES)
        self._stderr: deque[bytes] = deque(maxlen=STDERR_LINES)
        self._stderr_lock = threading.Lock()
        self._stderr_reader: threading.Thread | None = None
        self._closing = threading.Event()

    # -- the process ------------------------------------------------------------------

    def start(self) -> HubEngine:
        """Start the engine and read its answer to ``hub`` (a started engine is closed
        and started afresh)."""
        if self._proc is not None:
            self.close()
        self._reset()
        try:
            self._proc = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
            )
        except (OSError, ValueError) as exc:
            raise EngineError(
                N_("cannot start engine {command}: {reason}"),
                command=quoted(self.command, 60),
                reason=exc,
            ) from None
        proc = self._proc
        assert proc.stdout is not None and proc.stderr is not None
        # each reader gets its own streams and queue: one left from an earlier start
        # never reaches this one's
        threading.Thread(
            target=self._read,
            args=(proc.stdout, self._lines, self._closing),
            daemon=True,
            name=f"hub {self.name}",
        ).start()
        self._stderr_reader = threading.Thread(
            target=self._read_stderr,
            args=(proc.stderr, self._stderr, self._stderr_lock),
            daemon=True,
            name=f"hub {self.name} stderr",
        )
        self._stderr_reader.start()
        self.send("hub")
        seen_id = False

        def seen(text: str) -> None:
            nonlocal seen_id
            command, args = _parse(text)
            if command == "id":
                seen_id = True
                self.info = {k: one_line(v, MESSAGE_CHARS) for k, v in list(args.items())[:20]}
                self.name = one_line(args.get("name", ""), NAME_CHARS) or self.name
            elif command == "param" and "name" in args:
                if args["name"] in self.params or len(self.params) < MAX_PARAMS:
                    self.params[args["name"]] = args

        self._until({"wait"}, self.start_timeout, "hub", seen=seen)
        self.version = 2 if seen_id else 1
        return self

    @staticmethod
    def _read(
        stream: IO[bytes],
        lines: queue.Queue[str | _TooLong | None],
        closing: threading.Event,
    ) -> None:
        """Hand the engine's lines to ``lines``, waiting while it is full; a line longer
        than MAX_LINE bytes ends the reading (the mark is handed on), and so does the
        end of the output (None)."""

        def put(item: str | _TooLong | None) -> bool:
            while not closing.is_set():
                try:
                    lines.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    continue
            return False

        end: str | _TooLong | None = None
        try:
            while True:
                raw = stream.readline(MAX_LINE + 1)
                if not raw:
                    break
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    end = _TooLong()
                    break
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if not put(text):
                    return
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()  # (an engine still writing gets a broken pipe)
        put(end)

    @staticmethod
    def _read_stderr(stream: IO[bytes], kept: deque[bytes], lock: threading.Lock) -> None:
        """Keep the start of each of the last lines of the engine's standard error."""
        try:
            start = True
            while True:
                raw = stream.readline(4096)
                if not raw:
                    break
                if start:
                    with lock:
                        kept.append(raw[:STDERR_LINE_BYTES])
                start = raw.endswith(b"\n")
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    @property
    def stderr(self) -> list[str]:
        """The last lines the engine wrote on its standard error, as plain text."""
        with self._stderr_lock:
            raw = list(self._stderr)
        lines = (one_line(r.decode("utf-8", "replace"), STDERR_SHOWN_CHARS) for r in raw)
        return [text for text in lines if text]

    def _failed(self, template: str, **values: object) -> EngineError:
        """Stop the engine; the error saying ``template``, with the last lines of its
        standard error."""
        self.kill()
        reader = self._stderr_reader
        if reader is not None:
            reader.join(timeout=1.0)  # (what the engine wrote before it ended)
        return EngineError(template, stderr=self.stderr[-STDERR_SHOWN:], **values)

    def send(self, text: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.poll() is not None:
            raise self._failed(N_("engine {name} is not running"), name=self.name)
        try:
            proc.stdin.write(text.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise self._failed(
                N_("engine {name} stopped (it closed its input)"), name=self.name
            ) from None

    def _until(
        self,
        ends: set[str],
        timeout: float,
        what: str,
        cancelled: Callable[[], bool] | None = None,
        seen: Callable[[str], None] | None = None,
    ) -> str | None:
        """The first line whose first word is in ``ends``; each line before it is given
        to ``seen`` and not kept.  None as soon as ``cancelled()``
        turns true.  An ``error`` line, a line too long, a flood of lines, the end of
        the engine or the end of ``timeout`` raise EngineError (the engine stopped)."""
        deadline = time.monotonic() + timeout
        count = size = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failed(
                    N_("engine {name} did not answer {what} in {seconds} s"),
                    name=self.name,
                    what=what,
                    seconds=f"{timeout:g}",
                )
            if cancelled is not None and cancelled():
                return None
            try:
                text = self._lines.get(timeout=min(left, 0.05) if cancelled else left)
            except queue.Empty:
                continue
            if text is None:
                raise self._failed(
                    N_("engine {name} stopped (while answering {what})"), name=self.name, what=what
                )
            if isinstance(text, _TooLong):
                raise self._failed(
                    N_("engine {name} wrote a line longer than {size} KB (answering {what})"),
                    name=self.name,
                    size=MAX_LINE // 1024,
                    what=what,
                )
            count += 1
            size += len(text) + 1
            if count > MAX_ANSWER_LINES or size > MAX_ANSWER_BYTES:
                raise self._failed(
                    N_("engine {name} wrote more than {lines} lines without answering {what}"),
                    name=self.name,
                    lines=min(count, MAX_ANSWER_LINES),
                    what=what,
                )
            word = text.split(" ", 1)[0]
            if word in ends:
                return text
            if word == "error":
                raise self._failed(
                    N_("engine {name} answered {what} with an error: {message}"),
                    name=self.name,
                    what=what,
                    message=_error_message(text),
                )
            if seen is not None:
                seen(text)

    @property
    def running(self) -> bool:
        """Whether the engine's process is started and has not ended."""
        return self._proc is not None and self._proc.poll() is None

    def kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                proc.wait(timeout=5)

    def close(self) -> None:
        """Ask the engine to quit; stop it if it does not within a second.  It may be
        started again."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None and proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.write(b"quit\n")
                proc.stdin.flush()
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.kill()
        self._closing.set()  # (the reader hands nothing more on)
        if proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        # (its output streams are closed by their readers, which may still be reading)
        self._proc = None

    def __enter__(self) -> HubEngine:
        return self.start() if self._proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the game ---------------------------------------------------------------------

    def plays(self, variant: Variant) -> bool:
        """Whether the engine says it plays ``variant`` (International by default)."""
        name = variant.hub_name or variant.id
        param = self.params.get("variant")
        if param is None or self.version == 1:
            return name == "normal"
        return name in param.get("values", "").split() or name == param.get("value")

    def new_game(self, variant: Variant) -> None:
        """Set the engine up for a new game of ``variant``; raises EngineError when it
        does not play it."""
        if not self.plays(variant):
            raise EngineError(
                N_("engine {name} does not play {variant}"), name=self.name, variant=variant
            )
        if self.variant is None:
            param = self.params.get("variant")
            name = variant.hub_name or variant.id
            if self.version == 2 and param is not None and param.get("value") != name:
                self.send(line("set-param", name="variant", value=name))
            self.send("init")
            self._until({"ready"}, self.start_timeout, "init")
        elif self.variant is not variant:
            raise EngineError(
                N_("engine {name} is set up for {variant}"),
                name=self.name,
                variant=self.variant,
            )
        self.variant = variant
        if self.version == 2:
            self.send("new-game")

    def best_move(
        self,
        game: Game,
        *,
        seconds: float | None = None,
        depth: int | None = None,
        remaining: float | None = None,
        increment: float = 0.0,
        cancelled: Callable[[], bool] | None = None,
    ) -> Move | None:
        """The engine's move in ``game`` (a legal move of shashki's rules); None when
        ``cancelled()`` turned true first (the engine is told to stop, and its answer is
        awaited briefly, or it is stopped)."""
        if self.variant is None:
            self.new_game(game.variant)
        if depth is not None:
            timeout = DEPTH_TIMEOUT
        elif remaining is not None:
            timeout = remaining + increment + self.move_grace
        else:
            timeout = (seconds if seconds is not None else 1.0) + self.move_grace
        infos: list[str] = []  # the last info line, nothing else

        def keep(text: str) -> None:
            if text.split(" ", 1)[0] == "info":
                infos[:] = [text]

        if self.version == 1:
            self.send("pos " + position_text(game, version=1))
            if depth is not None:
                self.send(f"depth {depth}")
            else:
                if seconds is None and remaining is not None:  # (the one share of a clock)
                    seconds = move_seconds(remaining, increment)
                ms = int(1000 * (seconds if seconds is not None else 1.0))
                self.send(f"time {max(1, ms)}")
            self.send("go")
            final = self._until({"move"}, timeout, "go", cancelled, seen=keep)
            if final is None:
                self.kill()  # (version 1 has no stop: the engine is started again)
                return None
        else:
            start, moves = _start_and_moves(game)
            self.send(line("pos", pos=position_text(start), moves=moves or None))
            if depth is not None:
                self.send(line("level", depth=depth))
            elif remaining is not None:
                # (the specification's words: Scan 3 and dame read them, and ignore
                # remaining-time=, searching as long as they like)
                self.send(line("level", time=f"{remaining:.3f}", inc=f"{increment:.3f}"))
            else:
                self.send(line("level", move_time=f"{seconds if seconds is not None else 1.0:g}"))
            self.send("go think")
            final = self._until({"done"}, timeout, "go think", cancelled, seen=keep)
            if final is None:
                self.send("stop")
                self._until({"done"}, self.move_grace, "stop")
                return None
        self.last = Thinking()
        for text in infos:
            if self.version == 1:
                parts = text.split()
                self.last = Thinking(
                    parts[1] if len(parts) > 1 else "",
                    parts[3] if len(parts) > 3 else "",
                    " ".join(parts[7:]),
                )
            else:
                args = _parse(text)[1]
                self.last = Thinking(
                    args.get("depth", ""), args.get("score", ""), args.get("pv", ""), args
                )
        if self.version == 1:
            parts = final.split()
            text = parts[1] if len(parts) > 1 else ""
        else:
            text = _parse(final)[1].get("move", "")
        if not text:
            raise self._failed(
                N_("engine {name} answered no move ({answer})"),
                name=self.name,
                answer=quoted(final, 60),
            )
        try:
            return find_move(game, text)
        except HubError as exc:
            raise self._failed(
                N_("engine {name} answered an illegal move: {reason}"), name=self.name, reason=exc
            ) from None


def _parse(text: str) -> tuple[str, dict[str, str]]:
    try:
        return parse_line(text)
    except HubError:
        return text.split(" ", 1)[0], {}


def _error_message(text: str) -> str:
    """The message of an ``error`` line (version 2: its ``message``; version 1 and
    others: the rest of the line), as plain text."""
    message = _parse(text)[1].get("message") or text.partition(" ")[2]
    return one_line(message, MESSAGE_CHARS) or "?"


def _start_and_moves(game: Game) -> tuple[Game, str]:
    """The game's start position and its moves as Hub text."""
    start = game.copy()
    for _move in game.move_stack:
        start.pop()
    return start, " ".join(move_text(game.variant, move) for move in game.move_stack)


__all__ = ["EngineError", "HubEngine", "Thinking", "split_command"]
