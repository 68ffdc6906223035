"""The ending tables: every value agrees with the values one move later (the definition
of a distance to the end), the engine wins three kings against one in Russian draughts
before the draw rule (FMJD-64 7.2.4) runs out, and the tables are cached on disk."""

from __future__ import annotations

import lzma
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.engine import ComputerPlayer, endings
from shashki.engine.endings import EndingTable, Material, covered, perfect_moves, probe
from shashki.rules import Color, Game, find_variant
from shashki.rules.fen import format_fen
from shashki.rules.game import game_state
from shashki.rules.move import Move
from shashki.rules.movegen import State
from shashki.rules.variant import Variant

from ..conftest import pure_only


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder of this module's own (the user's is never touched), and no tables
    shipped in the package: here tables are made and cached (the shipped ones:
    test_shipped_tables.py)."""
    folder = tmp_path_factory.mktemp("cache")
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    shipped = endings.SHIPPED
    endings.SHIPPED = folder / "none shipped"
    yield folder
    endings.SHIPPED = shipped
    if old is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = old


def _positions(variant_id: str | Variant, material: Material) -> Iterator[State]:
    """Every position of the material, both sides to move."""
    variant = find_variant(variant_id)
    for _, w, b, k in endings.layout(variant).placements(material):
        yield (w, b, k, 0, None)
        yield (w, b, k, 1, None)


def _check_table(variant_id: str | Variant, material: Material, every: int = 1) -> int:
    """Check the table's values against their children's; the number of wins seen."""
    variant = find_variant(variant_id)
    gen = variant.generator
    table = endings._table(variant, material)
    wins = 0
    for i, pos in enumerate(_positions(variant_id, material)):
        if i % every:
            continue
        value = table.value(pos)
        moves = gen.moves(pos)
        children = [probe(variant, gen.apply(pos, mv)) for mv in moves]
        if not moves:
            assert value == -1, pos
        elif value > 0:
            wins += 1
            # a win in d: some move leaves the other side lost in d - 1, none quicker
            assert min(-c for c in children if c < 0) == value, pos
        elif value < 0:
            # a loss in -value - 1 plies: every move leaves the other side a win, the
            # slowest one ply sooner
            assert all(c > 0 for c in children), pos
            assert max(children) == -value - 2, pos
        else:
            # a draw: no move wins, and some move keeps the draw
            assert all(c >= 0 for c in children) and 0 in children, pos
    return wins


def test_two_kings_against_one_agree_with_their_moves() -> None:
    assert _check_table("russian", (2, 0, 1, 0)) > 0
    assert _check_table("english", (2, 0, 1, 0)) > 0  # short kings: the lone king is hunted down


def test_three_kings_against_one_agree_with_their_moves() -> None:
    # every third position: each check costs a move generation per move
    assert _check_table("russian", (3, 0, 1, 0), every=3) > 0


def test_the_table_knows_petrovs_triangle() -> None:
    # White holds the main road (a1-h8): a win, within the fifteen moves of 7.2.4
    game = Game("russian", "W:WKa1,Kb2,Kc1:BKe7")
    exact = perfect_moves(game)
    assert exact is not None
    value, best = exact
    assert 0 < value <= 30 and best
    # the lone king on the main road (a1-h8) holds the draw
    value, best = perfect_moves(Game("russian", "W:WKa3,Kc1,Ke1:BKh8")) or (None, [])
    assert value == 0 and best


def test_three_kings_beat_one_before_the_draw_rule() -> None:
    game = Game("russian", "W:WKa1,Kb2,Kc1:BKe7")
    # the table made first, as a game's first ending move has it made in a worker: the
    # test does not hang on another test having made it (alone it once ran to a draw)
    assert perfect_moves(game) is not None
    players = {Color.WHITE: ComputerPlayer(6, seed=1), Color.BLACK: ComputerPlayer(6, seed=2)}
    while game.outcome() is None and len(game.move_stack) < 60:
        move = players[game.turn].think(game)
        assert move in game.legal_moves()
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE, outcome
    assert len(game.move_stack) <= 30


def test_only_games_of_a_few_kings_are_covered() -> None:
    russian = find_variant("russian")
    assert covered(russian, game_state(Game("russian", "W:WKa1,Kb2,Kc1:BKe7")))
    assert covered(russian, game_state(Game("russian", "W:WKa1,Kb2,c1:BKe7")))  # a man too
    assert not covered(russian, game_state(Game("russian", "W:WKa1,Kb2,Kc1,d2:BKe7")))  # five
    for vid, fen in [
        ("giveaway", "W:WKa1,Kb2,Kc1:BKe7"),  # the goals are inverted
        ("canadian", "W:WK1,K2:BK40,K50"),  # 13 million positions: made only ahead
    ]:
        assert not covered(find_variant(vid), game_state(Game(vid, fen)))
    assert perfect_moves(Game("russian")) is None
    # every ending of four pieces of the big board: two kings against two, 3 million
    assert covered(
        find_variant("international"), game_state(Game("international", "W:WK1,K2:BK40,K50"))
    )
    # a man on its own crowning row (set up by hand): no table holds it
    assert not covered(
        find_variant("international"), game_state(Game("international", "W:W3,K20:BK50"))
    )


def test_a_game_makes_in_a_worker_only_the_tables_quick_to_make(cache: Path) -> None:
    variant = find_variant("international")
    # a king and a man each: 10 million positions, and the tables they lead into
    big = game_state(Game("international", "W:WK1,30:BK50,21"))
    assert endings.to_make(variant, endings.material_of(big)) > endings.BUILD_IN_PLAY
    assert not endings.quick_to_make(variant, big)
    small = game_state(Game("russian", "W:WKa1,Kc1,Kg1:BKf8"))
    assert endings.quick_to_make(find_variant("russian"), small)
    endings._table(find_variant("russian"), (3, 0, 1, 0))
    assert endings.to_make(find_variant("russian"), (3, 0, 1, 0)) == 0  # made, and all below


def test_tables_are_cached_and_a_damaged_file_is_rebuilt(cache: Path) -> None:
    variant = find_variant("brazilian")
    table = EndingTable(variant, (2, 0, 1, 0), lambda pos: probe(variant, pos))
    path = table.cache_path()
    assert path.parent == cache / "shashki" / "endings" and path.exists()
    size = path.stat().st_size
    header = endings._header(variant, (2, 0, 1, 0))  # (what it is: its material, its rules)
    assert size == len(header) + endings.table_size(variant, (2, 0, 1, 0)) + 32  # checksum
    again = EndingTable(variant, (2, 0, 1, 0), lambda pos: probe(variant, pos))
    assert again._values == table._values
    path.write_bytes(b"broken")
    rebuilt = EndingTable(variant, (2, 0, 1, 0), lambda pos: probe(variant, pos))
    assert rebuilt._values == table._values and path.stat().st_size == size
    # one byte changed, the length kept: the checksum tells, the table is made again
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x55
    path.write_bytes(bytes(data))
    rebuilt = EndingTable(variant, (2, 0, 1, 0), lambda pos: probe(variant, pos))
    assert rebuilt._values == table._values and path.stat().st_size == size


def test_the_cache_never_writes_through_a_link(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: a cached table's file, its temporary file or the cache folder being a
    link is never written through; a link to /dev/zero is not read forever."""
    target = tmp_path / "precious.txt"
    target.write_text("the user's own words\n")
    variant = find_variant("brazilian")
    path = EndingTable(variant, (1, 0, 1, 0), lambda pos: probe(variant, pos)).cache_path()
    path.unlink()
    path.symlink_to(target)
    pid_tmp = path.with_suffix(f".{os.getpid()}.tmp")  # the name the temporary used to have
    pid_tmp.symlink_to(target)
    table = EndingTable(variant, (1, 0, 1, 0), lambda pos: probe(variant, pos))  # rebuilt
    assert path.is_symlink() and target.read_text() == "the user's own words\n"
    path.unlink()
    path.symlink_to("/dev/zero")
    again = EndingTable(variant, (1, 0, 1, 0), lambda pos: probe(variant, pos))
    assert again._values == table._values
    path.unlink()
    pid_tmp.unlink()
    # the cache folders themselves: a link is not written into
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = tmp_path / "other-cache"
    (other / "shashki").mkdir(parents=True)
    (other / "shashki" / "endings").symlink_to(elsewhere)
    monkeypatch.setenv("XDG_CACHE_HOME", str(other))
    EndingTable(variant, (1, 0, 1, 0), lambda pos: probe(variant, pos))
    assert list(elsewhere.iterdir()) == []


