"""The opening explorer beside the board (x): on a game, the moves played in the
position from the index and My games, Enter plays one, / filters; in a replay, Enter goes
to the record's move, or adds a variation as a move played on the board does; a damaged
index is one line in the panel."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from shashki.app.explorer import ExplorerPanel, move_row
from shashki.app.replay import ReplayScreen
from shashki.store.explorer import Explorer, build, default_index

from ..store.test_explorer import GAMES
from .conftest import game_screen, make_app, press, screen_made, settle, wait_for

SIZE = (100, 32)


def head(panel: ExplorerPanel) -> str:
    return str(panel.query_one("#explorer-head").content)  # type: ignore[attr-defined]


def rows(panel: ExplorerPanel) -> list[str]:
    moves = panel.query_one("#explorer-moves", OptionList)
    return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]


def index_games(home: Path) -> None:
    archive = home / "games.pdn"
    archive.write_text(GAMES, encoding="utf-8")
    with Explorer(default_index(), create=True) as ex:
        build(ex, [archive], workers=1)


def test_a_row_is_move_games_score() -> None:
    assert move_row("c3-d4", 248, 0.5) == "c3-d4       248  50%"
    assert move_row("32-28", 3, None) == "32-28         3    –"


async def test_the_explorer_on_a_game(home: Path) -> None:
    index_games(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=("human", "human"))
        await settle(pilot)
        screen = game_screen(app)
        panel = screen.query_one(ExplorerPanel)
        assert not panel.display
        await press(pilot, "x")
        assert panel.display
        await wait_for(pilot, lambda: "3 games" in head(panel), "the answer shown")
        assert [r.split()[:2] for r in rows(panel)] == [["c3-d4", "2"], ["c3-b4", "1"]]
        assert "Ivanov – Petrov 1-0 1990" in str(panel.query_one("#explorer-games").content)  # type: ignore[attr-defined]
        await press(pilot, "enter")  # the first row: c3-d4, played
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the move played")
        assert ctl.game.move_text(ctl.game.move_stack[0]) == "c3-d4"
        await wait_for(pilot, lambda: "2 games" in head(panel), "the next position's answer")
        assert sorted(r.split()[0] for r in rows(panel)) == ["f6-g5"]
        # the filter: only Sidorov's games, from the start
        ctl.session.undo()
        screen.refresh_panel()
        await wait_for(pilot, lambda: "3 games" in head(panel))
        panel.query_one("#explorer-moves").focus()
        await press(pilot, "slash")
        await settle(pilot)
        await press(pilot, *"Sidorov", "enter")
        await wait_for(pilot, lambda: "Sidorov" in head(panel) and "2 games" in head(panel))
        await press(pilot, "x")
        assert not panel.display and app.focused is screen.board


async def test_the_explorer_in_a_replay_goes_to_the_records_move(home: Path) -> None:
    index_games(home)
    path = home / "one.pdn"
    path.write_text('[GameType "25"]\n\n1. c3-b4 f6-g5 2. b2-c3 *\n', encoding="utf-8")
    app = make_app(home, replay=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, ReplayScreen)
        view = app.screen
        assert isinstance(view, ReplayScreen)
        record = view.replay.record
        panel = view.query_one(ExplorerPanel)
        await press(pilot, "x")
        await wait_for(pilot, lambda: "games" in head(panel))
        panel.query_one("#explorer-moves").focus()
        await press(pilot, "down", "enter")  # c3-b4: the record's own, followed
        await wait_for(pilot, lambda: view.replay.node is not record)
        assert str(view.replay.node.move) == "c3-b4"
        assert len(record.variations) == 1


async def test_the_explorer_in_a_replay_adds_a_variation(home: Path) -> None:
    """A move the record does not have becomes a variation there, as a move played on the
    board does: the record's own line stays the main line, the edit can be undone."""
    index_games(home)
    path = home / "one.pdn"
    path.write_text('[GameType "25"]\n\n1. c3-b4 f6-g5 2. b2-c3 *\n', encoding="utf-8")
    app = make_app(home, replay=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, ReplayScreen)
        view = app.screen
        assert isinstance(view, ReplayScreen)
        record = view.replay.record
        panel = view.query_one(ExplorerPanel)
        await press(pilot, "x")
        await wait_for(pilot, lambda: "games" in head(panel))
        await press(pilot, "enter")  # c3-d4: not this record's move
        await wait_for(pilot, lambda: len(record.variations) == 2, "the variation added")
        assert [str(n.move) for n in record.variations] == ["c3-b4", "c3-d4"]
        assert view.replay.node is record.variations[1]
        assert not any("does not have that move" in n for n in app.notices)
        await wait_for(pilot, lambda: "2 games" in head(panel), "the next position's answer")
        view.board.focus()
        await press(pilot, "ctrl+z")
        await wait_for(pilot, lambda: len(view.replay.record.variations) == 1, "undone")


async def test_a_damaged_index_is_one_line_in_the_panel(home: Path) -> None:
    index = default_index()
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"garbage" * 1000)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("russian", kinds=("human", "human"))
        await settle(pilot)
        panel = game_screen(app).query_one(ExplorerPanel)
        await press(pilot, "x")
        await wait_for(pilot, lambda: "damaged" in head(panel), "the index refused")
        assert "\n" not in head(panel).strip() and rows(panel) == []
        assert index.read_bytes() == b"garbage" * 1000


async def test_a_visitor_is_not_told_where_the_owners_index_is(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.session.served import SERVED_VARIABLE

    monkeypatch.setenv(SERVED_VARIABLE, "1")
    index = default_index()
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"garbage" * 1000)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("russian", kinds=("human", "human"))
        await settle(pilot)
        panel = game_screen(app).query_one(ExplorerPanel)
        await press(pilot, "x")
        await wait_for(pilot, lambda: "damaged" in head(panel), "the index refused")
        assert str(home) not in head(panel) and "explorer.sqlite" in head(panel)


async def test_the_index_is_closed_only_when_no_search_uses_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel leaving (its game closed) while a search of the index runs in its thread
    never closes the index under that search (sqlite3 took the whole process down so in
    CI): the search finishes on an open index and closes it as it leaves."""
    index_games(home)
    asked = threading.Event()
    go_on = threading.Event()
    closed: list[bool] = []
    real_answer = Explorer.answer
    real_close = Explorer.close

    def held_answer(explorer: Explorer, *args: Any, **kwargs: Any) -> Any:
        asked.set()
        go_on.wait(30)
        assert not closed, "the index was closed under a search"
        return real_answer(explorer, *args, **kwargs)

    def close(explorer: Explorer) -> None:
        closed.append(True)
        real_close(explorer)

    monkeypatch.setattr(Explorer, "answer", held_answer)
    monkeypatch.setattr(Explorer, "close", close)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("russian", kinds=("human", "human"))
        await settle(pilot)
        screen = game_screen(app)
        panel = screen.query_one(ExplorerPanel)
        await press(pilot, "x")
        await wait_for(pilot, asked.is_set, "the search under way")
        panel.remove()  # (as when its screen goes)
        await wait_for(pilot, lambda: not panel.is_attached, "the panel gone")
        assert closed == []  # not under the search
        go_on.set()
        await wait_for(pilot, lambda: closed == [True], "the index closed by the search")
