"""Positions, moves and command lines as the Hub protocol writes them.

* A position: the side to move (``W``/``B``; version 1 writes it in lower case), then one
  letter per playable square in the variant's numbering order: ``w``/``b`` a man,
  ``W``/``B`` a king, ``e`` empty.
* A move: ``from-to`` for a quiet move, ``fromxtox…`` for a capture with the captured
  squares after the destination, in any order; squares are always numbers (the
  variant's numbering, also where the variant writes algebraic names).
* A command line: a word, then ``name=value`` pairs, a value in double quotes when it
  holds spaces.
* A variant: its Hub name where the variant file gives one (``hub = "…"``), else its id
  (:func:`hub_name`, :func:`variant_by_hub_name`, :func:`hub_variants`).
"""

from __future__ import annotations

import re

from ...base.numbers import bounded_int, quoted
from ...rules import Game, Move, all_variants, find_variant
from ...rules.errors import ShashkiError
from ...rules.move import Color, Kind
from ...rules.variant import Variant

#: The longest line read from the other side (a Hub line is short; a pv is the longest).
MAX_LINE = 64 * 1024
#: The game of the Hub protocol when no ``variant`` parameter names another (a GUI that
#: sets none, an engine that declares none): its Hub name.
DEFAULT_HUB_VARIANT = "normal"


class HubError(ShashkiError):
    """A Hub line or value that cannot be understood."""


def hub_name(variant: Variant) -> str:
    """The name the Hub protocol gives ``variant``: its Hub name, else its id."""
    return variant.hub_name or variant.id


def variant_by_hub_name(name: str) -> Variant:
    """The variant a Hub name (or a shashki id or alias) means; raises HubError (also
    for an empty name, which names no variant)."""
    if not name.strip():
        names = ", ".join(hub_variants()[:5])
        raise HubError(f"no variant named: value={names}, … or a shashki id")
    for variant in all_variants():
        if variant.hub_name and variant.hub_name == name:
            return variant
    try:
        return find_variant(name)
    except ShashkiError:
        raise HubError(f"unknown variant {quoted(name, 40)}") from None


def hub_variants() -> list[str]:
    """The values of the ``variant`` parameter: the Hub names first, then the ids."""
    named = [v.hub_name for v in all_variants() if v.hub_name]
    return named + sorted(v.id for v in all_variants() if not v.hub_name)


_LETTER: dict[tuple[Color | None, Kind], str] = {
    (Color.WHITE, Kind.MAN): "w",
    (Color.BLACK, Kind.MAN): "b",
    (Color.WHITE, Kind.KING): "W",
    (Color.BLACK, Kind.KING): "B",
}


def position_text(game: Game, *, version: int = 2) -> str:
    """The Hub text of ``game``'s position."""
    geo = game.variant.board
    side = "W" if game.turn is Color.WHITE else "B"
    letters = [side.lower() if version == 1 else side]
    for number in range(1, len(geo.by_number)):
        piece = game.piece_at(geo.by_number[number])
        letters.append("e" if piece is None else _LETTER.get((piece.color, piece.kind), "e"))
    return "".join(letters)


def exact_position_text(game: Game, *, version: int = 2) -> str | None:
    """The Hub text of ``game``'s position when its letters say the whole position, else
    None: a man or a king of either side on each square is all they can carry, not a
    column's lower pieces, a piece both sides share or a turn half played (Bashni,
    Artamonov, double move), which a text would silently drop."""
    text = position_text(game, version=version)
    try:
        back = parse_position(game.variant, text)
    except HubError:
        return None
    return text if back.position == game.position else None


def parse_position(variant: Variant, text: str) -> Game:
    """The game at the Hub position ``text``; raises HubError."""
    geo = variant.board
    count = len(geo.by_number) - 1
    body = text.strip()
    if len(body) != count + 1:
        raise HubError(
            f"position {quoted(body, 40)} has {len(body) - 1} squares, {variant.name} has {count}"
        )
    side = body[0]
    if side not in "WBwb":
        raise HubError(f"position {quoted(body, 40)} must start with the side to move, W or B")
    white: list[str] = []
    black: list[str] = []
    for number, letter in enumerate(body[1:], start=1):
        if letter == "w":
            white.append(str(number))
        elif letter == "W":
            white.append(f"K{number}")
        elif letter == "b":
            black.append(str(number))
        elif letter == "B":
            black.append(f"K{number}")
        elif letter != "e":
            raise HubError(f"position {quoted(body, 40)}: {quoted(letter)} is not w, b, W, B or e")
    fen = f"{side.upper()}:W{','.join(white)}:B{','.join(black)}"
    try:
        return Game(variant, fen)  # (numbers are read on every board)
    except (ShashkiError, ValueError) as exc:
        raise HubError(f"position {quoted(body, 40)}: {exc}") from None


