"""The game session: one game in progress, whatever the front end, and its referee.

A :class:`GameSession` owns the :class:`~shashki.rules.Game`, both clocks, both seats
(:class:`~shashki.session.players.Player`), the headers of its record, draw offers,
resignation, takeback requests and the end of the game.  It emits typed events
(:class:`MovePlayed`, :class:`ClockChanged`, :class:`DrawOffered`, :class:`GameEnded`,
…) to whoever subscribes: the Textual game screen, an online link, ``shashki match``,
the autosave's recorder, a test — a front end never needs Textual to play a whole game
on a clock.

It also runs the game, once :meth:`GameSession.start` is called:

- **one turn driver**: when a player that thinks (a computer, an engine) is to move, it
  asks that player for its move in the executor the front end gave
  (:mod:`shashki.session.driver`), and plays the answer — unless the position is gone
  meanwhile (a takeback, a pause), the flag fell first, or the game ended; the minimum
  move delay is a timer of the executor's, not a sleep;
- **its own flag timer**: one deadline a turn, set when a clock starts running and
  moved when it stops; a move that comes after it is refused, the game ended on time;
- **its policies**: what a failed player costs (:class:`OnFailure`: the seat goes to a
  person, the game is lost by forfeit, or the engine is started again) and the plies
  after which a game still going is adjudicated a draw (``max_plies``).

The threading contract.  A started session belongs to one thread, the one that called
:meth:`~GameSession.start` (its *owner's*: the app's event loop, the loop of ``shashki
host --auto``, the match's own thread): every method that changes the game runs there,
and raises RuntimeError from any other thread.  A player's search runs away from it,
with a copy of the game and its limit; its answer comes back through the executor's
``post`` and is checked on the owner's thread, where nothing else can change the game
meanwhile.  An answer for a position that is gone, one that comes after the flag fell,
a failure of a player no longer asked: each is dropped once (a :class:`Dropped` event),
never played.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from typing import TYPE_CHECKING

from ..engine.limits import Limit
from ..i18n import _
from ..records.clocks import END_CLOCK_TAG, end_clock_tag
from ..rules import Color, Game, Move, Outcome
from ..rules.outcome import Termination
from .clock import ClockReading, GameClock
from .driver import Executor, InlineExecutor, Timer, deadline_timer
from .players import Person, Player, PlayerFailed

if TYPE_CHECKING:
    from ..records import GameRecord


#: The autosave's tag of the clocks' last reading (a game whose clock goes on).
CLOCK_TAG = "ShashkiClock"
#: The ``Termination`` of a game its players left unfinished for good (PGN's word for a
#: game abandoned; its result is ``*``).
ABANDONED_TERMINATION = "abandoned"


class UndoPolicy(Enum):
    FREE = "free"
    ASK = "ask"
    OFF = "off"


class OnFailure(Enum):
    """What happens when a player cannot go on (an engine that stopped, hung or answered
    an illegal move): the session's policy, chosen by the front end."""

    #: A person plays that side from now on (the app: the game is kept).
    PERSON = "person"
    #: The player loses the game by forfeit (a match: the referee scores it).
    LOSE = "lose"
    #: The player is started again and asked again; failing again on the same move, it
    #: loses by forfeit.
    RESTART = "restart"


class DropReason(Enum):
    """Why an answer of a player's was not played."""

    #: The position it was found for is gone (a move, a takeback, a pause, a new seat).
    POSITION_GONE = "position gone"
    #: The game ended meanwhile (the flag fell, a resignation, an agreed draw).
    GAME_OVER = "game over"
    #: The session was closed (the game was left).
    CLOSED = "closed"


# -- events ------------------------------------------------------------------------------


class Event:
    """Something that happened in the session (subscribers get every event)."""


@dataclass(frozen=True)
class Changed(Event):
    """The position or the state of the game changed (any of the events below)."""


@dataclass(frozen=True)
class MovePlayed(Event):
    move: Move
    side: Color
    #: Whether a computer (not a person) played it.
    by_computer: bool


@dataclass(frozen=True)
class ClockChanged(Event):
    """A clock started or stopped: ``running`` is the side whose clock runs now."""

    running: Color | None


@dataclass(frozen=True)
class Paused(Event):
    """Both clocks were paused (``paused``) or run again (not ``paused``)."""

    paused: bool


@dataclass(frozen=True)
class DrawOffered(Event):
    side: Color


@dataclass(frozen=True)
class DrawAnswered(Event):
    side: Color
    accepted: bool


@dataclass(frozen=True)
class TakebackAsked(Event):
    side: Color


