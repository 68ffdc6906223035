"""The puzzle trainer's screens (the menu's ``p``): choose a variant (those with puzzles,
with how many) and the daily puzzle, a mix or a theme; then solve on the board — click,
keys or a typed move — with hints, the solution played out, and the rating and streaks.

The logic is :mod:`shashki.training.trainer`'s (a move checked, the reply, the hints,
the rating, the daily pick) and the record :mod:`shashki.store.puzzles`'s; these
screens only show them.  In a mix a puzzle's themes are hidden until it is finished
(``t`` shows them), as lichess does: the theme is a hint.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ..base.numbers import first_upper
from ..i18n import N_, _, ngettext
from ..rules import Game, Move, ShashkiError
from ..rules.fen import square_text
from ..rules.variant_registry import all_variants, registry
from ..session.served import hide_paths
from ..store.puzzles import PuzzleRecord
from ..training.mining import Puzzle
from ..training.themes import describe, theme_name
from ..training.trainer import (
    Attempt,
    Library,
    Rated,
    Refutation,
    Trainer,
    key_text,
    load_library,
    refute,
)
from .board import BoardWidget
from .controller import Feedback, GameController, again
from .move_box import MoveBoxScreen, MoveInput
from .plain import Plain, literal, visible
from .shell import shell_of
from .themes import set_board_theme
from .widgets import LocalFooter, PagedOptionList, ScreenHeader, after_keys

#: The help's keys of the puzzle board.
PUZZLE_KEYS_HELP: tuple[tuple[str, str], ...] = (
    (
        N_("a click, arrows (or `h j k l`) and `Enter`, or `:` and the move typed"),
        N_(
            "play a move: the right one is answered by the opponent's reply, a wrong one is "
            "not played and explained"
        ),
    ),
    (
        "`i`",
        N_("a hint: the piece to move, then the move (the puzzle then counts as not solved)"),
    ),
    ("`s`", N_("the solution, one move a press")),
    ("`r`", N_("the puzzle again from its start")),
    ("`n`", N_("the next puzzle")),
    ("`t`", N_("the themes (in a mix they are hidden until the puzzle is finished)")),
    ("`f`", N_("flip the board")),
    ("`Esc`", N_("back to the choice of puzzles")),
)


def rating_line(trainer: Trainer, variant_id: str, change: int | None = None) -> str:
    """The player's rating and streaks in a variant, in one line (with the last
    puzzle's ``change`` of the rating, when one was just rated)."""
    rec = trainer.record.variants.get(variant_id)
    if rec is None or not rec.played:
        return _("Your rating: 1500, not yet played")
    rating = str(round(rec.rating))
    if change is not None:
        rating += f" ({'+' if change >= 0 else '−'}{abs(change)})"
    return _(
        "Your rating: {rating} · streak {streak} (best {best}) · solved {solved} of {played}"
    ).format(
        rating=rating,
        streak=rec.streak,
        best=rec.best_streak,
        solved=rec.solved,
        played=rec.played,
    )


