"""The game session without Textual: a front end that only subscribes to a
:class:`GameSession` plays a whole game on a clock (shashki's level 1 against a fake Hub
engine), a flag fall ends it, offers and takebacks are answered by the players, a failed
engine gives its seat to a person, and the record keeps who sat where and the clocks."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shashki.engine.limits import Limit, move_seconds
from shashki.hub.player import HubPlayer, make_player
from shashki.hub.server import seconds_for
from shashki.records.clocks import TimeControl, record_clocks
from shashki.rules import Color, Game, Termination
from shashki.session import (
    Changed,
    ClockChanged,
    Computer,
    DrawAnswered,
    DrawOffered,
    Event,
    GameClock,
    GameEnded,
    GameSession,
    MovePlayed,
    Person,
    Player,
    SeatFailed,
    TakenBack,
    ThreadExecutor,
    parse_seat,
)
from shashki.session.seats import PERSON, CommandSeat, LevelSeat, NamedEngineSeat
from shashki.store.settings import EngineSetting

FAKE = Path(__file__).parents[1] / "hub" / "fake_engine.py"


def fake(mode: str) -> HubPlayer:
    return HubPlayer(f"{sys.executable} {FAKE} {mode}")


class FrontEnd:
    """A front end of a few lines: it keeps every event and knows when the game ended."""

    def __init__(self, session: GameSession) -> None:
        self.events: list[Event] = []
        self.ended = threading.Event()
        self.lock = threading.Lock()
        session.subscribe(self.seen)

    def seen(self, event: Event) -> None:
        with self.lock:
            self.events.append(event)
        if isinstance(event, GameEnded):
            self.ended.set()

    def of(self, kind: type[Event]) -> list[Event]:
        with self.lock:
            return [e for e in self.events if isinstance(e, kind)]


def test_a_front_end_plays_a_clocked_game_through_the_session_alone() -> None:
    """The issue's test: level 1 against a fake Hub engine on a clock, every move a
    ``MovePlayed``, the clocks running in turn, the end a ``GameEnded``."""
    engine = fake("ok")
    session = GameSession(
        Game("international"),
        (Computer(1, seed=3), engine),
        clock=GameClock(TimeControl(30, 0.5)),
    )
    front = FrontEnd(session)
    owner = ThreadExecutor()  # the session's own thread; the engines think in others
    try:
        owner.call(lambda: session.start(owner))
        assert front.ended.wait(120), "the game did not end"
    finally:
        owner.call(session.close)
        owner.close()
    assert engine.engine is None  # closed with the session
    outcome = session.outcome
    assert outcome is not None
    (ended,) = front.of(GameEnded)
    assert ended.outcome == outcome  # type: ignore[attr-defined]
    played = [e.move for e in front.of(MovePlayed)]  # type: ignore[attr-defined]
    assert played == session.game.move_stack and len(played) > 10
    sides = [e.side for e in front.of(MovePlayed)]  # type: ignore[attr-defined]
    assert sides[:2] == [Color.WHITE, Color.BLACK]
    running = [e.running for e in front.of(ClockChanged)]  # type: ignore[attr-defined]
    assert running[:3] == [Color.WHITE, Color.BLACK, Color.WHITE] and running[-1] is None
    replay = Game("international")
    for move in played:
        replay.push(move)  # every move was legal where it was played
    record = session.record()
    assert record.headers["WhiteType"] == record.headers["BlackType"] == "program"
    assert record.headers["WhiteLevel"] == "1" and "BlackLevel" not in record.headers
    assert record.headers["TimeControl"] == "30+0.5"
    assert record.headers["Result"] == outcome.result()
    marks = record_clocks(record)
    assert len(marks) == len(played) and all(m is not None and m > 0 for m in marks)


def test_a_flag_fall_ends_the_game_at_once_whatever_the_engine_does() -> None:
    """An engine that never answers loses on time when its flag falls: the session ends
    the game then, not when the engine's stop times out."""
    hang = fake("hang")
    session = GameSession(
        Game("international"), (Computer(1, seed=1), hang), clock=GameClock(TimeControl(0.5, 0))
    )
    front = FrontEnd(session)
    owner = ThreadExecutor()
    try:
        owner.call(lambda: session.start(owner))
        assert front.ended.wait(120), "the flag did not fall"
        outcome = session.outcome
        assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
        assert outcome.winner is Color.WHITE and len(session.game.move_stack) == 1
        assert session.clock is not None and session.clock.running is None
    finally:
        owner.call(session.close)
        owner.close()


