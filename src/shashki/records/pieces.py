"""An archive cut into pieces of whole games, for work spread over many processes (or
machines): each piece carries its games' text itself, so a worker needs no file of its
own, and the games of the pieces, read in order, are the games of the file.

:func:`pieces` streams a file: a PDN file is cut between games (at a tag line that
follows a line that is not one) into pieces of about ``size`` bytes; a JSON list of PDN
texts (py-draughts' fixtures) gives its texts, a few to a piece.  :func:`piece_games`
reads the games of one piece, in a worker.

>>> import io
>>> data = b'[Event "a"]\\n1. 32-28 *\\n\\n[Event "b"]\\n1. 33-28 *\\n'
>>> [len(p.data) for p in cut(io.BytesIO(data), "x.pdn", size=10)]
[24, 23]
>>> [g.header("Event") for p in cut(io.BytesIO(data), "x.pdn") for g in piece_games(p)]
['a', 'b']
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..base.userfiles import bom_encoding, open_regular
from ..rules.variant import Variant
from .fixtures import json_pdn_texts
from .model import GameRecord
from .reader import read_games, read_games_text

#: About how many bytes of PDN one piece holds.
PIECE_BYTES = 128 << 10
#: How many texts of a JSON list one piece holds.
PIECE_TEXTS = 50
#: A line longer than this is cut (a file of one endless line is still read in pieces).
LONG_LINE = 1 << 20


@dataclass(frozen=True)
class Piece:
    """Some whole games of one file."""

    #: The file, as the user named it.
    source: str
    #: The piece's place in the file (0 for the first).
    number: int
    #: PDN bytes, or (a JSON list's) PDN texts.
    data: bytes | tuple[str, ...]


def pieces(path: str | os.PathLike[str], size: int = PIECE_BYTES) -> Iterator[Piece]:
    """The pieces of the file at ``path``, read as they are asked for.  Raises OSError
    (:class:`~shashki.base.userfiles.UserFileError` for a folder, a FIFO…) when it cannot
    be read; ValueError for a ``.json`` file that is not a JSON list of texts."""
    name = os.fspath(path)
    if name.lower().endswith(".json"):
        texts = list(json_pdn_texts(name))
        for number, start in enumerate(range(0, len(texts), PIECE_TEXTS)):
            yield Piece(name, number, tuple(texts[start : start + PIECE_TEXTS]))
        return
    with open_regular(name) as handle:
        yield from cut(handle, name, size)


def cut(handle: BinaryIO, source: str, size: int = PIECE_BYTES) -> Iterator[Piece]:
    """The pieces of a binary stream (see :func:`pieces`)."""
    head = handle.read(4)
    found = bom_encoding(head)
    if found is not None and found[0].lower().replace("-", "").startswith(("utf16", "utf32")):
        # two or four bytes a character: cut the text, each piece in UTF-8
        text = (head + handle.read()).decode(found[0], errors="replace")
        yield from _cut_lines(
            (line.encode("utf-8") for line in text.splitlines(keepends=True)), source, size
        )
        return

    def lines() -> Iterator[bytes]:
        rest = head
        while True:
            line = handle.readline(LONG_LINE)
            if rest:
                line, rest = rest + line, b""
            if not line:
                return
            yield line

    yield from _cut_lines(lines(), source, size)


def _cut_lines(lines: Iterator[bytes], source: str, size: int) -> Iterator[Piece]:
    chunk: list[bytes] = []
    held = 0
    number = 0
    tags = False  # the last line that was not blank was a tag line
    for line in lines:
        stripped = line.strip()
        is_tag = stripped.startswith(b"[")
        if is_tag and not tags and held >= size:
            yield Piece(source, number, b"".join(chunk))
            number += 1
            chunk, held = [], 0
        chunk.append(line)
        held += len(line)
        if stripped:
            tags = is_tag
    if chunk:
        yield Piece(source, number, b"".join(chunk))


def piece_games(piece: Piece, default_variant: Variant | str | None = None) -> Iterator[GameRecord]:
    """The games of one piece, in order."""
    if isinstance(piece.data, bytes):
        import io

        yield from read_games(io.BytesIO(piece.data), default_variant)
        return
    for text in piece.data:
        yield from read_games_text(text, default_variant)


__all__ = ["PIECE_BYTES", "Piece", "cut", "piece_games", "pieces"]
