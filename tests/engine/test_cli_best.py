"""``shashki best``: the search's progress, then the chosen move as the last line; a
mistake is one line on stderr and exit status 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shashki.cli import main
from shashki.rules import Game
from shashki.rules.game import game_state
from shashki.rules.notation import parse_move


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["best", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_best_prints_progress_and_the_move_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "russian", "--depth", "4")
    assert code == 0 and err == ""
    lines = out.strip().splitlines()
    progress = [line for line in lines if line.startswith("depth ")]
    assert [int(line.split()[1]) for line in progress] == [1, 2, 3, 4]
    for line in progress:
        assert "score" in line and "nodes" in line and " pv " in line
    game = Game("russian")
    move = parse_move(game.variant, lines[-1], game.legal_moves(), game_state(game))
    assert move in game.legal_moves()


def test_best_writes_every_landing_square_of_a_capture(capsys: pytest.CaptureFixture[str]) -> None:
    # the shot of tests/engine/test_tactics.py, one ply later: d2 takes three
    fen = "W:Wa3,d2,e1,h2:Bc3,c5,e7,h6,g7"
    code, out, _ = run(capsys, "russian", "--fen", fen, "--time", "0.5")
    assert code == 0
    assert out.strip().splitlines()[-1] == "d2:b4:d6:f8"


def test_best_numeric_variant_and_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "international", "--time", "0.3")
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last.replace("-", "").isdigit()


@pytest.mark.parametrize(
    "args",
    [
        ("nosuchvariant",),
        ("russian", "--fen", "W:Wz9"),
        ("russian", "--depth", "0"),
        ("russian", "--time", "-1"),
        ("russian", "--time", "1", "--depth", "2"),
        ("russian", "--fen", "B:Wc3:B"),  # Black has nothing left: the game is over
        ("russian", "--fen", "W:Wa1:Bb2,c3"),  # White is blocked: no legal move
        ("wolf-sheep", "--fen", "B:WKb8:Ba7,d8,f8,h8"),  # the wolf has reached the far row
        ("russian", "--depth", "99999999999999999999"),
        ("russian", "--depth", "9" * 5000),
        ("russian", "--depth", "201"),
        ("russian", "--depth", "-3"),
        ("russian", "--depth", "1e3"),
        ("russian", "--time", "1e308"),
        ("russian", "--time", "1e999"),
        ("russian", "--time", "nan"),
        ("russian", "--time", "inf"),
        ("russian", "--time", "-inf"),
        ("russian", "--time", "0"),
    ],
)
def test_best_mistakes_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    try:
        code = main(["best", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "error" in err
    assert len(err) < 300  # (a long number is not echoed)


def test_best_plays_a_solved_ending_from_the_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    # three kings against one, White on the main road: Petrov's triangle; without a
    # clock (a depth only) the table is built
    fen = "W:WKa1,Kb2,Kc1:BKe7"
    code, out, _ = run(capsys, "russian", "--fen", fen, "--depth", "1")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith("ending table: win in ")
    game = Game("russian", fen)
    move = parse_move(game.variant, lines[-1], game.legal_moves(), game_state(game))
    from shashki.engine.endings import perfect_moves

    assert move in perfect_moves(game)[1]  # type: ignore[index]


def test_best_says_when_the_game_is_over(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "wolf-sheep", "--fen", "B:WKb8:Ba7,d8,f8,h8")
    assert code == 2 and out == ""
    assert err.strip() == (
        "shashki: error: there is no move to find. "
        f"{Game('wolf-sheep', 'B:WKb8:Ba7,d8,f8,h8').outcome().describe(('Wolf', 'Sheep'))}"  # type: ignore[union-attr]
    )


def test_best_on_the_clock_does_not_build_an_ending_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from shashki.engine import endings

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(endings, "_TABLES", {})
    # (two kings against two on the 10x10 board: not shipped, three million positions)
    fen = "W:WK46,K50:BK1,K5"
    code, out, _ = run(capsys, "international", "--fen", fen, "--time", "0.2")
    assert code == 0
    assert not out.startswith("ending table") and out.splitlines()[-1]
    # (the shipped tables of three pieces it searches into may be read; nothing is built)
    assert ("international", (2, 0, 2, 0)) not in endings._TABLES
    assert all(endings.is_shipped(t.variant, t.material) for t in endings._TABLES.values())
    assert not list(tmp_path.rglob("*.bin"))


def test_best_stops_on_ctrl_c_with_the_best_move_so_far(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import os
    import signal
    import threading

    before = signal.getsignal(signal.SIGINT)  # (ignored when the tests run in the background)
    # Ctrl+C half a second into a search without a clock
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        code, out, err = run(capsys, "russian", "--depth", "100")
    finally:
        timer.cancel()
    assert code == 2 and err == "shashki: error: interrupted\n"
    lines = out.strip().splitlines()
    assert lines[-2].startswith("best ")
    game = Game("russian")
    assert parse_move(game.variant, lines[-1], game.legal_moves(), game_state(game))
    assert signal.getsignal(signal.SIGINT) is before  # put back


def test_best_says_when_listing_the_moves_takes_longer_than_its_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # one Turkish king against twenty: listing its moves takes a second or more
    fen = "W:WKd8:BKe1,Kg7,Kc1,Ka7,Ke3,Ke5,Kd6,Kd2,Kc8,Kh6,Kf6,Kb6,Ka4,Kf2,Kb2,Kc3,Ke8,Kc5,Kd4,Kg5"
    code, out, err = run(capsys, "turkish", "--fen", fen, "--time", "0.001")
    assert code == 0
    # either the listing finished late, or (majority rule) the moves found that take every
    # enemy piece were offered: none can take more, so the choice among them is legal
    assert re.match(
        r"shashki: warning: the legal moves of this position could not all be listed in "
        r"the 0\.001 s allowed; the move was chosen by a quick look "
        r"(once they were listed, in \d+\.\d s|among the \d+ listed in time)$",
        err.strip(),
    ), err
    assert len(err.strip().splitlines()) == 1
    game = Game("turkish", fen)
    move = parse_move(
        game.variant, out.strip().splitlines()[-1], game.legal_moves(), game_state(game)
    )
    assert move in game.legal_moves()
