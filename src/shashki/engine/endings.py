"""Exact tables for the endings of a few pieces: who wins, and in how many plies.

Some endings are won in theory but too deep for the search: three kings against one in
Russian draughts (Petrov's triangle) take up to about thirty plies of exact play, and
the draw rules give the strong side only fifteen moves; others are lost or held by a
single tempo that no evaluation sees (a king against two men, a king and a man against
a king on the big board).  For these the engine plays from a table instead: every
position of the material is solved backwards (retrograde analysis), from the positions
where the side to move has no move, and each gets its distance to the end in plies.
The winner then always takes the quickest win and the loser the longest defence, so a
won ending is won as fast as the rules allow.

The table is built from the variant's own move generator (nothing here is variant
specific): captures, flying kings, the majority rule and every other rule switch come
from it.  A material is the number of kings and of men of each side; a capture leads
into a smaller material and a man crowned into one of as many pieces with one man
fewer, both solved first (the tables of a material are made in that order, each the
first time it is needed).  A man's step stays in its material: men only go forward, so
the retrograde analysis needs nothing more.  It covers the games whose generator has
plain positions (two colours of men and kings moved by the rule switches alone: its
hook ``plain_positions``) without modifiers or goals, where the side left without a
move loses, for positions of at most :data:`MAX_MIXED` pieces and at most
:data:`MAX_POSITIONS` positions a material (three kings against one on an 8x8 board:
317,440 positions, built in a few seconds and then kept for the process; two kings
against two on the 10x10 board: 3 million, in about half a minute), and, within
:data:`MAX_AHEAD` positions, of four pieces beyond that (with men on the boards of 64
squares: a king and a man each on an 8x8 board of 64 squares, 25.7 million) and of five
kings alone.  A game makes the tables it meets in a worker process when they are few
enough (:data:`BUILD_IN_PLAY`); ``shashki endings build`` makes the others ahead of
time, and only it (or the package, which ships some) those beyond :data:`MAX_POSITIONS`
(:func:`made_ahead`).  A table of kings alone
is read off the one with the colours swapped where that one is made (:func:`mirrors`).

The positions are solved backwards from their moves listed once: a solved position's
predecessors are found by taking a quiet move back (the generator's own tables of king
lines and men's steps, read the other way), by index arithmetic, never by listing the
moves of every position again; a generator with moves of its own is built forwards,
the straightforward way (the same table: a test compares them entry by entry).

A table is indexed by placement: the rank of each group of pieces (white kings, white
men, black kings, black men) among the squares it may stand on, and the side to move;
one signed byte a position.  It is kept in the cache folder with a SHA-256 checksum,
checked before use: a damaged or shortened file is made again, never trusted.  Some
tables come with the package, made by this builder and compressed (``tables/``,
``tools/make_tables.py``; docs/ENGINE.md says which): they are read, their header and
checksum checked the same way, when the cache has no such table, so that a fresh
install judges them at once (:func:`shipped_values`: a table is shipped whole, or as its
positions with White to move, or as the same table of another game).  A process
reads a table the first time a position of its material is probed, not before.

The draws the rules declare by the material alone (two kings against one, or three
against one on the main road, in the traditional game) end the game in the table too.
The counters are left out: a win that needs more plies than a counter leaves is still
played the quickest way, which is the best there is.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import stat
import sys
import threading
from array import array
from collections.abc import Callable, Iterator
from itertools import combinations
from math import comb
from pathlib import Path

from ..base.logs import package_logger
from ..base.ownfiles import own_folder, replace_file, trust_refusal
from ..base.userfiles import read_limited, user_folder
from ..rules.endrules import EndRules
from ..rules.game import Game, fast_moves, game_state, library_moves
from ..rules.move import FastMove, Move
from ..rules.movegen import MoveGenerator, State
from ..rules.switches import NoMoves
from ..rules.variant import Variant, is_valid_id
from .scores import WIN

#: The most pieces a table holds: four in every ending, five in the endings of kings
#: alone made ahead of time (see :data:`MAX_AHEAD`).
MAX_PIECES = 5
#: The most pieces of an ending of men and kings.
MAX_MIXED = 4
#: The most positions a table may have (both sides to move counted): every ending of
#: four pieces on the 10x10 board (the biggest, a king and a man against a king and a
#: man, has 10.1 million), not those of the 12x12 board.
MAX_POSITIONS = 10_200_000
#: The most positions a game makes in a worker process when an ending arises (the table
#: and those it leads into that are not made yet; a few tens of seconds of a core):
#: bigger ones are made ahead of time by ``shashki endings build``.
BUILD_IN_PLAY = 4_000_000
#: The most positions of a table of five kings, made only by ``shashki endings build
#: VARIANT --pieces 5`` (never in play): on the 10x10 board four kings against one
#: (23 million) and three against two (48 million), both colours.
MAX_AHEAD = 50_000_000
#: Changes when the tables' layout, meaning or file does (old cache files are then
#: ignored).
FORMAT = 4
#: The length of the checksum at the end of a cached table.
_DIGEST = 32

#: White kings, white men, black kings, black men.
Material = tuple[int, int, int, int]

#: A position's state while a table is built backwards: solved, found won (and waiting
#: for its turn to be solved), or with a move out of the table that does not lose.
_SOLVED, _QUEUED, _ESCAPE = 1, 2, 4

#: The calling thread's cancel test while a table is built (see :func:`perfect_moves`).
_LOCAL = threading.local()


class Cancelled(Exception):
    """A table's construction was stopped by the caller (nothing is kept)."""


def material_of(pos: State) -> Material:
    """The material of ``pos``: (white kings, white men, black kings, black men)."""
    w, b, k = pos[0], pos[1], pos[2]
    wk = (w & k).bit_count()
    bk = (b & k).bit_count()
    return wk, w.bit_count() - wk, bk, b.bit_count() - bk


