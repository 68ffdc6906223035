"""An online game outlives the programs playing it: a host whose app ended hosts the same
game again from its autosave (same code, same port: the friend joins again), a guest's
autosave joins the host again by itself, a guest whose connection broke tries again
until the host answers, and a guest whose host is gone a minute claims the game."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.app.online import OnlineGameScreen, host_game, join_game, resume_online
from shashki.online.guest import Guest, GuestLink
from shashki.online.host import HostLink
from shashki.records import read_games_text
from shashki.records.clocks import TimeControl
from shashki.rules import Color
from shashki.rules.outcome import Termination
from shashki.store import AutosaveSlot, scan_autosaves
from shashki.store.archive import archive_dir
from tests.app.conftest import make_app, press, wait_for

from .harness import hosted, play, until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("shashki.app.online.REJOIN_EVERY", 0.05)
    umask = os.umask(0o022)  # (what most systems give: files others may read)
    try:
        yield tmp_path
    finally:
        os.umask(umask)


def the_autosave() -> tuple[str, str]:
    """The one unfinished game of the autosave folder: its key and its text (it holds
    the room code: this user's alone)."""
    found = scan_autosaves()
    assert len(found.resumable) == 1, found.resumable
    entry = found.resumable[0]
    assert entry.path.stat().st_mode & 0o777 == 0o600
    return entry.key, entry.path.read_text(encoding="utf-8")


async def test_a_host_whose_app_ended_hosts_the_same_game_again(home: Path) -> None:
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
        reader = asyncio.create_task(guest.run())
        await wait_for(pilot, lambda: link.guest is not None, "the guest joining")
        await press(pilot, "colon", *"c3-d4", "enter")
        await wait_for(pilot, lambda: len(glink.session.game.move_stack) == 1, "sent")
        play(glink.session, "f6-g5")
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 2, "the guest's move")
        await screen.close_network()  # the host's program ends
        app.flush_autosave()
    await until(reader.done, "the guest's connection ending")
    assert glink.away_since is not None
    key, text = the_autosave()
    port, game = address.split(":")[1], link.game
    assert f'[ShashkiOnline "host {code} {port} local white on {game}"]' in text

    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = app.resume_unfinished(key)
        screen = app.screen
        assert ctl is not None and isinstance(screen, OnlineGameScreen)
        link = screen.link
        assert isinstance(link, HostLink) and link.code == code and link.game == game
        await wait_for(pilot, lambda: link.address == address, "listening on the same port")
        assert ctl.session.clock is not None  # (the referee's clock goes on: white's turn)
        await wait_for(pilot, lambda: ctl.session.clock.running is Color.WHITE, "clock on")
        assert link.remote.name == "Boris" and link.joined
        assert "less than a minute" in (link.claim() or "")  # (away since it came back)
        again = Guest(address, code, "Someone else")
        await again.connect_again(glink)
        reader = asyncio.create_task(again.run())
        await wait_for(pilot, lambda: link.guest is not None, "the guest joining again")
        assert link.remote.name == "Boris"
        await wait_for(pilot, lambda: "Boris is back." in app.notices, "said: back")
        await wait_for(pilot, lambda: ctl.session.clock.running is Color.WHITE, "clock on")
        await press(pilot, "colon", *"g3-f4", "enter")
        await wait_for(pilot, lambda: len(glink.session.game.move_stack) == 3, "the move")
        assert glink.session.game.fen() == ctl.game.fen()
        glink.resign()
        await wait_for(pilot, lambda: ctl.session.outcome is not None, "the end")
        app.flush_autosave()
        # both records are the same, without the room
        assert ctl.session.record().headers.get("ShashkiOnline") is None
        await again.close()
        await until(reader.done, "the reader ending")
        await screen.close_network()
    assert scan_autosaves().resumable == []


