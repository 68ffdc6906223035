"""The game and replay screens in Ukrainian and Russian (issue 16).

Pictures of a game in progress at 80x24 in each language; the side panel and the footer
hold at 80x24 and 60x20 (the main keys, the seats and their clocks); the "why not" of an
illegal move and the end of the game (a draw rule and a goal, named by the variant's
file) in the language; and a change of language in mid-game that keeps the game.
Refresh the pictures with ``--snapshot-update`` after an intended change.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from shashki.app.app import ShashkiApp
from shashki.app.replay import ReplayScreen
from shashki.app.seats import SeatLine
from shashki.i18n import set_language
from shashki.records.clocks import TimeControl
from shashki.rules import Game
from shashki.rules.game import game_state

from .conftest import (
    clicks_play,
    footer_entries,
    footer_shows,
    game_over_text,
    game_screen,
    make_app,
    panel,
    press,
    screen_made,
    settle,
    status,
    wait_for,
)

#: Words that only the language's own screen shows.
TURN = {"uk": "Хід білих", "ru": "Ход белых", "en": "White to move"}
CAPTURE = {"uk": "Бити обов’язково", "ru": "Бить обязательно", "en": "Capture is compulsory"}
SIDES = {"uk": ("Білі", "Чорні"), "ru": ("Белые", "Чёрные"), "en": ("White", "Black")}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


async def typed(pilot: Pilot[None], *moves: str) -> None:
    """Type each move in the move box (':' then the move and Enter)."""
    for move in moves:
        await press(pilot, "colon", *move, "enter")
        await settle(pilot)


async def capture_pending(pilot: Pilot[None]) -> None:
    """1. c3-d4 f6-e5: White must capture; the capturing man on d4 is selected."""
    await settle(pilot)
    await typed(pilot, "c3-d4", "f6-e5")
    await clicks_play(pilot, "d4")


# -- pictures ------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_snapshot_game_in_progress(snap_compare, home: Path, language: str) -> None:  # type: ignore[no-untyped-def]
    """Russian draughts after 1. c3-d4 f6-e5, the capture pending and its piece selected."""
    set_language(language)
    app = make_app(home, variant="russian")
    assert snap_compare(app, terminal_size=(80, 24), run_before=capture_pending)


# -- the layout holds ---------------------------------------------------------------------


def visible_keys(app: ShashkiApp) -> list[str]:
    """The actions of the footer's keys drawn whole inside the screen."""
    width = app.size.width
    out = []
    for key in footer_entries(app.screen):
        region = key.region
        if region.width and region.right <= width and key.action != "app.command_palette":
            out.append(key.action)
    return out


async def footer_and_panel(
    home: Path, language: str, size: tuple[int, int]
) -> tuple[list[str], list[str], str, bool]:
    """A game on a 5+3 clock in progress at ``size``: the footer's whole keys, the seats'
    lines as drawn, the turn, and whether the side panel is shown."""
    set_language(language)
    app = make_app(home, variant="russian", clock=TimeControl(300, 3))
    app.clock_time = lambda: 0.0
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await typed(pilot, "c3-d4", "f6-e5")
        await wait_for(pilot, lambda: {"select", "undo"} <= set(visible_keys(app)), "the keys")
        screen = game_screen(app)
        seats = [seat.render().plain for seat in screen.query(SeatLine)]
        shown = screen.query_one("#side").display and not screen.has_class("-no-side")
        return visible_keys(app), seats, panel(app, "turn"), bool(shown)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
@pytest.mark.parametrize("language", ["uk", "ru"])
async def test_the_footer_and_the_panel_hold(
    home: Path, language: str, size: tuple[int, int]
) -> None:
    english_keys, _, _, english_panel = await footer_and_panel(home, "en", size)
    keys, seats, turn, shown = await footer_and_panel(home, language, size)
    # the main keys whole, help and quit always; longer words drop more of the rest, in
    # the order English drops them (the last first)
    assert {"select", "undo", "help", "quit_game"} <= set(keys), keys
    assert [k for k in english_keys if k in keys] == keys, (keys, english_keys)
    dropped = [k for k in english_keys if k not in keys]
    kept_after = (
        [k for k in english_keys[english_keys.index(dropped[0]) :] if k in keys] if dropped else []
    )
    assert set(kept_after) <= {"help", "quit_game", "command_palette"}, (keys, english_keys)
    assert shown == english_panel
    if shown:
        white, black = SIDES[language]
        assert TURN[language] in turn and CAPTURE[language] in turn, turn
        for line in seats:
            assert "5:00" in line or "5:03" in line, seats  # the clock is whole
        assert any(white in line for line in seats) and any(black in line for line in seats)
        assert not any("…" in line for line in seats), seats


