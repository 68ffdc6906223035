"""The PDN (Portable Draughts Notation) reader, for every variant: :class:`PdnReader`,
and the functions that read streams and files with it (:func:`read_games`,
:func:`read_file`, :func:`scan_headers`, …).

Reading is event-driven, like python-chess's PGN module: :class:`PdnReader` tokenises a
file line by line (:mod:`~shashki.records.tokens`) and sends each game to a
:class:`~shashki.records.visitor.Visitor` — :class:`GameBuilder` builds a
:class:`~shashki.records.model.GameRecord`, :class:`HeadersScanner` keeps only the tags
(and skips the moves unparsed), :class:`~shashki.records.writer.PdnWriter` writes the
game out again.  One game is in memory at a time, so archives of any size stream through.

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
given.  The reader's moves never decide the variant; a caller that does not know the
variant of a file's untagged games can guess it from their moves first
(:func:`~shashki.records.guess.guess_variant`, as ``shashki check`` and the replay do).

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
warning, and reading goes on at the next move (a token of squares and separators is a
move, not a word, even when the board has no such squares: ``z9-z8`` is an error); a
stray ``)``, a variation left open and a ``{`` never closed (it ends with its line, and
the lines after it are read again) are warnings too.  No line, tag, comment or game is
held past a limit, however large the file, and no message quotes more than some 80
characters of it.  The reader raises nothing for bad input; only an ``OSError`` from the
file itself reaches the caller.

The small functions :func:`~shashki.records.gametypes.variant_from_headers`,
:func:`~shashki.records.gametypes.start_from_headers`,
:func:`~shashki.records.movetext.match_move` and
:func:`~shashki.records.writer.pdn_headers` are where the reader and the writer meet a
variant; a variant with needs of its own is served by extending them.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar

from ..base.logs import package_logger
from ..base.userfiles import open_regular
from ..i18n import N_, _, ngettext
from ..rules import Game, Move, ShashkiError, Variant, find_variant
from ..rules.errors import AmbiguousMoveError, BadPdnError, IllegalMoveError, NotationError
from .clocks import clock_problem, control_problem
from .fixtures import json_pdn_texts
from .gametypes import start_from_headers, variant_from_headers
from .lines import HandleLines, decoded_lines
from .model import GameNode, GameRecord
from .movetext import ANY_SQUARE, match_move, matching_moves
from .quoting import QUOTE_LIMIT, clip, quote
from .tags import header_value, normalize_result
from .tokens import (
    BROKEN,
    CAPITALS,
    CLOSE,
    COMMENT,
    COMMENT_LIMIT,
    JUNK,
    MOVE,
    NAG,
    NUMBER,
    OPEN,
    RESULT,
    SEP,
    TAG,
    WARN,
    Token,
    nag_value,
    tokenize,
)
from .viewpoint import record_board, same_text, square_view, view_note
from .visitor import SKIP, SkipType, Visitor

logger = package_logger(__name__)

T = TypeVar("T")

#: How many tokens a capture written jump by jump may take.
_JOIN_TOKENS = 24

# ---------------------------------------------------------------------------------
# The reader's visitors
# ---------------------------------------------------------------------------------


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

    def end_headers(self) -> SkipType:
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
#: How many moves of the main line, and positions, a game whose GameType numbers the
#: squares otherwise than its variant is tried in both numberings (see ``_numbering``).
_NUMBERING_LOOKAHEAD = 300
_NUMBERING_NODES = 3000
#: What one game may hold: moves, comments, marks, variations, tags and problems
#: together, and characters of tags and comments.  Past either, the rest of the game is
#: left out with an error, so one game of a hostile file cannot fill the memory.
_GAME_ITEMS = 100_000
_GAME_CHARS = 2_000_000
#: A move text longer than this is no move (the longest capture written square by
#: square on the largest board is far shorter).
_MOVE_TEXT_LIMIT = 400


def _move_like(text: str) -> bool:
    if len(text) > _MOVE_TEXT_LIMIT:  # no group repeated a million times (see tokens._MAX_REPEAT)
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
        self._tokens = tokenize(decoded_lines(handle))
        self._back: list[Token] = []
        self._eof = False
        #: How the current game's move texts are read (see :func:`square_view`).
        self._view: Callable[[str], str] = same_text
        self._view_note = ""  # how it reads them, for an error message
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
        if len(token) > QUOTE_LIMIT:
            token = token[:QUOTE_LIMIT] + "…"
        return BadPdnError(clip(message), line=line, column=column, token=token, fen=fen)

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
        message = _(
            "the game is too large (more than {items} moves, comments and marks, "
            "or {chars} characters of tags and comments): the rest is left out"
        ).format(items=f"{_GAME_ITEMS:,}", chars=f"{_GAME_CHARS:,}")
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

    def _check_clock(self, visitor: Visitor[Any], comment: Token) -> None:
        """A warning for a ``[%clk]`` mark out of range in ``comment`` (it is ignored)."""
        if "%clk" in comment.text and (problem := clock_problem(comment.text)) is not None:
            self._warn(visitor, problem, comment, comment.text)

    def _aside(self, visitor: Visitor[Any], words: list[Token], what: str) -> None:
        """Words that are not PDN (prose, HTML, a title) as one comment, with a warning
        that says so."""
        text = _join(words)
        first = words[0]
        if self._room(visitor, first, len(text)):
            visitor.visit_comment(text)
            said = _("{what} read as a comment: {text}").format(what=_(what), text=quote(text))
            self._warn(visitor, said, first, text)

    def _read_one(self, make: Callable[[], Visitor[T]]) -> T | Any:
        """One game for a fresh visitor (:meth:`_read_tags`, :meth:`_start`,
        :meth:`_movetext`), or :data:`_NOTHING` where the stream held no game."""
        visitor = make()
        self._view = same_text
        self._items = self._chars = 0
        self._capitals = False
        self._full = False
        tags = self._read_tags(visitor)
        if tags is None:
            return _NOTHING
        content, headers, tag_at, last = tags
        skip = visitor.end_headers() is SKIP
        game = None if skip else self._start(visitor, headers, tag_at, last)
        content = self._movetext(visitor, game, skip) or content
        if not content:
            return _NOTHING
        self._end_of_game(visitor)
        visitor.end_game()
        return visitor.result()

    def _read_tags(
        self, visitor: Visitor[Any]
    ) -> tuple[bool, dict[str, str], dict[str, tuple[int, int]], tuple[int, int]] | None:
        """The game's tags (and the comments, warnings and words before its moves), up
        to its first other token, which is put back: whether a tag was read, the
        headers, where each tag stands (by its name in lower case), where the last
        token read began.  None at the end of the stream with no tag read."""
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
                if size < COMMENT_LIMIT:
                    preamble.append(tok)
                    size += len(tok.text) + 1
            elif kind in (TAG, COMMENT, WARN):
                if kind == TAG and tok.text.lower() in seen:
                    break  # the same tag again: the next game's tags
                if not started:
                    visitor.begin_game(tok.line)
                    started = True
                if preamble:
                    self._aside(visitor, preamble, N_("text before the game"))
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
                return None
        else:
            self._back.append(tok)
            if not started:
                visitor.begin_game(tok.line)
            if preamble:
                self._aside(visitor, preamble, N_("text before the game"))
        return content, headers, tag_at, last

    def _start(
        self,
        visitor: Visitor[Any],
        headers: dict[str, str],
        tag_at: dict[str, tuple[int, int]],
        last: tuple[int, int],
    ) -> Game | None:
        """The game's start by its tags, sent to the visitor (None, with an error at the
        tag at fault, where the tags name no variant or no position of one); the view of
        its move texts set, and a warning for a time control out of range."""
        game: Game | None = None
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
            self._view_note = view_note(variant, headers)
            if record_board(variant, headers) is not None:
                place = tag_at.get("gametype", last)
                fen, game = self._numbering(visitor, variant, headers, fen, game, place)
            visitor.visit_start(variant, fen, game)
            control = header_value(headers, "TimeControl")
            if control and (problem := control_problem(control)) is not None:
                at = Token(TAG, "TimeControl", *tag_at.get("timecontrol", last))
                self._warn(visitor, problem, at, "TimeControl")
        return game

    def _numbering(
        self,
        visitor: Visitor[Any],
        variant: Variant,
        headers: dict[str, str],
        fen: str | None,
        game: Game,
        at: tuple[int, int],
    ) -> tuple[str | None, Game]:
        """The start of a game whose GameType numbers the squares otherwise than the
        variant does (``20,W,10,10,N1,0``): as written, unless the main line replays in
        the variant's own numbering and not in the written one (sites write such
        GameTypes over moves in the standard numbering; docs/rules/conventions.md#gametype).
        Then the variant's numbering is used, with a warning, and the view set to it."""
        written_view = self._view
        self._view = same_text
        try:
            texts = self._peek_line(_NUMBERING_LOOKAHEAD)
        finally:
            self._view = written_view
        if not texts:
            return fen, game
        own = {
            name: variant.gametype if name.lower() == "gametype" else value
            for name, value in headers.items()
        }
        try:
            own_fen, own_game = start_from_headers(variant, own)
        except BadPdnError:
            return fen, game
        own_view = square_view(variant, own)
        written = _reach(game, [written_view(t) for t in texts], 0, [_NUMBERING_NODES])
        if written == len(texts):
            return fen, game
        if _reach(own_game, [own_view(t) for t in texts], 0, [_NUMBERING_NODES]) < len(texts):
            return fen, game
        self._view = own_view
        self._view_note = ""
        gametype = header_value(headers, "GameType").strip()
        message = _(
            "GameType {gametype} numbers the squares otherwise than {variant} ({own}), but "
            "the moves replay only in the variant's own numbering: read in that numbering"
        ).format(gametype=quote(gametype), variant=variant.local_name, own=quote(variant.gametype))
        self._warn(visitor, message, Token(TAG, "GameType", *at), gametype)
        return own_fen, own_game

    def _end_of_game(self, visitor: Visitor[Any]) -> None:
        """Called once a game's last token is read, before the visitor's ``end_game``
        (the reader of :func:`read_game` puts its handle back here)."""

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
                if size < COMMENT_LIMIT:
                    prose.append(tok)
                    size += len(tok.text) + 1
                continue
            if prose:
                if not frames[-1].dead:
                    self._aside(visitor, prose, N_("text outside braces"))
                prose, size = [], 0
            if self._full and not frames[0].dead:
                for f in frames:
                    f.dead = True
            frame = frames[-1]
            if kind == TAG:
                self._back.append(tok)
                break
            if kind == RESULT:
                self._result(visitor, game, frames, quiet, skip, tok)
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
                        raise NotationError(
                            _("{text} is not a move (too long)").format(text=quote(tok.text))
                        )
                    move = self._match(visitor, game, tok)
                except ShashkiError as exc:
                    frame.dead = True
                    self._unplayable(visitor, game, frames, tok, exc)
                    continue
                visitor.visit_move(game, move)
                game.push_unchecked(move)
                frame.pushed += 1
            elif kind == COMMENT:
                if not frame.dead and self._room(visitor, tok, len(tok.text)):
                    visitor.visit_comment(tok.text)
                    if not quiet:
                        self._check_clock(visitor, tok)
            elif kind == NAG:
                value = nag_value(tok.text)
                if not frame.dead and value is not None and self._room(visitor, tok):
                    visitor.visit_nag(value)
            elif kind == OPEN:
                content = self._open(visitor, game, frames, tok) or content
            elif kind == CLOSE:
                self._close_one(visitor, game, frames, quiet, tok)
            elif kind == JUNK:  # not content: a game is tags, moves or a result
                self._junk(visitor, game, frames, tok)
            elif kind == WARN:
                self._warning(visitor, frame, tok)
            elif kind == BROKEN:
                content = True
                self._error(visitor, tok.value, tok, tok.text)
            # NUMBER and SEP carry nothing the moves do not say.
        if prose and not frames[-1].dead:
            self._aside(visitor, prose, N_("text outside braces"))
        self._close_all(visitor, game, frames, quiet)
        return content

    def _result(
        self,
        visitor: Visitor[Any],
        game: Game | None,
        frames: list[_Frame],
        quiet: bool,
        skip: bool,
        tok: Token,
    ) -> None:
        """The game's result: the variations left open closed, the result sent, and
        what follows it on its line read (:meth:`_after_result`)."""
        self._close_all(visitor, game, frames, quiet)
        result = normalize_result(tok.text)
        if result is not None and not skip:
            visitor.visit_result(result)
        self._after_result(visitor, tok, frames[0].dead)

    def _unplayable(
        self,
        visitor: Visitor[Any],
        game: Game,
        frames: list[_Frame],
        tok: Token,
        exc: ShashkiError,
    ) -> None:
        """A move that cannot be read or played: the problem, with the position (and how
        the record's squares were read, where they were not read as written)."""
        fen = game.fen()
        # the move errors quote the position already (without the counters)
        message = (
            str(exc)
            if fen.split(":H")[0] in str(exc)
            else _("{error} (position {fen})").format(error=exc, fen=fen)
        )
        if self._view is not same_text:
            message = _("{error}; the record's {text} {note}").format(
                error=message, text=quote(tok.text), note=self._view_note
            )
        self._fault(visitor, frames, message, tok, tok.text, fen)

    def _open(
        self, visitor: Visitor[Any], game: Game | None, frames: list[_Frame], tok: Token
    ) -> bool:
        """A '(': a variation of the last move, or (where no move comes before it) text
        read as a comment; True if a move text stood in that text."""
        frame = frames[-1]
        if frame.dead:
            frame.skipped += 1
        elif frame.pushed == 0:
            return self._parenthesis(visitor, tok)
        elif self._room(visitor, tok):
            assert game is not None
            popped = game.pop()
            frame.pushed -= 1
            frames.append(_Frame(popped, live=True, at=(tok.line, tok.column)))
            visitor.begin_variation()
        return False

    def _close_one(
        self,
        visitor: Visitor[Any],
        game: Game | None,
        frames: list[_Frame],
        quiet: bool,
        tok: Token,
    ) -> None:
        """A ')': the end of a variation skipped or open, or a warning where none is."""
        frame = frames[-1]
        if frame.skipped:
            frame.skipped -= 1
        elif len(frames) > 1:
            self._close(visitor, game, frames)
        elif not quiet and not frame.dead:
            self._warn(visitor, _("')' closes no variation: left out"), tok, ")")

    def _junk(
        self, visitor: Visitor[Any], game: Game | None, frames: list[_Frame], tok: Token
    ) -> None:
        """A word where a move should be: a move number written "12)", or an error that
        ends its line of play."""
        frame = frames[-1]
        if not frame.dead and self._numbered(tok, len(frames)):
            return  # "12)": a move number as some programs write it
        if not frame.dead:
            frame.dead = True
            self._fault(
                visitor,
                frames,
                _("{text} is not a move").format(text=quote(tok.text)),
                tok,
                tok.text,
                game.fen() if game is not None else "",
            )

    def _warning(self, visitor: Visitor[Any], frame: _Frame, tok: Token) -> None:
        """A warning of the tokenizer (squares in capitals: once a game)."""
        if tok.value == CAPITALS:
            if self._capitals or frame.dead:
                return
            self._capitals = True
        self._warn(visitor, tok.value, tok, tok.text)

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
            said = _("in a variation: {message}; the rest of it is left out").format(
                message=message
            )
            self._warn(visitor, said, at, token)
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
        what: str = N_("a variation must follow a move"),
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
            if size < COMMENT_LIMIT:
                text = "{" + tok.text + "}" if tok.kind == COMMENT else tok.text
                words.append(text)
                size += len(text) + 1
        if not emit:
            return moved
        text = " ".join(words)
        if not closed:
            what = _("{what}, and this one is not closed with {mark}").format(
                what=_(what), mark=quote(")")
            )
        if text and self._room(visitor, opening, len(text)):
            visitor.visit_comment(text)
        said = _("{what}: {text} read as a comment").format(what=_(what), text=f"({quote(text)})")
        self._warn(visitor, said, opening, "(")
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
                self._parenthesis(visitor, tok, N_("text after the result"), emit=not dead)
            elif tok.kind == COMMENT:
                if not dead and self._room(visitor, tok, len(tok.text)):
                    visitor.visit_comment(tok.text)
                    self._check_clock(visitor, tok)
            elif size < COMMENT_LIMIT:
                words.append(tok)
                size += len(tok.text) + 1
        if words and not dead:
            self._aside(visitor, words, N_("text after the result"))

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
            names = ", ".join(game.move_text(m, full=True) for m in candidates)
            visitor.visit_warning(
                BadPdnError(
                    ngettext(
                        "{text} could be {names}; read as {move}, the only reading under "
                        "which the next {n} move can be played",
                        "{text} could be {names}; read as {move}, the only reading under "
                        "which the next {n} moves can be played",
                        best,
                    ).format(
                        text=quote(tok.text),
                        names=names,
                        move=game.move_text(winners[0], full=True),
                        n=best,
                    ),
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
        squares = ANY_SQUARE.findall(text)
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
            more = ANY_SQUARE.findall(self._view(tok.text))
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
        for _pushed in range(frame.pushed):
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
            message = _("a variation is not closed with {mark}: it ends with the game").format(
                mark=quote(")")
            )
            self._warn(visitor, message, Token(OPEN, "(", *where), "(")
        while len(frames) > 1:
            self._close(visitor, game, frames)


# ---------------------------------------------------------------------------------
# Streams and files
# ---------------------------------------------------------------------------------


class _GameReader(PdnReader):
    """The reader of one game for :func:`read_game`: it reads the handle only as far as
    it must, and leaves it at the first token the game did not use (see
    :class:`~shashki.records.lines.HandleLines`)."""

    def __init__(self, handle: IO[Any], default_variant: Variant | str | None) -> None:
        super().__init__((), default_variant)  # its tokens: from the lines below
        self._lines = HandleLines(handle)
        #: The game's result is read: no line after its own (a pipe only).
        self._ended = False
        self._tokens = tokenize(self._lines, more=None if self._lines.seekable else self._more)

    def _more(self) -> bool:
        return not self._ended

    def _after_result(self, visitor: Visitor[Any], result: Token, dead: bool) -> None:
        self._ended = True
        super()._after_result(visitor, result, dead)

    def _parenthesis(self, *args: Any, **kwargs: Any) -> bool:
        # "1-0 (White resigns …)" goes on to its ')' whatever the lines.
        ended, self._ended = self._ended, False
        try:
            return super()._parenthesis(*args, **kwargs)
        finally:
            self._ended = ended

    def _end_of_game(self, visitor: Visitor[Any]) -> None:
        lines = self._lines
        if not lines.seekable:
            lines.close()
        tok = self._next()  # the first token that is not this game's
        if lines.seekable:
            if tok is None:
                placed = lines.put_at_end()
            elif tok.kind == BROKEN:  # the next call meets the bytes that cannot be read
                placed = lines.put_after_last()
            else:
                placed = lines.put_back(tok.line, tok.column)
            if not placed:
                message = "the handle could not be put back where the next game begins"
                self._warn(visitor, message, tok or Token(JUNK, "", 1, 1))
            return
        line = tok.line if tok is not None else lines.leftover()
        if line is not None:
            message = (
                f"line {line} was read past the end of the game and cannot be given back "
                "to a handle that cannot seek: the next read_game starts after it (a game "
                "without a result ends only where the next one's tags begin; read a pipe "
                "game after game with one PdnReader)"
            )
            self._warn(visitor, message, tok or Token(JUNK, "", line, 1))


def read_game(
    handle: IO[Any],
    *,
    default_variant: Variant | str | None = None,
    visitor: Callable[[], Visitor[T]] = GameBuilder,  # type: ignore[assignment]
) -> T | None:
    """The game that begins where ``handle`` stands (None when no game follows), the
    handle left where the next game begins, as python-chess's ``chess.pgn.read_game``
    does: call it again and again for every game of a file, or seek the handle to a
    place noted before (``handle.tell()``) to read the game there again.

    >>> import io
    >>> pdn = '[Event "a"]\\n1. 32-28 * [Event "b"]\\n1. 33-28\\n[Event "c"]\\n1. 34-29 *\\n'
    >>> handle = io.StringIO(pdn)
    >>> while (game := read_game(handle)) is not None:
    ...     print(game.header("Event"), len(game.mainline_moves()), handle.tell())
    a 1 23
    b 1 44
    c 1 67

    ``handle`` is a text or binary file.  The games are those :func:`read_games` gives,
    but that their places (``record.line``, the lines and columns of the errors and
    warnings, the byte offsets in messages about bytes that cannot be decoded) count
    from where the handle stood, and that bytes in no announced encoding fall back from
    UTF-8 to cp1251 or Latin-1 game by game (read whole, a file keeps the choice of its
    first such line).

    A game ends with its result, what follows it on that line, and a comment or
    parenthesis opened there; without a result, where the next game's tags begin.  The
    handle is read a line at a time.  One that can seek is put back at the first token
    the game did not use, which may stand inside a line (``1-0 [Event …]``); a handle
    that is slow to seek backwards (``gzip.open``) is better read whole with
    :func:`read_games`.  One that cannot seek (a pipe, ``sys.stdin``) is not read past
    the line of the result, but what had to be read to find where a game ends cannot be
    given back: after a game without a result, the line of the next game's first tag;
    the rest of the result's line, when the next game begins on it; in binary, lines
    ending in a lone CR, up to the next LF.  The next call starts after them, and the
    game that read them says so in a warning (read a pipe game after game with one
    :class:`PdnReader`).  Bytes are read in the encoding that the start of the file
    shows, as :func:`read_games` reads them; those of a pipe, in the one that the game's
    first line that is not blank shows, with what ``peek`` shows after it (UTF-16 and
    UTF-32 without a BOM are told by their zero bytes, which a line of a character or
    two may not show).

    ``default_variant`` is the variant of a game whose tags name none (International
    when None).  ``visitor`` is called once for a fresh visitor, and the game is what its
    ``result()`` gives (a :class:`~shashki.records.GameRecord` by default).  Bad
    content never raises; OSError does.
    """
    return _GameReader(handle, default_variant).read_game(visitor)


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


def _json_games(path: str, default_variant: Variant | str | None) -> Iterator[GameRecord]:
    """The games of a JSON file: a list of PDN texts, or an object whose values are
    such lists (py-draughts' fixtures), at any depth."""
    try:
        texts = json_pdn_texts(path)
    except ValueError as exc:
        broken = GameRecord()
        broken.line = 1
        message = clip(_("not a JSON list of PDN texts: {reason}").format(reason=exc))
        broken.errors.append(BadPdnError(message, line=1, column=1))
        yield broken
        return
    for index, text in enumerate(texts, 1):
        for game in PdnReader(io.StringIO(text), default_variant):
            game.origin = _("item {index}").format(index=index)
            yield game


def read_file(
    path: str | os.PathLike[str], default_variant: Variant | str | None = None
) -> Iterator[GameRecord]:
    """Every game of a file, streamed.  A ``.json`` file is read as a JSON list of PDN
    texts (each game's ``origin`` then says which item it came from).

    Only a regular file is read: a folder, a FIFO or a device raises UserFileError (an
    OSError) at once, without blocking; a JSON file larger than
    :data:`~shashki.records.fixtures.JSON_LIMIT` too.  Raises OSError when the file
    cannot be opened or read; bad content never raises.
    """
    p = os.fspath(path)
    if p.lower().endswith(".json"):
        yield from _logged(_json_games(p, default_variant), p)
        return
    with open_regular(p) as fh:
        yield from _logged(PdnReader(fh, default_variant), p)


def _logged(records: Iterable[GameRecord], where: str) -> Iterator[GameRecord]:
    """``records``, what was found wrong in each told to the log (``shashki.records``), at
    the level of information: the reader's caller has it too (``record.errors``)."""
    for number, record in enumerate(records, 1):
        for error in record.errors:
            logger.info("%s, game %d: %s", where, number, error)
        yield record


def read_games(
    source: str | os.PathLike[str] | IO[Any], default_variant: Variant | str | None = None
) -> Iterator[GameRecord]:
    """Every game of a PDN file, streamed: one :class:`~shashki.records.GameRecord` at a
    time, never the whole file in memory.

    ``source`` is a path (a ``.json`` file is read as a JSON list of PDN texts, as
    :func:`read_file` does) or an open handle, text or binary, read from where it stands.
    ``default_variant`` is the variant of games whose tags name none (International, as
    PDN says, when None).  Each record holds the tags (``record.headers``,
    ``record.header(name)``), the variant and start position, the move tree
    (``record.mainline_moves()``, variations and comments), the result, and what was
    found wrong while reading it: ``record.errors`` and ``record.warnings``
    (:class:`~shashki.rules.BadPdnError`, with line, column and the text at fault);
    ``record.ok`` says there is no error.  A game with an error keeps the moves read
    before it, and the next game is read normally.

    Nothing is opened before the first record is asked for.  Bad content never raises;
    OSError does (a file that cannot be opened or read, a folder, a FIFO).  This is
    :func:`read_file` for a path and :class:`PdnReader` for a handle.

    >>> import io
    >>> pdn = '''[Event "one"]
    ... [GameType "25"]
    ... 1. c3-d4 f6-g5 2. b2-c3 1-0
    ...
    ... [Event "two"]
    ... [GameType "25"]
    ... 1. c3-d4 d4-e5 *
    ... '''
    >>> for record in read_games(io.StringIO(pdn)):
    ...     errors = [(e.line, e.column, e.token) for e in record.errors]
    ...     print(record.header("Event"), record.variant.id, len(record.mainline_moves()),
    ...           record.result, errors)
    one russian 3 1-0 []
    two russian 1 * [(7, 10, 'd4-e5')]
    """
    if isinstance(source, str | os.PathLike):
        yield from read_file(source, default_variant)
    else:
        yield from _logged(
            PdnReader(source, default_variant), str(getattr(source, "name", "")) or "PDN"
        )
