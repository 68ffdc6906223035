"""The game session: one game in progress, whatever the front end.

A :class:`GameSession` owns the :class:`~shashki.rules.Game`, both clocks, both seats
(:class:`~shashki.session.players.Player`), the headers of its record, draw offers,
resignation, takeback requests and the end of the game (a flag fall included).  It
emits events (:class:`MovePlayed`, :class:`ClockChanged`, :class:`DrawOffered`,
:class:`GameEnded`, …) to whoever subscribes: the Textual game screen, ``shashki
match``, a test — a front end never needs Textual to play a whole game on a clock.

The computer's moves come from :meth:`GameSession.think` (blocking: a front end runs it
in its own worker and hands the move to :meth:`GameSession.deliver`), or from one of
the session's own drivers: :meth:`GameSession.drive` (a thread per move, the moves
handed over through ``post``) and :meth:`GameSession.run` (on the caller's thread, until
the game ends).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import Enum
from typing import TYPE_CHECKING

from ..rules import Color, Game, Move, Outcome
from ..rules.outcome import Termination
from .clock import ClockReading, GameClock
from .limits import Limit
from .players import Person, Player, PlayerFailed

if TYPE_CHECKING:
    from ..records import GameRecord


#: The autosave's tag of the clocks' last reading (a game whose clock goes on).
CLOCK_TAG = "ShashkiClock"


class UndoPolicy(Enum):
    FREE = "free"
    ASK = "ask"
    OFF = "off"


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
class SeatFailed(Event):
    """A player could not go on (``message``, said in the language): a person plays that
    side from now on."""

    side: Color
    player: Player
    message: str


@dataclass(frozen=True)
class GameEnded(Event):
    outcome: Outcome


Listener = Callable[[Event], None]


def void(_value: object) -> None:
    """Nothing (a callback that drops what it is given)."""


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
        post: Callable[[Callable[[], None]], None] | None = None,
        can_pause: bool = True,
    ) -> None:
        self.game = game
        #: The clocks, when the game is played on time.
        self.clock = clock
        #: The time its player had left after each move of the stack (None: no clock
        #: then), written as ``[%clk]`` comments.
        self.clock_marks: list[float | None] = list(clock_marks or [])
        del self.clock_marks[len(game.move_stack) :]
        self.clock_marks += [None] * (len(game.move_stack) - len(self.clock_marks))
        self.players: tuple[Player, Player] = players or (
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
        #: How a move found by :meth:`drive`'s thread reaches the session (a front end's
        #: "run this on my thread"); by default at once, under the session's lock.
        self.post = post or self._locked
        self.lock = threading.RLock()
        self.redo_stack: list[Move] = []
        #: Which side offered a draw that the other has not answered yet.
        self.draw_offer: Color | None = None
        #: Bumped on every change of position: a computer's answer for an older one is stale.
        self.position_id = 0
        self._legal: list[Move] | None = None
        self._listeners: list[Listener] = []
        self._thinking: threading.Event | None = None
        self._thinking_for = -1
        #: Whether the players may pause both clocks (a game at one board: against the
        #: computer, or hot-seat); an online front end sets it false.
        self.can_pause = can_pause
        #: Both clocks are paused (:meth:`pause`): no move is played until :meth:`resume`.
        self.paused = False

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

    def _locked(self, action: Callable[[], None]) -> None:
        with self.lock:
            action()

    # -- what a front end shows ----------------------------------------------------------

    @property
    def variant(self):  # type: ignore[no-untyped-def]
        return self.game.variant

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
        return self.players[self.game.turn]

    @property
    def last_move(self) -> Move | None:
        stack = self.game.move_stack
        return stack[-1] if stack else None

    # -- moves -------------------------------------------------------------------------

    def play(self, move: Move) -> bool:
        """Play a legal move (a person's from the front end, or a computer's); False
        when the game is over, paused, or the move is not legal now."""
        if self.paused or self.game.outcome() is not None or move not in self.legal:
            return False
        mover = self.game.turn
        self.game.push_unchecked(move)
        self._clock_after(mover)
        self.redo_stack.clear()
        self.draw_offer = None
        self._changed(MovePlayed(move, mover, not self.players[mover].is_human))
        return True

    # -- the clock ---------------------------------------------------------------------

    def start_clock(self) -> None:
        """Run the clock of the side to move (the game starts or goes on), unless the game
        is over, paused, or that side's clock waits for its first turn
        (:meth:`clock_waits`)."""
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
        if self.clock is None or not self.players[side].first_turn_free:
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

    # -- pausing -----------------------------------------------------------------------

    def pause(self) -> bool:
        """Pause both clocks (a game at one board): the running one keeps the time it
        shows, the computer stops thinking and no move is played until :meth:`resume`.
        False when the game cannot be paused (:attr:`can_pause` off, no clock, over) or
        is paused already."""
        clock = self.clock
        if not self.can_pause or clock is None or self.paused or self.outcome is not None:
            return False
        self.cancel()
        clock.stop()
        self.paused = True
        self.position_id += 1  # a computer's answer thought of before the pause is stale
        self.emit(Paused(True))
        self.emit(ClockChanged(None))
        self.emit(Changed())
        return True

    def resume(self) -> bool:
        """Run the clocks again after :meth:`pause`: the side to move's clock goes on from
        the time it showed (none lost, none gained); False when not paused."""
        if not self.paused:
            return False
        self.paused = False
        self.position_id += 1
        self.emit(Paused(False))
        self.start_clock()
        self.emit(Changed())
        return True

    def flag_fell(self) -> bool:
        """Whether the running clock has run out (the game is not ended by it yet)."""
        clock = self.clock
        return clock is not None and clock.flagged() is not None

    def check_flag(self) -> Outcome | None:
        """End the game when the running clock has run out (a loss on time, or a draw
        when the other side cannot win: :meth:`Game.time_out`); the outcome, or None."""
        clock = self.clock
        if clock is None or self.outcome is not None:
            return None
        side = clock.flagged()
        if side is None:
            return None
        clock.stop()
        self.cancel()
        outcome = self.game.time_out(side)
        self._changed(ClockChanged(None))
        return outcome

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

    # -- the computer's moves ---------------------------------------------------------------

    def think(self, cancelled: Callable[[], bool]) -> Move | None:
        """The move of the player to move (blocking: run it in a worker thread), within
        the side's limit; None when ``cancelled()`` turned true or the flag fell first.
        Raises PlayerFailed."""
        player = self.player_to_move
        limit = self.move_limit()
        try:
            return player.think(self.game.copy(), limit, lambda: cancelled() or self.flag_fell())
        except PlayerFailed:
            if self.flag_fell():
                return None  # the flag fell first: that ends the game, not what came after
            raise

    def deliver(self, position_id: int, move: Move) -> bool:
        """Play a computer's ``move`` found for the position ``position_id``; False when
        that position is gone (a stale answer) or the game ended (a flag fell first)."""
        if position_id != self.position_id or self.outcome is not None:
            return False
        if self.check_flag() is not None:
            return False  # the move came after the flag fell
        return self.play(move)

    def seat_failed(self, player: Player, message: str) -> None:
        """``player`` cannot go on: a person plays its side from now on."""
        if player not in self.players:
            return
        side = Color(self.players.index(player))
        players = list(self.players)
        players[side] = Person(player.name)
        self.players = (players[0], players[1])
        player.close()
        self.emit(SeatFailed(side, player, message))
        self.emit(Changed())

    def drive(self) -> None:
        """When a computer is to move, think in a thread of its own; its move is played
        through ``post`` (and the next computer's move thought of in turn).  A front end
        with workers of its own runs :meth:`think` and :meth:`deliver` instead."""
        with self.lock:
            if self.outcome is not None or self.paused or self.player_to_move.is_human:
                return
            if self._thinking is not None and self._thinking_for == self.position_id:
                return  # already thinking of this position
            self.cancel()
            stop = threading.Event()
            self._thinking, self._thinking_for = stop, self.position_id
            position_id, player = self.position_id, self.player_to_move

        flagged = threading.Event()

        def cancelled() -> bool:
            if stop.is_set():
                return True
            if self.flag_fell():  # the game ends at once, whatever the player does next
                if not flagged.is_set():
                    flagged.set()
                    self.post(lambda: void(self.check_flag()))
                return True
            return False

        def work() -> None:
            try:
                move = self.think(cancelled)
            except PlayerFailed as exc:
                failure = exc
                self.post(lambda: self._failed(stop, player, failure))
                return
            self.post(lambda: self._moved(stop, position_id, move))

        threading.Thread(target=work, daemon=True, name="shashki-session-think").start()

    def _moved(self, stop: threading.Event, position_id: int, move: Move | None) -> None:
        if self._thinking is stop:
            self._thinking = None
        if stop.is_set():
            return
        if move is None:  # the flag fell while it thought
            self.check_flag()
            return
        if self.deliver(position_id, move):
            self.drive()

    def _failed(self, stop: threading.Event, player: Player, exc: PlayerFailed) -> None:
        if self._thinking is stop:
            self._thinking = None
        if not stop.is_set():
            self.seat_failed(player, exc.said)

    def cancel(self) -> None:
        """Give up the thinking that :meth:`drive` started, if any."""
        stop, self._thinking = self._thinking, None
        if stop is not None:
            stop.set()

    def run(
        self, *, max_plies: int | None = None, cancelled: Callable[[], bool] | None = None
    ) -> None:
        """Play the computers' moves on this thread until the game ends, a person is to
        move, ``max_plies`` plies have been played or ``cancelled()``.  Raises
        PlayerFailed (the game is left as it was before that player's move)."""
        never: Callable[[], bool] = lambda: False  # noqa: E731
        stopped = cancelled or never
        start = len(self.game.move_stack)
        self.start_clock()
        while self.outcome is None and not stopped():
            if max_plies is not None and len(self.game.move_stack) - start >= max_plies:
                return
            player = self.player_to_move
            if player.is_human:
                return
            position_id = self.position_id
            move = self.think(stopped)
            if move is None:
                if self.check_flag() is None and not stopped():
                    raise PlayerFailed(f"{player.name} found no move")
                continue
            if not self.deliver(position_id, move) and self.outcome is None:
                raise PlayerFailed(f"{player.name} answered a move that is not legal")

    def start(self) -> None:
        """The game starts (or goes on): every player gets ready, the clock runs."""
        for player in self.players:
            player.start(self.variant)
        self.start_clock()

    def close(self) -> None:
        """The game ended or was left: thinking stops, the clocks stop, the players close."""
        self.cancel()
        self.stop_clock()
        self.close_players()

    def close_players(self) -> None:
        for player in self.players:
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
        if self.undo_policy is UndoPolicy.OFF:
            return False
        n = self.undo_plies()
        if not n and not self.game.ended:
            return False
        if self.timed_out():
            return False
        self.cancel()
        if self.game.reopen():  # a resignation or agreed draw is taken back first
            self.start_clock()
            self._changed(TakenBack(0))
            return True
        for _ply in range(n):
            self.redo_stack.append(self.game.pop())
        # the clocks keep the time they show (nothing is given back): the side to move
        # now runs; the marks of the moves taken back go with them
        del self.clock_marks[len(self.game.move_stack) :]
        self.start_clock()
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
        game = self.game.copy()
        game.reopen()
        while game.move_stack:
            game.pop()
        for move in moves:
            if game.outcome() is not None or move not in game.legal_moves():
                raise ValueError("a move that is not legal there")
            game.push_unchecked(move)
        self.cancel()
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
            self.start_clock()
        self._changed(TakenBack(0))

    def can_redo(self) -> bool:
        return bool(self.redo_stack) and self.undo_policy is not UndoPolicy.OFF

    def redo(self) -> bool:
        if not self.can_redo():
            return False
        move = self.redo_stack.pop()
        if move not in self.game.legal_moves():
            self.redo_stack.clear()
            return False
        self.cancel()
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
            self.start_clock()

    def offer_draw(self, side: Color | None = None) -> bool | None:
        """``side`` (the side to move by default) offers a draw: the other player's
        answer — True (the game is drawn), False, or None while a person is to be asked
        (the front end then calls :meth:`answer_draw`)."""
        side = self.game.turn if side is None else side
        self.draw_offer = side
        self.emit(DrawOffered(side))
        answer = self.players[1 - side].answer_draw(self.game.copy())
        if answer is not None:
            self.answer_draw(answer)
        return answer

    def answer_draw(self, accept: bool) -> Outcome | None:
        offered, self.draw_offer = self.draw_offer, None
        if accept and self.outcome is not None:
            return None  # the game ended meanwhile (a flag fell while the question was up)
        if offered is not None:
            self.emit(DrawAnswered(Color(1 - offered), accept))
        if accept:
            outcome = self.game.agree_draw()
            self.cancel()
            self.stop_clock()
            self._changed()
            return outcome
        return None

    def resign(self, side: Color | None = None) -> Outcome:
        if self.outcome is not None:
            return self.outcome  # the game ended meanwhile (a flag fell while asked)
        outcome = self.game.resign(side)
        self.cancel()
        self.stop_clock()
        self._changed()
        return outcome

    def abandon(self, side: Color) -> Outcome:
        """``side`` left the game and stayed away: the other side claims it (an online
        game; :meth:`Game.abandon <shashki.rules.Game.abandon>`)."""
        if self.outcome is not None:
            return self.outcome
        outcome = self.game.abandon(side)
        self.cancel()
        self.stop_clock()
        self._changed()
        return outcome

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

    _ended_said = False

    # -- the record --------------------------------------------------------------------

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
        if out is not None:
            headers["Termination"] = out.describe(self.variant.side_names)
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
    "CLOCK_TAG",
    "Changed",
    "ClockChanged",
    "DrawAnswered",
    "DrawOffered",
    "Event",
    "GameEnded",
    "GameSession",
    "MovePlayed",
    "Paused",
    "SeatFailed",
    "TakebackAsked",
    "TakenBack",
    "UndoPolicy",
]
