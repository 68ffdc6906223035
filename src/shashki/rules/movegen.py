"""The generic move generator of the diagonal and orthogonal games (RULES.md §0.4).

A position is a tuple ``(white, black, kings, turn, extra)``: three bitboards over the
layout of :mod:`~shashki.rules.geometry`, the side to move (0 or 1) and variant state
that the standard games do not use (None).  The generator is compiled once per variant
from its :class:`~shashki.rules.rules.Rules`; its hot loops use only ints, tuples and
precomputed tables.  Variants that data cannot describe subclass it and override the
hooks (``moves``, ``apply`` …), never by testing a variant's name here.
"""

from __future__ import annotations

from typing import Any

from .geometry import Direction, Geometry, absolute_direction
from .hooks import GeneratorHooks
from .move import Color, Kind, Move, Piece
from .rules import CaptureChoice, KingLanding, PromotionInCapture, Removal, Rules

#: (white, black, kings, turn, extra)
Position = tuple[int, int, int, int, Any]

_MOVE_CACHE: dict[int, dict[tuple[int, int], Move]] = {}


def quiet_move_table(geo: Geometry) -> dict[tuple[int, int], Move]:
    """Every non-capturing move along a line of the board, shared by all variants."""
    table = _MOVE_CACHE.get(id(geo))
    if table is None:
        table = {}
        for d in Direction:
            for p in geo.squares:
                for q in geo.ray[d][p]:
                    table[(p, q)] = Move((p, q))
        _MOVE_CACHE[id(geo)] = table
    return table


