"""The referee's clock goes on across a crash of its own: an online game's autosave keeps
when its clocks were last read, and resuming it charges the side to move the time since
(down to a flag fall); the guest's view agrees, and a guest whose program died is
charged too."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.app.online import OnlineGameScreen, host_game, join_game
from shashki.online.events import Synced
from shashki.online.guest import Guest, GuestLink
from shashki.online.host import HostLink
from shashki.records.clocks import TimeControl
from shashki.rules import Color
from shashki.rules.outcome import Termination
from shashki.session.clock import ClockReading, GameClock
from shashki.session.game import CLOCK_TAG
from shashki.store import scan_autosaves
from tests.app.conftest import make_app, wait_for

from .harness import Heard, hosted, play, until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("shashki.app.online.REJOIN_EVERY", 0.05)
    yield tmp_path


def reading_of(path: Path) -> ClockReading:
    found = re.search(rf'\[{CLOCK_TAG} "([^"]*)"\]', path.read_text(encoding="utf-8"))
    assert found, "the autosave keeps no clock reading"
    reading = ClockReading.read(found.group(1))
    assert reading is not None
    return reading


def taken_earlier(path: Path, seconds: float) -> None:
    """The autosave's last reading was taken ``seconds`` earlier (the program died then)."""
    text = path.read_text(encoding="utf-8")
    reading = reading_of(path)
    earlier = ClockReading(reading.white, reading.black, reading.running, reading.at - seconds)
    path.write_text(text.replace(f'"{reading.text()}"', f'"{earlier.text()}"'), encoding="utf-8")
    assert reading_of(path) == earlier


def test_a_reading_goes_there_and_back_and_is_read_strictly() -> None:
    now = [100.0]
    clock = GameClock(TimeControl(300, 0), now=lambda: now[0])
    clock.start(Color.WHITE)
    now[0] += 20.5
    reading = ClockReading.of(clock, 1_700_000_000.25)
    assert reading.text() == "279.500 300.000 white 1700000000.250"
    assert ClockReading.read(reading.text()) == reading
    assert reading.left(1_700_000_016.25) == (263.5, 300.0)  # the side to move charged
    assert reading.left(1_700_000_999.0) == (0.0, 300.0)  # down to a flag fall
    assert reading.left(1_699_999_000.0) == (279.5, 300.0)  # (a clock set back: nothing)
    stopped = ClockReading(10.0, 20.0, None, 5.0)
    assert ClockReading.read(stopped.text()) == stopped and stopped.left(99.0) == (10.0, 20.0)
    for bad in ("", "1 2 white", "nan 2 white 3", "1 2 red 3", "-1 2 white 3", "1 2 white 0",
                "1e9 2 white 3", "1 2 white 3; rm -rf ~", "inf 1 - 3"):  # fmt: skip
        assert ClockReading.read(bad) is None, bad


async def test_the_hosts_clock_goes_on_across_its_own_crash_and_the_guest_agrees(
    home: Path,
) -> None:
    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = host_game(app, "russian", side=Color.WHITE, name="Anna",
                        clock=TimeControl.parse("5+0"), port=0, local=True)  # fmt: skip
        assert ctl is not None
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen) and isinstance(screen.link, HostLink)
        link = screen.link
        await wait_for(pilot, lambda: ":" in link.address, "listening")
        code, address = link.code, link.address
        guest = Guest(address, code, "Boris")
        await guest.connect()
        glink = guest.make_link()
        glink.session.start()
        reader = asyncio.create_task(guest.run())
        await wait_for(pilot, lambda: link.guest is not None, "the guest joining")
        for white, black in (("c3-d4", "f6-g5"), ("g3-f4", "g7-f6")):
            await pilot.press("colon", *white, "enter")
            await wait_for(pilot, lambda: glink.session.game.turn is Color.BLACK, "sent")
            play(glink.session, black)
            await wait_for(pilot, lambda: ctl.game.turn is Color.WHITE, "the guest's move")
        await wait_for(pilot, lambda: ctl.session.clock.running is Color.WHITE, "white's clock")  # type: ignore[union-attr]
        app.flush_autosave()
        await screen.close_network()  # (the host's program ends: its autosave stays)
    await until(reader.done, "the guest seeing the host gone")
    [entry] = scan_autosaves().resumable
    before = reading_of(entry.path)
    assert before.running is Color.WHITE
    taken_earlier(entry.path, 16.0)  # the host's program was down 16 s

    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = app.resume_unfinished(entry.key)
        screen = app.screen
        assert ctl is not None and isinstance(screen, OnlineGameScreen)
        clock = ctl.session.clock
        assert clock is not None
        await wait_for(pilot, lambda: clock.running is Color.WHITE, "white's clock going on")
        assert before.white - 20 < clock.left(Color.WHITE) <= before.white - 16  # charged
        assert clock.left(Color.BLACK) == pytest.approx(before.black, abs=0.01)
        link = screen.link
        assert isinstance(link, HostLink)
        await wait_for(pilot, lambda: ":" in link.address, "listening again")
        heard = Heard()
        glink.subscribe(heard)
        again = Guest(address, code, "Boris")
        await again.connect_again(glink)
        reader = asyncio.create_task(again.run())
        await wait_for(pilot, lambda: link.guest is not None, "the guest back")
        await wait_for(pilot, lambda: heard.saw(Synced), "the host's state")
        gclock = glink.session.clock
        assert gclock is not None
        for side in (Color.WHITE, Color.BLACK):  # the guest's view is the referee's
            assert gclock.left(side) == pytest.approx(clock.left(side), abs=1.0)
        assert gclock.left(Color.WHITE) <= before.white - 16 + 1.0
        await again.close()
        await until(reader.done, "the reader ending")
        await screen.close_network()


