"""``shashki perft VARIANT DEPTH``: the leaf nodes of the legal-move tree."""

from __future__ import annotations

import argparse
from typing import Any

from ..i18n import _
from .common import add_seed, new_game, whole_number


def cmd_perft(args: argparse.Namespace) -> int:
    game = new_game(args)
    # a depth it cannot finish is refused (PerftDepthError) before anything is printed
    if args.divide and args.depth >= 1:
        total = 0
        for mv, n in game.divide(args.depth):
            print(f"{game.move_text(mv, full=True)} {n}")
            total += n
        print(total)
    else:
        print(game.perft(args.depth))
    return 0


def add(sub: Any) -> None:
    """Add ``perft`` to the subcommands."""
    p = sub.add_parser(
        "perft",
        help=_("count the leaf nodes of the legal-move tree"),
        description=_(
            "Count the positions reached after exactly DEPTH plies. The count is "
            "the last line of the output."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.add_argument(
        "depth", metavar=_("DEPTH"), type=whole_number, help=_("how many plies deep to count")
    )
    p.add_argument(
        "--fen", metavar=_("FEN"), help=_("start from this position instead of the initial one")
    )
    p.add_argument("--divide", action="store_true", help=_("first print each move and its count"))
    add_seed(p)
    p.set_defaults(func=cmd_perft)
