"""PDN (Portable Draughts Notation): a streaming reader and a writer for every variant.

Reading is event-driven, like python-chess's PGN module: :class:`PdnReader` tokenises a
file line by line and sends each game to a :class:`Visitor` — :class:`GameBuilder` builds
a :class:`~shashki.records.model.GameRecord`, :class:`HeadersScanner` keeps only the tags
(and skips the moves unparsed), :class:`PdnWriter` writes the game out again.  One game is
in memory at a time, so archives of any size stream through.

What the reader accepts (the dialects of real files, see ``shared/corpora/SOURCES.md``):
bytes in UTF-8, or Latin-1/cp1251 when a line is not UTF-8; UTF-8, UTF-16 and UTF-32
with a BOM, and UTF-16 without; LF, CRLF or CR; tags
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
move matches none, or several that nothing settles, or the text looks like a move gone
wrong (``-``, ``32-``), the game records a :class:`BadPdnError` (line, column, the text,
the position's FEN); that line of play ends there — the rest of a variation is skipped,
or the rest of the game after an error in the main line — what was read before is kept,
and the next game is read normally.

Archives written by other programs are recovered from as python-chess's PGN reader
does: words where moves or a variation should be ("Red overstepped the time", HTML, a
title before the games, "(Analysis by …)" before the first move) become a comment with a
warning, and reading goes on at the next move; a stray ``)``, a variation left open and
a ``{`` never closed (it ends with its line, and the lines after it are read again) are
warnings too.  No line, tag, comment or game is held past a limit, however large the
file, and no message quotes more than some 80 characters of it.  The reader raises
nothing for bad input; only an ``OSError`` from the file itself reaches the caller.

The small functions :func:`variant_from_headers`, :func:`start_from_headers`,
:func:`match_move` and :func:`pdn_headers` are where the reader and the writer meet
a variant; a variant with needs of its own is served by extending them.
"""

from __future__ import annotations

import codecs
import io
import itertools
import json
import os
import re
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import IO, Any, Generic, NamedTuple, TypeVar

from ..rules import Game, Geometry, Move, ShashkiError, Variant, all_variants, find_variant
from ..rules.errors import AmbiguousMoveError, BadPdnError, IllegalMoveError, NotationError
from ..rules.geometry import FILES
from ..rules.notation import move_text, parse_move, parse_short_move
from ..rules.numbers import is_digits
from ..rules.userfiles import bom_encoding, decode_text, open_regular, read_limited
from ..rules.variant import gametype_number
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
        if not is_digits(head):  # ASCII digits only: "²" is a digit to str.isdigit()
            message = f"GameType {_quote(gametype)} does not start with a PDN game number"
            raise BadPdnError(message)
        number = gametype_number(head)  # never int() of a number of any length
        if number is None:
            raise BadPdnError(f"GameType {_quote(head)} is not a variant shashki plays")
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
            raise BadPdnError(f"Variant {_quote(named)} is not a variant shashki plays")
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
#: Squares in capitals ("C3-D4"), as some programs write them: read as the same squares.
_SQ_UPPER = r"(?:[A-L](?:1[0-2]|[1-9])|\d{1,3})"
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

    Reads every form :func:`~shashki.rules.notation.parse_move` reads, plus squares
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
    r"(?:(?:1/2|½)[ \t]*[-:][ \t]*(?:1/2|½)"
    r"|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|2:0|0:2|1:1|0:0)(?![\w/])"
    r"|1/2(?![\w/:-])|\*"
)
#: The most times a group repeats in one token: Python's regular expressions keep a
#: frame for every repetition of a group, so an unbounded one over a line of a
#: megabyte ("32-28-32-28-…", a tag value of escapes) takes hundreds of megabytes.
#: No move has this many squares; what follows the 64th is another token.
_MAX_REPEAT = 64
_TOKEN_RE = re.compile(
    rf"""
    (?P<ws>[\s\ufeff\u200b-\u200d\u2060]+)
  | \{{(?P<comment>[^}}]*)(?P<cend>\}})?
  | \[\s*(?P<tname>[A-Za-z][\w-]*)\s*"(?P<tvalue>[^"\\]*(?:\\.[^"\\]*){{0,{_MAX_REPEAT}}})"\s*\]
  | \[\s*(?P<tname2>[A-Za-z][\w-]*)\s+(?P<tvalue2>[^\]"\[]*?)\s*\]
  | \[\s*(?P<tname3>[A-Za-z][\w-]*)\s*"(?P<tvalue3>[^"\]]*)\]
  | (?P<result>{_RESULT_RE})
  | (?P<number>\d+(?:\s*[.…]){{1,{_MAX_REPEAT}}})
  | (?P<ellipsis>\.+|…)
  | (?P<move>{_SQ}(?:[-x\u00d7:X]\s*{_SQ}){{1,{_MAX_REPEAT}}}
      | (?:{_ALG}){{2,{_MAX_REPEAT}}} | [a-l]{_ALG})(?![\w])
  | (?P<upper>{_SQ_UPPER}(?:[-x\u00d7:]\s*{_SQ_UPPER}){{1,{_MAX_REPEAT}}})(?![\w])
  | (?P<glued>{_SQ}(?:[-x\u00d7:X]\s*{_SQ}){{1,{_MAX_REPEAT}}})(?=[^\W\d_]{{2}})
  | (?P<nag>\$\d+|[!?]+|\([!?]+\))
  | (?P<open>\()
  | (?P<close>\))
  | (?P<sep>[;,])
  | (?P<junk>[^\s(){{}}\[\];,]+|.)
    """,
    re.VERBOSE,
)
#: A comment keeps at most this many characters (an unclosed brace must not pull a
#: whole archive into memory).
_COMMENT_LIMIT = 100_000
_COMMENT_CUT = f"comment longer than {_COMMENT_LIMIT} characters: the rest is left out"
#: A tag value keeps at most this many characters.
_TAG_LIMIT = 10_000
_TAG_CUT = f"tag value longer than {_TAG_LIMIT} characters: the rest is left out"
#: A line longer than this is read in pieces, cut at a blank where there is one, so that
#: no line (a file with no line ends, a 100 MB line of junk) is ever held whole.
_LINE_LIMIT = 1 << 20
#: How much of a text an error message quotes.
_QUOTE_LIMIT = 80
_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z][\w-]*\s*"[^"]*"\s*\]\s*$')
_ESCAPE = re.compile(r"\\(.)")
_MARKS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_NAG_MARKS = {v: k for k, v in _MARKS.items()}


