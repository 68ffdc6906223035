"""PDN (Portable Draughts Notation): a streaming reader and a writer for every variant.

Reading is event-driven, like python-chess's PGN module: :class:`PdnReader` tokenises a
file line by line and sends each game to a :class:`Visitor` — :class:`GameBuilder` builds
a :class:`~shashki.records.model.GameRecord`, :class:`HeadersScanner` keeps only the tags
(and skips the moves unparsed), :class:`PdnWriter` writes the game out again.  One game is
in memory at a time, so archives of any size stream through.

What the reader accepts (the dialects of real files, see ``shared/corpora/SOURCES.md``):
bytes in UTF-8, or Latin-1/cp1251 when a line is not UTF-8; a BOM; LF, CRLF or CR; tags
in any case and padding (``Setup``/``SetUp``, ``[Event   "…"]``), several on a line, no
blank line before the moves; ``{}`` comments over many lines; ``%`` escape lines; NAGs
(``$3``) and move marks (``!?``, ``(!?)``); variations ``( … )``, nested, kept in the
tree; move numbers ``1.``, ``23...``, ``01.`` or none; numeric and algebraic moves with
``-``, ``x``, ``:`` or no separator (``a3b4``), a blank after the separator (``1- 6``),
every landing square or only the ends, Russian short notation (``ed4``); the results
``1-0 0-1 1/2-1/2 * 2-0 0-2 1-1 1:0 0:1 1/2:1/2``.

The variant comes from the tags — ``GameType`` first, then a ``Variant`` tag (an id,
alias or name, as lidraughts and PlayStrategy write them) — and otherwise from the
caller's default, which is International draughts (PDN's default GameType 20) unless
given.  The moves never decide the variant.

Every move is matched to exactly one legal move.  A text that fits several (short
notation ``hg7`` with two men able to reach g7, a capture written by its ends only when two
routes join them) is settled by the moves that follow it in the same line: if exactly one
reading lets more of them be played, that is the move, and a warning says so.  When a
move matches none, or several that nothing settles, or the text is not a move at all, the
game records a :class:`BadPdnError` (line, column, the text, the position's FEN); that
line of play ends there — the rest of a variation is skipped, or the rest of the game
after an error in the main line — what was read before is kept, and the next game is
read normally.  Words outside braces ("Red overstepped the time") are kept as a comment,
with a warning.  The reader raises nothing for bad input; only an ``OSError`` from the
file itself reaches the caller.

The small functions :func:`variant_from_headers`, :func:`start_from_headers`,
:func:`match_move` and :func:`pdn_headers` are where the reader and the writer meet
a variant; a variant with needs of its own is served by extending them.
"""

from __future__ import annotations

import io
import json
import os
import re
import weakref
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import IO, Any, Generic, NamedTuple, TypeVar

from ..notation.moves import move_text, parse_move, parse_short_move
from ..rules import Game, Geometry, Move, ShashkiError, Variant, all_variants, find_variant
from ..rules.errors import AmbiguousMoveError, BadPdnError, IllegalMoveError
from ..rules.geometry import FILES
from .model import UNKNOWN, GameNode, GameRecord, header_value, normalize_result

__all__ = [
    "PDN_GAMETYPES",
    "SKIP",
    "GameBuilder",
    "HeadersScanner",
    "PdnReader",
    "PdnWriter",
    "Visitor",
    "iter_games",
    "match_move",
    "pdn_headers",
    "read_file",
    "read_game",
    "read_games_text",
    "scan_headers",
    "square_view",
    "variant_from_headers",
    "walk_record",
    "write_game",
    "write_games",
]

T = TypeVar("T")

# ---------------------------------------------------------------------------------
# PDN game types
# ---------------------------------------------------------------------------------

#: The PDN GameType numbers (PDN 3.0, plus lidraughts' own 96-98) and the game each one
#: stands for.  A GameType whose game is registered reads as that variant, even when
#: other shashki variants share the number (``traditional`` also writes 26).
PDN_GAMETYPES: dict[int, tuple[str, str]] = {
    20: ("international", "International draughts"),
    21: ("english", "English draughts"),
    22: ("italian", "Italian draughts"),
    23: ("pool", "Pool checkers"),
    24: ("spanish", "Spanish draughts"),
    25: ("russian", "Russian draughts"),
    26: ("brazilian", "Brazilian draughts"),
    27: ("canadian", "Canadian draughts"),
    28: ("portuguese", "Portuguese draughts"),
    29: ("czech", "Czech draughts"),
    30: ("turkish", "Turkish draughts"),
    31: ("thai", "Thai draughts"),
    40: ("frisian", "Frisian draughts"),
    41: ("spantsiretti", "Spantsiretti draughts"),
    96: ("breakthrough", "Breakthrough draughts (lidraughts)"),
    97: ("frysk", "Frysk! (lidraughts)"),
    98: ("antidraughts", "Antidraughts (lidraughts)"),
}

#: Names other programs put in a ``Variant`` tag that are none of our ids or aliases.
_VARIANT_TAG_NAMES = {"standard": "international", "from position": "international"}

#: The PDN default when a game has no GameType: International draughts.
DEFAULT_VARIANT = "international"


def _lookup_variant_name(name: str) -> Variant | None:
    """A registered variant named ``name`` as another program wrote it, or None."""
    text = name.strip()
    if not text:
        return None
    tries = [text, text.lower().replace(" ", "-"), _VARIANT_TAG_NAMES.get(text.lower(), "")]
    tries += [part.strip() for part in re.split(r"[/,;]", text) if part.strip()]
    for candidate in tries:
        if not candidate:
            continue
        try:
            return find_variant(candidate)
        except ShashkiError:
            continue
    return None


