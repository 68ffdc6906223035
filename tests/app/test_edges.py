"""The rough edges of issue 14, each seen on screen once: the cursor, focus, wording, the
move box, the move list, the pieces, the smallest terminal, the replay and the palette."""

from __future__ import annotations

from pathlib import Path

from .conftest import (
    click_widget,
    footer_entries,
    footer_shows,
    game_screen,
    make_app,
    press,
    screen_made,
    settle,
    square,
    wait_for,
)


async def test_up_goes_straight_up_without_drifting(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 32)) as pilot:
        screen = game_screen(app)
        board, geo = screen.board, screen.controller.variant.board
        board.cursor = square(app, "e3")
        seen = []
        for _ in range(4):
            await press(pilot, "up")
            seen.append(geo.name(board.cursor))
        assert seen == ["f4", "e5", "f6", "e7"]
        for _ in range(4):
            await press(pilot, "down")
        assert geo.name(board.cursor) == "e3"
        await press(pilot, "left", "left")
        assert geo.name(board.cursor) == "a3"
        await press(pilot, "left")
        assert geo.name(board.cursor) == "a3"


async def test_the_help_says_how_the_arrows_move(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 40)) as pilot:
        await press(pilot, "question_mark")
        await settle(pilot)
        from textual.widgets import Markdown

        text = "".join(m.source for m in app.screen.query(Markdown))
        assert "up, down, left or right to the nearest playable square" in text


async def test_enter_in_a_name_field_goes_to_the_next_field(home: Path) -> None:
    from textual.widgets import Input, Select

    from shashki.app.menu import NewGameScreen
    from shashki.rules import find_variant

    app = make_app(home)
    async with app.run_test(size=(100, 32)) as pilot:
        app.push_screen(NewGameScreen(find_variant("russian")))
        await settle(pilot)
        dialog = app.screen
        dialog.query_one("#name0", Input).focus()
        await settle(pilot)
        await press(pilot, "end", "x", "enter")
        await settle(pilot)
        assert app.screen is dialog  # no game started
        assert dialog.focused is dialog.query_one("#kind0", Select)
        dialog.query_one("#name1", Input).focus()
        await press(pilot, "enter")
        await settle(pilot)
        assert app.screen is dialog


async def test_artamonov_draws_by_lot_unless_a_side_is_chosen(home: Path) -> None:
    from textual.widgets import Select

    from shashki.app.menu import LOT, NewGameScreen
    from shashki.rules import find_variant

    app = make_app(home)
    async with app.run_test(size=(100, 32)) as pilot:
        app.push_screen(NewGameScreen(find_variant("artamonov")))
        await settle(pilot)
        assert app.screen.query_one("#start", Select).value == LOT
        app.screen.query_one("#start", Select).value = "North"
        await settle(pilot)
        await click_widget(pilot, "#play")
        await settle(pilot)
        game = game_screen(app).controller.game
        assert game.start_label == "North" and game.seed is None


THREE_GAMES = "".join(
    f'[White "{white}"]\n[Black "{black}"]\n[GameType "25"]\n\n1. c3-d4 f6-e5 *\n\n'
    for white, black in (("Zed", "Boris"), ("Anna", "Boris"), ("Boris", "Anna"), ("Anna", "X"))
)


