"""What the subcommands share: the parser, the arguments' types, a mistake said in one
line, starting the app."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..base.numbers import bounded_decimal, is_digits, quoted
from ..i18n import N_, _, clause, error_line
from ..rules import Game, ShashkiError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from ..app.launch import StartRequest


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help in the language spoken: its own words (``usage:``, the headings of
    its sections) through the catalogs."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        super().start_section(_(heading) if heading in ARGPARSE_HEADINGS else heading)


class Parser(argparse.ArgumentParser):
    """argparse in the language spoken, and a usage mistake is a single line on stderr
    (exit status 2).

    argparse writes its own words in English: its help through :class:`HelpFormatter`
    and its own ``--help`` option are ours; its errors are read back against
    :data:`ARGPARSE_ERRORS` and said again in the language spoken (:func:`argparse_said`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        add_help = kwargs.get("add_help", True)
        kwargs["add_help"] = False  # (its own, below: in the language spoken)
        super().__init__(*args, **kwargs)
        if add_help:
            self.add_argument(
                "-h",
                "--help",
                action="help",
                default=argparse.SUPPRESS,
                help=_("show this help message and exit"),
            )

    def error(self, message: str) -> NoReturn:
        text = _("{prog}: error: {message} (see {help})").format(
            prog=self.prog,
            message=clause(argparse_said(message)),
            help=quoted(f"{self.prog} --help"),
        )
        self.exit(2, text + "\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops an error writing its help or usage: let it through, so that an
        # output closed or full is ended or said as for every command
        out = file or sys.stderr
        if message and out is not None:
            out.write(message)


def fail(message: str) -> int:
    print(error_line(message), file=sys.stderr)
    return 2


#: The headings argparse gives the sections of a help (and its usage line's start).
ARGPARSE_HEADINGS = (N_("usage: "), N_("positional arguments"), N_("options"))
#: The version option's help (argparse's own words for it, given by the command line).
VERSION_HELP = N_("show program's version number and exit")
#: argparse's errors, as it writes them in English (``%s``, ``%(name)s`` and ``%(name)r``
#: are what it puts in).
ARGPARSE_ERRORS = (
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("not allowed with argument %s"),
    N_("invalid %(type)s value: %(value)r"),
)
_SLOT = re.compile(r"%\((\w+)\)[sr]|%s")


def _error_pattern(template: str) -> re.Pattern[str]:
    """A template of :data:`ARGPARSE_ERRORS` as a pattern that reads its values back."""
    pattern, end = "", 0
    for slot in _SLOT.finditer(template):
        pattern += re.escape(template[end : slot.start()])
        last = slot.end() == len(template)
        pattern += f"(?P<{slot[1] or 'text'}>{'.*' if last else '.*?'})"
        end = slot.end()
    return re.compile(pattern + re.escape(template[end:]), re.DOTALL)


_ERROR_PATTERNS = [(template, _error_pattern(template)) for template in ARGPARSE_ERRORS]


def argparse_said(message: str) -> str:
    """An error argparse wrote in English, said in the language spoken; a message it does
    not know (its own words changed, or one of ours) is left as it is."""
    for template, pattern in _ERROR_PATTERNS:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        values = found.groupdict()
        if "message" in values:  # "argument --x: <another of its errors>"
            values["message"] = argparse_said(values["message"])
        said = re.sub(r"%\((\w+)\)r", r"%(\1)s", _(template))  # (the values are written)
        if "text" in values:
            return said.replace("%s", values["text"], 1)
        return said % values if values else said
    return message


def whole_number(text: str) -> int:
    """An argument that is a whole number of any size (``int`` refuses more than 4,300
    digits); raises ArgumentTypeError, quoting at most the start of ``text``."""
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not is_digits(digits):
        raise argparse.ArgumentTypeError(_("not a whole number: {text}").format(text=quoted(text)))
    value = 0
    for start in range(0, len(digits), 4000):  # int() reads 4,000 digits at a time
        chunk = digits[start : start + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return -value if body[:1] == "-" else value


def seconds_argument(text: str) -> float:
    """An argument that is a number of seconds as ``--clock`` reads numbers: ASCII
    digits, a decimal point or none (not ``1e3``, ``nan`` or digits of another
    script); the range is checked by the command."""
    value = bounded_decimal(text, 10**9)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("not a number of seconds (digits and a decimal point, e.g. 0.5): {text}").format(
                text=quoted(text, 40)
            )
        )
    return value


def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seed",
        type=whole_number,
        metavar=_("N"),
        help=_(
            "draw the start by lot from seed N, where the variant draws it (Artamonov's "
            "first mover); without it the start is the variant's default, the same every run"
        ),
    )


def new_game(args: argparse.Namespace) -> Game:
    """The game a command starts from: ``--fen``, or the variant's start, which is the
    default start (the same every run) unless ``--seed`` draws the lot."""
    if args.fen is not None:
        if args.seed is not None:
            raise ShashkiError(_("--seed draws the start position by lot: give it without --fen"))
        return Game(args.variant, args.fen)
    return Game(args.variant, seed=args.seed)


def online_options(p: argparse.ArgumentParser) -> None:
    """The options ``host`` and ``join`` share: the player's name, a computer in the
    player's place (no screen) and where it saves the game, the mouse."""
    p.add_argument("--name", metavar=_("NAME"), help=_("your name in the game's record"))
    p.add_argument(
        "--auto",
        type=whole_number,
        metavar=_("LEVEL"),
        help=_("no screen: shashki's computer at LEVEL plays your side (for scripts and tests)"),
    )
    p.add_argument(
        "--save", type=Path, metavar=_("FILE"), help=_("with --auto: save the game here")
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))


