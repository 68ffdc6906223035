"""``shashki match``: games between two players — shashki's levels and Hub engines — with
the colours alternating, openings played in pairs, a progress bar, and every game in a
PDN file.

The referee is the game session, as in the app (:class:`~shashki.session.GameSession`,
driven on this thread): every move is found among the legal moves, and the game ends as
the variant says (no legal move, its draw rules); on a clock (``--clock 1+0.5``) a flag
fall loses.  The match picks the session's policies: a game still going after
``max_plies`` plies is adjudicated a draw; a Hub engine that stops, hangs or answers an
illegal move loses that game by forfeit (the reason is written in the PDN) and is
started again for the next one.  The match never writes a result of its own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from ..base.numbers import quoted
from ..base.userfiles import UserFileError, open_regular
from ..engine.limits import Limit
from ..engine.player import LEVELS
from ..i18n import _, ngettext
from ..records import GameRecord
from ..records.clocks import TimeControl
from ..records.lines import CannotDecode, decoded_lines
from ..records.reader import PdnReader
from ..rules import Game, Move
from ..rules.errors import ShashkiError
from ..rules.move import Color
from ..rules.variant import Variant
from ..session.clock import GameClock
from ..session.driver import InlineExecutor
from ..session.game import GameSession, MovePlayed, OnFailure
from ..session.players import Player
from ..session.recorder import Recorder
from ..session.seats import Engines, LevelSeat, PersonSeat, parse_seat
from .player import make_player

if TYPE_CHECKING:
    from ..store.storage import GameLog

#: Seconds a match spends around a move on a clock (the pipe to an engine, the rules'
#: check of its move): kept off the clock's share.
MOVE_OVERHEAD = 0.05

#: Plies after which a game is adjudicated a draw.
MAX_PLIES = 400


def match_player(who: str, *, seed: int, engines: Engines = ()) -> Player:
    """A player of the match from the command line's words: a level ``1``-``8``,
    ``hub:COMMAND``, ``dxp:HOST:PORT`` or one of ``engines`` (the settings') by name (the one
    parser, :func:`~shashki.session.seats.parse_seat`, and the one maker,
    :func:`~shashki.hub.player.make_player`); raises ShashkiError."""
    text = who.strip()
    if text.lower().startswith("hub:") and not text[4:].strip():
        raise ShashkiError(
            _("hub: needs the engine's command, e.g. {example}").format(
                example=quoted("hub:dame hub")
            )
        )
    seat = parse_seat(text, engines=engines)
    if seat is None or isinstance(seat, PersonSeat):
        raise ShashkiError(
            _(
                "a player is a level 1-{last}, hub:COMMAND, dxp:HOST:PORT or an engine "
                "named in the settings, not {words}"
            ).format(last=max(LEVELS), words=quoted(text, 60))
        )
    name = f"shashki level {seat.level}" if isinstance(seat, LevelSeat) else text
    return make_player(seat, name, seed=seed, engines=engines)


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


#: The two-sided 95% quantile of the normal law.
Z95 = 1.96
#: The fewest games a margin is said for: below it the estimate of the spread of the
#: results is itself too rough to be worth a figure (and two games give no Elo).
MIN_GAMES_FOR_MARGIN = 10


def elo_of(score: float) -> float:
    """The Elo difference that a mean score of ``score`` (0 < score < 1) stands for."""
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class MatchStats:
    """A match's result for its first player, and what the games tell of its strength.

    The margin is the 95% confidence half-width of the mean score, from the spread of
    the results: per pair of games (*pentanomial*: the two games of an opening, each
    player White once, scored 0, ¼, ½, ¾ or 1 a pair) when the games come in whole
    pairs, else per game (*trinomial*: 0, ½ or 1).  The pentanomial estimate is the one
    to use for paired games: the two games of a pair are not independent (the opening
    favours one colour), and per game the margin would be too wide.  It is said only
    from :data:`MIN_GAMES_FOR_MARGIN` games on and when the results differ (results all
    alike give a spread of 0, which says nothing), and the Elo difference only with it.
    """

    games: int
    wins: int
    draws: int
    losses: int
    points: float
    mean: float
    #: "pentanomial" (per pair of games) or "trinomial" (per game).
    model: str
    #: How many pairs (pentanomial) or games (trinomial) the spread is taken over.
    units: int
    #: The 95% half-width of the mean score; None when it would mean nothing.
    margin: float | None
    #: The Elo difference and its 95% interval (a bound is ±inf when the score's
    #: interval reaches 0% or 100%); None without a margin, or at 0% or 100%.
    elo: float | None
    elo_low: float | None
    elo_high: float | None

    def describe(self) -> str:
        """The score, its margin and Elo in words: ``score 6/10 = 60.0% ± 22.3% (95%,
        pentanomial over 5 pairs), Elo +70 (95%: -88 to +268)``."""
        text = _("score {points}/{games} = {percent}%").format(
            points=f"{self.points:g}", games=self.games, percent=f"{self.mean * 100:.1f}"
        )
        if self.margin is None:
            if self.games < MIN_GAMES_FOR_MARGIN:
                why = ngettext(
                    "no margin nor Elo from {n} game: {least} at least",
                    "no margin nor Elo from {n} games: {least} at least",
                    self.games,
                ).format(n=self.games, least=MIN_GAMES_FOR_MARGIN)
            elif self.model == "pentanomial":
                why = _("no margin nor Elo: every pair scored the same")
            else:
                why = _("no margin nor Elo: every game ended the same")
            return f"{text} ({why})"
        if self.model == "trinomial":
            over = ngettext("{n} game", "{n} games", self.units).format(n=self.units)
            model = _("trinomial")
        else:
            over = ngettext("{n} pair", "{n} pairs", self.units).format(n=self.units)
            model = _("pentanomial")
        text = _("{score} ± {margin}% (95%, {model} over {over})").format(
            score=text, margin=f"{self.margin * 100:.1f}", model=model, over=over
        )
        if self.elo is None:
            return _("{score}, no Elo at a score of 0% or 100%").format(score=text)
        low, high = (
            "-inf" if self.elo_low is None or math.isinf(self.elo_low) else f"{self.elo_low:+.0f}",
            "+inf"
            if self.elo_high is None or math.isinf(self.elo_high)
            else f"{self.elo_high:+.0f}",
        )
        return _("{score}, Elo {elo} (95%: {low} to {high})").format(
            score=text, elo=f"{self.elo:+.0f}", low=low, high=high
        )


def match_stats(scores: list[float], *, paired: bool = True) -> MatchStats:
    """The statistics of a match from its first player's game scores (1, ½, 0), in the
    order played.  ``paired``: games ``2i`` and ``2i + 1`` are one opening with the
    colours swapped (as :func:`run_match` plays them), so an even number of games is
    taken per pair (pentanomial), an odd one per game (trinomial).  Raises ValueError
    for no games."""
    n = len(scores)
    if n == 0:
        raise ValueError("no games")
    points = sum(scores)
    mean = points / n
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    if paired and n % 2 == 0:
        model = "pentanomial"
        units = [(scores[i] + scores[i + 1]) / 2 for i in range(0, n, 2)]
    else:
        model = "trinomial"
        units = list(scores)
    # the variance of one unit's score, from the results' frequencies, and of the mean
    variance = sum((u - mean) ** 2 for u in units) / len(units)
    margin: float | None = Z95 * math.sqrt(variance / len(units))
    if n < MIN_GAMES_FOR_MARGIN or variance == 0:
        margin = None
    elo = low = high = None
    if margin is not None and 0 < mean < 1:
        elo = elo_of(mean)
        low = elo_of(mean - margin) if mean - margin > 0 else -math.inf
        high = elo_of(mean + margin) if mean + margin < 1 else math.inf
    return MatchStats(
        n, wins, draws, n - wins - draws, points, mean, model, len(units), margin, elo, low, high
    )


def clock_text(seconds: float) -> str:
    """A clock as players read it: ``4:05``, tenths under ten seconds (``0:09.4``)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:0{math.floor(seconds * 10) / 10:.1f}"
    whole = math.floor(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def clocks_text(variant: Variant, clock: GameClock) -> str:
    """Both clocks, as the progress line shows them: ``White 0:41, Black 0:37``."""
    return ", ".join(
        f"{variant.side_names[side]} {clock_text(clock.left(side))}"
        for side in (Color.WHITE, Color.BLACK)
    )


def progress_text(round_: int, games: int, session: GameSession, *, clocks: bool = True) -> str:
    """Where a game of the match stands, for its progress line: ``game 3/10: move 12,
    White to move, White 0:41, Black 0:37`` (the clocks when it is played on one and
    ``clocks`` is true)."""
    game = session.game
    variant = game.variant
    text = f"game {round_}/{games}: move {game.fullmove_number}"
    if session.outcome is None:
        text += f", {variant.side_names[game.turn]} to move"
    if clocks and session.clock is not None:
        text += ", " + clocks_text(variant, session.clock)
    return text


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
    on_move: Callable[[GameSession], None] | None = None,
    log: GameLog | None = None,
    on_log_failure: Callable[[str], None] | None = None,
) -> tuple[GameRecord, float, str]:
    """Play one game in a :class:`~shashki.session.GameSession`, within ``limit`` a move
    or on ``clock``, on this thread; (its record, White's score, why it ended).  The
    session is the referee, with a match's policies: a player that fails loses the game
    by forfeit, a flag fall loses on time, a game still going after ``max_plies`` plies
    is adjudicated a draw — the record says so as the session wrote it.  Its recorder
    appends the game to ``log`` as it ends (``on_log_failure(reason)`` if it cannot).
    ``on_move(session)`` is called once the game starts and after every move."""
    game = opening.game(variant)
    session = GameSession(
        game,
        (white, black),
        clock=GameClock(clock) if clock is not None else None,
        limit=limit,
        headers=dict(headers or {}),
        overhead=MOVE_OVERHEAD,
        on_failure=OnFailure.LOSE,
        max_plies=max_plies,
    )
    if log is not None:
        Recorder(session, log=log, on_log_failure=on_log_failure)
    if on_move is not None:
        session.subscribe(lambda event: on_move(session) if isinstance(event, MovePlayed) else None)
        on_move(session)
    session.start(InlineExecutor())  # (the whole game, here: every player is a program)
    outcome = session.outcome
    for player in (white, black):
        player.game_over(session.game)  # (a player holding the game itself hears its end)
    if outcome is None:  # (cannot be: a program that stops answering forfeits)
        raise ShashkiError(f"the game of {white.name} and {black.name} did not end")
    white_score = 0.5 if outcome.winner is None else (1.0 if outcome.winner is Color.WHITE else 0.0)
    # (why it ended, for the screen: in the language spoken, the sides as the variant names them)
    return session.record(), white_score, outcome.describe(variant=variant)


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
    on_move: Callable[[int, GameSession], None] | None = None,
    log: GameLog | None = None,
    on_log_failure: Callable[[str], None] | None = None,
) -> list[Played]:
    """Play ``games`` games; ``first`` takes White in the odd ones (1, 3, …).  Opening
    ``i // 2`` starts games ``i`` and ``i + 1`` (each player White once).  Each game is
    appended to ``log`` as it ends (an interruption keeps them) until it cannot be
    (``on_log_failure(reason)``, once: the games after are not written).
    ``on_game(played)`` is called after each game, ``on_move(round, session)`` as a game
    starts and after each of its moves."""
    played: list[Played] = []

    def log_failed(reason: str) -> None:
        nonlocal log
        log = None
        if on_log_failure is not None:
            on_log_failure(reason)

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
            on_move=None if on_move is None else _round_of(on_move, index + 1),
            log=log,
            on_log_failure=log_failed,
        )
        score = white_score
        if not first_white:
            score = 1.0 - score
        game = Played(index + 1, first_white, record, score, why)
        played.append(game)
        if on_game is not None:
            on_game(game)
    return played


def _round_of(
    on_move: Callable[[int, GameSession], None], round_: int
) -> Callable[[GameSession], None]:
    return lambda session: on_move(round_, session)


__all__ = [
    "MatchStats",
    "Opening",
    "Played",
    "clocks_text",
    "match_player",
    "match_stats",
    "play_game",
    "progress_text",
    "read_openings",
    "run_match",
]
