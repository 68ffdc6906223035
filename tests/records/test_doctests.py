"""The examples in the records modules' docstrings run as written (``read_games`` is
shown that way to library users)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import shashki.records

MODULES = sorted(
    f"shashki.records.{info.name}" for info in pkgutil.iter_modules(shashki.records.__path__)
)


@pytest.mark.parametrize("name", ["shashki.records", *MODULES])
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_read_games_has_an_example() -> None:
    examples = doctest.DocTestFinder().find(shashki.records.read_games, "read_games")
    assert examples and examples[0].examples
