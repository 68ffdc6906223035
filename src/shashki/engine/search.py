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
  a draw rule could fire within the remaining depth (see :meth:`Search._key`).  Python
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
"""

from __future__ import annotations

import functools
import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from ..rules.endrules import EndRules, GameView
from ..rules.game import Game
from ..rules.interrupt import Interrupted, interruptible
from ..rules.move import Move
from ..rules.movegen import Position
from ..rules.outcome import Outcome
from ..rules.switches import Irreversible
from ..rules.variant import Variant
from ..rules.variant_registry import find_variant
from .evaluate import Evaluator, evaluator_for

#: The score of a won game at the root; a win in n plies scores WIN - n.
WIN = 100_000
#: Scores beyond this are wins or losses, not evaluations.
WON = WIN - 1000
INF = WIN + 1
MAX_PLY = 200
#: The clock and ``cancelled()`` are read every CHECK + 1 nodes.
CHECK = 15
#: Objects made during a search between two passes of the garbage collector over them.
GC_YOUNG = 20_000
#: Plies before a draw counter runs out over which the evaluation shrinks to a draw.
FADE = 10
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


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _without_gc(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` with the cyclic garbage collector's automatic passes off.  The search
    makes no cyclic garbage (reference counting frees what it drops; its recursive
    function's cycle is broken at the end), and a full collection over a big table could
    pause it past its deadline.  The young objects are still looked at, a few thousand
    at a time (the search's ``check``): all at once after a long search, the pass would
    take half a second, past the deadline.  The table's entries are plain tuples of ints,
    which that first look leaves untracked for good."""

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
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
    ) -> None:
        self.variant = find_variant(variant)
        self.options = options or Options()
        self.gen = self.variant.generator
        self.ends = EndRules(self.variant)
        self.evaluate: Evaluator = evaluator or evaluator_for(self.variant)
        self.table: dict[Any, tuple[int, int, int, tuple[Any, ...] | None]] = {}
        self.table_size = table_size
        self.history: tuple[dict[Any, int], dict[Any, int]] = ({}, {})
        #: The evaluation of each position met at the horizon (a pure function of it).
        self.evals: dict[Position, int] = {}
        self.nodes = 0

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
        soft: float = 0.55,
        moves: Sequence[Move] | None = None,
        must_move: bool = False,
    ) -> SearchResult:
        """Search ``game``'s position and return the best move found.

        Stops at ``depth`` (plies), after about ``nodes`` nodes, or at ``seconds`` after
        the call (a hard deadline; no new depth is started after ``soft`` of it), or when
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
        """
        started = time.perf_counter()
        deadline = started + seconds - 0.002 if seconds is not None else None
        soft_deadline = started + seconds * soft if seconds is not None else None
        max_depth = depth if depth is not None else 64
        max_nodes = nodes

        ends = self.ends
        gen = self.gen
        gen_moves = gen.moves
        gen_captures = gen.captures
        gen_horizon = gen.horizon
        evals = self.evals
        if len(evals) > self.table_size:
            evals.clear()
        threats = self.options.threats
        lmr_depth = self.options.lmr_depth
        lmr_moves = self.options.lmr_moves
        probcut = self.options.probcut
        probcut_margin = self.options.probcut_margin
        lmr_table = _reductions(self.options.lmr_base, self.options.lmr_divisor)
        apply = gen.apply
        evaluate = self.evaluate
        plain = tuple
        new = tuple.__new__
        key_of = ends.key_of if ends.key is not None else None
        goals = ends.goals
        king_wins = ends.king_wins
        no_moves_wins = ends.no_moves_wins
        decide = ends.decide
        repetition_ends = ends.repetition_ends
        counter_rules = ends.counter_rules
        mandatory = self.variant.rules.capture_mandatory
        table = self.table
        if len(table) > self.table_size:
            table.clear()
        history = self.history
        killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        pv_table: list[list[Move]] = [[] for _ in range(MAX_PLY + 2)]

        # The history: repetition keys of the positions that can come back, then the root.
        root_pos = game.position
        rev0 = game.reversible_plies
        mat0 = game.material_plies
        keys: list[Any] = _history_keys(game, ends)
        root_index = len(keys) - 1
        rep_outcome = ends.repetition_outcome(root_pos, mat0, keys) if repetition_ends else None

        count = 0
        check_at = CHECK

        size = self.table_size

        gc_count = gc.get_count
        gc_collect = gc.collect

        def check() -> None:
            nonlocal check_at
            check_at = count + CHECK
            # the collector is off (see _without_gc); what it would look at meanwhile is
            # given to it a little at a time, not all at once when the search returns
            young = gc_count()
            if young[0] > GC_YOUNG:
                gc_collect(1 if young[1] >= 10 else 0)
            if deadline is not None and time.perf_counter() >= deadline:
                raise Stopped
            if cancelled is not None and cancelled():
                raise Stopped
            if max_nodes is not None and count >= max_nodes:
                raise Stopped
            # the tables keep their size during a search too (one without a clock may
            # run for hours)
            if len(table) > size:
                _trim(table, size // 2)
            if len(evals) > size:
                evals.clear()

        def poll() -> None:
            """The clock and ``cancelled()``, read now and then by a long generation."""
            if deadline is not None and time.perf_counter() >= deadline:
                raise Stopped
            if cancelled is not None and cancelled():
                raise Stopped

        def end_score(out: Outcome, turn: int, ply: int) -> int:
            if out.winner is None:
                return 0
            return WIN - ply if int(out.winner) == turn else ply - WIN

        signature = ends.signature
        signatures = ends.signatures
        draw_rule = ends.draw_rule
        repetitions = ends.repetitions
        # draw rules other than repetitions (those are counted below, in the tree)
        counter_draws = any(c[0] == 1 for c in ends.draws)
        rep_threshold = ends.repetition_threshold
        # A position can only repeat one met since the last move the generator declares
        # irreversible: a man's move (men only move forward), a capture or crowning, or
        # none (pieces come back: the whole history).
        look = gen.irreversible
        men_cut = look >= Irreversible.MEN
        material_cut = look >= Irreversible.MATERIAL

        def node(
            pos: Position, depth: int, alpha: int, beta: int, ply: int, rev: int, mat: int
        ) -> int:
            nonlocal count
            count += 1
            if count >= check_at:
                check()
            pv_node = beta - alpha > 1
            if pv_node:
                pv_table[ply] = []
            turn = pos[3]
            # -- the end of the game, exactly as the rules say (the first king, goals, no
            # legal move, the variant's decision, draws); the legal moves are only generated
            # once a table hit has not settled the node: a position in the table has legal
            # moves --
            if king_wins and pos[2]:  # the first king made has won (promotion-wins)
                return WIN - ply if pos[2] & pos[turn] else ply - WIN
            for side, mask, _name in goals:
                if pos[side] & mask:
                    return WIN - ply if side == turn else ply - WIN
            moves = None
            if decide is not None:
                moves = gen_moves(pos)
                if not moves:
                    return WIN - ply if no_moves_wins else ply - WIN
                out = decide(GameView(pos, lambda: repetitions(keys, rev, mat)))  # type: ignore[arg-type]
                if out is not None:
                    return end_score(out, turn, ply)
            occ = pos[0] | pos[1]
            skey = occ.bit_count() << 8 | (occ & ~pos[2]).bit_count()
            sig = signatures.get(skey)
            if sig is None:
                sig = signature(skey >> 8, skey & 255)
            if counter_draws and (rev >= sig[0] or mat >= sig[1] or sig[2]):
                if draw_rule(pos, rev, mat, keys) is not None:
                    if moves is None:
                        moves = gen_moves(pos)
                    if not moves:
                        return WIN - ply if no_moves_wins else ply - WIN
                    return 0
            # -- repetitions: the rule's count over the game, and a position repeated
            # inside the tree, scored as its repetition would end --
            n = len(keys) - 1
            span = rev if men_cut else mat if material_cut else n
            if repetition_ends and span >= 2:
                lo = n - span
                if lo < 0:
                    lo = 0
                here = keys[n]
                window = keys[lo:n]
                if here in window:
                    # a position met before had legal moves: no need to look again
                    if rep_threshold and window.count(here) + 1 >= rep_threshold:
                        return 0
                    if lo < root_index:
                        window = keys[root_index:n]
                    if here in window:
                        if rep_outcome is None:
                            return 0
                        return end_score(rep_outcome, turn, ply)

            # -- the transposition table (with the counters when a draw rule is in reach) --
            tt_move = None
            if depth > 0:
                reach = depth + FADE
                if rev + reach >= sig[0] or mat + reach >= sig[1]:
                    tkey: Any = (pos, rev, mat)
                else:
                    tkey = pos
                entry = table.get(tkey)
                if entry is not None:
                    edepth, flag, evalue, tt_move = entry
                    if edepth >= depth:
                        if evalue >= WON:
                            evalue -= ply
                        elif evalue <= -WON:
                            evalue += ply
                        if flag == EXACT:
                            pv_table[ply] = [new(Move, tt_move)] if tt_move is not None else []
                            return evalue
                        if flag == LOWER:
                            if evalue >= beta:
                                return evalue
                        elif evalue <= alpha:
                            return evalue
            leaf = depth <= 0 or ply >= MAX_PLY
            if moves is None:
                if leaf:
                    # at the horizon only the captures matter: the quiet moves are not built
                    moves, movable = gen_horizon(pos)
                    if not movable:
                        return WIN - ply if no_moves_wins else ply - WIN
                    if not moves and threats and depth == 0 and ply < MAX_PLY:
                        moves = gen_moves(pos)
                else:
                    moves = gen_moves(pos)
                    if not moves:
                        return WIN - ply if no_moves_wins else ply - WIN
            captures = bool(moves) and moves[0][1] and moves[-1][1]
            threatened = False
            if leaf:
                # -- quiescence: a forced capture is played out, a quiet position is judged,
                # unless the opponent threatens to take (then one more move is searched) --
                if not (captures and mandatory) or ply >= MAX_PLY:
                    if (
                        threats
                        and depth == 0
                        and ply < MAX_PLY
                        and gen_captures((pos[0], pos[1], pos[2], turn ^ 1, pos[4]))
                    ):
                        threatened = True
                    else:
                        v = evals.get(pos)
                        if v is None:
                            v = evaluate(pos)
                            evals[pos] = v
                        if rev + FADE >= sig[0] or mat + FADE >= sig[1]:
                            v = _fade(v, pos, rev, mat, counter_rules, ends)
                        return v
                if not threatened:
                    # the exchanges of many kings transpose (the same captures in
                    # another order): the table keeps them from being searched again
                    if rev + FADE >= sig[0] or mat + FADE >= sig[1]:
                        qkey: Any = (pos, rev, mat)
                    else:
                        qkey = pos
                    entry = table.get(qkey)
                    q_move = None
                    if entry is not None:
                        _, flag, evalue, q_move = entry
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
                    alpha0 = alpha
                    best = -INF
                    best_move = None
                    if len(moves) > 1:
                        kings = pos[2]
                        moves.sort(
                            key=lambda m: len(m[1]) * 8 + (m[4] & kings).bit_count(), reverse=True
                        )
                        if q_move is not None and moves[0] != q_move:
                            try:
                                moves.insert(0, moves.pop(moves.index(q_move)))  # type: ignore[arg-type]
                            except ValueError:
                                pass
                    greedy = depth <= -QFULL
                    if greedy:
                        del moves[1:]  # deep in an exchange: the likeliest capture only
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
                        stored = best
                        if stored >= WON:
                            stored += ply
                        elif stored <= -WON:
                            stored -= ply
                        flag = LOWER if best >= beta else EXACT if best > alpha0 else UPPER
                        table[qkey] = (0, flag, stored, plain(best_move) if best_move else None)
                    return best

            # -- forward pruning: when a shallow search clears a raised bound, the full
            # one would almost surely clear the bound itself --
            if (
                probcut
                and not pv_node
                and depth >= 3
                and not threatened
                and not captures
                and -WON < beta < WON
            ):
                margin = probcut_margin * depth
                raised = beta + margin
                v = node(pos, depth * 2 // 5, raised - 1, raised, ply, rev, mat)
                if v >= raised:
                    return v - margin

            # -- move ordering --
            n_moves = len(moves)
            if n_moves > 1:
                if captures:
                    kings = pos[2]
                    moves.sort(
                        key=lambda m: len(m[1]) * 8 + (m[4] & kings).bit_count(), reverse=True
                    )
                else:
                    get = history[turn].get
                    k1, k2 = killers[ply]
                    if k1 is not None:
                        bonus = {k1: 1 << 40}
                        if k2 is not None:
                            bonus[k2] = 1 << 39
                        moves.sort(key=lambda m: bonus.get(m) or get(m[0], 0), reverse=True)
                    else:
                        moves.sort(key=lambda m: get(m[0], 0), reverse=True)
                if tt_move is not None and moves[0] != tt_move:
                    try:  # (the list's own Move: the table keeps a plain tuple)
                        moves.insert(0, moves.pop(moves.index(tt_move)))  # type: ignore[arg-type]
                    except ValueError:
                        pass
            extend = 1 if n_moves == 1 and ply < 2 * root_depth and depth > 0 else 0
            d = depth - 1 + extend
            alpha0 = alpha
            best = -INF
            best_move = None
            kings = pos[2]
            ply1 = ply + 1
            i = 0
            for mv in moves:
                child = apply(pos, mv)
                if mv[4]:
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
                    v = (
                        node(child, d, alpha, beta, ply1, r2, m2)
                        if same
                        else -node(child, d, -beta, -alpha, ply1, r2, m2)
                    )
                else:
                    red = 0
                    if d >= lmr_depth and i >= lmr_moves and not pv_node and not captures:
                        red = lmr_table[d if d < 64 else 63][i if i < 64 else 63]
                        if red >= d:
                            red = d - 1
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
                            pv_table[ply] = [mv, *pv_table[ply1]]
                        if v >= beta:
                            if not mv[4]:
                                ks = killers[ply]
                                if ks[0] != mv:
                                    ks[1] = ks[0]
                                    ks[0] = mv
                                hist = history[turn]
                                hist[mv[0]] = hist.get(mv[0], 0) + depth * depth
                            break
            if best >= beta:
                flag = LOWER
            elif best > alpha0:
                flag = EXACT
            else:
                flag = UPPER
            if depth > 0:
                stored = best
                if stored >= WON:
                    stored += ply
                elif stored <= -WON:
                    stored -= ply
                # the move as a plain tuple: an entry of ints and plain tuples only is
                # left alone by the garbage collector (a Move, a subclass, never is)
                table[tkey] = (depth, flag, stored, plain(best_move) if best_move else None)
            return best

        # -- the root -----------------------------------------------------------------------
        result = SearchResult(move=None)
        # The clock stops a long move generation too (flying kings over a crowded board
        # have exponentially many capture sequences), the root's included.
        with interruptible(poll):
            hard = deadline
            if must_move and not gen.partial_moves:
                deadline = None  # no move is known to be legal before all are listed
            try:
                root_moves = game.legal_moves()
            except Stopped as stop:
                # the legal moves could not all be listed in time: choose among those
                # found if they are known to be legal, else (a move is wanted) list on
                root_moves = stop.moves or []
                if not root_moves and must_move and not (cancelled and cancelled()):
                    deadline = None
                    try:
                        root_moves = game.legal_moves()
                    except Stopped:
                        pass
                if not root_moves:
                    result.stopped = result.unlisted = True
                    result.seconds = time.perf_counter() - started
                    _unlink(node)  # (it calls itself: a cycle the collector would have to find)
                    return result
                result.unlisted = True
                if stop.moves:
                    result.listed = len(root_moves)
            deadline = hard
            if result.unlisted or (hard is not None and time.perf_counter() >= hard):
                # the listing took all the time: a quick look at the positions the moves
                # lead to chooses
                result.unlisted = True
                deadline = time.perf_counter() + LATE
            out = ends.outcome(root_pos, root_moves, rev0, mat0, keys)
            if moves is not None:
                root_moves = [m for m in root_moves if m in moves] or root_moves
            if out is not None or not root_moves:
                result.outcome = out
                result.seconds = time.perf_counter() - started
                _unlink(node)  # (it calls itself: a cycle the collector would have to find)
                return result
            turn = root_pos[3]
            kings = root_pos[2]
            children = []
            scores: dict[Move, int] = {}
            effort: dict[Move, int] = {}
            root_depth = 1
            # Until a move is searched to depth 1, the choice is the move whose position
            # evaluates best (at least one is looked at, whatever the clock says): what is
            # returned is always a move that was looked at, never one taken blindly.
            first: dict[Move, int] = {}
            depth_one: dict[Move, int] = {}  # the moves searched to depth 1, with their score
            try:
                for mv in root_moves:
                    child = apply(root_pos, mv)
                    if mv[4]:
                        r2 = m2 = 0
                    elif kings & mv[2]:
                        r2, m2 = rev0 + 1, mat0 + 1
                    elif child[2] & mv[3]:
                        r2 = m2 = 0
                    else:
                        r2, m2 = 0, mat0 + 1
                    children.append((mv, child, r2, m2, child if key_of is None else key_of(child)))
                    v = evaluate(child)
                    first[mv] = v if child[3] == turn else -v
                    if not len(first) & 63:
                        check()
                # the choice before depth 1: the first move, for the order of the search
                result.move = root_moves[0]
                result.root_scores = sorted(first.items(), key=lambda ms: ms[1], reverse=True)
                if (
                    len(root_moves) == 1
                    and max_depth > 1
                    and not exact_root
                    and on_iteration is None
                ):
                    max_depth = 1
                for root_depth in range(1, max_depth + 1):
                    # the last choice first, then the moves whose trees were biggest
                    order = sorted(children, key=lambda c: effort.get(c[0], 0), reverse=True)
                    if result.move is not None:
                        order.sort(key=lambda c: c[0] != result.move)
                    # an aspiration window round the last score, widened when the score
                    # falls outside it
                    steady = root_depth >= 4 and not exact_root and abs(result.score) < WON
                    window = ASPIRATION if steady else INF
                    center = result.score
                    while True:
                        alpha = max(-INF, center - window) if window < INF else -INF
                        beta = min(INF, center + window) if window < INF else INF
                        low, high = alpha, beta
                        best = -INF
                        best_move = None
                        best_pv: list[Move] = []
                        depth_scores: dict[Move, int] = {}
                        for i, (mv, child, r2, m2, ckey) in enumerate(order):
                            keys.append(ckey)
                            same = child[3] == turn
                            d = root_depth - 1
                            before = count
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
                            effort[mv] = count - before
                            depth_scores[mv] = v
                            if root_depth == 1:
                                depth_one[mv] = v
                            if v > best:
                                best = v
                                best_move = mv
                                best_pv = [mv, *pv_table[1]]
                                if v > alpha:
                                    alpha = v
                                # a move proven better than the last depth's choice is kept even
                                # if this depth does not finish
                                if (i > 0 and low < v < high) or root_depth == 1:
                                    result.move = mv
                                    result.pv = best_pv
                                    result.score = v
                                if v >= beta:
                                    if i > 0:  # better than the last choice, by at least this
                                        result.move = mv
                                        result.pv = best_pv
                                    break
                        if low < best < high or window >= INF:
                            break
                        window *= 4
                    scores.update(depth_scores)
                    result.move = best_move
                    result.score = best
                    result.pv = best_pv
                    result.depth = root_depth
                    result.root_scores = sorted(
                        ((m, scores.get(m, -INF)) for m in root_moves),
                        key=lambda ms: ms[1],
                        reverse=True,
                    )
                    now = time.perf_counter()
                    it = Iteration(root_depth, best, count, now - started, list(best_pv))
                    result.iterations.append(it)
                    if on_iteration is not None:
                        on_iteration(it)
                    if abs(best) >= WON and root_depth >= WIN - abs(best) + 2:
                        break  # a forced end found and proven within the depth
                    if soft_deadline is not None and now >= soft_deadline:
                        break
            except Stopped:
                result.stopped = True
                if not result.iterations:
                    # depth 1 unfinished: the choice among the moves searched to depth 1,
                    # or if there is none yet, among those evaluated
                    done = depth_one or first
                    result.root_scores = sorted(done.items(), key=lambda ms: ms[1], reverse=True)
                    result.move, result.score = result.root_scores[0]
                    if not depth_one:
                        result.pv = [result.move]
        result.nodes = count
        result.seconds = time.perf_counter() - started
        self.nodes = count
        _unlink(node)  # (it calls itself: a cycle the collector would have to find)
        return result

    def best_move(self, game: Game, **limits: Any) -> Move | None:
        """The move the search chooses (see :meth:`search` for the limits)."""
        return self.search(game, **limits).move


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


def _unlink(fn: Callable[..., Any]) -> None:
    """Empty the closure cell through which the nested function ``fn`` calls itself: the
    cycle it makes would keep everything its closure holds (the big tables) until the
    garbage collector found it, a pause of a second after a long search."""
    for cell in fn.__closure__ or ():
        try:
            if cell.cell_contents is fn:
                cell.cell_contents = None
        except ValueError:  # (an empty cell)
            pass


def _trim(table: dict[Any, tuple[int, int, int, tuple[Any, ...] | None]], keep: int) -> None:
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


def _fade(v: int, pos: Position, rev: int, mat: int, rules: Sequence[Any], ends: EndRules) -> int:
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
    the current position last (read through a copy of the game: ``pop`` is public)."""
    back = min(len(game.move_stack), game.lookback())
    copy = game.copy()
    keys = [ends.key_of(copy.position)]
    for _ in range(back):
        copy.pop()
        keys.append(ends.key_of(copy.position))
    keys.reverse()
    return keys


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
