"""Games on time on the screen: the clock as shown, the flag fall seen on the board, the
seats and their clocks in the panel, takebacks, the new-game dialog's clock, pauses, and
the times saved, autosaved, resumed and replayed.  The clock itself, its increments and
its flag are the session's: tests/session/test_clock.py."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from shashki.app.clock import GameClock, clock_display
from shashki.app.computer import Computer
from shashki.app.dialogs import GameOverScreen
from shashki.app.game_screen import GameScreen
from shashki.app.menu import NewGameScreen
from shashki.app.widgets import Select
from shashki.engine.limits import move_seconds
from shashki.records import read_file
from shashki.records.clocks import (
    TimeControl,
    record_clocks,
    time_control,
)
from shashki.rules import Color, Game, Termination, find_variant
from shashki.session import GameSession, ManualTime
from shashki.session.seats import PERSON, LevelSeat
from shashki.store.autosaves import autosave_dir

from .conftest import (
    click_widget,
    footer_entries,
    footer_shows,
    game_over_text,
    game_screen,
    keys_play,
    make_app,
    panel,
    press,
    settle,
    status,
    wait_for,
)

SIZE = (100, 32)


#: A clock source moved by hand: ``now()`` is what the game clock reads, and moving it
#: fires the session's deadline when it passes it.
FakeTime = ManualTime


# -- the clock as shown (the session's clock: tests/session/test_clock.py) -----------------------


def test_the_clock_as_shown() -> None:
    assert clock_display(300) == "5:00"
    assert clock_display(59.99) == "0:59"
    assert clock_display(9.99) == "0:09.9"
    assert clock_display(0) == "0:00.0" and clock_display(-3) == "0:00.0"
    assert clock_display(3600) == "1:00:00"


# -- the game screen ---------------------------------------------------------------------------


def seats(screen: GameScreen) -> list[str]:
    """The seat lines as last painted (top of the board first)."""
    return [seat.shown for seat in screen.seats]


async def until(pilot, check) -> None:  # type: ignore[no-untyped-def]
    """Let the app run (its clock timer ticks ten times a second) until ``check()``; a
    slow machine waits longer, a fast one not at all."""
    await wait_for(pilot, check, "the clock's state", step=0.05)


async def test_a_flag_fall_ends_the_game(home: Path) -> None:
    now = FakeTime()
    app = make_app(home, variant="russian", clock=TimeControl(60, 0))
    app.clock_time = now
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        # both seats: the side at the top of the board first; the side to move marked
        assert seats(screen) == ["  Black  1:00", "▶ White  1:00"]
        assert screen.seats[1].has_class("-to-move")
        assert not screen.seats[0].has_class("-to-move")
        # the clocks start with the game, not the screen: each side's first move is free
        now.t += 20.5
        screen.tick_clock()
        assert seats(screen) == ["  Black  1:00", "▶ White  1:00"]
        await keys_play(pilot, "c3", "d4")
        now.t += 5
        await keys_play(pilot, "f6", "g5")
        assert seats(screen) == ["  Black  1:00", "▶ White  1:00"]
        now.t += 20.5
        await until(pilot, lambda: seats(screen)[1] == "▶ White  0:39")
        await keys_play(pilot, "b2", "c3")
        assert seats(screen) == ["▶ Black  1:00", "  White  0:39"]
        assert screen.seats[0].has_class("-to-move")
        now.t += 50.55
        # tenths under ten seconds
        await until(pilot, lambda: seats(screen)[0] == "▶ Black  0:09.4")
        assert screen.seats[0].has_class("-clock-low")
        now.t += 10
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        text = await game_over_text(pilot)
        assert text == "White wins: Black ran out of time."
        out = screen.controller.session.outcome
        assert out is not None and out.termination is Termination.TIME_FORFEIT
        assert seats(screen) == ["  Black  0:00.0", "  White  0:39"]  # nobody to move
        # the dialog offers no takeback (nor does its footer), nor does the game's
        # footer, nor does u on the board
        assert not app.screen.query("#undo")
        await footer_shows(pilot, "New game")
        assert "Undo" not in [entry.description for entry in footer_entries(app.screen)]
        await press(pilot, "escape")
        await until(pilot, lambda: app.screen is screen)
        await footer_shows(pilot, "Help")
        actions = [entry.action for entry in footer_entries(screen)]
        assert "undo" not in actions and "draw" not in actions and "resign" not in actions
        await press(pilot, "u")
        assert screen.controller.session.outcome == out


async def test_the_seats_name_the_computer_and_undo_says_the_clocks_keep_their_times(
    home: Path,
) -> None:
    now = FakeTime()
    app = make_app(home, variant="russian", kinds=(PERSON, LevelSeat(1)), clock=TimeControl(300, 3))
    app.clock_time = now
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        assert seats(screen) == ["  Computer · level 1 (Black)  5:00", "▶ White  5:00"]
        now.t += 7  # a person's first move is off the clock
        await keys_play(pilot, "c3", "d4")
        computer = screen.controller.session.players[1]
        assert isinstance(computer, Computer)
        await until(pilot, lambda: screen.controller.game.turn is Color.WHITE)  # its reply
        # its time came from the clock: 5 minutes and 3 seconds a move
        assert computer.engine.seconds == move_seconds(300, 3, overhead=0.6)
        assert seats(screen)[1] == "▶ White  5:00"
        now.t += 7
        await until(pilot, lambda: seats(screen)[1] == "▶ White  4:53")
        await press(pilot, "u")
        assert status(app) == "Move taken back; the clocks keep their times."
        assert seats(screen)[1] == "▶ White  4:53"


async def test_the_times_are_autosaved_and_resumed(home: Path) -> None:
    now = FakeTime()
    app = make_app(home, variant="russian", autosave=True, clock=TimeControl(180, 2))
    app.clock_time = now
    async with app.run_test(size=SIZE) as pilot:
        now.t += 11
        await keys_play(pilot, "c3", "d4")
        now.t += 25
        await keys_play(pilot, "f6", "g5")
        now.t += 9
        await keys_play(pilot, "b2", "c3")
        app.flush_autosave()
    [path] = list(autosave_dir().glob("*.pdn"))
    [record] = list(read_file(path))
    assert time_control(record) == TimeControl(180, 2)
    assert record_clocks(record) == [180, 180, 173]  # the first moves were free
    assert "{[%clk 0:02:53]}" in path.read_text()

    again = make_app(home, autosave=True, offer_resume=True)
    again.clock_time = now
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "enter")  # the unfinished game
        screen = game_screen(again)
        assert screen.controller.session.clock is not None
        assert seats(screen) == ["▶ Black  3:00", "  White  2:53"]
        now.t += 1
        await until(pilot, lambda: seats(screen)[0] == "▶ Black  2:59")  # it goes on running


async def test_the_new_game_dialog_offers_clocks(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(NewGameScreen(find_variant("russian")))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        choice = dialog.query_one("#clock", Select)
        assert choice.value == ""  # none, the first time
        labels = [str(label) for label, _ in dialog.query_one("#clock", Select).choices]
        for wanted in ("none", "1+0", "3+2", "5+3", "10+5", "15+10", "custom"):
            assert any(label.startswith(wanted) for label in labels), wanted
        # a custom clock that cannot be read: said in the dialog, no game
        choice.value = "custom"
        await settle(pilot)
        box = dialog.query_one("#clock-custom", Input)
        assert box.display and app.focused is box
        box.value = "five"
        await click_widget(pilot, "#play")
        assert app.screen is dialog
        problem = str(dialog.query_one("#clock-problem", Static).content)
        assert problem.startswith("Clock: a clock is minutes + increment")
        box.value = "0.5+1"
        await click_widget(pilot, "#play")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        ctl = game_screen(app).controller
        assert ctl.session.clock is not None and ctl.session.clock.control == TimeControl(30, 1)
        assert app.settings.clock == "0.5+1"  # the next dialog offers it again


def test_the_replay_shows_the_clocks() -> None:
    from shashki.app.replay_controller import ReplayController
    from shashki.records import read_games_text

    text = (
        '[GameType "25"]\n[TimeControl "300+3"]\n\n'
        "1. c3-d4 {[%clk 0:04:53]} f6-g5 {good [%clk 0:04:58]} 2. d4-e5 *\n"
    )
    replay = ReplayController(next(iter(read_games_text(text))))
    assert replay.clocks() == "Clock: White 5:00, Black 5:00"
    replay.go(replay.rows[1].node)
    assert replay.clocks() == "Clock: White 4:53, Black 4:58"
    assert "Clock: White 4:53, Black 4:58" in replay.where()
    assert replay.comments() == "good"  # the mark is not shown as a comment
    assert replay.rows[0].comments == () and replay.rows[1].comments == ("good",)


async def test_the_settings_choose_the_clock_of_new_games(home: Path) -> None:
    import json

    from shashki.app.settings_screen import SettingsScreen

    (home / "settings.json").write_text(json.dumps({"clock": "[b]7+5"}), encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SettingsScreen())
        await settle(pilot)
        choice = app.screen.query_one("#clock", Select)
        assert choice.value == "[b]7+5"  # a value of the file, shown as it is
        choice.value = "10+5"
        await settle(pilot)
        assert json.loads((home / "settings.json").read_text())["clock"] == "10+5"
        await press(pilot, "escape")
        app.push_screen(NewGameScreen(find_variant("russian")))
        await settle(pilot)
        assert app.screen.query_one("#clock", Select).value == "10+5"
        await click_widget(pilot, "#play")
        await settle(pilot)
        ctl = game_screen(app).controller
        assert ctl.session.clock is not None and ctl.session.clock.control == TimeControl(600, 5)


async def test_the_clock_runs_on_while_the_move_list_is_walked(home: Path) -> None:
    now = FakeTime()
    app = make_app(home, variant="russian", clock=TimeControl(30, 0))
    app.clock_time = now
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        for start, end in (("c3", "d4"), ("f6", "g5"), ("b2", "c3")):
            await keys_play(pilot, start, end)  # (the first move of each side is free)
        await press(pilot, "left_square_bracket")  # look at an earlier position
        await settle(pilot)
        assert screen.viewing is not None
        # the clocks are the game's (Black's runs), and the side marked is the game's
        # side to move too: a player short of time reads the clock that counts (the
        # turn line says who is to move in the position looked at)
        assert panel(app, "turn").endswith("White to move")
        now.t += 12
        await until(pilot, lambda: seats(screen) == ["▶ Black  0:18", "  White  0:30"])
        assert screen.seats[0].has_class("-to-move")
        assert not screen.seats[1].has_class("-to-move")
        now.t += 18
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        out = screen.controller.session.outcome
        assert out is not None and out.termination is Termination.TIME_FORFEIT
        assert out.winner is Color.WHITE


async def test_p_pauses_both_clocks_and_says_so(home: Path) -> None:
    """P pauses the clocks of a game at one board and says so in the panel; no move is
    played meanwhile; P again runs them from the time they showed."""
    now = FakeTime()
    app = make_app(home, variant="russian", clock=TimeControl(60, 0))
    app.clock_time = now
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        for start, end in (("c3", "d4"), ("f6", "g5")):
            await keys_play(pilot, start, end)  # (the first move of each side is free)
        now.t += 5
        await until(pilot, lambda: seats(screen)[1] == "▶ White  0:55")
        await press(pilot, "P")
        await until(pilot, lambda: screen.controller.session.paused)
        assert "Clocks paused (P: go on)" in panel(app, "turn")
        now.t += 100  # away from the board
        screen.tick_clock()
        assert seats(screen)[1] == "▶ White  0:55"
        await keys_play(pilot, "b2", "c3")
        assert status(app) == "The clocks are paused: press P to go on."
        assert len(screen.controller.game.move_stack) == 2
        await press(pilot, "P")
        assert status(app) == "The clocks run again." and "paused" not in panel(app, "turn")
        now.t += 5
        await until(pilot, lambda: seats(screen)[1] == "▶ White  0:50")


async def test_the_help_the_settings_and_the_palette_pause_the_clocks(home: Path) -> None:
    now = FakeTime()
    app = make_app(home, variant="russian", kinds=(PERSON, LevelSeat(1)), clock=TimeControl(60, 0))
    app.clock_time = now
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        await keys_play(pilot, "c3", "d4")
        await until(pilot, lambda: screen.controller.game.turn is Color.WHITE)  # its reply
        now.t += 3
        await until(pilot, lambda: seats(screen)[1] == "▶ White  0:57")
        for key in ("question_mark", "comma", "ctrl+p"):  # the help, the settings, the palette
            await press(pilot, key)
            await until(pilot, lambda: app.screen is not screen)
            await until(pilot, lambda: screen.controller.session.paused)
            now.t += 100
            await press(pilot, "escape")
            await until(pilot, lambda: not screen.controller.session.paused)
            screen.tick_clock()
            assert seats(screen)[1] == "▶ White  0:57"  # nothing lost while covered
        now.t += 2
        await until(pilot, lambda: seats(screen)[1] == "▶ White  0:55")
        # a pause the player made stays when the help is closed
        await press(pilot, "P")
        await press(pilot, "question_mark")
        await until(pilot, lambda: app.screen is not screen)
        await press(pilot, "escape")
        await until(pilot, lambda: app.screen is screen)
        await settle(pilot)
        assert screen.controller.session.paused


def test_the_replay_of_a_game_lost_on_time_says_so_and_shows_the_clock_at_zero() -> None:
    """A game lost on time, as the session writes it: its replay ends with how it ended
    (not only "Result: 1-0") and the loser's clock at 0:00 at the last move."""
    from shashki.app.replay_controller import ReplayController
    from shashki.records import read_games_text, write_game

    now = FakeTime()
    session = GameSession(Game("russian"), clock=GameClock(TimeControl(60, 0), now=now))
    session.start()  # (driven on this thread: its deadline is on the fake time)
    for text in ("c3-d4", "f6-g5", "b2-c3"):
        now.t += 10
        session.play(session.game.parse_move(text))
    now.t += 61
    assert session.outcome is not None
    replay = ReplayController(next(iter(read_games_text(write_game(session.record())))))
    replay.last()
    where = replay.where()
    assert "White wins: Black ran out of time." in where and "Result" not in where
    assert replay.clocks() == "Clock: White 0:50, Black 0:00.0"
    replay.prev()  # before the end: the times the marks say
    assert replay.clocks() == "Clock: White 1:00, Black 1:00"