class PuzzleMenuScreen(Screen[None]):
    """Choose a variant with puzzles, then the daily puzzle, a mix or a theme."""

    BINDINGS = [
        Binding("escape,q", "back", N_("Back"), key_display="Esc"),
    ]

    def __init__(
        self,
        *,
        library: Library | None = None,
        record: PuzzleRecord | None = None,
        today: date | None = None,
    ) -> None:
        super().__init__()
        self._library = library
        self._record = record
        self.today = today
        self.trainer: Trainer | None = None
        #: The variant whose choices are listed (None: the variants are).
        self.variant_id: str | None = None

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Vertical(id="puzzle-menu"):
            yield Plain(_("Reading the puzzles…"), id="puzzle-intro")
            yield PagedOptionList(id="puzzle-choices")
            yield Plain(id="puzzle-rating")
        yield LocalFooter()

    def on_mount(self) -> None:
        self.title = _("Puzzles")
        self.sub_title = _("choose a variant")
        if self._library is not None:
            self._loaded(self._library)
        else:
            self.run_worker(self._load, thread=True, group="puzzles")

    def _load(self) -> None:
        worker = get_current_worker()
        library = load_library()
        if not worker.is_cancelled:
            self.app.call_from_thread(self._loaded, library)

    def _loaded(self, library: Library) -> None:
        record = self._record or PuzzleRecord.load()
        self.trainer = Trainer(library, record)
        if record.problem:
            self.notify(visible(record.problem), severity="warning", timeout=10, markup=False)
        if library.problems:
            n = len(library.problems)
            self.notify(
                ngettext(
                    "{n} puzzle could not be read: {first}",
                    "{n} puzzles could not be read; the first: {first}",
                    n,
                ).format(n=n, first=visible(library.problems[0])),
                severity="warning",
                timeout=10,
                markup=False,
            )
        self._show_variants()

    def retranslate(self) -> None:
        self.title = _("Puzzles")
        if self.trainer is None:
            return
        if self.variant_id is None:
            self._show_variants()
        else:
            self._show_choices(self.variant_id)

    def _list(self) -> OptionList:
        return self.query_one("#puzzle-choices", OptionList)

    def _show_variants(self) -> None:
        assert self.trainer is not None
        self.variant_id = None
        self.sub_title = _("choose a variant")
        library = self.trainer.library
        ol = self._list()
        ol.clear_options()
        for v in all_variants():
            n = library.count(v.id)
            if n:
                line = ngettext("{name} — {n} puzzle", "{name} — {n} puzzles", n).format(
                    name=v.local_name, n=n
                )
                ol.add_option(Option(literal(line), id=v.id))
        intro = self.query_one("#puzzle-intro", Plain)
        if not ol.option_count:
            intro.update(
                _(
                    "No puzzles yet. Mine some from your games: {command} FILE… "
                    "(or --mine for My games)."
                ).format(command="shashki puzzles mine")
            )
            self.query_one("#puzzle-rating", Plain).update("")
            return
        intro.update(_("Choose a variant (Enter). Your rating and streaks are kept for each."))
        ol.highlighted = 0
        ol.focus()
        self._show_rating(ol.options[0].id)

    def _show_choices(self, variant_id: str) -> None:
        assert self.trainer is not None
        self.variant_id = variant_id
        variant = registry().find(variant_id)
        self.sub_title = variant.local_name
        library = self.trainer.library
        ol = self._list()
        ol.clear_options()
        daily = self.trainer.daily(variant_id, self.today)
        if daily is not None:
            done = self.trainer.daily_done(variant_id, self.today)
            label = _("Daily puzzle (done today)") if done else _("Daily puzzle")
            ol.add_option(Option(label, id="daily"))
        n = library.count(variant_id)
        ol.add_option(
            Option(ngettext("Mix — {n} puzzle", "Mix — {n} puzzles", n).format(n=n), id="mix")
        )
        for theme, count in library.themes(variant_id):
            ol.add_option(
                Option(
                    literal(
                        ngettext("{theme} — {n} puzzle", "{theme} — {n} puzzles", count).format(
                            theme=first_upper(theme_name(theme)), n=count
                        )
                    ),
                    id=f"theme:{theme}",
                )
            )
        if daily is not None:
            intro = _("{variant}: the daily puzzle, a mix near your rating, or a theme.")
        else:
            intro = _("{variant}: a mix near your rating, or a theme.")
        self.query_one("#puzzle-intro", Plain).update(intro.format(variant=variant.local_name))
        ol.highlighted = 0
        ol.focus()
        self._show_rating(variant_id)

    def _show_rating(self, variant_id: str | None) -> None:
        if self.trainer is None or variant_id is None:
            return
        self.query_one("#puzzle-rating", Plain).update(rating_line(self.trainer, variant_id))

    @on(OptionList.OptionHighlighted, "#puzzle-choices")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.variant_id is None:
            self._show_rating(event.option.id)

    @on(OptionList.OptionSelected, "#puzzle-choices")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if self.trainer is None or event.option.id is None:
            return
        choice = event.option.id
        if self.variant_id is None:
            self._show_choices(choice)
            return
        theme = choice.partition(":")[2] if choice.startswith("theme:") else None
        screen = PuzzleScreen(
            self.trainer, self.variant_id, theme=theme, daily=choice == "daily", today=self.today
        )
        self.app.push_screen(screen, lambda _result: self._back_from_puzzles())

    def _back_from_puzzles(self) -> None:
        if self.variant_id is not None and self.trainer is not None:
            self._show_choices(self.variant_id)

    def action_back(self) -> None:
        if self.variant_id is not None and self.trainer is not None:
            variant_id = self.variant_id
            self._show_variants()
            ol = self._list()
            index = next((i for i, o in enumerate(ol.options) if o.id == variant_id), 0)
            ol.highlighted = index
            self._show_rating(variant_id)
            return
        self.workers.cancel_group(self, "puzzles")
        self.app.pop_screen()


