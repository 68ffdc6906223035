"""The variant of games whose tags name none, guessed from their moves.

PDN says that a game without a ``GameType`` is International draughts, but archives of
other games often leave the tag out: a file of Russian games written ``c3-d4``, an
Italian or English one numbered up to 32.  :func:`guess_variant` reads the first games of
a file that name no variant and guesses theirs in two steps, from the registry alone
(no variant is named here):

1. The notation and the squares used: moves written with letters are read by variants
   that write squares in letters, numbers by those that number them, and every square a
   move or a ``FEN`` tag names must be a playing square of the variant's board.  The
   variants that fit are taken smallest board first, then the variant that is what its
   PDN GameType number means before the others, then by that number (PDN numbered the
   main games first): algebraic squares of an 8×8 board give Russian draughts, numbers
   up to 32 English draughts, up to 50 International draughts.
2. The moves: the sampled games are replayed as each of these variants in that order;
   the first variant under which all of them replay is the guess, and when none does,
   the one under which the most games (then the most moves) replay.  So an untagged
   Italian archive, whose first move is White's, is read as Italian draughts and not as
   English draughts, where Black moves first.

Only the start of the file is read (:data:`SAMPLE_CHARS` characters, of which
:data:`SAMPLE_GAMES` games without a variant at most are used), once for the evidence and
once per variant tried, so the guess costs about the same for an archive of any size.
The guess is a default: a ``GameType`` or ``Variant`` tag still names a game's variant,
and the caller says the guess to the user (:meth:`VariantGuess.line`) and lets them
choose another.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..base.userfiles import open_regular
from ..i18n import _, ngettext
from ..rules import Variant, all_variants
from .fixtures import json_pdn_texts
from .lines import CannotDecode, decoded_lines
from .model import GameRecord
from .reader import PdnReader
from .tags import header_value
from .tokens import MOVE, RESULT, TAG, tokenize

#: How many games without a variant the guess reads, at most.
SAMPLE_GAMES = 12
#: How many tokens of the sample the guess looks at, at most.
SAMPLE_TOKENS = 20_000
#: How many characters of a file's start are read for the guess (whole lines): a game
#: of a megabyte is sampled by its start, and each variant tried replays that much.
SAMPLE_CHARS = 200_000

_ALGEBRAIC = re.compile(r"([a-z])(\d{1,2})")
_CAPTURE_X = re.compile(r"(?<=\d)[x\u00d7]")
_NUMBER = re.compile(r"\d{1,3}")


@dataclass(frozen=True)
class VariantGuess:
    """A guess at the variant of a file's games that name none."""

    variant: Variant
    #: "algebraic" (squares in letters and numbers) or "numeric".
    notation: str
    #: The last square the moves and positions name: "h8", or "32".
    highest: str
    #: How many games without a variant were replayed to check the guess.
    sampled: int
    #: How many of them replay as ``variant``.
    replayed: int
    #: The variants that fit the squares, in the order they were tried.
    tried: tuple[str, ...] = ()

    def describe(self) -> str:
        """The evidence in words, in the language spoken now: "algebraic squares up to
        h8; 12 of 12 games replay"."""
        if self.notation == "algebraic":
            squares = _("squares in letters up to {square}")
        else:
            squares = _("squares numbered up to {square}")
        text = squares.format(square=self.highest)
        if self.sampled:
            text += "; " + ngettext(
                "{ok} of the first {n} game replays",
                "{ok} of the first {n} games replay",
                self.sampled,
            ).format(ok=self.replayed, n=self.sampled)
        return text

    def line(self) -> str:
        """The guess in one line, in the language spoken now."""
        return _(
            "games without a GameType are read as {variant}, guessed from their moves "
            "and positions ({evidence})"
        ).format(variant=self.variant.local_name, evidence=self.describe())


def _names_variant(headers: dict[str, str]) -> bool:
    return bool(
        header_value(headers, "GameType").strip() or header_value(headers, "Variant").strip()
    )


@dataclass
class _Evidence:
    """What the first games without a variant show of their squares."""

    games: int = 0
    letters: set[str] = field(default_factory=set)  # algebraic squares named ("c3")
    numbers: int = 0  # the highest square number named
    algebraic_moves: int = 0
    numeric_moves: int = 0

    def add_move(self, text: str) -> None:
        # "19x12" and "c3xe5": the capture's x is no file letter
        low = _CAPTURE_X.sub(" ", text.lower())
        squares = _ALGEBRAIC.findall(low)
        if squares:
            self.algebraic_moves += 1
            self.letters.update(f + r for f, r in squares)
        elif any(ch.isalpha() for ch in low):
            return  # short notation without a whole square ("ed"): says nothing of the board
        else:
            self.numeric_moves += 1
            self.numbers = max([self.numbers, *(int(n) for n in _NUMBER.findall(low))])

    def add_fen(self, text: str) -> None:
        # "W:W29,30,K31:B1,2" or "W:Wa1,c1:Bh8": every number after a colour letter
        # or comma is a square (a range "1-12" names its ends)
        body = text.split(":", 1)[1] if ":" in text else ""
        for part in re.split(r"[,:]", body):
            part = part.strip().lstrip("WBwbKk").strip()
            if _ALGEBRAIC.fullmatch(part.lower()):
                self.letters.add(part.lower())
            else:
                for n in re.findall(r"\d{1,3}", part):
                    self.numbers = max(self.numbers, int(n))