def variant_from_headers(headers: dict[str, str], default: Variant | str | None = None) -> Variant:
    """The variant a game's tags name: ``GameType`` first, then ``Variant``, then
    ``default`` (International draughts when None).

    Raises BadPdnError when the tags name a game that shashki does not play.
    """
    gametype = header_value(headers, "GameType").strip()
    named = header_value(headers, "Variant").strip()
    if gametype:
        head = gametype.split(",")[0].strip()
        if not head.isdigit():
            raise BadPdnError(f"GameType {gametype!r} does not start with a PDN game number")
        number = int(head)
        by_name = _lookup_variant_name(named) if named else None
        if by_name is not None and by_name.gametype_number == number:
            return by_name
        standard = PDN_GAMETYPES.get(number, ("", ""))
        sharing = [v for v in all_variants() if v.gametype_number == number]
        # The variant that is what the number means: marked primary in its file, or
        # PDN's own game of that number.
        sharing.sort(key=lambda v: (not v.gametype_primary, v.id != standard[0]))
        if sharing:
            return sharing[0]
        what = f" ({standard[1]})" if standard[1] else ""
        raise BadPdnError(f"GameType {number}{what} is not a variant shashki plays")
    if named:
        found = _lookup_variant_name(named)
        if found is None:
            raise BadPdnError(f"Variant {named!r} is not a variant shashki plays")
        return found
    return find_variant(default if default is not None else DEFAULT_VARIANT)


def start_from_headers(variant: Variant, headers: dict[str, str]) -> tuple[str | None, Game]:
    """The start position the tags give: (normalised FEN or None for the variant's own
    start, a rules game there).  Raises BadPdnError for a FEN that cannot be read.

    A ``FEN`` tag is used whether or not ``SetUp``/``Setup`` says "1".  Without one the
    game starts from ``variant.start`` (for a variant whose start is drawn by lot, the
    writer always records the drawn position when it is not that one).
    """
    fen = header_value(headers, "FEN").strip()
    # The variant's own start, never a start drawn by lot: a record that does not say
    # otherwise starts there, every time.
    usual = Game(variant, variant.start)
    if not fen:
        return None, usual
    try:
        game = Game(variant, fen)
    except ShashkiError as exc:
        raise BadPdnError(f"bad FEN tag: {exc}", token=fen) from None
    if game.position == usual.position and game.fen() == usual.fen():
        return None, game
    return game.fen(), game


# ---------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------

_SQ = r"(?:[a-l](?:1[0-2]|[1-9])|\d{1,3})"
_ALG = r"[a-l](?:1[0-2]|[1-9])"
_SHORT_MOVE = re.compile(r"[a-l][a-l](?:1[0-2]|[1-9])")
_GLUED_MOVE = re.compile(rf"(?:{_ALG}){{2,}}")
_ALG_SQUARE = re.compile(_ALG)
_SIMPLE_MOVE = re.compile(rf"({_SQ})[-x\u00d7:X]\s*({_SQ})")
_SHORT_TEXT = re.compile(rf"([a-l])({_ALG})")
_ANY_SQUARE = re.compile(_SQ)
#: How many tokens a capture written jump by jump may take.
_JOIN_TOKENS = 24


def match_move(game: Game, text: str) -> Move:
    """The one legal move of ``game`` that the move text names.

    Reads every form :func:`~shashki.notation.moves.parse_move` reads, plus squares
    written without a separator (``a3b4``) and Russian short notation (``ed4``: the
    start file and the end square).  Raises NotationError, IllegalMoveError or
    AmbiguousMoveError.
    """
    return _match_in(game.variant, game.position, game.legal_moves(), text)


def _same_text(text: str) -> str:
    return text


def square_view(variant: Variant, headers: dict[str, str]) -> Callable[[str], str]:
    """How a game's move texts name squares: a function from the record's text to
    shashki's.

    Standard PDN names squares as the variant does.  PlayStrategy (tags ``P1``/``P2``,
    or its address in ``Site``) writes algebraic squares as seen by the first mover,
    from a1 at that player's left: for a game where Black moves first (English
    draughts) that is shashki's board turned round, so c3-d4 there is f6-e5 here.
    """
    site = header_value(headers, "Site").lower()
    first_mover_view = "playstrategy." in site or bool(
        header_value(headers, "P1") or header_value(headers, "P2")
    )
    if not first_mover_view or int(variant.rules.first) == 0:
        return _same_text
    board = variant.board

    def turn_round(match: re.Match[str]) -> str:
        name = match.group()
        file = FILES.index(name[0])
        rank = int(name[1:])
        return f"{FILES[board.width - 1 - file]}{board.height + 1 - rank}"

    def view(text: str) -> str:
        short = _SHORT_TEXT.fullmatch(text)
        if short is not None:  # "ed4": the file turns round with the square
            square = _ALG_SQUARE.sub(turn_round, short.group(2))
            return FILES[board.width - 1 - FILES.index(short.group(1))] + square
        return _ALG_SQUARE.sub(turn_round, text)

    return view


@cache
def _square_index(board: Geometry) -> dict[str, int]:
    """Every square of a board by its algebraic name and by its number."""
    index = {board.name(sq): sq for sq in board.squares}
    index.update({str(board.number(sq)): sq for sq in board.squares})
    return index