def test_the_computer_answers_when_a_person_has_moved() -> None:
    session = GameSession(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
    front = FrontEnd(session)
    session.start()  # (inline: on this thread)
    assert session.game.move_stack == []  # a person is to move first
    first = session.game.parse_move("c3-d4")
    assert session.play(first)
    assert not session.play(first)  # not legal now: refused, nothing changes
    assert len(session.game.move_stack) == 2 and session.player_to_move.name == "Anna"
    moves = front.of(MovePlayed)
    assert [m.by_computer for m in moves] == [False, True]  # type: ignore[attr-defined]
    assert front.of(Changed)


def test_offers_are_answered_by_the_players() -> None:
    session = GameSession(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
    front = FrontEnd(session)
    assert session.offer_draw(Color.WHITE) is False  # the computer declines
    assert session.outcome is None and session.draw_offer is None
    (offered,) = front.of(DrawOffered)
    (answered,) = front.of(DrawAnswered)
    assert offered.side is Color.WHITE and answered.accepted is False  # type: ignore[attr-defined]
    people = GameSession(Game("russian"))
    people_front = FrontEnd(people)
    assert people.offer_draw() is None  # a person answers through the front end
    assert people.draw_offer is Color.WHITE
    people.answer_draw(True)
    assert people.outcome is not None and people.outcome.winner is None
    assert people_front.ended.is_set()


def test_takebacks_and_resignation() -> None:
    session = GameSession(Game("russian"), (Person("Anna"), Computer(1, seed=1)))
    front = FrontEnd(session)
    session.start()
    session.play(session.game.parse_move("c3-d4"))  # and the computer's answer
    assert session.ask_takeback(Color.WHITE) is True  # the computer agrees
    assert session.undo() and session.game.move_stack == []
    assert [e.plies for e in front.of(TakenBack)] == [2]  # type: ignore[attr-defined]
    outcome = session.resign(Color.WHITE)
    assert outcome.winner is Color.BLACK and front.ended.is_set()


def test_an_engine_that_fails_gives_its_seat_to_a_person() -> None:
    crash = fake("crash")
    session = GameSession(Game("international"), (crash, Person("Anna")))
    front = FrontEnd(session)
    failed = threading.Event()
    session.subscribe(lambda e: failed.set() if isinstance(e, SeatFailed) else None)
    owner = ThreadExecutor()
    try:
        owner.call(lambda: session.start(owner))
        assert failed.wait(120)
    finally:
        owner.close()
    (event,) = front.of(SeatFailed)
    assert event.side is Color.WHITE and "stopped" in event.message  # type: ignore[attr-defined]
    assert isinstance(session.players[0], Person) and session.players[0].name == crash.name
    assert crash.engine is None and session.outcome is None


# -- one time allocation, one limit, one parser of seats ---------------------------------


def test_one_share_of_the_clock_everywhere() -> None:
    """The app's players, ``shashki hub`` and the Hub client share a clock alike."""
    assert seconds_for(300, 3, None) == move_seconds(300, 3) == pytest.approx(12.4)
    assert seconds_for(10, 2, 1) == move_seconds(10, 2, 1) <= 10
    assert Limit(left=300, increment=3).move_seconds(1.0) == move_seconds(300, 3)
    assert Limit(seconds=0.25).move_seconds(1.0) == 0.25
    assert Limit(depth=3).move_seconds(1.0) == 1.0


@given(
    st.floats(0, 36_000, allow_nan=False),
    st.floats(0, 3600, allow_nan=False),
    st.one_of(st.none(), st.integers(1, 200)),
)
def test_a_share_never_runs_the_clock_out(left: float, increment: float, moves: int | None) -> None:
    seconds = move_seconds(left, increment, moves)
    assert seconds >= 0.02
    assert seconds <= max(0.02, left)  # never more than is on the clock


def test_the_computer_takes_its_time_from_the_limit() -> None:
    computer = Computer(2, seed=1)
    game = Game("russian")
    assert computer.think(game, Limit(left=60, increment=1), lambda: False) in game.legal_moves()
    assert computer.engine.seconds == move_seconds(60, 1)
    computer.think(game, Limit(depth=1), lambda: False)
    assert computer.engine.depth == 1 and computer.engine.seconds == 0.5  # its own time
    computer.think(game, Limit(), lambda: False)
    assert computer.engine.depth == 2  # its level's own depth again


def test_one_parser_of_seats_with_a_mode_for_files() -> None:
    engines = [EngineSetting("Dame", "dame hub")]  # (the settings', as the callers pass)
    assert parse_seat("person") == parse_seat(" Human ") == PERSON
    assert parse_seat("5") == parse_seat("computer-5") == LevelSeat(5)
    assert (
        parse_seat("dame", engines=engines)
        == parse_seat("engine:Dame", engines=engines)
        == NamedEngineSeat("Dame")
    )
    assert parse_seat("hub:dame hub") == CommandSeat("dame hub")
    assert [s.word for s in (PERSON, LevelSeat(5), NamedEngineSeat("Dame"))] == [
        "human",
        "computer-5",
        "engine:Dame",
    ]
    for text in ("hub:", "0", "9", "strong", "9" * 5000):
        assert parse_seat(text) is None and parse_seat(text, from_file=True) is None
    assert parse_seat("hub:dame hub", from_file=True) is None  # a file never runs one
    assert parse_seat("Dame", from_file=True, engines=engines) == NamedEngineSeat("Dame")
    player = make_player(NamedEngineSeat("Dame"), "Black", engines=engines)
    assert isinstance(player, HubPlayer) and player.tags() == {
        "Type": "program",
        "Engine": "Dame",
    }
    hub = make_player(CommandSeat("dame hub"), "Black")
    assert isinstance(hub, HubPlayer) and "dame" not in str(hub.tags())  # no command
    assert isinstance(make_player(NamedEngineSeat("gone"), "Black", engines=engines), Person)
    assert isinstance(make_player(LevelSeat(3), "Bob"), Computer)
    assert isinstance(make_player(PERSON, "Bob"), Person)


def test_the_library_keeps_no_engines_of_its_own() -> None:
    """The settings' engines are passed by whoever parses and seats (issue 46): with
    none passed, no name is an engine, and an engine's seat seats a person."""
    assert parse_seat("dame") is None and parse_seat("engine:Dame") is None
    assert parse_seat("Dame", from_file=True) is None
    assert isinstance(make_player(NamedEngineSeat("Dame"), "Black"), Person)
    # of two engines with one name (in any case), the first is meant
    twins = [EngineSetting("Dame", "dame hub"), EngineSetting("DAME", "other hub")]
    player = make_player(NamedEngineSeat("dame"), "Black", engines=twins)
    assert isinstance(player, HubPlayer) and player.command == "dame hub"
    assert parse_seat("dame", engines=twins) == NamedEngineSeat("Dame")


@given(st.text(max_size=60))
def test_words_from_a_file_never_start_a_program(text: str) -> None:
    kind = parse_seat(text, from_file=True)
    assert not isinstance(kind, CommandSeat)


def test_a_player_is_a_person_by_default() -> None:
    player = Player()
    assert player.is_human and player.answer_draw(Game("russian")) is None
    assert player.tags() == {"Type": "human"}


def test_the_hub_client_gives_a_version_1_engine_the_same_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scan 2.0's dialect has no clock: the client sends it the one share of the clock
    as ``time MS`` (it sent a thirtieth of the time left, the increment forgotten)."""
    from shashki.engine.hub.client import HubEngine, HubProtocol

    engine = HubEngine([sys.executable, str(FAKE), "v1"])
    sent: list[str] = []
    send = HubProtocol.send

    def spy(self: HubProtocol, text: str) -> None:
        sent.append(text)
        send(self, text)

    monkeypatch.setattr(HubProtocol, "send", spy)
    game = Game("international")
    with engine:
        assert engine.version == 1
        assert engine.best_move(game, remaining=60.0, increment=3.0) in game.legal_moves()
    assert f"time {int(1000 * move_seconds(60, 3))}" in sent
    assert move_seconds(60, 3) > 60 / 30  # (most of the increment counts)