# -- the "why not" and the end of the game -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "uk",
            "Хід «c3-c5» неможливий. "
            "У різновиді «Російські шашки» проста ходить на одне поле по діагоналі вперед",
        ),
        (
            "ru",
            "Ход «c3-c5» невозможен. "
            "В разновидности «Русские шашки» простая ходит на одно поле по диагонали вперёд",
        ),
    ],
)
async def test_an_illegal_move_is_explained_in_the_language(
    home: Path, language: str, words: str
) -> None:
    set_language(language)
    app = make_app(home, variant="russian")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await typed(pilot, "c3-c5")  # straight ahead: not a man's move
        said = status(app)
        # the move typed, then why not: a sentence each (never a capital after a colon)
        assert said.startswith(words), said
        assert "In " not in said and "move" not in said
        assert game_screen(app).controller.game.ply == 0


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("uk", "Нічия: та сама позиція повторилася тричі"),
        ("ru", "Ничья: одна и та же позиция повторилась три раза"),
    ],
)
async def test_a_draw_by_repetition_is_told_in_the_language(
    home: Path, language: str, words: str
) -> None:
    """The draw rule's name comes from the variant's file, the sentence from the catalog."""
    set_language(language)
    app = make_app(home, variant="russian", fen="W:WKc1,h2:BKf8,a7")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await typed(pilot, "c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1")
        await typed(pilot, "e7-f8")  # the start position for the third time
        said = await game_over_text(pilot)
        assert said.startswith(words), said
        assert "FMJD-64 7.2.3" in said and "Draw" not in said


@pytest.mark.parametrize(
    ("language", "wolf_wins", "sheep_win"),
    [
        (
            "uk",
            "Перемога вовка: вовк дійшов до протилежного краю дошки.",
            "Перемога овець: у вовка немає ходів.",
        ),
        (
            "ru",
            "Победа волка: волк дошёл до противоположного края доски.",
            "Победа овец: у волка нет ходов.",
        ),
        ("en", "Wolf wins: the wolf reached the far row.", "Sheep wins: Wolf has no legal move."),
    ],
)
async def test_wolf_and_sheep_end_in_the_language(
    home: Path, language: str, wolf_wins: str, sheep_win: str
) -> None:
    """The goal's name and the sides' names from the file; no verb agrees with a side."""
    set_language(language)
    app = make_app(home, variant="wolf-sheep", fen="W:WKe7:Ba3,c3,e3,g3")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await typed(pilot, "e7-d8")
        assert await game_over_text(pilot) == wolf_wins
        assert panel(app, "turn").endswith(wolf_wins)
    cornered = Game("wolf-sheep", "W:WKa1:Bb2,c3,e3,g3")  # the wolf cannot move
    outcome = cornered.outcome()
    assert outcome is not None
    assert outcome.describe(variant=cornered.variant) == sheep_win


# -- a change of language in mid-game ----------------------------------------------------


async def test_the_game_screen_changes_language_and_keeps_the_game(home: Path) -> None:
    set_language("uk")
    app = make_app(home, variant="russian", clock=TimeControl(300, 3))
    app.clock_time = lambda: 0.0
    async with app.run_test(size=(100, 30)) as pilot:
        await capture_pending(pilot)
        await clicks_play(pilot, "h4")  # not where the capture goes: refused, with the rule
        screen = game_screen(app)
        ctl = screen.controller
        assert "У різновиді «Російські шашки» бити обов’язково" in status(app), status(app)
        before = (ctl.game.fen(), list(ctl.game.move_stack), ctl.selection, screen.board.cursor)
        left = ctl.session.clock.left(ctl.game.turn) if ctl.session.clock else None
        assert screen.sub_title == "Російські шашки"
        await footer_shows(pilot, "Вибір", screen=screen)

        set_language("ru")
        apply = getattr(app, "apply_language", None)
        if apply is not None:
            apply("ru")
        else:
            screen.retranslate()
        await settle(pilot)
        await settle(pilot)

        assert (ctl.game.fen(), list(ctl.game.move_stack), ctl.selection, screen.board.cursor) == (
            before
        )
        assert ctl.session.clock is not None and ctl.session.clock.left(ctl.game.turn) == left
        assert screen.sub_title == "Русские шашки"
        turn = panel(app, "turn")
        assert "Ход белых" in turn and "Бить обязательно" in turn, turn
        assert "В разновидности «Русские шашки» бить обязательно" in status(app), status(app)
        assert "Белые: 12 простых" in panel(app, "info") or "Белые: 12" in panel(app, "info")
        seats = " ".join(seat.render().plain for seat in screen.query(SeatLine))
        assert "Белые" in seats and "Чёрные" in seats and "Білі" not in seats
        assert screen.query_one("#move-input", Input).placeholder.startswith("ход, напр.")
        await footer_shows(pilot, "Выбор", screen=screen)
        keys = [k.description for k in footer_entries(screen)]
        assert "Вибір" not in keys, keys


