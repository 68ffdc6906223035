"""My games: a game played to its end is kept and listed; the list filters, replays,
exports and deletes (asking first), and scores each opponent."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Select

from shashki.app.app import ShashkiApp
from shashki.app.dialogs import ConfirmScreen, GameOverScreen
from shashki.app.menu import MenuScreen
from shashki.app.my_games import ANY, MyGamesScreen
from shashki.app.replay import ReplayScreen
from shashki.i18n import set_language
from shashki.records import read_file
from shashki.store.archive import keep_game

from ..store.test_archive import finished
from .conftest import keys_play, make_app, notes, press, screen_made, settle, wait_for

SIZE = (120, 36)


def archive(home: Path) -> Path:
    return home / "data" / "shashki" / "archive"


def kept(app: ShashkiApp, home: Path) -> list[Path]:
    """The kept games' files, once what the autosave writer has to do is done."""
    app.flush_autosave()
    return sorted(archive(home).glob("*.pdn"))


def rows(screen: MyGamesScreen, table: str = "#games") -> list[list[str]]:
    """The table's rows as shown (each cell's text)."""
    widget = screen.query_one(table, DataTable)
    return [[str(cell) for cell in widget.get_row_at(i)] for i in range(widget.row_count)]


async def open_my_games(pilot) -> MyGamesScreen:  # type: ignore[no-untyped-def]
    """From the menu, m: the list, once read."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MenuScreen), "the menu")
    await press(pilot, "m")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MyGamesScreen), "My games")
    screen = pilot.app.screen
    assert isinstance(screen, MyGamesScreen)
    await wait_for(pilot, lambda: screen.filled, "the archive read and listed")
    await settle(pilot)
    return screen


def several(home: Path) -> None:
    """Five kept games, the newest first in this order."""
    os.environ["XDG_DATA_HOME"] = str(home / "data")  # (the home fixture set it already)
    me = ("human", "Ann")
    records = [
        ("e", finished(me, ("computer-3", "Computer 3"), loser=1)),  # won
        ("d", finished(me, ("computer-3", "Computer 3"), loser=0)),  # lost
        ("c", finished(me, ("engine:scan", "Scan 3.1"), how="draw")),  # drawn
        ("b", finished(me, ("human", "Bob"), variant="international", loser=1)),  # hot-seat
        ("a", finished(me, ("computer-5", "Computer 5"), variant="international", loser=0)),
    ]
    for n, (key, record) in enumerate(records):
        path = keep_game(record, key)
        stamp = 1_800_000_000 - n * 86400
        os.utime(path, (stamp, stamp))


async def test_a_game_played_to_its_end_is_kept_and_replayed(home: Path) -> None:
    app = make_app(home, variant="russian", autosave=True)
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4", "f6", "g5")
        await press(pilot, "R", "y")  # White resigns
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
        await wait_for(pilot, lambda: kept(app, home), "the game kept")
        [path] = kept(app, home)
        [record] = list(read_file(path))
        assert record.ok and record.result == "0-1" and len(record.mainline_moves()) == 2
        assert record.header("Ending") == "resignation"
        assert list((home / "data" / "shashki" / "autosave").glob("*.pdn")) == []
        await press(pilot, "n")  # a new game: back to the menu
        screen = await open_my_games(pilot)
        [row] = rows(screen)
        assert row[1:] == ["Russian draughts", "White", "Black", "0-1 lost", "1", "resignation"]
        await press(pilot, "enter")
        await screen_made(pilot, ReplayScreen, "the replay")
        await press(pilot, "escape")
        await wait_for(pilot, lambda: app.screen is screen, "My games again")


async def test_a_game_is_kept_once_however_often_it_changes_after_its_end(home: Path) -> None:
    app = make_app(home, variant="russian", autosave=True)
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
        await press(pilot, "d", "y")  # a draw agreed
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
        await press(pilot, "u")  # taken back, and played on to a resignation
        await keys_play(pilot, "f6", "g5")
        await press(pilot, "R", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
        await wait_for(pilot, lambda: kept(app, home), "the game kept")
        [path] = kept(app, home)  # the same game: its one file replaced
        [record] = list(read_file(path))
        assert record.header("Ending") == "resignation" and len(record.mainline_moves()) == 2


async def test_list_filters_and_summary(home: Path) -> None:
    several(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        listed = rows(screen)
        assert [r[1] for r in listed] == ["Russian draughts"] * 3 + ["International draughts"] * 2
        assert [r[4] for r in listed] == ["1-0 won", "0-1 lost", "½-½ drawn", "1-0 won", "0-1 lost"]
        assert listed[2][3] == "Scan 3.1" and listed[4][3] == "Computer 5"
        # v: the next variant (International comes first by name), then the next, then any
        await press(pilot, "v")
        await settle(pilot)
        assert [r[1] for r in rows(screen)] == ["International draughts"] * 2
        await press(pilot, "v")
        await settle(pilot)
        assert len(rows(screen)) == 3
        await press(pilot, "v")
        await settle(pilot)
        assert len(rows(screen)) == 5
        # r: won, then drawn
        await press(pilot, "r")
        await settle(pilot)
        assert [r[4] for r in rows(screen)] == ["1-0 won", "1-0 won"]
        await press(pilot, "r")
        await settle(pilot)
        assert [r[4] for r in rows(screen)] == ["½-½ drawn"]
        await press(pilot, "r", "r")  # lost, then any
        await settle(pilot)
        assert len(rows(screen)) == 5
        # the opponent filter chosen from its list, by keys
        select = screen.query_one("#f-opponent", Select)
        select.focus()
        await press(pilot, "enter")
        await settle(pilot)
        labels = [str(label) for label, _value in screen.opponent_choices()]
        assert labels == ["Bob", "Computer, level 3", "Computer, level 5", "Engine scan"]
        await press(pilot, "down", "enter")  # from "any opponent" to the first: Bob
        await settle(pilot)
        assert screen.filters["opponent"] == "person:Bob"
        assert [(r[2], r[3]) for r in rows(screen)] == [("Ann", "Bob")]
        # the score per opponent, of the games shown (all once the filter is any again)
        await press(pilot, "o", "o", "o", "o")  # Computer 3, Computer 5, Engine scan, any
        await settle(pilot)
        assert screen.filters["opponent"] == ANY and len(rows(screen)) == 5
        screen.query_one("#games", DataTable).focus()
        await press(pilot, "s")
        await settle(pilot)
        assert screen.showing_summary
        assert rows(screen, "#summary") == [
            ["Computer, level 3", "2", "1", "0", "1"],
            ["Bob", "1", "1", "0", "0"],
            ["Computer, level 5", "1", "0", "0", "1"],
            ["Engine scan", "1", "0", "1", "0"],
        ]
        await press(pilot, "enter")  # the games against the opponent highlighted
        await settle(pilot)
        assert not screen.showing_summary and screen.filters["opponent"] == "computer:3"
        assert len(rows(screen)) == 2


async def test_export_and_delete_with_confirmation(home: Path) -> None:
    several(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        await press(pilot, "down")  # the second game: lost to Computer 3
        await press(pilot, "e")
        exported = home / "data" / "shashki" / "games" / "export"
        await wait_for(pilot, lambda: any("Exported to" in n for n in notes(app)), "exported")
        [path] = list(exported.glob("*.pdn"))
        assert str(path) in next(n for n in notes(app) if "Exported to" in n)
        [record] = list(read_file(path))
        assert record.ok and record.header("Result") == "0-1"
        files = sorted(archive(home).glob("*.pdn"))
        await press(pilot, "d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert "Computer 3" in app.screen.question and "cannot be undone" in app.screen.question
        await press(pilot, "n")  # not deleted
        await wait_for(pilot, lambda: app.screen is screen, "My games again")
        assert sorted(archive(home).glob("*.pdn")) == files and len(rows(screen)) == 5
        await press(pilot, "d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await press(pilot, "y")
        await wait_for(pilot, lambda: len(rows(screen)) == 4, "the game gone from the list")
        assert not (archive(home) / "d.pdn").exists()
        assert len(list(archive(home).glob("*.pdn"))) == 4
        assert [r[4] for r in rows(screen)][:2] == ["1-0 won", "½-½ drawn"]


async def test_a_damaged_file_is_set_aside_and_said_in_one_line(home: Path) -> None:
    several(home)
    (archive(home) / "junk.pdn").write_bytes(b"\x00\x01garbage")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        assert len(rows(screen)) == 5
        said = [n for n in notes(app) if "damaged" in n]
        assert len(said) == 1 and "\n" not in said[0] and "junk.pdn" in said[0]
        assert (archive(home) / "damaged" / "junk.pdn").is_file()


async def test_no_games_yet(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        assert rows(screen) == []
        assert "No finished games yet" in str(screen.query_one("#status").render())
        await press(pilot, "enter", "e", "d")  # nothing to act on: nothing happens
        await settle(pilot)
        assert app.screen is screen
        await press(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")


async def test_the_palette_opens_my_games_from_the_menu(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        [command] = [c for c in app.get_system_commands(app.screen) if c.title == "My games"]
        command.callback()
        await wait_for(pilot, lambda: isinstance(app.screen, MyGamesScreen), "My games")


async def test_a_long_list_fills_a_batch_at_a_time_and_keeps_the_game_chosen(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    several(home)
    monkeypatch.setattr(MyGamesScreen, "BATCH", 1)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        assert len(rows(screen)) == 5
        await press(pilot, "down", "down", "down", "down")  # the oldest game
        await settle(pilot)
        last = screen.chosen
        assert last is not None and last.key == "a"
        await press(pilot, "v")  # International: its row is the second, in the second batch
        await wait_for(pilot, lambda: screen.filled and len(rows(screen)) == 2, "filled again")
        await wait_for(pilot, lambda: screen.chosen is last, "the same game chosen")
        assert screen.query_one("#games", DataTable).cursor_row == 1


def test_a_program_seated_without_a_name_is_called_by_what_it_is(home: Path) -> None:
    from shashki.app.my_games import seat_text
    from shashki.store.archive import scan

    os.environ["XDG_DATA_HOME"] = str(home / "data")
    keep_game(finished(("human", "White"), ("computer-2", "Black")), "a")
    keep_game(finished(("engine:scan", "White"), ("human", "Black")), "b")
    games = {g.key: g for g in scan().games}
    assert [seat_text(games["a"], s) for s in (0, 1)] == ["White", "Computer 2"]
    assert [seat_text(games["b"], s) for s in (0, 1)] == ["scan", "Black"]


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    set_language("en")


async def test_the_list_speaks_the_language_chosen_meanwhile(
    home: Path, english_after: None
) -> None:
    several(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        await press(pilot, "r")  # won
        await settle(pilot)
        app.apply_language("uk")
        await wait_for(pilot, lambda: screen.filled and rows(screen)[0][4] == "1-0 виграш", "uk")
        table = screen.query_one("#games", DataTable)
        assert [str(c.label) for c in table.columns.values()][:2] == ["Дата", "Різновид"]
        assert screen.filters["result"] == "won" and len(rows(screen)) == 2


async def test_a_game_lost_on_time_is_kept_with_how_it_ended(home: Path) -> None:
    from shashki.records.clocks import TimeControl

    from .test_clock import FakeTime

    now = FakeTime()
    app = make_app(home, variant="russian", autosave=True, clock=TimeControl(60, 0))
    app.clock_time = now
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4", "f6", "g5")  # both sides have moved: White's turn
        now.t += 600
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "the flag fall")
        await wait_for(pilot, lambda: kept(app, home), "the game kept")
        [record] = list(read_file(kept(app, home)[0]))
        assert record.header("Ending") == "time forfeit" and record.result == "0-1"
        await press(pilot, "escape", "n")
        screen = await open_my_games(pilot)
        [row] = rows(screen)
        assert row[4:] == ["0-1 lost", "1", "out of time"]


async def test_a_files_words_are_shown_as_written_never_as_markup(home: Path) -> None:
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    record = finished(("human", "[b]Ann[/b]"), ("human", "[/]"))
    record.headers["Ending"] = "[/bold] [link=x]y"
    keep_game(record, "odd")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        [row] = rows(screen)
        assert row[2:4] == ["[b]Ann[/b]", "[/]"] and row[-1] == "[/bold] [link=x]y"
        await press(pilot, "s")
        await settle(pilot)
        assert rows(screen, "#summary")[0][0] == "[/]"


async def test_escape_from_the_score_goes_back_to_the_list(home: Path) -> None:
    """Esc (or q) in the score per opponent is back to the list; from the list, out of My
    games (issue 49: it left My games)."""
    several(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_my_games(pilot)
        for key in ("escape", "q"):
            await press(pilot, "s")
            await settle(pilot)
            assert screen.showing_summary
            await press(pilot, key)
            await settle(pilot)
            assert app.screen is screen and not screen.showing_summary
            assert screen.query_one("#games", DataTable).has_focus
        await press(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
