"""Turns, takebacks, offers and the end in the session (moved down from the app's
controller tests: the referee, not the board): undo and redo and the undo policy, a
takeback against the computer back to the person's turn, a draw offered, declined and
agreed (and taken back), a resignation, and a new position for every move."""

from __future__ import annotations

from shashki.rules import Color, Game, Termination
from shashki.session import GameSession, Person, UndoPolicy

from .fakes import FakeExecutor, Stubborn, play


def test_undo_redo_and_policy() -> None:
    session = GameSession(Game("russian"))
    play(session, "c3-d4")
    play(session, "f6-g5")
    assert session.undo() and len(session.game.move_stack) == 1
    assert session.redo() and len(session.game.move_stack) == 2
    assert not session.redo()
    session.undo_policy = UndoPolicy.OFF
    assert not session.can_undo() and not session.undo()


def test_undo_against_the_computer_goes_back_to_the_persons_turn() -> None:
    session = GameSession(Game("russian"), (Person("me"), Stubborn()))
    executor = FakeExecutor()
    session.start(executor)
    executor.run_work()  # (the computer gets ready)
    play(session, "c3-d4")
    executor.run_work()
    executor.run_posted()  # its answer
    assert len(session.game.move_stack) == 2
    assert session.undo_plies() == 2
    assert session.undo()
    assert session.game.move_stack == [] and session.game.turn is Color.WHITE
    assert session.redo()  # the computer's answer is replayed with the person's move
    assert len(session.game.move_stack) == 2 and executor.work == []


def test_draw_offer_and_resignation() -> None:
    session = GameSession(Game("russian"))
    assert session.offer_draw() is None  # a person is asked by the front end
    assert session.draw_offer is Color.WHITE
    assert session.answer_draw(False) is None and session.outcome is None
    session.offer_draw()
    out = session.answer_draw(True)
    assert out is not None and out.termination is Termination.AGREED_DRAW
    assert session.undo()  # the agreement is taken back
    assert session.outcome is None
    out = session.resign()
    assert out.winner is Color.BLACK and out.termination is Termination.RESIGNATION


def test_a_new_position_for_every_move_and_takeback() -> None:
    session = GameSession(Game("russian"))
    seen = {session.position_id}
    play(session, "c3-d4")
    seen.add(session.position_id)
    session.undo()
    seen.add(session.position_id)
    play(session, "c3-d4")  # the same board again: another position for the driver
    seen.add(session.position_id)
    assert len(seen) == 4


def test_a_pause_gives_up_the_search_and_the_resume_asks_again() -> None:
    from shashki.records.clocks import TimeControl
    from shashki.session import Dropped, GameClock, ManualTime

    from .fakes import heard

    session = GameSession(
        Game("russian"),
        (Person("me"), Stubborn()),
        clock=GameClock(TimeControl(60, 0), now=ManualTime()),
    )
    executor = FakeExecutor()
    events = heard(session)
    session.start(executor)
    executor.run_work()
    play(session, "c3-d4")
    assert session.pause() and session.thinking is None
    executor.run_work()  # the answer thought of before the pause
    executor.run_posted()
    assert len(session.game.move_stack) == 1 and len(events.of(Dropped)) == 1
    assert session.resume() and session.thinking is not None  # asked again
    executor.run_work()
    executor.run_posted()
    assert len(session.game.move_stack) == 2