async def test_the_position_looked_at_is_kept_and_said_again(home: Path) -> None:
    set_language("ru")
    app = make_app(home, variant="russian")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await typed(pilot, "c3-d4", "b6-a5", "g3-h4")
        await press(pilot, "left_square_bracket", "left_square_bracket")
        screen = game_screen(app)
        assert screen.viewing is not None and screen.view_ply == 1
        assert "После 1. c3-d4: [ ] — шаг" in panel(app, "turn")
        set_language("uk")
        screen.retranslate()
        await settle(pilot)
        assert screen.viewing is not None and screen.view_ply == 1
        assert "Після 1. c3-d4: [ ] — крок" in panel(app, "turn")


OWN_GAME = """\
[Event "Replay test"]
[White "Anna"]
[Black "Boris"]
[Result "1-0"]
[GameType "25"]
[TimeControl "300+3"]

1. c3-d4 {[%clk 0:04:58]} f6-e5 {[%clk 0:04:57]} (1... f6-g5 2. g3-h4) 2. d4xf6 1-0
"""


async def test_the_replay_screen_changes_language_and_keeps_its_place(
    home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "game.pdn"
    path.write_text(OWN_GAME, encoding="utf-8")
    set_language("uk")
    app = make_app(home, replay=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await screen_made(pilot, ReplayScreen, "replay")
        view = app.screen
        assert isinstance(view, ReplayScreen)
        await press(pilot, "right")
        await settle(pilot)

        def text(widget: str) -> str:
            return str(view.query_one(f"#{widget}", Static).content)

        assert "Різновид: Російські шашки" in text("tags") and "Білі: Anna" in text("tags")
        where = text("where")
        assert "Після 1. c3-d4" in where and "Хід чорних" in where, where
        assert "Час: Білі 4:58" in where and "Тут 1 варіант: натисніть v" in where, where
        node = view.replay.node
        row = view.query_one("#moves", OptionList).highlighted

        set_language("ru")
        view.retranslate()
        await settle(pilot)
        assert view.replay.node is node
        assert view.query_one("#moves", OptionList).highlighted == row
        assert "Разновидность: Русские шашки" in text("tags") and "Белые: Anna" in text("tags")
        where = text("where")
        assert "После 1. c3-d4" in where and "Ход чёрных" in where, where
        assert "Часы: Белые 4:58" in where and "Здесь 1 вариант: нажмите v" in where, where
        await footer_shows(pilot, "Доиграть", screen=view)


# -- the rules layer's words --------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "uk",
            [
                "Перемога чорних: білі здалися.",
                "Перемога чорних: у білих скінчився час.",
                "Нічия: у білих скінчився час, але чорним нічим виграти.",
                "Нічия: за згодою сторін.",
            ],
        ),
        (
            "ru",
            [
                "Победа чёрных: белые сдались.",
                "Победа чёрных: у белых истекло время.",
                "Ничья: у белых истекло время, но чёрным нечем выиграть.",
                "Ничья: по соглашению сторон.",
            ],
        ),
    ],
)
def test_the_end_of_a_game_is_told_in_the_language(language: str, expected: list[str]) -> None:
    set_language(language)
    games = [Game("russian"), Game("russian"), Game("russian", "W:WKa1:B"), Game("russian")]
    outcomes = [
        games[0].resign(),
        games[1].time_out(),
        games[2].time_out(),
        games[3].agree_draw(),
    ]
    said = [out.describe(variant=game.variant) for out, game in zip(outcomes, games, strict=True)]
    assert said == expected
    # the record's words stay English
    assert outcomes[0].describe(games[0].variant.side_names) == "Black wins: White resigned."


@pytest.mark.parametrize(
    ("language", "why", "panel_line"),
    [
        (
            "uk",
            "У різновиді «Фризькі шашки» ця дамка зробила три ходи поспіль",
            "Дамка на 37 зробила три ходи поспіль: вона може тільки бити",
        ),
        (
            "ru",
            "В разновидности «Фризские шашки» эта дамка сделала три хода подряд",
            "Дамка на 37 сделала три хода подряд: она может только бить",
        ),
    ],
)
def test_a_rule_of_the_generator_is_told_in_the_language(
    language: str, why: str, panel_line: str
) -> None:
    from shashki.rules.explain import why_not_select

    set_language(language)
    game = Game("frisian", "W:W50,K37:B16:+0+337")
    v = game.variant
    assert (why_not_select(game, v.board.parse_square("37")) or "").startswith(why)
    assert v.generator.panel_lines(game_state(game), [], -1, game.legal_moves()) == [panel_line]


def test_a_refusal_is_said_again_in_another_language() -> None:
    from shashki.app.controller import GameController, again

    set_language("uk")
    ctl = GameController(Game("russian"))
    typed_badly = ctl.enter_text("zz").refused
    not_a_man_move = ctl.enter_text("c3-c5").refused
    assert typed_badly == "«zz» — не хід; пишіть так: «c3-d4» або «c3:e5»"
    assert not_a_man_move.startswith("У різновиді «Російські шашки»")
    set_language("ru")
    assert again(typed_badly) == "«zz» — не ход; пишите так: «c3-d4» или «c3:e5»"
    assert again(not_a_man_move).startswith("В разновидности «Русские шашки» простая ходит")
    assert again("plain text") == "plain text"
