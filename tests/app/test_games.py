"""Short games of every group of variants played to their end, once by keys and once by
mouse clicks, each from a position near the end; the game-over dialog must name the rule.

Classic: a Russian draw by FMJD-64 7.2.5 (keys) and an International win (clicks, 10x10).
Orthogonal: a Turkish win (keys) and a Turkish draw, one piece against one (clicks).
Family: Wolf and Sheep's two goals, the wolf on rank 8 (keys) and the wolf shut in (clicks).
Modified: giveaway's inverted win (keys) and a double-move turn that wins (clicks).
"""

from __future__ import annotations

from pathlib import Path

from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen
from shashki.rules import Color, Termination

from .conftest import (
    clicks_play,
    game_over_text,
    game_screen,
    keys_play,
    make_app,
    panel,
    press,
    wait_for,
)

SIZE = (100, 32)


async def test_classic_by_keys_russian_draw_by_the_15_king_moves_rule(home: Path) -> None:
    app = make_app(home, variant="russian", fen="W:WKh2,a3,c3:BKa7,h6:H28")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "h2", "g1")
        assert ctl.move_list() == ["h2-g1"] and ctl.session.outcome is None
        await keys_play(pilot, "a7", "b8")
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.MOVE_LIMIT and out.winner is None
        text = await game_over_text(pilot)
        assert text.startswith("Draw") and "7.2.5" in text and "only kings moving" in text
        assert "Game over" in panel(app, "turn")


async def test_classic_by_clicks_international_win(home: Path) -> None:
    app = make_app(home, variant="international", fen="W:W28:B23")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await clicks_play(pilot, "28", "19")
        assert ctl.move_list() == ["28x19"]
        out = ctl.session.outcome
        assert out is not None and out.winner is Color.WHITE
        assert out.termination is Termination.NO_LEGAL_MOVES
        assert await game_over_text(pilot) == "White wins: Black has no pieces left."


async def test_orthogonal_by_keys_turkish_win(home: Path) -> None:
    app = make_app(home, variant="turkish", fen="W:Wd4,a2:Bd5")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "d4", "d6")
        assert ctl.move_list() == ["d4xd6"]
        assert ctl.session.outcome is not None and ctl.session.outcome.winner is Color.WHITE
        assert await game_over_text(pilot) == "White wins: Black has no pieces left."
        # Escape closes the dialog and leaves the final position on show
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen) and app.screen.controller is ctl
        assert panel(app, "turn").startswith("Game over. White wins")


async def test_orthogonal_by_clicks_turkish_draw_one_piece_against_one(home: Path) -> None:
    app = make_app(home, variant="turkish", fen="W:Wd4:Bd5,h8")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await clicks_play(pilot, "d4", "d6")
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.MATERIAL and out.winner is None
        assert await game_over_text(pilot) == "Draw: 1 man against 1 man on the board."
        # u: the capture is taken back from the dialog, and the game is on again
        await press(pilot, "u")
        assert isinstance(app.screen, GameScreen)
        assert ctl.session.outcome is None and ctl.game.move_stack == []


async def test_family_by_keys_the_wolf_reaches_rank_8(home: Path) -> None:
    app = make_app(home, variant="wolf-sheep", fen="W:WKf6:Ba7,c7,e7,g5")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "f6", "g7", "a7", "b6", "g7", "h8")
        assert ctl.move_list() == ["f6-g7", "a7-b6", "g7-h8"]
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.GOAL and out.winner is Color.WHITE
        assert await game_over_text(pilot) == "Wolf wins: the wolf reached the far row."
        # n: a new game, from the menu
        await press(pilot, "n")
        assert isinstance(app.screen, MenuScreen)


async def test_family_by_clicks_the_sheep_shut_the_wolf_in(home: Path) -> None:
    app = make_app(home, variant="wolf-sheep", fen="B:WKa1:Bc3,h8")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await clicks_play(pilot, "c3", "b2")
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.NO_LEGAL_MOVES
        assert out.winner is Color.BLACK
        assert await game_over_text(pilot) == "Sheep wins: Wolf has no legal move."


async def test_modified_by_keys_giveaway_is_won_by_losing_every_piece(home: Path) -> None:
    app = make_app(home, variant="giveaway", fen="W:Wc3:Bd4")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "c3", "e5")
        out = ctl.session.outcome
        # White took Black's last piece, so Black, who has nothing left, wins
        assert out is not None and out.winner is Color.BLACK
        assert await game_over_text(pilot) == "Black wins: Black has no pieces left."
        # q: quit at once (the game is over, nothing to confirm)
        await press(pilot, "q")
        await wait_for(pilot, lambda: not app.is_running, "the app's end")


async def test_modified_by_clicks_a_double_move_turn_wins(home: Path) -> None:
    app = make_app(home, variant="double-move", fen="W:Wc3:Be5")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        assert "move 1 of 2" in panel(app, "turn")
        await clicks_play(pilot, "c3", "d4")
        assert ctl.game.turn is Color.WHITE and "move 2 of 2" in panel(app, "turn")
        await clicks_play(pilot, "d4", "f6")
        assert ctl.move_list() == ["c3-d4", "d4xf6"]
        out = ctl.session.outcome
        assert out is not None and out.winner is Color.WHITE
        assert await game_over_text(pilot) == "White wins: Black has no pieces left."
