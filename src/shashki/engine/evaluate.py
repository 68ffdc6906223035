"""Static evaluation, one family at a time: all the variant knowledge of the engine.

An evaluator is a function ``evaluate(pos) -> int``: the position's value for the side
to move, in hundredths of a man (a man is worth 100).  :func:`evaluator_for` builds the
one of the family that the variant's generator names (its hook ``evaluation_family``) from
the registry :data:`EVALUATORS`, never from the variant's name:

* the diagonal games (dark squares): material with kings weighted by how they move,
  advancement, the back-rank guard, the centre, men's mobility, runaway men, the
  lone-king endings, and, where the variant ships tables for them, learned patterns of
  men (:mod:`shashki.engine.patterns`);
* the orthogonal games (all 64 squares, Turkish and Tama): material, advancement, men
  covered from behind and side by side, the open files in front of men;
* Bashni: the diagonal terms on the commanders plus the composition of each column
  (the pieces under the commander are lives, prisoners may be freed);
* goal games (Wolf and Sheep): the wolf's distance to the far row through the sheep,
  the sheep's wall;
* giveaway (the side without a move wins): material and mobility turned round;
* Artamonov's shared pieces: captured-count difference (the tie-break), promotion
  chances on each side's far row;
* double-move: the host's evaluation of the position inside the turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules.geometry import Direction, Geometry, absolute_direction
from ..rules.movegen import State
from ..rules.switches import NoMoves, Rules
from ..rules.variant import Variant
from . import patterns as _patterns
from .patterns import ONE

Evaluator = Callable[[State], int]

MAN = 100


def king_value(variant: Variant) -> int:
    """What a king is worth in men (x100), from how it moves and captures."""
    rules = variant.rules
    if not rules.promotion:
        return 2 * MAN
    fly = rules.king_moves_fly and rules.king_captures_fly
    if variant.board.all_squares:
        dirs = len(rules.king_moves)
        return 350 if fly and dirs >= 8 else (300 if fly else 160)
    if not fly:
        return 150
    if "value" in rules.precedence:
        # the rules value a king at two men less a trifle (docs/rules/switches.md#precedence,
        # Frisian Art. 11), and it may not roam at will (the same-king move limit)
        return 2 * MAN - 10
    return 300 if variant.board.height >= 10 else 260


def _shifts(
    geo: Geometry, names: tuple[str, ...], side: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The left and right shifts of one step in each of ``names`` for ``side``."""
    up: list[int] = []
    down: list[int] = []
    for name in names:
        s = geo.shift[absolute_direction(name, side)]
        if s is None:
            continue
        (up if s > 0 else down).append(abs(s))
    return tuple(up), tuple(down)


def _steps(bits: int, up: tuple[int, ...], down: tuple[int, ...]) -> int:
    out = 0
    for s in up:
        out |= bits << s
    for s in down:
        out |= bits >> s
    return out


