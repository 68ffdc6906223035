"""The game screen driven by keys and clicks: the menu, route choice, refusals, undo and
redo, typed moves, draws and resignation, flip, help and the command palette.

Each test starts the app once and walks through a few related steps (an app start costs
more than the steps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input, Markdown, OptionList, Static

from shashki.app.dialogs import ConfirmScreen, GameOverScreen, HelpScreen
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.rules import Color, Game, Termination

from .conftest import (
    TWO_ROUTES,
    click_square,
    click_widget,
    clicks_play,
    game_over_text,
    game_screen,
    keys_play,
    make_app,
    panel,
    press,
    settle,
    square,
    status,
    wait_for,
)

SIZE = (100, 32)


async def type_move(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """``:`` then the text and Enter in the move box."""
    await press(pilot, "colon")
    assert pilot.app.focused is game_screen(pilot.app).query_one("#move-input", Input)
    await press(pilot, *text, "enter")


# -- the menu ---------------------------------------------------------------------------------


async def test_a_variant_is_chosen_from_the_menu_by_keys(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        menu = app.screen.query_one("#variants", OptionList)
        assert app.focused is menu
        # the group titles are there but cannot be chosen
        titles = [o for o in menu.options if o.id is None]
        assert len(titles) >= 4 and all(o.disabled for o in titles)
        await press(pilot, "home")
        assert menu.options[menu.highlighted].id is not None  # type: ignore[index]
        # Enter opens the new-game dialog; Escape goes back
        await press(pilot, "enter")
        assert isinstance(app.screen, NewGameScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, MenuScreen) and app.controller is None
        # down to International draughts; the rule card follows the highlight
        target = next(i for i, o in enumerate(menu.options) if o.id == "international")
        await press(pilot, *["down"] * (target - menu.highlighted))  # type: ignore[operator]
        assert menu.options[menu.highlighted].id == "international"  # type: ignore[index]
        assert "International draughts" in str(app.screen.query_one("#card", Static).content)
        await press(pilot, "enter")
        assert isinstance(app.screen, NewGameScreen) and app.screen.variant.id == "international"
        # the first field has the focus (Tab walks the fields down to Play)
        dialog = app.screen
        assert dialog.focused is dialog.query_one("#name0")
        await click_widget(pilot, "#play")
        ctl = game_screen(app).controller
        assert ctl.variant.id == "international"
        assert ctl.game.fen() == Game("international").fen()
        assert ctl.session.players[0].name == "White" and ctl.session.players[1].name == "Black"
        assert [type(s) for s in app.screen_stack[1:]] == [MenuScreen, GameScreen]


# -- capture routes -------------------------------------------------------------------------


async def test_two_routes_to_one_square_by_keys(home: Path) -> None:
    app = make_app(home, variant="russian", fen=TWO_ROUTES)
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        # typed with its ends only, the capture is ambiguous: the routes are offered
        await type_move(pilot, "c5:g1")
        assert "ambiguous" in status(app)
        assert len(ctl.selection.routes) == 2 and app.focused is game_screen(app).board
        await press(pilot, "escape")
        assert ctl.selection.routes == [] and ctl.game.move_stack == []
        # on the board: the piece, then the square where both routes end
        await keys_play(pilot, "c5", "g1")
        assert ctl.game.move_stack == []
        routes = list(ctl.selection.routes)
        assert len(routes) == 2
        assert "2 routes" in status(app)
        assert "Route 1/2" in panel(app, "info")
        await press(pilot, "tab", "shift+tab")
        assert ctl.shown_route() == routes[0]
        await press(pilot, "tab")
        assert "Route 2/2" in panel(app, "info")
        chosen = ctl.shown_route()
        assert chosen == routes[1]
        await press(pilot, "enter")
        assert ctl.game.move_stack == [chosen]
        assert ctl.game.turn is Color.WHITE
        # the move list writes the whole path: the ends alone are ambiguous
        assert ctl.move_list()[0].count(":") == len(chosen.path) - 1


async def test_two_routes_to_one_square_by_clicks(home: Path) -> None:
    app = make_app(home, variant="russian", fen=TWO_ROUTES)
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        name = ctl.variant.board.name
        await clicks_play(pilot, "c5", "g1")
        assert len(ctl.selection.routes) == 2 and not ctl.game.move_stack
        await click_square(pilot, "a3")  # only the long route lands on a3
        assert len(ctl.game.move_stack) == 1
        played = ctl.game.move_stack[0]
        assert [name(s) for s in played.path] == ["c5", "a3", "c1", "e3", "g1"]
        assert sorted(name(s) for s in played.captured) == ["b2", "b4", "d2", "f2"]
        # again, choosing the short route by the piece only it takes
        await press(pilot, "u")
        assert ctl.game.move_stack == []
        await clicks_play(pilot, "c5", "g1", "d4")
        assert [name(s) for s in ctl.game.move_stack[0].path] == ["c5", "e3", "g1"]


# -- refusals and typed moves -----------------------------------------------------------------


async def test_a_refused_move_is_explained_in_the_status_line(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "c1")
        assert "no legal move" in status(app)
        await keys_play(pilot, "f6")
        assert "Black" in status(app) and "White's turn" in status(app)
        await keys_play(pilot, "c3", "c5")
        assert "diagonally forward" in status(app)
        assert ctl.game.move_stack == []
        # Tab walks through the pieces that can move
        await press(pilot, "escape")
        board = game_screen(app).board
        seen = set()
        for _ in range(4):
            await press(pilot, "tab")
            seen.add(board.cursor)
        assert seen == ctl.movable()


async def test_a_forced_capture_marks_the_capturers_and_refuses_others(home: Path) -> None:
    app = make_app(home, variant="russian", fen="W:Wc3,g3:Bd4,h8")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        assert "Capture is compulsory" in panel(app, "turn")
        assert ctl.must_capture() == {square(app, "c3")}
        await clicks_play(pilot, "g3")
        assert "compulsory" in status(app) and "c3" in status(app)
        await clicks_play(pilot, "c3", "e5")
        assert ctl.move_list() == ["c3:e5"]


async def test_a_typed_move_is_played_and_a_bad_one_explained(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await type_move(pilot, "c3-d4")
        assert screen.controller.move_list() == ["c3-d4"]
        assert app.focused is screen.board
        await type_move(pilot, "h6-h4")
        assert "diagonally forward" in status(app) and screen.controller.move_list() == ["c3-d4"]
        await type_move(pilot, "hello")
        assert "not a move" in status(app)


async def test_moves_typed_as_players_write_them(home: Path) -> None:
    """Squares run together or apart, in capitals, or the landing square alone when one
    move goes there (issue 49); a landing square several moves reach is asked back."""
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await type_move(pilot, "c3d4")
        await type_move(pilot, "F6 G5")
        assert ctl.move_list() == ["c3-d4", "f6-g5"]
        await type_move(pilot, "d4")  # c3-d4 or e3-d4? no: d4 is taken; b2-c3 or d2-c3
        await type_move(pilot, "c3")
        assert ctl.move_list() == ["c3-d4", "f6-g5"]
        assert "c3: b2-c3 or d2-c3?" in status(app)
        await type_move(pilot, "h4")
        assert ctl.move_list() == ["c3-d4", "f6-g5", "g3-h4"]


# -- undo, redo -------------------------------------------------------------------------------


async def test_undo_and_redo_by_keys(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        assert game_screen(app).check_action("undo", ()) is None  # greyed out in the footer
        await press(pilot, "u")
        assert ctl.move_list() == []
        await keys_play(pilot, "c3", "d4", "f6", "g5")
        assert ctl.move_list() == ["c3-d4", "f6-g5"]
        await press(pilot, "u")
        assert ctl.move_list() == ["c3-d4"] and ctl.game.turn is Color.BLACK
        await press(pilot, "u")
        assert ctl.move_list() == [] and ctl.game.turn is Color.WHITE
        await press(pilot, "r")
        assert ctl.move_list() == ["c3-d4"]
        await press(pilot, "r")
        assert ctl.move_list() == ["c3-d4", "f6-g5"]
        assert game_screen(app).check_action("redo", ()) is None
        # a new move forgets the moves undone
        await press(pilot, "u")
        await keys_play(pilot, "b6", "a5")
        assert ctl.move_list() == ["c3-d4", "b6-a5"]
        await press(pilot, "r")
        assert ctl.move_list() == ["c3-d4", "b6-a5"]


async def test_undo_asks_the_other_player_when_the_setting_says_so(home: Path) -> None:
    (home / "settings.json").write_text('{"undo_policy": "ask"}', encoding="utf-8")
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "c3", "d4")
        await press(pilot, "u")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")
        assert ctl.move_list() == ["c3-d4"] and "refused" in status(app)
        await press(pilot, "u", "y")
        assert ctl.move_list() == []


async def test_the_menu_highlights_the_variant_last_played(home: Path) -> None:
    """Back at the menu from a game, the variant played is highlighted, not the first
    (issue 49); a dialog over the menu leaves the highlight where the player put it; a
    new start highlights the last new game's variant, kept in the settings."""
    app = make_app(home, variant="italian")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n")
        if isinstance(app.screen, ConfirmScreen):
            await press(pilot, "y")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        options = app.screen.query_one("#variants", OptionList)
        assert options.highlighted is not None
        assert options.get_option_at_index(options.highlighted).id == "italian"
        await press(pilot, "down")
        moved = options.highlighted
        await press(pilot, "question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await press(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        assert options.highlighted == moved
    (home / "settings.json").write_text('{"variant": "frisian"}', encoding="utf-8")
    again = make_app(home)
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, MenuScreen), "the menu")
        options = again.screen.query_one("#variants", OptionList)
        assert options.highlighted is not None
        assert options.get_option_at_index(options.highlighted).id == "frisian"


