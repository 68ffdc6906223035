"""Another program's engine as a player, over the Hub protocol.

In the shape of python-chess's ``chess/engine.py``, in three parts:

* a **transport** carries lines both ways (:mod:`shashki.engine.hub.transport`):
  :class:`SubprocessTransport` over an engine's standard input and output,
  :class:`SocketTransport` over a connected stream socket (a TCP connection: the same
  protocol to an engine elsewhere), each writing its traffic and the engine's standard
  error to the engine log when there is one (:class:`EngineLog`: ``--engine-log FILE``
  or the environment variable ``SHASHKI_ENGINE_LOG``);
* a **protocol** speaks one dialect over a transport: :class:`HubProtocol` is what both
  share (the handshake, waiting for an answer within its bounds, the errors, a game's
  set-up and a move's request), and :class:`HubV2Protocol` (dame-rs, Scan 3.x) and
  :class:`HubV1Protocol` (Scan 2.0) are what differs.  Which one is found out from the
  answer to ``hub`` (:meth:`HubProtocol.connect`: version 1 engines answer ``wait``
  without an ``id`` line);
* :class:`HubEngine`, the player the app and ``shashki match`` use (python-chess's
  ``SimpleEngine``): a command, started as a subprocess, started again after a failure.

Every wait has a timeout; an engine that stops, hangs, answers a move that is not legal
or an ``error`` line raises :class:`EngineError` and is stopped.  The engine's moves are
found among the legal moves of shashki's rules, like anyone's.  A line or an argument the
client does not know is passed over, as the specification asks.

Whatever the engine writes, memory stays bounded: the transport holds a few dozen lines
of at most 64 KB (see :mod:`shashki.engine.hub.transport`), only the lines an answer needs are
kept (the last ``info``, the ``id`` and ``param`` lines), and an engine that writes more
than :data:`MAX_ANSWER_LINES` lines or :data:`MAX_ANSWER_BYTES` bytes before its answer
is stopped.  The last lines of its standard error are shown when it fails.  Every text of
the engine that reaches a player or a file (its name, its error, its standard error) is
made one line of plain text by :func:`~shashki.base.numbers.one_line` first.
"""

from __future__ import annotations

import os
import queue
import shlex
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from ...base.logs import package_logger
from ...base.numbers import bounded_int, one_line, quoted
from ...i18n import N_
from ...rules import Game, Move
from ...rules.variant import Variant
from ..limits import Limit, move_seconds
from .errors import EngineError
from .text import (
    DEFAULT_HUB_VARIANT,
    MAX_LINE,
    HubError,
    exact_position_text,
    find_move,
    hub_name,
    line,
    move_text,
    parse_line,
)
from .transport import (
    ENGINE_LOG_VARIABLE,
    EngineLog,
    LineTransport,
    SocketTransport,
    SubprocessTransport,
    _TooLong,
    engine_log,
    use_engine_log,
)

logger = package_logger(__name__)

#: Seconds an engine may take to start and answer ``hub`` / ``init``.
START_TIMEOUT = 20.0
#: Seconds an engine may take beyond the time it was given for a move.
MOVE_GRACE = 5.0
#: Seconds a search bounded by depth alone may take.
DEPTH_TIMEOUT = 120.0
#: The most lines and bytes an engine may write before the answer awaited (``wait``,
#: ``ready``, ``done``): more is a flood, and the engine is stopped.
MAX_ANSWER_LINES = 50_000
MAX_ANSWER_BYTES = 8 * 1024 * 1024
#: The most ``param`` lines kept from the answer to ``hub``.
MAX_PARAMS = 100
#: How many of the last lines of the engine's standard error an error shows.
STDERR_SHOWN = 3
#: The longest engine name kept, and the longest error message quoted.
NAME_CHARS = 60
MESSAGE_CHARS = 200


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


# -- protocols ----------------------------------------------------------------------------

_P = TypeVar("_P", bound="HubProtocol")


