"""The lines of a PDN file, as text: any encoding, any line end, no line held whole.

:func:`decoded_lines` reads a binary or text handle (or any iterable of lines) a line at
a time: UTF-8, Latin-1 or cp1251 bytes, UTF-8/16/32 with a BOM and UTF-16 without; LF,
CRLF or CR; a line longer than :data:`LINE_LIMIT` comes in pieces.  :class:`HandleLines`
decodes them alike for one game, noting where each line begins in the handle, so that
the handle can be put back at the next game.
"""

from __future__ import annotations

import codecs
import io
import itertools
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple

from ..base.userfiles import bom_encoding

#: A line longer than this is read in pieces, cut at a blank where there is one, so that
#: no line (a file with no line ends, a 100 MB line of junk) is ever held whole.
LINE_LIMIT = 1 << 20


class CannotDecode(Exception):
    """The bytes of a file cannot be read as text (the message says why and where)."""


class Piece(NamedTuple):
    """A line of text, or a piece of a line too long to hold whole."""

    text: str
    #: Where the piece starts in its line (0 for a whole line or its first piece).
    offset: int


_NEWLINE = re.compile(r"\r\n?|\n")
_NEWLINE_B = re.compile(rb"\r\n?|\n")


def _cut_point(buf: str | bytes) -> int:
    """Where to cut a line longer than :data:`LINE_LIMIT`: after its last blank in
    the second half of the limit, else at the limit (never inside a UTF-8 sequence)."""
    lo, hi = LINE_LIMIT // 2, LINE_LIMIT
    blank = buf.rfind(" ", lo, hi) if isinstance(buf, str) else buf.rfind(b" ", lo, hi)
    if blank >= 0:
        return blank + 1
    cut = LINE_LIMIT
    if isinstance(buf, bytes):
        while cut > LINE_LIMIT - 4 and 0x80 <= buf[cut] < 0xC0:
            cut -= 1
    return cut


def _split_lines(chunks: Iterable[Any], newline: re.Pattern[Any]) -> Iterator[tuple[Any, int, int]]:
    """The lines of a stream of text or byte chunks (``newline`` of the same type):
    LF, CRLF or a lone CR end a line.  Yields (line without its end, offset, start),
    where a line longer than :data:`LINE_LIMIT` comes in pieces with their offsets, and
    ``start`` is where the piece begins in the stream (the chunks one after another)."""
    buf: Any = None
    offset = 0  # where ``buf`` starts in its line
    base = 0  # where ``buf`` (or, without one, the next chunk) starts in the stream
    for chunk in chunks:
        if buf is None:
            # The usual case: a chunk that is one whole line.
            m = newline.search(chunk)
            if (
                m is not None
                and m.end() == len(chunk)
                and chunk[-1:] in ("\n", b"\n")
                and m.start() <= LINE_LIMIT
            ):
                yield chunk[: m.start()], 0, base
                base += len(chunk)
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
            start = base + pos
            while len(line) > LINE_LIMIT:
                cut = _cut_point(line)
                yield line[:cut], offset, start
                offset += cut
                start += cut
                line = line[cut:]
            yield line, offset, start
            offset = 0
            pos = m.end()
        buf = buf[pos:]
        base += pos
        while len(buf) > LINE_LIMIT:
            cut = _cut_point(buf)
            yield buf[:cut], offset, base
            offset += cut
            base += cut
            buf = buf[cut:]
        if not buf:
            buf = None
    if buf is not None:
        if buf[-1:] in ("\r", b"\r"):
            buf = buf[:-1]
        yield buf, offset, base


def _chunks(handle: IO[Any] | Iterable[Any]) -> Iterator[Any]:
    """What a handle holds, a line at a time and never more than :data:`LINE_LIMIT`
    at once: by ``readline`` where the handle has it, else item by item (each item
    then a line)."""
    readline = getattr(handle, "readline", None)
    if callable(readline):
        while True:
            piece = readline(LINE_LIMIT)
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


