"""The game screen of an online game: the app hosts, a guest (in this process) joins;
moves both ways, a chat line, a draw offer asked on the screen, a resignation ending
the game on both sides; and joining from the app."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from shashki.app.dialogs import ConfirmScreen
from shashki.app.online import ChatScreen, OnlineGameScreen, host_game, join_game
from shashki.online.events import ChatLine
from shashki.online.guest import Guest
from shashki.online.host import HostLink
from shashki.rules import Color
from tests.app.conftest import make_app, press, wait_for

from .harness import Heard, hosted, play


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


async def test_the_app_hosts_a_friend_who_joins_plays_chats_and_resigns(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = host_game(app, "russian", side=Color.WHITE, name="Anna", clock=None, port=0,
                        local=True)  # fmt: skip
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen)
        link = screen.link
        assert isinstance(link, HostLink)
        await wait_for(pilot, lambda: link.address.startswith("127.0.0.1:"), "listening")
        guest = Guest(link.address, link.code, "Boris")
        await guest.connect()
        glink = guest.make_link()
        heard = Heard()
        glink.subscribe(heard)
        reader = asyncio.create_task(guest.run())
        await wait_for(pilot, lambda: link.remote.name == "Boris", "the guest joining")
        assert "Boris" in str(screen.seats[0].text()) + str(screen.seats[1].text())
        await press(pilot, "colon", *"c3-d4", "enter")
        await wait_for(pilot, lambda: len(glink.session.game.move_stack) == 1, "the move sent")
        play(glink.session, "f6-g5")
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 2, "the guest's move shown")
        glink.chat("good luck")
        await wait_for(pilot, lambda: "Boris: good luck" in screen._status, "the chat line")
        # m: the chat so far, both sides' lines with who said them, a peer's text as it is
        glink.chat("[b]bold?[/b] [/x]")
        await wait_for(pilot, lambda: "[/x]" in screen._status, "the second line")
        await press(pilot, "m")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat")
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        assert chat.lines().plain == "Boris: good luck\nBoris: [b]bold?[/b] [/x]"
        await press(pilot, *"thanks", "enter")  # sent, and the chat stays open
        await wait_for(pilot, lambda: "You: thanks" in chat.lines().plain, "the line sent")
        await wait_for(pilot, lambda: heard.saw(ChatLine), "the line received")
        glink.chat("you too")  # a line that comes while the chat is open shows there
        await wait_for(pilot, lambda: chat.lines().plain.endswith("Boris: you too"), "shown")
        await press(pilot, "escape")
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
        glink.offer_draw()
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the draw question")
        assert "Boris offers a draw" in app.screen.question  # type: ignore[attr-defined]
        await press(pilot, "n")
        await wait_for(pilot, lambda: glink.session.draw_offer is None, "the draw declined")
        glink.resign()
        await wait_for(pilot, lambda: ctl.session.outcome is not None, "the resignation")
        assert ctl.session.outcome is not None and ctl.session.outcome.winner is Color.WHITE
        await guest.close()
        await wait_for(pilot, reader.done, "the guest's reader ending")
        await screen.close_network()


async def test_the_app_joins_a_hosted_game(home: Path) -> None:
    pair = await hosted()
    app = make_app(home)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            ctl = await join_game(app, pair.address, pair.link.code, "Boris")
            assert ctl is not None and isinstance(app.screen, OnlineGameScreen)
            await wait_for(pilot, lambda: pair.link.joined, "joined")
            # the host (White) is to move: the guest's cursor starts on a piece of its own
            board = app.screen.board
            await wait_for(pilot, lambda: board.cursor >= 0, "the cursor")
            assert board.controller.game.piece_at(board.cursor) is not None
            assert board.controller.game.piece_at(board.cursor).color is Color.BLACK
            play(pair.link.session, "c3-d4")
            await wait_for(pilot, lambda: len(ctl.game.move_stack) == 1, "the host's move")
            assert app.screen.board.flipped  # (black's pieces at the bottom)
            await press(pilot, "colon", *"f6-g5", "enter")
            await wait_for(pilot, lambda: len(pair.link.session.game.move_stack) == 2, "sent")
            await app.screen.close_network()
            assert await join_game(app, pair.address, "WRONG-1", "Eve") is None
    finally:
        await pair.close()


async def test_the_menu_hosts_with_a_friend_seated_in_the_new_game_dialog(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Select

    from shashki.app.menu import MenuScreen, NewGameScreen

    monkeypatch.setattr("shashki.app.online.DEFAULT_PORT", 0)  # (any free port)
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await press(pilot, "w")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "OnlineChoice", "the choice")
        await press(pilot, "h")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        dialog = app.screen
        await wait_for(
            pilot, lambda: dialog.query_one("#kind1", Select).value == "online", "the friend seated"
        )
        dialog.query_one("#play").press()
        await wait_for(pilot, lambda: isinstance(app.screen, OnlineGameScreen), "the game")
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen) and isinstance(screen.link, HostLink)
        assert screen.link.side is Color.WHITE
        await wait_for(pilot, lambda: ":" in screen.link.address, "listening")
        await screen.close_network()


async def test_the_host_is_told_it_may_claim_then_claims(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        ctl = host_game(app, "russian", side=Color.WHITE, name="Anna", clock=None, port=0,
                        local=True)  # fmt: skip
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen) and isinstance(screen.link, HostLink)
        link = screen.link
        await wait_for(pilot, lambda: ":" in link.address, "listening")
        guest = Guest(link.address, link.code, "Boris")
        await guest.connect()
        guest.make_link()
        reader = asyncio.create_task(guest.run())
        await wait_for(pilot, lambda: link.guest is not None, "the guest joining")
        await guest.close()
        await wait_for(pilot, reader.done, "the guest's reader ending")
        await wait_for(pilot, lambda: link.away_since is not None, "the guest away")
        await press(pilot, "C")
        await wait_for(pilot, lambda: "less than a minute" in screen._status, "too early")
        now = link.now()
        link.now = lambda: now + 61
        await wait_for(pilot, lambda: "claims the game" in screen._status, "the hint")
        await press(pilot, "C")
        await wait_for(pilot, lambda: ctl.session.outcome is not None, "the game claimed")
        assert ctl.session.outcome is not None and ctl.session.outcome.winner is Color.WHITE
        await screen.close_network()


async def test_the_friends_seat_says_whether_the_friend_is_there(home: Path) -> None:
    """The friend's seat line says online while the connection is up and offline before
    the friend joins and after the friend's connection ends (the status line only says
    it once, and goes on to other things)."""
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        host_game(app, "russian", side=Color.WHITE, name="Anna", clock=None, port=0,
                  local=True)  # fmt: skip
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen) and isinstance(screen.link, HostLink)
        link = screen.link

        def seats() -> str:
            return " | ".join(seat.render().plain for seat in screen.seats)

        await wait_for(pilot, lambda: ":" in link.address, "listening")
        assert "· offline" in seats() and "· online" not in seats()
        for _visit in range(2):
            guest = Guest(link.address, link.code, "Boris")
            await guest.connect()
            guest.make_link()
            reader = asyncio.create_task(guest.run())
            await wait_for(pilot, lambda: "Boris · online" in seats(), "the seat online")
            await guest.close()
            await wait_for(pilot, reader.done, "the guest's reader ending")
            await wait_for(pilot, lambda: "Boris · offline" in seats(), "the seat offline")
        await screen.close_network()