class HubProtocol:
    """The Hub protocol over a transport, what its dialects share: connect with
    :meth:`connect` (the dialect is found out), then :meth:`new_game` and
    :meth:`best_move` per move, then :meth:`close`."""

    #: The version of the protocol the dialect speaks.
    version: ClassVar[int] = 2
    #: The request of a move as errors name it, and the first words of its answer.
    GO: ClassVar[str] = "go think"
    ANSWER: ClassVar[frozenset[str]] = frozenset({"done"})

    def __init__(
        self,
        transport: LineTransport,
        *,
        name: str,
        start_timeout: float = START_TIMEOUT,
        move_grace: float = MOVE_GRACE,
    ) -> None:
        self.transport = transport
        self.name = name
        self.start_timeout = start_timeout
        self.move_grace = move_grace
        self.params: dict[str, dict[str, str]] = {}
        self.info: dict[str, str] = {}
        self.last = Thinking()
        self.variant: Variant | None = None

    @classmethod
    def connect(
        cls,
        transport: LineTransport,
        *,
        name: str = "",
        start_timeout: float = START_TIMEOUT,
        move_grace: float = MOVE_GRACE,
    ) -> HubProtocol:
        """Send ``hub`` and read the answer up to ``wait``: the protocol of the dialect it
        shows (an ``id`` line: version 2; none: version 1).  Raises EngineError (the
        peer is then stopped)."""
        protocol: HubProtocol = HubV2Protocol(
            transport,
            name=one_line(name, NAME_CHARS) or transport.who,
            start_timeout=start_timeout,
            move_grace=move_grace,
        )
        seen_id = protocol.hello()
        return protocol if seen_id else protocol.speaking(HubV1Protocol)

    def speaking(self, dialect: type[_P]) -> _P:
        """This connection in another dialect (what is known of the peer kept)."""
        other = dialect.__new__(dialect)
        other.__dict__.update(self.__dict__)
        return other

    def hello(self) -> bool:
        """Send ``hub``; read the ``id`` and ``param`` lines up to ``wait``.  Whether an
        ``id`` line came."""
        self.send("hub")
        seen_id = False
        said_name = ""  # (version 1: Scan 2.0 writes "name Scan 2.0" before its wait)

        def seen(text: str) -> None:
            nonlocal seen_id, said_name
            command, args = _parse(text)
            if command == "name" and not said_name:
                said_name = one_line(text.partition(" ")[2], NAME_CHARS)
            elif command == "id":
                seen_id = True
                self.info = {k: one_line(v, MESSAGE_CHARS) for k, v in list(args.items())[:20]}
                self.name = one_line(args.get("name", ""), NAME_CHARS) or self.name
            elif command == "param" and "name" in args:
                if args["name"] in self.params or len(self.params) < MAX_PARAMS:
                    self.params[args["name"]] = args

        self.until({"wait"}, self.start_timeout, "hub", seen=seen)
        if not seen_id and said_name:
            self.name = said_name
        return seen_id

    # -- lines ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.transport.alive

    @property
    def stderr(self) -> list[str]:
        """The last lines the engine wrote on its standard error, as plain text."""
        return self.transport.stderr()

    def failed(self, template: str, **values: object) -> EngineError:
        """Stop the engine; the error saying ``template``, with the last lines of its
        standard error."""
        self.transport.kill()
        self.transport.wait_stderr(1.0)  # (what the engine wrote before it ended)
        error = EngineError(template, stderr=self.stderr[-STDERR_SHOWN:], **values)
        logger.warning("%s (stopped; %s)", error, self.transport.who)
        return error

    def send(self, text: str) -> None:
        if not self.transport.alive:
            raise self.failed(N_("engine {name} is not running"), name=self.name)
        try:
            self.transport.write_line(text)
        except (OSError, ValueError):
            raise self.failed(
                N_("engine {name} stopped (it closed its input)"), name=self.name
            ) from None

    def until(
        self,
        ends: set[str] | frozenset[str],
        timeout: float,
        what: str,
        cancelled: Callable[[], bool] | None = None,
        seen: Callable[[str], None] | None = None,
    ) -> str | None:
        """The first line whose first word is in ``ends``; each line before it is given
        to ``seen`` and not kept.  None as soon as ``cancelled()`` turns true.  An
        ``error`` line, a line too long, a flood of lines, the end of the engine or the
        end of ``timeout`` raise EngineError (the engine stopped)."""
        deadline = time.monotonic() + timeout
        count = size = 0
        lines = self.transport.lines
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self.failed(
                    N_("engine {name} did not answer {what} in {seconds} s"),
                    name=self.name,
                    what=what,
                    seconds=f"{timeout:g}",
                )
            if cancelled is not None and cancelled():
                return None
            try:
                text = lines.get(timeout=min(left, 0.05) if cancelled else left)
            except queue.Empty:
                continue
            if text is None:
                raise self.failed(
                    N_("engine {name} stopped (while answering {what})"), name=self.name, what=what
                )
            if isinstance(text, _TooLong):
                raise self.failed(
                    N_("engine {name} wrote a line longer than {size} KB (answering {what})"),
                    name=self.name,
                    size=MAX_LINE // 1024,
                    what=what,
                )
            count += 1
            size += len(text) + 1
            if count > MAX_ANSWER_LINES or size > MAX_ANSWER_BYTES:
                raise self.failed(
                    N_("engine {name} wrote more than {lines} lines without answering {what}"),
                    name=self.name,
                    lines=min(count, MAX_ANSWER_LINES),
                    what=what,
                )
            word = text.split(" ", 1)[0]
            if word in ends:
                return text
            if word == "error":
                raise self.failed(
                    N_("engine {name} answered {what} with an error: {message}"),
                    name=self.name,
                    what=what,
                    message=_error_message(text),
                )
            if seen is not None:
                seen(text)

    def close(self) -> None:
        """Ask the engine to quit; stop it if it does not within a second."""
        self.transport.close("quit")

    # -- the game ---------------------------------------------------------------------

    def plays(self, variant: Variant) -> bool:
        """Whether the engine says it plays ``variant`` (the Hub's own game by default)."""
        name = hub_name(variant)
        param = self.params.get("variant")
        if param is None:
            return name == DEFAULT_HUB_VARIANT
        return name in param.get("values", "").split() or name == param.get("value")

    def new_game(self, variant: Variant) -> None:
        """Set the engine up for a new game of ``variant``; raises EngineError when it
        does not play it."""
        if not self.plays(variant):
            raise EngineError(
                N_("engine {name} does not play {variant}"), name=self.name, variant=variant
            )
        if self.variant is None:
            self.set_up(variant)
            self.send("init")
            self.until({"ready"}, self.start_timeout, "init")
        elif self.variant is not variant:
            raise EngineError(
                N_("engine {name} is set up for {variant}"),
                name=self.name,
                variant=self.variant,
            )
        self.variant = variant
        self.game_starts()

    def best_move(
        self,
        game: Game,
        *,
        seconds: float | None = None,
        depth: int | None = None,
        remaining: float | None = None,
        increment: float = 0.0,
        cancelled: Callable[[], bool] | None = None,
        moves: int | None = None,
    ) -> Move | None:
        """The engine's move in ``game`` (a legal move of shashki's rules); None when
        ``cancelled()`` turned true first (the engine is told to stop, and its answer is
        awaited briefly, or it is stopped).  ``remaining`` and ``increment``: the
        clock's time left for this move and what it gains after it."""
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

        self.ask(
            game,
            seconds=seconds,
            depth=depth,
            remaining=remaining,
            increment=increment,
            moves=moves,
        )
        final = self.until(self.ANSWER, timeout, self.GO, cancelled, seen=keep)
        if final is None:
            self.cancel()
            return None
        self.last = self.thinking(infos[-1]) if infos else Thinking()
        text = self.move_of(final)
        if not text:
            raise self.failed(
                N_("engine {name} answered no move ({answer})"),
                name=self.name,
                answer=quoted(final, 60),
            )
        try:
            return find_move(game, text)
        except HubError as exc:
            raise self.failed(
                N_("engine {name} answered an illegal move: {reason}"), name=self.name, reason=exc
            ) from None

    # -- what a dialect says its own way ------------------------------------------------

    def set_up(self, variant: Variant) -> None:
        """Before ``init``: tell the engine the variant of the games to come."""

    def game_starts(self) -> None:
        """A new game begins (its first position comes with the first move asked)."""

    def ask(
        self,
        game: Game,
        *,
        seconds: float | None,
        depth: int | None,
        remaining: float | None,
        increment: float,
        moves: int | None = None,
    ) -> None:
        """Send the position and the limit, and start the search."""
        raise NotImplementedError

    def cancel(self) -> None:
        """The search asked for is no longer wanted: end it."""
        raise NotImplementedError

    def thinking(self, info: str) -> Thinking:
        """What an ``info`` line says."""
        raise NotImplementedError

    def move_of(self, answer: str) -> str:
        """The move of the answer (``done …`` / ``move …``), as the engine wrote it."""
        raise NotImplementedError


