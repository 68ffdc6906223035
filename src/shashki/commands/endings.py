"""``shashki endings build VARIANT``: the engine's exact tables of the endings of a few pieces."""

from __future__ import annotations

import argparse
from typing import Any

from ..i18n import _
from ..rules import find_variant
from .bars import Bar
from .common import Parser, fail, whole_number


def cmd_endings(args: argparse.Namespace) -> int:
    import time

    from rich.console import Console
    from rich.progress import MofNCompleteColumn

    from ..engine import endings

    variant = find_variant(args.variant)
    if not endings.plain(variant):
        return fail(
            _(
                "{variant} has no ending tables (they solve the games of men and kings "
                "where a side without a move loses)"
            ).format(variant=variant.local(variant.name))
        )
    if not 2 <= args.pieces <= endings.MAX_PIECES:
        return fail(
            _("--pieces must be from 2 to {most}, not {pieces}").format(
                most=endings.MAX_PIECES, pieces=args.pieces
            )
        )
    console = Console(stderr=False, highlight=False)
    started = time.perf_counter()
    total_bytes = 0
    wanted = endings.materials(variant, args.pieces)
    with Bar(console, MofNCompleteColumn()) as bar:
        for material in wanted:
            name = endings.material_text(material)
            bar.show(name)
            begun = time.perf_counter()
            was = endings.cached(variant, material)
            endings.build_one(variant, material, bar.report)
            path = endings.cache_file(variant, material)
            shipped = not path.is_file() and endings.is_shipped(variant, material)
            size = path.stat().st_size if path.is_file() else 0
            total_bytes += size
            if shipped:  # (its file in the package, compressed)
                size = endings.shipped_size(variant, material)
            console.print(
                _("{material}: {positions} positions, {size} KB, {how}").format(
                    material=name,
                    positions=f"{endings.table_size(variant, material):,}",
                    size=f"{size / 1000:,.0f}",
                    how=_("came with shashki")
                    if shipped
                    else _("in the cache")
                    if was
                    else _("made in {seconds} s").format(
                        seconds=f"{time.perf_counter() - begun:.1f}"
                    ),
                ),
                markup=False,
            )
    print(
        _(
            "{count} tables of {variant} up to {pieces} pieces: {size} KB in {folder} ({seconds} s)"
        ).format(
            count=len(wanted),
            variant=variant.local(variant.name),
            pieces=args.pieces,
            size=f"{total_bytes / 1000:,.0f}",
            folder=endings.cache_dir(),
            seconds=f"{time.perf_counter() - started:.0f}",
        )
    )
    return 0


def add(sub: Any) -> None:
    """Add ``endings`` (and its ``build``) to the subcommands."""
    p = sub.add_parser(
        "endings",
        help=_("make the engine's exact tables of the endings of a few pieces"),
        description=_(
            "The engine solves the endings of a few pieces exactly, backwards from their "
            "ends, the first time they arise, and keeps the tables in the cache folder. "
            "'build' makes them ahead of time, with a progress bar."
        ),
    )
    endings_sub = p.add_subparsers(dest="action", metavar=_("ACTION"), parser_class=Parser)
    endings_sub.required = True
    q = endings_sub.add_parser(
        "build",
        help=_("make the tables of a variant"),
        description=_(
            "Make the ending tables of a variant now, with a progress bar, instead of the "
            "first time the engine meets each ending."
        ),
    )
    q.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    q.add_argument(
        "--pieces",
        type=whole_number,
        default=3,
        metavar=_("N"),
        help=_(
            "every ending of at most N pieces (default: 3); 5 adds only the endings of five kings"
        ),
    )
    q.set_defaults(func=cmd_endings)
