"""Capture sequences that may jump pieces of either colour.

Two games need them: ``self-capture`` (docs/rules/modified.md#self-capture: own pieces may be jumped
too, but only enemy pieces oblige and count) and Artamonov's single-colour game
(docs/rules/family.md#artamonov: every piece may be jumped and counts).  The search follows the
host's geometry (short or flying jumps, its directions, removal at the end of the move, its
promotion rule) and reports every sequence together with how many *counting* pieces it took.
"""

from __future__ import annotations

from collections.abc import Callable

from .geometry import Geometry, absolute_direction
from .interrupt import STEPS, poll
from .move import FastMove
from .switches import KingLanding, PromotionInCapture, Removal, Rules

#: (move, number of counting pieces captured)
Capture = tuple[FastMove, int]


class AnyCaptureSearch:
    """Capture search over a board where any piece may be a victim.

    ``man_dirs`` gives, per side, the directions of a man's jump (absolute indices).
    """

    def __init__(
        self,
        geo: Geometry,
        rules: Rules,
        man_dirs: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
    ) -> None:
        self.geo = geo
        self.rules = rules
        if man_dirs is None:
            man_dirs = (
                tuple(int(absolute_direction(n, 0)) for n in rules.man_captures),
                tuple(int(absolute_direction(n, 1)) for n in rules.man_captures),
            )
        self.man_dirs = man_dirs
        self.king_dirs = tuple(int(absolute_direction(n, 0)) for n in rules.king_captures)
        self.king_fly = rules.king_captures_fly
        self.immediate = rules.removal is Removal.IMMEDIATE
        self.no_180 = rules.no_180
        self.must_continue = rules.king_landing is KingLanding.MUST_CONTINUE
        self.promo_rule = rules.promotion_in_capture
        self.promo = (
            (geo.rank_mask[geo.height - 1], geo.rank_mask[0]) if rules.promotion else (0, 0)
        )

    def search(
        self,
        start: int,
        king: bool,
        occupied: int,
        jumpable: int,
        counting: int,
        turn: int,
        may_stop: Callable[[int, bool, int, int, int], bool] | None = None,
    ) -> list[Capture]:
        """Every capture sequence of the piece on ``start``.

        ``occupied``: all pieces (the mover included); ``jumpable``: the pieces it may
        jump; ``counting``: those that count (and oblige).  A sequence ends where no jump
        is left; with ``may_stop(square, king, occupied, jumpable, last)`` (``last``: the
        direction of the jump that arrived there) it may also end
        after any jump where that returns True (the optional own-piece jumps of
        self-capture).  Duplicates (same start, end, captured set and crowning) are
        dropped.
        """
        found: dict[tuple[int, int, int, bool], Capture] = {}
        self._found = found
        # (square, king, captured set, last direction if it limits the next jump) of
        # the states explored, with whether a jump was made from them: the rest of a
        # sequence depends on nothing else, so a state met again (the same pieces
        # taken in another order) adds no move and is not explored twice
        self._seen: dict[tuple[int, bool, int, int], bool] = {}
        self._turns_matter = self.no_180 or may_stop is not None  # (it is told ``last``)
        self._steps = STEPS
        self._counting = counting
        self._turn = turn
        self._may_stop = may_stop
        self._start = start
        self._walk(
            start, king, occupied & ~(1 << start), jumpable & ~(1 << start), -1, [start], [], 0
        )
        return list(found.values())

    def _record(self, end: int, king: bool, path: list[int], caps: list[int], cmask: int) -> None:
        key = (self._start, end, cmask, king)
        if key not in self._found:
            self._found[key] = (FastMove(path, caps), (cmask & self._counting).bit_count())

    def _jumps(
        self, cur: int, king: bool, occ: int, jumpable: int, last: int
    ) -> list[tuple[int, int, list[int]]]:
        """(direction, victim, landing squares) of every jump from ``cur``."""
        geo = self.geo
        out = []
        opposite = (last + 4) % 8 if (self.no_180 and last >= 0) else -1
        if king and self.king_fly:
            for d in self.king_dirs:
                if d == opposite:
                    continue
                ray = geo.ray[d][cur]
                i = 0
                while i < len(ray) and not occ >> ray[i] & 1:
                    i += 1
                if i >= len(ray) - 1 or not jumpable >> ray[i] & 1:
                    continue
                lands = []
                j = i + 1
                while j < len(ray) and not occ >> ray[j] & 1:
                    lands.append(ray[j])
                    j += 1
                if lands:
                    out.append((d, ray[i], lands))
            return out
        for d in self.king_dirs if king else self.man_dirs[self._turn]:
            if d == opposite:
                continue
            v = geo.step[d][cur]
            if v < 0 or not jumpable >> v & 1:
                continue
            land = geo.step[d][v]
            if land >= 0 and not occ >> land & 1:
                out.append((d, v, [land]))
        return out

    def _walk(
        self,
        cur: int,
        king: bool,
        occ: int,
        jumpable: int,
        last: int,
        path: list[int],
        caps: list[int],
        cmask: int,
    ) -> bool:
        """Explore from ``cur``; returns whether a jump was made from here."""
        state = None
        if len(caps) > 1:  # (one capture is reached by one path only)
            state = (cur, king, cmask, last if self._turns_matter else -1)
            seen = self._seen.get(state)
            if seen is not None:
                return seen
            self._steps -= 1
            if not self._steps:
                self._steps = STEPS
                poll()
        jumps = self._jumps(cur, king, occ, jumpable, last)
        if not jumps:
            if state is not None:
                self._seen[state] = False
            return False
        if caps and self._may_stop is not None and self._may_stop(cur, king, occ, jumpable, last):
            self._record(cur, king, path, caps, cmask)
        promo = self.promo[self._turn]
        for d, victim, lands in jumps:
            vbit = 1 << victim
            occ2 = occ & ~vbit if self.immediate else occ
            jump2 = jumpable & ~vbit
            caps.append(victim)
            terminal = []
            goes_on = False
            for land in lands:
                path.append(land)
                crowned = not king and promo >> land & 1
                if crowned and self.promo_rule is PromotionInCapture.STOP:
                    self._record(land, True, path, caps, cmask | vbit)
                else:
                    now_king = king or (
                        crowned and self.promo_rule is PromotionInCapture.CONTINUE_AS_KING
                    )
                    if self._walk(land, bool(now_king), occ2, jump2, d, path, caps, cmask | vbit):
                        goes_on = True
                    else:
                        terminal.append((land, bool(now_king)))
                path.pop()
            if not (goes_on and self.must_continue and len(lands) > 1):
                for land, now_king in terminal:
                    path.append(land)
                    self._record(land, now_king, path, caps, cmask | vbit)
                    path.pop()
            caps.pop()
        if state is not None:
            self._seen[state] = True
        return True
