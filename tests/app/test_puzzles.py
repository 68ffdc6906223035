"""The puzzle trainer in the app: the menu's ``p`` lists the variants with puzzles and
how many, then the daily puzzle, a mix and the themes; a puzzle solved with the keys
alone (the reply played, the rating kept on disk); a wrong move explained, then the
hints; the solution played out; a damaged record said in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

import shashki.training.trainer as trainer_module
from shashki.app.menu import MenuScreen
from shashki.app.puzzles import PuzzleMenuScreen, PuzzleScreen
from shashki.i18n import set_language
from shashki.store.puzzles import PuzzleRecord, record_path
from shashki.training.book import BookWriter, default_book
from shashki.training.mining import Puzzle

from .conftest import key_path, make_app, notes, press, screen_made, settle, wait_for

#: English draughts: 23-18 gives a man, 14x23 takes it, 27x18x11x4 takes three and crowns.
SHOT_FEN = "W:W23,24,27,29,30,31,32:B1,2,3,5,8,12,14,15,22:H0:F10"
SHOT = Puzzle(
    "english",
    SHOT_FEN,
    ("23-18", "14x23", "27x18x11x4"),
    ("shot", "crown", "quiet"),
    1300,
    "club.pdn #5 (10.): Ann – Bob",
)
#: Russian: c3-d4 is answered by e5:c3, then b2:d4 (a puzzle for the daily choice).
RUSSIAN = Puzzle("russian", "W:Wc3,b2,h2:Bh8,e5", ("h2-g3",), ("ending",), 1200, "daily.pdn")


@pytest.fixture
def books(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The player's own book holds SHOT; the starter set (a folder of the test's) holds
    RUSSIAN."""
    starter = tmp_path / "starter"
    starter.mkdir()
    BookWriter(starter / "russian.pdn").add([RUSSIAN])
    monkeypatch.setattr(trainer_module, "starter_folder", lambda: starter)
    BookWriter(default_book()).add([SHOT])
    return starter


@pytest.fixture(autouse=True)
def english_after() -> Any:
    yield
    set_language("en")


def said(screen: Any, widget_id: str) -> str:
    return str(screen.query_one(f"#{widget_id}").content)


