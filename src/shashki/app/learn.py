"""Learn from your mistakes: each mistake and blunder the review found in the player's own
game is shown again, the position before it on the board, for the player to find a better
move; a hint on request (the piece to move, then the move).

A move tried is judged as the review judged the game's: the engine's choice is right; any
other is searched with the review's budget of nodes (in a thread), and it is good too when
it keeps the player's expected score within an inaccuracy of the best.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.worker import get_current_worker

from ..engine.search import Search
from ..engine.winprob import INACCURACY
from ..i18n import N_, _
from ..rules import Game, Move
from ..rules.fen import square_text
from ..session.review import Review, Verdict
from .board import BoardWidget
from .controller import Feedback, GameController, again
from .move_box import MoveBoxScreen, MoveInput
from .plain import Plain
from .shell import shell_of
from .themes import set_board_theme
from .widgets import LocalFooter, ScreenHeader


@dataclass
class Task:
    """One mistake to learn from: the review's verdict, the position before it."""

    verdict: Verdict
    game: Game
    #: Found: the engine's move, or another as good.
    solved: bool = False
    #: Hints asked: 1 shows the piece, 2 the move.
    hints: int = 0


class LearnScreen(MoveBoxScreen):
    """The player's mistakes of a reviewed game, one after another."""

    BINDINGS = [
        Binding("h", "hint", N_("Hint")),
        Binding("n", "next(1)", N_("Next")),
        Binding("b", "next(-1)", N_("Previous")),
        Binding("colon,slash", "type_move", N_("Type move"), key_display=":"),
        Binding("f", "flip", N_("Flip"), show=False),
        Binding("escape,q", "back", N_("Back"), key_display="Esc"),
    ]

    def __init__(self, review: Review, side: int) -> None:
        super().__init__()
        self.review = review
        self.side = side
        self.tasks: list[Task] = []
        for verdict in review.verdicts():
            if verdict.side == side and verdict.mark in ("?", "??"):
                game = review.record.start()
                for text in review.texts[: verdict.ply - 1]:
                    game.push(game.parse_move(text))
                self.tasks.append(Task(verdict, game))
        self.index = 0
        self.controller = GameController(
            self.tasks[0].game.copy() if self.tasks else Game(review.variant)
        )
        self.board = BoardWidget(self.controller, id="board")
        self.board.takes_typed_moves = True
        self._said = ""
        self._search = Search(review.variant)
        self.judging = False

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Vertical(id="board-area"):
            yield self.board
        with Vertical(id="side"):
            yield Plain(id="task")
            yield Plain(id="verdict")
            yield MoveInput(placeholder=_("your move"), id="move-input")
        yield LocalFooter()

    def on_mount(self) -> None:
        self.title = _("Learn from your mistakes")
        settings = shell_of(self).settings
        self.board.piece_set = settings.piece_set
        self.board.show_coords = settings.coords
        set_board_theme(self.board, settings.board_theme)
        self.board.flipped = self.side == 1
        self.board.focus()
        self._show_task()

    def retranslate(self) -> None:
        """The words in the language spoken now; the task and the board stay."""
        self.title = _("Learn from your mistakes")
        self._show_task()

    @property
    def current(self) -> Task:
        """The mistake on show."""
        return self.tasks[self.index]

    def _names(self) -> tuple[str, str]:
        v = self.review.variant
        return v.local_side(0), v.local_side(1)

    def _task_text(self) -> str:
        task = self.current
        v = task.verdict
        played = self.review.labels[v.ply - 1] + v.mark
        lines = [
            _("Mistake {n} of {total}").format(n=self.index + 1, total=len(self.tasks)),
            _("You played {move}: your chances fell from {before}% to {after}%.").format(
                move=played,
                before=f"{v.before * 100:.0f}",
                after=f"{v.after * 100:.0f}",
            ),
        ]
        if task.solved:
            lines.append(_("Solved. n: the next one."))
        else:
            lines.append(_("Find a better move (h: a hint)."))
        best = self._best_move()
        if task.hints >= 1 and best is not None:
            lines.append(
                _("Hint: the piece on {square}.").format(
                    square=square_text(task.game.variant, best.start)
                )
            )
        if task.hints >= 2:
            lines.append(_("The engine's move: {move}").format(move=v.best))
        return "\n".join(lines)

    def _best_move(self) -> Move | None:
        try:
            return self.current.game.parse_move(self.current.verdict.best)
        except Exception:  # (a best move that does not read in its own position)
            return None

    def _show_task(self) -> None:
        if not self.tasks:
            self.query_one("#task", Plain).update(_("No mistakes to learn from."))
            return
        self.controller = GameController(self.current.game.copy())
        self.board.set_controller(self.controller)
        self.board.cursor = -1
        self.query_one("#task", Plain).update(self._task_text())
        self.query_one("#verdict", Plain).update(self._said)
        self.board.refresh()

    def _say(self, text: str) -> None:
        self._said = text
        self.query_one("#verdict", Plain).update(text)

    # -- trying moves ---------------------------------------------------------------------

    @on(BoardWidget.SquareClicked)
    def _clicked(self, event: BoardWidget.SquareClicked) -> None:
        if self.judging or not self.tasks:
            return
        self._answer(self.controller.click(event.square))

    def move_typed(self, text: str) -> None:
        if not self.judging and self.tasks:
            self._answer(self.controller.enter_text(text))

    def _answer(self, fb: Feedback) -> None:
        if fb.played is None:
            if fb.refused:
                self._say(again(fb.refused))
            elif fb.message:
                self._say(again(fb.message))
            self.board.refresh()
            return
        self._judge(fb.played)

    def _judge(self, move: Move) -> None:
        task = self.current
        game = task.game
        text = game.move_text(move, full=True)
        played = self.review.texts[task.verdict.ply - 1]
        if text == task.verdict.best:
            task.solved = True
            self._say(_("Yes: {move} is the engine's move.").format(move=text))
            self._show_task()
            return
        if text == played:
            self._say(_("That is the move of the game: try another."))
            self._show_task()
            return
        self.judging = True
        self._say(_("{move}: thinking…").format(move=text))
        after = game.copy()
        after.push(move)
        self.run_worker(lambda: self._search_after(after, text), thread=True, group="learn")

    def _search_after(self, after: Game, text: str) -> None:
        worker = get_current_worker()
        outcome = after.outcome()
        if outcome is not None:
            if outcome.winner is None:
                mine = 0.5
            else:
                mine = 1.0 if int(outcome.winner) == self.side else 0.0
        else:
            result = self._search.search(
                after, nodes=self.review.budget, cancelled=lambda: worker.is_cancelled
            )
            score = result.score if int(after.turn) == self.side else -result.score
            mine = self.review.curve.expected(score)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._judged, text, mine)

    def _judged(self, text: str, mine: float) -> None:
        self.judging = False
        task = self.current
        if task.verdict.before - mine < INACCURACY:
            task.solved = True
            self._say(
                _("{move} is good too: your chances {chances}%.").format(
                    move=text, chances=f"{mine * 100:.0f}"
                )
            )
        else:
            self._say(
                _("{move} is not better: your chances {chances}%. Try again.").format(
                    move=text, chances=f"{mine * 100:.0f}"
                )
            )
        self._show_task()

    # -- keys -----------------------------------------------------------------------------

    def action_hint(self) -> None:
        if not self.tasks:
            return
        task = self.current
        task.hints = min(2, task.hints + 1)
        best = self._best_move()
        if task.hints == 1 and best is not None:
            self._show_task()
            self.controller.click(best.start)  # the piece selected, its moves shown
            self.board.refresh()
            return
        self._show_task()

    def action_next(self, step: int) -> None:
        if not self.tasks or self.judging:
            return
        self.index = (self.index + step) % len(self.tasks)
        self._said = ""
        self._show_task()
        if all(t.solved for t in self.tasks):
            self._say(_("All {n} found. Well done!").format(n=len(self.tasks)))

    def action_flip(self) -> None:
        self.board.flipped = not self.board.flipped

    def action_back(self) -> None:
        if self.board.typing:
            self.board.typing = False
            self.set_focus(self.board)
            return
        self.workers.cancel_group(self, "learn")
        self.app.pop_screen()


__all__ = ["LearnScreen", "Task"]
