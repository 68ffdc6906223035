"""Exact tables for the endings of a few kings: who wins, and in how many plies.

Some endings are won in theory but too deep for the search: three kings against one in
Russian draughts (Petrov's triangle) take up to about thirty plies of exact play, and
the draw rules give the strong side only fifteen moves.  For these the engine plays from
a table instead: every position of the material is solved backwards (retrograde
analysis), from the positions where the side to move has no move, and each gets its
distance to the end in plies.  The winner then always takes the quickest win and the
loser the longest defence, so a won ending is won as fast as the rules allow.

The table is built from the variant's own move generator (nothing here is variant
specific): captures, flying kings, the majority rule and every other rule switch come
from it.  A capture leads into a smaller material, solved first.  It covers the games
whose generator has plain positions (two colours of men and kings moved by the rule
switches alone: its hook ``plain_positions``) without modifiers or goals, where the side
left without a move loses, for positions of kings only with at most :data:`MAX_PIECES`
pieces and at most :data:`MAX_POSITIONS` positions (three kings against one on an 8x8
board: 287,680 positions, built in a few seconds and then kept for the process).

The draws the rules declare by the material alone (two kings against one, or three
against one on the main road, in the traditional game) end the game in the table too.
The counters are left out: a win that needs more plies than a counter leaves is still
played the quickest way, which is the best there is.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from itertools import combinations
from math import comb
from pathlib import Path

from ..rules.endrules import EndRules
from ..rules.game import Game
from ..rules.move import Move
from ..rules.movegen import Position
from ..rules.ownfiles import own_folder, replace_file
from ..rules.switches import NoMoves
from ..rules.userfiles import read_limited, user_folder
from ..rules.variant import Variant, is_valid_id
from .search import WIN

#: The most pieces a table holds.
MAX_PIECES = 4
#: The most positions a table may have (both sides to move counted).
MAX_POSITIONS = 600_000
#: Changes when the tables' layout or meaning does (old cache files are then ignored).
FORMAT = 2

_SHIFT_B = 128
#: The calling thread's cancel test while a table is built (see :func:`perfect_moves`).
_LOCAL = threading.local()


class Cancelled(Exception):
    """A table's construction was stopped by the caller (nothing is kept)."""


_SHIFT_TURN = 256


def _key(w: int, b: int, turn: int) -> int:
    return w | b << _SHIFT_B | turn << _SHIFT_TURN


def table_size(variant: Variant, white: int, black: int) -> int:
    """The number of positions of ``white`` kings against ``black`` kings."""
    n = len(variant.board.squares)
    return 2 * comb(n, white) * comb(n - white, black)


def covered(variant: Variant, pos: Position) -> bool:
    """Whether a kings table can solve ``pos`` (see the module's text)."""
    if not variant.generator.plain_positions() or variant.modifiers or variant.goals:
        return False
    if variant.rules.no_moves is not NoMoves.LOSES or pos[4] is not None:
        return False
    w, b, k = pos[0], pos[1], pos[2]
    if k != w | b or not w or not b:
        return False
    nw, nb = w.bit_count(), b.bit_count()
    return nw + nb <= MAX_PIECES and table_size(variant, nw, nb) <= MAX_POSITIONS