class Layout:
    """Where each kind of piece may stand in a variant, and the rank of a placement: the
    index of a group of ``n`` pieces among ``C(len(squares), n)`` (combinatorial number
    system), groups side by side (a placement where two groups share a square has an
    index too, never used: simpler and cheaper than leaving it out)."""

    def __init__(self, variant: Variant) -> None:
        squares = tuple(variant.board.squares)
        promo = variant.generator.promo
        #: The squares of white kings, white men, black kings, black men.
        self.squares = (
            squares,
            tuple(s for s in squares if not promo[0] >> s & 1),
            squares,
            tuple(s for s in squares if not promo[1] >> s & 1),
        )
        #: The index of a square in each group's list, by square (-1: not allowed).
        size = max(squares) + 1
        self.where: tuple[list[int], ...] = tuple([-1] * size for _ in range(4))
        for g, allowed in enumerate(self.squares):
            for i, sq in enumerate(allowed):
                self.where[g][sq] = i
        #: The crowning row of each side's men.
        self.crowning = promo
        most = len(squares) + 1
        self.comb = [[comb(n, r) for r in range(MAX_PIECES + 2)] for n in range(most)]
        self._masks: dict[tuple[int, int], list[int]] = {}
        self._ranks: dict[tuple[int, int], dict[int, int]] = {}
        gen = variant.generator
        #: The quiet moves of each group taken back, by the square a piece stands on:
        #: (the squares that must be empty, the square it came from as a bit).  A king
        #: came along one of its lines through empty squares; a man by a step of its side.
        self.moves_back: tuple[list[tuple[tuple[int, int], ...]], ...] = tuple(
            [()] * size for _ in range(4)
        )
        back: list[dict[int, list[tuple[int, int]]]] = [{} for _ in range(4)]
        for p in squares:
            for ray in gen.king_rays[p]:
                between = 0
                for q, _ in ray:
                    for g in (0, 2):
                        back[g].setdefault(q, []).append((between | 1 << p, 1 << p))
                    between |= 1 << q
        #: The squares from which a man's step crowns it, for each side.
        self.crowning_steps = [0, 0]
        for side, g in ((0, 1), (1, 3)):
            for _, arrive in gen.man_up[side] + gen.man_down[side]:
                for mv in arrive.values():
                    p, q = mv[0][0], mv[0][-1]
                    if promo[side] >> q & 1:
                        self.crowning_steps[side] |= 1 << p
                    elif self.where[g][p] >= 0:
                        back[g].setdefault(q, []).append((1 << p, 1 << p))
        for g in range(4):
            for q, rows in back[g].items():
                self.moves_back[g][q] = tuple(rows)
        #: The most quiet moves a piece has from a square (a king's, or a man's steps).
        self.most_moves = max(
            [sum(len(ray) for ray in gen.king_rays[p]) for p in squares]
            + [len(rows) for g in (1, 3) for rows in self.moves_back[g]]
        )

    def counts(self, material: Material) -> tuple[int, int, int, int]:
        """How many placements each group of ``material`` has (with overlaps)."""
        return tuple(  # type: ignore[return-value]
            comb(len(self.squares[g]), material[g]) for g in range(4)
        )

    def size(self, material: Material) -> int:
        """The number of indexes of ``material``'s table: both sides to move."""
        a, b, c, d = self.counts(material)
        return 2 * a * b * c * d

    def index(self, pos: State, counts: tuple[int, int, int, int]) -> int:
        """The index of ``pos`` in the table of its material (``counts``: its groups')."""
        w, b, k, turn = pos[0], pos[1], pos[2], pos[3]
        c = self.comb
        out = 0
        for g, bits in enumerate((w & k, w & ~k, b & k, b & ~k)):
            where = self.where[g]
            r = 0
            j = 1
            while bits:
                low = bits & -bits
                bits ^= low
                r += c[where[low.bit_length() - 1]][j]
                j += 1
            out = out * counts[g] + r
        return out * 2 + turn

    def indexer(self, material: Material) -> Callable[[State], int]:
        """:meth:`index` for the positions of ``material``, by the ranks of the groups'
        placements looked up (each man on a square it may stand on)."""
        r0, r1, r2, r3 = (self.ranks(g, material[g]) for g in range(4))
        _, c1, c2, c3 = self.counts(material)

        def index(pos: State) -> int:
            w, b, k = pos[0], pos[1], pos[2]
            x = ((r0[w & k] * c1 + r1[w & ~k]) * c2 + r2[b & k]) * c3 + r3[b & ~k]
            return (x << 1) + pos[3]

        return index

    def misplaced(self, pos: State) -> bool:
        """Whether a man of ``pos`` stands on its own crowning row (a position set up by
        hand: no table holds it)."""
        k = pos[2]
        return bool(pos[0] & ~k & self.crowning[0] or pos[1] & ~k & self.crowning[1])

    def masks(self, g: int, n: int) -> list[int]:
        """Every placement of ``n`` pieces of group ``g`` as a bitboard, by rank: the
        combinations in colex order (rank r is the r-th sorted by its largest square)."""
        key = (g, n)
        got = self._masks.get(key)
        if got is None:
            allowed = self.squares[g]
            got = []
            for combo in sorted(combinations(range(len(allowed)), n), key=_colex):
                m = 0
                for i in combo:
                    m |= 1 << allowed[i]
                got.append(m)
            self._masks[key] = got
        return got

    def ranks(self, g: int, n: int) -> dict[int, int]:
        """The rank of each placement of ``n`` pieces of group ``g``, by its bitboard."""
        key = (g, n)
        got = self._ranks.get(key)
        if got is None:
            got = self._ranks[key] = {m: r for r, m in enumerate(self.masks(g, n))}
        return got

    def placements(self, material: Material) -> Iterator[tuple[int, int, int, int]]:
        """Every position of ``material`` (no two pieces on a square) with its index:
        (index of White to move, white, black, kings).  The combinations come in rank
        order (colex), so the rank is counted, not computed."""
        counts = self.counts(material)
        wks, wms, bks, bms = (self.masks(g, material[g]) for g in range(4))
        for r0, a in enumerate(wks):
            for r1, m1 in enumerate(wms):
                if a & m1:
                    continue
                w = a | m1
                base1 = (r0 * counts[1] + r1) * counts[2]
                for r2, c in enumerate(bks):
                    if w & c:
                        continue
                    base2 = (base1 + r2) * counts[3]
                    for r3, d in enumerate(bms):
                        if (w | c) & d:
                            continue
                        yield (base2 + r3) * 2, w, c | d, a | c


