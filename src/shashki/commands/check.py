"""``shashki check FILE…``: replay every game of PDN files and report their errors."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ..i18n import _, ngettext, os_reason
from ..records.gametypes import DEFAULT_VARIANT
from ..records.model import GameRecord
from ..records.reader import read_file
from ..rules import find_variant
from ..rules.errors import BadPdnError

if TYPE_CHECKING:
    from ..records.guess import VariantGuess


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
    from ..records.guess import guess_variant

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
