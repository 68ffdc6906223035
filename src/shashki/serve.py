"""``shashki serve``: the app in a web browser, with textual-serve.

Each visitor of the page gets an app of his own: textual-serve starts one ``shashki``
process per browser connection, with the command line and environment made here, and
passes the terminal's bytes over a WebSocket to xterm.js in the page.  The apps run as
the user who started ``shashki serve``: their settings, autosaves and saved games are
that user's, on this machine.

A visitor is not the owner of the machine, so every app is started in served mode
(:mod:`shashki.session.served`, the environment variable ``SHASHKI_SERVED``): no program
is started but the engines of the owner's settings, and files stay in shashki's games
folder.  By default the page is served on 127.0.0.1 only; ``--public`` listens on every
interface, and says plainly that visitors then play on this machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .i18n import _
from .session.served import SERVED_VARIABLE

if TYPE_CHECKING:
    from aiohttp import web

#: The port served when none is given.
DEFAULT_PORT = 8000
#: The apps that may run at once when ``--visitors`` says nothing: each is a process of
#: its own (some 60 MB), so a flood of connections cannot take the machine's memory.
DEFAULT_VISITORS = 8
#: The most ``--visitors`` accepts.
MOST_VISITORS = 200
#: What a Host header may hold to be used in the page's addresses (a name or an address,
#: and a port): anything else is not used.
_HOST = re.compile(r"^[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")


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
        metavar="N",
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
        metavar="N",
        help=_("at most N apps at once, one per visitor (default: {n})").format(n=DEFAULT_VISITORS),
    )
    p.set_defaults(func=cmd_serve)


def app_command(args: argparse.Namespace) -> str:
    """The command line textual-serve runs for each visitor (through a shell: quoted):
    this Python, shashki, the language and the variant files of ``serve``'s own."""
    words = [sys.executable, "-m", "shashki"]
    if getattr(args, "lang", None):
        words += ["--lang", args.lang]
    for path in getattr(args, "variant_file", []):
        words += ["--variant-file", str(Path(path).resolve())]
    return shlex.join(words)


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


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server
    except ImportError as exc:  # pragma: no cover - a dependency
        print(_("shashki: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    host = "0.0.0.0" if args.public else "127.0.0.1"
    problem = _check_port(host, args.port)
    if problem is not None:
        print(
            _("shashki: error: {message}").format(
                message=_("cannot listen on {host} port {port}: {reason}").format(
                    host=host, port=args.port, reason=problem
                )
            ),
            file=sys.stderr,
        )
        return 2
    shown = _this_machine() if args.public else "127.0.0.1"
    address = f"http://{shown}:{args.port}"
    # every app a visitor gets runs in served mode (this process too: it is the same user)
    os.environ[SERVED_VARIABLE] = "1"

    class ShashkiServer(Server):
        """textual-serve's server: shashki's words, the page's addresses from the address
        the visitor used, and at most ``--visitors`` apps at once."""

        visitors = 0

        async def on_startup(self, app: web.Application) -> None:
            say = self.console.print
            say(_("shashki serve: open {address} in a web browser.").format(address=address))
            if args.public:
                say(
                    _(
                        "Listening on every network interface, port {port}: anyone who can "
                        "reach this machine can open the app and play on it, as you (your "
                        "engines, settings and saved games). Visitors cannot start other "
                        "programs nor open files outside shashki's games folder."
                    ).format(port=args.port),
                    markup=False,
                    highlight=False,
                )
            else:
                say(
                    _(
                        "Listening on 127.0.0.1 only: other machines cannot connect "
                        "(--public lets them)."
                    ),
                    markup=False,
                    highlight=False,
                )
            say(_("Ctrl+C stops."), markup=False, highlight=False)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            # the page's WebSocket address is made from the address the visitor used
            # (textual-serve makes it from the one listened on: 0.0.0.0 with --public)
            used = request.host
            self.public_url = (
                f"http://{used}" if _HOST.match(used) else f"http://{shown}:{args.port}"
            )
            response: web.StreamResponse = await super().handle_index(request)
            return response

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
            from aiohttp import web

            if ShashkiServer.visitors >= args.visitors:
                return web.Response(
                    status=503, text=_("Too many visitors: try again later.") + "\n"
                )
            ShashkiServer.visitors += 1
            try:
                response: web.StreamResponse = await super().handle_websocket(request)
                return response
            finally:
                ShashkiServer.visitors -= 1

    server = ShashkiServer(app_command(args), host=host, port=args.port, title="shashki")
    try:
        server.serve()
    except OSError as exc:  # (the port taken between the check and the start)
        print(
            _("shashki: error: {message}").format(
                message=_("cannot listen on {host} port {port}: {reason}").format(
                    host=host, port=args.port, reason=exc.strerror or exc
                )
            ),
            file=sys.stderr,
        )
        return 2
    return 0


__all__ = ["add_serve_command", "app_command", "cmd_serve"]
