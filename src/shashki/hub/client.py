"""Another program's engine as a player, over the Hub protocol (a subprocess).

Version 2 (dame-rs, Scan 3.x) and the version 1 dialect of Scan 2.0 are spoken; which
one is found out from the answer to ``hub`` (version 1 engines answer ``wait`` without
an ``id`` line).  Every wait has a timeout; an engine that stops, hangs, or answers a
move that is not legal raises :class:`EngineError` and is stopped.  The engine's moves
are found among the legal moves of shashki's rules, like anyone's.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..i18n import N_, _
from ..rules import Game, Move
from ..rules.errors import ShashkiError
from ..rules.numbers import quoted
from ..rules.variant import Variant
from .text import MAX_LINE, HubError, find_move, line, move_text, parse_line, position_text

#: Seconds an engine may take to start and answer ``hub`` / ``init``.
START_TIMEOUT = 20.0
#: Seconds an engine may take beyond the time it was given for a move.
MOVE_GRACE = 5.0
#: Seconds a search bounded by depth alone may take.
DEPTH_TIMEOUT = 120.0


class EngineError(ShashkiError):
    """The engine stopped, did not answer in time, or answered something unusable.

    ``str()`` is the English sentence (match records keep it); :meth:`said` is the
    same in the language spoken now (the app tells a player)."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**self._named(values, local=False)))
        self.template = template
        self.values = values

    @staticmethod
    def _named(values: dict[str, object], *, local: bool) -> dict[str, object]:
        """The values, a variant by its name (in the language spoken, if ``local``)."""
        return {
            k: (v.local_name if local else v.name) if isinstance(v, Variant) else v
            for k, v in values.items()
        }

    def said(self) -> str:
        return _(self.template).format(**self._named(self.values, local=True))


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
    ``close()`` (also a context manager)."""

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
        self.name = name or os.path.basename(self.args[0])
        self.start_timeout = start_timeout
        self.move_grace = move_grace
        self.version = 2
        self.params: dict[str, dict[str, str]] = {}
        self.info: dict[str, str] = {}
        self.last = Thinking()
        self.variant: Variant | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    # -- the process ------------------------------------------------------------------

    def start(self) -> HubEngine:
        try:
            self._proc = subprocess.Popen(
                self.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
            )
        except OSError as exc:
            raise EngineError(
                N_("cannot start engine {command}: {reason}"),
                command=quoted(self.command, 60),
                reason=exc,
            ) from None
        reader = threading.Thread(target=self._read, daemon=True, name=f"hub {self.name}")
        reader.start()
        self.send("hub")
        seen_id = False
        for text in self._until({"wait"}, self.start_timeout, "hub"):
            command, args = _parse(text)
            if command == "id":
                seen_id = True
                self.info = args
                self.name = args.get("name", self.name) or self.name
            elif command == "param" and "name" in args:
                self.params[args["name"]] = args
        self.version = 2 if seen_id else 1
        return self

    def _read(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        try:
            while True:
                text = proc.stdout.readline(MAX_LINE)
                if not text:
                    break
                self._lines.put(text.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def send(self, text: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.poll() is not None:
            raise EngineError(N_("engine {name} is not running"), name=self.name)
        try:
            proc.stdin.write(text + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineError(
                N_("engine {name} stopped (it closed its input)"), name=self.name
            ) from None

    def _until(
        self,
        ends: set[str],
        timeout: float,
        what: str,
        cancelled: Callable[[], bool] | None = None,
    ) -> list[str]:
        """The lines up to one whose first word is in ``ends`` (included); [] as soon as
        ``cancelled()`` turns true."""
        deadline = time.monotonic() + timeout
        got: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise EngineError(
                    N_("engine {name} did not answer {what} in {seconds} s"),
                    name=self.name,
                    what=what,
                    seconds=f"{timeout:g}",
                )
            if cancelled is not None and cancelled():
                return []
            try:
                text = self._lines.get(timeout=min(left, 0.05) if cancelled else left)
            except queue.Empty:
                continue
            if text is None:
                self.kill()
                raise EngineError(
                    N_("engine {name} stopped (while answering {what})"), name=self.name, what=what
                )
            got.append(text)
            word = text.split(" ", 1)[0]
            if word in ends:
                return got
            if word == "error" and what in ("hub", "init"):
                continue

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
        """Ask the engine to quit; stop it if it does not within a second."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(EngineError):
                self.send("quit")
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
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
        if self.version == 1:
            self.send("pos " + position_text(game, version=1))
            if depth is not None:
                self.send(f"depth {depth}")
            else:
                ms = int(1000 * (seconds if seconds is not None else (remaining or 1.0) / 30))
                self.send(f"time {max(1, ms)}")
            self.send("go")
            answer = self._until({"move"}, timeout, "go", cancelled)
            if not answer:
                self.kill()  # (version 1 has no stop: the engine is started again)
                return None
        else:
            start, moves = _start_and_moves(game)
            self.send(line("pos", pos=position_text(start), moves=moves or None))
            if depth is not None:
                self.send(line("level", depth=depth))
            elif remaining is not None:
                self.send(line("level", remaining_time=f"{remaining:.3f}", increment=increment))
            else:
                self.send(line("level", move_time=f"{seconds if seconds is not None else 1.0:g}"))
            self.send("go think")
            answer = self._until({"done"}, timeout, "go think", cancelled)
            if not answer:
                self.send("stop")
                self._until({"done"}, self.move_grace, "stop")
                return None
        self.last = Thinking()
        for text in answer[:-1]:
            command, args = _parse(text)
            if command == "info":
                if self.version == 1:
                    parts = text.split()
                    self.last = Thinking(
                        parts[1] if len(parts) > 1 else "",
                        parts[3] if len(parts) > 3 else "",
                        " ".join(parts[7:]),
                    )
                else:
                    self.last = Thinking(
                        args.get("depth", ""), args.get("score", ""), args.get("pv", ""), args
                    )
        final = answer[-1]
        if self.version == 1:
            parts = final.split()
            text = parts[1] if len(parts) > 1 else ""
        else:
            text = _parse(final)[1].get("move", "")
        if not text:
            raise EngineError(
                N_("engine {name} answered no move ({answer})"),
                name=self.name,
                answer=quoted(final, 60),
            )
        try:
            return find_move(game, text)
        except HubError as exc:
            raise EngineError(
                N_("engine {name} answered an illegal move: {reason}"), name=self.name, reason=exc
            ) from None


def _parse(text: str) -> tuple[str, dict[str, str]]:
    try:
        return parse_line(text)
    except HubError:
        return text.split(" ", 1)[0], {}


def _start_and_moves(game: Game) -> tuple[Game, str]:
    """The game's start position and its moves as Hub text."""
    start = game.copy()
    for _move in game.move_stack:
        start.pop()
    return start, " ".join(move_text(game.variant, move) for move in game.move_stack)


__all__ = ["EngineError", "HubEngine", "Thinking", "split_command"]
