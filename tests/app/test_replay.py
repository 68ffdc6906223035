"""The replay viewer (issue 6), driven as a user would: open a file, pick a game from the
table by keys and by the search box, step, jump, auto-play, enter and leave variations,
take over and play on, and the files that go wrong (an illegal move, a position with no
moves, a missing or unreadable file, a file that names no variant).

Positions are checked against FENs computed here with the rules alone (each move found
among the legal moves by its text), not against what the reader built.  The corpus tests
read ../shared/corpora and are skipped where it is absent.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static
from textual.worker import get_current_worker

from shashki.app.app import ShashkiApp
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen
from shashki.app.replay import GameTableScreen, ReplayScreen
from shashki.app.widgets import Select
from shashki.cli import main
from shashki.records import read_file
from shashki.rules import Game
from shashki.rules.notation import move_text

from ..conftest import shared_path
from .conftest import keys_play, make_app, notes, press, screen_made, settle, wait_for

SIZE = (120, 40)

#: One game with a comment before the first move, comments after moves, NAGs, and two
#: variations, the second nested in the first.
OWN_GAME = """\
[Event "Replay test"]
[Site "here"]
[Date "2024.05.01"]
[White "Anna"]
[Black "Boris"]
[Result "1-0"]
[GameType "25"]

{The opening of the test game.}
1. c3-d4 {A classical start.} f6-e5 $2 (1... f6-g5 $1 {The main alternative.} 2. g3-h4
(2. b2-c3 {A nested try.} g7-f6) b6-c5) 2. d4:f6 g7:e5 3. b2-c3 {White develops.} h6-g5
4. g3-h4 1-0
"""
MAIN = ("c3-d4", "f6-e5", "d4:f6", "g7:e5", "b2-c3", "h6-g5", "g3-h4")
FIRST_VARIATION = ("c3-d4", "f6-g5", "g3-h4", "b6-c5")
NESTED = ("c3-d4", "f6-g5", "b2-c3", "g7-f6")

#: Three games, the second with an illegal move at move 3 (c3 is empty after 1. c3-d4).
BROKEN_FILE = """\
[Event "Club"]
[White "Anna"]
[Black "Boris"]
[Result "1-0"]
[GameType "25"]

1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-0

[Event "Club"]
[White "Boris"]
[Black "Clara"]
[Result "0-1"]
[GameType "25"]

1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. c3-d4 h6-g5 0-1

[Event "Club championship of the village of Lower Snoring, spring season, last round"]
[White "Clara"]
[Black "Anna"]
[Result "*"]
[GameType "25"]

1. e3-f4 *
"""

#: A problem: a position and no moves.
PROBLEM = """\
[Event "Problem 1"]
[White "White"]
[Black "Black"]
[GameType "25"]
[SetUp "1"]
[FEN "W:Wc3,e3:Bd6,f6"]
*
"""


# -- helpers ------------------------------------------------------------------------------


def fen_after(variant: str, *texts: str, start: str | None = None) -> str:
    """The FEN after playing ``texts``, each found among the legal moves by its text."""
    game = Game(variant, start) if start else Game(variant)
    for text in texts:
        legal = game.legal_moves()
        found = [m for m in legal if move_text(game.variant, m, legal) == text]
        assert len(found) == 1, (
            f"{text!r} among {[move_text(game.variant, m, legal) for m in legal]}"
        )
        game.push(found[0])
    return game.fen()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def replay(app: ShashkiApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen), f"expected the replay screen, not {app.screen!r}"
    return app.screen


def table(app: ShashkiApp) -> GameTableScreen:
    assert isinstance(app.screen, GameTableScreen), f"expected the game table, not {app.screen!r}"
    return app.screen


def text_of(screen: object, widget_id: str) -> str:
    return str(screen.query_one(f"#{widget_id}", Static).content)  # type: ignore[attr-defined]


async def read_all(pilot: Pilot[None], screen: GameTableScreen) -> None:
    """Wait until the table has read the whole file."""
    await wait_for(pilot, lambda: screen.done, "the table read the whole file", step=0.02)
    await settle(pilot)


async def until(pilot: Pilot[None], ok: Callable[[], object]) -> None:
    """Wait until ``ok()`` holds (looking every 50 ms: the table reads in a thread)."""
    await wait_for(pilot, ok, step=0.05)


def mainline_fens(record) -> list[str]:  # type: ignore[no-untyped-def]
    """The FEN before the first move and after every move of a record's main line."""
    game = record.start()
    fens = [game.fen()]
    for move in record.mainline_moves():
        game.push(move)
        fens.append(game.fen())
    return fens


