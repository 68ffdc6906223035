"""The opening explorer's index (shashki.store.explorer): built from PDN files and My
games, answered for a position, kept up to date, and refused when it is not one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from shashki.records.pieces import cut, piece_games, pieces
from shashki.rules import Game
from shashki.store.explorer import (
    BadIndex,
    Explorer,
    Filter,
    build,
    position_key,
    refresh_mine,
)

from ..conftest import shared_path

GAMES = """[Event "Cup"]
[White "Ivanov"]
[Black "Petrov"]
[Date "1990.05.01"]
[WhiteElo "2400"]
[GameType "25"]
[Result "1-0"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-0

[Event "Cup"]
[White "Petrov"]
[Black "Sidorov"]
[Date "2001.01.01"]
[GameType "25"]
[Result "1/2-1/2"]

1. c3-d4 f6-g5 2. g3-f4 1/2-1/2

[Event "Open"]
[White "Sidorov"]
[Black "Ivanov"]
[Date "2005"]
[GameType "25"]
[Result "0-1"]

1. c3-b4 f6-g5 2. b2-c3 0-1
"""


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private data folder (My games in it)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "shashki"


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def fen_after(*moves: str) -> str:
    game = Game("russian")
    for text in moves:
        game.push_text(text)
    return game.fen()


def test_the_moves_played_with_counts_and_scores(tmp_path: Path, archive: Path, data: Path) -> None:
    with Explorer(tmp_path / "x.sqlite", create=True) as ex:
        report = build(ex, [archive], workers=1)
        assert (report.games, report.problems) == (3, [])
        answer = ex.answer("russian", fen_after())
        assert [(m.move, m.games) for m in answer.moves] == [("c3-d4", 2), ("c3-b4", 1)]
        first = answer.moves[0]
        assert (first.white, first.draws, first.black) == (1, 1, 0)
        assert first.score(0) == 0.75 and first.score(1) == 0.25
        # the strongest game first: the rated one
        assert answer.games[0].white == "Ivanov" and answer.games[0].strength == 2400
        assert answer.games[0].source == str(archive) and answer.games[0].number == 0
        # after 1. c3-d4 f6-g5: two games, two moves
        after = ex.answer("russian", fen_after("c3-d4", "f6-g5"))
        assert sorted(m.move for m in after.moves) == ["b2-c3", "g3-f4"]
        assert ex.answer("russian", fen_after("a3-b4")).moves == []


def test_transpositions_meet(tmp_path: Path, data: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(
        '[GameType "25"]\n1. c3-d4 b6-a5 2. e3-f4 a5-b4 3. a3:c5 *\n\n'
        '[GameType "25"]\n1. e3-f4 b6-a5 2. c3-d4 a5-b4 3. a3:c5 *\n',
        encoding="utf-8",
    )
    with Explorer(tmp_path / "x.sqlite", create=True) as ex:
        build(ex, [path], workers=1)
        one = fen_after("c3-d4", "b6-a5", "e3-f4", "a5-b4")
        assert one == fen_after("e3-f4", "b6-a5", "c3-d4", "a5-b4")
        answer = ex.answer("russian", one)
        assert [(m.move, m.games) for m in answer.moves] == [("a3:c5", 2)]
        # the same position of another variant is another key
        assert position_key("russian", one) != position_key("brazilian", one)


def test_filters_by_player_and_years(tmp_path: Path, archive: Path, data: Path) -> None:
    with Explorer(tmp_path / "x.sqlite", create=True) as ex:
        build(ex, [archive], workers=1)
        start = fen_after()
        by = ex.answer("russian", start, Filter(player="sidor"))
        assert sorted((m.move, m.games) for m in by.moves) == [("c3-b4", 1), ("c3-d4", 1)]
        recent = ex.answer("russian", start, Filter(first_year=2000))
        assert sorted((m.move, m.games) for m in recent.moves) == [("c3-b4", 1), ("c3-d4", 1)]
        old = ex.answer("russian", start, Filter(last_year=1995))
        assert [(m.move, m.games, m.white) for m in old.moves] == [("c3-d4", 1, 1)]
        assert all(g.year is not None and g.year <= 1995 for g in old.games)
        # the filter's text is not SQL's: % and _ are letters
        assert ex.answer("russian", start, Filter(player="%")).moves == []
        assert ex.answer("russian", start, Filter(player="_")).moves == []


def test_a_file_indexed_again_replaces_its_games(tmp_path: Path, archive: Path, data: Path) -> None:
    with Explorer(tmp_path / "x.sqlite", create=True) as ex:
        build(ex, [archive], workers=1)
        again = build(ex, [archive], workers=1)
        assert (again.kept, again.games) == (1, 0)
        archive.write_text(GAMES.split('[Event "Open"]')[0], encoding="utf-8")
        changed = build(ex, [archive], workers=1)
        assert changed.games == 2
        answer = ex.answer("russian", fen_after())
        assert [(m.move, m.games) for m in answer.moves] == [("c3-d4", 2)]
        assert ex.counts()[:2] == (1, 2)
        assert ex.drop_source(str(archive))
        assert ex.answer("russian", fen_after()).moves == []
        assert ex.counts() == (0, 0, 0)


def test_my_games_are_kept_up_to_date(tmp_path: Path, data: Path) -> None:
    folder = data / "archive"
    folder.mkdir(parents=True)
    games = GAMES.split("\n\n[Event")
    (folder / "a.pdn").write_text(games[0], encoding="utf-8")
    with Explorer(tmp_path / "x.sqlite", create=True) as ex:
        assert refresh_mine(ex).games == 1
        assert ex.answer("russian", fen_after()).total == 1
        (folder / "b.pdn").write_text("[Event" + games[1], encoding="utf-8")
        assert refresh_mine(ex).games == 1
        assert refresh_mine(ex).games == 0
        assert ex.answer("russian", fen_after()).total == 2
        (folder / "a.pdn").unlink()
        refresh_mine(ex)
        assert ex.answer("russian", fen_after()).total == 1
        assert [p for p, *_ in ex.sources("mine")] == [str(folder / "b.pdn")]


def test_files_that_are_not_pdn_are_one_line_each(tmp_path: Path, data: Path) -> None:
    binary = tmp_path / "picture.pdn"
    binary.write_bytes(b"\x89PNG\x00\x00\x01\x02" * 100)
    empty = tmp_path / "empty.pdn"
    empty.write_text("hello\n", encoding="utf-8")
    with Explorer(tmp_path / "x.sqlite", create=True) as ex:
        report = build(ex, [binary, empty, tmp_path / "missing.pdn", tmp_path], workers=1)
    assert report.games == 0
    assert len(report.problems) == 4
    assert all("\n" not in line for line in report.problems)
    assert any("NUL" in line for line in report.problems)


@pytest.mark.parametrize("kind", ["garbage", "other-sqlite", "trigger", "empty"])
def test_a_damaged_index_is_one_line(tmp_path: Path, archive: Path, kind: str, data: Path) -> None:
    path = tmp_path / "x.sqlite"
    if kind == "garbage":
        path.write_bytes(b"not a database at all\x00" * 100)
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        if kind == "trigger":
            with Explorer(path, create=True) as ex:
                build(ex, [archive], workers=1)
        db = sqlite3.connect(path)
        if kind == "other-sqlite":
            db.execute("CREATE TABLE t(x)")
        else:
            db.execute("CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM stats; END")
        db.commit()
        db.close()
    before = path.read_bytes()
    with pytest.raises(BadIndex) as caught:
        Explorer(path).close()
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    assert path.read_bytes() == before  # never changed


def test_a_missing_index_is_not_made_unless_asked(tmp_path: Path) -> None:
    with pytest.raises(BadIndex, match="explore build"):
        Explorer(tmp_path / "none.sqlite")
    assert not (tmp_path / "none.sqlite").exists()


def test_a_link_in_the_indexs_place_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("mine", encoding="utf-8")
    link = tmp_path / "x.sqlite"
    link.symlink_to(target)
    with pytest.raises(BadIndex):
        Explorer(link, create=True)
    assert target.read_text(encoding="utf-8") == "mine"


def test_pieces_give_the_games_of_the_file(tmp_path: Path) -> None:
    text = GAMES * 20
    path = tmp_path / "many.pdn"
    path.write_text(text, encoding="utf-8")
    cut_up = list(pieces(path, size=500))
    assert len(cut_up) > 5
    got = [g.header("White") for p in cut_up for g in piece_games(p)]
    assert got == ["Ivanov", "Petrov", "Sidorov"] * 20
    # UTF-16 is cut as text
    path.write_text(text, encoding="utf-16")
    got = [g.header("White") for p in pieces(path, size=500) for g in piece_games(p)]
    assert got == ["Ivanov", "Petrov", "Sidorov"] * 20


def test_one_endless_line_is_still_read_in_pieces() -> None:
    import io

    data = b"x" * (3 << 20)
    assert sum(len(p.data) for p in cut(io.BytesIO(data), "x")) == len(data)  # type: ignore[arg-type]


def test_the_corpus_in_pieces_is_the_corpus() -> None:
    from shashki.records.reader import read_file

    path = shared_path("corpora", "pdn", "international", "mig0-Games-Checkers", "wk2003.pdn")
    whole = [(g.header("White"), len(g.mainline_moves())) for g in read_file(path)]
    cut_up = [
        (g.header("White"), len(g.mainline_moves()))
        for p in pieces(path, size=8000)
        for g in piece_games(p)
    ]
    assert whole == cut_up


def test_workers_write_what_one_process_writes(tmp_path: Path, data: Path) -> None:
    path = tmp_path / "many.pdn"
    path.write_text(GAMES * 10, encoding="utf-8")
    answers = []
    for workers in (1, 2):
        with Explorer(tmp_path / f"{workers}.sqlite", create=True) as ex:
            report = build(ex, [path], workers=workers, piece_bytes=600)
            assert report.games == 30
            answers.append(ex.answer("russian", fen_after()))
    assert answers[0] == answers[1]
    assert answers[0].total == 30
