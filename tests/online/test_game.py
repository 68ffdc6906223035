"""A host and a guest in one process play over a real WebSocket on 127.0.0.1: moves
both ways, draws, takebacks by consent, resignation, chat, a drop and a rejoin, a
claim after a minute away, and the same record on both sides at the end."""

from __future__ import annotations

import asyncio

import pytest

from shashki.online.events import (
    ChatLine,
    DrawOffer,
    GameOver,
    PeerAway,
    PeerJoined,
    PeerLeft,
    Refused,
    TakebackRequest,
)
from shashki.online.link import CHAT_HISTORY, plies_back
from shashki.records import write_game
from shashki.records.clocks import TimeControl
from shashki.rules import Color, Game
from shashki.rules.outcome import Termination
from shashki.session import GameClock, GameSession, ManualTime
from shashki.session.game import TakenBack

from .harness import hosted, play, until


def pdn(session) -> str:  # type: ignore[no-untyped-def]
    return write_game(session.record())


async def test_a_game_to_a_result_with_the_same_record_on_both_sides() -> None:
    pair = await hosted(clock="5+3")
    try:
        guest = await pair.join("Boris")
        host, gs = pair.link.session, guest.session
        assert gs.players[1].name == "Boris" and gs.players[0].name == "Anna"
        assert host.players[1].name == "Boris"
        for white, black in [("c3-d4", "f6-g5"), ("g3-f4", "g7-f6")]:
            play(host, white)
            await until(lambda: len(gs.game.move_stack) == len(host.game.move_stack), "host's move")
            play(gs, black)
            await until(
                lambda: len(host.game.move_stack) == len(gs.game.move_stack), "guest's move"
            )
        assert host.game.fen() == gs.game.fen()
        guest.resign()
        await until(lambda: host.outcome is not None, "the host seeing the resignation")
        await until(lambda: pair.gheard.saw(GameOver), "the guest told of the end")
        assert host.outcome is not None and host.outcome.winner is Color.WHITE
        text = pdn(host)
        assert text == pdn(gs)
        assert '[Site "online 127.0.0.1:' in text
        assert '[White "Anna"]' in text and '[Black "Boris"]' in text
        assert '[TimeControl "300+3"]' in text and "%clk" in text
        assert '[Result "1-0"]' in text
    finally:
        await pair.close()


async def test_chat_both_ways_is_one_clean_line() -> None:
    pair = await hosted()
    try:
        guest = await pair.join("\x1b[2JBo\x1b]0;x\x07ris\n")
        assert pair.link.remote.name == "Boris"
        guest.chat("hi \x1b[31mthere\x1b[0m\r\nrm -rf ~")
        await until(lambda: pair.heard.texts(ChatLine), "the chat line")
        assert pair.heard.texts(ChatLine) == ["Boris: hi there rm -rf ~"]
        pair.link.chat("x" * 1000)
        await until(lambda: pair.gheard.texts(ChatLine), "the host's chat line")
        said = pair.gheard.texts(ChatLine)[0]
        assert said.startswith("Anna: xxx") and len(said) < 220
        # each side keeps the chat, both sides' lines, cleaned, the newest last
        assert [(e.mine, e.name, e.line) for e in pair.link.chat_log] == [
            (False, "Boris", "hi there rm -rf ~"),
            (True, "", said.removeprefix("Anna: ")),
        ]
        assert [(e.mine, e.line[:3]) for e in guest.chat_log] == [(True, "hi "), (False, "xxx")]
        for n in range(CHAT_HISTORY + 5):  # bounded: the oldest go first
            pair.link.chat(f"line {n}")
        assert len(pair.link.chat_log) == CHAT_HISTORY
        assert pair.link.chat_log[-1].line == f"line {CHAT_HISTORY + 4}"
    finally:
        await pair.close()


async def test_a_draw_offered_declined_then_agreed() -> None:
    pair = await hosted()
    try:
        guest = await pair.join()
        host, gs = pair.link.session, guest.session
        assert pair.link.offer_draw()
        await until(lambda: pair.gheard.saw(DrawOffer), "the offer reaching the guest")
        assert gs.draw_offer is Color.WHITE
        guest.answer_draw(False)
        await until(lambda: host.draw_offer is None, "the host's offer answered")
        assert host.outcome is None
        assert guest.offer_draw()
        await until(lambda: pair.heard.saw(DrawOffer), "the offer reaching the host")
        pair.link.answer_draw(True)
        await until(lambda: gs.outcome is not None, "the agreed draw reaching the guest")
        assert host.outcome is not None
        assert host.outcome.termination is Termination.AGREED_DRAW
        assert pdn(host) == pdn(gs)
    finally:
        await pair.close()


