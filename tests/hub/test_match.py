"""``shashki match``: colours alternate, openings in pairs, engines that fail lose their
game and are started again, every game in the PDN file, the score line; and one short
game against dame-rs, a real Hub engine."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from shashki.cli import main
from shashki.engine.limits import Limit
from shashki.hub.match import (
    Opening,
    match_player,
    match_stats,
    play_game,
    progress_text,
    read_openings,
    run_match,
)
from shashki.hub.player import HubPlayer
from shashki.records.clocks import TimeControl, record_clocks
from shashki.records.reader import read_file
from shashki.rules import Game, find_variant
from shashki.rules.errors import ShashkiError
from shashki.session import Computer

FAKE = str(Path(__file__).with_name("fake_engine.py"))


def fake_command(mode: str) -> str:
    return f"{sys.executable} {FAKE} {mode}"


def test_colours_alternate_and_each_opening_is_played_twice() -> None:
    variant = find_variant("international")
    first = Computer(1, "shashki level 1", depth=1, seed=1)
    second = HubPlayer(fake_command("ok"))
    openings = [Opening(None, [], "start"), Opening("W:W31-50:B1-19", [], "19 men")]
    try:
        played = run_match(
            variant,
            first,
            second,
            games=4,
            openings=openings,
            max_plies=30,
            limit=Limit(seconds=0.1),
        )
    finally:
        second.close()
    assert [g.first_white for g in played] == [True, False, True, False]
    assert [g.record.headers["Opening"] for g in played] == ["start", "start", "19 men", "19 men"]
    assert played[0].record.headers["White"] == "shashki level 1"
    assert played[1].record.headers["White"] == "fake-ok"
    for game in played:
        white_score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[game.record.result]
        assert game.score == (white_score if game.first_white else 1 - white_score)
        assert game.record.headers["Termination"]


def test_an_engine_that_fails_loses_the_game_and_plays_the_next() -> None:
    variant = find_variant("international")
    crash = HubPlayer(fake_command("crash"))
    level = Computer(1, "shashki level 1", depth=1, seed=1)
    played = run_match(
        variant,
        crash,
        level,
        games=2,
        openings=[Opening(None)],
        max_plies=10,
        limit=Limit(seconds=0.1),
    )
    assert [g.score for g in played] == [0.0, 0.0]
    assert all("stopped" in g.why for g in played)
    assert crash.engine is None  # stopped after the failure


def test_players_from_the_command_line_words() -> None:
    five = match_player("5", seed=1)
    assert isinstance(five, Computer) and five.level == 5 and five.name == "shashki level 5"
    assert isinstance(match_player("hub:dame hub", seed=1), HubPlayer)
    for bad in ("0", "9", "hub:", "strong", "person", "9" * 5000):
        with pytest.raises(ShashkiError):
            match_player(bad, seed=1)


def test_an_engine_named_in_the_settings_plays_a_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``shashki match --black Fake``: the engine set up in the settings, by its name."""
    import json

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "shashki").mkdir()
    engines = [{"name": "Fake", "command": fake_command("ok")}]
    (tmp_path / "shashki" / "settings.json").write_text(json.dumps({"engines": engines}))
    status = main(
        ["match", "international", "--white", "1", "--black", "fake", "--games", "1",
         "--time", "0.1", "--max-plies", "6"]
    )  # fmt: skip
    assert status == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("shashki level 1 v Fake,")