def _colex(combo: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(reversed(combo))


_LAYOUTS: dict[int, tuple[Variant, Layout]] = {}


def layout(variant: Variant) -> Layout:
    """The variant's layout (made once)."""
    got = _LAYOUTS.get(id(variant))
    if got is None or got[0] is not variant:
        got = _LAYOUTS[id(variant)] = (variant, Layout(variant))
    return got[1]


def backwards_ok(variant: Variant) -> bool:
    """Whether the variant's quiet moves are those of its generator's tables (kings
    along their lines, men by their steps, nothing filtered or added), which the
    backwards build takes back; its captures may be anything."""
    cls = type(variant.generator)
    return (
        cls.moves is MoveGenerator.moves
        and cls.apply is MoveGenerator.apply
        and cls._captures is MoveGenerator._captures
    )


def mirrors(variant: Variant, material: Material) -> bool:
    """Whether the table of ``material`` may be read off that of the colours swapped:
    kings alone, in a generator whose moves are its tables' own (:func:`backwards_ok`).
    Its kings of both colours move and capture by the same tables (their directions are
    side 0's, for both), the side to move only picks which pieces are its own, and the
    rest that depends on the colour is the men's (steps, captures, crowning rows); the
    rules' draws by the material ask the same of either side (the strong one may be
    either).  So swapping the colours of every piece and the side to move keeps every
    move and every value (a test compares both ways in every such variant)."""
    return (
        not material[1] and not material[3] and material[0] != material[2] and backwards_ok(variant)
    )


def table_size(variant: Variant, material: Material) -> int:
    """The number of positions (indexes, both sides to move) of the table of ``material``."""
    return layout(variant).size(material)


def plain(variant: Variant) -> bool:
    """Whether the variant's endings can be tabled at all (see the module's text)."""
    return (
        variant.generator.plain_positions()
        and not variant.modifiers
        and not variant.goals
        and variant.rules.no_moves is NoMoves.LOSES
    )


def covered(variant: Variant, pos: State) -> bool:
    """Whether a table can solve ``pos`` (see the module's text)."""
    if pos[4] is not None or not plain(variant):
        return False
    w, b = pos[0], pos[1]
    if not w or not b or (w | b).bit_count() > MAX_PIECES:
        return False
    if layout(variant).misplaced(pos):
        return False
    material = material_of(pos)
    if on_demand(variant, material):
        return True
    # a big table: only one made ahead of time (in memory, a file in the cache, or
    # shipped in the package)
    if not made_ahead(variant, material):
        return False
    if (variant.id, material) in _TABLES:
        return True
    path = _cache_path(variant, material)
    return (path.is_file() and not path.is_symlink()) or is_shipped(variant, material)


def on_demand(variant: Variant, material: Material) -> bool:
    """Whether the table of ``material`` may be made when it is needed: at most
    :data:`MAX_MIXED` pieces and :data:`MAX_POSITIONS` positions."""
    return sum(material) <= MAX_MIXED and table_size(variant, material) <= MAX_POSITIONS


def made_ahead(variant: Variant, material: Material) -> bool:
    """Whether ``material``'s table is one that only ``shashki endings build`` makes (or
    the package ships), never a game, of at most :data:`MAX_AHEAD` positions: of four
    pieces beyond :data:`MAX_POSITIONS` (those with men of the boards of 64 squares and
    of the 12x12 board, which a crowning leads into anyway), or of five kings alone
    (``--pieces 5``)."""
    pieces = sum(material)
    if pieces > MAX_PIECES or table_size(variant, material) > MAX_AHEAD:
        return False
    if pieces <= MAX_MIXED:
        return table_size(variant, material) > MAX_POSITIONS
    return not material[1] and not material[3]


class EndingTable:
    """Every position of one material, solved.

    :meth:`value` gives, for the side to move, ``+d`` (it wins in ``d`` plies), ``-d``
    with ``d`` >= 1 (it loses after ``d - 1`` plies: -1 is a position without a move)
    or 0 (a draw with best play).
    """

    def __init__(
        self,
        variant: Variant,
        material: Material,
        smaller: Callable[[State], int],
        progress: Callable[[int, int], None] | None = None,
        *,
        values: bytes | None = None,
    ) -> None:
        self.variant = variant
        self.material = material
        self.layout = layout(variant)
        self.counts = self.layout.counts(material)
        size = self.layout.size(material)
        # (``values``: read and checked by the caller)
        cached = values if values is not None else _load(variant, material)
        if cached is None:
            if getattr(_LOCAL, "no_build", False):
                raise Cancelled  # (the caller has no time to wait for a build)
            cached = self._mirror()
            if cached is None:
                cached = self._build(size, smaller, progress)
            _save(variant, material, cached)
        self._values = cached
        self._index = self.layout.indexer(material)

    def cache_path(self) -> Path:
        """Where the table is kept between runs: the cache folder, one file per variant's
        rules and material."""
        return _cache_path(self.variant, self.material)

    def value(self, pos: State) -> int:
        v = self._values[self._index(pos)]
        return v - 256 if v > 127 else v

    def _mirror(self) -> bytes | None:
        """The table read off that of the colours swapped, when it is made and
        :func:`mirrors` allows it (else None): the value of White's ``a`` kings against
        Black's ``b`` with one side to move is that of White's ``b`` against Black's ``a``
        on the same squares with the other side to move.  The ranks of a placement of
        kings are the same for both colours (both stand on every square), so the index
        ``(rank of White's kings * C(n, b) + rank of Black's) * 2 + turn`` of one table is
        ``(rank of Black's * C(n, a) + rank of White's) * 2 + 1 - turn`` of the other: a
        transposition, rows of bytes copied with strides."""
        material = self.material
        if not mirrors(self.variant, material):
            return None
        other = _swapped(material)
        made = _TABLES.get((self.variant.id, other))
        if made is not None and made.variant is self.variant:
            values: bytes | None = made._values
        else:
            values = _load(self.variant, other)
        if values is None:
            return None
        return _transposed(self.variant, material, values)

    def _build(
        self,
        size: int,
        smaller: Callable[[State], int],
        progress: Callable[[int, int], None] | None,
    ) -> bytes:
        """The value of every position (retrograde analysis), one byte each: backwards
        through the quiet moves (:meth:`_build_backwards`) where the generator's quiet
        moves are its tables' own, else forwards through every move
        (:meth:`_build_forwards`).  Both make the same table."""
        if backwards_ok(self.variant):
            return self._build_backwards(size, smaller, progress)
        return self._build_forwards(size, smaller, progress)

    def _build_backwards(
        self,
        size: int,
        smaller: Callable[[State], int],
        progress: Callable[[int, int], None] | None,
    ) -> bytes:
        """The retrograde analysis with the moves generated once a position and taken
        back where a position is solved.

        First every position's moves are listed once (:meth:`_judge_moves`): a position
        without a move is lost; a capture or a crowning leads out of the table, into one
        solved first, and is judged at once; the other moves (the quiet ones that stay in
        the material) are only counted.  Then the positions are solved in the order of
        their distance to the end (:meth:`_take_back`): when one is solved, its
        predecessors are found by taking a quiet move back (a king's move from each
        square its lines reach through empty squares, a man's step from behind: the
        generator's own tables read the other way), index arithmetic on the placement's
        ranks; a predecessor of a lost position is won one ply later, and one whose moves
        all lead to won positions is lost.  A position none of whose quiet moves is legal
        (it must capture) has no predecessor in the table, nor does a position the rules
        declare drawn.
        """
        lay = self.layout
        # the quiet moves not yet seen won: a byte each where a position cannot have
        # more than 255 (five kings of the 10x10 board: at most 85)
        work = _Retrograde(
            size,
            bytearray(size)
            if sum(self.material) * lay.most_moves < 256
            else array("H", bytes(2 * size)),
        )
        self._judge_moves(work, smaller, progress)
        values = self._take_back(work, progress)
        del work  # (the memory, before the copy)
        return bytes(values)

    def _judge_moves(
        self,
        work: _Retrograde,
        smaller: Callable[[State], int],
        progress: Callable[[int, int], None] | None,
    ) -> None:
        """The backwards build's first pass: every position's moves listed once, the
        quiet ones that stay in the table counted (``remaining``), those out of it
        judged by the smaller tables (:meth:`_moves_out`); the positions lost at once
        and those won by a move out are queued by their distance."""
        gen = self.variant.generator
        moves_of = gen.moves
        lay = self.layout
        mandatory = gen.mandatory
        crowns = lay.crowning_steps
        cancelled: Callable[[], bool] | None = getattr(_LOCAL, "cancelled", None)
        ends = EndRules(self.variant)
        drawn = ends.draw_rule if ends.material_rules else None
        remaining, worst, state = work.remaining, work.worst, work.state
        wins, losses = work.wins, work.losses
        push = work.push
        out: dict[Material, Callable[[State], int]] = {}  # the tables moves lead into
        seen = 0
        total = work.size // 2
        for base, w, b, k in lay.placements(self.material):
            seen += 1
            if not seen & 1023:
                if cancelled is not None and cancelled():
                    raise Cancelled
                if progress is not None:
                    progress(seen, 2 * total)
            for turn in (0, 1):
                i = base + turn
                pos: State = (w, b, k, turn, None)
                moves = moves_of(pos)
                if not moves:
                    push(losses, 0, i)
                    continue
                if drawn is not None and drawn(pos, 0, 0, ()) is not None:
                    continue  # never solved: a draw for every position that leads here
                own = b if turn else w
                if mandatory and not moves[0][4] and not (own & ~k & crowns[turn]):
                    # quiet moves only (the captures are compulsory), none crowns
                    remaining[i] = len(moves)
                    continue
                inside, quickest, escape, longest = self._moves_out(pos, moves, smaller, out)
                remaining[i] = inside
                worst[i] = longest
                if quickest:
                    push(wins, quickest, i)
                if escape:
                    state[i] = _ESCAPE
                elif not inside:
                    push(losses, longest, i)

    def _moves_out(
        self,
        pos: State,
        moves: list[FastMove],
        smaller: Callable[[State], int],
        out: dict[Material, Callable[[State], int]],
    ) -> tuple[int, int, bool, int]:
        """A position's moves judged for the backwards build: how many stay in the
        table (quiet, not crowning), the quickest win out of it (plies, 0 for none),
        whether a move out does not lose, and the longest loss out of it (plies).
        ``out`` keeps the value functions of the tables the moves led into."""
        apply = self.variant.generator.apply
        variant = self.variant
        vid = variant.id
        k = pos[2]
        row = self.layout.crowning[pos[3]]
        inside = 0
        quickest = 0  # the quickest win out of the table
        escape = False
        longest = 0
        for mv in moves:
            if not mv[4] and not (mv[3] & row and mv[2] & ~k):
                inside += 1  # a quiet move that does not crown: the same material
                continue
            child = apply(pos, mv)
            there = material_of(child)
            # the child's side to move: + wins, - loses, 0 draws
            valued = out.get(there)
            if valued is not None:
                v = valued(child)
            else:
                v = smaller(child)
                made = _TABLES.get((vid, there))  # (what ``smaller`` made or read)
                if made is not None and made.variant is variant:
                    out[there] = made.value
            if v < 0:
                if not quickest or -v < quickest:
                    quickest = -v
                escape = True
            elif v > 0:
                if v + 1 > longest:
                    longest = v + 1
            else:
                escape = True
        return inside, quickest, escape, longest

    def _take_back(
        self, work: _Retrograde, progress: Callable[[int, int], None] | None
    ) -> bytearray:
        """The backwards build's second pass: the queued positions solved by distance,
        the lost before the won at each (:meth:`_solve_batch`)."""
        lay = self.layout
        mine = self.material
        # what taking a move back needs: each group's placements by rank and ranks by
        # placement, the moves back from each square
        masks = [lay.masks(g, mine[g]) for g in range(4)]
        ranks = [lay.ranks(g, mine[g]) for g in range(4)]
        wins, losses = work.wins, work.losses
        total = work.size // 2
        values = bytearray(work.size)
        solved = 0
        d = 0
        while wins or losses:
            for won in (False, True):
                batch = (wins if won else losses).pop(d, None)
                if not batch:
                    continue
                solved = self._solve_batch(
                    work, values, batch, won, d, solved, masks, ranks, progress
                )
            d += 1
        if progress is not None:
            progress(2 * total, 2 * total)
        return values

    def _solve_batch(
        self,
        work: _Retrograde,
        values: bytearray,
        batch: array[int],
        won: bool,
        d: int,
        solved: int,
        masks: list[list[int]],
        ranks: list[dict[int, int]],
        progress: Callable[[int, int], None] | None,
    ) -> int:
        """The positions queued at distance ``d``, won or lost, solved (the count of
        those solved so far returned), and each one's predecessors found by taking a
        quiet move back (index arithmetic on the ranks of each group's placements): a
        predecessor of a lost position is won one ply later, one whose last open move
        led to a won position is lost."""
        cancelled: Callable[[], bool] | None = getattr(_LOCAL, "cancelled", None)
        remaining, worst, state = work.remaining, work.worst, work.state
        wins, losses = work.wins, work.losses
        push, kind = work.push, work.kind
        total = work.size // 2
        back = self.layout.moves_back
        counts = self.counts
        c1, c2, c3 = counts[1], counts[2], counts[3]
        # where the group's rank counts in the index
        stride = (2 * c1 * c2 * c3, 2 * c2 * c3, 2 * c3, 2)
        groups_of = ((2, 3), (0, 1))  # the groups of the side that moved last, by turn
        m0s, m1s, m2s, m3s = masks
        if won:
            value = min(127, d)
        else:
            value = max(-128, -(d + 1)) & 255
        nxt = d + 1
        queued: array[int] | None = None
        for i in batch:
            if state[i] & _SOLVED:
                continue
            state[i] |= _SOLVED
            values[i] = value
            solved += 1
            if not solved & 4095:
                if cancelled is not None and cancelled():
                    raise Cancelled
                if progress is not None:
                    progress(min(2 * total - 1, total + solved // 2), 2 * total)
            turn = i & 1
            x = i >> 1
            x, r3 = divmod(x, c3)
            x, r2 = divmod(x, c2)
            r0, r1 = divmod(x, c1)
            rs = (r0, r1, r2, r3)
            ms = (m0s[r0], m1s[r1], m2s[r2], m3s[r3])
            occ = ms[0] | ms[1] | ms[2] | ms[3]
            flipped = i ^ 1  # the other side to move
            for g in groups_of[turn]:
                gm = ms[g]
                if not gm:
                    continue
                rank_of = ranks[g]
                moves_back = back[g]
                sg = stride[g]
                start = flipped - rs[g] * sg
                bits = gm
                while bits:
                    low = bits & -bits
                    bits ^= low
                    rest = gm ^ low
                    for need, from_bit in moves_back[low.bit_length() - 1]:
                        if occ & need:
                            continue
                        q = start + rank_of[rest | from_bit] * sg
                        if not remaining[q]:
                            continue  # no legal quiet move, or no longer open
                        if won:
                            if state[q]:
                                continue
                            left = remaining[q] - 1
                            remaining[q] = left
                            if not left:
                                push(losses, max(worst[q], nxt), q)
                        elif not state[q] & (_SOLVED | _QUEUED):
                            state[q] |= _QUEUED
                            if queued is None:
                                queued = wins.get(nxt)
                                if queued is None:
                                    queued = wins[nxt] = array(kind)
                            queued.append(q)
        return solved

    def _build_forwards(
        self,
        size: int,
        smaller: Callable[[State], int],
        progress: Callable[[int, int], None] | None,
    ) -> bytes:
        """The value of every position (retrograde analysis), one byte each, the
        straightforward way: every move of every position made once and its child
        indexed, the predecessors kept in a dictionary (for a generator whose quiet
        moves cannot be taken back from its tables; and the reference of the tests):
        :meth:`_forwards_moves`, then :meth:`_forwards_solve`."""
        work = _Forwards()
        self._forwards_moves(size, work, smaller, progress)
        return self._forwards_solve(size, work)

    def _forwards_moves(
        self,
        size: int,
        work: _Forwards,
        smaller: Callable[[State], int],
        progress: Callable[[int, int], None] | None,
    ) -> None:
        """The forwards build's first pass: every move of every position made, a quiet
        one that stays in the material kept as a predecessor of its child, one out of
        the table judged by the smaller tables; the positions lost at once and those
        won by a move out queued by their distance."""
        gen = self.variant.generator
        moves_of = gen.moves
        apply = gen.apply
        lay = self.layout
        counts = self.counts
        index = lay.index
        mine = self.material
        preds, remaining, worst, escape = work.preds, work.remaining, work.worst, work.escape
        push = work.push
        cancelled: Callable[[], bool] | None = getattr(_LOCAL, "cancelled", None)
        # draws the rules declare by the material alone (two kings against one in the
        # traditional game, say): such a position ends the game, whatever could follow
        ends = EndRules(self.variant)
        drawn = ends.draw_rule if ends.material_rules else None
        seen = 0
        total = size // 2
        for base, w, b, k in lay.placements(mine):
            seen += 1
            if not seen & 1023:
                if cancelled is not None and cancelled():
                    raise Cancelled
                if progress is not None:
                    progress(seen, total)
            for turn in (0, 1):
                i = base + turn
                pos: State = (w, b, k, turn, None)
                moves = moves_of(pos)
                if not moves:
                    push(0, i, False)
                    continue
                if drawn is not None and drawn(pos, 0, 0, ()) is not None:
                    continue  # never solved: a draw for every position that leads here
                inside = 0
                for mv in moves:
                    child = apply(pos, mv)
                    if not mv[4] and material_of(child) == mine:
                        preds.setdefault(index(child, counts), []).append(i)
                        inside += 1
                        continue
                    v = smaller(child)  # the child's side to move: + wins, - loses, 0 draws
                    if v < 0:
                        push(-v, i, True)  # a loss after -v - 1 plies: we win in -v
                        escape.add(i)
                    elif v > 0:
                        if v + 1 > worst.get(i, 0):
                            worst[i] = v + 1
                    else:
                        escape.add(i)
                remaining[i] = inside
                if not inside and i not in escape:
                    push(worst.get(i, 0), i, False)
        if progress is not None:
            progress(total, total)

    @staticmethod
    def _forwards_solve(size: int, work: _Forwards) -> bytes:
        """The forwards build's second pass: the queued positions solved by distance,
        each one's predecessors won one ply later (after a loss) or, when their last
        open move led to a win, lost."""
        preds, remaining, worst, escape = work.preds, work.remaining, work.worst, work.escape
        buckets, push = work.buckets, work.push
        values = bytearray(size)
        solved: set[int] = set()
        d = 0
        while buckets:
            batch = buckets.pop(d, None)
            d += 1
            if not batch:
                continue
            for i, win in batch:
                if i in solved:
                    continue
                solved.add(i)
                dist = d - 1
                v = dist if win else -(dist + 1)
                values[i] = max(-128, min(127, v)) & 255
                for q in preds.get(i, ()):
                    if q in solved:
                        continue
                    if not win:
                        push(dist + 1, q, True)
                    else:
                        remaining[q] -= 1
                        if dist + 1 > worst.get(q, 0):
                            worst[q] = dist + 1
                        if not remaining[q] and q not in escape:
                            push(worst[q], q, False)
        return bytes(values)


class _Retrograde:
    """What the backwards build keeps between its passes, one entry a position: the
    quiet moves not yet seen won (``remaining``), the longest loss out of the table
    (``worst``, plies, at most 128), the state (_SOLVED, _QUEUED: a win found,
    _ESCAPE), and the positions to solve by distance, won and lost."""

    def __init__(self, size: int, remaining: bytearray | array[int]) -> None:
        self.size = size
        self.remaining = remaining
        self.worst = bytearray(size)
        self.state = bytearray(size)
        self.wins: dict[int, array[int]] = {}
        self.losses: dict[int, array[int]] = {}
        self.kind = "i" if size < 1 << 31 else "q"  # (an index fits four bytes)

    def push(self, bucket: dict[int, array[int]], d: int, i: int) -> None:
        got = bucket.get(d)
        if got is None:
            got = bucket[d] = array(self.kind)
        got.append(i)


class _Forwards:
    """What the forwards build keeps between its passes: each position's predecessors
    in the table, its moves not yet seen won, the longest loss found so far (plies),
    the positions with a move out of the table that does not lose, and the positions
    to solve by distance (won or lost)."""

    def __init__(self) -> None:
        self.preds: dict[int, list[int]] = {}
        self.remaining: dict[int, int] = {}
        self.worst: dict[int, int] = {}
        self.escape: set[int] = set()
        self.buckets: dict[int, list[tuple[int, bool]]] = {}

    def push(self, d: int, i: int, win: bool) -> None:
        self.buckets.setdefault(d, []).append((i, win))


def _swapped(material: Material) -> Material:
    """The material with the colours swapped."""
    return (material[2], material[3], material[0], material[1])


def _transposed(variant: Variant, material: Material, values: bytes) -> bytes:
    """The table of ``material`` (kings alone) read off ``values``, the table of the
    colours swapped (see :meth:`EndingTable._mirror`)."""
    counts = layout(variant).counts(material)
    a, b = counts[0], counts[2]  # C(n, white kings), C(n, black kings)
    out = bytearray(len(values))
    for rank in range(b):  # black's kings here: white's in the other table
        row = values[rank * 2 * a : (rank + 1) * 2 * a]
        out[rank * 2 :: 2 * b] = row[1::2]  # White to move here: Black there
        out[rank * 2 + 1 :: 2 * b] = row[0::2]
    return bytes(out)


def _rules_digest(v: Variant) -> str:
    """A digest of what a table of ``v`` depends on: its rules and its board."""
    return hashlib.sha256(
        repr((FORMAT, v.id, v.rules, v.board.width, v.board.height, v.board.squares)).encode()
    ).hexdigest()[:12]


def _cache_path(v: Variant, material: Material) -> Path:
    """The cache file of the table of ``material`` in ``v``."""
    # the id is checked when a variant is read; checked again here, so that no id
    # can make a path that leaves the cache folder (the digest tells ids apart)
    name = v.id if is_valid_id(v.id) else "variant"
    return cache_dir() / f"{name}-{_material_name(material)}-{_rules_digest(v)}.bin"


def _material_name(material: Material) -> str:
    """``3k0m-1k0m``: a material in a file's name and header."""
    wk, wm, bk, bm = material
    return f"{wk}k{wm}m-{bk}k{bm}m"


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/shashki/endings, or ~/.cache/shashki/endings."""
    return user_folder("cache") / "endings"


def _header(v: Variant, material: Material) -> bytes:
    """The first line of a table's file: what it is, of which rules, of which material
    and how many positions — a file of another material (or of other rules) is never
    read as this one, whatever its name."""
    return (
        f"shashki ending table {FORMAT} {_rules_digest(v)} {_material_name(material)} "
        f"{table_size(v, material)}\n"
    ).encode()


def _load(v: Variant, material: Material) -> bytes | None:
    """A cached table's values, or None when there is none, when it is damaged (the
    wrong length, a checksum that does not match: the table is then made again), of
    another material or other rules (its header), or when someone else could have put
    it there or changed it (another user's file, or a file or a folder on the way to it
    that others may write: :func:`~shashki.base.ownfiles.trust_refusal`)."""
    path = _cache_path(v, material)
    if trust_refusal(path) is not None:
        return shipped_values(v, material)
    count = table_size(v, material)
    try:  # never through a link, nor more than a table's size (a link to /dev/zero)
        data = read_limited(path, len(_header(v, material)) + count + _DIGEST, follow=False)
    except OSError:
        return shipped_values(v, material)
    values = _checked(v, material, data)
    return values if values is not None else shipped_values(v, material)


def _checked(v: Variant, material: Material, data: bytes) -> bytes | None:
    """The values of a table's file (its header, its values, its checksum), or None when
    it is of other rules or another material, the wrong length, or damaged."""
    header = _header(v, material)
    count = table_size(v, material)
    if len(data) != len(header) + count + _DIGEST or not data.startswith(header):
        return None
    body, digest = data[: len(header) + count], data[len(header) + count :]
    if hashlib.sha256(body).digest() != digest:
        return None
    return body[len(header) :]


#: The folder of the tables shipped in the package (``tools/make_tables.py``), found
#: through the package: this module's own file is in the cache folder when it runs
#: compiled (:mod:`shashki.native`), and no table is there.
SHIPPED = Path(str(sys.modules[__name__.rpartition(".")[0]].__file__)).resolve().parent / "tables"


def shipped_name(v: Variant, material: Material) -> str:
    """The file of the shipped table of ``material`` in ``v``."""
    name = v.id if is_valid_id(v.id) else "variant"
    return f"{name}-{_material_name(material)}.xz"


def shipped_half_name(v: Variant, material: Material) -> str:
    """The file of the shipped table of ``material`` in ``v`` that holds only its
    positions with White to move (:func:`shipped_forms`)."""
    name = v.id if is_valid_id(v.id) else "variant"
    return f"{name}-{_material_name(material)}.white.xz"


def shipped_same_name(v: Variant, material: Material) -> str:
    """The file naming the game whose shipped table of ``material`` is also ``v``'s
    (:func:`shipped_same_form`)."""
    name = v.id if is_valid_id(v.id) else "variant"
    return f"{name}-{_material_name(material)}.same"


def shipped_values(v: Variant, material: Material) -> bytes | None:
    """The values of the table of ``material`` shipped in the package, or None: not
    shipped, of other rules (its header names them), or damaged (its checksum).  The
    file is decompressed to a table's size at most.  A table is shipped whole, or (of
    kings alone) as the table of the colours swapped, or as its positions with White
    to move: those with Black to move are then read off the White-to-move positions of
    the colours swapped on the board turned half round (:func:`_turned`), and the whole
    checked against the checksum its file names; or as a line naming another game whose
    table of the material is the same, and the checksum of its values (the games whose
    rules differ only where these pieces never meet it)."""
    return _shipped(v, material, frozenset())


def _shipped(v: Variant, material: Material, seen: frozenset[tuple[str, Material]]) -> bytes | None:
    """:func:`shipped_values`, ``seen`` the tables on the way (files that name each
    other round in a ring are not read)."""
    key = (v.id, material)
    if key in seen:
        return None
    seen = seen | {key}
    path = SHIPPED / shipped_name(v, material)
    if path.is_file():
        return _read_shipped(v, material, path)
    swapped = _swapped(material)
    path = SHIPPED / shipped_same_name(v, material)
    if path.is_file():
        return _read_same(v, material, path, seen)
    if mirrors(v, material):
        other = _shipped(v, swapped, seen)  # (kings alone: read off it)
        return None if other is None else _transposed(v, material, other)
    path = SHIPPED / shipped_half_name(v, material)
    if not path.is_file():
        return None
    half = _read_half(v, material, path)
    if half is None:
        return None
    plane, whole = half
    theirs = plane if swapped == material else _white_plane(v, swapped, seen)
    if theirs is None:
        return None
    values = bytearray(2 * len(plane))
    values[0::2] = plane
    turned = _turned(v, material, theirs)
    if turned is None or len(turned) != len(plane):
        _unusable(path)
        return None
    values[1::2] = turned
    if hashlib.sha256(values).digest() != whole:
        _unusable(path)  # (the board turned round does not give this table)
        return None
    return bytes(values)


def _same_header(v: Variant, material: Material) -> bytes:
    """The start of a file naming the game whose table is also ``v``'s: a table's first
    line (:func:`_header`) without its end, and ``same-as``."""
    return _header(v, material)[:-1] + b" same-as "


def _read_same(
    v: Variant, material: Material, path: Path, seen: frozenset[tuple[str, Material]]
) -> bytes | None:
    """The table of ``material`` read off the other game's that ``path`` names, if its
    values have the checksum ``path`` gives (else None, said once)."""
    from ..rules.variant_registry import find_variant

    start = _same_header(v, material)
    try:
        data = read_limited(path, len(start) + 200, follow=False)
    except OSError:
        data = b""
    values = None
    if data.startswith(start) and data.endswith(b"\n"):
        words = data[len(start) : -1].decode("ascii", "replace").split(" ")
        if len(words) == 2 and is_valid_id(words[0]) and words[0] != v.id:
            try:
                other: Variant | None = find_variant(words[0])
            except Exception:  # (no such game: the file is not used)
                other = None
            if other is not None and (other.board.width, other.board.height) == (
                v.board.width,
                v.board.height,
            ):
                values = _shipped(other, material, seen)
            if values is not None and hashlib.sha256(values).hexdigest() != words[1]:
                values = None
    if values is None:
        _unusable(path)
    return values


def shipped_same_form(v: Variant, material: Material, other: Variant, values: bytes) -> bytes:
    """The content of the file that ships the table of ``material`` (``values``) as
    ``other``'s, whose shipped table is the same (the caller compared them)."""
    return _same_header(v, material) + f"{other.id} {hashlib.sha256(values).hexdigest()}\n".encode()


def _read_shipped(v: Variant, material: Material, path: Path) -> bytes | None:
    """The values of a whole table shipped in ``path`` (checked), or None (said once)."""
    most = len(_header(v, material)) + table_size(v, material) + _DIGEST
    try:
        packed = read_limited(path, most + 1024 * 1024, follow=False)
        values = _checked(
            v, material, lzma.LZMADecompressor().decompress(packed, max_length=most + 1)
        )
    except (OSError, lzma.LZMAError):
        values = None
    if values is None:
        _unusable(path)
    return values


def _half_header(v: Variant, material: Material, whole: bytes) -> bytes:
    """The first line of a shipped table of White-to-move positions: as a table's
    (:func:`_header`), and the checksum of the whole table they are read back into."""
    return _header(v, material)[:-1] + f" white-to-move {whole.hex()}\n".encode()


def _read_half(v: Variant, material: Material, path: Path) -> tuple[bytes, bytes] | None:
    """The White-to-move positions shipped in ``path`` and the checksum of the whole
    table, checked (the header, the length, the file's own checksum), or None (said
    once)."""
    count = table_size(v, material) // 2
    size = len(_half_header(v, material, bytes(32))) + count + _DIGEST
    try:
        packed = read_limited(path, size + 1024 * 1024, follow=False)
        data = lzma.LZMADecompressor().decompress(packed, max_length=size + 1)
    except (OSError, lzma.LZMAError):
        data = b""
    start = _header(v, material)[:-1] + b" white-to-move "
    got = None
    if len(data) == size and data.startswith(start):
        line = data.index(b"\n") + 1
        body = data[: size - _DIGEST]
        try:
            whole = bytes.fromhex(data[len(start) : line - 1].decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            whole = b""
        if (
            len(whole) == 32
            and line == size - count - _DIGEST
            and hashlib.sha256(body).digest() == data[size - _DIGEST :]
        ):
            got = body[line:], whole
    if got is None:
        _unusable(path)
    return got


def _white_plane(
    v: Variant, material: Material, seen: frozenset[tuple[str, Material]]
) -> bytes | None:
    """The positions with White to move of the table of ``material`` as shipped: a
    whole table's every other value, or a file of them alone, or those of the table
    read whole (None: none, or damaged)."""
    path = SHIPPED / shipped_name(v, material)
    if path.is_file():
        values = _read_shipped(v, material, path)
        return None if values is None else values[0::2]
    path = SHIPPED / shipped_half_name(v, material)
    if path.is_file():
        half = _read_half(v, material, path)
        return None if half is None else half[0]
    values = _shipped(v, material, seen)
    return None if values is None else values[0::2]


def _turn_round(variant: Variant) -> dict[int, int] | None:
    """The square each square of the board comes to when the board is turned half round
    (None: the playing squares do not come onto playing squares)."""
    board = variant.board
    out: dict[int, int] = {}
    try:
        for p in board.squares:
            out[p] = board.at(
                board.width - 1 - board.file_of[p], board.height - 1 - board.rank_of[p]
            )
    except ValueError:
        return None
    return out


def _turned(v: Variant, material: Material, theirs: bytes) -> bytes | None:
    """The positions with Black to move of the table of ``material``, read off
    ``theirs``, the positions with White to move of the table of the colours swapped:
    each one's value is that of its position with the colours swapped on the board
    turned half round, White to move (where the rules are the same for both sides,
    which the tables shipped so are checked for).  A placement of a group turned round
    is one of the other colour's group, so the index ``((r0 * c1 + r1) * c2 + r2) * c3
    + r3`` here is ``((R(r2) * c3 + R(r3)) * c0 + R(r0)) * c1 + R(r1)`` there, each
    ``R`` a renumbering of one group's ranks: each axis renumbered, then the two
    halves transposed, by slices of bytes (None: a placement turned round is of no
    group, the board is not the same turned round)."""
    lay = layout(v)
    turn = _turn_round(v)
    if turn is None:
        return None
    other = _swapped(material)
    c = lay.counts(material)

    def turned(bits: int) -> int:
        out = 0
        while bits:
            low = bits & -bits
            bits ^= low
            out |= 1 << turn[low.bit_length() - 1]
        return out

    # the axes of ``theirs``: Black's kings and men here (their White's), then White's
    perms = []
    for g in (2, 3, 0, 1):
        ranks = lay.ranks((g + 2) % 4, other[(g + 2) % 4])
        try:
            perms.append([ranks[turned(m)] for m in lay.masks(g, material[g])])
        except KeyError:
            return None
    data = _renumbered(theirs, (c[2], c[3], c[0], c[1]), perms)
    rows, cols = c[2] * c[3], c[0] * c[1]  # (Black's placements, White's) there
    out = bytearray(len(data))
    if rows <= cols:
        for x in range(rows):
            out[x::rows] = data[x * cols : (x + 1) * cols]
    else:
        for y in range(cols):
            out[y * rows : (y + 1) * rows] = data[y::cols]
    return bytes(out)


def _renumbered(data: bytes, dims: tuple[int, ...], perms: list[list[int]]) -> bytes:
    """``data``, an array of ``dims``, with each axis's entries taken in the order of its
    renumbering (entry ``j`` of axis ``a`` from entry ``perms[a][j]``): for each axis,
    blocks or strides copied, whichever takes fewer slices."""
    for axis, perm in enumerate(perms):
        n = dims[axis]
        if perm == list(range(n)):
            continue
        inner = 1
        for d in dims[axis + 1 :]:
            inner *= d
        outer = len(data) // (n * inner)
        out = bytearray(len(data))
        if outer <= inner:
            for i in range(outer):
                base = i * n * inner
                for j, pj in enumerate(perm):
                    start = base + pj * inner
                    out[base + j * inner : base + (j + 1) * inner] = data[start : start + inner]
        else:
            step = n * inner
            for j, pj in enumerate(perm):
                for k in range(inner):
                    out[j * inner + k :: step] = data[pj * inner + k :: step]
        data = bytes(out)
    return data


def shipped_forms(v: Variant, material: Material, values: bytes) -> tuple[str, bytes] | None:
    """What the package ships of the table of ``material`` (``values``, made by the
    builder): the file's name and its content before compression; None when it is
    read off the table of the colours swapped (kings alone, :func:`mirrors`).  The
    positions with White to move alone where those with Black to move are read back
    exactly off the table of the colours swapped (made or read here, and compared),
    else the whole table."""
    other = _swapped(material)
    if mirrors(v, material):
        return None if other < material else _form_whole(v, material, values)
    theirs = values if other == material else _table(v, other)._values
    if _turned(v, material, theirs[0::2]) == values[1::2]:
        whole = hashlib.sha256(values).digest()
        body = _half_header(v, material, whole) + values[0::2]
        return shipped_half_name(v, material), body + hashlib.sha256(body).digest()
    return _form_whole(v, material, values)


def _form_whole(v: Variant, material: Material, values: bytes) -> tuple[str, bytes]:
    body = _header(v, material) + values
    return shipped_name(v, material), body + hashlib.sha256(body).digest()


#: The shipped tables found damaged or of other rules in this process (each said once).
_UNUSABLE: set[str] = set()
#: What was said of them and not yet shown (:func:`unusable_said`).
_UNSHOWN: list[str] = []


def _unusable(path: Path) -> None:
    """Say once, in one line, that a shipped table cannot be used (its endings are then
    made or searched as without it): to the log, and to :func:`unusable_said` for a front
    end to show."""
    if path.name in _UNUSABLE:
        return
    _UNUSABLE.add(path.name)
    from ..i18n import _

    message = _(
        "the ending table {file} that came with shashki is damaged or of other rules: "
        "not used (its endings are made in the cache or searched; reinstalling shashki "
        "brings it back)"
    ).format(file=path.name)
    package_logger(__name__).warning("%s", message)
    _UNSHOWN.append(message)
    for listener in list(_LISTENERS):
        listener(message)


#: The front ends told at once of a shipped table found unusable (:func:`listen`).
_LISTENERS: list[Callable[[str], None]] = []


def listen(listener: Callable[[str], None]) -> Callable[[], None]:
    """Have ``listener(line)`` called with each line said of a shipped table found
    unusable, from the thread that found it (a search's, a game's): it must only hand
    the line on (the app posts it to itself); the function returned stops it."""
    _LISTENERS.append(listener)

    def stop() -> None:
        if listener in _LISTENERS:
            _LISTENERS.remove(listener)

    return stop


def unusable_said() -> list[str]:
    """The lines said of shipped tables found unusable since the last call (each table
    once in a process): a front end shows them."""
    said = _UNSHOWN[:]
    del _UNSHOWN[: len(said)]
    return said


def shipped_size(v: Variant, material: Material) -> int:
    """The size in bytes of the shipped file of ``material`` (or, of kings alone, of the
    colours swapped, which it is read off; or of its White-to-move positions), 0 if
    none."""
    for path in (
        SHIPPED / shipped_name(v, material),
        SHIPPED / shipped_name(v, _swapped(material)),
        SHIPPED / shipped_half_name(v, material),
        SHIPPED / shipped_same_name(v, material),
    ):
        if path.is_file():
            return path.stat().st_size
    return 0


def is_shipped(v: Variant, material: Material) -> bool:
    """Whether the package ships the table of ``material`` (or, of kings alone, that of
    the colours swapped, which it is read off; or its White-to-move positions and
    those of the colours swapped)."""
    if (SHIPPED / shipped_name(v, material)).is_file():
        return True
    if (SHIPPED / shipped_same_name(v, material)).is_file():
        return True
    other = _swapped(material)
    if mirrors(v, material):
        return any(
            (SHIPPED / name(v, other)).is_file() for name in (shipped_name, shipped_same_name)
        )
    return (SHIPPED / shipped_half_name(v, material)).is_file() and any(
        (SHIPPED / name(v, other)).is_file()
        for name in (shipped_name, shipped_half_name, shipped_same_name)
    )


def _save(v: Variant, material: Material, values: bytes) -> None:
    """Keep a table for the next run, with its header and checksum (atomically; a cache
    that cannot be written is only a slower next start)."""
    path = _cache_path(v, material)
    try:
        # the cache folders are shashki's own: real folders of the user's, never links,
        # that no one else may write (a table there is played by); the file is written
        # beside and renamed, never through a link planted there
        own_folder(path.parent, top=path.parent.parent)
        for folder in (path.parent, path.parent.parent):
            mode = stat.S_IMODE(os.lstat(folder).st_mode)
            if mode & 0o022:
                os.chmod(folder, mode & ~0o022)
        body = _header(v, material) + values
        replace_file(path, body + hashlib.sha256(body).digest())
    except (OSError, ValueError):
        pass


_TABLES: dict[tuple[str, Material], EndingTable] = {}
_LOCK = threading.RLock()


def _table(
    variant: Variant, material: Material, progress: Callable[[int, int], None] | None = None
) -> EndingTable:
    """The table of the material, made (or read from the cache) the first time.

    Raises:
        Cancelled: when the calling thread may not build (see :func:`perfect_moves`) and
            the table is neither made nor cached, or another thread is making a table.
    """
    key = (variant.id, material)
    table = _TABLES.get(key)
    if table is not None and table.variant is variant:
        return table
    if getattr(_LOCAL, "no_build", False):
        path = _cache_path(variant, material)
        if (not os.path.isfile(path) or os.path.islink(path)) and not is_shipped(variant, material):
            raise Cancelled
        if not _LOCK.acquire(blocking=False):  # a table is being built: do not wait
            raise Cancelled
    else:
        _LOCK.acquire()
    try:
        table = _TABLES.get(key)
        if table is None or table.variant is not variant:
            table = _TABLES[key] = EndingTable(
                variant, material, lambda pos: probe(variant, pos), progress
            )
        return table
    finally:
        _LOCK.release()


def probe(variant: Variant, pos: State) -> int:
    """The exact value of ``pos`` for the side to move (as :meth:`EndingTable.value`),
    building the tables it needs.  The position must be :func:`covered`, or have a side
    without pieces (which loses)."""
    w, b = pos[0], pos[1]
    if not (w if pos[3] == 0 else b):
        return -1  # the side to move has nothing left: no move
    if not (b if pos[3] == 0 else w):
        return 1  # cannot happen after a legal move; for completeness
    return _table(variant, material_of(pos)).value(pos)


def probe_built(variant: Variant, pos: State) -> int | None:
    """The exact value of ``pos`` when the table of its material is made (for the search,
    at every node with few pieces), else None.  It never builds a table: the first time a
    material is probed its file is read from the cache folder, if it is there and its
    checksum holds (else the material is not looked for again in this process, until
    :func:`probe` or a build makes it)."""
    w, b = pos[0], pos[1]
    if not (w and b):
        return None
    key = (variant.id, material_of(pos))
    table = _TABLES.get(key)
    if table is None or table.variant is not variant:
        table = _read(variant, key)
        if table is None:
            return None
    if table.layout.misplaced(pos):
        return None
    return table.value(pos)


#: The materials whose table is not in the cache folder or is damaged, by variant id and
#: material: the variant (the search does not look for them again).
_ABSENT: dict[tuple[str, Material], Variant] = {}


def _read(variant: Variant, key: tuple[str, Material]) -> EndingTable | None:
    """The table of ``key``'s material read from the cache folder (see
    :func:`probe_built`), or None: not there, damaged, too big to be a table, or another
    thread is making or reading a table (then it is looked for again next time)."""
    if _ABSENT.get(key) is variant:
        return None
    material = key[1]
    if sum(material) > MAX_PIECES or table_size(variant, material) > MAX_AHEAD:
        _ABSENT[key] = variant
        return None
    if not _LOCK.acquire(blocking=False):  # a table is being made: the search goes on
        return None
    try:
        table = _TABLES.get(key)
        if table is not None and table.variant is variant:
            return table
        values = _load(variant, material)
        if values is None:
            _ABSENT[key] = variant
            return None
        table = _TABLES[key] = EndingTable(
            variant, material, lambda pos: probe(variant, pos), values=values
        )
        return table
    finally:
        _LOCK.release()


def is_built(variant: Variant, pos: State) -> bool:
    """Whether the table of ``pos``'s material is ready (probing it costs nothing)."""
    return (variant.id, material_of(pos)) in _TABLES


def materials(variant: Variant, pieces: int) -> list[Material]:
    """Every material of at most ``pieces`` pieces, both sides with a piece, whose table
    is within :data:`MAX_POSITIONS` or made ahead of time (:func:`made_ahead`: of four
    pieces or of five kings, within :data:`MAX_AHEAD`); the smaller first (fewer pieces,
    then fewer men, then fewer positions)."""
    out = []
    for n in range(2, min(pieces, MAX_PIECES) + 1):
        for white in range(1, n):
            black = n - white
            for wk in range(white + 1):
                for bk in range(black + 1):
                    m = (wk, white - wk, bk, black - bk)
                    if on_demand(variant, m) or made_ahead(variant, m):
                        out.append(m)
    out.sort(key=lambda m: (sum(m), m[1] + m[3], table_size(variant, m)))
    return out


def material_text(material: Material) -> str:
    """``2K+1M v 1K``: a material for people."""

    def side(kings: int, men: int) -> str:
        parts = [f"{kings}K"] if kings else []
        if men:
            parts.append(f"{men}M")
        return "+".join(parts)

    return f"{side(*material[:2])} v {side(*material[2:])}"


def cached(variant: Variant, material: Material) -> bool:
    """Whether the table of ``material`` is in memory or, undamaged, in the cache."""
    if (variant.id, material) in _TABLES:
        return True
    return _load(variant, material) is not None


def table_values(variant: Variant, material: Material) -> bytes:
    """The values of the table of ``material``, one byte a position (made, read from
    the cache or from the package the first time)."""
    return _table(variant, material)._values


def cache_file(variant: Variant, material: Material) -> Path:
    """The cache file of the table of ``material``."""
    return _cache_path(variant, material)


def to_make(variant: Variant, material: Material) -> int:
    """How many positions making the table of ``material`` takes: its own and those of
    the tables it may lead into (a side's men fewer, its pieces no more: captures and
    crownings), leaving out the tables in memory or with a file in the cache."""
    wk, wm, bk, bm = material
    total = 0
    for m0 in range(wm + 1):
        for k0 in range(wk + wm - m0 + 1):
            for m1 in range(bm + 1):
                for k1 in range(bk + bm - m1 + 1):
                    if not (k0 + m0 and k1 + m1):
                        continue
                    m = (k0, m0, k1, m1)
                    if (variant.id, m) in _TABLES:
                        continue
                    path = _cache_path(variant, m)
                    if path.is_file() and not path.is_symlink():
                        continue
                    if is_shipped(variant, m):
                        continue
                    total += table_size(variant, m)
    return total


def quick_to_make(variant: Variant, pos: State) -> bool:
    """Whether a game may make the table of ``pos``'s material in a worker (see
    :data:`BUILD_IN_PLAY`)."""
    return to_make(variant, material_of(pos)) <= BUILD_IN_PLAY


def build_in_worker(variant: Variant, pos: State) -> None:
    """Make the table of ``pos``'s material (and those it leads to) in a process of its
    own, then read it from the cache: a build in a thread of the playing process would
    hold the interpreter's lock and slow the search down for the whole build.  Where the
    worker cannot make the same table (a variant read from a file it does not know) or
    cannot start, the table is made here."""
    material = material_of(pos)
    path = _cache_path(variant, material)
    if (variant.id, material) not in _TABLES and not cached(variant, material):
        import multiprocessing

        try:
            ctx = multiprocessing.get_context("spawn")
            proc = ctx.Process(
                target=_worker,
                args=(variant.id, material, path.name),
                daemon=True,
                name=f"shashki ending {material_text(material)}",
            )
            proc.start()
            proc.join()
        except (OSError, RuntimeError, ValueError):
            pass
    probe(variant, pos)  # read from the cache (or, failing that, made here)


def _worker(variant_id: str, material: Material, name: str) -> None:
    """A worker process's build (see :func:`build_in_worker`)."""
    from ..rules.variant_registry import find_variant

    try:
        variant = find_variant(variant_id)
    except Exception:  # (a variant the worker's registry does not have)
        return
    if _cache_path(variant, material).name == name:
        _table(variant, material)


def build_one(
    variant: Variant, material: Material, progress: Callable[[int, int], None] | None = None
) -> None:
    """Make the table of ``material`` (and those it leads to), or read it from the
    cache; ``progress(done, total)`` is called as its positions are looked at."""
    _table(variant, material, progress)


def table_score(value: int) -> int:
    """A table value as a search score (``score_text`` says "win in 23")."""
    if value > 0:
        return WIN - value
    return -WIN - value - 1 if value < 0 else 0


def perfect_moves(
    game: Game, cancelled: Callable[[], bool] | None = None, *, build: bool = True
) -> tuple[int, list[Move]] | None:
    """For a position the tables cover: its value for the side to move and the moves
    that keep it, the quickest to a win or the slowest to a loss (None otherwise, and
    when ``cancelled()`` turns true while a table is being built).

    Building a table takes seconds (three kings against one: about ten).  With ``build``
    False only the tables already made are used, in memory or in the cache folder (None
    when one is missing or another thread is building one): for a move on the clock,
    which cannot wait.
    """
    variant = game.variant
    pos = game_state(game)
    if not covered(variant, pos):
        return None
    _LOCAL.cancelled = cancelled
    _LOCAL.no_build = not build
    try:
        value = probe(variant, pos)
        gen = variant.generator
        best: list[FastMove] = []
        for mv in fast_moves(game):
            child = probe(variant, gen.apply(pos, mv))  # (may need a smaller table)
            if value > 0 and child == -value:
                best.append(mv)
            elif value < 0 and child == -value - 2:
                best.append(mv)
            elif value == 0 and child == 0:
                best.append(mv)
    except Cancelled:
        return None
    finally:
        _LOCAL.cancelled = None
        _LOCAL.no_build = False
    return value, library_moves(game, best)
