"""``shashki match``: games between two players — shashki's levels and Hub engines — with
the colours alternating, openings played in pairs, a progress bar, and every game in a
PDN file.

The referee is shashki's rules: every move is found among the legal moves, and the game
ends as the variant says (no legal move, its draw rules).  A game still going after
``max_plies`` plies is adjudicated a draw.  A Hub engine that stops, hangs or answers an
illegal move loses that game (the reason is written in the PDN) and is started again for
the next one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Protocol

from ..engine.player import LEVELS, ComputerPlayer
from ..i18n import _
from ..records import GameRecord
from ..records.lines import CannotDecode, decoded_lines
from ..records.reader import PdnReader
from ..rules import Game, Move
from ..rules.errors import ShashkiError
from ..rules.move import Color
from ..rules.numbers import bounded_int, quoted
from ..rules.userfiles import UserFileError, open_regular
from ..rules.variant import Variant
from .client import EngineError, HubEngine

#: Plies after which a game is adjudicated a draw.
MAX_PLIES = 400


class Player(Protocol):
    name: str

    def start(self, variant: Variant) -> None: ...

    def move(self, game: Game) -> Move: ...

    def close(self) -> None: ...


class LevelPlayer:
    """One of shashki's levels, at the match's time or depth per move."""

    def __init__(self, level: int, seconds: float | None, depth: int | None, seed: int) -> None:
        self.level = level
        self.player = ComputerPlayer(level, seconds=seconds, depth=depth, seed=seed)
        self.name = f"shashki level {level}"

    def start(self, variant: Variant) -> None:
        pass

    def move(self, game: Game) -> Move:
        move = self.player.think(game)
        if move is None:
            raise ShashkiError("shashki found no move")
        return move

    def close(self) -> None:
        pass


class EnginePlayer:
    """A Hub engine, started again after a failure."""

    def __init__(self, command: str, seconds: float | None, depth: int | None) -> None:
        self.command = command
        self.seconds = seconds
        self.depth = depth
        self.engine: HubEngine | None = None
        self.name = command

    def start(self, variant: Variant) -> None:
        if self.engine is None:
            self.engine = HubEngine(self.command).start()
            self.name = self.engine.name
        self.engine.new_game(variant)

    def move(self, game: Game) -> Move:
        assert self.engine is not None
        try:
            move = self.engine.best_move(game, seconds=self.seconds, depth=self.depth)
        except EngineError:
            self.close()
            raise
        assert move is not None  # (nothing cancels a match's search)
        return move

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def make_player(who: str, seconds: float | None, depth: int | None, seed: int) -> Player:
    """A player from ``1``-``8`` (a level) or ``hub:COMMAND``; raises ShashkiError."""
    text = who.strip()
    if text.lower().startswith("hub:"):
        command = text[4:].strip()
        if not command:
            raise ShashkiError("hub: needs the engine's command, e.g. 'hub:dame hub'")
        return EnginePlayer(command, seconds, depth)
    level = bounded_int(text, max(LEVELS))
    if level is None or level not in LEVELS:
        raise ShashkiError(
            f"a player is a level 1-{max(LEVELS)} or hub:COMMAND, not {quoted(text, 60)}"
        )
    return LevelPlayer(level, seconds, depth, seed)


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
) -> tuple[GameRecord, float, str]:
    """Play one game; (its record, White's score, why it ended)."""
    game = opening.game(variant)
    start_ply = len(game.move_stack)
    for player in (white, black):
        player.start(variant)
    why = ""
    white_score = 0.5
    while True:
        outcome = game.outcome()
        if outcome is not None:
            why = outcome.describe(variant.side_names)
            white_score = (
                0.5 if outcome.winner is None else (1.0 if outcome.winner is Color.WHITE else 0.0)
            )
            break
        if len(game.move_stack) - start_ply >= max_plies:
            why = f"adjudicated a draw after {max_plies} plies"
            white_score = 0.5
            break
        mover = white if game.turn is Color.WHITE else black
        try:
            move = mover.move(game)
            game.push(game.find_move(move))
        except (EngineError, ShashkiError) as exc:
            why = f"{mover.name} lost: {exc}"
            white_score = 0.0 if game.turn is Color.WHITE else 1.0
            break
    record = GameRecord.from_game(game, dict(headers or {}))
    record.result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_score]
    record.headers.setdefault("White", white.name)
    record.headers.setdefault("Black", black.name)
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
            variant, white, black, opening, max_plies=max_plies, headers=headers
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
    "EnginePlayer",
    "LevelPlayer",
    "Opening",
    "Played",
    "make_player",
    "play_game",
    "read_openings",
    "run_match",
    "summary",
]