class HubV2Protocol(HubProtocol):
    """Version 2 (dame-rs, Scan 3.x): ``name=value`` arguments, a start position and the
    moves since, ``level`` in the specification's words, ``done``, ``stop``."""

    version = 2

    def set_up(self, variant: Variant) -> None:
        param = self.params.get("variant")
        name = hub_name(variant)
        if param is not None and param.get("value") != name:
            self.send(line("set-param", name="variant", value=name))

    def game_starts(self) -> None:
        self.send("new-game")

    def ask(
        self,
        game: Game,
        *,
        seconds: float | None,
        depth: int | None,
        remaining: float | None,
        increment: float,
        moves: int | None = None,
    ) -> None:
        start, since = _start_and_moves(game)
        text = exact_position_text(start)
        if text is None and start.position != Game(start.variant).position:
            raise _unwritable(start)
        # (None: the variant's own start, which its letters cannot write: the engine's own,
        # which a pos without a position names)
        self.send(line("pos", pos=text, moves=since or None))
        if depth is not None:
            self.send(line("level", depth=depth))
        elif remaining is not None:
            # the specification's clock, "the increment is added before every move": the
            # time left less this move's increment (all of it, when it is less)
            inc = min(increment, remaining)
            self.send(
                line(
                    "level",
                    moves=moves,
                    time=f"{max(0.0, remaining - increment):.3f}",
                    inc=f"{inc:.3f}" if inc > 0 else None,
                )
            )
        else:
            self.send(line("level", move_time=f"{seconds if seconds is not None else 1.0:g}"))
        self.send("go think")

    def cancel(self) -> None:
        self.send("stop")
        self.until(self.ANSWER, self.move_grace, "stop")

    def thinking(self, info: str) -> Thinking:
        args = _parse(info)[1]
        return Thinking(args.get("depth", ""), args.get("score", ""), args.get("pv", ""), args)

    def move_of(self, answer: str) -> str:
        return _parse(answer)[1].get("move", "")


