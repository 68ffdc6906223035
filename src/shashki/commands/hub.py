"""``shashki hub``: shashki's engine as a Hub engine on stdin and stdout."""

from __future__ import annotations

import argparse
from typing import Any

from ..i18n import _


def cmd_hub(args: argparse.Namespace) -> int:
    from ..hub.server import main

    return main()


def _hub_names() -> list[str]:
    """The variants' names of the Hub's own (those the variant files give)."""
    from ..rules import all_variants

    return [v.hub_name for v in all_variants() if v.hub_name]


def add(sub: Any) -> None:
    """Add ``hub`` to the subcommands."""
    p = sub.add_parser(
        "hub",
        help=_("run shashki's engine as a Hub engine on stdin/stdout"),
        description=_(
            "Speak the Hub protocol (version 2) on stdin and stdout, so that a "
            "draughts GUI or a match runner can use shashki's engine, in every variant "
            "shashki plays (the parameter 'variant': {names}, or shashki's own ids)."
        ).format(names=", ".join(_hub_names())),
    )
    p.set_defaults(func=cmd_hub)
