"""The PDN tokenizer: :func:`tokenize` turns the lines of a file into tokens (tags,
comments, moves, numbers, NAGs, parentheses, results, words), with line and column.

No token holds more than a limit of the file (:data:`COMMENT_LIMIT`,
:data:`TAG_LIMIT`); a comment never closed ends with its line, and the lines after it
are read again.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from .lines import CannotDecode, Piece
from .movetext import ALG, SQ, SQ_SHAPE, SQ_UPPER
from .tags import MARKS

#: The kinds of token.
TAG, COMMENT, MOVE, NUMBER, NAG, OPEN, CLOSE, RESULT, SEP, JUNK, BROKEN, WARN = range(12)


class Token(NamedTuple):
    """A piece of PDN text: its kind, its text and where it begins (1-based)."""

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
#: A move in shape, whether or not its squares are on a board ("z9-z8", "c3-d4-z9").
_SHAPED = rf"{SQ_SHAPE}(?:[-x\u00d7:X]\s*{SQ_SHAPE}){{1,{_MAX_REPEAT}}}"
_SHAPED_RE = re.compile(_SHAPED + r"(?![\w])")
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
  | (?P<move>{SQ}(?:[-x\u00d7:X]\s*{SQ}){{1,{_MAX_REPEAT}}}
      | (?:{ALG}){{2,{_MAX_REPEAT}}} | [a-l]{ALG})(?![\w])
  | (?P<upper>{SQ_UPPER}(?:[-x\u00d7:]\s*{SQ_UPPER}){{1,{_MAX_REPEAT}}})(?![\w])
  | (?P<glued>{SQ}(?:[-x\u00d7:X]\s*{SQ}){{1,{_MAX_REPEAT}}})(?=[^\W\d_]{{2}})
  | (?P<shaped>{_SHAPED})(?![\w])
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
COMMENT_LIMIT = 100_000
_COMMENT_CUT = f"comment longer than {COMMENT_LIMIT} characters: the rest is left out"
#: A tag value keeps at most this many characters.
TAG_LIMIT = 10_000
_TAG_CUT = f"tag value longer than {TAG_LIMIT} characters: the rest is left out"
_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z][\w-]*\s*"[^"]*"\s*\]\s*$')
_ESCAPE = re.compile(r"\\(.)")


class _Held(NamedTuple):
    """A line taken into a comment that may never be closed, kept to be read again."""

    text: str
    line: int
    offset: int


def tokenize(lines: Iterable[Piece], more: Callable[[], bool] | None = None) -> Iterator[Token]:
    """The tokens of PDN text, with 1-based line and column.

    A comment left open — no '}' before the next game's tags or the end of the text —
    ends with its own line (a warning says so), and the lines after it are read again
    as moves; past :data:`COMMENT_LIMIT` characters it is kept instead, cut.  Text that
    cannot be decoded ends the tokens with a BROKEN one.  ``more``, when given, is asked
    before each new line is read outside a comment: when it says no, the tokens end
    there (the reader of one game from a pipe stops at the line of the game's result).
    """
    match = _TOKEN_RE.match
    comment: _Comment | None = None  # a comment that spans lines
    # Lines to read again, each with whether it lies after an unclosed "{" (where no
    # "}" can come: a "{" there ends with its line at once).
    again: deque[tuple[_Held, bool]] = deque()
    source = _Lines(lines, more)
    while True:
        if again:
            (text, number, offset), inside = again.popleft()
        else:
            got = source.next(comment is not None)
            if got is None:
                if comment is None:
                    break
                yield from comment.unclosed(again)
                comment = None
                continue
            text, offset = got
            number, inside = source.lineno, False
        pos = 0
        if comment is not None:
            end = text.find("}")
            if end < 0:
                if offset == 0 and _TAG_LINE.match(text):
                    # The comment runs into the next game's tags: it ends before them.
                    yield from comment.unclosed(again)
                    comment = None
                    again.append((_Held(text, number, offset), False))
                    continue
                comment.take(_Held(text, number, offset))
                continue
            yield from comment.closed(text, end)
            comment = None
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
                if m.group("cend") is None and not inside:
                    comment = _Comment(m.group("comment"), number, col)
                    continue
                yield from _comment_tokens(m, number, col)
            elif kind in ("tvalue", "tvalue2", "tvalue3"):
                yield from _tag_tokens(m, kind, number, col)
            elif kind == "result":
                yield Token(RESULT, m.group(), number, col)
            elif kind in ("number", "ellipsis"):
                yield Token(NUMBER, m.group(), number, col)
            elif kind in ("move", "upper", "glued") and (longer := _shape_on(text, m)):
                # "c3-d4-z9": squares of no board go on where the squares of one stop
                pos = longer.end()
                yield Token(MOVE, longer.group(), number, col)
            elif kind in ("move", "glued", "shaped"):  # glued: "8-11Red overstepped…"
                yield Token(MOVE, m.group(), number, col)
            elif kind == "upper":
                yield from _upper_tokens(m.group(), number, col)
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
    if source.broken is not None:
        yield source.broken


class _Lines:
    """The lines of the text as :func:`tokenize` reads them: the number of the line
    (a piece of a long line keeps its number), whether they ended, and the BROKEN token
    of text that cannot be decoded."""

    def __init__(self, lines: Iterable[Piece], more: Callable[[], bool] | None) -> None:
        self.source = iter(lines)
        self.more = more
        self.ended = False
        self.broken: Token | None = None
        self.lineno = 0

    def next(self, in_comment: bool) -> tuple[str, int] | None:
        """The next piece of a line, or None at the end (``more`` is asked only
        outside a comment)."""
        if self.more is not None and not self.ended and not in_comment and not self.more():
            self.ended = True
        if self.ended:
            return None
        try:
            text, offset = next(self.source)
        except StopIteration:
            self.ended = True
            return None
        except CannotDecode as exc:
            self.ended = True
            self.broken = Token(BROKEN, "", self.lineno + 1, 1, str(exc))
            return None
        except UnicodeDecodeError as exc:  # a text handle opened with the wrong encoding
            self.ended = True
            message = f"the file cannot be decoded ({exc.reason}): open it in binary mode"
            self.broken = Token(BROKEN, "", self.lineno + 1, 1, message)
            return None
        if offset == 0:
            self.lineno += 1
        return text, offset


class _Comment:
    """A comment that spans lines: its parts, where it begins, its size, and the lines
    it took in (to read again if it is never closed), while few enough."""

    def __init__(self, body: str, line: int, column: int) -> None:
        self.parts = [body]
        self.held: list[_Held] | None = []
        self.line = line
        self.column = column
        self.size = len(body)
        self.held_size = 0

    def take(self, piece: _Held) -> None:
        """A line without a '}', taken into the comment."""
        text = piece.text
        if self.size < COMMENT_LIMIT:
            self.parts.append(text)
        self.size += len(text) + 1  # the line end counts: empty lines too are bounded
        if self.held is not None:
            self.held_size += len(text) + 1
            self.held.append(piece)
            if self.held_size > COMMENT_LIMIT:
                self.held = None

    def closed(self, text: str, end: int) -> Iterator[Token]:
        """The tokens of the comment closed at ``end`` of the line ``text``."""
        if self.size < COMMENT_LIMIT:
            self.parts.append(text[:end])
        self.size += end
        if self.size >= COMMENT_LIMIT:
            yield Token(WARN, "{", self.line, self.column, _COMMENT_CUT)
        yield Token(COMMENT, _clean(self.parts)[:COMMENT_LIMIT], self.line, self.column)

    def unclosed(self, again: deque[tuple[_Held, bool]]) -> Iterator[Token]:
        """The tokens of the comment never closed (see :func:`_unclosed`)."""
        return _unclosed(self.parts, self.held, self.line, self.column, self.size, again)


def _comment_tokens(m: re.Match[str], number: int, col: int) -> Iterator[Token]:
    """The tokens of a comment within its line (or, after an unclosed "{", ended by
    it)."""
    body = m.group("comment")
    if m.group("cend") is None:
        yield Token(WARN, "{", number, col, _UNCLOSED_HERE)
    if len(body) > COMMENT_LIMIT:
        yield Token(WARN, "{", number, col, _COMMENT_CUT)
        body = body[:COMMENT_LIMIT]
    yield Token(COMMENT, _clean([body]), number, col)


def _tag_tokens(m: re.Match[str], kind: str, number: int, col: int) -> Iterator[Token]:
    """The tokens of a tag pair: the tag, and the warnings on its value."""
    name = m.group("tname" + kind[6:])
    value = m.group(kind)
    if kind == "tvalue":
        value = _ESCAPE.sub(r"\1", value)
    if len(value) > TAG_LIMIT:
        yield Token(WARN, name, number, col, _TAG_CUT)
        value = value[:TAG_LIMIT]
    yield Token(TAG, name, number, col, value)
    if kind == "tvalue3":  # [Round "11.1]
        message = "tag value without its closing '\"'"
        yield Token(WARN, m.group(), number, col, message)


def _upper_tokens(word: str, number: int, col: int) -> Iterator[Token]:
    """The tokens of a move written in capitals ("C3-D4"): a warning and the move."""
    if word.lower() == word:  # numbers only: an ordinary move
        yield Token(MOVE, word, number, col)
    else:
        yield Token(WARN, word, number, col, CAPITALS)
        yield Token(MOVE, word.lower(), number, col)


_UNCLOSED_HERE = "comment is not closed with '}': it ends with its line"
#: Said once a game, at the first move written in capitals.
CAPITALS = "squares in capitals read as squares"


def _shape_on(text: str, m: re.Match[str]) -> re.Match[str] | None:
    """The longer move in shape that the move ``m`` is the start of ("c3-d4-z9", where
    the squares of a board end at "c3-d4"), or None."""
    end = m.end()
    if end >= len(text) or text[end] not in "-x\u00d7:X":
        return None
    longer = _SHAPED_RE.match(text, m.start())
    return longer if longer is not None and longer.end() > end else None


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
        yield Token(COMMENT, _clean(comment[:1])[:COMMENT_LIMIT], line, column)
        again.extend((h, True) for h in held)
        return
    yield Token(WARN, "{", line, column, "comment is not closed with '}'")
    if size >= COMMENT_LIMIT:
        yield Token(WARN, "{", line, column, _COMMENT_CUT)
    yield Token(COMMENT, _clean(comment)[:COMMENT_LIMIT], line, column)


def _clean(parts: list[str]) -> str:
    """A comment's text with its white space (line breaks included) made single spaces."""
    return " ".join(" ".join(parts).split())


def nag_value(text: str) -> int | None:
    if text.startswith("$"):
        digits = text[1:]
        return int(digits) if digits.isascii() and len(digits) < 8 else None
    return MARKS.get(text.strip("()"))
