"""Learned patterns of men: the trained part of a diagonal game's evaluation.

The board is cut into small overlapping windows: three neighbouring squares of a rank
and the three diagonally next to them on the rank above (six squares, every pair of
neighbouring ranks, every position along them).  Each window's contents (empty, a white
man, a black man on each square) index a table of values, in hundredths of a man for
White; the evaluation adds the values of all the windows to the hand-written terms.

The tables are fitted by ``tools/train_eval.py`` (to the scores of a teacher engine or
to game results, over self-play of shashki and published games) and stored per variant
in ``patterns/VARIANT.bin``; a variant without a file has no pattern term.  A file holds
one set of tables, or two: one for the game's start and one for its end (no men left),
between which the values slide with the number of men on the board (:func:`phase_of`),
so that a window can be worth one thing in the opening and another in an ending.
The file may also give the hand-written evaluation a weight at the start and at the
end, fitted with the tables.  Evaluating them is one table look-up per window: a
window's squares sit within a few bits of each other, so a shift and a mask give an
index into a small table that turns the window's bits into its base-3 number.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

from ..base.ownfiles import replace_file
from ..rules.geometry import Geometry
from ..rules.variant import is_valid_id

#: Squares on each rank of a window of rows (the window has twice as many).
WIDTH = 3
#: The shapes of windows (see :class:`Patterns`).
SHAPES = ("rows", "blocks")
#: The side of a block (in files and ranks).
BLOCK = 4
MAGIC = b"SHPT"
#: The file of a two-phase table (start and end): the header also names the phases.
MAGIC_PHASED = b"SHP2"
#: The slide between the start and the end tables is taken in this many steps.
STEPS = 8
#: The hand evaluation's weight that leaves it as it is (weights are in 1/ONE).
ONE = 256


class Table(NamedTuple):
    """The contents of a pattern file: the values of the windows (one set of tables, or
    the start's and the end's one after the other), and the weight of the hand-written
    evaluation at the start and at the end of the game (in 1/:data:`ONE`; fitted with
    the tables, so that the two add up on the teacher's scale)."""

    values: tuple[int, ...]
    hand: tuple[int, int] = (ONE, ONE)
    #: The shape of the windows (:data:`SHAPES`).
    shape: str = "rows"


#: The learned tables, in the package's folder (found through the package: this module's
#: own file is in the cache folder when it runs compiled, :mod:`shashki.native`).
_DIR = Path(str(sys.modules[__name__.rpartition(".")[0]].__file__)).resolve().parent / "patterns"


class Patterns:
    """The windows of one board, and the conversions from bitboards to table indices.

    Two shapes: ``rows`` (``width`` squares of a rank and the ``width`` next to them on
    the rank above, every pair of neighbouring ranks, every position along them) and
    ``blocks`` (the dark squares of a 4x4 square of the board, every second file and
    rank: sixteen windows of eight squares on the 10x10 board)."""

    def __init__(self, geo: Geometry, width: int = WIDTH, shape: str = "rows") -> None:
        if shape not in SHAPES:
            raise ValueError(f"no window shape {shape!r}")
        self.geo = geo
        self.shape = shape
        ranks: list[list[int]] = [[] for _ in range(geo.height)]
        for p in geo.squares:
            ranks[geo.rank_of[p]].append(p)
        for rank in ranks:
            rank.sort(key=lambda p: geo.file_of[p])
        windows: list[tuple[int, ...]] = []
        if shape == "rows":
            for r in range(geo.height - 1):
                low, high = ranks[r], ranks[r + 1]
                for i in range(min(len(low), len(high)) - width + 1):
                    windows.append(tuple(low[i : i + width]) + tuple(high[i : i + width]))
        else:
            for r0 in range(0, geo.height - BLOCK + 1, 2):
                for f0 in range(0, geo.width - BLOCK + 1, 2):
                    windows.append(
                        tuple(
                            p
                            for r in range(r0, r0 + BLOCK)
                            for p in ranks[r]
                            if f0 <= geo.file_of[p] < f0 + BLOCK
                        )
                    )
        if len({len(w) for w in windows}) != 1:
            raise ValueError("the windows of this board are not all of one size")
        self.windows = windows
        self.size = len(windows[0])
        self.entries = 3**self.size
        # the square a square becomes when the board is turned round
        at = {(geo.file_of[p], geo.rank_of[p]): p for p in geo.squares}
        turned = {
            p: at.get((geo.width - 1 - geo.file_of[p], geo.height - 1 - geo.rank_of[p]), -1)
            for p in geo.squares
        }
        self._turned = turned
        # A window is read in parts, a pair of ranks each (from its lowest rank): the
        # squares of a pair of ranks sit within a few bits of each other, so one shift
        # and mask of each side's men (a band, shared by the windows on those ranks)
        # and a table turn them into the window's base-3 digits.
        parts_of: list[dict[int, list[int]]] = []
        band_squares: dict[int, set[int]] = {}
        for window in windows:
            r0 = min(geo.rank_of[p] for p in window)
            parts: dict[int, list[int]] = {}
            for p in window:
                parts.setdefault(r0 + (geo.rank_of[p] - r0) // 2 * 2, []).append(p)
            parts_of.append(parts)
            for r, squares in parts.items():
                band_squares.setdefault(r, set()).update(squares)
        self.bands = {
            r: (min(sq), (1 << (max(sq) - min(sq) + 1)) - 1)
            for r, sq in sorted(band_squares.items())
        }
        tables = []
        for window, parts in zip(windows, parts_of, strict=True):
            entry = []
            for r, squares in sorted(parts.items()):
                shift, mask = self.bands[r]
                table = _base3(window, set(squares), shift, mask.bit_length())
                entry.append((r, table, tuple(2 * x for x in table)))
            tables.append(tuple(entry))
        self._tables = tuple(tables)

    def indices(self, white_men: int, black_men: int) -> list[int]:
        """Each window's table index for these men."""
        xs = {r: ((white_men >> s) & m, (black_men >> s) & m) for r, (s, m) in self.bands.items()}
        return [sum(tw[xs[r][0]] + tb[xs[r][1]] for r, tw, tb in entry) for entry in self._tables]

    def rotate(self, bits: int) -> int:
        """``bits`` with the board turned round (180 degrees); ValueError on a board
        whose playing squares do not turn into playing squares."""
        out = 0
        for p, q in self._turned.items():
            if bits >> p & 1:
                if q < 0:
                    raise ValueError("this board does not turn round onto itself")
                out |= 1 << q
        return out

    def fold(self, weights: Sequence[int], values: dict[int, tuple[int, int]]) -> list[int]:
        """``weights`` with a value per square added: ``values[p]`` is (a white man's,
        a black man's) value on square ``p``, for White.  Each square goes into the first
        window holding it."""
        n = self.entries
        out = list(weights)
        done: set[int] = set()
        for i, window in enumerate(self.windows):
            for j, p in enumerate(window):
                if p in done or p not in values:
                    continue
                done.add(p)
                white, black = values[p]
                for index in range(n):
                    trit = index // 3**j % 3
                    if trit == 1:
                        out[i * n + index] += white
                    elif trit == 2:
                        out[i * n + index] -= black
        return out

    def evaluator(self, weights: Sequence[int]) -> Callable[[int, int], int]:
        """The pattern term for White: ``term(white_men, black_men)``.

        Written out as one expression (no loop): each band is one shift and mask of
        each side's men, and each part of a window two look-ups, then one in the
        window's values."""
        n = self.entries
        names: dict[str, object] = {}
        lines = ["def term(wm, bm):"]
        for r, (low_bit, mask) in self.bands.items():
            lines.append(f"    x{r} = (wm >> {low_bit}) & {mask}")
            lines.append(f"    y{r} = (bm >> {low_bit}) & {mask}")
        terms = []
        for i, entry in enumerate(self._tables):
            digits = []
            for r, tw, tb in entry:
                names[f"a{i}_{r}"] = tw
                names[f"b{i}_{r}"] = tb
                digits.append(f"a{i}_{r}[x{r}] + b{i}_{r}[y{r}]")
            names[f"w{i}"] = tuple(weights[i * n : (i + 1) * n])
            terms.append(f"w{i}[{' + '.join(digits)}]")
        lines.append("    return " + " + ".join(terms))
        exec("\n".join(lines), names)
        return names["term"]  # type: ignore[return-value]


def _base3(window: tuple[int, ...], squares: set[int], low_bit: int, span: int) -> tuple[int, ...]:
    """For every value of the ``span`` bits from ``low_bit``: the base-3 digits (a 1 in
    each) of the window's squares among ``squares`` that are set (other bits count
    nothing)."""
    table = [0] * (1 << span)
    for v in range(1 << span):
        t = 0
        for j, p in enumerate(window):
            if p in squares and v >> (p - low_bit) & 1:
                t += 3**j
        table[v] = t
    return tuple(table)


def weights_path(variant_id: str) -> Path:
    return _DIR / f"{variant_id}.bin"


def phase_of(men: int, start_men: int) -> float:
    """The weight of the start tables for a position with ``men`` men on the board (the
    end tables get the rest): the fraction of the start's men left, taken in
    :data:`STEPS` steps (a fitted table and the evaluation use the same steps)."""
    if start_men <= 0:
        return 1.0
    return round(min(men, start_men) * STEPS / start_men) / STEPS


def blend(start: Sequence[int], end: Sequence[int], phase: float) -> list[int]:
    """The values of a phase (:func:`phase_of`): ``phase`` of ``start`` and the rest of
    ``end``, rounded half up in integers (so that adding a number to both adds it to the
    blend)."""
    k = round(phase * STEPS)
    rest = STEPS - k
    half = STEPS // 2
    return [(k * a + rest * b + half) // STEPS for a, b in zip(start, end, strict=True)]


def phases(pats: Patterns, weights: Sequence[int]) -> int:
    """How many sets of tables ``weights`` holds (1, or 2: start and end); ValueError
    when it is neither."""
    count = len(pats.windows) * pats.entries
    if len(weights) == count:
        return 1
    if len(weights) == 2 * count:
        return 2
    raise ValueError("weights do not fit the windows")


@cache
def windows_of(geo: Geometry, shape: str = "rows", width: int = WIDTH) -> Patterns:
    """The windows of a board, made once (reading a file and evaluating share them)."""
    return Patterns(geo, width, shape)


def _header(pats: Patterns, sets: int = 1) -> bytes:
    """The start of a file: the magic and the shape (and with two sets, their number
    and the windows' shape; the hand weights follow it)."""
    geo = pats.geo
    shape = struct.pack("<HHHH", geo.width, geo.height, len(pats.windows), pats.entries)
    if sets == 1:
        if pats.shape != "rows":
            raise ValueError("a file of one set holds windows of rows only")
        return MAGIC + shape
    return MAGIC_PHASED + shape + struct.pack("<HH", sets, SHAPES.index(pats.shape))


def save(
    path: Path,
    pats: Patterns,
    weights: Sequence[int],
    hand: tuple[int, int] | None = None,
) -> None:
    """Write the tables (little-endian 16-bit values after a header naming the shape):
    one set, or two (the start's, then the end's) with the hand weights (``hand``,
    default :data:`ONE` each) after the header."""
    sets = phases(pats, weights)
    if sets == 1 and hand is not None and hand != (ONE, ONE):
        raise ValueError("hand weights need the two-phase tables")
    if hand is not None and not all(0 <= h < 1 << 15 for h in hand):
        raise ValueError("hand weights out of range")
    head = _header(pats, sets)
    if sets == 2:
        head += struct.pack("<hh", *(hand or (ONE, ONE)))
    path.parent.mkdir(parents=True, exist_ok=True)
    # whole or not at all, and never through a link planted at the file's name
    replace_file(path, head + struct.pack(f"<{len(weights)}h", *weights))


def read(path: Path, geo: Geometry, width: int = WIDTH) -> Table | None:
    """The tables in ``path`` for a board, or None when the file is missing or of
    another shape."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    pats = windows_of(geo, "rows", width)
    count = len(pats.windows) * pats.entries
    head = _header(pats, 1)
    if data.startswith(head) and len(data) == len(head) + 2 * count:
        return Table(struct.unpack_from(f"<{count}h", data, len(head)))
    for shape in SHAPES:
        try:
            pats = windows_of(geo, shape, width)
        except ValueError:  # (a board these windows do not fit)
            continue
        count = len(pats.windows) * pats.entries
        head = _header(pats, 2)
        if data.startswith(head) and len(data) == len(head) + 4 + 4 * count:
            hand: tuple[int, int] = struct.unpack_from("<hh", data, len(head))
            if not all(h >= 0 for h in hand):
                return None
            values = struct.unpack_from(f"<{2 * count}h", data, len(head) + 4)
            return Table(values, hand, shape)
    return None


@cache
def load(variant_id: str, geo: Geometry) -> Table | None:
    """The tables shipped for a variant, or None when it has none."""
    if not is_valid_id(variant_id):  # an id never makes a path of its own
        return None
    return read(weights_path(variant_id), geo)