# -- draws and resignation ------------------------------------------------------------------


async def test_a_draw_and_a_resignation_on_one_keyboard(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmScreen)
        assert "White offers a draw" in str(app.screen.question)
        await press(pilot, "n")
        assert ctl.session.outcome is None and "declined" in status(app)
        await press(pilot, "d", "y")
        assert (
            ctl.session.outcome is not None
            and ctl.session.outcome.termination is Termination.AGREED_DRAW
        )
        assert (await game_over_text(pilot)).startswith("Draw")
        # the agreement is taken back from the dialog, and play goes on
        await press(pilot, "u")
        assert isinstance(app.screen, GameScreen) and ctl.session.outcome is None
        await keys_play(pilot, "c3", "d4")
        await press(pilot, "R")
        assert isinstance(app.screen, ConfirmScreen) and "Black" in app.screen.question
        await press(pilot, "escape")
        assert ctl.session.outcome is None
        await press(pilot, "R", "y")
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.RESIGNATION
        assert out.winner is Color.WHITE
        assert "White wins" in await game_over_text(pilot)
        assert isinstance(app.screen, GameOverScreen)


# -- flip, pieces, help, palette ---------------------------------------------------------------


async def test_flip_and_the_piece_set(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        board = screen.board
        a1 = square(app, "a1")
        assert board.cell_of(a1) == (0, 7)
        await press(pilot, "f")
        assert board.flipped and board.cell_of(a1) == (7, 0)
        await clicks_play(pilot, "c3", "d4")  # clicks follow the turned board
        assert screen.controller.move_list() == ["c3-d4"]
        await press(pilot, "f")
        assert not board.flipped
        assert board.piece_set == "unicode"
        await press(pilot, "p")
        assert board.piece_set == "contrast"
        await press(pilot, "p")
        assert board.piece_set == "ascii" and "ASCII" in status(app)
    assert '"ascii"' in (home / "settings.json").read_text(encoding="utf-8")


async def test_help_the_command_palette_and_quit(home: Path) -> None:
    app = make_app(home, variant="bashni")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-title", Static).render())
        text += app.screen.query_one(Markdown).source
        assert "Bashni" in text and "Notation" in text and "undo" in text
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "question_mark")
        assert isinstance(app.screen, GameScreen)
        # the palette lists the game's actions, and runs the one chosen
        await press(pilot, "ctrl+p")
        palette = app.screen
        assert isinstance(palette, CommandPalette)

        def listed() -> str:
            return " ".join(str(o.prompt) for o in palette.query_one(CommandList).options)

        actions = ("Undo", "Redo", "Flip", "Offer draw", "Resign", "Save", "Help", "Type move")
        await wait_for(pilot, lambda: all(a in listed() for a in actions), "the game's actions")
        assert "Help (?)" in listed() and "Type move (:)" in listed()  # keys as the footer shows
        await press(pilot, *"flip")

        def flip_first() -> bool:
            options = palette.query_one(CommandList)
            first = options.highlighted_option
            return first is not None and str(first.prompt).startswith("Flip")

        await wait_for(pilot, flip_first, "Flip found")
        await press(pilot, "enter")
        assert isinstance(app.screen, GameScreen) and app.screen.board.flipped
        # no move played yet: q quits without a question
        await press(pilot, "q")
        await wait_for(pilot, lambda: not app.is_running, "the app's end")


