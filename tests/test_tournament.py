"""shashki tournament: who plays whom, the standings and Elo, the event file, and events
played in worker processes — resumed after a stop without losing or playing again a
finished game, and going on when an engine crashes, hangs or lies."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from shashki.records import read_games
from shashki.store.settings import EngineSetting
from shashki.tournament.event import Event, EventError, entrant, read_event
from shashki.tournament.runner import Tournament, play_job
from shashki.tournament.schedule import gauntlet, round_robin, swiss
from shashki.tournament.standings import standings, table_html, table_text

from .waiting import until_blocking

FAKE = str(Path(__file__).parent / "hub" / "fake_engine.py")


# -- who plays whom ------------------------------------------------------------------------


def test_a_round_robin_plays_each_opening_with_both_colours_for_every_pair() -> None:
    games = round_robin(5, 3)
    assert len(games) == 5 * 4 * 3
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    seen = Counter((g.white, g.black, g.opening) for g in games)
    assert set(seen.values()) == {1}
    for a in range(5):
        for b in range(5):
            if a != b:
                assert all((a, b, k) in seen for k in range(3))
    # a round holds each player once at most (5 players: one rests each round)
    by_round: dict[int, list[int]] = {}
    for g in games:
        if g.opening == 0 and g.white < g.black:
            by_round.setdefault(g.round, []).extend((g.white, g.black))
    assert all(len(set(p)) == len(p) for p in by_round.values())


def test_a_gauntlet_meets_the_first_player_only() -> None:
    games = gauntlet(4, 2)
    assert len(games) == 3 * 2 * 2
    assert all(0 in (g.white, g.black) for g in games)


def test_a_swiss_event_pairs_by_score_without_rematches_and_gives_byes() -> None:
    games, byes = swiss(5, 3, 2, {})
    assert {g.round for g in games} == {1} and len(games) == 4 and byes == [(1, 4)]
    # round 1: player 0 beats 1 twice, 2 and 3 draw
    results = {
        g.number: (1.0 if g.white == 0 else 0.0) if 0 in (g.white, g.black) else 0.5 for g in games
    }
    games, byes = swiss(5, 3, 2, results)
    second = [g for g in games if g.round == 2]
    pairs = {frozenset((g.white, g.black)) for g in second}
    assert frozenset((0, 1)) not in pairs  # (no rematch)
    assert frozenset((0, 4)) in pairs  # (the two leaders on 2 points meet)
    assert byes[1][1] != 4  # (another player rests)
    assert all(g.opening == 1 for g in second)


# -- standings -----------------------------------------------------------------------------


def test_standings_break_ties_and_rate_the_players() -> None:
    names = ["a", "b", "c", "d"]
    games = round_robin(4, 1)

    # a beats everyone; b and c beat d; b-c drawn; so b and c tie on points
    def score(white: int, black: int) -> float:
        if 0 in (white, black):
            return 1.0 if white == 0 else 0.0
        if 3 in (white, black):
            return 0.0 if white == 3 else 1.0
        return 0.5

    played = [(g, score(g.white, g.black)) for g in games]
    rows = standings(names, played)
    assert rows[0].name == "a" and rows[-1].name == "d"
    assert rows[1].points == rows[2].points == 3.0 and rows[1].rank == rows[2].rank == 2
    assert rows[0].elo is not None and rows[0].elo > rows[1].elo > rows[3].elo  # type: ignore[operator]
    assert abs(sum(r.elo or 0 for r in rows)) < 1e-6
    assert all(r.margin is not None and r.margin > 0 for r in rows)
    text = table_text(names, rows, played)
    assert " 2 " in text and "×" in text
    page = table_html("cup <&>", names, rows, played)
    assert "cup &lt;&amp;&gt;" in page and "<script" not in page


# -- the event file ------------------------------------------------------------------------


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cup.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_an_event_file_is_read_and_written_alike(tmp_path: Path) -> None:
    path = _file(
        tmp_path,
        'name = "Cup"\nformat = "swiss"\nrounds = 3\nclock = "40/5"\nconcurrency = 2\n'
        '[[player]]\nseat = "3"\n[[player]]\nseat = "dxp:127.0.0.1:27531"\nname = "Scan"\n'
        "depth = 4\n"
        '[[player]]\nseat = "4"\n',
    )
    event = read_event(path)
    assert [e.name for e in event.entrants] == ["shashki 3", "Scan", "shashki 4"]
    assert [e.depth for e in event.entrants] == [None, 4, None]
    assert event.folder == tmp_path / "cup" and event.control() is not None
    again = read_event(_file(tmp_path, event.toml()))
    assert again.entrants == event.entrants and again.clock == "40/5" and again.rounds == 3


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[player]]\nseat = "hub:rm -rf /"\n[[player]]\nseat = "2"\n', "does not run commands"),
        ("bogus = 1\n", "unknown key"),
        ('time = "fast"\n', "wrong kind"),
        ('format = "knockout"\n[[player]]\nseat="1"\n[[player]]\nseat="2"\n', "format"),
        ('[[player]]\nseat = "1"\n', "2 to"),
        ('[[player]]\nseat="1"\n[[player]]\nseat="1"\n', "two players"),
        ('folder = "../elsewhere"\n[[player]]\nseat="1"\n[[player]]\nseat="2"\n', "folder"),
        ('clock = "fast"\n[[player]]\nseat="1"\n[[player]]\nseat="2"\n', "clock"),
        ("name = [\n", "cup.toml"),
    ],
)
def test_a_bad_event_file_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(EventError) as caught:
        read_event(_file(tmp_path, text))
    said = str(caught.value)
    assert words in said and "\n" not in said


# -- playing -------------------------------------------------------------------------------


def _event(tmp_path: Path, *seats: str, concurrency: int = 2) -> Event:
    return Event(
        name="test",
        variant="russian",
        entrants=[entrant(s) for s in seats],
        depth=1,
        concurrency=concurrency,
        max_plies=30,
        folder=tmp_path / "event",
    )


def test_an_event_stopped_goes_on_without_losing_or_replaying_a_game(tmp_path: Path) -> None:
    event = _event(tmp_path, "1", "2", "3")
    first = Tournament(event)
    first.prepare()

    def stop_after_two() -> None:
        if len(first.results) >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        first.run(stop_after_two)
    kept = {p.name: p.stat().st_mtime_ns for p in (event.folder / "games").glob("*.pdn")}
    assert len(kept) >= 2
    second = Tournament(event)
    second.prepare()
    assert set(second.results) == {int(name[:4]) for name in kept}
    assert second.run()
    files = sorted((event.folder / "games").glob("*.pdn"))
    assert len(files) == 6
    for path in files:  # the games finished before the stop were not played again
        if path.name in kept:
            assert path.stat().st_mtime_ns == kept[path.name]
    games = list(read_games(str(event.folder / "event.pdn")))
    assert [g.headers["Round"].split(".")[1] for g in games] == [str(n) for n in range(1, 7)]
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
    text = (event.folder / "crosstable.txt").read_text(encoding="utf-8")
    assert "6 of 6 games" in text and "shashki 3" in text
    assert (event.folder / "crosstable.html").read_text(encoding="utf-8").startswith("<!DOCTYPE")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="links are made with os.symlink")
@pytest.mark.parametrize("folder", ["games", "live"])
def test_the_event_s_folders_are_never_links(tmp_path: Path, folder: str) -> None:
    """A link put where the games or the games' progress go (another user may write the
    event's folder) is refused in one line: nothing is written where it points."""
    event = _event(tmp_path, "1", "2")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    event.folder.mkdir()
    (event.folder / folder).symlink_to(elsewhere)
    with pytest.raises(EventError) as caught:
        Tournament(event).prepare()
    assert "link" in str(caught.value) and "\n" not in str(caught.value)
    assert not any(elsewhere.iterdir())


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="links are made with os.symlink")
def test_a_game_s_progress_is_never_written_through_a_link(tmp_path: Path) -> None:
    event = _event(tmp_path, "1", "2")
    tournament = Tournament(event)
    tournament.prepare()
    job = tournament._job(tournament.schedule()[0])
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    Path(job.live).symlink_to(victim)
    finished = play_job(job)
    assert not finished.error and finished.pdn  # (played, its progress not kept)
    assert victim.read_text() == "mine\n"


