"""Puzzles from shashki's own games, for a variant with no archive (``shashki puzzles
mine --self-play N --variant V``).

shashki plays itself at a low level (:data:`~shashki.engine.player.LEVELS` 1 to 4: a
search of a few plies, a random choice among the moves near the best), each game from an
opening of a few random moves: players at those levels miss shots, and allow them, as
club players do.  Each game is mined as an archive's games are
(:func:`~shashki.training.mining.mine_game`) in the worker that played it.

Game ``i`` of a run is made from its seed alone (the run's ``seed``, the variant and
``i``): the same command plays the same games, so a run stopped goes on from the first
game not written, and a run asked for more games adds the new ones.  Each puzzle's
source says where it came from: "shashki self-play, 2026-12-07, level 3, seed 1 #12 (23.)"
(the day the games were played, the level, the seed, the game and its move number: the
same run plays the game again).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..base.workers import Backend, Jobs
from ..engine.player import LEVELS, ComputerPlayer
from ..records.model import GameRecord
from ..rules.game import Game
from ..rules.variant_registry import find_variant
from .book import BookWriter
from .harvest import MiningReport
from .mining import MiningOptions, Origin, PieceMined, mine_game

#: The levels that play by depth (reproducible whatever the machine's load).
SELF_PLAY_LEVELS = tuple(n for n, level in LEVELS.items() if level.depth is not None)
#: Games a worker plays and mines in one job (the unit of resuming).
GAMES_PER_JOB = 2
#: Random moves of each game's opening.
RANDOM_PLIES = 6
#: The most games one run plays.
MAX_GAMES = 1_000_000
#: A game not ended after this many plies is mined as far as it went.
MAX_PLIES = 240


@dataclass(frozen=True)
class SelfPlay:
    """A run of self-play: ``games`` games of ``variant`` at ``level``."""

    variant: str
    games: int
    level: int = 3
    seed: int = 1
    #: The day the games are played ("2026-12-07"): said in each puzzle's source.
    date: str = ""
    random_plies: int = RANDOM_PLIES
    max_plies: int = MAX_PLIES

    @property
    def name(self) -> str:
        """The run's name in the book's resume file and in each puzzle's source."""
        words = ["shashki self-play"]
        if self.date:
            words.append(self.date)
        words.append(f"level {self.level}")
        words.append(f"seed {self.seed}")
        return ", ".join(words)

    @property
    def key(self) -> str:
        """What the book's resume file notes this run's games under (the same games:
        the same variant, level and seed)."""
        return f"self-play:{self.variant}:level {self.level}:seed {self.seed}"


def play(run: SelfPlay, number: int) -> GameRecord:
    """Game ``number`` of ``run``: random opening moves, then the level's moves."""
    variant = find_variant(run.variant)
    rng = random.Random(f"{run.seed}-{variant.id}-{run.level}-{number}")
    game = Game(variant)
    for _ in range(run.random_plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    # (a depth, never a time, limits each move: the same game on any machine)
    players = [
        ComputerPlayer(run.level, seed=rng.randrange(1 << 30), seconds=600.0) for _ in range(2)
    ]
    while game.outcome() is None and game.ply < run.max_plies:
        move = players[game.ply % 2].think(game)
        if move is None:
            break
        game.push(move)
    label = f"shashki {LEVELS[run.level].label}"
    headers = {
        "Event": "shashki self-play",
        "Date": run.date.replace("-", ".") or "????.??.??",
        "Round": str(number + 1),
        "White": label,
        "Black": label,
    }
    record = GameRecord.from_game(game, headers)
    headers["Result"] = record.result
    record.headers.update(headers)
    return record


def mine_self_played(run: SelfPlay, first: int, count: int, options: MiningOptions) -> PieceMined:
    """Play games ``first`` to ``first + count`` of ``run`` and mine them (a worker's
    job); the puzzles' games numbered from the run's first."""
    found = []
    positions = 0
    mining = replace(options, first_ply=max(options.first_ply, run.random_plies))
    for number in range(first, first + count):
        record = play(run, number)
        puzzles, judged = mine_game(record, run.name, number, mining)
        positions += judged
        for origin, puzzle in puzzles:
            origin = Origin(run.name, origin.game, origin.move)  # (no players, no event)
            found.append((origin, replace(puzzle, source=origin.words())))
    return PieceMined(run.key, first // GAMES_PER_JOB, tuple(found), count, positions)


def _jobs(run: SelfPlay, done: int, options: MiningOptions) -> Iterator[tuple[object, ...]]:
    for first in range(done * GAMES_PER_JOB, run.games, GAMES_PER_JOB):
        yield (run, first, min(GAMES_PER_JOB, run.games - first), options)


def mine_self_play(
    writer: BookWriter,
    run: SelfPlay,
    *,
    options: MiningOptions | None = None,
    workers: int | None = None,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> MiningReport:
    """Play and mine the games of ``run`` not mined into ``writer``'s book yet (see the
    module); ``progress(games done, games in all)`` as they are written."""
    options = options or MiningOptions()
    report = MiningReport(files=1)
    done, _games = writer.resume_at(run.key, 0, 0.0, GAMES_PER_JOB)
    done = max(0, done)
    if done * GAMES_PER_JOB >= run.games:
        report.files, report.kept = 0, 1
        return report
    running: Jobs[PieceMined] = Jobs(
        mine_self_played, _jobs(run, done, options), workers=workers, backend=backend
    )
    for _number, mined in running.in_order(cancelled):
        puzzles = [p for _origin, p in mined.found]
        added = writer.add(puzzles)
        report.found += added
        report.repeated += len(puzzles) - added
        report.games += mined.games
        report.positions += mined.positions
        done += 1
        writer.mined(run.key, 0, 0.0, GAMES_PER_JOB, done, done * GAMES_PER_JOB, False)
        if progress is not None:
            progress(min(run.games, done * GAMES_PER_JOB), run.games)
    report.stopped = running.cancelled
    return report


__all__ = [
    "GAMES_PER_JOB",
    "MAX_GAMES",
    "SELF_PLAY_LEVELS",
    "SelfPlay",
    "mine_self_play",
    "mine_self_played",
    "play",
]