def _quote(text: str, limit: int = _QUOTE_LIMIT) -> str:
    """``text`` quoted as Python would (``repr``), cut to about ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit])[:-1] + "…" + repr(text)[-1]


#: A quoted text inside a message from another layer ('…' or "…").
_QUOTED = re.compile(r"'[^'\\]*(?:\\.[^'\\]*){0,64}'|\"[^\"\\]*(?:\\.[^\"\\]*){0,64}\"")


def _clip(message: str) -> str:
    """A message from another layer with every quoted text in it cut to about
    :data:`_QUOTE_LIMIT` characters, and the whole to a few lines' worth."""
    if len(message) <= _QUOTE_LIMIT:
        return message

    def cut(m: re.Match[str]) -> str:
        text = m.group()
        if len(text) <= _QUOTE_LIMIT + 2:
            return text
        return text[: _QUOTE_LIMIT + 1] + "…" + text[-1]

    message = _QUOTED.sub(cut, message)
    if len(message) > 4 * _QUOTE_LIMIT:
        message = message[: 4 * _QUOTE_LIMIT] + "…"
    return message


class _CannotDecode(Exception):
    """The bytes of a file cannot be read as text (the message says why and where)."""


class _Piece(NamedTuple):
    """A line of text, or a piece of a line too long to hold whole."""

    text: str
    #: Where the piece starts in its line (0 for a whole line or its first piece).
    offset: int


_NEWLINE = re.compile(r"\r\n?|\n")
_NEWLINE_B = re.compile(rb"\r\n?|\n")


def _cut_point(buf: str | bytes) -> int:
    """Where to cut a line longer than :data:`_LINE_LIMIT`: after its last blank in
    the second half of the limit, else at the limit (never inside a UTF-8 sequence)."""
    lo, hi = _LINE_LIMIT // 2, _LINE_LIMIT
    blank = buf.rfind(" ", lo, hi) if isinstance(buf, str) else buf.rfind(b" ", lo, hi)
    if blank >= 0:
        return blank + 1
    cut = _LINE_LIMIT
    if isinstance(buf, bytes):
        while cut > _LINE_LIMIT - 4 and 0x80 <= buf[cut] < 0xC0:
            cut -= 1
    return cut


def _split_lines(chunks: Iterable[Any], newline: re.Pattern[Any]) -> Iterator[tuple[Any, int]]:
    """The lines of a stream of text or byte chunks (``newline`` of the same type):
    LF, CRLF or a lone CR end a line.  Yields (line without its end, offset), where a
    line longer than :data:`_LINE_LIMIT` comes in pieces with their offsets."""
    buf: Any = None
    offset = 0  # where ``buf`` starts in its line
    for chunk in chunks:
        if buf is None:
            # The usual case: a chunk that is one whole line.
            m = newline.search(chunk)
            if (
                m is not None
                and m.end() == len(chunk)
                and chunk[-1:] in ("\n", b"\n")
                and m.start() <= _LINE_LIMIT
            ):
                yield chunk[: m.start()], 0
                continue
            buf = chunk
        else:
            buf += chunk
        pos = 0
        while True:
            m = newline.search(buf, pos)
            if m is None:
                break
            if m.end() == len(buf) and m.group() in ("\r", b"\r"):
                break  # a CR at the end of a chunk may be the first half of a CRLF
            line = buf[pos : m.start()]
            while len(line) > _LINE_LIMIT:
                cut = _cut_point(line)
                yield line[:cut], offset
                offset += cut
                line = line[cut:]
            yield line, offset
            offset = 0
            pos = m.end()
        buf = buf[pos:]
        while len(buf) > _LINE_LIMIT:
            cut = _cut_point(buf)
            yield buf[:cut], offset
            offset += cut
            buf = buf[cut:]
        if not buf:
            buf = None
    if buf is not None:
        if buf[-1:] in ("\r", b"\r"):
            buf = buf[:-1]
        yield buf, offset