class HubV1Protocol(HubProtocol):
    """Version 1 (Scan 2.0): the position alone before every ``go`` (``go`` may change
    the engine's own board), milliseconds for the move, ``move`` answers, no ``stop``
    (an engine whose search is no longer wanted is stopped, and started again)."""

    version = 1
    GO = "go"
    ANSWER = frozenset({"move"})

    def plays(self, variant: Variant) -> bool:
        return hub_name(variant) == DEFAULT_HUB_VARIANT  # (version 1 has no variants)

    def ask(
        self,
        game: Game,
        *,
        seconds: float | None,
        depth: int | None,
        remaining: float | None,
        increment: float,
        moves: int | None = None,
    ) -> None:
        text = exact_position_text(game, version=1)
        if text is None:
            raise _unwritable(game)
        self.send("pos " + text)
        if depth is not None:
            self.send(f"depth {depth}")
        else:
            if seconds is None and remaining is not None:  # (the one share of a clock)
                seconds = move_seconds(remaining, increment, moves)
            ms = int(1000 * (seconds if seconds is not None else 1.0))
            self.send(f"time {max(1, ms)}")
        self.send("go")

    def cancel(self) -> None:
        self.transport.kill()

    def thinking(self, info: str) -> Thinking:
        # info DEPTH MEAN-DEPTH SCORE NODES TIME MNPS PV…
        parts = info.split()
        return Thinking(
            parts[1] if len(parts) > 1 else "",
            parts[3] if len(parts) > 3 else "",
            " ".join(parts[7:]),
        )

    def move_of(self, answer: str) -> str:
        parts = answer.split()
        return parts[1] if len(parts) > 1 else ""


# -- the engine as a player ---------------------------------------------------------------