async def test_keys_coming_fast_after_colon_are_typed_into_the_move_box(
    home: Path,
) -> None:
    """A paste or a fast typist: the keys behind ':' reach the board before any binding
    runs; they must still end up in the move box, and Enter must play the move."""
    from textual import events

    app = make_app(home, variant="wolf-sheep")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        board = screen.board
        for text in (":e1-f2\r", ":d8-e7\r", ":f2-g3\r"):
            for ch in text:
                key = {":": "colon", "-": "minus", "\r": "enter"}.get(ch, ch)
                board.post_message(events.Key(key, ch))  # all queued before any runs
            await settle(pilot)
            await settle(pilot)
        assert screen.controller.move_list() == ["e1-f2", "d8-e7", "f2-g3"]
        assert not board.flipped  # 'f' of 'f2-g3' was text, not the flip key


async def test_a_colon_inside_a_move_typed_fast_stays_in_the_move_box(home: Path) -> None:
    """':e1:f2' pasted: the second ':' is the move's separator, not a new move box."""
    from textual import events

    app = make_app(home, variant="wolf-sheep")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        for ch in ":e1:f2\r":
            key = {":": "colon", "\r": "enter"}.get(ch, ch)
            screen.board.post_message(events.Key(key, ch))  # all queued before any runs
        await settle(pilot)
        await settle(pilot)
        assert screen.controller.move_list() == ["e1-f2"]


@pytest.mark.parametrize("variant", ["russian", "turkish", "english", "international"])
async def test_the_move_box_example_is_a_move_of_the_variant(home: Path, variant: str) -> None:
    """The placeholder's example is a legal first move of the game being played (a
    diagonal 'c3-d4' was shown for Turkish draughts)."""
    app = make_app(home, variant=variant)
    async with app.run_test(size=(120, 40)):
        screen = game_screen(app)
        hint = str(screen.query_one("#move-input").placeholder)
        start = Game(variant)
        assert start.parse_move(hint.removeprefix("move, e.g. ")) in start.legal_moves()
