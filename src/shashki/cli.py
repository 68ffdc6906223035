"""The ``shashki`` command.

Every mistake of the user (an unknown variant, a bad depth or FEN, a broken file) is
one line on stderr and exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from . import __version__
from .base.numbers import bounded_decimal, is_digits, quoted
from .i18n import LANGUAGES, _, ngettext, os_reason, set_language
from .records.gametypes import DEFAULT_VARIANT
from .records.model import GameRecord
from .records.reader import read_file
from .rules import Game, ShashkiError, all_variants, find_variant
from .rules.errors import BadPdnError
from .rules.variant_registry import add_variant_file, user_file_problems

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from .engine.search import Iteration
    from .records.guess import VariantGuess


class _Parser(argparse.ArgumentParser):
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


def _fail(message: str) -> int:
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


def _online_options(p: argparse.ArgumentParser) -> None:
    """The options ``host`` and ``join`` share: the player's name, a computer in the
    player's place (no screen) and where it saves the game, the mouse."""
    p.add_argument("--name", metavar=_("NAME"), help=_("your name in the game's record"))
    p.add_argument(
        "--auto",
        type=_whole_number,
        metavar=_("LEVEL"),
        help=_("no screen: shashki's computer at LEVEL plays your side (for scripts and tests)"),
    )
    p.add_argument(
        "--save", type=Path, metavar=_("FILE"), help=_("with --auto: save the game here")
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))


def _whole_number(text: str) -> int:
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


def _seconds(text: str) -> float:
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


def _new_game(args: argparse.Namespace) -> Game:
    """The game a command starts from: ``--fen``, or the variant's start, which is the
    default start (the same every run) unless ``--seed`` draws the lot."""
    if args.fen is not None:
        if args.seed is not None:
            raise ShashkiError(_("--seed draws the start position by lot: give it without --fen"))
        return Game(args.variant, args.fen)
    return Game(args.variant, seed=args.seed)


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


def cmd_perft(args: argparse.Namespace) -> int:
    game = _new_game(args)
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


#: The deepest search ``best`` accepts (the search's own limit of plies).
BEST_MAX_DEPTH = 200
#: The longest search ``best`` accepts, in seconds (a day).
BEST_MAX_TIME = 24 * 3600


def _score(score: int) -> str:
    """A score for people in the language spoken now: ``+1.25`` (men), "win in 7" /
    "loss in 4" (plies); ``--json`` keeps the English of :func:`score_text`."""
    from .engine.search import WIN, WON

    if score >= WON:
        n = WIN - score
        return ngettext("win in {n}", "win in {n}", n).format(n=n)
    if score <= -WON:
        n = WIN + score
        return ngettext("loss in {n}", "loss in {n}", n).format(n=n)
    return f"{score / 100:+.2f}"


