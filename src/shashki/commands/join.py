"""``shashki join ADDRESS CODE``: join a game a friend hosts."""

from __future__ import annotations

import argparse
from typing import Any

from ..app.launch import JoinRequest
from ..i18n import _
from . import common
from .common import fail, online_name, online_options, whole_number

#: The most seconds ``--wait`` may give the host to answer.
MOST_WAIT = 600


def cmd_join(args: argparse.Namespace) -> int:
    from ..online.console import join_auto, run
    from ..online.guest import JoinError, split_address

    try:
        split_address(args.address)
    except JoinError as exc:
        return fail(str(exc))
    if args.wait is not None and not 1 <= args.wait <= MOST_WAIT:
        return fail(
            _("--wait must be from 1 to {most} seconds, not {wait}").format(
                most=MOST_WAIT, wait=args.wait
            )
        )
    name = online_name(args)
    if args.auto is not None:
        if not 1 <= args.auto <= 8:
            return fail(_("--auto must be a computer level from 1 to 8"))
        return run(
            join_auto(args.address, args.code, args.auto, name=name, save=args.save, wait=args.wait)
        )
    start = JoinRequest(args.address, args.code, name, args.wait)
    return common.run_app(start, mouse=not args.no_mouse, language=args.lang)


def add(sub: Any) -> None:
    """Add ``join`` to the subcommands."""
    p = sub.add_parser(
        "join",
        help=_("join a game a friend hosts (shashki host)"),
        description=_(
            "Join the game a friend started with shashki host: give the address and the "
            "room code that shashki host showed. The game opens in the terminal; with "
            "--auto it is played without a screen."
        ),
    )
    p.add_argument("address", metavar=_("ADDRESS"), help=_("HOST:PORT, as the host printed it"))
    p.add_argument("code", metavar=_("CODE"), help=_("the room code, e.g. K7WQ-M2"))
    online_options(p)
    p.add_argument(
        "--wait",
        type=whole_number,
        metavar=_("SECONDS"),
        help=_("give up when the host has not answered in this many seconds (default: 15)"),
    )
    p.set_defaults(func=cmd_join)
