"""Puzzle mining (``shashki puzzles mine``): the positions of real games where one move
wins decisively and every other move does not.

Each game of an archive is read in a worker process (:func:`mine_piece`, a job of
:class:`~shashki.base.workers.Jobs`); in each position of its main line with a choice of
moves, a quick search (:attr:`MiningOptions.depth`) judges the best move and, when it
wins (:attr:`MiningOptions.win` hundredths of a man or more), the best of the others.
A position where only one move wins and every other keeps at most
:attr:`MiningOptions.other` is a candidate; a deeper search with a fresh table
(:attr:`MiningOptions.verify_depth`) then builds the solution (:func:`solution`): at
every one of the solver's moves it is the only move that wins, and each reply is the
opponent's best.  The first position is judged with a safety a deeper search should not
undo: a search one ply deeper must find the same only winning move
(:attr:`MiningOptions.confirm`), and a solution that wins less than :data:`GAINED`
pieces must score :attr:`MiningOptions.margin` more than a win.
The line ends once the solver has more than one way to go on winning, once the solver is
:data:`GAINED` pieces up and nothing is hanging, at the end of the game, or after
:attr:`MiningOptions.longest` moves of the solver.  A solution that gains
nothing (no piece taken more than given, no crowning) and neither ends the game nor wins
it by force is refused: such a win is one the search only foresees, and a deeper search
often finds it smaller (benchmarks/training.py quality; docs/TRAINING.md).

Where the search is known to be weak, a win must be proven (:func:`proven`): in a small
ending (at most :data:`SMALL_ENDING` pieces at the first position or at the end of the
solution) the evaluation's judgement of a few kings and men is often wrong (three kings
against one, a king against men racing to crown: a material lead that is a draw), and
the search's forward pruning and reductions can miss the one defence that holds.  There
the exact tables decide when they cover the position and are at hand (shipped, or made
by ``shashki endings build``): the first move must be the only one that wins.
Elsewhere a search without forward pruning or reductions, :data:`FULL_MORE` plies
deeper than the verification, must find the same move winning by force (the game won by
the rules within its horizon) and every other move keeping at most
:attr:`MiningOptions.other`; a puzzle neither proves is refused.

A puzzle is named by its position (:func:`~shashki.store.explorer.position_key`: the
variant and the FEN); a book of puzzles (:mod:`shashki.training.book`) never keeps two of
one position.  Themes (:mod:`shashki.training.themes`) and a difficulty are read from
the solution.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..engine import endings
from ..engine.scores import WON
from ..engine.search import Options, Search
from ..records.model import GameRecord
from ..records.pieces import Piece, piece_games
from ..rules.errors import ShashkiError
from ..rules.game import Game, game_state
from ..rules.move import Move
from ..store.explorer import position_key
from .themes import difficulty, themes_of

#: A solution ends once the solver has taken this many pieces more than it gave (a
#: crowning counts as one) and the opponent has no capture: the win is in hand.
GAINED = 2
#: Games a piece of an archive holds about (a worker's job; the unit of resuming).
PIECE_BYTES = 8 << 10
#: A position of at most this many pieces is a small ending, where a puzzle's win must
#: be proven (:func:`proven`).
SMALL_ENDING = 6
#: The plies the full-width search of a small ending goes deeper than the verification.
FULL_MORE = 2
#: The nodes that search may take for each of its two looks (the best move, the best of
#: the others); a win it does not prove within them is not proven.
FULL_NODES = 400_000
#: A search without forward pruning (ProbCut) or late move reductions.
FULL_WIDTH = Options(probcut=False, lmr_depth=1 << 20)


@dataclass(frozen=True)
class MiningOptions:
    """How positions are judged (scores in hundredths of a man, for the side to move)."""

    #: The quick search of every position (plies).
    depth: int = 4
    #: The search that verifies a candidate and builds its solution (plies).
    verify_depth: int = 8
    #: A decisive win: at least two men.
    win: int = 200
    #: Every other move at the first position keeps at most this much.
    other: int = 50
    #: The solver's moves in a solution, at most.
    longest: int = 6
    #: Positions before this ply of a game from the usual start are not judged (the
    #: opening's first moves; a game from a set-up position is judged from its start).
    first_ply: int = 4
    #: A solution that wins less than :data:`GAINED` pieces (and neither ends the game
    #: nor wins it by force) must score this much more than :attr:`win`: a piece up
    #: and a little more at one depth is often less than a win a few plies deeper
    #: (benchmarks/training.py quality).
    margin: int = 50
    #: The first position is searched again one ply deeper, and must give the same
    #: only winning move (a search's judgement swings between odd and even depths).
    confirm: bool = True
    #: A win in a small ending must be proven (:func:`proven`).
    prove: bool = True

    def plain(self) -> MiningOptions:
        """What a puzzle is, without the verification's safety: no margin, no second
        look, no proof of a small ending (a deeper search checks mined puzzles against
        this)."""
        return replace(self, margin=0, confirm=False, prove=False)


@dataclass(frozen=True)
class Origin:
    """Where a puzzle comes from: a game of a file (or of self-play)."""

    #: The file's name (without its folders).
    file: str
    #: The game's place in the file, from 0.
    game: int
    #: The move number of the position.
    move: int
    white: str = ""
    black: str = ""
    event: str = ""

    def words(self) -> str:
        """In one line, in no language: "wk2003.pdn #12 (23.): Ivanov – Petrov, WK 2003"
        (the 12th game of the file, its 23rd move)."""
        where = f"{self.file} #{self.game + 1} ({self.move}.)"
        if self.white or self.black:
            where += f": {self.white or '?'} – {self.black or '?'}"
        if self.event:
            where += f", {self.event}"
        return where


@dataclass(frozen=True)
class Puzzle:
    """A position, its solution (the solver's moves and the best replies, the solver's
    first and last) and what is known of it."""

    variant: str
    fen: str
    #: The moves in full notation (every landing square of a capture).
    line: tuple[str, ...]
    themes: tuple[str, ...]
    #: An estimate of the rating of a player who solves it half the time.
    difficulty: int
    #: Where it comes from, in words (:meth:`Origin.words`).
    source: str = ""
    #: The score the verifying search gave the first move (0: not known).
    score: int = 0

    @property
    def key(self) -> int:
        return position_key(self.variant, self.fen)


@dataclass(frozen=True)
class PieceMined:
    """What :func:`mine_piece` found in one piece."""

    source: str
    number: int
    #: The puzzles found, each with its game (numbered from the piece's first).
    found: tuple[tuple[Origin, Puzzle], ...]
    games: int = 0
    positions: int = 0
    #: Games that could not be used (no variant shashki plays, a move not read).
    skipped: int = 0
    #: The first error read, when no game could be used ("not a text file").
    error: str = ""


def _others(game: Game, best: Move) -> list[Move]:
    return [m for m in game.legal_moves() if m != best]


def candidate(search: Search, game: Game, options: MiningOptions) -> bool:
    """Whether the quick search finds one move that wins and no other that comes near."""
    moves = game.legal_moves()
    if len(moves) < 2:
        return False
    found = search.search(game, depth=options.depth)
    if found.move is None or found.score < options.win:
        return False
    second = search.search(game, depth=options.depth, moves=_others(game, found.move))
    return second.score <= options.other


@dataclass(frozen=True)
class Verified:
    """A solution verified (:func:`verify`): the line, and the scores of the first
    position's best move and of the best of the others."""

    line: list[Move]
    score: int
    second: int