def _utf16_without_bom(head: bytes, slack: float = 0.0) -> str | None:
    """ "utf-16-le" or "utf-16-be" when ``head`` looks like UTF-16 text without a BOM
    (mostly ASCII: every other byte zero, and at most a ``slack`` share of the others),
    else None."""
    pairs = len(head) // 2
    if pairs < 2:
        return None
    even, odd = head[0 : 2 * pairs : 2].count(0), head[1 : 2 * pairs : 2].count(0)
    if odd >= pairs * 0.6 and even <= pairs * slack:
        return "utf-16-le"
    if even >= pairs * 0.6 and odd <= pairs * slack:
        return "utf-16-be"
    return None


def _utf32_without_bom(head: bytes, slack: float) -> str | None:
    """ "utf-32-le" or "utf-32-be" when ``head`` looks like UTF-32 text without a BOM
    (mostly ASCII: three bytes in four zero, the fourth at most a ``slack`` share of
    the time), else None."""
    quads = len(head) // 4
    if quads < 2:
        return None
    lanes = [head[i : 4 * quads : 4].count(0) for i in range(4)]
    if lanes[0] <= quads * slack and lanes[1] >= quads * 0.6 and lanes[3] == quads:
        return "utf-32-le" if lanes[2] >= quads * (1 - slack) else None
    if lanes[3] <= quads * slack and lanes[2] >= quads * 0.6 and lanes[0] == quads:
        return "utf-32-be" if lanes[1] >= quads * (1 - slack) else None
    return None


#: The share of zero bytes where text has its characters' low bytes that
#: :func:`_sniff` lets pass inside a stream (a character such as U+4E00 has one).
_INSIDE_SLACK = 0.1


def _sniff(head: bytes, inside: bool = False) -> tuple[str, int] | None:
    """The encoding of bytes that begin with ``head``, and how many bytes of BOM to
    skip: the encoding a BOM announces, or UTF-16 recognised by its zero bytes.  When
    ``inside`` (bytes read from inside a stream that cannot seek, where no BOM stands
    though the stream may have had one), UTF-32 too, and a few characters with a zero
    low byte are let pass.  None for bytes read as UTF-8 with a single-byte fallback
    (:func:`_byte_lines`)."""
    found = bom_encoding(head)
    if found is None and b"\0" in head:
        slack = _INSIDE_SLACK if inside else 0.0
        encoding = _utf16_without_bom(head, slack)
        if encoding is None and inside:
            encoding = _utf32_without_bom(head, slack)
        if encoding is not None:
            found = (encoding, 0)
    return found


def decoded_lines(handle: IO[Any] | Iterable[Any]) -> Iterator[Piece]:
    """The lines of a text or binary handle, as text without line ends.

    Bytes with a BOM are read in the encoding it announces (UTF-8, UTF-16, UTF-32), and
    UTF-16 without BOM is recognised by its zero bytes; a file in them that has bytes
    the encoding cannot read raises :class:`CannotDecode` there.  Other bytes are read
    as UTF-8, and a line that is not UTF-8 as cp1251 when it looks Cyrillic (runs of
    letters above 0xC0) or as Latin-1 otherwise, the file keeping that choice; a NUL
    byte in them raises :class:`CannotDecode` (not a text file).  LF, CRLF and a lone
    CR end a line; a line longer than :data:`LINE_LIMIT` comes in pieces.
    """
    chunks = _chunks(handle)
    first = next(chunks, None)
    if first is None:
        return
    if isinstance(first, str):
        rest: Iterable[Any] = itertools.chain([first.lstrip("\ufeff")], chunks)
        for text, offset, _ in _split_lines(rest, _NEWLINE):
            yield Piece(text, offset)
        return
    head = bytes(first)
    while len(head) < _HEAD:  # enough of the start to decide the encoding by
        more = next(chunks, None)
        if more is None:
            break
        head += more
    found = _sniff(head)
    source = itertools.chain([head], chunks)
    if found is not None:
        for text, offset, _ in _split_lines(_decoded_chunks(source, *found), _NEWLINE):
            yield Piece(text, offset)
        return
    yield from _byte_lines(source)