def test_a_match_on_a_clock_loses_on_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``shashki match --clock``: each game is played on the clock, the times are in the
    record, and an engine that does not answer loses when its flag falls."""
    pdn = tmp_path / "clock.pdn"
    status = main(
        ["match", "international", "--white", "1", "--black", f"hub:{fake_command('hang')}",
         "--games", "1", "--clock", "0.02+0", "--pdn", str(pdn)]
    )  # fmt: skip
    assert status == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert ", clock 0.02+0: +1 =0 -0" in last
    (game,) = list(read_file(pdn))
    assert game.header("TimeControl") == "1.2+0"
    assert game.header("Result") == "1-0", game.header("Termination")
    assert "time" in game.header("Termination"), game.header("Termination")
    assert record_clocks(game)[0] is not None  # White's move, on the clock


def test_a_clocked_match_between_two_levels_ends_as_the_rules_say(tmp_path: Path) -> None:
    variant = find_variant("russian")
    first = Computer(1, "shashki level 1", seed=1)
    second = Computer(2, "shashki level 2", seed=2)
    played = run_match(
        variant, first, second, games=2, openings=[Opening(None)], clock=TimeControl(6, 0.1)
    )
    for game in played:
        assert game.record.headers["TimeControl"] == "6+0.1"
        assert game.record.result in ("1-0", "0-1", "1/2-1/2")
        marks = record_clocks(game.record)
        assert marks and all(m is not None and 0 <= m <= 6 + 0.1 * len(marks) for m in marks)


def test_openings_from_lines_and_from_pdn(tmp_path: Path) -> None:
    variant = find_variant("russian")
    lines = tmp_path / "openings.txt"
    lines.write_text("# two openings\nc3-d4 f6-g5\nW:W21-32:B1-11\n\n", encoding="utf-8")
    openings = read_openings(str(lines), variant)
    assert [len(o.moves) for o in openings] == [2, 0]
    assert openings[1].game(variant).fen().startswith("W:W")
    pdn = tmp_path / "openings.pdn"
    pdn.write_text('[GameType "25"]\n\n1. c3-d4 f6-g5 *\n', encoding="utf-8")
    (opening,) = read_openings(str(pdn), variant)
    assert len(opening.moves) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("c3-d5\n", encoding="utf-8")
    with pytest.raises(ShashkiError, match="line 1"):
        read_openings(str(bad), variant)
    with pytest.raises(ShashkiError, match="cannot read"):
        read_openings(str(tmp_path), variant)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ShashkiError, match="no openings"):
        read_openings(str(empty), variant)


def test_openings_are_read_only_as_far_as_the_games_need(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file of a million openings cost minutes and hundreds of megabytes before the
    first of two games: now it is read as a stream, up to the last opening needed (what
    lies after it, here a line that is not an opening, is never read)."""
    variant = find_variant("russian")
    lines = tmp_path / "openings.txt"
    lines.write_text("# three, then garbage\nc3-d4\n\nc3-b4\ne3-d4\nnot an opening\n")
    assert [o.label for o in read_openings(str(lines), variant, count=3)] == [
        "line 2", "line 4", "line 5"
    ]  # fmt: skip
    with pytest.raises(ShashkiError, match="line 6"):
        read_openings(str(lines), variant)
    pdn = tmp_path / "openings.pdn"
    pdn.write_text('[GameType "25"]\n1. c3-d4 *\n\n[GameType "25"]\n1. c3-d5 *\n')
    (opening,) = read_openings(str(pdn), variant, count=1)
    assert len(opening.moves) == 1
    with pytest.raises(ShashkiError, match="the game at line 4"):
        read_openings(str(pdn), variant, count=2)
    # six games need three openings: the fourth line, garbage, is never read
    status = main(
        ["match", "russian", "--white", "1", "--black", "1", "--games", "6", "--depth", "1",
         "--max-plies", "2", "--openings", str(lines)]
    )  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "score 3/6" in out.strip().splitlines()[-1]


def test_an_empty_file_name_is_refused_not_taken_for_the_current_folder() -> None:
    from shashki.store.storage import GameLog, SaveError, save_pdn

    for save in (GameLog, lambda name: save_pdn(name, [])):
        with pytest.raises(SaveError, match="cannot save '': the file name is empty"):
            save("")


def test_an_opening_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shashki.hub.match as match_module

    variant = find_variant("russian")
    long_line = tmp_path / "long.txt"
    long_line.write_text(" " * 5000 + "c3-d4\n")
    with pytest.raises(ShashkiError, match="line 1: longer than 4096 characters"):
        read_openings(str(long_line), variant)
    monkeypatch.setattr(match_module, "MAX_OPENING_PLIES", 3)
    pdn = tmp_path / "long.pdn"
    pdn.write_text('[GameType "25"]\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 *\n')
    with pytest.raises(ShashkiError, match="has 4 plies: an opening has at most 3"):
        read_openings(str(pdn), variant)


def test_pentanomial_margin_of_paired_games() -> None:
    # 5 pairs (10 games, colours swapped in each pair); the first player's points a pair:
    # 2, 1.5, 1, 1, 0.5 -> a pair's score 1, .75, .5, .5, .25; mean 6/10 = .6.
    # Deviations .4, .15, -.1, -.1, -.35; squares .16 + .0225 + .01 + .01 + .1225 = .325;
    # variance of a pair .325 / 5 = .065; of the mean .065 / 5 = .013, sqrt = .1140175;
    # margin 1.96 * .1140175 = .2234743 (22.3%).
    # Elo(.6) = -400 log10(1/.6 - 1) = 400 * .1760913 = 70.4; at .6 -/+ .2234743:
    # Elo(.3765257) = -400 log10(1.6558583) = -87.6, Elo(.8234743) = -400 log10(.2143680) = 267.5.
    scores = [1, 1, 1, 0.5, 0.5, 0.5, 1, 0, 0, 0.5]
    stats = match_stats(scores)
    assert (stats.games, stats.wins, stats.draws, stats.losses) == (10, 4, 4, 2)
    assert (stats.model, stats.units, stats.points) == ("pentanomial", 5, 6)
    assert stats.mean == pytest.approx(0.6)
    assert stats.margin == pytest.approx(0.2234743, abs=1e-6)
    assert stats.elo == pytest.approx(70.4, abs=0.05)
    assert stats.elo_low == pytest.approx(-87.6, abs=0.1)
    assert stats.elo_high == pytest.approx(267.5, abs=0.1)
    assert stats.describe() == (
        "score 6/10 = 60.0% ± 22.3% (95%, pentanomial over 5 pairs), Elo +70 (95%: -88 to +268)"
    )


