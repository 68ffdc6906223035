"""A match between shashki's engine and py-draughts' engines (the ``bench`` extra).

    pip install -e '.[bench]'
    python benchmarks/match.py --variant international --opponent turbo --time 0.5 --jobs 2

py-draughts (GPL) is only called, never copied: its boards replay the moves and its
engines choose theirs.  Each game starts from one of the balanced openings below
(written for this benchmark: three plies each, kept when a depth-6/7 search of ours
scored them within 0.3 men), and every opening is played twice, each engine taking
White once.  The referee is shashki's own rules (the variant's outcome, draw rules
included); a game still running after ``--max-plies`` plies is adjudicated a draw.

``--pdn FILE`` also writes every game (tagged with the opening and the termination) for
study: ``shashki replay FILE`` shows them.

Moves cross between the libraries by square numbers (the PDN numbering both use) and
the captured squares: ``benchmarks/match.py --check`` replays random games and compares
the legal move sets of both libraries in every position.

The score is shashki's (a win 1, a draw 1/2) with its 95% error margin (1.96 standard
errors of the mean of the game scores), and the Elo difference it implies.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine import Search
from shashki.engine.evaluate import diagonal_evaluator
from shashki.engine.patterns import read as read_patterns
from shashki.engine.search import Options
from shashki.hub.match import MatchStats, match_stats
from shashki.records import GameRecord, write_game
from shashki.rules import Game, Move
from shashki.rules.game import game_state
from shashki.rules.notation import parse_move

# -- the openings -----------------------------------------------------------------------

OPENINGS: dict[str, list[str]] = {
    "russian": [
        "c3-d4 f6-g5 d4-e5",
        "a3-b4 d6-e5 b4-a5",
        "c3-b4 f6-e5 b2-c3",
        "c3-d4 b6-a5 d4-e5",
        "e3-f4 f6-g5 g3-h4",
        "c3-d4 f6-g5 b2-c3",
        "a3-b4 b6-a5 g3-h4",
        "g3-f4 d6-e5 f4:d6",
        "a3-b4 f6-e5 g3-h4",
        "e3-f4 b6-c5 f2-e3",
        "g3-f4 f6-g5 h2-g3",
        "e3-d4 b6-c5 d4:b6",
        "c3-d4 d6-c5 d2-c3",
        "g3-f4 b6-a5 c3-b4",
        "c3-b4 d6-e5 b4-c5",
        "a3-b4 b6-a5 e3-d4",
        "c3-b4 d6-e5 d2-c3",
        "a3-b4 d6-e5 b4-c5",
        "c3-d4 h6-g5 g3-h4",
        "e3-f4 b6-c5 g3-h4",
        "g3-h4 d6-e5 f2-g3",
        "e3-d4 f6-g5 d4-e5",
        "c3-b4 b6-a5 g3-h4",
        "e3-f4 d6-c5 d2-e3",
        "e3-d4 b6-a5 d2-e3",
        "c3-b4 f6-g5 e3-f4",
        "e3-d4 d6-e5 g3-h4",
        "g3-h4 f6-e5 e3-f4",
        "c3-b4 f6-g5 b4-a5",
        "e3-d4 d6-c5 d4-e5",
        "g3-h4 b6-a5 e3-f4",
        "e3-d4 d6-c5 f2-e3",
        "e3-d4 d6-e5 a3-b4",
        "e3-d4 h6-g5 d4-e5",
        "e3-d4 h6-g5 g3-h4",
        "e3-d4 h6-g5 d2-e3",
        "a3-b4 d6-e5 e3-d4",
        "c3-b4 b6-a5 e3-f4",
        "a3-b4 d6-e5 g3-f4",
        "c3-d4 h6-g5 g3-f4",
    ],
    "brazilian": [
        "c3-d4 f6-g5 d4-e5",
        "a3-b4 d6-e5 b4-a5",
        "c3-b4 f6-e5 b2-c3",
        "c3-d4 b6-a5 d4-e5",
        "e3-f4 f6-g5 g3-h4",
        "c3-d4 f6-g5 b2-c3",
        "a3-b4 b6-a5 g3-h4",
        "g3-f4 d6-e5 f4xd6",
        "a3-b4 f6-e5 g3-h4",
        "e3-f4 b6-c5 f2-e3",
        "g3-f4 f6-g5 h2-g3",
        "e3-d4 b6-c5 d4xb6",
        "c3-d4 d6-c5 d2-c3",
        "g3-f4 b6-a5 c3-b4",
        "c3-b4 d6-e5 b4-c5",
        "a3-b4 b6-a5 e3-d4",
        "c3-b4 d6-e5 d2-c3",
        "a3-b4 d6-e5 b4-c5",
        "c3-d4 h6-g5 g3-h4",
        "e3-f4 b6-c5 g3-h4",
        "g3-h4 d6-e5 f2-g3",
        "e3-d4 f6-g5 d4-e5",
        "c3-b4 b6-a5 g3-h4",
        "e3-f4 d6-c5 d2-e3",
        "e3-d4 b6-a5 d2-e3",
        "c3-b4 f6-g5 e3-f4",
        "e3-d4 d6-e5 g3-h4",
        "g3-h4 f6-e5 e3-f4",
        "c3-b4 f6-g5 b4-a5",
        "e3-d4 d6-c5 d4-e5",
        "g3-h4 b6-a5 e3-f4",
        "e3-d4 d6-c5 f2-e3",
        "e3-d4 d6-e5 a3-b4",
        "e3-d4 h6-g5 d4-e5",
        "e3-d4 h6-g5 g3-h4",
        "e3-d4 h6-g5 d2-e3",
        "a3-b4 d6-e5 e3-d4",
        "c3-b4 b6-a5 e3-f4",
        "a3-b4 d6-e5 g3-f4",
        "c3-d4 h6-g5 g3-f4",
    ],
    "international": [
        "32-27 17-22 34-29",
        "33-29 16-21 32-28",
        "31-26 20-24 33-28",
        "35-30 17-22 40-35",
        "34-30 18-22 31-26",
        "32-28 18-23 34-30",
        "35-30 19-23 40-35",
        "31-27 18-23 36-31",
        "34-29 19-23 32-27",
        "31-27 17-21 33-28",
        "33-28 17-21 31-27",
        "32-28 19-24 31-27",
        "31-27 19-24 34-30",
        "32-27 17-21 34-30",
        "35-30 18-22 30-24",
        "31-26 16-21 32-28",
        "34-30 17-22 30-25",
        "31-27 20-24 33-29",
        "33-28 18-23 34-29",
        "32-28 17-21 28-22",
        "34-30 19-24 30x19",
        "35-30 18-22 31-27",
        "31-26 16-21 34-29",
        "31-27 19-23 33-28",
        "33-28 19-24 34-30",
        "33-28 20-25 34-30",
        "31-26 20-25 33-29",
        "33-29 18-23 29x18",
        "31-26 17-22 26-21",
        "31-27 20-25 36-31",
        "34-29 19-23 39-34",
        "33-28 20-24 31-26",
        "34-30 16-21 33-29",
        "34-30 16-21 33-28",
        "31-27 17-22 34-30",
        "31-27 18-22 27x18",
        "31-26 18-23 32-27",
        "32-27 18-22 27x18",
        "31-26 18-22 34-29",
        "32-27 19-24 34-29",
    ],
}

BOARDS = {
    "russian": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "international": "StandardBoard",
}


# -- crossing between the libraries -----------------------------------------------------


def numeric_fen(game: Game) -> str:
    """The position with PDN square numbers (what py-draughts reads on every board)."""
    geo = game.variant.board
    pos = game_state(game)

    def side(bits: int) -> str:
        return ",".join(
            ("K" if pos[2] >> p & 1 else "") + str(geo.number(p))
            for p in sorted(geo.squares, key=geo.number)
            if bits >> p & 1
        )

    return f"{'B' if pos[3] else 'W'}:W{side(pos[0])}:B{side(pos[1])}"


def our_key(game: Game, move: Move) -> tuple[int, int, frozenset[int]]:
    geo = game.variant.board
    return (
        geo.number(move.start),
        geo.number(move.end),
        frozenset(geo.number(c) for c in move.captured),
    )


def their_key(move: object) -> tuple[int, int, frozenset[int]]:
    squares = move.square_list  # type: ignore[attr-defined]
    return squares[0] + 1, squares[-1] + 1, frozenset(c + 1 for c in move.captured_list)  # type: ignore[attr-defined]


def board_for(variant: str, game: Game) -> object:
    import draughts

    return getattr(draughts, BOARDS[variant]).from_fen(numeric_fen(game))


def opponent(name: str, seconds: float) -> object:
    import draughts

    if name == "simple":
        return draughts.SimpleEngine(depth_limit=60, time_limit=seconds)
    if name == "turbo":
        return draughts.TurboEngine(depth_limit=None, time_limit=seconds)
    raise ValueError(f"unknown opponent {name!r} (simple, turbo)")


# -- one game ---------------------------------------------------------------------------


@dataclass
class GameResult:
    opening: int
    shashki_white: bool
    #: shashki's score: 1, 0.5 or 0.
    score: float
    plies: int
    termination: str
    our_time: float
    our_moves: int
    their_time: float
    their_moves: int
    our_depth: int
    our_nodes: int
    #: The game as PDN (for --pdn).
    pdn: str = ""


def parse_options(text: str) -> Options:
    """``name=value,...`` into the search's Options (ints, floats, true/false)."""
    values: dict[str, object] = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, _, raw = item.partition("=")
        if raw.lower() in ("true", "false"):
            values[name] = raw.lower() == "true"
        else:
            values[name] = float(raw) if "." in raw else int(raw)
    return Options(**values)  # type: ignore[arg-type]


