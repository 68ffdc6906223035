"""The command line is reproducible: without ``--fen`` a command starts from the
variant's default start, the same every run; ``--seed N`` draws the lot of a variant that
draws its start (Artamonov's first mover) from ``random.Random(N)``.  And perft refuses,
in one line with exit status 2, a depth it cannot finish; numbers of any size are read.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shashki.cli import main
from shashki.rules import Game
from shashki.rules.notation import move_text

NORTH_SEED = 0  # random.Random(0) draws North
SOUTH_SEED = 1


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def divide_text(game: Game, depth: int) -> str:
    """What ``perft --divide`` prints for ``game``."""
    legal = game.legal_moves()
    lines = [f"{move_text(game.variant, m, legal, full=True)} {n}" for m, n in game.divide(depth)]
    return "\n".join([*lines, str(game.perft(depth))]) + "\n"


def test_perft_starts_from_the_default_start_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    south = divide_text(Game("artamonov", start="South"), 2)
    for _ in range(8):
        assert run(capsys, "perft", "artamonov", "2", "--divide") == (0, south, "")
    default = divide_text(Game("wolf-sheep", start="e1"), 3)
    assert run(capsys, "perft", "wolf-sheep", "3", "--divide") == (0, default, "")


def test_seed_draws_the_lot(capsys: pytest.CaptureFixture[str]) -> None:
    north = divide_text(Game("artamonov", start="North"), 2)
    south = divide_text(Game("artamonov", start="South"), 2)
    assert north != south
    for _ in range(3):
        assert run(capsys, "perft", "artamonov", "2", "--divide", "--seed", str(NORTH_SEED)) == (
            0,
            north,
            "",
        )
        assert run(capsys, "perft", "artamonov", "2", "--divide", "--seed", str(SOUTH_SEED)) == (
            0,
            south,
            "",
        )


@pytest.mark.parametrize("seed", ["-1", "-99999999999999999999", "9" * 5000, "+7"])
def test_a_seed_of_any_size(capsys: pytest.CaptureFixture[str], seed: str) -> None:
    first = run(capsys, "perft", "artamonov", "2", "--divide", "--seed", seed)
    assert first[0] == 0 and first[2] == ""
    assert run(capsys, "perft", "artamonov", "2", "--divide", "--seed", seed) == first


def test_best_is_the_same_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    def answer(*extra: str) -> tuple[str, list[str]]:
        code, out, err = run(capsys, "best", "artamonov", "--depth", "3", *extra)
        assert code == 0 and err == ""
        lines = out.splitlines()
        # the move and, for each depth, the score and the principal variation (not the time)
        return lines[-1], [line.split("time")[0] + line.split(" pv ")[-1] for line in lines[:-2]]

    first = answer()
    game = Game("artamonov", start="South")
    assert first[0] in {move_text(game.variant, m, full=True) for m in game.legal_moves()}
    for _ in range(4):
        assert answer() == first
    drawn = answer("--seed", str(NORTH_SEED))
    assert answer("--seed", str(NORTH_SEED)) == drawn
    north = Game("artamonov", start="North")
    assert drawn[0] in {move_text(north.variant, m, full=True) for m in north.legal_moves()}


def test_play_passes_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    import shashki.commands.common as common

    seen: dict[str, object] = {}
    monkeypatch.setattr(
        common, "run_app", lambda start=None, **kw: seen.update(kw, start=start) or 0
    )
    assert main(["play", "artamonov", "--seed", "12"]) == 0
    assert seen["start"].seed == 12
    assert main(["play", "artamonov"]) == 0
    assert seen["start"].seed is None  # the app draws the lot itself, and records it


@pytest.mark.parametrize(
    "argv",
    [
        ("perft", "russian", "99999999999999999999"),
        ("perft", "russian", "9" * 5000),
        ("perft", "russian", "-" + "9" * 5000),
        ("perft", "russian", "100000", "--divide"),
        ("perft", "russian", "25"),
        ("perft", "turkish", "16", "--divide"),
        ("perft", "artamonov", "40", "--seed", "3"),
        ("perft", "russian", "1", "--seed", "x"),
        ("perft", "russian", "1", "--seed", "1.5"),
        ("perft", "russian", "1", "--seed", "٣"),  # a digit, but not an ASCII one
        ("perft", "russian", "1", "--seed", "3", "--fen", "W:Wc3:Bd6"),
        ("best", "russian", "--seed", "3", "--fen", "W:Wc3:Bd6", "--depth", "1"),
        ("play", "russian", "--seed", "3", "--fen", "W:Wc3:Bd6"),
    ],
)
def test_refused_in_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "error" in err
    assert len(err) < 400  # never the whole of a huge number


def test_perft_says_how_deep_it_can_count(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "perft", "russian", "25")
    assert "depth 25 cannot be finished" in err and "counts to depth 18" in err
    _, _, err = run(capsys, "perft", "russian", "99999999999999999999")
    assert "99999999999999999999" in err and "at most 100 plies" in err
    _, _, err = run(capsys, "perft", "russian", "9" * 5000)
    assert "5000 digits" in err
    # a tree that ends is counted to any depth perft walks
    assert run(capsys, "perft", "russian", "60", "--fen", "W:Wa1:Bb2,c3") == (0, "0\n", "")


def _installed() -> str:
    script = Path(sys.executable).with_name("shashki")
    if not script.exists():
        pytest.skip(f"{script} is not installed (pip install -e .)")
    return str(script)


def test_two_runs_of_the_command_print_the_same() -> None:
    shashki = _installed()

    def output(*argv: str) -> str:
        done = subprocess.run(
            [shashki, *argv], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    for argv in (
        ("perft", "artamonov", "2", "--divide"),
        ("perft", "artamonov", "1", "--seed", "0"),
    ):
        assert output(*argv) == output(*argv)
