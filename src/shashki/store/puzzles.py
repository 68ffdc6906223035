"""The player's puzzle record (``puzzles/trainer.json`` in the data folder): for each
variant, the puzzle rating (Glicko-2: rating, deviation, volatility), the puzzles played
and solved, the streaks, the puzzles seen and how each went, and the last day the daily
puzzle was solved.  The trainer (:mod:`shashki.training.trainer`) reads and changes it;
this module only keeps it.

:meth:`PuzzleRecord.load` never raises: a missing file is a fresh start, and a damaged
one (not JSON, another version, a value of the wrong type, too large, a link, a special
file) is a fresh start too, with one line saying why (:attr:`PuzzleRecord.problem`).
:meth:`PuzzleRecord.save` writes the whole file atomically, never through a link.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..base.ownfiles import UnsafeFile, replace_file
from ..base.userfiles import decode_text, read_limited
from ..i18n import _
from .storage import data_dir, own_data_folder

#: The form of the file.
VERSION = 1
#: The biggest file read (bytes): a few dozen bytes a puzzle seen.
RECORD_BYTES = 8 << 20
#: The puzzles seen kept for a variant, at most (the oldest are forgotten first).
SEEN_LIMIT = 50_000
#: A new player's rating, deviation and volatility (Glickman's defaults).
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: The bounds of a rating kept (a hand-edited file cannot go past them).
LOWEST, HIGHEST = 100.0, 3500.0


def record_path() -> Path:
    """The puzzle record's file."""
    return data_dir() / "puzzles" / "trainer.json"


@dataclass
class VariantRecord:
    """One variant's puzzle rating and history."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    #: Puzzles rated (each counted once, the first time it was finished).
    played: int = 0
    #: Of those, solved without a wrong move, a hint or the solution.
    solved: int = 0
    #: Puzzles solved in a row now, and the most ever.
    streak: int = 0
    best_streak: int = 0
    #: The puzzles seen (the key's hex, see :attr:`~shashki.training.mining.Puzzle.key`):
    #: 1 solved, 0 not; oldest first.
    seen: dict[str, int] = field(default_factory=dict)
    #: The last day (ISO, "2026-12-07") the daily puzzle was finished.
    daily: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "rating": round(self.rating, 3),
            "deviation": round(self.deviation, 3),
            "volatility": round(self.volatility, 6),
            "played": self.played,
            "solved": self.solved,
            "streak": self.streak,
            "best_streak": self.best_streak,
            "seen": self.seen,
            "daily": self.daily,
        }

    @classmethod
    def from_json(cls, data: object) -> VariantRecord:
        """Raises ValueError saying what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(_("a variant's entry is not an object"))
        out = cls()
        out.rating = _number(data, "rating", LOWEST, HIGHEST, START_RATING)
        out.deviation = _number(data, "deviation", 1.0, START_DEVIATION, START_DEVIATION)
        out.volatility = _number(data, "volatility", 1e-6, 1.0, START_VOLATILITY)
        for name in ("played", "solved", "streak", "best_streak"):
            setattr(out, name, int(_number(data, name, 0, 10**9, 0)))
        seen = data.get("seen", {})
        if not isinstance(seen, dict):
            raise ValueError(_("the puzzles seen are not an object"))
        for key, result in list(seen.items())[-SEEN_LIMIT:]:
            if isinstance(key, str) and len(key) <= 32 and result in (0, 1):
                out.seen[key] = int(result)
        daily = data.get("daily", "")
        out.daily = daily if isinstance(daily, str) and len(daily) == 10 else ""
        return out

    def saw(self, key: str, solved: bool) -> None:
        """Note a puzzle finished (moved to the end: the newest)."""
        self.seen.pop(key, None)
        self.seen[key] = int(solved)
        while len(self.seen) > SEEN_LIMIT:
            del self.seen[next(iter(self.seen))]


def _number(data: dict[str, object], name: str, low: float, high: float, default: float) -> float:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(_("{name} is not a number").format(name=name))
    return float(min(high, max(low, value)))


@dataclass
class PuzzleRecord:
    """The player's puzzle record, by variant id (see the module)."""

    variants: dict[str, VariantRecord] = field(default_factory=dict)
    #: Why the file on disk was not read (a fresh start), in one line; "" when it was.
    problem: str = ""

    def of(self, variant_id: str) -> VariantRecord:
        """The record of a variant (a new one when it has none)."""
        if variant_id not in self.variants:
            self.variants[variant_id] = VariantRecord()
        return self.variants[variant_id]

    @classmethod
    def load(cls, path: Path | None = None) -> PuzzleRecord:
        """The record in ``path`` (by default :func:`record_path`); never raises (see
        the module)."""
        where = path or record_path()
        try:
            data = json.loads(decode_text(read_limited(where, RECORD_BYTES, follow=False)))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, RecursionError) as exc:
            return cls(problem=_damaged(where, exc))
        try:
            if not isinstance(data, dict) or data.get("version") != VERSION:
                raise ValueError(_("not a puzzle record of this version"))
            variants = data.get("variants", {})
            if not isinstance(variants, dict):
                raise ValueError(_("the variants are not an object"))
            out = cls()
            for vid, entry in variants.items():
                if isinstance(vid, str) and 0 < len(vid) <= 64:
                    out.variants[vid] = VariantRecord.from_json(entry)
            return out
        except ValueError as exc:
            return cls(problem=_damaged(where, exc))

    def save(self, path: Path | None = None) -> str | None:
        """Write the record (atomically, never through a link); None when done, else
        why not in one line."""
        where = path or record_path()
        data = {
            "version": VERSION,
            "variants": {vid: rec.to_json() for vid, rec in sorted(self.variants.items())},
        }
        try:
            if path is None:
                own_data_folder(where.parent)
            replace_file(where, json.dumps(data, indent=1).encode("utf-8"))
        except UnsafeFile as exc:
            return _("cannot save {path}: {reason}").format(path=where, reason=exc.reason)
        except OSError as exc:
            return _("cannot save {path}: {reason}").format(
                path=where, reason=" ".join(str(exc).split())
            )
        return None


def _damaged(path: Path, exc: BaseException) -> str:
    reason = " ".join(str(exc).split())[:200]
    return _("Your puzzle record {path} could not be read ({reason}): a fresh start.").format(
        path=path, reason=reason
    )


__all__ = ["PuzzleRecord", "VariantRecord", "record_path"]
