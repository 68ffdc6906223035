"""Hosting and joining without the screen: ``shashki host/join --auto LEVEL``.

The side played here is shashki's computer at a level; what happens is printed one
line at a time (the join command, each move, the peer's words, the result).  Made for
scripts and tests, and for trying a connection; people play on the game screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from collections.abc import Callable
from pathlib import Path

from ..i18n import _, error_line
from ..records.clocks import TimeControl
from ..rules import Color, Game, find_variant
from ..session.autosave import AutosaveWriter
from ..session.clock import GameClock
from ..session.driver import AsyncioExecutor
from ..session.game import GameSession, MovePlayed, UndoPolicy
from ..session.players import Computer, Player
from ..session.recorder import Recorder
from .events import (
    ChatLine,
    ConnectionClosed,
    DrawOffer,
    GameOver,
    Info,
    LinkEvent,
    PeerAway,
    PeerJoined,
    PeerLeft,
    Refused,
    Superseded,
    Synced,
    TakebackRequest,
)
from .guest import Guest, JoinError
from .host import Host, HostLink, lan_address
from .link import Link, move_before, online_headers
from .player import RemotePlayer
from .protocol import new_code
from .room import TAG, Room, forget_copies, plain_code

Say = Callable[[str], None]


def _say(text: str) -> None:
    print(text, flush=True)


def _fail(text: str) -> int:
    """An error: one line on stderr, status 2."""
    print(error_line(text), file=sys.stderr, flush=True)
    return 2


class AutoPlayer(Computer):
    """shashki's computer playing a side online (its record says a program, as the
    peer's does: the level stays on this machine)."""

    def tags(self) -> dict[str, str]:
        return {"Type": "program"}


def pick_side(word: str) -> Color:
    """The host's side from ``white``, ``black`` or ``random``."""
    if word == "random":
        return random.SystemRandom().choice((Color.WHITE, Color.BLACK))
    return Color.BLACK if word == "black" else Color.WHITE


def save_record(session: GameSession, path: Path | None, say: Say) -> None:
    if path is None:
        return
    from ..store import save_pdn

    try:
        save_pdn(path, [session.record()], replace=True)
    except (OSError, ValueError) as exc:
        say(_("Not saved: {reason}.").format(reason=" ".join(str(exc).split())))
        return
    say(_("Saved to {path}").format(path=path))


class Autosave:
    """A game hosted or joined here autosaved as the app autosaves its games (the
    session's recorder, in a new slot): one that does not end — the program stopped or
    killed — is offered at the app's next start and goes on there, hosted again or
    joined again (its room is in the autosave)."""

    def __init__(self, session: GameSession, say: Say) -> None:
        from ..store import AutosaveSlot

        def failed(reason: str) -> None:  # (the writer's thread; said once)
            say(_("Autosave failed: {reason}.").format(reason=reason))

        self.writer = AutosaveWriter(on_failure=failed)
        self.recorder = Recorder(session, writer=self.writer, slot=AutosaveSlot.new())

    @property
    def key(self) -> str | None:
        """The autosave's key (None once forgotten)."""
        slot = self.recorder.slot
        return slot.key if slot is not None else None

    def forget(self) -> None:
        """The game goes on in another shashki: its autosave here is removed."""
        self.recorder.forget()

    def close(self) -> None:
        """The game is left: its last state written, its slot given up."""
        self.recorder.close()
        self.writer.flush()


def host_session(
    variant_name: str,
    side: Color,
    name: str,
    local: Player,
    clock: TimeControl | None,
    *,
    takebacks: bool = True,
) -> tuple[GameSession, RemotePlayer]:
    """The host's session: the game, the local player, the friend's seat."""
    variant = find_variant(variant_name)
    seed = random.SystemRandom().randrange(1 << 30) if variant.start_by_lot else None
    game = Game(variant, seed=seed)
    remote = RemotePlayer(_("Guest"))
    players = (local, remote) if side is Color.WHITE else (remote, local)
    session = GameSession(
        game,
        (players[0], players[1]),
        clock=GameClock(clock) if clock is not None else None,
        undo_policy=UndoPolicy.ASK if takebacks else UndoPolicy.OFF,
        headers=online_headers(""),
    )
    session.clock_goes_on = True  # (the referee's clock runs across a crash of its own)
    return session, remote


def bind_address(public: bool, local: bool = False) -> tuple[str, str]:
    """(the address to listen on, the address to print)."""
    shown = "127.0.0.1" if local else lan_address()
    return ("0.0.0.0" if public else shown), shown


def listening_line(public: bool, shown: str, local: bool = False) -> str:
    if local:
        return _("Listening on 127.0.0.1: only this machine can join (--local).")
    if public:
        return _(
            "Listening on every network of this machine (--public); others join at {a}."
        ).format(a=shown)
    if shown == "127.0.0.1":
        return _("This machine has no network address: listening on 127.0.0.1 only.")
    return _("Listening on this machine's address {a} only (--public: every network).").format(
        a=shown
    )


