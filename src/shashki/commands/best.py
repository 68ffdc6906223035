"""``shashki best VARIANT``: search a position and print the best move."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from ..i18n import _, ngettext
from .common import add_seed, fail, new_game, seconds_argument, whole_number

if TYPE_CHECKING:
    from ..engine.search import Iteration, SearchResult
    from ..rules import Game


#: The deepest search ``best`` accepts (the search's own limit of plies).
BEST_MAX_DEPTH = 200

#: The longest search ``best`` accepts, in seconds (a day).
BEST_MAX_TIME = 24 * 3600


def _score(score: int) -> str:
    """A score for people in the language spoken now: ``+1.25`` (men), "win in 7" /
    "loss in 4" (plies); ``--json`` keeps the English of :func:`score_text`."""
    from ..engine.scores import WIN, WON

    if score >= WON:
        n = WIN - score
        return ngettext("win in {n}", "win in {n}", n).format(n=n)
    if score <= -WON:
        n = WIN + score
        return ngettext("loss in {n}", "loss in {n}", n).format(n=n)
    return f"{score / 100:+.2f}"


def _refused(args: argparse.Namespace) -> str | None:
    """Why ``--depth`` or ``--time`` cannot be searched, or None."""
    import math

    if args.depth is not None and not 1 <= args.depth <= BEST_MAX_DEPTH:
        shown: int | str = args.depth if args.depth.bit_length() < 64 else ""
        if not isinstance(shown, int):
            shown = _("a number of that size")
        return _("depth must be from 1 to {most} plies, not {depth}").format(
            most=BEST_MAX_DEPTH, depth=shown
        )
    if args.time is not None and not (math.isfinite(args.time) and 0 < args.time <= BEST_MAX_TIME):
        return _("time must be more than 0 and at most {most} seconds, not {time}").format(
            most=BEST_MAX_TIME, time=f"{args.time:g}"
        )
    return None


def _show(game: Game, as_json: bool, it: Iteration) -> None:
    """One completed depth of the search, as a line (``as_json``: a JSON object with
    English keys and scores)."""
    from ..engine import score_text
    from ..rules.variation import variation_text

    if as_json:
        entry = {
            "depth": it.depth,
            "score": score_text(it.score),
            "nodes": it.nodes,
            "time": round(it.seconds, 3),
            "pv": variation_text(game, it.pv),
        }
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


def _from_tables(game: Game, as_json: bool, *, build: bool) -> bool:
    """Answer from the ending tables when they solve the position (the quickest win, the
    longest defence, or a move that keeps the draw, exactly); whether they did.  A table
    is used when it is made (in the cache), or made when ``build`` (no clock to keep)."""
    from ..engine import score_text
    from ..engine.endings import perfect_moves, table_score

    exact = perfect_moves(game, build=build)
    if exact is None or not exact[1]:
        return False
    value, best = exact
    if as_json:
        entry = {
            "table": score_text(table_score(value)),
            "best": game.move_text(best[0], full=True),
        }
        print(json.dumps(entry, ensure_ascii=False))
    elif value == 0:
        print(
            _("ending table: a draw, {score} (with best play on both sides)").format(
                score=_score(0)
            )
        )
    else:
        print(
            _("ending table: {score} (plies, with best play on both sides)").format(
                score=_score(table_score(value))
            )
        )
    print(game.move_text(best[0], full=True))
    return True


@contextmanager
def _first_ctrl_c_stops(interrupted: threading.Event) -> Iterator[None]:
    """Ctrl+C sets ``interrupted`` (the search then answers with the best move found so
    far); a second one stops at once.  (Only the main thread may catch signals.)"""

    def on_interrupt(signum: int, frame: object) -> None:
        if interrupted.is_set():
            raise KeyboardInterrupt
        interrupted.set()

    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if main_thread else None
    try:
        yield
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)


def _print_answer(game: Game, result: SearchResult, as_json: bool) -> None:
    """The search's answer, then the move alone as the last line."""
    from ..engine import score_text

    assert result.move is not None
    best_move = game.move_text(result.move, full=True)
    if as_json:
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


def _warn_unlisted(result: SearchResult, seconds: float | None) -> None:
    """Say that the legal moves could not all be listed in the time allowed."""
    if result.listed is not None:
        how = _("among the {n} listed in time").format(n=result.listed)
    else:
        how = _("once they were listed, in {seconds} s").format(seconds=f"{result.seconds:.1f}")
    warning = _(
        "the legal moves of this position could not all be listed in the {seconds} s "
        "allowed; the move was chosen by a quick look {how}"
    ).format(seconds=f"{seconds:g}", how=how)
    print(_("shashki: warning: {message}").format(message=warning), file=sys.stderr)


def cmd_best(args: argparse.Namespace) -> int:
    from ..engine.endings import unusable_said

    try:
        return _best(args)
    finally:  # (a shipped ending table found damaged: one line each)
        for message in unusable_said():
            print(_("shashki: warning: {message}").format(message=message), file=sys.stderr)


def _best(args: argparse.Namespace) -> int:
    from ..engine import Search

    refused = _refused(args)
    if refused is not None:
        return fail(refused)
    game = new_game(args)
    # a depth alone has no clock; neither limit: 3 seconds
    seconds = args.time if args.time is not None or args.depth is not None else 3.0
    if _from_tables(game, args.json, build=seconds is None):
        return 0
    interrupted = threading.Event()
    with _first_ctrl_c_stops(interrupted):
        result = Search(game.variant).search(
            game,
            seconds=seconds,
            depth=args.depth,
            on_iteration=partial(_show, game, args.json),
            cancelled=interrupted.is_set,
            soft=1.0,  # (the time asked for is spent: what is left over would be lost)
            must_move=True,
        )
    if result.outcome is not None:
        return fail(
            _("there is no move to find. {outcome}").format(
                outcome=result.outcome.describe(variant=game.variant)
            )
        )
    if result.move is None:
        return fail(_("interrupted"))  # (before a single move could be looked at)
    if result.unlisted:
        _warn_unlisted(result, seconds)
    _print_answer(game, result, args.json)
    if interrupted.is_set():
        return fail(_("interrupted"))  # as any command stopped by Ctrl+C
    return 0


def add(sub: Any) -> None:
    """Add ``best`` to the subcommands."""
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
    p.add_argument("variant", metavar=_("VARIANT"), help=_("variant id, alias or PDN GameType"))
    p.add_argument("--fen", metavar=_("FEN"), help=_("the position to search (default: the start)"))
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--time",
        type=seconds_argument,
        metavar=_("SECONDS"),
        help=_("search for this long (default: 3 seconds)"),
    )
    limit.add_argument(
        "--depth",
        type=whole_number,
        metavar=_("N"),
        help=_("search to this depth in plies (at most {most})").format(most=BEST_MAX_DEPTH),
    )
    add_seed(p)
    p.add_argument(
        "--json",
        action="store_true",
        help=_("machine-readable output: one JSON object a line, English keys and scores"),
    )
    p.set_defaults(func=cmd_best)
