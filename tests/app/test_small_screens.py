"""Small terminals and big boards (issue 27): whatever the size, the side to move, the
last message in full and the move box stay on show; the footer keeps help and quit; a
key shows every square's number, pieces' squares included."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Input, Static

from shashki.app.board import BoardWidget
from shashki.app.players import player_kinds
from shashki.app.widgets import FooterEntry
from shashki.i18n import set_language

from .conftest import (
    cell_offset,
    footer_entries,
    footer_shows,
    game_screen,
    make_app,
    press,
    settle,
    status,
    wait_for,
)

#: Frisian, Black to move: the king on 46 must capture; 46-47 is refused with the
#: longest of the capture refusals (the rule of precedence said in full).
FRISIAN = "B:W26,31,33,36,41,42:B3,4,5,6,7,12,13,14,K46:H0:F22"
#: Canadian, Black to move: 29 must capture (the most pieces).
CANADIAN = (
    "B:W34,35,38,46,47,49,50,52,53,54,55,56,57,58,60,61,62,63,64,66,67,68,69,70,71"
    ":B1,2,3,4,5,7,9,10,12,13,14,15,17,19,20,21,24,29,30,31,43"
)

SIZES = [(60, 20), (80, 24), (120, 40)]


def on_screen(widget: Widget) -> bool:
    """Whether ``widget`` is drawn: shown, with room, inside the screen and not under
    the footer."""
    region = widget.region
    screen = widget.screen.region
    return (
        widget.display
        and widget.visible
        and region.width > 0
        and region.height > 0
        and screen.contains_region(region)
        and region.bottom <= screen.bottom - 1  # the footer's row
    )


def shown_whole(widget: Static) -> bool:
    """Whether all the lines of ``widget``'s text have a row on screen (none cut off)."""
    region = widget.region
    needed = widget.get_content_height(
        widget.parent.size if isinstance(widget.parent, Widget) else Size(0, 0),
        widget.screen.size,
        widget.content_region.width,
    )
    return on_screen(widget) and region.height >= needed


async def type_move(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await press(pilot, "colon", *text)
    await settle(pilot)
    box = game_screen(pilot.app).query_one("#move-input", Input)
    assert on_screen(box), "the move box is shown"
    assert box.value == text, "the move box shows what was typed"
    await press(pilot, "enter")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    ("variant", "fen", "typed", "words"),
    [
        ("canadian", CANADIAN, "29-72", "you must take the most pieces"),
        ("frisian", FRISIAN, "46-47", "then capture with a king if a king can"),
    ],
)
async def test_the_turn_and_a_refusal_stay_in_view(
    home: Path, size: tuple[int, int], variant: str, fen: str, typed: str, words: str
) -> None:
    app = make_app(home, variant=variant, fen=fen)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        assert screen.board.board_layout() is not None, "the board is drawn"
        turn = screen.query_one("#turn", Static)
        assert on_screen(turn) and "Black to move" in str(turn.content)
        await type_move(pilot, typed)
        assert game_screen(app).controller.move_list() == []
        said = status(app)
        # the refusal quotes the move typed (the box is emptied for the next one), then
        # the rule in full, in sentences without brackets in brackets
        assert said.startswith(f"{typed}: This piece must capture") and words in said, said
        assert "(" not in said
        await wait_for(pilot, lambda: shown_whole(screen.query_one("#status", Static)))
        assert on_screen(turn)
        assert screen.board.board_layout() is not None, "the message left the board its room"


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_a_draw_offer_in_the_turn_box_is_shown_whole(
    home: Path, language: str, size: tuple[int, int]
) -> None:
    """The side to move, the capture that is compulsory and a draw offer wrapped on two
    lines: every line of the turn box shows (issue 49: at 60x20 it was cut to two)."""
    from shashki.rules import Color

    set_language(language)
    try:
        app = make_app(home, variant="russian", fen="W:Wc3:Bd4,h8")
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            screen = game_screen(app)
            screen.controller.session.offer_draw(Color.BLACK)  # White is asked, in the box
            screen.refresh_panel()
            await settle(pilot)
            turn = screen.query_one("#turn", Static)
            assert str(turn.content).count("\n") == 2  # three lines, one of them long
            await wait_for(pilot, lambda: shown_whole(turn), "the turn box whole")
    finally:
        set_language("en")


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_the_seats_keep_the_turn_marker_and_their_clocks_on_one_line(
    home: Path, language: str
) -> None:
    """At 80 columns the seat of "Computer · level 4" kept its words and lost the marker
    of the side to move, and a long name wrapped under its clock (issue 49): the marker
    stays, the words give way (the computer's level always shown), one line a seat."""
    from shashki.app.seats import TO_MOVE, SeatLine
    from shashki.records.clocks import TimeControl
    from shashki.session.seats import PERSON, LevelSeat

    set_language(language)
    try:
        app = make_app(home)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.start_game(
                "russian",
                names=("Oleksandr Kostiantynovych Shevchenko-Zaporizkyi", ""),
                kinds=(PERSON, LevelSeat(4)),
                clock=TimeControl.parse("5+3"),
            )
            await wait_for(pilot, lambda: bool(app.screen.query(SeatLine)), "the game")
            await settle(pilot)
            seats = list(app.screen.query(SeatLine))
            lines = {seat.side: str(seat.render()) for seat in seats}
            for seat in seats:
                assert seat.region.height == 1, lines
                assert lines[seat.side].endswith("5:00"), lines
            white, black = lines[0], lines[1]
            assert white.startswith(TO_MOVE) and "…" in white, lines
            assert black.startswith("  ") and "4" in black, lines
    finally:
        set_language("en")


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_a_long_refusal_leaves_the_move_list_its_rows(home: Path, language: str) -> None:
    """At 80x24 a long refusal squeezed the move list to one row (issue 49): while a
    message of more than three lines is shown the pieces' count gives way, the message is
    whole and the move list keeps three rows."""
    set_language(language)
    try:
        app = make_app(home, variant="russian")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            played = ["c3-d4", "f6-g5", "g3-h4", "b6-a5"]
            for move in played:
                await type_move(pilot, move)
            await type_move(pilot, "d4-c5")  # h4 must take g5
            screen = game_screen(app)
            said = screen.query_one("#status", Static)
            assert screen.controller.move_list() == played
            await wait_for(pilot, lambda: shown_whole(said), "the refusal whole")
            moves = screen.query_one("#moves")
            assert moves.content_region.height >= 3, (moves.region, said.region)
            await type_move(pilot, "h4-f6")  # the capture: the count is back
            assert screen.query_one("#info").display
    finally:
        set_language("en")


