"""The ending tables shipped in the package (``shashki/engine/tables``, made by
``tools/make_tables.py``): a fresh install judges them at once, and a shipped table is
used only when its header names today's rules and its checksum holds.  A table shipped
as its White-to-move positions alone is read back whole off the table of the colours
swapped, and checked against the checksum of the whole table its file names."""

from __future__ import annotations

import hashlib
import lzma
import re
import shutil
from pathlib import Path

import pytest

from shashki.engine import endings
from shashki.rules import Game, all_variants, find_variant
from shashki.rules.game import fast_moves, game_state, library_moves

SHIPPED = sorted(endings.SHIPPED.glob("*.xz"))


def _material(name: str) -> tuple[str, tuple[int, int, int, int]]:
    match = re.fullmatch(r"(.+)-(\d)k(\d)m-(\d)k(\d)m(?:\.white)?\.xz", name)
    assert match, name
    wk, wm, bk, bm = (int(match[i]) for i in range(2, 6))
    return match[1], (wk, wm, bk, bm)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty cache folder and no table in memory: a fresh install."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(endings, "_TABLES", {})
    monkeypatch.setattr(endings, "_ABSENT", {})
    return tmp_path


def test_every_shipped_table_is_of_todays_rules() -> None:
    """A change to a variant's rules or to the tables' format makes the shipped tables
    unusable (and this test fail): ``python tools/make_tables.py`` makes them again."""
    assert len(SHIPPED) > 100
    for path in SHIPPED:
        vid, material = _material(path.name)
        assert endings.shipped_values(find_variant(vid), material) is not None, path.name


#: The games of the 8x8 board whose endings can be tabled: every one of them ships every
#: ending of at most four pieces.
EIGHT = [
    v.id for v in all_variants() if endings.plain(v) and (v.board.width, v.board.height) == (8, 8)
]


def test_the_shipped_set_is_the_promised_one() -> None:
    assert len(EIGHT) >= 14
    international = find_variant("international")
    for material in [*endings.materials(international, 3), (3, 0, 1, 0), (1, 0, 3, 0)]:
        assert endings.is_shipped(international, material), material
    for vid in EIGHT:
        variant = find_variant(vid)
        for material in endings.materials(variant, 4):
            men = material[1] + material[3]
            if sum(material) < 4 or vid in FOUR_SHIPPED or men <= SIXTY_FOUR.get(vid, -1):
                assert endings.is_shipped(variant, material), (vid, material)


def _four(vid: str) -> Game:
    """A position of four pieces of ``vid``, Black to move: two men each (a table shipped
    as its White-to-move positions, these read off the board turned round)."""
    variant = find_variant(vid)
    board = variant.board

    def on(rank: int) -> list[str]:
        row = sorted((p for p in board.squares if board.rank_of[p] == rank), key=file_of)
        return [variant.square_name(p) for p in row]

    file_of = board.file_of.__getitem__
    white, black = on(2)[:2], on(5)[-2:]
    return Game(vid, f"B:W{','.join(white)}:B{','.join(black)}")


#: The games whose endings of four pieces are all shipped: those of the boards of 32
#: squares.
FOUR_SHIPPED = [vid for vid in EIGHT if find_variant(vid).board.square_count == 32]
#: Of the games of 64 squares, those whose endings of four pieces with at most so many men
#: are shipped (tools/make_tables.py: the others are made by ``shashki endings build``,
#: or in a worker the first time they arise where they are small enough).
SIXTY_FOUR = {"turkish": 4, "tama": 4, "tama-armenian": 4}