def solution(game: Game, options: MiningOptions) -> tuple[list[Move], int] | None:
    """The verified solution of ``game``'s position and the first move's score, or None
    when the deeper search does not confirm one only winning move."""
    found = verify(game, options)
    return None if found is None else (found.line, found.score)


def verify(game: Game, options: MiningOptions) -> Verified | None:
    """The verified solution of ``game``'s position (see :func:`solution`), or None."""
    search = Search(game.variant)
    g = game.copy()
    line: list[Move] = []
    first_score = 0
    first_second = -WON
    gained = 0  # pieces taken less pieces given, and the solver's crownings
    for turn in range(options.longest):
        moves = g.legal_moves()
        if not moves:
            break
        found = search.search(g, depth=options.verify_depth)
        if found.move is None:
            return None
        if found.score < options.win:
            if turn == 0:
                return None
            line.pop()  # (the reply: the solver's last move ends the line)
            break
        if len(moves) > 1:
            second = search.search(
                g, depth=options.verify_depth, moves=_others(g, found.move)
            ).score
            if turn == 0 and second > options.other:
                return None
            if turn == 0:
                first_second = second
                if options.confirm and not _confirmed(search, g, found.move, options):
                    return None
            if turn > 0 and second >= options.win:
                line.pop()  # more than one way to go on winning: solved
                break
        if turn == 0:
            first_score = found.score
        line.append(found.move)
        g.push(found.move)
        gained += len(found.move.captured) + bool(found.move.promotion)
        if g.outcome() is not None:
            break
        if gained >= GAINED and not g.captures():
            break  # (the win is in hand: the rest is technique)
        reply = search.search(g, depth=options.verify_depth)
        if reply.move is None or turn + 1 >= options.longest:
            break
        line.append(reply.move)
        g.push(reply.move)
        gained -= len(reply.move.captured)
    if len(line) % 2 == 0 and line:  # (ends on a reply: the game ended after it)
        line.pop()
    if not line:
        return None
    small = small_ending(game) or small_ending(g_after(game, line))
    if options.prove and small and not proven(game, line[0], options):
        return None  # (a small ending whose win neither the tables nor a full look prove)
    if first_score < WON and g_after(game, line).outcome() is None:
        if gain(line) < 1:
            return None  # (a win the search only foresees: at a deeper look, often less)
        if gain(line) < GAINED and first_score < options.win + options.margin:
            return None  # (a piece up and a little more: a deeper look often less)
    return Verified(line, first_score, first_second)


