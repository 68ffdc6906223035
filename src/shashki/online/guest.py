"""The guest of an online game: a client over aiohttp's ``ClientSession.ws_connect``.

The guest builds its own game from the host's ``welcome`` — the variant by its id in
its own registry (built-in or the user's own files; a peer names a variant, never a
path), refused in one line when the rules of that id differ from the host's — and
checks every move the host sends with its own rules: a move that is illegal, out of
turn or for another ply is refused and logged, never played.  The host keeps the
clocks; a clock reading that cannot be (more time than a side can have) is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from ..i18n import N_, _, os_reason
from ..records.clocks import TimeControl
from ..rules import Color, Game, Move, ShashkiError, find_variant
from ..rules.outcome import Termination
from ..session.clock import GameClock
from ..session.game import GameSession, MovePlayed, UndoPolicy
from ..session.players import Person
from .events import ConnectionClosed, GameOver, Info, PeerLeft, Superseded, Synced
from .link import Link, move_before, online_headers, write_sealed
from .player import RemotePlayer
from .protocol import (
    FRAME_LIMIT,
    HOST_BURST,
    HOST_PER_SECOND,
    MAX_NAME,
    VERSION,
    Message,
    ProtocolError,
    RateLimit,
    clean,
    clock_pair,
    encode,
    game_id,
    marks_list,
    move_list,
    older_version,
    parse,
    refusal_text,
    rules_digest,
)
from .seal import Pake, SealedLine, SealError, guest_line, same_proof

#: Why a connection failed, by the system's error number, in words of the catalogs (the
#: system's own words are asyncio's: "Connect call failed ('127.0.0.1', 1)").
NETWORK_REASONS = {
    errno.ECONNREFUSED: N_("nobody answers at that port (the connection was refused)"),
    errno.EHOSTUNREACH: N_("that machine cannot be reached"),
    errno.ENETUNREACH: N_("that network cannot be reached"),
    errno.ETIMEDOUT: N_("the connection timed out"),
    errno.ECONNRESET: N_("the connection was reset"),
    errno.ECONNABORTED: N_("the connection was broken off"),
    errno.EADDRNOTAVAIL: N_("that address is not available"),
}


def link_reason(exc: BaseException) -> str:
    """Why joining failed, for a person: a refused or unreachable address, a name that
    cannot be found, a host that hung up, in the language spoken now; other errors in
    their own words, cleaned (never a Python tuple or aiohttp's "ssl:default")."""
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return _("the name cannot be found")
    cause = getattr(exc, "os_error", None) if isinstance(exc, aiohttp.ClientError) else exc
    if isinstance(cause, OSError) and cause.errno in NETWORK_REASONS:
        return _(NETWORK_REASONS[cause.errno])
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return _("the host hung up")
    if isinstance(exc, aiohttp.WSServerHandshakeError):
        return _("the address does not answer as a shashki host")
    if isinstance(cause, OSError):
        return os_reason(cause)
    return clean(str(exc), 120) or type(exc).__name__


#: Seconds to connect and be welcomed.
CONNECT_SECONDS = 15.0
#: Seconds of slack on the guest's own clock when the host's reading is checked.
CLOCK_SLACK = 2.0


class JoinError(Exception):
    """Joining failed: one line, for the player (``unreachable``: no connection could be
    made, rather than a host that said no)."""

    def __init__(self, text: str, *, unreachable: bool = False) -> None:
        super().__init__(text)
        self.unreachable = unreachable


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT``) as the host and the port; raises JoinError."""
    text = address.strip()
    if text.startswith(("ws://", "http://")):
        text = text.split("://", 1)[1].split("/", 1)[0]
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port[:6]) < 65536:
        raise JoinError(
            _("{address} is not an address: give HOST:PORT, e.g. 192.168.1.20:8765").format(
                address=clean(address, 60)
            )
        )
    return host, int(port)


@dataclass
class Welcome:
    """What the host said of its game, checked."""

    variant_id: str
    side: Color
    clock: TimeControl | None
    takeback: bool
    host: str
    guest: str
    start: str | None
    seed: int | None
    site: str
    #: A program plays the host's side.
    program: bool = False
    #: The game's identity (the same on both sides for its whole life).
    game: str | None = None


def read_welcome(message: Message) -> Welcome:
    """The host's welcome, checked against this machine's own variant of that id;
    raises JoinError (one line)."""
    if message.type == "refused":
        raise JoinError(refusal_text(message.get("text"), 120))
    if message.type != "welcome":
        raise JoinError(_("The host did not welcome us ({kind}).").format(kind=message.type))
    name = str(message.get("variant"))
    try:
        variant = find_variant(name)
    except ShashkiError:
        raise JoinError(
            _("The host plays {name}, a variant this machine does not have.").format(
                name=clean(name, 40)
            )
        ) from None
    if variant.id != name:
        raise JoinError(
            _("The host names a variant by {name}, not by its id.").format(name=clean(name, 40))
        )
    if rules_digest(variant) != message.get("rules"):
        raise JoinError(
            _("The host's {name} has other rules than this machine's file of that id.").format(
                name=variant.id
            )
        )
    side = message.get("side")
    if side not in ("white", "black"):
        raise JoinError(_("The host gave no side to play."))
    clock = None
    if message.get("clock") is not None:
        clock = TimeControl.from_tag(str(message.get("clock")))
        if clock is None:
            raise JoinError(_("The host's clock cannot be read."))
    site = clean(str(message.get("site") or ""), 60)
    return Welcome(
        variant_id=variant.id,
        side=Color.WHITE if side == "white" else Color.BLACK,
        clock=clock,
        takeback=bool(message.get("takeback")),
        host=clean(str(message.get("host") or ""), MAX_NAME) or variant.side_names[0],
        guest=clean(str(message.get("guest") or ""), MAX_NAME),
        start=message.get("start"),
        seed=message.get("seed"),
        site=site,
        program=bool(message.get("program")),
        game=game_id(message.get("game")),
    )


def guest_session(
    welcome: Welcome, name: str, *, now: Callable[[], float] | None = None
) -> tuple[GameSession, RemotePlayer]:
    """The guest's own session of the host's game (its start, its clock)."""
    variant = find_variant(welcome.variant_id)
    try:
        game = Game(variant, start=welcome.start or None, seed=welcome.seed)
    except (ShashkiError, ValueError) as exc:
        raise JoinError(
            _("The host's start cannot be played: {reason}").format(reason=clean(str(exc), 100))
        ) from None
    remote = RemotePlayer(welcome.host, program=welcome.program)
    me = Person(name)
    players = (me, remote) if welcome.side is Color.WHITE else (remote, me)
    clock = None
    if welcome.clock is not None:
        clock = GameClock(welcome.clock, now=now) if now is not None else GameClock(welcome.clock)
    session = GameSession(
        game,
        (players[0], players[1]),
        clock=clock,
        undo_policy=UndoPolicy.ASK if welcome.takeback else UndoPolicy.OFF,
        headers=online_headers(welcome.site),
    )
    session.clock_goes_on = True  # (the host's clock goes on: this side's view agrees)
    return session, remote


class GuestLink(Link):
    """The guest's side of the game."""

    def __init__(
        self,
        session: GameSession,
        side: Color,
        remote: RemotePlayer,
        *,
        game: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(session, side, remote, **kw)
        #: The game's identity, as the host gave it (None: not known yet — an autosave
        #: of an older shashki).
        self.game = game
        #: The host said goodbye.
        self.host_left = False
        #: The host's state of this game came since this side started (or resumed):
        #: the game was unfinished on the host's side then.
        self.reached = False
        #: The last try to join again reached a host that answered (and turned us away,
        #: or plays another game), rather than no host at all.
        self.host_answers = False
        #: The host took a newer connection of this game: this copy stops.
        self.superseded = False
        #: This side's last move, when it was played while the host was away (sent
        #: when the host's state shows it missed it).
        self._unsent: dict[str, Any] | None = None
        #: The next state is the one a (re)connection begins with.
        self._first_state = False

    def local_moved(self, event: MovePlayed) -> None:
        if event.side is not self.side:
            return
        game = self.session.game
        clock = self.session.clock
        fields: dict[str, Any] = {
            "ply": len(game.move_stack) - 1,
            "move": move_before(game, event.move),
            "left": None if clock is None else round(clock.left(self.side), 3),
        }
        self._unsent = fields if self._queue is None else None
        self.send("move", **fields)

    # -- the host's messages ---------------------------------------------------------------

    def _clocks(self, value: Any, *, ply: int) -> tuple[float, float] | None:
        """The host's clock readings, checked: None when they cannot be."""
        clock = self.session.clock
        if value is None or clock is None:
            return None
        white, black = clock_pair("moved.left", value)
        control = clock.control
        turns = [0, 0]
        for side, _m in self.session.game.history()[: ply + 1]:
            turns[side] += 1
        for side, left in ((Color.WHITE, white), (Color.BLACK, black)):
            most = control.seconds + control.increment * (turns[side] + 1) + CLOCK_SLACK
            if left > most:
                raise ProtocolError(
                    N_(
                        "clock claim refused: {left} s for white, "
                        "more than a clock of {tag} can hold"
                    )
                    if side is Color.WHITE
                    else N_(
                        "clock claim refused: {left} s for black, "
                        "more than a clock of {tag} can hold"
                    ),
                    left=f"{left:.1f}",
                    tag=control.tag(),
                )
        return white, black

    def on_moved(self, message: Message) -> None:
        session = self.session
        game = session.game
        ply = int(message.get("ply"))
        text = str(message.get("move"))
        if ply < len(game.move_stack):  # our own move, played by the host
            history = game.history()
            mine = game.copy()
            for _i in range(len(history) - ply):
                mine.pop()
            if mine.move_text(history[ply][1], full=True) != text:
                raise ProtocolError(
                    N_("the host played '{move}' at ply {ply}"), move=clean(text, 40), ply=ply
                )
            self._set_clocks(message.get("left"), ply)
            return
        if ply > len(game.move_stack):
            raise ProtocolError(
                N_("move for ply {ply}, the game is at ply {at}"), ply=ply, at=len(game.move_stack)
            )
        if game.ended is not None and game.ended.termination is Termination.TIME_FORFEIT:
            session.set_moves([m for _s, m in game.history()], list(session.clock_marks))
        if session.outcome is not None:
            raise ProtocolError(N_("move '{move}' refused: the game is over"), move=clean(text, 40))
        if game.turn is self.side:
            raise ProtocolError(
                N_("move '{move}' refused: it is our turn, not the host's"), move=clean(text, 40)
            )
        move = self.parse_move(game, text)
        left = self._clocks(message.get("left"), ply=ply)
        if left is not None and session.clock is not None:
            # the host keeps the clocks: its reading goes first (this side's own view may
            # have let the host's flag fall meanwhile)
            session.clock.set_left(*left)
        self.play_peer(move, text)
        if left is not None and len(session.game.move_stack) == ply + 1:
            self._apply_clocks(left, ply)

    def _set_clocks(self, value: Any, ply: int) -> None:
        left = self._clocks(value, ply=ply)
        if left is not None:
            self._apply_clocks(left, ply)

    def _apply_clocks(self, left: tuple[float, float], ply: int) -> None:
        session = self.session
        clock = session.clock
        if clock is None:
            return
        clock.set_left(*left)
        mover = session.game.history()[ply][0]
        if ply < len(session.clock_marks):
            session.clock_marks[ply] = left[mover]

    def on_state(self, message: Message) -> None:
        session = self.session
        texts = move_list(message.get("moves"))
        marks = marks_list(message.get("marks", []))
        left_value = message.get("left")
        left = clock_pair("state.left", left_value) if left_value is not None else None
        end = message.get("end")
        replay = Game(
            session.game.variant, start=session.game.start_label or None, seed=session.game.seed
        )
        moves: list[Move] = []
        for text in texts:
            if replay.outcome() is not None:
                raise ProtocolError(N_("state refused: a move after the end of the game"))
            move = self.parse_move(replay, text)
            replay.push_unchecked(move)
            moves.append(move)
        history = session.game.history()
        have = [m for _s, m in history]
        first, self._first_state = self._first_state, False
        self.reached = True
        if (
            first
            and end is None
            and session.game.ended is None
            and len(have) == len(moves) + 1
            and have[: len(moves)] == moves
            and history[-1][0] is self.side
        ):
            # joined again, the host has not had this side's last move yet: it is on its
            # way (played as the state came), or it was played while the host was away:
            # sent now.  (Any later state sets the game as the host has it.)
            unsent, self._unsent = self._unsent, None
            if unsent is not None and unsent.get("ply") == len(moves):
                self.send("move", **unsent)
            self.emit(Synced())
            return
        same = have == moves and list(session.clock_marks) == marks[: len(moves)]
        if not same or session.game.ended is not None:  # (an ending of its own reopened)
            session.set_moves(moves, marks, left)
        elif left is not None and session.clock is not None:
            session.clock.set_left(*left)
        if end is not None:
            self._end(end)
        self.emit(Synced())

    def _end(self, end: Any) -> None:
        session = self.session
        if not isinstance(end, dict):
            raise ProtocolError(N_("state refused: its end is not an object"))
        kind = end.get("kind")
        side = {"white": Color.WHITE, "black": Color.BLACK}.get(str(end.get("side")))
        if session.outcome is not None and kind == "rules":
            pass
        elif kind == "resign" and side is not None:
            session.resign(side)
        elif kind == "left" and side is self.side:
            session.abandon(side)
        elif kind == "agreed":
            session.answer_draw(True)
        elif kind == "time" and side is session.game.turn and session.clock is not None:
            session.declare_time_out(side)  # (the host keeps the clocks)
        elif kind == "rules":
            raise ProtocolError(
                N_("state refused: the host says the game is over, the rules do not")
            )
        else:
            raise ProtocolError(N_("state refused: an end of '{kind}'"), kind=clean(str(kind), 20))
        self.emit(GameOver())

    def on_draw_answer(self, message: Message) -> None:
        session = self.session
        if session.draw_offer is not self.side:
            raise ProtocolError(N_("draw answer: no draw was offered"), "no-draw-offered")
        if not message.get("accept"):
            session.answer_draw(False)
            self.emit(Info(_("{name} declines the draw.").format(name=self.remote.name)))
        # (accepted: the host's state with the end follows)

    def on_takeback_answer(self, message: Message) -> None:
        if not self.asked_takeback:
            raise ProtocolError(N_("takeback answer: no takeback was asked"), "no-takeback-asked")
        self.asked_takeback = False
        if message.get("accept"):
            self.emit(Info(_("{name} agrees: move taken back.").format(name=self.remote.name)))
        else:
            self.emit(Info(_("{name} refuses the takeback.").format(name=self.remote.name)))

    def on_refused(self, message: Message) -> None:
        text = message.get("text", "")
        self.log.append(f"the host refused: {clean(text, 160)}")
        if isinstance(text, str) and text.startswith("superseded:"):
            self.superseded = True
            self.emit(Superseded())
            return
        self.emit(Info(refusal_text(text)))

    def why_no_claim(self) -> str | None:
        """A guest claims the game of a host away only while the game is unfinished on
        the host's side too, as far as it can be known: the host's state of it came
        since this side started, and the host does not answer at all now (a host that
        answers says how the game ended, or that it plays another one)."""
        if self.session.outcome is None and self.away_since is not None:
            if not self.reached:
                return _(
                    "The host has not been reached since this game was resumed: only the "
                    "host can say how it ended."
                )
            if self.host_answers:
                return _(
                    "The host answers, but not for this game: only the host can say how it ended."
                )
        return super().why_no_claim()

    def on_bye(self, message: Message) -> None:
        self.host_left = True
        self.emit(PeerLeft(self.remote.name))

    # -- the guest's actions ---------------------------------------------------------------------

    def answer_draw(self, accept: bool) -> None:
        session = self.session
        if session.draw_offer is not self.peer_side:
            return
        self.send("draw_answer", accept=accept)
        if not accept:
            session.answer_draw(False)

    def answer_takeback(self, accept: bool) -> None:
        if not self.peer_takeback:
            return
        self.peer_takeback = False
        self.send("takeback_answer", accept=accept)

    def resign(self) -> None:
        if self.session.outcome is None:
            self.send("resign")
            self.session.resign(self.side)


class Guest:
    """A connection to a host: the handshake, the join, then the host's messages read
    into the link."""

    def __init__(
        self,
        address: str,
        code: str,
        name: str,
        *,
        program: bool = False,
        wait: float | None = None,
    ) -> None:
        self.host, self.port = split_address(address)
        #: Seconds to connect and be welcomed (None: :data:`CONNECT_SECONDS`).
        self.wait = CONNECT_SECONDS if wait is None else wait
        self.address = f"{self.host}:{self.port}"
        self.code = code
        self.name = clean(name, MAX_NAME)
        self.program = program
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.line: SealedLine | None = None
        self.link: GuestLink | None = None
        self.welcome: Welcome | None = None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

    async def connect(self, game: str | None = None) -> Welcome:
        """Connect, prove the code (the handshake), join (``game``: the identity of the
        game this side had, when it joins again), read the welcome; all within
        :attr:`wait` seconds.  Raises JoinError (one line)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        url = f"ws://{host}:{self.port}/ws"
        self.http = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=None, connect=self.wait)
        )
        try:
            async with asyncio.timeout(self.wait):
                ws = self.ws = await self.http.ws_connect(
                    url, max_msg_size=FRAME_LIMIT, heartbeat=15.0
                )
                line = self.line = await self._handshake(ws)
                join = encode(
                    "join", name=self.name or None, program=self.program or None, game=game
                )
                await ws.send_bytes(line.seal(join))
                frame = await ws.receive()
                if frame.type is not aiohttp.WSMsgType.BINARY:
                    raise JoinError(_("The host closed the connection."))
                try:
                    message = parse(line.open(frame.data))
                except SealError:
                    raise JoinError(
                        _("The host's answer did not open with the room's key.")
                    ) from None
                except ProtocolError as exc:
                    raise JoinError(
                        _("The host's welcome cannot be read: {reason}").format(reason=exc.local())
                    ) from None
                self.welcome = read_welcome(message)
                return self.welcome
        except TimeoutError:
            await self.close()
            raise JoinError(
                _("Cannot join {address}: no answer in {n} s.").format(
                    address=self.address, n=int(self.wait)
                ),
                unreachable=True,
            ) from None
        except (aiohttp.ClientError, OSError) as exc:
            await self.close()
            reason = link_reason(exc)
            raise JoinError(
                _("Cannot join {address}: {reason}").format(address=self.address, reason=reason),
                unreachable=True,
            ) from None
        except JoinError:
            await self.close()
            raise

    async def _handshake(self, ws: aiohttp.ClientWebSocketResponse) -> SealedLine:
        """SPAKE2 with the room code; the guest proves its key first, then checks the
        host's proof: the sealed line, or JoinError."""
        pake = Pake(self.code)
        await ws.send_str(encode("pake", pake=pake.message.hex()))
        answer = await self._clear(ws)
        if answer.type != "pake":
            raise JoinError(_("The host did not answer the handshake."))
        try:
            keys = pake.finish(bytes.fromhex(answer.get("pake")))
        except (SealError, ValueError):
            raise JoinError(_("The host's handshake cannot be read.")) from None
        await ws.send_str(encode("confirm", confirm=keys.guest_proof.hex()))
        proof = await self._clear(ws)
        try:
            given = bytes.fromhex(proof.get("confirm", "")) if proof.type == "confirm" else b""
        except ValueError:
            given = b""
        if not same_proof(given, keys.host_proof):
            raise JoinError(
                _(
                    "The host did not prove that it holds the room code: it is not the "
                    "room's host, or someone is between us."
                )
            )
        return guest_line(keys)

    @staticmethod
    async def _clear(ws: aiohttp.ClientWebSocketResponse) -> Message:
        """A message of the handshake (in clear); a refusal, an older shashki's answer
        or anything else raise JoinError."""
        frame = await ws.receive()
        if frame.type is not aiohttp.WSMsgType.TEXT:
            raise JoinError(_("The host closed the connection."))
        version = older_version(frame.data)
        if version is not None:
            raise JoinError(
                _(
                    "The host runs another version of shashki (protocol {theirs}, this one "
                    "{ours}): both players need the same version; update shashki."
                ).format(theirs=version, ours=VERSION)
            )
        try:
            message = parse(frame.data)
        except ProtocolError as exc:
            raise JoinError(
                _("The host's answer cannot be read: {reason}").format(reason=exc.local())
            ) from None
        if message.type == "refused":
            raise JoinError(refusal_text(message.get("text"), 120))
        return message

    def make_link(self, *, now: Callable[[], float] | None = None) -> GuestLink:
        """The guest's session and link for the host's game."""
        assert self.welcome is not None
        session, remote = guest_session(self.welcome, self.welcome.guest or self.name, now=now)
        link = GuestLink(session, self.welcome.side, remote, game=self.welcome.game)
        link.attach(self._queue)
        self.link = link
        return link

    async def connect_again(self, link: GuestLink) -> None:
        """Join the host again for ``link``'s game (after a drop, or a host that came
        back): the host's state then sets the game right; raises JoinError (one line),
        also when the host now plays another game.  The link learns whether the host
        answered at all (:attr:`GuestLink.host_answers`)."""
        try:
            welcome = await self.connect(link.game)
        except JoinError as exc:
            link.host_answers = not exc.unreachable
            raise
        link.host_answers = True
        game = link.session.game
        if (
            (link.game is not None and welcome.game != link.game)
            or welcome.variant_id != game.variant.id
            or welcome.side is not link.side
            or (welcome.start or None) != (game.start_label or None)
            or welcome.seed != game.seed
        ):
            await self.close()
            raise JoinError(_("The host now plays another game."))
        link.game = welcome.game
        link._first_state = True
        link.attach(self._queue)
        link.away_since = None
        self.link = link

    async def run(self) -> None:
        """Read the host's messages until the connection ends (the link is told)."""
        assert self.ws is not None and self.link is not None and self.line is not None
        ws, link, line = self.ws, self.link, self.line
        writer = asyncio.create_task(write_sealed(ws, line, self._queue))
        limit = RateLimit(link.now(), HOST_BURST, HOST_PER_SECOND)
        try:
            async for frame in ws:
                if frame.type is aiohttp.WSMsgType.BINARY:
                    try:
                        text = line.open(frame.data)
                    except SealError:
                        link.refuse(
                            _(
                                "A message did not open with the room's key (changed on its "
                                "way?): the connection is closed; joining again."
                            )
                        )
                        break
                    if not limit.take(link.now()):  # (every message counts)
                        if limit.refused == 1:
                            link.refuse(_("The host sends too many messages: some were dropped."))
                        continue
                    try:
                        message = parse(text)
                    except ProtocolError as exc:
                        link.refuse(exc.local())
                        continue
                    link.received(message)
                elif frame.type is aiohttp.WSMsgType.TEXT:
                    link.refuse(
                        _(
                            "A message came in clear on the sealed line: the connection is "
                            "closed; joining again."
                        )
                    )
                    break
                else:
                    break
        finally:
            self._queue.put_nowait(None)
            if link._queue is self._queue:  # (what is played meanwhile waits for the state)
                link.attach(None)
                if link.session.outcome is None:
                    link.away_since = link.now()
            with contextlib.suppress(Exception):
                await writer
            link.emit(ConnectionClosed())

    async def leave(self, text: str = "") -> None:
        """Tell the host this side leaves, then close."""
        if self.link is not None and self.ws is not None and not self.ws.closed:
            self.link.quit(text)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), 2.0)
        await self.close()

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.http is not None:
            await self.http.close()
            self.http = None


__all__ = ["Guest", "GuestLink", "JoinError", "Welcome", "read_welcome", "split_address"]
