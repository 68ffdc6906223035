"""What a study writes into a record: a person's comments and move marks, and a review's
evaluations, in the form PGN programs use and PDN takes over.

A comment holds free text and, before it, *commands* in square brackets that programs
read: ``{[%clk 0:04:53]}`` (a clock, :mod:`.clocks`) and ``{[%eval 0.35]}`` (the
evaluation of the position after the move, in men, for the variant's first side — the
side named first, White in most games, whichever of them moves first; ``[%eval #7]`` a
win in 7 moves for that side, ``#-7`` for the other).  A person's text is kept apart
from the commands: editing it keeps them, and a review written again replaces its own
and keeps the text.

>>> comment_with(["[%clk 0:04:53] A fine move."], evaluation=Evaluation(0.35))
['[%clk 0:04:53] [%eval 0.35] A fine move.']
>>> eval_in("[%eval #-3] lost"), eval_in("[%eval -1.5]")
(Evaluation(men=0.0, win=-3), Evaluation(men=-1.5, win=0))
>>> user_text(["[%clk 0:01:00] [%eval 0.10] good {really}"])
'good {really}'
>>> clean_text("  a {b}\\n [%eval 9] c ")
'a (b) [ %eval 9] c'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Any command of a comment: ``[%name args]``.
COMMAND = re.compile(r"\[%(\w{1,20})(?:\s+([^\]]{0,80}))?\s*\]", re.ASCII)
#: The evaluation command.
EVAL = re.compile(r"\[%eval\s+([^\]\s]{1,16})\s*\]", re.ASCII)
_MEN = re.compile(r"[+-]?\d{1,4}(?:\.\d{1,4})?", re.ASCII)
_WIN = re.compile(r"#([+-]?)(\d{1,4})", re.ASCII)

#: The move marks a person gives, as NAGs (PDN's numeric annotation glyphs).
GOOD, MISTAKE, BRILLIANT, BLUNDER, INTERESTING, DUBIOUS = 1, 2, 3, 4, 5, 6
MOVE_MARKS = (GOOD, MISTAKE, BRILLIANT, BLUNDER, INTERESTING, DUBIOUS)


@dataclass(frozen=True)
class Evaluation:
    """An evaluation for the first side: ``men`` ahead (negative: behind), or a win in
    ``win`` moves (negative: a loss), when ``win`` is not 0."""

    men: float = 0.0
    win: int = 0

    def text(self) -> str:
        """As the command writes it: ``0.35``, ``-1.20``, ``#7``, ``#-7``."""
        if self.win:
            return f"#{self.win}"
        return f"{self.men:.2f}"

    def command(self) -> str:
        return f"[%eval {self.text()}]"

    def flipped(self) -> Evaluation:
        """The same for the other side."""
        return Evaluation(-self.men if self.men else 0.0, -self.win)


def eval_in(comment: str) -> Evaluation | None:
    """The evaluation a comment's ``[%eval]`` gives, or None (none, or not a number)."""
    match = EVAL.search(comment[:400])
    if match is None:
        return None
    value = match[1]
    win = _WIN.fullmatch(value)
    if win is not None:
        moves = int(win[2])
        if moves == 0:
            return None
        return Evaluation(win=-moves if win[1] == "-" else moves)
    if _MEN.fullmatch(value) is None:
        return None
    men = float(value)
    return Evaluation(men=men) if math.isfinite(men) else None


def node_eval(comments: Iterable[str]) -> Evaluation | None:
    """The evaluation of a node's comments (the first one found)."""
    for comment in comments:
        found = eval_in(comment)
        if found is not None:
            return found
    return None


def commands(comment: str) -> list[str]:
    """The commands of a comment, in order, as written."""
    return [m[0] for m in COMMAND.finditer(comment)]


def text_of(comment: str) -> str:
    """A comment without its commands, its white space made single spaces."""
    return " ".join(COMMAND.sub(" ", comment).split())


def user_text(comments: Iterable[str]) -> str:
    """What a person wrote in a node's comments (every comment's text, joined)."""
    return " ".join(t for c in comments if (t := text_of(c)))


def clean_text(text: str) -> str:
    """A person's comment as a record keeps it and reads it back the same: one line of
    single spaces, braces as parentheses (a brace would end the comment), and no
    command of its own (``[%`` would make the text a command for programs)."""
    text = text.replace("{", "(").replace("}", ")").replace("[%", "[ %")
    return " ".join(text.split())


def comment_with(
    comments: Iterable[str],
    *,
    text: str | None = None,
    evaluation: Evaluation | bool | None = True,
) -> list[str]:
    """A node's comments as one comment: its commands (the ``[%eval]`` replaced by
    ``evaluation``, or dropped for None; ``True`` keeps it as it is), then ``text``
    (None keeps the text there is).  An empty result is an empty list."""
    comments = list(comments)
    kept: list[str] = []
    old_eval: str | None = None
    for comment in comments:
        for command in commands(comment):
            if EVAL.fullmatch(command):
                old_eval = old_eval or command
            elif command not in kept:
                kept.append(command)
    if evaluation is True:
        if old_eval is not None:
            kept.append(old_eval)
    elif isinstance(evaluation, Evaluation):
        kept.append(evaluation.command())
    words = user_text(comments) if text is None else clean_text(text)
    out = " ".join([*kept, words] if words else kept)
    return [out] if out else []


def with_mark(nags: Iterable[int], mark: int | None) -> list[int]:
    """A node's NAGs with its move mark (``!``, ``?``… as a NAG) set to ``mark`` (None:
    no mark); the other NAGs stay."""
    out = [n for n in nags if n not in MOVE_MARKS]
    if mark is not None:
        out.insert(0, mark)
    return out


def mark_of(nags: Iterable[int]) -> int | None:
    """A node's move mark, if it has one."""
    for nag in nags:
        if nag in MOVE_MARKS:
            return nag
    return None


__all__ = [
    "BLUNDER",
    "BRILLIANT",
    "DUBIOUS",
    "EVAL",
    "GOOD",
    "INTERESTING",
    "MISTAKE",
    "MOVE_MARKS",
    "Evaluation",
    "clean_text",
    "commands",
    "comment_with",
    "eval_in",
    "mark_of",
    "node_eval",
    "text_of",
    "user_text",
    "with_mark",
]