def cmd_best(args: argparse.Namespace) -> int:
    import math
    import signal
    import threading

    from .engine import Search, score_text
    from .engine.endings import perfect_moves, table_score
    from .rules.variation import variation_text

    if args.depth is not None and not 1 <= args.depth <= BEST_MAX_DEPTH:
        shown: int | str = args.depth if args.depth.bit_length() < 64 else ""
        if not isinstance(shown, int):
            shown = _("a number of that size")
        return _fail(
            _("depth must be from 1 to {most} plies, not {depth}").format(
                most=BEST_MAX_DEPTH, depth=shown
            )
        )
    if args.time is not None and not (math.isfinite(args.time) and 0 < args.time <= BEST_MAX_TIME):
        return _fail(
            _("time must be more than 0 and at most {most} seconds, not {time}").format(
                most=BEST_MAX_TIME, time=f"{args.time:g}"
            )
        )
    game = _new_game(args)
    variant = game.variant
    # a depth alone has no clock; neither limit: 3 seconds
    seconds = args.time if args.time is not None or args.depth is not None else 3.0

    iterations: list[dict[str, Any]] = []

    def show(it: Iteration) -> None:
        if args.json:  # the machine-readable form: English keys and scores, one line each
            entry = {
                "depth": it.depth,
                "score": score_text(it.score),
                "nodes": it.nodes,
                "time": round(it.seconds, 3),
                "pv": variation_text(game, it.pv),
            }
            iterations.append(entry)
            print(json.dumps(entry, ensure_ascii=False), flush=True)
            return
        print(
            _("depth {depth}  score {score}  nodes {nodes}  time {time}  pv {pv}").format(
                depth=f"{it.depth:2d}",
                score=f"{_score(it.score):>10}",
                nodes=f"{it.nodes:9d}",
                time=f"{it.seconds:7.3f}",
                pv=variation_text(game, it.pv),
            ),
            flush=True,
        )

    # a table is used when it is made (in the cache) or when there is no clock to keep
    exact = perfect_moves(game, build=seconds is None)
    if exact is not None and exact[0] != 0 and exact[1]:
        # an ending the tables solve: the quickest win or the longest defence, exactly
        value, best = exact
        if args.json:
            entry = {
                "table": score_text(table_score(value)),
                "best": game.move_text(best[0], full=True),
            }
            print(json.dumps(entry, ensure_ascii=False))
        else:
            print(
                _("ending table: {score} (plies, with best play on both sides)").format(
                    score=_score(table_score(value))
                )
            )
        print(game.move_text(best[0], full=True))
        return 0
    # Ctrl+C stops the search, which still answers with the best move found so far (a
    # second Ctrl+C stops at once)
    interrupted = threading.Event()

    def on_interrupt(signum: int, frame: object) -> None:
        if interrupted.is_set():
            raise KeyboardInterrupt
        interrupted.set()

    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if main_thread else None
    try:
        result = Search(variant).search(
            game,
            seconds=seconds,
            depth=args.depth,
            on_iteration=show,
            cancelled=interrupted.is_set,
            soft=1.0,  # (the time asked for is spent: what is left over would be lost)
            must_move=True,
        )
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)
    if result.outcome is not None:
        return _fail(
            _("there is no move to find. {outcome}").format(
                outcome=result.outcome.describe(variant=variant)
            )
        )
    if result.move is None:
        return _fail(_("interrupted"))  # (before a single move could be looked at)
    if result.unlisted:
        if result.listed is not None:
            how = _("among the {n} listed in time").format(n=result.listed)
        else:
            how = _("once they were listed, in {seconds} s").format(seconds=f"{result.seconds:.1f}")
        warning = _(
            "the legal moves of this position could not all be listed in the {seconds} s "
            "allowed; the move was chosen by a quick look {how}"
        ).format(seconds=f"{seconds:g}", how=how)
        print(_("shashki: warning: {message}").format(message=warning), file=sys.stderr)
    best_move = game.move_text(result.move, full=True)
    if args.json:
        answer: dict[str, Any] = {
            "best": best_move,
            "score": score_text(result.score),
            "depth": result.depth,
            "nodes": result.nodes,
            "nps": round(result.nps),
            "time": round(result.seconds, 3),
        }
        print(json.dumps(answer, ensure_ascii=False))
    else:
        print(
            _(
                "best {move}  score {score}  depth {depth}  nodes {nodes}  nps {nps}  time {time}"
            ).format(
                move=best_move,
                score=_score(result.score),
                depth=result.depth,
                nodes=result.nodes,
                nps=f"{result.nps:.0f}",
                time=f"{result.seconds:.3f}",
            )
        )
    print(best_move)
    if interrupted.is_set():
        return _fail(_("interrupted"))  # as any command stopped by Ctrl+C
    return 0


def _check_entry(path: str, index: int, game: GameRecord) -> dict[str, Any]:
    """One game's report for ``check --json``."""

    def describe(e: BadPdnError) -> dict[str, Any]:
        return {
            "line": e.line,
            "column": e.column,
            "move": e.token,
            "fen": e.fen,
            "reason": e.message,
        }

    return {
        "file": path,
        "game": index,
        "line": game.line,
        "origin": game.origin,
        "variant": game.variant.id if game.variant else None,
        "white": game.header("White"),
        "black": game.header("Black"),
        "moves": sum(1 for _ in game.nodes()),
        "errors": [describe(e) for e in game.errors],
        "warnings": [describe(w) for w in game.warnings],
    }


