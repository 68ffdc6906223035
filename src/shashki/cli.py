"""The ``shashki`` command: its options and, one module a subcommand, its commands.

Each subcommand is a module of :mod:`shashki.commands` with an ``add(sub)`` that adds its
parser; :data:`COMMANDS` lists them in the order the help shows them.  Every mistake of
the user (an unknown variant, a bad depth or FEN, a broken file) is one line on stderr
and exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

from . import __version__
from .base.logs import LOG_VARIABLE, log_to
from .base.numbers import quoted
from .commands import common
from .commands.common import Parser, add_engine_log, fail, open_engine_log
from .i18n import LANGUAGES, _, os_reason, set_language
from .rules import ShashkiError
from .rules.variant_registry import add_variant_file

#: The subcommands (modules of :mod:`shashki.commands`), in the help's order;
#: ``shashki serve`` comes last, from :mod:`shashki.serve`.
COMMANDS = (
    "variants",
    "play",
    "host",
    "join",
    "replay",
    "review",
    "rules",
    "perft",
    "best",
    "check",
    "endings",
    "compile",
    "hub",
    "dxp",
    "match",
    "explore",
    "puzzles",
    "tournament",
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="shashki",
        description=_(
            "Draughts in all its forms, in the terminal. Run shashki alone (no "
            "COMMAND) to open the menu of variants, where Enter starts a game; a COMMAND does "
            "one thing at once."
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"shashki {__version__}",
        help=_(common.VERSION_HELP),
    )
    parser.add_argument(
        "--variant-file",
        action="append",
        default=[],
        metavar=_("PATH"),
        help=_(
            "load a variant definition file (.toml) besides the built-in ones and those in "
            "the user folder (may be repeated)"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help=_(
            "the language to speak (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG; "
            "English when none of uk, ru, en)"
        ),
    )
    add_engine_log(parser, top=True)  # (the menu's games may seat engines too)
    parser.add_argument(
        "--log",
        metavar=_("FILE"),
        help=_(
            "append to FILE what an engine, a network peer or a file did wrong, and what "
            "shashki did about it, to report a problem (also: the environment variable "
            "{variable})"
        ).format(variable=LOG_VARIABLE),
    )
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=Parser)
    for name in COMMANDS:
        import_module(f".commands.{name}", __package__).add(sub)
    from .serve import add_serve_command

    add_serve_command(sub)
    return parser


def _lang_asked(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, read before the parser (whose help it
    translates) is built; None when absent or not a language shashki speaks."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value is not None:
            return value if value in LANGUAGES else None
    return None


#: The exit status of a command whose output was closed before it was done
#: (``shashki check FILE | head``): that of a program a closed pipe stops, 128 + SIGPIPE.
CLOSED_OUTPUT = 141


def main(argv: Sequence[str] | None = None) -> int:
    """The ``shashki`` command; its exit status.  An output closed before the command is
    done (``| head``) ends it quietly, whatever it was printing (help included)."""
    try:
        try:
            return _main(argv)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # a closed output is found here, not as Python exits
    except BrokenPipeError:
        _drop_output()
        return CLOSED_OUTPUT
    except OSError as exc:  # an output that cannot be written (a full disk), or a failure
        # of the system that no command caught: one line, never a traceback
        reason = os_reason(exc)
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError:
            _drop_output()  # what cannot be written is dropped, so Python's exit is quiet
            return fail(_("cannot write the output: {reason}").format(reason=reason))
        return fail(reason)


def _drop_output() -> None:
    """Send what is still buffered for a standard output that cannot be written (closed,
    full) to /dev/null, so that Python's last flush as it exits says nothing."""
    out = sys.__stdout__
    if out is None or sys.stdout is not out:
        return  # (a replaced stream, as in tests: nothing of the process's to redirect)
    try:
        fd = out.fileno()
    except (OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _main(argv: Sequence[str] | None) -> int:
    set_language(_lang_asked(sys.argv[1:] if argv is None else argv))
    parser = build_parser()  # (its help in the language chosen)
    args = parser.parse_args(argv)
    log = args.log if args.log is not None else os.environ.get(LOG_VARIABLE) or None
    if log is not None:
        try:
            log_to(log)
        except (OSError, ValueError) as exc:
            return fail(
                _("cannot write the log {path}: {reason}").format(
                    path=quoted(log, 80), reason=os_reason(exc)
                )
            )
    try:
        for path in args.variant_file:
            add_variant_file(path)
    except ShashkiError as exc:
        return fail(str(exc))
    try:
        if not getattr(args, "func", None) or getattr(args, "starts_engines", False):
            open_engine_log(args)  # (a log that cannot be written: said before any game)
    except ShashkiError as exc:
        return fail(str(exc))
    if not getattr(args, "func", None):
        from .session.served import served

        if not served() and (not sys.stdout.isatty() or not sys.stdin.isatty()):
            parser.print_help()
            return 0
        return common.run_app(language=args.lang)
    try:
        return int(args.func(args))
    except ShashkiError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return fail(_("interrupted"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
