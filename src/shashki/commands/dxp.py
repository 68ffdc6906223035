"""``shashki dxp``: shashki's engine (or a Hub engine behind it) answering a DXP
initiator on a TCP port (the follower; docs/ENGINE.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..base.numbers import quoted
from ..i18n import _
from ..records.gametypes import DEFAULT_VARIANT
from ..rules import find_variant
from ..rules.errors import ShashkiError
from .common import add_engine_log, whole_number


def _port(text: str) -> int:
    from ..base.numbers import bounded_int

    value = bounded_int(text.strip(), 65535)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("a port is a whole number from 0 to 65535, not {text}").format(text=quoted(text, 40))
        )
    return value


def cmd_dxp(args: argparse.Namespace) -> int:
    from ..hub.dxp import fits
    from ..hub.dxp_server import DxpServer
    from ..hub.match import match_player
    from ..session.players import Player
    from ..store.settings import read_engines

    variant = find_variant(args.variant)
    if not fits(variant):
        raise ShashkiError(
            _("DXP cannot carry games of {variant}").format(variant=variant.local_name)
        )
    engines = read_engines()  # the engines named in the settings, seated by name
    who = args.engine if args.engine is not None else str(args.level)
    match_player(who, seed=0, engines=engines).close()  # (one that cannot be made: said now)

    def player() -> Player:
        return match_player(who, seed=0, engines=engines)

    def say(text: str) -> None:
        print(text, flush=True)

    from ..store.storage import GameLog, SaveError

    log: GameLog | None = None
    if args.pdn is not None:
        try:
            log = GameLog(args.pdn, append=True)
        except SaveError as exc:
            raise ShashkiError(str(exc)) from None
    try:
        server = DxpServer(player, variant, say, host=args.host, port=args.port, log=log)
    except OSError as exc:
        raise ShashkiError(
            _("cannot listen on {address}: {reason}").format(
                address=f"{args.host}:{args.port}", reason=exc.strerror or exc
            )
        ) from None
    host, port = server.address[0], server.address[1]
    say(
        _("shashki dxp: listening on {address} ({variant}); Ctrl+C stops").format(
            address=f"{host}:{port}", variant=variant.local_name
        )
    )
    try:
        server.serve()
    except KeyboardInterrupt:
        print(_("stopped"), file=sys.stderr)
        return 130
    finally:
        server.stop()
    return 0


def add(sub: Any) -> None:
    """Add ``dxp`` to the subcommands."""
    p = sub.add_parser(
        "dxp",
        help=_("answer a DXP initiator (Scan, Kingsrow, a tournament) on a TCP port"),
        description=_(
            "Listen for DXP (DamExchange) initiators on a TCP port and play the games "
            "they ask for, with shashki's engine at a level or with an engine of the "
            "settings (or hub:COMMAND). Each game is said as it starts and ends."
        ),
    )
    p.add_argument(
        "--port",
        type=_port,
        default=27531,
        metavar=_("PORT"),
        help=_("the TCP port (default 27531; 0: any free one, said)"),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        metavar=_("ADDRESS"),
        help=_("the address to listen on (default 127.0.0.1: this machine only)"),
    )
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--level",
        type=whole_number,
        default=5,
        choices=range(1, 9),
        metavar=_("N"),
        help=_("shashki's level 1-8 (default 5)"),
    )
    who.add_argument(
        "--engine",
        metavar=_("NAME"),
        help=_("an engine named in the settings, or hub:COMMAND, plays instead"),
    )
    p.add_argument(
        "--variant",
        default=DEFAULT_VARIANT,
        metavar=_("VARIANT"),
        help=_("the game the initiators play (default international)"),
    )
    p.add_argument("--pdn", metavar=_("FILE"), help=_("append every game to this PDN file"))
    add_engine_log(p)
    p.set_defaults(func=cmd_dxp)
