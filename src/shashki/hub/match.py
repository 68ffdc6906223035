"""``shashki match``: games between two players — shashki's levels and Hub engines — with
the colours alternating, openings played in pairs, a progress bar, and every game in a
PDN file.

The referee is shashki's rules: every move is found among the legal moves, and the game
ends as the variant says (no legal move, its draw rules).  A game still going after
``max_plies`` plies is adjudicated a draw.  A Hub engine that stops, hangs or answers an
illegal move loses that game (the reason is written in the PDN) and is started again for
the next one.  Each game is a :class:`~shashki.session.GameSession`, as in the app: on a
clock (``--clock 1+0.5``), a flag fall loses.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from ..engine.player import LEVELS
from ..i18n import _
from ..records import GameRecord
from ..records.clocks import TimeControl
from ..records.lines import CannotDecode, decoded_lines
from ..records.reader import PdnReader
from ..rules import Game, Move
from ..rules.errors import ShashkiError
from ..rules.limits import Limit
from ..rules.move import Color
from ..rules.numbers import quoted
from ..rules.userfiles import UserFileError, open_regular
from ..rules.variant import Variant
from ..session.clock import GameClock
from ..session.game import GameSession
from ..session.players import Computer, Player, PlayerFailed
from ..session.seats import parse_seat
from .player import make_player as make_seat_player

#: Seconds a match spends around a move on a clock (the pipe to an engine, the rules'
#: check of its move): kept off the clock's share.
MOVE_OVERHEAD = 0.05

#: Plies after which a game is adjudicated a draw.
MAX_PLIES = 400


def make_player(who: str, *, seed: int) -> Player:
    """A player from the command line's words: a level ``1``-``8``, ``hub:COMMAND``, or
    an engine named in the settings (:func:`~shashki.session.seats.parse_seat`); raises
    ShashkiError."""
    text = who.strip()
    if text.lower().startswith("hub:") and not text[4:].strip():
        raise ShashkiError("hub: needs the engine's command, e.g. 'hub:dame hub'")
    kind = parse_seat(text)
    if kind is None or kind == "human":
        raise ShashkiError(
            f"a player is a level 1-{max(LEVELS)}, hub:COMMAND or an engine named in the "
            f"settings, not {quoted(text, 60)}"
        )
    if kind.startswith("computer-"):
        level = int(kind[9:])
        return Computer(level, f"shashki level {level}", seed=seed)
    return make_seat_player(kind, text, seed=seed)


@dataclass
class Opening:
    """A start position and the moves played from it before the players take over."""

    fen: str | None
    moves: list[Move] = field(default_factory=list)
    label: str = ""

    def game(self, variant: Variant) -> Game:
        game = Game(variant, self.fen) if self.fen else Game(variant)
        for move in self.moves:
            game.push(move)
        return game


#: The longest opening: the characters of a line, the plies of a PDN game's main line.
MAX_OPENING_CHARS = 4096
MAX_OPENING_PLIES = 200


def read_openings(path: str, variant: Variant, count: int | None = None) -> list[Opening]:
    """The first ``count`` openings of a file (all of them when None): the games of a
    PDN file (each its start and main line), or one opening a line (a FEN, or moves
    from the start; ``#`` starts a comment).  The file is read as a stream, up to the
    last opening asked for; an opening longer than :data:`MAX_OPENING_CHARS`
    characters or :data:`MAX_OPENING_PLIES` plies is refused.  Raises ShashkiError."""
    try:
        with open_regular(path) as handle:
            pdn = _is_pdn(handle)
            handle.seek(0)
            if pdn:
                openings = _pdn_openings(handle, path, variant, count)
            else:
                openings = _line_openings(handle, path, variant, count)
    except (OSError, UserFileError, CannotDecode) as exc:
        raise ShashkiError(
            _("cannot read openings {path}: {reason}").format(path=quoted(path, 80), reason=exc)
        ) from None
    if not openings:
        raise ShashkiError(_("no openings in {path}").format(path=quoted(path, 80)))
    return openings


def _is_pdn(handle: IO[bytes]) -> bool:
    """Whether the first line that is not blank nor a ``#`` comment starts as PDN does
    (a tag, a comment, an escape line)."""
    for piece in decoded_lines(handle):
        body = piece.text.strip()
        if body and not body.startswith("#"):
            return body[0] in "[{%;"
    return False


def _pdn_openings(
    handle: IO[bytes], path: str, variant: Variant, count: int | None
) -> list[Opening]:
    openings: list[Opening] = []
    reader = PdnReader(handle, variant)
    while count is None or len(openings) < count:
        record = reader.read_game()
        if record is None:
            break
        where = _("{path}, the game at line {line}").format(path=quoted(path, 80), line=record.line)
        if record.errors:
            raise ShashkiError(f"{where}: {record.errors[0]}")
        if record.variant is not variant:
            raise ShashkiError(
                _("{where} is not {variant}").format(where=where, variant=variant.local_name)
            )
        moves = record.mainline_moves()
        if len(moves) > MAX_OPENING_PLIES:
            raise ShashkiError(
                _("{where} has {plies} plies: an opening has at most {most}").format(
                    where=where, plies=len(moves), most=MAX_OPENING_PLIES
                )
            )
        openings.append(Opening(record.fen, moves, f"line {record.line}"))
    return openings


def _line_openings(
    handle: IO[bytes], path: str, variant: Variant, count: int | None
) -> list[Opening]:
    openings: list[Opening] = []
    number = 0
    for piece in decoded_lines(handle):
        if count is not None and len(openings) >= count:
            break
        if piece.offset:  # (the rest of a line over a megabyte: already refused)
            continue
        number += 1
        if len(piece.text) > MAX_OPENING_CHARS:
            raise ShashkiError(
                _(
                    "{path}, line {line}: longer than {most} characters, too long for an opening"
                ).format(path=quoted(path, 80), line=number, most=MAX_OPENING_CHARS)
            )
        body = piece.text.split("#", 1)[0].strip()
        if not body:
            continue
        try:
            if body[:2].upper() in ("W:", "B:"):
                Game(variant, body)
                openings.append(Opening(body, [], f"line {number}"))
            else:
                game = Game(variant)
                moves = [game.push_text(token) for token in body.split()]
                openings.append(Opening(None, moves, f"line {number}"))
        except (ShashkiError, ValueError) as exc:
            raise ShashkiError(
                _("{path}, line {line}: {reason}").format(
                    path=quoted(path, 80), line=number, reason=exc
                )
            ) from None
    return openings


@dataclass
class Played:
    """One game of the match: who had White, the record, and the first player's score."""

    round: int
    first_white: bool
    record: GameRecord
    score: float
    why: str


def summary(scores: list[float]) -> tuple[float, float, float, float]:
    """(mean score, its 95% margin, Elo difference, Elo margin) over the game scores."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(1, n - 1)
    margin = 1.96 * math.sqrt(var / n)

    def elo(p: float) -> float:
        p = min(max(p, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / p - 1)

    spread = (elo(min(mean + margin, 0.999)) - elo(max(mean - margin, 0.001))) / 2
    return mean, margin, elo(mean), spread


def play_game(
    variant: Variant,
    white: Player,
    black: Player,
    opening: Opening,
    *,
    max_plies: int = MAX_PLIES,
    headers: dict[str, str] | None = None,
    limit: Limit | None = None,
    clock: TimeControl | None = None,
) -> tuple[GameRecord, float, str]:
    """Play one game in a :class:`~shashki.session.GameSession`, within ``limit`` a move
    or on ``clock`` (a flag fall loses); (its record, White's score, why it ended)."""
    game = opening.game(variant)
    session = GameSession(
        game,
        (white, black),
        clock=GameClock(clock) if clock is not None else None,
        limit=limit,
        headers=dict(headers or {}),
        overhead=MOVE_OVERHEAD,
    )
    failed: tuple[Player, PlayerFailed] | None = None
    for player in (white, black):
        try:
            player.start(variant)
        except PlayerFailed as exc:
            failed = (player, exc)
            break
    if failed is None:
        try:
            session.run(max_plies=max_plies)
        except PlayerFailed as exc:
            failed = (session.player_to_move, exc)
    session.stop_clock()
    outcome = session.outcome
    if failed is not None:
        loser, failure = failed
        why = f"{loser.name} lost: {failure}"
        white_score = 0.0 if loser is white else 1.0
    elif outcome is not None:
        why = outcome.describe(variant.side_names)
        white_score = (
            0.5 if outcome.winner is None else (1.0 if outcome.winner is Color.WHITE else 0.0)
        )
    else:
        why = f"adjudicated a draw after {max_plies} plies"
        white_score = 0.5
    record = session.record()
    record.result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_score]
    record.headers["Result"] = record.result
    record.headers["Termination"] = why
    return record, white_score, why


def run_match(
    variant: Variant,
    first: Player,
    second: Player,
    *,
    games: int,
    openings: list[Opening],
    max_plies: int = MAX_PLIES,
    limit: Limit | None = None,
    clock: TimeControl | None = None,
    limit_text: str = "",
    on_game: Callable[[Played], None] | None = None,
) -> list[Played]:
    """Play ``games`` games; ``first`` takes White in the odd ones (1, 3, …).  Opening
    ``i // 2`` starts games ``i`` and ``i + 1`` (each player White once)."""
    played: list[Played] = []
    date = time.strftime("%Y.%m.%d")
    for index in range(games):
        first_white = index % 2 == 0
        opening = openings[(index // 2) % len(openings)]
        white, black = (first, second) if first_white else (second, first)
        headers = {
            "Event": f"shashki match{': ' + limit_text if limit_text else ''}",
            "Date": date,
            "Round": str(index + 1),
        }
        if opening.label:
            headers["Opening"] = opening.label
        record, white_score, why = play_game(
            variant,
            white,
            black,
            opening,
            max_plies=max_plies,
            headers=headers,
            limit=limit,
            clock=clock,
        )
        score = white_score
        if not first_white:
            score = 1.0 - score
        game = Played(index + 1, first_white, record, score, why)
        played.append(game)
        if on_game is not None:
            on_game(game)
    return played


__all__ = [
    "Opening",
    "Played",
    "make_player",
    "play_game",
    "read_openings",
    "run_match",
    "summary",
]
