"""A line of play as text (rules/variation.py): the one writer of principal variations for
the analysis panel, ``shashki best`` and the Hub's ``info`` lines."""

from __future__ import annotations

from collections.abc import Sequence

from shashki.rules import Game, Move
from shashki.rules.variant import Variant
from shashki.rules.variation import variation_text

from .test_capture_search import TURKISH_CROWD


def line_of(game: Game, texts: str) -> list[Move]:
    walk = game.copy()
    return [walk.push_text(text) for text in texts.split()]


def test_a_line_is_written_in_the_variant_s_notation() -> None:
    game = Game("international")
    moves = line_of(game, "32-28 19-23 28x19 14x23")
    assert variation_text(game, moves) == "32-28 19-23 28x19 14x23"
    assert variation_text(game, moves, most=2) == "32-28 19-23"
    russian = Game("russian")
    assert variation_text(russian, line_of(russian, "c3-d4 f6-e5 d4:f6")) == "c3-d4 f6-e5 d4:f6"


def test_a_line_that_does_not_replay_ends_there() -> None:
    game = Game("international")
    moves = line_of(game, "32-28 19-23")
    other = line_of(game, "31-27")  # (a move of the start, not after 32-28 19-23)
    assert variation_text(game, [*moves, *other, *moves]) == "32-28 19-23"


def test_a_position_slow_to_list_is_not_listed() -> None:
    """Twenty captures of one king in a crowd (64 moves found among half a million
    states): given no time to list them, the move is taken as the search gave it and
    written with every landing square; given time, it is found among the legal moves."""
    move = Game("turkish", TURKISH_CROWD).legal_moves()[0]
    seen: list[Sequence[Move] | None] = []

    def write(variant: Variant, m: Move, legal: Sequence[Move] | None) -> str:
        seen.append(legal)
        return "x"

    variation_text(Game("turkish", TURKISH_CROWD), [move], write=write, seconds=0.0)
    assert seen == [None]
    variation_text(Game("turkish", TURKISH_CROWD), [move], write=write, seconds=600.0)
    assert seen[-1] is not None and len(seen[-1]) == 64
    text = variation_text(Game("turkish", TURKISH_CROWD), [move], seconds=0.0)
    mark = Game("turkish").variant.capture_mark
    assert text.count(mark) == len(move.path) - 1  # (every landing square)
