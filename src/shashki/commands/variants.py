"""``shashki variants``: the variants, for people or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n import _
from ..rules import all_variants
from ..rules.variant_registry import user_file_problems


def cmd_variants(args: argparse.Namespace) -> int:
    variants = all_variants()
    for problem in user_file_problems():
        print(_("shashki: warning: {message}").format(message=problem), file=sys.stderr)
    if args.json:
        data = [
            {
                "id": v.id,
                "name": v.name,
                "aliases": list(v.aliases),
                "group": v.group,
                "board": f"{v.board.width}x{v.board.height}",
                "width": v.board.width,
                "height": v.board.height,
                "squares": "all" if v.board.all_squares else "dark",
                "gametype": v.gametype,
            }
            for v in variants
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    width = max(len(v.id) for v in variants)
    for v in variants:
        size = f"{v.board.width}x{v.board.height}"
        line = _("{name}: {summary}").format(name=v.local_name, summary=v.local(v.summary))
        print(f"{v.id:<{width}}  {size:>5}  {line}")
    return 0


def add(sub: Any) -> None:
    """Add ``variants`` to the subcommands."""
    p = sub.add_parser(
        "variants",
        help=_("list the variants"),
        description=_(
            "List every variant shashki plays, one a line: its id (what the other commands "
            "take), its board and its name with a summary of its rules."
        ),
    )
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    p.set_defaults(func=cmd_variants)
