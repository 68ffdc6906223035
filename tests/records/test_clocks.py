"""Clocks in PDN: the TimeControl tag and the [%clk] comments, written and read back."""

from __future__ import annotations

import pytest

from shashki.records import GameRecord, read_games_text, write_game
from shashki.records.clocks import (
    BadTimeControl,
    TimeControl,
    clock_comment,
    clock_in,
    clock_problem,
    control_problem,
    record_clocks,
    set_clocks,
    time_control,
)
from shashki.rules import Game


@pytest.mark.parametrize(
    ("text", "seconds", "increment"),
    [("5+3", 300, 3), ("1+0", 60, 0), ("0.25+0", 15, 0), (" 15 + 10 ", 900, 10), ("5", 300, 0)],
)
def test_time_controls_as_players_write_them(text: str, seconds: float, increment: float) -> None:
    control = TimeControl.parse(text)
    assert (control.seconds, control.increment) == (seconds, increment)
    assert TimeControl.from_tag(control.tag()) == control
    assert TimeControl.parse(control.label()) == control


@pytest.mark.parametrize("text", ["", "abc", "0+0", "5+-3", "1e3+0", "５+3", "5+3+1", "9" * 5000])
def test_bad_time_controls_are_refused_in_one_line(text: str) -> None:
    with pytest.raises(BadTimeControl) as caught:
        TimeControl.parse(text)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 120


@pytest.mark.parametrize("tag", ["-", "?", "40/7200:3600", "", "300+x", "9" * 100])
def test_tags_this_program_cannot_play_are_ignored(tag: str) -> None:
    assert TimeControl.from_tag(tag) is None


@pytest.mark.parametrize("tag", ["0.001+3600", "0.05+0", "36001+0", "300+3601", "0+0", "9" * 100])
def test_tags_out_of_the_clocks_range_are_ignored_with_a_reason(tag: str) -> None:
    """A TimeControl tag gets the limits of --clock (0.001 to 600 minutes for the game,
    an increment of 0 to 3600 seconds): out of them it is ignored, and says why."""
    assert TimeControl.from_tag(tag) is None
    problem = control_problem(tag)
    assert problem is not None and "ignored" in problem and "\n" not in problem
    assert len(problem) < 200


@pytest.mark.parametrize("tag", ["0.06+0", "36000+3600", "300+3", " 5 + 0 "])
def test_tags_at_the_clocks_limits_are_read(tag: str) -> None:
    assert TimeControl.from_tag(tag) is not None and control_problem(tag) is None


@pytest.mark.parametrize("tag", ["-", "?", "40/7200:3600", "", "300+x"])
def test_tags_that_say_something_else_are_no_problem(tag: str) -> None:
    assert control_problem(tag) is None


@pytest.mark.parametrize(
    "mark",
    ["[%clk 99:99:99]", "[%clk 10:00:01]", "[%clk 0:60:00]", "[%clk 0:00:60]", "[%clk 999999:0:0]"],
)
def test_clock_marks_out_of_range_are_ignored_with_a_reason(mark: str) -> None:
    assert clock_in(f"good {mark}") is None
    problem = clock_problem(f"good {mark}")
    assert problem is not None and mark in problem and "10:00:00" in problem


def test_clock_marks_at_the_limits_are_read() -> None:
    assert clock_in("[%clk 10:00:00]") == 36000 and clock_problem("[%clk 10:00:00]") is None
    assert clock_in("[%clk 0:59:59.9]") == pytest.approx(3599.9)
    assert clock_in("[%clk 0:00:00]") == 0
    assert clock_problem("no clock here") is None


def test_clock_comments() -> None:
    assert clock_comment(293.4) == "[%clk 0:04:53]"
    assert clock_comment(9.37) == "[%clk 0:00:09.3]"
    assert clock_comment(3723) == "[%clk 1:02:03]"
    assert clock_in("good move [%clk 0:04:53] indeed") == 293
    assert clock_in("[%clk 0:00:09.3]") == pytest.approx(9.3)
    assert clock_in("no clock here") is None


def test_the_times_round_trip_through_pdn() -> None:
    game = Game("russian")
    for move in ("c3-d4", "f6-g5", "d4-e5"):
        game.push_text(move)
    record = GameRecord.from_game(game, {"TimeControl": "300+3"})
    record.mainline().__next__().comments.append("a fine start")
    set_clocks(record, [293.0, 299.0, 8.5])
    text = write_game(record)
    assert '[TimeControl "300+3"]' in text
    assert "{a fine start} {[%clk 0:04:53]}" in text and "{[%clk 0:00:08.5]}" in text
    again = next(iter(read_games_text(text)))
    assert again.ok and time_control(again) == TimeControl(300, 3)
    assert record_clocks(again) == [293.0, 299.0, 8.5]
    assert write_game(again) == text
    # set again: the old marks are replaced, other comments kept
    set_clocks(again, [1.0, None, None])
    assert record_clocks(again) == [1.0, None, None]
    assert next(again.mainline()).comments == ["a fine start", "[%clk 0:00:01.0]"]


def test_the_reader_warns_of_clocks_out_of_range_and_keeps_the_game() -> None:
    text = (
        '[GameType "25"]\n[TimeControl "0.001+3600"]\n'
        "1. c3-d4 {[%clk 99:99:99]} f6-g5 {fine [%clk 0:04:50]} 2. b2-c3 *\n"
    )
    [record] = read_games_text(text)
    assert record.ok and len(record.mainline_moves()) == 3
    assert [(w.line, w.column) for w in record.warnings] == [(2, 1), (3, 10)]
    assert "TimeControl '0.001+3600' ignored" in record.warnings[0].message
    assert "[%clk 99:99:99] ignored" in record.warnings[1].message
    assert time_control(record) is None and record_clocks(record) == [None, 290.0, None]
    # the comment is kept as written
    assert next(record.mainline()).comments == ["[%clk 99:99:99]"]