class HubEngine:
    """A Hub engine run as a subprocess: ``start()``, then ``best_move()`` per move, then
    ``close()`` (also a context manager).  A closed engine may be started again.  Its
    traffic goes to ``log`` (by default :func:`engine_log`'s, if any)."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        name: str | None = None,
        start_timeout: float = START_TIMEOUT,
        move_grace: float = MOVE_GRACE,
        log: EngineLog | None = None,
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
        self.log = log
        #: The connection to the engine started last (None before the first start).
        self.protocol: HubProtocol | None = None

    # -- the process ------------------------------------------------------------------

    def start(self) -> HubEngine:
        """Start the engine and read its answer to ``hub`` (a started engine is closed
        and started afresh)."""
        if self.protocol is not None:
            self.close()
        self.protocol = None
        traffic = self.log if self.log is not None else engine_log()
        try:
            transport = SubprocessTransport(
                self.args, cwd=self.cwd, name=self._given_name, log=traffic
            )
        except (OSError, ValueError) as exc:
            error = EngineError(
                N_("cannot start engine {command}: {reason}"),
                command=quoted(self.command, 60),
                reason=exc,
            )
            logger.warning("%s", error)
            raise error from None
        try:
            self.protocol = HubProtocol.connect(
                transport,
                name=self._given_name,
                start_timeout=self.start_timeout,
                move_grace=self.move_grace,
            )
        except EngineError:
            transport.close()  # (stopped already: its pipes closed too)
            raise
        logger.info(
            "engine %s started: %s, Hub version %d",
            self.protocol.name,
            self.command,
            self.protocol.version,
        )
        return self

    def _connection(self) -> HubProtocol:
        if self.protocol is None:
            raise EngineError(N_("engine {name} is not running"), name=self._given_name)
        return self.protocol

    @property
    def transport(self) -> LineTransport | None:
        return self.protocol.transport if self.protocol is not None else None

    @property
    def name(self) -> str:
        return self.protocol.name if self.protocol is not None else self._given_name

    @property
    def version(self) -> int:
        return self.protocol.version if self.protocol is not None else HubV2Protocol.version

    @property
    def params(self) -> dict[str, dict[str, str]]:
        return self.protocol.params if self.protocol is not None else {}

    @property
    def info(self) -> dict[str, str]:
        return self.protocol.info if self.protocol is not None else {}

    @property
    def last(self) -> Thinking:
        return self.protocol.last if self.protocol is not None else Thinking()

    @property
    def variant(self) -> Variant | None:
        """The variant the engine is set up for (None: it is set up at the next game)."""
        return self.protocol.variant if self.protocol is not None else None

    @variant.setter
    def variant(self, variant: Variant | None) -> None:
        self._connection().variant = variant

    @property
    def stderr(self) -> list[str]:
        """The last lines the engine wrote on its standard error, as plain text."""
        return self.protocol.stderr if self.protocol is not None else []

    @property
    def running(self) -> bool:
        """Whether the engine's process is started and has not ended."""
        return self.protocol is not None and self.protocol.running

    def send(self, text: str) -> None:
        self._connection().send(text)

    def kill(self) -> None:
        if self.protocol is not None:
            self.protocol.transport.kill()

    def close(self) -> None:
        """Ask the engine to quit; stop it if it does not within a second.  It may be
        started again."""
        if self.protocol is not None:
            self.protocol.close()

    def __enter__(self) -> HubEngine:
        return self.start() if not self.running else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the game ---------------------------------------------------------------------

    def plays(self, variant: Variant) -> bool:
        """Whether the engine says it plays ``variant`` (before it is started: whether
        that is the Hub's own game)."""
        if self.protocol is None:
            return hub_name(variant) == DEFAULT_HUB_VARIANT
        return self.protocol.plays(variant)

    def new_game(self, variant: Variant) -> None:
        """Set the engine up for a new game of ``variant``; raises EngineError when it
        does not play it."""
        self._connection().new_game(variant)

    def best_move(
        self,
        game: Game,
        *,
        seconds: float | None = None,
        depth: int | None = None,
        remaining: float | None = None,
        increment: float = 0.0,
        cancelled: Callable[[], bool] | None = None,
        moves: int | None = None,
    ) -> Move | None:
        """The engine's move in ``game`` (see :meth:`HubProtocol.best_move`)."""
        return self._connection().best_move(
            game,
            seconds=seconds,
            depth=depth,
            remaining=remaining,
            increment=increment,
            cancelled=cancelled,
            moves=moves,
        )

    def analyse(
        self,
        game: Game,
        limit: Limit | None = None,
        *,
        seconds: float = 1.0,
        cancelled: Callable[[], bool] | None = None,
    ) -> Analysis:
        """What the engine thinks of ``game``'s position within ``limit`` (python-chess's
        ``analyse`` and ``play`` in one): the move it chooses, a legal move of shashki's
        rules (None when ``cancelled()`` turned true first), with the depth, score and
        line of its last ``info``.  A clock (``limit.left``, ``increment``) is given to
        the engine to manage; a depth alone is searched to that depth; else the time a
        move is ``limit.seconds``, or ``seconds`` when the limit has none.  Raises
        EngineError (the engine is then stopped; :meth:`start` starts it again)."""
        limit = limit or Limit()
        if limit.nodes is not None and limit.depth is None and limit.seconds is None:
            raise EngineError(
                N_("engine {name} cannot be held to a number of nodes: give a time or a depth"),
                name=self.name,
            )
        if limit.left is not None:
            move = self.best_move(
                game, remaining=limit.left, increment=limit.increment, cancelled=cancelled
            )
        elif limit.depth is not None and limit.seconds is None:
            move = self.best_move(game, depth=limit.depth, cancelled=cancelled)
        else:
            move = self.best_move(game, seconds=limit.move_seconds(seconds), cancelled=cancelled)
        if move is None:
            return Analysis(None)
        last = self.last
        depth = bounded_int(last.depth.strip(), 10_000) if last.depth else None
        return Analysis(move, depth, last.score, _line(game, last.pv), dict(last.raw))