def move_text(variant: Variant, move: Move) -> str:
    """The Hub text of ``move``."""
    number = variant.board.number
    if not move.is_capture:
        return f"{number(move.start)}-{number(move.end)}"
    captured = sorted(number(sq) for sq in move.captured)
    return "x".join(str(n) for n in (number(move.start), number(move.end), *captured))


def find_move(game: Game, text: str) -> Move:
    """The legal move of ``game`` that the Hub move ``text`` names; raises HubError."""
    variant = game.variant
    body = text.strip()
    if any(c.isalpha() and c.lower() != "x" for c in body):  # the variant's own notation
        try:
            return game.parse_move(body)
        except (ShashkiError, ValueError) as exc:
            raise HubError(f"move {quoted(body, 40)}: {exc}") from None
    if "x" in body.lower():
        parts = body.lower().split("x")
    else:
        parts = body.split("-")
    last = len(variant.board.by_number) - 1
    squares: list[int] = []
    for part in parts:
        n = bounded_int(part.strip(), last)
        if n is None or n < 1:
            raise HubError(f"move {quoted(body, 40)}: {quoted(part, 10)} is not a square number")
        squares.append(variant.board.by_number[n])
    if len(squares) < 2:
        raise HubError(f"move {quoted(body, 40)} needs a start and an end square")
    start, end, captured = squares[0], squares[1], set(squares[2:])
    legal = game.legal_moves()
    matches = [
        m
        for m in legal
        if m.start == start and m.end == end and (not captured or set(m.captured) == captured)
    ]
    if "x" not in body.lower():
        matches = [m for m in matches if not m.is_capture] or matches
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise HubError(f"move {quoted(body, 40)} is not legal in {game.fen()}")
    # two captures from the same squares over different pieces, the text naming none
    raise HubError(f"move {quoted(body, 40)} is ambiguous: give the captured squares")


_PAIR = re.compile(r'\s*([A-Za-z][A-Za-z0-9_-]*)(?:=("(?:[^"\\]|\\.)*"|\S*))?')


def parse_line(line: str, *, lenient: bool = False) -> tuple[str, dict[str, str]]:
    """(command, {name: value}) of a Hub line; a name without ``=value`` maps to "".
    Raises HubError at what cannot be read, unless ``lenient``: then that word is passed
    over (the specification: ignore what you do not understand)."""
    text = line.strip()
    if not text:
        return "", {}
    head, _, rest = text.partition(" ")
    pairs: dict[str, str] = {}
    pos = 0
    rest = rest.strip()
    while pos < len(rest):
        m = _PAIR.match(rest, pos)
        if not m or m.end() == pos:
            if not lenient:
                raise HubError(f"cannot read {quoted(rest[pos:], 40)} in {quoted(text, 80)}")
            pos = rest.find(" ", pos + 1) if " " in rest[pos + 1 :] else len(rest)
            while pos < len(rest) and rest[pos] == " ":
                pos += 1
            continue
        value = m.group(2) or ""
        if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        pairs[m.group(1)] = value
        pos = m.end()
        while pos < len(rest) and rest[pos] == " ":
            pos += 1
    return head, pairs


def format_value(value: str) -> str:
    """A value as a Hub line writes it: quoted when it holds a space or a quote."""
    if value and not any(c in value for c in ' "\t='):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def line(command: str, **pairs: object) -> str:
    """A Hub line: ``command name=value …`` (``None`` values left out)."""
    parts = [command]
    for name, value in pairs.items():
        if value is None:
            continue
        parts.append(f"{name.replace('_', '-')}={format_value(str(value))}")
    return " ".join(parts)
