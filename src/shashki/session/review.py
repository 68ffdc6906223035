"""A whole-game review: every position of a record's main line judged by the engine, each
move marked by what it lost, each side's accuracy, the key moments, and the review
written into the record and read back from it (docs/REVIEW.md).

:class:`Review` holds the search's view of each position (:class:`PlyScore`, from the
worker processes of :mod:`shashki.engine.review`, or read back from the record) and says
the rest from it with the curve of :mod:`shashki.engine.winprob`.  It is plain Python:
the app shows it, ``shashki review`` prints it.

In the record each move's comment gets ``[%eval 0.35]`` (the position after the move, in
men for the first side; ``#7`` a win in 7 moves) and, when the engine preferred another
move, ``[%best 32-28]``; a move marked ``?!``, ``?`` or ``??`` gets that NAG; the
comment before the first move holds the start's evaluation; the ``Annotator`` tag names
the review.  A person's text in the same comments, and a mark he gave, are kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..engine import winprob
from ..engine.review import DEFAULT_DEPTH, DEPTHS, Analysis, PlyScore
from ..engine.scores import WIN, WON
from ..engine.winprob import Curve, accuracy, curve_for, judge
from ..records.annotations import (
    BLUNDER,
    DUBIOUS,
    MISTAKE,
    Evaluation,
    commands,
    comment_with,
    mark_of,
    node_eval,
    with_mark,
)
from ..records.model import GameNode, GameRecord

#: The review's marks as NAGs.
MARK_NAGS = {"??": BLUNDER, "?": MISTAKE, "?!": DUBIOUS}
#: The ``Annotator`` tag a review writes.
ANNOTATOR = "shashki review"
#: The best move's command: ``[%best 32-28]``.
BEST = re.compile(r"\[%best\s+([^\]\s]{1,200})\s*\]")
#: How many key moments are listed at most.
KEY_MOMENTS = 8
#: The second look: each move whose player's expected score dropped by at least
#: :data:`LOOK_AGAIN_FROM` (a mistake's worth) by the first searches has the positions
#: before and after it searched again with :data:`LOOK_AGAIN` times the budget, and is
#: judged by that deeper search (docs/REVIEW.md: why).
LOOK_AGAIN = 4
LOOK_AGAIN_FROM = winprob.MISTAKE
#: At most this many second looks (a deeper score may make a neighbouring move a
#: candidate in its turn).
LOOK_AGAIN_ROUNDS = 2


@dataclass(frozen=True)
class Verdict:
    """What one move of the main line lost."""

    #: The move's place in the game (1 for the first move) and its node.
    ply: int
    node: GameNode
    #: The side that made it (0 or 1).
    side: int
    #: Its player's expected score before it (the best move's) and after it, 0 to 1.
    before: float
    after: float
    #: ``??``, ``?``, ``?!`` or "".
    mark: str
    #: The engine's choice in the position before it, "" when the move was that choice.
    best: str

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)


def evaluation_of(score: int, turn: int, ply: int) -> Evaluation:
    """A search's score (for the side to move, ``turn``) as the record writes it: for the
    first side, in men, or a win in moves."""
    white = score if turn == 0 else -score
    if abs(white) >= WON:
        plies = max(1, WIN - abs(white))
        moves = (plies + 1) // 2
        return Evaluation(win=moves if white > 0 else -moves)
    return Evaluation(men=round(white / 100, 2))


def score_of(evaluation: Evaluation, turn: int) -> int:
    """An evaluation read from a record as a score for the side to move (``turn``)."""
    if evaluation.win:
        plies = 2 * abs(evaluation.win) - 1
        white = WIN - plies if evaluation.win > 0 else -(WIN - plies)
    else:
        white = round(evaluation.men * 100)
    return white if turn == 0 else -white


class Review:
    """The review of a record's main line: the search's view of each position, and what
    follows from it."""

    def __init__(
        self,
        record: GameRecord,
        *,
        depth: str = DEFAULT_DEPTH,
        nodes: int | None = None,
        look_again: bool = True,
    ) -> None:
        """``depth``: a setting of :data:`~shashki.engine.review.DEPTHS`; ``nodes`` a
        budget of nodes a position of one's own (the benchmarks' longer searches);
        ``look_again``: False for the first searches alone (no second look)."""
        if record.variant is None:
            raise ValueError("a record of a variant shashki does not play")
        self.record = record
        self.variant = record.variant
        self.curve: Curve = curve_for(self.variant)
        self.depth = depth if depth in DEPTHS else DEFAULT_DEPTH
        #: The budget of nodes for each position.
        self.budget = nodes if nodes is not None else DEPTHS[self.depth]
        #: The main line's nodes: the record, then one a move.
        self.nodes: list[GameNode] = [record, *record.mainline()]
        #: Each position's side to move and the search's view of it, when known.
        self.turns: list[int] = []
        self.texts: list[str] = []
        #: Each move as players write it: "5. e3-f4", "5… g5:g1" (the move numbers of
        #: the record's start).
        self.labels: list[str] = []
        game = record.start()
        first = int(self.variant.rules.first)
        for node in self.nodes[1:]:
            self.turns.append(int(game.turn))
            assert node.move is not None
            self.texts.append(game.move_text(node.move, full=True))
            number = game.fullmove_number
            shown = game.move_text(node.move)
            self.labels.append(
                f"{number}. {shown}" if int(game.turn) == first else f"{number}… {shown}"
            )
            game.push(node.move)
        self.turns.append(int(game.turn))
        self.scores: list[PlyScore | None] = [None] * len(self.nodes)
        self.look_again = look_again
        #: The positions searched again with the deeper budget (or read from a record:
        #: not searched again), and those a second look under way searches.
        self.deep: list[bool] = [False] * len(self.nodes)
        self._deeper: set[int] = set()
        self._rounds = 0

    # -- filling it ------------------------------------------------------------------

    @property
    def total(self) -> int:
        return len(self.nodes)

    @property
    def known(self) -> int:
        return sum(s is not None for s in self.scores)

    @property
    def complete(self) -> bool:
        """Every position known, and every second look wanted made."""
        return self.known == self.total and not self.to_look_again()

    def progress(self) -> tuple[int, int]:
        """(searches done, searches wanted so far): the first search of each position,
        then the second looks (wanted once the first searches are all known)."""
        again = self._deeper | set(self.to_look_again())
        return self.known + sum(self.deep[ply] for ply in again), self.total + len(again)

    def add(self, scores: Iterable[PlyScore]) -> None:
        for score in scores:
            if 0 <= score.ply < self.total:
                self.scores[score.ply] = score
                if score.ply in self._deeper:
                    self.deep[score.ply] = True

    def to_look_again(self) -> list[int]:
        """The positions a second look searches now: before and after each move that
        lost at least :data:`LOOK_AGAIN_FROM` by the searches so far (the engine's own
        choice too: its drop is the first search's horizon), not searched deeper yet;
        none before every position is known, or after :data:`LOOK_AGAIN_ROUNDS`."""
        if not self.look_again or self._rounds >= LOOK_AGAIN_ROUNDS:
            return []
        if self.known < self.total:
            return []
        wanted: set[int] = set()
        for ply in range(1, self.total):
            if self.deep[ply - 1] and self.deep[ply]:
                continue
            side = self.turns[ply - 1]
            before, after = self.expected(ply - 1, side), self.expected(ply, side)
            if before is not None and after is not None and before - after >= LOOK_AGAIN_FROM:
                wanted |= {p for p in (ply - 1, ply) if not self.deep[p]}
        return sorted(wanted)

    def analysis(self, *, workers: int | None = None, nice: int = 0) -> Analysis:
        """The next searches (iterate it; :meth:`add` each): the positions not known
        yet, or else the next second look (no job when there is nothing left to do)."""
        missing = [i for i, s in enumerate(self.scores) if s is None]
        nodes = self.budget
        if not missing:
            missing = self.to_look_again()
            if missing:
                self._rounds += 1
                self._deeper = self._deeper | set(missing)  # (read by the app's thread)
                nodes = self.budget * LOOK_AGAIN
        return Analysis(
            self.variant.id,
            self.record.fen,
            self.texts,
            nodes=nodes,
            workers=workers,
            nice=nice,
            plies=missing,
        )

    def run(
        self, *, workers: int | None = None, progress: Callable[[int, int], None] | None = None
    ) -> None:
        """Make every search wanted (in worker processes) and wait for them."""
        while (analysis := self.analysis(workers=workers)).jobs:
            for scores in analysis:
                self.add(scores)
                if progress is not None:
                    progress(self.known, self.total)

    # -- what it says ----------------------------------------------------------------

    def expected(self, ply: int, side: int) -> float | None:
        """``side``'s expected score in the position after ``ply`` moves, if known."""
        score = self.scores[ply]
        if score is None:
            return None
        mine = score.score if score.turn == side else -score.score
        if score.over:
            return 1.0 if mine > 0 else 0.0 if mine < 0 else 0.5
        return self.curve.expected(mine)

    def graph(self) -> list[float | None]:
        """The first side's expected score after each move (the start first)."""
        return [self.expected(ply, 0) for ply in range(self.total)]

    def verdict(self, ply: int) -> Verdict | None:
        """What the ``ply``-th move (1 for the first) lost, when both positions are known."""
        if not 1 <= ply < self.total:
            return None
        side = self.turns[ply - 1]
        before_score = self.scores[ply - 1]
        before, after = self.expected(ply - 1, side), self.expected(ply, side)
        if before is None or after is None or before_score is None:
            return None
        node = self.nodes[ply]
        played = self.texts[ply - 1]
        best = before_score.best
        if not best or best == played:
            # the engine's own choice (or the only move): nothing lost by its judgement
            return Verdict(ply, node, side, before, before, "", "")
        before = max(before, after)  # the best move is worth at least the one played
        return Verdict(ply, node, side, before, after, judge(before, after), best)

    def verdicts(self) -> list[Verdict]:
        return [v for ply in range(1, self.total) if (v := self.verdict(ply)) is not None]

    def accuracy(self, side: int) -> float | None:
        """``side``'s accuracy, 0 to 100 (None before any of its moves is judged)."""
        return accuracy([v.drop for v in self.verdicts() if v.side == side])

    def counts(self, side: int) -> dict[str, int]:
        """How many of ``side``'s moves got each mark."""
        out = {"??": 0, "?": 0, "?!": 0}
        for v in self.verdicts():
            if v.side == side and v.mark:
                out[v.mark] += 1
        return out

    def key_moments(self, most: int = KEY_MOMENTS) -> list[Verdict]:
        """The moves that lost most (marked ``?`` or ``??``, else the worst ``?!``), at
        most ``most``, in the order of the game."""
        marked = [v for v in self.verdicts() if v.mark]
        serious = [v for v in marked if v.mark != "?!"]
        chosen = serious if serious else marked
        chosen = sorted(chosen, key=lambda v: -v.drop)[:most]
        return sorted(chosen, key=lambda v: v.ply)

    # -- the record ------------------------------------------------------------------

    def matches(self) -> bool:
        """Whether the record's main line is still the game reviewed (its nodes taken
        again: an edit undone puts copies in their place)."""
        nodes = [self.record, *self.record.mainline()]
        if len(nodes) != len(self.nodes):
            return False
        if any(a.move != b.move for a, b in zip(nodes[1:], self.nodes[1:], strict=True)):
            return False
        self.nodes = nodes
        return True

    def reused(self, record: GameRecord) -> Review:
        """A review of ``record``'s main line (at this depth) that keeps what this one
        knows of the positions the two main lines share from the start."""
        other = Review(record, depth=self.depth, nodes=self.budget, look_again=self.look_again)
        for ply in range(min(self.total, other.total)):
            if ply and self.texts[ply - 1] != other.texts[ply - 1]:
                break
            other.scores[ply] = self.scores[ply]
            other.deep[ply] = self.deep[ply]
        return other

    def write(self) -> bool:
        """Write what is known into the record: evaluations, the engine's choices, the
        marks, the ``Annotator`` tag (a person's text and marks are kept).  False (and
        nothing written) when the record's main line is no longer the game reviewed."""
        if not self.matches():
            return False
        for ply, node in enumerate(self.nodes):
            score = self.scores[ply]
            if score is None:
                continue
            evaluation = evaluation_of(score.score, score.turn, ply)
            node.comments = comment_with(_without_best(node.comments), evaluation=evaluation)
            verdict = self.verdict(ply) if ply else None
            if verdict is None:
                continue
            if verdict.best:
                node.comments = _with_best(node.comments, verdict.best)
            mark = mark_of(node.nags)
            if mark is None or mark in MARK_NAGS.values():  # a person's own mark stays
                node.nags = with_mark(node.nags, MARK_NAGS.get(verdict.mark))
        if self.known:
            self.record.headers["Annotator"] = ANNOTATOR
        return True

    @classmethod
    def read(cls, record: GameRecord) -> Review | None:
        """The review written in ``record`` (every position of its main line with its
        evaluation), or None when it has none or only part of one."""
        if record.variant is None or not record.variations:
            return None
        try:
            review = cls(record)
        except Exception:  # (a record whose moves do not replay)
            return None
        ours = record.header("Annotator") == ANNOTATOR
        for ply, node in enumerate(review.nodes):
            evaluation = node_eval(node.comments)
            if evaluation is None:
                return None
            turn = review.turns[ply]
            best = ""
            if ply < review.total - 1:
                following = review.nodes[ply + 1]
                found = _best_in(following.comments)
                # our review writes the engine's choice where it was not the move
                # played; another program's evaluations say nothing of it
                best = found if found else (review.texts[ply] if ours else "?")
            over = ply == review.total - 1 and _over(record, review)
            review.scores[ply] = PlyScore(ply, turn, score_of(evaluation, turn), best, over=over)
        review.deep = [True] * review.total  # (what the record says is not searched again)
        return review


def _over(record: GameRecord, review: Review) -> bool:
    game = record.start()
    for text in review.texts:
        game.push(game.parse_move(text))
    return game.outcome() is not None


def _best_in(comments: Iterable[str]) -> str:
    for comment in comments:
        match = BEST.search(comment)
        if match is not None:
            return match[1]
    return ""


def _without_best(comments: Iterable[str]) -> list[str]:
    return [" ".join(BEST.sub(" ", c).split()) for c in comments if BEST.sub("", c).strip()]


def _with_best(comments: list[str], best: str) -> list[str]:
    """The comments with ``[%best MOVE]`` after the evaluation."""
    command = f"[%best {best}]"
    if not comments:
        return [command]
    first = comments[0]
    marks = commands(first)
    if marks:
        last = first.index(marks[-1]) + len(marks[-1])
        return [f"{first[:last]} {command}{first[last:]}", *comments[1:]]
    return [f"{command} {first}", *comments[1:]]


__all__ = [
    "ANNOTATOR",
    "KEY_MOMENTS",
    "LOOK_AGAIN",
    "LOOK_AGAIN_FROM",
    "LOOK_AGAIN_ROUNDS",
    "MARK_NAGS",
    "Review",
    "Verdict",
    "evaluation_of",
    "score_of",
]