def _chunks(handle: IO[Any] | Iterable[Any]) -> Iterator[Any]:
    """What a handle holds, a line at a time and never more than :data:`_LINE_LIMIT`
    at once: by ``readline`` where the handle has it, else item by item (each item
    then a line)."""
    readline = getattr(handle, "readline", None)
    if callable(readline):
        while True:
            piece = readline(_LINE_LIMIT)
            if not piece:
                return
            yield piece
    for item in handle:
        if isinstance(item, str):
            yield item if item.endswith(("\n", "\r")) else item + "\n"
        else:
            yield item if item.endswith((b"\n", b"\r")) else bytes(item) + b"\n"


#: How much of a file's start decides its encoding.
_HEAD = 4096


def _utf16_without_bom(head: bytes) -> str | None:
    """ "utf-16-le" or "utf-16-be" when ``head`` looks like UTF-16 text without a BOM
    (mostly ASCII: every other byte zero), else None."""
    pairs = len(head) // 2
    if pairs < 2:
        return None
    even, odd = head[0 : 2 * pairs : 2].count(0), head[1 : 2 * pairs : 2].count(0)
    if odd >= pairs * 0.6 and even == 0:
        return "utf-16-le"
    if even >= pairs * 0.6 and odd == 0:
        return "utf-16-be"
    return None