async def test_a_takeback_by_consent_and_a_refused_one() -> None:
    pair = await hosted()
    try:
        guest = await pair.join()
        host, gs = pair.link.session, guest.session
        play(host, "c3-d4")
        await until(lambda: len(gs.game.move_stack) == 1, "the host's move")
        play(gs, "f6-g5")
        await until(lambda: len(host.game.move_stack) == 2, "the guest's move")
        assert plies_back(host.game, Color.WHITE) == 2
        assert pair.link.ask_takeback() is None
        assert pair.link.ask_takeback() is not None  # (one at a time)
        await until(lambda: pair.gheard.saw(TakebackRequest), "the request reaching the guest")
        guest.answer_takeback(False)
        await until(lambda: not pair.link.asked_takeback, "the refusal")
        assert len(host.game.move_stack) == 2
        assert guest.ask_takeback() is None
        await until(lambda: pair.heard.saw(TakebackRequest), "the guest's request")
        pair.link.answer_takeback(True)
        await until(lambda: len(gs.game.move_stack) == 1, "the guest's copy taken back")
        assert len(host.game.move_stack) == 1
        assert host.game.fen() == gs.game.fen()
        assert gs.game.turn is Color.BLACK
    finally:
        await pair.close()


async def test_takebacks_off_are_refused_on_both_sides() -> None:
    pair = await hosted(takebacks=False)
    try:
        guest = await pair.join()
        play(pair.link.session, "c3-d4")
        await until(lambda: len(guest.session.game.move_stack) == 1, "the move")
        assert guest.takebacks is False
        assert guest.ask_takeback() == "Takebacks are off in this game."
        guest.send("takeback")  # a guest that asks anyway
        await until(lambda: pair.heard.texts(Refused), "the refusal")
        assert "takebacks are off" in pair.heard.texts(Refused)[0]
        assert len(pair.link.session.game.move_stack) == 1
    finally:
        await pair.close()


async def test_a_drop_and_a_rejoin_resume_the_exact_position() -> None:
    pair = await hosted(clock="5+0")
    try:
        guest = await pair.join("Boris")
        host, gs = pair.link.session, guest.session
        play(host, "c3-d4")
        await until(lambda: len(gs.game.move_stack) == 1, "the host's move")
        play(gs, "f6-g5")
        await until(lambda: len(host.game.move_stack) == 2, "the guest's move")
        await pair.drop()
        assert pair.heard.saw(PeerAway)
        play(host, "g3-f4")  # the game waits for the guest; the host may move
        assert host.clock is not None and host.clock.running is Color.BLACK
        assert pair.link.claim() is not None  # (not before a minute)
        again = await pair.join("Someone else")
        assert [e.again for e in pair.heard.of(PeerJoined)] == [False, True]  # type: ignore[attr-defined]
        assert again.session.game.fen() == host.game.fen()
        assert [m for _s, m in again.session.game.history()] == [m for _s, m in host.game.history()]
        assert again.session.players[1].name == "Boris"  # the record's name stays
        assert again.session.clock_marks == host.clock_marks
        play(again.session, "g7-f6")
        await until(lambda: len(host.game.move_stack) == 4, "the move after the rejoin")
    finally:
        await pair.close()


async def test_the_host_claims_the_game_after_a_minute_away() -> None:
    now = [1000.0]
    pair = await hosted(clock="5+0", now=lambda: now[0])
    try:
        await pair.join()
        play(pair.link.session, "c3-d4")
        await pair.drop()
        now[0] += 59
        assert "less than a minute" in (pair.link.claim() or "")
        now[0] += 2
        assert pair.link.claim() is None
        out = pair.link.session.outcome
        assert out is not None and out.winner is Color.WHITE
        assert out.termination is Termination.ABANDONED  # (not a resignation)
        # the guest comes back to a game that is over: the same end, the same record
        again = await pair.join()
        await until(lambda: again.session.outcome is not None, "the end told to the guest")
        back = again.session.outcome
        assert back is not None and back.termination is Termination.ABANDONED
        assert back.winner is Color.WHITE
        assert pdn(again.session) == pdn(pair.link.session)
        assert '[Termination "White wins: Black left the game."]' in pdn(pair.link.session)
    finally:
        await pair.close()


async def test_the_guest_claims_the_game_of_a_host_gone_a_minute() -> None:
    now = [1000.0]
    pair = await hosted(clock="5+0")
    try:
        guest = await pair.join()
        guest.now = lambda: now[0]
        play(pair.link.session, "c3-d4")
        await until(lambda: len(guest.session.game.move_stack) == 1, "the host's move")
        assert "is here" in (guest.claim() or "")
        await pair.host.stop()  # the host goes (its process ended)
        await until(lambda: guest.away_since is not None, "the guest seeing the host gone")
        now[0] += 59
        assert "less than a minute" in (guest.claim() or "")
        play(guest.session, "f6-g5")  # (played here; nobody to send it to)
        now[0] += 2
        assert guest.claim() is None
        out = guest.session.outcome
        assert out is not None and out.winner is Color.BLACK
        assert out.termination is Termination.ABANDONED
        assert '[Termination "Black wins: White left the game."]' in pdn(guest.session)
        assert guest.claim() == "The game is over."
    finally:
        await pair.close()


