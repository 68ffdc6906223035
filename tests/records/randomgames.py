"""Seeded random game records with comments, NAGs and variations, for round trips."""

from __future__ import annotations

import random

from shashki.records import GameNode, GameRecord
from shashki.rules import Game, Variant

#: Comment words: quotes, a backslash, braces, a percent sign and non-ASCII text too.
WORDS = [
    "good",
    "bad",
    "Black",
    "wins",
    "draw",
    "(sic)",
    "50%",
    "%",
    'quote"d',
    "back\\slash",
    "шашки",
    "dama",
    "l'attaque",
    "—",
    "x",
    "1-0",
    "*",
    "12-16",
    "e3:g5",
]


def random_comment(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))


def _play_line(
    rng: random.Random, node: GameNode, game: Game, plies: int, depth: int, budget: list[int]
) -> None:
    """Extend ``node`` (whose position is ``game``) by up to ``plies`` random moves, with
    side lines hanging off some of them."""
    for _ in range(plies):
        if budget[0] <= 0 or game.outcome() is not None:
            return
        legal = game.legal_moves()
        if not legal:
            return
        move = rng.choice(legal)
        budget[0] -= 1
        child = node.add_variation(move)
        if rng.random() < 0.2:
            child.comments.append(random_comment(rng))
        if rng.random() < 0.1:
            child.nags.append(rng.choice([1, 2, 3, 4, 5, 6, 10, 14, 139]))
        if depth < 2 and len(legal) > 1 and rng.random() < 0.15:
            alt = rng.choice([m for m in legal if m != move])
            side = node.add_variation(alt)
            if rng.random() < 0.3:
                side.starting_comments.append(random_comment(rng))
            side_game = game.copy()
            side_game.push(alt)
            _play_line(rng, side, side_game, rng.randint(0, 6), depth + 1, budget)
        game.push(move)
        node = child


def random_record(variant: Variant, seed: int, plies: int = 40) -> GameRecord:
    """A random game of ``variant``: a main line of up to ``plies`` moves, side lines,
    comments, NAGs, tags, and a start position drawn from the variant's options."""
    rng = random.Random(seed)
    fen = None
    if variant.start_options:
        fen = rng.choice(variant.start_options)[1]
    start = Game(variant, fen if fen is not None else variant.start)
    usual = Game(variant, variant.start)
    record = GameRecord(variant, None if start.fen() == usual.fen() else start.fen())
    record.headers.update(
        {
            "Event": f"Random {variant.id} {seed}",
            "White": rng.choice(["Блиндер Б.", "Tinsley, M.", 'A "quoted" name', "?"]),
            "Black": rng.choice(["van der Zee", "高文龙", "x\\y"]),
            "Annotator": "shashki tests",
        }
    )
    if rng.random() < 0.3:
        record.comments.append(random_comment(rng))
    _play_line(rng, record, start.copy(), plies, 0, [plies * 3])
    record.result = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return record
