"""The game screen: the board, the side panel, the move box, and the keys of play."""

from __future__ import annotations

from collections.abc import Callable

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import Input, OptionList, Static
from textual.worker import Worker, get_current_worker

from ..i18n import N_, Noun, _, agree, ngettext
from ..rules.fen import square_text
from ..rules.game import Game, game_state
from ..rules.move import Color, Move
from ..session.driver import AsyncioExecutor
from ..session.game import (
    Changed,
    Event,
    GameEnded,
    GameSession,
    MovePlayed,
    SeatFailed,
    SeatReady,
    Thinking,
)
from ..session.players import Computer, Player
from .analysis import AnalysisPanel
from .board import PIECE_SET_NAMES, BoardWidget
from .controller import Feedback, GameController, Said, UndoPolicy, again
from .dialogs import ConfirmScreen, GameOverScreen, HelpScreen, LeaveScreen, example_moves
from .explorer import ExplorerPanel
from .move_box import MoveBoxScreen, MoveInput
from .movelist import Entry, MoveList, TurnRow, turn_rows
from .plain import Plain
from .seats import SeatLine
from .shell import Shell, shell_of
from .themes import set_board_theme, theme_name
from .widgets import CoversGame, LocalFooter, ScreenHeader, after_keys


class GameScreen(MoveBoxScreen):
    """Play one game."""

    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", N_("Up"), show=False, id="board.up"),
        Binding("down,j", "cursor(0,1)", N_("Down"), show=False, id="board.down"),
        Binding("left,h", "cursor(-1,0)", N_("Left"), show=False, id="board.left"),
        Binding("right,l", "cursor(1,0)", N_("Right"), show=False, id="board.right"),
        Binding("home", "cursor(-1,-1)", N_("Up-left"), show=False, id="board.up_left"),
        Binding("pageup", "cursor(1,-1)", N_("Up-right"), show=False, id="board.up_right"),
        Binding("end", "cursor(-1,1)", N_("Down-left"), show=False, id="board.down_left"),
        Binding("pagedown", "cursor(1,1)", N_("Down-right"), show=False, id="board.down_right"),
        Binding("enter,space", "select", N_("Select"), id="board.select"),
        Binding("escape", "cancel", N_("Cancel"), show=False),
        Binding("tab", "next(1)", N_("Next route/piece"), show=False, priority=True),
        Binding("shift+tab", "next(-1)", N_("Previous"), show=False, priority=True),
        Binding("u,ctrl+z", "undo", N_("Undo")),
        Binding("r,ctrl+y", "redo", N_("Redo")),
        Binding("f", "flip", N_("Flip")),
        Binding("a", "autoflip", N_("Turn after every move"), show=False),
        Binding("colon,slash", "type_move", N_("Type move"), key_display=":"),
        Binding("number_sign", "numbers", N_("Numbers"), key_display="#"),
        Binding("d", "draw", N_("Offer draw")),
        Binding("R", "resign", N_("Resign"), key_display="R"),
        Binding("P", "pause", N_("Pause"), key_display="P", show=False),
        Binding("s,ctrl+s", "save", N_("Save")),
        Binding("c", "coords", N_("Coords"), show=False),
        Binding("t", "theme", N_("Theme"), show=False),
        Binding("p", "pieces", N_("Pieces"), show=False),
        Binding("i", "hint", N_("Hint")),
        Binding("e", "analysis", N_("Analysis"), show=False),
        Binding("x", "explorer", N_("Explorer"), show=False),
        Binding(
            "left_square_bracket",
            "history(-1)",
            N_("Earlier position"),
            show=False,
            key_display="[",
        ),
        Binding(
            "right_square_bracket", "history(1)", N_("Later position"), show=False, key_display="]"
        ),
        Binding("y", "copy_fen", N_("Copy FEN"), show=False),
        Binding("b", "editor", N_("Set up"), show=False),
        Binding("Y", "copy_pdn", N_("Copy PDN"), show=False, key_display="Y"),
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
        Binding("n", "new_game", N_("Menu"), show=False),
        Binding("q", "quit_game", N_("Quit")),
    ]

    #: A short terminal (under 24 rows) gets a tighter side panel ("-short"): the move
    #: box keeps its three rows, so a typed move is always seen.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]

    def __init__(self, controller: GameController, *, autoflip: bool = False) -> None:
        super().__init__()
        self.controller = controller
        self.autoflip = autoflip
        self.board = BoardWidget(controller, id="board")
        self.board.takes_typed_moves = True
        self.sub_title = controller.variant.local_name
        #: The status line as last set (a :class:`Said` is said again on a language change).
        self._status = ""
        # the seats in the board's order: the side whose pieces are at the top first
        self.seats = (
            SeatLine(
                controller,
                lambda: Color(0 if self.board.flipped else 1),
                id="seat-top",
            ),
            SeatLine(
                controller,
                lambda: Color(1 if self.board.flipped else 0),
                id="seat-bottom",
            ),
        )
        #: While the move list is walked: a controller of the position looked at (the
        #: game itself goes on underneath), and that position's ply.
        self.viewing: GameController | None = None
        self.view_ply = 0
        #: The clocks were paused because the help or the settings covered the game:
        #: they run again when it is uncovered.
        self._paused_for_screen = False

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def shown_game(self) -> Game:
        """The game the board shows: the position looked at while the list is walked."""
        return (self.viewing or self.controller).game

    def compose(self) -> ComposeResult:
        yield ScreenHeader(show_clock=False)
        with Vertical(id="board-area"):
            yield self.board
        with Vertical(id="side"):
            # names, side names and typed moves are data: shown as they are
            yield from self.seats
            yield Plain(id="turn")
            yield Plain(id="status")
            yield Plain(id="info")
            yield AnalysisPanel(id="analysis")
            yield ExplorerPanel(id="explorer")
            yield MoveList(id="moves")
            yield MoveInput(placeholder=self._input_hint(), id="move-input")
        yield LocalFooter()

    def _input_hint(self) -> str:
        # a legal first move of the variant, so the example is right on every board
        return _("move, e.g. {move}").format(move=example_moves(self.controller.variant)[0])

    def sides(self) -> tuple[Noun, Noun]:
        """The sides' names in the language spoken now (from the variant's file)."""
        v = self.controller.variant
        return v.local_side(0), v.local_side(1)

    def retranslate(self) -> None:
        """Say everything on the screen again in the language spoken now: the title, the
        panel (seats, turn, status, pieces, analysis, moves), the move box's hint and the
        footer; the game, the selection, the cursor, the position looked at and the
        clocks stay as they are."""
        self.sub_title = self.controller.variant.local_name
        try:
            self.query_one("#move-input", Input).placeholder = self._input_hint()
        except NoMatches:
            return  # not composed yet: it will be drawn in the language
        self.set_status(again(self._status))
        self.board.refresh()  # the "terminal too small" words, if shown
        self.query_one(AnalysisPanel).retranslate()
        self.query_one(ExplorerPanel).retranslate()
        self.refresh_panel()
        self.refresh_bindings()

    #: The side panel's width under and from 100 columns (styles/game.tcss), and the
    #: least it may have beside the board ("-slim") before it becomes a status bar under
    #: the board ("-no-side").
    SIDE_WIDTHS = (26, 34)
    SLIM_SIDE = 20

    def on_resize(self) -> None:
        """Fit the side panel beside the board: whole, slimmer, or as a status bar under
        the board when the board needs the whole width (the side to move, the last
        message and the move box stay on show at any size where the board leaves them
        two rows, the header's included)."""
        from .board import needed_size

        geo = self.controller.variant.board
        need_w, need_h = needed_size(geo.width, geo.height)
        width, height = self.app.size
        free = width - need_w
        full = self.SIDE_WIDTHS[width >= 100]
        slim = self.SLIM_SIDE <= free < full
        below = free < self.SLIM_SIDE
        rows = height - 2 - need_h  # under the board, between the header and the footer
        # the header gives its row to the status bar when that is the row it lacks
        tiny = below and rows == 1
        rows += tiny
        self.set_class(slim, "-slim")
        self.set_class(below, "-no-side")
        self.set_class(tiny, "-tiny")
        self.set_class(below and rows < 2, "-no-bar")
        try:
            side = self.query_one("#side")
        except NoMatches:
            return
        side.styles.width = free if slim else None
        side.styles.max_height = max(2, rows) if below else None

    def on_mount(self) -> None:
        self.on_resize()
        self.title = _("shashki")
        self.board.focus()
        settings = self.shashki.settings
        self.board.piece_set = settings.piece_set
        self.board.show_coords = settings.coords
        self.board.all_numbers = settings.numbers
        self._apply_theme()
        if self.autoflip:
            self.board.flipped = self.controller.game.turn is Color.BLACK
        elif (
            self.controller.game.variant.rules.first is Color.BLACK
            and self.controller.session.players[0].is_human is False
        ):
            self.board.flipped = True
        self.refresh_panel()
        # the session drives the game from now on, on this app's loop: the engines get
        # ready (each seat shows its engine's own name once it answered), the clock
        # runs, the computer is asked for its moves; the screen shows what it says
        session = self.controller.session
        self._unsubscribe = session.subscribe(self._session_event)
        session.start(AsyncioExecutor(), min_move_delay=self.MIN_MOVE_DELAY)
        if self.controller.session.clock is not None:
            # ten times a second: a seat repaints only when its text changes (once a
            # second, or every tenth under ten seconds); the flag is the session's
            self.set_interval(0.1, self.tick_clock)

    # -- the clock -------------------------------------------------------------------

    def tick_clock(self) -> None:
        """Show the clocks (the session's own timer ends the game when a flag falls)."""
        for seat in self.seats:
            seat.tick()

    # -- the session's events ----------------------------------------------------------------

    def _session_event(self, event: Event) -> None:
        """What the session says happened, whoever made it happen (a key, the computer,
        the network, the clock): shown here."""
        ctl = self.controller
        if isinstance(event, Thinking):
            player = event.player
            self.set_status(Said(lambda: _("{name} is thinking…").format(name=self.called(player))))
        elif isinstance(event, MovePlayed) and event.by_computer:
            self._ring(event)
            self.board.stop_jumps()
            self.after(Feedback(played=event.move))
            if len(event.move.path) > 2 and self.viewing is None:
                # the computer's multi-capture, one jump at a time
                self.board.show_jumps(event.move, self.JUMP_SECONDS)
        elif isinstance(event, GameEnded):
            self.after(Feedback())
            self.show_game_over()
        elif isinstance(event, SeatFailed):
            self._seat_failed(event)
        elif isinstance(event, SeatReady):
            self.refresh_panel()  # (an engine's own name)
        elif isinstance(event, Changed) and ctl.session.outcome is None:
            self._over_shown = False  # (a takeback reopened the game)
        if isinstance(event, Changed):
            self._follow_keys()

    def _follow_keys(self) -> None:
        """The footer offers what works now: made again when a key's state changed (a
        takeback became possible, the game ended: no undo after a flag fall)."""
        session = self.controller.session
        state = (session.can_undo(), session.can_redo(), session.outcome is None)
        if state != self._keys_state:
            self._keys_state = state
            self.refresh_bindings()

    #: What the footer's keys were last made for (:meth:`_follow_keys`).
    _keys_state: tuple[bool, bool, bool] | None = None

    def _ring(self, event: MovePlayed) -> None:
        """The terminal's bell when the other side moved (the computer, an engine, the
        friend online) and a person plays here: their turn now (the settings' "Sound when
        the other side moves"). Never for a person's own move, nor between two engines."""
        players = self.controller.session.players
        if self.shashki.settings.move_bell and any(p.is_human for p in players):
            self.app.bell()

    def _seat_failed(self, event: SeatFailed) -> None:
        """An engine stopped, hung or answered an illegal move: the user is told in one
        line, and that side is played by a person from now on."""
        self.notify(
            _("{message}; you play that side now").format(message=event.message),
            severity="error",
            markup=False,
        )
        if event.side is self.controller.game.turn and self.controller.session.outcome is None:
            player = event.player
            self.set_status(
                Said(lambda: _("{name} stopped: your move").format(name=self.called(player)))
            )
        self.refresh_panel()

    def action_pause(self) -> None:
        """Pause both clocks, or run them again (P): a game at one board only."""
        session = self.controller.session
        if session.paused:
            session.resume()
            self.set_status(Said(lambda: _("The clocks run again.")))
            self.refresh_panel()
            return
        if self.controller.session.outcome is not None:
            self.set_status(Said(lambda: _("The game is over.")))
        elif self.controller.session.clock is None:
            self.set_status(Said(lambda: _("This game has no clock to pause.")))
        elif not session.can_pause:
            self.set_status(Said(lambda: _("An online game cannot be paused.")))
        else:
            session.pause()  # (the computer's search is given up)
            self.set_status("")  # the panel says it as long as the pause lasts
            self.refresh_panel()

    def on_screen_suspend(self) -> None:
        """The help or the settings cover the game: its clocks pause meanwhile."""
        covering = self.app.screen
        if isinstance(covering, CoversGame) and self.controller.session.pause():
            self._paused_for_screen = True

    def on_screen_resume(self) -> None:
        """Back from the help or the settings: the clocks paused for them run again."""
        if self._paused_for_screen:
            self._paused_for_screen = False
            self.controller.session.resume()
            self.refresh_panel()

    #: The computer's reply is shown no sooner than this after it was asked (the
    #: session's minimum move delay), so that a quick answer can be seen.
    MIN_MOVE_DELAY = 0.4
    #: A multi-capture of the computer's is shown one jump every this many seconds.
    JUMP_SECONDS = 0.25
    #: The last hint shown.
    hint: Move | None = None
    #: The game-over dialog was shown for the game's end (not again until it reopens).
    _over_shown = False

    def close_engines(self) -> None:
        """Stop the engines seated in this game (it ended or was left)."""
        self.controller.session.close_players()

    def on_unmount(self) -> None:
        self.cancel_thinking()
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
        # a game left (for the menu, or quitting): its search and clocks stop, its
        # engines close
        self.controller.session.close()

    def cancel_thinking(self) -> None:
        """Stop the hint's search and the jumps shown (the computer's own search is the
        session's: given up when the position changes or the game is left)."""
        self.workers.cancel_group(self, "engine")
        self.board.stop_jumps()

    # -- walking the move list ----------------------------------------------------------

    def _viewing_hint(self) -> str:
        """Where the walk is, as players say it: "After 8… a7-b6: [ ] step, Esc back to
        the game"."""
        return _("{position}: [ ] step, Esc back to the game").format(
            position=self.viewed_position()
        )

    def viewed_position(self) -> str:
        """The position looked at: "After 8… a7-b6", or "Start position"."""
        ply = self.view_ply
        texts = self.controller.move_list()
        row = next((r for r in self.turn_rows() if r.holds(ply)), None)
        if row is None or not 0 < ply <= len(texts):
            return _("Start position")
        return _("After {move}").format(move=row.name(ply, texts[ply - 1]))

    def action_history(self, step: int) -> None:
        """Look at the position one ply earlier ([) or later (]) without undoing; a step
        past the last move comes back to the game."""
        total = len(self.controller.game.move_stack)
        ply = (self.view_ply if self.viewing is not None else total) + step
        self.view(max(0, min(total, ply)))

    def view(self, ply: int) -> None:
        """Show the position after ``ply`` plies of the game (the live one: the game)."""
        ctl = self.controller
        total = len(ctl.game.move_stack)
        if ply >= total:
            self.back_to_game()
            return
        game = ctl.game.copy()
        for _ply in range(total - ply):
            game.pop()
        self.viewing = GameController(GameSession(game, ctl.session.players))
        self.view_ply = ply
        self.board.stop_jumps()
        self.board.set_controller(self.viewing)
        self.board.cursor = -1
        self.set_status("")
        self.refresh_panel()

    def back_to_game(self) -> None:
        """Leave the position looked at: the board shows the game again."""
        if self.viewing is None:
            return
        self.viewing = None
        self.board.set_controller(self.controller)
        self.set_status(Said(lambda: _("Back to the game.")))
        self.refresh_panel()

    def on_move_list_resized(self) -> None:
        """The move list changed size (its message): its rows drawn in the new width, the
        row highlighted kept."""
        self._refresh_moves(redraw=True, keep=True)

    @on(OptionList.OptionSelected, "#moves")
    def _row_picked(self, event: OptionList.OptionSelected) -> None:
        """A row of the move list clicked (or chosen): the position after its last move."""
        rows: list[TurnRow] = getattr(self, "_turn_rows", [])
        if 0 <= event.option_index < len(rows):
            ply = rows[event.option_index].last
            if isinstance(ply, int):
                self.view(ply)
            self.board.focus()

    # -- analysis and the clipboard -------------------------------------------------------

    def action_analysis(self) -> None:
        """Turn the engine's analysis of the position on or off (e)."""
        on = self.query_one(AnalysisPanel).toggle(self.controller.game)
        self.notify(_("Analysis on (e: off)") if on else _("Analysis off"), timeout=2, markup=False)

    def action_explorer(self) -> None:
        """Turn the opening explorer on or off (x): the moves played in this position."""
        shown = self.viewing.game if self.viewing is not None else self.controller.game
        if not self.query_one(ExplorerPanel).toggle(shown):
            self.board.focus()

    @on(ExplorerPanel.Chosen)
    def _explored(self, event: ExplorerPanel.Chosen) -> None:
        """A move of the explorer chosen: played, as a move on the board is."""
        self.board.focus()
        if self.viewing is not None:
            self.set_status(Said(self._viewing_hint))
            return
        session = self.controller.session
        if not session.player_to_move.is_human and session.outcome is None:
            self._wait()
            return
        self.after(self.controller.play(event.move))

    @on(ExplorerPanel.Left)
    def _explorer_left(self) -> None:
        self.board.focus()

    def action_copy_fen(self) -> None:
        """Copy the position's FEN to the clipboard (y)."""
        fen = self.controller.game.fen()
        self.app.copy_to_clipboard(fen)
        self.notify(_("FEN copied: {fen}").format(fen=fen), timeout=3, markup=False)

    def action_copy_pdn(self) -> None:
        """Copy the game so far as PDN to the clipboard (Y)."""
        from ..records import GameRecord, write_game

        ctl = self.controller
        record = GameRecord.from_game(ctl.game, self.shashki.headers(ctl))
        self.app.copy_to_clipboard(write_game(record))
        moves = ctl.game.move_count()  # as players count them (and the move list)
        self.notify(
            ngettext("PDN copied ({n} move)", "PDN copied ({n} moves)", moves).format(n=moves),
            timeout=3,
            markup=False,
        )

    # -- the hint ----------------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the engine for a move for the person to move (shown, not played)."""
        ctl = self.controller
        if ctl.session.outcome is not None:
            self.set_status(Said(lambda: _("The game is over.")))
            return
        if not ctl.session.player_to_move.is_human:
            self._wait()
            return
        self.set_status(Said(lambda: _("Looking for a good move…")))
        self.find_hint(ctl.session.position_id)

    @work(thread=True, exclusive=True, group="engine")
    def find_hint(self, position_id: int) -> None:
        from .computer import hint

        worker = get_current_worker()
        move = hint(self.controller.game.copy(), lambda: worker.is_cancelled)
        if move is None or worker.is_cancelled:
            return
        self.app.call_from_thread(self._show_hint, position_id, move, worker)

    def _show_hint(self, position_id: int, move: Move, worker: Worker[None]) -> None:
        ctl = self.controller
        if position_id != ctl.session.position_id or worker.is_cancelled:
            return  # the position changed, or the game was left, meanwhile
        self.hint = move
        text = ctl.text(move, full=True)
        self.set_status(Said(lambda: _("Hint: {move}").format(move=text)))
        self.board.cursor = move.start
        self.board.refresh()

    # -- feedback --------------------------------------------------------------------------

    def _wait(self) -> None:
        """Say that the computer (or engine) to move is thinking."""
        player = self.controller.session.player_to_move
        self.set_status(
            Said(lambda: _("Wait: {name} is thinking.").format(name=self.called(player)))
        )

    def set_status(self, text: str) -> None:
        """Show ``text`` in the status line (a :class:`Said` is said again when the
        language changes)."""
        self._status = text
        try:
            status = self.query_one("#status", Static)
        except NoMatches:  # the screen is being taken down (a late move or key): no line
            return
        status.update(text)
        self._fit_status()

    def _fit_status(self) -> None:
        """A message of more than three lines (a refusal with its rule) takes the rows of
        the pieces' count while it is shown, not the move list's ("-long-status")."""
        status = self.query_one("#status", Static)
        width = status.content_region.width
        if width <= 0:  # not laid out yet: the next message fits it
            return
        lines = status.get_content_height(self.size, self.size, width)
        # (not while capture routes are chosen: the count's rows name the route shown)
        choosing = self.controller.shown_route() is not None
        self.set_class(lines > 3 and not choosing, "-long-status")

    def after(self, fb: Feedback) -> None:
        # one screen update for the board, the panel and the move list together
        with self.app.batch_update():
            self._after(fb)

    def _after(self, fb: Feedback) -> None:
        session = self.controller.session
        if fb.refused:
            self.set_status(fb.refused)
            self.app.bell() if self.shashki.settings.bell else None
        elif fb.message:
            self.set_status(fb.message)
        elif session.outcome is None and not session.paused and not session.player_to_move.is_human:
            player = session.player_to_move  # (a computer thinks, the friend is to move)
            self.set_status(Said(lambda: _("{name} is thinking…").format(name=self.called(player))))
        else:
            self.set_status("")
        if fb.played is not None:
            if self.autoflip and all(p.is_human for p in self.controller.session.players):
                self.board.flipped = self.controller.game.turn is Color.BLACK
            self.board.cursor = self.board._home_square()
        self.board.refresh()
        self.refresh_panel()

    def refresh_panel(self) -> None:
        try:
            turn_line = self.query_one("#turn", Static)
        except NoMatches:
            return  # taken apart as the app ends (a late call from a thread)
        ctl = self.controller
        game = ctl.game
        names = self.sides()
        out = ctl.session.outcome
        if out is not None:
            turn = _("Game over. {outcome}").format(outcome=out.describe(variant=ctl.variant))
        else:
            side = game.turn
            who = self.who(side)
            turn = _("{side} to move").format(side=who)
            half = ctl.variant.generator.half_turn(game_state(game))
            if half is not None:
                turn = _("{turn} — move {n} of 2").format(turn=turn, n=half)
            if ctl.must_capture():
                turn += "\n" + _("Capture is compulsory")
            if ctl.session.draw_offer is not None and ctl.session.draw_offer != side:
                turn += "\n" + _("{side} offers a draw (d: accept)").format(
                    side=names[ctl.session.draw_offer]
                )
            if ctl.session.paused:
                turn += "\n" + _("Clocks paused (P: go on)")
        if self.viewing is not None:  # the side to move of the position looked at
            shown = self.viewing.game
            turn = self._viewing_hint()
            if shown.outcome() is None:
                turn += "\n" + _("{side} to move").format(side=self.who(shown.turn))
        turn_line.update(turn)
        for seat in self.seats:
            seat.update_seat()
        self.query_one("#info", Static).update(self._info())
        self._fit_status()
        shown = self.viewing.game if self.viewing is not None else game
        self.query_one(AnalysisPanel).follow(shown)
        self.query_one(ExplorerPanel).follow(shown)
        self._refresh_moves()

    def called(self, player: Player) -> str:
        """What ``player`` is called in a sentence of the status line: a computer seated
        with no name of its own (called by its side, "Black": the seats say the side) is
        "Computer 3" in the language spoken, never the side's English name."""
        name = player.shown_name()
        if isinstance(player, Computer) and name in self.controller.variant.side_names:
            return _("Computer {n}").format(n=player.level)
        return name

    def who(self, side: Color) -> Noun:
        """Who plays ``side``: its name, or the player's name and the side's (a sentence
        declines the side's name: "Хід білих (Комп’ютер · рів. 3)")."""
        ctl = self.controller
        name = ctl.session.players[side].shown_name()
        local = self.sides()[side]
        if name in (local, ctl.variant.side_names[side]):  # a person named after the side
            return local
        return local.named(name)

    def _info(self) -> str:
        ctl = self.controller
        v = ctl.variant
        gen = v.generator
        pos = game_state(ctl.game)
        lines = []
        names = self.sides()
        (wk, wm), (bk, bm) = gen.material(pos)
        if not (v.rules.man_captures or v.rules.king_captures):
            # a game without captures (Wolf and Sheep): where the pieces stand says more
            for side in (0, 1):
                squares = sorted(v.board.positions(pos[side]), key=v.board.number)
                lines.append(f"{names[side]}: " + " ".join(square_text(v, q) for q in squares))
        else:
            lines.append(f"{names[0]}: {_men_kings(wm, wk)}")
            lines.append(f"{names[1]}: {_men_kings(bm, bk)}")
        # the generator's own lines: the column under the cursor, the shared pieces…
        sq = self.board.hover if self.board.hover >= 0 else self.board.cursor
        lines = gen.panel_lines(pos, lines, sq, ctl.legal if ctl.session.outcome is None else [])
        route = ctl.shown_route()
        if route is not None:
            i = ctl.selection.route_index % len(ctl.selection.routes) + 1
            lines.append(
                _("Route {i}/{n}: {move}").format(
                    i=i, n=len(ctl.selection.routes), move=ctl.text(route, full=True)
                )
            )
        return "\n".join(lines)

    def turn_rows(self) -> list[TurnRow]:
        """The move list: one row per move number, each side's turn in the variant's
        notation (a turn of two moves, double-move, written "c3-d4; d4-c5"; a turn not
        played "…"); each move's key is the ply after it."""
        ctl = self.controller
        texts = ctl.move_list()
        sides = [int(side) for side, _ in ctl.game.history()]
        start = ctl.game.ply - len(texts)
        entries = [
            Entry(side, text, ply)
            for ply, (side, text) in enumerate(zip(sides, texts, strict=False), start=1)
        ]
        return turn_rows(entries, int(ctl.variant.rules.first), 1 + start // 2)

    def move_rows(self) -> list[tuple[str, str, str]]:
        """The move list as text: (number, first side's turn, second side's turn)."""
        return [row.columns() for row in self.turn_rows()]

    def _refresh_moves(self, *, redraw: bool = False, keep: bool = False) -> None:
        rows = self.turn_rows()
        self._turn_rows = rows
        current = self.view_ply if self.viewing is not None else None
        self.query_one("#moves", MoveList).show(rows, current, redraw=redraw, keep=keep)

    # -- events ------------------------------------------------------------------------------

    @on(BoardWidget.SquareClicked)
    def _clicked(self, event: BoardWidget.SquareClicked) -> None:
        self._act(event.square)

    @on(BoardWidget.CursorMoved)
    def _hovered(self, event: BoardWidget.CursorMoved) -> None:
        if self.controller.variant.generator.panel_follows_cursor():
            self.query_one("#info", Static).update(self._info())

    def _board_hidden(self) -> bool:
        """True while the terminal is too small for the board: board input is ignored."""
        return self.board.board_layout() is None

    def _act(self, square: int) -> None:
        if self._board_hidden():
            return
        if self.viewing is not None:
            self.set_status(Said(self._viewing_hint))
            return
        session = self.controller.session
        if not session.player_to_move.is_human and session.outcome is None:
            self._wait()
            return
        self.after(self.controller.click(square))

    def move_typed(self, text: str) -> None:
        if self.viewing is not None:
            self.back_to_game()
        waiting = self.controller.session.player_to_move
        if not waiting.is_human:  # the computer, an engine or a friend online
            self.set_status(
                Said(lambda: _("Wait: {name} is to move.").format(name=self.called(waiting)))
            )
            return
        fb = self.controller.enter_text(text)
        if fb.refused:  # the box is emptied for the next move: the refusal quotes it
            why = fb.refused

            def quoted_once() -> str:
                reason = again(why)
                if text in reason:  # the refusal names the move already: once is enough
                    return reason
                return _("{move}: {reason}").format(move=text, reason=reason)

            fb = Feedback(refused=Said(quoted_once))
        self.after(fb)
        if fb.choose_route and self.controller.selection.routes:
            # Enter plays the route on show: the cursor waits on its last square
            self.board.cursor = self.controller.selection.routes[0].end

    # -- actions -----------------------------------------------------------------------------

    def action_cursor(self, dx: int, dy: int) -> None:
        if self._board_hidden():
            return
        if self.focused is not self.board:
            self.board.focus()
            return
        self.board.move_cursor(dx, dy)
        if self.controller.variant.generator.panel_follows_cursor():
            self.query_one("#info", Static).update(self._info())

    def action_select(self) -> None:
        if self.focused is not self.board or self._board_hidden():
            return
        ctl = self.controller
        if (
            ctl.selection.routes
            and self.board.cursor not in ctl.selection.routes[0].path
            and self.board.cursor not in ctl.selection.routes[0].captured
        ):
            self.after(ctl.play_shown_route())
            return
        if ctl.selection.routes and self.board.cursor == ctl.selection.routes[0].end:
            self.after(ctl.play_shown_route())
            return
        if self.board.cursor >= 0:
            self._act(self.board.cursor)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, Input):
            self.typing = False  # the move box was left (a click, Tab, Escape)

    def action_cancel(self) -> None:
        if self.viewing is not None:
            self.back_to_game()
            return
        if self.focused is not self.board:
            self.board.focus()
            return
        self.controller.clear_selection()
        self.set_status("")
        self.board.refresh()
        self.refresh_panel()

    def action_next(self, step: int) -> None:
        after_keys(self, lambda: self._next(step))  # (after the keys typed before it)

    def _next(self, step: int) -> None:
        if self._board_hidden():
            return
        square = self.controller.next_piece(self.board.cursor, step)
        if square is None:
            return
        self.board.cursor = square
        self.board.focus()
        self.board.refresh()
        self.refresh_panel()

    def action_undo(self) -> None:
        self.back_to_game()
        ctl = self.controller
        if ctl.session.undo_policy is UndoPolicy.OFF:
            self.set_status(Said(lambda: _("Undo is off for this game.")))
            return
        if ctl.session.timed_out():
            self.set_status(Said(lambda: _("A game lost on time cannot be taken back.")))
            return
        if not ctl.session.can_undo():
            self.set_status(Said(lambda: _("Nothing to undo.")))
            return

        def do_undo() -> None:
            self.board.stop_jumps()
            ctl.session.undo()  # (a search under way is given up by the session)
            # the clocks are not rewound: they keep the time they show, and say so
            if ctl.session.clock:
                said = Said(lambda: _("Move taken back; the clocks keep their times."))
            else:
                said = Said(lambda: _("Move taken back."))
            self.after(Feedback(message=said))

        session = ctl.session
        if session.undo_policy is UndoPolicy.ASK and all(p.is_human for p in session.players):
            names = self.sides()
            self.app.push_screen(
                ConfirmScreen(
                    _("{side} asks to take back a move. {other}, do you agree?").format(
                        side=names[1 - ctl.game.turn], other=names[ctl.game.turn]
                    )
                ),
                lambda ok: (
                    do_undo() if ok else self.set_status(Said(lambda: _("Takeback refused.")))
                ),
            )
        else:
            do_undo()

    def action_redo(self) -> None:
        self.back_to_game()
        if self.controller.session.redo():
            self.board.stop_jumps()
            self.after(Feedback(message=Said(lambda: _("Move replayed."))))
        else:
            self.set_status(Said(lambda: _("Nothing to redo.")))

    def action_flip(self) -> None:
        self.board.flipped = not self.board.flipped
        for seat in self.seats:
            seat.update_seat()

    def action_autoflip(self) -> None:
        self.autoflip = not self.autoflip
        if self.autoflip:
            self.set_status(Said(lambda: _("The board turns after every move")))
        else:
            self.set_status(Said(lambda: _("The board no longer turns after every move")))

    def can_type_move(self) -> bool:
        return not self._board_hidden()  # (the move box is hidden with the board)

    def action_coords(self) -> None:
        self.board.show_coords = not self.board.show_coords
        self.shashki.settings.coords = self.board.show_coords
        self.shashki.save_settings()

    def action_numbers(self) -> None:
        """Show every square's number (or name) on it, pieces' squares too, or not (#)."""
        self.board.all_numbers = not self.board.all_numbers
        self.shashki.settings.numbers = self.board.all_numbers
        self.shashki.save_settings()
        if self.board.all_numbers:
            self.set_status(Said(lambda: _("Numbers on every square (#: off)")))
        else:
            self.set_status(Said(lambda: _("Numbers on every square off")))

    def action_pieces(self) -> None:
        sets = ["unicode", "contrast", "ascii"]
        self.board.piece_set = sets[(sets.index(self.board.piece_set) + 1) % len(sets)]
        self.shashki.settings.piece_set = self.board.piece_set
        self.shashki.save_settings()
        pieces = self.board.piece_set
        self.set_status(
            Said(lambda: _("Pieces: {name}").format(name=_(PIECE_SET_NAMES.get(pieces, pieces))))
        )

    def action_theme(self) -> None:
        self.shashki.next_board_theme()
        self._apply_theme()
        theme = self.shashki.settings.board_theme
        self.set_status(Said(lambda: _("Board theme: {name}").format(name=theme_name(theme))))

    def _apply_theme(self) -> None:
        set_board_theme(self.board, self.shashki.settings.board_theme)

    def action_draw(self) -> None:
        ctl = self.controller
        if ctl.session.outcome is not None:
            return
        side = ctl.game.turn
        names = self.sides()
        if not all(p.is_human for p in ctl.session.players):
            self.set_status(Said(lambda: _("The computer does not accept draw offers.")))
            return
        if ctl.session.draw_offer is not None and ctl.session.draw_offer != side:
            ctl.session.answer_draw(True)  # (the game ends: shown as the session says so)
            return

        def answered(ok: bool | None) -> None:
            if ctl.session.outcome is not None:
                return  # a flag fell while the question was up: the game is decided
            if ok:
                ctl.session.answer_draw(True)
            else:
                ctl.session.answer_draw(False)
                self.set_status(
                    Said(
                        lambda: agree("{side} declined the draw.", self.sides()[1 - side]).format(
                            side=self.sides()[1 - side]
                        )
                    )
                )

        ctl.session.offer_draw()
        self.app.push_screen(
            ConfirmScreen(
                _("{side} offers a draw. {other}, do you accept?").format(
                    side=names[side], other=names[1 - side]
                )
            ),
            answered,
        )

    def action_resign(self) -> None:
        ctl = self.controller
        if ctl.session.outcome is not None:
            return
        side = ctl.game.turn
        if not ctl.session.players[side].is_human:
            side = Color(1 - side)
        names = self.sides()

        def answered(ok: bool | None) -> None:
            if ok and ctl.session.outcome is None:  # (a flag may have fallen while asked)
                ctl.session.resign(side)  # (the game ends: shown as the session says so)

        self.app.push_screen(
            ConfirmScreen(_("Does {side} resign?").format(side=names[side])), answered
        )

    def action_save(self) -> None:
        self.shashki.save_game_dialog(self.controller)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.controller.variant))

    def action_new_game(self) -> None:
        self._leave(_("Leave this game for a new one?"), self.shashki.open_menu)

    def _leave(self, question: str, then: Callable[[], object]) -> None:
        """Leave the game and do ``then``: once the player has said yes to ``question``
        while the game is in progress, at once when it is over or has no moves yet."""

        def answered(ok: bool | None) -> None:
            if ok:
                self.cancel_thinking()  # (the session closes as the screen goes)
                then()

        def chosen(choice: str | None) -> None:
            if choice == "abandon":
                self.controller.session.abandon_game()  # (kept in My games as that)
            answered(choice is not None)

        session = self.controller.session
        if session.outcome is None and self.controller.game.move_stack:
            shell = self.shashki
            if self.ABANDONS and shell.autosave_enabled and shell.autosave_problem is None:
                # keep it to resume later, or abandon it: unfinished games do not pile up
                self.app.push_screen(LeaveScreen(lambda: self._leaving_question(question)), chosen)
            else:
                self.app.push_screen(ConfirmScreen(self._leaving_question(question)), answered)
        else:
            answered(True)

    #: Whether a game left unfinished may be abandoned for good here (not online: there
    #: the friend is told, and may claim the game).
    ABANDONS = True

    def _leaving_question(self, question: str) -> str:
        """The question before leaving a game, with what becomes of it."""
        problem = self.shashki.autosave_problem
        if not self.shashki.autosave_enabled:
            return _("{question} This game is not autosaved: save it first (s) to keep it.").format(
                question=question
            )
        if problem is not None:
            return _(
                "{question} The autosave failed ({problem}): save the game first (s) to keep it."
            ).format(question=question, problem=problem)
        if self.ABANDONS:
            return _(
                "{question} Keep the game to resume it from the menu (u) later, or abandon "
                "it: My games keeps it as abandoned."
            ).format(question=question)
        return _("{question} The game is autosaved: resume it from the menu (u) later.").format(
            question=question
        )

    def action_editor(self) -> None:
        """The position shown on the board editor (b): the game stays as it is."""
        from .editor import EditorScreen

        game = self.shown_game()
        self.app.push_screen(EditorScreen(game.variant, game.fen()))

    def action_quit_game(self) -> None:
        self._leave(_("Quit?"), self.app.exit)

    def show_game_over(self) -> None:
        out = self.controller.session.outcome
        if out is None or self._over_shown:
            return
        self._over_shown = True
        self.close_engines()  # (an undo after the end starts them again)
        self.refresh_panel()

        def answered(choice: str | None) -> None:
            if choice == "new":
                self.shashki.open_menu()
            elif choice == "review":
                self.shashki.review_game(self.controller)
            elif choice == "undo":
                self.action_undo()
            elif choice == "quit":
                self.app.exit()

        self.app.push_screen(
            GameOverScreen(
                out.describe(variant=self.controller.variant), self.controller.session.can_undo()
            ),
            answered,
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key that cannot work is dimmed while the game goes on, and left out once it
        is over (a game lost on time has no takeback: no "u Undo" is offered)."""
        session = self.controller.session
        cannot = None if session.outcome is None else False
        if action == "undo":
            return True if session.can_undo() else cannot
        if action == "redo":
            return True if session.can_redo() else cannot
        if action in ("draw", "resign", "hint"):
            return True if session.outcome is None else False
        return True


def _men_kings(men: int, kings: int) -> str:
    """The pieces of a side, "8 men, 1 king", in the language spoken now; "12 men" while
    it has no king (the panel's line stays short in every language)."""
    shown = ngettext("{n} man", "{n} men", men).format(n=men)
    if not kings:
        return shown
    return _("{men}, {kings}").format(
        men=shown, kings=ngettext("{n} king", "{n} kings", kings).format(n=kings)
    )
