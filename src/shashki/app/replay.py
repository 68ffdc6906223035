"""Replaying game records: a file chooser, the table of a file's games, and the replay
screen (step, jump, auto-play, comments, variations, and taking over from any move)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rich.console import RenderableType
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import (
    DataTable,
    DirectoryTree,
    Input,
    Label,
    OptionList,
    ProgressBar,
    Static,
)
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from ..base.userfiles import open_regular
from ..i18n import N_, _, ngettext, os_reason
from ..records import GameNode, GameRecord
from ..records.annotations import mark_of
from ..records.ending import record_outcome
from ..records.gametypes import DEFAULT_VARIANT
from ..records.guess import VariantGuess, guess_variant
from ..records.reader import PdnReader
from ..session.review import Review
from ..session.served import NotAllowed, games_file, inside_games, shown_path
from ..store.studies import Origin, StudyAutosave
from .analysis import AnalysisPanel
from .board import BoardWidget
from .controller import Feedback, Said, again
from .dialogs import example_moves
from .explorer import ExplorerPanel
from .graph import EvalGraph
from .move_box import MoveBoxScreen, MoveInput
from .movelist import MoveList
from .plain import Plain, literal, visible
from .replay_controller import ReplayController, Step
from .review import ReviewEnded, ReviewEvent, ReviewJob
from .shell import Shell, shell_of
from .study import CommentDialog, MarkDialog
from .themes import set_board_theme
from .widgets import (
    Button,
    Dialog,
    LocalFooter,
    RowTable,
    ScreenHeader,
    Select,
    relabel_button,
)

# -- choosing a file ---------------------------------------------------------------------


class FolderTree(DirectoryTree):
    """The folder tree of the file chooser: Textual's, every folder and file."""


class GamesTree(FolderTree):
    """The folder tree of a served app's file chooser: the games folder and what is in
    it, never an entry that leads out of it (a link to elsewhere is not listed)."""

    def __init__(self, root: Path, **kwargs: object) -> None:
        super().__init__(root, **kwargs)  # type: ignore[arg-type]
        self.root_folder = root

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        for path in paths:
            try:
                inside_games(path, self.root_folder)
            except NotAllowed:
                continue
            yield path


class FileChooserScreen(Dialog[Path | None]):
    """Browse to a PDN file: starts in the saved-games folder, can go anywhere — except
    in a served app (``confined``), where it stays in that folder: names are typed
    relative to it, and no path, ``..`` or link leads out."""

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("backspace", "up", N_("Parent folder"), show=True),
        Binding("down", "to_tree", N_("Files"), show=False),
    ]
    PROMPT = N_("Open a game file (.pdn, .json): choose it below or type its path.")
    CONFINED_PROMPT = N_(
        "Open a game file (.pdn, .json) of shashki's games folder: choose it below or type "
        "its name."
    )

    def __init__(self, start: Path, *, confined: bool = False) -> None:
        super().__init__()
        self.start = start
        self.confined = confined

    def _prompt(self) -> str:
        return _(self.CONFINED_PROMPT if self.confined else self.PROMPT)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self._prompt(), id="chooser-prompt")
            with Horizontal(id="path-row"):
                yield Input(value="" if self.confined else str(self.start) + os.sep, id="path")
                yield Button(_("Up"), id="up")
            if self.confined:
                yield GamesTree(self.start, id="tree")
            else:
                yield FolderTree(self.start, id="tree")

    def retranslate(self) -> None:
        """The words in the language spoken now; the path typed and the tree stay."""
        self.query_one("#chooser-prompt", Label).update(self._prompt())
        relabel_button(self, "#up", _("Up"))

    def on_mount(self) -> None:
        # the path can be typed at once; Down goes to the folder tree
        box = self.query_one("#path", Input)
        box.focus()
        box.cursor_position = len(box.value)

    def action_to_tree(self) -> None:
        if self.focused is self.query_one("#path", Input):
            self.query_one(DirectoryTree).focus()

    def _shown(self, folder: Path) -> str:
        """A folder as the path box shows it: whole, or (confined) from the games folder."""
        if not self.confined:
            return str(folder) + os.sep
        relative = folder.resolve().relative_to(self.start.resolve())
        return "" if relative == Path(".") else str(relative) + os.sep

    def _refuse(self, problem: NotAllowed) -> None:
        self.notify(str(problem), severity="error", markup=False)

    @on(DirectoryTree.FileSelected)
    def _file(self, event: DirectoryTree.FileSelected) -> None:
        path = Path(event.path)
        if self.confined:
            try:
                path = inside_games(path, self.start)
            except NotAllowed as problem:
                self._refuse(problem)
                return
        self.dismiss(path)

    @on(DirectoryTree.DirectorySelected)
    def _dir(self, event: DirectoryTree.DirectorySelected) -> None:
        try:
            self.query_one("#path", Input).value = self._shown(Path(event.path))
        except (NotAllowed, ValueError):  # (not listed: GamesTree leaves such out)
            pass

    @on(Input.Submitted, "#path")
    def _typed(self, event: Input.Submitted) -> None:
        if self.confined:
            try:
                path = inside_games(games_file(event.value, self.start), self.start)
            except NotAllowed as problem:
                self._refuse(problem)
                return
        else:
            path = Path(event.value.strip()).expanduser()
        if path.is_dir():
            self.query_one(DirectoryTree).path = path
        elif path.exists():
            self.dismiss(path)
        else:
            shown = " ".join(event.value.split()) if self.confined else path  # (as typed)
            self.notify(
                _("No such file: {path}").format(path=shown), severity="error", markup=False
            )

    @on(Button.Pressed, "#up")
    def action_up(self) -> None:
        tree = self.query_one(DirectoryTree)
        here = Path(tree.path).resolve()
        parent = here.parent
        if self.confined and here == self.start.resolve():
            return  # the games folder is as far up as a served app goes
        tree.path = parent
        self.query_one("#path", Input).value = self._shown(parent)

    def action_cancel(self) -> None:
        self.dismiss(None)


