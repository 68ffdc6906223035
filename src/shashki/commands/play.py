"""``shashki play VARIANT``: a game at once, skipping the menu."""

from __future__ import annotations

import argparse
from typing import Any

from ..app.launch import PlayRequest
from ..base.numbers import quoted
from ..i18n import _
from ..rules import find_variant
from . import common
from .common import add_engine_log, add_seed, fail, new_game


def cmd_play(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    if args.fen is not None:
        new_game(args)  # a bad FEN is refused here, in one line, before the screen opens
    try:
        from ..app.players import seat
    except ImportError as exc:  # pragma: no cover - textual is a dependency
        return fail(_("the terminal app needs Textual: {reason}").format(reason=exc))
    from ..store.settings import read_engines

    engines = read_engines()  # the engines named in the settings, seated by name
    kinds = []
    for side in ("white", "black"):
        kind = seat(getattr(args, side), engines=engines)
        if kind is None:
            return fail(
                _(
                    "{option} must be person, a computer level from 1 to 8, hub:COMMAND "
                    "or an engine named in the settings, not {value}"
                ).format(option=f"--{side}", value=quoted(getattr(args, side)))
            )
        kinds.append(kind)
    clock = None
    if args.clock is not None:
        from ..records.clocks import BadTimeControl, TimeControl

        try:
            clock = TimeControl.parse(args.clock)
        except BadTimeControl as exc:
            return fail(_("{option}: {reason}").format(option="--clock", reason=exc))
    start = PlayRequest(
        variant.id, fen=args.fen, kinds=(kinds[0], kinds[1]), seed=args.seed, clock=clock
    )
    return common.run_app(start, mouse=not args.no_mouse, language=args.lang)


def add(sub: Any) -> None:
    """Add ``play`` to the subcommands."""
    p = sub.add_parser(
        "play",
        help=_("play a variant at once (skipping the menu)"),
        description=_(
            "Start a game of a variant at once, without the menu: a person against a "
            "person unless --white or --black seats the computer or an engine."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.add_argument("--fen", metavar=_("FEN"), help=_("start from this position"))
    for side in ("white", "black"):
        p.add_argument(
            f"--{side}",
            metavar=_("WHO"),
            default="person",
            help=(_("who plays white") if side == "white" else _("who plays black"))
            + ": "
            + _(
                "person (the default), a computer level 1-8, hub:COMMAND (a Hub engine, "
                "e.g. 'hub:dame hub') or an engine named in the settings"
            ),
        )
    p.add_argument(
        "--clock",
        metavar=_("M+S"),
        help=_(
            "play on time: M minutes for the game (a fraction allowed: 0.5) and S seconds "
            "added after each turn, e.g. 5+3"
        ),
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    add_seed(p)
    add_engine_log(p)
    p.set_defaults(func=cmd_play)
