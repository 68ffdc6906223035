"""The search: iterative deepening principal-variation search over any variant.

The search knows a variant only through its move generator's protocol (``moves``,
``apply``, ``key``, ``material``, ``captures``), its end rules (compiled by
:class:`~shashki.rules.endrules.EndRules`) and an evaluation function; there is no
variant-specific code here.

* Negamax with principal-variation search; a side that moves twice in a row (the
  double-move modifier) is handled by not negating when the side to move stays.
* Transposition table: a dict keyed by the position tuple itself, which holds everything
  the position depends on (side to move, Bashni columns, Artamonov's frozen piece and
  counts, the double-move half-turn); the draw counters are added to the key only while
  a draw rule could fire within the remaining depth (see :func:`node_search`).  Python
  hashes the tuple in C faster than an incremental Zobrist update can be made in Python
  (``benchmarks/search.py`` measures both).  It keeps its size during a search too:
  past ``table_size`` entries the shallowest are dropped.
* Quiescence: at the horizon, a side that must capture goes on capturing; otherwise the
  position is evaluated.  The exchanges share the table (kings trading in another order
  transpose), and beyond :data:`QFULL` plies only the likeliest capture is followed.
* Move ordering: the table's move, then captures by size, killers, history.
* Late move reductions for quiet moves; a forced move (the only legal one) is extended;
  ProbCut: a shallow search that clears a raised bound cuts a non-PV node.
* The clock is read every few nodes: the search stops within a few milliseconds of its
  deadline, or as soon as ``cancelled()`` turns true; a long move generation reads it
  too (:mod:`shashki.rules.interrupt`), the listing of the root's moves included.  The
  move returned is always one that was looked at: before depth 1 is done, the best of
  the moves searched to depth 1, or of the positions the moves lead to, evaluated.
* The end of the game: the first king made (``promotion-wins``), the variant's goals, no
  legal move (a loss, or a win in giveaway), its own decisions and its draw rules with
  their counters and repetitions, exactly as :meth:`~shashki.rules.Game.outcome` decides.
  A position repeated inside the search tree scores as its repetition would end.  Near the
  end of a draw counter the evaluation shrinks towards a draw, so a winning side makes
  progress in time.

The pieces, each of which can be read and tested alone: :class:`Search` keeps the
tables between moves and runs one search; :class:`Clock` holds its limits (deadlines,
nodes, ``cancelled()``); :class:`Tree` the state its nodes share (the repetition keys
of the game and the line, killers, principal variations); :func:`node_search` builds
the recursive node search over them (:class:`NodeSearch`, one method a step: the end of
the game, repetitions, the table, ProbCut, the principal-variation loop and its move
ordering, the horizon's captures);
:class:`Root` lists the root's moves (:func:`list_root_moves`) and deepens, each
depth in an aspiration window (:func:`aspirate`).
"""

from __future__ import annotations

import functools
import gc
import math
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, NamedTuple, ParamSpec, TypeVar

from ..base.stack import on_roomy_stack
from ..rules.endrules import EndRules, GameView
from ..rules.game import (
    Game,
    fast_moves,
    game_state,
    library_move,
    library_moves,
    played_states,
    push_fast,
)
from ..rules.interrupt import Interrupted, interruptible
from ..rules.move import FastMove, Move
from ..rules.movegen import State
from ..rules.outcome import Outcome
from ..rules.switches import Irreversible
from ..rules.variant import Variant
from ..rules.variant_registry import find_variant
from .evaluate import Evaluator, evaluator_for
from .scores import INF, WIN, WON

MAX_PLY = 200
#: More moves than any position has.
MAX_MOVES = 1 << 30
#: The clock and ``cancelled()`` are read every CHECK + 1 nodes.
CHECK = 15
#: Objects made during a search between two passes of the garbage collector over them.
GC_YOUNG = 20_000
#: Plies before a draw counter runs out over which the evaluation shrinks to a draw.
FADE = 10
#: The share of a search's time after which no new depth is started, when what is left
#: over is kept (a clock's share of its time: the next depth would most often not finish).
#: A time a move is spent whole (``soft=1``): a depth that does not finish still finds a
#: better move when there is one, and what is left over would be lost.
SOFT = 0.55
#: Seconds for the choice of a move (by evaluating the positions the moves lead to) once
#: the legal moves are listed, when listing them took longer than the time allowed.
LATE = 0.05
#: Plies of captures beyond the horizon searched in full; deeper, only the likeliest
#: capture is followed.  Exchanges in play are shorter (international, level 5: not one
#: quiescence node in ten thousand is deeper than six plies); many kings facing each
#: other can go on capturing for forty plies, which searched in full would not finish
#: depth 1 in minutes.
QFULL = 8
#: Half-width of the first aspiration window at the root (hundredths of a man).
ASPIRATION = 35

EXACT, LOWER, UPPER = 0, 1, 2

#: An entry of the transposition table (see :meth:`NodeSearch.store`).
_Entry = tuple[int, int, int, tuple[Any, ...] | None, int]


@dataclass(frozen=True)
class Options:
    """Switches of the search (the defaults are the tuned ones)."""

    #: At the horizon, a quiet position where the opponent threatens to capture is
    #: searched one move further.
    threats: bool = False
    #: Late move reductions: from this remaining depth, after this many moves.
    lmr_depth: int = 2
    lmr_moves: int = 3
    #: The reduction of the i-th move at depth d: base + ln(d) ln(i) / divisor (at least 1).
    lmr_base: float = 0.5
    lmr_divisor: float = 2.0
    #: Forward pruning (ProbCut): a search of 2/5 of the depth against the bound raised
    #: by this much per ply of depth decides a non-PV node that it clears.  On since the
    #: cheaper horizon: two plies deeper in the same time (international, 0.5 s).
    probcut: bool = True
    probcut_margin: int = 10
    #: ProbCut inside ProbCut's own shallow search (Scan 2.0 searches it without).
    probcut_nested: bool = True
    #: Late move reductions the way Scan 2.0 makes them, instead of the table above: one
    #: ply from the second move (from the fourth at PV nodes), two from the seventh (not
    #: at PV nodes), from a depth of 3; never a capture or a crowning.
    lmr_scan: bool = False
    #: Contempt (hundredths of a man): a draw scores this much below nothing for the
    #: side the search moves for, and as much above it for the other, so that the
    #: search prefers a line that plays on to a draw when it judges them about level.
    #: 0 (the default) for an honest score: the hint and the analysis; a player may set
    #: it against an opponent it expects to outplay.
    contempt: int = 0
    #: At the horizon (the first quiet position past it), without kings on the board and
    #: with the evaluation below beta, the moves that crown a man or leave the opponent
    #: a capture (an exchange or a shot offered) are searched too, the evaluation a
    #: floor: Scan 2.0's quiescence, with every move that gives a capture where Scan
    #: takes only the exchanges it can see are even.  Off: 1.3 to 1.6 times the nodes
    #: to the same depth, fewer of them a second, and no stronger in self-play
    #: (benchmarks/RESULTS.md).
    exchanges: bool = False


_P = ParamSpec("_P")
_R = TypeVar("_R")


