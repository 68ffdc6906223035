"""``shashki serve``: the app in a web browser, with textual-serve.

Each visitor of the page gets an app of his own: one ``shashki`` process per browser
connection, started here (this Python, ``-m shashki``, no shell), whose terminal's bytes
go over a WebSocket to xterm.js in the page.  textual-serve gives the page's scripts and
fonts and the protocol of the app's pipes; what it leaves open is closed here:

- **Who may connect.**  Every request must name, in its ``Host`` header, an address this
  server is served at (127.0.0.1 or localhost and the port; with ``--public`` also an IP
  address of the machine or its name; and the names the owner gives with
  ``--allow-host``): a name an attacker's DNS points here (DNS rebinding) is refused.
  The WebSocket that starts an app must come from a page of this very server (its
  ``Origin`` names the ``Host`` asked for, or an allowed name): a page of another site
  the owner has open cannot start an app, read its screen nor type into it.  The page
  may not be framed by another site, and loads nothing from anywhere else.
- **What a connection costs.**  A connection with no request under way (one that never
  sends a request, or an idle keep-alive) is cut after
  :data:`~shashki.base.door.REQUEST_SECONDS`; a few of one address and some dozens in all
  are kept, a newcomer pushing out the oldest idle one of the most crowded address; an
  answer not taken within :data:`~shashki.base.door.ANSWER_SECONDS` cuts its connection
  (:mod:`shashki.base.door`).
- **What a visitor costs.**  At most ``--visitors`` apps at once; a terminal of at most
  :data:`~shashki.session.served.MOST_COLUMNS` by
  :data:`~shashki.session.served.MOST_ROWS` cells (the app bounds it too); an app ends
  when its visitor goes (asked to quit, then stopped: its engines with it) and every app
  ends when the server does — also when it is killed, as its app sees its pipe close
  (:mod:`shashki.app.served_driver`).
- **What the owner's terminal shows.**  One line when an app starts or ends, never a
  visitor's words nor a traceback; an app that fails leaves what it wrote in a file of
  the cache folder, named in that line.

The apps run as the user who started ``shashki serve``: their settings, autosaves and
saved games are that user's, on this machine.  A visitor is not the owner, so every app
runs in served mode (:mod:`shashki.session.served`): no program is started but the
engines of the owner's settings, files stay in shashki's games folder, no game is
hosted, and joining one is off unless the owner passes ``--allow-join``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import io
import ipaddress
import json
import logging
import os
import shlex
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .base.door import Door, doors
from .i18n import _, error_line
from .session.served import JOIN_VARIABLE, SERVED_VARIABLE, terminal_size

if TYPE_CHECKING:
    from aiohttp import web
    from aiohttp.abc import AbstractAccessLogger
    from textual_serve.app_service import AppService as _AppServiceBase
    from textual_serve.server import Server as _ServerBase
else:  # (textual-serve and aiohttp are loaded when a server is made, not by every command)
    _AppServiceBase = _ServerBase = object

#: The port served when none is given.
DEFAULT_PORT = 8000
#: The apps that may run at once when ``--visitors`` says nothing: each is a process of
#: its own (some 60 MB), so a flood of connections cannot take the machine's memory.
DEFAULT_VISITORS = 8
#: The most ``--visitors`` accepts.
MOST_VISITORS = 200
#: Seconds an app is given to end by itself once its visitor has gone (or the server
#: ends), then to end on SIGTERM, before it and what it started are killed.
QUIT_SECONDS = 3.0
TERM_SECONDS = 2.0
#: The longest message a page may send (a paste): larger ends the connection.
MESSAGE_LIMIT = 256 * 1024
#: The most of an app's standard error kept (it goes to a file, never to the terminal).
STDERR_LIMIT = 64 * 1024
#: The driver a served app draws through (textual's web driver, bounded, and ending the
#: app when the server is gone).
DRIVER = "shashki.app.served_driver:ServedDriver"
#: The page's own files: its template, style and script.
PAGE_FILES = Path(__file__).parent / "web"
#: The page's font sizes (``?fontsize=N``), bounded.
FONT_SIZES = (8, 40)
#: What every answer carries: nothing from elsewhere, never in another site's frame.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def _number(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        body = text.strip()
        digits = body.lstrip("0") or "0"  # (a number of any length, read only when short)
        if not (body.isascii() and body.isdigit() and len(digits) <= 6) or not (
            low <= int(digits) <= high
        ):
            raise argparse.ArgumentTypeError(
                _("not a whole number from {low} to {high}: {text}").format(
                    low=low, high=high, text=repr(text[:20])
                )
            )
        return int(digits)

    return parse


def _host_name(text: str) -> str:
    """An ``--allow-host`` name: a host name or an IP address, with a port or not."""
    name = text.strip().lower()
    if _split_host(name) is None:
        raise argparse.ArgumentTypeError(
            _("not a host name (with a port or not): {text}").format(text=repr(text[:60]))
        )
    return name


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the command line's subcommands."""
    p = sub.add_parser(
        "serve",
        help=_("serve the app to a web browser"),
        description=_(
            "Serve the app to web browsers: each visitor of the page gets an app of his "
            "own, running on this machine as you (your settings, engines and saved games). "
            "A visitor cannot start a program other than the engines your settings name, "
            "nor open or save a file outside shashki's games folder. By default only this "
            "machine can connect (127.0.0.1)."
        ),
    )
    p.add_argument(
        "--port",
        type=_number(1, 65535),
        default=DEFAULT_PORT,
        metavar=_("PORT"),
        help=_("the port to listen on (default: {port})").format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--public",
        action="store_true",
        help=_(
            "listen on every network interface, so that other machines can connect: "
            "anyone who reaches the port plays on this machine"
        ),
    )
    p.add_argument(
        "--visitors",
        type=_number(1, MOST_VISITORS),
        default=DEFAULT_VISITORS,
        metavar=_("N"),
        help=_("at most N apps at once, one per visitor (default: {n})").format(n=DEFAULT_VISITORS),
    )
    p.add_argument(
        "--allow-join",
        action="store_true",
        help=_(
            "let visitors join games hosted elsewhere (off by default: joining connects "
            "from this machine to the address a visitor types)"
        ),
    )
    p.add_argument(
        "--allow-host",
        type=_host_name,
        action="append",
        default=[],
        metavar=_("NAME"),
        help=_(
            "a name the page is also opened at (a proxy's, e.g. shashki.example.org): "
            "pages are answered only at this machine's own addresses and these names"
        ),
    )
    p.set_defaults(func=cmd_serve)