async def test_a_room_that_listened_everywhere_listens_on_this_machine_only_again(
    home: Path,
) -> None:
    from shashki.online.hosting import free_port

    port = free_port(0, False, True)
    text = (
        '[Event "shashki online game"]\n[Site "online 127.0.0.1:1"]\n[White "Anna"]\n'
        '[Black "Boris"]\n[Result "*"]\n[GameType "25"]\n'
        f'[ShashkiOnline "host K7WQ-M2 {port} public white on"]\n\n1. c3-d4 *\n'
    )
    record = next(iter(read_games_text(text)))
    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        slot = AutosaveSlot.new()
        ctl = resume_online(app, record, record.end().replay(), slot)
        screen = app.screen
        assert ctl is not None and isinstance(screen, OnlineGameScreen)
        assert screen.bind[0] != "0.0.0.0" and screen.mode == "lan"
        await wait_for(pilot, lambda: ":" in screen.link.address, "listening")  # type: ignore[attr-defined]
        assert f"host K7WQ-M2 {port} lan white on" in ctl.session.resume_tags["ShashkiOnline"]
        await screen.close_network()


async def test_a_room_that_cannot_be_read_goes_on_at_this_keyboard(home: Path) -> None:
    from shashki.app.game_screen import GameScreen

    slot = AutosaveSlot.new()
    record = next(iter(read_games_text(
        '[White "Anna"]\n[Black "Boris"]\n[Result "*"]\n[GameType "25"]\n'
        '[ShashkiOnline "host K7WQ-M2 8765 lan white on; sh -c id"]\n\n1. c3-d4 *\n'
    )))  # fmt: skip
    game = record.end().replay()
    slot.save(game, dict(record.headers))
    slot.release()
    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = app.resume_unfinished(slot.key)
        assert ctl is not None
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert not isinstance(app.screen, OnlineGameScreen)
        assert all(p.is_human for p in ctl.session.players)
        assert ctl.session.resume_tags == {}


async def test_a_guests_autosave_joins_the_host_again_and_claims_a_host_gone(
    home: Path,
) -> None:
    pair = await hosted(clock="5+0")
    try:
        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            code = pair.link.code.lower().replace("-", " ")  # (as a person may type it)
            ctl = await join_game(app, pair.address, code, "Boris")
            assert ctl is not None
            await wait_for(pilot, lambda: pair.link.guest is not None, "joined")
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await screen.close_network()  # the guest's program ends
            app.flush_autosave()
        await until(lambda: pair.link.guest is None, "the host seeing the guest gone")
        key, text = the_autosave()
        room = f"join {pair.address} {pair.link.code} black on {pair.link.game}"
        assert f'[ShashkiOnline "{room}"]' in text

        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = app.resume_unfinished(key)
            screen = app.screen
            assert ctl is not None and isinstance(screen, OnlineGameScreen)
            link = screen.link
            assert isinstance(link, GuestLink)
            await wait_for(pilot, lambda: pair.link.guest is not None, "joined again by itself")
            await wait_for(pilot, lambda: link.away_since is None, "the host here")
            await press(pilot, "colon", *"f6-g5", "enter")
            await wait_for(pilot, lambda: len(pair.link.session.game.move_stack) == 2, "sent")
            # the host goes: the guest tries again, and may claim the game after a minute
            await pair.host.stop()
            await wait_for(pilot, lambda: link.away_since is not None, "the host gone")
            await wait_for(pilot, lambda: "cannot be reached" in screen._status, "trying again")
            await press(pilot, "C")
            await wait_for(pilot, lambda: "less than a minute" in screen._status, "too early")
            now = link.now()
            link.now = lambda: now + 61
            await wait_for(pilot, lambda: "claims the game" in screen._status, "the hint")
            await press(pilot, "C")
            await wait_for(pilot, lambda: ctl.session.outcome is not None, "the game claimed")
            out = ctl.session.outcome
            assert out is not None and out.winner is Color.BLACK
            assert out.termination is Termination.ABANDONED
            app.flush_autosave()
        assert scan_autosaves().resumable == []
        kept = list(archive_dir().glob("*.pdn"))
        assert len(kept) == 1
        [record] = read_games_text(kept[0].read_text(encoding="utf-8"))
        assert record.header("Termination") == "Black wins: White left the game."
        assert record.header("ShashkiOnline") == ""
    finally:
        await pair.close()


