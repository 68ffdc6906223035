"""The marks the sources give mypyc (benchmarks/compiled.py) change nothing in pure Python."""

from __future__ import annotations

from shashki._compiled import mypyc_attr
from shashki.rules import Game
from shashki.rules.movegen import MoveGenerator


def test_the_mark_gives_back_the_very_class() -> None:
    class Marked:
        pass

    assert mypyc_attr(allow_interpreted_subclasses=True)(Marked) is Marked


def test_a_generator_class_is_still_subclassed_in_python() -> None:
    # the variants built from mixins subclass the generator at run time
    assert MoveGenerator.general_precedence is True
    game = Game("bashni")
    assert type(game.variant.generator).general_precedence is False
    assert game.legal_moves()