@pytest.mark.parametrize("width", [60, 68, 80, 100])
@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_the_replay_footer_never_runs_its_keys_together(
    home: Path, language: str, width: int
) -> None:
    """The replay's footer showed Textual's compact style where the usual one did not
    hold every key: a name ran into the next key ("←→ Хідt Дограти", "ВаріантEsc"; issue
    49). The keys that do not fit are left out instead; help and back always show."""
    from shashki.app.replay import ReplayScreen
    from shashki.app.widgets import LocalFooter

    record = home / "game.pdn"
    record.write_text(
        '[GameType "25"]\n[Result "*"]\n\n1. c3-d4 f6-g5 2. g3-h4 b6-a5 *\n', encoding="utf-8"
    )
    set_language(language)
    try:
        app = make_app(home, replay=record)
        async with app.run_test(size=(width, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            await settle(pilot)
            footer = app.screen.query_one(LocalFooter)
            assert not footer.compact

            def laid_out() -> bool:  # (the footer lays its keys out after it is made)
                entries = [e for e in footer_entries(app.screen) if e.shown]
                return bool(entries) and all(e.region.area for e in entries)

            await wait_for(pilot, laid_out, "the footer's keys laid out")
            shown = [e for e in footer_entries(app.screen) if e.shown]
            assert {"back", "help"} <= {e.action for e in shown}
            for entry in shown:
                assert footer.region.contains_region(entry.region), entry
    finally:
        set_language("en")


async def test_a_board_that_takes_the_whole_width_has_a_status_bar_under_it(home: Path) -> None:
    app = make_app(home, variant="canadian")
    async with app.run_test(size=(50, 20)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        assert screen.has_class("-no-side")
        board = screen.board.region
        turn = screen.query_one("#turn", Static)
        assert on_screen(turn) and turn.region.y >= board.bottom
        await type_move(pilot, "1-5")
        assert "1-5: That is Black's piece" in status(app)
        assert shown_whole(screen.query_one("#status", Static))
        assert screen.board.board_layout() is not None


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
@pytest.mark.parametrize("variant", ["russian", "international", "canadian"])
async def test_the_footer_keeps_help_and_quit_at_80x24(
    home: Path, language: str, variant: str
) -> None:
    set_language(language)
    try:
        app = make_app(home, variant=variant)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = game_screen(app)

            def shown() -> list[FooterEntry]:
                return [k for k in footer_entries(screen) if k.shown and k.region.width]

            await wait_for(
                pilot,
                lambda: {"help", "quit_game"} <= {k.action for k in shown()},
                "help and quit in the footer",
            )
            keys = shown()
            palette = [k for k in keys if k.palette]
            end = palette[0].region.x if palette else 80
            others = [k for k in keys if not k.palette]
            # every key shown whole, none under another or the palette's
            assert all(k.region.right <= end for k in others), [
                (k.description, k.region) for k in others
            ]
            # the first keys are kept, the last dropped: select comes before the rest
            assert others[0].action == "select"
    finally:
        set_language("en")


async def test_the_footer_gives_way_from_its_last_keys(home: Path) -> None:
    app = make_app(home, variant="canadian")
    async with app.run_test(size=(120, 40)) as pilot:
        await footer_shows(pilot, "Save", "Hint", "Help", "Quit")
        await pilot.resize_terminal(46, 20)

        def shown() -> set[str]:
            return {k.action for k in footer_entries(app.screen) if k.shown}

        # (the footer composes its keys again as it fits them: an empty footer is not
        # "Save given up", the first keys must be there)
        await wait_for(
            pilot,
            lambda: "save" not in shown() and {"help", "quit_game", "select"} <= shown(),
            "Save given up, the first keys kept",
        )


def cell_text(board: BoardWidget, sq: int) -> str:
    layout = board.board_layout()
    assert layout is not None
    x, y = cell_offset(board, sq)
    left = x - layout.cell_w // 2
    return board.render_line(y).text[left : left + layout.cell_w]


async def test_a_key_shows_the_number_of_every_square(home: Path) -> None:
    app = make_app(home, variant="canadian")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        board = screen.board
        layout = board.board_layout()
        assert layout is not None and (layout.cell_w, layout.cell_h) == (3, 1)
        geo = screen.controller.variant.board
        occupied = [sq for sq in geo.squares if screen.controller.game.piece_at(sq)]
        assert occupied and not any(str(geo.number(sq)) in cell_text(board, sq) for sq in occupied)
        await footer_shows(pilot, "Numbers")
        await press(pilot, "number_sign")
        await settle(pilot)
        assert board.all_numbers and app.settings.numbers
        for sq in geo.squares:
            text = cell_text(board, sq)
            assert str(geo.number(sq)) in text, (geo.number(sq), text)
            if sq in occupied:
                assert "●" in text  # the piece stays on show beside its number
        await press(pilot, "number_sign")
        await settle(pilot)
        assert not board.all_numbers
        assert not any(str(geo.number(sq)) in cell_text(board, sq) for sq in occupied)


async def test_the_help_names_the_numbers_key(home: Path) -> None:
    from shashki.app.dialogs import KEYS_HELP

    assert any(key == "`#`" for key, _ in KEYS_HELP)


# -- the new-game dialog ---------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_the_dialog_starts_on_its_first_field_and_its_seats_fit(
    home: Path, language: str
) -> None:
    from textual.widgets import OptionList, Select

    from shashki.app.menu import NewGameScreen
    from shashki.rules import find_variant

    set_language(language)
    try:
        app = make_app(home)
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(NewGameScreen(find_variant("russian")))
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#flip"),
            )
            dialog = app.screen
            await wait_for(pilot, lambda: dialog.focused is dialog.query_one("#name0"))
            # Tab goes on to the next field, not to a button
            await press(pilot, "tab")
            seat = dialog.query_one("#kind0", Select)
            assert dialog.focused is seat
            await press(pilot, "enter")
            overlay = seat.query_one(OptionList)  # (its list of choices)
            await wait_for(pilot, lambda: overlay.display and overlay.region.height > 0)
            await settle(pilot)
            # one line a choice: "Computer, level 1 (beginner)" and the rest unbroken
            assert overlay.virtual_size.height == overlay.option_count, [
                str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)
            ]
            assert dialog.query_one("#name0").region.width >= 10
    finally:
        set_language("en")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_every_field_of_the_dialog_is_in_view_beside_play_and_back(
    home: Path, language: str, size: tuple[int, int]
) -> None:
    """At 80x24 and 60x20 the new-game dialog shows every field, the two board check boxes
    too, with Play and Back below them and over none; the seat choices end inside the
    dialog; an unticked box is empty (issue 49: the boxes were below the fold, Play and
    Back over the clock, the seats cut at 60 columns, and an unticked box showed an X)."""
    from shashki.app.menu import NewGameScreen
    from shashki.rules import find_variant

    set_language(language)
    try:
        app = make_app(home)
        async with app.run_test(size=size) as pilot:
            app.push_screen(NewGameScreen(find_variant("russian")))
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#flip"),
            )
            await settle(pilot)
            dialog = app.screen
            frame = dialog.query_one("#new-game").region
            fields = dialog.query_one("#fields").region
            ids = ["#name0", "#kind0", "#name1", "#kind1", "#undo", "#clock", "#autoflip", "#flip"]
            for name in ids:
                box = dialog.query_one(name).region
                assert box.height > 0 and fields.contains_region(box), (name, box, fields)
                assert box.right <= frame.right - 1, (name, box, frame)  # inside the border
            for name in ("#play", "#back"):
                button = dialog.query_one(name).region
                assert frame.contains_region(button) and button.height > 0, name
                for field in ids:
                    assert not button.overlaps(dialog.query_one(field).region), (name, field)
            flip = dialog.query_one("#flip")
            assert not flip.value and "X" not in str(flip.render())
            flip.value = True
            assert "X" in str(flip.render())
    finally:
        set_language("en")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_the_unfinished_games_show_every_button_whole(
    home: Path, language: str, size: tuple[int, int]
) -> None:
    """At 60x20 the list of unfinished games showed its last button cut (issue 49): every
    button is whole inside the dialog, below the list."""
    from shashki.app.unfinished import UnfinishedScreen

    from .test_snapshots_language_screens import _unfinished_games

    _unfinished_games(home)
    set_language(language)
    try:
        app = make_app(home, autosave=True, offer_resume=True)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list")
            await settle(pilot)
            frame = app.screen.query_one("UnfinishedScreen > Vertical").content_region
            games = app.screen.query_one("#games").region
            for name in ("#resume", "#new", "#delete"):
                button = app.screen.query_one(name).region
                assert button.height >= 3 and frame.contains_region(button), (name, button, frame)
                assert button.y >= games.bottom, (name, button, games)
    finally:
        set_language("en")


