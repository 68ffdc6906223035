"""A new game in the app draws the lot of a variant that draws its start (Artamonov's
first mover) and records it: the game's tags name the start and the seed, and a start
other than the variant's own is written as a FEN, so the record replays from it.  A game
object made without a seed starts from the default, every time.  And a game won by a
goal shows its end."""

from __future__ import annotations

from pathlib import Path

from shashki.app.app import ShashkiApp
from shashki.app.game_screen import GameScreen
from shashki.app.menu import NewGameScreen
from shashki.records.model import GameRecord
from shashki.records.reader import read_games_text
from shashki.records.writer import write_game
from shashki.rules import Color, Game, Termination, find_variant

from .conftest import (
    click_widget,
    game_over_text,
    game_screen,
    keys_play,
    make_app,
    settle,
    wait_for,
)

SIZE = (100, 32)
NORTH_SEED = 0  # random.Random(0) draws North
SOUTH_SEED = 1


def record_text(app: ShashkiApp) -> str:
    ctl = game_screen(app).controller
    return write_game(GameRecord.from_game(ctl.game, app.headers(ctl)))


def replayed_start(text: str) -> Game:
    (record,) = read_games_text(text)
    return record.start()


def test_a_game_object_without_a_seed_starts_from_the_default() -> None:
    for _ in range(20):
        game = Game("artamonov")
        assert game.start_label == "South" and game.seed is None
        assert game.fen() == Game("artamonov", start="South").fen()
    assert Game("artamonov", seed=NORTH_SEED).start_label == "North"
    assert Game("artamonov", seed=SOUTH_SEED).start_label == "South"
    # a seed of any size, negative too
    for seed in (-1, -(10**40), 10**400):
        assert Game("artamonov", seed=seed).start_label == Game("artamonov", seed=seed).start_label
    # a variant that lets the player choose has its default, and no lot
    assert Game("wolf-sheep", seed=5).start_label == "e1"
    assert Game("wolf-sheep", seed=5).seed is None


async def test_the_drawn_start_is_recorded(home: Path) -> None:
    app = make_app(home, variant="artamonov", seed=NORTH_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_screen(app).controller.game
        assert game.start_label == "North" and game.turn is Color.BLACK
        text = record_text(app)
        assert '[StartOption "North"]' in text and f'[LotSeed "{NORTH_SEED}"]' in text
        assert '[SetUp "1"]' in text and f'[FEN "{game.fen()}"]' in text
        assert replayed_start(text).fen() == game.fen()


async def test_a_new_game_draws_its_lot(home: Path) -> None:
    # the game started from the command line without a seed: a seed is drawn, and kept
    app = make_app(home, variant="artamonov")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_screen(app).controller.game
        assert game.seed is not None and game.start_label in ("South", "North")
        assert game.start_label == Game("artamonov", seed=game.seed).start_label
        text = record_text(app)
        assert f'[StartOption "{game.start_label}"]' in text
        assert f'[LotSeed "{game.seed}"]' in text
        assert replayed_start(text).fen() == game.fen()


async def test_the_new_game_dialog_draws_the_lot(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(NewGameScreen(find_variant("artamonov")))
        await settle(pilot)
        await click_widget(pilot, "#play")
        # the game opens a moment later (slower on a loaded machine)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        game = game_screen(app).controller.game
        assert game.seed is not None
        assert game.start_label == Game("artamonov", seed=game.seed).start_label
        assert f'[LotSeed "{game.seed}"]' in record_text(app)


async def test_a_goal_reached_shows_the_end(home: Path) -> None:
    app = make_app(home, variant="wolf-sheep", fen="W:WKg7:Ba5,c5,e5,b8")
    async with app.run_test(size=SIZE) as pilot:
        ctl = game_screen(app).controller
        await keys_play(pilot, "g7", "h8")
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.GOAL
        assert ctl.game.legal_moves() == []
        assert "Wolf wins" in await game_over_text(pilot)
