"""When the clocks start and how they pause, in the session (every front end's): a
person's first turn is off the clock, a computer's is not, a resumed game runs at once;
a pause stops both clocks, loses and gains no time, lets no move through, and an online
game (``can_pause`` off) cannot pause.  Time is a fake source moved by hand: no sleeps."""

from __future__ import annotations

from shashki.records.clocks import TimeControl
from shashki.rules import Color, Game
from shashki.rules.game import game_state
from shashki.session import (
    ClockChanged,
    Computer,
    Event,
    GameClock,
    GameSession,
    Paused,
    Person,
)

WHITE, BLACK = Color.WHITE, Color.BLACK


class FakeTime:
    """A clock source moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def timed(game: Game, players=None, control=None, **kw):  # type: ignore[no-untyped-def]
    now = FakeTime()
    control = control or TimeControl(60, 2)
    session = GameSession(game, players, clock=GameClock(control, now=now), **kw)
    return session, now


def play(session: GameSession, text: str) -> None:
    assert session.play(session.game.parse_move(text)), text


def left(session: GameSession) -> tuple[float, float]:
    clock = session.clock
    assert clock is not None
    return clock.left(WHITE), clock.left(BLACK)


def test_each_persons_first_turn_is_off_the_clock() -> None:
    """Hot-seat: the clocks wait at the start however long, and after White's first move
    (Black's first is off the clock too); from Black's first move on, the side to move's
    clock runs and the increment is given for a turn played on the clock only."""
    session, now = timed(Game("russian"))
    session.start()
    assert session.clock is not None and session.clock.running is None
    now.t += 100  # the players sit down, read the board…
    assert left(session) == (60, 60)
    play(session, "c3-d4")
    assert session.clock.running is None and left(session) == (60, 60)
    now.t += 30
    play(session, "f6-g5")
    assert session.clock.running is WHITE and left(session) == (60, 60)  # no increment
    assert session.clock_marks == [60, 60]
    now.t += 10
    assert left(session) == (50, 60)
    play(session, "b2-c3")
    assert session.clock.running is BLACK and left(session) == (52, 60)
    now.t += 4
    play(session, "g7-f6")
    assert left(session) == (52, 58) and session.clock_marks == [60, 60, 52, 58]


def test_a_computers_clock_runs_from_its_first_move_to_make() -> None:
    """A person against the computer: the person's first move is free, the computer's
    clock runs as soon as it is to move (it loses on time if it hangs)."""
    session, now = timed(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
    session.start_clock()
    assert session.clock is not None and session.clock.running is None
    now.t += 3  # the three seconds: White's clock is still full
    assert left(session) == (60, 60)
    play(session, "c3-d4")
    assert session.clock.running is BLACK
    now.t += 1
    assert left(session) == (60, 59)
    # the computer plays White: its clock runs at once; then the person's first is free
    other, now = timed(Game("russian"), (Computer(1, seed=1), Person("Anna")))
    other.start_clock()
    assert other.clock is not None and other.clock.running is WHITE
    now.t += 2
    play(other, "c3-d4")
    assert other.clock.running is None and left(other) == (60, 60)  # 58 + 2
    play(other, "f6-g5")
    assert other.clock.running is WHITE


def test_a_resumed_game_runs_at_once_and_a_takeback_to_the_start_waits_again() -> None:
    game = Game("russian")
    for text in ("c3-d4", "f6-g5"):
        game.push(game.parse_move(text))
    session, now = timed(game)
    session.start_clock()
    assert session.clock is not None and session.clock.running is WHITE
    now.t += 5
    play(session, "b2-c3")
    assert session.clock.running is BLACK and left(session) == (57, 60)
    while session.game.move_stack:
        assert session.undo()
    assert session.clock.running is None  # back at the start: the game starts again


def test_a_first_turn_of_two_moves_is_off_the_clock_until_it_is_complete() -> None:
    session, now = timed(Game("double-move"), control=TimeControl(60, 5))
    session.start_clock()
    gen = session.variant.generator
    assert gen.half_turn(game_state(session.game)) == 1
    assert session.play(session.legal[0])
    now.t += 7
    assert session.clock is not None and session.clock.running is None
    assert session.play(session.legal[0])  # White's turn complete; Black's first: free
    assert session.game.turn is BLACK and session.clock.running is None
    assert left(session) == (60, 60)


def test_a_pause_stops_both_clocks_and_loses_or_gains_no_time() -> None:
    session, now = timed(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
    events: list[Event] = []
    session.subscribe(events.append)
    session.start_clock()
    play(session, "c3-d4")
    assert session.clock is not None and session.clock.running is BLACK
    now.t += 7.5
    assert session.pause() and session.paused
    assert session.clock.running is None and left(session) == (60, 52.5)
    assert [e.paused for e in events if isinstance(e, Paused)] == [True]  # type: ignore[attr-defined]
    assert isinstance(events[-2], ClockChanged) and events[-2].running is None  # type: ignore[attr-defined]
    now.t += 600  # ten minutes away from the board: nothing runs
    assert left(session) == (60, 52.5)
    # no move while paused (a computer's thought of before: tests/session/test_driver.py)
    move = session.game.parse_move("f6-g5")
    assert not session.play(move)
    assert not session.pause()  # paused already
    assert session.resume() and not session.paused
    assert session.clock.running is BLACK and left(session) == (60, 52.5)
    now.t += 2.5
    assert left(session) == (60, 50)
    assert not session.resume()  # not paused
    play(session, "f6-g5")
    assert left(session) == (60, 52)  # 50 + 2


def test_a_pause_kept_through_a_takeback_and_ended_by_the_end_of_the_game() -> None:
    session, _now = timed(Game("russian"))
    session.start_clock()
    play(session, "c3-d4")
    play(session, "f6-g5")
    assert session.pause()
    assert session.undo()  # the takeback does not start a clock while paused
    assert session.clock is not None and session.clock.running is None
    session.resign(BLACK)
    assert session.outcome is not None and not session.paused and not session.pause()


def test_an_online_game_or_one_without_a_clock_cannot_pause() -> None:
    session, _now = timed(Game("russian"), can_pause=False)
    session.start_clock()
    play(session, "c3-d4")
    play(session, "f6-g5")
    assert not session.pause() and not session.paused
    assert session.clock is not None and session.clock.running is WHITE
    untimed = GameSession(Game("russian"))
    assert not untimed.pause() and not untimed.paused


def test_a_player_says_whether_its_first_turn_is_free() -> None:
    """A remote person (not at this board, moves from the network) gets the free first
    turn as a person here does: the player says so, the session follows."""

    class Remote(Computer):
        @property
        def first_turn_free(self) -> bool:
            return True

    session, now = timed(Game("russian"), (Remote(1, seed=1), Person("Anna")))
    session.start_clock()
    assert session.clock is not None and session.clock.running is None
    now.t += 9
    play(session, "c3-d4")
    assert left(session) == (60, 60) and session.clock.running is None
    assert not Computer(1).first_turn_free and Person("Anna").first_turn_free
