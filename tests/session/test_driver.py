"""The turn driver's contract, with a fake executor and a fake clock: nothing runs until
the test says so, so each race is put in the order the test means.  A move for a
position that is gone, a flag that falls during a search, a takeback during a search and
an engine that dies are each handled once; the flag has one deadline a turn and no one
polls it; the minimum move delay is a timer; a change from another thread is refused."""

from __future__ import annotations

import threading

import pytest

from shashki.records.clocks import TimeControl
from shashki.rules import Color, Game, Termination
from shashki.session import (
    ClockChanged,
    Computer,
    Dropped,
    DropReason,
    GameClock,
    GameEnded,
    GameSession,
    InlineExecutor,
    ManualTime,
    MovePlayed,
    OnFailure,
    Person,
    SeatFailed,
    SeatReady,
    TakenBack,
    Thinking,
)

from .fakes import Dying, FakeExecutor, Stubborn, heard, play

WHITE, BLACK = Color.WHITE, Color.BLACK


def against(player: Stubborn, **kw):  # type: ignore[no-untyped-def]
    """A person (White) against ``player``, started on a fake executor (the player got
    ready: started, its name said)."""
    session = GameSession(Game("russian"), (Person("Anna"), player), **kw)
    executor = FakeExecutor()
    events = heard(session)
    session.start(executor)
    assert len(executor.work) == 1  # the player not to move gets ready at once
    executor.run_work()
    executor.run_posted()
    return session, executor, events


def test_a_person_then_the_computer_through_the_driver() -> None:
    stubborn = Stubborn()
    session, executor, events = against(stubborn)
    assert executor.work == []  # a person to move: nobody is asked
    assert [e.player for e in events.of(SeatReady)] == [stubborn]  # type: ignore[attr-defined]
    play(session, "c3-d4")
    assert len(executor.work) == 1 and session.thinking is stubborn
    (thinking,) = events.of(Thinking)
    assert thinking.side is BLACK and thinking.player is stubborn  # type: ignore[attr-defined]
    executor.run_work()  # the search answers: posted, not played yet
    assert len(session.game.move_stack) == 1
    executor.run_posted()
    assert len(session.game.move_stack) == 2 and session.thinking is None
    moves = events.of(MovePlayed)
    assert [m.by_computer for m in moves] == [False, True]  # type: ignore[attr-defined]
    # the search had a copy: the session's game was never handed to another thread
    assert stubborn.asked[0] is not session.game
    assert stubborn.started == 1  # started once, as the game started


def test_a_move_for_a_position_that_is_gone_is_dropped_once() -> None:
    """A takeback and the same move again: the first search's answer is for a position
    that is gone (the board is the same, the position is not), the second's is played."""
    stubborn = Stubborn()
    session, executor, events = against(stubborn)
    play(session, "c3-d4")
    assert session.undo()
    play(session, "c3-d4")
    assert len(executor.work) == 2
    assert stubborn.cancels[0:1] == [] or True  # (the searches have not run yet)
    executor.run_work(0)  # the old search answers late
    executor.run_posted()
    assert len(session.game.move_stack) == 1  # not played
    (dropped,) = events.of(Dropped)
    assert dropped.reason is DropReason.POSITION_GONE  # type: ignore[attr-defined]
    assert stubborn.cancels[0]()  # it had been told to stop
    executor.run_work(0)  # the current search answers
    executor.run_posted()
    assert len(session.game.move_stack) == 2
    assert len(events.of(MovePlayed)) == 3 and len(events.of(Dropped)) == 1
    assert not stubborn.cancels[1]()


def test_a_takeback_during_a_search_drops_its_answer_once() -> None:
    stubborn = Stubborn()
    session, executor, events = against(stubborn)
    play(session, "c3-d4")
    assert session.undo()  # while the computer thinks
    assert session.game.move_stack == [] and session.thinking is None
    assert [e.plies for e in events.of(TakenBack)] == [1]  # type: ignore[attr-defined]
    executor.run_work()
    assert executor.run_posted() == 1
    assert session.game.move_stack == []
    assert len(events.of(Dropped)) == 1 and len(events.of(MovePlayed)) == 1
    assert executor.work == []  # the person is to move: nobody asked again


def test_a_flag_that_falls_during_a_search_ends_the_game_once() -> None:
    now = ManualTime()
    stubborn = Stubborn()
    session, executor, events = against(stubborn, clock=GameClock(TimeControl(10, 0), now=now))
    play(session, "c3-d4")  # the person's first move is free; the computer's clock runs
    assert session.clock is not None and session.clock.running is BLACK
    cancelled = stubborn.cancels
    assert executor.work  # thinking
    now.advance(9.9)
    assert executor.run_posted() == 0  # no flag yet: nothing polled, nothing posted
    now.advance(0.2)  # the deadline passes: its timer posts the flag
    assert executor.run_posted() == 1
    out = session.outcome
    assert out is not None and out.termination is Termination.TIME_FORFEIT
    assert out.winner is WHITE
    assert len(events.of(GameEnded)) == 1
    executor.run_work()  # the search answers after the flag fell
    assert cancelled and cancelled[0]()  # (it was told to stop)
    executor.run_posted()
    assert len(session.game.move_stack) == 1 and len(events.of(GameEnded)) == 1
    (dropped,) = events.of(Dropped)
    assert dropped.reason is DropReason.GAME_OVER  # type: ignore[attr-defined]
    assert session.clock.running is None