def test_trinomial_margin_of_an_odd_number_of_games() -> None:
    # 11 games (the last pair unfinished): 6 wins, 3 draws, 2 losses; mean 7.5/11 = .6818182.
    # (1 - .6818182)^2 = .1012397 x 6 = .6074380; (.5 - .6818182)^2 = .0330579 x 3 = .0991736;
    # .6818182^2 = .4648760 x 2 = .9297521; sum 1.6363636; variance of a game / 11 = .1487603;
    # of the mean / 11 = .0135237, sqrt = .1162915; margin 1.96 * .1162915 = .2279314 (22.8%).
    # Elo(.6818182) = -400 log10(.4666667) = 132.4; the interval's top, .6818 + .2279 =
    # .9097, stays below 1: Elo(.9097496) = -400 log10(.0992039) = 401.4;
    # bottom Elo(.4538868) = -400 log10(1.2031851) = -32.1.
    scores = [1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0, 0]
    stats = match_stats(scores)
    assert (stats.model, stats.units) == ("trinomial", 11)
    assert stats.margin == pytest.approx(0.2279314, abs=1e-6)
    assert stats.elo == pytest.approx(132.4, abs=0.05)
    assert stats.elo_low == pytest.approx(-32.1, abs=0.1)
    assert stats.elo_high == pytest.approx(401.4, abs=0.1)
    assert "± 22.8% (95%, trinomial over 11 games), Elo +132 (95%: -32 to +401)" in (
        stats.describe()
    )
    # the same games said to be unpaired: per game too
    assert match_stats(scores[:10], paired=False).model == "trinomial"


def test_no_margin_nor_elo_where_they_would_mean_nothing() -> None:
    two = match_stats([1.0, 0.5])  # two games: a score, nothing more
    assert two.margin is None and two.elo is None
    assert two.describe() == "score 1.5/2 = 75.0% (no margin nor Elo from 2 games: 10 at least)"
    assert "±" not in two.describe() and "Elo +" not in two.describe()
    drawn = match_stats([0.5] * 12)  # every game drawn: a spread of 0 says nothing
    assert drawn.margin is None and "every pair scored the same" in drawn.describe()
    # each player won with White: every pair 1-1, no margin either (never "± 0.0%")
    assert match_stats([1.0, 0.0] * 6).margin is None
    assert "every game ended the same" in match_stats([1.0] * 11).describe()
    # near 100%: pairs .. 1, 1, 1, 1, .75, mean .95, margin 1.96 * sqrt(.01 / 5) = .0877;
    # the interval's top 1.0377 passes 100%: the Elo's upper bound is unbounded
    near = match_stats([1.0, 1.0] * 4 + [1.0, 0.5])
    assert near.margin == pytest.approx(0.0876541, abs=1e-6)
    assert near.elo is not None and near.elo_high == float("inf")
    assert "to +inf)" in near.describe()
    with pytest.raises(ValueError):
        match_stats([])


def test_progress_within_a_game_says_the_move_and_the_clocks() -> None:
    variant = find_variant("russian")
    first = Computer(1, "shashki level 1", depth=1, seed=1)
    second = Computer(1, "shashki level 1b", depth=1, seed=2)
    lines: list[str] = []
    clock = TimeControl.parse("1+0")
    play_game(
        variant,
        first,
        second,
        Opening(None),
        max_plies=6,
        clock=clock,
        on_move=lambda session: lines.append(progress_text(3, 10, session)),
    )
    # once as the game starts, then after each of its 6 plies
    assert len(lines) == 7
    assert lines[0].startswith("game 3/10: move 1, White to move, White 1:00, Black 1:00")
    assert lines[1].startswith("game 3/10: move 1, Black to move, White ")
    assert lines[2].startswith("game 3/10: move 2, White to move")
    # the sixth ply ends the game (adjudicated): nobody is to move
    assert lines[6].startswith("game 3/10: move 4, White 0:")
    assert all(re.search(r"White \d+:\d\d(\.\d)?, Black \d+:\d\d", line) for line in lines)
    # without a clock: the move alone
    bare: list[str] = []
    play_game(
        variant,
        first,
        second,
        Opening(None),
        max_plies=2,
        limit=Limit(depth=1),
        on_move=lambda session: bare.append(progress_text(1, 2, session)),
    )
    assert bare[-2] == "game 1/2: move 1, Black to move" and bare[-1] == "game 1/2: move 2"


