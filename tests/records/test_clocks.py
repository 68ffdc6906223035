"""Clocks in PDN: the TimeControl tag and the [%clk] comments, written and read back."""

from __future__ import annotations

import pytest

from shashki.records import GameRecord, read_games_text, write_game
from shashki.records.clocks import (
    BadTimeControl,
    TimeControl,
    clock_comment,
    clock_in,
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