def test_a_search_stops_at_its_deadline_and_the_flag_wins_over_its_move() -> None:
    """The search is told to stop when its time is up (its ``cancelled()`` reads the
    deadline); a move that arrives after the deadline, before the timer ran, loses on
    time all the same."""
    now = ManualTime()
    stubborn = Stubborn()
    session, executor, events = against(stubborn, clock=GameClock(TimeControl(5, 0), now=now))
    play(session, "c3-d4")
    executor.run_work()
    assert not stubborn.cancels[0]()
    now.advance(6)
    assert stubborn.cancels[0]()
    executor.run_posted()  # the answer and the deadline: the flag first, once
    out = session.outcome
    assert out is not None and out.termination is Termination.TIME_FORFEIT
    assert len(session.game.move_stack) == 1 and len(events.of(GameEnded)) == 1


def test_a_persons_move_after_the_flag_fell_is_refused() -> None:
    now = ManualTime()
    session = GameSession(
        Game("russian"),
        (Person("Anna"), Person("Boris")),
        clock=GameClock(TimeControl(5, 0), now=now),
    )
    executor = FakeExecutor()
    events = heard(session)
    session.start(executor)
    play(session, "c3-d4")
    play(session, "f6-g5")  # both first turns free: White's clock runs
    now.advance(5.5)  # the timer has posted the flag, not run yet
    assert not session.play(session.game.parse_move("b2-c3"))
    out = session.outcome
    assert out is not None and out.termination is Termination.TIME_FORFEIT and out.winner is BLACK
    executor.run_posted()
    assert len(events.of(GameEnded)) == 1


def test_one_deadline_a_turn() -> None:
    """The deadline is set when a clock starts running and moved only when it stops or the
    other runs: the driver's steps between set no other timer."""
    now = ManualTime()
    stubborn = Stubborn()
    session, executor, _events = against(stubborn, clock=GameClock(TimeControl(60, 1), now=now))
    play(session, "c3-d4")
    timers = len(now._timers._heap)  # (the manual time's timers: the deadline's)
    assert timers == 1
    session.players = session.players  # a step of the driver: nothing changes
    session.ask_takeback(WHITE)
    assert len(now._timers._heap) == timers
    executor.run_work()
    executor.run_posted()  # the computer's move: White's clock runs, a new deadline
    live = [t for _due, _n, t in now._timers._heap if t.action is not None]
    assert len(live) == 1 and session.clock is not None and session.clock.running is WHITE


def test_an_engine_that_dies_gives_its_seat_to_a_person_once() -> None:
    dying = Dying("Dying")
    session, executor, events = against(dying)
    play(session, "c3-d4")
    executor.run_work()
    executor.run_posted()
    (failed,) = events.of(SeatFailed)
    assert failed.then is OnFailure.PERSON and failed.message == "Dying stopped (said)"  # type: ignore[attr-defined]
    assert isinstance(session.players[1], Person) and session.players[1].name == "Dying"
    assert dying.closed == 1 and session.outcome is None and executor.work == []
    play(session, "f6-g5")  # the person plays that side now


def test_an_engine_that_dies_loses_the_game_by_forfeit() -> None:
    """A match's policy: the referee scores the game; the record says why."""
    dying = Dying("Dying")
    session, executor, events = against(dying, on_failure=OnFailure.LOSE)
    play(session, "c3-d4")
    executor.run_work()
    executor.run_posted()
    out = session.outcome
    assert out is not None and out.termination is Termination.FORFEIT and out.winner is WHITE
    assert len(events.of(GameEnded)) == 1 and len(events.of(SeatFailed)) == 1
    headers = session.record().headers
    assert headers["Result"] == "1-0"
    assert headers["Termination"] == "White wins: Dying (Black) could not go on: Dying stopped."


def test_an_engine_that_dies_is_started_again_once_a_move() -> None:
    dying = Dying("Dying")
    session, executor, events = against(dying, on_failure=OnFailure.RESTART)
    play(session, "c3-d4")
    executor.run_work()
    executor.run_posted()
    assert [e.then for e in events.of(SeatFailed)] == [OnFailure.RESTART]  # type: ignore[attr-defined]
    assert session.outcome is None and len(executor.work) == 1  # asked again
    executor.run_work()
    executor.run_posted()
    assert dying.started == 2  # started again for its second try (with that search)
    out = session.outcome
    assert out is not None and out.termination is Termination.FORFEIT
    assert [e.then for e in events.of(SeatFailed)] == [OnFailure.RESTART, OnFailure.LOSE]  # type: ignore[attr-defined]


