"""My games: a finished game is kept as a PDN file, listed from its tags, set aside when
damaged, never followed through a link; the score against each opponent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shashki.records import GameRecord, read_file
from shashki.rules import Game
from shashki.session.autosave import AutosaveWriter
from shashki.store import AutosaveSlot, SaveError
from shashki.store import archive as archive_module
from shashki.store.archive import (
    SIZE_LIMIT,
    delete_kept,
    export_kept,
    for_archive,
    keep_game,
    read_kept,
    scan,
    summary,
)
from shashki.store.autosaves import DamagedSave


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder (``$XDG_DATA_HOME/shashki``) of a private home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "shashki"


def seats(kind: str, name: str) -> dict[str, str]:
    """The tags of one seat as the session writes them, for ``side`` filled in later."""
    if kind.startswith("computer"):
        return {"": name, "Type": "program", "Level": kind.split("-")[1]}
    if kind.startswith("engine"):
        return {"": name, "Type": "program", "Engine": kind.split(":", 1)[1]}
    return {"": name, "Type": "human"}


def finished(
    white: tuple[str, str] = ("human", "Ann"),
    black: tuple[str, str] = ("computer-3", "Computer 3"),
    *,
    variant: str = "russian",
    how: str = "resign",
    loser: int = 1,
) -> GameRecord:
    """A finished game of a few moves: one side resigns (or a draw is agreed)."""
    game = Game(variant)
    for _ in range(4):
        game.push(game.legal_moves()[0])
    if how == "resign":
        while game.turn != loser:
            game.push(game.legal_moves()[0])
        outcome = game.resign()
    else:
        outcome = game.agree_draw()
    headers = {"Event": "shashki game", "Date": "2026.12.03", "Result": outcome.result()}
    for side, (kind, name) in zip(("White", "Black"), (white, black), strict=True):
        for tag, value in seats(kind, name).items():
            headers[side + tag] = value
    headers["Termination"] = outcome.describe(game.variant.side_names)
    return for_archive(GameRecord.from_game(game, headers), outcome)


def archive_of(base: Path) -> Path:
    return base / "archive"


# -- keeping ---------------------------------------------------------------------------


def test_a_kept_game_is_a_readable_pdn_listed_from_its_tags(base: Path) -> None:
    path = keep_game(finished(), "20261203-100000-aaaa")
    assert path == archive_of(base) / "20261203-100000-aaaa.pdn"
    [record] = list(read_file(path))  # a plain PDN game, read back whole
    assert record.ok and record.result == "1-0"
    assert record.header("Ending") == "resignation"
    assert int(record.header("PlyCount")) == len(record.mainline_moves())
    found = scan()
    [game] = found.games
    assert game.variant is not None and game.variant.id == "russian"
    assert game.seats[0].kind == "person" and game.seats[0].name == "Ann"
    assert game.seats[1].kind == "computer" and game.seats[1].level == 3
    assert game.ending == "resignation"
    assert game.plies == len(record.mainline_moves()) and game.moves == (game.plies + 1) // 2
    assert game.score == "won"  # Black resigned: Ann, at White, won
    assert found.damaged == [] and found.problems == []


def test_the_same_game_ending_again_replaces_its_own_file(base: Path) -> None:
    keep_game(finished(how="resign"), "game-1")
    keep_game(finished(how="draw"), "game-1")
    keep_game(finished(how="resign"), "game-2")
    games = {g.key: g for g in scan().games}
    assert set(games) == {"game-1", "game-2"}
    assert games["game-1"].result == "1/2-1/2" and games["game-1"].ending == "agreed draw"


def test_newest_first(base: Path) -> None:
    for key, stamp in [("old", 1_000_000), ("new", 3_000_000), ("middle", 2_000_000)]:
        os.utime(keep_game(finished(), key), (stamp, stamp))
    assert [g.key for g in scan().games] == ["new", "middle", "old"]


def test_a_key_that_names_a_path_is_refused(base: Path) -> None:
    for key in ("../escape", ".hidden", "a/b", ""):
        with pytest.raises(SaveError):
            keep_game(finished(), key)
    assert not (base / "escape.pdn").exists()


# -- the autosave writer keeps the game before its autosave goes -------------------------


def test_the_writer_keeps_the_finished_game_then_removes_its_autosave(base: Path) -> None:
    slot = AutosaveSlot.new()
    game = Game("russian")
    game.push(game.legal_moves()[0])
    slot.save(game)
    assert slot.path.is_file()
    writer = AutosaveWriter()
    writer.queue(slot, remove=True, keep=finished(), release=True)
    assert writer.flush()
    assert not slot.path.exists()
    [kept] = scan().games
    assert kept.key == slot.key and writer.problem is None


def test_when_the_game_cannot_be_kept_its_autosave_stays(base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    base.mkdir(parents=True)
    os.symlink(elsewhere, archive_of(base))  # the archive folder is a link: never used
    slot = AutosaveSlot.new()
    game = Game("russian")
    game.push(game.legal_moves()[0])
    slot.save(game)
    said: list[str] = []
    writer = AutosaveWriter(on_failure=said.append)
    writer.queue(slot, remove=True, keep=finished(), release=True)
    assert writer.flush()
    assert slot.path.is_file()  # nothing lost: the game is still there to resume
    assert list(elsewhere.iterdir()) == []
    assert len(said) == 1 and "archive" in said[0]


# -- hostile and damaged files ------------------------------------------------------------


def put(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


def test_damaged_files_are_set_aside_and_said_in_one_line(base: Path) -> None:
    folder = archive_of(base)
    keep_game(finished(), "good")
    whole = (folder / "good.pdn").read_bytes()
    bad = {
        "binary.pdn": os.urandom(300) + b"\x00",
        "empty.pdn": b"",
        "cut.pdn": whole[: len(whole) // 2],
        "huge.pdn": whole[:-20] + b" " * (SIZE_LIMIT + 10) + b"1-0\n",
        "latin1.pdn": b'[GameType "25"]\n[White "\xe9"]\n1. c3-d4 *\n',
        "notes.txt": b"not a game",
    }
    for name, data in bad.items():
        put(folder, name, data)
    os.mkfifo(folder / "pipe.pdn")  # never opened for reading: it would block
    (folder / "folder.pdn").mkdir()
    found = scan()
    assert [g.key for g in found.games] == ["good"]
    assert sorted(d.path.name for d in found.damaged) == sorted([*bad, "pipe.pdn", "folder.pdn"])
    for d in found.damaged:
        assert d.moved_to is not None and d.moved_to.parent == folder / "damaged"
        if d.path.name in bad:
            assert d.moved_to.read_bytes() == bad[d.path.name]  # moved, never deleted
    report = found.damage_report()
    assert report is not None and "\n" not in report and "8 damaged files" in report
    assert scan().damaged == []  # once moved, not again


def test_a_link_is_set_aside_never_followed(base: Path, tmp_path: Path) -> None:
    folder = archive_of(base)
    secret = tmp_path / "secret.pdn"
    keep_game(finished(white=("human", "Secret")), "real")
    secret.write_bytes((folder / "real.pdn").read_bytes())
    (folder / "real.pdn").unlink()
    os.symlink(secret, folder / "link.pdn")
    found = scan()
    assert found.games == []
    [d] = found.damaged
    assert d.moved_to is not None and d.moved_to.is_symlink()
    assert secret.read_bytes().startswith(b"[")  # untouched
    # and the game is never written through a link in its place
    os.symlink(secret, folder / "again.pdn")
    before = secret.read_bytes()
    with pytest.raises(SaveError, match="link"):
        keep_game(finished(how="draw"), "again")
    assert secret.read_bytes() == before


def test_a_linked_archive_folder_is_not_read(base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    put(elsewhere, "x.pdn", b"whatever")
    base.mkdir(parents=True)
    os.symlink(elsewhere, archive_of(base))
    found = scan()
    assert found.games == [] and found.damaged == []
    assert len(found.problems) == 1 and "My games" in found.problems[0]
    assert (elsewhere / "x.pdn").read_bytes() == b"whatever"


def test_a_game_damaged_past_its_tags_is_set_aside_when_opened(base: Path) -> None:
    path = keep_game(finished(), "bad-moves")
    text = path.read_text()
    head, _, moves = text.partition("\n\n")
    path.write_text(head + "\n\n1. a1-h8 " + moves)  # an illegal move: tags whole
    [game] = scan().games
    with pytest.raises(DamagedSave, match="moved to"):
        read_kept(game)
    assert not path.exists() and (archive_of(base) / "damaged" / "bad-moves.pdn").is_file()
    assert scan().games == []


# -- export and delete --------------------------------------------------------------------


def test_export_makes_a_new_file_and_never_overwrites(base: Path) -> None:
    keep_game(finished(), "one")
    [game] = scan().games
    first = export_kept(game)
    second = export_kept(game)
    assert first.parent == base / "games" / "export" and first != second
    assert first.read_text() == second.read_text()
    assert "2026-12-03-russian-ann-computer-3" in first.name
    [record] = list(read_file(first))
    assert record.ok and record.header("White") == "Ann"


def test_export_refuses_a_link_for_its_folder(base: Path, tmp_path: Path) -> None:
    keep_game(finished(), "one")
    [game] = scan().games
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (base / "games").mkdir(parents=True)
    os.symlink(elsewhere, base / "games" / "export")
    with pytest.raises(SaveError):
        export_kept(game)
    assert list(elsewhere.iterdir()) == []


def test_delete(base: Path) -> None:
    keep_game(finished(), "one")
    keep_game(finished(), "two")
    games = {g.key: g for g in scan().games}
    delete_kept(games["one"])
    delete_kept(games["one"])  # already gone: no error
    assert [g.key for g in scan().games] == ["two"]


# -- the score per opponent --------------------------------------------------------------


def test_summary_counts_each_opponent_from_the_players_side(base: Path) -> None:
    me = ("human", "Ann")
    games = [
        finished(me, ("computer-3", "Computer 3"), loser=1),  # won
        finished(me, ("computer-3", "Computer 3"), loser=0),  # lost
        finished(("computer-3", "Computer 3"), me, loser=0),  # won, playing Black
        finished(me, ("computer-5", "Computer 5"), how="draw"),  # drawn
        finished(me, ("engine:scan", "Scan 3.1"), loser=0),  # lost
        finished(("engine:scan", "Scan"), me, how="draw"),  # drawn: the same engine
        # hot-seat: from the first seat's (White's) side
        finished(me, ("human", "Bob"), loser=1),  # won against Bob
        finished(("human", "Bob"), me, loser=1),  # Bob sat first: won by Bob against Ann
        # no person: not counted
        finished(("computer-1", "Computer 1"), ("computer-2", "Computer 2")),
    ]
    for n, record in enumerate(games):
        keep_game(record, f"g{n}")
    found = scan().games
    table = {s.key: (s.label, s.won, s.drawn, s.lost) for s in summary(found)}
    assert table == {
        "computer:3": ("Computer, level 3", 2, 0, 1),
        "computer:5": ("Computer, level 5", 0, 1, 0),
        "engine:scan": ("Engine scan", 0, 1, 1),
        "person:Bob": ("Bob", 1, 0, 0),
        "person:Ann": ("Ann", 1, 0, 0),
    }
    assert summary(found)[0].key == "computer:3"  # most played first


def test_an_unfinished_result_is_listed_but_not_counted(base: Path) -> None:
    record = finished()
    record.headers["Result"] = record.result = "*"
    keep_game(record, "odd")
    [game] = scan().games
    assert game.score is None and summary([game]) == []


def test_module_names_its_folders_under_the_data_folder(base: Path) -> None:
    assert archive_module.archive_dir() == base / "archive"
    assert archive_module.export_dir() == base / "games" / "export"
