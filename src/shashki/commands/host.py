"""``shashki host VARIANT``: host a game for a friend on another machine."""

from __future__ import annotations

import argparse
from typing import Any

from ..app.launch import HostRequest
from ..i18n import _
from ..rules import find_variant
from . import common
from .common import fail, online_name, online_options, whole_number


def cmd_host(args: argparse.Namespace) -> int:
    from ..online.console import host_auto, pick_side, run

    variant = find_variant(args.variant)
    clock = None
    if args.clock is not None:
        from ..records.clocks import BadTimeControl, TimeControl

        try:
            clock = TimeControl.parse(args.clock)
        except BadTimeControl as exc:
            return fail(f"--clock: {exc}")
    if not 0 <= args.port < 65536:
        return fail(_("--port must be 0 to 65535"))
    side = pick_side(args.side)
    name = online_name(args)
    if args.auto is not None:
        if not 1 <= args.auto <= 8:
            return fail(_("--auto must be a computer level from 1 to 8"))
        return run(
            host_auto(
                variant.id,
                args.auto,
                clock=clock,
                port=args.port,
                side=side,
                public=args.public,
                name=name,
                save=args.save,
                local=args.local,
            )
        )
    from ..online.hosting import free_port

    try:
        port = free_port(args.port, args.public, args.local)
    except OSError as exc:
        return fail(
            _("cannot listen on port {port}: {reason}").format(
                port=args.port, reason=exc.strerror or exc
            )
        )
    start = HostRequest(
        variant.id,
        side=side,
        name=name,
        port=port,
        clock=clock,
        public=args.public,
        local=args.local,
    )
    return common.run_app(start, mouse=not args.no_mouse, language=args.lang)


def add(sub: Any) -> None:
    """Add ``host`` to the subcommands."""
    p = sub.add_parser(
        "host",
        help=_("host a game for a friend on another machine; prints how to join"),
        description=_(
            "Start a game and wait for a friend: prints the command that joins it (an "
            "address and a one-time room code). Listens on this machine's network address "
            "only, unless --public."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.add_argument("--clock", metavar=_("M+S"), help=_("play on time, e.g. 5+3"))
    p.add_argument(
        "--port",
        type=whole_number,
        default=8765,
        metavar=_("PORT"),
        help=_("the port to listen on (default 8765)"),
    )
    p.add_argument(
        "--as",
        dest="side",
        choices=("white", "black", "random"),
        default="white",
        help=_("the side you play (default white)"),
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--public", action="store_true", help=_("listen on every network of this machine")
    )
    where.add_argument(
        "--local", action="store_true", help=_("listen on 127.0.0.1: a friend on this machine")
    )
    online_options(p)
    p.set_defaults(func=cmd_host)
