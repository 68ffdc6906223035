"""``shashki best``: the search's progress, then the chosen move as the last line; a
mistake is one line on stderr and exit status 2."""

from __future__ import annotations

import pytest

from shashki.cli import main
from shashki.notation import parse_move
from shashki.rules import Game


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
    move = parse_move(game.variant, lines[-1], game.legal_moves(), game.position)
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


def test_best_plays_a_solved_ending_from_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    # three kings against one, White on the main road: Petrov's triangle
    fen = "W:WKa1,Kb2,Kc1:BKe7"
    code, out, _ = run(capsys, "russian", "--fen", fen)
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith("ending table: win in ")
    game = Game("russian", fen)
    move = parse_move(game.variant, lines[-1], game.legal_moves(), game.position)
    from shashki.engine.endings import perfect_moves

    assert move in perfect_moves(game)[1]  # type: ignore[index]
