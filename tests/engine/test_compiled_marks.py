"""The marks the sources give mypyc (benchmarks/compiled.py) change nothing in pure Python."""

from __future__ import annotations

import importlib
import sys

import pytest

import shashki._compiled as compiled
from shashki.rules import Game
from shashki.rules.movegen import MoveGenerator


def test_the_mark_is_a_no_op_without_mypy_extensions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mypy_extensions", None)  # (an import of it fails)
    try:
        fresh = importlib.reload(compiled)

        class Marked:
            pass

        assert fresh.mypyc_attr(allow_interpreted_subclasses=True)(Marked) is Marked
    finally:
        monkeypatch.undo()
        importlib.reload(compiled)


def test_a_generator_class_is_still_subclassed_in_python() -> None:
    # the variants built from mixins subclass the generator at run time
    assert MoveGenerator.general_precedence is True
    game = Game("bashni")
    assert type(game.variant.generator).general_precedence is False
    assert game.legal_moves()