@dataclass(frozen=True)
class TakenBack(Event):
    plies: int


@dataclass(frozen=True)
class Thinking(Event):
    """The driver asked ``player`` (playing ``side``) for its move."""

    side: Color
    player: Player


@dataclass(frozen=True)
class SeatReady(Event):
    """``player`` got ready (an engine started): its name may have changed."""

    side: Color
    player: Player


@dataclass(frozen=True)
class SeatFailed(Event):
    """A player could not go on (``message``, said in the language); ``then`` says what
    the session did: a person plays that side, the game is lost, or the player is
    started again."""

    side: Color
    player: Player
    message: str
    then: OnFailure = OnFailure.PERSON


@dataclass(frozen=True)
class Dropped(Event):
    """An answer of ``player``'s (a move, none, or its failure) was not played."""

    side: Color
    player: Player
    reason: DropReason


@dataclass(frozen=True)
class GameEnded(Event):
    outcome: Outcome


@dataclass(frozen=True)
class Abandoned(Event):
    """The players left the game unfinished for good (:meth:`GameSession.abandon_game`):
    nobody won, and it is not kept to be resumed."""


@dataclass(frozen=True)
class Retagged(Event):
    """The record's tags changed (:meth:`GameSession.retag`: an online game's address,
    the way back to it): the game itself did not."""


Listener = Callable[[Event], None]


@dataclass(eq=False)
class _Search:
    """A player asked for its move: for which position, since when, and how to stop it."""

    side: Color
    player: Player
    position_id: int
    started: float
    stop: threading.Event = field(default_factory=threading.Event)
    #: Why it was given up (None: it is the driver's current search).
    given_up: DropReason | None = None
    #: The timer holding its move until the minimum move delay is over.
    timer: Timer | None = None


@dataclass(eq=False)
class _Deadline:
    """The running clock's deadline: its side, the time it falls (on the clock's own
    time) and the timer set for it."""

    side: Color
    due: float
    timer: Timer | None = None


