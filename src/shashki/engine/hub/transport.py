"""Lines both ways with a Hub peer, apart from the protocol spoken over them (as in
python-chess's ``chess/engine.py``): :class:`SubprocessTransport` over an engine's
standard input and output, :class:`SocketTransport` over a connected stream socket (a TCP
connection: the same protocol to an engine elsewhere), and the engine log
(:class:`EngineLog`: ``--engine-log FILE`` or the environment variable
``SHASHKI_ENGINE_LOG``) that every transport writes its traffic to.

Whatever the peer writes, memory stays bounded: its output is read as bytes, a line at
most :data:`~shashki.engine.hub.text.MAX_LINE` bytes long (a longer one ends the reading, and
its mark is handed on), :data:`QUEUE_LINES` lines held at a time (the peer waits on a
full pipe while nobody reads), the last :data:`STDERR_LINES` lines of an engine's
standard error kept (the start of each), and the log takes at most :data:`LOG_BYTES` of
one start's traffic and :data:`LOG_STDERR_BYTES` of its standard error, its control
characters escaped.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import socket
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import IO

from ...base.numbers import one_line, quoted
from ...i18n import N_
from .errors import EngineError
from .text import MAX_LINE

#: Lines read from the peer and not yet handled, at most (then the peer waits).
QUEUE_LINES = 64
#: The last lines of an engine's standard error kept, and the bytes kept of each.
STDERR_LINES = 20
STDERR_LINE_BYTES = 400
#: The characters of each as it is shown.
STDERR_SHOWN_CHARS = 160
#: The environment variable that names the engine log (``--engine-log FILE`` wins).
ENGINE_LOG_VARIABLE = "SHASHKI_ENGINE_LOG"
#: The most bytes of one engine start's traffic, and of its standard error, that go to the
#: log (then a line says the rest is left out), and the characters of a logged line.
LOG_BYTES = 16 * 1024 * 1024
LOG_STDERR_BYTES = 1024 * 1024
LOG_LINE_CHARS = 4096


class _TooLong:
    """The reader's mark: the engine wrote a line longer than MAX_LINE bytes."""


#: What a transport hands on: a line, the mark of a line too long (the reading ended),
#: or None (the end of the peer's output).
Received = str | _TooLong | None


# -- the log ------------------------------------------------------------------------------


def _loggable(text: str) -> str:
    """``text`` as one line of the log: its control and format characters escaped (an
    engine's escape sequences never reach a terminal that shows the log), cut after
    :data:`LOG_LINE_CHARS` characters."""
    cut = ""
    if len(text) > LOG_LINE_CHARS:
        cut = f"… ({len(text)} characters)"
        text = text[:LOG_LINE_CHARS]
    if text.isprintable():
        return text + cut
    return (
        "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text) + cut
    )


class EngineLog:
    """The traffic with engines and their standard error, appended to a file, a line
    each: the time, who (the engine's name and process, or the peer's address), a mark
    (``>`` to it, ``<`` from it, ``!`` its standard error, ``#`` what happened), the
    text.  Writing never fails a game: a log that cannot be written any more stops."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open ``path`` to append to it; raises EngineError in one line (a FIFO nobody
        reads is refused at once, not waited on)."""
        self.path = os.fspath(path)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags, 0o644)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise EngineError(
                N_("cannot write the engine log {path}: {reason}"),
                path=quoted(self.path, 80),
                reason=reason,
            ) from None
        os.set_blocking(fd, True)
        self._file: IO[str] = os.fdopen(fd, "a", encoding="utf-8", errors="replace")
        self._lock = threading.Lock()
        #: Why the log stopped, once it could not be written.
        self.broken: OSError | None = None

    def write(self, who: str, mark: str, text: str) -> None:
        now = time.time()
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))
        entry = f"{stamp}.{int(now % 1 * 1000):03d} {_loggable(who)} {mark} {_loggable(text)}\n"
        with self._lock:
            if self.broken is not None:
                return
            try:
                self._file.write(entry)
                self._file.flush()
            except OSError as exc:
                self.broken = exc
            except ValueError:  # (closed)
                self.broken = OSError("the log is closed")

    def close(self) -> None:
        with self._lock, contextlib.suppress(OSError, ValueError):
            self._file.close()


_logs_lock = threading.Lock()
#: The log chosen by :func:`use_engine_log` (the command line's ``--engine-log``).
_chosen_log: EngineLog | None = None
#: The logs opened for the environment variable, by path.
_env_logs: dict[str, EngineLog] = {}


def use_engine_log(path: str | os.PathLike[str] | None) -> EngineLog | None:
    """Log every engine started from now on to ``path`` (None: as the environment
    says); the log.  Raises EngineError when the file cannot be opened."""
    global _chosen_log
    log = EngineLog(path) if path is not None else None
    with _logs_lock:
        old, _chosen_log = _chosen_log, log
    if old is not None and old is not log:
        old.close()
    return log


