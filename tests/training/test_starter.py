"""The starter set shipped with shashki (``src/shashki/training/starter/<variant>.pdn``,
made by tools/make_starter.py): every puzzle reads back, of its book's variant, its
solution legal move by move and solved as the book says (the solver's move first and
last), never a position twice, each names where it came from (shashki's self-play: the
day, the level, the seed and the game), and each of a small ending is proven won
(the rule of small endings, shashki.training.mining.proven)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shashki.rules import Game, find_variant
from shashki.training.book import read_book
from shashki.training.mining import proof_holds, small_ending
from shashki.training.themes import THEMES
from shashki.training.trainer import starter_folder

BOOKS = sorted(starter_folder().glob("*.pdn"))
#: Where a shipped puzzle comes from: shashki's self-play, its day, level, seed, game and
#: move (nothing mined from an archive ships: docs/TRAINING.md).
SOURCE = re.compile(r"shashki self-play, \d{4}-\d\d-\d\d, level [1-4], seed \d+ #\d+ \(\d+\.\)")


def test_the_main_variants_have_a_starter_book() -> None:
    shipped = {path.stem for path in BOOKS}
    assert {"international", "russian", "brazilian"} <= shipped
    for path in BOOKS:
        assert find_variant(path.stem).id == path.stem  # (named by the variant's id)


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.stem)
def test_every_shipped_puzzle_reads_back_and_is_legal(path: Path) -> None:
    book = read_book(path)
    assert book.problems == []
    assert len(book.puzzles) >= 10
    assert book.puzzles == read_book(path).puzzles  # (the same each time)
    seen: set[int] = set()
    for puzzle in book.puzzles:
        assert puzzle.variant == path.stem
        assert puzzle.key not in seen
        seen.add(puzzle.key)
        game = Game(puzzle.variant, puzzle.fen)
        assert game.outcome() is None and len(game.legal_moves()) >= 2
        assert len(puzzle.line) % 2 == 1  # (the solver's move first and last)
        for text in puzzle.line:
            game.push(game.parse_move(text))  # (raises if it is not legal)
        assert set(puzzle.themes) <= set(THEMES)
        assert 100 <= puzzle.difficulty <= 3500
        assert SOURCE.fullmatch(puzzle.source), puzzle.source


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.stem)
def test_every_shipped_puzzle_of_a_small_ending_is_proven(path: Path) -> None:
    """By the tables at hand, or a full-width search finding the win by force: the books
    are checked again by the rule the miner applies, whatever made them."""
    for puzzle in read_book(path).puzzles:
        game = Game(puzzle.variant, puzzle.fen)
        for text in puzzle.line:
            game.push(game.parse_move(text))
        if small_ending(Game(puzzle.variant, puzzle.fen)) or small_ending(game):
            assert proof_holds(puzzle), puzzle.fen


def test_the_shipped_books_are_package_data() -> None:
    """The books are in the package's folder, which the wheel takes whole (pyproject:
    packages = ["src/shashki"]), and no file of mining's resume state beside them."""
    folder = starter_folder()
    assert folder.is_dir()
    assert sorted(p.name for p in folder.iterdir()) == [p.name for p in BOOKS]
