"""``shashki check FILE…``: replay every game of PDN files and report their errors."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ..i18n import _, error_line, ngettext, os_reason
from ..records.gametypes import DEFAULT_VARIANT
from ..records.model import GameRecord
from ..records.reader import read_file
from ..rules import find_variant
from ..rules.errors import BadPdnError

if TYPE_CHECKING:
    from ..records.guess import VariantGuess
    from ..rules.variant import Variant


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


def cmd_check(args: argparse.Namespace) -> int:
    """Replay every game of the files and report the games with errors (every game with
    --verbose; with --json, the games with problems), then the totals.  Streams: nothing
    per game is kept, so memory stays flat whatever the number of games; the JSON arrays
    are written as games arrive."""
    default = find_variant(args.variant) if args.variant else None
    check = _Check(default, _JsonReport(sys.stdout) if args.json else None, args.verbose)
    try:
        for path in args.files:
            check.file(path)
        failed = check.finish()
    finally:
        check.close()
    if check.unreadable:
        return 2
    return 0 if failed == 0 else 1


class _Check:
    """``check``'s reading of its files, one after the other, and its totals."""

    def __init__(self, default: Variant | None, report: _JsonReport | None, verbose: bool):
        #: The variant ``--variant`` gave the games that name none (None: guessed).
        self.default = default
        self.report = report
        self.verbose = verbose
        self.totals = {"files": 0, "games": 0, "games_ok": 0, "moves": 0}
        self.totals |= {"errors": 0, "warnings": 0}
        self.unreadable: list[dict[str, str]] = []
        self.guesses: list[dict[str, str]] = []

    def file(self, path: str) -> None:
        """Replay the games of ``path``, each reported as it is read."""
        games = ok = untagged = untagged_bad = 0
        read_as = self.read_as(path)
        # only reading the file is the file's fault: a failure to write the report (an
        # output closed by "| head") is no "cannot read FILE"
        records = read_file(path, read_as)
        while True:
            try:
                game = next(records, None)
            except OSError as exc:
                reason = os_reason(exc)
                self.unreadable.append({"file": path, "reason": reason})
                said = _("cannot read {path}: {reason}").format(path=path, reason=reason)
                print(error_line(said), file=sys.stderr)
                return
            if game is None:
                break
            games += 1
            moves = sum(1 for _ in game.nodes())
            self.totals["moves"] += moves
            self.totals["errors"] += len(game.errors)
            self.totals["warnings"] += len(game.warnings)
            ok += game.ok
            if not (game.header("GameType") or game.header("Variant")):
                untagged += 1
                untagged_bad += not game.ok
            if self.report is None:
                _print_check(path, games, game, moves, self.verbose)
            elif game.errors or game.warnings:
                self.report.add(_check_entry(path, games, game))
        self.totals["files"] += 1
        self.totals["games"] += games
        self.totals["games_ok"] += ok
        if self.report is None and self.default is None and 2 * untagged_bad > untagged > 0:
            _advise_variant(path, read_as, untagged_bad, untagged)

    def read_as(self, path: str) -> Variant | None:
        """The variant of ``path``'s games that name none: ``--variant``'s, else the one
        guessed from their moves (said), else None (PDN's default)."""
        if self.default is not None:
            return self.default
        guess = _guess(path)
        if guess is None or guess.variant.id == DEFAULT_VARIANT:
            return None
        if self.report is None:
            print(f"{path}: {guess.line()}")
        else:
            entry = {"file": path, "variant": guess.variant.id, "evidence": guess.describe()}
            self.guesses.append(entry)
        return guess.variant

    def finish(self) -> int:
        """Write the totals; the number of games that do not replay."""
        failed = self.totals["games"] - self.totals["games_ok"]
        if self.report is not None:
            extra = {"unreadable": self.unreadable, "guessed": self.guesses}
            self.report.finish(dict(self.totals, games_failed=failed, **extra))
        else:
            print(_check_totals(self.totals, failed))
        return failed

    def close(self) -> None:
        if self.report is not None:
            self.report.close()


def _advise_variant(path: str, read_as: Variant | None, bad: int, untagged: int) -> None:
    """Most of a file's games that name no variant do not replay as the one they were
    read as: say so, and how to give theirs."""
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
    print(told.format(path=path, bad=bad, n=untagged, variant=name))


def _guess(path: str) -> VariantGuess | None:
    """The variant guessed for the games of ``path`` that name none; None when none is
    needed or the file cannot be read (reading it then says why)."""
    from ..records.guess import guess_variant

    try:
        return guess_variant(path)
    except OSError:
        return None


def _check_totals(totals: dict[str, int], failed: int) -> str:
    """``check``'s last line: "1 file, 2 games, 4 half-moves: 2 ok, 0 with errors" (a move
    is both sides', as players count: what check counts, variations included, are the
    half-moves)."""
    line = _("{files}, {games}, {moves}: {ok} ok, {failed} with errors").format(
        files=ngettext("{n} file", "{n} files", totals["files"]).format(n=totals["files"]),
        games=ngettext("{n} game", "{n} games", totals["games"]).format(n=totals["games"]),
        moves=ngettext("{n} half-move", "{n} half-moves", totals["moves"]).format(
            n=totals["moves"]
        ),
        ok=totals["games_ok"],
        failed=failed,
    )
    if totals["warnings"]:
        n = totals["warnings"]
        line += ", " + ngettext("{n} warning", "{n} warnings", n).format(n=n)
    return line


def _print_check(path: str, index: int, game: GameRecord, moves: int, verbose: bool) -> None:
    """One game's line of ``check``: a game with an error always (where the error is:
    its own line and column, else the game's line), a good one with a warning always (the
    summary counts it), any other good one with ``verbose`` only."""
    where = _("{path}: game {number}").format(path=path, number=index)
    if game.origin:
        where += f" ({game.origin})"
    if not game.ok:
        error = game.errors[0]
        if not error.line:
            where += _(", line {line}").format(line=game.line)
        print(_("{where}: {error}").format(where=where, error=error))
    elif verbose or game.warnings:
        said = ngettext(
            "{where}, line {line}: ok, {n} half-move",
            "{where}, line {line}: ok, {n} half-moves",
            moves,
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


def add(sub: Any) -> None:
    """Add ``check`` to the subcommands."""
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
    p.add_argument(
        "files", metavar=_("FILE"), nargs="+", help=_("a PDN file (or a JSON list of PDN texts)")
    )
    p.add_argument(
        "-v", "--verbose", action="store_true", help=_("print every game, the good ones too")
    )
    p.add_argument(
        "--variant",
        metavar=_("VARIANT"),
        help=_(
            "the variant of games whose tags (GameType, Variant) name none (default: "
            "guessed from their moves, else International, as PDN says)"
        ),
    )
    p.add_argument(
        "--json", action="store_true", help=_("print the totals and the games with errors as JSON")
    )
    p.set_defaults(func=cmd_check)