class PuzzleScreen(MoveBoxScreen):
    """Puzzles of one variant solved on the board (see the module)."""

    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", N_("Up"), show=False),
        Binding("down,j", "cursor(0,1)", N_("Down"), show=False),
        Binding("left,h", "cursor(-1,0)", N_("Left"), show=False),
        Binding("right,l", "cursor(1,0)", N_("Right"), show=False),
        Binding("home", "cursor(-1,-1)", N_("Up-left"), show=False),
        Binding("pageup", "cursor(1,-1)", N_("Up-right"), show=False),
        Binding("end", "cursor(-1,1)", N_("Down-left"), show=False),
        Binding("pagedown", "cursor(1,1)", N_("Down-right"), show=False),
        Binding("enter,space", "select", N_("Select"), show=False),
        Binding("tab", "next_piece(1)", N_("Next route/piece"), show=False, priority=True),
        Binding("shift+tab", "next_piece(-1)", N_("Previous"), show=False, priority=True),
        Binding("i", "hint", N_("Hint")),
        Binding("s", "solution", N_("Solution")),
        Binding("n", "next_puzzle", N_("Next")),
        Binding("r", "retry", N_("Retry")),
        Binding("t", "themes", N_("Themes"), show=False),
        Binding("colon,slash", "type_move", N_("Type move"), key_display=":"),
        Binding("f", "flip", N_("Flip"), show=False),
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
        Binding("escape,q", "back", N_("Back"), key_display="Esc"),
    ]

    def __init__(
        self,
        trainer: Trainer,
        variant_id: str,
        *,
        theme: str | None = None,
        daily: bool = False,
        today: date | None = None,
    ) -> None:
        super().__init__()
        self.trainer = trainer
        self.variant_id = variant_id
        self.theme = theme
        self.daily = daily
        self.today = today
        self.attempt: Attempt | None = None
        self.controller = GameController(Game(variant_id))
        self.board = BoardWidget(self.controller, id="board")
        self.board.takes_typed_moves = True
        #: What the status line says, said again in another language.
        self._say: Callable[[], str] = lambda: ""
        self._rated: Rated | None = None
        self._themes_shown = False
        self.judging = False

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Horizontal(id="puzzle-body"):
            with Vertical(id="board-area"):
                yield self.board
            with Vertical(id="side"):
                yield Plain(id="puzzle-task")
                yield Plain(id="puzzle-verdict")
                yield Plain(id="puzzle-score")
                yield MoveInput(placeholder=_("your move"), id="move-input")
                yield Plain(id="puzzle-source")
        yield LocalFooter()

    def on_mount(self) -> None:
        settings = shell_of(self).settings
        self.board.piece_set = settings.piece_set
        self.board.show_coords = settings.coords
        set_board_theme(self.board, settings.board_theme)
        self.board.focus()
        self._titles()
        self._next_puzzle()

    def _titles(self) -> None:
        self.title = _("Puzzles")
        self.sub_title = registry().find(self.variant_id).local_name

    def retranslate(self) -> None:
        self._titles()
        self._show()

    # -- the puzzle on show ---------------------------------------------------------------

    def _next_puzzle(self) -> None:
        puzzle: Puzzle | None
        if self.daily:
            puzzle = self.trainer.daily(self.variant_id, self.today)
        else:
            avoid = key_text(self.attempt.puzzle) if self.attempt is not None else ""
            puzzle = self.trainer.next_puzzle(self.variant_id, self.theme, avoid=avoid)
        self.attempt = None
        self._rated = None
        self._themes_shown = False
        if puzzle is not None:
            try:
                self.attempt = Attempt(puzzle, daily=self.daily)
            except ShashkiError as exc:  # (a book edited by hand after it was read)
                problem = str(exc)
                self._say = lambda: _("This puzzle cannot be played: {reason}").format(
                    reason=problem
                )
        if self.attempt is not None:
            self._say = lambda: ""
            self.board.flipped = self.attempt.solver == 1
        self._reset_board()
        self._show()

    def _reset_board(self) -> None:
        game = self.attempt.game.copy() if self.attempt is not None else Game(self.variant_id)
        self.controller = GameController(game)
        self.board.set_controller(self.controller)
        self.board.cursor = -1
        self.board.refresh()

    def _task_text(self) -> str:
        attempt = self.attempt
        variant = registry().find(self.variant_id)
        if attempt is None:
            if self.daily:
                return _("No daily puzzle: no puzzles of {variant} are shipped.").format(
                    variant=variant.local_name
                )
            return _("No puzzles here.")
        side = variant.local_side(attempt.solver)
        head = _("Daily puzzle") if self.daily else _("Puzzle")
        lines = [
            head,
            _("{side} to move: find the winning line.").format(side=side)
            if attempt.ply == 0 and not attempt.done
            else _("Playing {side}.").format(side=side),
        ]
        if self.theme is not None:
            lines.append(_("Theme: {theme}").format(theme=theme_name(self.theme)))
        if attempt.done or self._themes_shown:
            lines.append(_("Themes: {themes}").format(themes=self._themes() or _("none named")))
        elif self.theme is None:
            lines.append(_("Themes: hidden until solved (t shows them)."))
        if attempt.hints >= 1 and attempt.expected is not None:
            lines.append(
                _("Hint: the piece on {square}.").format(
                    square=square_text(attempt.variant, attempt.expected.start)
                )
            )
        if attempt.hints >= 2 and attempt.expected is not None:
            lines.append(_("Hint: {move}.").format(move=attempt.game.move_text(attempt.expected)))
        return "\n".join(lines)

    def _themes(self) -> str:
        attempt = self.attempt
        if attempt is None:
            return ""
        return describe(attempt.start, attempt.line, attempt.puzzle.themes)

    def _score(self) -> str:
        rated = self._rated
        line = rating_line(self.trainer, self.variant_id, rated.change if rated else None)
        if rated is not None and rated.problem:
            line += "\n" + hide_paths(rated.problem)  # (a served app: not the owner's folders)
        return line

    def _show(self) -> None:
        self.query_one("#puzzle-task", Plain).update(self._task_text())
        self.query_one("#puzzle-verdict", Plain).update(self._say())
        self.query_one("#puzzle-score", Plain).update(self._score())
        source = ""
        if (
            self.attempt is not None
            and self.attempt.puzzle.source
            and (self.attempt.done or self._themes_shown)
        ):
            source = _("From: {source}").format(source=self.attempt.puzzle.source)
        self.query_one("#puzzle-source", Plain).update(literal(source) if source else "")

    def _said(self, say: Callable[[], str], *, wrong: bool = False) -> None:
        """Say ``say()`` on the status line (a wrong move's in the warning colour)."""
        self._say = say
        self.query_one("#puzzle-verdict", Plain).set_class(wrong, "-wrong")
        self._show()

    def _finish(self) -> None:
        if self.attempt is not None:
            rated = self.trainer.finish(self.attempt, self.today)
            if rated is not None:
                self._rated = rated

    # -- moves ----------------------------------------------------------------------------

    @on(BoardWidget.SquareClicked)
    def _clicked(self, event: BoardWidget.SquareClicked) -> None:
        if self.judging or self.attempt is None or self.attempt.done:
            return
        self._answer(self.controller.click(event.square))

    def move_typed(self, text: str) -> None:
        if not self.judging and self.attempt is not None and not self.attempt.done:
            self._answer(self.controller.enter_text(text))

    def _answer(self, fb: Feedback) -> None:
        if fb.played is None:
            refused = fb.refused or fb.message
            if refused:
                self._said(lambda: again(refused))
            self.board.refresh()
            return
        self._judge(fb.played)

    def _judge(self, move: Move) -> None:
        attempt = self.attempt
        assert attempt is not None
        before = attempt.game.copy()
        text = before.move_text(move)
        answer = attempt.play(move)
        if answer.right:
            reply = before.copy()
            reply.push(move)
            reply_text = reply.move_text(answer.reply) if answer.reply is not None else ""
            self._finish()
            self._reset_board()
            if answer.solved:
                clean = attempt.clean
                self._said(
                    lambda: (
                        (_("Solved!") if clean else _("Solved, with help."))
                        + " "
                        + _("n: the next puzzle · r: again")
                    )
                )
            else:
                self._said(
                    lambda: _("{move}: right. The answer: {reply}. Go on.").format(
                        move=text, reply=reply_text
                    )
                )
            return
        self._finish()
        self._reset_board()
        self.judging = True
        self._said(
            lambda: _("{move} is not the solution: looking at what it allows…").format(move=text),
            wrong=True,
        )
        self.run_worker(lambda: self._refute(before, move), thread=True, group="refute")

    def _refute(self, game: Game, move: Move) -> None:
        worker = get_current_worker()
        refutation = refute(game, move, cancelled=lambda: worker.is_cancelled)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._refuted, refutation)

    def _refuted(self, refutation: Refutation) -> None:
        self.judging = False
        attempt = self.attempt
        if attempt is None:
            return
        variant = attempt.variant
        self._said(
            lambda: (
                _("{move} is not the solution.").format(move=refutation.move)
                + " "
                + refutation.words(variant)
                + " "
                + _("Try again (i: a hint, s: the solution).")
            ),
            wrong=True,
        )

    # -- keys -----------------------------------------------------------------------------

    def action_cursor(self, dx: int, dy: int) -> None:
        if self.focused is not self.board:
            self.board.focus()
            return
        self.board.move_cursor(dx, dy)

    def action_select(self) -> None:
        if self.focused is not self.board or self.judging or self.attempt is None:
            return
        if self.attempt.done:
            return
        ctl = self.controller
        cursor = self.board.cursor
        routes = ctl.selection.routes
        if routes and (
            (cursor not in routes[0].path and cursor not in routes[0].captured)
            or cursor == routes[0].end
        ):
            self._answer(ctl.play_shown_route())
            return
        if cursor >= 0:
            self._answer(ctl.click(cursor))

    def action_next_piece(self, step: int) -> None:
        after_keys(self, lambda: self._next_piece(step))

    def _next_piece(self, step: int) -> None:
        square = self.controller.next_piece(self.board.cursor, step)
        if square is None:
            return
        self.board.cursor = square
        self.board.focus()
        self.board.refresh()

    def action_hint(self) -> None:
        attempt = self.attempt
        if attempt is None or attempt.done or self.judging:
            return
        level = attempt.hint()
        self._finish()
        self._reset_board()
        expected = attempt.expected
        if expected is not None:
            self.controller.click(expected.start)  # the piece selected, its moves shown
            if level >= 2:
                self.board.cursor = expected.end
            self.board.refresh()
        self._show()

    def action_solution(self) -> None:
        attempt = self.attempt
        if attempt is None or self.judging:
            return
        if attempt.done:
            self._said(lambda: _("The solution is played out. n: the next puzzle · r: again"))
            return
        attempt.show_next()
        self._finish()
        self._reset_board()
        played = attempt.texts()[: attempt.ply]
        done = attempt.done
        self._said(
            lambda: (
                _("Solution: {moves}").format(moves=" ".join(played))
                + (
                    " — " + _("played out. n: the next puzzle · r: again")
                    if done
                    else _(" (s: the next move)")
                )
            )
        )

    def action_next_puzzle(self) -> None:
        if self.judging:
            return
        if self.daily:
            self.daily = False  # (after the daily one, a mix)
        self._next_puzzle()

    def action_retry(self) -> None:
        if self.attempt is None or self.judging:
            return
        self.attempt.retry()
        self._reset_board()
        self._said(lambda: _("From the start again."))

    def action_themes(self) -> None:
        self._themes_shown = True
        self._show()

    def action_flip(self) -> None:
        self.board.flipped = not self.board.flipped

    def action_help(self) -> None:
        from .dialogs import HelpScreen

        self.app.push_screen(HelpScreen(registry().find(self.variant_id), keys=PUZZLE_KEYS_HELP))

    def action_back(self) -> None:
        if self.board.typing:
            self.board.typing = False
            self.set_focus(self.board)
            return
        self.workers.cancel_group(self, "refute")
        self.dismiss(None)


__all__ = ["PUZZLE_KEYS_HELP", "PuzzleMenuScreen", "PuzzleScreen", "rating_line"]