def _byte_lines(
    source: Iterable[bytes], note: Callable[[str, int, int, bool], None] | None = None
) -> Iterator[Piece]:
    """The lines of bytes that announce no encoding, as :func:`decoded_lines` reads
    them.  ``note``, when given, hears of each piece (text, offset, start as
    :func:`_split_lines` gives it, whether it was UTF-8 — else one byte a character)."""
    fallback = ""
    for raw, offset, start in _split_lines(source, _NEWLINE_B):
        if b"\0" in raw:
            raise CannotDecode("this is not a text file (it holds NUL bytes)")
        try:
            text = raw.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            if not fallback:
                fallback = "cp1251" if re.search(rb"[\xc0-\xff]{3}", raw) else "latin-1"
            text = raw.decode(fallback, errors="replace")
            utf8 = False
        if note is not None:
            note(text, offset, start, utf8)
        yield Piece(text, offset)


def _decoded_chunks(chunks: Iterable[bytes], encoding: str, skip: int) -> Iterator[str]:
    """Text from byte chunks in ``encoding``, the first ``skip`` bytes (a BOM) left
    out; raises :class:`CannotDecode` at bytes the encoding cannot read."""
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
            raise CannotDecode(
                f"the file is not valid {label} text (byte {read - pending + exc.start}: "
                f"{exc.reason})"
            ) from None
        read += len(data)
        if text:
            yield text


# ---------------------------------------------------------------------------------
# One game's lines, and the handle put back after them
# ---------------------------------------------------------------------------------

#: How many places of pieces (not blank) a :class:`HandleLines` keeps, the latest: more
#: than the lines that a comment never closed takes in to read again (at most
#: ``tokens.COMMENT_LIMIT`` characters, line ends counted), the farthest back a reader
#: returns.
PLACES = 1 << 16
#: The bytes of one code unit, in the encodings whose units are wider than a byte.
_UNITS = {"utf-16-le": 2, "utf-16-be": 2, "utf-32-le": 4, "utf-32-be": 4}
#: How much text or bytes is read at once when the handle is put back.
_BLOCK = 1 << 16