def test_building_a_table_can_be_cancelled() -> None:
    # two kings against two in Brazilian: not built by any other test
    game = Game("brazilian", "W:WKa1,Kc1:BKh8,Kf8")
    assert perfect_moves(game, lambda: True) is None
    assert not endings.is_built(game.variant, game_state(game))
    assert ComputerPlayer(6).think(game, lambda: True) is None


def test_draws_declared_by_the_material_end_the_game_in_the_table() -> None:
    # the traditional game declares three kings against one on the main road a draw at
    # once (docs/rules/conventions.md#draws): the lone king runs there; in Russian it is caught in 5
    # plies
    fen = "W:WKa1,Kc1,Kg1:BKf8"
    assert (perfect_moves(Game("russian", fen)) or (None,))[0] == 5
    assert (perfect_moves(Game("traditional", fen)) or (None,))[0] == 0
    # and two kings against one is drawn there unless the side to move can capture
    variant = find_variant("traditional")
    table = endings._table(variant, (2, 0, 1, 0))
    quiet = [
        p for p in _positions("traditional", (2, 0, 1, 0)) if not variant.generator.captures(p)
    ]
    assert quiet and all(table.value(p) in (0, -1) for p in quiet)


# -- men and kings -------------------------------------------------------------------------


def test_men_and_kings_tables_agree_with_their_moves() -> None:
    # a man's step stays in the table, its crowning and every capture lead out of it
    assert _check_table("russian", (1, 1, 1, 0), every=5) > 0
    assert _check_table("international", (0, 1, 1, 0)) >= 0
    assert _check_table("international", (1, 0, 0, 1)) > 0