def engine_log() -> EngineLog | None:
    """The log an engine started now writes to: the one :func:`use_engine_log` chose,
    else the file :data:`ENGINE_LOG_VARIABLE` names (opened once), else none.  Raises
    EngineError when that file cannot be opened."""
    with _logs_lock:
        if _chosen_log is not None:
            return _chosen_log
        path = os.environ.get(ENGINE_LOG_VARIABLE, "")
        if not path:
            return None
        log = _env_logs.get(path)
        if log is None:
            log = _env_logs[path] = EngineLog(path)
        return log


# -- transports ---------------------------------------------------------------------------


class LineTransport:
    """Lines both ways with a Hub peer: :meth:`write_line` sends one, :attr:`lines` hands
    on what the peer writes (see :data:`Received`), read in a thread of its own and
    bounded as the module says.  Subclasses say where the bytes go, and may say what
    ends a line (:attr:`END`: DXP ends its messages with a NUL byte) and how long one may
    be (:attr:`LONGEST`)."""

    #: The byte that ends a line, and the most bytes of one line.
    END = b"\n"
    LONGEST = MAX_LINE

    def __init__(self, who: str, log: EngineLog | None) -> None:
        #: Who the peer is, for the log: a name and a process, or an address.
        self.who = who
        self.log = log
        self.lines: queue.Queue[Received] = queue.Queue(QUEUE_LINES)
        self._closing = threading.Event()
        self._ended = threading.Event()  # (the reader met the end of the output)
        self._stderr: deque[bytes] = deque(maxlen=STDERR_LINES)
        self._stderr_lock = threading.Lock()
        self._stderr_reader: threading.Thread | None = None
        self._logged = {"traffic": 0, "stderr": 0}
        self._log_lock = threading.Lock()

    # -- what subclasses give

    def _write(self, data: bytes) -> None:
        """Send ``data``; raises OSError or ValueError when the peer cannot take it."""
        raise NotImplementedError

    @property
    def alive(self) -> bool:
        """Whether the peer is there: its process running, its connection open."""
        raise NotImplementedError

    def kill(self) -> None:
        """End the peer at once (a process killed, a connection cut)."""
        raise NotImplementedError

    def close(self, goodbye: str | None = None) -> None:
        """Send ``goodbye`` and let the peer end; end it if it does not, soon."""
        raise NotImplementedError

    # -- what every transport does

    def write_line(self, text: str) -> None:
        """Send one line; raises OSError or ValueError when the peer cannot take it."""
        self.note(">", text)
        self._write(text.encode("utf-8") + self.END)

    def note(self, mark: str, text: str) -> None:
        """Write ``text`` to the log, if there is one, within this start's share of it."""
        log = self.log
        if log is None:
            return
        kind = "stderr" if mark == "!" else "traffic"
        most = LOG_STDERR_BYTES if kind == "stderr" else LOG_BYTES
        with self._log_lock:
            used = self._logged[kind]
            if used > most:
                return
            self._logged[kind] = used + len(text) + 1
            if used + len(text) + 1 > most:
                mark, text = "#", f"the log leaves out the rest of this {kind} (over {most} bytes)"
        log.write(self.who, mark, text)

    def _start_reader(self, stream: IO[bytes], name: str) -> None:
        threading.Thread(target=self._read, args=(stream,), daemon=True, name=name).start()

    def _raw_lines(self, stream: IO[bytes]) -> Iterator[bytes | None]:
        """The peer's lines as bytes, without their end; None for a line longer than
        :attr:`LONGEST` bytes (the last one given)."""
        if self.END == b"\n":
            while True:
                raw = stream.readline(self.LONGEST + 1)
                if not raw:
                    return
                if len(raw) > self.LONGEST and not raw.endswith(b"\n"):
                    yield None
                    return
                yield raw.rstrip(b"\r\n")
        read = getattr(stream, "read1", stream.read)
        kept = b""
        while True:
            while self.END in kept:
                raw, _end, kept = kept.partition(self.END)
                if len(raw) > self.LONGEST:
                    yield None
                    return
                yield raw
            if len(kept) > self.LONGEST:
                yield None
                return
            chunk = read(4096)
            if not chunk:
                return
            kept += chunk

    def _read(self, stream: IO[bytes]) -> None:
        """Hand the peer's lines on, waiting while the queue is full; a line longer than
        :attr:`LONGEST` bytes ends the reading (the mark is handed on), and so does the
        end of the output (None)."""
        lines, closing = self.lines, self._closing

        def put(item: Received) -> bool:
            while not closing.is_set():
                try:
                    lines.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    continue
            return False

        end: Received = None
        try:
            for raw in self._raw_lines(stream):
                if raw is None:
                    self.note("#", f"a line longer than {self.LONGEST} bytes: the reading ends")
                    end = _TooLong()
                    break
                text = raw.decode("utf-8", "replace")
                self.note("<", text)
                if not put(text):
                    return
        except (OSError, ValueError):
            pass
        finally:
            self._ended.set()
            with contextlib.suppress(OSError):
                stream.close()  # (a peer still writing gets a broken pipe)
        if end is None:
            self.note("#", "the end of its output")
        put(end)

    def _start_stderr_reader(self, stream: IO[bytes], name: str) -> None:
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(stream,), daemon=True, name=name
        )
        self._stderr_reader.start()

    def _read_stderr(self, stream: IO[bytes]) -> None:
        """Keep the start of each of the last lines of the peer's standard error."""
        try:
            start = True
            while True:
                raw = stream.readline(4096)
                if not raw:
                    break
                if start:  # (of a longer line, its first 4096 bytes)
                    with self._stderr_lock:
                        self._stderr.append(raw[:STDERR_LINE_BYTES])
                    text = raw.decode("utf-8", "replace").rstrip("\r\n")
                    self.note("!", text if raw.endswith(b"\n") else text + " …")
                start = raw.endswith(b"\n")
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def stderr_kept(self) -> list[bytes]:
        """The starts of the last lines of the peer's standard error, as read."""
        with self._stderr_lock:
            return list(self._stderr)

    def stderr(self) -> list[str]:
        """The last lines of the peer's standard error, as plain text."""
        lines = (
            one_line(r.decode("utf-8", "replace"), STDERR_SHOWN_CHARS) for r in self.stderr_kept()
        )
        return [text for text in lines if text]

    def wait_stderr(self, timeout: float) -> None:
        """Wait until the standard error is read to its end (what the peer wrote before
        it ended), ``timeout`` seconds at most."""
        reader = self._stderr_reader
        if reader is not None:
            reader.join(timeout=timeout)


