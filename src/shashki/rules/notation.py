"""Moves as text, in each variant's own notation.

Written: ``32-28`` and ``19x30`` (numeric games), ``c3-d4`` and ``c3:e5`` or ``c3xe5``
(algebraic games, with the variant's capture mark), with every landing square
(``c3:e5:c7``) when the short form would be ambiguous, or when asked for.

Typed (:func:`parse_typed_move`, what a player writes in a move box): every form read, and
squares run together (``c3d4``, ``3228``) or apart (``c3 d4``), or the landing square alone
(``d4``) when it names one move; an ambiguous short form is answered with the moves meant.

Read: numeric or algebraic squares, ``-``, ``x``, ``X``, ``×`` and ``:`` as separators
(a capture written with ``-`` or a quiet move with ``x`` is still found), intermediate
landing squares optional.  A text must match exactly one legal move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import TypeVar

from ..base.numbers import quoted
from ..i18n import _
from .errors import AmbiguousMoveError, IllegalMoveError, NotationError, ShashkiError
from .fen import format_fen, square_text
from .move import MoveLike
from .movegen import State
from .variant import Variant

_SEPARATORS = re.compile(r"\s*[-x×:X]\s*")
#: What a square of a move text looks like, on this board or not (a letter, not the capture
#: mark x, with one or two digits; or a number): "z9-z8" is a move in shape, refused with
#: the square at fault, not as words.
_SQUARE = re.compile(r"[^\W\d_xX][0-9]{1,2}|[0-9]{1,3}")

#: Either form of a move (the library's or the generators'): what is read is returned.
M = TypeVar("M", bound=MoveLike)


def move_text(
    variant: Variant,
    move: MoveLike,
    legal: Sequence[MoveLike] | None = None,
    *,
    full: bool = False,
) -> str:
    """``move`` in the variant's notation.

    The short form names the start and end squares; every landing square is written when
    ``full`` is set, or when another move of ``legal`` has the same start and end.
    """
    sep = variant.capture_mark if move.is_capture else "-"
    path = move.path
    if path[0] == path[-1]:
        full = True  # a capture that comes back to its start square: "c1:c1" would say nothing
    elif not full and legal is not None:
        full = any(
            m.start == move.start
            and m.end == move.end
            and (m.path != move.path or m.captured != move.captured)
            for m in legal
        )
    if not full or len(path) == 2:
        squares: tuple[int, ...] = (path[0], path[-1])
    else:
        squares = tuple(path)
    return sep.join(square_text(variant, sq) for sq in squares)


def split_move_text(variant: Variant, text: str) -> list[int]:
    """The squares named in a move text; raises NotationError if it is not a move text."""
    t = text.strip()
    parts = [p for p in _SEPARATORS.split(t) if p]
    if len(parts) < 2 or not all(_SQUARE.fullmatch(p) for p in parts):
        raise NotationError(
            _("{text} is not a move: write it like {move} or {capture}").format(
                text=quoted(text),
                move=quoted("32-28" if variant.numeric else "c3-d4"),
                capture=quoted("19x30" if variant.numeric else "c3:e5"),
            )
        )
    try:
        return [variant.board.parse_square(p) for p in parts]
    except ValueError as exc:
        raise NotationError(_("{text}: {reason}").format(text=quoted(text), reason=exc)) from None


def _implied_captures(variant: Variant, position: State, squares: list[int]) -> int | None:
    """The pieces jumped along a path given landing square by landing square, as a
    bitboard, or None if some step is not a jump over exactly one piece on a line."""
    geo = variant.board
    occupied = position[0] | position[1]
    captured = 0
    for a, b in pairwise(squares):
        for d in range(8):
            ray = geo.ray[d][a]
            if b in ray:
                between = ray[: ray.index(b)]
                pieces = [q for q in between if occupied >> q & 1 and q != squares[0]]
                if len(pieces) != 1:
                    return None
                captured |= 1 << pieces[0]
                break
        else:
            return None
    return captured


def _mask(squares: Sequence[int]) -> int:
    bits = 0
    for sq in squares:
        bits |= 1 << sq
    return bits


def _is_subsequence(needle: Sequence[int], hay: Sequence[int]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def parse_move(variant: Variant, text: str, legal: Sequence[M], position: State) -> M:
    """The one legal move that ``text`` names.

    Raises NotationError (not a move text), IllegalMoveError (no legal move matches) or
    AmbiguousMoveError (several do; the message lists them in full).
    """
    squares = split_move_text(variant, text)
    start, end, middle = squares[0], squares[-1], squares[1:-1]
    candidates = [m for m in legal if m.start == start and m.end == end]
    # A text that is the full path of a legal move names that move, even when its landing
    # squares are also a subsequence of a longer capture's path ("e3:a7" beside
    # "e3:g5:e7:c5:a7").
    exact = [m for m in candidates if list(m.path) == squares]
    if len(exact) == 1:
        return exact[0]
    if middle and candidates:
        by_path = [m for m in candidates if _is_subsequence(middle, m.path[1:-1])]
        if not by_path:
            implied = _implied_captures(variant, position, squares)
            if implied is not None:
                by_path = [m for m in candidates if implied & _mask(m.captured) == implied]
        candidates = by_path
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise IllegalMoveError(
            _("{text} is not a legal move in {fen}").format(
                text=quoted(text.strip()), fen=format_fen(variant, position)
            )
        )
    options = ", ".join(move_text(variant, m, full=True) for m in candidates)
    raise AmbiguousMoveError(
        _("{text} is ambiguous: it could be {moves}").format(
            text=quoted(text.strip()), moves=options
        ),
        candidates,
    )


_SHORT = re.compile(r"([a-lA-L])([a-lA-L](?:1[0-2]|[1-9]))")


def parse_short_move(variant: Variant, text: str, legal: Sequence[M]) -> M:
    """The one legal move that a Russian short-notation text names: the start square's
    file and the end square, ``ed4`` for e3-d4 (captures unmarked: ``ce7`` for c5:e7).

    Raises NotationError (not such a text), IllegalMoveError or AmbiguousMoveError.
    """
    m = _SHORT.fullmatch(text.strip())
    if m is None:
        raise NotationError(f"{quoted(text)} is not a short move: write it like 'ed4'")
    geo = variant.board
    file = m.group(1).lower()
    try:
        end = geo.parse_square(m.group(2), numeric=False)
    except ValueError as exc:
        raise NotationError(f"{quoted(text)}: {exc}") from None
    candidates = [mv for mv in legal if mv.end == end and geo.name(mv.start)[0] == file]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise IllegalMoveError(f"{quoted(text.strip())} names no legal move (short notation)")
    options = ", ".join(move_text(variant, mv, full=True) for mv in candidates)
    raise AmbiguousMoveError(
        f"{quoted(text.strip())} is ambiguous: it could be {options}", candidates
    )


#: Squares written apart ("c3 d4") or run together ("c3d4", "C3D4"): letters and ranks.
_APART = re.compile(r"[a-l](?:1[0-2]|[1-9])(?:\s+[a-l](?:1[0-2]|[1-9]))+|\d{1,3}(?:\s+\d{1,3})+")
_GLUED = re.compile(r"(?:[a-l](?:1[0-2]|[1-9])){2,}")
_ALGEBRAIC = re.compile(r"[a-l](?:1[0-2]|[1-9])")


def _digit_splits(digits: str, last: int) -> list[list[str]]:
    """Every way to cut ``digits`` into two or more square numbers (1 to ``last``, no
    leading zero): "3228" is 32-28 on a 50-square board, "328" is 3-28 or 32-8."""
    out: list[list[str]] = []

    def cut(rest: str, parts: list[str]) -> None:
        if not rest:
            if len(parts) >= 2:
                out.append(parts)
            return
        for size in (1, 2, 3):
            head = rest[:size]
            if len(head) == size and head[0] != "0" and int(head) <= last:
                cut(rest[size:], [*parts, head])

    if len(digits) <= 12:  # a capture of up to six landing squares written without marks
        cut(digits, [])
    return out


def typed_move_text(text: str) -> str:
    """A player's move text with its squares apart or run together joined by "-"
    (``c3 d4``, ``C3D4`` -> ``c3-d4``); any other text as it is, stripped."""
    t = text.strip()
    low = t.lower()
    if _APART.fullmatch(low):
        return "-".join(low.split())
    if _GLUED.fullmatch(low):
        return "-".join(_ALGEBRAIC.findall(low))
    return t


def parse_typed_move(variant: Variant, text: str, legal: Sequence[M], position: State) -> M:
    """The one legal move that a player's ``text`` names: every form :func:`parse_move`
    reads, and also squares apart (``c3 d4``) or run together (``c3d4``, numeric
    ``3228`` where only one cut into squares names a legal move), in either case, or the
    landing square alone (``d4``) when one legal move goes there.

    Raises NotationError, IllegalMoveError, or AmbiguousMoveError naming the moves meant
    ("d4: c3-d4 or e3-d4?"), its ``moves`` the candidates.
    """
    t = typed_move_text(text)
    low = t.lower()
    if t != text.strip():
        return parse_move(variant, t, legal, position)
    if low.isdigit() and low.isascii():
        # numbers alone: a landing square ("28") or squares run together ("3228"), read
        # every way that fits; a move only when all the ways together name one move
        last = len(variant.board.by_number) - 1
        cuts = _digit_splits(low, last)
        whole = int(low) if len(low) <= 3 and low[0] != "0" and int(low) <= last else None
        found: list[M] = []
        if whole is not None:
            found = [m for m in legal if m.end == variant.board.by_number[whole]]
        found.extend(m for m in _cut_moves(variant, cuts, legal, position) if m not in found)
        if len(found) == 1:
            return found[0]
        if found:
            raise _ambiguous(variant, t, found, legal)
        if whole is not None and not cuts:
            raise IllegalMoveError(_("No legal move goes to {square}.").format(square=low))
        if whole is not None or cuts:
            raise IllegalMoveError(
                _("{text} is not a legal move in {fen}").format(
                    text=quoted(t), fen=format_fen(variant, position)
                )
            )
    if _SQUARE.fullmatch(t):
        try:
            end = variant.board.parse_square(t)
        except ValueError as exc:
            raise NotationError(_("{text}: {reason}").format(text=quoted(t), reason=exc)) from None
        going = [m for m in legal if m.end == end]
        if len(going) == 1:
            return going[0]
        if not going:
            raise IllegalMoveError(
                _("No legal move goes to {square}.").format(square=square_text(variant, end))
            )
        raise _ambiguous(variant, t, going, legal)
    return parse_move(variant, t, legal, position)


def _cut_moves(
    variant: Variant, cuts: list[list[str]], legal: Sequence[M], position: State
) -> list[M]:
    """The legal moves the cuts of a number into squares name (an empty cut is none)."""
    found: list[M] = []
    for parts in cuts:
        if not parts:
            continue
        try:
            move = parse_move(variant, "-".join(parts), legal, position)
        except AmbiguousMoveError as exc:
            found.extend(m for m in exc.moves if m not in found)  # type: ignore[misc]
            continue
        except ShashkiError:
            continue
        if move not in found:
            found.append(move)
    return found


def _ambiguous(
    variant: Variant, text: str, moves: Sequence[M], legal: Sequence[M]
) -> AmbiguousMoveError:
    """The question a short form several moves fit asks back: "d4: c3-d4 or e3-d4?"."""
    names = sorted(move_text(variant, m, legal) for m in moves)
    return AmbiguousMoveError(
        _("{text}: {moves} or {last}?").format(
            text=text, moves=", ".join(names[:-1]), last=names[-1]
        ),
        moves,
    )
