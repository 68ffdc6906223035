"""The host generator without captures: where a generator or a modifier makes the
captures itself (the columns of Bashni, Artamonov's shared men, self-capture, moving an
opponent's piece), the quiet moves are those of the host rules, made by this one."""

from __future__ import annotations

from dataclasses import replace

from .geometry import Geometry
from .movegen import MoveGenerator
from .switches import Rules


def quiet_generator(geo: Geometry, rules: Rules) -> MoveGenerator:
    """A plain generator of ``rules`` on ``geo`` without captures: the quiet moves only."""
    return MoveGenerator(geo, replace(rules, man_captures=(), king_captures=()))
