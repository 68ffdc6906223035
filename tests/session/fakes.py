"""A fake executor and fake players for the turn driver's tests: nothing runs until the
test says so, so that each test puts the events in the order it means to check."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from shashki.engine.limits import Limit
from shashki.rules import Game, Move
from shashki.rules.variant import Variant
from shashki.session import Event, GameSession, Player, PlayerFailed
from shashki.session.driver import Action


@dataclass
class HeldTimer:
    seconds: float
    action: Action
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeExecutor:
    """An executor that holds everything: the searches submitted, the actions posted, the
    timers set; the test runs them (on its own thread, the session's owner)."""

    def __init__(self) -> None:
        self.work: list[Action] = []
        self.posted: deque[Action] = deque()
        self.timers: list[HeldTimer] = []

    def submit(self, work: Action) -> None:
        self.work.append(work)

    def post(self, action: Action) -> None:
        self.posted.append(action)

    def later(self, seconds: float, action: Action) -> HeldTimer:
        timer = HeldTimer(seconds, action)
        self.timers.append(timer)
        return timer

    def run_work(self, index: int = 0) -> None:
        """Run one held search (its answer is posted, not played yet)."""
        self.work.pop(index)()

    def run_posted(self) -> int:
        """Run what was posted, in order, until nothing is; how many ran."""
        ran = 0
        while self.posted:
            self.posted.popleft()()
            ran += 1
        return ran

    def fire_timers(self) -> None:
        """Fire the timers set and not cancelled (the minimum move delay's)."""
        timers, self.timers = self.timers, []
        for timer in timers:
            if not timer.cancelled:
                timer.action()


class Stubborn(Player):
    """A computer that thinks until told, then answers its first legal move whatever
    ``cancelled()`` says (a late answer reaches the driver)."""

    is_human = False

    def __init__(self, name: str = "Stubborn") -> None:
        self.name = name
        self.asked: list[Game] = []
        self.cancels: list[Callable[[], bool]] = []
        self.started = 0
        self.closed = 0

    def start(self, variant: Variant) -> None:
        self.started += 1

    def think(self, game: Game, limit: Limit, cancelled: Callable[[], bool]) -> Move | None:
        self.asked.append(game)
        self.cancels.append(cancelled)
        return game.legal_moves()[0]

    def close(self) -> None:
        self.closed += 1


class Dying(Stubborn):
    """An engine that stops whenever it is asked for a move."""

    def think(self, game: Game, limit: Limit, cancelled: Callable[[], bool]) -> Move | None:
        self.asked.append(game)
        raise PlayerFailed("Dying stopped", "Dying stopped (said)")


@dataclass
class Heard:
    """Every event of a session, in order."""

    events: list[Event] = field(default_factory=list)

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]


def heard(session: GameSession) -> Heard:
    listener = Heard()
    session.subscribe(listener)
    return listener


def play(session: GameSession, text: str) -> None:
    assert session.play(session.game.parse_move(text)), text
