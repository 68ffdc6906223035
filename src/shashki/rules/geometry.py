"""Board geometry: squares, their names and numbers, directions and rays.

Every board is a rectangle of ``width`` files by ``height`` ranks, at most 12 by 12.
A board uses either its dark squares only (the diagonal games) or all of its squares
(the orthogonal games).  a1, White's bottom-left corner, is a dark square, but on a
mirrored board (docs/rules/conventions.md#colouring: Italian, Spanish, Sri Lankan), where b1 and the
near-right corner are.  The PDN numbers of the squares follow the variant's GameType
(docs/rules/conventions.md#gametype: the corner of square 1 as the starting player sees it).

Internally a square is the position of its bit in a padded bitboard.  The layout is
chosen so that a step in any direction is a constant shift of the whole bitboard:

* all squares: ``pos = rank * stride + file`` with one padding file (``stride = width + 1``);
* dark squares only: ``pos = (rank * stride + file) // 2`` with ``stride`` odd (one or two
  padding files), so the two diagonal steps north are ``(stride ± 1) / 2``.  A ``wide``
  board of dark squares (docs/rules/switches.md#orthogonal-steps, Frisian) also has the orthogonal
  steps: two files or two ranks to the next dark square of the same rank or file, ``1`` and
  ``stride`` after halving; it has at least two padding files, so that a step of two
  files off the edge lands on padding too.

A step off the board lands on a padding bit or beyond the last rank; both are outside
``Geometry.mask``, so ``(bits << shift) & mask`` never wraps round an edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

from ..base.numbers import bounded_int, is_digits, quoted
from ..i18n import _

MIN_SIZE = 2
MAX_SIZE = 12
FILES = "abcdefghijkl"


class Direction(IntEnum):
    """The eight absolute directions, as White sees the board (north = towards rank 8)."""

    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7

    @property
    def opposite(self) -> Direction:
        return Direction((self + 4) % 8)

    @property
    def diagonal(self) -> bool:
        return self % 2 == 1


#: (file step, rank step) of each absolute direction.
DIRECTION_STEPS: dict[Direction, tuple[int, int]] = {
    Direction.N: (0, 1),
    Direction.NE: (1, 1),
    Direction.E: (1, 0),
    Direction.SE: (1, -1),
    Direction.S: (0, -1),
    Direction.SW: (-1, -1),
    Direction.W: (-1, 0),
    Direction.NW: (-1, 1),
}

#: Directions relative to the side that moves, in the order of ``Direction``:
#: "forward" is north for White (rank 1 side) and south for Black.
RELATIVE_DIRECTIONS = (
    "forward",
    "forward-right",
    "right",
    "back-right",
    "back",
    "back-left",
    "left",
    "forward-left",
)

#: Named groups accepted wherever a list of relative directions is expected.
DIRECTION_GROUPS: dict[str, tuple[str, ...]] = {
    "diagonal": ("forward-right", "back-right", "back-left", "forward-left"),
    "diagonal-forward": ("forward-left", "forward-right"),
    "diagonal-backward": ("back-left", "back-right"),
    "orthogonal": ("forward", "right", "back", "left"),
    "orthogonal-forward": ("forward", "left", "right"),
    "all": RELATIVE_DIRECTIONS,
}


def absolute_direction(relative: str, side: int) -> Direction:
    """The absolute direction of ``relative`` for ``side`` (0 = White/south, 1 = Black/north)."""
    index = RELATIVE_DIRECTIONS.index(relative)
    return Direction((index + 4 * side) % 8)


def expand_directions(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Expand group names ("diagonal", "orthogonal-forward"…) into relative directions.

    Raises ValueError for an unknown name.  Order is kept, duplicates dropped.
    """
    out: list[str] = []
    for name in names:
        if name in DIRECTION_GROUPS:
            parts: tuple[str, ...] = DIRECTION_GROUPS[name]
        elif name in RELATIVE_DIRECTIONS:
            parts = (name,)
        else:
            known = ", ".join(list(RELATIVE_DIRECTIONS) + list(DIRECTION_GROUPS))
            raise ValueError(f"unknown direction {name!r} (known: {known})")
        for part in parts:
            if part not in out:
                out.append(part)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Geometry:
    """A board's squares and the precomputed tables move generation walks.

    Build one with :func:`geometry` (cached), not directly.
    """

    width: int
    height: int
    all_squares: bool
    #: a1 is a light square (docs/rules/conventions.md#colouring); only for a board of dark squares.
    mirrored: bool = False
    #: The PDN numbering (docs/rules/conventions.md#gametype): the side that starts ("W" or "B") and
    #: the corner of square 1 as that side sees the board (0 bottom-left, 1 bottom-right,
    #: 2 top-left, 3 top-right).
    numbering: tuple[str, int] = ("W", 2)
    #: A board of dark squares with the orthogonal steps of two squares
    #: (docs/rules/switches.md#orthogonal-steps).
    wide: bool = False
    stride: int = field(init=False)
    #: Valid square positions, ordered rank by rank from a1.
    squares: tuple[int, ...] = field(init=False)
    mask: int = field(init=False)
    #: Number of bit positions the layout spans (tables are indexed by position).
    size: int = field(init=False)
    #: ``shift[d]``: signed bit shift of one step in direction d, or None where the
    #: layout has no such step (orthogonal steps on a dark-squares board not ``wide``).
    shift: tuple[int | None, ...] = field(init=False)
    #: ``step[d][pos]``: the neighbouring square in direction d, or -1.
    step: tuple[tuple[int, ...], ...] = field(init=False)
    #: ``ray[d][pos]``: the squares from pos (excluded) to the edge in direction d.
    ray: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False)
    #: ``rank_mask[r]``: bits of rank r (0-based).
    rank_mask: tuple[int, ...] = field(init=False)
    file_of: tuple[int, ...] = field(init=False)
    rank_of: tuple[int, ...] = field(init=False)
    #: Numeric square number (1-based, PDN numbering) of each position, 0 if none.
    number_of: tuple[int, ...] = field(init=False)
    by_number: tuple[int, ...] = field(init=False)
    names: tuple[str, ...] = field(init=False)
    #: Positions on the long diagonal a1-…, the Russian "main road".
    main_road: int = field(init=False)

    def __post_init__(self) -> None:
        self._check()
        set_ = object.__setattr__
        set_(self, "stride", self._stride())
        size = self._pos(self.width - 1, self.height - 1) + 1
        squares, file_of, rank_of, names = self._squares(size)
        shifts, steps, rays = self._lines(size, squares, file_of, rank_of)
        number_of, by_number = self._numbering(size)
        mask = 0
        for p in squares:
            mask |= 1 << p
        rank_mask = []
        for r in range(self.height):
            m = 0
            for p in squares:
                if rank_of[p] == r:
                    m |= 1 << p
            rank_mask.append(m)
        # the long diagonal from the near corner that is a dark square: a1-h8, or on a
        # mirrored board h1-a8
        road = 0
        for i in range(min(self.width, self.height)):
            road |= 1 << self._pos(self.width - 1 - i if self.mirrored else i, i)
        set_(self, "squares", tuple(squares))
        set_(self, "mask", mask)
        set_(self, "size", size)
        set_(self, "shift", tuple(shifts))
        set_(self, "step", tuple(steps))
        set_(self, "ray", tuple(rays))
        set_(self, "rank_mask", tuple(rank_mask))
        set_(self, "file_of", tuple(file_of))
        set_(self, "rank_of", tuple(rank_of))
        set_(self, "number_of", tuple(number_of))
        set_(self, "by_number", tuple(by_number))
        set_(self, "names", tuple(names))
        set_(self, "main_road", road)

    def _check(self) -> None:
        """Refuse a board this layout cannot hold: ValueError."""
        w, h = self.width, self.height
        if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
            raise ValueError(
                f"board {w}x{h} is outside {MIN_SIZE}x{MIN_SIZE}..{MAX_SIZE}x{MAX_SIZE}"
            )
        if self.mirrored and self.all_squares:
            raise ValueError("a board of all squares has no colouring to mirror")
        side, corner = self.numbering
        if side not in ("W", "B") or corner not in (0, 1, 2, 3):
            raise ValueError(f"numbering {self.numbering!r}: a side W or B and a corner 0-3")
        if self.wide and self.all_squares:
            raise ValueError("a board of all squares has its orthogonal steps already")

    def _stride(self) -> int:
        """The positions a rank spans in the layout, padding included: odd on a board of
        dark squares, so that a diagonal step is a whole number of positions."""
        if self.all_squares:
            return self.width + 1
        pad = 2 if self.wide else 1  # (a step of two files needs two padding files)
        w = self.width
        return w + pad if (w + pad) % 2 == 1 else w + pad + 1

    def _pos(self, f: int, r: int) -> int:
        """The position of the square on file ``f`` and rank ``r`` (0-based)."""
        raw = r * self.stride + f
        return raw if self.all_squares else raw // 2

    def _squares(self, size: int) -> tuple[list[int], list[int], list[int], list[str]]:
        """(the squares' positions rank by rank from a1, the file, the rank and the name
        of each position: -1, -1, "" off the board)."""
        squares: list[int] = []
        file_of = [-1] * size
        rank_of = [-1] * size
        names = [""] * size
        for r in range(self.height):
            for f in range(self.width):
                if self.playable(f, r):
                    p = self._pos(f, r)
                    squares.append(p)
                    file_of[p] = f
                    rank_of[p] = r
                    names[p] = f"{FILES[f]}{r + 1}"
        return squares, file_of, rank_of, names

    def _lines(
        self, size: int, squares: list[int], file_of: list[int], rank_of: list[int]
    ) -> tuple[list[int | None], list[tuple[int, ...]], list[tuple[tuple[int, ...], ...]]]:
        """For each direction: the shift of one step (None where the layout has none),
        the next square from each square (-1: none) and the squares from each square to
        the edge."""
        w, h = self.width, self.height
        shifts: list[int | None] = []
        steps: list[tuple[int, ...]] = []
        rays: list[tuple[tuple[int, ...], ...]] = []
        for d in Direction:
            df, dr = DIRECTION_STEPS[d]
            if self.wide and not d.diagonal:  # to the next dark square of the rank or file
                df, dr = 2 * df, 2 * dr
            raw = dr * self.stride + df
            if self.all_squares:
                shifts.append(raw)
            else:
                shifts.append(raw // 2 if raw % 2 == 0 else None)
            step_row = [-1] * size
            ray_row: list[tuple[int, ...]] = [()] * size
            for p in squares:
                line: list[int] = []
                nf, nr = file_of[p] + df, rank_of[p] + dr
                while 0 <= nf < w and 0 <= nr < h and self.playable(nf, nr):
                    line.append(self._pos(nf, nr))
                    nf, nr = nf + df, nr + dr
                ray_row[p] = tuple(line)
                step_row[p] = line[0] if line else -1
            steps.append(tuple(step_row))
            rays.append(tuple(ray_row))
        return shifts, steps, rays

    def _numbering(self, size: int) -> tuple[list[int], list[int]]:
        """The PDN numbers (docs/rules/conventions.md#gametype): (the number of each
        position, 0 off the board; the position of each number, -1 for 0).  From the
        corner of square 1 as the starting side sees the board, along its row away from
        the corner, then row after row towards the opposite edge, each from the corner's
        side."""
        side, corner = self.numbering
        number_of = [0] * size
        by_number = [-1]
        from_right = corner in (1, 3)
        from_top = corner in (2, 3)
        if side == "B":  # Black's view is White's turned round
            from_right, from_top = not from_right, not from_top
        for r in range(self.height - 1, -1, -1) if from_top else range(self.height):
            for f in range(self.width - 1, -1, -1) if from_right else range(self.width):
                if self.playable(f, r):
                    p = self._pos(f, r)
                    by_number.append(p)
                    number_of[p] = len(by_number) - 1
        return number_of, by_number

    # -- naming ---------------------------------------------------------------

    @property
    def square_count(self) -> int:
        return len(self.squares)

    def name(self, pos: int) -> str:
        """Algebraic name (a1…l12) of a square."""
        return self.names[pos]

    def number(self, pos: int) -> int:
        """PDN number (1…n) of a square."""
        return self.number_of[pos]

    def playable(self, file: int, rank: int) -> bool:
        """Whether the square at 0-based file and rank is one the game is played on."""
        return self.all_squares or (file + rank) % 2 == int(self.mirrored)

    def at(self, file: int, rank: int) -> int:
        """The square at 0-based file and rank; raises ValueError if it is not a playing square."""
        if not (0 <= file < self.width and 0 <= rank < self.height):
            raise ValueError(
                _("file {file}, rank {rank} is off the {width}x{height} board").format(
                    file=file, rank=rank, width=self.width, height=self.height
                )
            )
        if not self.playable(file, rank):
            raise ValueError(
                _("{square} is not a playing square").format(square=f"{FILES[file]}{rank + 1}")
            )
        raw = rank * self.stride + file
        return raw if self.all_squares else raw // 2

    _ALGEBRAIC = re.compile(r"([a-l])(1[0-2]|[1-9])")

    def parse_square(self, text: str, *, numeric: bool | None = None) -> int:
        """The square named ``text``: algebraic ("c3") or a PDN number ("22").

        ``numeric`` restricts the accepted form (None accepts both).  Raises ValueError
        with the text quoted when it names no playing square of this board.
        """
        t = text.strip().lower()
        if is_digits(t) and numeric is not False:
            last = len(self.by_number) - 1
            n = bounded_int(t, last)  # a number of any length, never int() of it
            if n is not None and n >= 1:
                return self.by_number[n]
            raise ValueError(
                _("square {square} is not between 1 and {last}").format(
                    square=quoted(text), last=last
                )
            )
        m = self._ALGEBRAIC.fullmatch(t)
        if m and numeric is not True:
            f = FILES.index(m.group(1))
            r = int(m.group(2)) - 1
            if not (f < self.width and r < self.height):
                raise ValueError(
                    _("{square} is not a square of this {width}x{height} board").format(
                        square=quoted(text), width=self.width, height=self.height
                    )
                )
            if not self.playable(f, r):
                raise ValueError(_("{square} is not a playing square").format(square=quoted(text)))
            return self.at(f, r)
        raise ValueError(
            _("{square} is not a square of this {width}x{height} board").format(
                square=quoted(text), width=self.width, height=self.height
            )
        )

    def bits(self, positions: object) -> int:
        """Bitboard of an iterable of positions."""
        out = 0
        for p in positions:  # type: ignore[attr-defined]
            out |= 1 << p
        return out

    def positions(self, bits: int) -> list[int]:
        """The positions set in ``bits``, lowest first."""
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out


def geometry(
    width: int,
    height: int,
    all_squares: bool = False,
    mirrored: bool = False,
    numbering: tuple[str, int] = ("W", 2),
    wide: bool = False,
) -> Geometry:
    """The (shared, immutable) geometry of a board.  A numbering from Black's side is
    the same as the one from the opposite corner on White's (``("B", 1)`` is
    ``("W", 2)``), so boards numbered alike are one object."""
    side, corner = numbering
    if side == "B" and corner in (0, 1, 2, 3):
        numbering = ("W", 3 - corner)
    return _geometry(width, height, all_squares, mirrored, numbering, wide)


@cache
def _geometry(
    width: int,
    height: int,
    all_squares: bool,
    mirrored: bool,
    numbering: tuple[str, int],
    wide: bool,
) -> Geometry:
    return Geometry(width, height, all_squares, mirrored, numbering, wide)