def test_the_replay_of_a_resigned_game_shows_the_clocks_at_the_resignation() -> None:
    """A game resigned while a clock ran: its record says both clocks as they stood at
    the end (EndClock), and its replay shows them there, not the last move's."""
    from shashki.app.replay_controller import ReplayController
    from shashki.records import read_games_text, write_game

    now = FakeTime()
    session = GameSession(Game("russian"), clock=GameClock(TimeControl(60, 0), now=now))
    session.start()
    for text in ("c3-d4", "f6-g5", "b2-c3", "g7-f6"):
        session.play(session.game.parse_move(text))
        now.t += 5
    now.t += 20  # White thinks, then resigns: 25 s gone since Black's move
    session.resign(Color.WHITE)
    record = session.record()
    assert record.header("EndClock") == "0:00:30 0:00:55"
    replay = ReplayController(next(iter(read_games_text(write_game(record)))))
    replay.last()
    assert "Black wins: White resigned." in replay.where()
    assert replay.clocks() == "Clock: White 0:30, Black 0:55"  # (the last move: 0:55 both)
    replay.prev()  # before the end: the times the marks say
    assert replay.clocks() == "Clock: White 0:55, Black 1:00"


def test_the_replay_says_how_a_game_of_another_program_ended() -> None:
    from shashki.app.replay_controller import ReplayController
    from shashki.records import read_games_text

    def ended(termination: str, result: str) -> str:
        text = (
            f'[GameType "25"]\n[Result "{result}"]\n[TimeControl "60+0"]\n'
            f'[Termination "{termination}"]\n\n1. c3-d4 {{[%clk 0:00:41]}} {result}\n'
        )
        replay = ReplayController(next(iter(read_games_text(text))))
        replay.last()
        return replay.where()

    where = ended("time forfeit", "1-0")
    assert "White wins: Black ran out of time." in where and "Black 0:00.0" in where
    assert "Black wins: White resigned." in ended("White resigns", "0-1")
    assert "Draw: by agreement." in ended("mutual agreement", "1/2-1/2")  # not "draw" twice
    assert "White wins: Black left the game." in ended("abandoned", "1-0")
    # words it cannot read are shown as written, after the result
    assert "Result: 1-0 — rules infraction" in ended("rules infraction", "1-0")