def cmd_endings(args: argparse.Namespace) -> int:
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from .engine import endings

    variant = find_variant(args.variant)
    if not endings.plain(variant):
        return _fail(
            _(
                "{variant} has no ending tables (they solve the games of men and kings "
                "where a side without a move loses)"
            ).format(variant=variant.local(variant.name))
        )
    if not 2 <= args.pieces <= endings.MAX_PIECES:
        return _fail(
            _("--pieces must be from 2 to {most}, not {pieces}").format(
                most=endings.MAX_PIECES, pieces=args.pieces
            )
        )
    console = Console(stderr=False, highlight=False)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    started = time.perf_counter()
    total_bytes = 0
    wanted = endings.materials(variant, args.pieces)
    with progress:
        task = progress.add_task("", total=None)
        for material in wanted:
            name = endings.material_text(material)
            progress.update(task, description=name, completed=0, total=None)

            def report(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            begun = time.perf_counter()
            was = endings.cached(variant, material)
            endings.build_one(variant, material, report)
            path = endings.cache_file(variant, material)
            size = path.stat().st_size if path.is_file() else 0
            total_bytes += size
            console.print(
                _("{material}: {positions} positions, {size} KB, {how}").format(
                    material=name,
                    positions=f"{endings.table_size(variant, material):,}",
                    size=f"{size / 1000:,.0f}",
                    how=_("in the cache")
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


def cmd_compile(args: argparse.Namespace) -> int:
    """Make the engine's compiled build, say which build runs, or remove the builds."""
    from . import compiling, native

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
        print(_("shashki: error: {message}").format(message=exc), file=sys.stderr)
        return 1
    except OSError as exc:
        return _fail(
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


def cmd_check(args: argparse.Namespace) -> int:
    """Replay every game of the files and report the games with errors (every game with
    --verbose; with --json, the games with problems), then the totals.  Streams: nothing
    per game is kept, so memory stays flat whatever the number of games; the JSON arrays
    are written as games arrive."""
    default = find_variant(args.variant) if args.variant else None
    totals = {"files": 0, "games": 0, "games_ok": 0, "moves": 0, "errors": 0, "warnings": 0}
    unreadable: list[dict[str, str]] = []
    guesses: list[dict[str, str]] = []
    report = _JsonReport(sys.stdout) if args.json else None
    try:
        for path in args.files:
            games = ok = untagged = untagged_bad = 0
            read_as = default
            if default is None:
                # games without a GameType: their variant guessed from their moves
                guess = _guess(path)
                if guess is not None and guess.variant.id != DEFAULT_VARIANT:
                    read_as = guess.variant
                    if report is None:
                        print(f"{path}: {guess.line()}")
                    else:
                        guesses.append(
                            {
                                "file": path,
                                "variant": guess.variant.id,
                                "evidence": guess.describe(),
                            }
                        )
            # only reading the file is the file's fault: a failure to write the report
            # (an output closed by "| head") is no "cannot read FILE"
            records = read_file(path, read_as)
            read = True
            while True:
                try:
                    game = next(records, None)
                except OSError as exc:
                    reason = os_reason(exc)
                    unreadable.append({"file": path, "reason": reason})
                    said = _("cannot read {path}: {reason}").format(path=path, reason=reason)
                    print(_("shashki: error: {message}").format(message=said), file=sys.stderr)
                    read = False
                    break
                if game is None:
                    break
                games += 1
                moves = sum(1 for _ in game.nodes())
                totals["moves"] += moves
                totals["errors"] += len(game.errors)
                totals["warnings"] += len(game.warnings)
                ok += game.ok
                if not (game.header("GameType") or game.header("Variant")):
                    untagged += 1
                    untagged_bad += not game.ok
                if report is not None:
                    if game.errors or game.warnings:
                        report.add(_check_entry(path, games, game))
                    continue
                _print_check(path, games, game, moves, args.verbose)
            if not read:
                continue
            totals["files"] += 1
            totals["games"] += games
            totals["games_ok"] += ok
            if report is None and default is None and untagged_bad and 2 * untagged_bad > untagged:
                if read_as is not None:
                    told = ngettext(
                        "{path}: {bad} of {n} game names no variant and does not replay as "
                        "{variant} (the guess): give theirs with --variant VARIANT "
                        "(shashki variants lists them)",
                        "{path}: {bad} of {n} games name no variant and do not replay as "
                        "{variant} (the guess): give theirs with --variant VARIANT "
                        "(shashki variants lists them)",
                        untagged,
                    )
                else:
                    told = ngettext(
                        "{path}: {bad} of {n} game names no variant and does not replay as "
                        "{variant} (PDN's default): give theirs with --variant VARIANT "
                        "(shashki variants lists them)",
                        "{path}: {bad} of {n} games name no variant and do not replay as "
                        "{variant} (PDN's default): give theirs with --variant VARIANT "
                        "(shashki variants lists them)",
                        untagged,
                    )
                name = (read_as or find_variant(DEFAULT_VARIANT)).local_name
                print(told.format(path=path, bad=untagged_bad, n=untagged, variant=name))
        failed = totals["games"] - totals["games_ok"]
        if report is not None:
            report.finish(dict(totals, games_failed=failed, unreadable=unreadable, guessed=guesses))
        else:
            print(_check_totals(totals, failed))
    finally:
        if report is not None:
            report.close()
    if unreadable:
        return 2
    return 0 if failed == 0 else 1


def _guess(path: str) -> VariantGuess | None:
    """The variant guessed for the games of ``path`` that name none; None when none is
    needed or the file cannot be read (reading it then says why)."""
    from .records.guess import guess_variant

    try:
        return guess_variant(path)
    except OSError:
        return None


def _check_totals(totals: dict[str, int], failed: int) -> str:
    """``check``'s last line: "1 file(s), 2 game(s), 4 move(s): 2 ok, 0 with errors"."""
    line = _("{files}, {games}, {moves}: {ok} ok, {failed} with errors").format(
        files=ngettext("{n} file(s)", "{n} file(s)", totals["files"]).format(n=totals["files"]),
        games=ngettext("{n} game(s)", "{n} game(s)", totals["games"]).format(n=totals["games"]),
        moves=ngettext("{n} move(s)", "{n} move(s)", totals["moves"]).format(n=totals["moves"]),
        ok=totals["games_ok"],
        failed=failed,
    )
    if totals["warnings"]:
        n = totals["warnings"]
        line += ", " + ngettext("{n} warning(s)", "{n} warning(s)", n).format(n=n)
    return line


def _print_check(path: str, index: int, game: GameRecord, moves: int, verbose: bool) -> None:
    """One game's line of ``check``: a game with an error always (where the error is:
    its own line and column, else the game's line), a good one with ``verbose`` only."""
    where = _("{path}: game {number}").format(path=path, number=index)
    if game.origin:
        where += f" ({game.origin})"
    if not game.ok:
        error = game.errors[0]
        if not error.line:
            where += _(", line {line}").format(line=game.line)
        print(_("{where}: {error}").format(where=where, error=error))
    elif verbose:
        said = ngettext(
            "{where}, line {line}: ok, {n} move", "{where}, line {line}: ok, {n} moves", moves
        )
        line = said.format(where=where, line=game.line, n=moves)
        if game.warnings:
            line += _("; warning: {warning}").format(warning=game.warnings[0])
        print(line)


class _JsonReport:
    """``check --json``'s output, written as it goes: the games with errors straight
    to ``out``, those with only warnings to a temporary file copied after them, then the
    totals; nothing per game stays in memory."""

    def __init__(self, out: TextIO) -> None:
        import tempfile

        self.out = out
        self.later = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.counts = {"errors": 0, "warnings": 0}
        out.write('{\n  "games_with_errors": [')

    @staticmethod
    def _item(entry: dict[str, Any]) -> str:
        text = json.dumps(entry, ensure_ascii=False, indent=2)
        return "\n    " + text.replace("\n", "\n    ")

    def add(self, entry: dict[str, Any]) -> None:
        kind = "errors" if entry["errors"] else "warnings"
        sep = "," if self.counts[kind] else ""
        self.counts[kind] += 1
        (self.out if kind == "errors" else self.later).write(sep + self._item(entry))

    def finish(self, totals: dict[str, Any]) -> None:
        out = self.out
        out.write("\n  ]," if self.counts["errors"] else "],")
        out.write('\n  "games_with_warnings": [')
        self.later.seek(0)
        while chunk := self.later.read(1 << 16):
            out.write(chunk)
        out.write("\n  ]" if self.counts["warnings"] else "]")
        for name, value in totals.items():
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            out.write(f",\n  {json.dumps(name)}: {text}")
        out.write("\n}\n")
        out.flush()

    def close(self) -> None:
        self.later.close()


def cmd_play(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    if args.fen is not None:
        _new_game(args)  # a bad FEN is refused here, in one line, before the screen opens
    try:
        from .app.app import Settings, config_dir
        from .app.engines import engine_settings
        from .app.players import seat, set_engines
    except ImportError as exc:  # pragma: no cover - textual is a dependency
        return _fail(_("the terminal app needs Textual: {reason}").format(reason=exc))
    set_engines(engine_settings(Settings.load(config_dir() / "settings.json").engines))
    kinds = []
    for side in ("white", "black"):
        kind = seat(getattr(args, side))
        if kind is None:
            return _fail(
                _(
                    "{option} must be person, a computer level from 1 to 8, hub:COMMAND "
                    "or an engine named in the settings, not {value}"
                ).format(option=f"--{side}", value=quoted(getattr(args, side)))
            )
        kinds.append(kind)
    clock = None
    if args.clock is not None:
        from .records.clocks import BadTimeControl, TimeControl

        try:
            clock = TimeControl.parse(args.clock)
        except BadTimeControl as exc:
            return _fail(_("{option}: {reason}").format(option="--clock", reason=exc))
    return _run_app(
        variant=variant.id,
        fen=args.fen,
        kinds=tuple(kinds),
        mouse=not args.no_mouse,
        seed=args.seed,
        clock=clock,
        language=args.lang,
    )


def cmd_replay(args: argparse.Namespace) -> int:
    from .base.userfiles import open_regular

    try:  # a folder, a FIFO or a device is refused at once, without blocking
        open_regular(args.file).close()
    except FileNotFoundError:
        return _fail(_("{path}: no such file").format(path=args.file))
    except OSError as exc:
        return _fail(
            _("cannot read {path}: {reason}").format(path=args.file, reason=os_reason(exc))
        )
    # a whole number of any size (see _whole_number), too large for str() past 4,300 digits
    game = args.game
    if game is not None and game < 1:
        if game > -(10**18):
            return _fail(_("--game must be 1 or more, not {n}").format(n=game))
        return _fail(_("--game must be 1 or more, not a negative number"))
    if game is not None and game > 10**18:
        return _fail(_("--game N: no file has that many games"))
    default = find_variant(args.variant).id if args.variant else None
    return _run_app(
        replay=args.file,
        game_number=game,
        default_variant=default,
        mouse=not args.no_mouse,
        language=args.lang,
    )


def _online_name(args: argparse.Namespace) -> str:
    from .online.protocol import MAX_NAME, clean

    name = clean(args.name or os.environ.get("USER", "") or "", MAX_NAME)
    return name or _("Player")


def cmd_host(args: argparse.Namespace) -> int:
    from .online.console import host_auto, pick_side, run

    variant = find_variant(args.variant)
    clock = None
    if args.clock is not None:
        from .records.clocks import BadTimeControl, TimeControl

        try:
            clock = TimeControl.parse(args.clock)
        except BadTimeControl as exc:
            return _fail(f"--clock: {exc}")
    if not 0 <= args.port < 65536:
        return _fail(_("--port must be 0 to 65535"))
    side = pick_side(args.side)
    name = _online_name(args)
    if args.auto is not None:
        if not 1 <= args.auto <= 8:
            return _fail(_("--auto must be a computer level from 1 to 8"))
        return run(
            host_auto(
                variant.id,
                args.auto,
                clock=clock,
                port=args.port,
                side=side,
                public=args.public,
                name=name,
                save=args.save,
                local=args.local,
            )
        )
    from .online.hosting import free_port

    try:
        port = free_port(args.port, args.public, args.local)
    except OSError as exc:
        return _fail(
            _("cannot listen on port {port}: {reason}").format(
                port=args.port, reason=exc.strerror or exc
            )
        )
    return _run_app(
        online=("host", variant.id, clock, port, side, args.public, args.local, name),
        mouse=not args.no_mouse,
        language=args.lang,
    )


def cmd_join(args: argparse.Namespace) -> int:
    from .online.console import join_auto, run
    from .online.guest import JoinError, split_address

    try:
        split_address(args.address)
    except JoinError as exc:
        return _fail(str(exc))
    name = _online_name(args)
    if args.auto is not None:
        if not 1 <= args.auto <= 8:
            return _fail(_("--auto must be a computer level from 1 to 8"))
        return run(join_auto(args.address, args.code, args.auto, name=name, save=args.save))
    return _run_app(
        online=("join", args.address, args.code, name),
        mouse=not args.no_mouse,
        language=args.lang,
    )


def _in_a_terminal() -> bool:
    """Whether both the input and the output are a terminal (what the app draws on and
    reads its keys from)."""
    return all(
        stream is not None and hasattr(stream, "isatty") and stream.isatty()
        for stream in (sys.stdin, sys.stdout)
    )


def _run_app(**kwargs: object) -> int:
    from .session.served import served

    # (else it would draw into a file and wait for keys forever; a served app draws
    # through textual-serve's pipes, which are its terminal)
    if not served() and not _in_a_terminal():
        return _fail(
            _(
                "the game and the replay need a terminal: "
                "run shashki with its input and output not redirected"
            )
        )
    try:
        from .app.app import run
    except ImportError as exc:  # pragma: no cover - textual is a dependency
        return _fail(_("the terminal app needs Textual: {reason}").format(reason=exc))
    return run(**kwargs)  # type: ignore[arg-type]


def _add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seed",
        type=_whole_number,
        metavar=_("N"),
        help=_(
            "draw the start by lot from seed N, where the variant draws it (Artamonov's "
            "first mover); without it the start is the variant's default, the same every run"
        ),
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
        help=_("show program's version number and exit"),
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
    from .hub.commands import add_commands, add_engine_log

    add_engine_log(parser, top=True)  # (the menu's games may seat engines too)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=_Parser)

    p = sub.add_parser("variants", help=_("list the variants"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("play", help=_("play a variant at once (skipping the menu)"))
    p.add_argument("variant", metavar=_("VARIANT"))
    p.add_argument("--fen", help=_("start from this position"))
    for side in ("white", "black"):
        p.add_argument(
            f"--{side}",
            metavar=_("WHO"),
            default="person",
            help=(_("who plays white") if side == "white" else _("who plays black"))
            + ": "
            + _(
                "person (the default), a computer level 1-8, hub:COMMAND (a Hub engine, "
                "e.g. 'hub:dame hub') or an engine named in the settings"
            ),
        )
    p.add_argument(
        "--clock",
        metavar=_("M+S"),
        help=_(
            "play on time: M minutes for the game (a fraction allowed: 0.5) and S seconds "
            "added after each turn, e.g. 5+3"
        ),
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    _add_seed(p)
    add_engine_log(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "host",
        help=_("host a game for a friend on another machine; prints how to join"),
        description=_(
            "Start a game and wait for a friend: prints the command that joins it (an "
            "address and a one-time room code). Listens on this machine's network address "
            "only, unless --public."
        ),
    )
    p.add_argument("variant", metavar="VARIANT")
    p.add_argument("--clock", metavar="M+S", help=_("play on time, e.g. 5+3"))
    p.add_argument(
        "--port", type=_whole_number, default=8765, help=_("the port to listen on (default 8765)")
    )
    p.add_argument(
        "--as",
        dest="side",
        choices=("white", "black", "random"),
        default="white",
        help=_("the side you play (default white)"),
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--public", action="store_true", help=_("listen on every network of this machine")
    )
    where.add_argument(
        "--local", action="store_true", help=_("listen on 127.0.0.1: a friend on this machine")
    )
    _online_options(p)
    p.set_defaults(func=cmd_host)

    p = sub.add_parser("join", help=_("join a game a friend hosts (shashki host)"))
    p.add_argument("address", metavar="ADDRESS", help=_("HOST:PORT, as the host printed it"))
    p.add_argument("code", metavar="CODE", help=_("the room code, e.g. K7WQ-M2"))
    _online_options(p)
    p.set_defaults(func=cmd_join)

    p = sub.add_parser("replay", help=_("open a PDN file in the replay viewer"))
    p.add_argument("file", metavar=_("FILE"))
    p.add_argument(
        "--game", type=_whole_number, metavar=_("N"), help=_("open game N (1 = the first) at once")
    )
    p.add_argument(
        "--variant",
        metavar=_("V"),
        help=_("the variant of games without a GameType tag (default: PDN's, International)"),
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("rules", help=_("print a variant's rule card"))
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "perft",
        help=_("count the leaf nodes of the legal-move tree"),
        description=_(
            "Count the positions reached after exactly DEPTH plies. The count is "
            "the last line of the output."
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"))
    p.add_argument("depth", metavar=_("DEPTH"), type=_whole_number)
    p.add_argument("--fen", help=_("start from this position instead of the initial one"))
    p.add_argument("--divide", action="store_true", help=_("first print each move and its count"))
    _add_seed(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser(
        "best",
        help=_("search a position and print the best move"),
        description=_(
            "Search the position (the start, or --fen) and print each completed "
            "depth of the search (score, nodes, principal variation), then the chosen move with "
            "every landing square as the last line. Scores are in men (+1.00 = a man ahead for "
            "the side to move) or as a win or a loss in N plies; --json prints each line as "
            'JSON, with English scores ("win in 7").'
        ),
    )
    p.add_argument("variant", metavar=_("VARIANT"))
    p.add_argument("--fen", help=_("the position to search (default: the start)"))
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--time",
        type=_seconds,
        metavar=_("SECONDS"),
        help=_("search for this long (default: 3 seconds)"),
    )
    limit.add_argument(
        "--depth",
        type=_whole_number,
        metavar=_("N"),
        help=_("search to this depth in plies (at most {most})").format(most=BEST_MAX_DEPTH),
    )
    _add_seed(p)
    p.add_argument(
        "--json",
        action="store_true",
        help=_("machine-readable output: one JSON object a line, English keys and scores"),
    )
    p.set_defaults(func=cmd_best)

    p = sub.add_parser(
        "check",
        help=_("replay every game of PDN files and report the first error of each"),
        description=_(
            "Read every game of the files and replay every move, variations "
            "included. Prints the first error of each game that does not replay (its line and "
            "column) and the totals; --verbose prints every game. Exit status: 0 when every "
            "game replays, 1 when some game does not, 2 when a file cannot be read. A .json "
            "file is read as a JSON list of PDN texts."
        ),
    )
    p.add_argument("files", metavar=_("FILE"), nargs="+")
    p.add_argument(
        "-v", "--verbose", action="store_true", help=_("print every game, the good ones too")
    )
    p.add_argument(
        "--variant",
        metavar=_("VARIANT"),
        help=_(
            "the variant of games whose tags (GameType, Variant) name none "
            "(default: international, as PDN says)"
        ),
    )
    p.add_argument(
        "--json", action="store_true", help=_("print the totals and the games with errors as JSON")
    )
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "endings",
        help=_("make the engine's exact tables of the endings of a few pieces"),
        description=_(
            "The engine solves the endings of a few pieces exactly, backwards from their "
            "ends, the first time they arise, and keeps the tables in the cache folder. "
            "'build' makes them ahead of time, with a progress bar."
        ),
    )
    endings_sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    endings_sub.required = True
    q = endings_sub.add_parser("build", help=_("make the tables of a variant"))
    q.add_argument("variant", metavar="VARIANT")
    q.add_argument(
        "--pieces",
        type=_whole_number,
        default=3,
        metavar="N",
        help=_(
            "every ending of at most N pieces (default: 3); 5 adds only the endings of five kings"
        ),
    )
    q.set_defaults(func=cmd_endings)

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
    add_commands(sub)
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
            return _fail(_("cannot write the output: {reason}").format(reason=reason))
        return _fail(reason)


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
    try:
        for path in args.variant_file:
            add_variant_file(path)
    except ShashkiError as exc:
        return _fail(str(exc))
    try:
        if not getattr(args, "func", None) or getattr(args, "starts_engines", False):
            from .hub.commands import open_engine_log

            open_engine_log(args)  # (a log that cannot be written: said before any game)
    except ShashkiError as exc:
        return _fail(str(exc))
    if not getattr(args, "func", None):
        from .session.served import served

        if not served() and (not sys.stdout.isatty() or not sys.stdin.isatty()):
            parser.print_help()
            return 0
        return _run_app(language=args.lang)
    try:
        return int(args.func(args))
    except ShashkiError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return _fail(_("interrupted"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
