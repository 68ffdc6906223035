"""From whose side a record names the squares: :func:`square_view` turns the move texts
of a record written from the first mover's side (PlayStrategy) round to shashki's board,
and renumbers those of a record whose GameType numbers the squares otherwise than the
variant does (:func:`record_board`, docs/rules/conventions.md#gametype: Thai's ``31,B,8,8,N2,0``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..i18n import _
from ..rules import Geometry, Variant
from ..rules.geometry import FILES, geometry
from ..rules.variant_file import gametype_numbering
from .movetext import ALG, ALG_SQUARE
from .tags import header_value

_SHORT_TEXT = re.compile(rf"([a-l])({ALG})")
#: A square number standing alone (not the rank of an algebraic square such as a10; the
#: second square of a capture "23x32" stands alone, no file is called x).
_NUMBER = re.compile(r"(?<![A-WYZa-wyz0-9])[0-9]{1,3}(?![0-9])")
#: A FEN tag's square list item: an optional king mark, a number or a range of numbers.
_FEN_ITEM = re.compile(r"(\s*[Kk]?)([0-9]{1,3})(?:-([0-9]{1,3}))?(\s*)")


def same_text(text: str) -> str:
    """A move text as the record wrote it: the view of a record that names the squares
    as shashki does."""
    return text


def record_board(variant: Variant, headers: dict[str, str]) -> Geometry | None:
    """The board numbered as the record's full GameType numbers it
    (docs/rules/conventions.md#gametype), when that is not the numeric variant's own numbering; None
    otherwise.

    ``31,B,8,8,N2,0`` (the PDN table's Thai) numbers from Black's side, 1 = g1, where
    shashki's Thai (``31,W,8,8,N2,0``) has 1 = b8: the record's squares are read
    square by square into the variant's numbers, the colours as written.
    """
    gametype = header_value(headers, "GameType")
    parts = [p.strip().upper() for p in gametype.split(",")]
    if not variant.numeric or len(parts) < 5 or not parts[4].startswith("N"):
        return None
    board = variant.board
    theirs = geometry(
        board.width,
        board.height,
        board.all_squares,
        board.mirrored,
        gametype_numbering(gametype)[0],
    )
    return None if theirs.numbering == board.numbering else theirs


def renumbering(variant: Variant, theirs: Geometry) -> Callable[[int], int]:
    """The variant's number of the square that ``theirs`` numbers ``n`` (``n`` itself
    when ``theirs`` has no such square)."""
    ours = variant.board
    by_number = theirs.by_number

    def number(n: int) -> int:
        return ours.number(by_number[n]) if 0 < n < len(by_number) else n

    return number


def renumber_fen(variant: Variant, headers: dict[str, str], fen: str) -> str:
    """A FEN tag's square lists in the variant's numbers, when the record's GameType
    numbers the squares otherwise (:func:`record_board`); ranges are written out."""
    theirs = record_board(variant, headers)
    if theirs is None:
        return fen
    number = renumbering(variant, theirs)
    count = len(theirs.by_number) - 1
    fields = fen.split(":")
    for i, field in enumerate(fields[1:], 1):
        body = field.strip()
        if len(body) < 2 or body[0].upper() not in ("W", "B"):
            continue
        items = []
        for item in body[1:].split(","):
            m = _FEN_ITEM.fullmatch(item)
            low = int(m.group(2)) if m else 0
            high = int(m.group(3) or low) if m else 0
            if m is None or not 0 < low <= high <= count:
                items.append(item)  # not a square of the board: left for the FEN reader
                continue
            king = m.group(1).strip().upper()
            items.extend(f"{king}{number(n)}" for n in range(low, high + 1))
        fields[i] = body[0] + ",".join(items)
    return ":".join(fields)


def _renumbered(variant: Variant, headers: dict[str, str]) -> Callable[[str], str] | None:
    theirs = record_board(variant, headers)
    if theirs is None:
        return None
    number = renumbering(variant, theirs)

    def view(text: str) -> str:
        return _NUMBER.sub(lambda m: str(number(int(m.group()))), text)

    return view


def view_note(variant: Variant, headers: dict[str, str]) -> str:
    """How :func:`square_view` reads the record's squares, for an error message ("" when
    it reads them as written)."""
    if record_board(variant, headers) is not None:
        gametype = header_value(headers, "GameType").strip()
        return _("numbered as GameType {gametype} numbers the squares").format(gametype=gametype)
    if _turned_round(variant, headers):
        return _("read from the first mover's side")
    return ""


def _turned_round(variant: Variant, headers: dict[str, str]) -> bool:
    site = header_value(headers, "Site").lower()
    first_mover_view = "playstrategy." in site or bool(
        header_value(headers, "P1") or header_value(headers, "P2")
    )
    return first_mover_view and int(variant.rules.first) != 0


def square_view(variant: Variant, headers: dict[str, str]) -> Callable[[str], str]:
    """How a game's move texts name squares: a function from the record's text to
    shashki's.

    Standard PDN names squares as the variant does.  PlayStrategy (tags ``P1``/``P2``,
    or its address in ``Site``) writes algebraic squares as seen by the first mover,
    from a1 at that player's left: for a game where Black moves first (English
    draughts) that is shashki's board turned round, so c3-d4 there is f6-e5 here.  A
    record whose full GameType numbers the squares otherwise than the variant (Thai's
    ``31,B,8,8,N2,0``) has its square numbers read into the variant's
    (:func:`record_board`).
    """
    renumbered = _renumbered(variant, headers)
    if not _turned_round(variant, headers):
        return renumbered or same_text
    board = variant.board

    def turn_round(match: re.Match[str]) -> str:
        name = match.group()
        file = FILES.index(name[0])
        rank = int(name[1:])
        return f"{FILES[board.width - 1 - file]}{board.height + 1 - rank}"

    def view(text: str) -> str:
        if renumbered is not None:
            text = renumbered(text)
        short = _SHORT_TEXT.fullmatch(text)
        if short is not None:  # "ed4": the file turns round with the square
            square = ALG_SQUARE.sub(turn_round, short.group(2))
            return FILES[board.width - 1 - FILES.index(short.group(1))] + square
        return ALG_SQUARE.sub(turn_round, text)

    return view
