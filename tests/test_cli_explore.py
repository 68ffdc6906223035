"""``shashki explore build`` and ``shashki explore show``: the command line of the opening
explorer, its answers and its one-line mistakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .store.test_explorer import GAMES
from .test_cli import run


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "shashki"


def test_build_then_show(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Path) -> None:
    archive = tmp_path / "games.pdn"
    archive.write_text(GAMES, encoding="utf-8")
    code, out, err = run(capsys, "explore", "build", str(archive), "--workers", "1")
    assert code == 0, err
    assert "3 games of 1 files" in out
    assert (data / "explorer.sqlite").is_file()
    code, out, err = run(capsys, "explore", "show", "--variant", "russian", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert [(m["move"], m["games"]) for m in answer["moves"]] == [("c3-d4", 2), ("c3-b4", 1)]
    assert answer["games"][0]["white"] == "Ivanov"
    code, out, err = run(
        capsys, "explore", "show", "--variant", "russian", "--moves", "1. c3-d4 f6-g5"
    )
    assert code == 0 and "2 games reached this position" in out
    assert "b2-c3" in out and "g3-f4" in out and "Ivanov – Petrov 1-0, 1990, Cup" in out
    code, out, err = run(
        capsys, "explore", "show", "--variant", "russian", "--player", "Sidorov", "--years", "2005"
    )
    assert code == 0 and "1 game reached this position" in out and "c3-b4" in out


def test_an_index_elsewhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "games.pdn"
    archive.write_text(GAMES, encoding="utf-8")
    index = tmp_path / "club.sqlite"
    code, _, err = run(
        capsys, "explore", "build", str(archive), "--index", str(index), "--workers", "1"
    )
    assert code == 0, err
    code, out, _ = run(capsys, "explore", "show", "--variant", "russian", "--index", str(index))
    assert code == 0 and "3 games" in out


def test_not_a_pdn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.pdn"
    junk.write_bytes(b"\x00\x01\x02" * 100)
    code, _out, err = run(capsys, "explore", "build", str(junk), "--workers", "1")
    assert code == 1
    assert err.count("\n") == 1 and "junk.pdn" in err and "Traceback" not in err


def test_a_damaged_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = tmp_path / "bad.sqlite"
    index.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    for argv in (
        ("explore", "show", "--index", str(index)),
        ("explore", "build", str(index), "--index", str(index)),
    ):
        code, _out, err = run(capsys, *argv)
        assert code == 2, err
        assert len(err.splitlines()) == 1 and "bad.sqlite" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ("explore", "show", "--years", "soon"),
        ("explore", "show", "--years", "2000-1990"),
        ("explore", "show", "--variant", "nosuch"),
        ("explore", "show", "garbage", "--variant", "russian"),
        ("explore", "show", "--variant", "russian", "--moves", "a1-h8"),
        ("explore", "build", "x.pdn", "--plies", "0"),
        ("explore", "build", "x.pdn", "--cluster", "tcp://127.0.0.1:CLOSED"),
        ("explore",),
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