def test_a_failure_of_a_search_given_up_is_dropped() -> None:
    dying = Dying("Dying")
    session, executor, events = against(dying)
    play(session, "c3-d4")
    assert session.undo()  # before the engine's death is known
    executor.run_work()
    executor.run_posted()
    assert events.of(SeatFailed) == [] and session.players[1] is dying
    assert len(events.of(Dropped)) == 1


def test_the_minimum_move_delay_is_a_timer() -> None:
    stubborn = Stubborn()
    session = GameSession(Game("russian"), (Person("Anna"), stubborn))
    executor = FakeExecutor()
    events = heard(session)
    session.start(executor, min_move_delay=3600.0)
    executor.run_work()  # (the computer gets ready)
    executor.run_posted()
    play(session, "c3-d4")
    executor.run_work()
    executor.run_posted()
    assert len(session.game.move_stack) == 1  # held by the delay
    (timer,) = executor.timers
    assert 3590 < timer.seconds <= 3600
    executor.fire_timers()
    assert len(session.game.move_stack) == 2
    # a takeback while a move is held: dropped, its timer cancelled
    assert session.undo() and session.game.move_stack == []
    play(session, "c3-d4")
    executor.run_work()
    executor.run_posted()
    assert session.undo()
    assert executor.timers[-1].cancelled
    executor.fire_timers()
    assert session.game.move_stack == [] and len(events.of(Dropped)) == 1


def test_players_get_ready_once_and_say_so() -> None:
    first, second = Stubborn("One"), Stubborn("Two")
    session = GameSession(Game("russian"), (first, second))
    executor = FakeExecutor()
    events = heard(session)
    session.start(executor)
    assert len(executor.work) == 2  # Two gets ready; One starts and thinks in one work
    executor.run_work(0)
    executor.run_work(0)
    executor.run_posted()
    assert first.started == 1 and second.started == 1
    assert {e.player.name for e in events.of(SeatReady)} == {"One", "Two"}  # type: ignore[attr-defined]
    assert len(session.game.move_stack) == 1
    executor.run_work()
    executor.run_posted()
    assert second.started == 1  # not started again for its move


def test_changes_come_from_the_owners_thread_only() -> None:
    session = GameSession(Game("russian"))
    session.start(FakeExecutor())
    errors: list[BaseException] = []

    def elsewhere() -> None:
        try:
            session.play(session.game.parse_move("c3-d4"))
        except RuntimeError as exc:
            errors.append(exc)

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert errors and "thread" in str(errors[0])
    assert session.game.move_stack == []
    play(session, "c3-d4")  # on the owner's thread


def test_inline_a_game_of_two_computers_is_a_loop() -> None:
    """The match's executor: the whole game on this thread, no recursion however long,
    adjudicated at the session's limit of plies."""
    session = GameSession(
        Game("russian"), (Computer(1, seed=1, depth=1), Computer(1, seed=2, depth=1)), max_plies=300
    )
    events = heard(session)
    session.start(InlineExecutor())
    out = session.outcome
    assert out is not None
    assert len(events.of(MovePlayed)) == len(session.game.move_stack)
    if out.termination is Termination.ADJUDICATED:
        assert len(session.game.move_stack) == 300 and out.winner is None
    assert len(events.of(GameEnded)) == 1


def test_closing_gives_up_the_search_and_the_deadline() -> None:
    now = ManualTime()
    stubborn = Stubborn()
    session, executor, events = against(stubborn, clock=GameClock(TimeControl(5, 0), now=now))
    play(session, "c3-d4")
    session.close()
    now.advance(60)
    executor.run_work()
    assert stubborn.cancels[0]() and stubborn.closed == 1
    executor.run_posted()
    assert session.outcome is None and len(session.game.move_stack) == 1
    assert events.of(Dropped) == [] and isinstance(events.events[-1], ClockChanged)


@pytest.mark.parametrize("policy", list(OnFailure))
def test_a_player_that_fails_to_start(policy: OnFailure) -> None:
    class NoStart(Stubborn):
        def start(self, variant):  # type: ignore[no-untyped-def]
            from shashki.session import PlayerFailed

            raise PlayerFailed("cannot start")

    broken = NoStart("Broken")
    session = GameSession(Game("russian"), (Person("Anna"), broken), on_failure=policy)
    executor = FakeExecutor()
    events = heard(session)
    session.start(executor)
    executor.run_work()
    executor.run_posted()
    assert len(events.of(SeatFailed)) == 1
    if policy is OnFailure.PERSON:
        assert isinstance(session.players[1], Person) and session.outcome is None
    elif policy is OnFailure.LOSE:
        assert session.outcome is not None and session.outcome.termination is Termination.FORFEIT
    else:
        assert session.outcome is None and session.players[1] is broken