def app_command(args: argparse.Namespace) -> list[str]:
    """The command line of each visitor's app (run as it is, no shell): this Python,
    shashki, the language and the variant files of ``serve``'s own."""
    words = [sys.executable, "-m", "shashki"]
    if getattr(args, "lang", None):
        words += ["--lang", args.lang]
    for path in getattr(args, "variant_file", []):
        words += ["--variant-file", str(Path(path).resolve())]
    return words


def _this_machine() -> str:
    """An address of this machine that others on its network may reach (the one its
    route out uses; no packet is sent), else its name."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # (TEST-NET-1: never routed anywhere)
        address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    finally:
        probe.close()
    return address if address and not address.startswith("0.") else socket.gethostname()


def _check_port(host: str, port: int) -> str | None:
    """Why ``port`` cannot be listened on at ``host`` (in use, not allowed), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as aiohttp does)
        probe.bind((host, port))
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        probe.close()
    return None


# -- who may connect ----------------------------------------------------------------------


def _split_host(text: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's (or an origin's) host and port: ``name``, ``name:port``,
    ``1.2.3.4:port``, ``[::1]:port``; None when it is none of them."""
    if not text or len(text) > 260 or not text.isascii():
        return None
    if text.startswith("["):
        address, close, rest = text[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            return None
        try:
            ipaddress.IPv6Address(address)
        except ValueError:
            return None
        host, port_text = f"[{address}]", rest[1:] if rest else None
    else:
        host, colon, port_text_ = text.partition(":")
        port_text = port_text_ if colon else None
        labels = host.split(".")
        if not host or not all(
            label and len(label) <= 63 and label.replace("-", "").isalnum() for label in labels
        ):
            return None
    if port_text is None:
        return host, None
    if not (port_text.isdigit() and len(port_text) <= 5 and 0 < int(port_text) < 65536):
        return None
    return host, int(port_text)


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


class Addresses:
    """The addresses this server is served at: what a request's ``Host`` and a
    WebSocket's ``Origin`` must name.

    A ``Host`` is answered when it is one of :attr:`names` (localhost and this machine's
    names, with the port; the owner's ``--allow-host`` names) or an IP address with the
    port — of this machine's loopback unless ``public``.  An IP address cannot be
    rebound by anyone's DNS; a name can, so only the names known here are taken.  An
    ``Origin`` (``http://`` or ``https://``) must name the ``Host`` asked for, or one of
    :attr:`names`: the page that opens the socket is this server's own."""

    def __init__(self, port: int, *, public: bool, allowed: list[str] = []) -> None:  # noqa: B006
        self.port = port
        self.public = public
        self.allowed = list(allowed)
        names = {"localhost", "127.0.0.1", "[::1]"}
        if public:
            with contextlib.suppress(OSError, UnicodeError):
                names.add(socket.gethostname().lower())
                names.add(socket.getfqdn().lower())
        self.names = {f"{name}:{port}" for name in names if _split_host(name)}
        for name in allowed:  # as the owner wrote it; a name without a port: any port
            split = _split_host(name)
            if split is not None:
                self.names.add(name)
                if split[1] is None:
                    self.names.add(f"{name}:{port}")

    def host_ok(self, host: str | None) -> bool:
        """Whether a request's ``Host`` header names this server."""
        text = (host or "").strip().lower()
        if text in self.names:
            return True
        split = _split_host(text)
        if split is None or split[1] != self.port:
            return False
        address = _ip(split[0])
        return address is not None and (self.public or address.is_loopback)

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """Whether a WebSocket's ``Origin`` is a page of this server (at ``host``)."""
        if not origin or not host:
            return False
        try:
            parts = urlsplit(origin.strip().lower())
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or parts.path or parts.query:
            return False
        netloc = parts.netloc
        if "@" in netloc or _split_host(netloc) is None:
            return False
        return netloc == host.strip().lower() or netloc in self.names


# -- one visitor's app ----------------------------------------------------------------------


def _say(line: str) -> None:
    """One line on the owner's terminal."""
    print(line, flush=True)


class _OneLine(logging.Handler):
    """textual-serve's and aiohttp's log records as one line each, never a traceback (a
    visitor's words would be in its locals)."""

    def emit(self, record: logging.LogRecord) -> None:
        # (a request that is not HTTP gets its 400: a stranger's noise is not said)
        if record.levelno < logging.WARNING or record.name.startswith("aiohttp.server"):
            return
        try:
            text = record.getMessage()
        except Exception:  # (a record that cannot be formatted: said without its words)
            text = str(record.msg)
        from .base.numbers import one_line

        _say(_("shashki serve: {message}").format(message=one_line(text, 160)))


def _app_log(data: bytes) -> Path | None:
    """``data`` (an app's standard error) in a file only this user can read, in the cache
    folder; its path, or None when it cannot be written."""
    from .base.folders import user_folder
    from .base.ownfiles import NOFOLLOW, own_folder

    folder = user_folder("cache") / "serve"
    try:
        own_folder(folder, top=folder.parent)  # (shashki's own: real folders, never links)
        os.chmod(folder, 0o700)
        path = folder / f"app-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{id(data)}.log"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    except (OSError, ValueError):
        return None
    return path


class VisitorApp(_AppServiceBase):
    """One visitor's app: textual-serve's ``AppService`` (the protocol of the app's
    pipes, downloads), started without a shell in a process group of its own, its
    standard error kept from the terminal, and stopped for sure.  Joined with
    ``AppService`` by :func:`_visitor_app` (textual-serve is loaded only then)."""

    def __init__(self, words: list[str], join: bool, **kwargs: Any) -> None:
        super().__init__(shlex.join(words), **kwargs)
        self.words = words
        self.join = join
        self.failed: Path | None = None
        self._stopped = False

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment: dict[str, str] = super()._build_environment(width, height)
        environment["TEXTUAL_DRIVER"] = DRIVER
        environment[SERVED_VARIABLE] = "1"
        if self.join:
            environment[JOIN_VARIABLE] = "1"
        else:
            environment.pop(JOIN_VARIABLE, None)
        for name in ("TEXTUAL", "TEXTUAL_LOG"):  # (no devtools, no log of keys)
            environment.pop(name, None)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        self._process = process = await asyncio.create_subprocess_exec(
            *self.words,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,  # (its group: its engines end with it)
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def signal(self, number: int) -> None:
        """Send ``number`` to the app and everything it started (its group)."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            if hasattr(os, "killpg"):
                os.killpg(process.pid, number)
            elif process.returncode is None:  # pragma: no cover - Windows
                process.kill()

    async def run(self) -> None:
        """Pass the app's output to the page until it ends (textual-serve's loop),
        its standard error kept (bounded) for a file; then the page is closed."""
        process = self._process
        assert process is not None and process.stdout is not None
        stdout, stderr = process.stdout, process.stderr
        assert stderr is not None
        kept = io.BytesIO()

        async def read_stderr() -> None:
            while data := await stderr.read(4096):
                if kept.tell() < STDERR_LIMIT:
                    kept.write(data[: STDERR_LIMIT - kept.tell()])

        reader = asyncio.create_task(read_stderr())
        try:
            for _line in range(10):  # the prelude: a Textual app is starting
                line = await stdout.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), QUIT_SECONDS)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader, 1.0)
            reader.cancel()
            if process.returncode not in (None, 0) and not self._stopped and kept.tell():
                self.failed = _app_log(kept.getvalue())
            with contextlib.suppress(Exception):
                await self.remote_close()

    async def on_meta(self, data: bytes) -> None:
        try:
            await super().on_meta(data)
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # (an app that says what cannot be read: nothing done)

    async def stop(self) -> None:
        """End the app: asked to quit (its input closed too: a served app then ends
        by itself), then SIGTERM, then SIGKILL, each after a few seconds; whatever
        it started is killed with it."""
        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(Exception):
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        process = self._process
        if process is None:
            return
        try:
            if process.returncode is None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.send_meta({"type": "quit"}), 1.0)
                with contextlib.suppress(Exception):
                    self.stdin.close()
                for number, seconds in (
                    (None, QUIT_SECONDS),
                    (signal.SIGTERM, TERM_SECONDS),
                    (signal.SIGKILL, None),
                ):
                    if number is not None:
                        self.signal(number)
                    try:
                        await asyncio.wait_for(process.wait(), seconds)
                        break
                    except TimeoutError:
                        continue
        finally:
            self.signal(signal.SIGKILL)  # (what it left behind: an engine)
        task = self._task
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, QUIT_SECONDS + 2.0)


def _visitor_app() -> Any:
    """The class of one visitor's app: :class:`VisitorApp` on textual-serve's
    ``AppService``."""
    from textual_serve.app_service import AppService

    class Visitor(VisitorApp, AppService):
        pass

    return Visitor


# -- the server ----------------------------------------------------------------------------


def _page(title: str, font_size: int) -> str:
    """The page, in the language spoken (every word escaped)."""
    from .i18n import language

    text = (PAGE_FILES / "index.html").read_text(encoding="utf-8")
    words = {
        "lang": language(),
        "title": title,
        "start": _("Start the app"),
        "ended": _("The app has ended."),
        "restart": _("Start again"),
        "font_size": str(font_size),
    }
    for key, value in words.items():
        text = text.replace("{" + key + "}", html.escape(value, quote=True))
    return text


def _guard(addresses_now: Callable[[], Addresses], door: Door) -> Any:
    """The middleware every request passes: its connection no longer idle (``door``), a
    ``Host`` this server is served at, an app driven only from this server's own page,
    and :data:`PAGE_HEADERS` on every answer."""
    from aiohttp import hdrs, web

    @web.middleware
    async def guard(
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        # (an answer is to be taken in time; an app's WebSocket lives as long as its page)
        door.busy(request.transport, ends=request.path != "/ws")
        addresses = addresses_now()
        if not addresses.host_ok(request.headers.get(hdrs.HOST)):
            return web.Response(
                status=403, text=_("This server does not serve that address.") + "\n"
            )
        # what drives an app is asked by this server's own page, never by a link or
        # a script of another site (a browser says where a request comes from)
        site = request.headers.get("Sec-Fetch-Site", "same-origin")
        if request.path != "/" and site not in ("same-origin", "none"):
            if request.path == "/ws" or request.path.startswith("/download/"):
                return web.Response(
                    status=403,
                    text=_("Only this server's own page may start an app.") + "\n",
                )
        response = await handler(request)
        if not response.prepared:
            response.headers.update(PAGE_HEADERS)
        return response

    return guard


async def _pass_messages(websocket: web.WebSocketResponse, service: Any) -> None:
    """What the page sends: keys, its size, focus; anything else is ignored."""
    from aiohttp import WSMsgType

    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            envelope = json.loads(message.data)
        except ValueError:
            continue
        if not (isinstance(envelope, list) and envelope and isinstance(envelope[0], str)):
            continue
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            await service.send_bytes(data.encode("utf-8", "replace"))
        elif kind == "resize" and isinstance(data, dict):
            width, height = terminal_size(_whole(data.get("width")), _whole(data.get("height")))
            await service.set_terminal_size(width, height)
        elif kind == "ping" and isinstance(data, str) and len(data) <= 32:
            await websocket.send_json(["pong", data])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()


class ShashkiServer(_ServerBase):
    """textual-serve's server for ``words`` (each visitor's app), guarded as the module
    says; ``say`` writes a line on the owner's terminal.  Joined with textual-serve's
    ``Server`` by :func:`make_server` (textual-serve is loaded only then)."""

    def __init__(
        self,
        words: list[str],
        addresses: Addresses,
        *,
        visitors: int,
        join: bool,
        say: Callable[[str], None],
    ) -> None:
        super().__init__(shlex.join(words), host="127.0.0.1", port=addresses.port)
        self.words = words
        self.addresses = addresses
        self.visitors = visitors
        self.join = join
        self.say = say
        self.visitor_app = _visitor_app()
        self.title = "shashki"
        self.apps: set[Any] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        #: The connections with no request under way: bounded in time and number.
        self.door = Door()

    def initialize_logging(self) -> None:
        handler = _OneLine()
        for name in ("textual-serve", "aiohttp", "asyncio"):
            logger = logging.getLogger(name)
            logger.handlers[:] = [handler]
            logger.propagate = False
            logger.setLevel(logging.WARNING)

    async def web_app(self) -> web.Application:
        """The aiohttp application that serves the page and the visitors' apps
        (textual-serve's own, guarded), for a runner of the caller's."""
        app: web.Application = await self._make_app()
        return app

    async def listen(self, host: str, port: int) -> tuple[web.AppRunner, int]:
        """Serve at ``host``:``port`` (0: a free port, whose addresses are served then),
        every connection through the door (:attr:`door`); the runner (its ``cleanup``
        stops the server and every app) and the port listened on."""
        from aiohttp import web

        runner = web.AppRunner(
            await self._make_app(),
            handle_signals=False,
            access_log=logging.getLogger("shashki.serve.answers"),
            access_log_class=_answered(self.door),
            keepalive_timeout=self.door.seconds + 5.0,  # (the door's deadline comes first)
            shutdown_timeout=QUIT_SECONDS + TERM_SECONDS + 2.0,
        )
        await runner.setup()
        try:
            site = _door_site(runner, self.door, host, port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        if site.bound != self.addresses.port:
            old = self.addresses
            self.addresses = Addresses(site.bound, public=old.public, allowed=old.allowed)
        return runner, site.bound

    async def _make_app(self) -> web.Application:
        from aiohttp import web

        app = web.Application(middlewares=[_guard(lambda: self.addresses, self.door)])
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
                web.get("/shashki/{name}", self.handle_page_file, name="page"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        try:
            size = int(request.query.get("fontsize", "16")[:3])
        except ValueError:
            size = 16
        size = max(FONT_SIZES[0], min(FONT_SIZES[1], size))
        return web.Response(text=_page(self.title, size), content_type="text/html")

    async def handle_page_file(self, request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        name = request.match_info["name"]
        kinds = {"page.js": "text/javascript", "page.css": "text/css"}
        if name not in kinds:
            raise web.HTTPNotFound()
        text = (PAGE_FILES / name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=kinds[name])

    def _refusal(self, request: web.Request) -> web.StreamResponse | None:
        """Why an app is not started for ``request`` (a page of another site, too many
        visitors), as the answer to give; None when it may start."""
        from aiohttp import hdrs, web

        if not self.addresses.origin_ok(
            request.headers.get(hdrs.ORIGIN), request.headers.get(hdrs.HOST)
        ):
            return web.Response(
                status=403, text=_("Only this server's own page may start an app.") + "\n"
            )
        if len(self.apps) >= self.visitors:
            return web.Response(status=503, text=_("Too many visitors: try again later.") + "\n")
        return None

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        from aiohttp import web

        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        width, height = terminal_size(
            _whole(request.query.get("width")), _whole(request.query.get("height"))
        )
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MESSAGE_LIMIT)
        service = self.visitor_app(
            self.words,
            self.join,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        self.apps.add(service)
        self.sockets.add(websocket)
        who = request.remote or "?"
        try:
            await websocket.prepare(request)
            await service.start(width, height)
            self.say(
                _("A visitor ({address}) came: {n} of at most {most} apps run.").format(
                    address=who, n=len(self.apps), most=self.visitors
                )
            )
            await _pass_messages(websocket, service)
        except Exception as exc:  # (no traceback: a visitor's words would be in it)
            self.say(
                _("shashki serve: {message}").format(
                    message=_("a visitor's app failed: {reason}").format(reason=type(exc).__name__)
                )
            )
        finally:
            await self._visitor_left(who, websocket, service)
        return websocket

    async def _visitor_left(self, who: str, websocket: web.WebSocketResponse, service: Any) -> None:
        """A visitor's page has gone: the app stopped (killed with what it started,
        whatever happens), forgotten, and the owner told."""
        try:
            await asyncio.shield(service.stop())
        finally:
            service.signal(signal.SIGKILL)
            self.apps.discard(service)
            self.sockets.discard(websocket)
        if service.failed is not None:
            self.say(
                _("A visitor's app ended with an error; what it wrote: {path}").format(
                    path=service.failed
                )
            )
        self.say(
            _("A visitor ({address}) left: {n} of at most {most} apps run.").format(
                address=who, n=len(self.apps), most=self.visitors
            )
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """The server ends: every app with it, and every page told."""
        self.door.abort_all()
        await asyncio.gather(
            *(service.stop() for service in list(self.apps)), return_exceptions=True
        )
        for websocket in list(self.sockets):
            with contextlib.suppress(Exception):
                await websocket.close(code=1001)

    def kill_all(self) -> None:
        """Kill what is left of every app (the server is ending, whatever ended it)."""
        for service in list(self.apps):
            service.signal(signal.SIGKILL)


def _answered(door: Door) -> type[AbstractAccessLogger]:
    """aiohttp's access log, called once an answer has been written: its connection is
    idle again (``door``).  Nothing is logged."""
    from aiohttp.abc import AbstractAccessLogger

    class Answered(AbstractAccessLogger):
        def log(self, request: Any, response: Any, time: float) -> None:
            door.idle(request.transport)

        @property
        def enabled(self) -> bool:
            return True

    return Answered


def _door_site(runner: web.AppRunner, door: Door, host: str, port: int) -> Any:
    """aiohttp's TCP site at ``host``:``port``, every connection through ``door`` from
    its acceptance (a socket that never says a word is counted too)."""
    from aiohttp import web

    class DoorSite(web.TCPSite):
        bound = port

        async def start(self) -> None:
            await web.BaseSite.start(self)  # (registered with the runner, which stops it)
            server = self._runner.server
            assert server is not None
            self._server = await asyncio.get_running_loop().create_server(
                doors(server, door), self._host, self._port, reuse_address=True
            )
            sockets = self._server.sockets
            self.bound = int(sockets[0].getsockname()[1]) if sockets else self._port

    return DoorSite(runner, host, port)


def make_server(
    words: list[str],
    addresses: Addresses,
    *,
    visitors: int,
    join: bool,
    say: Callable[[str], None] = _say,
) -> Any:
    """textual-serve's server for ``words`` (each visitor's app), guarded as the module
    says (:class:`ShashkiServer`); ``say`` writes a line on the owner's terminal."""
    from textual_serve.server import Server

    class Served(ShashkiServer, Server):
        pass

    return Served(words, addresses, visitors=visitors, join=join, say=say)


