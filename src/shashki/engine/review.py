"""The engine's part of a whole-game review: every position of a game searched, in worker
processes over every core, the first results given while the rest are searched.

A game is cut into runs of a few consecutive positions; each run is one job of a
process pool (``spawn``: a fresh interpreter, nothing of the app's threads carried over),
searched last position first with a transposition table cleared at its start, so that a
position's result depends only on the game and the budget of nodes — never on which
process searched it or what it searched before (the same game gives the same review on
one core or on eight).  Each position gets the search's score for the side to move, the
best move and the line, or the end of the game when it is over there.

>>> from shashki.rules import Game
>>> game = Game("russian")
>>> texts = [game.move_text(game.push_text(t)) for t in ("c3-d4", "f6-g5")]
>>> scores = analyse_game("russian", None, texts, nodes=2000, workers=1)
>>> [s.ply for s in scores], scores[0].turn, scores[1].turn
([0, 1, 2], 0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..base.workers import Jobs, workers_wanted
from ..rules.game import Game
from ..rules.variant_registry import find_variant
from .scores import WIN
from .search import Search

#: Positions searched in one job (consecutive: each job's table serves them all).
RUN = 3
#: The budget of nodes for each position at the default setting, and the settings a
#: person chooses from (docs/REVIEW.md: what each costs and finds).
DEPTHS = {"quick": 20_000, "normal": 60_000, "deep": 240_000}
DEFAULT_DEPTH = "normal"


@dataclass(frozen=True)
class PlyScore:
    """The search's view of one position of the game (``ply`` moves from its start)."""

    ply: int
    #: The side to move (0 or 1).
    turn: int
    #: The score for the side to move, in hundredths of a man (±WIN… for a won or lost
    #: game, the distance in plies off WIN; at the end of the game its exact value).
    score: int
    #: The best move in full notation ("" when the game is over here).
    best: str = ""
    #: The best line, full notation, at most 8 moves.
    line: tuple[str, ...] = ()
    depth: int = 0
    nodes: int = 0
    #: The game is over in this position.
    over: bool = False


def search_run(
    variant_id: str, fen: str | None, moves: Sequence[str], plies: Sequence[int], nodes: int
) -> list[PlyScore]:
    """Search the positions ``plies`` (after that many of ``moves``) of one game, the
    last first, with one table cleared at the start; a worker process's job."""
    variant = find_variant(variant_id)
    game = Game(variant, fen) if fen else Game(variant)
    positions: dict[int, Game] = {}
    last = max(plies)
    for i in range(last + 1):
        if i in plies:
            positions[i] = game.copy()
        if i < last:
            game.push(game.parse_move(moves[i]))
    search = _search_for(variant_id)
    search.clear()
    out: list[PlyScore] = []
    for ply in sorted(plies, reverse=True):
        at = positions[ply]
        turn = int(at.turn)
        outcome = at.outcome()
        if outcome is not None:
            if outcome.winner is None:
                score = 0
            else:
                score = WIN if int(outcome.winner) == turn else -WIN
            out.append(PlyScore(ply, turn, score, over=True))
            continue
        result = search.search(at, nodes=nodes)
        line: list[str] = []
        walk = at.copy()
        for move in result.pv[:8]:
            try:
                line.append(walk.move_text(move, full=True))
                walk.push(move)
            except Exception:  # (a line the table gave that no longer fits)
                break
        best = ""
        if result.move is not None:
            best = at.move_text(result.move, full=True)
        out.append(PlyScore(ply, turn, result.score, best, tuple(line), result.depth, result.nodes))
    return out


_SEARCHES: dict[str, Search] = {}


def _search_for(variant_id: str) -> Search:
    search = _SEARCHES.get(variant_id)
    if search is None:
        search = _SEARCHES[variant_id] = Search(variant_id)
    return search


class Analysis:
    """The positions of one game searched in a pool of processes: iterate it for the
    results of each job as they come (``cancel`` stops it; what was started finishes in
    its worker, a few positions at most)."""

    def __init__(
        self,
        variant_id: str,
        fen: str | None,
        moves: Sequence[str],
        *,
        nodes: int,
        workers: int | None = None,
        nice: int = 0,
        plies: Sequence[int] | None = None,
    ) -> None:
        self.variant_id = variant_id
        self.fen = fen
        self.moves = list(moves)
        self.nodes = nodes
        wanted = list(range(len(self.moves) + 1)) if plies is None else sorted(set(plies))
        self.jobs = list(_runs(wanted))
        self.total = len(wanted)
        self.workers = max(1, min(workers or workers_wanted(), len(self.jobs) or 1))
        self.nice = nice
        self._jobs: Jobs[list[PlyScore]] | None = None
        self.cancelled = False

    def __iter__(self) -> Iterator[list[PlyScore]]:
        if not self.jobs:
            return
        runs = [(self.variant_id, self.fen, self.moves, run, self.nodes) for run in self.jobs]
        self._jobs = Jobs(search_run, runs, workers=self.workers, nice=self.nice)
        if self.cancelled:
            self._jobs.cancel()
        for _number, scores in self._jobs:
            yield scores

    def cancel(self) -> None:
        self.cancelled = True
        if self._jobs is not None:
            self._jobs.cancel()


def _runs(plies: list[int]) -> Iterator[list[int]]:
    """``plies`` cut into runs of at most :data:`RUN` consecutive ones."""
    run: list[int] = []
    for ply in plies:
        if run and (ply != run[-1] + 1 or len(run) == RUN):
            yield run
            run = []
        run.append(ply)
    if run:
        yield run


def analyse_game(
    variant_id: str,
    fen: str | None,
    moves: Sequence[str],
    *,
    nodes: int = DEPTHS[DEFAULT_DEPTH],
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[PlyScore]:
    """Every position of a game searched (see :class:`Analysis`), in order of ply;
    ``progress(done, total)`` after each job."""
    analysis = Analysis(variant_id, fen, moves, nodes=nodes, workers=workers)
    found: dict[int, PlyScore] = {}
    for scores in analysis:
        for score in scores:
            found[score.ply] = score
        if progress is not None:
            progress(len(found), analysis.total)
    return [found[ply] for ply in sorted(found)]


__all__ = [
    "DEFAULT_DEPTH",
    "DEPTHS",
    "RUN",
    "Analysis",
    "PlyScore",
    "analyse_game",
    "search_run",
]