class MoveGenerator(GeneratorHooks):
    """Legal moves, move counts and move application for one variant's rules."""

    def __init__(self, geo: Geometry, rules: Rules) -> None:
        self.geo = geo
        self.rules = rules
        self.mask = geo.mask
        size = geo.size
        quiet = quiet_move_table(geo)

        def dirs_for(names: tuple[str, ...], side: int) -> tuple[int, ...]:
            out = []
            for name in names:
                d = absolute_direction(name, side)
                if geo.shift[d] is None:
                    raise ValueError(
                        f"direction {name!r} is not possible on a board of dark squares only"
                    )
                out.append(int(d))
            return tuple(out)

        # Promotion rows: side 0 promotes on the last rank, side 1 on the first.
        self.promo = (
            (geo.rank_mask[geo.height - 1], geo.rank_mask[0]) if rules.promotion else (0, 0)
        )

        # Men's steps: (shift, table of the move arriving at each square), split by sign.
        self.man_up: list[tuple[tuple[int, dict[int, Move]], ...]] = []
        self.man_down: list[tuple[tuple[int, dict[int, Move]], ...]] = []
        self.man_cap_dirs: list[tuple[int, ...]] = []
        self.man_cap_up: list[tuple[int, ...]] = []
        self.man_cap_down: list[tuple[int, ...]] = []
        for side in (0, 1):
            up, down = [], []
            for d in dirs_for(rules.man_moves, side):
                s = geo.shift[d]
                assert s is not None
                # keyed by the bit of the arrival square: no bit_length() in the loop
                arrive: dict[int, Move] = {}
                for p in geo.squares:
                    q = geo.step[d][p]
                    if q >= 0:
                        arrive[1 << q] = quiet[(p, q)]
                (up if s > 0 else down).append((abs(s), arrive))
            self.man_up.append(tuple(up))
            self.man_down.append(tuple(down))
            cdirs = dirs_for(rules.man_captures, side)
            self.man_cap_dirs.append(cdirs)
            self.man_cap_up.append(tuple(geo.shift[d] for d in cdirs if geo.shift[d] > 0))  # type: ignore[operator,misc]
            self.man_cap_down.append(tuple(-geo.shift[d] for d in cdirs if geo.shift[d] < 0))  # type: ignore[operator,misc]

        kmove_dirs = dirs_for(rules.king_moves, 0)
        self.king_cap_dirs = dirs_for(rules.king_captures, 0)
        # King move rays per square, cut to one step for short kings, with the moves.
        self.king_rays: list[tuple[tuple[tuple[int, Move], ...], ...]] = [()] * size
        for p in geo.squares:
            rays = []
            for d in kmove_dirs:
                ray = geo.ray[d][p]
                if not rules.king_moves_fly:
                    ray = ray[:1]
                if ray:
                    rays.append(tuple((q, quiet[(p, q)]) for q in ray))
            self.king_rays[p] = tuple(rays)
        # King move shifts, for counting moves with whole-board operations.
        self.king_shift_up = tuple(geo.shift[d] for d in kmove_dirs if geo.shift[d] > 0)  # type: ignore[operator]
        self.king_shift_down = tuple(-geo.shift[d] for d in kmove_dirs if geo.shift[d] < 0)  # type: ignore[operator]

        # Short jumps per square: (direction, victim bit, victim, landing, landing bit).
        def jump_table(dirs: tuple[int, ...]) -> list[tuple[tuple[int, int, int, int, int], ...]]:
            table: list[tuple[tuple[int, int, int, int, int], ...]] = [()] * size
            for p in geo.squares:
                row = []
                for d in dirs:
                    v = geo.step[d][p]
                    land = geo.step[d][v] if v >= 0 else -1
                    if land >= 0:
                        row.append((d, 1 << v, v, land, 1 << land))
                table[p] = tuple(row)
            return table

        self.man_jumps = [jump_table(self.man_cap_dirs[0]), jump_table(self.man_cap_dirs[1])]
        self.king_jumps = jump_table(self.king_cap_dirs)
        self.cap_ray = geo.ray
        self.step = geo.step
        self.majority = rules.capture_choice is CaptureChoice.MAJORITY
        self.immediate = rules.removal is Removal.IMMEDIATE
        self.no_180 = rules.no_180
        self.king_fly = rules.king_captures_fly
        self.must_continue = rules.king_landing is KingLanding.MUST_CONTINUE
        self.promo_rule = rules.promotion_in_capture
        self.promo_continue = rules.promotion_in_capture is PromotionInCapture.CONTINUE_AS_KING
        self.promo_stop = rules.promotion_in_capture is PromotionInCapture.STOP
        self.mandatory = rules.capture_mandatory

    # -- positions ------------------------------------------------------------

    def piece_at(self, pos: Position, square: int) -> Piece | None:
        bit = 1 << square
        kind = Kind.KING if pos[2] & bit else Kind.MAN
        if pos[0] & bit:
            return Piece(Color.WHITE, kind)
        if pos[1] & bit:
            return Piece(Color.BLACK, kind)
        return None

    def material(self, pos: Position) -> tuple[tuple[int, int], tuple[int, int]]:
        """((kings, men) of side 0, (kings, men) of side 1)."""
        w, b, k = pos[0], pos[1], pos[2]
        wk = (w & k).bit_count()
        bk = (b & k).bit_count()
        return (wk, w.bit_count() - wk), (bk, b.bit_count() - bk)

    def key(self, pos: Position) -> Any:
        """What makes two positions the same for the repetition rule."""
        return pos

    # -- move generation --------------------------------------------------------

    def moves(self, pos: Position) -> list[Move]:
        """The legal moves of the side to move (compulsory captures already applied)."""
        w, b, k, turn, _ = pos
        if turn:
            own, opp = b, w
        else:
            own, opp = w, b
        occ = w | b
        empty = self.mask & ~occ
        moves = self._captures(own, opp, k, empty, turn)
        if moves and self.mandatory:
            return moves
        men = own & ~k
        if men:
            for s, arrive in self.man_up[turn]:
                t = (men << s) & empty
                while t:
                    low = t & -t
                    moves.append(arrive[low])
                    t ^= low
            for s, arrive in self.man_down[turn]:
                t = (men >> s) & empty
                while t:
                    low = t & -t
                    moves.append(arrive[low])
                    t ^= low
        kings = own & k
        king_rays = self.king_rays
        while kings:
            low = kings & -kings
            kings ^= low
            for ray in king_rays[low.bit_length() - 1]:
                for q, mv in ray:
                    if occ >> q & 1:
                        break
                    moves.append(mv)
        return moves

    def captures(self, pos: Position) -> list[Move]:
        """The capturing moves the side to move may make (empty if it has none)."""
        w, b, k, turn = pos[0], pos[1], pos[2], pos[3]
        own, opp = (b, w) if turn else (w, b)
        return self._captures(own, opp, k, self.mask & ~(w | b), turn)

    def count(self, pos: Position) -> int:
        """``len(self.moves(pos))``, without building the quiet moves."""
        w, b, k, turn, _ = pos
        if turn:
            own, opp = b, w
        else:
            own, opp = w, b
        occ = w | b
        empty = self.mask & ~occ
        caps = self._captures(own, opp, k, empty, turn)
        if caps and self.mandatory:
            return len(caps)
        n = len(caps)
        men = own & ~k
        if men:
            for s, _ in self.man_up[turn]:
                n += ((men << s) & empty).bit_count()
            for s, _ in self.man_down[turn]:
                n += ((men >> s) & empty).bit_count()
        kings = own & k
        if kings:
            if self.rules.king_moves_fly:
                for s in self.king_shift_up:
                    x = kings
                    while x:
                        x = (x << s) & empty
                        n += x.bit_count()
                for s in self.king_shift_down:
                    x = kings
                    while x:
                        x = (x >> s) & empty
                        n += x.bit_count()
            else:
                for s in self.king_shift_up:
                    n += ((kings << s) & empty).bit_count()
                for s in self.king_shift_down:
                    n += ((kings >> s) & empty).bit_count()
        return n

    def apply(self, pos: Position, mv: Move) -> Position:
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

    # -- captures -------------------------------------------------------------

    def _captures(self, own: int, opp: int, k: int, empty: int, turn: int) -> list[Move]:
        men = own & ~k
        cand = 0
        if men:
            for s in self.man_cap_up[turn]:
                cand |= (((empty >> s) & opp) >> s) & men
            for s in self.man_cap_down[turn]:
                cand |= (((empty << s) & opp) << s) & men
        kings = own & k
        if not cand and not kings:
            return []
        found: dict[tuple[int, int, int, bool], Move] = {}
        occ = own | opp
        while cand:
            low = cand & -cand
            cand ^= low
            p = low.bit_length() - 1
            self._man_search(p, p, occ ^ low, opp, turn, -1, [p], [], 0, 0, found)
        while kings:
            low = kings & -kings
            kings ^= low
            p = low.bit_length() - 1
            self._king_search(p, p, occ ^ low, opp, turn, -1, [p], [], 0, 0, found)
        if self.majority and len(found) > 1:
            best = max(len(m[1]) for m in found.values())
            return [m for m in found.values() if len(m[1]) == best]
        return list(found.values())

    def _man_search(
        self,
        start: int,
        cur: int,
        occ: int,
        jumpable: int,
        turn: int,
        last: int,
        path: list[int],
        caps: list[int],
        cmask: int,
        lmask: int,
        found: dict[tuple[int, int, int, bool], Move],
    ) -> bool:
        """Extend a man's capture sequence ``path`` from ``cur``; record complete ones.

        ``occ`` holds every piece that blocks (captured pieces too, unless they are removed
        at once) without the moving piece; ``jumpable`` the pieces that may still be
        jumped; ``cmask``/``lmask`` the captured and landing squares so far.  Returns
        whether at least one jump exists from ``cur``.
        """
        jumped = False
        opposite = (last + 4) % 8 if (self.no_180 and last >= 0) else -1
        promo = self.promo[turn]
        for d, vbit, victim, land, lbit in self.man_jumps[turn][cur]:
            if not jumpable & vbit or occ & lbit or d == opposite:
                continue
            jumped = True
            caps.append(victim)
            path.append(land)
            cm = cmask | vbit
            lm = lmask | lbit
            occ2 = occ ^ vbit if self.immediate else occ
            if lbit & promo and not self.promo_rule is PromotionInCapture.AT_END:
                if self.promo_stop or not self._king_search(
                    start, land, occ2, jumpable ^ vbit, turn, d, path, caps, cm, lm, found
                ):
                    self._record(start, land, True, path, caps, cm, lm, found)
            elif not self._man_search(
                start, land, occ2, jumpable ^ vbit, turn, d, path, caps, cm, lm, found
            ):
                self._record(start, land, False, path, caps, cm, lm, found)
            path.pop()
            caps.pop()
        return jumped

    def _king_search(
        self,
        start: int,
        cur: int,
        occ: int,
        jumpable: int,
        turn: int,
        last: int,
        path: list[int],
        caps: list[int],
        cmask: int,
        lmask: int,
        found: dict[tuple[int, int, int, bool], Move],
    ) -> bool:
        """As ``_man_search``, for a king (flying or short)."""
        jumped = False
        opposite = (last + 4) % 8 if (self.no_180 and last >= 0) else -1
        immediate = self.immediate
        if not self.king_fly:
            for d, vbit, victim, land, lbit in self.king_jumps[cur]:
                if not jumpable & vbit or occ & lbit or d == opposite:
                    continue
                jumped = True
                caps.append(victim)
                path.append(land)
                cm = cmask | vbit
                lm = lmask | lbit
                if not self._king_search(
                    start, land, occ ^ vbit if immediate else occ, jumpable ^ vbit,
                    turn, d, path, caps, cm, lm, found,
                ):
                    self._record(start, land, True, path, caps, cm, lm, found)
                path.pop()
                caps.pop()
            return jumped

        rays = self.cap_ray
        for d in self.king_cap_dirs:
            if d == opposite:
                continue
            ray = rays[d][cur]
            n = len(ray)
            i = 0
            while i < n and not (occ >> ray[i]) & 1:
                i += 1
            if i >= n - 1:
                continue
            victim = ray[i]
            if not (jumpable >> victim) & 1:
                continue
            j = i + 1
            landings = []
            while j < n and not (occ >> ray[j]) & 1:
                landings.append(ray[j])
                j += 1
            if not landings:
                continue
            jumped = True
            vbit = 1 << victim
            occ2 = occ ^ vbit if immediate else occ
            jump2 = jumpable ^ vbit
            cm = cmask | vbit
            caps.append(victim)
            if self.must_continue:
                terminal = []
                goes_on = False
                for land in landings:
                    path.append(land)
                    if self._king_search(
                        start, land, occ2, jump2, turn, d, path, caps, cm, lmask | 1 << land, found
                    ):
                        goes_on = True
                    else:
                        terminal.append(land)
                    path.pop()
                if not goes_on:
                    for land in terminal:
                        path.append(land)
                        self._record(start, land, True, path, caps, cm, lmask | 1 << land, found)
                        path.pop()
            else:
                for land in landings:
                    path.append(land)
                    lm = lmask | 1 << land
                    if not self._king_search(start, land, occ2, jump2, turn, d, path, caps, cm, lm, found):
                        self._record(start, land, True, path, caps, cm, lm, found)
                    path.pop()
            caps.pop()
        return jumped

    @staticmethod
    def _record(
        start: int,
        end: int,
        king: bool,
        path: list[int],
        caps: list[int],
        cmask: int,
        lmask: int,
        found: dict[tuple[int, int, int, bool], Move],
    ) -> None:
        # Two sequences are one move when they leave the same position (RULES.md A.2):
        # the same start, end and captured set, and the same piece (crowned or not).
        key = (start, end, cmask, king)
        if key not in found:
            found[key] = tuple.__new__(  # type: ignore[assignment]
                Move, (tuple(path), tuple(caps), 1 << start, 1 << end, cmask, lmask)
            )