def test_an_engine_of_the_settings_plays_in_the_event_s_workers(tmp_path: Path) -> None:
    """An event file names an engine of the settings; the engines passed in (the
    settings', by the command) are what a name seats, and they reach each game's worker
    process with its job (issue 46: no list is kept for the process)."""
    engines = [EngineSetting("Fake", shlex.join([sys.executable, FAKE, "ok"]))]
    text = '[[player]]\nseat = "1"\n[[player]]\nseat = "fake"\n'
    with pytest.raises(EventError):
        read_event(_file(tmp_path, text))  # (no engines passed: no name is an engine)
    event = read_event(_file(tmp_path, text), engines=engines)
    assert [e.name for e in event.entrants] == ["shashki 1", "Fake"]
    event.folder, event.time, event.max_plies, event.concurrency = (
        tmp_path / "event",
        0.1,
        8,
        2,
    )
    tournament = Tournament(event, engines=engines)
    tournament.prepare()
    assert tournament.run()
    games = list(read_games(str(event.folder / "event.pdn")))
    assert len(games) == 2
    for game in games:  # the engine of the settings played (a person never would)
        tags = {game.headers.get("WhiteEngine"), game.headers.get("BlackEngine")}
        assert "Fake" in tags, game.headers


@pytest.mark.parametrize("mode", ["crash", "hang", "illegal"])
def test_an_engine_that_fails_loses_its_games_and_the_event_goes_on(
    tmp_path: Path, mode: str
) -> None:
    command = shlex.join([sys.executable, FAKE, mode])
    event = _event(tmp_path, "1", f"hub:{command}", concurrency=2)
    event.depth, event.time = None, 0.2
    tournament = Tournament(event)
    tournament.prepare()
    assert tournament.run()
    games = list(read_games(str(event.folder / "event.pdn")))
    assert len(games) == 2
    for game in games:
        engine_white = game.headers["White"] != "shashki 1"
        assert game.result == ("0-1" if engine_white else "1-0")
        assert "could not go on" in game.headers["Termination"]  # (the session's forfeit)


