"""The computer in the app: a person against the computer, undo while it thinks (a stale
answer is never played), the hint key, computer against computer, the new-game dialog."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from shashki.app.board import BoardWidget
from shashki.app.computer import Computer
from shashki.app.controller import Player
from shashki.app.game_screen import GameScreen
from shashki.app.menu import NewGameScreen
from shashki.app.players import TOP_LEVEL, player_kinds
from shashki.engine import LEVELS
from shashki.engine.limits import Limit
from shashki.hub.player import make_player
from shashki.i18n import set_language
from shashki.rules import Color, Game, Move
from shashki.session import AsyncioExecutor
from shashki.session.seats import PERSON, LevelSeat

from .conftest import game_screen, keys_play, make_app, press, settle, status
from .conftest import wait_for as conftest_wait_for

SIZE = (100, 32)


async def wait_for(
    pilot: Pilot[None], condition: Callable[[], object], what: str = "", **kwargs: Any
) -> None:
    """:func:`tests.app.conftest.wait_for`, looking every 20 ms: while the computer keeps
    moving, the move list's rows are replaced faster than the pilot's wait for every
    widget to go idle settles."""
    kwargs.setdefault("step", 0.02)
    await conftest_wait_for(pilot, condition, what, **kwargs)


@dataclass
class Searches:
    """The computer's searches (the work the app's executor runs away from its loop),
    counted as they start and end: a test waits for a search to have ended, not for a
    time."""

    started: int = 0
    ended: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def over(self) -> bool:
        with self.lock:
            return self.started == self.ended


@pytest.fixture(autouse=True)
def searches(monkeypatch: pytest.MonkeyPatch) -> Searches:
    counted = Searches()
    submit = AsyncioExecutor.submit

    def counted_submit(executor: AsyncioExecutor, work: Callable[[], None]) -> None:
        def counted_work() -> None:
            try:
                work()
            finally:
                with counted.lock:
                    counted.ended += 1

        with counted.lock:
            counted.started += 1
        submit(executor, counted_work)

    monkeypatch.setattr(AsyncioExecutor, "submit", counted_submit)
    return counted


async def stop(pilot: Pilot[None], searches: Searches) -> None:
    """Stop the computer before the app closes (its game is left), and wait for its
    searches to end."""
    for screen in pilot.app.screen_stack:
        if isinstance(screen, GameScreen):
            screen.controller.session.close()
    await wait_for(pilot, searches.over, "the searches ended")


def test_every_level_is_a_kind_of_player() -> None:
    keys = [key for _label, key in player_kinds(engines=[])]
    assert keys[0] == "human"
    assert keys[1:-2] == [f"computer-{n}" for n in LEVELS]
    assert keys[-2] == "hub-other"  # then a Hub engine of a command typed in the dialog
    assert keys[-1] == "online"  # and a friend online (this side hosts)
    assert len(keys[1:-2]) == len(LEVELS) == TOP_LEVEL == 8
    player = make_player(LevelSeat(3), "Bob")
    assert isinstance(player, Computer) and isinstance(player, Player)
    assert not player.is_human and player.level == 3 and player.name == "Bob"
    labels = [label for label, _key in player_kinds(engines=[])]
    assert "Computer, level 1 (beginner)" in labels and "Computer, level 8 (strongest)" in labels


def hold_the_computer(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The computer's answer waits until the event returned is set (level 1 answers at
    once: on a busy machine it could answer before the test looked)."""
    go_on = threading.Event()
    real_think = Computer.think

    def held_think(
        player: Computer, game: Game, limit: Limit, cancelled: Callable[[], bool]
    ) -> Move | None:
        while not go_on.wait(0.01) and not cancelled():
            pass
        return real_think(player, game, limit, cancelled)

    monkeypatch.setattr(Computer, "think", held_think)
    return go_on


async def test_the_status_calls_an_unnamed_computer_a_computer_in_the_language(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer seated with no name of its own is called by its side ("Black"); the
    status line's sentence calls it the computer, in the language spoken ("Думає
    Комп’ютер 1…"), never by the side's English name."""
    go_on = hold_the_computer(monkeypatch)
    set_language("uk")
    try:
        app = make_app(home)
        async with app.run_test(size=SIZE) as pilot:
            ctl = app.start_game("russian", kinds=(PERSON, LevelSeat(1)))
            await settle(pilot)
            assert ctl.session.players[1].name == "Black"  # (called by its side)
            try:
                await keys_play(pilot, "c3", "d4")
                assert "Комп’ютер 1" in status(app) and "Black" not in status(app)
            finally:
                go_on.set()
            await conftest_wait_for(pilot, lambda: len(ctl.game.move_stack) == 2)
    finally:
        set_language("en")


async def test_a_person_plays_the_computer(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the computer's answer waits until the test has seen it thinking (level 1 answers at
    # once: on a busy machine it could answer before the test looked)
    go_on = hold_the_computer(monkeypatch)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=(PERSON, LevelSeat(1)))
        await settle(pilot)
        screen = game_screen(app)
        assert ctl.game.turn is Color.WHITE and ctl.session.player_to_move.is_human
        try:
            await keys_play(pilot, "c3", "d4")
            assert len(ctl.game.move_stack) == 1
            assert "thinking" in status(app)
        finally:
            go_on.set()
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 2)
        assert ctl.session.player_to_move.is_human
        reply = ctl.game.move_stack[1]
        # the reply was legal where it was played
        before = Game("russian")
        before.push(ctl.game.move_stack[0])
        assert reply in before.legal_moves()
        assert screen.board.controller is ctl


