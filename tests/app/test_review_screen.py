"""The review on screen (issue 47, items 1 and 3), driven as a user would: a reviewed record
opens with its review read back (no analysis), its key moment and its graph jump to the
move; r reviews a game in worker processes while it can be stepped through; the end of a
game offers the review; learn from your mistakes finds the better move with a hint; the
board editor sets up a position by keys and the mouse, says why it cannot be played, and
plays it; snapshots of the review at 80x24 and 120x40."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from shashki.app.app import ShashkiApp
from shashki.app.board import BoardWidget
from shashki.app.editor import EditorScreen
from shashki.app.game_screen import GameScreen
from shashki.app.graph import EvalGraph
from shashki.app.learn import LearnScreen
from shashki.app.menu import MenuScreen
from shashki.app.replay import ReplayScreen
from shashki.records import read_file
from shashki.store.studies import Origin

from .conftest import cell_offset, make_app, screen_made, wait_for

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

#: A game reviewed by shashki (``--depth quick``): White's first move gives four men
#: away; the engine preferred g3-h4.
REVIEWED = """\
[Event "Review test"]
[White "Anna"]
[Black "Boris"]
[Result "*"]
[GameType "25,W,8,8,A0,0"]
[SetUp "1"]
[FEN "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1:Bb8,d8,f8,h8,a7,g7,b6,d6,h6,a5,g5:H0:F5"]
[Annotator "shashki review"]

{[%eval -0.07]} 5. e3-f4?? {[%eval -4.61] [%best g3-h4]} g5:g1 {[%eval -4.76]}
6. c3-b4 {[%eval -4.67]} a5:c3 {[%eval -4.77]} 7. d2:b4 {[%eval -4.71]} h6-g5
{[%eval -4.82] [%best b6-a5]} 8. b2-c3 {[%eval -4.90] [%best c1-d2]} g1-c5
{[%eval -4.75]} *
"""

SHORT = """\
[White "Anna"]
[Black "Boris"]
[Result "*"]
[GameType "25"]