class KingsTable:
    """Every position of ``white`` kings against ``black`` kings, solved.

    :meth:`value` gives, for the side to move, ``+d`` (it wins in ``d`` plies), ``-d``
    with ``d`` >= 1 (it loses after ``d - 1`` plies: -1 is a position without a move)
    or 0 (a draw with best play).
    """

    def __init__(
        self,
        variant: Variant,
        white: int,
        black: int,
        smaller: Callable[[Position], int],
    ) -> None:
        self.variant = variant
        self.white = white
        self.black = black
        self._values: dict[int, int] = {}
        positions = self._positions()
        cached = _load(self.cache_path(), len(positions))
        if cached is None:
            if getattr(_LOCAL, "no_build", False):
                raise Cancelled  # (the caller has no time to wait for a build)
            values = self._build(positions, smaller)
            _save(self.cache_path(), values)
        else:
            values = cached
        self._values = {
            _key(p[0], p[1], p[3]): v for p, v in zip(positions, values, strict=True) if v
        }

    def cache_path(self) -> Path:
        """Where the table is kept between runs: the cache folder, one file per variant's
        rules and material."""
        return _cache_path(self.variant, self.white, self.black)

    def value(self, pos: Position) -> int:
        return self._values.get(_key(pos[0], pos[1], pos[3]), 0)

    def _positions(self) -> list[Position]:
        """Every position of the material, in a fixed order."""
        squares = self.variant.board.squares
        positions: list[Position] = []
        for wsq in combinations(squares, self.white):
            w = 0
            for s in wsq:
                w |= 1 << s
            rest = [s for s in squares if not w >> s & 1]
            for bsq in combinations(rest, self.black):
                b = 0
                for s in bsq:
                    b |= 1 << s
                positions.append((w, b, w | b, 0, None))
                positions.append((w, b, w | b, 1, None))
        return positions

    def _build(self, positions: list[Position], smaller: Callable[[Position], int]) -> list[int]:
        """The value of every position (retrograde analysis)."""
        gen = self.variant.generator
        moves_of = gen.moves
        apply = gen.apply
        nw, nb = self.white, self.black
        index = {_key(p[0], p[1], p[3]): i for i, p in enumerate(positions)}
        n = len(positions)
        preds: list[list[int]] = [[] for _ in range(n)]
        remaining = [0] * n
        worst = [0] * n  # the longest loss found so far (plies), for a losing position
        escape = bytearray(n)  # a move out of the table that does not lose
        buckets: dict[int, list[tuple[int, bool]]] = {}

        def push(d: int, i: int, win: bool) -> None:
            buckets.setdefault(d, []).append((i, win))

        turn_bit = 1 << _SHIFT_TURN
        cancelled: Callable[[], bool] | None = getattr(_LOCAL, "cancelled", None)
        # draws the rules declare by the material alone (two kings against one in the
        # traditional game, say): such a position ends the game, whatever could follow
        ends = EndRules(self.variant)
        drawn = ends.draw_rule if ends.material_rules else None
        for i, pos in enumerate(positions):
            if cancelled is not None and not i & 4095 and cancelled():
                raise Cancelled
            moves = moves_of(pos)
            if not moves:
                push(0, i, False)
                continue
            if drawn is not None and drawn(pos, 0, 0, ()) is not None:
                continue  # never solved: a draw for every position that leads here
            w, b, _, turn, _ = pos
            key = w | b << _SHIFT_B | turn << _SHIFT_TURN
            shift = _SHIFT_B if turn else 0
            inside = 0
            for mv in moves:
                if not mv[4]:  # a king's step or flight: only the mover's bits change
                    preds[index[key ^ ((mv[2] | mv[3]) << shift) ^ turn_bit]].append(i)
                    inside += 1
                    continue
                child = apply(pos, mv)
                cw, cb = child[0], child[1]
                if child[2] == cw | cb and cw.bit_count() == nw and cb.bit_count() == nb:
                    preds[index[_key(cw, cb, child[3])]].append(i)
                    inside += 1
                    continue
                v = smaller(child)  # the child's side to move: + wins, - loses, 0 draws
                if v < 0:
                    push(-v, i, True)  # a loss after -v - 1 plies: we win in -v
                    escape[i] = 1
                elif v > 0:
                    worst[i] = max(worst[i], v + 1)
                else:
                    escape[i] = 1
            remaining[i] = inside
            if not inside and not escape[i]:
                push(worst[i], i, False)

        values = [0] * n
        solved = bytearray(n)
        d = 0
        while buckets:
            batch = buckets.pop(d, None)
            d += 1
            if not batch:
                continue
            for i, win in batch:
                if solved[i]:
                    continue
                solved[i] = 1
                dist = d - 1
                values[i] = dist if win else -(dist + 1)
                for q in preds[i]:
                    if solved[q]:
                        continue
                    if not win:
                        push(dist + 1, q, True)
                    else:
                        remaining[q] -= 1
                        if dist + 1 > worst[q]:
                            worst[q] = dist + 1
                        if not remaining[q] and not escape[q]:
                            push(worst[q], q, False)
        return values


