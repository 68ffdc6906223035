"""PDN FEN: reading and writing a position.

Accepted: ``W:W31,32,K33:B1,2,3``; numeric or algebraic squares (``Wa3,c3,Kd4``); ranges
(``W31-50``, PDN 3.0); colour sections in either order; an empty side (``B:W50:B``); a
trailing dot; ``?`` for an unknown side to move (the variant's first mover is used); the
legacy doubled prefix ``W:B:W…:B…`` (read as Black to move); optional ``H`` (plies since
the last man move or capture) and ``F`` (full-move number) fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..base.numbers import quoted
from ..i18n import _
from .errors import BadFenError
from .movegen import State

if TYPE_CHECKING:
    from .variant import Variant


#: The largest H or F value read (the game keeps its counters in 24 bits).
MAX_COUNTER = 1_000_000


def _is_number(text: str) -> bool:
    """ASCII digits only, few enough for int() (str.isdigit() also accepts "²")."""
    return text.isascii() and text.isdigit() and len(text) <= 9


@dataclass(frozen=True)
class FenState:
    position: State
    #: Plies since the last man move or capture.
    reversible: int = 0
    #: Full-move number (1 for the first move of the game).
    fullmove: int = 1


@dataclass(frozen=True)
class FenParts:
    """What the FEN reader found, for the generator to build its position from
    (``fen_read``)."""

    white: int
    black: int
    kings: int
    #: The side to move: 0 white, 1 black.
    turn: int
    #: The squares of an ``N`` (colourless) section.
    neutral: int
    #: The ``square=stack`` items: the pieces of a column, bottom to top.
    stacks: Mapping[int, str]
    #: The fields the reader does not know.
    fields: tuple[str, ...]
    #: The whole text, for messages.
    fen: str


def _squares(variant: Variant, text: str, fen: str, stacks: dict[int, str]) -> tuple[int, int]:
    """(pieces, kings) bitboards of one colour section's square list; ``square=stack``
    items (Bashni columns) are also put in ``stacks``."""
    geo = variant.board
    pieces = kings = 0
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        stack = ""
        if "=" in item:
            item, _sep, stack = item.partition("=")
            item, stack = item.strip(), stack.strip()
            if not stack:
                raise BadFenError(
                    _("empty column in {item} in FEN {fen}").format(
                        item=quoted(raw.strip()), fen=quoted(fen, 80)
                    )
                )
        # "K" marks a king; a lower-case "k" too, except on boards that have a k-file
        king = item[:1] == "K" or (item[:1] == "k" and geo.width < 11)
        if king:
            item = item[1:].strip()
        squares: list[int]
        if "-" in item:
            lo_text, _sep, hi_text = item.partition("-")
            if not (_is_number(lo_text.strip()) and _is_number(hi_text.strip())):
                raise BadFenError(
                    _("bad range {item} in FEN {fen}").format(
                        item=quoted(raw.strip()), fen=quoted(fen, 80)
                    )
                )
            lo, hi = int(lo_text), int(hi_text)
            if lo > hi:
                raise BadFenError(
                    _("empty range {item} in FEN {fen}").format(
                        item=quoted(raw.strip()), fen=quoted(fen, 80)
                    )
                )
            try:
                squares = [geo.parse_square(str(n)) for n in range(lo, hi + 1)]
            except ValueError as exc:
                raise BadFenError(
                    _("{reason} in FEN {fen}").format(reason=exc, fen=quoted(fen, 80))
                ) from None
        else:
            try:
                squares = [geo.parse_square(item)]
            except ValueError as exc:
                raise BadFenError(
                    _("{reason} in FEN {fen}").format(reason=exc, fen=quoted(fen, 80))
                ) from None
        for sq in squares:
            bit = 1 << sq
            if pieces & bit:
                raise BadFenError(
                    _("square {square} is listed twice in FEN {fen}").format(
                        square=geo.name(sq), fen=quoted(fen, 80)
                    )
                )
            pieces |= bit
            if king:
                kings |= bit
            if stack:
                stacks[sq] = stack
    return pieces, kings


def parse_fen(variant: Variant, fen: str) -> FenState:
    """Read a FEN for ``variant``; raises BadFenError quoting the text on any mistake."""
    text = fen.strip().strip('"').strip()
    if text.endswith("."):
        text = text[:-1].rstrip()
    if not text:
        raise BadFenError(_("empty FEN"))
    tokens = [t.strip() for t in text.split(":")]
    side_token = tokens[0].upper()
    if side_token not in ("W", "B", "?"):
        raise BadFenError(
            _("FEN {fen} must start with the side to move (W or B)").format(fen=quoted(fen, 80))
        )
    rest = tokens[1:]
    # Legacy doubled prefix "W:B:W…:B…": the second letter is the side to move.
    if (
        len(rest) >= 3
        and rest[0].upper() in ("W", "B")
        and any(t[:1].upper() == "W" and len(t) > 1 for t in rest[1:])
        and any(t[:1].upper() == "B" and len(t) > 1 for t in rest[1:])
    ):
        side_token = rest[0].upper()
        rest = rest[1:]
    if side_token == "?":
        turn = int(variant.rules.first)
    else:
        turn = 0 if side_token == "W" else 1

    white = black = kings = neutral = 0
    seen: set[str] = set()
    reversible, fullmove = 0, 1
    stacks: dict[int, str] = {}
    fields: list[str] = []
    for token in rest:
        if not token:
            raise BadFenError(_("empty field in FEN {fen}").format(fen=quoted(fen, 80)))
        head = token[0].upper()
        if head in ("W", "B", "N") and (head != "N" or not token[1:].isalpha()):
            if head in seen:
                raise BadFenError(
                    _("FEN {fen} lists the {head} pieces twice").format(
                        fen=quoted(fen, 80), head=head
                    )
                )
            seen.add(head)
            pieces, k = _squares(variant, token[1:], fen, stacks)
            overlap = pieces & (white | black | neutral)
            if overlap:
                sq = overlap.bit_length() - 1
                raise BadFenError(
                    _("square {square} is listed in two sections of FEN {fen}").format(
                        square=variant.board.name(sq), fen=quoted(fen, 80)
                    )
                )
            if head == "W":
                white = pieces
            elif head == "B":
                black = pieces
            else:
                neutral = pieces
            kings |= k
        elif head in ("H", "F") and token[1:].isascii() and token[1:].isdigit():
            value = int(token[1:]) if _is_number(token[1:]) else MAX_COUNTER + 1
            if value > MAX_COUNTER:
                raise BadFenError(
                    _("counter {counter} is over {most} in FEN {fen}").format(
                        counter=quoted(token), most=MAX_COUNTER, fen=quoted(fen, 80)
                    )
                )
            if head == "H":
                reversible = value
            else:
                fullmove = max(1, value)
        else:
            fields.append(token)
    parts = FenParts(white, black, kings, turn, neutral, stacks, tuple(fields), fen)
    position = variant.generator.fen_read(parts)
    return FenState(position, reversible, fullmove)


def square_text(variant: Variant, square: int) -> str:
    """A square as the variant writes it: its number or its algebraic name."""
    geo = variant.board
    return str(geo.number(square)) if variant.numeric else geo.name(square)


def format_fen(variant: Variant, position: State, reversible: int = 0, fullmove: int = 1) -> str:
    """The FEN of a position, squares in the variant's notation, in PDN number order."""
    geo = variant.board
    gen = variant.generator
    parts = ["B" if position[3] else "W"]
    for letter, bits in gen.fen_sections(position):
        squares = sorted(geo.positions(bits), key=geo.number)
        items = [gen.fen_item(position, sq, square_text(variant, sq)) for sq in squares]
        parts.append(letter + ",".join(items))
    if reversible or fullmove != 1:
        parts.append(f"H{reversible}")
        parts.append(f"F{fullmove}")
    parts.extend(gen.fen_fields(position))
    return ":".join(parts)