class HandleLines:
    """The lines of a handle read for one game (see
    :func:`~shashki.records.reader.read_game`): decoded as :func:`decoded_lines`
    decodes them, but read a line at a time and only as far as they are asked for, and
    each piece's place in the handle noted, so that a reader that stops inside them can
    put the handle back at the first token it did not use.

    The pieces are numbered from line 1 where the handle stood.  A handle that can seek
    is read from there (``tell``), as far as the reader likes, and :meth:`put_back`
    seeks it to a token's line and column; its bytes, when they hold zero bytes, are in
    the encoding that the start of the file shows, as :func:`decoded_lines` decides it
    (a UTF-16 file's BOM stands there only).  One that cannot (a pipe) is read with
    ``readline`` only, and :meth:`close` stops the reading; its bytes have their
    encoding decided by their first line that is not blank and what ``peek`` shows of
    the rest (where the handle has it) — where a BOM, if the stream had one, is long
    past: UTF-32 is recognised by its zero bytes too, and UTF-16 with a few characters
    whose low byte is zero — and UTF-16 and UTF-32 are read in whole code units, so that
    no byte of the next line is taken.  Bytes in no announced encoding are decoded a
    piece at a time, as :func:`decoded_lines` decodes them (UTF-8, else cp1251 or
    Latin-1, the choice made anew for each game).
    """

    def __init__(self, handle: IO[Any] | Iterable[Any]) -> None:
        self._handle: Any = handle
        #: Where reading began (``tell``); None when the handle cannot seek.
        self._origin: Any = None
        try:
            if handle.seekable():  # type: ignore[union-attr]
                self._origin = handle.tell()  # type: ignore[union-attr]
        except (AttributeError, OSError, ValueError):
            pass  # no seekable(), a closed handle, tell() refused while iterating
        self.seekable = self._origin is not None
        self._closed = False
        #: Where the latest pieces begin: (line, offset, start, whether it was UTF-8).
        self._places: deque[tuple[int, int, int, bool]] = deque(maxlen=PLACES)
        self._line = 0
        self._last: tuple[int, str, bool] | None = None  # the last piece handed out
        #: How the stream is made: None for text, "" for bytes read a line at a time as
        #: UTF-8 or one byte a character, else the encoding the bytes are decoded in.
        self._codec: str | None = None
        self._skip = 0  # BOM characters (text) or bytes (decoded bytes) before the stream
        self._unit = 1
        self._read = 0  # bytes read so far, to read whole code units
        self._pieces: Iterator[Piece] | None = None

    def __iter__(self) -> Iterator[Piece]:
        if self._pieces is None:
            self._pieces = self._generate()
        return self._pieces

    def close(self) -> None:
        """Read nothing more from the handle (what was read already still comes)."""
        self._closed = True

    def leftover(self) -> int | None:
        """Once closed, the line (numbered as the pieces are) of the first piece that was
        read from the handle but not handed out and holds more than blanks (or bytes
        that cannot be decoded); None when there is none."""
        try:
            for text, _ in self:
                if text.strip():
                    return self._line
        except (CannotDecode, UnicodeDecodeError):
            return self._line + 1
        return None

    # -- reading -----------------------------------------------------------------------

    def _chunks(self) -> Iterator[Any]:
        """What the handle holds, a line at a time as :func:`_chunks` reads it, in whole
        code units once the encoding needs them, until closed."""
        chunks = _chunks(self._handle)
        while not self._closed:
            chunk = next(chunks, None)
            if chunk is None:
                return
            if not isinstance(chunk, str):
                self._read += len(chunk)
                chunk += self._align()
            yield chunk

    def _align(self) -> bytes:
        """The bytes that complete the last code unit read (none when it is whole, or
        when the handle has no ``read``)."""
        need = -self._read % self._unit
        read = getattr(self._handle, "read", None)
        more = bytes(read(need)) if need and callable(read) else b""
        self._read += len(more)
        return more

    def _generate(self) -> Iterator[Piece]:
        chunks = self._chunks()
        first = next(chunks, None)
        if first is None:
            return
        if isinstance(first, str):
            text = first.lstrip("\ufeff")
            self._skip = len(first) - len(text)
            yield from self._noted(_split_lines(itertools.chain([text], chunks), _NEWLINE))
            return
        read = [bytes(first)]  # as read: a line that cannot be decoded fails alone
        head = read[0]
        if self.seekable:  # the file's start decides, as when it is read whole
            while len(head) < _HEAD:
                more = next(chunks, None)
                if more is None:
                    break
                read.append(more)
                head += more
            if self._origin != 0 and b"\0" in head:  # UTF-16 or UTF-32, BOM long past
                found = _sniff(self._file_head())
                yield from self._decoded(read, chunks, found and (found[0], 0))
                return
        else:  # the first line decides, with what the handle shows without reading
            while not head.strip(b" \t\r\n\0"):  # blank lines belong to no game
                more = next(chunks, None)
                if more is None:
                    return  # blanks to the end, in whatever encoding: no game
                read.append(more)
                head += more
            found = _sniff(head + self._peek(len(head)), inside=True)
            if found is None and b"\0" in head:
                # A short line of UTF-16 or UTF-32: its last code unit completed, it tells.
                for unit in (2, 4):
                    self._unit = unit
                    read.append(self._align())
                    head += read[-1]
                    found = _sniff(head, inside=True)
                    if found is not None:
                        break
                self._unit = 1
            yield from self._decoded(read, chunks, found)
            return
        yield from self._decoded(read, chunks, _sniff(head))

    def _peek(self, have: int) -> bytes:
        """What the handle shows of the bytes to come without reading them (``peek``),
        up to :data:`_HEAD` with the ``have`` bytes read; none when it cannot show."""
        peek = getattr(self._handle, "peek", None)
        if not callable(peek) or have >= _HEAD:
            return b""
        try:
            return bytes(peek(_HEAD))[: _HEAD - have]
        except (OSError, ValueError):
            return b""

    def _decoded(
        self, read: list[bytes], chunks: Iterator[bytes], found: tuple[str, int] | None
    ) -> Iterator[Piece]:
        """The pieces of the bytes ``read`` and of the ``chunks`` after them, decoded as
        ``found`` says (the encoding and the BOM's length; None for a line at a time)."""
        if found is None:
            self._codec = ""
            yield from _byte_lines(itertools.chain(read, chunks), self._note)
            return
        self._codec, self._skip = found
        self._unit = _UNITS.get(self._codec, 1)
        read.append(self._align())
        decoded = _decoded_chunks(itertools.chain(read, chunks), *found)
        yield from self._noted(_split_lines(decoded, _NEWLINE))

    def _file_head(self) -> bytes:
        """The start of the file, as much as decides its encoding, read as
        :func:`decoded_lines` reads it; the handle is left where it was."""
        handle = self._handle
        at = handle.tell()
        handle.seek(0)
        head = b""
        for chunk in _chunks(handle):
            head += chunk
            if len(head) >= _HEAD:
                break
        handle.seek(at)
        return head

    def _noted(self, lines: Iterable[tuple[str, int, int]]) -> Iterator[Piece]:
        """The pieces of text, each one's place noted."""
        for text, offset, start in lines:
            self._note(text, offset, start, False)
            yield Piece(text, offset)

    def _note(self, text: str, offset: int, start: int, utf8: bool) -> None:
        """Note where a piece begins: ``start`` in the stream, UTF-8 or not."""
        if offset == 0:
            self._line += 1
        if text and not text.isspace():  # where a token may begin
            self._places.append((self._line, offset, start, utf8))
        self._last = (start, text, utf8)

    # -- putting the handle back -------------------------------------------------------

    def put_back(self, line: int, column: int) -> bool:
        """Seek the handle to ``column`` of ``line`` (both 1-based, as the tokens of the
        pieces count them).  False, the handle left as it is, when it cannot seek or
        that place is not known."""
        if self.seekable:
            for number, offset, start, utf8 in reversed(self._places):
                if number == line and offset < column:
                    return self._seek(start, column - 1 - offset, utf8)
                if number < line:
                    break
        return False

    def put_after_last(self) -> bool:
        """Seek the handle to the end of the last piece handed out (before its line
        end), or where reading began when none was; False when it cannot seek."""
        if not self.seekable:
            return False
        if self._last is None:
            return self._seek(0, 0, False)
        start, text, utf8 = self._last
        return self._seek(start, len(text), utf8)

    def put_at_end(self) -> bool:
        """Seek the handle to its end; False when it cannot seek."""
        if not self.seekable:
            return False
        try:
            self._handle.seek(0, io.SEEK_END)
        except (OSError, ValueError):
            return False
        return True

    def _seek(self, start: int, chars: int, utf8: bool) -> bool:
        """Seek to ``chars`` characters past ``start`` (a place in the stream of a
        piece that began there, UTF-8 or not)."""
        handle = self._handle
        try:
            if self._codec is None:  # text: characters from where reading began
                handle.seek(self._origin)
                _read_chars(handle, self._skip + start + chars)
            elif not self._codec:  # bytes a line at a time: ``start`` counts bytes
                at = self._origin + start
                if chars and utf8:
                    handle.seek(at)
                    chars = _encoded_length(handle, "utf-8", chars)
                handle.seek(at + chars)
            else:  # decoded bytes: ``start`` counts characters after the BOM
                at = self._origin + self._skip
                handle.seek(at)
                handle.seek(at + _encoded_length(handle, self._codec, start + chars))
        except (OSError, ValueError):  # a UnicodeDecodeError of a text handle too
            return False
        return True


def _read_chars(handle: Any, count: int) -> None:
    """Read ``count`` characters of a text handle (fewer at its end), a block at a time."""
    while count > 0:
        text = handle.read(min(count, _BLOCK))
        if not text:
            return
        count -= len(text)


def _encoded_length(handle: Any, encoding: str, count: int) -> int:
    """How many bytes the next ``count`` characters of a binary handle take in
    ``encoding`` (read from where it stands, a block at a time)."""
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    size = 0
    while count > 0:
        data = handle.read(_BLOCK)
        text = decoder.decode(data, not data)
        if len(text) >= count:
            return size + len(text[:count].encode(encoding))
        count -= len(text)
        size += len(text.encode(encoding))
        if not data:
            break
    return size