def _cache_path(v: Variant, white: int, black: int) -> Path:
    """The cache file of the table of ``white`` kings against ``black`` in ``v``."""
    digest = hashlib.sha256(
        repr((FORMAT, v.id, v.rules, v.board.width, v.board.height, v.board.squares)).encode()
    ).hexdigest()[:12]
    # the id is checked when a variant is read; checked again here, so that no id
    # can make a path that leaves the cache folder (the digest tells ids apart)
    name = v.id if is_valid_id(v.id) else "variant"
    return cache_dir() / f"{name}-{white}v{black}-{digest}.bin"


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/shashki/endings, or ~/.cache/shashki/endings."""
    return user_folder("cache") / "endings"


def _load(path: Path, count: int) -> list[int] | None:
    """A cached table's values, or None when there is none (or it is damaged)."""
    try:  # never through a link, nor more than a table's size (a link to /dev/zero)
        data = read_limited(path, count, follow=False)
    except OSError:
        return None
    if len(data) != count:
        return None
    return [v - 256 if v > 127 else v for v in data]


def _save(path: Path, values: list[int]) -> None:
    """Keep a table for the next run (atomically; a cache that cannot be written is
    only a slower next start)."""
    if any(not -128 <= v <= 127 for v in values):
        return
    try:
        # the cache folders are shashki's own: real folders of the user's, never links;
        # the file is written beside and renamed, never through a link planted there
        own_folder(path.parent, top=path.parent.parent)
        replace_file(path, bytes(v & 255 for v in values))
    except (OSError, ValueError):
        pass


_TABLES: dict[tuple[str, int, int], KingsTable] = {}
_LOCK = threading.RLock()


def _table(variant: Variant, white: int, black: int) -> KingsTable:
    """The table of the material, made (or read from the cache) the first time.

    Raises:
        Cancelled: when the calling thread may not build (see :func:`perfect_moves`) and
            the table is neither made nor cached, or another thread is making a table.
    """
    key = (variant.id, white, black)
    table = _TABLES.get(key)
    if table is not None and table.variant is variant:
        return table
    if getattr(_LOCAL, "no_build", False):
        if not os.path.isfile(path := _cache_path(variant, white, black)) or os.path.islink(path):
            raise Cancelled
        if not _LOCK.acquire(blocking=False):  # a table is being built: do not wait
            raise Cancelled
    else:
        _LOCK.acquire()
    try:
        table = _TABLES.get(key)
        if table is None or table.variant is not variant:
            table = _TABLES[key] = KingsTable(
                variant, white, black, lambda pos: probe(variant, pos)
            )
        return table
    finally:
        _LOCK.release()


def probe(variant: Variant, pos: Position) -> int:
    """The exact value of ``pos`` for the side to move (as :meth:`KingsTable.value`),
    building the tables it needs.  The position must be :func:`covered`, or have a side
    without pieces (which loses)."""
    w, b = pos[0], pos[1]
    if not (w if pos[3] == 0 else b):
        return -1  # the side to move has nothing left: no move
    if not (b if pos[3] == 0 else w):
        return 1  # cannot happen after a legal move; for completeness
    return _table(variant, w.bit_count(), b.bit_count()).value(pos)


def is_built(variant: Variant, pos: Position) -> bool:
    """Whether the table of ``pos``'s material is ready (probing it costs nothing)."""
    return (variant.id, pos[0].bit_count(), pos[1].bit_count()) in _TABLES


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
    pos = game.position
    if not covered(variant, pos):
        return None
    _LOCAL.cancelled = cancelled
    _LOCAL.no_build = not build
    try:
        value = probe(variant, pos)
        gen = variant.generator
        best: list[Move] = []
        for mv in game.legal_moves():
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
    return value, best