def _printer(link: Link, say: Say, done: asyncio.Event) -> Callable[[LinkEvent], None]:
    def show(event: LinkEvent) -> None:
        match event:
            case ChatLine() | Info() | Refused() | PeerAway() | PeerJoined() | Superseded():
                say(event.text)
            case PeerLeft():
                say(event.text)
                if not isinstance(link, HostLink):  # (a guest whose host left stops)
                    done.set()
            case DrawOffer():
                say(_("{name} offers a draw: declined.").format(name=link.remote.name))
                link.answer_draw(False)
            case TakebackRequest():
                say(_("{name} asks to take back a move: refused.").format(name=link.remote.name))
                link.answer_takeback(False)
            case GameOver():
                done.set()
            case ConnectionClosed() if link.session.outcome is None:
                done.set()

    return show


def _moves(session: GameSession, say: Say) -> None:
    def show(event: object) -> None:
        if isinstance(event, MovePlayed):
            game = session.game
            say(f"{len(game.move_stack)}: {move_before(game, event.move)}")

    session.subscribe(show)


def _ended(session: GameSession, say: Say) -> None:
    out = session.outcome
    if out is not None:
        say(
            _("Result: {result} ({why})").format(
                result=out.result(), why=out.describe(variant=session.variant)
            )
        )
    else:
        say(_("The game is not over: it is kept unfinished."))


async def host_auto(
    variant: str,
    level: int,
    *,
    clock: TimeControl | None,
    port: int,
    side: Color,
    public: bool,
    name: str,
    save: Path | None,
    local: bool = False,
    say: Say = _say,
) -> int:
    """Host a game played here by the computer at ``level``, until it ends."""
    session, remote = host_session(variant, side, name, AutoPlayer(level, name), clock)
    link = HostLink(session, side, remote, new_code(), name=name)
    host = Host(link)
    bind, shown = bind_address(public, local)
    try:
        port = await host.start(bind, port)
    except OSError as exc:
        return _fail(
            _("cannot listen on port {port}: {reason}").format(
                port=port, reason=exc.strerror or exc
            )
        )
    link.address = f"{shown}:{port}"
    mode = "public" if public else "local" if local else "lan"
    room = Room(True, link.code, side, link.takebacks, port=port, mode=mode, game=link.game)
    session.retag(headers=online_headers(link.address), resume={TAG: room.tag()})
    autosave = Autosave(session, say)
    say(listening_line(public, shown, local))
    say(
        _("Ask your friend to run: shashki join {address} {code}").format(
            address=link.address, code=link.code
        )
    )
    done = asyncio.Event()
    link.subscribe(_printer(link, say, done))
    _moves(session, say)
    started = False

    def guest_came(event: LinkEvent) -> None:
        nonlocal started
        if isinstance(event, PeerJoined) and not started:  # the game starts: driven here
            started = True
            session.start(AsyncioExecutor())

    link.subscribe(guest_came)
    try:
        await done.wait()  # (the session's own timer ends a game on time: "ended")
        _ended(session, say)
        save_record(session, save, say)
    finally:
        session.close()
        autosave.close()
        await host.stop()
    return 0


async def join_auto(
    address: str,
    code: str,
    level: int,
    *,
    name: str,
    save: Path | None,
    say: Say = _say,
    wait: float | None = None,
) -> int:
    """Join a game played here by the computer at ``level``, until it ends or the host
    leaves (``wait``: seconds for the host's answer, None: the usual)."""
    try:
        guest = Guest(address, code, name, program=True, wait=wait)
        welcome = await guest.connect()
    except JoinError as exc:
        return _fail(str(exc))
    link = guest.make_link()
    session = link.session
    room = Room(
        False, plain_code(code), link.side, link.takebacks, address=guest.address, game=link.game
    )
    session.retag(resume={TAG: room.tag()})
    autosave = Autosave(session, say)
    if link.game is not None:  # one game, one autosave: a copy a dead shashki left goes
        await asyncio.to_thread(forget_copies, link.game, autosave.key)
    # joined again from another shashki: the game goes on there, its copy here is forgotten
    link.subscribe(lambda event: autosave.forget() if isinstance(event, Superseded) else None)
    players = list(session.players)
    players[welcome.side] = AutoPlayer(level, players[welcome.side].name)
    session.players = (players[0], players[1])
    say(
        _("Joined {address}: playing {variant} as {side} against {name}.").format(
            address=guest.address,
            variant=session.variant.id,
            side=session.variant.side_names[welcome.side],
            name=welcome.host,
        )
    )
    done = asyncio.Event()
    link.subscribe(_printer(link, say, done))
    _moves(session, say)
    resumed = False

    def synced(event: LinkEvent) -> None:
        nonlocal resumed
        if not isinstance(event, Synced):
            return
        if not resumed:
            resumed = True
            if session.game.move_stack:
                say(_("Resumed after {n} moves.").format(n=len(session.game.move_stack)))

    link.subscribe(synced)
    session.start(AsyncioExecutor())  # (its computer answers the host's moves on this loop)
    reader = asyncio.create_task(guest.run())
    try:
        await done.wait()
        if session.outcome is not None:
            _ended(session, say)
        else:
            say(
                _("The connection to {address} is over; join again with the same code.").format(
                    address=guest.address
                )
            )
        save_record(session, save, say)
    finally:
        session.close()
        autosave.close()
        await guest.close()
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
    return 0 if session.outcome is not None else 1


def run(coro: object) -> int:
    try:
        return int(asyncio.run(coro))  # type: ignore[arg-type]
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130


__all__ = ["host_auto", "host_session", "join_auto", "pick_side", "run"]
