"""A study in the replay screen (issue 47, item 2), driven as a user would: a move typed
or clicked adds a variation, a comment and a mark are written from the keyboard, an edit
is undone, the study is saved and read back the same, and unsaved changes come back when
the game is opened again."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, OptionList

from shashki.app.app import ShashkiApp
from shashki.app.board import BoardWidget
from shashki.app.dialogs import TextPrompt
from shashki.app.replay import ReplayScreen
from shashki.app.study import CommentDialog, MarkDialog, UnsavedStudyDialog
from shashki.records import read_file, read_games_text
from shashki.records.annotations import BLUNDER, user_text
from shashki.store.studies import Origin, studies_dir

from .conftest import cell_offset, make_app, notes, screen_made, wait_for

SIZE = (120, 40)

GAME = """\
[Event "Study test"]
[White "Anna"]
[Black "Boris"]
[Result "1-0"]
[GameType "25"]

1. c3-d4 {A classical start.} f6-e5 2. d4:f6 g7:e5 3. b2-c3 h6-g5 1-0
"""


def replay(app: ShashkiApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen), f"expected the replay screen, not {app.screen!r}"
    return app.screen


async def click_square(pilot, view: ReplayScreen, name: str) -> None:  # type: ignore[no-untyped-def]
    """Click the middle of a square's cell on the replay's board."""
    await pilot.pause()
    variant = view.replay.record.variant
    assert variant is not None
    offset = cell_offset(view.board, variant.board.parse_square(name))
    await pilot.click(BoardWidget, offset=offset)
    await pilot.pause()


def rows(view: ReplayScreen) -> str:
    moves = view.query_one("#moves", OptionList)
    return "\n".join(str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count))


async def open_game(pilot, path: Path) -> ReplayScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    [record] = read_file(path)
    app.open_record(record, source=path.name, origin=Origin(path, 1))
    await screen_made(pilot, ReplayScreen)
    return replay(app)


async def test_a_study_typed_commented_marked_undone_and_saved(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "game.pdn"
    path.write_text(GAME, encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_game(pilot, path)
        # a move typed from the start position: another first move, a variation
        await pilot.press("colon", *"a3-b4", "enter")
        await wait_for(pilot, lambda: not view.replay.node.is_mainline(), "the variation made")
        assert "a3-b4" in rows(view) and view.replay.changed
        # its comment, written in the dialog
        await pilot.press("c")
        await screen_made(pilot, CommentDialog)
        await pilot.press(*"An idea", "enter")
        await wait_for(pilot, lambda: view.replay.comment_text() == "An idea", "the comment")
        assert "An idea" in rows(view)
        # its mark, chosen in the dialog by its key
        await pilot.press("m")
        await screen_made(pilot, MarkDialog)
        await pilot.press("4")
        await wait_for(pilot, lambda: view.replay.node.nags == [BLUNDER], "the mark")
        assert "a3-b4??" in rows(view)
        # '!' straight away, then undone: the blunder mark again
        await pilot.press("exclamation_mark")
        await wait_for(pilot, lambda: view.replay.node.nags == [1], "the mark !")
        await pilot.press("u")
        await wait_for(pilot, lambda: view.replay.node.nags == [BLUNDER], "the undo")
        # a move clicked on the board from the record's own position: followed, no edit
        await pilot.press("home")
        edits = view.replay._state
        await click_square(pilot, view, "c3")
        await click_square(pilot, view, "d4")
        await wait_for(pilot, lambda: view.replay.node.ply() == 1, "the record's move")
        assert view.replay.node.is_mainline() and view.replay._state == edits
        # saved: the file asked for, and it reads back as the study
        await pilot.press("s")
        await screen_made(pilot, TextPrompt)
        box = app.screen.query_one(Input)
        target = tmp_path / "study.pdn"
        box.value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.exists(), "the study saved")
        [back] = read_file(target)
        assert back.same_tree(view.replay.record)
        assert user_text(back.variations[1].comments) == "An idea"
        assert not view.replay.changed
        await wait_for(pilot, lambda: not list(studies_dir().glob("*.pdn")), "no autosave left")


async def test_unsaved_changes_come_back(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "game.pdn"
    path.write_text(GAME, encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_game(pilot, path)
        await pilot.press("colon", *"a3-b4", "enter")
        await wait_for(pilot, lambda: view.replay.changed, "the variation made")
        view.autosave.flush()
        assert len(list(studies_dir().glob("*.pdn"))) == 1
        await pilot.press("q")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReplayScreen), "left")
        assert any("not saved" in n for n in notes(app))
        # opened again: the changes are offered, and restored
        [record] = read_file(path)
        app.open_record(record, source=path.name, origin=Origin(path, 1))
        await screen_made(pilot, UnsavedStudyDialog)
        await pilot.press("r")
        await screen_made(pilot, ReplayScreen)
        again = replay(app)
        assert len(again.replay.record.variations) == 2 and again.replay.changed
        # thrown away: the game as it is, and nothing left on disk
        await pilot.press("q")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReplayScreen), "left")
        app.open_record(record, source=path.name, origin=Origin(path, 1))
        await screen_made(pilot, UnsavedStudyDialog)
        await pilot.press("d")
        await screen_made(pilot, ReplayScreen)
        fresh = replay(app)
        assert len(fresh.replay.record.variations) == 1 and not fresh.replay.changed
        fresh.autosave.flush()
        await wait_for(pilot, lambda: not list(studies_dir().glob("*.pdn")), "discarded")
        # a record the reader makes from the file is the same game: the study's file is
        # not the source file, which is left as it was
        assert read_games_text(path.read_text(encoding="utf-8"))[0].same_tree(record)