async def test_undo_while_the_computer_thinks_cancels_the_search(
    home: Path, searches: Searches
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=(PERSON, PERSON))
        # a computer that thinks an hour
        ctl.session.players = (ctl.session.players[0], Computer(8, seconds=3600.0))
        await settle(pilot)
        await keys_play(pilot, "c3", "d4")
        assert len(ctl.game.move_stack) == 1
        await wait_for(pilot, lambda: ctl.session.thinking is not None, "the search started")
        await press(pilot, "u")
        await settle(pilot)
        assert ctl.game.move_stack == [] and ctl.session.player_to_move.is_human
        # the search stops (an hour before its time), and what it found is not played
        await wait_for(pilot, searches.over, "the search ended")
        await settle(pilot)
        assert ctl.game.move_stack == [], "a cancelled search must not play"


async def test_the_hint_key_suggests_a_legal_move(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", fen="W:Wc3,g3:Bd4,f6,b6")
        await settle(pilot)
        screen = game_screen(app)
        await press(pilot, "i")
        await wait_for(pilot, lambda: screen.hint is not None)
        assert screen.hint in ctl.game.legal_moves()
        assert status(app).startswith("Hint: ")
        assert ctl.game.move_stack == []  # shown, not played
        assert screen.board.cursor == screen.hint.start


async def test_computer_against_computer(
    home: Path, monkeypatch: pytest.MonkeyPatch, searches: Searches
) -> None:
    monkeypatch.setattr(GameScreen, "MIN_MOVE_DELAY", 0.05)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("english", kinds=(LevelSeat(1), LevelSeat(2)))
        await wait_for(pilot, lambda: len(ctl.game.move_stack) >= 6)
        game = Game("english")
        for mv in ctl.game.move_stack:
            game.push(mv)  # every move was legal
        await stop(pilot, searches)


async def test_the_new_game_dialog_seats_the_computer(home: Path, searches: Searches) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # the first variant of the menu
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#kind0", Select).value = "computer-1"
        dialog.query_one("#kind1", Select).value = "computer-1"
        await settle(pilot)
        dialog.query_one("#play").press()
        await settle(pilot)
        ctl = game_screen(app).controller
        assert all(not p.is_human for p in ctl.session.players)
        await wait_for(pilot, lambda: len(ctl.game.move_stack) >= 2)
        await stop(pilot, searches)


async def test_a_game_against_the_computer_resumes_with_the_computer(
    home: Path, searches: Searches
) -> None:
    app = make_app(home, variant="russian", kinds=(PERSON, LevelSeat(1)), autosave=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ctl = game_screen(app).controller
        assert isinstance(ctl.session.players[1], Computer) and ctl.session.players[1].level == 1
        await keys_play(pilot, "c3", "d4")
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 2)
        moves = list(ctl.game.move_stack)
        await stop(pilot, searches)
    app.flush_autosave()
    again = make_app(home, autosave=True, offer_resume=True)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "enter")  # the one unfinished game of the list
        await settle(pilot)
        ctl = game_screen(again).controller
        assert ctl.game.move_stack == moves
        assert ctl.session.players[0].is_human
        assert isinstance(ctl.session.players[1], Computer) and ctl.session.players[1].level == 1
        # any move of White's (Black's random reply may have made a capture compulsory)
        legal = ctl.game.legal_moves()
        move = next(m for m in legal if sum(n.end == m.end for n in legal) == 1)
        geo = ctl.variant.board
        await keys_play(pilot, geo.name(move.start), geo.name(move.end))
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 4)  # it answers again
        await stop(pilot, searches)


async def test_the_computers_multi_capture_is_shown_jump_by_jump(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Black (the computer) must take e5 and c3 (f6:d4:b2): the board shows the first jump
    alone, then the position after the move."""
    monkeypatch.delenv("TEXTUAL_ANIMATIONS", raising=False)
    # every drawing of every board is seen from the start: the computer may move before
    # the test gets the screen (a race with the wall clock, lost on a busy machine)
    shown: list[object] = []
    redraw = BoardWidget.refresh

    def spy(self: BoardWidget, *args: Any, **kwargs: Any) -> BoardWidget:
        shown.append(getattr(self, "partial", None))
        return redraw(self, *args, **kwargs)

    monkeypatch.setattr(BoardWidget, "refresh", spy)
    app = make_app(home, variant="russian", fen="B:We5,c3,h2:Bf6", kinds=(PERSON, LevelSeat(1)))
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await wait_for(pilot, lambda: screen.controller.game.move_stack != [])
        played = screen.controller.game.move_stack[0]
        assert len(played.path) == 3
        await wait_for(pilot, lambda: screen.board.partial is None)
        assert (played, 1) in shown and shown[-1] is None