def _match_in(variant: Variant, position: Any, legal: list[Move], text: str) -> Move:
    # Fast path for the usual two-square text that fits exactly one move; anything
    # else goes through the notation layer, which explains what is wrong.
    simple = _SIMPLE_MOVE.fullmatch(text)
    if simple is not None:
        index = _square_index(variant.board)
        start, end = index.get(simple.group(1)), index.get(simple.group(2))
        if start is not None and end is not None:
            found = [m for m in legal if m[0][0] == start and m[0][-1] == end]
            if len(found) == 1:
                return found[0]
    if _SHORT_MOVE.fullmatch(text):
        return parse_short_move(variant, text, legal)
    if _GLUED_MOVE.fullmatch(text):
        text = "-".join(_ALG_SQUARE.findall(text))
    return parse_move(variant, text, legal, position)


# ---------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------

TAG, COMMENT, MOVE, NUMBER, NAG, OPEN, CLOSE, RESULT, SEP, JUNK, BROKEN, WARN = range(12)


class Token(NamedTuple):
    kind: int
    text: str
    line: int
    column: int
    #: A tag's value; a NAG's number (as text); a BROKEN token's message.
    value: str = ""


_RESULT_RE = (
    r"(?:1/2-1/2|1/2:1/2|½-½|½:½|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|2:0|0:2|1:1|0:0)(?![\w/])"
    r"|1/2(?![\w/:-])|\*"
)
_TOKEN_RE = re.compile(
    rf"""
    (?P<ws>[\s\ufeff]+)
  | \{{(?P<comment>[^}}]*)(?P<cend>\}})?
  | \[\s*(?P<tname>[A-Za-z][\w-]*)\s*"(?P<tvalue>(?:[^"\\]|\\.)*)"\s*\]
  | \[\s*(?P<tname2>[A-Za-z][\w-]*)\s+(?P<tvalue2>[^\]"\[]*?)\s*\]
  | \[\s*(?P<tname3>[A-Za-z][\w-]*)\s*"(?P<tvalue3>[^"\]]*)\]
  | (?P<result>{_RESULT_RE})
  | (?P<number>\d+(?:\s*\.)+)
  | (?P<ellipsis>\.+|…)
  | (?P<move>{_SQ}(?:[-x\u00d7:X]\s*{_SQ})+|(?:{_ALG}){{2,}}|[a-l]{_ALG})(?![\w])
  | (?P<glued>{_SQ}(?:[-x\u00d7:X]\s*{_SQ})+)(?=[^\W\d_]{{2}})
  | (?P<nag>\$\d+|[!?]+|\([!?]+\))
  | (?P<open>\()
  | (?P<close>\))
  | (?P<sep>[;,])
  | (?P<junk>[^\s(){{}}\[\];,]+|.)
    """,
    re.VERBOSE,
)
#: A comment over many lines keeps at most this many characters (an unclosed brace
#: must not pull a whole archive into memory).
_COMMENT_LIMIT = 100_000
_COMMENT_CUT = f"comment longer than {_COMMENT_LIMIT} characters: the rest is left out"
_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z][\w-]*\s*"[^"]*"\s*\]\s*$')
_ESCAPE = re.compile(r"\\(.)")
_MARKS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_NAG_MARKS = {v: k for k, v in _MARKS.items()}


def _decoded_lines(handle: IO[Any] | Iterable[Any]) -> Iterator[str]:
    """The lines of a text or binary handle as text without line ends.

    Bytes are read as UTF-8; a line that is not UTF-8 is read as cp1251 when it looks
    Cyrillic (runs of letters above 0xC0) and as Latin-1 otherwise, and the file keeps
    that choice.  A BOM is dropped; a lone CR also ends a line.
    """
    fallback = ""
    first = True
    for raw in handle:
        if isinstance(raw, bytes | bytearray):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                if not fallback:
                    fallback = "cp1251" if re.search(rb"[\xc0-\xff]{3}", raw) else "latin-1"
                text = bytes(raw).decode(fallback, errors="replace")
        else:
            text = raw
        if first:
            text = text.lstrip("\ufeff")
            first = False
        text = text.rstrip("\n")
        if text.endswith("\r"):
            text = text[:-1]
        if "\r" in text:
            yield from text.split("\r")
        else:
            yield text


