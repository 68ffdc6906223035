"""``shashki check FILE… [--variant V] [--json]``."""

from __future__ import annotations

import gc
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from shashki.cli import main

GOOD = '[Event "a"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. b2-c3 *\n\n[Event "b"]\n1. 32-28 1-0\n'
BAD = '[Event "c"]\n[GameType "25"]\n\n1. c3-d4 f6-g5\n2. d4-f6 *\n'


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("good.pdn", GOOD), ("bad.pdn", BAD)):
        out[name] = tmp_path / name
        out[name].write_text(text, encoding="utf-8")
    out["english.pdn"] = tmp_path / "english.pdn"
    out["english.pdn"].write_text("1. 11-15 23-19 2. 8-11 *\n")
    out["games.json"] = tmp_path / "games.json"
    out["games.json"].write_text(json.dumps([GOOD, "1. 33-28 *"]))
    return out


def test_every_game_ok(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    # by default only the summary (and the games with errors); --verbose lists every game
    assert main(["check", str(files["good.pdn"])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["1 file, 2 games, 4 half-moves: 2 ok, 0 with errors"]
    assert main(["check", "--verbose", str(files["good.pdn"])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("game 1, line 1: ok, 3 half-moves")
    assert out[1].endswith("game 2, line 5: ok, 1 half-move")
    assert out[-1] == "1 file, 2 games, 4 half-moves: 2 ok, 0 with errors"


def test_first_error_with_line_column_and_reason(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(files["good.pdn"]), str(files["bad.pdn"])]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "bad.pdn" in x)
    # the place named once: the error's own line and column
    assert line.endswith("bad.pdn: game 1: line 5, column 4: " + line.split("column 4: ")[1])
    assert "'d4-f6'" in line and len(re.findall(r"\bline \d", line)) == 1
    assert "2 files, 3 games" in out and "2 ok, 1 with errors" in out
    assert [x for x in out.splitlines() if "good.pdn" in x] == []  # good games: not listed


def test_a_move_on_squares_no_board_has_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``1. z9-z8 *`` is a game whose first move cannot be played, not "ok, 0 moves"."""
    path = tmp_path / "z.pdn"
    path.write_text("1. z9-z8 *\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "game 1: line 1, column 4: 'z9-z8': 'z9' is not a square of this 10x10 board" in out
    assert out.splitlines()[-1] == "1 file, 1 game, 0 half-moves: 0 ok, 1 with errors"


def test_variant_option_is_the_default_for_untagged_games(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # without --variant, the variant of untagged games is guessed from their moves
    assert main(["check", str(files["english.pdn"])]) == 0
    assert "are read as English draughts, guessed from their moves" in capsys.readouterr().out
    # most untagged games fail even so: the variant is likely another, and --variant is
    # suggested
    broken = files["english.pdn"].with_name("broken.pdn")
    broken.write_text("1. 11-15 11-15 *\n")
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "1 of 1 game names no variant and does not replay as English draughts (the guess)" in out
    assert "--variant VARIANT" in out
    assert main(["check", "--variant", "english", str(files["english.pdn"])]) == 0
    assert main(["check", "--variant", "checkers", str(files["english.pdn"])]) == 0  # alias
    assert "--variant" not in capsys.readouterr().out
    # a file whose failing game is tagged: no suggestion
    assert main(["check", str(files["bad.pdn"])]) == 1
    assert "--variant" not in capsys.readouterr().out


def test_json_report(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "--json", str(files["good.pdn"]), str(files["bad.pdn"])])
    assert status == 1
    report = json.loads(capsys.readouterr().out)
    assert {k: report[k] for k in ("files", "games", "moves", "errors", "games_ok")} == {
        "files": 2,
        "games": 3,
        "moves": 6,
        "errors": 1,
        "games_ok": 2,
    }
    [failed] = report["games_with_errors"]
    assert failed["file"] == str(files["bad.pdn"]) and failed["game"] == 1
    [error] = failed["errors"]
    assert (error["line"], error["column"], error["move"]) == (5, 4, "d4-f6")
    assert error["fen"].startswith("W:") and "not a legal move" in error["reason"]


def test_json_fixture_files(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", str(files["games.json"])]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 3 and report["errors"] == 0


def test_unreadable_file_is_one_line_and_exit_2(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.pdn"
    assert main(["check", str(missing), str(files["good.pdn"])]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("shashki: error: cannot read") and str(missing) in captured.err
    assert "1 file, 2 games" in captured.out  # the other files are still checked


def test_unknown_variant_is_a_user_mistake(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--variant", "nonsense", str(files["good.pdn"])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shashki: error: unknown variant 'nonsense'") and err.count("\n") == 1


def test_no_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["check"])
    assert info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_binary_garbage_does_not_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.pdn"
    junk.write_bytes(bytes(range(256)) * 20)
    assert main(["check", str(junk)]) in (0, 1)
    capsys.readouterr()


def test_as_a_command(files: dict[str, Path]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "check", "--json", str(files["bad.pdn"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1 and json.loads(proc.stdout)["errors"] == 1 and not proc.stderr


# -- special files, encodings and streaming ------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo.pdn"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", ["check", "replay"])
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("fifo", "a pipe (FIFO), not a regular file"),
        ("/dev/zero", "a device, not a regular file"),
        ("folder", "a folder, not a file"),
    ],
)
def test_special_files_are_one_line_and_exit_2(
    command: str, name: str, words: str, fifo: Path, tmp_path: Path
) -> None:
    """Run as a command: a FIFO with no writer or /dev/zero would block or read forever
    if they were opened as files (the timeout only stops a hang)."""
    path = {"fifo": str(fifo), "folder": str(tmp_path)}.get(name, name)
    json_path = tmp_path / "fifo.json"
    if name == "fifo":
        os.mkfifo(json_path)
    paths = [path, str(json_path)] if name == "fifo" and command == "check" else [path]
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", command, *paths],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == len(paths) and all(words in line for line in lines), proc.stderr
    assert lines[0] == f"shashki: error: cannot read {path}: {words}"
    assert "Traceback" not in proc.stderr


def test_replay_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.pdn")]) == 2
    assert capsys.readouterr().err == f"shashki: error: {tmp_path / 'nope.pdn'}: no such file\n"


def test_a_file_that_cannot_be_decoded_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    utf16 = tmp_path / "utf16.pdn"
    utf16.write_bytes(GOOD.encode("utf-16"))
    broken = tmp_path / "broken16.pdn"
    broken.write_bytes(GOOD.encode("utf-16")[:40] + b"\x00\xdc" + GOOD.encode("utf-16-le"))
    assert main(["check", str(utf16)]) == 0
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "2 games, 4 half-moves: 2 ok" in out
    assert "the file is not valid UTF-16 text (byte 40" in out


def broken_games(count: int) -> str:
    game = '[Event "{0}"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. d4-f6 *\n'
    return "".join(game.format(i) for i in range(count))


def test_json_report_streams_the_same_report(
    tmp_path: Path, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Games with errors, with warnings only, and none: the JSON written as the games
    arrive is one document with every game in its array and the totals."""
    warned = tmp_path / "warned.pdn"
    warned.write_text('[Event "w"]\n1. 32-28 White resigns 1-0\n' * 3)
    bad = tmp_path / "many.pdn"
    bad.write_text(broken_games(5))
    args = [str(files["good.pdn"]), str(warned), str(bad), str(tmp_path / "missing.pdn")]
    assert main(["check", "--json", *args]) == 2
    report = json.loads(capsys.readouterr().out)
    assert [g["game"] for g in report["games_with_errors"]] == [1, 2, 3, 4, 5]
    assert [(g["file"], g["game"]) for g in report["games_with_warnings"]] == [
        (str(warned), 1),
        (str(warned), 2),
        (str(warned), 3),
    ]
    assert report["games"] == 10 and report["games_ok"] == 5 and report["games_failed"] == 5
    assert report["warnings"] == 3 and report["files"] == 3
    assert report["unreadable"] == [{"file": args[-1], "reason": "No such file or directory"}]
    assert main(["check", "--json", str(files["good.pdn"])]) == 0
    empty = json.loads(capsys.readouterr().out)
    assert empty["games_with_errors"] == [] and empty["games_with_warnings"] == []


@pytest.mark.parametrize("as_json", [False, True])
def test_check_keeps_nothing_per_game(
    tmp_path: Path, as_json: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The peak memory of checking 1,000 broken games is about that of 100: nothing
    is kept per game (the output goes to /dev/null, not to memory)."""

    def peak(count: int) -> int:
        path = tmp_path / f"broken{count}.pdn"
        path.write_text(broken_games(count))
        with open(os.devnull, "w") as sink:
            monkeypatch.setattr(sys, "stdout", sink)
            gc.collect()
            tracemalloc.start()
            try:
                assert main(["check", *(["--json"] if as_json else []), str(path)]) == 1
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
                monkeypatch.undo()

    peak(20)  # what is made once (variants, caches) is not counted below
    small, large = peak(100), peak(1000)
    assert large < small * 2, (small, large)


@pytest.mark.parametrize(
    ("number", "words"),
    [
        ("0", "shashki: error: --game must be 1 or more, not 0"),
        ("-" + "9" * 5000, "shashki: error: --game must be 1 or more, not a negative number"),
        ("9" * 5000, "shashki: error: --game N: no file has that many games"),
        ("²", "shashki replay: error: argument --game: not a whole number: '²'"),
        ("x" * 5000, "shashki replay: error: argument --game: not a whole number: 'xxxx"),
    ],
    ids=["zero", "negative", "5000-digits", "superscript", "letters"],
)
def test_replay_game_numbers_of_any_size(
    number: str, words: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["replay", f"--game={number}", str(files["good.pdn"])]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own one line
        status = int(str(exc.code))
    err = capsys.readouterr().err
    assert status == 2 and err.startswith(words) and err.count("\n") == 1, err
    assert len(err) < 200


def test_a_warning_counted_is_shown_without_verbose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The summary's "1 warning" is shown with its game's line, not only with --verbose;
    the counts take their noun's number ("1 file", "2 games") and say half-moves (a
    move is both sides', as players count)."""
    warned = tmp_path / "warned.pdn"
    warned.write_text('[Event "w"]\n1. 32-28 White resigns 1-0\n')
    assert main(["check", str(warned)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 file, 1 game, 1 half-move: 1 ok, 0 with errors, 1 warning", out
    assert len(out) == 2 and "game 1, line 1: ok, 1 half-move; warning: " in out[0], out
