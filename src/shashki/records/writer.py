"""The PDN writer: :class:`PdnWriter` (a visitor) writes a game as PDN text;
:func:`write_game` and :func:`write_games` write records, :func:`pdn_headers` says
which tags.

The writer only needs the records' types for annotations: the model imports it (a
record's ``str()`` is its PDN text), never the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, NamedTuple

from ..rules import Game, Move, Variant
from .gametypes import needs_variant_tag
from .tags import NAG_MARKS, UNKNOWN, header_value, normalize_result
from .visitor import Visitor

if TYPE_CHECKING:
    from .model import GameRecord

#: The seven-tag roster, in the order PDN writes it, with the value for "unknown".
ROSTER = (
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", UNKNOWN),
)
_COMPUTED = {"gametype", "variant", "setup", "fen"}
#: A comment's words: a command for programs (``[%clk 0:04:53]``) whole, or a word.
_COMMENT_WORD = re.compile(r"\[%[^\]\s]{1,20}[^\]]{0,200}\]|\S+")


def pdn_headers(
    headers: dict[str, str], variant: Variant | None, fen: str | None, result: str
) -> dict[str, str]:
    """The tags shashki writes for a game: the roster (unknown values as PDN says),
    ``GameType`` (and ``Variant`` where the number is not enough), ``SetUp`` and ``FEN``
    for a start position other than the variant's, then the game's other tags in order.
    """
    out: dict[str, str] = {}
    for name, unknown in ROSTER:
        out[name] = header_value(headers, name).strip() or unknown
    out["Result"] = result
    if variant is not None:
        if variant.gametype:
            out["GameType"] = variant.gametype
        if needs_variant_tag(variant):
            out["Variant"] = variant.id
        if fen is not None:
            out["SetUp"] = "1"
            out["FEN"] = fen
    else:  # a game shashki cannot play keeps the tags that say what it is
        for name in ("GameType", "Variant", "SetUp", "FEN"):
            value = header_value(headers, name)
            if value:
                out[name] = value
    written = {name.lower() for name in out} | _COMPUTED
    for name, value in headers.items():
        if name.lower() not in written and re.fullmatch(r"[A-Za-z][\w-]*", name):
            out[name] = value
            written.add(name.lower())
    return out


def _tag_line(name: str, value: str) -> str:
    clean = " ".join(value.split()) if ("\n" in value or "\r" in value) else value
    escaped = clean.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


class _Line(NamedTuple):
    """Where the writer stands in one line of play: the move number, the side that
    made the last move (None before the first), and the same before that move (what a
    variation on that move starts from)."""

    number: int
    mover: int | None
    before: tuple[int, int | None]


class PdnWriter(Visitor[str]):
    """Writes a game as PDN text: tags, then the moves in lines of at most ``columns``
    characters (a single word longer than that stands alone on its line; a tag is one
    line whatever its length, as PDN wants).  Comments are written with their white
    space made single spaces, and braces inside them as parentheses; a line never
    starts with "%".

    Move numbers count turns: a number goes up when the first mover's turn comes round
    again, so consecutive moves of one side (double-move turns) share a number and are
    joined with ";": ``1. c3-d4; d4-c5 f6-g5; g5-h4 2. …``.
    """

    def __init__(self, columns: int = 80) -> None:
        self.columns = columns

    def begin_game(self, line: int) -> None:
        self._headers: dict[str, str] = {}
        self._variant: Variant | None = None
        self._fen: str | None = None
        self._result = UNKNOWN
        self._words: list[str] = []
        self._needs_number = True
        self._line = _Line(0, None, (0, None))
        self._stack: list[_Line] = []
        self._opening = ""  # "(" waiting for the first word of a variation
        self._glue: int | None = None  # index of the last move's word, if nothing followed
        self._marked = False  # that word already carries a move mark
        self._commented = False  # a comment since the last move

    def visit_header(self, name: str, value: str) -> None:
        self._headers[name] = value
        if name.lower() == "result":
            self._result = normalize_result(value) or self._result

    def visit_start(self, variant: Variant, fen: str | None, game: Game) -> None:
        self._variant = variant
        self._fen = fen
        self._line = _Line(game.fullmove_number, None, (game.fullmove_number, None))

    def _word(self, word: str) -> None:
        self._words.append(self._opening + word)
        self._opening = ""
        self._glue = None

    def visit_comment(self, text: str) -> None:
        # a command for programs ("[%eval 0.35]") is one word: never cut between lines
        text = text.replace("}", ")").replace("{", "(")
        words = [" ".join(w.split()) for w in _COMMENT_WORD.findall(text)]
        if not words:
            self._word("{}")
        else:
            words[0] = "{" + words[0]
            words[-1] = words[-1] + "}"
            self._word(words[0])
            self._words.extend(words[1:])
        # the next move goes on without its number ("1. c3-d4 {good} f6-g5"): readers
        # that drop comments and count the numbers (pydraughts) read it so; a second move
        # of the same side in one turn is still numbered (": d4-c5" alone reads badly)
        self._commented = True

    def visit_nag(self, nag: int) -> None:
        mark = NAG_MARKS.get(nag)
        if mark is not None and self._glue is not None and not self._marked:
            self._words[self._glue] += mark
            self._marked = True
        else:
            self._word(f"${nag}")

    def begin_variation(self) -> None:
        self._stack.append(self._line)
        number, mover = self._line.before
        self._line = _Line(number, mover, (number, mover))
        self._opening += "("
        self._needs_number = True
        self._glue = None

    def end_variation(self) -> None:
        if self._opening:  # an empty variation
            self._word(")")
        else:
            self._words[-1] += ")"
        self._line = self._stack.pop()
        self._needs_number = True
        self._glue = None

    def visit_move(self, game: Game, move: Move) -> None:
        variant = game.variant
        mover = int(game.turn)
        first = int(variant.rules.first)
        number, last = self._line.number, self._line.mover
        if last is not None and mover == first and last != first:
            number += 1
        if self._commented and (mover == last or last is None):
            self._needs_number = True
        self._commented = False
        if mover == last:
            # The same side again: a double-move turn goes on ("1. c3-d4; d4-c5"), or
            # a variation replaces the second move of a turn ("(1. ...; e3-f4").
            if self._needs_number:
                self._word(f"{number}." if mover == first else f"{number}...")
                self._word("...;")
            elif self._glue is not None:
                self._words[self._glue] += ";"
            else:
                self._word(";")
        elif mover == first:
            self._word(f"{number}.")
        elif self._needs_number:
            self._word(f"{number}...")
        self._word(game.move_text(move))
        self._glue = len(self._words) - 1
        self._marked = False
        self._needs_number = False
        self._line = _Line(number, mover, (self._line.number, last))

    def visit_result(self, result: str) -> None:
        self._result = result

    def result(self) -> str:
        headers = pdn_headers(self._headers, self._variant, self._fen, self._result)
        lines = [_tag_line(name, value) for name, value in headers.items()]
        lines.append("")
        lines.extend(_wrap([*self._words, self._result], self.columns))
        return "\n".join(lines) + "\n"


def _wrap(words: list[str], columns: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > columns:
            lines.append(current)
            current = ""
        if not current and word.startswith("%"):
            word = " " + word  # a line that starts with "%" is a PDN escape line
        current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def write_game(record: GameRecord, columns: int = 80) -> str:
    """A game as PDN text (tags, a blank line, the moves, the result, a newline)."""
    return record.accept(PdnWriter(columns))


def write_games(handle: IO[str], records: Iterable[GameRecord], columns: int = 80) -> int:
    """Write games to a text handle, a blank line between them; returns how many."""
    count = 0
    for record in records:
        if count:
            handle.write("\n")
        handle.write(write_game(record, columns))
        count += 1
    return count