def test_run_match_reports_the_round_of_each_move() -> None:
    variant = find_variant("russian")
    first = Computer(1, "a", depth=1, seed=1)
    second = Computer(1, "b", depth=1, seed=2)
    seen: list[tuple[int, int]] = []
    run_match(
        variant,
        first,
        second,
        games=2,
        openings=[Opening(None)],
        max_plies=4,
        limit=Limit(depth=1),
        on_move=lambda round_, session: seen.append((round_, len(session.game.move_stack))),
    )
    assert seen == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 0), (2, 1), (2, 2), (2, 3), (2, 4)]


def quick_match(pdn: Path, games: int) -> int:
    """``shashki match`` between levels 1 and 2 at depth 1, its games written to ``pdn``."""
    return main(
        ["match", "russian", "--white", "1", "--black", "2", "--games", str(games),
         "--depth", "1", "--max-plies", "20", "--pdn", str(pdn)]
    )  # fmt: skip


def test_the_command_writes_every_game_and_ends_with_the_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdn = tmp_path / "match.pdn"
    status = quick_match(pdn, games=2)
    assert status == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("shashki level 1 v shashki level 2, Russian draughts, depth 1:")
    assert "score" in last and "from 2 games" in last
    assert "±" not in last and "Elo +" not in last and "Elo -" not in last  # 2 games: no margin
    games = list(read_file(pdn))
    assert len(games) == 2 and all(g.ok for g in games)
    assert games[0].header("White") == games[1].header("Black") == "shashki level 1"


def test_a_pdn_file_that_cannot_be_written_is_said_before_the_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for where in (tmp_path / "missing" / "match.pdn", tmp_path):
        status = main(
            ["match", "russian", "--white", "1", "--black", "1", "--games", "2", "--depth", "1",
             "--pdn", str(where)]
        )  # fmt: skip
        assert status == 2
        out, err = capsys.readouterr()
        assert "game 1" not in out and err.startswith("shashki: error: cannot save")


def test_an_interrupted_match_keeps_its_games_and_says_the_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shashki.hub.match as match_module

    real = match_module.play_game
    calls = 0

    def interrupted_in_the_third(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt  # Ctrl+C while the third game is played
        return real(*args, **kwargs)

    monkeypatch.setattr(match_module, "play_game", interrupted_in_the_third)
    pdn = tmp_path / "match.pdn"
    status = quick_match(pdn, games=10)
    assert status == 130
    out, err = capsys.readouterr()
    assert "score" in out and "/2 " in out and "2 games written" in out
    assert "interrupted after 2 of 10 games" in err
    assert len([g for g in read_file(pdn) if g.ok]) == 2


def test_a_pdn_file_failing_midway_is_said_and_the_match_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.store.storage import GameLog, SaveError

    real = GameLog.add

    def full_after_one(self: GameLog, record: Any) -> None:
        if self.count == 1:
            raise SaveError(f"cannot save {self.path}: No space left on device")
        real(self, record)

    monkeypatch.setattr(GameLog, "add", full_after_one)
    pdn = tmp_path / "match.pdn"
    status = quick_match(pdn, games=3)
    assert status == 2
    out, err = capsys.readouterr()
    assert "the games from now on are not written" in out
    assert all(f"game {n}:" in out for n in (1, 2, 3))  # all three played
    assert "score" in out.strip().splitlines()[-1]
    assert "No space left on device (1 game written before)" in err
    assert len(list(read_file(pdn))) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--white", "9", "--black", "1"],
        ["--white", "1", "--black", "1", "--games", "0"],
        ["--white", "1", "--black", "1", "--time", "-1"],
        ["--white", "1", "--black", "1", "--time", "nan"],
        ["--white", "1", "--black", "1", "--time", "１"],
        ["--white", "1", "--black", "1", "--time", "1e-1"],
        ["--white", "1", "--black", "1", "--time", "0_5"],
        ["--white", "1", "--black", "1", "--time", "3601"],
        ["--white", "1", "--black", "1", "--time", "0"],
        ["--white", "1", "--black", "1", "--openings", "/nonexistent"],
        ["--white", "1", "--black", "1", "--openings", ""],  # (an empty name is a name)
        ["--white", "1", "--black", "1", "--pdn", ""],
        ["--white", "1"],
    ],
)
def test_bad_arguments_are_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        status = main(["match", "russian", *args])
        raise SystemExit(status)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0] and "Traceback" not in err[0]