async def test_a_crash_longer_than_the_time_left_is_a_flag_fall(home: Path) -> None:
    pair = await hosted(clock="5+0")
    try:
        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            await pilot.press("colon", *"f6-g5", "enter")
            await wait_for(pilot, lambda: len(pair.link.session.game.move_stack) == 2, "sent")
            play(pair.link.session, "g3-f4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 3, "black to move")
            app.flush_autosave()
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await screen.close_network()  # (the guest's program ends)
            app.flush_autosave()
        await until(lambda: pair.link.guest is None, "the host seeing the guest gone")
    finally:
        await pair.close()  # (and the host is gone too)
    [entry] = scan_autosaves().resumable
    assert reading_of(entry.path).running is Color.BLACK
    taken_earlier(entry.path, 3600.0)  # an hour later: black's five minutes are gone

    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = app.resume_unfinished(entry.key)
        assert ctl is not None
        await wait_for(pilot, lambda: ctl.session.outcome is not None, "the flag fall")
        out = ctl.session.outcome
        assert out is not None and out.termination is Termination.TIME_FORFEIT
        assert out.winner is Color.WHITE
        screen = next(s for s in app.screen_stack if isinstance(s, OnlineGameScreen))
        await screen.close_network()


async def test_a_guest_whose_program_died_is_charged_and_its_view_agrees(home: Path) -> None:
    now = [1000.0]
    pair = await hosted(clock="5+0", now=lambda: now[0])
    try:
        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            await pilot.press("colon", *"f6-g5", "enter")
            await wait_for(pilot, lambda: len(pair.link.session.game.move_stack) == 2, "sent")
            play(pair.link.session, "g3-f4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 3, "black to move")
            app.flush_autosave()
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await screen.close_network()  # (the guest's program ends while it is to move)
        await until(lambda: pair.link.guest is None, "the host seeing the guest gone")
        host_clock = pair.link.session.clock
        assert host_clock is not None and host_clock.running is Color.BLACK
        black_before = host_clock.left(Color.BLACK)
        now[0] += 40  # the guest is away 40 s: its clock runs at the referee
        assert host_clock.left(Color.BLACK) == pytest.approx(black_before - 40)
        [entry] = scan_autosaves().resumable
        taken_earlier(entry.path, 40.0)

        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = app.resume_unfinished(entry.key)
            screen = app.screen
            assert ctl is not None and isinstance(screen, OnlineGameScreen)
            link = screen.link
            assert isinstance(link, GuestLink)
            clock = ctl.session.clock
            assert clock is not None
            # before it reaches the host, its view charges the time since its reading
            assert clock.left(Color.BLACK) <= black_before - 39
            await wait_for(pilot, lambda: link.reached, "the host's state")
            # the referee's reading (its clock stands still here: a clock moved by hand),
            # then this side's own clock running on from it (a busy machine: some seconds)
            assert black_before - 45 <= clock.left(Color.BLACK) <= black_before - 40 + 0.01
            await screen.close_network()
    finally:
        await pair.close()
