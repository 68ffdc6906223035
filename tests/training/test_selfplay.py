"""Puzzles from self-play (shashki.training.selfplay): the same seed plays the same
games, each a different one, and a run goes on where the book says it stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.training.book import BookWriter, read_book
from shashki.training.mining import MiningOptions
from shashki.training.selfplay import SelfPlay, mine_self_play, play

#: Quick enough for a test: short games, a shallow look.
RUN = SelfPlay("russian", 4, level=1, seed=7, date="2026-12-07", max_plies=40)
OPTIONS = MiningOptions(depth=2, verify_depth=4)


def moves(run: SelfPlay, number: int) -> list[str]:
    record = play(run, number)
    game = record.start()
    out = []
    for move in record.mainline_moves():
        out.append(game.move_text(move))
        game.push(move)
    return out


def test_the_same_seed_plays_the_same_game() -> None:
    first = moves(RUN, 0)
    assert first == moves(RUN, 0)
    assert first != moves(RUN, 1)  # (each game its own opening)
    assert 0 < len(first) <= RUN.max_plies
    record = play(RUN, 0)
    assert record.header("Event") == "shashki self-play"
    assert record.header("Round") == "1" and record.header("Date") == "2026.12.07"


def test_a_run_goes_on_where_it_stopped(tmp_path: Path) -> None:
    book = tmp_path / "book.pdn"
    half = SelfPlay(RUN.variant, 2, RUN.level, RUN.seed, RUN.date, max_plies=RUN.max_plies)
    first = mine_self_play(BookWriter(book), half, options=OPTIONS, workers=1)
    assert first.games == 2
    done: list[tuple[int, int]] = []
    rest = mine_self_play(
        BookWriter(book), RUN, options=OPTIONS, workers=1, progress=lambda d, t: done.append((d, t))
    )
    assert rest.games == 2  # (games 3 and 4 only)
    assert done[-1] == (4, 4)
    again = mine_self_play(BookWriter(book), RUN, options=OPTIONS, workers=1)
    assert again.games == 0 and again.kept == 1
    whole = tmp_path / "whole.pdn"
    mine_self_play(BookWriter(whole), RUN, options=OPTIONS, workers=1)
    assert [p.fen for p in read_book(book).puzzles] == [p.fen for p in read_book(whole).puzzles]
    for puzzle in read_book(whole).puzzles:
        assert puzzle.source.startswith("shashki self-play, 2026-12-07, level 1, seed 7 #")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--self-play", "2"), "--self-play needs --variant"),
        (("--self-play", "0", "--variant", "russian"), "--self-play must be between"),
        (("--self-play", "2", "--variant", "russian", "--level", "7"), "--level must be between"),
    ],
)
def test_self_play_mistakes_are_one_line(
    argv: tuple[str, ...], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from ..test_cli import run

    code, _out, err = run(capsys, "puzzles", "mine", *argv)
    assert code == 2 and said in err and err.count("\n") == 1


def test_self_play_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ..test_cli import run

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    book = tmp_path / "book.pdn"
    argv = ("puzzles", "mine", "--self-play", "1", "--variant", "russian", "--level", "1")
    code, out, err = run(capsys, *argv, "--depth", "2", "--book", str(book), "--workers", "1")
    assert code == 0, err
    assert "from 1 games" in out
    assert book.with_name("book.pdn.mined").is_file()
