"""Special files in the app: a FIFO, a device or a folder given to the replay viewer (on
the command line, by the open dialog, or as one game asked for) is refused at once in
one line that says what it is; nothing blocks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Input

from shashki.app.menu import MenuScreen
from shashki.app.replay import FileChooserScreen, load_record
from shashki.base.userfiles import UserFileError

from .conftest import make_app, notes, press, settle

SIZE = (100, 30)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    os.mkfifo(path)  # no writer: opening it for reading the usual way would block
    return path


@pytest.mark.parametrize(
    ("name", "words"),
    [("fifo", "a pipe (FIFO), not a regular file"), ("/dev/zero", "a device, not a regular file")],
)
async def test_special_files_are_refused_in_one_line(
    home: Path, fifo: Path, name: str, words: str
) -> None:
    path = fifo if name == "fifo" else Path(name)
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        [note] = notes(app)
        assert note == f"Cannot open {path}: {words}"
        app.open_game_file(path, 1)  # one game asked for
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and len(notes(app)) == 2
        # the open dialog: the path typed in
        app.open_game_dialog()
        await settle(pilot)
        assert isinstance(app.screen, FileChooserScreen)
        box = app.screen.query_one("#path", Input)
        box.value = str(path)
        box.focus()
        await press(pilot, "enter")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert notes(app)[-1] == f"Cannot open {path}: {words}"


def test_load_record_refuses_special_files(fifo: Path, tmp_path: Path) -> None:
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(UserFileError):
            load_record(path, 0)
    json_fifo = tmp_path / "games.json"
    os.mkfifo(json_fifo)
    with pytest.raises(UserFileError):
        load_record(json_fifo, 0)