# -- the games of a file -------------------------------------------------------------------


def _variant_shown(variant_id: str) -> str:
    """A game's variant as the table shows it: its name in the language spoken now (the
    id, a word of the command line, only for a variant shashki no longer has)."""
    from ..rules import ShashkiError, registry

    try:
        return registry().find(variant_id).local_name
    except ShashkiError:  # UnknownVariantError
        return variant_id


@dataclass
class GameSummary:
    index: int
    event: str
    date: str
    white: str
    black: str
    result: str
    moves: int
    variant: str
    error: str
    has_fen: bool
    tagged: bool = True
    #: The error itself, said in the language spoken when it is shown.
    fault: BaseException | None = None


def _cut(text: str, width: int) -> str:
    """``text`` on one line of at most ``width`` characters (an ellipsis where it is cut)."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def load_record(path: Path, index: int, default_variant: str | None = None) -> GameRecord | None:
    """The ``index``-th game (0-based) of a file, the earlier ones skipped unparsed.

    Raises OSError when the file cannot be read (UserFileError for a folder, a FIFO or
    a device, refused without blocking)."""
    from ..records.reader import HeadersScanner, read_file

    if path.suffix.lower() == ".json":
        for i, record in enumerate(read_file(path, default_variant)):
            if i == index:
                return record
        return None
    with open_regular(path) as fh:
        reader = PdnReader(fh, default_variant)
        for _ in range(index):
            if reader.read_game(HeadersScanner) is None:
                return None
        return reader.read_game()


class GameTableScreen(Screen[None]):
    """Every game of a file in a table that fills while the file is read."""

    BINDINGS = [
        Binding("escape,q", "back", N_("Back")),
        Binding("slash,ctrl+f", "search", N_("Search players"), key_display="/"),
        Binding("v", "choose_variant", N_("Variant")),
        Binding("down", "to_table", N_("Matches"), show=False),
    ]
    #: The table's columns: the number, the error mark, then these headings.
    COLUMNS = (
        N_("Event"),
        N_("Date"),
        N_("White"),
        N_("Black"),
        N_("Result"),
        N_("Moves"),
        N_("Variant"),
    )
    #: How often the rows read meanwhile join the table (after the first five, at once).
    BATCH_SECONDS = 0.5

    def __init__(self, path: Path, default_variant: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.default_variant = default_variant
        #: The variant guessed for the untagged games when none was given (read with the
        #: first games), or None.
        self.guess: VariantGuess | None = None
        self._guessing = default_variant is None
        self.games: list[GameSummary] = []
        self.done = False
        #: Why the file could not be read, when it could not (shown instead of progress).
        self.failure: str | None = None

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def compose(self) -> ComposeResult:

        yield ScreenHeader()
        with Horizontal(id="top"):
            yield Input(placeholder=_("search by player name (press /)"), id="filter")
            yield Select(
                self._variant_choices(),
                prompt=self._variant_prompt(),
                value=self.default_variant if self.default_variant else Select.NULL,
                id="default-variant",
            )
        # the file's path, tags and errors are data: shown as they are
        yield Plain(_("Reading…"), id="progress")
        yield RowTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Plain(id="detail")
        yield LocalFooter()

    def on_mount(self) -> None:
        self.title = _("shashki")
        self.sub_title = visible(self.path.name)
        table = self.query_one(DataTable)
        # the error mark next to the number, where a narrow terminal still shows it
        self._columns = table.add_columns("#", "", *(_(c) for c in self.COLUMNS))
        table.focus()
        self.read_games()

    def _variant_choices(self) -> list[tuple[RenderableType, str]]:
        from ..rules import all_variants

        return [
            (literal(_("untagged games: {name}").format(name=v.local_name)), v.id)
            for v in all_variants()
        ]

    def _variant_prompt(self) -> str:
        return _("untagged games: International (default)")

    def retranslate(self) -> None:
        """The table's words in the language spoken now; the rows read, the search, the
        game highlighted and the scroll stay."""
        from .widgets import relabel_select

        self.query_one("#filter", Input).placeholder = _("search by player name (press /)")
        choice = self.query_one("#default-variant", Select)
        choice.prompt = self._variant_prompt()
        relabel_select(choice, self._variant_choices())
        table = self.query_one(DataTable)
        for key, heading in zip(self._columns[2:], self.COLUMNS, strict=True):
            table.columns[key].label = Text(_(heading))
        row, scroll = table.cursor_row, table.scroll_y
        table.clear()
        for g in self.games:
            if self._matches(g):
                self._row(table, g)
        table.move_cursor(row=row, animate=False)
        table.scroll_to(y=scroll, animate=False)
        table.refresh(layout=True)
        if self.failure is not None:
            self.query_one("#progress", Static).update(self.failure)
        else:
            self._progress()
        self._detail(row if table.row_count else -1)

    @work(thread=True, exclusive=True, group="read")
    def read_games(self) -> None:
        from ..records.reader import read_file

        worker = get_current_worker()
        if self._guessing:
            self._guessing = False  # once: a variant chosen later is the user's
            try:
                guess = guess_variant(self.path)
            except OSError:
                guess = None  # reading the file says why, below
            if guess is not None and guess.variant.id != DEFAULT_VARIANT:
                # taken on the screen's thread, unless a variant was chosen meanwhile
                self.app.call_from_thread(self._take_guess, guess, worker)
            if worker.is_cancelled:
                return
        batch: list[GameSummary] = []
        # the first rows at once, then the rest at most every BATCH_SECONDS: each batch
        # redraws the table, which costs the screen more than reading costs the worker
        sent = 0.0
        try:
            for i, record in enumerate(read_file(self.path, self.default_variant)):
                if worker.is_cancelled:
                    return
                error = ""
                fault = record.errors[0] if record.errors else None
                if fault is not None:
                    error = str(fault)
                elif record.variant is None:
                    error = N_("a variant shashki does not play")  # translated when shown
                batch.append(
                    GameSummary(
                        i,
                        record.header("Event"),
                        record.header("Date"),
                        record.header("White"),
                        record.header("Black"),
                        record.header("Result") or record.result or "",
                        (len(record.mainline_moves()) + 1) // 2,  # moves, not plies
                        record.variant.id if record.variant else "?",
                        error,
                        record.fen is not None,
                        bool(record.header("GameType")),
                        fault,
                    )
                )
                if i == 4 or (i > 4 and time.monotonic() - sent >= self.BATCH_SECONDS):
                    self.app.call_from_thread(self._add, batch, False, worker)
                    batch = []
                    sent = time.monotonic()
        except OSError as exc:
            self.app.call_from_thread(self._failed, exc)
            return
        self.app.call_from_thread(self._add, batch, True, worker)

    def _take_guess(self, guess: VariantGuess, worker: Worker[None]) -> None:
        """The untagged games are read as ``guess`` says, and the Select shows it
        (without reading the file again); not when the user chose a variant meanwhile
        (that reading cancelled this one)."""
        if worker.is_cancelled:
            return
        self.guess = guess
        self.default_variant = guess.variant.id
        try:
            self.query_one("#default-variant", Select).value = guess.variant.id
        except NoMatches:
            pass

    def action_choose_variant(self) -> None:
        """The variant of the untagged games, chosen by keys: the list opens."""
        choice = self.query_one("#default-variant", Select)
        choice.focus()
        choice.expanded = True

    def _failed(self, exc: OSError) -> None:
        text = self.failure = _("Cannot read {path}: {reason}").format(
            path=shown_path(self.path), reason=os_reason(exc)
        )
        try:
            self.query_one("#progress", Static).update(text)
        except NoMatches:
            pass  # the table was left while the file was read: the notice still says why
        self.notify(text, severity="error", timeout=8, markup=False)

    def _matches(self, g: GameSummary) -> bool:
        boxes = self.query("#filter").results(Input)
        box = next(boxes, None)
        if box is None:  # the table taken apart as the app ends: nothing is filtered
            return True
        needle = box.value.strip().lower()
        return not needle or needle in g.white.lower() or needle in g.black.lower()

    def _add(self, batch: list[GameSummary], finished: bool = False, worker: object = None) -> None:
        if worker is not None and worker.is_cancelled:  # type: ignore[attr-defined]
            return  # a batch of a reading given up (the variant was changed meanwhile)
        try:
            table = self.query_one(DataTable)
        except NoMatches:
            return  # the screen is being taken down while the file is read
        self.games.extend(batch)
        for g in batch:
            if self._matches(g):
                self._row(table, g)
        self.done = finished
        self._progress()
        only = self.games[0] if finished and len(self.games) == 1 else None
        if only is not None and only.variant != "?" and (only.moves or not only.error):
            # a file of one game opens at once (a broken one up to its error); one that
            # is only an error (not a text file) stays in the table, which says why
            self.open_game(0)

    def _progress(self) -> None:
        shown = self.query_one(DataTable).row_count
        if self.done and not self.games:
            text = _("No games found in this file.")
        else:
            count = len(self.games)
            games = ngettext("{n} game", "{n} games", count).format(n=count)
            if self.done:
                text = _("{games} (all read); {shown} shown. Enter opens a game.")
            else:
                text = _("{games} (reading…); {shown} shown. Enter opens a game.")
            text = text.format(games=games, shown=shown)
            guess = self.guess
            if guess is not None and guess.variant.id == self.default_variant:
                text += " " + _(
                    "Games without a GameType: {variant}, a guess from their moves "
                    "({evidence}); v chooses another."
                ).format(variant=guess.variant.local_name, evidence=guess.describe())
            bad = sum(1 for g in self.games if g.error and not g.tagged)
            if bad and bad * 2 >= sum(1 for g in self.games if not g.tagged):
                read_as = self.default_variant or DEFAULT_VARIANT
                text += " " + ngettext(
                    "{n} game names no variant and does not replay as {variant}: choose "
                    "its variant at the top right.",
                    "{n} games name no variant and do not replay as {variant}: choose "
                    "their variant at the top right.",
                    bad,
                ).format(n=bad, variant=read_as)
        self.query_one("#progress", Static).update(text)

    def _row(self, table: DataTable, g: GameSummary) -> None:  # type: ignore[type-arg]
        mark = Text(_("error"), style="red") if g.error else Text("")
        moves = str(g.moves) if g.moves or not g.has_fen else _("position")
        # a column grows to its longest cell: one long event would push the players out of view;
        # a str cell would be read as markup, the file's text is not
        table.add_row(
            str(g.index + 1),
            mark,
            literal(_cut(g.event, 28)),
            literal(_cut(g.date, 12)),
            literal(_cut(g.white, 22)),
            literal(_cut(g.black, 22)),
            literal(g.result),
            moves,
            literal(_variant_shown(g.variant)),
            key=str(g.index),
        )

    @on(Input.Changed, "#filter")
    def _filter(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for g in self.games:
            if self._matches(g):
                self._row(table, g)
        self._progress()

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted game's error in words (Enter still opens it up to there)."""
        index = int(event.row_key.value) if event.row_key.value is not None else -1
        self._detail(index)

    def _detail(self, index: int) -> None:
        """Under the table, the error of the game ``index`` (if it has one)."""
        text = ""
        if 0 <= index < len(self.games) and self.games[index].error:
            g = self.games[index]
            error = str(g.fault) if g.fault is not None else _(g.error)
            text = _("Game {number}: {error}").format(number=index + 1, error=error)
        self.query_one("#detail", Static).update(text)

    @on(Select.Changed, "#default-variant")
    def _default_changed(self, event: Select.Changed) -> None:
        value = None if event.value is Select.NULL else str(event.value)
        if value == self.default_variant:
            return
        self.default_variant = value
        self.games = []
        self.done = False
        self.failure = None
        self.query_one(DataTable).clear()
        self.query_one("#detail", Static).update("")
        self.query_one("#progress", Static).update(_("Reading…"))
        self.read_games()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        self.open_game(int(str(event.row_key.value)))

    def open_game(self, index: int) -> None:
        try:
            record = load_record(self.path, index, self.default_variant)
        except OSError as exc:
            self.notify(
                _("Cannot read {path}: {reason}").format(
                    path=shown_path(self.path), reason=os_reason(exc)
                ),
                severity="error",
                markup=False,
            )
            return
        if record is None:
            self.notify(_("That game could not be read."), severity="error", markup=False)
            return
        self.shashki.open_record(
            record, source=f"{self.path.name} #{index + 1}", origin=Origin(self.path, index + 1)
        )

    def action_search(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_to_table(self) -> None:
        """Down in the search box goes to the matches, onto the first one."""
        if self.focused is self.query_one("#filter", Input):
            table = self.query_one(DataTable)
            table.move_cursor(row=0)
            table.focus()

    def action_back(self) -> None:
        if self.focused is self.query_one("#filter", Input):
            self.query_one(DataTable).focus()
            return
        self.workers.cancel_group(self, "read")
        self.app.pop_screen()


# -- the replay screen ------------------------------------------------------------------------


_MOVES = Binding.Group(N_("Move"), compact=True)
_LINES = Binding.Group(N_("Variation"), compact=True)


class ReplayScreen(MoveBoxScreen):
    """Step through a recorded game, its comments and variations (the stepping itself is
    the :class:`ReplayController`'s)."""

    # the footer shows the keys most wanted, grouped, so that they fit in 80 columns (Take
    # over was cut off at the end of a line of every key); the rest are in the help (?)
    BINDINGS = [
        Binding("left,h", "step(-1)", N_("Back"), key_display="←", group=_MOVES),
        Binding("right,l", "step(1)", N_("Next"), key_display="→", group=_MOVES),
        # the footer holds them all at 80 columns: the study's c and s and auto-play
        # (Space) are in the help (?)
        Binding("t", "take_over", N_("Take over")),
        Binding("r", "review", N_("Review")),
        Binding("c", "comment", N_("Comment"), show=False),
        Binding("v", "variation", N_("Enter variation"), group=_LINES),
        Binding(
            "backspace", "leave_variation", N_("Leave variation"), key_display="⌫", group=_LINES
        ),
        Binding("s,ctrl+s", "save", N_("Save"), show=False),
        Binding("space", "autoplay", N_("Auto-play"), key_display="␣", show=False),
        Binding("home", "jump('start')", N_("Start"), show=False),
        Binding("end", "jump('end')", N_("End"), show=False),
        Binding("plus,equals_sign", "speed(-1)", N_("Faster"), key_display="+", show=False),
        Binding("minus", "speed(1)", N_("Slower"), key_display="-", show=False),
        Binding("f", "flip", N_("Flip"), show=False),
        Binding("e", "analysis", N_("Analysis"), show=False),
        Binding("x", "explorer", N_("Explorer"), show=False),
        Binding("y", "copy_fen", N_("Copy FEN"), show=False),
        # the study: moves played on the board become variations; comments, marks, undo
        Binding("colon,slash", "type_move", N_("Type move"), key_display=":", show=False),
        Binding("m", "mark", N_("Mark"), show=False),
        Binding("exclamation_mark", "mark_key(1)", N_("Mark !"), key_display="!", show=False),
        Binding("u,ctrl+z", "undo", N_("Undo"), show=False),
        Binding("ctrl+y", "redo", N_("Redo"), show=False),
        Binding("p", "promote", N_("Promote variation"), show=False),
        Binding("M", "make_main", N_("Make main line"), key_display="M", show=False),
        Binding(
            "delete", "delete_variation", N_("Delete variation"), key_display="Del", show=False
        ),
        Binding("L", "learn", N_("Learn from mistakes"), key_display="L", show=False),
        Binding("b", "editor", N_("Set up"), show=False),
        Binding("escape,q", "back", N_("Back"), key_display="Esc"),
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
    ]
    #: A terminal under 30 rows gets a tighter review ("-short": a lower graph).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
    #: A multi-capture stepped into is shown one jump every this many seconds.
    JUMP_SECONDS = 0.2

    def __init__(
        self,
        record: GameRecord,
        source: str = "",
        origin: Origin | None = None,
        *,
        changed: bool = False,
        review: bool = False,
    ) -> None:
        """Raises ShashkiError when the record cannot be replayed (see ReplayController).
        ``origin``: where the game came from (its study's changes are autosaved under
        it, and saved back there when it is a game of My games)."""
        super().__init__()
        self.replay = ReplayController(record, changed=changed)
        #: The move list's numbered rows (the moves of the whole tree).
        self.turn_rows = self.replay.turn_rows()
        self.source = source
        self.origin = origin or Origin()
        #: The study's changes, kept on disk after each edit until it is saved.
        self.autosave = StudyAutosave(self.origin)
        self.board = BoardWidget(self.replay.controller, id="board")
        self.board.takes_typed_moves = True
        self.speed_index = 2
        self._auto: Timer | None = None
        #: The review of the game: read back from the record when it has one, else
        #: made when asked (r, or ``review`` at once).
        self.review: Review | None = Review.read(record)
        self.job: ReviewJob | None = None
        self._unwatch: Callable[[], None] = lambda: None
        self._review_asked = review
        self._moment_keys: list[str] | None = None
        self._retelling = False

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Vertical(id="board-area"):
            yield self.board
            yield EvalGraph(id="graph")
        with Vertical(id="side"):
            # tags, comments and errors come from the file: shown as they are
            yield Plain(id="tags")
            yield Plain(id="where")
            yield Plain(id="review-summary")
            yield ProgressBar(id="review-progress", show_eta=False)
            yield OptionList(id="moments")
            yield Plain(id="comment")
            yield AnalysisPanel(id="analysis")
            yield ExplorerPanel(id="explorer")
            yield Plain(id="error")
            yield MoveList(id="moves")
            yield MoveInput(placeholder=self._input_hint(), id="move-input")
        yield LocalFooter(compact_style=False)  # names never run together

    def _input_hint(self) -> str:
        variant = self.replay.record.variant
        if variant is None:
            return ""
        return _("a move, e.g. {move} (a new one: a variation)").format(
            move=example_moves(variant)[0]
        )

    def on_mount(self) -> None:
        self.title = _("shashki replay")
        self._say_record()
        settings = self.shashki.settings  # the user's piece set, coordinates and board theme
        self.board.piece_set = settings.piece_set
        self.board.show_coords = settings.coords
        self.board.all_numbers = settings.numbers
        set_board_theme(self.board, settings.board_theme)
        self._fill_moves()
        self.board.cursor = -1
        self.board.focus()
        if self.review is not None:
            self._review_shown()
        elif self._review_asked:
            self.action_review()
        self._show()

    def _say_record(self) -> None:
        """The title, the tags and the record's error, in the language spoken now."""
        record = self.replay.record
        self.sub_title = visible(
            f"{record.variant.local_name if record.variant else ''} {self.source}".strip()
        )
        self.query_one("#tags", Static).update("\n".join(shown_tags(record)[:8]))
        if record.errors:
            e = record.errors[0]
            text = _("This record stops after the last good move: {error}").format(error=e)
            if not record.header("GameType") and record.variant is not None:
                text += "\n" + _(
                    "The file names no variant, so it was read as {variant}: for another, "
                    "choose it at the top right of the game table (or give shashki replay "
                    "--variant)."
                ).format(variant=record.variant.local_name)
            self.query_one("#error", Static).update(text)

    def retranslate(self) -> None:
        """Say everything again in the language spoken now: the title, the tags, the
        panel, the move list's note and the footer; the move shown, the auto-play and
        the board stay as they are."""
        try:
            self.query_one("#tags", Static)
        except NoMatches:
            return  # not composed yet: it will be drawn in the language
        self._say_record()
        self.query_one("#move-input", Input).placeholder = self._input_hint()
        if not self.turn_rows:
            self._fill_moves()
        self.query_one(AnalysisPanel).retranslate()
        self.query_one(ExplorerPanel).retranslate()
        if self.review is not None:
            self._retelling = True
            self._review_update()
        self._show()
        self.refresh_bindings()

    # -- the move list ---------------------------------------------------------------

    def _fill_moves(self, *, redraw: bool = True, keep: bool = False) -> None:
        """The move list in numbered rows (the game screen's), the move shown marked
        (``keep``: the row highlighted stays)."""
        moves = self.query_one("#moves", MoveList)
        if not self.turn_rows:
            moves.clear_options()
            moves.add_option(Option(_("(no moves: a position)"), disabled=True))
            return
        moves.show(self.turn_rows, self.replay.node, redraw=redraw, keep=keep)

    def on_move_list_resized(self) -> None:
        """The move list changed size: its rows drawn in the new width, the row
        highlighted kept (the player's place in the list is not lost)."""
        self._fill_moves(keep=True)

    @on(OptionList.OptionSelected, "#moves")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        """A row clicked (or chosen): the position after its last move."""
        rows = self.turn_rows
        if not 0 <= event.option_index < len(rows):
            return
        node = rows[event.option_index].last
        if isinstance(node, GameNode) and self._went(self.replay.go(node)):
            self.board.focus()

    # -- moving through the record -----------------------------------------------------------

    def _went(self, step: Step) -> bool:
        """Show where ``step`` went (or say why it went nowhere); True if it moved."""
        if step.refused:
            self.notify(step.refused, timeout=2, markup=False)
        if not step.moved:
            return False
        self.board.stop_jumps()
        self.board.set_controller(self.replay.controller)
        self.board.cursor = -1  # nothing to select on a replayed board: no cursor square
        if step.jumps is not None:
            self.board.show_jumps(step.jumps, self.JUMP_SECONDS)
        self._show()
        return True

    def _show(self) -> None:
        where = self.replay.where()
        speed = self.SPEEDS[self.speed_index]
        if self._auto is not None:
            where += "\n" + _("Auto-play: one move every {seconds} s (+/-)").format(
                seconds=f"{speed:g}"
            )
        self.query_one("#where", Static).update(where)
        comments = self.replay.comments()
        said = self._review_here()
        if said:
            comments = f"{said}\n{comments}" if comments else said
        self.query_one("#comment", Static).update(comments)
        if self.review is not None:
            self._review_graph()
        self.query_one(AnalysisPanel).follow(self.replay.controller.game)
        self.query_one(ExplorerPanel).follow(self.replay.controller.game)
        if self.turn_rows:
            moves = self.query_one("#moves", MoveList)
            moves.show(self.turn_rows, self.replay.node)
            # once more after the panel above has its new height (the result line at
            # the end of a game makes the list shorter): the move stays in view
            moves.call_after_refresh(moves.scroll_to_highlight)
        self.board.refresh()

    def action_analysis(self) -> None:
        """Turn the engine's analysis of the shown position on or off (e)."""
        on = self.query_one(AnalysisPanel).toggle(self.replay.controller.game)
        self.notify(_("Analysis on (e: off)") if on else _("Analysis off"), timeout=2, markup=False)

    def action_editor(self) -> None:
        """The position shown on the board editor (b)."""
        from .editor import EditorScreen

        game = self.replay.controller.game
        self._stop_auto()
        self.app.push_screen(EditorScreen(game.variant, game.fen()))

    def action_explorer(self) -> None:
        """Turn the opening explorer on or off (x): the moves played in this position."""
        if not self.query_one(ExplorerPanel).toggle(self.replay.controller.game):
            self.board.focus()

    @on(ExplorerPanel.Chosen)
    def _explored(self, event: ExplorerPanel.Chosen) -> None:
        """A move of the explorer chosen: played from the position shown as a move on the
        board is (the record's move or variation is followed, another move makes a
        variation)."""
        self.board.focus()
        self._stop_auto()
        self._edited(self.replay.play(event.move))

    @on(ExplorerPanel.Left)
    def _explorer_left(self) -> None:
        self.board.focus()

    def action_copy_fen(self) -> None:
        """Copy the shown position's FEN to the clipboard (y)."""
        fen = self.replay.controller.game.fen()
        self.app.copy_to_clipboard(fen)
        self.notify(_("FEN copied: {fen}").format(fen=fen), timeout=3, markup=False)

    # -- the study: moves, comments, marks, undo, saving ----------------------------------

    def _edited(self, step: Step) -> bool:
        """Show an edit's result: the move list made again, the study autosaved."""
        if step.edited:
            self.turn_rows = self.replay.turn_rows()
            self._fill_moves()
            self.autosave.save(self.replay.record)
            self.refresh_bindings()
        return self._went(step)

    @on(BoardWidget.SquareClicked)
    def _clicked(self, event: BoardWidget.SquareClicked) -> None:
        """A click (or Enter) on the board: select a piece, play a move from the position
        shown (the record's move is followed, another one makes a variation)."""
        self._stop_auto()
        self._answer(self.replay.controller.click(event.square))

    def _answer(self, fb: Feedback) -> None:
        if fb.played is not None:
            self._edited(self.replay.play(fb.played))
            return
        if fb.refused:
            self.notify(again(fb.refused), timeout=4, markup=False)
        elif fb.message:
            self.notify(again(fb.message), timeout=6, markup=False)
        self.board.refresh()

    def move_box_shown(self, box: Input, shown: bool) -> None:
        box.set_class(shown, "-on")  # (the box shows only while a move is typed)

    def move_typed(self, text: str) -> None:
        """A move typed (':'): played from the position shown."""
        self._stop_auto()
        fb = self.replay.controller.enter_text(text)
        if fb.refused:
            why = fb.refused
            fb = Feedback(
                refused=Said(lambda: _("{move}: {reason}").format(move=text, reason=again(why)))
            )
        self._answer(fb)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget is self.move_box:
            self.board.typing = False
            event.widget.remove_class("-on")

    def action_comment(self) -> None:
        """Write or edit the comment on the move shown (c)."""
        self._stop_auto()
        node = self.replay.node
        if node.parent is None:
            question = N_("A comment on the game, before its first move:")
        else:
            question = N_("A comment on the move shown:")

        def written(text: str | None) -> None:
            if text is not None and self.replay.node is node:
                self._edited(self.replay.set_comment(text))

        self.app.push_screen(CommentDialog(question, self.replay.comment_text()), written)

    def action_mark(self) -> None:
        """Choose the mark of the move shown (m): ! ? !! ?? !? ?!"""
        self._stop_auto()
        node = self.replay.node
        if node.parent is None:
            self.notify(
                _("Step to a move first: the start has no move to mark."), timeout=3, markup=False
            )
            return

        def chosen(nag: int | None) -> None:
            if nag is None or self.replay.node is not node:
                return
            current = mark_of(node.nags)
            if nag == 0:
                if current is not None:
                    self._edited(self.replay.mark(current))  # the same mark: taken off
            elif nag != current:
                self._edited(self.replay.mark(nag))

        self.app.push_screen(MarkDialog(mark_of(node.nags)), chosen)

    def action_mark_key(self, nag: int) -> None:
        """A mark typed straight on the board ('!'); again takes it off."""
        self._edited(self.replay.mark(nag))

    def action_undo(self) -> None:
        self._edited(self.replay.undo())

    def action_redo(self) -> None:
        self._edited(self.replay.redo())

    def action_promote(self) -> None:
        self._edited(self.replay.promote())

    def action_make_main(self) -> None:
        self._edited(self.replay.make_main())

    def action_delete_variation(self) -> None:
        self._edited(self.replay.delete())

    def action_save(self) -> None:
        """Save the study: back into My games for a game of My games, else to a PDN file
        (a new one is suggested; the file the game came from is never replaced unasked)."""
        self._stop_auto()
        record = self.replay.record

        def saved() -> None:
            self.replay.mark_saved()
            self.autosave.forget()

        self.shashki.save_record_dialog(record, self.origin, on_saved=saved)

    # -- the review -----------------------------------------------------------------------

    def action_review(self) -> None:
        """Review the game (r): every position judged by the engine in worker processes,
        the marks, the accuracy, the key moments and the graph as they come."""
        record = self.replay.record
        if not record.variations:
            self.notify(_("There is no move to review."), timeout=3, markup=False)
            return
        if self.job is not None and self.job.running:
            self.notify(_("The review is under way."), timeout=3, markup=False)
            return
        review = self.review
        if review is not None and not review.matches():
            review = review.reused(record)  # the main line was changed: what is kept
        if review is None:
            review = Review(record, depth=self.shashki.settings.review_depth)
        self.review = review
        self._review_shown()
        if review.complete:
            self._review_written()
            self.notify(
                _("The review is done: its marks are in the move list."), timeout=3, markup=False
            )
            return
        self.job = job = ReviewJob(self.app, review, name=self.source)
        job.origin = self.origin
        self._unwatch = job.watch(self._review_event)
        job.start()

    def _review_event(self, event: ReviewEvent) -> None:
        if isinstance(event, ReviewEnded):
            self._review_done()
        else:
            self._review_update()

    def _review_shown(self) -> None:
        """The review's panel and graph on the screen."""
        self.add_class("-review")
        self._review_update()

    def _review_update(self) -> None:
        review = self.review
        if review is None:
            return
        bar = self.query_one("#review-progress", ProgressBar)
        running = self.job is not None and self.job.running
        bar.display = running
        done, total = review.progress()
        bar.update(total=total, progress=done)
        self.query_one("#review-summary", Static).update(self._review_summary())
        self._review_moments()
        self._review_graph()
        if review.known and review.matches():
            review.write()
            self.turn_rows = self.replay.turn_rows()
            self._fill_moves(keep=True)

    def _review_done(self) -> None:
        job = self.job
        self._review_update()
        self._review_written()
        if job is not None and job.failed:
            self.notify(
                _("The review stopped: {reason}").format(reason=job.failed),
                severity="error",
                timeout=10,
                markup=False,
            )
        elif self.review is not None and self.review.complete:
            self.notify(_("The review is done."), timeout=3, markup=False)
        self._show()

    def _review_written(self) -> None:
        """The review is part of the study now: autosaved like any change."""
        if self.review is not None and self.review.write():
            self.replay.touched()
            self.autosave.save(self.replay.record)
            self.turn_rows = self.replay.turn_rows()
            self._fill_moves(keep=True)

    def _review_summary(self) -> str:
        review = self.review
        if review is None:
            return ""
        names = self.replay._names()
        record = self.replay.record
        lines = []
        if not review.complete:
            lines.append(
                _("Review: {done} of {total} positions").format(
                    done=review.known, total=review.total
                )
            )
        for side in (0, 1):
            player = record.header("White" if side == 0 else "Black").strip()
            # (a name that is only the side's own, as a game between people writes it: once)
            plain = player in ("", "?", str(names[side]), review.variant.side_names[side])
            who = str(names[side]) if plain else f"{names[side]} ({player})"
            score = review.accuracy(side)
            counts = review.counts(side)
            marks = " ".join(f"{mark}{counts[mark]}" for mark in ("??", "?", "?!"))
            shown = "–" if score is None else f"{score:.0f}%"
            lines.append(who)
            lines.append("  " + _("accuracy {accuracy}").format(accuracy=shown) + f"  {marks}")
        return "\n".join(lines)

    def _review_moments(self) -> None:
        """The key moments as a list: Enter (or a click) shows the move."""
        review = self.review
        moments = self.query_one("#moments", OptionList)
        if review is None:
            return
        found = review.key_moments()
        keys = [str(v.ply) for v in found] + [str(review.complete)]
        if keys == self._moment_keys and not self._retelling:
            return
        self._moment_keys = keys
        self._retelling = False
        highlighted = moments.highlighted
        moments.clear_options()
        if not found:
            text = (
                _("No mistakes found so far.") if not review.complete else _("No mistakes found.")
            )
            moments.add_option(Option(text, disabled=True))
            return
        for verdict in found:
            ply = verdict.ply
            label = review.labels[ply - 1] + verdict.mark
            label += f"  {verdict.before * 100:.0f}% → {verdict.after * 100:.0f}%"
            moments.add_option(Option(literal(label), id=str(ply)))
        # the first one highlighted at once: Tab to the list and Enter shows it
        moments.highlighted = (
            highlighted if highlighted is not None and highlighted < moments.option_count else 0
        )

    @on(OptionList.OptionSelected, "#moments")
    def _moment_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self._go_ply(int(event.option.id))
            self.board.focus()

    @on(EvalGraph.Chosen)
    def _graph_chosen(self, event: EvalGraph.Chosen) -> None:
        self._go_ply(event.ply)

    def _go_ply(self, ply: int) -> None:
        """Show the position after the ``ply``-th move of the main line."""
        node: GameNode = self.replay.record
        for _i in range(ply):
            nxt = node.next()
            if nxt is None:
                break
            node = nxt
        self._stop_auto()
        self._went(self.replay.go(node))

    def _review_graph(self) -> None:
        review = self.review
        if review is None:
            return
        node = self.replay.node
        ply = node.ply() if node.is_mainline() else self._branch_ply(node)
        marks = {v.ply: v.mark for v in review.verdicts() if v.mark}
        self.query_one(EvalGraph).show(review.graph(), ply, marks)

    @staticmethod
    def _branch_ply(node: GameNode) -> int:
        """The ply of the main line where a variation's node branches off."""
        while node.parent is not None and not node.is_mainline():
            node = node.parent
        return node.ply()

    def _review_here(self) -> str:
        """What the review says of the move shown: its mark's meaning, the chances
        before and after it, and the engine's choice."""
        review = self.review
        node = self.replay.node
        if review is None or node.parent is None or not node.is_mainline():
            return ""
        verdict = review.verdict(node.ply())
        if verdict is None:
            return ""
        names = self.replay._names()
        words = {"??": _("Blunder."), "?": _("Mistake."), "?!": _("Inaccuracy.")}
        parts = []
        if verdict.mark:
            parts.append(words[verdict.mark])
        parts.append(
            _("{side}'s chances: {before}% → {after}%").format(
                side=names[verdict.side],
                before=f"{verdict.before * 100:.0f}",
                after=f"{verdict.after * 100:.0f}",
            )
        )
        if verdict.best:
            parts.append(_("Best was {move}.").format(move=verdict.best))
        return " ".join(parts)

    def action_learn(self) -> None:
        """Learn from your mistakes (L): each of the player's mistakes shown again, to find
        a better move."""
        from .learn import LearnScreen

        review = self.review
        side = self.origin.player_side
        if side is None:
            self.notify(
                _("Learning from mistakes is for your own games: open one from My games."),
                timeout=5,
                markup=False,
            )
            return
        if review is None or not review.complete:
            self.notify(_("Review the game first (r)."), timeout=4, markup=False)
            return
        mistakes = [v for v in review.verdicts() if v.side == side and v.mark in ("?", "??")]
        if not mistakes:
            self.notify(
                _("No mistakes of yours to learn from in this game."), timeout=4, markup=False
            )
            return
        self.app.push_screen(LearnScreen(review, side))

    def action_step(self, step: int) -> None:
        if step > 0:
            if not self._went(self.replay.next()):
                self._stop_auto()
        else:
            self._went(self.replay.prev())

    def action_jump(self, where: str) -> None:
        self._went(self.replay.first() if where == "start" else self.replay.last())

    def action_variation(self) -> None:
        self._went(self.replay.enter_variation())

    def action_leave_variation(self) -> None:
        self._went(self.replay.leave_variation())

    def action_autoplay(self) -> None:
        if self._auto is not None:
            self._stop_auto()
        else:
            self._auto = self.set_interval(
                self.SPEEDS[self.speed_index], lambda: self.action_step(1)
            )
        self._show()

    @property
    def auto_playing(self) -> bool:
        """Whether the moves are being played one by one by themselves (Space)."""
        return self._auto is not None

    def _stop_auto(self) -> None:
        if self._auto is not None:
            self._auto.stop()
            self._auto = None
            self._show()

    def action_speed(self, delta: int) -> None:
        self.speed_index = max(0, min(len(self.SPEEDS) - 1, self.speed_index + delta))
        if self._auto is not None:
            self._auto.stop()
            self._auto = self.set_interval(
                self.SPEEDS[self.speed_index], lambda: self.action_step(1)
            )
        self._show()

    def action_take_over(self) -> None:
        """A live game from this position, keeping the record up to here."""
        self._stop_auto()
        taken = self.replay.take_over()
        if taken.game is None:
            self.notify(taken.refused, timeout=4, markup=False)
            return
        self.shashki.take_over(taken.game, taken.names)

    def action_flip(self) -> None:
        self.board.flipped = not self.board.flipped

    def action_help(self) -> None:
        from .dialogs import HelpScreen

        if self.replay.record.variant is not None:
            self.app.push_screen(HelpScreen(self.replay.record.variant, replay=True))

    def action_back(self) -> None:
        if self.board.typing:
            self.board.typing = False
            self.query_one("#move-input", Input).remove_class("-on")
            self.set_focus(self.board)
            return
        self._stop_auto()
        self.board.stop_jumps()
        if self.replay.changed:
            if self.origin.key:
                self.notify(
                    _(
                        "The study's changes are not saved: they are kept, and come back "
                        "when you open this game again (s saves them)."
                    ),
                    timeout=8,
                    markup=False,
                )
            else:
                self.notify(_("The study's changes were not saved."), timeout=6, markup=False)
        if self.job is not None:  # a review under way goes on: kept when it ends
            self._unwatch()
            if self.review is not None and self.review.known:
                self.review.write()
                self.autosave.save(self.replay.record)
        self.autosave.close()
        self.app.pop_screen()


#: Tags for programs, not players: the variant is named instead, the start is on the board.
TECHNICAL_TAGS = frozenset(
    "fen setup gametype variant whitetype blacktype whitelevel blacklevel lotseed "
    "whiteengine blackengine plycount".split()
)
#: The values shashki writes in a tag nobody filled in (a game of the app): not shown.
DEFAULT_TAGS = {"Event": "shashki game", "Site": "shashki"}
#: Tags shown under a name of their own (in the language spoken: ``_(name)``).
TAG_NAMES = {
    "StartOption": N_("Start"),
    "Event": N_("Event"),
    "Site": N_("Site"),
    "Date": N_("Date"),
    "Round": N_("Round"),
    "White": N_("White"),
    "Black": N_("Black"),
    "Result": N_("Result"),
    "TimeControl": N_("Time control"),
    "Termination": N_("Termination"),
    "Annotator": N_("Annotator"),
}


def local_ending(record: GameRecord) -> str | None:
    """How the game ended, said in the language spoken now, when its tags and its last
    position say it in words shashki reads (:func:`~shashki.records.ending.record_outcome`);
    None for other words (shown as they are written) or a game that does not replay."""
    if record.variant is None or not record.ok:
        return None
    try:
        final = record.end().replay()
    except ValueError:  # a move the tree cannot play: the tag as it is
        return None
    ended = record_outcome(record, final)
    return ended.describe(variant=record.variant) if ended is not None else None


def shown_tags(record: GameRecord) -> list[str]:
    """The record's tags as the replay panel shows them: the variant's name first, a
    computer player as such, and no tag meant for programs only."""
    lines = []
    sides = {"white", "black"}
    if record.variant is not None:
        lines.append(_("Variant: {name}").format(name=record.variant.local_name))
        sides |= {side.lower() for side in record.variant.side_names}
    for name, value in record.headers.items():
        if not value or value in ("?", "-", "*") or name.lower() in TECHNICAL_TAGS:
            continue
        if DEFAULT_TAGS.get(name) == value:
            continue  # what shashki writes when nobody named it: not a name
        if name in ("White", "Black") and record.header(f"{name}Type").lower() == "program":
            level = record.header(f"{name}Level")
            if level and (value == f"Computer {level}" or value.lower() in sides):
                value = _("Computer · level {n}").format(n=level)  # a default name
            else:
                kind = "" if "computer" in value.lower() else " · " + _("computer")
                if level:
                    kind += " · " + _("level {n}").format(n=level)
                value += kind
        elif name in ("White", "Black") and value.lower() in sides:
            continue  # a side's name written as the player's: a default, not a name
        elif name == "StartOption" and record.variant is not None:
            value = record.variant.local(value)  # the variant's own word, in the language
        elif name == "Termination":
            value = local_ending(record) or value  # shashki's English sentence, or as written
        label = _(TAG_NAMES[name]) if name in TAG_NAMES else name
        lines.append(f"{label}: {value}")
    return lines