def play_game(
    variant: str,
    opening: int,
    shashki_white: bool,
    rival: str,
    seconds: float,
    max_plies: int,
    options: str = "",
    weights: str = "",
    patterns: str = "",
) -> GameResult:
    game = Game(variant)
    for text in OPENINGS[variant][opening].split():
        game.push(parse_move(game.variant, text, game.legal_moves(), game_state(game)))
    board = board_for(variant, game)
    evaluator = None
    if weights or patterns:
        # tuning the diagonal evaluation: name=value,... over DIAGONAL_WEIGHTS, and the
        # pattern tables ("none", or a file written by tools/train_eval.py)
        values = {k: int(v) for k, _, v in (t.partition("=") for t in weights.split(",") if t)}
        table: bool | tuple[int, ...] = True
        if patterns == "none":
            table = False
        elif patterns:
            found = read_patterns(Path(patterns), game.variant.board)
            if found is None:
                raise SystemExit(f"{patterns}: not a pattern file for {variant}")
            table = found
        evaluator = diagonal_evaluator(game.variant, weights=values, patterns=table)
    engine = Search(variant, options=parse_options(options), evaluator=evaluator)
    them = opponent(rival, seconds)
    ours = 0 if shashki_white else 1
    t_ours = t_theirs = 0.0
    n_ours = n_theirs = depth_sum = nodes = 0
    termination = ""
    score = 0.5
    while True:
        out = game.outcome()
        if out is not None:
            termination = out.rule or out.termination.value
            score = 0.5 if out.winner is None else (1.0 if int(out.winner) == ours else 0.0)
            break
        if len(game.move_stack) >= max_plies:
            termination = f"adjudicated a draw after {max_plies} plies"
            break
        legal = game.legal_moves()
        theirs_by_key = {their_key(m): m for m in board.legal_moves}  # type: ignore[attr-defined]
        assert set(theirs_by_key) == {our_key(game, m) for m in legal}, numeric_fen(game)
        if game.turn == ours:
            started = time.perf_counter()
            result = engine.search(game, seconds=seconds, soft=1.0)
            t_ours += time.perf_counter() - started
            n_ours += 1
            depth_sum += result.depth
            nodes += result.nodes
            move = result.move
            assert move is not None
            board.push(theirs_by_key[our_key(game, move)])  # type: ignore[attr-defined]
        else:
            started = time.perf_counter()
            theirs = them.get_best_move(board)  # type: ignore[attr-defined]
            t_theirs += time.perf_counter() - started
            n_theirs += 1
            key = their_key(theirs)
            move = next(m for m in legal if our_key(game, m) == key)
            board.push(theirs)  # type: ignore[attr-defined]
        game.push(move)
    names = ("shashki", f"py-draughts {rival}")
    record = GameRecord.from_game(
        game,
        {
            "Event": f"benchmarks/match.py, {seconds:g} s per move",
            "Round": str(opening),
            "White": names[0] if shashki_white else names[1],
            "Black": names[1] if shashki_white else names[0],
            "Result": "1/2-1/2"
            if score == 0.5
            else ("1-0" if (score == 1.0) == shashki_white else "0-1"),
            "Termination": termination,
        },
    )
    return GameResult(
        opening,
        shashki_white,
        score,
        len(game.move_stack),
        termination,
        t_ours,
        n_ours,
        t_theirs,
        n_theirs,
        depth_sum,
        nodes,
        write_game(record),
    )


