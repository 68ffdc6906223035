"""The online package is a front end of the session: no Textual, no app, no command
line, no Hub; the session gained only what a peer's copy of a game needs."""

from __future__ import annotations

from pathlib import Path

import pytest

import shashki
from shashki.records.clocks import TimeControl
from shashki.rules import Color, Game
from shashki.session import GameClock, GameSession
from shashki.session.game import TakenBack
from tests.engine.test_layering import imports_of

PACKAGE = Path(shashki.__file__).parent


def test_the_online_package_imports_no_front_end() -> None:
    bad = sorted(
        f"{path.name}: {name}"
        for path in (PACKAGE / "online").glob("*.py")
        for name in imports_of(path, "shashki.online")
        if name.startswith(("textual", "rich", "shashki.app", "shashki.cli", "shashki.hub"))
    )
    assert bad == []


def test_a_session_is_made_equal_to_another_one() -> None:
    now = [0.0]
    session = GameSession(Game("russian"), clock=GameClock(TimeControl(60, 0), now=lambda: now[0]))
    events: list[object] = []
    session.subscribe(events.append)
    game = Game("russian")
    moves = []
    for text in ("c3-d4", "f6-g5", "g3-f4"):
        move = game.parse_move(text)
        moves.append(move)
        game.push(move)
    session.resign(Color.WHITE)
    session.set_moves(moves, [59.0, 58.5], (50.0, 40.0))
    assert session.game.fen() == game.fen()
    assert session.outcome is None  # (the resignation was reopened)
    assert session.clock_marks == [59.0, 58.5, None]
    assert session.clock is not None and session.clock.running is Color.BLACK
    assert session.clock.left(Color.WHITE) == 50.0
    now[0] += 5
    assert session.clock.left(Color.BLACK) == 35.0
    assert any(isinstance(e, TakenBack) for e in events)
    bad = [*moves[:2], moves[0]]  # a move that is not legal there: nothing changes
    with pytest.raises(ValueError):
        session.set_moves(bad)
    assert session.game.fen() == game.fen()
