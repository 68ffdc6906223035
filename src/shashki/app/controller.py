"""The game controller: the board's view of a game session (plain Python, no Textual).

The game itself — the :class:`~shashki.rules.Game`, the clocks, the seats, undo and redo,
draw offers and resignation — is a :class:`~shashki.session.GameSession`'s, and the
screens talk to the session for it; the controller adds what a board needs: the
selection, the choice among capture routes, and a sentence naming the rule for every
refusal.  Widgets render it and call its methods.

A player is a :class:`~shashki.session.Player`: a :class:`Human` answers through the
board; a computer player is asked for its moves by the session's turn driver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..i18n import _, ngettext
from ..rules import AmbiguousMoveError, Game, Move, ShashkiError
from ..rules.explain import why_not_move, why_not_select
from ..rules.notation import split_move_text, typed_move_text
from ..session.game import Changed, Event, GameSession, UndoPolicy
from ..session.players import Person, Player

#: A person at the board (the session's :class:`~shashki.session.Person`).
Human = Person


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
    """The board's side of a game: a session and the board's selection.

    The game itself — its clocks, seats, undo and redo, offers, its end — is the
    session's (:attr:`session`): the screens ask it and tell it directly.  The
    controller keeps what only a board needs: the selection, the choice among capture
    routes, the move typed, and the sentence for every refusal; :attr:`game` and
    :attr:`variant` are the position it shows."""

    def __init__(self, game: GameSession | Game, *, interactive: bool = True) -> None:
        #: The game session this controller shows (a bare game is shown in a session of
        #: its own: a position looked at, a replay).
        self.session = game if isinstance(game, GameSession) else GameSession(game)
        self.selection = Selection()
        #: False for a board that only shows (replay): no capture hints.
        self.interactive = interactive
        self._texts: list[str] = []
        self._text_moves: list[Move] = []
        self.session.subscribe(self._session_event)

    def _session_event(self, event: Event) -> None:
        if isinstance(event, Changed):
            self.clear_selection()

    @property
    def game(self) -> Game:
        """The game shown (the session's)."""
        return self.session.game

    # -- what the board shows -----------------------------------------------------

    @property
    def variant(self):  # type: ignore[no-untyped-def]
        return self.game.variant

    @property
    def legal(self) -> list[Move]:
        return self.session.legal

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
                            "shown, or click a square of the route you mean.",
                            "{n} routes end there: Tab shows the next, Enter plays the one "
                            "shown, or click a square of the route you mean.",
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

    def next_piece(self, cursor: int, step: int) -> int | None:
        """Tab (``step`` 1) and shift+Tab (-1): the next route of the piece selected, when
        it has several (the cursor stays), else the square of the next piece that can move
        from ``cursor`` in the board's numbering (the first one when the cursor is on none;
        None when none can)."""
        if self.selection.routes:
            self.next_route(step)
            return cursor
        squares = sorted(self.movable(), key=self.variant.board.number)
        if not squares:
            return None
        if cursor in squares:
            return squares[(squares.index(cursor) + step) % len(squares)]
        return squares[0]

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
            move = self.game.parse_typed_move(text)
        except AmbiguousMoveError as exc:
            routes = [m for m in self.legal if m in exc.moves]
            if len(routes) > 1 and len({(m.start, m.end) for m in routes}) == 1:
                # one start and one end, several paths: the board shows them to choose from
                self.selection = Selection(square=routes[0].start, routes=routes)
                return Feedback(choose_route=True, message=self._refusal(text, str(exc)))
            return Feedback(refused=self._refusal(text, str(exc)))
        except ShashkiError as exc:
            try:
                squares = split_move_text(self.variant, typed_move_text(text))
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
                game.parse_typed_move(text)
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
        if self.session.paused:
            return Feedback(refused=Said(lambda: _("The clocks are paused: press P to go on.")))
        if not self.session.play(move):  # the flag fell first: the game ended on time
            return Feedback(refused=Said(lambda: _("The game is over.")))
        return Feedback(played=move)


__all__ = [
    "Feedback",
    "GameController",
    "Human",
    "Player",
    "Said",
    "Selection",
    "UndoPolicy",
    "again",
]