async def test_the_seat_list_scrolls_with_the_keys(home: Path) -> None:
    import json

    from textual.widgets import OptionList, Select

    from shashki.app.menu import NewGameScreen
    from shashki.rules import find_variant

    engines = [{"name": f"Engine {i}", "command": f"engine{i} hub"} for i in range(8)]
    (home / "settings.json").write_text(json.dumps({"engines": engines}), encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(NewGameScreen(find_variant("russian")))
        await wait_for(
            pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#flip")
        )
        dialog = app.screen
        seat = dialog.query_one("#kind0", Select)
        seat.focus()
        await press(pilot, "enter")
        overlay = seat.query_one(OptionList)  # (its list of choices)
        await wait_for(pilot, lambda: overlay.display and overlay.region.height > 0)
        assert overlay.option_count > overlay.scrollable_content_region.height
        for _ in range(overlay.option_count - 1):
            await press(pilot, "down")
        await settle(pilot)
        last = overlay.option_count - 1

        def in_view() -> bool:
            top = overlay.scroll_offset.y
            return overlay.highlighted == last and top <= last < top + overlay.size.height

        await wait_for(pilot, in_view, "the last choice highlighted and in view")
        await press(pilot, "enter")
        await settle(pilot)
        assert seat.value == player_kinds(engines=[])[-1][1]  # the last kind of player


# -- words -----------------------------------------------------------------------------


async def test_the_route_chooser_asks_for_a_square_of_the_route(home: Path) -> None:
    from .conftest import TWO_ROUTES, click_square

    app = make_app(home, variant="russian", fen=TWO_ROUTES)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await click_square(pilot, "c5")
        await click_square(pilot, "g1")
        assert "click a square of the route you mean" in status(app)
        await click_square(pilot, "a3")
        assert game_screen(app).controller.move_list() == ["c5:a3:c1:e3:g1"]


async def test_a_refusal_that_names_the_move_typed_names_it_once(home: Path) -> None:
    """The panel quotes a typed move before its refusal (the box is emptied), unless the
    refusal names it already: "c3-c4" is said once, not "c3-c4: «c3-c4»: …"."""
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await type_move(pilot, "c3-c4")
        await wait_for(pilot, lambda: "c4" in status(app), "the refusal")
        assert status(app).count("c3-c4") == 1, status(app)