# -- a real archive ---------------------------------------------------------------------------

USSR = ("corpora", "pdn", "russian", "wiegerw-pdn", "ussr1947.pdn")


async def test_archive_pick_step_jump_and_take_over(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TEXTUAL_ANIMATIONS", raising=False)
    path = shared_path(*USSR)
    record = next(islice(read_file(path, "russian"), 2, None))
    app = make_app(home, replay=path, game_number=3, default_variant="russian")
    async with app.run_test(size=SIZE) as pilot:
        view = replay(app)
        assert view.replay.record.header("Black") == record.header("Black") == "Петров С."
        assert view.source == "ussr1947.pdn #3"
        fens = mainline_fens(record)
        assert view.replay.node is view.replay.record and view.replay.game.fen() == fens[0]
        assert "Start position" in text_of(view, "where")
        # step with →, checking every position; the list follows; 9. f2:f6 is a two-jump
        # capture, shown one jump at a time (stepping onto it crashed the app)
        moves = view.query_one("#moves", OptionList)
        plies = record.mainline_moves()
        double = next(i for i, m in enumerate(plies) if len(m.path) > 2)
        assert double == 16
        for ply in range(1, 4):
            await press(pilot, "right")
            assert view.replay.game.fen() == fens[ply]
        # a row chosen in the list (numbered rows: both sides' moves): 7. …, the 7th row,
        # shows the position after its last move, the 14th
        moves.focus()
        moves.highlighted = 6
        await press(pilot, "enter")
        assert (
            view.replay.node.ply() == 14
            and view.replay.game.fen() == fens[14]
            and view.board.has_focus
        )
        # what the board showed each time it was redrawn (the jumps pass quickly)
        shown: list[object] = []
        redraw = view.board.refresh

        def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
            shown.append(view.board.partial)
            return redraw(*args, **kwargs)

        monkeypatch.setattr(view.board, "refresh", spy)
        for ply in range(15, double + 2):
            await press(pilot, "right")
            assert view.replay.node.ply() == ply
            assert view.replay.game.fen() == fens[ply]
            assert moves.highlighted == (ply - 1) // 2  # the row of the move shown
            if ply == double + 1:
                assert "After 9. f2:f6" in text_of(view, "where")
                await until(pilot, lambda: view.board.partial is None)
                assert (plies[double], 1) in shown  # the first jump alone, then the move
                assert shown[-1] is None
        # back with ←
        for ply in range(double, double - 3, -1):
            await press(pilot, "left")
            assert view.replay.game.fen() == fens[ply]
        await press(pilot, "end")
        assert view.replay.node is view.replay.record.end() and view.replay.game.fen() == fens[-1]
        assert "Result: 1/2-1/2" in text_of(view, "where")
        await press(pilot, "right")  # nothing beyond the end
        assert view.replay.game.fen() == fens[-1]
        await press(pilot, "home")
        assert view.replay.node is view.replay.record and view.replay.game.fen() == fens[0]
        # take over after ten plies (the 5th row) and play on
        moves.focus()
        moves.highlighted = 4
        await press(pilot, "enter")
        await until(pilot, lambda: view.replay.node.ply() == 10)
        await press(pilot, "t")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        ctl = app.screen.controller
        assert ctl.game.move_stack == plies[:10]
        assert [p.name for p in ctl.session.players] == ["Коршунов Д.", "Петров С."]
        await keys_play(pilot, "g3", "h4")
        assert ctl.game.move_stack == [*plies[:10], ctl.game.move_stack[10]]
        assert ctl.game.fen() == fen_after(
            "russian", *(move_text(record.variant, m) for m in plies[:10]), "g3-h4"
        )
        # the replay waits underneath, where it was
        assert (
            isinstance(app.screen_stack[-2], ReplayScreen)
            and app.screen_stack[-2].replay.node.ply() == 10
        )


async def test_archive_table_pick_by_keys_and_by_search(home: Path) -> None:
    path = shared_path("corpora", "pdn", "international", "mig0-Games-Checkers", "az2000.pdn")
    records = list(read_file(path))
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = table(app)
        await read_all(pilot, screen)
        grid = screen.query_one(DataTable)
        assert grid.row_count == len(screen.games) == len(records) == 29
        assert "29 games (all read); 29 shown" in text_of(screen, "progress")
        assert [(g.white, g.black, g.moves) for g in screen.games] == [
            (r.header("White"), r.header("Black"), (len(r.mainline_moves()) + 1) // 2)
            for r in records
        ]
        # by keys: the third game
        await press(pilot, "down", "down", "enter")
        view = replay(app)
        assert view.source == "az2000.pdn #3" and view.replay.record.headers == records[2].headers
        await press(pilot, "end")
        assert view.replay.game.fen() == mainline_fens(records[2])[-1]
        await press(pilot, "escape")
        assert app.screen is screen and grid.cursor_row == 2
        # by the search box: / then part of a name, any case
        await press(pilot, "slash")
        assert screen.focused is screen.query_one("#filter", Input)
        await press(pilot, *"HUS")
        wanted = [
            i
            for i, r in enumerate(records)
            if "hus" in (r.header("White") + r.header("Black")).lower()
        ]
        assert 1 < grid.row_count == len(wanted) < 29
        assert f"{len(wanted)} shown" in text_of(screen, "progress")
        await press(pilot, "enter")  # back to the table, on the first match
        assert screen.focused is grid
        await press(pilot, "down", "enter")
        view = replay(app)
        assert view.source == f"az2000.pdn #{wanted[1] + 1}"
        assert view.replay.record.headers == records[wanted[1]].headers
        await press(pilot, "escape")
        # Esc in the search box gives the table back; the filter cleared shows every game
        await press(pilot, "slash", *["backspace"] * 3, "escape")
        assert grid.row_count == 29 and screen.focused is grid


async def test_a_game_opened_at_once_reads_untagged_moves_as_the_guess(home: Path) -> None:
    """``shashki replay FILE --game 2`` of a file without GameType tags, written in 8×8
    algebraic squares: the game opens as Russian draughts (not International, where
    every move failed), and a notice says the guess in one line."""
    game = "1. c3-d4 f6-g5 2. b2-c3 g5-h4 *\n\n"
    path = write(home, "untagged.pdn", game + "1. c3-b4 b6-a5 2. b4-c5 d6xb4 3. a3xc5 *\n")
    app = make_app(home, replay=path, game_number=2)
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, ReplayScreen)
        view = replay(app)
        assert view.replay.record.variant.id == "russian" and view.replay.record.ok
        assert len(view.replay.record.mainline_moves()) == 5
        said = notes(app)
        assert any("read as Russian draughts, guessed from their moves" in m for m in said), said


async def test_untagged_games_read_again_as_the_chosen_variant(home: Path) -> None:
    """Principles of Strategy.pdn names no variant: its moves say English draughts, and the
    table says the guess; chosen as International (the PDN default) by keys, no game
    replays and the table says so; chosen as English again, every game does."""
    path = shared_path("corpora", "pdn", "english", "wiegerw-pdn", "Principles of Strategy.pdn")
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = table(app)
        await read_all(pilot, screen)
        select = screen.query_one(Select)
        assert len(screen.games) == 16
        assert all(g.variant == "english" and not g.error for g in screen.games)
        assert select.value == "english"
        progress = text_of(screen, "progress")
        assert "Games without a GameType: English draughts, a guess from their moves" in progress
        assert "v chooses another." in progress
        ids = [value for _, value in select.choices]

        async def choose(variant: str) -> None:
            # the Select, by keys: v opens it on the variant read now, arrows, Enter
            now = ids.index(str(select.value))
            await press(pilot, "v")
            assert select.expanded and screen.focused in (select, *select.query("*"))
            steps = ids.index(variant) - now
            await press(pilot, *[("down" if steps > 0 else "up")] * abs(steps), "enter")
            assert select.value == variant

        await choose("international")
        await read_all(pilot, screen)
        assert all(g.variant == "international" and g.error for g in screen.games)
        assert "choose their variant" in text_of(screen, "progress")
        assert "a guess" not in text_of(screen, "progress")
        screen.query_one(DataTable).focus()
        await settle(pilot)
        assert text_of(screen, "detail").startswith("Game 1: ")  # the error in words
        await choose("english")
        await read_all(pilot, screen)
        assert len(screen.games) == 16 and screen.query_one(DataTable).row_count == 16
        assert all(g.variant == "english" and not g.error for g in screen.games)
        assert "choose their variant" not in text_of(screen, "progress")
        # the second game has comments: open it and step to the first one
        screen.query_one(DataTable).focus()
        await press(pilot, "down", "enter")
        view = replay(app)
        assert view.replay.record.variant.id == "english"
        while not text_of(view, "comment"):
            await press(pilot, "right")
            assert view.replay.node.next() is not None, "no comment shown"
        assert text_of(view, "comment") == "Not the best see no. 3, 4 and 5."
        moves = view.query_one("#moves", OptionList)
        assert moves.highlighted is not None
        assert "{Not the best" in str(moves.get_option_at_index(moves.highlighted).prompt)


async def test_variant_changed_while_reading_keeps_no_stale_rows(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Choosing the variant while a long file is still being read: the rows of the reading
    given up never join the new table (their keys would clash).

    The reading is held at game ``HELD`` until the test lets it go, so the file is still
    being read while the variant changes however fast the machine (it once read the whole
    file before the test looked); meanwhile every game read is sent to the table at once
    (``BATCH_SECONDS`` 0), so that batches of readings given up keep arriving."""
    from shashki.records import reader

    path = shared_path("corpora", "pdn", "english", "eygilbert-CheckerBoard", "tinsley.pdn")
    total = sum(1 for _ in read_file(path, "english"))
    HELD = 40
    go_on = threading.Event()
    real_read_file = reader.read_file

    def held_read_file(*args, **kwargs):  # type: ignore[no-untyped-def]
        worker = get_current_worker()
        for i, record in enumerate(real_read_file(*args, **kwargs)):
            if i == HELD:
                # until the test lets it go (or at its end whatever happens); a reading
                # given up meanwhile goes on, to stop at its next game as a slow one
                # would: held for good, each would keep one of the few threads the
                # workers share (six on two cores), and once all were held the reading
                # of the variant chosen last would wait for a thread, never to come
                while not go_on.wait(0.01) and not worker.is_cancelled:
                    pass
            yield record

    monkeypatch.setattr(reader, "read_file", held_read_file)
    app = make_app(home, replay=path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = table(app)
            screen.BATCH_SECONDS = 0.0
            await until(pilot, lambda: len(screen.games) >= 5)
            select = screen.query_one(Select)
            for i in range(12):  # the user goes up and down the list
                assert not screen.done
                select.value = ("english", "russian")[i % 2]
                await settle(pilot)
            select.value = "english"
            await until(pilot, lambda: len(screen.games) == HELD)
            assert not screen.done
            screen.BATCH_SECONDS = 0.5
            go_on.set()
            await read_all(pilot, screen)
            grid = screen.query_one(DataTable)
            assert len(screen.games) == total
            assert [g.index for g in screen.games] == list(range(total))
            assert grid.row_count == total
            assert [str(grid.get_row_at(i)[0]) for i in range(grid.row_count)] == [
                str(i + 1) for i in range(grid.row_count)
            ]
            assert all(g.variant == "english" for g in screen.games)
            await press(pilot, "escape")  # leaving stops the reading
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
    finally:
        go_on.set()  # no reading thread is left waiting


async def test_problem_collection_position_opens_to_play(home: Path) -> None:
    path = shared_path("corpora", "pdn", "english", "wiegerw-pdn", "beginner.pdn")
    app = make_app(home, replay=path, default_variant="english")
    async with app.run_test(size=SIZE) as pilot:
        screen = table(app)
        await read_all(pilot, screen)
        assert screen.query_one(DataTable).get_row_at(0)[7] == "position"
        await press(pilot, "enter")
        assert isinstance(app.screen, GameScreen)
        ctl = app.screen.controller
        first = next(iter(read_file(path, "english")))
        assert ctl.variant.id == "english"
        assert ctl.game.fen() == Game("english", first.fen).fen()
        assert ctl.game.move_stack == []
        assert ctl.game.legal_moves()


# -- a file written here ---------------------------------------------------------------------


async def test_own_file_comments_nags_and_nested_variations(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "study.pdn", OWN_GAME)
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, ReplayScreen)  # one game: opened at once
        view = replay(app)
        assert view.source == "study.pdn #1"
        tags = text_of(view, "tags")
        assert "White: Anna" in tags and "Black: Boris" in tags
        assert text_of(view, "comment") == "The opening of the test game."
        # the move list: the whole tree in numbered rows (both sides' moves, as the game
        # screen writes them), variations after their move, NAGs, comments on their own
        # lines (a row ends at a comment or a variation: the next starts with "…")
        rows = [
            " ".join(str(o.prompt).split()) for o in view.query_one("#moves", OptionList).options
        ]
        assert rows == [
            "1. c3-d4 {A classical start.}",
            "1. … f6-e5?",
            "\u2514 1. … f6-g5! {The main alternative.}",
            "2. g3-h4",
            "\u2514 2. b2-c3 {A nested try.}",
            "2. … g7-f6",
            "2. … b6-c5",
            "2. d4:f6 g7:e5",
            "3. b2-c3 {White develops.}",
            "3. … h6-g5",
            "4. g3-h4",
        ]
        assert [row.depth for row in view.turn_rows] == [0, 0, 1, 1, 2, 2, 1, 0, 0, 0, 0]
        await press(pilot, "right")
        assert view.replay.game.fen() == fen_after("russian", "c3-d4")
        assert text_of(view, "comment") == "A classical start."
        assert "After 1. c3-d4" in text_of(view, "where")
        assert "1 variation here: press v" in text_of(view, "where")
        # v: into the variation 1... f6-g5
        await press(pilot, "v")
        assert not view.replay.node.is_mainline()
        assert view.replay.game.fen() == fen_after("russian", *FIRST_VARIATION[:2])
        assert text_of(view, "comment") == "The main alternative."
        where = text_of(view, "where")
        assert "After 1… f6-g5!" in where and "(in a variation)" in where
        await press(pilot, "right")
        assert view.replay.game.fen() == fen_after("russian", *FIRST_VARIATION[:3])
        # v again: the nested variation 2. b2-c3 (an alternative to 2. g3-h4)
        await press(pilot, "v")
        assert view.replay.game.fen() == fen_after("russian", *NESTED[:3])
        assert text_of(view, "comment") == "A nested try."
        await press(pilot, "right")
        assert view.replay.game.fen() == fen_after("russian", *NESTED)
        await press(pilot, "right")  # the nested variation ends here
        assert view.replay.game.fen() == fen_after("russian", *NESTED)
        # Backspace: out of the nested variation, to where it branched off
        await press(pilot, "backspace")
        assert not view.replay.node.is_mainline()
        assert view.replay.game.fen() == fen_after("russian", *FIRST_VARIATION[:2])
        await press(pilot, "right", "right")
        assert view.replay.game.fen() == fen_after("russian", *FIRST_VARIATION)
        # Backspace: out of the first variation, back on the main line
        await press(pilot, "backspace")
        assert view.replay.node.is_mainline()
        assert view.replay.game.fen() == fen_after("russian", "c3-d4")
        await press(pilot, "backspace")  # already on the main line: nothing changes
        assert view.replay.game.fen() == fen_after("russian", "c3-d4")
        await press(pilot, "right")
        assert view.replay.game.fen() == fen_after("russian", *MAIN[:2])
        await press(pilot, "end")
        assert view.replay.game.fen() == fen_after("russian", *MAIN)
        assert "Result: 1-0" in text_of(view, "where")
        await press(pilot, "home")
        assert view.replay.game.fen() == Game("russian").fen()
        # choosing a move in the list jumps there (the nested variation's last move)
        moves = view.query_one("#moves", OptionList)
        moves.focus()
        moves.highlighted = 5
        await press(pilot, "enter")
        assert view.replay.game.fen() == fen_after("russian", *NESTED)
        assert view.board.has_focus


async def test_the_row_highlighted_in_the_list_stays_when_the_list_is_resized(
    home: Path, tmp_path: Path
) -> None:
    """A row of the move list highlighted (not chosen yet) stays highlighted when the list
    is drawn again in a new width: the terminal resized, or the panel above it grown or
    shrunk by a move shown (before, the highlight went back to the move shown, and Enter
    chose that row instead)."""
    path = write(tmp_path, "study.pdn", OWN_GAME)
    app = make_app(home, replay=path, game_number=1)
    async with app.run_test(size=SIZE) as pilot:
        view = replay(app)
        moves = view.query_one("#moves", OptionList)
        await press(pilot, "end")
        await until(pilot, lambda: view.replay.node is view.replay.record.end())
        shown_row = moves.highlighted
        assert shown_row is not None and shown_row >= 2
        moves.focus()
        await until(pilot, lambda: moves.has_focus)
        await press(pilot, "up", "up")
        await until(pilot, lambda: moves.highlighted == shown_row - 2)
        size = moves.size
        await pilot.resize_terminal(100, 32)
        await until(pilot, lambda: moves.size != size)
        await settle(pilot)
        assert moves.highlighted == shown_row - 2
        await press(pilot, "enter")  # the row highlighted is the one chosen
        await until(pilot, lambda: view.replay.node is not view.replay.record.end())
        assert moves.highlighted == shown_row - 2


async def test_own_file_auto_play_to_the_end(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "study.pdn", OWN_GAME)
    app = make_app(home, replay=path, game_number=1)
    async with app.run_test(size=SIZE) as pilot:
        view = replay(app)
        await press(pilot, "minus")
        assert "every" not in text_of(view, "where")  # not playing yet
        await press(pilot, "space")
        assert "one move every 2 s" in text_of(view, "where")
        await press(pilot, "plus", "plus", "plus")
        assert "one move every 0.25 s" in text_of(view, "where")
        await press(pilot, "plus")  # the fastest stays the fastest
        assert view.SPEEDS[view.speed_index] == 0.25
        # (how long the moves take is the timer's: not timed here, a busy machine makes
        # any figure wrong either way)
        await until(pilot, lambda: view.replay.node.ply() >= 1)
        await until(pilot, lambda: view.replay.node is view.replay.record.end())
        assert view.replay.game.fen() == fen_after("russian", *MAIN)
        await until(pilot, lambda: "Auto-play" not in text_of(view, "where"))  # stopped at the end
        assert not view.auto_playing
        # Space stops it half-way too: at the slowest speed, so that a busy machine cannot
        # play the six moves left before Space is handled
        await press(pilot, "home", "minus", "minus", "minus", "minus", "space")
        assert "one move every 4 s" in text_of(view, "where")
        await until(pilot, lambda: view.replay.node.ply() >= 1)
        assert view.auto_playing
        await press(pilot, "space")
        stopped = view.replay.node
        # stopped: its timer is gone (no move can come any more), and the game stays
        await until(pilot, lambda: not view.auto_playing)
        await settle(pilot)
        assert view.replay.node is stopped and stopped is not view.replay.record.end()


async def test_own_file_take_over_keeps_the_record_up_to_there(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "study.pdn", OWN_GAME)
    app = make_app(home, replay=path, game_number=1)
    async with app.run_test(size=SIZE) as pilot:
        view = replay(app)
        record = view.replay.record
        await press(pilot, "right", "right", "right", "right")
        await press(pilot, "t")
        assert isinstance(app.screen, GameScreen)
        ctl = app.screen.controller
        assert [p.name for p in ctl.session.players] == ["Anna", "Boris"]
        assert ctl.game.move_stack == record.mainline_moves()[:4]
        await keys_play(pilot, "g3", "h4")  # not the record's 3. b2-c3
        assert ctl.game.move_stack[:4] == record.mainline_moves()[:4]
        assert len(ctl.game.move_stack) == 5
        assert ctl.game.fen() == fen_after("russian", *MAIN[:4], "g3-h4")
        # the replay is still underneath, where it was
        assert (
            isinstance(app.screen_stack[-2], ReplayScreen)
            and app.screen_stack[-2].replay.node.ply() == 4
        )


async def test_broken_game_shows_the_error_and_stops_at_the_last_good_move(
    home: Path, tmp_path: Path
) -> None:
    path = write(tmp_path, "club.pdn", BROKEN_FILE)
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = table(app)
        await read_all(pilot, screen)
        grid = screen.query_one(DataTable)
        assert grid.row_count == 3
        assert str(grid.get_row_at(1)[1]) == "error" and str(grid.get_row_at(0)[1]) == ""
        # a long event is cut, so that the players stay in view
        assert str(grid.get_row_at(2)[2]) == "Club championship of the vi…"
        assert [str(cell) for cell in grid.get_row_at(2)[4:6]] == ["Clara", "Anna"]
        assert text_of(screen, "detail") == ""
        await press(pilot, "down")
        detail = text_of(screen, "detail")
        assert detail.startswith("Game 2: ") and "'c3-d4' is not a legal move" in detail
        await press(pilot, "enter")  # a game with an error still opens
        view = replay(app)
        error = text_of(view, "error")
        assert "stops after the last good move" in error and "'c3-d4' is not a legal move" in error
        assert "line 15, column 34" in error
        assert len(view.replay.record.mainline_moves()) == 4
        await press(pilot, "end")
        assert view.replay.game.fen() == fen_after("russian", "c3-d4", "f6-e5", "d4:f6", "g7:e5")
        assert "White to move" in text_of(view, "where")
        # and play on from there
        await press(pilot, "t")
        assert isinstance(app.screen, GameScreen)
        assert len(app.screen.controller.game.move_stack) == 4


async def test_a_move_on_squares_no_board_has_is_a_problem_in_the_table(
    home: Path, tmp_path: Path
) -> None:
    """``z9-z8`` is a move that cannot be played, in the table's problem column, not
    words read as a comment."""
    text = '[Event "a"]\n[GameType "25"]\n1. c3-d4 *\n\n[Event "b"]\n[GameType "25"]\n1. z9-z8 *\n'
    app = make_app(home, replay=write(tmp_path, "z.pdn", text))
    async with app.run_test(size=SIZE) as pilot:
        screen = table(app)
        await read_all(pilot, screen)
        grid = screen.query_one(DataTable)
        assert [str(grid.get_row_at(i)[1]) for i in range(2)] == ["", "error"]
        await press(pilot, "down")
        assert "'z9' is not a square of this 8x8 board" in text_of(screen, "detail")


async def test_single_broken_game_opens_at_once(home: Path, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "one.pdn",
        BROKEN_FILE.split("\n\n[Event")[0].replace("2. d4:f6 g7:e5", "2. d4:f6 g7:e5 3. c3-d4"),
    )
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await screen_made(pilot, ReplayScreen)
        view = replay(app)
        assert "'c3-d4' is not a legal move" in text_of(view, "error")
        await press(pilot, "end")
        assert view.replay.game.fen() == fen_after("russian", "c3-d4", "f6-e5", "d4:f6", "g7:e5")


async def test_own_problem_position_opens_to_play(home: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "problem.pdn", PROBLEM)
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        ctl = app.screen.controller  # type: ignore[attr-defined]
        assert ctl.game.fen() == Game("russian", "W:Wc3,e3:Bd6,f6").fen()
        await keys_play(pilot, "e3", "f4")
        assert ctl.game.fen() == fen_after("russian", "e3-f4", start="W:Wc3,e3:Bd6,f6")


# -- what goes wrong -------------------------------------------------------------------------


async def test_files_that_go_wrong_are_messages(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing file, a folder, a game number beyond the file, bytes that are no PDN, and a
    file that cannot be read: a message each time, never a traceback.  (``replay=`` in
    the constructor comes to ``open_game_file`` too.)"""
    club = write(tmp_path, "club.pdn", BROKEN_FILE)
    noise = tmp_path / "noise.pdn"
    noise.write_bytes(bytes(range(256)) * 4)
    locked = write(tmp_path, "locked.pdn", OWN_GAME)
    # chmod 000 does not stop root: make opening this one file fail, wherever it is opened
    real_open = open

    def guarded(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, (str, Path)) and Path(file) == locked:
            raise PermissionError(13, "Permission denied", str(locked))
        return real_open(file, *args, **kwargs)

    real_os_open = os.open

    def guarded_os_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, (str, Path)) and Path(file) == locked:
            raise PermissionError(13, "Permission denied", str(locked))
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", guarded)
    monkeypatch.setattr("os.open", guarded_os_open)
    app = make_app(home, replay=home / "nope.pdn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any("nope.pdn: no such file" in n for n in notes(app))
        app.open_game_file(home, 2)  # a folder
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any(f"{home}: a folder, not a file" in n for n in notes(app))
        # a game number beyond the file: said so, and the table instead
        app.open_game_file(club, 9)
        await settle(pilot)
        assert any("club.pdn has no game number 9" in n for n in notes(app))
        await read_all(pilot, table(app))
        assert table(app).query_one(DataTable).row_count == 3
        await press(pilot, "escape")
        # bytes that are no PDN: rows that say what is wrong; Enter opens nothing broken
        app.open_game_file(noise)
        await settle(pilot)
        screen = table(app)
        await read_all(pilot, screen)
        assert screen.games and all(g.error for g in screen.games)
        assert "not a text file" in text_of(screen, "detail")
        await press(pilot, "enter")
        assert isinstance(app.screen, (GameTableScreen, ReplayScreen))
        await press(pilot, "escape")
        if isinstance(app.screen, GameTableScreen):
            await press(pilot, "escape")
        assert isinstance(app.screen, MenuScreen)
        # a file that cannot be read: said so, for the table and for one game asked for
        app.open_game_file(locked)
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any("Cannot open" in n and "Permission denied" in n for n in notes(app))
        app.open_game_file(locked, 1)
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert sum("Cannot open" in n and "Permission denied" in n for n in notes(app)) == 2


async def test_a_record_whose_start_cannot_be_set_up_is_a_message(home: Path) -> None:
    """A record made in code with a bad start position (the reader never gives one: it
    reads a bad FEN tag as an error and starts from the usual position): a one-line
    notice, with or without moves to replay."""
    from shashki.records import BadPdnError, GameRecord

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.open_record(GameRecord("russian", "W:Wz9:Bd4"))
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any(n.startswith("Cannot set up this position: 'z9'") for n in notes(app))
        broken = GameRecord("russian", "W:Wz9:Bd4")
        broken.errors.append(BadPdnError("a move that is not legal"))
        app.open_record(broken)
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any(n.startswith("Cannot replay this game: 'z9'") for n in notes(app))


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["replay", "/nope"], "/nope: no such file"),
        (["replay", "/"], "cannot read /: a folder, not a file"),
        (["replay", "/dev/zero"], "cannot read /dev/zero: a device, not a regular file"),
        (["replay", "--game", "0", __file__], "--game must be 1 or more"),
        (["replay", "--variant", "chess", __file__], "chess"),
    ],
)
def test_cli_replay_mistakes_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shashki: error: ") and words in err
    assert "Traceback" not in err


# -- pictures ----------------------------------------------------------------------------------

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_game_table(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """The table of a four-game file, read to the end, the game with an error highlighted
    (its error in words under the table)."""
    path = write(home, "club.pdn", BROKEN_FILE + "\n" + OWN_GAME)

    async def wait(pilot: Pilot[None]) -> None:
        await read_all(pilot, table(pilot.app))  # type: ignore[arg-type]
        await press(pilot, "down")

    assert snap_compare(make_app(home, replay=path), terminal_size=size, run_before=wait)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_replay_with_a_comment(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """The replay after 1. c3-d4: its comment beside the list, the variations indented."""
    path = write(home, "study.pdn", OWN_GAME)
    app = make_app(home, replay=path, game_number=1)
    assert snap_compare(app, terminal_size=size, press=["right"])