def _whole(value: object) -> int | None:
    """A page's number (a size), or None when it is not a whole number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    return None


def _cannot_listen(host: str, port: int, reason: object) -> int:
    """Say on standard error that ``port`` of ``host`` cannot be listened on; the exit
    status."""
    print(
        error_line(
            _("cannot listen on {host} port {port}: {reason}").format(
                host=host, port=port, reason=reason
            )
        ),
        file=sys.stderr,
    )
    return 2


def _say_listening(args: argparse.Namespace, address: str) -> None:
    """What the owner's terminal shows once the server listens: where to open it, who
    can reach it, what visitors may do, how it stops."""
    _say(_("shashki serve: open {address} in a web browser.").format(address=address))
    if args.public:
        _say(
            _(
                "Listening on every network interface, port {port}: anyone who can "
                "reach this machine can open the app and play on it, as you (your "
                "engines, settings and saved games). Visitors cannot start other "
                "programs nor open files outside shashki's games folder."
            ).format(port=args.port)
        )
    else:
        _say(_("Listening on 127.0.0.1 only: other machines cannot connect (--public lets them)."))
    if args.allow_join:
        _say(_("Visitors may join games hosted elsewhere (--allow-join)."))
    _say(_("Ctrl+C stops."))


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import aiohttp  # noqa: F401
    except ImportError as exc:  # pragma: no cover - a dependency
        print(error_line(exc), file=sys.stderr)
        return 2
    host = "0.0.0.0" if args.public else "127.0.0.1"
    problem = _check_port(host, args.port)
    if problem is not None:
        return _cannot_listen(host, args.port, problem)
    shown = _this_machine() if args.public else "127.0.0.1"
    address = f"http://{shown}:{args.port}"
    # every app a visitor gets runs in served mode (this process too: it is the same user)
    os.environ[SERVED_VARIABLE] = "1"
    addresses = Addresses(args.port, public=args.public, allowed=args.allow_host)
    server = make_server(app_command(args), addresses, visitors=args.visitors, join=args.allow_join)
    server.initialize_logging()

    async def run() -> None:
        runner, _port = await server.listen(host, args.port)
        try:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
                    loop.add_signal_handler(number, stop.set)
            _say_listening(args, address)
            await stop.wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(run())
    except OSError as exc:  # (the port taken between the check and the start)
        return _cannot_listen(host, args.port, exc.strerror or exc)
    except KeyboardInterrupt:
        pass
    finally:
        server.kill_all()
    return 0


__all__ = ["Addresses", "add_serve_command", "app_command", "cmd_serve", "make_server"]