def _evidence(tokens: Iterable[Any]) -> _Evidence:
    """The squares named by the first :data:`SAMPLE_GAMES` games without a variant."""
    found = _Evidence()
    headers: dict[str, str] = {}
    in_moves = False
    moves: list[str] = []

    def close() -> None:
        if (moves or headers) and not _names_variant(headers):
            found.games += 1
            for text in moves:
                found.add_move(text)
            fen = header_value(headers, "FEN").strip()
            if fen:
                found.add_fen(fen)

    for count, tok in enumerate(tokens):
        if count >= SAMPLE_TOKENS or found.games >= SAMPLE_GAMES:
            break
        if tok.kind == TAG:
            if in_moves or tok.text in headers:
                close()
                headers, moves, in_moves = {}, [], False
            headers[tok.text] = tok.value
        elif tok.kind == MOVE:
            in_moves = True
            moves.append(tok.text)
        elif tok.kind == RESULT:
            in_moves = True
    else:
        close()
        return found
    close()
    return found


def _fits(variant: Variant, seen: _Evidence, algebraic: bool | None) -> bool:
    """Whether ``variant`` writes squares as the moves do (``algebraic``; None: either
    way) and its board has every square they name."""
    board = variant.board
    if algebraic is not None and algebraic != (variant.notation == "algebraic"):
        return False
    if seen.numbers > board.square_count:
        return False
    for name in seen.letters:
        try:
            board.parse_square(name, numeric=False)
        except ValueError:
            return False
    return True


def _order(variant: Variant) -> tuple[int, bool, int]:
    number = variant.gametype_number
    return (
        variant.board.square_count,
        not variant.gametype_primary,
        10**6 if number is None else number,
    )


def candidates(seen: _Evidence) -> tuple[bool, list[Variant]]:
    """(whether the squares are algebraic, the variants whose board holds every square
    seen, in the order they are tried): those that write squares as the moves do, else
    (algebraic squares of a 10×10 board, say) any whose board has them."""
    algebraic = seen.algebraic_moves > seen.numeric_moves or (
        not (seen.algebraic_moves or seen.numeric_moves) and bool(seen.letters) and not seen.numbers
    )
    every = all_variants()
    fit = [v for v in every if _fits(v, seen, algebraic)] or [
        v for v in every if _fits(v, seen, None)
    ]
    fit.sort(key=_order)  # stable: the registry's order among equals
    return algebraic, fit


def _score(games: Iterable[GameRecord]) -> tuple[int, int, int]:
    """(games without a variant read, how many replay, how many of their moves do)."""
    sampled = ok = moves = 0
    for record in games:
        if _names_variant(record.headers):
            continue
        sampled += 1
        ok += record.ok
        moves += len(record.mainline_moves())
        if sampled >= SAMPLE_GAMES:
            break
    return sampled, ok, moves


def guess_from(
    tokens: Callable[[], Iterable[Any]], games: Callable[[Variant], Iterable[GameRecord]]
) -> VariantGuess | None:
    """The guess from a source's ``tokens()`` and its ``games(variant)`` (both read
    from the start each time they are called); None when no game of the sample lacks a
    variant, or no variant's board holds the squares its moves name."""
    seen = _evidence(tokens())
    if not seen.games:
        return None
    algebraic, fit = candidates(seen)
    if not fit:
        return None
    if algebraic:
        top_file = max((s[0] for s in seen.letters), default="a")
        top_rank = max((int(s[1:]) for s in seen.letters), default=1)
        highest = f"{top_file}{top_rank}"
    else:
        highest = str(seen.numbers)
    best: tuple[tuple[int, int], Variant, int, int] | None = None
    for variant in fit:
        sampled, ok, moves = _score(games(variant))
        if best is None or (ok, moves) > best[0]:
            best = ((ok, moves), variant, sampled, ok)
        if ok == sampled:
            break
    assert best is not None
    _, variant, sampled, ok = best
    return VariantGuess(
        variant,
        "algebraic" if algebraic else "numeric",
        highest,
        sampled,
        ok,
        tuple(v.id for v in fit),
    )


def _sample(path: str) -> list[str]:
    """The start of the file at ``path`` as texts of about :data:`SAMPLE_CHARS`
    characters in all: one of whole lines, or a ``.json`` file's first PDN texts (each
    read as a stream of its own, as :func:`~shashki.records.reader.read_file` reads them)."""
    if path.lower().endswith(".json"):
        try:
            items: Iterable[str] = json_pdn_texts(path)
        except ValueError:
            return []
        joined = False
    else:
        items = (piece.text for piece in _lines(path))
        joined = True
    kept: list[str] = []
    size = 0
    for text in items:
        kept.append(text)
        size += len(text) + 1
        if size >= SAMPLE_CHARS:
            break
    return ["\n".join(kept)] if joined else kept


def _lines(path: str) -> Iterator[Any]:
    with open_regular(path) as fh:
        try:
            yield from decoded_lines(fh)
        except CannotDecode:
            return


def guess_variant(path: str | os.PathLike[str]) -> VariantGuess | None:
    """The variant of the games of the file at ``path`` that name none, guessed from the
    first of them (see the module's text); None when the first games all name theirs,
    or nothing fits.  Only the start of the file is read (:data:`SAMPLE_CHARS`).

    Raises OSError when the file cannot be read; bad content never raises.
    """
    return guess_texts(_sample(os.fspath(path)))


def guess_text(text: str) -> VariantGuess | None:
    """:func:`guess_variant` for a PDN text (all of it is sampled)."""
    return guess_texts([text])


def guess_texts(texts: list[str]) -> VariantGuess | None:
    """:func:`guess_variant` for PDN texts, each read as a stream of its own."""

    def tokens() -> Iterator[Any]:
        for text in texts:
            yield from tokenize(decoded_lines(io.StringIO(text)))

    def games(variant: Variant) -> Iterator[GameRecord]:
        for text in texts:
            yield from PdnReader(io.StringIO(text), variant)

    return guess_from(tokens, games)
