"""The log: what an engine, a network peer or a file did wrong, written down for a user
who reports a problem.

Each package of shashki logs to one logger named after it — ``shashki.engine`` (the
search and other programs' engines), ``shashki.hub``, ``shashki.online``,
``shashki.records``, ``shashki.rules``, ``shashki.store``, ``shashki.session``,
``shashki.app``, ``shashki.serve`` — got with ``log = package_logger(__name__)``.  The
library writes nowhere by itself: ``shashki`` has a ``NullHandler`` and nothing else (a
program that uses the library sees these records only if it configures logging).  The
``shashki`` command writes them to a file when asked, ``--log FILE`` or the environment
variable :data:`LOG_VARIABLE`, a line each: the time, the level, the logger, the message,
made one line of plain text (an engine's or a peer's words drive no terminal that shows
the file).  The engine log (``--engine-log``: every line said with an engine) is another
file, with a form of its own.

Standard library only, and :mod:`shashki.base.numbers`.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import IO

from .numbers import one_line

#: The environment variable that names the log file (``--log FILE`` wins).
LOG_VARIABLE = "SHASHKI_LOG"
#: The characters kept of one message (a peer's or an engine's words can be long).
MESSAGE_CHARS = 2000
#: The logger every package's logger is under.
ROOT = "shashki"


def package_logger(module: str) -> logging.Logger:
    """The logger of the package ``module`` (a ``__name__``) is in: ``shashki.hub`` for
    ``shashki.hub.server``, ``shashki.engine`` for ``shashki.engine.hub.client``."""
    return logging.getLogger(".".join(module.split(".")[:2]))


class _Lines(logging.Formatter):
    """A record as one line of plain text: ``2026-12-07 14:03:07.123 WARNING
    shashki.engine: engine dame stopped``."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.created))
        message = one_line(record.getMessage(), MESSAGE_CHARS)
        if record.exc_info:
            kind = record.exc_info[0]
            name = kind.__name__ if kind is not None else "error"
            message += f" ({name}: {one_line(str(record.exc_info[1]), MESSAGE_CHARS)})"
        return f"{stamp}.{int(record.msecs):03d} {record.levelname} {record.name}: {message}"


class _FileHandler(logging.Handler):
    """Appends to an open file; a file that cannot be written any more stops the log,
    never the program."""

    def __init__(self, file: IO[str], path: str) -> None:
        super().__init__(logging.DEBUG)
        self.file = file
        self.path = path
        self.write_lock = threading.Lock()
        self.broken = False
        self.setFormatter(_Lines())

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
        except Exception:  # (a message that cannot be formatted: the log goes on)
            line = f"{record.name}: {record.msg!r}"
        with self.write_lock:
            if self.broken:
                return
            try:
                self.file.write(line + "\n")
                self.file.flush()
            except (OSError, ValueError):
                self.broken = True

    def close(self) -> None:
        with self.write_lock:
            try:
                self.file.close()
            except (OSError, ValueError):
                pass
        super().close()


_handler: _FileHandler | None = None
_handler_lock = threading.Lock()


def open_log_file(path: str | os.PathLike[str]) -> IO[str]:
    """``path`` opened to append to, made for this user alone when it is new; a FIFO
    nobody reads is refused at once, not waited on.  Raises OSError or ValueError."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC
    fd = os.open(os.fspath(path), flags, 0o600)
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "a", encoding="utf-8", errors="replace")
    except BaseException:
        os.close(fd)
        raise


def log_to(path: str | os.PathLike[str] | None) -> logging.Handler | None:
    """Write the records of every logger of shashki, from debugging details up, to the
    file ``path`` (appended to) from now on, in place of the file given before; None: to
    no file.  The handler, or None.  Raises OSError or ValueError when the file cannot be
    opened (nothing is changed then)."""
    global _handler
    root = logging.getLogger(ROOT)
    new = None
    if path is not None:
        new = _FileHandler(open_log_file(path), os.fspath(path))
    with _handler_lock:
        old, _handler = _handler, new
        if old is not None:
            root.removeHandler(old)
        if new is not None:
            root.addHandler(new)
            root.setLevel(logging.DEBUG)
        else:
            root.setLevel(logging.NOTSET)
    if old is not None:
        old.close()
    if new is not None:
        root.info("shashki logs to %s (pid %d)", new.path, os.getpid())
    return new


__all__ = ["LOG_VARIABLE", "log_to", "open_log_file", "package_logger"]