def _relative_ranks(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rank masks as each side counts them: index 0 is the side's own first rank."""
    ranks = geo.rank_mask
    return tuple(ranks), tuple(reversed(ranks))


# -- the diagonal games ------------------------------------------------------------


#: The weights of the diagonal games' evaluation (hundredths of a man).
DIAGONAL_WEIGHTS: dict[str, int] = {
    "guard": 6,  # a man on its first rank while the opponent has men and no king
    "guard_late": 2,  # ... once the opponent has a king
    "centre": 4,  # a man on the central squares
    "mobility": 2,  # a free square in front of a man
    "crowning": 25,  # a man one step from the crown with the square free
    "near_crown": 6,  # a man on the two rows before the crown, while nobody has a king
    "supported": 0,  # a man covered from behind on both sides (it cannot be taken from the front)
    "isolated": 0,  # a man with no piece of its own beside it (a penalty)
    "balance": 0,  # per man of difference between the left and right halves (a penalty)
    "road": 12,  # a king on the main road
    "double": 4,  # a king on the double-corner diagonals
    "king_alone": 40,  # kings against men only
    "drawish": 1,  # on the big board, drawish material with kings scales the score down (1: on)
    "runaway": 60,  # a man no enemy piece can stop any more (the one nearest its crown)
}
#: Runaway men are looked for while at most this many men are on the board (with more,
#: a free road to the crown is rare and the look costs more than it finds).
RUNAWAY_MEN = 16
#: ... and among the men at most this many steps from their crown.
RUNAWAY_STEPS = 3


def diagonal_evaluator(
    variant: Variant,
    *,
    giveaway: bool = False,
    weights: dict[str, int] | None = None,
    patterns: bool | Sequence[int] | _patterns.Table = True,
) -> Evaluator:
    """Material, advancement, guard, centre, mobility, structure and endings for the
    dark-square games, and the learned patterns of men where the variant has them
    (``patterns=False`` leaves them out; a table or a sequence of values gives the
    tables to use): :meth:`DiagonalEvaluation.evaluate`."""
    return DiagonalEvaluation(
        variant, giveaway=giveaway, weights=weights, patterns=patterns
    ).evaluate


class DiagonalEvaluation:
    """The evaluation of the dark-square games, one method a term, each White's points
    (hundredths of a man) from the bitboards of the men and kings of each side:
    :meth:`material`, :meth:`advancement`, :meth:`guard`, :meth:`centre`,
    :meth:`mobility`, :meth:`crowning`, :meth:`near_crown`, :meth:`structure`,
    :meth:`balance`, :meth:`runaway`, :meth:`kings`; then :meth:`lone_king` and
    :meth:`drawish` scale the sum in the endings where the side ahead cannot force a
    win, and the learned patterns of men are added (:meth:`evaluate`).  Giveaway turns
    material and mobility round (:meth:`giveaway_score`).

    The tables of the terms are made once, from the board and the weights (see
    :data:`DIAGONAL_WEIGHTS`); a term whose weight is 0 is not computed."""

    __slots__ = (
        "adv_table",
        "back",
        "centre_mask",
        "cones",
        "double",
        "drawish_on",
        "edges",
        "flying",
        "hand_weights",
        "king",
        "last2",
        "left",
        "man_up",
        "mask",
        "near",
        "pattern_terms",
        "promo",
        "right",
        "road",
        "to_crown",
        "total_start",
        "turned_round",
        "w_alone",
        "w_bal",
        "w_centre",
        "w_crown",
        "w_double",
        "w_guard",
        "w_guard_late",
        "w_iso",
        "w_mob",
        "w_near",
        "w_road",
        "w_run",
        "w_sup",
    )

    def __init__(
        self,
        variant: Variant,
        *,
        giveaway: bool = False,
        weights: dict[str, int] | None = None,
        patterns: bool | Sequence[int] | _patterns.Table = True,
    ) -> None:
        wt = dict(DIAGONAL_WEIGHTS)
        if weights:
            wt.update(weights)
        geo = variant.board
        rules: Rules = variant.rules
        h = geo.height
        #: the giveaway games: material and mobility turned round (see giveaway_score)
        self.turned_round = giveaway
        self.mask = geo.mask
        self.king = king_value(variant)
        self.flying = rules.king_moves_fly
        self.drawish_on = bool(
            wt["drawish"] and self.flying and rules.king_captures_fly and h >= 10 and not giveaway
        )
        ranks0, ranks1 = _relative_ranks(geo)
        adv = _advancement(h)
        self.adv_table = _rank_weights(adv, ranks0, ranks1)
        self.back = (ranks0[0], ranks1[0])
        self.centre_mask = _centre(geo)
        self.left, self.right = _halves(geo)
        self.promo = (ranks0[h - 1], ranks1[h - 1])
        self.last2 = (ranks0[h - 2] | ranks0[h - 3], ranks1[h - 2] | ranks1[h - 3])
        self.man_up = (_shifts(geo, rules.man_moves, 0), _shifts(geo, rules.man_moves, 1))
        self.edges = _edges(geo)
        self.road = geo.main_road
        self.double = _double_corner(geo)
        start = variant.generator.material(_start_position(variant))
        self.total_start = max(1, start[0][1] * 2)
        self.w_guard, self.w_guard_late = wt["guard"], wt["guard_late"]
        self.w_centre, self.w_mob = wt["centre"], wt["mobility"]
        self.w_crown, self.w_near = wt["crowning"], wt["near_crown"]
        self.w_sup, self.w_iso, self.w_bal = wt["supported"], wt["isolated"], wt["balance"]
        self.w_road, self.w_double, self.w_alone = wt["road"], wt["double"], wt["king_alone"]
        self.w_run = wt["runaway"] if rules.promotion and not giveaway else 0
        self.cones, self.to_crown, self.near = _runaway_tables(geo)
        self.pattern_terms: Sequence[Callable[[int, int], int]] | None = None
        # the hand-written terms' weight by the number of men (in 1/ONE), when the tables
        # were fitted with one
        self.hand_weights: tuple[int, ...] | None = None
        table = _pattern_table(variant, patterns, giveaway)
        if table and table.values:
            # the per-square terms of men (advancement, centre) go into the tables: one
            # look-up instead of a popcount per term
            own = {}
            for p in geo.squares:
                c = self.w_centre if self.centre_mask >> p & 1 else 0
                own[p] = (adv[geo.rank_of[p]] + c, adv[h - 1 - geo.rank_of[p]] + c)
            key = (variant.id, id(table), tuple(sorted(own.items())))
            built = _BUILT.get(key)
            if built is None or built[0] is not table:
                pats = _patterns.windows_of(geo, table.shape)
                built = _BUILT[key] = (table, *_pattern_terms(pats, table, own, variant))
            self.pattern_terms, self.hand_weights = built[1], built[2]
            self.adv_table = ()
            self.w_centre = 0

    def evaluate(self, pos: State) -> int:
        """The value of ``pos`` for the side to move: the sum of the terms."""
        white, black, kings, turn = pos[0], pos[1], pos[2], pos[3]
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        empty = self.mask & ~(white | black)
        if self.turned_round:
            score = self.giveaway_score(wm, bm, wk, bk, empty)
            return -score if turn else score
        nwm = wm.bit_count()
        nbm = bm.bit_count()
        nwk = wk.bit_count()
        nbk = bk.bit_count()
        score = self.material(nwm, nbm, nwk, nbk)
        s = self.advancement(wm, bm) if self.adv_table else 0
        s += self.guard(wm, bm, nwm, nbm, nwk, nbk)
        if self.w_centre:
            s += self.centre(wm, bm)
        # the free squares in front of the men
        up, down = self.man_up[0]
        fw = _steps(wm, up, down) & empty
        up, down = self.man_up[1]
        fb = _steps(bm, up, down) & empty
        s += self.mobility(fw, fb) + self.crowning(fw, fb)
        if not (nbk or nwk):
            s += self.near_crown(wm, bm)
        if self.w_sup or self.w_iso:
            s += self.structure(white, black, wm, bm)
        if self.w_bal and nwm + nbm > 6:
            s += self.balance(wm, bm)
        if self.w_run and not (wk or bk) and nwm + nbm <= RUNAWAY_MEN:
            s += self.runaway(wm, bm, white, black, turn)
        if wk or bk:
            s += self.kings(wk, bk, nwk, nbk)
            if nwk + nbk <= 4 and not (nwm or nbm):
                s = self.lone_king(s, score, wk, bk, nwk, nbk)
        score += s
        if self.hand_weights is not None:
            f = self.hand_weights[nwm + nbm]
            score = score * f // ONE if score >= 0 else -(-score * f // ONE)
        if self.pattern_terms is not None and (nwm or nbm):
            score += self.pattern_terms[nwm + nbm](wm, bm)
        if self.drawish_on and (nwk or nbk):
            score = self.drawish(score, white | black, wk, bk, nwm, nbm, nwk, nbk)
        return -score if turn else score

    # -- the terms (White's points) ---------------------------------------------------

    def material(self, nwm: int, nbm: int, nwk: int, nbk: int) -> int:
        """Men and kings, a king worth :func:`king_value`; trading down when ahead (the
        fewer pieces left of those the game started with, the more a lead counts)."""
        score = (nwm - nbm) * MAN + (nwk - nbk) * self.king
        pieces = nwm + nbm + nwk + nbk
        total = self.total_start
        if score and pieces < total:
            score += score * (total - pieces) // (2 * total)
        return score

    def advancement(self, wm: int, bm: int) -> int:
        """Men by their rank: small at first, growing as they near the crown (one
        popcount per bit of the ranks' weights)."""
        s = 0
        for weight, m0, m1 in self.adv_table:
            s += weight * ((wm & m0).bit_count() - (bm & m1).bit_count())
        return s

    def guard(self, wm: int, bm: int, nwm: int, nbm: int, nwk: int, nbk: int) -> int:
        """Men on their own first rank while the opponent has men to crown (less once
        the opponent has a king)."""
        s = 0
        if nbm:
            s += (wm & self.back[0]).bit_count() * (self.w_guard if nbk == 0 else self.w_guard_late)
        if nwm:
            s -= (bm & self.back[1]).bit_count() * (self.w_guard if nwk == 0 else self.w_guard_late)
        return s

    def centre(self, wm: int, bm: int) -> int:
        """Men on the middle files of the middle ranks."""
        centre = self.centre_mask
        return self.w_centre * ((wm & centre).bit_count() - (bm & centre).bit_count())

    def mobility(self, fw: int, fb: int) -> int:
        """The free squares in front of the men (``fw``, ``fb``)."""
        return self.w_mob * (fw.bit_count() - fb.bit_count())

    def crowning(self, fw: int, fb: int) -> int:
        """Men one step from the crown with the square free."""
        s = 0
        promo = self.promo
        if fw & promo[0]:
            s += self.w_crown * (fw & promo[0]).bit_count()
        if fb & promo[1]:
            s -= self.w_crown * (fb & promo[1]).bit_count()
        return s

    def near_crown(self, wm: int, bm: int) -> int:
        """Men on the two rows before the crown, while nobody has a king."""
        last2 = self.last2
        return self.w_near * ((wm & last2[0]).bit_count() - (bm & last2[1]).bit_count())

    def structure(self, white: int, black: int, wm: int, bm: int) -> int:
        """Men covered from behind on both sides (they cannot be taken from the front),
        and men with no piece of their own beside them (a penalty)."""
        s_ne, s_nw, e_ne, e_nw, e_se, e_sw = self.edges
        # White's back is south: a man is covered when both squares behind it hold a
        # piece of its own or are off the board.
        cw = wm & ((white << s_ne) | e_sw) & ((white << s_nw) | e_se)
        cb = bm & ((black >> s_ne) | e_ne) & ((black >> s_nw) | e_nw)
        nw_ = (white << s_ne) | (white << s_nw) | (white >> s_ne) | (white >> s_nw)
        nb_ = (black << s_ne) | (black << s_nw) | (black >> s_ne) | (black >> s_nw)
        return self.w_sup * (cw.bit_count() - cb.bit_count()) - self.w_iso * (
            (wm & ~nw_).bit_count() - (bm & ~nb_).bit_count()
        )

    def balance(self, wm: int, bm: int) -> int:
        """The difference between the men on the left and right halves (a penalty)."""
        left, right = self.left, self.right
        return -self.w_bal * (
            abs((wm & left).bit_count() - (wm & right).bit_count())
            - abs((bm & left).bit_count() - (bm & right).bit_count())
        )

    def runaway(self, wm: int, bm: int, white: int, black: int, turn: int) -> int:
        """The men no enemy piece can stop, when the enemy has no king to catch them:
        the side whose man crowns first (the side to move first on equal steps) gains.
        A man runs away when no enemy piece stands ahead of it, within one file more
        than the ranks between them on either side (an enemy man could still step in
        its way)."""
        run = [99, 99]
        for side, men, enemy in ((0, wm, black), (1, bm, white)):
            cones = self.cones[side]
            to_crown = self.to_crown[side]
            x = men & self.near[side]
            while x:
                b = x & -x
                x ^= b
                p = b.bit_length() - 1
                if not cones[p] & enemy and to_crown[p] < run[side]:
                    run[side] = to_crown[p]
        run_w, run_b = run
        if run_w >= 99 and run_b >= 99:
            return 0
        if run_w < run_b or (run_w == run_b and turn == 0):
            return self.w_run
        return -self.w_run

    def kings(self, wk: int, bk: int, nwk: int, nbk: int) -> int:
        """Flying kings on the main road and the double-corner diagonals; a king against
        men only is worth more than its material."""
        s = 0
        if self.flying:
            road, double = self.road, self.double
            s += self.w_road * ((wk & road).bit_count() - (bk & road).bit_count())
            s += self.w_double * ((wk & double).bit_count() - (bk & double).bit_count())
        if nwk and not nbk:
            s += self.w_alone
        elif nbk and not nwk:
            s -= self.w_alone
        return s

    # -- the endings: the sum scaled ----------------------------------------------------

    def lone_king(self, s: int, score: int, wk: int, bk: int, nwk: int, nbk: int) -> int:
        """The hand-written terms ``s`` of an ending of kings alone, four at most: a lone
        king against a king and more is drawn in practice unless it loses the main road;
        the score is kept modest (``score``, the material) so that the search looks for
        the real win."""
        s //= 2
        if score > 0 and nbk == 1 and not (bk & self.road):
            s += 30
        elif score < 0 and nwk == 1 and not (wk & self.road):
            s -= 30
        return s

    def drawish(
        self, score: int, occupied: int, wk: int, bk: int, nwm: int, nbm: int, nwk: int, nbk: int
    ) -> int:
        """Drawish material on the big board, where a flying king is hard to catch: the
        side ahead with three pieces or fewer against a king cannot force the win (a
        lone king alone on the main road never loses), and with kings on both sides and
        the men about level it rarely does.  (Against Scan 2.0's scores of positions with
        kings: correlation 0.76 -> 0.89.)"""
        if score > 0 and nbk:
            if nwm + nwk <= 3:
                score //= self.lone_king_divisor(occupied, bk, nbm)
            elif nwk == nbk and -1 <= nwm - nbm <= 1:
                score //= 2
        elif score < 0 and nwk:
            if nbm + nbk <= 3:
                score = -(-score // self.lone_king_divisor(occupied, wk, nwm))
            elif nwk == nbk and -1 <= nwm - nbm <= 1:
                score = -(-score // 2)
        return score

    def lone_king_divisor(self, occupied: int, weak_kings: int, weak_men: int) -> int:
        """What the score of three pieces or fewer against a king is divided by: 64 for
        a lone king alone on the main road (three kings against it: not one of the
        72,876 quiet positions with it to move is won, by the exact table of the
        material), 8 for the rest (drawish: 2 to 3% of those positions are won)."""
        if not weak_men and weak_kings.bit_count() == 1 and occupied & self.road == weak_kings:
            return 64
        return 8

    def giveaway_score(self, wm: int, bm: int, wk: int, bk: int, empty: int) -> int:
        """Giveaway: material turned round, and being blocked wins (fewer own moves is
        better)."""
        mat_w = wm.bit_count() * MAN + wk.bit_count() * self.king
        mat_b = bm.bit_count() * MAN + bk.bit_count() * self.king
        up, down = self.man_up[0]
        mw = (_steps(wm, up, down) & empty).bit_count()
        up, down = self.man_up[1]
        mb = (_steps(bm, up, down) & empty).bit_count()
        return mat_b - mat_w + 2 * (mb - mw)


# -- the diagonal evaluation's tables ------------------------------------------------------


def _advancement(h: int) -> tuple[int, ...]:
    """The advancement of a man by its own rank (0 = own first rank) on a board of ``h``
    ranks: small at first, growing as it nears the crown."""
    base: tuple[int, ...] = (0, 0, 1, 3, 6, 10, 15, 22, 32) if h >= 10 else (0, 0, 3, 7, 12, 20, 32)
    return base[: h - 1] + (0,) * (h - len(base[: h - 1]))


def _rank_weights(
    adv: tuple[int, ...], ranks0: tuple[int, ...], ranks1: tuple[int, ...]
) -> tuple[tuple[int, int, int], ...]:
    """The weighted sum over ranks by bits of the weights: (bit, White's ranks with that
    bit of the weight, Black's), one popcount per bit."""
    out = []
    for bit in range(max(adv).bit_length()):
        m0 = m1 = 0
        for r in range(len(ranks0)):
            if adv[r] >> bit & 1:
                m0 |= ranks0[r]
                m1 |= ranks1[r]
        out.append((1 << bit, m0, m1))
    return tuple(out)


def _centre(geo: Geometry) -> int:
    """The middle files of the middle ranks."""
    w, h = geo.width, geo.height
    centre = 0
    for p in geo.squares:
        f, r = geo.file_of[p], geo.rank_of[p]
        if 2 <= f <= w - 3 and 2 <= r <= h - 3 and 1 <= abs(2 * f - (w - 1)) <= w // 2:
            centre |= 1 << p
    return centre


def _halves(geo: Geometry) -> tuple[int, int]:
    """The squares of the left and of the right half of the board."""
    left = 0
    for p in geo.squares:
        if 2 * geo.file_of[p] < geo.width:
            left |= 1 << p
    return left, geo.mask & ~left


def _edges(geo: Geometry) -> tuple[int, int, int, int, int, int]:
    """The shifts of a step north-east and north-west, and the squares without a
    neighbour north-east, north-west, south-east and south-west."""

    def edge(d: Direction) -> int:
        out = 0
        for p in geo.squares:
            if geo.step[d][p] < 0:
                out |= 1 << p
        return out

    return (
        geo.shift[Direction.NE] or 0,
        geo.shift[Direction.NW] or 0,
        edge(Direction.NE),
        edge(Direction.NW),
        edge(Direction.SE),
        edge(Direction.SW),
    )


def _double_corner(geo: Geometry) -> int:
    """The two long diagonals next to the main road ("double corner" lines)."""
    w = geo.width
    double = 0
    for p in geo.squares:
        f, r = geo.file_of[p], geo.rank_of[p]
        if f + r == w - 1 or abs(f - r) == 0:
            continue
        if abs((w - 1 - f) - r) == 1:
            double |= 1 << p
    return double


def _runaway_tables(
    geo: Geometry,
) -> tuple[tuple[dict[int, int], dict[int, int]], tuple[dict[int, int], dict[int, int]], list[int]]:
    """Per side: the squares ahead of a man on each square where an enemy piece could
    still stop it (within one file more than the ranks between them), its steps left to
    the crown, and the men close enough to their crown to be looked at."""
    h = geo.height
    cones: tuple[dict[int, int], dict[int, int]] = ({}, {})
    to_crown: tuple[dict[int, int], dict[int, int]] = ({}, {})
    near = [0, 0]
    for side in (0, 1):
        for p in geo.squares:
            f, r = geo.file_of[p], geo.rank_of[p]
            steps = h - 1 - r if side == 0 else r
            m = 0
            for q in geo.squares:
                ahead = geo.rank_of[q] - r if side == 0 else r - geo.rank_of[q]
                if ahead > 0 and abs(geo.file_of[q] - f) <= ahead + 1:
                    m |= 1 << q
            cones[side][p] = m
            to_crown[side][p] = steps
            if 0 < steps <= RUNAWAY_STEPS:
                near[side] |= 1 << p
    return cones, to_crown, near


def _pattern_table(
    variant: Variant, patterns: bool | Sequence[int] | _patterns.Table, giveaway: bool
) -> _patterns.Table | None:
    """The learned patterns asked for: the variant's own (``True``, none in giveaway),
    none (``False``), or the table or values given."""
    if isinstance(patterns, bool):
        return _patterns.load(variant.id, variant.board) if patterns and not giveaway else None
    if isinstance(patterns, _patterns.Table):
        return patterns
    return _patterns.Table(tuple(patterns))


#: The pattern terms made for a table (by variant, table and folded hand terms): made
#: once, shared by every evaluator of the variant (the table is kept with them).
_BUILT: dict[
    tuple[str, int, tuple[tuple[int, tuple[int, int]], ...]],
    tuple[_patterns.Table, Sequence[Callable[[int, int], int]], tuple[int, ...] | None],
] = {}


def _pattern_terms(
    pats: _patterns.Patterns,
    table: _patterns.Table,
    own: dict[int, tuple[int, int]],
    variant: Variant,
) -> tuple[Sequence[Callable[[int, int], int]], tuple[int, ...] | None]:
    """The pattern term for each number of men on the board (index: the men of both
    sides), and the hand-written terms' weight for each (None: all :data:`ONE`).  One
    set of tables serves every count; with a start and an end set, each count gets the
    blend of the two that :func:`~shashki.engine.patterns.phase_of` says (so the
    evaluation still makes one look-up a window), made the first time a position of
    that phase is evaluated.  The per-square hand terms ``own`` folded into the tables
    take the hand weight of their phase."""
    size = variant.board.size + 1
    values = table.values
    if _patterns.phases(pats, values) == 1:
        return (pats.evaluator(pats.fold(values, own)),) * size, None
    count = len(values) // 2
    pos = _start_position(variant)
    start_men = ((pos[0] | pos[1]) & ~pos[2]).bit_count()
    same: dict[int, int] = {}  # equal values share one int object (smaller tables)
    phase_at = [_patterns.phase_of(men, start_men) for men in range(size)]
    weights = [_patterns.blend(table.hand[:1], table.hand[1:], ph)[0] for ph in phase_at]
    terms: list[Callable[[int, int], int]] = []

    # the folding is linear: each set takes the hand terms at its own weight once, and
    # a blend of the folded sets is the blend folded
    start, end = (
        pats.fold(tables, {p: (wv * hand // ONE, bv * hand // ONE) for p, (wv, bv) in own.items()})
        for tables, hand in (
            (values[:count], table.hand[0]),
            (values[count:], table.hand[1]),
        )
    )

    def make(phase: float) -> Callable[[int, int], int]:
        def first(white_men: int, black_men: int) -> int:
            blend = _patterns.blend(start, end, phase)
            term = pats.evaluator([same.setdefault(v, v) for v in blend])
            for men in range(size):
                if phase_at[men] == phase:
                    terms[men] = term
            return term(white_men, black_men)

        return first

    made: dict[float, Callable[[int, int], int]] = {}
    for men in range(size):
        phase = phase_at[men]
        if phase not in made:
            made[phase] = make(phase)
        terms.append(made[phase])
    if all(w == ONE for w in weights):
        return terms, None
    return terms, tuple(weights)


def _start_position(variant: Variant) -> State:
    from ..rules.fen import parse_fen

    return parse_fen(variant, variant.start).position


# -- the orthogonal games -------------------------------------------------------------


def orthogonal_evaluator(variant: Variant, *, giveaway: bool = False) -> Evaluator:
    """Material, advancement and formations for the games on all 64 squares."""
    geo = variant.board
    rules = variant.rules
    mask = geo.mask
    h = geo.height
    king = king_value(variant)
    ranks0, ranks1 = _relative_ranks(geo)
    adv = (0, 0, 2, 5, 9, 15, 24, 0) if h == 8 else tuple(min(30, (r * r) // 2) for r in range(h))
    adv_rows = (
        tuple((ranks0[r], adv[r]) for r in range(h) if r < len(adv) and adv[r]),
        tuple((ranks1[r], adv[r]) for r in range(h) if r < len(adv) and adv[r]),
    )
    north = geo.shift[Direction.N] or 0
    east = geo.shift[Direction.E] or 1
    first = (ranks0[0], ranks1[0])
    promo = (ranks0[h - 1], ranks1[h - 1])
    man_up = (_shifts(geo, rules.man_moves, 0), _shifts(geo, rules.man_moves, 1))

    def evaluate(pos: State) -> int:
        white, black, kings, turn = pos[0], pos[1], pos[2], pos[3]
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        nw = wm.bit_count()
        nb = bm.bit_count()
        mat = (nw - nb) * MAN + (wk.bit_count() - bk.bit_count()) * king
        if giveaway:
            return mat if turn else -mat
        s = 0
        for m, v in adv_rows[0]:
            if wm & m:
                s += (wm & m).bit_count() * v
        for m, v in adv_rows[1]:
            if bm & m:
                s -= (bm & m).bit_count() * v
        # covered from behind (a jump from the front needs an empty square there)
        s += 3 * (wm & ((white << north) | first[0])).bit_count()
        s -= 3 * (bm & ((black >> north) | first[1])).bit_count()
        # side by side
        s += 2 * (wm & ((white << east) | (white >> east))).bit_count()
        s -= 2 * (bm & ((black << east) | (black >> east))).bit_count()
        empty = mask & ~(white | black)
        up, down = man_up[0]
        fw = _steps(wm, up, down) & empty
        up, down = man_up[1]
        fb = _steps(bm, up, down) & empty
        if fw & promo[0]:
            s += 30 * (fw & promo[0]).bit_count()
        if fb & promo[1]:
            s -= 30 * (fb & promo[1]).bit_count()
        score = mat + s
        return -score if turn else score

    return evaluate


# -- Bashni ------------------------------------------------------------------------------

#: A piece inside a column under a commander of its own colour: a life in reserve.
RESERVE = 70
#: A piece held below a piece of the other colour: it may be freed later.
PRISONER = 35


def bashni_evaluator(variant: Variant) -> Evaluator:
    """The diagonal terms on the commanders plus the pieces inside the columns."""
    base = diagonal_evaluator(variant)
    king = king_value(variant)
    memo: dict[str, int] = {}

    def column(stack: str) -> int:
        """What the pieces under the top of ``stack`` are worth to White."""
        got = memo.get(stack)
        if got is not None:
            return got
        top_white = stack[-1] in "wW"
        value = 0
        freed = False
        for c in reversed(stack[:-1]):
            white = c in "wW"
            worth = king if c in "WB" else MAN
            if not freed and white == top_white:
                v = worth * RESERVE // 100
            else:
                freed = True
                v = worth * PRISONER // 100
            value += v if white else -v
        memo[stack] = value
        return value

    def evaluate(pos: State) -> int:
        score = base(pos)
        cols = pos[4]
        if cols:
            extra = 0
            for _, stack in cols:
                extra += column(stack)
            score += -extra if pos[3] else extra
        return score

    return evaluate


# -- goal games (Wolf and Sheep) -----------------------------------------------------------


def goal_evaluator(variant: Variant) -> Evaluator:
    """A race to a row (Wolf and Sheep): the runner's distance to its goal row through the
    blockers, the room it has, and the blockers' wall."""
    geo = variant.board
    goal = variant.goals[0]
    runner = int(goal.side)
    target = geo.rank_mask[goal.rank - 1]
    mask = geo.mask
    up: list[int] = []
    down: list[int] = []
    for d in (
        Direction.NE,
        Direction.NW,
        Direction.SE,
        Direction.SW,
        Direction.N,
        Direction.S,
        Direction.E,
        Direction.W,
    ):
        s = geo.shift[d]
        if s is None or not any(geo.step[d][p] >= 0 for p in geo.squares):
            continue
        if d.diagonal or geo.all_squares:
            (up if s > 0 else down).append(abs(s))
    shifts_up, shifts_down = tuple(up), tuple(down)
    rows = tuple(geo.rank_mask)

    def flood(start: int, free: int) -> tuple[int, int]:
        """(steps to the goal row or -1, squares reachable) from ``start`` over ``free``."""
        reached = start
        frontier = start
        steps = 0
        found = -1 if not start & target else 0
        while frontier:
            grow = 0
            for s in shifts_up:
                grow |= frontier << s
            for s in shifts_down:
                grow |= frontier >> s
            frontier = grow & free & ~reached
            reached |= frontier
            steps += 1
            if found < 0 and frontier & target:
                found = steps
        return found, reached.bit_count()

    def evaluate(pos: State) -> int:
        runners = pos[runner]
        blockers = pos[1 - runner]
        free = mask & ~(runners | blockers)
        score = 0
        bits = runners
        while bits:
            low = bits & -bits
            bits ^= low
            d, room = flood(low, free)
            if d < 0:
                score += 4 * room - 500
            else:
                score += 240 - 30 * d + 2 * room
        # the wall: blockers on few rows
        used = [r for r in range(len(rows)) if blockers & rows[r]]
        if used:
            score += 10 * (used[-1] - used[0])
        return score if pos[3] == runner else -score

    return evaluate


# -- Artamonov ------------------------------------------------------------------------------


def artamonov_evaluator(variant: Variant) -> Evaluator:
    """Shared pieces: what counts is who captured more (the tie-break) and who can crown."""
    geo = variant.board
    h = geo.height
    top = geo.rank_mask[h - 1] | geo.rank_mask[h - 2]
    bottom = geo.rank_mask[0] | geo.rank_mask[1]

    def evaluate(pos: State) -> int:
        extra = pos[4] or (-1, 0, 0, -1)
        south, north = extra[1], extra[2]
        pieces, kings = pos[0], pos[2]
        men = pieces & ~kings
        score = (south - north) * MAN
        # South crowns on the top rows, North on the bottom ones
        score += 8 * ((men & top).bit_count() - (men & bottom).bit_count())
        if extra[3] >= 0:  # the tie-break count is running: the captures decide
            score *= 2
        return -score if pos[3] else score

    return evaluate


# -- choosing ----------------------------------------------------------------------------


def _giveaway(variant: Variant) -> bool:
    """Whether the side left without a move wins (the giveaway games)."""
    return variant.rules.no_moves is NoMoves.WINS


def dark_squares_evaluator(variant: Variant) -> Evaluator:
    """The diagonal games' evaluation, turned round for giveaway."""
    return diagonal_evaluator(variant, giveaway=_giveaway(variant))


def all_squares_evaluator(variant: Variant) -> Evaluator:
    """The orthogonal games' evaluation, turned round for giveaway."""
    return orthogonal_evaluator(variant, giveaway=_giveaway(variant))


#: The evaluations by family: the generator's ``evaluation_family`` (a hook of
#: :class:`~shashki.rules.hooks.GeneratorHooks`) names the one that builds its variant's
#: evaluator.
EVALUATORS: dict[str, Callable[[Variant], Evaluator]] = {
    "dark-squares": dark_squares_evaluator,
    "all-squares": all_squares_evaluator,
    "stacks": bashni_evaluator,
    "shared-pieces": artamonov_evaluator,
    "goal-race": goal_evaluator,
}


def evaluator_for(variant: Variant) -> Evaluator:
    """The evaluation of ``variant``'s family (see the module's docstring); where the
    generator wraps its host's positions (double-move), the host's evaluation of the
    position inside the turn."""
    gen = variant.generator
    ev = EVALUATORS[gen.evaluation_family()](variant)
    view = gen.host_view()
    if view is None:
        return ev

    def hosted(pos: State) -> int:
        return ev(view(pos))

    return hosted
