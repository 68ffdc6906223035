"""The game controller: the app's model of a game in progress (plain Python, no Textual).

It owns the :class:`~shashki.rules.Game`, the players, undo and redo, the selection on
the board and the choice among capture routes, draw offers and resignation.  Widgets
render it and call its methods; every refusal comes back as a sentence naming the rule.

A player is a source of moves: a :class:`Human` answers through the board; a computer
player implements :meth:`Player.think`, which the game screen runs in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..rules import AmbiguousMoveError, Color, Game, Move, Outcome, ShashkiError
from ..rules.explain import why_not_move, why_not_select
from ..rules.notation import split_move_text
from ..rules.outcome import Termination

if TYPE_CHECKING:
    from .clock import GameClock


class Player:
    """A source of moves for one side."""

    name: str = "Player"
    is_human: bool = True

    def think(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        """Choose a move for the side to move of ``game`` (a copy the player may change).

        Runs in a worker thread; return None when ``cancelled()`` becomes true.
        """
        raise NotImplementedError

    def use_clock(self, left: float | None, increment: float = 0.0) -> None:
        """Take the time for the next move from the clock: ``left`` seconds and the
        ``increment`` (None: no clock, the player's own time).  Default: nothing."""

    def seat(self) -> str:
        """Who sits at the board, for the side panel: the person's name, or
        ``Computer · level 5``."""
        return self.name

    def shown_name(self) -> str:
        """The player's name as the screens say it ("Computer 5" in the language spoken
        now; a person's name as written)."""
        return self.name


@dataclass
class Human(Player):
    name: str = "Player"
    is_human: bool = True


class UndoPolicy(Enum):
    FREE = "free"
    ASK = "ask"
    OFF = "off"


@dataclass
class Selection:
    """What the player has picked on the board so far."""

    square: int | None = None
    #: Intermediate landing squares clicked, in order (narrow the routes).
    waypoints: list[int] = field(default_factory=list)
    #: Routes to choose among (same start and end), and the one shown.
    routes: list[Move] = field(default_factory=list)
    route_index: int = 0


class Said(str):
    """A sentence for the player that can be said again in another language: the text
    in the language spoken when it was made, and :meth:`again`, which says it anew (the
    screens' ``retranslate`` redraws a status line with it)."""

    say: Callable[[], str]

    def __new__(cls, say: Callable[[], str], text: str | None = None) -> Said:
        """``text``: what ``say()`` says now, when it is known already (not said twice)."""
        said = super().__new__(cls, say() if text is None else text)
        said.say = say
        return said

    def again(self) -> str:
        """The sentence in the language spoken now."""
        return Said(self.say)


def again(text: str) -> str:
    """``text`` said again in the language spoken now, if it is a :class:`Said`."""
    return text.again() if isinstance(text, Said) else text


@dataclass
class Feedback:
    """The answer to a board action: a move played, a choice to make, or a refusal."""

    played: Move | None = None
    refused: str = ""
    choose_route: bool = False
    message: str = ""


class GameController:
    """A game being played at the terminal."""

    def __init__(
        self,
        game: Game,
        players: tuple[Player, Player] | None = None,
        *,
        undo_policy: UndoPolicy = UndoPolicy.FREE,
        on_change: Callable[[GameController], None] | None = None,
        clock: GameClock | None = None,
        clock_marks: list[float | None] | None = None,
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
            Human(game.variant.side_names[0]),
            Human(game.variant.side_names[1]),
        )
        self.undo_policy = undo_policy
        self.on_change = on_change
        self.redo_stack: list[Move] = []
        self.selection = Selection()
        #: Which side offered a draw that the other has not answered yet.
        self.draw_offer: Color | None = None
        #: Bumped on every change of position: a computer's answer for an older one is stale.
        self.position_id = 0
        #: False for a board that only shows (replay): no capture hints.
        self.interactive = True
        self._legal: list[Move] | None = None
        self._texts: list[str] = []
        self._text_moves: list[Move] = []

    # -- what the board shows -----------------------------------------------------

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

    def movable(self) -> set[int]:
        """Squares of the pieces that have a legal move now."""
        return {m.start for m in self.legal}

    def must_capture(self) -> set[int]:
        """Squares of the pieces that must capture (empty when capture is not forced now)."""
        return {m.start for m in self.legal if m.is_capture}

    def selected_moves(self) -> list[Move]:
        sel = self.selection
        if sel.square is None:
            return []
        moves = [m for m in self.legal if m.start == sel.square]
        for w in sel.waypoints:
            moves = [m for m in moves if w in m.path[1:-1]]
        return moves

    def destinations(self) -> set[int]:
        """Final squares the selected piece can reach (through the waypoints clicked)."""
        return {m.end for m in self.selected_moves()}

    def waypoints_available(self) -> set[int]:
        """Intermediate landing squares of the selected piece's routes (not final ones)."""
        ends = self.destinations()
        out: set[int] = set()
        for m in self.selected_moves():
            out.update(p for p in m.path[1:-1] if p not in ends)
        return out

    def shown_route(self) -> Move | None:
        sel = self.selection
        if sel.routes:
            return sel.routes[sel.route_index % len(sel.routes)]
        return None

    def text(self, move: Move, *, full: bool = False) -> str:
        """``move`` in the variant's notation (see :meth:`Game.move_text`)."""
        return self.game.move_text(move, full=full)

    def move_list(self) -> list[str]:
        """The moves played, each in the variant's notation (full path when ambiguous)."""
        moves = self.game.move_stack
        texts = self._texts
        if len(texts) > len(moves) or any(
            a != b for a, b in zip(self._text_moves, moves, strict=False)
        ):
            texts.clear()
            self._text_moves.clear()
        if len(texts) < len(moves):
            game = self.game.copy()
            for _ in range(len(moves) - len(texts)):
                game.pop()
            for m in moves[len(texts) :]:
                texts.append(game.move_text(m))
                self._text_moves.append(m)
                game.push_unchecked(m)
        return list(texts)

    # -- acting on the board ---------------------------------------------------------

    def clear_selection(self) -> None:
        self.selection = Selection()

    def click(self, square: int) -> Feedback:
        """A click (or Enter) on ``square``: select a piece, a destination, a waypoint."""
        if self.game.outcome() is not None:
            return Feedback(refused=Said(lambda: _("The game is over.")))
        sel = self.selection
        if sel.routes:
            # in route choice: a click on a square of exactly one route picks it
            matching = [m for m in sel.routes if square in m.path[1:-1] or square in m.captured]
            if len(matching) == 1:
                return self.play(matching[0])
            if square == sel.routes[0].end:
                return self.play(self.shown_route())  # type: ignore[arg-type]
            self.clear_selection()
        if sel.square is not None and square != sel.square:
            moves = self.selected_moves()
            ending = [m for m in moves if m.end == square]
            if ending:
                if len(ending) == 1:
                    return self.play(ending[0])
                sel.routes = ending
                sel.route_index = 0
                n = len(ending)
                return Feedback(
                    choose_route=True,
                    message=Said(
                        lambda: ngettext(
                            "{n} route ends there: Tab shows the next, Enter plays the one "
                            "shown, or click a square of yours.",
                            "{n} routes end there: Tab shows the next, Enter plays the one "
                            "shown, or click a square of yours.",
                            n,
                        ).format(n=n)
                    ),
                )
            if square in self.waypoints_available():
                sel.waypoints.append(square)
                rest = self.selected_moves()
                if len(rest) == 1:
                    return self.play(rest[0])
                return Feedback(message=Said(lambda: _("Now choose where the capture ends.")))
            if square in self.movable():
                self.selection = Selection(square=square)
                return Feedback()
            start, game, legal = sel.square, self.game.copy(), self.legal
            return Feedback(
                refused=Said(
                    lambda: (
                        why_not_move(game, start, square, legal) or _("That move is not possible.")
                    )
                )
            )
        if sel.square == square:
            self.clear_selection()
            return Feedback()
        reason = why_not_select(self.game, square, self.legal)
        if reason:
            game, legal = self.game.copy(), self.legal
            return Feedback(
                refused=Said(lambda: why_not_select(game, square, legal) or reason, reason)
            )
        self.selection = Selection(square=square)
        moves = self.selected_moves()
        if len({m.end for m in moves}) == 1 and len(moves) == 1 and moves[0].is_capture:
            return Feedback(
                message=Said(
                    lambda: _("This piece has one capture: choose its destination to play it.")
                )
            )
        return Feedback()

    def next_route(self, step: int = 1) -> None:
        sel = self.selection
        if sel.routes:
            sel.route_index = (sel.route_index + step) % len(sel.routes)

    def play_shown_route(self) -> Feedback:
        route = self.shown_route()
        if route is None:
            return Feedback(refused=Said(lambda: _("No route to play.")))
        return self.play(route)

    def enter_text(self, text: str) -> Feedback:
        """A move typed in the variant's notation."""
        if self.game.outcome() is not None:
            return Feedback(refused=Said(lambda: _("The game is over.")))
        try:
            move = self.game.parse_move(text)
        except AmbiguousMoveError as exc:
            squares = split_move_text(self.variant, text)
            routes = [m for m in self.legal if m.start == squares[0] and m.end == squares[-1]]
            if len(routes) > 1:
                self.selection = Selection(square=squares[0], routes=routes)
                return Feedback(choose_route=True, message=self._refusal(text, str(exc)))
            return Feedback(refused=self._refusal(text, str(exc)))
        except ShashkiError as exc:
            try:
                squares = split_move_text(self.variant, text)
                why = why_not_move(self.game, squares[0], squares[-1], self.legal)
                if why:
                    game, legal = self.game.copy(), self.legal
                    start, end = squares[0], squares[-1]
                    return Feedback(
                        refused=Said(lambda: why_not_move(game, start, end, legal) or why, why)
                    )
            except ShashkiError:
                pass
            return Feedback(refused=self._refusal(text, str(exc)))
        return self.play(move)

    def _refusal(self, text: str, reason: str) -> Said:
        """Why the typed ``text`` names no move (``reason``), said again in another
        language by reading the text once more in this position."""
        game = self.game.copy()

        def say() -> str:
            try:
                game.parse_move(text)
            except ShashkiError as exc:
                return str(exc)
            return reason

        return Said(say, reason)

    def play(self, move: Move) -> Feedback:
        """Play a legal move (from the board, the text box, or a computer player)."""
        if self.game.outcome() is not None:
            return Feedback(refused=Said(lambda: _("The game is over.")))
        if move not in self.legal:
            return Feedback(refused=Said(lambda: _("That move is not legal now.")))
        mover = self.game.turn
        self.game.push_unchecked(move)
        self._clock_after(mover)
        self.redo_stack.clear()
        self.draw_offer = None
        self._changed()
        return Feedback(played=move)

    # -- the clock -------------------------------------------------------------------

    def start_clock(self) -> None:
        """Run the clock of the side to move (the game screen opens), unless the game
        is over."""
        if self.clock is not None and self.outcome is None:
            self.clock.start(self.game.turn)

    def stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.stop()

    def _clock_after(self, mover: Color) -> None:
        """After ``mover``'s move: the turn passes (the increment, the other clock runs)
        only when the turn is complete — the first move of a two-move turn leaves the
        same side to move; the time left is marked on the move."""
        clock = self.clock
        if clock is None:
            self.clock_marks.append(None)
            return
        if self.game.turn is not mover:
            clock.turn_done(mover, self.game.turn)
        self.clock_marks.append(clock.left(mover))
        if self.outcome is not None:
            clock.stop()

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
        outcome = self.game.time_out(side)
        self._changed()
        return outcome

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

    def undo(self) -> bool:
        """Take back to the previous human turn; False if nothing was taken back."""
        if self.undo_policy is UndoPolicy.OFF:
            return False
        n = self.undo_plies()
        if not n and not self.game.ended:
            return False
        if self.timed_out():
            return False
        if self.game.reopen():  # a resignation or agreed draw is taken back first
            self.start_clock()
            self._changed()
            return True
        for _ply in range(n):
            self.redo_stack.append(self.game.pop())
        # the clocks keep the time they show (nothing is given back): the side to move
        # now runs; the marks of the moves taken back go with them
        del self.clock_marks[len(self.game.move_stack) :]
        self.start_clock()
        self._changed()
        return True

    def can_redo(self) -> bool:
        return bool(self.redo_stack) and self.undo_policy is not UndoPolicy.OFF

    def redo(self) -> bool:
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
            self.start_clock()

    def offer_draw(self) -> None:
        self.draw_offer = self.game.turn

    def answer_draw(self, accept: bool) -> Outcome | None:
        self.draw_offer = None
        if accept and self.outcome is not None:
            return None  # the game ended meanwhile (a flag fell while the question was up)
        if accept:
            outcome = self.game.agree_draw()
            self.stop_clock()
            self._changed()
            return outcome
        return None

    def resign(self, side: Color | None = None) -> Outcome:
        if self.outcome is not None:
            return self.outcome  # the game ended meanwhile (a flag fell while asked)
        outcome = self.game.resign(side)
        self.stop_clock()
        self._changed()
        return outcome

    def _changed(self) -> None:
        self.position_id += 1
        self._legal = None
        self.clear_selection()
        if self.on_change is not None:
            self.on_change(self)