def test_the_search_finds_the_wins_the_tables_know() -> None:
    """Sampled positions the table scores won or lost within a few plies: the search
    alone (without the tables) finds the same end at the depth the table says."""
    from shashki.engine.search import WON, Search

    variant = find_variant("russian")
    table = endings._table(variant, (1, 1, 1, 0))
    search = Search(variant, endings=False)
    checked = 0
    for i, pos in enumerate(_positions("russian", (1, 1, 1, 0))):
        if i % 97:
            continue
        value = table.value(pos)
        if not 1 <= abs(value) <= 5 or variant.generator.captures(pos):
            continue
        game = Game(variant, format_fen(variant, pos))
        result = search.search(game, depth=abs(value) + 1)
        assert (result.score >= WON) if value > 0 else (result.score <= -WON), (pos, value)
        checked += 1
    assert checked >= 5


def test_the_search_probes_a_table_in_memory_and_never_builds_one() -> None:
    from shashki.engine.search import WIN, Search

    # a king and a man against a king on the big board: the table is made here
    game = Game("international", "W:WK1,35:BK50")
    exact = perfect_moves(game)
    assert exact is not None
    value, best = exact
    assert best and all(m in game.legal_moves() for m in best)
    search = Search("international")
    result = search.search(game, depth=4)
    assert result.move in game.legal_moves()
    if value == 0:
        assert result.score == 0  # the table's draw, at once, whatever the evaluation
    else:
        assert abs(result.score) >= WIN - 200
    # a material without a table in memory: the search goes on as without tables
    five = game_state(Game("international", "W:WK1,K2,K3,K4:BK50"))
    assert endings.probe_built(game.variant, five) is None


