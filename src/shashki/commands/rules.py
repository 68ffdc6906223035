"""``shashki rules VARIANT``: a variant's rule card."""

from __future__ import annotations

import argparse
from typing import Any

from ..i18n import _
from ..rules import find_variant


def cmd_rules(args: argparse.Namespace) -> int:
    v = find_variant(args.variant)
    print(v.local_name)
    print("=" * len(v.local_name))
    extra = []
    if v.aliases:
        extra.append(_("also called: {names}").format(names=", ".join(v.aliases)))
    if v.gametype:
        extra.append(_("PDN GameType {gametype}").format(gametype=v.gametype))
    if extra:
        print("; ".join(extra))
    print()
    print(v.local(v.card) if v.card else v.local(v.summary))
    return 0


def add(sub: Any) -> None:
    """Add ``rules`` to the subcommands."""
    p = sub.add_parser(
        "rules",
        help=_("print a variant's rule card"),
        description=_(
            "Print the rule card of a variant, as the menu shows it, with its other names "
            "and its PDN GameType."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.set_defaults(func=cmd_rules)