def test_the_shipped_ballots_are_read_as_openings() -> None:
    from shashki.hub.match import read_openings
    from shashki.rules import find_variant
    from shashki.tournament.ballots import ballot_file, shipped

    names = shipped()
    assert {"international-2", "international-3", "russian-2", "english-3"} <= set(names)
    for name in names:
        variant, plies = name.rsplit("-", 1)
        path = ballot_file(variant, f"ballot-{plies}")
        assert path is not None
        openings = read_openings(str(path), find_variant(variant))
        assert len(openings) > 20
        assert all(len(o.moves) == int(plies) for o in openings)
        assert len({tuple(map(str, o.moves)) for o in openings}) == len(openings)


def test_a_worker_ends_when_the_event_is_killed(tmp_path: Path) -> None:
    """Killed (or crashed), the event's process cannot tell its workers; each ends on its
    own instead of waiting for a next game forever."""
    script = (
        "import os, sys, multiprocessing\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from shashki.tournament.runner import _quiet_worker\n"
        "pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('spawn'),"
        " initializer=_quiet_worker)\n"
        "print(pool.submit(os.getpid).result(), flush=True)\n"
        "os._exit(9)  # (as killed: nothing cleaned up, the pool not shut down)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    worker = int(done.stdout.split()[0])

    def gone() -> bool:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return True
        try:  # (ended, not yet reaped by its new parent: a zombie)
            return Path(f"/proc/{worker}/stat").read_text().split(") ")[1][0] == "Z"
        except (OSError, IndexError):
            return False

    until_blocking(gone, "the worker to end once its event's process was gone")
