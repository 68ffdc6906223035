"""Learned patterns of men: the trained part of a diagonal game's evaluation.

The board is cut into small overlapping windows: three neighbouring squares of a rank
and the three diagonally next to them on the rank above (six squares, every pair of
neighbouring ranks, every position along them).  Each window's contents (empty, a white
man, a black man on each square) index a table of values, in hundredths of a man for
White; the evaluation adds the values of all the windows to the hand-written terms.

The tables are fitted to game results by ``tools/train_eval.py`` (self-play of shashki
and published games) and stored per variant in ``patterns/VARIANT.bin``; a variant
without a file has no pattern term.  Evaluating them is one table look-up per window:
a window's squares sit within a few bits of each other, so a shift and a mask give an
index into a small table that turns the window's bits into its base-3 number.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from ..rules.geometry import Geometry
from ..rules.variant import is_valid_id

#: Squares on each rank of a window (the window has twice as many).
WIDTH = 3
MAGIC = b"SHPT"
_DIR = Path(__file__).resolve().parent / "patterns"


class Patterns:
    """The windows of one board, and the conversions from bitboards to table indices."""

    def __init__(self, geo: Geometry, width: int = WIDTH) -> None:
        self.geo = geo
        ranks: list[list[int]] = [[] for _ in range(geo.height)]
        for p in geo.squares:
            ranks[geo.rank_of[p]].append(p)
        for rank in ranks:
            rank.sort(key=lambda p: geo.file_of[p])
        windows: list[tuple[int, ...]] = []
        for r in range(geo.height - 1):
            low, high = ranks[r], ranks[r + 1]
            for i in range(min(len(low), len(high)) - width + 1):
                windows.append(tuple(low[i : i + width]) + tuple(high[i : i + width]))
        self.windows = windows
        self.size = 2 * width
        self.entries = 3**self.size
        # the square a square becomes when the board is turned round
        at = {(geo.file_of[p], geo.rank_of[p]): p for p in geo.squares}
        turned = {
            p: at.get((geo.width - 1 - geo.file_of[p], geo.height - 1 - geo.rank_of[p]), -1)
            for p in geo.squares
        }
        self._turned = turned
        tables = []
        for window in windows:
            low_bit = min(window)
            span = max(window) - low_bit + 1
            table = _base3(window, low_bit, span)
            tables.append((low_bit, (1 << span) - 1, table, tuple(2 * x for x in table)))
        self._tables = tuple(tables)

    def indices(self, white_men: int, black_men: int) -> list[int]:
        """Each window's table index for these men."""
        return [
            tw[(white_men >> s) & m] + tb[(black_men >> s) & m] for s, m, tw, tb in self._tables
        ]

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

        Written out as one expression (no loop): the windows of a pair of ranks share
        one shift and mask of each side's men, and each window is three look-ups."""
        n = self.entries
        names: dict[str, object] = {}
        bands: dict[int, list[int]] = {}
        for i, window in enumerate(self.windows):
            bands.setdefault(self.geo.rank_of[window[0]], []).append(i)
        lines = ["def term(wm, bm):"]
        terms = []
        for r, members in sorted(bands.items()):
            low_bit = min(min(self.windows[i]) for i in members)
            span = max(max(self.windows[i]) for i in members) - low_bit + 1
            lines.append(f"    x{r} = (wm >> {low_bit}) & {(1 << span) - 1}")
            lines.append(f"    y{r} = (bm >> {low_bit}) & {(1 << span) - 1}")
            for i in members:
                table = _base3(self.windows[i], low_bit, span)
                names[f"a{i}"] = table
                names[f"b{i}"] = tuple(2 * t for t in table)
                names[f"w{i}"] = tuple(weights[i * n : (i + 1) * n])
                terms.append(f"w{i}[a{i}[x{r}] + b{i}[y{r}]]")
        lines.append("    return " + " + ".join(terms))
        exec("\n".join(lines), names)
        return names["term"]  # type: ignore[return-value]


def _base3(window: tuple[int, ...], low_bit: int, span: int) -> tuple[int, ...]:
    """For every value of the ``span`` bits from ``low_bit``: the base-3 number of the
    window's squares that are set (a 1 in the digit of each; other bits count nothing)."""
    table = [0] * (1 << span)
    for v in range(1 << span):
        t = 0
        for j, p in enumerate(window):
            if v >> (p - low_bit) & 1:
                t += 3**j
        table[v] = t
    return tuple(table)


def weights_path(variant_id: str) -> Path:
    return _DIR / f"{variant_id}.bin"


def _header(pats: Patterns) -> bytes:
    geo = pats.geo
    return MAGIC + struct.pack("<HHHH", geo.width, geo.height, len(pats.windows), pats.entries)


def save(path: Path, pats: Patterns, weights: Sequence[int]) -> None:
    """Write the tables (little-endian 16-bit values after a header naming the shape)."""
    if len(weights) != len(pats.windows) * pats.entries:
        raise ValueError("weights do not fit the windows")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_header(pats) + struct.pack(f"<{len(weights)}h", *weights))


def read(path: Path, geo: Geometry, width: int = WIDTH) -> tuple[int, ...] | None:
    """The tables in ``path`` for a board, or None when the file is missing or of
    another shape."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    pats = Patterns(geo, width)
    head = _header(pats)
    count = len(pats.windows) * pats.entries
    if not data.startswith(head) or len(data) != len(head) + 2 * count:
        return None
    values: tuple[int, ...] = struct.unpack_from(f"<{count}h", data, len(head))
    return values


@cache
def load(variant_id: str, geo: Geometry) -> tuple[int, ...] | None:
    """The tables shipped for a variant, or None when it has none."""
    if not is_valid_id(variant_id):  # an id never makes a path of its own
        return None
    return read(weights_path(variant_id), geo)