class _Collector:
    """The searches running now in this process (in any thread), and whether the
    collector was on when the first of them began: it is turned back on when the last one
    ends."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.searches = 0
        self.was_on = False


_COLLECTOR = _Collector()


def _without_gc(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` (a search) with the cyclic garbage collector's automatic passes off,
    and as it was after: only while a search runs, and back on when the last of the
    searches running at once in the process ends (a program that turned the collector off
    itself keeps it off).  The search makes no cyclic garbage (reference counting frees
    what it drops; its recursive function's cycle is broken at the end), and a full
    collection over a big table could pause it past its deadline.  The young objects
    (of every thread) are still looked at, a few thousand at a time (the search's
    ``check``): all at once after a long search, the pass would take half a second, past
    the deadline.  The table's entries are plain tuples of ints, which that first look
    leaves untracked for good."""

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        state = _COLLECTOR
        with state.lock:
            if state.searches == 0:
                state.was_on = gc.isenabled()
                gc.disable()
            state.searches += 1
        try:
            return fn(*args, **kwargs)
        finally:
            with state.lock:
                state.searches -= 1
                if state.searches == 0 and state.was_on:
                    gc.enable()

    return wrapper


class Stopped(Interrupted):
    """The search ran out of time or was cancelled (a move generation it stops may
    leave the legal moves found so far on it: see :class:`Interrupted`)."""


@dataclass
class Iteration:
    """One completed depth of the iterative deepening."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list[Move]


@dataclass
class SearchResult:
    """What a search found: the move to play, its score and how it got there."""

    move: Move | None
    score: int = 0
    depth: int = 0
    pv: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    #: Each root move with its score at the last completed depth (exact when the search
    #: was asked for exact root scores, bounds otherwise).
    root_scores: list[tuple[Move, int]] = field(default_factory=list)
    iterations: list[Iteration] = field(default_factory=list)
    #: The game is over in the root position (no move to choose).
    outcome: Outcome | None = None
    stopped: bool = False
    #: Listing the legal moves took longer than the time allowed (a position with more
    #: capture sequences than that time lets one list): ``move`` is None, or a move
    #: chosen by a quick look among those found in time when they are known to be legal
    #: (free choice), or with ``must_move`` among all of them once they were listed.
    unlisted: bool = False
    #: With ``unlisted``: how many of the legal moves were listed in time, when the choice
    #: was among those only (None: among all of them, or no choice).
    listed: int | None = None

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def score_text(score: int) -> str:
    """A score for people: ``+1.25`` (men), ``win in 7`` / ``loss in 4`` (plies)."""
    if score >= WON:
        return f"win in {WIN - score}"
    if score <= -WON:
        return f"loss in {WIN + score}"
    return f"{score / 100:+.2f}"


class Search:
    """A search engine for one variant; keep it between moves to keep its tables."""

    def __init__(
        self,
        variant: Variant | str,
        *,
        evaluator: Evaluator | None = None,
        table_size: int = 400_000,
        options: Options | None = None,
        endings: bool = True,
    ) -> None:
        self.variant = find_variant(variant)
        self.options = options or Options()
        self.gen = self.variant.generator
        self.ends = EndRules(self.variant)
        self.evaluate: Evaluator = evaluator or evaluator_for(self.variant)
        #: The transposition table: (depth, bound, score, move, search) by position; the
        #: last field is -1, or the number of the search that made the entry when its
        #: score depends on the game's history (see :func:`node_search`).
        self.table: dict[Any, _Entry] = {}
        self.searches = 0
        #: The side the last search moved for (its table's draws scored with the
        #: contempt for that side: a search for the other side starts a new table).
        self.contempt_side = -1
        self.table_size = table_size
        self.history: tuple[dict[Any, int], dict[Any, int]] = ({}, {})
        #: The evaluation of each position met at the horizon (a pure function of it).
        self.evals: dict[State, int] = {}
        self.nodes = 0
        #: The exact tables of the endings (:mod:`shashki.engine.endings`), probed at
        #: the nodes of at most ``ending_pieces`` pieces: the value of a position for the
        #: side to move when its table is made (read from the cache folder the first time
        #: its material is probed; the search never builds one), else None.
        self.ending_pieces = 0
        self.ending_value: Callable[[State], int | None] | None = None
        if endings:
            from . import endings as tables

            if tables.plain(self.variant):
                variant = self.variant
                self.ending_pieces = tables.MAX_PIECES

                def ending_value(pos: State) -> int | None:
                    return tables.probe_built(variant, pos)

                self.ending_value = ending_value

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering statistics."""
        self.table.clear()
        self.evals.clear()
        self.history = ({}, {})

    # -- the entry point ------------------------------------------------------------------

    @_without_gc
    def search(
        self,
        game: Game,
        *,
        seconds: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_iteration: Callable[[Iteration], None] | None = None,
        exact_root: bool = False,
        soft: float = SOFT,
        moves: Sequence[Move] | None = None,
        must_move: bool = False,
    ) -> SearchResult:
        """Search ``game``'s position and return the best move found.

        Stops at ``depth`` (plies), after about ``nodes`` nodes, or at ``seconds`` after
        the call (a hard deadline; no new depth is started after ``soft`` of it: 1 spends
        it all, for a time a move, where what is left over is lost), or when
        ``cancelled()`` turns true; with none of these, at depth 64.  ``exact_root``
        searches every root move with a full window, so that ``root_scores`` are exact
        (the lower levels choose among them).  ``moves`` restricts the choice at the root
        to some of the legal moves.  The game is not changed.

        The clock also stops the listing of the legal moves, which in some positions
        takes longer than any time given (flying kings over a crowded board): then
        ``unlisted`` is set and there is no move, unless the moves found in time are
        known to be legal (``MoveGenerator.partial_moves``: under free choice, or under
        the majority rule once a sequence found takes every enemy piece): the move is
        then chosen among them by a quick look at the positions they lead to.  With
        ``must_move`` the listing otherwise goes on until done or ``cancelled()`` (a move
        is wanted whatever it costs), and the move is chosen by the same quick look.

        While a search runs, the garbage collector's automatic passes are off in the whole
        process (its young objects are still collected a few thousand at a time); they are
        on again when the last search running at once ends, as they were before the first
        began (docs/PERFORMANCE.md).
        """
        clock = Clock(perf_counter(), seconds, soft, cancelled, nodes)
        self.searches += 1
        if len(self.evals) > self.table_size:
            self.evals.clear()
        if len(self.table) > self.table_size:
            self.table.clear()
        turn = game_state(game)[3]
        if self.options.contempt and self.contempt_side != turn:
            self.table.clear()
            self.contempt_side = turn
        tree = Tree(game, self.ends)
        nodes_ = node_search(self, tree, clock)
        root = Root(self, game, tree, nodes_, clock, exact_root, on_iteration)
        # The clock stops a long move generation too (flying kings over a crowded board
        # have exponentially many capture sequences), the root's included.
        # The recursion runs on a roomy stack of frames: where it crossed the end of the
        # interpreter's chunk of frames, every call mapped and unmapped memory
        # (shashki.base.stack; a fifth of the pure search's time in some variants).
        with interruptible(clock.poll):
            return on_roomy_stack(root.run, depth, moves, must_move)

    def best_move(self, game: Game, **limits: Any) -> Move | None:
        """The move the search chooses (see :meth:`search` for the limits)."""
        return self.search(game, **limits).move


# -- the limits of one search -----------------------------------------------------------