class GameSession:
    """One game being played (plain Python: no Textual, no terminal)."""

    def __init__(
        self,
        game: Game,
        players: tuple[Player, Player] | None = None,
        *,
        clock: GameClock | None = None,
        clock_marks: list[float | None] | None = None,
        undo_policy: UndoPolicy = UndoPolicy.FREE,
        limit: Limit | None = None,
        overhead: float = 0.0,
        headers: dict[str, str] | None = None,
        can_pause: bool = True,
        on_failure: OnFailure = OnFailure.PERSON,
        max_plies: int | None = None,
    ) -> None:
        self.game = game
        #: The clocks, when the game is played on time.
        self.clock = clock
        #: The time its player had left after each move of the stack (None: no clock
        #: then), written as ``[%clk]`` comments.
        self.clock_marks: list[float | None] = list(clock_marks or [])
        del self.clock_marks[len(game.move_stack) :]
        self.clock_marks += [None] * (len(game.move_stack) - len(self.clock_marks))
        self._players: tuple[Player, Player] = players or (
            Person(game.variant.side_names[0]),
            Person(game.variant.side_names[1]),
        )
        self.undo_policy = undo_policy
        #: The limit of a move without a clock (nothing set: each player's own time).
        self.limit = limit or Limit()
        #: Seconds the front end spends around a move, kept off a clock's share.
        self.overhead = overhead
        #: The record's tags the front end gives (Event, Site, Round, …).
        self.base_headers = dict(headers) if headers is not None else None
        #: Tags kept only in this game's autosave, never in a record saved or kept: how
        #: to go on with it (an online game's room).
        self.resume_tags: dict[str, str] = {}
        #: The clock goes on while no program plays the game (an online game: the
        #: referee's clock runs across a crash of its own): the game's autosave keeps
        #: when its last reading was taken (:meth:`autosave_tags`).
        self.clock_goes_on = False
        self.redo_stack: list[Move] = []
        #: Which side offered a draw that the other has not answered yet.
        self.draw_offer: Color | None = None
        #: Bumped on every change of position: a computer's answer for an older one is stale.
        self.position_id = 0
        self._legal: list[Move] | None = None
        self._listeners: list[Listener] = []
        #: Whether the players may pause both clocks (a game at one board: against the
        #: computer, or hot-seat); an online front end sets it false.
        self.can_pause = can_pause
        #: Both clocks are paused (:meth:`pause`): no move is played until :meth:`resume`.
        self.paused = False
        #: What a failed player costs (the front end's choice: a match's players lose).
        self.on_failure = on_failure
        #: Plies (from the position the session began with) after which a game still
        #: going is adjudicated a draw; None: never.
        self.max_plies = max_plies
        self._first_ply = len(game.move_stack)
        #: The minimum seconds between a player's being asked and its move being
        #: played, so that a quick answer can be seen (:meth:`start`).
        self.min_move_delay = 0.0
        self.executor: Executor = InlineExecutor()
        #: The owner's thread (:meth:`start`), and whether the driver runs.
        self._owner: int | None = None
        self._driving = False
        self._closed = False
        self._search: _Search | None = None
        self._deadline: _Deadline | None = None
        #: The players a search or a start was asked of in this session.
        self._readied: dict[int, Player] = {}
        #: The position at which a player was last started again (:attr:`OnFailure.RESTART`).
        self._restarted_at: int | None = None
        #: The game was left unfinished for good (:meth:`abandon_game`): result "*".
        self.abandoned = False

    # -- events ------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; the function returned stops it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def emit(self, event: Event) -> None:
        for listener in list(self._listeners):
            listener(event)

    def _check_owner(self) -> None:
        """A started session is changed on its owner's thread only (the contract)."""
        owner = self._owner
        if owner is not None and owner != threading.get_ident():
            raise RuntimeError(
                "a game session is changed only on the thread that started it "
                "(hand the change to its executor's post)"
            )

    # -- what a front end shows ----------------------------------------------------------

    @property
    def variant(self):  # type: ignore[no-untyped-def]
        return self.game.variant

    @property
    def players(self) -> tuple[Player, Player]:
        return self._players

    @players.setter
    def players(self, players: tuple[Player, Player]) -> None:
        """Seat other players (the driver asks the new one to move, if it thinks)."""
        self._check_owner()
        self._players = players
        self._follow()

    @property
    def legal(self) -> list[Move]:
        if self._legal is None:
            self._legal = [] if self.game.outcome() is not None else self.game.legal_moves()
        return self._legal

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome()

    @property
    def player_to_move(self) -> Player:
        return self._players[self.game.turn]

    @property
    def last_move(self) -> Move | None:
        stack = self.game.move_stack
        return stack[-1] if stack else None

    @property
    def thinking(self) -> Player | None:
        """The player the driver is waiting for (asked for its move), if any."""
        search = self._search
        return search.player if search is not None else None

    # -- moves -------------------------------------------------------------------------

    def play(self, move: Move) -> bool:
        """Play a legal move (a person's from the front end, or a computer's); False
        when the game is over, paused, the move is not legal now, or the mover's flag
        has fallen (the game then ends on time), or it was abandoned."""
        self._check_owner()
        if self.paused or self.abandoned or self.game.outcome() is not None:
            return False
        if move not in self.legal:
            return False
        if self._flag_down():
            return False
        mover = self.game.turn
        self.game.push_unchecked(move)
        if (
            self.max_plies is not None
            and self.game.outcome() is None
            and len(self.game.move_stack) - self._first_ply >= self.max_plies
        ):
            self.game.adjudicate(self.max_plies)
        self._clock_after(mover)
        self.redo_stack.clear()
        self.draw_offer = None
        self._changed(MovePlayed(move, mover, not self._players[mover].is_human))
        return True

    # -- the clock ---------------------------------------------------------------------

    def start_clock(self) -> None:
        """Run the clock of the side to move (the game starts or goes on), unless the game
        is over, paused, or that side's clock waits for its first turn
        (:meth:`clock_waits`)."""
        self._check_owner()
        self._start_clock()
        self._follow()

    def _start_clock(self) -> None:
        clock = self.clock
        if clock is None or self.outcome is not None or self.paused:
            return
        side = self.game.turn
        if self.clock_waits(side):
            clock.stop()
        else:
            clock.start(side)
        self.emit(ClockChanged(clock.running))

    def stop_clock(self) -> None:
        """Stop the running clock (an online game waiting for the friend): its time is
        kept, no flag falls meanwhile."""
        self._check_owner()
        self._stop_clock()
        self._follow()

    def _stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.stop()
            self.emit(ClockChanged(None))

    def clock_waits(self, side: Color) -> bool:
        """Whether ``side``'s clock waits: a person's clock starts once that side has
        completed its first turn of the game (as on lidraughts, the first move of each
        side is off the clock: the game starts when the players do, not when the screen
        opens).  A computer's or an engine's clock runs from its first move to make: it
        needs no time to sit down, and one that hangs still loses on time (the player's
        :attr:`~shashki.session.Player.first_turn_free` says which)."""
        if self.clock is None or not self._players[side].first_turn_free:
            return False
        movers = [mover for mover, _move in self.game.history()]
        # a turn of ``side`` is complete where the next to move is the other side
        following = [*movers[1:], self.game.turn]
        return not any(
            mover is side and nxt is not side for mover, nxt in zip(movers, following, strict=False)
        )

    def _clock_after(self, mover: Color) -> None:
        """After ``mover``'s move: the turn passes (the increment, the other clock runs)
        only when the turn is complete — the first move of a two-move turn leaves the
        same side to move; a turn played while the clock waited (:meth:`clock_waits`) gets
        no increment; the time left is marked on the move."""
        clock = self.clock
        if clock is None:
            self.clock_marks.append(None)
            return
        following = self.game.turn
        if following is not mover:
            if clock.running is mover:
                clock.turn_done(mover, following)  # the increment; following's clock runs
            if self.clock_waits(following):
                clock.stop()
            elif clock.running is not following:
                clock.start(following)
        self.clock_marks.append(clock.left(mover))
        if self.outcome is not None:
            clock.stop()
        self.emit(ClockChanged(clock.running))

    def declare_time_out(self, side: Color) -> Outcome | None:
        """The game's referee says ``side``'s clock ran out (an online guest is told by
        the host): the game ends on time here too; the outcome, or None when it was over
        already."""
        self._check_owner()
        clock = self.clock
        if clock is None or self.outcome is not None:
            return None
        left = [clock.left(Color.WHITE), clock.left(Color.BLACK)]
        left[side] = 0.0
        clock.set_left(left[0], left[1])
        return self._time_out(side)

    def _flag_down(self) -> bool:
        """Whether the running clock has run out: if so the game ends on time now."""
        clock = self.clock
        if clock is None or self.outcome is not None:
            return False
        side = clock.flagged()
        deadline = self._deadline
        if side is None and deadline is not None and clock.running is deadline.side:
            if clock.now() >= deadline.due:  # (its deadline, however the sums round)
                side = deadline.side
        if side is None:
            return False
        self._time_out(side)
        return True

    def _time_out(self, side: Color) -> Outcome:
        """``side``'s flag fell: a loss on time, or a draw when the other side cannot win
        (:meth:`Game.time_out <shashki.rules.Game.time_out>`)."""
        assert self.clock is not None
        self.clock.stop()
        outcome = self.game.time_out(side)
        self._changed(ClockChanged(None))
        return outcome

    def _arm_deadline(self) -> None:
        """One deadline a turn: the running clock's, set once when it starts running (on
        the clock's own time) and moved only when the clock stops or another runs."""
        clock = self.clock
        running = clock.running if clock is not None else None
        if clock is None or running is None or self.outcome is not None or self.paused:
            self._disarm()
            return
        due = clock.now() + clock.left(running)
        held = self._deadline
        if held is not None and held.side is running and abs(held.due - due) < 1e-6:
            return
        self._disarm()
        deadline = _Deadline(running, due)
        self._deadline = deadline
        set_timer = deadline_timer(clock.now, self.executor)
        deadline.timer = set_timer(clock.left(running), lambda: self._deadline_passed(deadline))

    def _disarm(self) -> None:
        deadline, self._deadline = self._deadline, None
        if deadline is not None and deadline.timer is not None:
            deadline.timer.cancel()

    def _deadline_passed(self, deadline: _Deadline) -> None:
        """The deadline's timer fired (on the owner's thread)."""
        if deadline is not self._deadline or not self._driving:
            return  # an older deadline, moved since
        if not self._flag_down():
            self._deadline = None
            self._follow()  # (the timer fired early: the deadline is set again)

    # -- pausing -----------------------------------------------------------------------

    def pause(self) -> bool:
        """Pause both clocks (a game at one board): the running one keeps the time it
        shows, the computer stops thinking and no move is played until :meth:`resume`.
        False when the game cannot be paused (:attr:`can_pause` off, no clock, over) or
        is paused already."""
        self._check_owner()
        clock = self.clock
        if not self.can_pause or clock is None or self.paused or self.outcome is not None:
            return False
        clock.stop()
        self.paused = True
        self.position_id += 1  # a computer's answer thought of before the pause is stale
        self.emit(Paused(True))
        self.emit(ClockChanged(None))
        self.emit(Changed())
        self._follow()
        return True

    def resume(self) -> bool:
        """Run the clocks again after :meth:`pause`: the side to move's clock goes on from
        the time it showed (none lost, none gained); False when not paused."""
        self._check_owner()
        if not self.paused:
            return False
        self.paused = False
        self.position_id += 1
        self.emit(Paused(False))
        self._start_clock()
        self.emit(Changed())
        self._follow()
        return True

    def move_limit(self) -> Limit:
        """What bounds the thinking of the side to move: its clock, or the session's
        limit."""
        clock = self.clock
        if clock is None:
            return self.limit
        return Limit(
            left=clock.left(self.game.turn),
            increment=clock.control.increment,
            moves=clock.moves_to_go(self.game.turn),
            depth=self.limit.depth,
            nodes=self.limit.nodes,
            overhead=self.overhead,
        )

    # -- the turn driver -----------------------------------------------------------------

    def start(self, executor: Executor | None = None, *, min_move_delay: float = 0.0) -> None:
        """The game starts (or goes on) and is driven from now on, on the calling thread
        (the owner's, see the module): the players that think get ready (an engine is
        started, in ``executor``'s work), the clock of the side to move runs, and a
        player that thinks is asked for its move whenever it is to move — with
        ``executor`` (by default :class:`~shashki.session.driver.InlineExecutor`: on this
        very thread, the whole game if computers play both sides), its move played no
        sooner than ``min_move_delay`` seconds after it was asked."""
        if self._driving:
            return
        self.executor = executor if executor is not None else InlineExecutor()
        self.min_move_delay = min_move_delay
        self._owner = threading.get_ident()
        for side, player in enumerate(self._players):
            if player.thinks and side != self.game.turn:
                self._get_ready(Color(side), player)
        self._driving = True
        self._start_clock()
        self._follow()

    def _get_ready(self, side: Color, player: Player) -> None:
        """Start ``player`` (an engine) in the executor's work: it says its name at once,
        not at its first move."""
        self._readied[id(player)] = player
        variant = self.variant
        post = self.executor.post

        def work() -> None:
            try:
                player.start(variant)
            except PlayerFailed as exc:
                failure = exc
                post(lambda: self._start_failed(side, player, failure))
                return
            post(lambda: self._ready(side, player))

        self.executor.submit(work)

    def _ready(self, side: Color, player: Player) -> None:
        if not self._closed and self._players[side] is player:
            self.emit(SeatReady(side, player))

    def _start_failed(self, side: Color, player: Player, exc: PlayerFailed) -> None:
        if not self._closed and self._players[side] is player:
            self._seat_failed(side, player, exc)

    def _follow(self) -> None:
        """The driver's one step, after every change (on the owner's thread): the
        deadline follows the running clock; a search for a position that is gone is
        given up; a player that thinks, to move, is asked for its move."""
        if not self._driving:
            return
        self._arm_deadline()
        wanted = self.outcome is None and not self.paused and self.player_to_move.thinks
        search = self._search
        if search is not None and (
            not wanted
            or search.position_id != self.position_id
            or search.player is not self.player_to_move
        ):
            self._give_up(DropReason.GAME_OVER if self.outcome else DropReason.POSITION_GONE)
            search = None
        if wanted and search is None:
            self._ask()

    def _give_up(self, reason: DropReason) -> None:
        search, self._search = self._search, None
        if search is None:
            return
        search.stop.set()
        search.given_up = reason
        if search.timer is not None:  # its move was held for the delay: dropped now
            search.timer.cancel()
            self._drop(search)

    def _drop(self, search: _Search) -> None:
        if not self._closed and search.given_up is not None:
            self.emit(Dropped(search.side, search.player, search.given_up))

    def _ask(self) -> None:
        """Ask the player to move for its move, in the executor's work, on a copy of the
        game (the search never touches the session); its answer is posted back."""
        side = self.game.turn
        player = self.player_to_move
        search = _Search(side, player, self.position_id, time.monotonic())
        self._search = search
        game = self.game.copy()
        limit = self.move_limit()
        stop = search.stop
        deadline = self._deadline
        if deadline is not None and deadline.side is side and self.clock is not None:
            now, due = self.clock.now, deadline.due

            def cancelled() -> bool:  # (read in the search's thread: nothing shared changes)
                return stop.is_set() or now() >= due

        else:
            cancelled = stop.is_set
        first = id(player) not in self._readied
        self._readied[id(player)] = player
        post = self.executor.post
        variant = self.variant

        def work() -> None:
            try:
                if first:
                    player.start(variant)
                    post(lambda: self._ready(side, player))
                move = player.think(game, limit, cancelled)
            except PlayerFailed as exc:
                failure = exc
                post(lambda: self._failed(search, failure))
                return
            except Exception as exc:  # a player's own error: it cannot go on
                failure = PlayerFailed(f"{player.name}: {type(exc).__name__}: {exc}")
                post(lambda: self._failed(search, failure))
                return
            post(lambda: self._answered(search, move))

        self.emit(Thinking(side, player))
        self.executor.submit(work)

    def _answered(self, search: _Search, move: Move | None) -> None:
        """A search's answer, on the owner's thread: played once, or dropped once."""
        if search is not self._search:
            self._drop(search)
            return
        if self._flag_down():  # the flag fell first: that ends the game, not the move
            self._drop(search)
            return
        if move is None:
            name = search.player.name
            self._search = None
            self._seat_failed(
                search.side,
                search.player,
                PlayerFailed(f"{name} found no move", _("{name} found no move").format(name=name)),
            )
            return
        wait = search.started + self.min_move_delay - time.monotonic()
        if wait > 0:
            search.timer = self.executor.later(wait, lambda: self._play_answer(search, move))
            return
        self._play_answer(search, move)

    def _play_answer(self, search: _Search, move: Move) -> None:
        if search is not self._search:
            return  # (given up meanwhile: dropped then)
        search.timer = None
        if self._flag_down():
            self._drop(search)
            return
        self._search = None
        if move not in self.legal:
            name = search.player.name
            text = self.game.move_text(move) if move in self.game.legal_moves() else str(move)
            self._seat_failed(
                search.side,
                search.player,
                PlayerFailed(
                    f"{name} answered a move that is not legal ({text})",
                    _("{name} answered a move that is not legal ({move})").format(
                        name=name, move=text
                    ),
                ),
            )
            return
        self.play(move)

    def _failed(self, search: _Search, exc: PlayerFailed) -> None:
        if search is not self._search:
            self._drop(search)
            return
        if self._flag_down():  # the flag fell first: that ends the game
            self._drop(search)
            return
        self._search = None
        self._seat_failed(search.side, search.player, exc)

    def _seat_failed(self, side: Color, player: Player, exc: PlayerFailed) -> None:
        """``player`` (on ``side``) cannot go on: the session's :class:`OnFailure`."""
        policy = self.on_failure
        player.close()
        if policy is OnFailure.RESTART:
            if self._restarted_at != self.position_id:
                self._restarted_at = self.position_id
                self._readied.pop(id(player), None)  # (started again with its next search)
                self.emit(SeatFailed(side, player, exc.said, OnFailure.RESTART))
                self._follow()
                return
            policy = OnFailure.LOSE
        if policy is OnFailure.PERSON:
            players = list(self._players)
            players[side] = Person(player.name)
            self._players = (players[0], players[1])
            self.emit(SeatFailed(side, player, exc.said, OnFailure.PERSON))
            self.emit(Changed())
            self._follow()
            return
        self.emit(SeatFailed(side, player, exc.said, OnFailure.LOSE))
        if self.outcome is None:
            if self.clock is not None:
                self.clock.stop()
            self.game.forfeit(side, player.name, str(exc), exc.said)
            self._changed(ClockChanged(None) if self.clock is not None else None)

    def close(self) -> None:
        """The game ended or was left: the driver stops (a search under way is given up,
        the deadline too), the clocks stop, the players close."""
        self._check_owner()
        self._give_up(DropReason.CLOSED)
        self._driving = False
        self._disarm()
        self._closed = True
        self._stop_clock()
        self.close_players()

    def close_players(self) -> None:
        """Stop what the players run (the game is over; an engine asked again later is
        started again)."""
        for player in self._players:
            player.close()

    # -- undo, redo, draws, resignation ------------------------------------------------

    def undo_plies(self) -> int:
        """How many plies one undo takes back: back to the last human turn."""
        stack = self.game.move_stack
        if not stack:
            return 0
        if all(p.is_human for p in self.players):
            return 1
        plies = 0
        game = self.game.copy()
        while game.move_stack:
            game.pop()
            plies += 1
            if self.players[game.turn].is_human:
                return plies
        return 0

    def can_undo(self) -> bool:
        return (
            self.undo_policy is not UndoPolicy.OFF
            and not self.timed_out()
            and (self.undo_plies() > 0 or self.game.ended is not None)
        )

    def timed_out(self) -> bool:
        """Whether a clock ran out: that ends the game for good (a takeback would hand
        the move back to a side with no time)."""
        out = self.game.ended
        return out is not None and out.termination is Termination.TIME_FORFEIT

    def ask_takeback(self, side: Color) -> bool | None:
        """``side`` asks to take back: the other player's answer (None: a person is to be
        asked by the front end, who then calls :meth:`undo` or not)."""
        self.emit(TakebackAsked(side))
        return self.players[1 - side].answer_takeback(self.game.copy())

    def undo(self) -> bool:
        """Take back to the previous human turn; False if nothing was taken back."""
        self._check_owner()
        if self.undo_policy is UndoPolicy.OFF:
            return False
        n = self.undo_plies()
        if not n and not self.game.ended:
            return False
        if self.timed_out():
            return False
        if self.game.reopen():  # a resignation or agreed draw is taken back first
            self._start_clock()
            self._changed(TakenBack(0))
            return True
        for _ply in range(n):
            self.redo_stack.append(self.game.pop())
        # the clocks keep the time they show (nothing is given back): the side to move
        # now runs; the marks of the moves taken back go with them
        del self.clock_marks[len(self.game.move_stack) :]
        self._start_clock()
        self._changed(TakenBack(n))
        return True

    def set_moves(
        self,
        moves: list[Move],
        marks: list[float | None] | None = None,
        left: tuple[float, float] | None = None,
    ) -> None:
        """Make the game the start followed by ``moves`` (each legal where it is played:
        raises ValueError at the first that is not, the game left as it was), with the
        clocks' ``marks`` and times ``left`` — a peer's copy of the game made equal to
        the referee's (a takeback agreed, a resumed connection).  An ending by
        resignation, agreement or time is reopened; the side to move's clock runs."""
        self._check_owner()
        game = self.game.copy()
        game.reopen()
        while game.move_stack:
            game.pop()
        for move in moves:
            if game.outcome() is not None or move not in game.legal_moves():
                raise ValueError("a move that is not legal there")
            game.push_unchecked(move)
        self.game.reopen()
        while self.game.move_stack:
            self.game.pop()
        for move in moves:
            self.game.push_unchecked(move)
        self.redo_stack.clear()
        self.draw_offer = None
        marks = list(marks or [])[: len(moves)]
        self.clock_marks = marks + [None] * (len(moves) - len(marks))
        if self.clock is not None:
            if left is not None:
                self.clock.set_left(*left)
            self.clock.stop()
            self._start_clock()
        self._changed(TakenBack(0))

    def can_redo(self) -> bool:
        return bool(self.redo_stack) and self.undo_policy is not UndoPolicy.OFF

    def redo(self) -> bool:
        self._check_owner()
        if not self.can_redo():
            return False
        move = self.redo_stack.pop()
        if move not in self.game.legal_moves():
            self.redo_stack.clear()
            return False
        self._replay(move)
        while self.redo_stack and not self.players[self.game.turn].is_human:
            nxt = self.redo_stack.pop()
            if nxt not in self.game.legal_moves():
                self.redo_stack.clear()
                break
            self._replay(nxt)
        self._changed()
        return True

    def _replay(self, move: Move) -> None:
        """Push a move replayed by redo: the clocks keep their times (no increment: the
        move is not made again on the clock), the side to move's runs."""
        self.game.push_unchecked(move)
        clock = self.clock
        self.clock_marks.append(None if clock is None else clock.left(Color(self.game.turn ^ 1)))
        if clock is not None:
            clock.stop()
            self._start_clock()

    def offer_draw(self, side: Color | None = None) -> bool | None:
        """``side`` (the side to move by default) offers a draw: the other player's
        answer — True (the game is drawn), False, or None while a person is to be asked
        (the front end then calls :meth:`answer_draw`)."""
        self._check_owner()
        side = self.game.turn if side is None else side
        self.draw_offer = side
        self.emit(DrawOffered(side))
        answer = self.players[1 - side].answer_draw(self.game.copy())
        if answer is not None:
            self.answer_draw(answer)
        return answer

    def answer_draw(self, accept: bool) -> Outcome | None:
        self._check_owner()
        offered, self.draw_offer = self.draw_offer, None
        if accept and self.outcome is not None:
            return None  # the game ended meanwhile (a flag fell while the question was up)
        if offered is not None:
            self.emit(DrawAnswered(Color(1 - offered), accept))
        if accept:
            outcome = self.game.agree_draw()
            self._stop_clock()
            self._changed()
            return outcome
        return None

    def resign(self, side: Color | None = None) -> Outcome:
        self._check_owner()
        if self.outcome is not None:
            return self.outcome  # the game ended meanwhile (a flag fell while asked)
        outcome = self.game.resign(side)
        self._stop_clock()
        self._changed()
        return outcome

    def abandon(self, side: Color) -> Outcome:
        """``side`` left the game and stayed away: the other side claims it (an online
        game; :meth:`Game.abandon <shashki.rules.Game.abandon>`)."""
        self._check_owner()
        if self.outcome is not None:
            return self.outcome
        outcome = self.game.abandon(side)
        self._stop_clock()
        self._changed()
        return outcome

    def abandon_game(self) -> bool:
        """The players leave the game unfinished for good, not to be resumed: the clocks
        stop, nobody wins (the record's result stays ``*``, its ``Termination`` says
        ``abandoned``) and :class:`Abandoned` is said (the recorder keeps it in My games
        as that, and drops its autosave). False when the game is over or has no move."""
        self._check_owner()
        if self.outcome is not None or not self.game.move_stack or self.abandoned:
            return False
        self._stop_clock()
        self.abandoned = True
        self.position_id += 1  # (a search under way is stale)
        self.emit(Abandoned())
        return True

    def _changed(self, event: Event | None = None) -> None:
        self.position_id += 1
        self._legal = None
        if event is not None:
            self.emit(event)
        out = self.game.outcome()
        if out is not None:
            self.paused = False  # (a game that ended while paused is just over)
        if out is not None and not self._ended_said:
            self._ended_said = True
            self.emit(GameEnded(out))
        elif out is None:
            self._ended_said = False
        self.emit(Changed())
        self._follow()

    _ended_said = False

    # -- the record --------------------------------------------------------------------

    def retag(
        self, *, headers: dict[str, str] | None = None, resume: dict[str, str] | None = None
    ) -> None:
        """Give the record other tags of the front end's (``headers``: Event, Site…) or
        other tags kept only in the autosave (``resume``: how to go on with the game);
        subscribers hear of it (the recorder saves them)."""
        self._check_owner()
        if headers is not None:
            self.base_headers = dict(headers)
        if resume is not None:
            self.resume_tags.update(resume)
        self.emit(Retagged())

    def headers(self) -> dict[str, str]:
        """The tags of the game's record: the front end's (by default shashki's: Event,
        Site, Date, Round), the players and who sat where (``WhiteType``, ``WhiteLevel``,
        ``WhiteEngine``: never a command), the start, the clock, the result."""
        game = self.game
        out = self.outcome
        base = self.base_headers
        if base is None:
            base = {
                "Event": "shashki game",
                "Site": "shashki",
                "Date": date.today().strftime("%Y.%m.%d"),
                "Round": "-",
            }
        headers = dict(base)
        headers["White"] = self.players[0].name
        headers["Black"] = self.players[1].name
        headers["Result"] = out.result() if out is not None else "*"
        # who sat where (PDN's WhiteType/BlackType), so that a resumed game seats the
        # computer again
        for side, player in zip(("White", "Black"), self.players, strict=True):
            for tag, value in player.tags().items():
                headers[side + tag] = value
        if game.start_label:
            headers["StartOption"] = game.start_label
        if game.seed is not None:
            headers["LotSeed"] = str(game.seed)
        if self.clock is not None:
            headers["TimeControl"] = self.clock.control.tag()
        if out is None and self.abandoned:
            headers["Termination"] = ABANDONED_TERMINATION
        if out is not None or self.abandoned:
            if out is not None:
                headers["Termination"] = out.describe(self.variant.side_names)
            if self.clock is not None:
                # the clocks when it ended (a resignation comes while a clock runs)
                left = (self.clock.left(Color.WHITE), self.clock.left(Color.BLACK))
                headers[END_CLOCK_TAG] = end_clock_tag(left)
        return headers

    def autosave_tags(self, at: Callable[[], float] = time.time) -> dict[str, str]:
        """The tags of this game's autosave: its record's, the resume tags, and for a
        game whose clock goes on, the clocks as they read now and when
        (:data:`CLOCK_TAG`, a :class:`~shashki.session.clock.ClockReading`)."""
        tags = {**self.headers(), **self.resume_tags}
        if self.clock_goes_on and self.clock is not None:
            tags[CLOCK_TAG] = ClockReading.of(self.clock, at()).text()
        return tags

    def record(self) -> GameRecord:
        """The game as a record: its moves, :meth:`headers`, the clocks' marks."""
        from ..records import GameRecord
        from ..records.clocks import set_clocks

        record = GameRecord.from_game(self.game, self.headers())
        if self.clock is not None:
            set_clocks(record, self.clock_marks)
        return record


__all__ = [
    "ABANDONED_TERMINATION",
    "CLOCK_TAG",
    "Abandoned",
    "Changed",
    "ClockChanged",
    "DrawAnswered",
    "DrawOffered",
    "DropReason",
    "Dropped",
    "Event",
    "GameEnded",
    "GameSession",
    "MovePlayed",
    "OnFailure",
    "Paused",
    "Retagged",
    "SeatFailed",
    "SeatReady",
    "TakebackAsked",
    "TakenBack",
    "Thinking",
    "UndoPolicy",
]
