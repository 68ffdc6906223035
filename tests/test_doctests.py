"""The examples in the package's docstrings run as written: every module of ``shashki``
is imported and its doctests run (``__main__`` is not imported: it starts the program)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import shashki


def modules() -> list[str]:
    """Every module of the package, but ``shashki.__main__``."""
    found = ["shashki"]
    for info in pkgutil.walk_packages(shashki.__path__, "shashki."):
        if not info.name.endswith(".__main__"):
            found.append(info.name)
    return sorted(found)


MODULES = modules()


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_of_a_module_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_walk_finds_the_examples() -> None:
    # the parametrised test above would pass on an empty list: the walk must see the
    # layers, and they hold examples
    assert {"shashki.rules.game", "shashki.records", "shashki.engine"} <= set(MODULES)
    attempted = sum(
        doctest.testmod(importlib.import_module(n), report=False).attempted
        for n in ("shashki.rules.game", "shashki.records")
    )
    assert attempted >= 5