def test_a_damaged_table_is_never_used_by_the_search(cache: Path) -> None:
    variant = find_variant("brazilian")
    material = (1, 1, 1, 0)
    endings._table(variant, material)
    path = endings.cache_file(variant, material)
    data = bytearray(path.read_bytes())
    data[100] ^= 1
    path.write_bytes(bytes(data))
    # a fresh process: nothing in memory
    key = (variant.id, material)
    endings._TABLES.pop(key)
    endings._ABSENT.pop(key, None)
    assert not endings.cached(variant, material)
    pos = game_state(Game("brazilian", "W:WKa1,c3:BKh8"))
    assert endings.probe_built(variant, pos) is None  # read, its checksum wrong: not used
    assert key not in endings._TABLES and endings._ABSENT.get(key) is variant
    assert endings.probe_built(variant, pos) is None  # (and not read again)
    # the game goes on, legal as ever, and a build makes it again
    value = endings.probe(variant, pos)
    assert value in range(-128, 128)
    assert endings.cached(variant, material)
    assert endings.probe_built(variant, pos) == value


def test_a_table_is_read_the_first_time_its_material_is_probed(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search starts without reading a table; the first probe of a material reads its
    file (once, whichever of the threads probing at the same time gets to it)."""
    import threading

    from shashki.engine.search import Search

    variant = find_variant("brazilian")
    material = (2, 0, 1, 0)
    key = (variant.id, material)
    made = endings._table(variant, material)
    endings._TABLES.pop(key)  # a fresh process: the file in the cache, nothing in memory
    endings._ABSENT.pop(key, None)
    reads: list[Path] = []
    read = endings.read_limited

    own = endings.cache_file(variant, material).name

    def counted(path: Path, limit: int, *, follow: bool = True) -> bytes:
        # (only this table's: another test's build may still be reading its own, on a
        # busy machine; CI saw the table of two kings against two read here)
        if Path(path).name == own:
            reads.append(Path(path))
        return read(path, limit, follow=follow)

    # (the module's name of the reader, not its own function: also seen when it runs
    # compiled, shashki.native)
    monkeypatch.setattr(endings, "read_limited", counted)
    Search(variant)
    assert key not in endings._TABLES and not reads
    positions = [p for i, p in enumerate(_positions(variant, material)) if not i % 101]
    results: list[list[int | None]] = []
    start = threading.Barrier(6)

    def probe_all() -> None:
        start.wait()
        results.append([endings.probe_built(variant, p) for p in positions])

    threads = [threading.Thread(target=probe_all) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert reads == [endings.cache_file(variant, material)]
    expected = [made.value(p) for p in positions]
    # a thread that met the file being read went on without it, until it was read
    for got in results:
        first = next((i for i, g in enumerate(got) if g is not None), len(got))
        assert got[first:] == expected[first:]
    assert any(got == expected for got in results)  # (the thread that read it)
    assert endings._TABLES[key]._values == made._values


def test_endings_build_command(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from shashki.cli import main

    assert main(["endings", "build", "english", "--pieces", "2"]) == 0
    out = capsys.readouterr().out
    assert "1K v 1M: 1,792 positions, 2 KB, " in out and "4 tables of" in out
    # (a table other tests made is in the cache already)
    assert out.count("made in") + out.count("in the cache") == 4
    assert main(["endings", "build", "english", "--pieces", "2"]) == 0
    assert capsys.readouterr().out.count("in the cache") == 4
    assert main(["endings", "build", "giveaway"]) == 2
    assert "no ending tables" in capsys.readouterr().err


# -- the two ways of building ------------------------------------------------------------


@pytest.mark.timeout(300)  # among the slowest tests (pyproject.toml: timeout)
@pytest.mark.parametrize(
    ("variant_id", "material"),
    [
        ("russian", (2, 0, 1, 0)),  # flying kings taken back along their lines
        ("russian", (1, 1, 1, 0)),  # a man's step taken back, a crowning out of the table
        ("traditional", (2, 0, 1, 0)),  # the draws the material declares
        ("english", (1, 1, 1, 0)),  # short kings
        ("turkish", (0, 2, 0, 1)),  # orthogonal: men step sideways too
        ("international", (0, 1, 1, 0)),
        ("international", (1, 0, 0, 2)),  # the majority rule, kings flying on 10x10
    ],
)
def test_the_backwards_build_makes_the_same_table_as_the_straightforward_one(
    variant_id: str, material: Material
) -> None:
    """The build that takes quiet moves back (index arithmetic on the generator's tables
    read the other way) against the straightforward one that makes every move of every
    position and indexes its child: every entry the same."""
    variant = find_variant(variant_id)
    assert endings.backwards_ok(variant)
    table = endings._table(variant, material)  # (and the smaller ones it leads to)
    size = endings.table_size(variant, material)

    def smaller(pos: State) -> int:
        return probe(variant, pos)

    backwards = table._build_backwards(size, smaller, None)
    forwards = table._build_forwards(size, smaller, None)
    assert len(backwards) == len(forwards) == size
    differ = [i for i in range(size) if backwards[i] != forwards[i]]
    assert not differ, (len(differ), differ[:5])
    assert backwards == table._values
    assert any(v not in (0, 255) for v in backwards)  # something was solved


@pure_only
def test_a_generator_with_its_own_moves_is_built_forwards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a generator's moves are not its tables' own, no move is taken back: the
    table is built the straightforward way, the same one."""
    variant = find_variant("brazilian")
    gen = variant.generator

    class Own(type(gen)):  # type: ignore[misc]
        def moves(self, pos: State) -> list[Move]:
            return super().moves(pos)

    monkeypatch.setattr(gen, "__class__", Own)
    assert not endings.backwards_ok(variant)
    called: list[str] = []
    forwards = EndingTable._build_forwards
    backwards = EndingTable._build_backwards

    def spy_forwards(self: EndingTable, *args: object) -> bytes:
        called.append("forwards")
        return forwards(self, *args)  # type: ignore[arg-type]

    def spy_backwards(self: EndingTable, *args: object) -> bytes:
        called.append("backwards")
        return backwards(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(EndingTable, "_build_forwards", spy_forwards)
    monkeypatch.setattr(EndingTable, "_build_backwards", spy_backwards)
    size = endings.table_size(variant, (2, 0, 1, 0))
    table = EndingTable.__new__(EndingTable)
    table.variant, table.material = variant, (2, 0, 1, 0)
    table.layout = endings.layout(variant)
    table.counts = table.layout.counts((2, 0, 1, 0))
    made = table._build(size, lambda pos: probe(variant, pos), None)
    monkeypatch.undo()
    assert called and set(called) == {"forwards"}  # (and the smaller tables it needed)
    assert made == table._build_backwards(size, lambda pos: probe(variant, pos), None)


# -- five kings ----------------------------------------------------------------------------


def _six() -> Variant:
    """Russian draughts on a 6x6 board: five kings on 18 squares, 250,000 positions."""
    from shashki.rules import load_variant_file

    path = Path(__file__).with_name("data") / "russian-six.toml"
    return load_variant_file(path)


def test_five_kings_are_made_only_ahead_of_time() -> None:
    russian = find_variant("russian")
    five = [m for m in endings.materials(russian, 5) if sum(m) == 5]
    assert five == [(1, 0, 4, 0), (4, 0, 1, 0), (2, 0, 3, 0), (3, 0, 2, 0)]
    # with men: not made at all; of kings alone: only when its file is in the cache
    assert not covered(russian, game_state(Game("russian", "W:WKa1,Kb2,Kc1,d2:BKe7")))
    pos = game_state(Game("russian", "W:WKa1,Kb2,Kc1,Kd2:BKe7"))
    assert not endings.cached(russian, endings.material_of(pos))
    assert not covered(russian, pos)
    assert perfect_moves(Game("russian", "W:WKa1,Kb2,Kc1,Kd2:BKe7")) is None
    assert endings.probe_built(russian, pos) is None  # the search never builds it
    # on the 10x10 board: four kings against one, three against two, nothing bigger
    intl = find_variant("international")
    assert [m for m in endings.materials(intl, 5) if sum(m) == 5] == five
    assert endings.table_size(intl, (3, 0, 2, 0)) <= endings.MAX_AHEAD
    assert endings.table_size(intl, (3, 1, 1, 0)) > endings.MAX_AHEAD


def test_four_pieces_beyond_the_limit_are_made_only_ahead_of_time(
    cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A table of four pieces beyond MAX_POSITIONS (a king and a man each on a board of
    64 squares: 25.7 million) is never made in play: it is covered when it is made (in
    memory or in the cache) or shipped in the package, and then exact at once."""
    variant = _six()
    material = (1, 1, 1, 1)
    size = endings.table_size(variant, material)
    monkeypatch.setattr(endings, "MAX_POSITIONS", size - 1)  # (this board's: beyond it)
    monkeypatch.setattr(endings, "_TABLES", {})
    monkeypatch.setattr(endings, "_ABSENT", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert endings.made_ahead(variant, material) and not endings.on_demand(variant, material)
    assert material in endings.materials(variant, 4)
    others = [m for m in endings.materials(variant, 4) if m != material]
    assert others and all(endings.on_demand(variant, m) for m in others)
    game = Game(variant, "W:WKa1,c3:BKf6,d4")
    pos = game_state(game)
    assert endings.material_of(pos) == material
    assert not covered(variant, pos)  # not made: never made by a game
    assert perfect_moves(game) is None
    endings.build_one(variant, material)
    assert covered(variant, pos)
    built = endings.table_values(variant, material)
    form = endings.shipped_forms(variant, material, built)
    assert form is not None
    folder = tmp_path / "tables"
    folder.mkdir()
    # shipped alone (its smaller tables too), nothing in memory or the cache: exact at once
    for m in endings.materials(variant, 4):
        values = endings.table_values(variant, m)
        got = endings.shipped_forms(variant, m, values)
        if got is not None:
            (folder / got[0]).write_bytes(lzma.compress(got[1]))
    monkeypatch.setattr(endings, "SHIPPED", folder)
    monkeypatch.setattr(endings, "_TABLES", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fresh"))
    assert endings.is_shipped(variant, material) and covered(variant, pos)
    exact = perfect_moves(game, build=False)
    assert exact is not None and exact[1]
    assert endings.shipped_values(variant, material) == built
    assert not list((tmp_path / "fresh").rglob("*.bin"))  # read, nothing made


def test_five_kings_agree_with_their_moves_and_the_straightforward_build() -> None:
    """Three kings against two (and the tables they lead into) on a small board: the
    backwards build the same, entry by entry, as the straightforward one; every fifth
    position's value agrees with its children's; then the table is probed and used."""
    from shashki.engine.search import WIN, Search

    variant = _six()
    material = (3, 0, 2, 0)
    table = endings._table(variant, material)
    size = endings.table_size(variant, material)

    def smaller(pos: State) -> int:
        return probe(variant, pos)

    forwards = table._build_forwards(size, smaller, None)
    differ = [i for i in range(size) if forwards[i] != table._values[i]]
    assert not differ, (len(differ), differ[:5])
    assert _check_table(variant, material, every=5) > 0
    assert _check_table(variant, (4, 0, 1, 0), every=7) > 0
    # made (and in the cache): covered, and the search probes it
    game = Game(variant, "W:WKa1,Kc1,Ke1:BKb6,Kd6")
    assert covered(variant, game_state(game))
    exact = perfect_moves(game, build=False)
    assert exact is not None and exact[1]
    value = exact[0]
    assert value == table.value(game_state(game))
    result = Search(variant).search(game, depth=3)
    assert result.move in game.legal_moves()
    assert result.score == 0 if value == 0 else abs(result.score) >= WIN - 200


@pytest.mark.parametrize(
    ("variant_id", "material"),
    [
        ("russian", (2, 0, 1, 0)),  # flying kings
        ("traditional", (2, 0, 1, 0)),  # the draws the material declares
        ("english", (2, 0, 1, 0)),  # short kings
        ("italian", (1, 0, 2, 0)),  # a mirrored board
        ("thai", (2, 0, 1, 0)),  # a king lands just beyond its prey
        ("russian-six", (4, 0, 1, 0)),  # five kings
        ("russian-six", (2, 0, 3, 0)),
    ],
)
def test_a_table_of_kings_read_off_the_colours_swapped_is_the_one_built(
    variant_id: str, material: Material
) -> None:
    """The table of kings alone is read off the one of the colours swapped where that is
    made (:func:`endings.mirrors`): the same, entry by entry, as the straightforward
    build.  (Every variant that allows it was compared so on two kings against one.)"""
    variant = _six() if variant_id == "russian-six" else find_variant(variant_id)
    assert endings.mirrors(variant, material)
    other = (material[2], material[3], material[0], material[1])
    endings._table(variant, other)  # (made, or read from the cache)
    size = endings.table_size(variant, material)
    # a table of these values, neither read nor made (its parts are called below)
    table = EndingTable(variant, material, lambda pos: probe(variant, pos), values=bytes(size))
    mirrored = table._mirror()
    assert mirrored is not None
    forwards = table._build_forwards(size, lambda pos: probe(variant, pos), None)
    differ = [i for i in range(size) if forwards[i] != mirrored[i]]
    assert not differ, (len(differ), differ[:5])
    assert any(v not in (0, 255) for v in mirrored)
    # men, or as many kings on each side: nothing to read off
    assert not endings.mirrors(variant, (2, 1, 1, 0))
    assert not endings.mirrors(variant, (2, 0, 2, 0))


def _forget(variant: Variant, material: Material) -> None:
    """A fresh process: the table not in memory, nor known to be missing."""
    endings._TABLES.pop((variant.id, material), None)
    endings._ABSENT.pop((variant.id, material), None)


def test_a_table_of_another_material_is_never_read_as_this_one(cache: Path) -> None:
    """Two kings against one and one against two have tables of one size: the file of
    one put in the place of the other (its checksum sound) is refused by its header,
    and the table is made again."""
    variant = find_variant("brazilian")
    mine, theirs = (2, 0, 1, 0), (1, 0, 2, 0)
    assert endings.table_size(variant, mine) == endings.table_size(variant, theirs)
    made = endings._table(variant, mine)._values
    endings._table(variant, theirs)
    path = endings.cache_file(variant, mine)
    path.write_bytes(endings.cache_file(variant, theirs).read_bytes())
    path.chmod(0o600)
    _forget(variant, mine)
    assert not endings.cached(variant, mine)
    pos = next(iter(_positions(variant, mine)))
    assert endings.probe_built(variant, pos) is None
    _forget(variant, mine)
    assert endings._table(variant, mine)._values == made  # (made again, right)
    assert endings.cached(variant, mine)
    assert path.read_bytes().startswith(b"shashki ending table ")


@pytest.mark.parametrize("where", ["the file", "its folder", "shashki's cache folder"])
def test_a_table_others_may_write_is_not_used(cache: Path, where: str) -> None:
    variant = find_variant("brazilian")
    material = (1, 1, 1, 0)
    endings._table(variant, material)
    path = endings.cache_file(variant, material)
    place = {
        "the file": path,
        "its folder": path.parent,
        "shashki's cache folder": path.parent.parent,
    }[where]
    mode = place.stat().st_mode & 0o777
    place.chmod(mode | 0o022)
    try:
        _forget(variant, material)
        assert not endings.cached(variant, material)
        pos = game_state(Game("brazilian", "W:WKa1,c3:BKh8"))
        assert endings.probe_built(variant, pos) is None
    finally:
        place.chmod(mode)
    _forget(variant, material)
    assert endings.cached(variant, material)


@pytest.mark.skipif(
    not hasattr(os, "getuid") or os.getuid() != 0, reason="only root can give a file away"
)
def test_another_users_table_is_not_used(cache: Path) -> None:
    variant = find_variant("brazilian")
    material = (1, 0, 1, 1)
    endings._table(variant, material)
    path = endings.cache_file(variant, material)
    os.chown(path, 12345, 12345)
    _forget(variant, material)
    assert not endings.cached(variant, material)
    endings._table(variant, material)  # made again: another user's file is not replaced
    _forget(variant, material)
    assert not endings.cached(variant, material)
    os.chown(path, 0, 0)
    _forget(variant, material)
    assert endings.cached(variant, material)


def test_a_table_is_kept_where_no_one_else_may_write(cache: Path) -> None:
    variant = find_variant("brazilian")
    material = (1, 0, 1, 0)
    path = endings.cache_file(variant, material)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o777)
    path.unlink(missing_ok=True)
    _forget(variant, material)
    endings._table(variant, material)
    assert path.parent.stat().st_mode & 0o777 == 0o755
    assert path.stat().st_mode & 0o022 == 0
    _forget(variant, material)
    assert endings.cached(variant, material)