@pytest.mark.parametrize(
    ("vid", "fen"),
    [(vid, None) for vid in FOUR_SHIPPED]
    + [
        ("turkish", "B:WKa1,Kb1:Bg6,h6"),
        ("turkish", "W:WKa1,c3:BKh8,f6"),  # a king and a man each: 25.7 million positions
        ("turkish", "B:Wa3,b3:Bg6,h6"),  # two men each
        ("tama", "B:WKa1,Kb1:BKg6,Kh6"),  # two kings each
        ("tama", "B:WKa1,c3:BKg6,Kh6"),  # a king and a man against two kings
        ("tama", "W:WKa1,c3:BKh8,f6"),  # a king and a man each: 25.7 million positions
        ("tama-armenian", "W:WKa1:BKf6,Kg6,Kh6"),  # three kings against one
        ("tama-armenian", "W:WKa1,Kb1,c3:BKh8"),  # two kings and a man against a king
    ],
)
def test_an_ending_of_four_pieces_is_exact_at_once_in_every_8x8_game(
    vid: str, fen: str | None, fresh: Path
) -> None:
    game = _four(vid) if fen is None else Game(vid, fen)
    pos = game_state(game)
    assert endings.covered(game.variant, pos) and sum(endings.material_of(pos)) == 4
    exact = endings.perfect_moves(game, build=False)  # (as on a clock: nothing is built)
    assert exact is not None and exact[1], vid
    assert not list(fresh.rglob("*.bin"))  # read from the package, nothing written
    value, best = exact
    # exact: each best move leads where the table says, the others no better
    gen = game.variant.generator
    for fast in fast_moves(game):
        child = endings.probe(game.variant, gen.apply(pos, fast))
        if library_moves(game, [fast])[0] in best:
            assert child == (-value if value > 0 else -value - 2 if value < 0 else 0)
        elif value > 0:
            assert child >= 0 or -child > value
    assert endings.probe_built(game.variant, pos) == value


