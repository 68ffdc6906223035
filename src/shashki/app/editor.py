"""The board editor: set up a position of any variant by keys or the mouse — men and kings
of either side (the shared pieces of a game without colours, the wolf and the sheep of a
goal game, whatever the variant has), a column of pieces square by square where columns
are played — choose the side to move, and see at once why the position cannot be played;
then play it (two people, or against the computer), analyse it, copy its FEN or save it
as a record that starts from it.

The position itself is :class:`~shashki.rules.setup.Setup`'s (the rules say what may
stand where and why not); this screen only shows it and takes the keys.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..i18n import N_, _
from ..records import GameRecord
from ..rules import Game, ShashkiError
from ..rules.setup import Setup, SetupPiece
from ..rules.variant import Variant
from ..session.seats import PERSON, LevelSeat, Seat
from .analysis import AnalysisPanel
from .board import BoardWidget
from .controller import GameController
from .plain import Plain, literal
from .shell import Shell, shell_of
from .themes import set_board_theme
from .widgets import LocalFooter, ScreenHeader

#: The computer's level in a position played against it (m).
COMPUTER_LEVEL = 5

#: The editor's word for an empty square in its list of pieces.
EMPTY = ""


def piece_name(variant: Variant, piece: SetupPiece) -> str:
    """A piece of the palette in words: "White man", "Black king", "Piece" (no colour)."""
    if piece.side is None:
        return _("King (no colour)") if piece.king else _("Man (no colour)")
    side = variant.local_side(piece.side)
    if piece.king:
        return _("{side}: king").format(side=side)
    return _("{side}: man").format(side=side)


class EditorScreen(Screen[None]):
    """Set up a position of ``variant`` (from ``fen``, else its start)."""

    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", N_("Up"), show=False),
        Binding("down,j", "cursor(0,1)", N_("Down"), show=False),
        Binding("left,h", "cursor(-1,0)", N_("Left"), show=False),
        Binding("right,l", "cursor(1,0)", N_("Right"), show=False),
        Binding("home", "cursor(-1,-1)", N_("Up-left"), show=False),
        Binding("pageup", "cursor(1,-1)", N_("Up-right"), show=False),
        Binding("end", "cursor(-1,1)", N_("Down-left"), show=False),
        Binding("pagedown", "cursor(1,1)", N_("Down-right"), show=False),
        Binding("enter,space", "put", N_("Put"), key_display="␣"),
        Binding("x,delete,backspace", "lift", N_("Remove"), key_display="x"),
        Binding("tab", "next_piece(1)", N_("Next piece"), show=False, priority=True),
        Binding("shift+tab", "next_piece(-1)", N_("Previous piece"), show=False, priority=True),
        Binding("w", "put_code('w')", show=False),
        Binding("W", "put_code('W')", show=False),
        Binding("b", "put_code('b')", show=False),
        Binding("B", "put_code('B')", show=False),
        Binding("n", "put_code('n')", show=False),
        Binding("N", "put_code('N')", show=False),
        Binding("t", "turn", N_("Side to move")),
        Binding("c", "clear", N_("Clear"), show=False),
        Binding("i", "initial", N_("Start position"), show=False),
        Binding("p", "play('people')", N_("Play")),
        Binding("m", "play('computer')", N_("Play the computer"), show=False),
        Binding("e", "analysis", N_("Analysis"), show=False),
        Binding("y", "copy_fen", N_("Copy FEN"), show=False),
        Binding("s", "save", N_("Save")),
        Binding("f", "flip", N_("Flip"), show=False),
        Binding("escape,q", "back", N_("Back"), key_display="Esc"),
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
    ]

    def __init__(self, variant: Variant, fen: str | None = None) -> None:
        super().__init__()
        self.setup = Setup(variant, fen)
        self.variant = variant
        self.palette = self.setup.palette()
        self.chosen = 0
        self.shown = Game(variant, self.setup.fen())
        self.board = BoardWidget(GameController(self.shown, interactive=False), id="board")
        self.board.cursor = self.variant.board.squares[0]

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Vertical(id="board-area"):
            yield self.board
        with Vertical(id="side"):
            yield OptionList(*self._options(), id="palette")
            yield Plain(id="turn")
            yield Plain(id="square")
            yield Plain(id="problems")
            # a FEN is data: shown as it is
            yield Plain(id="fen")
            yield AnalysisPanel(id="analysis")
        yield LocalFooter()

    def _options(self) -> list[Option]:
        options = [
            Option(literal(f"{p.code}  {piece_name(self.variant, p)}"), id=p.code)
            for p in self.palette
        ]
        options.append(Option(literal(f"x  {_('Empty square')}"), id="x"))
        return options

    def on_mount(self) -> None:
        self.title = _("Set up a position")
        self.sub_title = self.variant.local_name
        settings = self.shashki.settings
        self.board.piece_set = settings.piece_set
        self.board.show_coords = settings.coords
        set_board_theme(self.board, settings.board_theme)
        self.query_one("#palette", OptionList).highlighted = 0
        self.board.focus()
        self._show()

    def retranslate(self) -> None:
        self.title = _("Set up a position")
        self.sub_title = self.variant.local_name
        palette = self.query_one("#palette", OptionList)
        highlighted = palette.highlighted
        palette.clear_options()
        palette.add_options(self._options())
        palette.highlighted = highlighted
        self.query_one(AnalysisPanel).retranslate()
        self._show()
        self.refresh_bindings()

    # -- what is shown -----------------------------------------------------------------

    def _show(self) -> None:
        setup = self.setup
        fen = setup.fen()
        problems = setup.problems()
        try:
            self.shown = Game(self.variant, fen)
        except ShashkiError:
            pass  # (a position the FEN reader refuses: the last one it read stays shown)
        cursor = self.board.cursor
        self.board.set_controller(GameController(self.shown, interactive=False))
        self.board.cursor = cursor  # (a new controller puts it on a piece: kept here)
        side = self.variant.local_side(setup.turn)
        self.query_one("#turn", Plain).update(_("{side} to move (t)").format(side=side))
        self.query_one("#square", Plain).update(self._square_text())
        if problems:
            said = _("Cannot be played:") + "\n" + "\n".join(f"• {p}" for p in problems)
        else:
            said = _("Ready: p plays it, m against the computer, e analyses it.")
        problem_box = self.query_one("#problems", Plain)
        problem_box.update(said)
        problem_box.set_class(bool(problems), "-bad")
        self.query_one("#fen", Plain).update(f"FEN {fen}")
        self.query_one(AnalysisPanel).follow(self.shown)
        self.board.refresh()

    def _square_text(self) -> str:
        square = self.board.cursor
        if square < 0:
            return ""
        name = self.setup.square_name(square)
        column = self.setup.squares.get(square, "")
        if not column:
            return _("{square}: empty").format(square=name)
        if len(column) == 1:
            piece = next((p for p in self.palette if p.code == column), None)
            what = piece_name(self.variant, piece) if piece else column
            return f"{name}: {what}"
        return _("{square}: a column, bottom to top {column}").format(square=name, column=column)

    # -- editing -----------------------------------------------------------------------

    def _code(self) -> str:
        option = self.query_one("#palette", OptionList).highlighted
        if option is None or option >= len(self.palette):
            return EMPTY
        return self.palette[option].code

    def _put(self, square: int, code: str) -> None:
        setup = self.setup
        try:
            if code == EMPTY:
                setup.lift(square)
            elif setup.columns:
                setup.stack_on(square, code)
            elif setup.squares.get(square) == code:
                setup.clear(square)  # the same piece again: taken off
            else:
                setup.place(square, code)
        except ShashkiError as exc:
            self.notify(str(exc), timeout=4, markup=False)
            return
        self._show()

    def action_cursor(self, dx: int, dy: int) -> None:
        if self.focused is not self.board:
            self.board.focus()
            return
        self.board.move_cursor(dx, dy)
        self.query_one("#square", Plain).update(self._square_text())

    def action_put(self) -> None:
        if self.focused is not self.board:
            return
        if self.board.cursor >= 0:
            self._put(self.board.cursor, self._code())

    def action_put_code(self, code: str) -> None:
        codes = [p.code for p in self.palette]
        if code not in codes:
            self.notify(_("This game has no such piece."), timeout=3, markup=False)
            return
        self.query_one("#palette", OptionList).highlighted = codes.index(code)
        if self.board.cursor >= 0:
            self._put(self.board.cursor, code)

    def action_lift(self) -> None:
        if self.board.cursor >= 0:
            self._put(self.board.cursor, EMPTY)

    def action_next_piece(self, step: int) -> None:
        palette = self.query_one("#palette", OptionList)
        count = palette.option_count
        palette.highlighted = ((palette.highlighted or 0) + step) % count

    @on(BoardWidget.SquareClicked)
    def _clicked(self, event: BoardWidget.SquareClicked) -> None:
        self.board.cursor = event.square
        self._put(event.square, self._code())

    @on(BoardWidget.CursorMoved)
    def _hovered(self, event: BoardWidget.CursorMoved) -> None:
        self.query_one("#square", Plain).update(self._square_text())

    @on(OptionList.OptionSelected, "#palette")
    def _palette_chosen(self) -> None:
        self.board.focus()

    def action_turn(self) -> None:
        self.setup.turn = 1 - self.setup.turn
        self._show()

    def action_clear(self) -> None:
        self.setup.clear()
        self._show()

    def action_initial(self) -> None:
        self.setup.load(Game(self.variant))
        self._show()

    def action_flip(self) -> None:
        self.board.flipped = not self.board.flipped

    # -- what to do with it ------------------------------------------------------------

    def _game(self) -> Game | None:
        try:
            return self.setup.game()
        except ShashkiError as exc:
            self.notify(
                _("This position cannot be played: {reason}").format(reason=exc),
                severity="warning",
                timeout=6,
                markup=False,
            )
            return None

    def action_play(self, who: str) -> None:
        """Play the position: two people (p), or against the computer (m: the side to
        move is the player's)."""
        game = self._game()
        if game is None:
            return
        side = self.setup.turn
        kinds: tuple[Seat, Seat] = (PERSON, PERSON)
        if who == "computer":
            computer = LevelSeat(COMPUTER_LEVEL)
            kinds = (PERSON, computer) if side == 0 else (computer, PERSON)
        self.shashki.start_game(self.variant, fen=game.fen(), kinds=kinds, flip=side == 1)

    def action_analysis(self) -> None:
        """The engine's analysis of the position (e: on and off)."""
        if self.setup.problems():
            self._game()  # says why not
            return
        on = self.query_one(AnalysisPanel).toggle(self.shown)
        self.notify(_("Analysis on (e: off)") if on else _("Analysis off"), timeout=2, markup=False)

    def action_copy_fen(self) -> None:
        fen = self.setup.fen()
        self.app.copy_to_clipboard(fen)
        self.notify(_("FEN copied: {fen}").format(fen=fen), timeout=3, markup=False)

    def action_save(self) -> None:
        """Save the position as a record that starts from it (its FEN in the tags)."""
        game = self._game()
        if game is None:
            return
        from ..store.studies import Origin

        record = GameRecord(self.variant, game.fen())
        self.shashki.save_record_dialog(record, Origin(), on_saved=lambda: None)

    def action_help(self) -> None:
        from .dialogs import EDITOR_KEYS_HELP, HelpScreen

        self.app.push_screen(HelpScreen(self.variant, keys=EDITOR_KEYS_HELP))

    def action_back(self) -> None:
        self.app.pop_screen()


__all__ = ["EditorScreen", "piece_name"]
