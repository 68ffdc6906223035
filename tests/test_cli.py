"""The ``shashki`` command as other tools see it: variants (--json), rules, perft (the
count is the last line), --divide, and one line on stderr with exit status 2 for every
mistake of the user."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shashki.cli import main
from shashki.rules import Game, all_variants, find_variant
from shashki.rules.notation import move_text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``shashki argv…`` run in this process."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (usage mistakes, --help)
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


# -- variants ----------------------------------------------------------------------------


def test_variants_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "variants")
    assert code == 0 and err == ""
    lines = out.splitlines()
    ids = [line.split()[0] for line in lines]
    assert ids == [v.id for v in all_variants()]
    assert re.search(r"^international\s+10x10\s+International draughts", out, re.M)


def test_variants_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "variants", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert [d["id"] for d in data] == [v.id for v in all_variants()]
    by_id = {d["id"]: d for d in data}
    for d in data:
        assert {"id", "name", "aliases", "width", "height", "board"} <= set(d)
        v = find_variant(d["id"])
        assert d["name"] == v.name
        assert d["aliases"] == list(v.aliases)
        assert (d["width"], d["height"]) == (v.board.width, v.board.height)
        assert d["board"] == f"{v.board.width}x{v.board.height}"
    assert (by_id["international"]["width"], by_id["international"]["height"]) == (10, 10)
    assert "checkers" in by_id["english"]["aliases"]
    assert by_id["russian"]["name"] == "Russian draughts"


# -- rules -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["russian", "checkers", "25", "Brazilian draughts"])
def test_rules_card(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = run(capsys, "rules", name)
    assert code == 0 and err == ""
    v = find_variant(name)
    lines = out.splitlines()
    assert lines[0] == v.name
    assert lines[1] == "=" * len(v.name)
    assert v.card in out
    assert v.gametype in out


# -- perft -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "count"),
    [
        (("russian", "3"), 302),
        (("international", "2"), 81),
        (("english", "3"), 302),
        (("checkers", "0"), 1),
        (("russian", "1", "--fen", "W:Wb6:Bc7,e7"), 3),
        (("english", "1", "--fen", "W:Wb6:Bc7,e7"), 1),
        (("russian", "2", "--fen", "W:WKd2:Bc3,e3,c5,e5"), 0),
    ],
)
def test_perft_last_line_is_the_count(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], count: int
) -> None:
    code, out, err = run(capsys, "perft", *argv)
    assert code == 0 and err == ""
    assert out.splitlines()[-1] == str(count)


@pytest.mark.parametrize(
    ("variant", "fen", "depth"),
    [
        ("russian", None, 3),
        ("international", None, 2),
        ("english", None, 2),
        ("russian", "W:Wb6:Bc7,e7", 1),
        ("russian", "W:WKd2:Bc3,e3,c5,e5", 2),
        ("english", "W:We1:Bd2,f2,d4,f4", 1),
    ],
)
def test_perft_divide(
    capsys: pytest.CaptureFixture[str], variant: str, fen: str | None, depth: int
) -> None:
    argv = ["perft", variant, str(depth), "--divide"] + (["--fen", fen] if fen else [])
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    *lines, last = out.splitlines()
    game = Game(variant, fen) if fen else Game(variant)
    expected = {move_text(game.variant, m, full=True) for m in game.legal_moves()}
    seen: dict[str, int] = {}
    for line in lines:
        m = re.fullmatch(r"(\S+) (\d+)", line)
        assert m, line
        seen[m.group(1)] = int(m.group(2))
    assert set(seen) == set(expected)  # one line per legal move, every landing square
    for move in game.legal_moves():
        text = move_text(game.variant, move, full=True)
        assert len(re.split(r"[-x:]", text)) == len(move.path)
        child = game.copy()
        child.push(move)
        assert seen[text] == child.perft(depth - 1)
    assert int(last) == sum(seen.values()) == game.perft(depth)


def test_divide_of_a_capture_writes_the_whole_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "russian", "1", "--divide", "--fen", "W:Wb6:Bc7,e7")
    assert code == 0
    *lines, last = out.splitlines()
    assert sorted(lines) == ["b6:d8:f6 1", "b6:d8:g5 1", "b6:d8:h4 1"]
    assert last == "3"


# -- mistakes: one line on stderr, exit status 2 -------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("perft", "nosuchvariant", "1"),
        ("rules", "nosuchvariant"),
        ("perft", "russian", "x"),
        ("perft", "russian", "2.5"),
        ("perft", "russian", "-1"),
        ("perft", "russian", "-3", "--divide"),
        ("perft", "russian", "1", "--fen", "W:W99:B1"),
        ("perft", "russian", "1", "--fen", ""),
        ("perft", "russian", "1", "--fen", "garbage"),
        ("perft", "international", "1", "--fen", "W:Wa2:B1"),
        ("perft", "russian", "1", "--fen"),
        ("perft", "russian"),
        ("perft",),
        ("rules",),
        ("nosuchcommand",),
        ("variants", "--bogus"),
        ("play", "russian", "--black", "9"),
        ("play", "russian", "--white", "robot"),
        ("best", "russian", "--time", "１"),  # numbers are ASCII digits, as --clock reads them
        ("best", "russian", "--time", "1e-2"),
        ("best", "russian", "--time", "0_5"),
        ("best", "russian", "--time", "nan"),
        ("best", "russian", "--time", "0"),
    ],
)
def test_user_mistakes(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert err.endswith("\n") and "Traceback" not in err
    assert "error" in err
    assert out == ""


def test_mistake_messages_say_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "perft", "nosuchvariant", "1")
    assert "nosuchvariant" in err and "russian" in err
    _, _, err = run(capsys, "perft", "russian", "-1")
    assert "-1" in err and "depth" in err
    _, _, err = run(capsys, "perft", "russian", "1", "--fen", "W:W99:B1")
    assert "W:W99:B1" in err


# -- the installed command -----------------------------------------------------------------


def _installed() -> str:
    script = Path(sys.executable).with_name("shashki")
    if not script.exists():
        pytest.skip(f"{script} is not installed (pip install -e .)")
    return str(script)


def test_installed_command() -> None:
    shashki = _installed()
    done = subprocess.run(
        [shashki, "perft", "english", "3"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "302"
    done = subprocess.run(
        [shashki, "perft", "nosuchvariant", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_play_seats_the_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    import shashki.commands.common as common
    from shashki.session.seats import PERSON, LevelSeat

    seen: dict[str, object] = {}
    monkeypatch.setattr(
        common, "run_app", lambda start=None, **kw: seen.update(kw, start=start) or 0
    )
    assert main(["play", "russian", "--black", "5"]) == 0
    assert seen["start"].kinds == (PERSON, LevelSeat(5))  # type: ignore[attr-defined]
    assert main(["play", "english", "--white", "computer-2", "--black", "Person"]) == 0
    assert seen["start"].kinds == (LevelSeat(2), PERSON)  # type: ignore[attr-defined]


def test_play_on_a_clock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shashki.commands.common as common
    from shashki.records.clocks import TimeControl

    seen: dict[str, object] = {}
    monkeypatch.setattr(
        common, "run_app", lambda start=None, **kw: seen.update(kw, start=start) or 0
    )
    assert main(["play", "russian", "--clock", "5+3"]) == 0
    assert seen["start"].clock == TimeControl(300, 3)
    assert main(["play", "russian", "--clock", "0.25+0"]) == 0
    assert seen["start"].clock == TimeControl(15, 0)
    assert main(["play", "russian"]) == 0
    assert seen["start"].clock is None
    capsys.readouterr()
    # a clock that cannot be read: one line, exit status 2, and no app
    seen.clear()
    for bad in ("abc", "0+0", "5+-3", "９+1", "1" * 5000):
        code, out, err = run(capsys, "play", "russian", "--clock", bad)
        assert code == 2 and out == "" and not seen
        assert err.startswith("shashki: error: --clock: ") and err.count("\n") == 1
        assert len(err) < 200


@pytest.mark.parametrize(
    "argv", [("play", "russian"), ("replay", "{pdn}"), ("--lang", "uk", "play", "bashni")]
)
def test_the_app_without_a_terminal_says_so_and_ends(argv: tuple[str, ...], tmp_path: Path) -> None:
    """Input and output redirected (a script, a pipe, cron): one line and status 2, at
    once; the app neither draws into the file nor waits forever for keys."""
    pdn = tmp_path / "g.pdn"
    pdn.write_text('[GameType "25"]\n\n1. c3-d4 *\n', encoding="utf-8")
    args = [a.replace("{pdn}", str(pdn)) for a in argv]
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        timeout=120,
    )
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and err.count("\n") == 1, err
    assert proc.stdout == b""
    if "uk" in argv:
        assert "термінал" in err
    else:
        assert "need a terminal" in err


def test_play_and_the_menu_open_the_engine_log_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--engine-log FILE`` (after play, or before any command for the menu's games):
    opened before the app, so that a file that cannot be written is said at once; a
    command that starts no engine leaves it alone."""
    import shashki.commands.common as common
    from shashki.engine.hub import transport

    monkeypatch.setattr(transport, "_chosen_log", None)  # (put back after the test)
    monkeypatch.delenv("SHASHKI_ENGINE_LOG", raising=False)
    seen: dict[str, object] = {}
    monkeypatch.setattr(
        common, "run_app", lambda start=None, **kw: seen.update(kw, start=start) or 0
    )
    log = tmp_path / "engines.log"
    assert main(["play", "russian", "--black", "hub:dame hub", "--engine-log", str(log)]) == 0
    assert seen and log.exists() and transport.engine_log() is not None
    monkeypatch.setattr(transport, "_chosen_log", None)
    seen.clear()
    for argv in (["play", "russian", "--engine-log", str(tmp_path)],
                 ["--engine-log", str(tmp_path / "no" / "log"), "play", "russian"]):  # fmt: skip
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and not seen
        assert err.startswith("shashki: error: cannot write the engine log ")
        assert err.count("\n") == 1
    code, out, _err = run(capsys, "--engine-log", str(tmp_path / "unused.log"), "variants")
    assert code == 0 and "russian" in out and not (tmp_path / "unused.log").exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--lang", "uk", "perft", "russian"], "потрібні такі аргументи"),
        (["--lang", "ru", "frobnicate"], "недопустимый выбор: 'frobnicate'"),
        (["--lang", "uk", "best", "russian", "--time", "1", "--depth", "2"], "--depth"),
        (["--lang", "ru", "variants", "--bogus"], "неизвестные аргументы: --bogus"),
        (["--lang", "en", "play"], "the following arguments are required: VARIANT"),
    ],
)
def test_argparse_speaks_without_being_patched(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse's own words (its help's headings, its errors) are said in the language
    spoken through its formatter and the parser's error(), never by replacing argparse's
    ``_``: the library changes nothing outside itself."""
    import argparse
    import gettext

    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and said in err and err.count("\n") == 1
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    code, out, err = run(capsys, "--lang", "uk", "perft", "--help")
    assert code == 0 and out.startswith("використання: shashki perft")
    assert "\nпараметри:\n" in out and "показати цю довідку й вийти" in out


def test_each_command_hands_the_app_one_typed_request(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from shashki.session.seats import PERSON, LevelSeat

    """play, replay, host and join hand the app a request of their own type (no tuple of
    values in an order both sides must remember); shashki alone hands none."""
    import shashki.commands.common as common
    from shashki.app.launch import HostRequest, JoinRequest, PlayRequest, ReplayRequest
    from shashki.records.clocks import TimeControl
    from shashki.rules import Color

    seen: list[object] = []
    monkeypatch.setattr(common, "run_app", lambda start=None, **kw: seen.append(start) or 0)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    pdn = tmp_path / "g.pdn"
    pdn.write_text('[GameType "25"]\n\n1. c3-d4 *\n', encoding="utf-8")
    assert main(["play", "russian", "--black", "3", "--seed", "7"]) == 0
    assert seen.pop() == PlayRequest("russian", kinds=(PERSON, LevelSeat(3)), seed=7)
    assert main(["replay", str(pdn), "--game", "2", "--variant", "pool"]) == 0
    assert seen.pop() == ReplayRequest(pdn, 2, "pool")
    assert main(["join", "127.0.0.1:8765", "K7WQ-M2", "--name", "Anna"]) == 0
    assert seen.pop() == JoinRequest("127.0.0.1:8765", "K7WQ-M2", "Anna")
    argv = ["host", "russian", "--port", "0", "--local", "--as", "black", "--clock", "5+3"]
    assert main([*argv, "--name", "Bo"]) == 0
    host = seen.pop()
    assert isinstance(host, HostRequest) and host.port > 0
    assert host == HostRequest(
        "russian", Color.BLACK, "Bo", host.port, TimeControl(300, 3), local=True
    )
    assert main([]) == 0
    assert seen.pop() is None