class Clock:
    """The limits of one search: its deadlines, its budget of nodes and ``cancelled()``.

    ``deadline`` (hard, a little before the time given) may be moved while the root's
    moves are listed; ``soft_deadline`` is when no new depth is started.
    """

    __slots__ = ("cancelled", "deadline", "max_nodes", "soft_deadline", "started")

    def __init__(
        self,
        started: float,
        seconds: float | None,
        soft: float,
        cancelled: Callable[[], bool] | None,
        max_nodes: int | None,
    ) -> None:
        self.started = started
        self.deadline = started + seconds - 0.002 if seconds is not None else None
        self.soft_deadline = started + seconds * soft if seconds is not None else None
        self.cancelled = cancelled
        self.max_nodes = max_nodes

    def poll(self) -> None:
        """Raise :class:`Stopped` past the deadline or once ``cancelled()``: read now and
        then by a long move generation, and by :meth:`check`."""
        if self.deadline is not None and perf_counter() >= self.deadline:
            raise Stopped
        if self.cancelled is not None and self.cancelled():
            raise Stopped

    def check(self, count: int) -> None:
        """As :meth:`poll`, and raise once ``count`` nodes reach the budget."""
        if self.deadline is not None and perf_counter() >= self.deadline:
            raise Stopped
        if self.cancelled is not None and self.cancelled():
            raise Stopped
        if self.max_nodes is not None and count >= self.max_nodes:
            raise Stopped

    def elapsed(self) -> float:
        return perf_counter() - self.started


# -- the node search --------------------------------------------------------------------