async def test_a_guest_whose_connection_broke_joins_again_by_itself(home: Path) -> None:
    pair = await hosted()
    try:
        app = make_app(home)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            await wait_for(pilot, lambda: pair.link.guest is not None, "joined")
            first = pair.link.guest
            assert first is not None
            await first.close()  # the network drops the connection
            await wait_for(
                pilot,
                lambda: pair.link.guest is not None and pair.link.guest is not first,
                "joined again",
            )
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            # the guest's screen says so, and whose move it is (once the host's state came)
            back = "Rejoined the game: Anna is to move."
            await wait_for(pilot, lambda: screen._status == back, "the word of rejoining")
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the game going on")
            await screen.close_network()
    finally:
        await pair.close()


async def test_joining_again_supersedes_every_older_autosave_of_the_game(home: Path) -> None:
    """The issue's scenario: the guest's program ends without finishing (its autosave
    stays), the same join command is run again and the game finished: the older copy is
    not offered as unfinished (nor can it be claimed)."""
    pair = await hosted(clock="5+0")
    try:
        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await screen.close_network()  # (its program ends; the file stays, unlocked)
            app.flush_autosave()
        _key, text = the_autosave()
        assert pair.link.game in text

        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            app.flush_autosave()
            await wait_for(pilot, lambda: pair.link.guest is not None, "joined again")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the game again")
            app.flush_autosave()
            assert [g.key for g in scan_autosaves().games] == [app.autosave_key]
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            screen.link.resign()
            await wait_for(pilot, lambda: pair.link.session.outcome is not None, "the end")
            app.flush_autosave()
            await screen.close_network()
        assert scan_autosaves().games == []  # (the old copy is not offered)
    finally:
        await pair.close()


async def test_a_copy_of_the_game_still_open_elsewhere_stops_and_forgets_its_autosave(
    home: Path,
) -> None:
    pair = await hosted(clock="5+0")
    try:
        first = make_app(home, autosave=True)
        second = make_app(home, autosave=True)
        async with first.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(first, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            first.flush_autosave()
            async with second.run_test(size=(120, 40)) as pilot2:
                again = await join_game(second, pair.address, pair.link.code, "Boris")
                assert again is not None
                await wait_for(pilot2, lambda: len(again.game.move_stack) == 1, "the game")
                screen = first.screen
                assert isinstance(screen, OnlineGameScreen)
                await wait_for(pilot, lambda: "elsewhere" in screen._status, "told")
                first.flush_autosave()
                second.flush_autosave()
                keys = [g.key for g in scan_autosaves().games]
                assert keys == [second.autosave_key]  # (one game, one autosave)
                screen2 = second.screen
                assert isinstance(screen2, OnlineGameScreen)
                await screen2.close_network()
            await screen.close_network()
    finally:
        await pair.close()


async def test_a_stale_copy_resumed_cannot_claim_a_game_it_never_reached(home: Path) -> None:
    pair = await hosted(clock="5+0")
    try:
        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await screen.close_network()
            app.flush_autosave()
        key, _text = the_autosave()
    finally:
        await pair.close()  # the host's game is over for it: it is gone
    app = make_app(home, autosave=True)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = app.resume_unfinished(key)
        screen = app.screen
        assert ctl is not None and isinstance(screen, OnlineGameScreen)
        link = screen.link
        assert isinstance(link, GuestLink)
        await wait_for(pilot, lambda: "cannot be reached" in screen._status, "trying")
        now = link.now()
        link.now = lambda: now + 3600
        await press(pilot, "C")
        await wait_for(pilot, lambda: "only the host can say" in screen._status, "refused")
        assert ctl.session.outcome is None
        await screen.close_network()


async def test_a_guest_whose_host_now_plays_another_game_cannot_claim(home: Path) -> None:
    pair = await hosted(clock="5+0")
    try:
        app = make_app(home, autosave=True)
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            link = screen.link
            assert isinstance(link, GuestLink)
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            pair.link.code = "ZZZZ-ZZ"  # (the host's program now hosts another game)
            first = pair.link.guest
            assert first is not None
            await first.close()
            await wait_for(pilot, lambda: link.host_answers, "the host answering, not for us")
            now = link.now()
            link.now = lambda: now + 3600
            await press(pilot, "C")
            await wait_for(pilot, lambda: "not for this game" in screen._status, "refused")
            assert ctl.session.outcome is None
            await screen.close_network()
    finally:
        await pair.close()
