"""``shashki puzzles mine`` and ``shashki puzzles list``: the command line of puzzle
mining, the book it writes and its one-line mistakes."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_cli import run
from .training.test_mining import QUIET, SHOT


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "shashki"


def test_mine_then_list(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Path) -> None:
    archive = tmp_path / "club.pdn"
    archive.write_text(QUIET + "\n" + SHOT, encoding="utf-8")
    code, out, err = run(capsys, "puzzles", "mine", str(archive), "--workers", "1")
    assert code == 0, err
    assert "1 new puzzle from 2 games" in out
    book = data / "puzzles" / "mined.pdn"
    assert book.is_file() and (data / "puzzles" / "mined.pdn.mined").is_file()
    code, out, err = run(capsys, "puzzles", "list", "--solutions")
    assert code == 0, err
    assert "1 puzzle" in out and "shot 1" in out
    assert "23-18 14x23 27x4" in out and "a shot of 3 pieces" in out
    assert "club.pdn #2 (10.): Ann – Bob, Club" in out
    code, out, err = run(capsys, "puzzles", "mine", str(archive), "--workers", "1")
    assert code == 0 and "0 new puzzles from 0 games" in out and "1 files mined before" in out


def test_my_games_are_mined(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    folder = data / "archive"
    folder.mkdir(parents=True)
    (folder / "a.pdn").write_text(SHOT, encoding="utf-8")
    code, out, err = run(capsys, "puzzles", "mine", "--mine", "--workers", "1")
    assert code == 0, err
    assert "1 new puzzle from 1 games" in out


def test_a_book_edited_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "club.pdn"
    archive.write_text(SHOT, encoding="utf-8")
    book = tmp_path / "book.pdn"
    code, _out, err = run(
        capsys, "puzzles", "mine", str(archive), "--book", str(book), "--workers", "1"
    )
    assert code == 0, err
    book.write_text(book.read_text().replace("23-18", "23-17"), encoding="utf-8")
    code, out, err = run(capsys, "puzzles", "list", "--book", str(book))
    assert code == 0 and "0 puzzles" in out
    assert len(err.splitlines()) == 1 and "not a puzzle" in err and "Traceback" not in err


def test_not_a_pdn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.pdn"
    junk.write_bytes(b"\x00\x01\x02" * 100)
    code, _out, err = run(capsys, "puzzles", "mine", str(junk), "--workers", "1")
    assert code == 1
    assert err.count("\n") == 1 and "junk.pdn" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ("puzzles", "mine"),
        ("puzzles", "mine", "x.pdn", "--depth", "0"),
        ("puzzles", "mine", "x.pdn", "--variant", "nosuch"),
        ("puzzles", "mine", "x.pdn", "--cluster", "tcp://127.0.0.1:CLOSED"),
        ("puzzles", "mine", "x.pdn", "--book", "/"),
        ("puzzles", "list", "--book", "/nonexistent/book.pdn"),
        ("puzzles", "list", "--book", "/"),
        ("puzzles",),
    ],
)
def test_mistakes_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], closed_port: int
) -> None:
    argv = tuple(a.replace("CLOSED", str(closed_port)) for a in argv)
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