def _play(job: tuple[str, int, bool, str, float, int, str, str, str]) -> GameResult:
    return play_game(*job)


# -- the statistics ---------------------------------------------------------------------


def summary(results: list[GameResult]) -> MatchStats:
    """shashki's score over ``results`` with the statistics of ``shashki match``
    (:func:`shashki.hub.match.match_stats`), per game: the games end in any order here."""
    return match_stats([r.score for r in results], paired=False)


def check(variant: str, games: int, seed: int) -> int:
    """Compare both libraries' legal moves over random games; the number of mismatches."""
    rng = random.Random(seed)
    bad = positions = 0
    for _ in range(games):
        game = Game(variant)
        while game.outcome() is None and len(game.move_stack) < 300:
            board = board_for(variant, game)
            ours = {our_key(game, m) for m in game.legal_moves()}
            theirs = {their_key(m) for m in board.legal_moves}  # type: ignore[attr-defined]
            positions += 1
            if ours != theirs:
                bad += 1
                print(
                    f"{numeric_fen(game)}: shashki only {ours - theirs}, "
                    f"py-draughts only {theirs - ours}"
                )
            game.push(rng.choice(game.legal_moves()))
    print(f"{variant}: {positions} positions, {bad} with different legal moves")
    return bad


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="russian", choices=sorted(BOARDS))
    p.add_argument("--opponent", default="simple", choices=["simple", "turbo"])
    p.add_argument("--time", type=float, default=0.5, help="seconds per move for both engines")
    p.add_argument(
        "--games", type=int, default=0, help="games to play (default: every opening twice)"
    )
    p.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="games played at once"
    )
    p.add_argument("--max-plies", type=int, default=300)
    p.add_argument("--options", default="", help="search options, e.g. 'probcut=false' (tuning)")
    p.add_argument("--first", type=int, default=0, help="the first opening to play")
    p.add_argument(
        "--check", action="store_true", help="only compare the legal moves of both libraries"
    )
    p.add_argument("--weights", default="", help="evaluation weights, e.g. 'supported=4' (tuning)")
    p.add_argument("--pdn", metavar="FILE", help="also write every game to this PDN file")
    p.add_argument(
        "--patterns",
        default="",
        metavar="FILE|none",
        help="the evaluation's pattern tables: none, or a file of tools/train_eval.py (tuning)",
    )
    args = p.parse_args(argv)
    if args.check:
        return 1 if check(args.variant, 30, 1) else 0
    openings = OPENINGS[args.variant]
    jobs = [
        (
            args.variant,
            i,
            white,
            args.opponent,
            args.time,
            args.max_plies,
            args.options,
            args.weights,
            args.patterns,
        )
        for i in range(args.first, len(openings))
        for white in (True, False)
    ]
    if args.games:
        jobs = jobs[: args.games]
    print(
        f"shashki v py-draughts {args.opponent} in {args.variant}: {len(jobs)} games, "
        f"{args.time:g} s per move, {args.jobs} at once",
        flush=True,
    )
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_play, job) for job in jobs]
        for fut in as_completed(futures):
            r = fut.result()
            results.append(r)
            if args.pdn:
                with open(args.pdn, "a", encoding="utf-8") as out:
                    out.write(r.pdn + "\n")
            running = summary(results)
            side = "White" if r.shashki_white else "Black"
            print(
                f"game {len(results):3d}: opening {r.opening:2d}, shashki {side}: "
                f"{r.score:g} ({r.termination}, {r.plies} plies)   running score "
                f"{running.mean:.3f}",
                flush=True,
            )
    stats = summary(results)
    wins = sum(r.score == 1 for r in results)
    draws = sum(r.score == 0.5 for r in results)
    losses = len(results) - wins - draws
    ours = sum(r.our_time for r in results) / max(1, sum(r.our_moves for r in results))
    theirs = sum(r.their_time for r in results) / max(1, sum(r.their_moves for r in results))
    depth = sum(r.our_depth for r in results) / max(1, sum(r.our_moves for r in results))
    nps = sum(r.our_nodes for r in results) / max(1e-9, sum(r.our_time for r in results))
    adjudicated = sum(r.termination.startswith("adjudicated") for r in results)
    print()
    print(f"variant {args.variant}, opponent py-draughts {args.opponent}, {args.time:g} s per move")
    print(f"games {len(results)}: +{wins} ={draws} -{losses} ({adjudicated} adjudicated)")
    print(stats.describe())
    print(
        f"time per move: shashki {ours:.3f} s (depth {depth:.1f}, {nps:.0f} nodes/s), "
        f"py-draughts {theirs:.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