def _tokens(lines: Iterable[str]) -> Iterator[Token]:
    """The tokens of PDN text, with 1-based line and column."""
    match = _TOKEN_RE.match
    comment: list[str] | None = None  # the parts of a comment that spans lines
    c_line = c_col = c_size = 0
    lineno = 0
    source = iter(lines)
    while True:
        try:
            text = next(source)
        except StopIteration:
            break
        except UnicodeDecodeError as exc:  # a text handle opened with the wrong encoding
            message = f"the file cannot be decoded ({exc.reason}): open it in binary mode"
            yield Token(BROKEN, "", lineno + 1, 1, message)
            return
        lineno += 1
        pos = 0
        if comment is not None:
            end = text.find("}")
            if end < 0:
                if _TAG_LINE.match(text):
                    # A comment left open runs into the next game's tags: end it here.
                    yield Token(BROKEN, "{", c_line, c_col, "comment is not closed with '}'")
                    yield Token(COMMENT, _clean(comment), c_line, c_col)
                    comment = None
                else:
                    if c_size < _COMMENT_LIMIT:
                        comment.append(text)
                        c_size += len(text)
                    continue
            else:
                comment.append(text[:end])
                if c_size >= _COMMENT_LIMIT:
                    yield Token(WARN, "{", c_line, c_col, _COMMENT_CUT)
                yield Token(COMMENT, _clean(comment), c_line, c_col)
                comment = None
                pos = end + 1
        elif text.startswith("%"):
            continue  # PDN escape line
        n = len(text)
        while pos < n:
            m = match(text, pos)
            if m is None:  # pragma: no cover - the junk branch matches any character
                break
            kind = m.lastgroup
            col = pos + 1
            pos = m.end()
            if kind == "ws":
                continue
            if kind in ("comment", "cend"):
                if m.group("cend") is None:
                    comment = [m.group("comment")]
                    c_line, c_col, c_size = lineno, col, len(comment[0])
                else:
                    yield Token(COMMENT, _clean([m.group("comment")]), lineno, col)
            elif kind == "tvalue":
                value = _ESCAPE.sub(r"\1", m.group("tvalue"))
                yield Token(TAG, m.group("tname"), lineno, col, value)
            elif kind == "tvalue2":
                yield Token(TAG, m.group("tname2"), lineno, col, m.group("tvalue2"))
            elif kind == "tvalue3":  # [Round "11.1]
                yield Token(TAG, m.group("tname3"), lineno, col, m.group("tvalue3"))
                yield Token(WARN, m.group(), lineno, col, "tag value without its closing '\"'")
            elif kind == "result":
                yield Token(RESULT, m.group(), lineno, col)
            elif kind in ("number", "ellipsis"):
                yield Token(NUMBER, m.group(), lineno, col)
            elif kind in ("move", "glued"):  # glued: "8-11Red overstepped…"
                yield Token(MOVE, m.group(), lineno, col)
            elif kind == "nag":
                yield Token(NAG, m.group(), lineno, col)
            elif kind == "open":
                yield Token(OPEN, "(", lineno, col)
            elif kind == "close":
                yield Token(CLOSE, ")", lineno, col)
            elif kind == "sep":
                yield Token(SEP, m.group(), lineno, col)
            else:
                yield Token(JUNK, m.group(), lineno, col)
    if comment is not None:
        yield Token(BROKEN, "{", c_line, c_col, "comment is not closed with '}'")
        if c_size >= _COMMENT_LIMIT:
            yield Token(WARN, "{", c_line, c_col, _COMMENT_CUT)
        yield Token(COMMENT, _clean(comment), c_line, c_col)


def _clean(parts: list[str]) -> str:
    """A comment's text with its white space (line breaks included) made single spaces."""
    return " ".join(" ".join(parts).split())


def _nag_value(text: str) -> int | None:
    if text.startswith("$"):
        return int(text[1:]) if len(text) < 8 else None
    return _MARKS.get(text.strip("()"))


# ---------------------------------------------------------------------------------
# Visitors
# ---------------------------------------------------------------------------------


class _Skip:
    def __repr__(self) -> str:
        return "SKIP"


#: Returned by :meth:`Visitor.end_headers` to have the reader skip the moves unparsed.
SKIP = _Skip()


class Visitor(Generic[T]):
    """Receives one game's events from the reader (or from :func:`walk_record`).

    The order: ``begin_game``; ``visit_header`` per tag; ``end_headers`` (return
    :data:`SKIP` to skip the moves); ``visit_start`` with the variant and start
    position (or ``visit_error`` when the tags name no playable game); then comments,
    NAGs, moves and variations in file order; ``visit_result``; ``end_game``;
    and ``result()`` gives what the reader returns.  ``visit_error`` can come at any
    point.  The game passed to ``visit_move`` is in the position before the move and
    must not be kept or changed.
    """

    def begin_game(self, line: int) -> None:
        pass

    def visit_header(self, name: str, value: str) -> None:
        pass

    def end_headers(self) -> _Skip | None:
        return None

    def visit_start(self, variant: Variant, fen: str | None, game: Game) -> None:
        pass

    def visit_comment(self, text: str) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> None:
        pass

    def end_variation(self) -> None:
        pass

    def visit_move(self, game: Game, move: Move) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def visit_error(self, error: BadPdnError) -> None:
        pass

    def visit_warning(self, warning: BadPdnError) -> None:
        """Something odd that the reader could read all the same (text outside
        braces, an ambiguous move that the following moves settle)."""

    def end_game(self) -> None:
        pass

    def result(self) -> T:
        raise NotImplementedError


class GameBuilder(Visitor[GameRecord]):
    """Builds a :class:`GameRecord` with its whole tree."""

    def begin_game(self, line: int) -> None:
        self.game = GameRecord()
        self.game.line = line
        self._node: GameNode = self.game
        self._stack: list[GameNode] = []
        self._at_variation_start = False
        self._pending: list[str] = []

    def visit_header(self, name: str, value: str) -> None:
        self.game.headers[name] = value
        if name.lower() == "result":
            result = normalize_result(value)
            if result is not None:
                self.game.result = result

    def visit_start(self, variant: Variant, fen: str | None, game: Game) -> None:
        self.game.variant = variant
        self.game.fen = fen

    def visit_comment(self, text: str) -> None:
        if self._at_variation_start:
            self._pending.append(text)
        else:
            self._node.comments.append(text)

    def visit_nag(self, nag: int) -> None:
        self._node.nags.append(nag)

    def begin_variation(self) -> None:
        self._stack.append(self._node)
        parent = self._node.parent
        self._node = parent if parent is not None else self._node
        self._at_variation_start = True
        self._pending = []

    def end_variation(self) -> None:
        self._node = self._stack.pop()
        if self._at_variation_start and self._pending:
            # Parentheses around words only ("(White wins)"): a comment on the move.
            self._node.comments.extend(self._pending)
        self._at_variation_start = False
        self._pending = []

    def visit_move(self, game: Game, move: Move) -> None:
        node = self._node.add_variation(move)
        if self._at_variation_start:
            node.starting_comments = self._pending
            self._pending = []
            self._at_variation_start = False
        self._node = node

    def visit_result(self, result: str) -> None:
        self.game.result = result

    def visit_error(self, error: BadPdnError) -> None:
        self.game.errors.append(error)

    def visit_warning(self, warning: BadPdnError) -> None:
        self.game.warnings.append(warning)

    def result(self) -> GameRecord:
        return self.game


