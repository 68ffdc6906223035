"""What the subcommands share: the parser, the arguments' types, a mistake said in one
line, starting the app."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from ..base.numbers import bounded_decimal, is_digits, quoted
from ..i18n import _
from ..rules import Game, ShashkiError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a single line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        text = _("{prog}: error: {message} (see {help})").format(
            prog=self.prog, message=message, help=quoted(f"{self.prog} --help")
        )
        self.exit(2, text + "\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops an error writing its help or usage: let it through, so that an
        # output closed or full is ended or said as for every command
        out = file or sys.stderr
        if message and out is not None:
            out.write(message)


def fail(message: str) -> int:
    print(_("shashki: error: {message}").format(message=message), file=sys.stderr)
    return 2


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is used."""
    return message


#: argparse's own words (its ``usage:``, ``options``, its errors), translated through the
#: catalogs: argparse looks ``_`` up in its module each time it writes one.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("not allowed with argument %s"),
    N_("invalid %(type)s value: %(value)r"),
)

argparse._ = _  # type: ignore[attr-defined]


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


def run_app(**kwargs: object) -> int:
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
    return run(**kwargs)  # type: ignore[arg-type]


def add_engine_log(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """Give ``parser`` the ``--engine-log FILE`` option (a command's own, where the
    top-level parser has it too, leaves the top-level value alone when not given)."""
    from ..hub.client import ENGINE_LOG_VARIABLE

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
    from ..hub.client import ENGINE_LOG_VARIABLE, EngineError, engine_log, use_engine_log

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