def _dame() -> str:
    found = shutil.which("dame") or str(Path(sys.executable).with_name("dame"))
    if not os.access(found, os.X_OK):
        pytest.skip("dame-rs is not installed (its wheel is for CPython 3.11 on x86-64 Linux)")
    return found


def test_one_short_game_against_dame_rs(capsys: pytest.CaptureFixture[str]) -> None:
    dame = _dame()
    status = main(
        ["match", "international", "--white", "1", "--black", f"hub:{dame} hub", "--games",
         "1", "--time", "0.05", "--max-plies", "30"]
    )  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "shashki level 1 v dame" in out.strip().splitlines()[-1]
    assert "lost" not in out  # dame answered legal moves within its time, every move
    assert Game("international").legal_moves()  # (the referee's rules)


def test_engine_names_reach_the_progress_line_and_the_pdn_as_plain_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ``id name=`` with escape sequences and control characters (tests/hub/
    fake_engine.py's ``escape``) is cleaned before the terminal and the PDN tags."""
    pdn = tmp_path / "match.pdn"
    status = main(
        ["match", "international", "--white", f"hub:{fake_command('escape')}", "--black", "1",
         "--games", "2", "--time", "0.1", "--max-plies", "4", "--pdn", str(pdn)]
    )  # fmt: skip
    assert status == 0
    out = capsys.readouterr().out
    assert "fake-esca pe v shashki level 1" in out
    assert not any(c in out for c in "\x1b\x07\x7f\x08\x9b\u202e\r")
    games = list(read_file(pdn))
    assert [g.header("White") for g in games] == ["fake-esca pe", "shashki level 1"]
    assert [g.header("Black") for g in games] == ["shashki level 1", "fake-esca pe"]


def test_a_match_logs_its_engines_to_the_engine_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.engine.hub import transport

    monkeypatch.setattr(transport, "_chosen_log", None)  # (put back after the test)
    log = tmp_path / "engines.log"
    status = main(
        ["match", "international", "--white", f"hub:{fake_command('ok')}", "--black", "1",
         "--games", "1", "--time", "0.1", "--max-plies", "4", "--engine-log", str(log)]
    )  # fmt: skip
    assert status == 0
    text = log.read_text(encoding="utf-8")
    assert " > hub" in text and " > go think" in text and " < done move=" in text
    capsys.readouterr()
    status = main(["--engine-log", str(tmp_path), "match", "international", "--white", "1",
                   "--black", "1", "--games", "1", "--depth", "1"])  # fmt: skip
    assert status == 2
    out, err = capsys.readouterr()
    assert "game 1" not in out and err.startswith("shashki: error: cannot write the engine log")


def test_the_limit_said_is_how_each_player_searches_and_lines_are_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Level 2 searches to its own depth, level 6 for the time a move: the summary and the
    PDN's Event say so (not "0.5 s a move" for both), and a game's line is one line in a
    file (rich wrapped it at 80 columns)."""
    pdn = tmp_path / "match.pdn"
    status = main(
        ["match", "russian", "--white", "2", "--black", "6", "--games", "1",
         "--max-plies", "2", "--pdn", str(pdn)]
    )  # fmt: skip
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "depth 2 v 0.5 s a move:" in lines[-1]
    game = next(line for line in lines if line.startswith("game 1:"))
    assert game.endswith("(Draw: adjudicated at the limit of 2 plies.)"), lines
    assert next(iter(read_file(pdn))).header("Event") == "shashki match: depth 2 v 0.5 s a move"
    # both of a fixed depth: one limit
    main(["match", "russian", "--white", "1", "--black", "1", "--games", "1", "--max-plies", "2"])
    assert "level 1, Russian draughts, depth 1:" in capsys.readouterr().out


def test_the_progress_bar_says_games_in_the_language_spoken() -> None:
    """The match's bar names what it counts in the user's language (it read "games" in
    every language)."""
    from rich.console import Console

    from shashki.commands.match import _progress
    from shashki.i18n import set_language

    set_language("uk")
    try:
        bar, _now = _progress(Console(force_terminal=True), find_variant("russian"), 4)
        assert [task.description for task in bar.progress.tasks] == ["партії"]
    finally:
        set_language("en")