class HeadersScanner(Visitor[dict[str, str]]):
    """Keeps a game's tags and has the reader skip its moves."""

    def begin_game(self, line: int) -> None:
        self.headers: dict[str, str] = {}

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> _Skip:
        return SKIP

    def result(self) -> dict[str, str]:
        return self.headers


# ---------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------


class _Frame:
    """One line of play being read: the main line or an open variation."""

    __slots__ = ("at", "dead", "live", "popped", "pushed")

    def __init__(self, popped: Move | None, live: bool, at: tuple[int, int] = (1, 1)) -> None:
        self.at = at  # where its "(" stands
        self.popped = popped  # the move the variation replaces (pushed back at ")")
        self.pushed = 0  # moves of this line on the game's stack
        self.dead = not live  # an error ended this line: skip to its end
        self.live = live  # begin_variation was sent


_NOTHING: Any = object()

#: Words outside braces: letters and punctuation, no digits ("Red overstepped…").
_PROSE = re.compile(r"[^\W\d_][^\d(){}\[\]]*")
#: How many following moves may settle an ambiguous move, and how many positions
#: that look-ahead may visit.
_LOOKAHEAD = 12
_LOOKAHEAD_NODES = 400
#: How many tokens the look-ahead may hold (long variations in between).
_LOOKAHEAD_TOKENS = 2000


def matching_moves(game: Game, text: str) -> list[Move]:
    """Every legal move of ``game`` that the move text could name."""
    out = []
    for move in game.legal_moves():
        try:
            _match_in(game.variant, game.position, [move], text)
        except ShashkiError:
            continue
        out.append(move)
    return out


def _reach(game: Game, texts: list[str], i: int, budget: list[int]) -> int:
    """How many of ``texts`` replay in turn from ``game`` (trying every reading of an
    ambiguous one), within ``budget`` positions."""
    if i == len(texts) or budget[0] <= 0:
        return i
    budget[0] -= 1
    try:
        moves = [match_move(game, texts[i])]
    except AmbiguousMoveError:
        moves = matching_moves(game, texts[i])
    except ShashkiError:
        return i
    best = i + 1 if moves else i
    for move in moves:
        game.push_unchecked(move)
        try:
            best = max(best, _reach(game, texts, i + 1, budget))
        finally:
            game.pop()
        if best == len(texts):
            break
    return best


