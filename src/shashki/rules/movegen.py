"""The generic move generator of the diagonal and orthogonal games
(docs/rules/switches.md#switches).

A position is a tuple ``(white, black, kings, turn, extra)``: three bitboards over the
layout of :mod:`~shashki.rules.geometry`, the side to move (0 or 1) and variant state
that the standard games do not use (None).  The generator is compiled once per variant
from its :class:`~shashki.rules.switches.Rules`; its hot loops use only ints, tuples and
precomputed tables.  Variants that data cannot describe subclass it and override the
hooks (``moves``, ``apply`` …), never by testing a variant's name here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple, Protocol

from .. import i18n
from .._compiled import mypyc_attr
from ..base.numbers import quoted
from .geometry import Direction, Geometry, absolute_direction
from .hooks import GeneratorHooks, walk_perft
from .hooks import State as State  # (defined with the hooks; named from here too)
from .interrupt import STEPS, Interrupted, poll
from .move import Color, FastMove, Kind, Piece
from .switches import Irreversible, KingLanding, PromotionInCapture, Removal, Rules

_MOVE_CACHE: dict[int, dict[tuple[int, int], FastMove]] = {}


def quiet_move_table(geo: Geometry) -> dict[tuple[int, int], FastMove]:
    """Every non-capturing move along a line of the board, shared by all variants."""
    table = _MOVE_CACHE.get(id(geo))
    if table is None:
        table = {}
        for d in Direction:
            for p in geo.squares:
                for q in geo.ray[d][p]:
                    table[(p, q)] = FastMove((p, q))
        _MOVE_CACHE[id(geo)] = table
    return table


def capture_value(men: int, kings: int, unit: int) -> int:
    """The value of a capture that takes ``men`` men and ``kings`` kings under the
    ``value`` precedence (docs/rules/switches.md#precedence, Frisian Art. 11): a king worth two men
    less a trifle, ``(men + 2 kings) * unit - kings`` with ``unit`` more than the squares of the
    board, so that k kings are worth less than 2k men and more than 2k - 1."""
    return (men + 2 * kings) * unit - kings


def _directions(geo: Geometry, names: tuple[str, ...], side: int) -> tuple[int, ...]:
    """The directions ``names`` as side ``side`` sees them; ValueError for one the board
    lacks."""
    out = []
    for name in names:
        d = absolute_direction(name, side)
        if geo.shift[d] is None:
            raise ValueError(
                i18n._("direction {name} is not possible on a board of dark squares only").format(
                    name=quoted(name)
                )
            )
        out.append(int(d))
    return tuple(out)


def _shift(geo: Geometry, d: int) -> int:
    """The shift of one step in direction ``d`` (one :func:`_directions` gave)."""
    s = geo.shift[d]
    assert s is not None  # _directions refuses the directions the layout lacks
    return s


def _shifts_up(geo: Geometry, dirs: tuple[int, ...]) -> tuple[int, ...]:
    """The shifts of the directions ``dirs`` that run to higher bits."""
    return tuple(_shift(geo, d) for d in dirs if _shift(geo, d) > 0)


def _shifts_down(geo: Geometry, dirs: tuple[int, ...]) -> tuple[int, ...]:
    """The shifts (made positive) of the directions ``dirs`` that run to lower bits."""
    return tuple(-_shift(geo, d) for d in dirs if _shift(geo, d) < 0)


def _jump_table(
    geo: Geometry, dirs: tuple[int, ...]
) -> list[tuple[tuple[int, int, int, int, int], ...]]:
    """The short jumps from each square in the directions ``dirs``: (direction, victim's
    bit, victim, landing square, landing's bit)."""
    table: list[tuple[tuple[int, int, int, int, int], ...]] = [()] * geo.size
    for p in geo.squares:
        row = []
        for d in dirs:
            v = geo.step[d][p]
            land = geo.step[d][v] if v >= 0 else -1
            if land >= 0:
                row.append((d, 1 << v, v, land, 1 << land))
        table[p] = tuple(row)
    return table


def _check_own_capture_search(rules: Rules) -> None:
    """Refuse the capture rules that a generator with its own capture search (one that
    knows only free choice and the majority rule, men that capture kings, and the king
    landings any and must-continue) does not know: ValueError."""
    if rules.precedence not in ((), ("count",)) or not rules.man_captures_kings:
        raise ValueError(
            i18n._(
                "this generator knows only free choice and the majority rule, with men"
                " that capture kings, not the capture precedence {order}"
                " with man_captures_kings = {flag}"
            ).format(
                order=", ".join(quoted(c) for c in rules.precedence) or "[]",
                flag=str(rules.man_captures_kings).lower(),
            )
        )
    if rules.king_landing not in (KingLanding.ANY, KingLanding.MUST_CONTINUE):
        # docs/rules/switches.md#landing: its own capture search lands anywhere
        raise ValueError(
            i18n._(
                "this generator knows only the king landings any and must-continue,"
                " not king_landing = {value}"
            ).format(value=quoted(rules.king_landing.value))
        )


@mypyc_attr(allow_interpreted_subclasses=True)
class MoveGenerator(GeneratorHooks):
    """Legal moves, move counts and move application for one variant's rules."""

    #: Whether the generator applies any capture precedence (docs/rules/switches.md#precedence); one
    #: with its own capture search that knows only free choice and majority says False.
    general_precedence: ClassVar[bool] = True

    # Built by _compile() from the tables, once per generator.
    _capture_moves: Callable[[int, int, int, int, int], list[FastMove]]
    _moves_of: Callable[[int, int, int, int], list[FastMove]]
    _count_position: Callable[[int, int, int, int], int]
    _can_step: Callable[[int, int, int, int], bool]
    _horizon_of: Callable[[int, int, int, int], tuple[list[FastMove], bool]]
    _fast_perft: Callable[[int, int, int, int, int], int]

    def __init__(self, geo: Geometry, rules: Rules) -> None:
        self.geo = geo
        self.rules = rules
        self.mask = geo.mask
        # Promotion rows: side 0 promotes on the last rank, side 1 on the first.
        self.promo = (
            (geo.rank_mask[geo.height - 1], geo.rank_mask[0]) if rules.promotion else (0, 0)
        )
        self._men_tables()
        self._king_tables()
        self.man_jumps = [
            _jump_table(geo, self.man_cap_dirs[0]),
            _jump_table(geo, self.man_cap_dirs[1]),
        ]
        self.king_jumps = _jump_table(geo, self.king_cap_dirs)
        self.cap_ray = geo.ray
        self.step = geo.step
        self._capture_switches()
        #: What the game object needs to make a move itself, without calling ``apply``:
        #: (promotion row of side 0, of side 1, whether any landing square of a capture
        #: crowns), or None when a subclass has its own ``apply``.
        self.inline_apply: tuple[int, int, bool] | None = (
            (*self.promo, self.promo_continue) if type(self).apply is MoveGenerator.apply else None
        )
        _compile(self)
        cls = type(self)
        #: ``horizon`` may test the captures and the steps separately (no subclass
        #: changes what a move is, and captures are compulsory).
        self._plain_horizon = (
            self.mandatory
            and cls.moves is MoveGenerator.moves
            and cls.captures is MoveGenerator.captures
            and cls._captures is MoveGenerator._captures
        )
        #: A listing of the moves stopped by an :class:`~.interrupt.Interrupted` may carry
        #: the moves found so far, when they are known to be legal: under free choice
        #: every complete capture sequence is a move; under the majority rule, only once
        #: the sequences found take every piece of the opponent (none can take more).
        #: The moves are this class's own.
        self.partial_moves = (
            cls.moves is MoveGenerator.moves and cls._captures is MoveGenerator._captures
        )
        #: What this variant's moves can never undo (see :meth:`irreversibility`): the
        #: repetition rule of the game and of the search looks back only to the last one.
        self.irreversible: Irreversible = self.irreversibility()

    def _men_tables(self) -> None:
        """The men's steps, per side: (shift, the move arriving at each square, keyed by
        the bit of the square: no bit_length() in the loop), split by the sign of the
        shift; and their capture directions and shifts."""
        geo, rules = self.geo, self.rules
        quiet = quiet_move_table(geo)
        self.man_up: list[tuple[tuple[int, dict[int, FastMove]], ...]] = []
        self.man_down: list[tuple[tuple[int, dict[int, FastMove]], ...]] = []
        self.man_cap_dirs: list[tuple[int, ...]] = []
        self.man_cap_up: list[tuple[int, ...]] = []
        self.man_cap_down: list[tuple[int, ...]] = []
        for side in (0, 1):
            up: list[tuple[int, dict[int, FastMove]]] = []
            down: list[tuple[int, dict[int, FastMove]]] = []
            for d in _directions(geo, rules.man_moves, side):
                s = _shift(geo, d)
                arrive: dict[int, FastMove] = {}
                for p in geo.squares:
                    q = geo.step[d][p]
                    if q >= 0:
                        arrive[1 << q] = quiet[(p, q)]
                (up if s > 0 else down).append((abs(s), arrive))
            self.man_up.append(tuple(up))
            self.man_down.append(tuple(down))
            cdirs = _directions(geo, rules.man_captures, side)
            self.man_cap_dirs.append(cdirs)
            self.man_cap_up.append(_shifts_up(geo, cdirs))
            self.man_cap_down.append(_shifts_down(geo, cdirs))

    def _king_tables(self) -> None:
        """The kings' moves along each line from each square (one step for short kings),
        with the move to each square; the shifts of their steps and of their captures,
        for counting moves and testing captures with whole-board operations."""
        geo, rules = self.geo, self.rules
        quiet = quiet_move_table(geo)
        kmove_dirs = _directions(geo, rules.king_moves, 0)
        self.king_cap_dirs = _directions(geo, rules.king_captures, 0)
        self.king_rays: list[tuple[tuple[tuple[int, FastMove], ...], ...]] = [()] * geo.size
        for p in geo.squares:
            rays = []
            for d in kmove_dirs:
                ray = geo.ray[d][p]
                if not rules.king_moves_fly:
                    ray = ray[:1]
                if ray:
                    rays.append(tuple((q, quiet[(p, q)]) for q in ray))
            self.king_rays[p] = tuple(rays)
        self.king_shift_up = _shifts_up(geo, kmove_dirs)
        self.king_shift_down = _shifts_down(geo, kmove_dirs)
        self.king_cap_up = _shifts_up(geo, self.king_cap_dirs)
        self.king_cap_down = _shifts_down(geo, self.king_cap_dirs)

    def _capture_switches(self) -> None:
        """The capture rules as the compiled functions read them (refused when this
        generator's own capture search does not know them)."""
        rules = self.rules
        #: The capture precedence (docs/rules/switches.md#precedence); ``majority`` is its
        #: common form ("count" alone), kept on the fast path; ``victims_matter``: a
        #: criterion tells one single jump of a man from another (by what it takes), so
        #: no shortcut may count single jumps without the search.
        self.precedence = rules.precedence
        if not type(self).general_precedence:
            _check_own_capture_search(rules)
        self.majority = self.precedence == ("count",)
        self.victims_matter = not set(self.precedence) <= {"count", "with-king"}
        #: A man may not jump a king (docs/rules/switches.md#men-and-kings): the
        #: whole-board tests of men's jumps see only the enemy men (``opp & ~k``).
        self.men_spare_kings = not rules.man_captures_kings
        self.immediate = rules.removal is Removal.IMMEDIATE
        self.no_180 = rules.no_180
        self.king_fly = rules.king_captures_fly
        self.must_continue = rules.king_landing is KingLanding.MUST_CONTINUE
        self.halt_behind_king = rules.king_landing is KingLanding.BEHIND_LAST_KING
        self.land_behind = rules.king_landing is KingLanding.DIRECTLY_BEHIND
        self.promo_rule = rules.promotion_in_capture
        self.promo_continue = rules.promotion_in_capture is PromotionInCapture.CONTINUE_AS_KING
        self.promo_stop = rules.promotion_in_capture is PromotionInCapture.STOP
        self.mandatory = rules.capture_mandatory

    @property
    def irreversible_men(self) -> bool:
        """Whether a man's move can never be undone either (``irreversible`` is MEN)."""
        return self.irreversible >= Irreversible.MEN

    def irreversibility(self) -> Irreversible:
        """What the moves of this generator can never undo, declared once when it is built.

        The standard games: a capture takes pieces off the board for good and a crowned
        man stays a king, so no position before a capture or a crowning comes back; where
        men only move forward (no sideways step) no position before a man's move comes
        back either.  An engine or a modifier under which pieces come back (a demoted
        king crowned again, a prisoner freed from a column) or a man may go back (a man
        shared by both players) overrides this and answers at most ``super()``'s answer.
        A test explores small positions of every engine and modifier to check it.
        """
        if all(name.startswith("forward") for name in self.rules.man_moves):
            return Irreversible.MEN
        return Irreversible.MATERIAL

    # -- positions ------------------------------------------------------------

    def piece_at(self, pos: State, square: int) -> Piece | None:
        bit = 1 << square
        kind = Kind.KING if pos[2] & bit else Kind.MAN
        if pos[0] & bit:
            return Piece(Color.WHITE, kind)
        if pos[1] & bit:
            return Piece(Color.BLACK, kind)
        return None

    def material(self, pos: State) -> tuple[tuple[int, int], tuple[int, int]]:
        """((kings, men) of side 0, (kings, men) of side 1)."""
        w, b, k = pos[0], pos[1], pos[2]
        wk = (w & k).bit_count()
        bk = (b & k).bit_count()
        return (wk, w.bit_count() - wk), (bk, b.bit_count() - bk)

    def key(self, pos: State) -> Any:
        """What makes two positions the same for the repetition rule."""
        return pos

    # -- move generation --------------------------------------------------------

    def moves(self, pos: State) -> list[FastMove]:
        """The legal moves of the side to move (compulsory captures already applied)."""
        return self._moves_of(pos[0], pos[1], pos[2], pos[3])

    def captures(self, pos: State) -> list[FastMove]:
        """The capturing moves the side to move may make (empty if it has none)."""
        w, b, k, turn = pos[0], pos[1], pos[2], pos[3]
        own, opp = (b, w) if turn else (w, b)
        return self._captures(own, opp, k, self.mask & ~(w | b), turn)

    def horizon(self, pos: State) -> tuple[list[FastMove], bool]:
        """What a search needs at its horizon, cheaper than :meth:`moves`: (the legal
        moves when the side to move must capture, else an empty list; whether the side to
        move has any legal move).  The quiet moves are not built."""
        if self._plain_horizon:
            return self._horizon_of(pos[0], pos[1], pos[2], pos[3])
        moves = self.moves(pos)
        if moves and self.mandatory and moves[0][1] and moves[-1][1]:
            return moves, True
        return [], bool(moves)

    def count(self, pos: State) -> int:
        """``len(self.moves(pos))``, without building the moves when it can."""
        return self._count_position(pos[0], pos[1], pos[2], pos[3])

    def apply(self, pos: State, mv: FastMove) -> State:
        """The position after ``mv`` (which must be legal in ``pos``)."""
        w, b, k, turn, extra = pos
        _, _, fm, tm, cm, lm = mv
        if turn:
            b = (b ^ fm) | tm
            w &= ~cm
        else:
            w = (w ^ fm) | tm
            b &= ~cm
        if k & fm:
            return (w, b, ((k ^ fm) & ~cm) | tm, turn ^ 1, extra)
        if (lm if self.promo_continue else tm) & self.promo[turn]:
            return (w, b, (k & ~cm) | tm, turn ^ 1, extra)
        return (w, b, k & ~cm, turn ^ 1, extra)

    def crowns(self, pos: State, mv: FastMove) -> bool:
        """Whether ``mv`` (legal in ``pos``) crowns the piece that makes it: a man before,
        a king after.  (The game asks it of a generator with its own ``apply``; for the
        others it reads the promotion rows itself.)"""
        before = self.piece_at(pos, mv[0][0])
        if before is None or before.kind is Kind.KING:
            return False
        after = self.piece_at(self.apply(pos, mv), mv[0][-1])
        return after is not None and after.kind is Kind.KING

    # -- perft ----------------------------------------------------------------

    def perft(self, pos: State, depth: int) -> int:
        """Leaf nodes of the legal-move tree below ``pos`` at exactly ``depth`` plies.

        Copy-make on bitboards, counting moves (not making them) at the last ply.  A
        subclass that overrides a hook (``moves``, ``captures``, ``count``, ``apply``)
        gets the plain walk over its hooks instead.
        """
        if depth <= 0:
            return 1
        cls = type(self)
        if (
            cls.moves is MoveGenerator.moves
            and cls.apply is MoveGenerator.apply
            and cls.count is MoveGenerator.count
            and cls.captures is MoveGenerator.captures
            and cls._captures is MoveGenerator._captures
        ):
            return self._fast_perft(pos[0], pos[1], pos[2], pos[3], depth)
        return walk_perft(pos, depth, self.moves, self.count, self.apply)

    # -- captures -------------------------------------------------------------

    def _captures(self, own: int, opp: int, k: int, empty: int, turn: int) -> list[FastMove]:
        """The capture moves of the side ``turn`` owning ``own`` (majority rule applied)."""
        return self._capture_moves(own, opp, k, empty, turn)


# -- the compiled functions -------------------------------------------------------------
#
# ``_compile`` builds a generator's hot functions with the factories below.  Each factory
# reads the generator's tables and rule switches once, into its own locals, and returns
# closures over them: the loops read only local variables, never attributes or globals.
# The capture search, which recurses and keeps a state, is a class instead
# (:class:`_CaptureWalk`), its switches and state in slots.  Nothing here knows a
# variant: only the switches and the geometry's shifts decide what runs.

#: ``search(own, opp, k, empty, build, kings_take)``: the capture moves or their number.
CaptureSearch = Callable[[int, int, int, int, bool, bool | None], Any]
#: ``capture_moves(own, opp, k, empty, turn)``: the capture moves.
CaptureMoves = Callable[[int, int, int, int, int], list[FastMove]]
#: ``count_captures(own, opp, k, empty, turn, kings_take)``: the number of capture moves.
CaptureCounter = Callable[[int, int, int, int, int, bool | None], int]
#: A whole-board test of some pieces, answered yes or no, or with a count or bitboard.
BoardTest = Callable[[int, int, int, int], bool]
BoardCount = Callable[[int, int, int, int], int]


class MoveCounter(Protocol):
    """``count(own, opp, k, turn, depth=1)``: the number of legal moves of the side
    ``turn`` owning ``own`` (``depth`` is unused: perft's walk calls it as it calls
    itself)."""

    def __call__(self, own: int, opp: int, k: int, turn: int, _depth: int = 1, /) -> int: ...


class _Tables(NamedTuple):
    """The tables the compiled functions share, derived once from a generator's."""

    #: The shifts of the men's steps to higher bits / to lower bits, per side.
    man_up: list[tuple[int, ...]]
    man_down: list[tuple[int, ...]]
    #: Per square (and side, for men), the pieces a short jump from there could take.
    man_near: list[list[int]]
    king_near: list[int]
    #: The short jumps per square, by the direction of the previous jump (see ``after``).
    man_jumps_after: list[list[list[tuple[Any, ...]]]]
    king_jumps_after: list[list[tuple[Any, ...]]]
    #: A flying king's capture lines per square, and by the previous jump's direction.
    king_lines: list[tuple[tuple[int, bool, int, int, tuple[int, ...]], ...]]
    king_lines_after: list[list[tuple[Any, ...]]]
    #: Per square, the pieces a flying king there could jump.
    king_reach: list[int]
    #: Per side and square, each man's jump by itself: (victim bit, landing bit, move).
    man_jump_moves: list[list[tuple[tuple[int, int, FastMove], ...]]]
    #: Whether flying kings move and capture along the same lines.
    fused: bool


def _tables(gen: MoveGenerator) -> _Tables:
    """The tables the capture search, the listing and the counters share, derived from
    ``gen``'s men's steps, short-jump tables, capture directions and geometry."""
    geo = gen.geo
    size = geo.size
    man_jumps = gen.man_jumps
    king_jumps = gen.king_jumps
    king_fly = gen.king_fly
    king_move_fly = gen.rules.king_moves_fly
    # The squares a short jump from each square could take: no piece there, no jump.
    man_near = [[0] * size, [0] * size]
    king_near = [0] * size
    for p in range(size):
        for t in (0, 1):
            for jump in man_jumps[t][p]:
                man_near[t][p] |= jump[1]
        for jump in king_jumps[p]:
            king_near[p] |= jump[1]

    # Tables indexed by the direction of the previous jump (-1: none), leaving out the
    # direction a jump may not take next (the 180-degree turn, when it is banned).
    def after(rows: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
        if not gen.no_180:
            return [rows] * 9
        banned = [[tuple(e for e in row if e[0] != (d + 4) % 8) for row in rows] for d in range(8)]
        return [*banned, rows]

    man_jumps_after = [after(man_jumps[0]), after(man_jumps[1])]
    king_jumps_after = after(king_jumps)
    # Flying kings: per square, the capture lines that leave it as (direction, whether the
    # line runs to higher bits, the shift of one step, the line as a bitboard, the lines
    # of that direction from every square).
    lines_of = {
        d: tuple(geo.bits(geo.ray[d][p]) for p in range(size)) for d in range(8) if geo.shift[d]
    }
    king_lines = [
        tuple(
            (d, geo.shift[d] > 0, abs(geo.shift[d]), lines_of[d][p], lines_of[d])  # type: ignore[operator,arg-type]
            for d in gen.king_cap_dirs
            if lines_of[d][p]
        )
        for p in range(size)
    ]
    king_lines_after = after(king_lines)
    # The pieces a flying king on each square could jump: on one of its lines, not last.
    king_reach = [0] * size
    for p in range(size):
        for _, up, _, line, _ in king_lines[p]:
            last_bit = 1 << (line.bit_length() - 1) if up else line & -line
            king_reach[p] |= line ^ last_bit
    # Flying kings that move and capture along the same lines: one scan of each line
    # counts the quiet moves and finds the captures.
    fused = (
        king_fly
        and king_move_fly
        and set(gen.king_cap_dirs) == {absolute_direction(n, 0) for n in gen.rules.king_moves}
    )
    # The move of each man's jump by itself, per side and starting square.
    man_jump_moves = [
        [
            tuple(
                (vbit, lbit, FastMove((p, land), (victim,))) for _, vbit, victim, land, lbit in row
            )
            for p, row in enumerate(table)
        ]
        for table in man_jumps
    ]
    return _Tables(
        man_up=[tuple(s for s, _ in gen.man_up[t]) for t in (0, 1)],
        man_down=[tuple(s for s, _ in gen.man_down[t]) for t in (0, 1)],
        man_near=man_near,
        king_near=king_near,
        man_jumps_after=man_jumps_after,
        king_jumps_after=king_jumps_after,
        king_lines=king_lines,
        king_lines_after=king_lines_after,
        king_reach=king_reach,
        man_jump_moves=man_jump_moves,
        fused=bool(fused),
    )


def _king_tests(gen: MoveGenerator, tables: _Tables) -> tuple[BoardTest, BoardCount]:
    """``(king_captures, king_scan)``: whole-board tests of the kings, from ``gen``'s king
    shifts and the flying kings' capture lines of ``tables``.

    * ``king_captures(kings, occ, opp, empty)``: whether one of ``kings`` can capture;
    * ``king_scan(kings, occ, opp, empty)``: the number of their quiet moves, or -1 if one
      of them can capture.
    """
    king_captures = _king_capture_test(gen, tables)
    return king_captures, _king_scan(gen, tables, king_captures)


def _king_capture_test(gen: MoveGenerator, tables: _Tables) -> BoardTest:
    """``king_captures(kings, occ, opp, empty)`` (see :func:`_king_tests`)."""
    kcap_up, kcap_down = gen.king_cap_up, gen.king_cap_down
    king_fly = gen.king_fly
    king_lines = tables.king_lines

    def king_captures(kings: int, occ: int, opp: int, empty: int) -> bool:
        """Whether one of ``kings`` can jump a piece of ``opp``."""
        if king_fly:
            while kings:
                kb = kings & -kings
                kings ^= kb
                for _, up, s, line, _ in king_lines[kb.bit_length() - 1]:
                    x = occ & line
                    if x:
                        if up:
                            x &= -x
                            if x & opp and (x << s) & empty:
                                return True
                        else:
                            x = 1 << (x.bit_length() - 1)
                            if x & opp and (x >> s) & empty:
                                return True
        else:
            for s in kcap_up:
                if (((kings << s) & opp) << s) & empty:
                    return True
            for s in kcap_down:
                if (((kings >> s) & opp) >> s) & empty:
                    return True
        return False

    return king_captures


def _king_scan(gen: MoveGenerator, tables: _Tables, king_captures: BoardTest) -> BoardCount:
    """``king_scan(kings, occ, opp, empty)`` (see :func:`_king_tests`): when kings move
    and capture along the same lines, one scan of each line counts the quiet moves and
    finds the captures."""
    king_up, king_down = gen.king_shift_up, gen.king_shift_down
    king_move_fly = gen.rules.king_moves_fly
    king_lines = tables.king_lines
    fused = tables.fused

    def king_scan(kings: int, occ: int, opp: int, empty: int) -> int:
        """The number of quiet moves of ``kings``, or -1 if one of them can capture."""
        n = 0
        if fused:
            while kings:
                kb = kings & -kings
                kings ^= kb
                for _, up, s, line, _ in king_lines[kb.bit_length() - 1]:
                    x = occ & line
                    if not x:
                        n += line.bit_count()
                    elif up:
                        x &= -x
                        if x & opp and (x << s) & empty:
                            return -1
                        n += (line & (x - 1)).bit_count()
                    else:
                        x = 1 << (x.bit_length() - 1)
                        if x & opp and (x >> s) & empty:
                            return -1
                        n += (line & -(x << 1)).bit_count()
            return n
        if king_captures(kings, occ, opp, empty):
            return -1
        if king_move_fly:
            for s in king_up:
                x = kings
                while x:
                    x = (x << s) & empty
                    n += x.bit_count()
            for s in king_down:
                x = kings
                while x:
                    x = (x >> s) & empty
                    n += x.bit_count()
        else:
            for s in king_up:
                n += ((kings << s) & empty).bit_count()
            for s in king_down:
                n += ((kings >> s) & empty).bit_count()
        return n

    return king_scan


def _man_jump_tests(gen: MoveGenerator) -> tuple[BoardCount, BoardCount, BoardTest]:
    """``(single_jumps, cand_lands, goes_on)``: whole-board tests of the men's jumps, from
    ``gen``'s capture shifts and promotion rows (each takes the side ``turn`` last).

    * ``single_jumps(men, opp, empty, turn)``: the landing squares of the jumps of
      ``men`` if every one ends the move, else -1;
    * ``cand_lands(men, opp, empty, turn)``: the landing squares of their jumps;
    * ``goes_on(lands, opp, empty, turn)``: whether a jump to one of ``lands`` may go on.
    """
    cap_up, cap_down = gen.man_cap_up, gen.man_cap_down
    promo = gen.promo
    promo_continue = gen.promo_continue

    def single_jumps(men: int, opp: int, empty: int, turn: int) -> int:
        """The landing squares of men's jumps, if every one ends the move there;
        -1 if some jump may go on (or crown and go on), and the full search must run."""
        lands = 0
        for s in cap_up[turn]:
            lands |= (((men << s) & opp) << s) & empty
        for s in cap_down[turn]:
            lands |= (((men >> s) & opp) >> s) & empty
        if lands and goes_on(lands, opp, empty, turn):
            return -1
        return lands

    def cand_lands(men: int, opp: int, empty: int, turn: int) -> int:
        """The landing squares of the jumps of ``men``."""
        lands = 0
        for s in cap_up[turn]:
            lands |= (((men << s) & opp) << s) & empty
        for s in cap_down[turn]:
            lands |= (((men >> s) & opp) >> s) & empty
        return lands

    def goes_on(lands: int, opp: int, empty: int, turn: int) -> bool:
        """Whether a man's jump to one of ``lands`` may go on (or crown and go on).

        Jumping back over the piece just taken would land on the square the man left,
        which is not in ``empty``; any other second jump lands on a square empty now.
        """
        if promo_continue and lands & promo[turn]:
            return True
        for s in cap_up[turn]:
            if (((lands << s) & opp) << s) & empty:
                return True
        for s in cap_down[turn]:
            if (((lands >> s) & opp) >> s) & empty:
                return True
        return False

    return single_jumps, cand_lands, goes_on


#: A kind of piece's short jumps, as :class:`_CaptureWalk` reads them: (the jumps from
#: each square by the direction of the previous jump, the pieces they could take from each
#: square, the row where the piece is crowned in the middle of a capture).
_ShortJumps = tuple[list[list[tuple[Any, ...]]], list[int], int]
#: Which capture sequences a walk keeps (``_CaptureWalk.keep``): every one (free
#: choice), those that take the most pieces (the majority rule), those of the best score
#: under the general precedence.
_KEEP_ALL, _KEEP_MOST, _KEEP_BEST = 0, 1, 2
_new_tuple = tuple.__new__


class _CaptureWalk:
    """The capture search of one side as one walker: its state (the moves found, the path
    so far, the states met) and :meth:`jump`, which extends the sequence of any piece
    that captures, a man or a king, by one jump and recurses.

    It is made once per side when the generator is compiled, from its capture switches
    (the precedence, the removal, promotion during a capture, the king's landing) and the
    tables of :func:`_tables`; what differs between a man and a king is read from tables
    indexed by the kind of the piece (0 a man, 1 a king: its short jumps, the pieces it
    could take next, its crowning row), so the loop tests no rule per jump.  A flying
    king's jump, to any empty square beyond a piece at any distance, is
    :meth:`long_jumps`.  Each search running at once has a walker of its own (two
    threads listing moves never share one, nor wait for each other).
    """

    __slots__ = (
        "best",
        "build",
        "caps",
        "enemy_kings",
        "found",
        "halt_behind_king",
        "immediate",
        "keep",
        "king_fly",
        "king_lines_after",
        "king_reach",
        "land_behind",
        "memo_from",
        "most",
        "must_continue",
        "path",
        "precedence",
        "promo_stop",
        "sbit",
        "seen",
        "short",
        "spare",
        "spared",
        "start",
        "step",
        "steps",
        "turns_matter",
        "value_unit",
        "with_king",
    )

    def __init__(self, gen: MoveGenerator, tables: _Tables, turn: int) -> None:
        # -- the switches and tables, by the kind of piece (0 a man, 1 a king) --
        #: (the short jumps from each square, by the direction of the previous jump; the
        #: pieces a short jump from each square could take; the row where the piece is
        #: crowned in the middle of a capture: none for a king, nor when men are crowned
        #: only at the end of the move)
        promo_at_end = gen.promo_rule is PromotionInCapture.AT_END
        self.short: tuple[_ShortJumps, _ShortJumps] = (
            (
                tables.man_jumps_after[turn],
                tables.man_near[turn],
                0 if promo_at_end else gen.promo[turn],
            ),
            (tables.king_jumps_after, tables.king_near, 0),
        )
        #: Whether kings fly (jump a piece at any distance).
        self.king_fly = gen.king_fly
        self.promo_stop = gen.promo_stop
        self.king_lines_after = tables.king_lines_after
        self.king_reach = tables.king_reach
        self.immediate = gen.immediate
        self.must_continue = gen.must_continue
        self.halt_behind_king = gen.halt_behind_king
        self.land_behind = gen.land_behind
        self.step = gen.step
        self.precedence = gen.precedence
        self.keep = _KEEP_MOST if gen.majority else _KEEP_BEST if gen.precedence else _KEEP_ALL
        # N of docs/rules/switches.md#precedence "value": more than the squares
        self.value_unit = gen.geo.size + 1
        self.spare = gen.men_spare_kings
        # A state met again by another order of the same captures adds no move (see
        # ``seen``), except when the order of the kings taken counts: then every path is
        # walked.
        self.memo_from = 10**9 if "king-order" in gen.precedence else 1
        self.turns_matter = gen.no_180
        # -- the state of the search running --
        # Two sequences are one move when they leave the same position
        # (docs/rules/conventions.md#move-identity): the same start, end and captured
        # set, and the same piece (crowned or not).
        self.found: dict[tuple[int, int, int, bool], Any] = {}
        self.path: list[int] = []
        self.caps: list[int] = []
        self.start = 0
        self.sbit = 0
        self.build = True
        #: The most pieces a sequence found so far takes (majority rule).
        self.most = 0
        #: The best score so far (general precedence).
        self.best: tuple[Any, ...] = ()
        #: The opponent's kings when the search started.
        self.enemy_kings = 0
        #: Whether the piece now searched is a king.
        self.with_king = 0
        #: The enemy kings a man may not jump (given back to it once crowned).
        self.spared = 0
        # The states met since the start piece was chosen, by the kind of the piece,
        # with whether a jump went on from them: (square, captured set, direction of the
        # last jump if it limits the next one).  The rest of a sequence depends on
        # nothing else (the blockers and the pieces left to jump follow from the captured
        # set), so a state met again, by the same pieces taken in another order, adds no
        # move: its moves were recorded the first time (or dropped by the majority rule,
        # which would drop them again).  Without this the search walks every order of the
        # same captures, exponentially many when kings fly over a board full of pieces.
        self.seen: tuple[dict[tuple[int, int, int], bool], dict[tuple[int, int, int], bool]] = (
            {},
            {},
        )
        #: New states until the next poll (a search may stop a long one).
        self.steps = STEPS

    def walk(
        self, cand: int, kings: int, occupied: int, opp: int, k: int, prey: int, build: bool
    ) -> dict[tuple[int, int, int, bool], Any]:
        """The captures of the men ``cand`` and the kings ``kings``: the moves found, by
        what makes them one (or, not ``build``, only their keys)."""
        self.found = {}
        self.build = build
        self.most = 0
        self.best = ()
        self.enemy_kings = opp & k
        self.with_king = 0
        self.spared = opp & k if self.spare else 0
        path = self.path
        path.clear()
        self.caps.clear()
        man_seen, king_seen = self.seen
        try:
            while cand:
                sbit = cand & -cand
                cand ^= sbit
                start = sbit.bit_length() - 1
                self.sbit = sbit
                self.start = start
                path.append(start)
                man_seen.clear()
                king_seen.clear()
                self.jump(start, occupied ^ sbit, prey, -1, 0, 0, 0)
                path.pop()
            self.with_king = 1
            while kings:
                sbit = kings & -kings
                kings ^= sbit
                start = sbit.bit_length() - 1
                self.sbit = sbit
                self.start = start
                path.append(start)
                king_seen.clear()
                if self.king_fly:
                    self.long_jumps(start, occupied ^ sbit, opp, -1, 0, 0)
                else:
                    self.jump(start, occupied ^ sbit, opp, -1, 0, 0, 1)
                path.pop()
        except Interrupted as stop:
            if (
                build
                and self.found
                and (
                    self.keep == _KEEP_ALL
                    or (self.keep == _KEEP_MOST and self.most == opp.bit_count())
                )
            ):
                # each sequence recorded is complete: under free choice a move, and under
                # the majority rule too once it takes every piece
                stop.moves = list(self.found.values())
            raise
        finally:
            result = self.found
            self.found = {}
            man_seen.clear()  # (a stopped search leaves nothing behind)
            king_seen.clear()
        return result

    def jump(
        self, cur: int, occ: int, jumpable: int, last: int, cmask: int, lmask: int, king: int
    ) -> bool:
        """Extend the capture sequence of the piece on ``cur`` (a man, or a king when
        ``king`` is 1); record the complete ones.  Returns whether at least one jump
        exists from ``cur``.

        ``occ`` holds every piece that blocks (captured pieces too, unless they are
        removed at once) without the moving piece; ``jumpable`` the pieces that may still
        be jumped; ``last`` the direction of the previous jump (-1: none);
        ``cmask``/``lmask`` the captured and landing squares so far.

        A man, or a king that jumps only an adjacent piece, lands just beyond the piece
        it takes (the loop below); a man that lands on its crowning row goes on as a
        king, or stops there (``promo_stop``).  A flying king's jumps are
        :meth:`long_jumps` (which calls itself, not this: one frame a jump keeps the
        interpreter's stack of frames short, see :meth:`known`).
        """
        caps = self.caps
        state = None
        if len(caps) > self.memo_from:  # (one capture is reached by one path only)
            state = (cur, cmask, last if self.turns_matter else -1)
            known = self.known(state, king)
            if known is not None:
                return known
        path = self.path
        after, near, crown = self.short[king]
        immediate = self.immediate
        jumped = False
        for d, vbit, victim, land, lbit in after[last][cur]:
            if not jumpable & vbit or occ & lbit:
                continue
            jumped = True
            caps.append(victim)
            path.append(land)
            cm = cmask | vbit
            lm = lmask | lbit
            rest = jumpable ^ vbit
            occ2 = occ ^ vbit if immediate else occ
            if lbit & crown:
                if self.promo_stop or not self.crowned(land, occ2, rest | self.spared, d, cm, lm):
                    self.record(land, True, cm, lm)
            elif not (rest & near[land] and self.jump(land, occ2, rest, d, cm, lm, king)):
                self.record(land, king == 1, cm, lm)
            path.pop()
            caps.pop()
        if state is not None:
            self.seen[king][state] = jumped
        return jumped

    def crowned(self, cur: int, occ: int, jumpable: int, last: int, cmask: int, lmask: int) -> bool:
        """A man crowned on ``cur`` in the middle of its capture goes on as a king (the
        arguments are :meth:`jump`'s); whether it jumps again."""
        if self.king_fly:
            return self.long_jumps(cur, occ, jumpable, last, cmask, lmask)
        return self.jump(cur, occ, jumpable, last, cmask, lmask, 1)

    def known(self, state: tuple[int, int, int], king: int) -> bool | None:
        """Whether a jump went on from ``state`` (a square, the captured set, the
        direction of the last jump if it limits the next) when the piece (a king when
        ``king`` is 1) met it before, else None; a new state counts towards the next
        poll (a search may stop a long capture search).

        The jumps call themselves, and :meth:`jump` and :meth:`long_jumps` never each
        other but to crown a man: every frame on the way down stays on the
        interpreter's stack until the sequence ends, and a deeper stack crosses the end
        of its chunk, which maps and unmaps memory, more often (a capture of ten pieces
        by a flying king in Tama)."""
        known = self.seen[king].get(state)
        if known is None:
            self.steps -= 1
            if not self.steps:
                self.steps = STEPS
                poll()
        return known

    def long_jumps(
        self, cur: int, occ: int, jumpable: int, last: int, cmask: int, lmask: int
    ) -> bool:
        """The jumps of a flying king from ``cur``, and whether there is one (the
        arguments are :meth:`jump`'s): a piece at any distance, landing on any empty
        square beyond it (on one that goes on, under the must-continue rule; where the
        sequence ends, just beyond a king taken last, under behind-last-king; always just
        beyond the piece, under directly-behind)."""
        caps = self.caps
        state = None
        if len(caps) > self.memo_from:  # (one capture is reached by one path only)
            state = (cur, cmask, last if self.turns_matter else -1)
            known = self.known(state, 1)
            if known is not None:
                return known
        path = self.path
        king_reach = self.king_reach
        jumped = False
        for d, up, _, line, rays in self.king_lines_after[last][cur]:
            x = occ & line
            if not x:
                continue
            vbit = x & -x if up else 1 << (x.bit_length() - 1)
            if not jumpable & vbit:
                continue
            victim = vbit.bit_length() - 1
            beyond = rays[victim]
            y = occ & beyond
            if y:
                # the empty squares up to the next piece on the line
                lands = beyond & ((y & -y) - 1) if up else beyond & -(1 << y.bit_length())
            else:
                lands = beyond
            if not lands:
                continue
            if self.land_behind:  # directly-behind: only the nearest square beyond
                lands = lands & -lands if up else 1 << (lands.bit_length() - 1)
            jumped = True
            occ2 = occ ^ vbit if self.immediate else occ
            rest = jumpable ^ vbit
            cm = cmask | vbit
            caps.append(victim)
            terminal = []
            goes_on = False
            while lands:  # nearest landing square first
                lbit = lands & -lands if up else 1 << (lands.bit_length() - 1)
                lands ^= lbit
                land = lbit.bit_length() - 1
                path.append(land)
                if rest & king_reach[land] and self.long_jumps(
                    land, occ2, rest, d, cm, lmask | lbit
                ):
                    goes_on = True
                elif self.must_continue:
                    terminal.append(land)
                elif (
                    self.halt_behind_king
                    and vbit & self.enemy_kings
                    and land != self.step[d][victim]
                ):
                    pass  # the sequence ends behind a king taken last: just beyond it
                else:
                    self.record(land, True, cm, lmask | lbit)
                path.pop()
            if terminal and not goes_on:
                for land in terminal:
                    path.append(land)
                    self.record(land, True, cm, lmask | 1 << land)
                    path.pop()
            caps.pop()
        if state is not None:
            self.seen[1][state] = jumped
        return jumped

    def record(self, end: int, crowned: bool, cm: int, lm: int) -> None:
        """Record the sequence on the path, ending on ``end``, that takes ``cm`` and lands
        on ``lm``, unless the precedence drops it (and drop those it beats)."""
        found = self.found
        keep = self.keep
        if keep == _KEEP_MOST:  # only the sequences that take the most pieces so far
            n = len(self.caps)
            if n < self.most:
                return
            if n > self.most:
                found.clear()
                self.most = n
        elif keep:  # _KEEP_BEST: only those of the best score so far
            value = self.score(cm)
            if value < self.best:
                return
            if value > self.best:
                found.clear()
                self.best = value
        key = (self.start, end, cm, crowned)
        if key not in found:
            if self.build:
                found[key] = _new_tuple(
                    FastMove, (tuple(self.path), tuple(self.caps), self.sbit, 1 << end, cm, lm)
                )
            else:
                found[key] = None

    def score(self, cm: int) -> tuple[Any, ...]:
        """The value of the sequence now recorded under each criterion, in order."""
        caps = self.caps
        enemy_kings = self.enemy_kings
        out: list[Any] = []
        for criterion in self.precedence:
            if criterion == "count":
                out.append(len(caps))
            elif criterion == "value":
                nk = (cm & enemy_kings).bit_count()
                out.append(capture_value(len(caps) - nk, nk, self.value_unit))
            elif criterion == "with-king":
                out.append(self.with_king)
            elif criterion == "kings":
                out.append((cm & enemy_kings).bit_count())
            else:  # king-order: the earlier each king comes, the better
                out.append(tuple(-i for i, v in enumerate(caps) if enemy_kings >> v & 1))
        return tuple(out)


def _capture_search(
    gen: MoveGenerator,
    tables: _Tables,
    turn: int,
    king_captures: BoardTest,
    cand_lands: BoardCount,
    goes_on: BoardTest,
) -> CaptureSearch:
    """The capture search of side ``turn``: ``search(own, opp, k, empty, build,
    kings_take)`` returns the capture moves (``build``) or their number, [] or 0 when
    there is none; ``kings_take`` says whether a king can capture, None if the caller
    does not know.  Men's jumps that cannot go on are read from a table (tested with the
    whole-board ``cand_lands`` and ``goes_on``); the others are walked by a
    :class:`_CaptureWalk` of ``gen``'s and ``tables``', one for each search running at
    once."""
    ups, downs = gen.man_cap_up[turn], gen.man_cap_down[turn]
    jump_moves = tables.man_jump_moves[turn]
    victims_matter = gen.victims_matter
    spare = gen.men_spare_kings
    idle = [_CaptureWalk(gen, tables, turn)]

    def single_jump_moves(cand: int, opp: int, empty: int) -> list[FastMove]:
        """The jumps of the men ``cand`` when none of them may go on: from a table."""
        out = []
        while cand:
            low = cand & -cand
            cand ^= low
            for vbit, lbit, mv in jump_moves[low.bit_length() - 1]:
                if opp & vbit and empty & lbit:
                    out.append(mv)
        return out

    def search(
        own: int, opp: int, k: int, empty: int, build_moves: bool, kings_take: bool | None
    ) -> Any:
        men = own & ~k
        prey = opp & ~k if spare else opp  # what a man may jump
        cand = 0
        if men:
            for s in ups:
                cand |= (((empty >> s) & prey) >> s) & men
            for s in downs:
                cand |= (((empty << s) & prey) << s) & men
        kings = own & k
        if kings_take is None:
            kings_take = bool(kings) and king_captures(kings, own | opp, opp, empty)
        if not kings_take:
            kings = 0
        if not kings:
            if not cand:
                return [] if build_moves else 0
            lands_if_built = (
                cand_lands(cand, prey, empty, turn) if build_moves and not victims_matter else 0
            )
            if lands_if_built and not goes_on(lands_if_built, prey, empty, turn):
                return single_jump_moves(cand, prey, empty)
        occupied = own | opp
        # a walk of its own: the one left idle, or a new one while another thread's
        # search holds it
        try:
            walk = idle.pop()
        except IndexError:
            walk = _CaptureWalk(gen, tables, turn)
        try:
            result = walk.walk(cand, kings, occupied, opp, k, prey, build_moves)
        finally:
            idle.append(walk)
        return list(result.values()) if build_moves else len(result)

    return search


def _capture_entries(
    gen: MoveGenerator, searches: tuple[CaptureSearch, CaptureSearch]
) -> tuple[CaptureMoves, CaptureCounter, bool]:
    """``(capture_moves, count_captures, plain)``: the captures as the listing and the
    counters ask for them, from the two sides' ``searches`` or from a subclass's own
    ``_captures`` (``plain`` says which).

    * ``capture_moves(own, opp, k, empty, turn)``: the capture moves;
    * ``count_captures(own, opp, k, empty, turn, kings_take)``: their number.
    """
    if type(gen)._captures is MoveGenerator._captures:

        def capture_moves(own: int, opp: int, k: int, empty: int, turn: int) -> list[FastMove]:
            return searches[turn](own, opp, k, empty, True, None)  # type: ignore[no-any-return]

        def count_captures(
            own: int, opp: int, k: int, empty: int, turn: int, kings_take: bool | None
        ) -> int:
            return searches[turn](own, opp, k, empty, False, kings_take)  # type: ignore[no-any-return]

        plain = True
    else:  # a subclass's own captures: count them by building them
        overridden = gen._captures

        def capture_moves(own: int, opp: int, k: int, empty: int, turn: int) -> list[FastMove]:
            return overridden(own, opp, k, empty, turn)

        def count_captures(
            own: int, opp: int, k: int, empty: int, turn: int, kings_take: bool | None
        ) -> int:
            return len(overridden(own, opp, k, empty, turn))

        plain = False

    return capture_moves, count_captures, plain


def _king_quiet_moves(
    gen: MoveGenerator,
) -> list[tuple[tuple[bool, int, int, tuple[tuple[FastMove, ...], ...]], ...]]:
    """A king's quiet moves along each line from each square, nearest square first:
    (whether the line runs to higher bits, the shift of one step, the line as a
    bitboard, the first n moves for every n)."""
    geo = gen.geo
    return [
        tuple(
            (
                ray[0][0] > p,
                abs(ray[0][0] - p),
                geo.bits(q for q, _ in ray),
                tuple(tuple(mv for _, mv in ray[:n]) for n in range(len(ray) + 1)),
            )
            for ray in rays
        )
        for p, rays in enumerate(gen.king_rays)
    ]


def _move_lister(
    gen: MoveGenerator,
    tables: _Tables,
    searches: tuple[CaptureSearch, CaptureSearch],
    capture_moves: CaptureMoves,
    king_captures: BoardTest,
    plain: bool,
) -> Callable[[int, int, int, int], list[FastMove]]:
    """``moves_of(w, b, k, turn)``, the legal moves: the captures from ``searches`` (or
    ``capture_moves`` when a subclass has its own), the quiet moves from ``gen``'s tables
    of men's steps and king rays, whose moves are built once here."""
    mask = gen.mask
    cap_up, cap_down = gen.man_cap_up, gen.man_cap_down
    mandatory = gen.mandatory
    spare = gen.men_spare_kings
    fused = tables.fused
    man_steps = [(gen.man_up[t], gen.man_down[t]) for t in (0, 1)]
    king_quiet = _king_quiet_moves(gen)

    def moves_of(w: int, b: int, k: int, turn: int) -> list[FastMove]:
        """The legal moves of the side ``turn``."""
        if turn:
            own, opp = b, w
        else:
            own, opp = w, b
        occ = w | b
        empty = mask & ~occ
        men = own & ~k
        kings = own & k
        prey = opp & ~k if spare else opp  # what a man may jump
        cand = 0
        if men:
            for s in cap_up[turn]:
                cand |= (((empty >> s) & prey) >> s) & men
            for s in cap_down[turn]:
                cand |= (((empty << s) & prey) << s) & men
        if not (plain and mandatory):
            moves = capture_moves(own, opp, k, empty, turn) if cand or kings or not plain else []
            if moves and mandatory:
                return moves
        elif cand:  # a man can capture
            return searches[turn](own, opp, k, empty, True, None)  # type: ignore[no-any-return]
        elif kings and not fused and king_captures(kings, occ, opp, empty):
            return searches[turn](own, opp, k, empty, True, True)  # type: ignore[no-any-return]
        else:
            moves = []
        if kings:
            # The kings' quiet moves; when kings capture along the lines they move on,
            # the same scan finds whether they can capture.
            check = fused and plain and mandatory
            king_moves: list[FastMove] = []
            while kings:
                low = kings & -kings
                kings ^= low
                for up, s, line, first in king_quiet[low.bit_length() - 1]:
                    x = occ & line
                    if not x:
                        king_moves.extend(first[-1])
                    elif up:  # the squares before the first piece on the line
                        x &= -x
                        if check and x & opp and (x << s) & empty:
                            return searches[turn](own, opp, k, empty, True, True)  # type: ignore[no-any-return]
                        king_moves.extend(first[(line & (x - 1)).bit_count()])
                    else:
                        x = 1 << (x.bit_length() - 1)
                        if check and x & opp and (x >> s) & empty:
                            return searches[turn](own, opp, k, empty, True, True)  # type: ignore[no-any-return]
                        king_moves.extend(first[(line & -(x << 1)).bit_count()])
        if men:
            steps_up, steps_down = man_steps[turn]
            for s, arrive in steps_up:
                t = (men << s) & empty
                while t:
                    low = t & -t
                    moves.append(arrive[low])
                    t ^= low
            for s, arrive in steps_down:
                t = (men >> s) & empty
                while t:
                    low = t & -t
                    moves.append(arrive[low])
                    t ^= low
        if own & k:
            moves += king_moves
        return moves

    return moves_of


def _general_counter(
    gen: MoveGenerator,
    tables: _Tables,
    king_scan: BoardCount,
    count_captures: CaptureCounter,
    goes_on: BoardTest,
    plain: bool,
) -> MoveCounter:
    """``count(own, opp, k, turn, depth)``, the number of legal moves, from ``gen``'s
    shifts and switches: the captures counted by ``count_captures`` unless every one is a
    single jump that ends the move, the quiet moves by whole-board operations."""
    mask = gen.mask
    cap_up, cap_down = gen.man_cap_up, gen.man_cap_down
    man_up, man_down = tables.man_up, tables.man_down
    mandatory = gen.mandatory
    victims_matter = gen.victims_matter
    spare = gen.men_spare_kings

    def count(own: int, opp: int, k: int, turn: int, _depth: int = 1) -> int:
        """The number of legal moves of the side ``turn`` owning ``own``."""
        occ = own | opp
        empty = mask & ~occ
        men = own & ~k
        kings = own & k
        n = 0
        nk = king_scan(kings, occ, opp, empty) if kings else 0
        if nk < 0 or not plain:
            n = count_captures(own, opp, k, empty, turn, nk < 0)
            if n and mandatory:
                return n
            if nk < 0:
                nk = king_scan(kings, occ, 0, empty)  # no victims: the quiet moves only
        elif men:
            # men's jumps, counted by landing square while none of them may go on
            prey = opp & ~k if spare else opp
            lands = 0
            for s in cap_up[turn]:
                t = (((men << s) & prey) << s) & empty
                if t:
                    lands |= t
                    n += t.bit_count()
            for s in cap_down[turn]:
                t = (((men >> s) & prey) >> s) & empty
                if t:
                    lands |= t
                    n += t.bit_count()
            if lands:
                if victims_matter or goes_on(lands, prey, empty, turn):
                    n = count_captures(own, opp, k, empty, turn, False)
                if mandatory:
                    return n
        if men:
            for s in man_up[turn]:
                n += ((men << s) & empty).bit_count()
            for s in man_down[turn]:
                n += ((men >> s) & empty).bit_count()
        return n + nk

    return count


def _specialised_counter(
    gen: MoveGenerator, tables: _Tables, turn: int, king_scan: BoardCount, search: CaptureSearch
) -> MoveCounter:
    """The general counter for side ``turn``, written out with ``gen``'s shifts and masks
    as constants (no loops over direction tuples): the last ply of perft runs it for
    every position.  Generated from the same tables as :func:`_general_counter`, which it
    equals, for a generator whose captures are ``search``'s."""
    mask = gen.mask
    cap_up, cap_down = gen.man_cap_up, gen.man_cap_down
    man_up, man_down = tables.man_up, tables.man_down
    promo = gen.promo
    promo_continue = gen.promo_continue
    mandatory = gen.mandatory
    prey = "prey" if gen.men_spare_kings else "opp"  # what a man may jump
    jumps = [f"(((men << {s}) & {prey}) << {s}) & empty" for s in cap_up[turn]]
    jumps += [f"(((men >> {s}) & {prey}) >> {s}) & empty" for s in cap_down[turn]]
    cont = [f"(((lands << {s}) & {prey}) << {s}) & empty" for s in cap_up[turn]]
    cont += [f"(((lands >> {s}) & {prey}) >> {s}) & empty" for s in cap_down[turn]]
    if promo_continue and promo[turn]:
        cont.insert(0, f"lands & {promo[turn]}")
    if gen.victims_matter:  # which piece a single jump takes counts: always search
        cont = ["True"]
    quiet = [f"((men << {s}) & empty).bit_count()" for s in man_up[turn]]
    quiet += [f"((men >> {s}) & empty).bit_count()" for s in man_down[turn]]
    quiet_sum = " + ".join(quiet) or "0"
    ret = "return n" if mandatory else f"return n + nk + {quiet_sum}"
    lines = [
        "def count(own, opp, k, turn, _depth=1):",
        "    occ = own | opp",
        f"    empty = {mask} & ~occ",
        "    men = own & ~k",
        "    kings = own & k",
        "    nk = 0",
        "    if kings:",
        "        nk = king_scan(kings, occ, opp, empty)",
        "        if nk < 0:",
        "            n = search(own, opp, k, empty, False, True)",
        "            if n:" if mandatory else "            if False:",
        "                return n",
        "            nk = king_scan(kings, occ, 0, empty)",
        f"            return n + nk + {quiet_sum}",
    ]
    if jumps:
        if gen.men_spare_kings:
            lines.append("    prey = opp & ~k")
        lines += [f"    j{i} = {j}" for i, j in enumerate(jumps)]
        lines += [
            "    lands = " + " | ".join(f"j{i}" for i in range(len(jumps))),
            "    if lands:",
            "        if " + " or ".join(f"({c})" for c in cont) + ":",
            "            n = search(own, opp, k, empty, False, False)",
            "        else:",
            "            n = " + " + ".join(f"j{i}.bit_count()" for i in range(len(jumps))),
            f"        {ret}",
        ]
    lines.append(f"    return nk + {quiet_sum}")
    namespace: dict[str, Any] = {"king_scan": king_scan, "search": search}
    exec("\n".join(lines), namespace)  # our own text, made of ints and names
    counter: MoveCounter = namespace["count"]
    return counter


def _counters(
    gen: MoveGenerator,
    tables: _Tables,
    searches: tuple[CaptureSearch, CaptureSearch],
    king_scan: BoardCount,
    count_captures: CaptureCounter,
    goes_on: BoardTest,
    plain: bool,
) -> tuple[tuple[MoveCounter, MoveCounter], Callable[[int, int, int, int], int]]:
    """``(counts, count_position)``: the move counters of the last ply of perft.

    ``counts[turn](own, opp, k, turn, depth)`` counts the legal moves of side ``turn``
    owning ``own``, quiet moves and captures that cannot go on with whole-board
    operations: per side, a version written out with ``gen``'s shifts as constants
    (:func:`_specialised_counter`), or, when a subclass has its own captures, the general
    :func:`_general_counter`.  ``count_position(w, b, k, turn)`` counts a position's.
    """
    counts: tuple[MoveCounter, MoveCounter]
    if plain:
        counts = (
            _specialised_counter(gen, tables, 0, king_scan, searches[0]),
            _specialised_counter(gen, tables, 1, king_scan, searches[1]),
        )
    else:
        count = _general_counter(gen, tables, king_scan, count_captures, goes_on, plain)
        counts = (count, count)

    def count_position(w: int, b: int, k: int, turn: int) -> int:
        return counts[1](b, w, k, 1) if turn else counts[0](w, b, k, 0)

    return counts, count_position


def _perft(
    gen: MoveGenerator,
    tables: _Tables,
    counts: tuple[MoveCounter, MoveCounter],
    searches: tuple[CaptureSearch, CaptureSearch],
    king_captures: BoardTest,
    single_jumps: BoardCount,
) -> Callable[[int, int, int, int, int], int]:
    """``perft(w, b, k, turn, depth)``: perft by copy-make on four ints, from ``gen``'s
    shifts and switches; quiet moves and single jumps made from bit operations, longer
    captures from ``searches``, the last ply counted by ``counts``."""
    mask = gen.mask
    promo = gen.promo
    cap_up, cap_down = gen.man_cap_up, gen.man_cap_down
    man_up, man_down = tables.man_up, tables.man_down
    king_up, king_down = gen.king_shift_up, gen.king_shift_down
    king_move_fly = gen.rules.king_moves_fly
    promo_continue = gen.promo_continue
    mandatory = gen.mandatory
    victims_matter = gen.victims_matter
    spare = gen.men_spare_kings

    def walk(own: int, opp: int, k: int, turn: int, depth: int) -> int:
        """Perft of the side ``turn`` owning ``own`` (depth >= 2)."""
        d = depth - 1
        nxt = turn ^ 1
        child = counts[nxt] if d == 1 else walk
        empty = mask & ~(own | opp)
        men = own & ~k
        kings = own & k
        pr = promo[turn]
        total = 0
        captured = False
        king_takes = kings and king_captures(kings, own | opp, opp, empty)
        prey = opp & ~k if spare else opp  # what a man may jump
        lands = single_jumps(men, prey, empty, turn) if men and not king_takes else 0
        if lands > 0 and victims_matter:
            lands = -1
        if lands > 0:
            # Single jumps that end the move: made from bit operations.
            captured = True
            for s in cap_up[turn]:
                t = (((men << s) & prey) << s) & empty
                while t:
                    low = t & -t
                    t ^= low
                    victim = low >> s
                    total += child(
                        opp ^ victim, own ^ low ^ (victim >> s), (k & ~victim) | (low & pr), nxt, d
                    )
            for s in cap_down[turn]:
                t = (((men >> s) & prey) >> s) & empty
                while t:
                    low = t & -t
                    t ^= low
                    victim = low << s
                    total += child(
                        opp ^ victim, own ^ low ^ (victim << s), (k & ~victim) | (low & pr), nxt, d
                    )
        elif lands < 0 or king_takes:
            for _, _, fm, tm, cm, lm in searches[turn](own, opp, k, empty, True, bool(king_takes)):
                captured = True
                if k & fm:
                    k2 = ((k ^ fm) & ~cm) | tm
                elif (lm if promo_continue else tm) & pr:
                    k2 = (k & ~cm) | tm
                else:
                    k2 = k & ~cm
                total += child(opp & ~cm, (own ^ fm) | tm, k2, nxt, d)
        if captured and mandatory:
            return total
        if men:
            for s in man_up[turn]:
                t = (men << s) & empty
                while t:
                    low = t & -t
                    t ^= low
                    total += child(opp, own ^ low ^ (low >> s), k | (low & pr), nxt, d)
            for s in man_down[turn]:
                t = (men >> s) & empty
                while t:
                    low = t & -t
                    t ^= low
                    total += child(opp, own ^ low ^ (low << s), k | (low & pr), nxt, d)
        while kings:
            kb = kings & -kings
            kings ^= kb
            for s in king_up:
                x = kb
                while True:
                    x = (x << s) & empty
                    if not x:
                        break
                    total += child(opp, own ^ kb ^ x, k ^ kb ^ x, nxt, d)
                    if not king_move_fly:
                        break
            for s in king_down:
                x = kb
                while True:
                    x = (x >> s) & empty
                    if not x:
                        break
                    total += child(opp, own ^ kb ^ x, k ^ kb ^ x, nxt, d)
                    if not king_move_fly:
                        break
        return total

    def perft(w: int, b: int, k: int, turn: int, depth: int) -> int:
        own, opp = (b, w) if turn else (w, b)
        if depth == 1:
            return counts[turn](own, opp, k, turn)
        return walk(own, opp, k, turn, depth)

    return perft


def _horizon(
    gen: MoveGenerator,
    tables: _Tables,
    searches: tuple[CaptureSearch, CaptureSearch],
    king_captures: BoardTest,
) -> tuple[
    Callable[[int, int, int, int], bool],
    Callable[[int, int, int, int], tuple[list[FastMove], bool]],
]:
    """``(can_step, horizon_of)``: what a search asks at its horizon, from ``gen``'s
    shifts, for a generator whose captures are ``searches``' own and compulsory.

    * ``can_step(own, k, empty, turn)``: whether a piece has a quiet move;
    * ``horizon_of(w, b, k, turn)``: (the captures of the side ``turn``, whether it can
      move at all).
    """
    mask = gen.mask
    cap_up, cap_down = gen.man_cap_up, gen.man_cap_down
    man_up, man_down = tables.man_up, tables.man_down
    king_steps = (gen.king_shift_up, gen.king_shift_down)
    spare = gen.men_spare_kings

    def can_step(own: int, k: int, empty: int, turn: int) -> bool:
        """Whether a piece of the side ``turn`` has a quiet move (a step to a free
        square next to it: every quiet move starts with one)."""
        men = own & ~k
        if men:
            for s in man_up[turn]:
                if (men << s) & empty:
                    return True
            for s in man_down[turn]:
                if (men >> s) & empty:
                    return True
        kings = own & k
        if kings:
            for s in king_steps[0]:
                if (kings << s) & empty:
                    return True
            for s in king_steps[1]:
                if (kings >> s) & empty:
                    return True
        return False

    def horizon_of(w: int, b: int, k: int, turn: int) -> tuple[list[FastMove], bool]:
        """(the captures of the side ``turn``, whether it can move at all), for a
        generator whose captures are its own (``plain``) and compulsory."""
        if turn:
            own, opp = b, w
        else:
            own, opp = w, b
        empty = mask & ~(w | b)
        men = own & ~k
        kings = own & k
        if men:
            prey = opp & ~k if spare else opp  # what a man may jump
            cand = 0
            for s in cap_up[turn]:
                cand |= (((empty >> s) & prey) >> s) & men
            for s in cap_down[turn]:
                cand |= (((empty << s) & prey) << s) & men
            if cand:
                return searches[turn](own, opp, k, empty, True, None), True
        if kings and king_captures(kings, w | b, opp, empty):
            return searches[turn](own, opp, k, empty, True, True), True
        return [], can_step(own, k, empty, turn)

    return can_step, horizon_of


def _compile(gen: MoveGenerator) -> None:
    """Build ``gen``'s hot functions as closures over its tables, with the factories
    above, and store them on ``gen``:

    * ``_capture_moves(own, opp, k, empty, turn)``: the capture moves (FastMove objects);
    * ``_moves_of(w, b, k, turn)``: the legal moves;
    * ``_count_position(w, b, k, turn)``: the number of legal moves, counting quiet moves
      and captures that cannot go on with whole-board operations (per side, a version
      written out with the shifts as constants);
    * ``_fast_perft(w, b, k, turn, depth)``: perft by copy-make on four ints;
    * ``_can_step`` and ``_horizon_of``: what :meth:`MoveGenerator.horizon` needs.

    When a subclass has its own ``_captures``, these functions call it for the captures.
    """
    tables = _tables(gen)
    king_captures, king_scan = _king_tests(gen, tables)
    single_jumps, cand_lands, goes_on = _man_jump_tests(gen)
    searches = (
        _capture_search(gen, tables, 0, king_captures, cand_lands, goes_on),
        _capture_search(gen, tables, 1, king_captures, cand_lands, goes_on),
    )
    capture_moves, count_captures, plain = _capture_entries(gen, searches)
    counts, count_position = _counters(
        gen, tables, searches, king_scan, count_captures, goes_on, plain
    )
    gen._capture_moves = capture_moves
    gen._moves_of = _move_lister(gen, tables, searches, capture_moves, king_captures, plain)
    gen._count_position = count_position
    gen._fast_perft = _perft(gen, tables, counts, searches, king_captures, single_jumps)
    gen._can_step, gen._horizon_of = _horizon(gen, tables, searches, king_captures)
