"""The computer player and its eight levels.

======  ====================  ======================================================
level   name                  how it plays
======  ====================  ======================================================
1       beginner              looks one move ahead (and at the captures that follow),
                              then picks at random among the moves that lose at most
                              about one and a half men by that look
2       novice                two moves ahead, random among moves within 0.8 men
3       casual                three moves ahead, random within 0.4 men
4       club                  four moves ahead (at most 1 s), random within 0.2 men
5       strong club           searches 1 s, random only among near-equal moves
6       expert                searches 2 s
7       master                searches 4 s
8       strongest             searches 8 s
======  ====================  ======================================================

From level 6 up, a goal game that the goal table solves (Wolf and Sheep) is played
perfectly: a side that can win always keeps a winning move; and so are the endings of a
few pieces that the ending tables solve (three kings against one in Russian draughts, a
king and a man against a king on the big board): the quickest win, the longest defence,
or a move that keeps the draw.  A table is made in a worker process the first time its
ending arises (the move meanwhile is searched as usual), then kept in the cache folder.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..rules.game import Game, game_state
from ..rules.move import Move
from ..rules.variant import Variant
from .endings import (
    build_in_worker,
    covered,
    material_of,
    perfect_moves,
    quick_to_make,
    table_score,
)
from .search import SOFT, Options, Search, SearchResult, choose
from .solver import goal_table, solvable


@dataclass(frozen=True)
class Level:
    """How one level searches and chooses."""

    number: int
    name: str
    #: Depth limit in plies (None: as deep as the time allows).
    depth: int | None
    #: Time per move in seconds (a hard limit).
    seconds: float
    #: Random choice among the moves scoring within this much of the best (1/100 man).
    margin: int
    #: Plays solved goal games perfectly.
    perfect: bool = False

    @property
    def label(self) -> str:
        return f"level {self.number} ({self.name})"

    def describe(self) -> str:
        how = f"{self.depth} plies" if self.depth else f"{self.seconds:g} s per move"
        rnd = f", random within {self.margin / 100:g} men" if self.margin else ""
        return f"Level {self.number}, {self.name}: {how}{rnd}"


LEVELS: dict[int, Level] = {
    lv.number: lv
    for lv in (
        Level(1, "beginner", 1, 0.5, 150),
        Level(2, "novice", 2, 0.5, 80),
        Level(3, "casual", 3, 0.7, 40),
        Level(4, "club", 4, 1.0, 20),
        Level(5, "strong club", None, 1.0, 5),
        Level(6, "expert", None, 2.0, 0, perfect=True),
        Level(7, "master", None, 4.0, 0, perfect=True),
        Level(8, "strongest", None, 8.0, 0, perfect=True),
    )
}


class ComputerPlayer:
    """A computer opponent at one level.  ``think`` runs in the app's worker thread.

    ``seconds`` overrides the level's time per move; ``seed`` makes the random choices of
    the lower levels reproducible.
    """

    is_human = False

    def __init__(
        self,
        level: int = 5,
        *,
        name: str | None = None,
        seed: int | None = None,
        seconds: float | None = None,
        depth: int | None = None,
        options: Options | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be 1 to {max(LEVELS)}, not {level}")
        self.level = LEVELS[level]
        self.name = name or f"Computer ({self.level.label})"
        self.seconds = seconds if seconds is not None else self.level.seconds
        self.depth = depth if depth is not None else self.level.depth
        self.rng = random.Random(seed)
        self._search: Search | None = None
        #: The search's switches (None: the tuned ones; benchmarks try others).
        self.options = options
        #: The last search's result (for the interface and the tests).
        self.last: SearchResult | None = None
        #: Whether ``seconds`` is a time a move, spent whole (what is left over is lost),
        #: or a clock's share, where no new depth is started past :data:`SOFT` of it.
        self.per_move = True

    def search_for(self, variant: Variant) -> Search:
        if self._search is None or self._search.variant is not variant:
            self._search = Search(variant, options=self.options)
        return self._search

    def think(self, game: Game, cancelled: Callable[[], bool] | None = None) -> Move | None:
        """The move to play in ``game`` (not changed), or None if cancelled or the game
        is over."""
        started = time.perf_counter()
        never: Callable[[], bool] = lambda: False  # noqa: E731
        cancelled = cancelled or never
        variant = game.variant
        moves = None
        # A table takes up to seconds to build (three kings against one: about ten): it
        # is built in a thread of its own while the move waits for at most half its time
        # (then it is searched as usual; the table serves the moves to come).
        wait = self.seconds / 2
        if (
            self.level.perfect
            and solvable(variant)
            and _ready(("goal", id(variant)), lambda: goal_table(variant), wait, cancelled)
        ):
            winning = goal_table(variant).winning_moves(game)
            if winning:
                moves = winning
        if self.level.perfect and covered(variant, game_state(game)):
            exact = perfect_moves(game, cancelled, build=False)  # made, or in the cache
            pos = game_state(game)
            material = ("ending", id(variant), material_of(pos))
            left = wait - (time.perf_counter() - started)
            if (
                exact is None
                and quick_to_make(variant, pos)
                and _ready(material, lambda: build_in_worker(variant, pos), left, cancelled)
            ):
                exact = perfect_moves(game, cancelled, build=False)
            if exact is not None and exact[1]:
                value, best = exact
                if cancelled():
                    return None
                if value == 0:
                    moves = best  # the search chooses among the moves that keep the draw
                else:
                    move = self.rng.choice(best)
                    self.last = SearchResult(
                        move,
                        score=table_score(value),
                        depth=abs(value),
                        pv=[move],
                        seconds=time.perf_counter() - started,
                    )
                    return move
        search = self.search_for(variant)
        margin = self.level.margin
        # the table (built once) counts against the time too
        left = max(0.05, self.seconds - (time.perf_counter() - started))
        result = search.search(
            game,
            seconds=left,
            depth=self.depth,
            cancelled=cancelled,
            exact_root=margin > 0,
            soft=1.0 if self.per_move else SOFT,
            moves=moves,
            must_move=True,  # (a position whose moves take longer to list than the time)
        )
        self.last = result
        if cancelled():
            return None
        return choose(result, margin, self.rng)


_BUILDS: dict[tuple[object, ...], threading.Thread] = {}
_BUILDS_LOCK = threading.Lock()


def _ready(
    key: tuple[object, ...],
    build: Callable[[], object],
    seconds: float,
    cancelled: Callable[[], bool],
) -> bool:
    """Whether what ``build()`` makes (a table, kept by its module) is ready within
    ``seconds``.  It is made once per ``key``, in a thread of its own that goes on after a
    False answer, for the moves to come."""
    with _BUILDS_LOCK:
        thread = _BUILDS.get(key)
        if thread is None:
            thread = threading.Thread(target=build, daemon=True, name=f"shashki table {key}")
            _BUILDS[key] = thread
            thread.start()
    end = time.perf_counter() + seconds
    while thread.is_alive():
        left = end - time.perf_counter()
        if left <= 0 or cancelled():
            return False
        thread.join(min(left, 0.05))
    return True


def describe_levels() -> list[str]:
    """One line per level, for help texts."""
    return [lv.describe() for lv in LEVELS.values()]
