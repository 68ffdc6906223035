"""Analysis on demand (e) in a game and in the replay viewer, and copying the FEN (y) and
the game's PDN (Y) to the clipboard."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Static

from shashki.app.analysis import AnalysisPanel, bar, score_words
from shashki.app.replay import ReplayScreen
from shashki.engine.search import WIN
from shashki.records.reader import read_games_text
from shashki.rules import Color
from shashki.session.seats import PERSON

from .conftest import game_screen, keys_play, make_app, press, screen_made, settle
from .test_computer import wait_for

SIZE = (100, 32)


def shown(panel: AnalysisPanel) -> str:
    return str(panel.content)


def depth(panel: AnalysisPanel) -> int:
    """The depth the panel shows (0 while none)."""
    found = re.search(r"depth (\d+)", shown(panel))
    return int(found.group(1)) if found else 0


def test_scores_and_the_bar_are_white_s() -> None:
    assert score_words(35, Color.WHITE) == "+0.35"
    assert score_words(35, Color.BLACK) == "-0.35"
    # the winner's moves, as players count them (7 plies: Black moves 4 times)
    assert score_words(WIN - 7, Color.BLACK) == "Black wins in 4 moves"
    assert score_words(WIN - 1, Color.WHITE) == "White wins in 1 move"
    assert bar(0, Color.WHITE) == "█" * 10 + "░" * 10
    assert bar(500, Color.WHITE) == "█" * 20 and bar(500, Color.BLACK) == "░" * 20
    assert bar(WIN - 3, Color.WHITE) == "█" * 20


async def test_analysis_follows_the_game_and_stops_when_turned_off(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=(PERSON, PERSON))
        await settle(pilot)
        panel = game_screen(app).query_one(AnalysisPanel)
        assert not panel.display
        await press(pilot, "e")
        assert panel.display
        await wait_for(pilot, lambda: depth(panel) >= 3)
        first_line = shown(panel).splitlines()[-1]
        assert first_line.split()[0][1] == "3"  # White's move first: from the third rank
        await keys_play(pilot, "c3", "d4")  # a new position: analysed afresh, Black's moves
        await wait_for(pilot, lambda: depth(panel) >= 3 and shown(panel).splitlines()[-1][1] == "6")
        assert len(ctl.game.move_stack) == 1
        await press(pilot, "e")
        await settle(pilot)
        assert not panel.display and not panel.on
        assert not [w for w in panel.workers if w.group == "analysis" and w.is_running]


async def test_the_fen_and_the_pdn_go_to_the_clipboard(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("russian", kinds=(PERSON, PERSON))
        await settle(pilot)
        await keys_play(pilot, "c3", "d4")
        await press(pilot, "y")
        assert app.clipboard == ctl.game.fen()
        await press(pilot, "Y")
        (record,) = read_games_text(app.clipboard)
        assert record.ok and len(record.mainline_moves()) == 1
        assert record.variant is not None and record.variant.id == "russian"


async def test_analysis_in_the_replay_viewer(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text('[GameType "25"]\n\n1. c3-d4 f6-g5 2. g3-h4 *\n', encoding="utf-8")
    app = make_app(home, replay=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, ReplayScreen)
        view = app.screen
        assert isinstance(view, ReplayScreen)
        panel = view.query_one(AnalysisPanel)
        await press(pilot, "e")
        await wait_for(pilot, lambda: depth(panel) >= 2)
        assert shown(panel).splitlines()[-1][1] == "3"  # the start: White to move
        await press(pilot, "right")
        await wait_for(pilot, lambda: depth(panel) >= 2 and shown(panel).splitlines()[-1][1] == "6")
        await press(pilot, "y")
        assert app.clipboard == view.replay.controller.game.fen()
        assert str(view.query_one("#where", Static).content)


async def test_an_ending_the_tables_hold_drawn_is_said_a_draw(home: Path) -> None:
    from shashki.engine import endings
    from shashki.rules import Game

    # a king and a man against a king on the big board, the man far from its crown: the
    # table (made here) holds it a draw
    fen = "W:WK47,36:BK28"
    game = Game("international", fen)
    exact = endings.perfect_moves(game)
    assert exact is not None and exact[0] == 0
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("international", kinds=(PERSON, PERSON), fen=fen)
        await settle(pilot)
        panel = game_screen(app).query_one(AnalysisPanel)
        await press(pilot, "e")
        await wait_for(pilot, lambda: "a draw (ending database)" in shown(panel))