def _confirmed(search: Search, game: Game, move: Move, options: MiningOptions) -> bool:
    """Whether a search one ply deeper than the verification's finds ``move`` still
    the only one that wins (by the margin) in ``game``'s position."""
    deeper = options.verify_depth + 1
    found = search.search(game, depth=deeper)
    if found.move != move or found.score < options.win:
        return False
    return search.search(game, depth=deeper, moves=_others(game, move)).score <= options.other


def pieces(game: Game) -> int:
    """The pieces on the board."""
    pos = game_state(game)
    return int((pos[0] | pos[1]).bit_count())


def small_ending(game: Game) -> bool:
    """Whether ``game``'s position, not ended, is a small ending (:data:`SMALL_ENDING`)."""
    return game.outcome() is None and pieces(game) <= SMALL_ENDING


def table_values(game: Game) -> dict[Move, int] | None:
    """Each legal move's exact value for the side to move (as the tables say: above 0 a
    win, 0 a draw, below 0 a loss) when the tables at hand decide every one of them,
    else None.  No table is made here (a miner's worker waits for none)."""
    variant = game.variant
    if not endings.covered(variant, game_state(game)):
        return None
    values: dict[Move, int] = {}
    for move in game.legal_moves():
        after = game.copy()
        after.push(move)
        ended = after.outcome()
        if ended is not None:
            values[move] = 0 if ended.winner is None else 1 if ended.winner == game.turn else -1
            continue
        value = endings.probe_built(variant, game_state(after))
        if value is None:
            return None
        values[move] = -value
    return values


def proven(game: Game, move: Move, options: MiningOptions) -> bool:
    """Whether ``move`` is proven the only move that wins in ``game``'s position: by the
    exact tables when they are at hand, else by a search without forward pruning or
    reductions (:data:`FULL_WIDTH`), :data:`FULL_MORE` plies deeper than the
    verification, that finds it winning by force and every other move at most
    :attr:`MiningOptions.other`."""
    values = table_values(game)
    if values is not None:
        return values.get(move, 0) > 0 and all(v <= 0 for m, v in values.items() if m != move)
    search = Search(game.variant, options=FULL_WIDTH)
    depth = options.verify_depth + FULL_MORE
    found = search.search(game, depth=depth, nodes=FULL_NODES)
    if found.move != move or found.score < WON:  # (a forced win at any depth searched)
        return False
    others = _others(game, move)
    if not others:
        return True
    second = search.search(game, depth=depth, moves=others, nodes=FULL_NODES)
    return not second.stopped and second.score <= options.other