class PdnReader:
    """Reads the games of one PDN stream, one at a time.

    ``handle`` is a binary or text file (or any iterable of lines).  ``default_variant``
    is the variant of games whose tags name none (default: International, as PDN says).
    """

    def __init__(
        self, handle: IO[Any] | Iterable[Any], default_variant: Variant | str | None = None
    ) -> None:
        self._tokens = _tokens(_decoded_lines(handle))
        self._back: list[Token] = []
        self._eof = False
        #: How the current game's move texts are read (see :func:`square_view`).
        self._view: Callable[[str], str] = _same_text
        self.default_variant = (
            find_variant(default_variant) if default_variant is not None else None
        )

    def __iter__(self) -> Iterator[GameRecord]:
        while True:
            game = self.read_game()
            if game is None:
                return
            yield game

    def _next(self) -> Token | None:
        if self._back:
            return self._back.pop()
        if self._eof:
            return None
        try:
            return next(self._tokens)
        except StopIteration:
            self._eof = True
            return None

    def read_game(
        self,
        visitor: Callable[[], Visitor[T]] = GameBuilder,  # type: ignore[assignment]
    ) -> T | None:
        """The next game, as ``visitor().result()``; None at the end of the stream.

        ``visitor`` is called once per game for a fresh visitor.
        """
        while True:
            out = self._read_one(visitor)
            if out is not _NOTHING:
                return out
            if self._eof and not self._back:
                return None

    # -- one game --------------------------------------------------------------------

    def _read_one(self, make: Callable[[], Visitor[T]]) -> T | Any:
        visitor = make()
        self._view = _same_text
        started = False
        content = False
        seen: set[str] = set()
        headers: dict[str, str] = {}
        tag_at: dict[str, tuple[int, int]] = {}
        last = (1, 1)  # where the last token read began
        tok = self._next()
        while tok is not None:
            kind = tok.kind
            last = (tok.line, tok.column)
            if kind == TAG:
                low = tok.text.lower()
                if low in seen:  # the same tag again: the next game's tags
                    break
                if not started:
                    visitor.begin_game(tok.line)
                    started = True
                seen.add(low)
                tag_at[low] = (tok.line, tok.column)
                headers[tok.text] = tok.value
                visitor.visit_header(tok.text, tok.value)
                content = True
            elif kind == COMMENT:
                if not started:
                    visitor.begin_game(tok.line)
                    started = True
                visitor.visit_comment(tok.text)
            elif kind == WARN:
                if not started:
                    visitor.begin_game(tok.line)
                    started = True
                visitor.visit_warning(
                    BadPdnError(tok.value, line=tok.line, column=tok.column, token=tok.text)
                )
            elif not started and kind in (RESULT, NUMBER, SEP, CLOSE, NAG):
                pass  # debris between games
            else:
                break
            tok = self._next()
        if tok is None:
            if not content:
                return _NOTHING
        else:
            self._back.append(tok)
            if not started:
                visitor.begin_game(tok.line)
        skip = visitor.end_headers() is SKIP
        game: Game | None = None
        if not skip:
            # Errors in the tags point at the tag at fault.
            where = tag_at.get("gametype") or tag_at.get("variant") or last
            try:
                variant = variant_from_headers(headers, self.default_variant)
                where = tag_at.get("fen", last)
                fen, game = start_from_headers(variant, headers)
            except BadPdnError as exc:
                visitor.visit_error(
                    BadPdnError(exc.message, line=where[0], column=where[1], token=exc.token)
                )
            else:
                self._view = square_view(variant, headers)
                visitor.visit_start(variant, fen, game)
        content = self._movetext(visitor, game, skip) or content
        if not content:
            return _NOTHING
        visitor.end_game()
        return visitor.result()

    def _movetext(self, visitor: Visitor[Any], game: Game | None, skip: bool) -> bool:
        """Read the moves up to the end of the game; True if anything but comments
        was read."""
        frames = [_Frame(None, live=game is not None and not skip)]
        content = False
        quiet = skip or game is None  # no errors about moves that cannot be read anyway
        prose: list[Token] = []  # words outside braces, read as one comment

        def flush_prose() -> None:
            if not prose:
                return
            text = " ".join(t.text for t in prose)
            first = prose[0]
            prose.clear()
            if frames[-1].dead:
                return
            visitor.visit_comment(text)
            visitor.visit_warning(
                BadPdnError(
                    f"text outside braces read as a comment: {text!r}",
                    line=first.line,
                    column=first.column,
                    token=text,
                )
            )

        while True:
            tok = self._next()
            if tok is None:
                break
            kind = tok.kind
            if kind == JUNK and not quiet and _PROSE.fullmatch(tok.text):
                prose.append(tok)
                continue
            flush_prose()
            frame = frames[-1]
            if kind == TAG:
                self._back.append(tok)
                break
            if kind == RESULT:
                content = True
                self._close_all(visitor, game, frames, tok, quiet)
                result = normalize_result(tok.text)
                if result is not None and not skip:
                    visitor.visit_result(result)
                return True
            if kind == MOVE:
                content = True
                if frame.dead:
                    continue
                assert game is not None
                try:
                    move = self._match(visitor, game, tok)
                except ShashkiError as exc:
                    frame.dead = True
                    fen = game.fen()
                    # the move errors quote the position already (without the counters)
                    message = (
                        str(exc) if fen.split(":H")[0] in str(exc) else f"{exc} (position {fen})"
                    )
                    if self._view is not _same_text:
                        message += f"; the record's {tok.text!r} read from the first mover's side"
                    visitor.visit_error(
                        BadPdnError(
                            message, line=tok.line, column=tok.column, token=tok.text, fen=fen
                        )
                    )
                    continue
                visitor.visit_move(game, move)
                game.push_unchecked(move)
                frame.pushed += 1
            elif kind == COMMENT:
                if not frame.dead:
                    visitor.visit_comment(tok.text)
            elif kind == NAG:
                value = _nag_value(tok.text)
                if not frame.dead and value is not None:
                    visitor.visit_nag(value)
            elif kind == OPEN:
                at = (tok.line, tok.column)
                if frame.dead:
                    frames.append(_Frame(None, live=False, at=at))
                elif frame.pushed == 0:
                    assert game is not None
                    frames.append(_Frame(None, live=False, at=at))
                    visitor.visit_error(
                        BadPdnError(
                            "a variation must follow a move",
                            line=tok.line,
                            column=tok.column,
                            token="(",
                            fen=game.fen(),
                        )
                    )
                else:
                    assert game is not None
                    popped = game.pop()
                    frame.pushed -= 1
                    frames.append(_Frame(popped, live=True, at=at))
                    visitor.begin_variation()
            elif kind == CLOSE:
                if len(frames) == 1:
                    if not quiet and not frame.dead:
                        visitor.visit_error(
                            BadPdnError(
                                "')' closes no variation",
                                line=tok.line,
                                column=tok.column,
                                token=")",
                            )
                        )
                    continue
                self._close(visitor, game, frames)
            elif kind == JUNK:
                content = True
                if not frame.dead:
                    frame.dead = True
                    visitor.visit_error(
                        BadPdnError(
                            f"{tok.text!r} is not a move",
                            line=tok.line,
                            column=tok.column,
                            token=tok.text,
                            fen=game.fen() if game is not None else "",
                        )
                    )
            elif kind == WARN:
                visitor.visit_warning(
                    BadPdnError(tok.value, line=tok.line, column=tok.column, token=tok.text)
                )
            elif kind == BROKEN:
                content = True
                visitor.visit_error(
                    BadPdnError(tok.value, line=tok.line, column=tok.column, token=tok.text)
                )
            # NUMBER and SEP carry nothing the moves do not say.
        flush_prose()
        self._close_all(visitor, game, frames, None, quiet)
        return content

    # -- ambiguous moves -------------------------------------------------------------

    def _match(self, visitor: Visitor[Any], game: Game, tok: Token) -> Move:
        """The legal move a move token names.  A text that fits several moves (short
        notation, or the ends only of captures that differ on the way) is settled by
        the moves that follow it in the same line: the reading under which more of
        them replay wins; a tie stays an AmbiguousMoveError.  A capture written jump by
        jump as several moves ("e5xc3 c3xa1", as PlayStrategy writes) is joined."""
        text = self._view(tok.text)
        try:
            return match_move(game, text)
        except IllegalMoveError:
            joined = self._join_jumps(game, text)
            if joined is None:
                raise
            return joined
        except AmbiguousMoveError:
            candidates = matching_moves(game, text)
            if len(candidates) < 2:
                raise
            following = self._peek_line(_LOOKAHEAD)
            budget = [_LOOKAHEAD_NODES]
            reach = []
            for move in candidates:
                game.push_unchecked(move)
                try:
                    reach.append(_reach(game, following, 0, budget))
                finally:
                    game.pop()
            best = max(reach)
            winners = [m for m, r in zip(candidates, reach, strict=True) if r == best]
            if len(winners) != 1:
                raise
            names = ", ".join(move_text(game.variant, m, full=True) for m in candidates)
            visitor.visit_warning(
                BadPdnError(
                    f"{tok.text!r} could be {names}; read as "
                    f"{move_text(game.variant, winners[0], full=True)}, the only reading "
                    f"under which the next {best} move(s) can be played",
                    line=tok.line,
                    column=tok.column,
                    token=tok.text,
                    fen=game.fen(),
                )
            )
            return winners[0]

    def _join_jumps(self, game: Game, text: str) -> Move | None:
        """The capture that ``text`` begins and the next move texts go on with, each
        starting where the last one ended ("e5xc3", "c3xa1"); the texts joined are
        consumed.  None (nothing consumed) when no such joining names one legal move."""
        squares = _ANY_SQUARE.findall(text)
        if len(squares) < 2:
            return None
        seen: list[Token] = []
        while len(seen) < _JOIN_TOKENS:
            tok = self._next()
            if tok is None:
                break
            seen.append(tok)
            if tok.kind == NUMBER:
                continue
            if tok.kind != MOVE:
                break
            more = _ANY_SQUARE.findall(self._view(tok.text))
            if len(more) < 2 or more[0] != squares[-1]:
                break
            squares += more[1:]
            try:
                return match_move(game, "x".join(squares))
            except ShashkiError:
                continue
        self._back.extend(reversed(seen))
        return None

    def _peek_line(self, limit: int) -> list[str]:
        """The texts of the next ``limit`` moves of the current line (variations
        skipped), without consuming them."""
        seen: list[Token] = []
        texts: list[str] = []
        depth = 0
        while len(texts) < limit and len(seen) < _LOOKAHEAD_TOKENS:
            tok = self._next()
            if tok is None:
                break
            seen.append(tok)
            kind = tok.kind
            if kind == OPEN:
                depth += 1
            elif kind == CLOSE:
                if depth == 0:
                    break
                depth -= 1
            elif kind in (RESULT, TAG, BROKEN):
                break
            elif depth == 0:
                if kind == MOVE:
                    texts.append(self._view(tok.text))
                elif kind == JUNK and not _PROSE.fullmatch(tok.text):
                    break
        self._back.extend(reversed(seen))
        return texts

    @staticmethod
    def _close(visitor: Visitor[Any], game: Game | None, frames: list[_Frame]) -> None:
        frame = frames.pop()
        if not frame.live:
            return
        assert game is not None
        for _ in range(frame.pushed):
            game.pop()
        if frame.popped is not None:
            game.push_unchecked(frame.popped)
            frames[-1].pushed += 1
        visitor.end_variation()

    def _close_all(
        self,
        visitor: Visitor[Any],
        game: Game | None,
        frames: list[_Frame],
        tok: Token | None,
        quiet: bool,
    ) -> None:
        if len(frames) > 1 and not quiet:
            where = frames[-1].at
            visitor.visit_error(
                BadPdnError(
                    "a variation is not closed with ')'", line=where[0], column=where[1], token="("
                )
            )
        while len(frames) > 1:
            self._close(visitor, game, frames)


