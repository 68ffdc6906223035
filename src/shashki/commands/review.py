"""``shashki review FILE [--game N]``: a whole-game review, in the app or printed.

In a terminal it opens the game's review screen (the replay with the review under way:
the graph, the marks, the accuracy, the key moments).  With ``--print`` it reviews
without the app: the progress on the standard error, then each side's accuracy and the
key moments on the standard output; ``--output FILE`` writes the game with the review in
it (PDN: ``[%eval]`` comments and the marks as NAGs; ``-`` for the standard output).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..engine.review import DEFAULT_DEPTH
from ..i18n import _, os_reason
from ..rules import ShashkiError, find_variant
from . import common
from .common import fail, whole_number


def cmd_review(args: argparse.Namespace) -> int:
    from ..base.userfiles import open_regular

    try:  # a folder, a FIFO or a device is refused at once, without blocking
        open_regular(args.file).close()
    except FileNotFoundError:
        return fail(_("{path}: no such file").format(path=args.file))
    except OSError as exc:
        return fail(_("cannot read {path}: {reason}").format(path=args.file, reason=os_reason(exc)))
    game = args.game
    if game < 1:
        if game > -(10**18):
            return fail(_("--game must be 1 or more, not {n}").format(n=game))
        return fail(_("--game must be 1 or more, not a negative number"))
    if game > 10**18:
        return fail(_("--game N: no file has that many games"))
    default = find_variant(args.variant).id if args.variant else None
    workers = args.workers
    if workers is not None and not 1 <= workers <= 256:
        return fail(_("--workers must be 1 to 256"))
    if not args.print:
        if args.output or args.depth or workers:
            return fail(_("--output, --depth and --workers go with --print"))
        from ..app.launch import ReplayRequest

        start = ReplayRequest(Path(args.file), game, default, review=True)
        return common.run_app(start, mouse=not args.no_mouse, language=args.lang)
    depth = args.depth or DEFAULT_DEPTH
    return print_review(Path(args.file), game, default, depth, args.output, workers)


def print_review(
    path: Path,
    number: int,
    default: str | None,
    depth: str,
    output: str | None,
    workers: int | None,
) -> int:
    """Review game ``number`` of ``path`` without the app; its exit status."""
    from ..app.replay import load_record
    from ..session.review import Review

    try:
        record = load_record(path, number - 1, default)
    except OSError as exc:
        return fail(_("cannot read {path}: {reason}").format(path=path, reason=os_reason(exc)))
    if record is None:
        return fail(_("{file} has no game number {number}.").format(file=path.name, number=number))
    if record.variant is None:
        return fail(_("This game is of a variant shashki does not play."))
    if record.errors:
        print(
            _("This record stops after the last good move: {error}").format(error=record.errors[0]),
            file=sys.stderr,
        )
    if not record.variations:
        return fail(_("There is no move to review."))
    try:
        review = Review(record, depth=depth)
    except (ShashkiError, ValueError) as exc:
        return fail(str(exc))
    interactive = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        line = _("Review: {done} of {total} positions").format(done=done, total=total)
        if interactive:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)

    try:
        review.run(workers=workers, progress=progress)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return fail(_("the review was stopped"))
    if interactive:
        print(file=sys.stderr)
    # the game itself on the standard output: the summary beside it, on the standard error
    print(summary(review), file=sys.stderr if output == "-" else sys.stdout)
    if output:
        from ..records import write_game

        review.write()
        text = write_game(record)
        if output == "-":
            sys.stdout.write(text)
        else:
            from ..store import SaveError, save_pdn

            try:
                save_pdn(output, record)
            except SaveError as exc:
                return fail(str(exc))
    return 0


def summary(review: Any) -> str:
    """Each side's accuracy and marks, then the key moments, as lines of text."""
    variant = review.variant
    record = review.record
    lines = []
    for side in (0, 1):
        name = variant.local_side(side)
        player = record.header("White" if side == 0 else "Black").strip()
        plain = player in ("", "?", str(name), variant.side_names[side])
        who = str(name) if plain else f"{name} ({player})"
        score = review.accuracy(side)
        counts = review.counts(side)
        shown = "–" if score is None else f"{score:.0f}%"
        marks = "  ".join(f"{mark} {counts[mark]}" for mark in ("??", "?", "?!"))
        said = _("{side}: accuracy {accuracy}").format(side=who, accuracy=shown)
        lines.append(f"{said}  {marks}")
    moments = review.key_moments()
    if moments:
        lines.append(_("Key moments:"))
    for v in moments:
        line = f"  {review.labels[v.ply - 1]}{v.mark}  "
        line += f"{v.before * 100:.0f}% → {v.after * 100:.0f}%"
        if v.best:
            line += "  " + _("Best was {move}.").format(move=v.best)
        lines.append(line)
    if not moments:
        lines.append(_("No mistakes found."))
    return "\n".join(lines)


def add(sub: Any) -> None:
    """Add ``review`` to the subcommands."""
    from ..engine.review import DEPTHS

    p = sub.add_parser(
        "review",
        help=_("review a game: where it was lost, each side's accuracy, the key moments"),
        description=_(
            "Review a game of a PDN file: the engine judges every position, marks each move "
            "by what it lost (?! an inaccuracy, ? a mistake, ?? a blunder) and gives each "
            "side's accuracy and the key moments. In a terminal the game opens in the app "
            "with its review under way; --print reviews it without the app."
        ),
    )
    p.add_argument("file", metavar=_("FILE"), help=_("a PDN file (or a JSON list of PDN texts)"))
    p.add_argument(
        "--game", type=whole_number, default=1, metavar=_("N"), help=_("game N (1 = the first)")
    )
    p.add_argument(
        "--variant",
        metavar=_("V"),
        help=_("the variant of games without a GameType tag (default: PDN's, International)"),
    )
    p.add_argument(
        "--depth",
        choices=sorted(DEPTHS),
        help=_(
            "with --print: how deep the engine looks (default: {depth}; the app has it in "
            "its settings)"
        ).format(depth=DEFAULT_DEPTH),
    )
    p.add_argument(
        "--print",
        action="store_true",
        help=_("review without the app: print each side's accuracy and the key moments"),
    )
    p.add_argument(
        "--output",
        metavar=_("FILE"),
        help=_(
            "with --print: write the game with the review in it to this file (- for the output)"
        ),
    )
    p.add_argument(
        "--workers",
        type=whole_number,
        metavar=_("N"),
        help=_("with --print: worker processes (default: one a core)"),
    )
    p.add_argument("--no-mouse", action="store_true", help=_("leave the mouse to the terminal"))
    p.set_defaults(func=cmd_review)
