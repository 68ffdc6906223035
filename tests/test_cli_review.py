"""``shashki review FILE --print``: the summary, the game written back with its review, and
one line with exit status 2 for each mistake of the user."""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.cli import main
from shashki.records import read_games_text

#: The start of a Russian game (World Championship 1998, Guba–Yumshanov).
GAME = """[Event "review test"]
[GameType "25"]
[Result "*"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. c3-b4 *
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_print_gives_the_summary_and_writes_the_review(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.pdn"
    path.write_text(GAME, encoding="utf-8")
    args = ["--lang", "en", "review", str(path), "--print", "--depth", "quick", "--workers", "1"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "White: accuracy" in out and "Black: accuracy" in out
    # the game on the standard output, the summary beside it on the standard error
    code, out, err = run(capsys, *args, "--output", "-")
    assert code == 0, err
    assert "White: accuracy" in err and "accuracy" not in out
    [record] = read_games_text(out)
    assert len(record.mainline_moves()) == 5
    assert out.count("[%eval ") == 6  # the start and each move's position
    assert record.header("Annotator") == "shashki review"
    # to a file: read back, nothing searched again
    saved = tmp_path / "reviewed.pdn"
    code, out, err = run(capsys, *args, "--output", str(saved))
    assert code == 0, err
    assert saved.read_text(encoding="utf-8").count("[%eval ") == 6


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["review", "{missing}", "--print"], "no such file"),
        (["review", "{dir}", "--print"], "cannot read"),
        (["review", "{game}", "--game", "0", "--print"], "--game must be 1 or more"),
        (["review", "{game}", "--game", "2", "--print"], "has no game number 2"),
        (["review", "{game}", "--workers", "0", "--print"], "--workers must be 1 to 256"),
        (["review", "{game}", "--output", "-"], "go with --print"),
        (["review", "{empty}", "--print"], "no move to review"),
    ],
)
def test_mistakes_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], said: str
) -> None:
    game = tmp_path / "game.pdn"
    game.write_text(GAME, encoding="utf-8")
    empty = tmp_path / "empty.pdn"
    empty.write_text('[GameType "25"]\n[Result "*"]\n\n*\n', encoding="utf-8")
    names = {"missing": tmp_path / "nope.pdn", "dir": tmp_path, "game": game, "empty": empty}
    code, out, err = run(capsys, "--lang", "en", *[a.format(**names) for a in argv])
    assert code == 2
    assert said in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out