_READERS: weakref.WeakKeyDictionary[Any, PdnReader] = weakref.WeakKeyDictionary()


def read_game(
    handle: IO[Any],
    *,
    default_variant: Variant | str | None = None,
    visitor: Callable[[], Visitor[T]] = GameBuilder,  # type: ignore[assignment]
) -> T | None:
    """The next game of ``handle`` (None at its end), like ``chess.pgn.read_game``.

    Successive calls on the same handle go on where the last one stopped (the reader
    for a handle is kept while the handle lives).  Raises only OSError.
    """
    try:
        reader = _READERS.get(handle)
    except TypeError:  # not weakly referenceable: a fresh reader each time
        reader = None
    if reader is None:
        reader = PdnReader(handle, default_variant)
        try:
            _READERS[handle] = reader
        except TypeError:
            pass
    elif default_variant is not None:
        reader.default_variant = find_variant(default_variant)
    return reader.read_game(visitor)


def iter_games(
    handle: IO[Any] | Iterable[Any], default_variant: Variant | str | None = None
) -> Iterator[GameRecord]:
    """Every game of a stream, one at a time."""
    return iter(PdnReader(handle, default_variant))


def scan_headers(
    handle: IO[Any] | Iterable[Any], default_variant: Variant | str | None = None
) -> Iterator[dict[str, str]]:
    """The tags of every game of a stream, the moves skipped unparsed (fast)."""
    reader = PdnReader(handle, default_variant)
    while True:
        headers = reader.read_game(HeadersScanner)
        if headers is None:
            return
        yield headers