def options(screen: Any) -> list[str]:
    ol = screen.query_one("#puzzle-choices", OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


async def open_puzzles(pilot: Pilot[None], variant: str, choice: str) -> PuzzleScreen:
    """From the menu: ``p``, the variant, then the choice (an option's id)."""
    app: Any = pilot.app
    await screen_made(pilot, MenuScreen)
    await press(pilot, "p")
    await screen_made(pilot, PuzzleMenuScreen)
    menu = app.screen
    await wait_for(pilot, lambda: menu.trainer is not None, "the puzzles read")
    ol = menu.query_one("#puzzle-choices", OptionList)
    ol.highlighted = ol.get_option_index(variant)
    await press(pilot, "enter")
    await wait_for(pilot, lambda: menu.variant_id == variant, "the variant's choices")
    ol.highlighted = ol.get_option_index(choice)
    await press(pilot, "enter")
    await screen_made(pilot, PuzzleScreen)
    return app.screen  # type: ignore[no-any-return]


async def keys_to(pilot: Pilot[None], screen: PuzzleScreen, name: str) -> None:
    """Walk the board's cursor to ``name`` with arrow keys and press Enter."""
    board = screen.board
    target = board.controller.variant.board.parse_square(name)
    if board.cursor < 0:
        await press(pilot, "down")  # (the first arrow puts the cursor on the board)
    await press(pilot, *key_path(board, target))
    assert board.cursor == target
    await press(pilot, "enter")


async def test_the_menu_lists_the_variants_with_puzzles_and_the_choices(
    home: Path, books: Path
) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_made(pilot, MenuScreen)
        await press(pilot, "p")
        await screen_made(pilot, PuzzleMenuScreen)
        menu: Any = app.screen
        await wait_for(pilot, lambda: menu.trainer is not None, "the puzzles read")
        assert options(menu) == ["Russian draughts — 1 puzzle", "English draughts — 1 puzzle"]
        assert "1500" in said(menu, "puzzle-rating")
        await press(pilot, "enter")
        await wait_for(pilot, lambda: menu.variant_id == "russian", "the choices")
        assert options(menu) == ["Daily puzzle", "Mix — 1 puzzle", "Ending — 1 puzzle"]
        await press(pilot, "escape")
        await wait_for(pilot, lambda: menu.variant_id is None, "the variants again")
        await press(pilot, "down", "enter")
        await wait_for(pilot, lambda: menu.variant_id == "english", "the choices")
        # no English puzzle is shipped: no daily one
        assert options(menu)[0] == "Mix — 1 puzzle"
        assert "Shot — 1 puzzle" in options(menu)
        await press(pilot, "escape", "escape")
        await screen_made(pilot, MenuScreen)


async def test_a_puzzle_solved_with_the_keys(home: Path, books: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_puzzles(pilot, "english", "mix")
        assert screen.attempt is not None and screen.attempt.puzzle == SHOT
        assert "White to move" in said(screen, "puzzle-task")
        assert "hidden until solved" in said(screen, "puzzle-task")
        assert not screen.board.flipped
        await keys_to(pilot, screen, "23")
        await keys_to(pilot, screen, "18")
        await wait_for(pilot, lambda: "right" in said(screen, "puzzle-verdict"), "right")
        assert "14x23" in said(screen, "puzzle-verdict")  # the reply, played
        assert screen.controller.game.fen() == screen.attempt.game.fen()
        await keys_to(pilot, screen, "27")
        await keys_to(pilot, screen, "4")
        await wait_for(pilot, lambda: "Solved!" in said(screen, "puzzle-verdict"), "solved")
        assert "a shot of 3 pieces" in said(screen, "puzzle-task")
        assert "club.pdn" in said(screen, "puzzle-source")
        assert "streak 1" in said(screen, "puzzle-score")
        kept = PuzzleRecord.load(record_path()).of("english")
        assert kept.solved == 1 and kept.rating > 1500


async def test_a_wrong_move_is_explained_then_the_hints(home: Path, books: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_puzzles(pilot, "english", "mix")
        await press(pilot, "colon", *"29-25", "enter")
        await wait_for(
            pilot,
            lambda: "After 29-25, Black answers 22x29" in said(screen, "puzzle-verdict"),
            "the wrong move explained",
            step=0.05,
        )
        assert "29-25 is not the solution." in said(screen, "puzzle-verdict")
        assert screen.controller.game.fen() == SHOT_FEN  # not played
        assert "1500" not in said(screen, "puzzle-score")  # rated: a loss
        await press(pilot, "i")
        assert "Hint: the piece on 23." in said(screen, "puzzle-task")
        assert screen.controller.selection.square is not None
        await press(pilot, "i")
        assert "Hint: 23-18." in said(screen, "puzzle-task")


async def test_the_solution_is_played_out_and_the_puzzle_tried_again(
    home: Path, books: Path
) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_puzzles(pilot, "english", "theme:shot")
        assert "Theme: shot" in said(screen, "puzzle-task")
        await press(pilot, "s")
        assert said(screen, "puzzle-verdict").startswith("Solution: 23-18")
        await press(pilot, "s", "s")
        assert "Solution: 23-18 14x23 27x4 — played out" in said(screen, "puzzle-verdict")
        assert screen.attempt is not None and screen.attempt.done
        await press(pilot, "r")
        assert screen.controller.game.fen() == SHOT_FEN
        await press(pilot, "n")  # the only one: it comes again
        assert screen.attempt.puzzle == SHOT and screen.attempt.ply == 0
        await press(pilot, "escape")
        await screen_made(pilot, PuzzleMenuScreen)


async def test_the_daily_puzzle_is_marked_done_for_the_day(home: Path, books: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_puzzles(pilot, "russian", "daily")
        assert screen.attempt is not None and screen.attempt.puzzle == RUSSIAN
        assert "Daily puzzle" in said(screen, "puzzle-task")
        await press(pilot, "colon", *"h2-g3", "enter")
        await wait_for(pilot, lambda: "Solved!" in said(screen, "puzzle-verdict"), "solved")
        await press(pilot, "escape")
        await screen_made(pilot, PuzzleMenuScreen)
        menu: Any = app.screen
        await wait_for(pilot, lambda: "Daily puzzle (done today)" in options(menu), "done")


async def test_a_damaged_record_is_one_line(home: Path, books: Path) -> None:
    path = record_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ not json")
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_made(pilot, MenuScreen)
        await press(pilot, "p")
        await screen_made(pilot, PuzzleMenuScreen)
        await wait_for(
            pilot,
            lambda: any("could not be read" in n and "fresh start" in n for n in notes(app)),
            "the damaged record said",
        )
        note = next(n for n in notes(app) if "fresh start" in n)
        assert "\n" not in note


async def test_no_puzzles_says_how_to_mine_some(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trainer_module, "starter_folder", lambda: tmp_path / "none")
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await screen_made(pilot, MenuScreen)
        await press(pilot, "p")
        await screen_made(pilot, PuzzleMenuScreen)
        menu: Any = app.screen
        await wait_for(pilot, lambda: "No puzzles yet" in said(menu, "puzzle-intro"), "said")
        assert "shashki puzzles mine" in said(menu, "puzzle-intro")
        await settle(pilot)


async def test_the_puzzle_follows_the_language(home: Path, books: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_puzzles(pilot, "english", "mix")
        await press(pilot, "colon", *"29-25", "enter")
        await wait_for(
            pilot, lambda: "22x29" in said(screen, "puzzle-verdict"), "explained", step=0.05
        )
        app.apply_language("uk")
        await settle(pilot)
        assert "Хід білих" in said(screen, "puzzle-task")
        assert "чорні відповідають 22x29" in said(screen, "puzzle-verdict")
        assert screen.title == "Задачі"
