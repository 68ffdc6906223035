"""``shashki replay FILE``: a PDN file in the replay viewer."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..app.launch import ReplayRequest
from ..i18n import _, os_reason
from ..rules import find_variant
from . import common
from .common import fail, whole_number


def cmd_replay(args: argparse.Namespace) -> int:
    from ..base.userfiles import open_regular

    try:  # a folder, a FIFO or a device is refused at once, without blocking
        open_regular(args.file).close()
    except FileNotFoundError:
        return fail(_("{path}: no such file").format(path=args.file))
    except OSError as exc:
        return fail(_("cannot read {path}: {reason}").format(path=args.file, reason=os_reason(exc)))
    # a whole number of any size (see whole_number), too large for str() past 4,300 digits
    game = args.game
    if game is not None and game < 1:
        if game > -(10**18):
            return fail(_("--game must be 1 or more, not {n}").format(n=game))
        return fail(_("--game must be 1 or more, not a negative number"))
    if game is not None and game > 10**18:
        return fail(_("--game N: no file has that many games"))
    default = find_variant(args.variant).id if args.variant else None
    start = ReplayRequest(Path(args.file), game, default)
    return common.run_app(start, mouse=not args.no_mouse, language=args.lang)


def add(sub: Any) -> None:
    """Add ``replay`` to the subcommands."""
    p = sub.add_parser(
        "replay",
        help=_("open a PDN file in the replay viewer"),
        description=_(
            "Open a file of games (.pdn, or .json) in the replay viewer: the table of its "
            "games, then a game move by move, with its variations."
        ),
    )
    p.add_argument("file", metavar=_("FILE"), help=_("a PDN file (or a JSON list of PDN texts)"))
    p.add_argument(
        "--game", type=whole_number, metavar=_("N"), help=_("open game N (1 = the first) at once")
    )
    p.add_argument(
        "--variant",
        metavar=_("VARIANT"),
        help=_(
            "the variant of games without a GameType tag (default: guessed from their "
            "moves, else International, as PDN says)"
        ),
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    p.set_defaults(func=cmd_replay)