1. c3-d4 f6-g5 2. g3-h4 b6-c5 3. d4:b6 a7:c5 *
"""


def write(tmp_path: Path, text: str, name: str = "game.pdn") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def replay(app: ShashkiApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen), f"expected the replay screen, not {app.screen!r}"
    return app.screen


def said(screen: object, widget_id: str) -> str:
    return str(screen.query_one(f"#{widget_id}", Static).content)  # type: ignore[attr-defined]


async def test_a_reviewed_record_opens_with_its_review(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, REVIEWED)
    app = make_app(home, replay=path, game_number=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_made(pilot, ReplayScreen)
        view = replay(app)
        assert view.review is not None and view.review.complete and view.job is None
        assert view.has_class("-review")
        summary = said(view, "review-summary")
        assert "White (Anna)" in summary and "??1" in summary
        moments = view.query_one("#moments", OptionList)
        assert moments.option_count == 1
        assert "5. e3-f4??" in str(moments.get_option_at_index(0).prompt)
        # the key moment chosen: the board shows the position after the blunder
        await pilot.press("tab")  # from the board to the list, its first moment highlighted
        assert app.focused is moments
        await pilot.press("enter")
        await wait_for(pilot, lambda: view.replay.node.ply() == 1, "the key moment shown")
        assert "Blunder." in said(view, "comment") and "Best was g3-h4." in said(view, "comment")
        # a click on the graph's right end: the last move
        graph = view.query_one(EvalGraph)
        assert graph.values and graph.current == 1
        await pilot.click(EvalGraph, offset=(graph.size.width - 1, 2))
        await wait_for(pilot, lambda: view.replay.node.ply() == 8, "the graph's last move")
        assert graph.current == 8


async def test_r_reviews_a_game_while_it_is_stepped_through(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, SHORT)
    app = make_app(home, replay=path, game_number=1)
    async with app.run_test(size=(120, 40)) as pilot:
        app.settings.review_depth = "quick"
        await screen_made(pilot, ReplayScreen)
        view = replay(app)
        assert view.review is None and not view.has_class("-review")
        await pilot.press("r")
        await wait_for(pilot, lambda: view.has_class("-review"), "the review panel")
        await pilot.press("right", "right")  # stepping goes on meanwhile
        await wait_for(pilot, lambda: view.replay.node.ply() == 2, "two moves on")
        await wait_for(
            pilot,
            lambda: view.review is not None and view.review.complete and not view.job.running,  # type: ignore[union-attr]
            "the review done",
            timeout=600,
        )
        review = view.review
        assert review is not None
        assert review.accuracy(0) is not None and review.accuracy(1) is not None
        assert "accuracy" in said(view, "review-summary")
        # written into the record: an evaluation after every move, the study changed
        record = view.replay.record
        assert all("[%eval" in " ".join(n.comments) for n in record.mainline())
        assert view.replay.changed


async def test_the_end_of_a_game_offers_its_review(home: Path) -> None:
    from shashki.app.dialogs import GameOverScreen

    app = make_app(home, variant="russian", fen="W:Wc3:Bd4")
    async with app.run_test(size=(120, 40)) as pilot:
        app.settings.review_depth = "quick"
        await screen_made(pilot, GameScreen)
        await pilot.press("colon", *"c3:e5", "enter")
        await screen_made(pilot, GameOverScreen)
        await pilot.press("r")
        await screen_made(pilot, ReplayScreen)
        view = replay(app)
        assert view.has_class("-review") and view.origin.player_side == 0
        await wait_for(
            pilot, lambda: view.review is not None and view.review.complete, "reviewed", timeout=600
        )


async def test_learn_from_mistakes(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, REVIEWED)
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        [record] = read_file(path)
        # a game of the player's, Anna's (White): as My games opens it
        app.open_record(record, source="mine", origin=Origin(player_side=0))
        await screen_made(pilot, ReplayScreen)
        await pilot.press("L")
        await screen_made(pilot, LearnScreen)
        learn = app.screen
        assert isinstance(learn, LearnScreen) and len(learn.tasks) == 1
        assert "e3-f4??" in said(learn, "task")
        # the move of the game again: refused
        await pilot.press("colon", *"e3-f4", "enter")
        await wait_for(pilot, lambda: "move of the game" in said(learn, "verdict"), "refused")
        # a hint: the piece; then the engine's move, found
        await pilot.press("h")
        await wait_for(pilot, lambda: "g3" in said(learn, "task"), "the hint")
        await pilot.press("colon", *"g3-h4", "enter")
        await wait_for(pilot, lambda: learn.current.solved, "solved")
        assert "engine's move" in said(learn, "verdict")
        await pilot.press("escape")
        await screen_made(pilot, ReplayScreen)


async def test_learning_needs_the_player_s_own_game(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, REVIEWED)
    app = make_app(home, replay=path, game_number=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_made(pilot, ReplayScreen)
        await pilot.press("L")
        await wait_for(pilot, lambda: any("own games" in n for n in app.notices), "told why")
        assert isinstance(app.screen, ReplayScreen)


async def test_the_board_editor(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_made(pilot, MenuScreen)
        menu = app.screen
        variants = menu.query_one("#variants", OptionList)
        ids = [variants.get_option_at_index(i).id for i in range(variants.option_count)]
        variants.highlighted = ids.index("russian")
        await pilot.press("e")
        await screen_made(pilot, EditorScreen)
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        setup = editor.setup
        await pilot.press("c")  # an empty board
        await wait_for(pilot, lambda: not setup.squares, "cleared")
        assert "The board is empty." in said(editor, "problems")
        # a white king by its key at the cursor, a black man by the mouse
        editor.board.cursor = setup.square("c3")
        await pilot.press("W")
        await wait_for(pilot, lambda: setup.squares.get(setup.square("c3")) == "W", "the king")
        await pilot.press("shift+tab")  # the list: white man, black man, white king…
        offset = cell_offset(editor.board, setup.square("f6"))
        await pilot.click(BoardWidget, offset=offset)
        await wait_for(pilot, lambda: setup.squares.get(setup.square("f6")) == "b", "the man")
        assert "Ready" in said(editor, "problems")
        # a man on its crowning row: refused, in words
        editor.board.cursor = setup.square("b8")
        await pilot.press("w")
        await wait_for(pilot, lambda: "crowning row" in said(editor, "problems"), "refused")
        await pilot.press("x")
        await wait_for(pilot, lambda: "Ready" in said(editor, "problems"), "taken off")
        await pilot.press("t")  # Black to move
        await wait_for(pilot, lambda: setup.turn == 1, "Black to move")
        await pilot.press("p")
        await screen_made(pilot, GameScreen)
        game = app.screen.controller.game  # type: ignore[attr-defined]
        assert game.fen().startswith("B:WKc3:Bf6")


async def test_a_position_set_up_is_played_against_the_computer(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await screen_made(pilot, MenuScreen)
        await pilot.press("e")
        await screen_made(pilot, EditorScreen)
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        await pilot.press("t")  # the other side moves first: the player has it
        await wait_for(pilot, lambda: editor.setup.turn == 1, "the other side to move")
        await pilot.press("m")
        await screen_made(pilot, GameScreen)
        session = app.screen.controller.session  # type: ignore[attr-defined]
        assert [p.is_human for p in session.players] == [False, True]
        assert int(session.game.turn) == 1


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_review(snap_compare, home: Path, tmp_path: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, REVIEWED, "reviewed.pdn")

    async def to_the_blunder(pilot) -> None:  # type: ignore[no-untyped-def]
        await screen_made(pilot, ReplayScreen)
        await pilot.press("right")
        await wait_for(pilot, lambda: replay(pilot.app).replay.node.ply() == 1, "the blunder")

    app = make_app(home, replay=path, game_number=1)
    assert snap_compare(app, terminal_size=size, run_before=to_the_blunder)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_editor(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def editor(pilot) -> None:  # type: ignore[no-untyped-def]
        from shashki.rules import find_variant

        await screen_made(pilot, MenuScreen)
        pilot.app.push_screen(EditorScreen(find_variant("bashni"), "W:Wc3,e5=bbw:Bd4,f6=wB"))
        await screen_made(pilot, EditorScreen)

    assert snap_compare(make_app(home), terminal_size=size, run_before=editor)