def read_games_text(text: str, default_variant: Variant | str | None = None) -> list[GameRecord]:
    """Every game of a PDN text."""
    return list(PdnReader(io.StringIO(text), default_variant))


def _json_texts(data: Any) -> Iterator[str]:
    """The PDN strings of a JSON document: a list of strings, or an object whose values
    are such lists (py-draughts' fixtures), at any depth."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, list):
        for item in data:
            yield from _json_texts(item)
    elif isinstance(data, dict):
        for item in data.values():
            yield from _json_texts(item)


def read_file(
    path: str | os.PathLike[str], default_variant: Variant | str | None = None
) -> Iterator[GameRecord]:
    """Every game of a file, streamed.  A ``.json`` file is read as a JSON list of PDN
    texts (each game's ``origin`` then says which item it came from).

    Raises OSError when the file cannot be opened or read; bad content never raises.
    """
    p = os.fspath(path)
    if p.lower().endswith(".json"):
        with open(p, "rb") as fh:
            raw = fh.read()
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            broken = GameRecord()
            broken.line = 1
            broken.errors.append(BadPdnError(f"not a JSON list of PDN texts: {exc}", line=1))
            yield broken
            return
        for index, text in enumerate(_json_texts(data), 1):
            for game in PdnReader(io.StringIO(text), default_variant):
                game.origin = f"item {index}"
                yield game
        return
    with open(p, "rb") as fh:
        yield from PdnReader(fh, default_variant)


# ---------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------

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


def needs_variant_tag(variant: Variant) -> bool:
    """Whether a GameType alone would not name ``variant`` (it has none, or shares its
    number with the game PDN means by it, as ``traditional`` shares 26 with Brazilian)."""
    number = variant.gametype_number
    if number is None:
        return True
    try:
        return variant_from_headers({"GameType": str(number)}) is not variant
    except BadPdnError:
        return True


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
        words = text.replace("}", ")").replace("{", "(").split()
        if not words:
            self._word("{}")
        else:
            words[0] = "{" + words[0]
            words[-1] = words[-1] + "}"
            self._word(words[0])
            self._words.extend(words[1:])
        self._needs_number = True

    def visit_nag(self, nag: int) -> None:
        mark = _NAG_MARKS.get(nag)
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
        self._word(move_text(variant, move, game.legal_moves()))
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


def walk_record(record: GameRecord, visitor: Visitor[T]) -> T:
    """Send a game record to a visitor, in the order the reader would."""
    visitor.begin_game(record.line)
    for name, value in record.headers.items():
        visitor.visit_header(name, value)
    if visitor.end_headers() is not SKIP and record.variant is not None:
        game = record.start()
        visitor.visit_start(record.variant, record.fen, game)
        for text in record.comments:
            visitor.visit_comment(text)
        _walk_tree(record, game, visitor)
    for error in record.errors:
        visitor.visit_error(error)
    visitor.visit_result(record.result)
    visitor.end_game()
    return visitor.result()


def _walk_tree(root: GameNode, game: Game, visitor: Visitor[Any]) -> None:
    """Main move first, then the alternatives as variations, then the main line goes
    on — without recursion, so a game of any length can be written."""

    def emit(node: GameNode) -> None:
        for text in node.starting_comments:
            visitor.visit_comment(text)
        assert node.move is not None
        visitor.visit_move(game, node.move)
        for nag in node.nags:
            visitor.visit_nag(nag)
        for text in node.comments:
            visitor.visit_comment(text)

    # Actions: ("line", node) writes the continuation of ``node``; ("push", node) and
    # ("pop", None) keep ``game`` in step; ("begin"/"end", None) open and close a variation.
    stack: list[tuple[str, GameNode | None]] = [("line", root)]
    while stack:
        action, node = stack.pop()
        if action == "line":
            assert node is not None
            if not node.variations:
                continue
            main = node.variations[0]
            emit(main)
            todo: list[tuple[str, GameNode | None]] = []
            for alt in node.variations[1:]:
                todo += [
                    ("begin", None),
                    ("emit", alt),
                    ("push", alt),
                    ("line", alt),
                    ("pop", None),
                    ("end", None),
                ]
            todo += [("push", main), ("line", main), ("pop", None)]
            stack.extend(reversed(todo))
        elif action == "emit":
            assert node is not None
            emit(node)
        elif action == "push":
            assert node is not None and node.move is not None
            game.push(node.move)
        elif action == "pop":
            game.pop()
        elif action == "begin":
            visitor.begin_variation()
        else:
            visitor.end_variation()


def write_game(record: GameRecord, columns: int = 80) -> str:
    """A game as PDN text (tags, a blank line, the moves, the result, a newline)."""
    return walk_record(record, PdnWriter(columns))


def write_games(handle: IO[str], records: Iterable[GameRecord], columns: int = 80) -> int:
    """Write games to a text handle, a blank line between them; returns how many."""
    count = 0
    for record in records:
        if count:
            handle.write("\n")
        handle.write(write_game(record, columns))
        count += 1
    return count
