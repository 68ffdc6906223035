"""The lines of a PDN file, as text: any encoding, any line end, no line held whole.

:func:`decoded_lines` reads a binary or text handle (or any iterable of lines) a line at
a time: UTF-8, Latin-1 or cp1251 bytes, UTF-8/16/32 with a BOM and UTF-16 without; LF,
CRLF or CR; a line longer than :data:`LINE_LIMIT` comes in pieces.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, NamedTuple

from ..rules.userfiles import bom_encoding

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


def _split_lines(chunks: Iterable[Any], newline: re.Pattern[Any]) -> Iterator[tuple[Any, int]]:
    """The lines of a stream of text or byte chunks (``newline`` of the same type):
    LF, CRLF or a lone CR end a line.  Yields (line without its end, offset), where a
    line longer than :data:`LINE_LIMIT` comes in pieces with their offsets."""
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
                and m.start() <= LINE_LIMIT
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
            while len(line) > LINE_LIMIT:
                cut = _cut_point(line)
                yield line[:cut], offset
                offset += cut
                line = line[cut:]
            yield line, offset
            offset = 0
            pos = m.end()
        buf = buf[pos:]
        while len(buf) > LINE_LIMIT:
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
        for text, offset in _split_lines(rest, _NEWLINE):
            yield Piece(text, offset)
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
            yield Piece(text, offset)
        return
    fallback = ""
    for raw, offset in _split_lines(source, _NEWLINE_B):
        if b"\0" in raw:
            raise CannotDecode("this is not a text file (it holds NUL bytes)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if not fallback:
                fallback = "cp1251" if re.search(rb"[\xc0-\xff]{3}", raw) else "latin-1"
            text = raw.decode(fallback, errors="replace")
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