def _decoded_lines(handle: IO[Any] | Iterable[Any]) -> Iterator[_Piece]:
    """The lines of a text or binary handle, as text without line ends.

    Bytes with a BOM are read in the encoding it announces (UTF-8, UTF-16, UTF-32), and
    UTF-16 without BOM is recognised by its zero bytes; a file in them that has bytes
    the encoding cannot read raises :class:`_CannotDecode` there.  Other bytes are read
    as UTF-8, and a line that is not UTF-8 as cp1251 when it looks Cyrillic (runs of
    letters above 0xC0) or as Latin-1 otherwise, the file keeping that choice; a NUL
    byte in them raises :class:`_CannotDecode` (not a text file).  LF, CRLF and a lone
    CR end a line; a line longer than :data:`_LINE_LIMIT` comes in pieces.
    """
    chunks = _chunks(handle)
    first = next(chunks, None)
    if first is None:
        return
    if isinstance(first, str):
        rest: Iterable[Any] = itertools.chain([first.lstrip("\ufeff")], chunks)
        for text, offset in _split_lines(rest, _NEWLINE):
            yield _Piece(text, offset)
        return
    head = bytes(first)
    while len(head) < _HEAD:  # enough of the start to decide the encoding by
        more = next(chunks, None)
        if more is None:
            break
        head += more
    found = bom_encoding(head)
    if found is None and b"\0" in head:
        encoding = _utf16_without_bom(head)
        if encoding is not None:
            found = (encoding, 0)
    source = itertools.chain([head], chunks)
    if found is not None:
        for text, offset in _split_lines(_decoded_chunks(source, *found), _NEWLINE):
            yield _Piece(text, offset)
        return
    fallback = ""
    for raw, offset in _split_lines(source, _NEWLINE_B):
        if b"\0" in raw:
            raise _CannotDecode("this is not a text file (it holds NUL bytes)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if not fallback:
                fallback = "cp1251" if re.search(rb"[\xc0-\xff]{3}", raw) else "latin-1"
            text = raw.decode(fallback, errors="replace")
        yield _Piece(text, offset)


def _decoded_chunks(chunks: Iterable[bytes], encoding: str, skip: int) -> Iterator[str]:
    """Text from byte chunks in ``encoding``, the first ``skip`` bytes (a BOM) left
    out; raises :class:`_CannotDecode` at bytes the encoding cannot read."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    read = 0  # bytes given to the decoder so far
    final = False
    it = iter(chunks)
    while not final:
        chunk = next(it, None)
        final = chunk is None
        data = b"" if chunk is None else chunk
        if skip:
            data, skip, read = data[skip:], 0, skip
        pending = len(decoder.getstate()[0])
        try:
            text = decoder.decode(data, final)
        except UnicodeDecodeError as exc:
            label = encoding.upper().replace("-LE", "").replace("-BE", "")
            raise _CannotDecode(
                f"the file is not valid {label} text (byte {read - pending + exc.start}: "
                f"{exc.reason})"
            ) from None
        read += len(data)
        if text:
            yield text


class _Held(NamedTuple):
    """A line taken into a comment that may never be closed, kept to be read again."""

    text: str
    line: int
    offset: int


def _tokens(lines: Iterable[_Piece]) -> Iterator[Token]:
    """The tokens of PDN text, with 1-based line and column.

    A comment left open — no '}' before the next game's tags or the end of the text —
    ends with its own line (a warning says so), and the lines after it are read again
    as moves; past :data:`_COMMENT_LIMIT` characters it is kept instead, cut.  Text that
    cannot be decoded ends the tokens with a BROKEN one.
    """
    match = _TOKEN_RE.match
    comment: list[str] | None = None  # the parts of a comment that spans lines
    held: list[_Held] | None = None  # the lines that comment took in, while few enough
    c_line = c_col = c_size = held_size = 0
    lineno = 0
    # Lines to read again, each with whether it lies after an unclosed "{" (where no
    # "}" can come: a "{" there ends with its line at once).
    again: deque[tuple[_Held, bool]] = deque()
    source = iter(lines)
    ended = False
    broken: Token | None = None
    while True:
        if again:
            (text, number, offset), inside = again.popleft()
        else:
            if not ended:
                try:
                    text, offset = next(source)
                except StopIteration:
                    ended = True
                except _CannotDecode as exc:
                    ended = True
                    broken = Token(BROKEN, "", lineno + 1, 1, str(exc))
                except UnicodeDecodeError as exc:  # a text handle opened with the wrong encoding
                    ended = True
                    message = f"the file cannot be decoded ({exc.reason}): open it in binary mode"
                    broken = Token(BROKEN, "", lineno + 1, 1, message)
            if ended:
                if comment is None:
                    break
                yield from _unclosed(comment, held, c_line, c_col, c_size, again)
                comment = held = None
                continue
            if offset == 0:
                lineno += 1
            number, inside = lineno, False
        pos = 0
        if comment is not None:
            end = text.find("}")
            if end < 0:
                if offset == 0 and _TAG_LINE.match(text):
                    # The comment runs into the next game's tags: it ends before them.
                    yield from _unclosed(comment, held, c_line, c_col, c_size, again)
                    comment = held = None
                    again.append((_Held(text, number, offset), False))
                    continue
                if c_size < _COMMENT_LIMIT:
                    comment.append(text)
                c_size += len(text) + 1  # the line end counts: empty lines too are bounded
                if held is not None:
                    held_size += len(text) + 1
                    held.append(_Held(text, number, offset))
                    if held_size > _COMMENT_LIMIT:
                        held = None
                continue
            if c_size < _COMMENT_LIMIT:
                comment.append(text[:end])
            c_size += end
            if c_size >= _COMMENT_LIMIT:
                yield Token(WARN, "{", c_line, c_col, _COMMENT_CUT)
            yield Token(COMMENT, _clean(comment)[:_COMMENT_LIMIT], c_line, c_col)
            comment = held = None
            pos = end + 1
        elif offset == 0 and text.startswith("%"):
            continue  # PDN escape line
        n = len(text)
        while pos < n:
            m = match(text, pos)
            if m is None:  # pragma: no cover - the junk branch matches any character
                break
            kind = m.lastgroup
            col = offset + pos + 1
            pos = m.end()
            if kind == "ws":
                continue
            if kind in ("comment", "cend"):
                body = m.group("comment")
                if m.group("cend") is None and not inside:
                    comment, held = [body], []
                    c_line, c_col, c_size, held_size = number, col, len(body), 0
                    continue
                if m.group("cend") is None:
                    yield Token(WARN, "{", number, col, _UNCLOSED_HERE)
                if len(body) > _COMMENT_LIMIT:
                    yield Token(WARN, "{", number, col, _COMMENT_CUT)
                    body = body[:_COMMENT_LIMIT]
                yield Token(COMMENT, _clean([body]), number, col)
            elif kind in ("tvalue", "tvalue2", "tvalue3"):
                name = m.group("tname" + kind[6:])
                value = m.group(kind)
                if kind == "tvalue":
                    value = _ESCAPE.sub(r"\1", value)
                if len(value) > _TAG_LIMIT:
                    yield Token(WARN, name, number, col, _TAG_CUT)
                    value = value[:_TAG_LIMIT]
                yield Token(TAG, name, number, col, value)
                if kind == "tvalue3":  # [Round "11.1]
                    message = "tag value without its closing '\"'"
                    yield Token(WARN, m.group(), number, col, message)
            elif kind == "result":
                yield Token(RESULT, m.group(), number, col)
            elif kind in ("number", "ellipsis"):
                yield Token(NUMBER, m.group(), number, col)
            elif kind in ("move", "glued"):  # glued: "8-11Red overstepped…"
                yield Token(MOVE, m.group(), number, col)
            elif kind == "upper":
                word = m.group()
                if word.lower() == word:  # numbers only: an ordinary move
                    yield Token(MOVE, word, number, col)
                else:
                    yield Token(WARN, word, number, col, _CAPITALS)
                    yield Token(MOVE, word.lower(), number, col)
            elif kind == "nag":
                yield Token(NAG, m.group(), number, col)
            elif kind == "open":
                yield Token(OPEN, "(", number, col)
            elif kind == "close":
                yield Token(CLOSE, ")", number, col)
            elif kind == "sep":
                yield Token(SEP, m.group(), number, col)
            else:
                yield Token(JUNK, m.group(), number, col)
    if broken is not None:
        yield broken


_UNCLOSED_HERE = "comment is not closed with '}': it ends with its line"
#: Said once a game, at the first move written in capitals.
_CAPITALS = "squares in capitals read as squares"


def _unclosed(
    comment: list[str],
    held: list[_Held] | None,
    line: int,
    column: int,
    size: int,
    again: deque[tuple[_Held, bool]],
) -> Iterator[Token]:
    """The tokens of a comment never closed: its first line, the lines after it to be
    read again (put in ``again``); or, when it took in too much to read again, the
    whole comment, cut."""
    if held is not None:
        yield Token(WARN, "{", line, column, _UNCLOSED_HERE)
        yield Token(COMMENT, _clean(comment[:1])[:_COMMENT_LIMIT], line, column)
        again.extend((h, True) for h in held)
        return
    yield Token(WARN, "{", line, column, "comment is not closed with '}'")
    if size >= _COMMENT_LIMIT:
        yield Token(WARN, "{", line, column, _COMMENT_CUT)
    yield Token(COMMENT, _clean(comment)[:_COMMENT_LIMIT], line, column)


def _clean(parts: list[str]) -> str:
    """A comment's text with its white space (line breaks included) made single spaces."""
    return " ".join(" ".join(parts).split())


def _nag_value(text: str) -> int | None:
    if text.startswith("$"):
        digits = text[1:]
        return int(digits) if digits.isascii() and len(digits) < 8 else None
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

    __slots__ = ("at", "dead", "live", "popped", "pushed", "skipped")

    def __init__(self, popped: Move | None, live: bool, at: tuple[int, int] = (1, 1)) -> None:
        self.at = at  # where its "(" stands
        self.popped = popped  # the move the variation replaces (pushed back at ")")
        self.pushed = 0  # moves of this line on the game's stack
        self.dead = not live  # an error ended this line: skip to its end
        self.live = live  # begin_variation was sent
        self.skipped = 0  # variations open inside this line while it is dead


_NOTHING: Any = object()

#: A word that looks like a move that went wrong ("-", "32-", "x", "c3"): squares and
#: separators only.  Standing alone where a move should be, it is an error; among
#: words, it is part of the text.
_MOVE_LIKE = re.compile(r"(?:[a-l]?\d+|[-x\u00d7:X])+")
_MOVE_CHARS = re.compile(r"[-x\u00d7:Xa-l\d]+")
#: How many following moves may settle an ambiguous move, and how many positions
#: that look-ahead may visit.
_LOOKAHEAD = 12
_LOOKAHEAD_NODES = 400
#: How many tokens the look-ahead may hold (long variations in between).
_LOOKAHEAD_TOKENS = 2000
#: What one game may hold: moves, comments, marks, variations, tags and problems
#: together, and characters of tags and comments.  Past either, the rest of the game is
#: left out with an error, so one game of a hostile file cannot fill the memory.
_GAME_ITEMS = 100_000
_GAME_CHARS = 2_000_000
#: A move text longer than this is no move (the longest capture written square by
#: square on the largest board is far shorter).
_MOVE_TEXT_LIMIT = 400


def _move_like(text: str) -> bool:
    if len(text) > _MOVE_TEXT_LIMIT:  # no group repeated a million times (see _MAX_REPEAT)
        return _MOVE_CHARS.fullmatch(text) is not None
    return _MOVE_LIKE.fullmatch(text) is not None


def _join(words: list[Token]) -> str:
    """The text of consecutive tokens, a blank between two only where the file had
    one (or a line end)."""
    parts: list[str] = []
    last: Token | None = None
    for tok in words:
        if last is not None and not (
            tok.line == last.line and tok.column == last.column + len(last.text)
        ):
            parts.append(" ")
        parts.append(tok.text)
        last = tok
    return "".join(parts)


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
        # What the current game holds so far (see :data:`_GAME_ITEMS`).
        self._items = 0
        self._chars = 0
        self._full = False
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

    def _bad(
        self, message: str, line: int, column: int, token: str = "", fen: str = ""
    ) -> BadPdnError:
        """A problem at a place of the file; the texts it quotes are cut short, so no
        message echoes a file's megabytes."""
        if len(token) > _QUOTE_LIMIT:
            token = token[:_QUOTE_LIMIT] + "…"
        return BadPdnError(_clip(message), line=line, column=column, token=token, fen=fen)

    def _room(self, visitor: Visitor[Any], at: Token, chars: int = 0) -> bool:
        """Whether the game has room for one more thing (and ``chars`` characters of
        text); the first time it has not, the game gets an error that says so."""
        if self._full:
            return False
        self._items += 1
        self._chars += chars
        if self._items <= _GAME_ITEMS and self._chars <= _GAME_CHARS:
            return True
        self._full = True
        message = (
            f"the game is too large (more than {_GAME_ITEMS:,} moves, comments and marks, "
            f"or {_GAME_CHARS:,} characters of tags and comments): the rest is left out"
        )
        visitor.visit_error(self._bad(message, at.line, at.column))
        return False

    def _warn(self, visitor: Visitor[Any], message: str, at: Token, token: str = "") -> None:
        if self._room(visitor, at):
            visitor.visit_warning(self._bad(message, at.line, at.column, token))

    def _error(
        self, visitor: Visitor[Any], message: str, at: Token, token: str = "", fen: str = ""
    ) -> None:
        if self._room(visitor, at):
            visitor.visit_error(self._bad(message, at.line, at.column, token, fen))

    def _aside(self, visitor: Visitor[Any], words: list[Token], what: str) -> None:
        """Words that are not PDN (prose, HTML, a title) as one comment, with a warning
        that says so."""
        text = _join(words)
        first = words[0]
        if self._room(visitor, first, len(text)):
            visitor.visit_comment(text)
            self._warn(visitor, f"{what} read as a comment: {_quote(text)}", first, text)

    def _read_one(self, make: Callable[[], Visitor[T]]) -> T | Any:
        visitor = make()
        self._view = _same_text
        self._items = self._chars = 0
        self._capitals = False
        self._full = False
        started = False
        content = False
        seen: set[str] = set()
        headers: dict[str, str] = {}
        tag_at: dict[str, tuple[int, int]] = {}
        last = (1, 1)  # where the last token read began
        # Words before the game's tags or moves (a title, HTML around the games): the
        # game's first comment, if a game follows.
        preamble: list[Token] = []
        size = 0
        numbered = False
        tok = self._next()
        while tok is not None:
            kind = tok.kind
            last = (tok.line, tok.column)
            if (kind == JUNK and not content and (preamble or not numbered)) or (
                kind == SEP and preamble
            ):
                if size < _COMMENT_LIMIT:
                    preamble.append(tok)
                    size += len(tok.text) + 1
            elif kind in (TAG, COMMENT, WARN):
                if kind == TAG and tok.text.lower() in seen:
                    break  # the same tag again: the next game's tags
                if not started:
                    visitor.begin_game(tok.line)
                    started = True
                if preamble:
                    self._aside(visitor, preamble, "text before the game")
                    preamble, size = [], 0
                if kind == TAG:
                    content = True
                    if self._room(visitor, tok, len(tok.text) + len(tok.value)):
                        low = tok.text.lower()
                        seen.add(low)
                        tag_at[low] = (tok.line, tok.column)
                        headers[tok.text] = tok.value
                        visitor.visit_header(tok.text, tok.value)
                elif kind == COMMENT:
                    if self._room(visitor, tok, len(tok.text)):
                        visitor.visit_comment(tok.text)
                else:
                    self._warn(visitor, tok.value, tok, tok.text)
            elif not started and kind in (RESULT, NUMBER, SEP, CLOSE, NAG):
                if kind == RESULT and preamble:
                    break  # a game of words only: "Game abandoned *"
                # otherwise debris between games; a word right after a move number
                # begins the moves of a game without tags ("1. -- 19-23 *")
                numbered = numbered or kind == NUMBER
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
            if preamble:
                self._aside(visitor, preamble, "text before the game")
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
                token = Token(JUNK, "", *where)
                self._error(visitor, exc.message, token, exc.token)
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
        and words was read.

        Recovers as python-chess's PGN reader does: words where a move or a variation
        should be (prose, HTML, "White resigns") become a comment with a warning and
        reading goes on at the next move; a stray ')' and a variation left open are
        warnings.  A move that cannot be played, or a word that looks like a move gone
        wrong ("-", "32-"), is an error that ends its line of play.
        """
        frames = [_Frame(None, live=game is not None and not skip)]
        content = False
        quiet = skip or game is None  # no errors about moves that cannot be read anyway
        prose: list[Token] = []  # words outside braces, read as one comment
        size = 0

        while True:
            tok = self._next()
            if tok is None:
                break
            kind = tok.kind
            if (
                kind == JUNK and (prose or not _move_like(tok.text) or self._words_follow(tok))
            ) or (kind == SEP and prose):
                if size < _COMMENT_LIMIT:
                    prose.append(tok)
                    size += len(tok.text) + 1
                continue
            if prose:
                if not frames[-1].dead:
                    self._aside(visitor, prose, "text outside braces")
                prose, size = [], 0
            if self._full and not frames[0].dead:
                for f in frames:
                    f.dead = True
            frame = frames[-1]
            if kind == TAG:
                self._back.append(tok)
                break
            if kind == RESULT:
                content = True
                self._close_all(visitor, game, frames, quiet)
                result = normalize_result(tok.text)
                if result is not None and not skip:
                    visitor.visit_result(result)
                self._after_result(visitor, tok, frames[0].dead)
                return True
            if kind == MOVE:
                content = True
                if frame.dead:
                    continue
                assert game is not None
                if not self._room(visitor, tok):
                    continue
                try:
                    if len(tok.text) > _MOVE_TEXT_LIMIT:
                        raise NotationError(f"{_quote(tok.text)} is not a move (too long)")
                    move = self._match(visitor, game, tok)
                except ShashkiError as exc:
                    frame.dead = True
                    fen = game.fen()
                    # the move errors quote the position already (without the counters)
                    message = (
                        str(exc) if fen.split(":H")[0] in str(exc) else f"{exc} (position {fen})"
                    )
                    if self._view is not _same_text:
                        message += (
                            f"; the record's {_quote(tok.text)} read from the first mover's side"
                        )
                    self._fault(visitor, frames, message, tok, tok.text, fen)
                    continue
                visitor.visit_move(game, move)
                game.push_unchecked(move)
                frame.pushed += 1
            elif kind == COMMENT:
                if not frame.dead and self._room(visitor, tok, len(tok.text)):
                    visitor.visit_comment(tok.text)
            elif kind == NAG:
                value = _nag_value(tok.text)
                if not frame.dead and value is not None and self._room(visitor, tok):
                    visitor.visit_nag(value)
            elif kind == OPEN:
                if frame.dead:
                    frame.skipped += 1
                elif frame.pushed == 0:
                    content = self._parenthesis(visitor, tok) or content
                elif self._room(visitor, tok):
                    assert game is not None
                    popped = game.pop()
                    frame.pushed -= 1
                    frames.append(_Frame(popped, live=True, at=(tok.line, tok.column)))
                    visitor.begin_variation()
            elif kind == CLOSE:
                if frame.skipped:
                    frame.skipped -= 1
                elif len(frames) > 1:
                    self._close(visitor, game, frames)
                elif not quiet and not frame.dead:
                    self._warn(visitor, "')' closes no variation: left out", tok, ")")
            elif kind == JUNK:  # not content: a game is tags, moves or a result
                if not frame.dead and self._numbered(tok, len(frames)):
                    continue  # "12)": a move number as some programs write it
                if not frame.dead:
                    frame.dead = True
                    self._fault(
                        visitor,
                        frames,
                        f"{_quote(tok.text)} is not a move",
                        tok,
                        tok.text,
                        game.fen() if game is not None else "",
                    )
            elif kind == WARN:
                if tok.value == _CAPITALS:
                    if self._capitals or frame.dead:
                        continue
                    self._capitals = True
                self._warn(visitor, tok.value, tok, tok.text)
            elif kind == BROKEN:
                content = True
                self._error(visitor, tok.value, tok, tok.text)
            # NUMBER and SEP carry nothing the moves do not say.
        if prose and not frames[-1].dead:
            self._aside(visitor, prose, "text outside braces")
        self._close_all(visitor, game, frames, quiet)
        return content

    def _fault(
        self,
        visitor: Visitor[Any],
        frames: list[_Frame],
        message: str,
        at: Token,
        token: str,
        fen: str,
    ) -> None:
        """A move that cannot be read or played: an error on the main line; in a
        variation (an annotator's side line) a warning, for the game itself still
        replays: the rest of that variation is left out, as python-chess does."""
        if len(frames) > 1:
            self._warn(visitor, f"in a variation: {message}; the rest of it is left out", at, token)
        else:
            self._error(visitor, message, at, token, fen)

    def _numbered(self, tok: Token, depth: int) -> bool:
        """Whether ``tok`` is a move number written "12)" (the ')' right after it, and no
        variation open for it to close); the ')' is then taken too."""
        if depth > 1 or not tok.text.isdigit() or len(tok.text) > 4:
            return False
        following = self._next()
        if following is None:
            return False
        if (
            following.kind == CLOSE
            and following.line == tok.line
            and following.column == tok.column + len(tok.text)
        ):
            return True
        self._back.append(following)
        return False

    def _words_follow(self, tok: Token) -> bool:
        """Whether a word (not one that looks like a move) follows ``tok`` on its line:
        then ``tok`` is the start of a sentence ("40 moves played"), not a move."""
        following = self._next()
        if following is None:
            return False
        self._back.append(following)
        return (
            following.kind == JUNK and following.line == tok.line and not _move_like(following.text)
        )

    def _parenthesis(
        self,
        visitor: Visitor[Any],
        opening: Token,
        what: str = "a variation must follow a move",
        emit: bool = True,
    ) -> bool:
        """A '(' where no variation can start (no move before it, or after the result),
        read to its ')' as a comment with a warning that says ``what`` (when ``emit``);
        the end of the game ends it too.  Returns whether a move text stood in it (the
        game is then a game, whichever visitor reads it)."""
        words: list[str] = []
        size = depth = 0
        closed = moved = False
        while True:
            tok = self._next()
            if tok is None:
                break
            if tok.kind in (TAG, RESULT, BROKEN):
                self._back.append(tok)
                break
            if tok.kind == CLOSE:
                if depth == 0:
                    closed = True
                    break
                depth -= 1
            elif tok.kind == OPEN:
                depth += 1
            elif tok.kind == WARN:
                if emit:
                    self._warn(visitor, tok.value, tok, tok.text)
                continue
            moved = moved or tok.kind == MOVE
            if size < _COMMENT_LIMIT:
                text = "{" + tok.text + "}" if tok.kind == COMMENT else tok.text
                words.append(text)
                size += len(text) + 1
        if not emit:
            return moved
        text = " ".join(words)
        if not closed:
            what += ", and this one is not closed with ')'"
        if text and self._room(visitor, opening, len(text)):
            visitor.visit_comment(text)
        self._warn(visitor, f"{what}: ({_quote(text)}) read as a comment", opening, "(")
        return moved

    def _after_result(self, visitor: Visitor[Any], result: Token, dead: bool) -> None:
        """Words and comments after the result on its line ("1-0 White resigns") belong
        to the game that ends there."""
        words: list[Token] = []
        size = 0
        while True:
            tok = self._next()
            if tok is None:
                break
            if tok.line != result.line or tok.kind not in (JUNK, COMMENT, SEP, OPEN):
                self._back.append(tok)
                break
            if tok.kind == OPEN:  # "1-0 (time)"
                self._parenthesis(visitor, tok, "text after the result", emit=not dead)
            elif tok.kind == COMMENT:
                if not dead and self._room(visitor, tok, len(tok.text)):
                    visitor.visit_comment(tok.text)
            elif size < _COMMENT_LIMIT:
                words.append(tok)
                size += len(tok.text) + 1
        if words and not dead:
            self._aside(visitor, words, "text after the result")

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
                elif kind == JUNK and _move_like(tok.text):
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
        self, visitor: Visitor[Any], game: Game | None, frames: list[_Frame], quiet: bool
    ) -> None:
        """Close the variations still open at the end of the game (a warning says so)."""
        if len(frames) > 1 and not quiet:
            where = frames[-1].at
            message = "a variation is not closed with ')': it ends with the game"
            self._warn(visitor, message, Token(OPEN, "(", *where), "(")
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


#: The largest JSON file read (it is read whole).
JSON_LIMIT = 32 << 20

_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON_SCALAR = re.compile(
    r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|-?Infinity"
)


def _json_string_starts(text: str) -> list[int]:
    """Where the string values of a JSON document (not the keys of its objects) begin,
    in order, at any depth: the document is read with a stack, not recursion, so that no
    nesting is too deep, and its strings are not kept (:func:`_json_string` reads one).

    Raises ValueError with the line and column where the text stops being JSON.
    """
    out: list[int] = []
    closers: list[str] = []  # "]" or "}" for each open array or object
    pos = _JSON_SPACE.match(text, 0).end()  # type: ignore[union-attr]
    state = "value"
    n = len(text)

    def fail(what: str, at: int) -> ValueError:
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        return ValueError(f"{what} at line {line}, column {column}")

    while True:
        if state == "value":
            c = text[pos : pos + 1]
            if c in ("[", "{"):
                closers.append("]" if c == "[" else "}")
                pos = _JSON_SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                if text[pos : pos + 1] == closers[-1]:
                    closers.pop()
                    pos += 1
                    state = "after"
                else:
                    state = "key" if c == "{" else "value"
                continue
            if c == '"':
                out.append(pos)
                try:
                    _value, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
                except json.JSONDecodeError as exc:
                    raise fail(exc.msg, exc.pos) from None
            else:
                m = _JSON_SCALAR.match(text, pos)
                if m is None:
                    raise fail("expecting a value", pos)
                pos = m.end()
            state = "after"
        elif state == "key":
            if text[pos : pos + 1] != '"':
                raise fail("expecting a name in double quotes", pos)
            try:
                _key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
            except json.JSONDecodeError as exc:
                raise fail(exc.msg, exc.pos) from None
            pos = _JSON_SPACE.match(text, pos).end()  # type: ignore[union-attr]
            if text[pos : pos + 1] != ":":
                raise fail("expecting ':'", pos)
            pos = _JSON_SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            state = "value"
        else:  # after a value
            pos = _JSON_SPACE.match(text, pos).end()  # type: ignore[union-attr]
            if not closers:
                if pos != n:
                    raise fail("extra data", pos)
                return out
            c = text[pos : pos + 1]
            if c == ",":
                pos = _JSON_SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
                state = "key" if closers[-1] == "}" else "value"
            elif c == closers[-1]:
                closers.pop()
                pos += 1
            else:
                raise fail(f"expecting ',' or '{closers[-1]}'", pos)


def _json_string(text: str, start: int) -> str:
    """The JSON string that begins at ``start`` (its opening quote)."""
    value: str = json.decoder.scanstring(text, start + 1)[0]  # type: ignore[attr-defined]
    return value


def _json_strings(text: str) -> list[str]:
    """The string values of a JSON document, in order, at any depth."""
    return [_json_string(text, start) for start in _json_string_starts(text)]


def _json_games(path: str, default_variant: Variant | str | None) -> Iterator[GameRecord]:
    """The games of a JSON file: a list of PDN texts, or an object whose values are
    such lists (py-draughts' fixtures), at any depth."""
    try:
        text = decode_text(read_limited(path, JSON_LIMIT), "the file")
        starts = _json_string_starts(text)
    except ValueError as exc:
        broken = GameRecord()
        broken.line = 1
        message = _clip(f"not a JSON list of PDN texts: {exc}")
        broken.errors.append(BadPdnError(message, line=1, column=1))
        yield broken
        return
    for index, start in enumerate(starts, 1):
        for game in PdnReader(io.StringIO(_json_string(text, start)), default_variant):
            game.origin = f"item {index}"
            yield game


def read_file(
    path: str | os.PathLike[str], default_variant: Variant | str | None = None
) -> Iterator[GameRecord]:
    """Every game of a file, streamed.  A ``.json`` file is read as a JSON list of PDN
    texts (each game's ``origin`` then says which item it came from).

    Only a regular file is read: a folder, a FIFO or a device raises UserFileError (an
    OSError) at once, without blocking; a JSON file larger than :data:`JSON_LIMIT`
    too.  Raises OSError when the file cannot be opened or read; bad content never
    raises.
    """
    p = os.fspath(path)
    if p.lower().endswith(".json"):
        yield from _json_games(p, default_variant)
        return
    with open_regular(p) as fh:
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