def test_a_table_read_off_the_colours_swapped_is_the_one_built(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A shipped table of White-to-move positions read back whole is the table the
    builder makes afresh, in a game whose men capture backwards and in one whose men
    move sideways."""
    for vid, material in (("czech", (1, 1, 1, 0)), ("turkish", (0, 1, 1, 1))):
        variant = find_variant(vid)
        assert (endings.SHIPPED / endings.shipped_half_name(variant, material)).is_file()
        shipped = endings.shipped_values(variant, material)
        with monkeypatch.context() as m:
            m.setattr(endings, "SHIPPED", tmp_path / "none")  # (nothing shipped: built)
            m.setattr(endings, "_TABLES", {})
            m.setenv("XDG_CACHE_HOME", str(tmp_path / vid))
            built = endings.table_values(variant, material)
        assert shipped is not None and shipped == built, vid


def test_a_damaged_half_or_its_partner_is_not_used(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    russian = find_variant("russian")
    mine, theirs = (1, 1, 1, 0), (1, 0, 1, 1)
    for m in (mine, theirs):
        name = endings.shipped_half_name(russian, m)
        shutil.copy(endings.SHIPPED / name, folder / name)
    monkeypatch.setattr(endings, "SHIPPED", folder)
    monkeypatch.setattr(endings, "_UNUSABLE", set())
    monkeypatch.setattr(endings, "_UNSHOWN", [])
    assert endings.shipped_values(russian, mine) is not None  # (as shipped: whole)
    # the partner of the colours swapped damaged: neither is read
    name = endings.shipped_half_name(russian, theirs)
    raw = bytearray(lzma.decompress((folder / name).read_bytes()))
    raw[-40] ^= 1
    (folder / name).write_bytes(lzma.compress(bytes(raw)))
    assert endings.shipped_values(russian, mine) is None
    assert endings.shipped_values(russian, theirs) is None
    # a partner sound in itself (its own checksum holds) but changed: the wholes read
    # back do not match the checksums the files name
    raw[-40] ^= 1  # (as it was)
    (folder / name).write_bytes(
        lzma.compress(_forged(raw, endings.table_size(russian, theirs) // 2))
    )
    assert endings.shipped_values(russian, theirs) is None
    assert endings.shipped_values(russian, mine) is None
    said = endings.unusable_said()
    assert any(endings.shipped_half_name(russian, mine) in line for line in said)


def _forged(raw: bytearray, count: int) -> bytes:
    """A shipped half file with one of its positions changed and its own checksum made
    anew (the checksum of the whole it names left as it was)."""
    body = bytearray(raw[:-32])
    body[len(body) - count // 2] ^= 1
    return bytes(body) + hashlib.sha256(body).digest()


def test_three_kings_against_one_on_the_long_diagonal_is_a_draw_at_once(fresh: Path) -> None:
    game = Game("international", "B:WK7,K12,K45:BK5")
    exact = endings.perfect_moves(game, build=False)  # (as on a clock: nothing is built)
    assert exact is not None and exact[0] == 0 and exact[1]
    assert not list(fresh.rglob("*.bin"))  # read from the package, nothing written
    # the search finds it too, at every node
    assert endings.probe_built(game.variant, game_state(game)) == 0


def test_a_russian_ending_of_four_pieces_is_exact_at_once(fresh: Path) -> None:
    game = Game("russian", "W:WKa1,Kb2,Kc1:BKe7")  # Petrov's triangle: won
    exact = endings.perfect_moves(game, build=False)
    assert exact is not None and exact[0] > 0


def test_a_damaged_or_foreign_shipped_table_is_not_used(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    international = find_variant("international")
    name = endings.shipped_name(international, (3, 0, 1, 0))
    raw = bytearray(lzma.decompress((endings.SHIPPED / name).read_bytes()))
    raw[len(raw) // 2] ^= 1  # one bit of one position
    (folder / name).write_bytes(lzma.compress(bytes(raw)))
    # a Russian table put where an English one would be: its header names Russian rules
    english, russian = find_variant("english"), find_variant("russian")
    shutil.copy(
        endings.SHIPPED / endings.shipped_name(russian, (1, 0, 2, 0)),
        folder / endings.shipped_name(english, (1, 0, 2, 0)),
    )
    (folder / endings.shipped_name(english, (1, 0, 1, 0))).write_bytes(b"\xfd7zXZ garbage")
    monkeypatch.setattr(endings, "SHIPPED", folder)
    assert endings.shipped_values(international, (3, 0, 1, 0)) is None
    assert endings.shipped_values(english, (1, 0, 2, 0)) is None
    assert endings.shipped_values(english, (2, 0, 1, 0)) is None  # (read off it: neither)
    assert endings.shipped_values(english, (1, 0, 1, 0)) is None
    game = Game("international", "B:WK7,K12,K45:BK5")
    assert endings.perfect_moves(game, build=False) is None  # (nothing to trust: searched)


def test_best_says_the_draw_at_once_in_a_fresh_install(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shashki.cli import main

    assert main(["best", "international", "--fen", "B:WK7,K12,K45:BK5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "ending table: a draw, +0.00 (with best play on both sides)"
    game = Game("international", "B:WK7,K12,K45:BK5")
    assert game.parse_move(lines[1]) in endings.perfect_moves(game)[1]  # type: ignore[index]


def test_a_damaged_shipped_table_is_said_once_in_one_line_and_searched(
    fresh: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    from shashki.cli import main

    folder = tmp_path / "tables"
    folder.mkdir()
    international = find_variant("international")
    name = endings.shipped_name(international, (3, 0, 1, 0))
    (folder / name).write_bytes((endings.SHIPPED / name).read_bytes()[:-40])  # cut short
    monkeypatch.setattr(endings, "SHIPPED", folder)
    monkeypatch.setattr(endings, "_UNUSABLE", set())
    monkeypatch.setattr(endings, "_UNSHOWN", [])
    code = main(["best", "international", "--fen", "B:WK7,K12,K45:BK5", "--time", "0.2"])
    out, err = capsys.readouterr()
    assert code == 0 and out.strip() and "Traceback" not in err
    assert not out.startswith("ending table")  # searched, not read off the damaged table
    said = [r.getMessage() for r in caplog.records if r.name == "shashki.engine"]
    assert len(said) == 1 and name in said[0] and "\n" not in said[0]  # (to the log)
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == [f"shashki: warning: {said[0]}"]  # (and to the user)


def test_the_endings_command_says_which_tables_came_with_shashki(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shashki.cli import main

    assert main(["endings", "build", "english", "--pieces", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [line for line in lines if line.endswith("came with shashki")]
    assert len(said) == len(endings.materials(find_variant("english"), 3)) > 10
    assert not list(fresh.rglob("*.bin"))  # (nothing made: all read from the package)