class SubprocessTransport(LineTransport):
    """An engine's standard input and output (and its standard error, kept and logged)."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        name: str = "",
        log: EngineLog | None = None,
    ) -> None:
        """Start the engine; raises OSError or ValueError when it cannot be started."""
        self.proc = subprocess.Popen(
            list(args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        super().__init__(f"{name or os.path.basename(args[0])}[{self.proc.pid}]", log)
        self.note("#", "started: " + shlex.join(args) + (f" (in {os.fspath(cwd)})" if cwd else ""))
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._start_reader(self.proc.stdout, f"hub {self.who}")
        self._start_stderr_reader(self.proc.stderr, f"hub {self.who} stderr")

    def _write(self, data: bytes) -> None:
        stdin = self.proc.stdin
        if stdin is None or self.proc.poll() is not None:
            raise BrokenPipeError("the engine has ended")
        stdin.write(data)
        stdin.flush()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        proc = self.proc
        if proc.poll() is None:
            proc.kill()
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                proc.wait(timeout=5)
            self.note("#", "stopped")

    def close(self, goodbye: str | None = None) -> None:
        proc = self.proc
        if proc.poll() is None and goodbye is not None:
            with contextlib.suppress(OSError, ValueError):
                self.write_line(goodbye)
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.kill()
        elif proc.poll() is None:
            self.kill()
        self._closing.set()  # (the reader hands nothing more on)
        if proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        # (its output streams are closed by their readers, which may still be reading)
        if proc.returncode is not None:
            self.note("#", f"ended, status {proc.returncode}")


class SocketTransport(LineTransport):
    """A connected stream socket (a TCP connection to an engine, or a socket pair)."""

    def __init__(
        self, sock: socket.socket, *, name: str = "", log: EngineLog | None = None
    ) -> None:
        self.sock = sock
        try:
            peer = sock.getpeername()
            address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer or "socket")
        except OSError:
            address = "socket"
        super().__init__(f"{name}[{address}]" if name else address, log)
        self._open = True
        self.note("#", "connected")
        self._start_reader(sock.makefile("rb"), f"hub {self.who}")

    def _write(self, data: bytes) -> None:
        if not self._open:
            raise BrokenPipeError("the connection is closed")
        self.sock.sendall(data)

    @property
    def alive(self) -> bool:
        return self._open and not self._ended.is_set()

    def kill(self) -> None:
        if self._open:
            self._open = False
            self._closing.set()
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self.sock.close()
            self.note("#", "disconnected")

    def close(self, goodbye: str | None = None) -> None:
        if self._open and goodbye is not None:
            with contextlib.suppress(OSError, ValueError):
                self.write_line(goodbye)
        self.kill()


__all__ = [
    "ENGINE_LOG_VARIABLE",
    "EngineLog",
    "LineTransport",
    "Received",
    "SocketTransport",
    "SubprocessTransport",
    "engine_log",
    "use_engine_log",
]