def proof_holds(puzzle: Puzzle, options: MiningOptions | None = None) -> bool:
    """Whether a puzzle of a book passes the rule of small endings (:func:`proven`): a
    book mined before the rule, checked again (a puzzle whose line no longer plays
    does not)."""
    game = Game(puzzle.variant, puzzle.fen)
    g = game.copy()
    first: Move | None = None
    for text in puzzle.line:
        move = next((m for m in g.legal_moves() if g.move_text(m, full=True) == text), None)
        if move is None:
            return False
        first = first or move
        g.push(move)
    if first is None:
        return False
    if not (small_ending(game) or small_ending(g)):
        return True
    return proven(game, first, options or MiningOptions())


def g_after(game: Game, line: list[Move]) -> Game:
    """The game after the line."""
    g = game.copy()
    for move in line:
        g.push(move)
    return g


def gain(line: list[Move]) -> int:
    """The pieces the solver takes less those it gives, and its crownings."""
    return sum(
        len(m.captured) + bool(m.promotion) if ply % 2 == 0 else -len(m.captured)
        for ply, m in enumerate(line)
    )


def mine_game(
    record: GameRecord, name: str, number: int, options: MiningOptions
) -> tuple[list[tuple[Origin, Puzzle]], int]:
    """The puzzles of one game, each with where it comes from, and the number of
    positions judged."""
    if record.variant is None:
        return [], 0
    moves = record.mainline_moves()
    try:
        game = record.start()
    except ShashkiError:
        return [], 0
    search = Search(record.variant)
    found: list[tuple[Origin, Puzzle]] = []
    judged = 0
    skip_to = options.first_ply if record.fen is None else 0  # (a set-up position: all)
    for ply, move in enumerate(moves):
        if ply >= skip_to and game.outcome() is None:
            judged += 1
            if candidate(search, game, options):
                solved = solution(game, options)
                if solved is not None:
                    line, score = solved
                    found.append(_puzzle(record, game, line, score, name, number, ply))
                    skip_to = ply + len(line)  # (its own line: the same shot again)
        game.push(move)
    return found, judged


def _puzzle(
    record: GameRecord, game: Game, line: list[Move], score: int, name: str, number: int, ply: int
) -> tuple[Origin, Puzzle]:
    g = game.copy()
    texts = []
    for move in line:
        texts.append(g.move_text(move, full=True))
        g.push(move)
    origin = Origin(
        file=name,
        game=number,
        move=game.fullmove_number,
        white=_tag(record, "White", "P1"),
        black=_tag(record, "Black", "P2"),
        event=_tag(record, "Event"),
    )
    puzzle = Puzzle(
        variant=game.variant.id,
        fen=game.fen(),
        line=tuple(texts),
        themes=themes_of(game, line, score),
        difficulty=difficulty(game, line),
        source=origin.words(),
        score=score,
    )
    return origin, puzzle


def _tag(record: GameRecord, *names: str) -> str:
    for name in names:
        text = " ".join(record.header(name).split())
        if text and text != "?":
            return text[:100]
    return ""


def mine_piece(piece: Piece, default_variant: str | None, options: MiningOptions) -> PieceMined:
    """Mine the games of a piece of an archive (a worker's job); the puzzles' games are
    numbered from the piece's first (the caller, who knows the pieces before, adds)."""
    import os

    name = os.path.basename(piece.source)
    found_all: list[tuple[Origin, Puzzle]] = []
    games = positions = skipped = 0
    error = ""
    for number, record in enumerate(piece_games(piece, default_variant)):
        if record.variant is None or not record.mainline_moves():
            skipped += 1
            if record.errors:
                error = error or record.errors[0].message
            continue
        games += 1
        found, judged = mine_game(record, name, number, options)
        found_all.extend(found)
        positions += judged
    return PieceMined(
        piece.source, piece.number, tuple(found_all), games, positions, skipped, error
    )


def iter_unique(puzzles: Iterator[Puzzle], seen: set[int]) -> Iterator[Puzzle]:
    """The puzzles whose position is not in ``seen`` (which takes them in)."""
    for puzzle in puzzles:
        if puzzle.key not in seen:
            seen.add(puzzle.key)
            yield puzzle


__all__ = [
    "FULL_MORE",
    "FULL_WIDTH",
    "PIECE_BYTES",
    "SMALL_ENDING",
    "MiningOptions",
    "Origin",
    "PieceMined",
    "Puzzle",
    "candidate",
    "iter_unique",
    "mine_game",
    "mine_piece",
    "proof_holds",
    "proven",
    "small_ending",
    "solution",
    "table_values",
]