async def test_a_guest_joins_the_same_game_again_and_no_other() -> None:
    from shashki.online.guest import Guest, JoinError

    pair = await hosted(clock="5+0")
    other = await hosted("brazilian")
    try:
        guest = await pair.join("Boris")
        play(pair.link.session, "c3-d4")
        await until(lambda: len(guest.session.game.move_stack) == 1, "the host's move")
        await pair.drop()
        await until(lambda: guest.away_since is not None, "the host away, for the guest")
        play(guest.session, "f6-g5")  # played while the host was away
        again = Guest(pair.address, pair.link.code, "Boris")
        await again.connect_again(guest)
        assert guest.away_since is None and again.link is guest
        reader = asyncio.create_task(again.run())
        await until(lambda: len(pair.link.session.game.move_stack) == 2, "the move sent on")
        assert pair.link.session.game.fen() == guest.session.game.fen()
        play(pair.link.session, "g3-f4")
        await until(lambda: len(guest.session.game.move_stack) == 3, "the game going on")
        assert pair.link.session.game.fen() == guest.session.game.fen()
        stranger = Guest(other.address, other.link.code, "Boris")
        try:
            await stranger.connect_again(guest)
        except JoinError as exc:
            assert "another game" in str(exc)
        else:
            raise AssertionError("joined another game into this one")
        await again.close()
        await until(reader.done, "the reader ending")
    finally:
        await other.close()
        await pair.close()


async def test_an_absent_guest_loses_on_time() -> None:
    now = ManualTime()
    pair = await hosted(clock="1+0", now=now)
    try:
        guest = await pair.join()
        host, gs = pair.link.session, guest.session
        # (each side's first turn is off the clock, a remote person's too: two each)
        for white, black in [("c3-d4", "f6-g5")]:
            play(host, white)
            await until(lambda: len(gs.game.move_stack) == len(host.game.move_stack), "host's move")
            play(gs, black)
            await until(
                lambda: len(host.game.move_stack) == len(gs.game.move_stack), "guest's move"
            )
        play(host, "g3-f4")
        assert not host.clock_waits(Color.BLACK)
        await pair.drop()
        now.advance(61)  # the host's own timer: its deadline passes, the flag falls
        await until(lambda: host.outcome is not None, "the flag")
        assert host.outcome is not None and host.outcome.termination is Termination.TIME_FORFEIT
        again = await pair.join()
        await until(lambda: again.session.outcome is not None, "the end told to the guest")
        assert again.session.outcome == host.outcome
        assert pdn(again.session) == pdn(host)
    finally:
        await pair.close()


async def test_quitting_says_so_on_the_other_side() -> None:
    pair = await hosted()
    try:
        guest = await pair.join()
        guest.quit()
        await until(lambda: pair.heard.saw(PeerLeft), "the guest's goodbye")
        pair.link.quit()
        await until(lambda: guest.host_left, "the host's goodbye")
        assert pair.gheard.texts(PeerLeft) == ["Anna left the game."]
    finally:
        await pair.close()


async def test_both_sides_agree_the_first_turns_are_off_the_clock() -> None:
    """The guest's clock of the host's side waits for the host's first move as the host's
    own does (it once ran on the guest's screen until the first move came)."""
    pair = await hosted(clock="1+0")
    try:
        guest = await pair.join()
        host, gs = pair.link.session, guest.session
        for side in (Color.WHITE, Color.BLACK):
            assert host.clock_waits(side) and gs.clock_waits(side), side
        play(host, "c3-d4")
        await until(lambda: len(gs.game.move_stack) == 1, "host's move")
        assert not host.clock_waits(Color.WHITE) and not gs.clock_waits(Color.WHITE)
        assert host.clock_waits(Color.BLACK) and gs.clock_waits(Color.BLACK)
    finally:
        await pair.close()


def test_a_session_is_made_equal_to_another_one() -> None:
    now = [0.0]
    session = GameSession(Game("russian"), clock=GameClock(TimeControl(60, 0), now=lambda: now[0]))
    events: list[object] = []
    session.subscribe(events.append)
    game = Game("russian")
    moves = []
    for text in ("c3-d4", "f6-g5", "g3-f4"):
        move = game.parse_move(text)
        moves.append(move)
        game.push(move)
    session.resign(Color.WHITE)
    session.set_moves(moves, [59.0, 58.5], (50.0, 40.0))
    assert session.game.fen() == game.fen()
    assert session.outcome is None  # (the resignation was reopened)
    assert session.clock_marks == [59.0, 58.5, None]
    assert session.clock is not None and session.clock.running is Color.BLACK
    assert session.clock.left(Color.WHITE) == 50.0
    now[0] += 5
    assert session.clock.left(Color.BLACK) == 35.0
    assert any(isinstance(e, TakenBack) for e in events)
    bad = [*moves[:2], moves[0]]  # a move that is not legal there: nothing changes
    with pytest.raises(ValueError):
        session.set_moves(bad)
    assert session.game.fen() == game.fen()