def online_name(args: argparse.Namespace) -> str:
    from ..online.protocol import MAX_NAME, clean

    name = clean(args.name or os.environ.get("USER", "") or "", MAX_NAME)
    return name or _("Player")


def in_a_terminal() -> bool:
    """Whether both the input and the output are a terminal (what the app draws on and
    reads its keys from)."""
    return all(
        stream is not None and hasattr(stream, "isatty") and stream.isatty()
        for stream in (sys.stdin, sys.stdout)
    )


def run_app(
    start: StartRequest | None = None, *, mouse: bool = True, language: str | None = None
) -> int:
    """Run the app, opening ``start`` first (None: the menu); its exit status.  Without a
    terminal it says so in one line (status 2) instead."""
    from ..session.served import served

    # (else it would draw into a file and wait for keys forever; a served app draws
    # through textual-serve's pipes, which are its terminal)
    if not served() and not in_a_terminal():
        return fail(
            _(
                "the game and the replay need a terminal: "
                "run shashki with its input and output not redirected"
            )
        )
    try:
        from ..app.app import run
    except ImportError as exc:  # pragma: no cover - textual is a dependency
        return fail(_("the terminal app needs Textual: {reason}").format(reason=exc))
    return run(start, mouse=mouse, language=language)


def add_engine_log(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """Give ``parser`` the ``--engine-log FILE`` option (a command's own, where the
    top-level parser has it too, leaves the top-level value alone when not given)."""
    from ..engine.hub.client import ENGINE_LOG_VARIABLE

    parser.add_argument(
        "--engine-log",
        metavar=_("FILE"),
        default=None if top else argparse.SUPPRESS,
        help=_(
            "append what is said with Hub engines and what they write on their standard "
            "error to FILE (also: the environment variable {variable})"
        ).format(variable=ENGINE_LOG_VARIABLE),
    )
    if not top:
        parser.set_defaults(starts_engines=True)


def open_engine_log(args: argparse.Namespace) -> None:
    """Open the engine log the command line or the environment names, for a command
    that may start engines (at once: a file that cannot be written is said before any
    game); raises ShashkiError."""
    from ..engine.hub.client import ENGINE_LOG_VARIABLE, EngineError, engine_log, use_engine_log

    path = getattr(args, "engine_log", None)
    if path is None and not os.environ.get(ENGINE_LOG_VARIABLE):
        return
    try:
        if path is not None:
            use_engine_log(path)
        else:
            engine_log()
    except EngineError as exc:
        raise ShashkiError(exc.said()) from None
