"""Every benchmark script starts: its imports still name what the package has (two of
them failed to import for a day after the match runner moved to the session layer, and no
test saw it).  The figures themselves are the benchmarks' business, not the tests'."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


def _run(script: Path | str, *args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """A benchmark script (a path, or a name in benchmarks/) run with ``args``."""
    path = script if isinstance(script, Path) else ROOT / "benchmarks" / script
    return subprocess.run(
        [sys.executable, str(path), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_there_are_benchmarks() -> None:
    assert len(SCRIPTS) >= 10


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_benchmark_starts_and_says_how_it_is_used(script: Path) -> None:
    done = _run(script, "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout.lower()


def test_the_tally_takes_runs_together_in_whole_pairs(tmp_path: Path) -> None:
    """benchmarks/tally.py: the games of several runs' logs scored as one match; a log
    cut with ``:N`` and one ending in the middle of a pair give only whole pairs."""
    line = "  game {n}: 1-0 (White wins: Black has no pieces left.) score {s}\n"
    first = tmp_path / "first.log"
    first.write_text("".join(line.format(n=n, s=s) for n, s in enumerate([1, 0.5, 1, 0], 1)))
    second = tmp_path / "second.log"
    second.write_text(
        "noise\n" + "".join(line.format(n=n, s=s) for n, s in enumerate([0, 0, 1], 1))
    )
    done = _run("tally.py", f"{first}:4", str(second))
    assert done.returncode == 0, done.stderr
    assert "the last one left out" in done.stdout
    # 1, 0.5, 1, 0 and 0, 0 (the third game of the second log is half a pair)
    assert "together: +2 =1 -3, score 2.5/6" in done.stdout


def test_the_tally_refuses_what_is_not_a_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text("  game 1: 1-0 (…) score 7\n  game 2: 0-1 (…) score 0\n")
    for args in ([str(bad)], [str(tmp_path / "missing.log")], [str(tmp_path)]):
        done = _run("tally.py", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stderr.startswith("tally: ") and "Traceback" not in done.stderr


def test_the_endings_benchmark_judges_each_choice(tmp_path: Path) -> None:
    """benchmarks/endings.py --each over two positions of its file: a line for each (the
    choice, Scan's score of it, lost or not) and the count, from the file given."""
    lines = (ROOT / "benchmarks" / "endings.txt").read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.strip() and not line.startswith("#")]
    data = tmp_path / "two.txt"
    # the 33rd: every move lost; the 18th: a draw kept by 44-35 or 44-49 and lost by the rest
    data.write_text(rows[32] + "\n" + rows[17] + "\n", encoding="utf-8")
    done = _run("endings.py", "--time", "0.2", "--each", "--data", str(data), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout.splitlines()
    assert out[0].startswith(" 1  5 pieces: ") and out[0].endswith("lost (every move lost)")
    assert out[1].startswith(" 2  5 pieces: ")
    assert out[2].startswith("2 positions, 0.2 s each: a move Scan sees lost ")
    assert "of the 1 where a move is not lost" in out[2]


def test_the_losses_benchmark_charges_each_move_its_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/losses.py: what a move cost its player is Scan's score before it less
    the score at the next choice, the mover's view, the game's end scored by its result
    (a win held within the clip); the scores here stand in for Scan's."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import losses

    from shashki.records import read_games_text

    text = '[White "north"]\n[Black "south"]\n[Result "1-0"]\n[GameType "20"]\n\n'
    text += "1. 32-28 19-23 2. 28x19 14x23 1-0\n"
    (record,) = read_games_text(text)
    # the side to move's score before each ply (the third, 28x19, is forced: not asked)
    by_ply = {0: 0, 1: 0, 2: 999, 3: -60}
    asked: list[int] = []

    def score(game: object) -> int:
        asked.append(game.ply)  # type: ignore[attr-defined]
        return by_ply[game.ply]  # type: ignore[attr-defined]

    worst: list[tuple[int, str, int, str, str]] = []
    games, sums = losses.costs([record], score, 500, worst)
    assert games == 1 and asked == [0, 1, 3]
    # White: 0 - (-0) = 0; Black: 0 - (-60) = 60 (its next choice is its own again) and
    # -60 - (-500) = 440 (White's win at the end, held within 500)
    assert sums[("north", "31+ pieces")] == [1, 0, 0, 0]
    assert sums[("south", "31+ pieces")] == [2, 500, 2, 1]
    # the move that cost a man or more: Black's last choice
    assert [(cost, who, move) for cost, who, _, _, move in worst] == [(440, "south", "14x23")]


def test_the_draws_are_told_from_the_player_s_side(tmp_path: Path) -> None:
    """benchmarks/draws.py: the games of the named player, by result, and how the draws
    ended; a file with none of its games is a message, not a traceback."""
    game = (
        '[White "{w}"]\n[Black "{b}"]\n[Result "{r}"]\n[GameType "20"]\n'
        '[Termination "{t}"]\n\n1. 32-28 19-23 2. 28x19 14x23 {r}\n\n'
    )
    games = tmp_path / "games.pdn"
    games.write_text(
        game.format(w="shashki", b="dame", r="1/2-1/2", t="Draw: agreed.")
        + game.format(w="dame", b="shashki", r="0-1", t="Black wins.")
        + game.format(w="dame", b="other", r="1-0", t="White wins.")
    )
    done = _run("draws.py", str(games), "--plies", "1", "--ahead", "1")
    assert done.returncode == 0, done.stderr
    assert "2 games of shashki" in done.stdout
    assert "won: 1," in done.stdout and "drawn: 1," in done.stdout and "lost: 0," in done.stdout
    assert "1  Draw: agreed." in done.stdout
    done = _run("draws.py", str(games), "--player", "nobody")
    assert done.returncode == 1 and "no game of 'nobody'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_search_benchmark_weighs_a_switch_by_the_tree_it_makes() -> None:
    """benchmarks/search.py --depth with --options: the same positions, another tree (the
    nodes column); a switch it does not know is refused in one line."""

    def nodes(*extra: str) -> int:
        done = _run("search.py", "--only", "russian", "--positions", "2", "--depth", "4", *extra)
        assert done.returncode == 0, done.stderr[-2000:]
        return int(done.stdout.splitlines()[-1].split()[-1])

    assert nodes("--options", "probcut=false") != nodes()
    for bad in ("nonsense=1", "exchanges"):
        done = _run("search.py", "--depth", "2", "--options", bad)
        assert done.returncode == 2, done.stdout
        assert "--options" in done.stderr and "Traceback" not in done.stderr
