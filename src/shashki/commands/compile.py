"""``shashki compile``: the engine's optional compiled build (mypyc)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import _, error_line, ngettext, os_reason
from .common import fail


def cmd_compile(args: argparse.Namespace) -> int:
    """Make the engine's compiled build, say which build runs, or remove the builds."""
    from .. import compiling, native

    if args.remove:
        count = compiling.remove_builds()
        print(
            ngettext(
                "{count} compiled build removed from {folder}: the engine runs as pure Python.",
                "{count} compiled builds removed from {folder}: the engine runs as pure Python.",
                count,
            ).format(count=count, folder=native.builds_folder())
        )
        return 0
    if args.status:
        build = native.in_use()
        if build is not None:
            print(_("The engine runs compiled, from {folder}.").format(folder=build.folder))
        else:
            why = {
                "off": _("{variable} is set").format(variable=native.PURE_VARIABLE),
                "damaged": _(
                    "the compiled build of these sources failed its checks "
                    "(shashki compile makes it again)"
                ),
                "refused": _(
                    "someone else could have put the compiled build there or changed it, "
                    "so it is not used ({reason})"
                ).format(reason=native.refusal(native.build_folder())),
                "other": _(
                    "the compiled build in {folder} was made from other sources (shashki "
                    "was changed or upgraded since; shashki compile makes it again)"
                ).format(folder=native.builds_folder()),
            }.get(
                native.why_pure(),
                _("there is no compiled build of these sources (shashki compile makes one)"),
            )
            print(_("The engine runs as pure Python: {why}.").format(why=why))
        return 0

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        folder = compiling.compile_build(say)
    except compiling.CompileError as exc:
        print(error_line(exc), file=sys.stderr)
        return 1
    except OSError as exc:
        return fail(
            _("cannot write the build in {folder}: {reason}").format(
                folder=native.builds_folder(), reason=os_reason(exc)
            )
        )
    print(
        _(
            "Compiled into {folder}: shashki runs it from its next start "
            "({variable}=1 runs the pure modules)."
        ).format(folder=folder, variable=native.PURE_VARIABLE)
    )
    return 0


def add(sub: Any) -> None:
    """Add ``compile`` to the subcommands."""
    p = sub.add_parser(
        "compile",
        help=_("compile the engine for speed (optional; needs mypy and a C compiler)"),
        description=_(
            "Compile the engine's hot modules with mypyc (pip install mypy; a C compiler "
            "and Python's headers) into the cache folder: the computer then searches about "
            "twice as fast, the same search. The build is checked before it is "
            "kept, and used only by the sources it was made from; SHASHKI_PURE=1 runs the "
            "pure modules."
        ),
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument(
        "--status", action="store_true", help=_("say whether the engine runs compiled")
    )
    what.add_argument("--remove", action="store_true", help=_("remove the compiled builds"))
    p.set_defaults(func=cmd_compile)