@dataclass(frozen=True)
class Analysis:
    """What an engine said of a position (:meth:`HubEngine.analyse`)."""

    #: The move it chose (None: the analysis was cancelled).
    move: Move | None
    #: The depth of its search, as its last ``info`` line gave it (None: not said).
    depth: int | None = None
    #: Its score, as it wrote it (version 2 engines: in men, ``"0.25"``; version 1: the
    #: engine's own unit), "" when not said.
    score: str = ""
    #: The line it expects from the position, its moves as far as they are legal.
    pv: list[Move] = field(default_factory=list)
    #: Every field of its last ``info`` line (version 2), as written.
    info: dict[str, str] = field(default_factory=dict)


@contextmanager
def open_engine(
    command: str | Sequence[str],
    *,
    name: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    log: EngineLog | str | os.PathLike[str] | None = None,
    start_timeout: float = START_TIMEOUT,
    move_grace: float = MOVE_GRACE,
) -> Iterator[HubEngine]:
    """A Hub engine started from ``command`` (a command line or its words), closed at
    the end of the ``with`` block (python-chess's ``SimpleEngine.popen_uci``).

    Every wait is bounded: ``start_timeout`` seconds to start and answer, ``move_grace``
    seconds beyond the time of a move.  The traffic goes to ``log`` (an
    :class:`EngineLog`, or a file's path: appended to, in the engine log's form), by
    default to the one ``SHASHKI_ENGINE_LOG`` names, if any.  Raises EngineError when
    the engine cannot be started or does not answer."""
    own_log: EngineLog | None = None
    if isinstance(log, (str, os.PathLike)):
        own_log = log = EngineLog(log)
    engine = HubEngine(
        command,
        cwd=cwd,
        name=name,
        start_timeout=start_timeout,
        move_grace=move_grace,
        log=log,
    )
    try:
        engine.start()
        yield engine
    finally:
        engine.close()
        if own_log is not None:
            own_log.close()


def _line(game: Game, text: str) -> list[Move]:
    """The moves of an engine's line (Hub text) from ``game``'s position, as far as they
    are legal there."""
    walk = game.copy()
    moves = []
    for word in text.split():
        try:
            move = find_move(walk, word)
        except HubError:
            break
        moves.append(move)
        walk.push(move)
    return moves


def _parse(text: str) -> tuple[str, dict[str, str]]:
    """An engine's line, what cannot be read of it passed over."""
    return parse_line(text, lenient=True)


def _error_message(text: str) -> str:
    """The message of an ``error`` line (version 2: its ``message``; version 1 and
    others: the rest of the line), as plain text."""
    message = _parse(text)[1].get("message") or text.partition(" ")[2]
    return one_line(message, MESSAGE_CHARS) or "?"


def _unwritable(game: Game) -> EngineError:
    """The refusal of a position the Hub protocol's text cannot say all of (sending
    another position instead would have the engine think about a game not played)."""
    return EngineError(
        N_("this position of {variant} cannot be written in the Hub protocol"),
        variant=game.variant,
    )


def _start_and_moves(game: Game) -> tuple[Game, str]:
    """The game's start position and its moves as Hub text."""
    start = game.copy()
    for _move in game.move_stack:
        start.pop()
    return start, " ".join(move_text(game.variant, move) for move in game.move_stack)


__all__ = [
    "ENGINE_LOG_VARIABLE",
    "Analysis",
    "EngineError",
    "EngineLog",
    "HubEngine",
    "HubProtocol",
    "HubV1Protocol",
    "HubV2Protocol",
    "LineTransport",
    "SocketTransport",
    "SubprocessTransport",
    "Thinking",
    "engine_log",
    "open_engine",
    "split_command",
    "use_engine_log",
]
