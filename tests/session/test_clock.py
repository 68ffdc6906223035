"""Games on time in the session (moved down from the app's tests: the referee, not the
screen): the side to move's clock and its increment, a flag that falls, a double-move
turn on one clock, takebacks that give no time back, the longest clock, a saved game's
clock, and the time a computer or a Hub engine gets from it.  Time is a
:class:`~shashki.session.ManualTime` moved by hand: no sleeps."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from shashki.engine.hub.client import HubEngine
from shashki.engine.limits import Limit, move_seconds
from shashki.hub.player import HubPlayer
from shashki.records.clocks import TimeControl, clock_comment, clock_in
from shashki.rules import Color, Game, Termination
from shashki.rules.game import game_state
from shashki.session import Computer, GameClock, GameSession, ManualTime, Person

from .fakes import FakeExecutor, play

FAKE = Path(__file__).parents[1] / "hub" / "fake_engine.py"


def timed(game: Game, control: TimeControl, now: ManualTime) -> GameSession:
    """A game on time between two computers, driven (by a fake executor: nobody is asked
    unless the test says so): their clocks run from the first move (a person's first
    turn is off the clock, see test_clock_start.py)."""
    players = (Computer(1, seed=1), Computer(1, seed=1))
    session = GameSession(game, players, clock=GameClock(control, now=now))
    session.start(FakeExecutor())
    return session


def test_the_side_to_move_runs_and_gets_the_increment() -> None:
    now = ManualTime()
    session = timed(Game("russian"), TimeControl(60, 2), now)
    clock = session.clock
    assert clock is not None and clock.running is Color.WHITE
    now.t += 10
    assert clock.left(Color.WHITE) == 50 and clock.left(Color.BLACK) == 60
    play(session, "c3-d4")
    assert clock.running is Color.BLACK and clock.left(Color.WHITE) == 52  # + increment
    assert session.clock_marks == [52]
    now.t += 5
    play(session, "f6-g5")
    assert clock.left(Color.BLACK) == 57 and session.clock_marks == [52, 57]
    assert clock.flagged() is None
    now.t += 52  # White's deadline passes (its timer is posted to the executor)
    assert clock.flagged() is Color.WHITE and clock.left(Color.WHITE) == 0
    # a move after the flag fell is refused: the game ends on time instead
    assert not session.play(session.game.parse_move("b2-c3"))
    out = session.outcome
    assert out is not None and out.termination is Termination.TIME_FORFEIT
    assert out.winner is Color.BLACK and clock.running is None
    # a game lost on time stays lost: no takeback hands the move back to an empty clock,
    # and a resignation or a draw agreed in a dialog that was open meanwhile changes nothing
    assert not session.can_undo() and not session.undo()
    assert session.resign(Color.BLACK) == out and session.answer_draw(True) is None
    assert session.outcome == out


def test_a_double_move_turn_runs_on_one_clock_until_it_is_complete() -> None:
    now = ManualTime()
    session = timed(Game("double-move"), TimeControl(60, 5), now)
    gen = session.variant.generator
    clock = session.clock
    assert clock is not None and gen.half_turn(game_state(session.game)) == 1
    now.t += 3
    assert session.play(session.legal[0])
    # the first move of the turn: the same clock goes on, no increment yet
    assert session.game.turn is Color.WHITE and clock.running is Color.WHITE
    assert clock.left(Color.WHITE) == 57 and session.clock_marks == [57]
    now.t += 2
    assert session.play(session.legal[0])
    assert clock.running is Color.BLACK and clock.left(Color.WHITE) == 60  # 55 + 5
    assert session.clock_marks == [57, 60]


def test_undo_keeps_the_clocks_and_redo_replays_without_increment() -> None:
    now = ManualTime()
    game = Game("russian")
    for text in ("a3-b4", "h6-g5"):  # both have moved: the clocks run (people's game)
        game.push(game.parse_move(text))
    session = GameSession(game, clock=GameClock(TimeControl(60, 2), now=now))
    session.start(FakeExecutor())
    clock = session.clock
    assert clock is not None
    now.t += 10
    play(session, "c3-d4")
    now.t += 4
    assert session.undo()
    # nothing is given back: White's 52 s stay, Black's 4 s are gone; White runs again
    assert clock.left(Color.WHITE) == 52 and clock.left(Color.BLACK) == 56
    assert clock.running is Color.WHITE and session.clock_marks == [None, None]
    assert session.redo()
    assert clock.running is Color.BLACK and clock.left(Color.WHITE) == 52
    assert session.clock_marks == [None, None, 52]


def test_no_clock_passes_the_ten_hours_its_mark_can_say() -> None:
    """The longest clock, 600+3600: the increment stops at ten hours, so every time left
    written as a [%clk] mark is one the reader takes back (beyond, it is ignored)."""
    now = ManualTime()
    session = timed(Game("russian"), TimeControl(36000, 3600), now)
    for text in ("c3-d4", "f6-g5", "b2-c3"):
        now.t += 1
        play(session, text)
    assert session.clock_marks == [36000, 36000, 36000]
    assert [clock_in(clock_comment(t)) for t in session.clock_marks] == [36000] * 3  # type: ignore[arg-type]
    now.t += 1
    play(session, "g5-h4")
    assert session.clock_marks[-1] == 36000  # 35999 + 3600 stops at ten hours


def test_the_clock_of_a_saved_game() -> None:
    clock = GameClock.resumed(
        TimeControl(300, 3), [290.0, 280.5, None], [Color.WHITE, Color.BLACK, Color.WHITE]
    )
    assert clock.left(Color.WHITE) == 290 and clock.left(Color.BLACK) == 280.5
    assert clock.running is None


def test_the_computer_takes_its_time_from_the_clock() -> None:
    computer = Computer(5)
    assert computer.engine.seconds == 1.0
    own_depth = computer.engine.depth
    game = Game("russian")
    # (a depth ends the search long before the clock's share of 12 s would)
    assert computer.think(game, Limit(left=300, increment=3, depth=2), lambda: False) is not None
    assert computer.engine.seconds == move_seconds(300, 3) == pytest.approx(12.4)
    assert not computer.engine.per_move  # (a clock keeps what is not spent)
    computer.think(game, Limit(left=1.0), lambda: False)
    assert computer.engine.seconds < 0.5  # never a third of what is left, or more
    computer.think(game, Limit(), lambda: False)
    assert computer.engine.seconds == 1.0 and computer.engine.per_move
    assert computer.engine.depth == own_depth
    assert computer.seat() == "Computer · level 5" and Person("Anna").seat() == "Anna"


def test_the_session_gives_the_side_to_move_its_clock() -> None:
    """What the driver hands a search: the time left of the side to move, the increment,
    the front end's overhead."""
    now = ManualTime()
    session = GameSession(
        Game("russian"), clock=GameClock(TimeControl(300, 3), now=now), overhead=0.6
    )
    session.start(FakeExecutor())
    play(session, "c3-d4")
    play(session, "f6-g5")
    now.t += 20
    limit = session.move_limit()
    assert limit.left == 280 and limit.increment == 3 and limit.overhead == 0.6
    assert limit.move_seconds(1.0) == move_seconds(280, 3, overhead=0.6)


def test_a_hub_engine_on_a_clock_gets_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, object]] = []
    original = HubEngine.best_move

    def spy(self: HubEngine, game: Game, **kwargs: object) -> object:
        seen.append(kwargs)
        return original(self, game, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(HubEngine, "best_move", spy)
    seat = HubPlayer(f"{sys.executable} {FAKE} ok")
    game = Game("international")
    try:
        assert (
            seat.think(game, Limit(left=42.5, increment=2.0), lambda: False) in game.legal_moves()
        )
        assert seat.think(game, Limit(), lambda: False) in game.legal_moves()
    finally:
        seat.close()
    assert seen[0]["remaining"] == 42.5 and seen[0]["increment"] == 2.0
    assert "remaining" not in seen[1] and seen[1]["seconds"] == seat.seconds
