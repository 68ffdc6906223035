"""The puzzle trainer's logic, for any front end (the app's puzzle screen is one): where
the puzzles come from, which one comes next, a puzzle being solved (a move checked
against the solution, the opponent's reply, hints, the solution played out), a wrong
move explained by a quick search, the player's rating and streaks, and the daily puzzle.

- **Where puzzles come from** (:func:`load_library`): the starter set shipped in the
  package (``starter/<variant-id>.pdn``, one book a variant) and the player's own book
  (:func:`~shashki.training.book.default_book`, ``shashki puzzles mine``), whatever of
  them is there; a puzzle of one position is kept once.
- **Solving** (:class:`Attempt`): a move is right when it is the solution's; the
  opponent's reply (the book's) is then played, until the line ends: solved.  Any other
  move is wrong and is not played; :func:`refute` says what it allows.  The first hint
  names the piece, the second the move; the solution is played out move by move.
- **Rating** (:class:`Trainer`): one Glicko-2 rating a variant (the ``glicko2``
  package), each puzzle a game against an opponent rated its ``Difficulty``; a puzzle
  counts once, when it is first finished: solved without a wrong move, a hint or the
  solution is a win, anything else a loss (and the streak ends).  The record is kept by
  :mod:`shashki.store.puzzles`.
- **Choosing**: puzzles not seen before come first, then those failed, then the rest;
  among them one of those nearest the player's rating.
- **The daily puzzle** (:func:`daily_puzzle`): the same for everybody on a date, a pick
  from the shipped set by the date and the variant.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from pathlib import Path

import glicko2

from ..engine.scores import WON
from ..engine.search import Search
from ..i18n import _, agree, ngettext
from ..rules.errors import ShashkiError
from ..rules.game import Game
from ..rules.move import Move
from ..rules.variant import Variant
from ..store.puzzles import HIGHEST, LOWEST, PuzzleRecord, VariantRecord
from .book import Book, default_book, read_book
from .mining import Puzzle

#: The deviation given a puzzle's rating (its ``Difficulty`` is an estimate).
PUZZLE_DEVIATION = 100.0
#: The puzzles nearest the player's rating one is drawn from.
NEAREST = 5
#: The quick search that explains a wrong move: plies, and nodes at most.
REFUTE_DEPTH = 6
REFUTE_NODES = 60_000
#: The plies of the search's line that are counted for the material won.
REFUTE_PLIES = 12


# -- where puzzles come from ------------------------------------------------------------


def starter_folder() -> Path:
    """The starter set shipped in the package (one book a variant)."""
    return Path(str(resources.files(__package__).joinpath("starter")))


@dataclass
class Library:
    """The puzzles at hand, by variant id."""

    puzzles: dict[str, list[Puzzle]] = field(default_factory=dict)
    #: The shipped ones (the daily puzzle is drawn from them), by variant id.
    shipped: dict[str, list[Puzzle]] = field(default_factory=dict)
    #: One line for each puzzle or file that could not be read.
    problems: list[str] = field(default_factory=list)

    def count(self, variant_id: str) -> int:
        return len(self.puzzles.get(variant_id, ()))

    def themes(self, variant_id: str) -> list[tuple[str, int]]:
        """The themes of a variant's puzzles and how many have each, most first."""
        counts: dict[str, int] = {}
        for puzzle in self.puzzles.get(variant_id, ()):
            for theme in puzzle.themes:
                counts[theme] = counts.get(theme, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def of(self, variant_id: str, theme: str | None = None) -> list[Puzzle]:
        """A variant's puzzles (of ``theme`` only, when one is named)."""
        found = self.puzzles.get(variant_id, [])
        return [p for p in found if theme is None or theme in p.themes]


def _books(folder: Path) -> list[Path]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [folder / n for n in names if n.endswith(".pdn") and (folder / n).is_file()]


#: The books read in this process, by path: (size, modification time) and the book (the
#: app opens the puzzles again and again; a book changed since is read again).
_READ: dict[str, tuple[tuple[int, int], Book]] = {}
_READ_LOCK = threading.Lock()


def _read_cached(path: Path) -> Book:
    info = os.stat(path)
    stamp = (info.st_size, info.st_mtime_ns)
    key = os.fspath(path)
    with _READ_LOCK:
        known = _READ.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    book = read_book(path)
    with _READ_LOCK:
        _READ[key] = (stamp, book)
    return book


def load_library(
    starter: Path | None = None,
    own: Iterable[Path] | None = None,
) -> Library:
    """The shipped books of ``starter`` (by default :func:`starter_folder`) and the
    player's books ``own`` (by default :func:`default_book`), those of them that are
    there; a file that cannot be read, or a game of one that is no puzzle, is one line of
    :attr:`Library.problems`."""
    library = Library()
    seen: set[int] = set()
    sources = [(path, True) for path in _books(starter or starter_folder())]
    sources += [(path, False) for path in (own if own is not None else [default_book()])]
    for path, shipped in sources:
        if not shipped and not path.exists():
            continue
        try:
            book = _read_cached(path)
        except (OSError, ValueError) as exc:
            library.problems.append(
                _("{path}: not read ({reason})").format(
                    path=path, reason=" ".join(str(exc).split())
                )
            )
            continue
        library.problems.extend(book.problems)
        for puzzle in book.puzzles:
            if puzzle.key in seen:
                continue
            seen.add(puzzle.key)
            library.puzzles.setdefault(puzzle.variant, []).append(puzzle)
            if shipped:
                library.shipped.setdefault(puzzle.variant, []).append(puzzle)
    return library


def key_text(puzzle: Puzzle) -> str:
    """A puzzle's name in the record (its position's key, in hex)."""
    return f"{puzzle.key & ((1 << 64) - 1):016x}"


def daily_puzzle(library: Library, variant_id: str, day: date) -> Puzzle | None:
    """The daily puzzle of a variant: the same for everybody on ``day`` (a pick from the
    shipped set by the date and the variant; None when none is shipped)."""
    shipped = sorted(library.shipped.get(variant_id, ()), key=lambda p: (key_text(p), p.fen))
    if not shipped:
        return None
    digest = hashlib.sha256(f"{day.isoformat()} {variant_id}".encode()).digest()
    return shipped[int.from_bytes(digest[:8], "big") % len(shipped)]


def choose(
    puzzles: Sequence[Puzzle],
    record: VariantRecord,
    rng: random.Random,
    *,
    avoid: str = "",
) -> Puzzle | None:
    """The next puzzle among ``puzzles``: those not seen first, then those failed, then
    the rest (the oldest seen first); among them one of the :data:`NEAREST` to the
    player's rating.  ``avoid``: a puzzle's key not to give again at once."""
    pool = [p for p in puzzles if key_text(p) != avoid] or list(puzzles)
    if not pool:
        return None
    fresh = [p for p in pool if key_text(p) not in record.seen]
    failed = [p for p in pool if record.seen.get(key_text(p)) == 0]
    if fresh:
        pool = fresh
    elif failed:
        pool = failed
    else:
        order = {key: n for n, key in enumerate(record.seen)}
        pool.sort(key=lambda p: order.get(key_text(p), 0))
        pool = pool[: max(NEAREST, len(pool) // 2)]
    pool.sort(key=lambda p: (abs(p.difficulty - record.rating), key_text(p)))
    return rng.choice(pool[:NEAREST])


# -- the rating -------------------------------------------------------------------------


class _Glicko(glicko2.Player):  # type: ignore[misc]
    """The package's player, its volatility's function as Glickman's paper writes it:
    glicko2 2.1.0's ``_f`` takes the rating (mu) where the paper has the deviation
    (phi), which the paper's own example shows (its volatility 0.059996, not 0.059993)."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        ex = math.exp(x)
        phi2 = float(self._Player__rd) ** 2
        return float(
            ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau**2
        )


def glicko_update(
    rating: float,
    deviation: float,
    volatility: float,
    opponents: Sequence[tuple[float, float, float]],
) -> tuple[float, float, float]:
    """Glicko-2 after one rating period: (rating, deviation, volatility) of a player who
    met ``opponents`` (their rating, deviation and the player's score, 0 to 1)."""
    player = _Glicko(rating, deviation, volatility)
    if opponents:
        player.update_player(
            [o[0] for o in opponents], [o[1] for o in opponents], [o[2] for o in opponents]
        )
    else:
        player.did_not_compete()
    return float(player.rating), float(player.rd), float(player.vol)


@dataclass(frozen=True)
class Rated:
    """What finishing a puzzle did to the record."""

    solved: bool
    before: float
    after: float
    streak: int
    best_streak: int
    #: Why the record could not be saved ("" when it was).
    problem: str = ""

    @property
    def change(self) -> int:
        return round(self.after) - round(self.before)


# -- a puzzle being solved --------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What a move tried did."""

    #: The move was the solution's (played); else it was not played.
    right: bool
    #: The opponent's reply played after it (None at the end of the line).
    reply: Move | None = None
    #: The line is played out: solved.
    solved: bool = False


class Attempt:
    """One puzzle being solved (see the module)."""

    def __init__(self, puzzle: Puzzle, *, daily: bool = False) -> None:
        self.puzzle = puzzle
        self.daily = daily
        self.start = Game(puzzle.variant, puzzle.fen)
        #: The solution, as the moves of its positions.
        self.line: list[Move] = []
        game = self.start.copy()
        for text in puzzle.line:
            move = game.parse_move(text)
            self.line.append(move)
            game.push(move)
        if not self.line:
            raise ShashkiError(_("no solution: the game has no moves"))
        self.game = self.start.copy()
        #: The moves of the line played so far.
        self.ply = 0
        #: Hints given for the move to find now (1: the piece, 2: the move).
        self.hints = 0
        #: Wrong moves tried, in all.
        self.wrong = 0
        #: Help taken: a hint, or the solution shown.
        self.helped = False
        self.shown = False
        #: The record was told the result (a puzzle counts once).
        self.rated = False

    @property
    def solver(self) -> int:
        """The side that solves (the side to move at the start)."""
        return int(self.start.turn)

    @property
    def variant(self) -> Variant:
        return self.start.variant

    @property
    def done(self) -> bool:
        """The line is played out."""
        return self.ply >= len(self.line)

    @property
    def clean(self) -> bool:
        """Solved with no wrong move and no help: a win for the rating."""
        return self.done and not self.wrong and not self.helped

    @property
    def decided(self) -> bool:
        """The result for the rating is known: solved, or failed (a wrong move, a hint,
        the solution)."""
        return self.done or bool(self.wrong) or self.helped

    @property
    def expected(self) -> Move | None:
        """The move to find now (None once solved)."""
        return None if self.done else self.line[self.ply]

    def texts(self) -> list[str]:
        """The solution in the variant's notation."""
        game = self.start.copy()
        out = []
        for move in self.line:
            out.append(game.move_text(move))
            game.push(move)
        return out

    def play(self, move: Move) -> Answer:
        """A move tried in the position now (a legal one)."""
        expected = self.expected
        if expected is None or move != expected:
            self.wrong += 1
            return Answer(right=False)
        self._push()
        self.hints = 0
        reply = None
        if not self.done:
            reply = self.line[self.ply]
            self._push()
        return Answer(right=True, reply=reply, solved=self.done)

    def _push(self) -> None:
        self.game.push(self.line[self.ply])
        self.ply += 1

    def hint(self) -> int:
        """One more hint (1: the piece to move, 2: the move); the level given."""
        if not self.done:
            self.hints = min(2, self.hints + 1)
            self.helped = True
        return self.hints

    def show_next(self) -> Move | None:
        """Play the line's next move (the solution shown, one move at a time); None
        once it is played out."""
        if self.done:
            return None
        self.shown = self.helped = True
        move = self.line[self.ply]
        self._push()
        return move

    def retry(self) -> None:
        """From the start again (the result for the rating stays what it was)."""
        self.game = self.start.copy()
        self.ply = 0
        self.hints = 0


# -- a wrong move explained -------------------------------------------------------------


@dataclass(frozen=True)
class Refutation:
    """What a wrong move allows: the opponent's best reply and what it wins."""

    move: str
    reply: str = ""
    #: "wins" (the game, by force), "pieces" (:attr:`pieces` won), "crown", "better",
    #: "even" (the win is gone), "less" (an edge is left, no decisive win), "over"
    #: (the move ends the game).
    kind: str = "even"
    pieces: int = 0
    #: The side that answers.
    side: int = 1

    def words(self, variant: Variant) -> str:
        """In one sentence, in the language spoken now: "After 22-27, White answers
        33-28 and wins 2 pieces." """
        side = variant.local_side(self.side)
        fill = {"move": self.move, "reply": self.reply, "side": side}
        if self.kind == "over":
            return _("{move} ends the game, but it is not the puzzle's line.").format(**fill)
        if self.kind == "wins":
            return agree("After {move}, {side} answers {reply} and wins.", side).format(**fill)
        if self.kind == "pieces":
            pieces = ngettext("{n} piece", "{n} pieces", self.pieces).format(n=self.pieces)
            return agree("After {move}, {side} answers {reply} and wins {pieces}.", side).format(
                pieces=pieces, **fill
            )
        if self.kind == "crown":
            return agree("After {move}, {side} answers {reply} and makes a king.", side).format(
                **fill
            )
        if self.kind == "better":
            return agree("After {move}, {side} answers {reply} and stands better.", side).format(
                **fill
            )
        if self.kind == "less":
            return agree(
                "After {move}, {side} answers {reply}: an edge is left, but no win.", side
            ).format(**fill)
        return agree("After {move}, {side} answers {reply}, and the win is gone.", side).format(
            **fill
        )


def refute(
    game: Game,
    move: Move,
    *,
    depth: int = REFUTE_DEPTH,
    nodes: int = REFUTE_NODES,
    cancelled: Callable[[], bool] | None = None,
) -> Refutation:
    """What ``move`` (legal in ``game``) allows, by a quick search of the position after
    it (see :class:`Refutation`)."""
    text = game.move_text(move)
    solver = int(game.turn)
    after = game.copy()
    after.push(move)
    if after.outcome() is not None:
        return Refutation(text, kind="over", side=1 - solver)
    found = Search(game.variant).search(after, depth=depth, nodes=nodes, cancelled=cancelled)
    if found.move is None:
        return Refutation(text, kind="over", side=1 - solver)
    reply = after.move_text(found.move)
    walk = after.copy()
    won = lost = 0
    crowned = False
    for ply, step in enumerate((found.pv or [found.move])[:REFUTE_PLIES]):
        if step not in walk.legal_moves():
            break
        if ply % 2 == 0:
            won += len(step.captured)
            crowned = crowned or bool(step.promotion)
        else:
            lost += len(step.captured)
        walk.push(step)
    score = found.score
    net = won - lost
    if score >= WON:
        kind = "wins"
    elif net >= 1:
        kind = "pieces"
    elif crowned and net >= 0:
        kind = "crown"
    elif score >= 100:
        kind = "better"
    elif score > -150:
        kind = "even"
    else:
        kind = "less"
    return Refutation(text, reply, kind, max(net, 0), 1 - solver)


# -- the trainer ------------------------------------------------------------------------


class Trainer:
    """The puzzles at hand and the player's record (see the module)."""

    def __init__(
        self,
        library: Library,
        record: PuzzleRecord,
        *,
        path: Path | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.library = library
        self.record = record
        self.path = path
        self.rng = rng or random.Random()

    def next_puzzle(
        self, variant_id: str, theme: str | None = None, avoid: str = ""
    ) -> Puzzle | None:
        """The next puzzle of a variant (of a theme, or a mix: ``theme`` None)."""
        return choose(
            self.library.of(variant_id, theme), self.record.of(variant_id), self.rng, avoid=avoid
        )

    def daily(self, variant_id: str, day: date | None = None) -> Puzzle | None:
        return daily_puzzle(self.library, variant_id, day or date.today())

    def daily_done(self, variant_id: str, day: date | None = None) -> bool:
        rec = self.record.variants.get(variant_id)
        return rec is not None and rec.daily == (day or date.today()).isoformat()

    def finish(self, attempt: Attempt, day: date | None = None) -> Rated | None:
        """Tell the record how ``attempt`` went, once, as soon as that is known (see
        :attr:`Attempt.decided`), and save it; None when there is nothing (new) to tell."""
        if attempt.rated or not attempt.decided:
            return None
        attempt.rated = True
        on_disk = PuzzleRecord.load(self.path)  # (another shashki may have added to it)
        if not on_disk.problem:
            self.record.variants = on_disk.variants
        rec = self.record.of(attempt.puzzle.variant)
        solved = attempt.clean
        before = rec.rating
        opponent = float(max(LOWEST, min(HIGHEST, attempt.puzzle.difficulty)))
        try:
            rating, deviation, volatility = glicko_update(
                rec.rating,
                rec.deviation,
                rec.volatility,
                [(opponent, PUZZLE_DEVIATION, float(solved))],
            )
        except (ArithmeticError, ValueError):  # (a record edited into numbers Glicko-2 cannot take)
            rating, deviation, volatility = rec.rating, rec.deviation, rec.volatility
        rec.rating = min(HIGHEST, max(LOWEST, rating))
        rec.deviation = min(350.0, max(30.0, deviation))
        rec.volatility = min(0.2, max(0.01, volatility))
        rec.played += 1
        rec.solved += solved
        rec.streak = rec.streak + 1 if solved else 0
        rec.best_streak = max(rec.best_streak, rec.streak)
        rec.saw(key_text(attempt.puzzle), solved)
        if attempt.daily:
            rec.daily = (day or date.today()).isoformat()
        problem = self.record.save(self.path) or ""
        return Rated(solved, before, rec.rating, rec.streak, rec.best_streak, problem)


__all__ = [
    "Answer",
    "Attempt",
    "Library",
    "Rated",
    "Refutation",
    "Trainer",
    "choose",
    "daily_puzzle",
    "glicko_update",
    "key_text",
    "load_library",
    "refute",
    "starter_folder",
]
