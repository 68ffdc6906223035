"""Games are never lost: one autosave per unfinished game, the list at start, other
processes' games left alone, damaged files moved aside, saves that never overwrite
silently, and an autosave that fails said once."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from shashki.app.app import ShashkiApp
from shashki.app.dialogs import ConfirmScreen, LeaveScreen, TextPrompt
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen
from shashki.app.unfinished import UnfinishedScreen, when_text
from shashki.records import read_file, write_game
from shashki.records.model import GameRecord
from shashki.rules import Game
from shashki.store import SaveError
from shashki.store import autosaves as autosaves_module

from ..store.test_autosaves import Holder
from .conftest import click_widget, game_screen, keys_play, make_app, notes, press, settle

SIZE = (120, 36)


def autosave_folder(home: Path) -> Path:
    return home / "data" / "shashki" / "autosave"


def games_in(home: Path) -> list[GameRecord]:
    """Every unfinished game on disk, as read."""
    folder = autosave_folder(home)
    if not folder.is_dir():
        return []
    return [g for p in sorted(folder.glob("*.pdn")) for g in read_file(p)]


def listed(app: ShashkiApp) -> list[str]:
    screen = app.screen
    assert isinstance(screen, UnfinishedScreen), f"no list of unfinished games: {screen!r}"
    return [str(o.prompt) for o in screen.query_one("#games", OptionList).options]


def app_for(home: Path, **kwargs: object) -> ShashkiApp:
    return make_app(home, autosave=True, offer_resume=True, **kwargs)


async def choose(pilot, variant_id: str) -> None:  # type: ignore[no-untyped-def]
    """From the menu: a new game of a variant, by keys."""
    menu = pilot.app.screen.query_one("#variants", OptionList)
    menu.focus()
    menu.highlighted = next(i for i, o in enumerate(menu.options) if o.id == variant_id)
    await press(pilot, "enter")  # the new-game dialog (its focus on the first field)
    await click_widget(pilot, "#play")
    await settle(pilot)


def old_format(variant: str, plies: int, white: str = "me") -> bytes:
    """An autosave as older versions wrote it (no PlyCount)."""
    g = Game(variant)
    for _ in range(plies):
        g.push(g.legal_moves()[0])
    return write_game(GameRecord.from_game(g, {"White": white})).encode("utf-8")


# -- several unfinished games ------------------------------------------------------------


async def test_two_games_quit_restart_both_listed(home: Path) -> None:
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)  # nothing unfinished yet
        await choose(pilot, "russian")
        await keys_play(pilot, "c3", "d4", "f6", "g5")
        await press(pilot, "n")  # leave it for a new game, kept for later: it stays
        assert isinstance(app.screen, LeaveScreen) and "Keep the game" in app.screen.question
        await press(pilot, "k")
        await settle(pilot)
        await choose(pilot, "turkish")
        await keys_play(pilot, "a3", "a4")
        await press(pilot, "q", "y")
        await settle(pilot)
    assert sorted(g.variant.id for g in games_in(home) if g.variant) == ["russian", "turkish"]

    again = app_for(home)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = listed(again)
        assert len(lines) == 2
        assert "Turkish" in lines[0] and "Russian" in lines[1]  # the latest first
        assert "1 move, " in lines[0] and "1 move, " in lines[1] and "today" in lines[0]
        await press(pilot, "down", "enter")
        ctl = game_screen(again).controller
        assert ctl.variant.id == "russian" and ctl.move_list() == ["c3-d4", "f6-g5"]
        await keys_play(pilot, "d4", "e5")
        await press(pilot, "q", "y")
        await settle(pilot)

    third = app_for(home)
    async with third.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = listed(third)
        assert "Russian" in lines[0] and "2 moves, " in lines[0] and "Turkish" in lines[1]


async def test_a_game_abandoned_is_kept_in_my_games_as_that_not_to_resume(home: Path) -> None:
    """Quit and abandon: the game is not kept to resume (unfinished games do not pile
    up), and My games keeps it as what it is: unfinished ("*"), abandoned."""
    from shashki.store.archive import scan

    app = app_for(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4", "f6", "g5")
        app.flush_autosave()
        assert len(games_in(home)) == 1
        await press(pilot, "q")
        assert isinstance(app.screen, LeaveScreen)
        await press(pilot, "escape")  # (stay: nothing changes)
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.controller.session.outcome is None
        await press(pilot, "q", "a")
    assert games_in(home) == []
    [kept] = scan(home / "data" / "shashki" / "archive").games
    assert (kept.result, kept.ending, kept.plies) == ("*", "abandoned unfinished", 2)
    [record] = read_file(home / "data" / "shashki" / "archive" / f"{kept.key}.pdn")
    assert record.header("Result") == "*" and record.header("Termination") == "abandoned"


async def test_play_variant_keeps_the_other_unfinished_games(home: Path) -> None:
    first = app_for(home, variant="russian")
    async with first.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
    second = app_for(home, variant="turkish")
    async with second.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # the new game starts at once; the other is said to wait, not discarded
        assert game_screen(second).controller.variant.id == "turkish"
        assert "1 other unfinished game is kept: press u in the menu to see it." in notes(second)
        await keys_play(pilot, "a3", "a4")
    assert sorted(g.variant.id for g in games_in(home) if g.variant) == ["russian", "turkish"]


async def test_a_finished_game_goes_and_only_that_one(home: Path) -> None:
    keep = app_for(home, variant="turkish")
    async with keep.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "a3", "a4")
    end = app_for(home, variant="russian", fen="W:Wc3,a1:Bd4,h8")
    async with end.run_test(size=SIZE) as pilot:
        ctl = game_screen(end).controller
        await keys_play(pilot, "c3", "e5", "h8", "g7")
        end.flush_autosave()
        assert len(games_in(home)) == 2
        await press(pilot, "R", "y")  # White resigns: the game is over, its autosave goes
        assert ctl.session.outcome is not None
    assert [g.variant.id for g in games_in(home) if g.variant] == ["turkish"]


async def test_undo_to_no_moves_leaves_nothing_to_resume(home: Path) -> None:
    app = app_for(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
        app.flush_autosave()
        assert len(games_in(home)) == 1
        await press(pilot, "u")
        await settle(pilot)
        app.flush_autosave()
        assert games_in(home) == []
    assert os.listdir(autosave_folder(home)) == []  # and its lock went with the app


async def test_quitting_at_once_writes_the_last_move(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_save = autosaves_module.AutosaveSlot.save

    def slow_disk(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(0.3)
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(autosaves_module.AutosaveSlot, "save", slow_disk)
    app = app_for(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4", "f6", "g5", "d4", "e5")
        await press(pilot, "q", "y")  # before the autosave timer has fired
    # the app has ended only once the last move was on disk and the game given up
    [record] = games_in(home)
    assert len(record.mainline_moves()) == 3
    assert [p.suffix for p in autosave_folder(home).iterdir()] == [".pdn"]


async def test_delete_asks_first(home: Path) -> None:
    for variant in ("russian", "turkish"):
        app = app_for(home, variant=variant)
        async with app.run_test(size=SIZE) as pilot:
            await keys_play(pilot, *(("c3", "d4") if variant == "russian" else ("a3", "a4")))
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(listed(app)) == 2
        await press(pilot, "d")
        assert isinstance(app.screen, ConfirmScreen) and "Delete" in app.screen.question
        await press(pilot, "n")
        assert len(listed(app)) == 2 and len(games_in(home)) == 2
        await press(pilot, "d", "y")
        await settle(pilot)
        assert len(listed(app)) == 1 and "Russian" in listed(app)[0]
        assert [g.variant.id for g in games_in(home) if g.variant] == ["russian"]
        await press(pilot, "d", "y")  # the last one: back to the menu
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen) and games_in(home) == []
        await press(pilot, "u")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert "No unfinished games." in notes(app)


async def test_the_menu_lists_them_again(home: Path) -> None:
    first = app_for(home, variant="russian")
    async with first.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "n")  # a new game instead
        assert isinstance(app.screen, MenuScreen)
        await press(pilot, "u")
        await settle(pilot)
        assert len(listed(app)) == 1
        await press(pilot, "enter")
        assert game_screen(app).controller.move_list() == ["c3-d4"]


# -- other processes ---------------------------------------------------------------------


@pytest.fixture
def other(home: Path):  # type: ignore[no-untyped-def]
    """Another shashki process with an English game open."""
    holder = Holder(autosave_folder(home), "their-game", "new")
    yield holder
    holder.close()


async def test_a_game_open_elsewhere_is_shown_and_left_alone(home: Path, other: Holder) -> None:
    mine = app_for(home, variant="russian")
    async with mine.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = listed(app)
        assert len(lines) == 2
        [theirs] = [line for line in lines if "English" in line]
        assert f"open in another shashki (pid {other.pid})" in theirs
        screen = app.screen
        assert isinstance(screen, UnfinishedScreen)
        games = screen.query_one("#games", OptionList)
        index = next(i for i, o in enumerate(games.options) if o.id == "their-game")
        assert games.options[index].disabled
        games.highlighted = index  # cannot be chosen, resumed nor deleted
        screen.action_resume()
        screen.action_delete()
        await settle(pilot)
        assert app.screen is screen
        assert any("cannot be resumed" in n for n in notes(app))
        assert any("cannot be deleted" in n for n in notes(app))
        # mine can be resumed; resigning it deletes mine only
        games.highlighted = 1 - index
        await press(pilot, "enter")
        ctl = game_screen(app).controller
        assert ctl.variant.id == "russian"
        await press(pilot, "R", "y")
        assert ctl.session.outcome is not None
        app.flush_autosave()
    assert [g.variant.id for g in games_in(home) if g.variant] == ["english"]
    # and when the other process dies, its game can be resumed here
    other.kill()
    later = app_for(home)
    async with later.run_test(size=SIZE) as pilot:
        await settle(pilot)
        [line] = listed(later)
        assert "English" in line and "open in" not in line
        await press(pilot, "enter")
        assert game_screen(later).controller.variant.id == "english"


async def test_a_game_taken_meanwhile_is_not_resumed_twice(home: Path) -> None:
    first = app_for(home, variant="russian")
    async with first.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(listed(app)) == 1
        key = next(p.stem for p in autosave_folder(home).glob("*.pdn"))
        # another shashki resumes it while this one shows the list
        holder = Holder(autosave_folder(home), key, "claim")
        try:
            assert holder.answer == "ready"
            await press(pilot, "enter")
            await settle(pilot)
            assert not isinstance(app.screen, GameScreen)
            assert any(
                f"Cannot resume that game: open in another shashki (pid {holder.pid})" in n
                for n in notes(app)
            )
        finally:
            holder.close()


# -- damaged files and the old autosave ------------------------------------------------


async def test_damaged_autosaves_are_moved_aside_and_said_in_one_line(home: Path) -> None:
    folder = autosave_folder(home)
    folder.mkdir(parents=True)
    (folder / "noise.pdn").write_bytes(os.urandom(500))
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)  # nothing offered
        [note] = [n for n in notes(app) if "damaged" in n]
        assert "\n" not in note and str(folder / "damaged" / "noise.pdn") in note
    assert (folder / "damaged" / "noise.pdn").stat().st_size == 500


async def test_the_old_single_autosave_is_listed(home: Path) -> None:
    data = home / "data" / "shashki"
    data.mkdir(parents=True)
    (data / "autosave.pdn").write_bytes(old_format("russian", 3, white="Olga"))
    app = app_for(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        [line] = listed(app)
        assert "Russian" in line and "Olga" in line and "2 moves, " in line
        await press(pilot, "enter")
        assert len(game_screen(app).controller.game.move_stack) == 3
    assert not (data / "autosave.pdn").exists()


# -- an autosave that fails --------------------------------------------------------------


async def test_a_failing_autosave_is_said_once(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_full(*args: object, **kwargs: object) -> int:
        raise SaveError("cannot save x.pdn: No space left on device", 28)

    real_save = autosaves_module.save_pdn
    monkeypatch.setattr(autosaves_module, "save_pdn", disk_full)
    app = app_for(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        for squares in (("c3", "d4"), ("f6", "g5"), ("d4", "e5")):
            await keys_play(pilot, *squares)
            app.flush_autosave()
            await settle(pilot)
        failed = [n for n in notes(app) if n.startswith("Autosave failed")]
        assert failed == [
            "Autosave failed: cannot save x.pdn: No space left on device. "
            "Save the game with s to keep it."
        ]
        assert app.autosave_problem is not None
        await press(pilot, "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "The autosave failed" in app.screen.question
        await press(pilot, "n")
        # the disk has room again: autosaving goes on, and a later failure is said again
        monkeypatch.setattr(autosaves_module, "save_pdn", real_save)
        ctl = game_screen(app).controller
        move = ctl.game.legal_moves()[0]
        ctl.play(move)
        app.flush_autosave()
        assert app.autosave_problem is None
        assert len(games_in(home)[0].mainline_moves()) == 4


async def test_an_unusable_data_folder_is_said_once(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = home / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    app = app_for(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4", "f6", "g5", "d4", "e5")
        app.flush_autosave()
        await settle(pilot)
        failed = [n for n in notes(app) if n.startswith("Autosave failed")]
        assert len(failed) == 1 and "Not a directory" in failed[0] and "\n" not in failed[0]
        assert game_screen(app).controller.move_list() == ["c3-d4", "f6-g5", "d4-e5"]


# -- saving by hand ----------------------------------------------------------------------


async def save_as(pilot, name: str | None = None) -> Path:  # type: ignore[no-untyped-def]
    """Press s, optionally type a name, press Enter; returns the name suggested."""
    app = pilot.app
    await press(pilot, "s")
    assert isinstance(app.screen, TextPrompt)
    box = app.screen.query_one(Input)
    suggested = Path(box.value)
    if name is not None:
        box.value = name
    await press(pilot, "enter")
    await settle(pilot)
    return suggested


async def test_the_suggested_name_is_always_new_and_replacing_asks(home: Path) -> None:
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
        first = await save_as(pilot)
        assert re.fullmatch(r"russian-\d{4}-\d\d-\d\d-\d{4}\.pdn", first.name)
        assert first.parent == home / "data" / "shashki" / "games" and first.is_file()
        saved = first.read_bytes()
        # a second game (or the same one later) is never offered the same name
        second = await save_as(pilot, name="")
        assert second != first and not second.exists()
        # naming an existing file asks first; no leaves it as it was
        await keys_play(pilot, "f6", "g5")
        await press(pilot, "s")
        app.screen.query_one(Input).value = first.name
        await press(pilot, "enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert f"{first} already exists" in app.screen.question
        await press(pilot, "n")
        await settle(pilot)
        assert first.read_bytes() == saved
        assert any(n.startswith(f"Not saved: {first} is left as it was") for n in notes(app))
        # yes replaces it with the game as it is now
        await save_as(pilot, name=str(first))
        await press(pilot, "y")
        await settle(pilot)
        [record] = list(read_file(first))
        assert len(record.mainline_moves()) == 2
        assert isinstance(app.screen, GameScreen)


async def test_a_failed_save_says_why_in_one_line(home: Path) -> None:
    folder = home / "a-folder.pdn"
    folder.mkdir()
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
        for name, why in (
            (str(home / "missing" / "x.pdn"), "No such file or directory"),
            (str(folder), "a folder, not a file"),
            ("~no-such-user-here/x.pdn", "home directory"),
        ):
            await save_as(pilot, name=name)
            [note] = [n for n in notes(app) if n.startswith("Not saved")][-1:]
            assert why in note and "\n" not in note, note
            assert isinstance(app.screen, GameScreen)
        assert game_screen(app).controller.move_list() == ["c3-d4"]


async def test_a_save_over_a_link_is_refused_and_said(home: Path) -> None:
    """Issue 23: a name that is a link (to any file of the user's) is refused in one line
    at once, without asking to replace it; neither the link nor its file changes.  A
    saved-games folder that is a link is not saved into either."""
    target = home / "precious.txt"
    target.write_text("the user's own words\n")
    games = home / "data" / "shashki" / "games"
    games.mkdir(parents=True)
    (games / "linked.pdn").symlink_to(target)
    app = make_app(home, variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        await keys_play(pilot, "c3", "d4")
        await save_as(pilot, name="linked.pdn")
        assert isinstance(app.screen, GameScreen)  # no "replace it?"
        [note] = [n for n in notes(app) if n.startswith("Not saved")]
        assert "a link, not a file" in note and "\n" not in note
        assert (games / "linked.pdn").is_symlink()
        (games / "linked.pdn").unlink()
        games.rmdir()
        elsewhere = home / "elsewhere"
        elsewhere.mkdir()
        games.symlink_to(elsewhere)
        await save_as(pilot, name="new.pdn")
        last = [n for n in notes(app) if n.startswith("Not saved")][-1]
        assert "a link, not a folder" in last
        assert list(elsewhere.iterdir()) == []
    assert target.read_text() == "the user's own words\n"


def test_when_text() -> None:
    now = time.mktime((2026, 12, 1, 14, 32, 0, 0, 0, -1))
    assert when_text(now - 60, now) == "today 14:31"
    assert when_text(now - 86400, now) == "yesterday 14:32"
    assert when_text(now - 3 * 86400, now) == "2026-11-28 14:32"