async def test_search_then_down_then_enter_opens_the_first_match(home: Path) -> None:
    from shashki.app.replay import GameTableScreen, ReplayScreen

    path = home / "four.pdn"
    path.write_text(THREE_GAMES, encoding="utf-8")
    app = make_app(home, replay=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, GameTableScreen) and app.screen.done, "the table"
        )
        await press(pilot, "slash", *"anna", "down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.source == "four.pdn #2"


async def test_the_open_dialog_takes_a_typed_path(home: Path) -> None:
    from shashki.app.replay import FileChooserScreen, GameTableScreen

    path = home / "four.pdn"
    path.write_text(THREE_GAMES, encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_game_dialog()
        await settle(pilot)
        assert isinstance(app.screen, FileChooserScreen)
        await press(pilot, "ctrl+u", *str(path), "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameTableScreen) and app.screen.path == path


def test_no_variant_speaks_of_a_document() -> None:
    from shashki.rules.variant_registry import all_variants

    for v in all_variants():
        for text in (v.name, v.summary, v.card):
            assert "document" not in text.lower() and "client" not in text.lower(), v.id


async def test_the_replay_panel_names_the_variant_and_hides_technical_tags(home: Path) -> None:
    from textual.widgets import Static

    from shashki.app.replay import ReplayScreen

    path = home / "one.pdn"
    path.write_text(
        '[White "Anna"]\n[Black "Computer"]\n[GameType "25,W,8,8,A0,0"]\n[WhiteType "human"]\n'
        '[BlackType "program"]\n[BlackLevel "5"]\n\n1. c3-d4 f6-e5 *\n',
        encoding="utf-8",
    )
    app = make_app(home, replay=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_made(pilot, ReplayScreen, "replay")
        tags = str(app.screen.query_one("#tags", Static).content)
        assert tags.splitlines()[0] == "Variant: Russian draughts"
        assert "Black: Computer · level 5" in tags
        for raw in ("GameType", "WhiteType", "BlackType", "BlackLevel", "25,W"):
            assert raw not in tags


def test_the_move_example_is_a_legal_first_move_of_every_variant() -> None:
    from shashki.app.dialogs import example_moves
    from shashki.rules import Game
    from shashki.rules.variant_registry import all_variants

    for v in all_variants():
        game = Game(v)
        move, _ = example_moves(v)
        assert game.parse_move(move) in game.legal_moves(), v.id


async def test_turkish_and_english_show_a_legal_example(home: Path) -> None:
    from textual.widgets import Input, Markdown

    from shashki.rules import Game

    for variant in ("turkish", "english"):
        app = make_app(home, variant=variant)
        async with app.run_test(size=(120, 40)) as pilot:
            box = app.screen.query_one("#move-input", Input)
            example = str(box.placeholder).rsplit(" ", 1)[-1]
            game = Game(variant)
            assert game.parse_move(example) in game.legal_moves()
            await press(pilot, "question_mark")
            await settle(pilot)
            help_text = "".join(m.source for m in app.screen.query(Markdown))
            written = help_text.split("Moves are written ", 1)[1].split(":", 1)[0]
            assert game.parse_move(written.split(",")[0]) in game.legal_moves(), written


def _move_lines(app: object) -> list[str]:
    from textual.widgets import OptionList

    moves = game_screen(app).query_one("#moves", OptionList)  # type: ignore[arg-type]
    return [moves.render_line(y).text.rstrip() for y in range(moves.size.height)]


async def test_double_move_turns_share_a_numbered_row_each(home: Path) -> None:
    from shashki.app.controller import Feedback

    app = make_app(home, variant="double-move")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        for text in ("c3-d4", "d4-c5", "b6:d4", "f6-g5", "e3:c5"):
            screen.controller.enter_text(text)
        screen.after(Feedback())
        await settle(pilot)
        assert screen.move_rows() == [
            ("1.", "c3-d4; d4-c5", "b6xd4; f6-g5"),
            ("2.", "e3xc5", ""),
        ]
        lines = _move_lines(app)
        i = next(i for i, line in enumerate(lines) if "1." in line)
        # White's turn in its column, Black's in the next, from the numbered row down
        text = "\n".join(lines[i : i + 2])
        assert lines[i].index("c3-d4") < lines[i].index("b6xd4"), text
        column = lines[i].index("c3-d4")
        assert "d4-c5" in text.replace("\n", " ")[column:], text
        assert "2." not in lines[i + 1], text


async def test_a_long_capture_keeps_the_reply_on_its_numbered_row(home: Path) -> None:
    app = make_app(home, variant="russian", fen="W:Wc1:Bb2,b4,d6,f6,d2,f4,h8")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game_screen(app)
        from shashki.app.controller import Feedback

        screen.controller.enter_text("c1:e3:g5:e7:c5:a3:c1")
        screen.controller.enter_text("h8-g7")
        assert screen.move_rows() == [("1.", "c1:e3:g5:e7:c5:a3:c1", "h8-g7")]
        screen.after(Feedback())
        await settle(pilot)
        lines = [line for line in _move_lines(app) if line.strip()]
        assert len(lines) > 1  # the capture is wider than its column: it wraps…
        numbered = [line for line in lines if line.lstrip().startswith("1.")]
        assert len(numbered) == 1 and "g7" in numbered[0]  # …but not the reply
        column = numbered[0].index("c1")
        for line in lines:
            if line is not numbered[0]:  # the capture's next lines, in its own column
                assert line[:column].strip() == "", lines


def _cell_text(app: object, name: str) -> list[str]:
    """The text of a square's cell, row by row, as the board draws it."""
    board = game_screen(app).board  # type: ignore[arg-type]
    layout = board.board_layout()
    assert layout is not None
    region = board.cell_region(square(app, name), layout)  # type: ignore[arg-type]
    return [
        board.render_line(y).text[region.x : region.right] for y in range(region.y, region.bottom)
    ]


async def test_kings_differ_from_men_in_every_piece_set(home: Path) -> None:
    from shashki.app.board import PIECE_SETS

    app = make_app(home, variant="russian", fen="W:Wc3,Ke3:Bf6,Kh6")
    for size in ((80, 24), (200, 60)):
        async with app.run_test(size=size) as pilot:
            board = game_screen(app).board
            board.cursor = square(app, "a1")
            for piece_set in PIECE_SETS:
                board.piece_set = piece_set
                await settle(pilot)
                man, king = _cell_text(app, "c3"), _cell_text(app, "e3")
                assert man != king, (piece_set, size, man)
                man, king = _cell_text(app, "f6"), _cell_text(app, "h6")
                assert man != king, (piece_set, size, man)
        app = make_app(home, variant="russian", fen="W:Wc3,Ke3:Bf6,Kh6")


async def test_a_typed_move_is_seen_at_60x20(home: Path) -> None:
    from textual.widgets import Input

    app = make_app(home, variant="russian")
    async with app.run_test(size=(60, 20)) as pilot:
        await press(pilot, "colon", *"c3-d")
        await settle(pilot)
        box = app.screen.query_one("#move-input", Input)
        side = app.screen.query_one("#side")
        assert box.value == "c3-d"
        # the whole box, its border and the text row between, inside the panel
        assert box.region.height == 3 and side.region.contains_region(box.region)
        assert "c3-d" in box.render_line(0).text


def _long_game_text() -> str:
    from shashki.records.model import GameRecord
    from shashki.records.writer import write_game
    from shashki.rules import Game

    game = Game("russian")
    while len(game.move_stack) < 70 and game.legal_moves():
        moves = game.legal_moves()
        game.push(moves[len(game.move_stack) % len(moves)])
    return write_game(GameRecord.from_game(game, {"White": "A", "Black": "B", "Result": "1-0"}))


async def test_the_replay_keeps_the_last_move_in_view_and_its_keys_fit(home: Path) -> None:
    from textual.widgets import OptionList

    from shashki.app.replay import ReplayScreen

    path = home / "long.pdn"
    path.write_text(_long_game_text(), encoding="utf-8")
    app = make_app(home, replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_made(pilot, ReplayScreen, "replay")
        await press(pilot, "end")
        moves = app.screen.query_one("#moves", OptionList)

        def last_in_view() -> bool:
            top = moves.scroll_offset.y
            return (
                moves.highlighted == moves.option_count - 1 > moves.size.height
                and top <= moves.highlighted < top + moves.size.height
            )

        await wait_for(pilot, last_in_view, "the last move highlighted and in view")
        await wait_for(
            pilot,
            lambda: any(k.action == "take_over" and k.region for k in footer_entries(app.screen)),
            "the footer drawn",
        )
        keys = list(footer_entries(app.screen))
        assert "take_over" in [k.action for k in keys]
        assert all(k.region.right <= 80 and k.region.width > 0 for k in keys), [
            (k.action, k.region) for k in keys
        ]


async def test_the_palette_has_one_quit_and_clearly_named_themes(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 32)):
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert len(titles) == len(set(titles)), titles
        assert [t for t in titles if "quit" in t.lower()] == ["Quit"]
        assert sorted(t for t in titles if "theme" in t.lower()) == [
            "App colour theme",
            "Board theme",
        ]


def test_help_says_shashki_alone_opens_the_menu(capsys: object) -> None:
    import pytest

    from shashki.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())  # type: ignore[attr-defined]
    assert "Run shashki alone (no COMMAND) to open the menu" in out


async def test_the_menu_footer_says_enter_starts_a_game_and_n_comes_back(home: Path) -> None:
    from textual.widgets import Static

    from shashki.app.game_screen import GameScreen
    from shashki.app.menu import MenuScreen, NewGameScreen

    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_made(pilot, MenuScreen, "menu")
        await footer_shows(pilot, "New game")
        # (the keys the footer leaves out for want of room are there, not displayed)
        shown = lambda: [k for k in footer_entries(app.screen) if k.shown]  # noqa: E731
        # (the footer composes its keys again as it fits them: wait for the keys drawn,
        # an empty footer is not "every key drawn")
        await wait_for(
            pilot,
            lambda: any(k.action == "choose" for k in shown()) and all(k.region for k in shown()),
            "the footer's keys drawn",
        )
        keys = {k.action: k for k in shown()}
        assert "choose" in keys and keys["choose"].region.right <= 80
        assert keys["choose"].description == "New game"
        hint = str(app.screen.query_one("#menu-hint", Static).render())
        assert "Enter: a new game" in hint and "n comes back here" in hint
        assert app.screen.query_one("#menu-hint").region.width > 0
        await press(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        await click_widget(pilot, "#play")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await press(pilot, "n")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")


async def test_f5_plays_from_the_first_field(home: Path) -> None:
    """The dialog opens on its first field; F5 starts the game from there, as the fields
    stand (Enter goes on to the next field)."""
    from textual.widgets import Input

    from shashki.app.game_screen import GameScreen
    from shashki.app.menu import MenuScreen, NewGameScreen

    app = make_app(home)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await press(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        dialog = app.screen
        await wait_for(
            pilot, lambda: dialog.focused is dialog.query_one("#name0", Input), "the first field"
        )
        await press(pilot, "f5")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