class Tree:
    """What the nodes of one search share besides the engine's tables: the repetition
    keys of the game's positions that can come back, then the root's, then the line
    searched (``keys``, pushed and popped as the search goes down and up); the killer
    moves and the principal variation of each ply; and the depth of the iteration, which
    bounds the extension of forced moves."""

    __slots__ = (
        "keys",
        "killers",
        "pv_table",
        "rep_outcome",
        "root_depth",
        "root_index",
        "turn",
    )

    def __init__(self, game: Game, ends: EndRules) -> None:
        self.keys: list[Any] = _history_keys(game, ends)
        self.root_index = len(self.keys) - 1
        #: The side the search moves for.
        self.turn = game_state(game)[3]
        #: How a repetition of a position met before the root would end the game.
        self.rep_outcome = (
            ends.repetition_outcome(game_state(game), game.material_plies, self.keys)
            if ends.repetition_ends
            else None
        )
        self.killers: list[list[FastMove | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.pv_table: list[list[FastMove]] = [[] for _ in range(MAX_PLY + 2)]
        self.root_depth = 1


class Nodes(NamedTuple):
    """The node search of one search (see :func:`node_search`)."""

    #: ``node(pos, depth, alpha, beta, ply, rev, mat)``: the score of ``pos`` for the
    #: side to move, searched ``depth`` plies deep (then its captures played out) within
    #: the window; ``ply`` plies below the root, ``rev``/``mat`` the draw counters.
    node: Callable[[State, int, int, int, int, int, int], int]
    #: The clock, the budget and the tables' sizes, read every CHECK + 1 nodes.
    check: Callable[[], None]
    #: The nodes searched so far.
    counted: Callable[[], int]


def node_search(search: Search, tree: Tree, clock: Clock) -> Nodes:
    """The negamax principal-variation search of ``search``'s variant over ``tree``,
    stopped by ``clock`` (see :class:`NodeSearch`)."""
    ns = NodeSearch(search, tree, clock)
    return Nodes(ns.node, ns.check, ns.counted)


class NodeSearch:
    """The recursive ``node`` and its steps, each a method: whether the game is over
    (:meth:`node`, with :meth:`decided`, :meth:`ended`, :meth:`known_ending`,
    :meth:`repeated`); above the horizon the table, ProbCut and the moves
    (:meth:`table_hit`, :meth:`stored`,
    :meth:`probcut_cut`, :meth:`search_moves` with :meth:`order`,
    :meth:`reduced_from`, :meth:`reduction`, :meth:`quiet_cut`, :meth:`store`); at the
    horizon the captures played out or the position judged (:meth:`horizon`,
    :meth:`captures_out`, :meth:`offered`).  What the nodes read is bound here once, in
    slots (a node is visited a hundred thousand times a second: what it reads is
    looked up once, not through the search, the options and the rules at every node).

    A class rather than functions nested in a function: a nested function that calls
    itself is a cycle (the function, its closure) that kept the tables alive until the
    collector found it, a pause of a second after a long search; compiled by mypyc
    (:mod:`shashki.native`), a class's attributes are fields and its methods direct
    calls."""

    __slots__ = (
        "apply",
        "check_at",
        "clock_check",
        "count",
        "counter_draws",
        "counter_rules",
        "decide",
        "draw_rule",
        "drawn",
        "ending_pieces",
        "ending_value",
        "ends",
        "ends_here",
        "evals",
        "evaluate",
        "exchanges",
        "gen_captures",
        "gen_horizon",
        "gen_moves",
        "goals",
        "history",
        "in_probcut",
        "key_of",
        "keys",
        "killers",
        "king_wins",
        "lmr_depth",
        "lmr_moves",
        "lmr_scan",
        "lmr_table",
        "mandatory",
        "material_cut",
        "men_cut",
        "no_moves_wins",
        "probcut",
        "probcut_margin",
        "probcut_nested",
        "pv_table",
        "rep_mat",
        "rep_outcome",
        "rep_rev",
        "rep_threshold",
        "repetition_ends",
        "repetitions",
        "root_index",
        "signature",
        "signatures",
        "size",
        "table",
        "table_pieces",
        "this_search",
        "threats",
        "touched",
        "tree",
    )

    def __init__(self, search: Search, tree: Tree, clock: Clock) -> None:
        gen = search.gen
        self.tree = tree
        self.gen_moves: Callable[[State], list[FastMove]] = gen.moves
        self.gen_captures: Callable[[State], list[FastMove]] = gen.captures
        self.gen_horizon: Callable[[State], tuple[list[FastMove], bool]] = gen.horizon
        self.apply: Callable[[State, Any], State] = gen.apply
        self.evaluate: Callable[[State], int] = search.evaluate
        self.evals: dict[State, int] = search.evals
        self.table: dict[Any, _Entry] = search.table
        self.size: int = search.table_size
        self.history = search.history
        options = search.options
        self.threats: bool = options.threats
        self.exchanges: bool = options.exchanges
        self.lmr_depth: int = options.lmr_depth
        self.lmr_moves: int = options.lmr_moves
        self.probcut: bool = options.probcut
        self.probcut_margin: int = options.probcut_margin
        self.probcut_nested: bool = options.probcut_nested
        self.lmr_scan: bool = options.lmr_scan
        #: Inside ProbCut's shallow search (when it is not nested).
        self.in_probcut = False
        self.lmr_table = _reductions(options.lmr_base, options.lmr_divisor)
        self.mandatory: bool = search.variant.rules.capture_mandatory
        self._take_ends(search, gen.irreversible)
        self.keys: list[Any] = tree.keys
        self.root_index: int = tree.root_index
        # A node whose tree met a position met before (in the game or on the line from
        # the root) has a score that depends on the game's history: whether that
        # repetition ends the game, and how, depends on how often the position was met.
        # The entry the search of an earlier move made for such a node may no longer
        # hold (a line whose repetition ends the game now was a line like any other
        # then): it orders the moves and nothing more.  ``touched`` counts the
        # repetitions met (and the entries of such nodes used), so that a node knows
        # whether its tree met one.
        self.this_search: int = search.searches
        self.touched = 0
        self.rep_outcome = tree.rep_outcome
        # a draw's score for the side to move (``drawn[turn]``): the contempt, against
        # the side the search moves for, for the other side
        contempt: int = options.contempt
        self.drawn = (-contempt, contempt) if tree.turn == 0 else (contempt, -contempt)
        self.killers = tree.killers
        self.pv_table = tree.pv_table
        self.clock_check = clock.check
        self.count = 0
        self.check_at = CHECK

    def _take_ends(self, search: Search, look: Irreversible) -> None:
        """What the variant's end rules give a node (``look``: the last move the
        generator declares irreversible)."""
        ends = search.ends
        self.ends = ends
        self.key_of: Callable[[State], Any] | None = ends.key_of if ends.key is not None else None
        self.goals: Any = ends.goals
        self.king_wins: bool = ends.king_wins
        self.no_moves_wins: bool = ends.no_moves_wins
        self.decide: Any = ends.decide
        self.repetition_ends: bool = ends.repetition_ends
        self.counter_rules: Any = ends.counter_rules
        self.signature: Any = ends.signature
        self.signatures: dict[int, tuple[int, int, bool]] = ends.signatures
        self.draw_rule: Any = ends.draw_rule
        self.repetitions: Any = ends.repetitions
        # draw rules other than repetitions (those are counted below, in the tree)
        self.counter_draws = any(c[0] == 1 for c in ends.draws)
        self.rep_threshold: int = ends.repetition_threshold
        self.ending_pieces: int = search.ending_pieces
        self.ending_value = search.ending_value
        #: Whether :meth:`ended` has anything to look at.
        self.ends_here: bool = (
            self.counter_draws or self.ending_value is not None or self.repetition_ends
        )
        # A position can only repeat one met since the last move the generator declares
        # irreversible: a man's move (men only move forward), a capture or crowning, or
        # none (pieces come back: the whole history).
        self.men_cut = look >= Irreversible.MEN
        self.material_cut = look >= Irreversible.MATERIAL
        # When :meth:`ended` may find something, so that a node calls it only then (a call
        # a node is a share of the pure search's time): a repetition needs two moves since
        # the last irreversible one (``rev`` counts them when a man's move is, ``mat``
        # when only a capture or crowning is; with none, every node looks), an ending the
        # tables know at most ``table_pieces`` pieces; a draw counter is read at the node.
        never = MAX_MOVES
        rep = self.repetition_ends
        self.rep_rev = (2 if self.men_cut else never if self.material_cut else 0) if rep else never
        self.rep_mat = 2 if rep and self.material_cut and not self.men_cut else never
        self.table_pieces = self.ending_pieces if self.ending_value is not None else -1

    def check(self) -> None:
        """Read the clock, and keep the collector and the tables in bounds (every CHECK
        + 1 nodes)."""
        self.check_at = self.count + CHECK
        # the collector is off (see _without_gc); what it would look at meanwhile is
        # given to it a little at a time, not all at once when the search returns
        young = gc.get_count()
        if young[0] > GC_YOUNG:
            gc.collect(1 if young[1] >= 10 else 0)
        self.clock_check(self.count)
        # the tables keep their size during a search too (one without a clock may run
        # for hours)
        if len(self.table) > self.size:
            _trim(self.table, self.size // 2)
        if len(self.evals) > self.size:
            self.evals.clear()

    def counted(self) -> int:
        return self.count

    def node(
        self, pos: State, depth: int, alpha: int, beta: int, ply: int, rev: int, mat: int
    ) -> int:
        """The score of ``pos`` for the side to move, searched ``depth`` plies deep (then
        its captures played out) within the window; ``ply`` plies below the root,
        ``rev``/``mat`` the draw counters.

        First whether the game is over here, exactly as the rules say (the first king,
        the goals, the variant's decision, then :meth:`ended`); at the horizon
        :meth:`horizon`; above it the table (keyed with the counters when a draw rule is
        in reach: :meth:`table_hit`), ProbCut and :meth:`search_moves`.  The legal moves
        are only generated once a table hit has not settled the node.  The node and its
        moves are two frames a ply (three at the horizon's captures): the search runs on
        a roomy stack of frames (:func:`~shashki.base.stack.on_roomy_stack`), which holds
        well over a hundred plies of them without a chunk's end to cross."""
        self.count += 1
        if self.count >= self.check_at:
            self.check()
        if beta - alpha > 1:  # a PV node: its line, unless a move makes one
            self.pv_table[ply] = []
        turn = pos[3]
        if self.king_wins and pos[2]:  # the first king made has won (promotion-wins)
            return WIN - ply if pos[2] & pos[turn] else ply - WIN
        for side, mask, _name in self.goals:
            if pos[side] & mask:
                return WIN - ply if side == turn else ply - WIN
        moves = None
        if self.decide is not None:
            moves = self.gen_moves(pos)
            v = self.decided(pos, moves, ply, rev, mat)
            if v is not None:
                return v
        occ = pos[0] | pos[1]
        skey = occ.bit_count() << 8 | (occ & ~pos[2]).bit_count()
        sig = self.signatures.get(skey)
        if sig is None:
            sig = self.signature(skey >> 8, skey & 255)
        if self.ends_here and (
            rev >= self.rep_rev
            or mat >= self.rep_mat
            or skey >> 8 <= self.table_pieces
            or (self.counter_draws and (rev >= sig[0] or mat >= sig[1] or sig[2]))
        ):
            v = self.ended(pos, moves, ply, rev, mat, sig, skey >> 8)
            if v is not None:
                return v
        if depth <= 0:
            return self.horizon(pos, depth, alpha, beta, ply, rev, mat, sig, moves)
        reach = depth + FADE
        tkey: Any = (pos, rev, mat) if rev + reach >= sig[0] or mat + reach >= sig[1] else pos
        seen = self.touched
        entry = self.table.get(tkey)
        tt_move = None
        if entry is not None:
            tt_move = entry[3]
            if entry[0] >= depth:
                v = self.table_hit(entry, alpha, beta, ply)
                if v is not None:
                    return v
        if ply >= MAX_PLY:
            return self.horizon(pos, depth, alpha, beta, ply, rev, mat, sig, moves)
        if moves is None:
            moves = self.gen_moves(pos)
            if not moves:
                return WIN - ply if self.no_moves_wins else ply - WIN
        captures = bool(moves) and moves[0][1] and moves[-1][1]
        if self.probcut and beta - alpha <= 1 and depth >= 3 and not captures and -WON < beta < WON:
            v = self.probcut_cut(pos, depth, beta, ply, rev, mat)
            if v is not None:
                return v
        return self.search_moves(
            pos, moves, depth, alpha, beta, ply, rev, mat, captures, tt_move, tkey, seen
        )

    def ended(
        self,
        pos: State,
        moves: list[FastMove] | None,
        ply: int,
        rev: int,
        mat: int,
        sig: tuple[int, int, bool],
        pieces: int,
    ) -> int | None:
        """The score of ``pos`` when a draw counter has run out, the tables know the
        ending (of ``pieces`` pieces) or a repetition decides (``sig``: the counters'
        limits of its material; ``moves`` its legal moves if they were made), else
        None."""
        if self.counter_draws and (rev >= sig[0] or mat >= sig[1] or sig[2]):
            if self.draw_rule(pos, rev, mat, self.keys) is not None:
                if moves is None:
                    moves = self.gen_moves(pos)
                if not moves:
                    return WIN - ply if self.no_moves_wins else ply - WIN
                return self.drawn[pos[3]]
        if self.ending_value is not None and pieces <= self.ending_pieces and ply:
            v = self.known_ending(pos, ply, rev, mat)
            if v is not None:
                return v
        # the rule's count over the game, and a position repeated inside the tree,
        # scored as its repetition would end
        if self.repetition_ends:
            keys = self.keys
            n = len(keys) - 1
            span = rev if self.men_cut else mat if self.material_cut else n
            if span >= 2:
                lo = n - span
                if lo < 0:
                    lo = 0
                if keys[n] in keys[lo:n]:
                    self.touched += 1
                    return self.repeated(n, lo, pos[3], ply)
        return None

    def decided(
        self, pos: State, moves: list[FastMove], ply: int, rev: int, mat: int
    ) -> int | None:
        """The score of ``pos`` when the variant's own rule decides the game there (or
        the side to move has no legal move among ``moves``), else None."""
        if not moves:
            return WIN - ply if self.no_moves_wins else ply - WIN
        keys = self.keys
        repetitions = self.repetitions
        out = self.decide(GameView(pos, lambda: repetitions(keys, rev, mat)))
        if out is None:
            return None
        return _end_score(out, pos[3], ply, self.drawn[pos[3]])

    def known_ending(self, pos: State, ply: int, rev: int, mat: int) -> int | None:
        """The exact score of an ending the tables know (a draw always; a win or a loss
        when no draw counter can run out first: the tables leave the counters out), else
        None."""
        ending_value = self.ending_value
        v = ending_value(pos) if ending_value is not None else None
        if v is None:
            return None
        if not v:
            return self.drawn[pos[3]]
        if v > 0:
            if v <= _counter_room(pos, rev, mat, self.counter_rules, self.ends):
                return WIN - ply - v
        elif -v - 1 <= _counter_room(pos, rev, mat, self.counter_rules, self.ends):
            return ply + (-v - 1) - WIN
        return None

    def repeated(self, n: int, lo: int, turn: int, ply: int) -> int | None:
        """The score of the position ``keys[n]``, met before among ``keys[lo:n]``: a draw
        when the rule's count is reached, else as its repetition would end when it was
        met inside the tree, else None (the search goes on)."""
        keys = self.keys
        here = keys[n]
        drawn = self.drawn
        if self.rep_threshold and keys[lo:n].count(here) + 1 >= self.rep_threshold:
            return drawn[turn]
        if here in keys[max(lo, self.root_index) : n]:
            if self.rep_outcome is None:
                return drawn[turn]
            return _end_score(self.rep_outcome, turn, ply, drawn[turn])
        return None

    def table_hit(self, entry: _Entry, alpha: int, beta: int, ply: int) -> int | None:
        """The score with which the table's ``entry``, of a search deep enough, settles
        a node above the horizon (its line, the entry's move, at an exact score), else
        None (see :meth:`stored`)."""
        v = self.stored(entry, alpha, beta, ply)
        if v is not None and entry[1] == EXACT:
            tt_move = entry[3]
            self.pv_table[ply] = [tuple.__new__(FastMove, tt_move)] if tt_move is not None else []
        return v

    def stored(self, entry: _Entry, alpha: int, beta: int, ply: int) -> int | None:
        """The score with which the table's ``entry`` settles a node ``ply`` plies below
        the root within the window, else None.  An entry whose score depends on the
        history of an earlier search only orders the moves (see ``touched``)."""
        _, flag, evalue, _, by = entry
        if by >= 0:
            if by != self.this_search:
                return None
            self.touched += 1
        if evalue >= WON:
            evalue -= ply
        elif evalue <= -WON:
            evalue += ply
        if flag == EXACT:
            return evalue
        if flag == LOWER:
            if evalue >= beta:
                return evalue
        elif evalue <= alpha:
            return evalue
        return None

    def probcut_cut(
        self, pos: State, depth: int, beta: int, ply: int, rev: int, mat: int
    ) -> int | None:
        """Forward pruning (ProbCut) at a non-PV node: when a shallow search clears a
        raised bound, the full one would almost surely clear the bound itself; the score
        that cuts the node, else None."""
        margin = self.probcut_margin * depth
        raised = beta + margin
        if self.probcut_nested:
            v = self.node(pos, depth * 2 // 5, raised - 1, raised, ply, rev, mat)
        elif self.in_probcut:
            return None
        else:
            self.in_probcut = True
            try:
                v = self.node(pos, depth * 2 // 5, raised - 1, raised, ply, rev, mat)
            finally:
                self.in_probcut = False
        return v - margin if v >= raised else None

    def horizon(
        self,
        pos: State,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        rev: int,
        mat: int,
        sig: tuple[int, int, bool],
        moves: list[FastMove] | None,
    ) -> int:
        """At the horizon (``sig``: the draw counters' limits of the material of
        ``pos``; ``moves``: its legal moves if they were made): only the captures matter
        (the quiet moves are not built); a forced capture is played out, a quiet
        position is judged, unless the opponent threatens to take (then the moves are
        searched one ply further)."""
        threats = self.threats and depth == 0 and ply < MAX_PLY
        if moves is None:
            moves, movable = self.gen_horizon(pos)
            if not movable:
                return WIN - ply if self.no_moves_wins else ply - WIN
            if not moves and threats:
                moves = self.gen_moves(pos)
        captures = bool(moves) and moves[0][1] and moves[-1][1]
        if captures and self.mandatory and ply < MAX_PLY:
            return self.captures_out(pos, depth, alpha, beta, ply, rev, mat, sig, moves)
        if threats and self.gen_captures((pos[0], pos[1], pos[2], pos[3] ^ 1, pos[4])):
            return self.search_moves(
                pos, moves, depth, alpha, beta, ply, rev, mat, captures, None, None, 0
            )
        evals = self.evals
        v = evals.get(pos)
        if v is None:
            v = self.evaluate(pos)
            evals[pos] = v
        if rev + FADE >= sig[0] or mat + FADE >= sig[1]:
            d = self.drawn[pos[3]]
            v = d + _fade(v - d, pos, rev, mat, self.counter_rules, self.ends)
        if (
            self.exchanges
            and v < beta
            and not pos[2]
            and self.mandatory
            and depth == 0
            and ply < MAX_PLY - 1
        ):
            return self.offered(pos, depth, v if v > alpha else alpha, beta, ply, mat, v)
        return v

    def search_moves(
        self,
        pos: State,
        moves: list[FastMove],
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        rev: int,
        mat: int,
        captures: Any,
        tt_move: Any,
        tkey: Any,
        seen: int,
    ) -> int:
        """The moves of ``pos``, best first, each searched a ply less deep (a forced
        move one ply deeper), the first with the window, the others with a null window
        (late quiet moves reduced) and again in full when they fail high; the best score.
        With a ``tkey``, the table keeps what was found (``seen``: ``touched`` when the
        node began)."""
        pv_node = beta - alpha > 1
        n_moves = len(moves)
        if n_moves > 1:
            self.order(moves, pos, ply, captures, tt_move)
        extend = 1 if n_moves == 1 and depth > 0 and ply < 2 * self.tree.root_depth else 0
        d = depth - 1 + extend
        reduced_from = self.reduced_from(d, depth, pv_node, captures)
        alpha0 = alpha
        best = -INF
        best_move: Sequence[Any] | None = None
        turn = pos[3]
        kings = pos[2]
        ply1 = ply + 1
        i = 0
        keys = self.keys
        apply = self.apply
        key_of = self.key_of
        node = self.node
        for mv in moves:
            child = apply(pos, mv)
            if mv[4]:  # the draw counters after the move
                r2 = m2 = 0
            elif kings & mv[2]:
                r2 = rev + 1
                m2 = mat + 1
            elif child[2] & mv[3]:
                r2 = m2 = 0
            else:
                r2 = 0
                m2 = mat + 1
            keys.append(child if key_of is None else key_of(child))
            same = child[3] == turn
            if i == 0:
                if same:
                    v = node(child, d, alpha, beta, ply1, r2, m2)
                else:
                    v = -node(child, d, -beta, -alpha, ply1, r2, m2)
            else:
                red = self.reduction(i, d, pv_node, r2 or m2) if i >= reduced_from else 0
                a1 = alpha + 1
                if same:
                    v = node(child, d - red, alpha, a1, ply1, r2, m2)
                else:
                    v = -node(child, d - red, -a1, -alpha, ply1, r2, m2)
                if v > alpha and (red or v < beta):
                    if same:
                        v = node(child, d, alpha, beta, ply1, r2, m2)
                    else:
                        v = -node(child, d, -beta, -alpha, ply1, r2, m2)
            keys.pop()
            i += 1
            if v > best:
                best = v
                best_move = mv
                if v > alpha:
                    alpha = v
                    if pv_node:
                        pv_table = self.pv_table
                        pv_table[ply] = [mv, *pv_table[ply1]]
                    if v >= beta:
                        if not mv[4]:
                            self.quiet_cut(mv, ply, turn, depth)
                        break
        if tkey is not None:
            # every move failed low: which scored highest says nothing (each is only known
            # to be no better than alpha); the table's move, if any, stays the one to try
            # first (a tree of about a tenth fewer nodes at a fixed depth)
            kept = tt_move if best <= alpha0 else best_move
            self.store(tkey, depth, best, alpha0, beta, ply, kept, seen)
        return best

    def store(
        self,
        key: Any,
        depth: int,
        best: int,
        alpha: int,
        beta: int,
        ply: int,
        move: Sequence[Any] | None,
        seen: int,
    ) -> None:
        """The table keeps ``best``, the score of a node searched ``depth`` deep with the
        window ``alpha``, ``beta``: a won or lost score counted from the node, not the
        root; the move as a plain tuple (an entry of ints and plain tuples only is left
        alone by the garbage collector, a FastMove, a subclass, never is); and the number of
        this search if the node's tree met a repetition since ``touched`` was ``seen``
        (its score depends on the game's history), else -1."""
        flag = LOWER if best >= beta else EXACT if best > alpha else UPPER
        if best >= WON:
            best += ply
        elif best <= -WON:
            best -= ply
        made = self.this_search if self.touched != seen else -1
        self.table[key] = (depth, flag, best, tuple(move) if move else None, made)

    def reduced_from(self, d: int, depth: int, pv_node: bool, captures: Any) -> int:
        """Late move reductions: the index of the first move of a node ``depth`` deep
        that may be searched less than ``d`` deep with a null window (see
        :meth:`reduction`); past the end of any list when none may."""
        if self.lmr_scan:  # one ply from the second move (the fourth at a PV node)
            return (3 if pv_node else 1) if depth >= 3 and not captures else MAX_MOVES
        if d >= self.lmr_depth and not pv_node and not captures:
            return self.lmr_moves
        return MAX_MOVES

    def reduction(self, i: int, d: int, pv_node: bool, quiet: int) -> int:
        """The plies less than ``d`` with which the ``i``-th move (from 0) is searched
        with a null window first, from :meth:`reduced_from` on (``quiet``: the move
        neither captures nor crowns): Scan 2.0's, or the table's."""
        if self.lmr_scan:
            if not quiet:
                return 0
            red = (1 if i >= 3 else 0) if pv_node else (2 if i >= 6 else 1)
        else:
            red = self.lmr_table[d if d < 64 else 63][i if i < 64 else 63]
        return d - 1 if red >= d else red

    def quiet_cut(self, mv: FastMove, ply: int, turn: int, depth: int) -> None:
        """A quiet move cut a node ``ply`` plies below the root: it becomes the ply's
        first killer, and its start square gains history for the side ``turn``."""
        ks = self.killers[ply]
        if ks[0] != mv:
            ks[1] = ks[0]
            ks[0] = mv
        hist = self.history[turn]
        hist[mv[0]] = hist.get(mv[0], 0) + depth * depth

    def captures_out(
        self,
        pos: State,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        rev: int,
        mat: int,
        sig: tuple[int, int, bool],
        moves: list[FastMove],
    ) -> int:
        """Quiescence: the forced captures of ``pos`` at or beyond the horizon, played out
        (beyond QFULL plies, the likeliest only).  The exchanges of many kings transpose
        (the same captures in another order): the table keeps them from being searched
        again."""
        qkey: Any = (pos, rev, mat) if rev + FADE >= sig[0] or mat + FADE >= sig[1] else pos
        seen = self.touched  # (a variant whose positions all can come back repeats beyond too)
        table = self.table
        entry = table.get(qkey)
        q_move = None
        if entry is not None:
            v = self.stored(entry, alpha, beta, ply)
            if v is not None:
                return v
            q_move = entry[3]
        if len(moves) > 1:
            _by_size(moves, pos[2])
            if q_move is not None and moves[0] != q_move:
                _to_front(moves, q_move)
        greedy = depth <= -QFULL
        if greedy:
            del moves[1:]  # deep in an exchange: the likeliest capture only
        turn = pos[3]
        alpha0 = alpha
        best = -INF
        best_move = None
        keys = self.keys
        key_of = self.key_of
        apply = self.apply
        node = self.node
        for mv in moves:
            child = apply(pos, mv)
            keys.append(child if key_of is None else key_of(child))
            if child[3] == turn:
                v = node(child, depth - 1, alpha, beta, ply + 1, 0, 0)
            else:
                v = -node(child, depth - 1, -beta, -alpha, ply + 1, 0, 0)
            keys.pop()
            if v > best:
                best = v
                best_move = mv
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if not greedy and (entry is None or entry[0] <= 0):
            self.store(qkey, 0, best, alpha0, beta, ply, best_move, seen)
        return best

    def offered(
        self, pos: State, depth: int, alpha: int, beta: int, ply: int, mat: int, best: int
    ) -> int:
        """Beyond the horizon, a quiet position without kings, ``best`` its evaluation
        (below ``beta``): the moves that crown a man or leave the opponent a capture."""
        turn = pos[3]
        keys = self.keys
        key_of = self.key_of
        for mv in self.gen_moves(pos):
            child = self.apply(pos, mv)
            crowned = child[2] & mv[3]
            if not crowned and not self.gen_captures(child):
                continue
            keys.append(child if key_of is None else key_of(child))
            m2 = 0 if crowned else mat + 1  # (a man moved: no position before can come back)
            if child[3] == turn:
                v = self.node(child, depth - 1, alpha, beta, ply + 1, 0, m2)
            else:
                v = -self.node(child, depth - 1, -beta, -alpha, ply + 1, 0, m2)
            keys.pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def order(
        self, moves: list[FastMove], pos: State, ply: int, captures: Any, tt_move: Any
    ) -> None:
        """Sort ``moves`` best first: the table's move, then the captures by size, or
        the quiet moves by killers and history."""
        if captures:
            _by_size(moves, pos[2])
        else:
            get = self.history[pos[3]].get
            k1, k2 = self.killers[ply]
            if k1 is not None:
                bonus = {k1: 1 << 40}
                if k2 is not None:
                    bonus[k2] = 1 << 39
                moves.sort(key=lambda m: bonus.get(m) or get(m[0], 0), reverse=True)
            else:
                moves.sort(key=lambda m: get(m[0], 0), reverse=True)
        if tt_move is not None and moves[0] != tt_move:
            _to_front(moves, tt_move)


def _end_score(out: Outcome, turn: int, ply: int, draw: int) -> int:
    """The score of the game's end ``out`` for the side ``turn``, ``ply`` plies below the
    root (``draw``: a draw's, the contempt for or against that side)."""
    if out.winner is None:
        return draw
    return WIN - ply if int(out.winner) == turn else ply - WIN


def _by_size(moves: list[FastMove], kings: int) -> None:
    """Sort captures biggest first (a king taken counts a little more)."""
    moves.sort(key=lambda m: len(m[1]) * 8 + (m[4] & kings).bit_count(), reverse=True)


def _to_front(moves: list[FastMove], mv: Any) -> None:
    """Move ``mv`` (the table's, a plain tuple) to the front of ``moves``, if it is there."""
    try:  # (the list's own FastMove is moved: the table keeps a plain tuple)
        moves.insert(0, moves.pop(moves.index(mv)))
    except ValueError:
        pass


# -- the root ---------------------------------------------------------------------------


def aspirate(center: int, width: int, search: Callable[[int, int], int]) -> int:
    """The score of ``search(alpha, beta)`` (a search of the root within that window)
    in a window of half-width ``width`` round ``center``, widened fourfold and searched
    again while the score falls outside it; ``width`` INF (or once it grows that wide):
    the full window."""
    window = width
    while True:
        alpha = max(-INF, center - window) if window < INF else -INF
        beta = min(INF, center + window) if window < INF else INF
        best = search(alpha, beta)
        if alpha < best < beta or window >= INF:
            return best
        window *= 4


def list_root_moves(
    game: Game, clock: Clock, must_move: bool, partial: bool, result: SearchResult
) -> list[FastMove] | None:
    """The legal moves of the root, listed within ``clock``'s time, or None when none
    could be (then the result says it ``stopped``).  When the listing took all the
    time, ``unlisted`` is set, with ``listed`` the moves found when they are known to be
    legal (``partial``), and the clock moved to a quick look at the positions the moves
    lead to; with ``must_move`` the listing goes on without a deadline when that is the
    only way to a move."""
    hard = clock.deadline
    if must_move and not partial:
        clock.deadline = None  # no move is known to be legal before all are listed
    try:
        root_moves = fast_moves(game)
    except Stopped as stop:
        # the legal moves could not all be listed in time: choose among those found if
        # they are known to be legal, else (a move is wanted) list on
        root_moves = stop.moves or []
        if not root_moves and must_move and not (clock.cancelled and clock.cancelled()):
            clock.deadline = None
            try:
                root_moves = fast_moves(game)
            except Stopped:
                pass
        if not root_moves:
            result.stopped = result.unlisted = True
            return None
        result.unlisted = True
        if stop.moves:
            result.listed = len(root_moves)
    clock.deadline = hard
    if result.unlisted or (hard is not None and perf_counter() >= hard):
        # the listing took all the time: a quick look at the positions the moves lead
        # to chooses
        result.unlisted = True
        clock.deadline = perf_counter() + LATE
    return root_moves


#: A root move with what its search needs: (move, position, counters, repetition key).
_Child = tuple[FastMove, State, int, int, Any]


class Root:
    """The root of one search: the iterative deepening over its moves, an aspiration
    window round each depth's score, and ``result``, the choice so far (a search that
    stops returns the best move proven by then)."""

    def __init__(
        self,
        search: Search,
        game: Game,
        tree: Tree,
        nodes: Nodes,
        clock: Clock,
        exact_root: bool = False,
        on_iteration: Callable[[Iteration], None] | None = None,
    ) -> None:
        self.search = search
        self.game = game
        self.tree = tree
        self.nodes = nodes
        self.clock = clock
        self.exact_root = exact_root
        self.on_iteration = on_iteration
        self.result = SearchResult(move=None)
        #: The choice so far, in the generator's form (the result's, in the library's,
        #: is made from it at the end): the move, its line, each root move's score.
        self.move: FastMove | None = None
        self.pv: list[FastMove] = []
        self.root_scores: list[tuple[FastMove, int]] = []
        self.turn = game_state(game)[3]
        self.children: list[_Child] = []
        #: Each root move's score at the last completed depth.
        self.scores: dict[FastMove, int] = {}
        #: The nodes each root move's tree took at its last search (the biggest are
        #: searched first at the next depth).
        self.effort: dict[FastMove, int] = {}
        #: Each root move's position evaluated, and its score at depth 1.
        self.first: dict[FastMove, int] = {}
        self.depth_one: dict[FastMove, int] = {}
        # the last search of the root within a window: its best move and line, and the
        # score of each move searched
        self.best_move: FastMove | None = None
        self.best_pv: list[FastMove] = []
        self.depth_scores: dict[FastMove, int] = {}

    def run(self, depth: int | None, moves: Sequence[Move] | None, must_move: bool) -> SearchResult:
        """List the root's moves and search them to ``depth`` (None: 64) or until
        stopped; a move that is the only choice is searched to depth 1 only, unless a
        depth is given or a score wanted (``on_iteration``, ``exact_root``)."""
        max_depth = depth if depth is not None else 64
        result = self.result
        game = self.game
        search = self.search
        root_moves = list_root_moves(game, self.clock, must_move, search.gen.partial_moves, result)
        if root_moves is None:
            result.seconds = self.clock.elapsed()
            return result
        out = search.ends.outcome(
            game_state(game), root_moves, game.reversible_plies, game.material_plies, self.tree.keys
        )
        if moves is not None:
            wanted = {m.fast() for m in moves}
            root_moves = [m for m in root_moves if m in wanted] or root_moves
        if out is not None or not root_moves:
            result.outcome = out
            result.seconds = self.clock.elapsed()
            return result
        try:
            self.look(root_moves)
            # the choice before depth 1: the first move, for the order of the search
            self.move = root_moves[0]
            self.root_scores = sorted(self.first.items(), key=lambda ms: ms[1], reverse=True)
            if (
                len(root_moves) == 1
                and depth is None
                and not self.exact_root
                and self.on_iteration is None
            ):
                max_depth = 1
            for d in range(1, max_depth + 1):
                if not self.iterate(d, root_moves):
                    break
        except Stopped:
            result.stopped = True
            if not result.iterations:
                # depth 1 unfinished: the choice among the moves searched to depth 1, or
                # if there is none yet, among those evaluated
                done = self.depth_one or self.first
                self.root_scores = sorted(done.items(), key=lambda ms: ms[1], reverse=True)
                self.move, result.score = self.root_scores[0]
                if not self.depth_one:
                    self.pv = [self.move]
        result.move = library_move(game, self.move) if self.move is not None else None
        result.pv = self.line(self.pv)
        listed = dict(zip(root_moves, library_moves(game, root_moves), strict=True))
        result.root_scores = [(listed[m], v) for m, v in self.root_scores]
        count = self.nodes.counted()
        result.nodes = count
        result.seconds = self.clock.elapsed()
        search.nodes = count
        return result

    def look(self, root_moves: list[FastMove]) -> None:
        """The root's children, each evaluated: until a move is searched to depth 1, the
        choice is the move whose position evaluates best (at least one is looked at,
        whatever the clock says): what is returned is always a move that was looked at,
        never one taken blindly."""
        game = self.game
        pos = game_state(game)
        rev0 = game.reversible_plies
        mat0 = game.material_plies
        kings = pos[2]
        turn = self.turn
        apply = self.search.gen.apply
        evaluate = self.search.evaluate
        ends = self.search.ends
        key_of = ends.key_of if ends.key is not None else None
        first = self.first
        check = self.nodes.check
        for mv in root_moves:
            child = apply(pos, mv)
            if mv[4]:
                r2 = m2 = 0
            elif kings & mv[2]:
                r2, m2 = rev0 + 1, mat0 + 1
            elif child[2] & mv[3]:
                r2 = m2 = 0
            else:
                r2, m2 = 0, mat0 + 1
            self.children.append((mv, child, r2, m2, child if key_of is None else key_of(child)))
            v = evaluate(child)
            first[mv] = v if child[3] == turn else -v
            if not len(first) & 63:
                check()

    def iterate(self, depth: int, root_moves: list[FastMove]) -> bool:
        """Search the root to ``depth``, in an aspiration window round the last score
        (widened while the score falls outside it); whether to go deeper."""
        result = self.result
        self.tree.root_depth = depth
        # the last choice first, then the moves whose trees were biggest
        effort = self.effort
        order = sorted(self.children, key=lambda c: effort.get(c[0], 0), reverse=True)
        if self.move is not None:
            order.sort(key=lambda c: c[0] != self.move)
        steady = depth >= 4 and not self.exact_root and abs(result.score) < WON
        best = aspirate(
            result.score,
            ASPIRATION if steady else INF,
            lambda alpha, beta: self.search_window(order, depth, alpha, beta),
        )
        self.scores.update(self.depth_scores)
        self.move = self.best_move
        result.score = best
        self.pv = self.best_pv
        result.depth = depth
        self.root_scores = sorted(
            ((m, self.scores.get(m, -INF)) for m in root_moves),
            key=lambda ms: ms[1],
            reverse=True,
        )
        now = perf_counter()
        it = Iteration(
            depth, best, self.nodes.counted(), now - self.clock.started, self.line(self.best_pv)
        )
        result.iterations.append(it)
        if self.on_iteration is not None:
            self.on_iteration(it)
        if abs(best) >= WON and depth >= WIN - abs(best) + 2:
            return False  # a forced end found and proven within the depth
        soft = self.clock.soft_deadline
        return soft is None or now < soft

    def search_window(self, order: list[_Child], depth: int, alpha: int, beta: int) -> int:
        """The best score of the root's moves searched to ``depth`` within the window
        (the first with the window, the others with a null window first, or all with
        the full window for exact root scores).  A move proven better than the last
        choice becomes the result's even if the depth does not finish."""
        result = self.result
        node = self.nodes.node
        count = self.nodes.counted
        keys = self.tree.keys
        pv_table = self.tree.pv_table
        exact_root = self.exact_root
        turn = self.turn
        low, high = alpha, beta
        best = -INF
        self.best_move = None
        self.best_pv = []
        self.depth_scores = depth_scores = {}
        d = depth - 1
        for i, (mv, child, r2, m2, ckey) in enumerate(order):
            keys.append(ckey)
            same = child[3] == turn
            before = count()
            try:
                if i == 0 or exact_root:
                    a, b = (-INF, INF) if exact_root else (alpha, beta)
                    v = (
                        node(child, d, a, b, 1, r2, m2)
                        if same
                        else -node(child, d, -b, -a, 1, r2, m2)
                    )
                else:
                    a1 = alpha + 1
                    v = (
                        node(child, d, alpha, a1, 1, r2, m2)
                        if same
                        else -node(child, d, -a1, -alpha, 1, r2, m2)
                    )
                    if alpha < v < beta:
                        v = (
                            node(child, d, alpha, beta, 1, r2, m2)
                            if same
                            else -node(child, d, -beta, -alpha, 1, r2, m2)
                        )
            finally:
                keys.pop()
            self.effort[mv] = count() - before
            depth_scores[mv] = v
            if depth == 1:
                self.depth_one[mv] = v
            if v > best:
                best = v
                self.best_move = mv
                self.best_pv = [mv, *pv_table[1]]
                if v > alpha:
                    alpha = v
                # a move proven better than the last depth's choice is kept even if this
                # depth does not finish
                if (i > 0 and low < v < high) or depth == 1:
                    self.move = mv
                    self.pv = self.best_pv
                    result.score = v
                if v >= beta:
                    if i > 0:  # better than the last choice, by at least this
                        self.move = mv
                        self.pv = self.best_pv
                    break
        return best

    def line(self, moves: list[FastMove]) -> list[Move]:
        """A line of the search from the root, in the library's form."""
        walk = self.game.copy()
        out = []
        for mv in moves:
            out.append(library_move(walk, mv))
            push_fast(walk, mv)
        return out


@functools.cache
def _reductions(base: float, divisor: float) -> tuple[tuple[int, ...], ...]:
    """The late-move reduction of each (depth, move index) pair."""
    return tuple(
        tuple(
            max(1, int(base + math.log(d) * math.log(i) / divisor)) if d and i else 0
            for i in range(64)
        )
        for d in range(64)
    )


def _trim(table: dict[Any, _Entry], keep: int) -> None:
    """Drop the shallowest entries of ``table`` (depth is an entry's first field) so that
    at most ``keep`` are left: the deep ones cost the most to find again."""
    counts: dict[int, int] = {}
    for entry in table.values():
        counts[entry[0]] = counts.get(entry[0], 0) + 1
    total = 0
    floor = None
    for d in sorted(counts, reverse=True):
        total += counts[d]
        if total > keep:
            floor = d + 1
            break
    if floor is None:
        return
    kept = {k: e for k, e in table.items() if e[0] >= floor}
    table.clear()  # (frees the old allocation; deleting in place would not)
    table.update(kept)


def _counter_room(pos: State, rev: int, mat: int, rules: Sequence[Any], ends: EndRules) -> int:
    """The plies left before a draw counter that applies to ``pos`` runs out (a large
    number when none does)."""
    left = 1 << 30
    for c, plies, _bound, _men, rule in rules:
        remaining = plies - (rev if c == 1 else mat)
        if remaining < left and (
            not rule.has_material_condition or ends.material_matches(pos, rule)
        ):
            left = max(remaining, 0)
    return left


def _fade(v: int, pos: State, rev: int, mat: int, rules: Sequence[Any], ends: EndRules) -> int:
    """``v`` shrunk towards a draw as the nearest applicable draw counter runs out."""
    left = FADE
    for c, plies, _bound, _men, rule in rules:
        remaining = plies - (rev if c == 1 else mat)
        if remaining < left and (
            not rule.has_material_condition or ends.material_matches(pos, rule)
        ):
            left = max(remaining, 0)
    if left >= FADE:
        return v
    return v * left // FADE


def _history_keys(game: Game, ends: EndRules) -> list[Any]:
    """The repetition keys of the positions that can still come back (``Game.lookback``),
    the current position last."""
    states = played_states(game)
    back = min(len(states) - 1, game.lookback())
    return [ends.key_of(state) for state in states[len(states) - 1 - back :]]


def choose(result: SearchResult, margin: int, rng: random.Random) -> Move | None:
    """A move among those scoring within ``margin`` of the best (the lower levels' choice);
    a won or lost score is never given away for a random one."""
    if result.move is None or margin <= 0 or not result.root_scores:
        return result.move
    best = result.root_scores[0][1]
    if abs(best) >= WON:
        good = [m for m, s in result.root_scores if s == best]
    else:
        good = [m for m, s in result.root_scores if s >= best - margin and s > -WON]
    return rng.choice(good) if good else result.move
