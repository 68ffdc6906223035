"""The host of an online game: an aiohttp web app with one WebSocket endpoint (``/ws``).

The host is the referee: its session is the game, its clocks are the clocks; a guest's
move is checked against the rules (and the side to move, and the ply it is meant
for) before it is played, and what was refused is said in one line, logged, and told
to the guest (a ``refused`` with its reason's code).  A guest proves it holds the room
code by the handshake (SPAKE2, :mod:`.seal`): one code a connection, and the gate
(:mod:`.gate`) bounds connections, their time and an address's wrong codes.  One guest
at a time: the holder of the code who joins again takes the game over from its older
connection, and gets the whole game again (a ``state``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any

from aiohttp import WSMsgType, web

from ..i18n import N_, _
from ..rules import Color
from ..rules.outcome import Termination
from ..session.game import GameSession, MovePlayed
from .events import GameOver, Info, PeerAway, PeerJoined, PeerLeft, Synced
from .gate import HANDSHAKE_SECONDS, WRONG_CODES, Gate
from .link import Link, move_before, plies_back, side_word, write_sealed
from .player import RemotePlayer
from .protocol import (
    FRAME_LIMIT,
    MAX_MESSAGE,
    MAX_NAME,
    Message,
    ProtocolError,
    RateLimit,
    clean,
    encode,
    new_game_id,
    older_version,
    parse,
    rules_digest,
    version_refusal,
)
from .seal import Keys, Pake, SealedLine, SealError, host_line, same_proof

#: Dropped messages in a row after which a flooding guest is let go.
FLOOD_REFUSALS = 200


def lan_address() -> str:
    """This machine's address on its network (the one a route out would use; nothing
    is sent), or 127.0.0.1 when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # (TEST-NET: a route is looked up, no packet)
            address = str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return address if address and not address.startswith("0.") else "127.0.0.1"


def ending(session: GameSession) -> dict[str, Any] | None:
    """The end of the game as a state says it."""
    out = session.outcome
    if out is None:
        return None
    term = out.termination
    if term is Termination.RESIGNATION and out.winner is not None:
        return {"kind": "resign", "side": side_word(Color(1 - out.winner))}
    if term is Termination.ABANDONED and out.winner is not None:
        return {"kind": "left", "side": side_word(Color(1 - out.winner))}
    if term is Termination.AGREED_DRAW:
        return {"kind": "agreed"}
    if term is Termination.TIME_FORFEIT:
        return {"kind": "time", "side": side_word(session.game.turn)}
    return {"kind": "rules", "result": out.result()}


def state_fields(session: GameSession) -> dict[str, Any]:
    """The whole game as a ``state`` message's fields."""
    game = session.game
    replay = game.copy()
    replay.reopen()
    moves = [m for _side, m in replay.history()]
    while replay.move_stack:
        replay.pop()
    texts = []
    for move in moves:
        texts.append(replay.move_text(move, full=True))
        replay.push_unchecked(move)
    marks = [None if m is None else round(m, 3) for m in session.clock_marks]
    clock = session.clock
    left = None
    if clock is not None:
        left = [round(clock.left(Color.WHITE), 3), round(clock.left(Color.BLACK), 3)]
    return {"moves": texts, "marks": marks, "left": left, "end": ending(session)}


class HostLink(Link):
    """The host's side of the game, and its room."""

    def __init__(
        self,
        session: GameSession,
        side: Color,
        remote: RemotePlayer,
        code: str,
        *,
        name: str,
        address: str = "",
        game: str | None = None,
        gate: Gate | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(session, side, remote, **kwargs)
        self.code = code
        self.name = name
        #: What the host printed (``192.168.1.20:8765``): the record's Site.
        self.address = address
        #: The game's identity, the same on both sides for its whole life.
        self.game = game or new_game_id()
        #: Who may connect, for how long, how many codes an address may try.
        self.gate = gate or Gate()
        self.guest: web.WebSocketResponse | None = None
        #: Whether a guest ever joined (its name is the record's from then on).
        self.joined = False
        self._state_at = -1e9

    # -- the session's events -----------------------------------------------------------

    def local_moved(self, event: MovePlayed) -> None:
        game = self.session.game
        ply = len(game.move_stack) - 1
        marks = self.session.clock_marks
        if marks and marks[-1] is not None:  # (kept as sent: both records say the same)
            marks[-1] = round(marks[-1], 3)
        self.send("moved", ply=ply, move=move_before(game, event.move), left=self.clocks())

    def game_ended(self) -> None:
        self.send_state()
        self.emit(GameOver())

    def send_state(self) -> None:
        self.send("state", **state_fields(self.session))

    # -- the room ----------------------------------------------------------------------------

    def welcome(self) -> dict[str, Any]:
        session = self.session
        game = session.game
        clock = session.clock
        return {
            "variant": game.variant.id,
            "rules": rules_digest(game.variant),
            "side": side_word(self.peer_side),
            "clock": clock.control.tag() if clock is not None else None,
            "takeback": self.takebacks,
            "host": self.name,
            "guest": self.remote.name,
            "start": game.start_label or None,
            "seed": game.seed,
            "site": self.address or None,
            "program": not self.session.players[self.side].is_human or None,
            "game": self.game,
        }

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One connection to ``/ws``: the handshake (SPAKE2 with the room code, both keys
        confirmed), the guest's sealed ``join``, then the game's sealed messages."""
        ws = web.WebSocketResponse(max_msg_size=FRAME_LIMIT, heartbeat=15.0)
        await ws.prepare(request)
        peer = request.remote
        try:
            async with asyncio.timeout(HANDSHAKE_SECONDS):
                opened = await self._handshake(ws, peer)
        except TimeoutError:
            self.log.append("a connection gave no handshake in time")
            await self._turn_away(ws, "no-code: the handshake did not come in time")
            return ws
        if opened is None:
            return ws
        line, hello = opened
        self.gate.admitted(request.transport)
        again = self.joined
        if not self.joined:
            name = clean(hello.get("name", ""), MAX_NAME) or self.remote.name
            self.remote.name = name
            self.remote.program = bool(hello.get("program"))
            self.joined = True
        old = self.guest
        if old is not None and not old.closed:
            self._supersede()
        await self._serve(ws, line, again)
        return ws

    async def _handshake(
        self, ws: web.WebSocketResponse, peer: str | None
    ) -> tuple[SealedLine, Message] | None:
        """The handshake of a connection: its line and the guest's ``join``, or None when
        it was turned away (said to it, logged here)."""
        theirs = await self._opening(ws)
        if theirs is None:
            return None
        refusal = self.gate.may_guess(peer)
        if refusal is not None:
            self.log.append(f"a connection from {clean(peer or '?', 60)}: {refusal.line}")
            await self._turn_away(ws, refusal.wire())
            return None
        keys = await self._exchange_keys(ws, peer, theirs)
        if keys is None:
            return None
        return await self._sealed_join(ws, keys)

    async def _opening(self, ws: web.WebSocketResponse) -> bytes | None:
        """The guest's half of the key exchange, from the connection's first frame; None
        when it is not one (an older shashki's, a stranger's: turned away)."""
        first = await ws.receive()
        if first.type is not WSMsgType.TEXT:
            self.log.append("a connection did not begin with the handshake")
            await self._turn_away(ws, "not-join: the connection must begin with the handshake")
            return None
        version = older_version(first.data)
        if version is not None:  # (an older shashki: a refusal it can read, in its shape)
            self.log.append(f"a connection of protocol version {version} was turned away")
            await self._send_away(ws, version_refusal(version))
            return None
        try:
            hello = parse(first.data)
            if hello.type != "pake":
                raise ProtocolError(N_("the connection must begin with the handshake"), "not-join")
            return bytes.fromhex(hello.get("pake"))
        except (ProtocolError, ValueError) as exc:
            error = exc if isinstance(exc, ProtocolError) else ProtocolError(N_("not a handshake"))
            self.log.append(f"a connection: {error}")  # (logged only: no code, no guest)
            await self._turn_away(ws, error.wire())
            return None

    async def _exchange_keys(
        self, ws: web.WebSocketResponse, peer: str | None, theirs: bytes
    ) -> Keys | None:
        """SPAKE2 with the room code and both keys confirmed, the guess counted by the
        gate (right or wrong); the keys, or None when the connection was turned away."""
        right: bool | None = None
        try:
            pake = Pake(self.code)
            try:
                keys = pake.finish(theirs)
            except SealError:
                self.log.append("a connection sent a handshake that is not one")
                await self._turn_away(ws, "bad-message: not a handshake message")
                return None
            await ws.send_str(encode("pake", pake=pake.message.hex()))
            frame = await ws.receive()
            if frame.type is not WSMsgType.TEXT:
                return None
            try:
                proof = parse(frame.data)
                if proof.type != "confirm":
                    raise ProtocolError(N_("the handshake must go on with a confirm"), "not-join")
                given = bytes.fromhex(proof.get("confirm"))
            except (ProtocolError, ValueError):
                given = b""
            if not same_proof(given, keys.guest_proof):
                right = False
                n = self.gate.guessed(peer, False)
                right = None  # (counted)
                self.refuse(
                    _(
                        "A wrong room code came from {address} ({n} of {most} before a pause)."
                    ).format(address=clean(peer or "?", 60), n=n, most=WRONG_CODES)
                )
                await self._turn_away(ws, "wrong-code: wrong room code")
                return None
            right = True
            await ws.send_str(encode("confirm", confirm=keys.host_proof.hex()))
        finally:
            if right is not False:
                self.gate.guessed(peer, right)
        return keys

    async def _sealed_join(
        self, ws: web.WebSocketResponse, keys: Keys
    ) -> tuple[SealedLine, Message] | None:
        """The guest's first sealed message, which must be its ``join``: the line and
        the ``join``, or None (refused on the sealed line when it can be read)."""
        line = host_line(keys)
        frame = await ws.receive()
        try:
            if frame.type is not WSMsgType.BINARY:
                raise SealError("not sealed")
            join = parse(line.open(frame.data))
            if join.type != "join":
                raise ProtocolError(N_("the first sealed message must be a join"), "not-join")
        except (SealError, ProtocolError) as exc:
            self.log.append(f"a guest with the code: {exc}")
            if isinstance(exc, ProtocolError):
                with contextlib.suppress(Exception):
                    await ws.send_bytes(line.seal(encode("refused", text=exc.wire())))
            with contextlib.suppress(Exception):
                await ws.close()
            return None
        return line, join

    async def _turn_away(self, ws: web.WebSocketResponse, text: str) -> None:
        """Refuse a connection with ``text`` (a reason code, then an English line), in
        clear: it has no key."""
        await self._send_away(ws, encode("refused", text=text))

    @staticmethod
    async def _send_away(ws: web.WebSocketResponse, frame: str) -> None:
        with contextlib.suppress(Exception):
            await ws.send_str(frame)
            await ws.close()

    def _supersede(self) -> None:
        """The guest joined again while its older connection still stands (a drop not
        yet seen, or its other copy): that one is told, then closed."""
        queue = self._queue
        self.log.append("the guest joined again: its older connection is closed")
        if queue is not None:
            queue.put_nowait(encode("refused", text="superseded: this game was joined again"))
            queue.put_nowait(None)
        self.guest = None
        self.attach(None)

    async def _serve(self, ws: web.WebSocketResponse, line: SealedLine, back: bool) -> None:
        """Serve the guest (``back``: it had joined this game before) until its
        connection ends."""
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.guest = ws
        self.away_since = None
        queue.put_nowait(encode("welcome", **self.welcome()))
        queue.put_nowait(encode("state", **state_fields(self.session)))
        self.attach(queue)
        self.emit(PeerJoined(self.remote.name, again=back))
        writer = asyncio.create_task(write_sealed(ws, line, queue))
        limit = RateLimit(self.now())
        try:
            async for frame in ws:
                if frame.type is WSMsgType.BINARY:
                    try:
                        text = line.open(frame.data)
                    except SealError:
                        self.refuse(
                            _(
                                "A message did not open with the room's key: the guest's "
                                "connection is closed (it may join again)."
                            )
                        )
                        break
                    if not limit.take(self.now()):  # (every message counts)
                        if limit.refused == 1:
                            self.refuse(_("The guest sends too many messages: some were dropped."))
                            self.send(
                                "refused", text="too-many: messages dropped: too many at once"
                            )
                        if limit.refused >= FLOOD_REFUSALS:
                            self.refuse(_("The guest flooded the game: its connection is closed."))
                            self.send("refused", text="flood: too many messages: connection closed")
                            break
                        continue
                    try:
                        message = parse(text)
                    except ProtocolError as exc:
                        self.refused(exc)
                        continue
                    self.received(message)
                elif frame.type is WSMsgType.TEXT:
                    self.refuse(
                        _(
                            "A message came in clear on the sealed line: the guest's "
                            "connection is closed (it may join again)."
                        )
                    )
                    break
                elif frame.type is WSMsgType.ERROR:
                    self.refuse(
                        _("The connection failed: {reason}").format(
                            reason=clean(str(ws.exception()), 120)
                        )
                    )
                    break
        finally:
            if self.guest is ws:
                self.guest = None
                self.attach(None)
                self.away_since = self.now()
                if self.session.outcome is None:
                    self.emit(PeerAway(self.remote.name))
            queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            with contextlib.suppress(Exception):
                await ws.close()

    def refused(self, error: ProtocolError) -> None:
        """A message of the guest's was refused: said here, and to the guest (its code
        and English line)."""
        super().refused(error)
        self.send("refused", text=error.wire())

    # -- the guest's messages ----------------------------------------------------------------

    def on_move(self, message: Message) -> None:
        session = self.session
        game = session.game
        try:
            if session.outcome is not None:
                raise ProtocolError(N_("move refused: the game is over"), "game-over")
            if game.turn is not self.peer_side:
                raise ProtocolError(N_("move refused: it is not the guest's turn"), "not-your-turn")
            ply = message.get("ply")
            if ply != len(game.move_stack):
                raise ProtocolError(
                    N_("move refused: it is for ply {ply}, the game is at ply {at}"),
                    "wrong-ply",
                    ply=ply,
                    at=len(game.move_stack),
                )
            move = self.parse_move(game, message.get("move", ""))
        except ProtocolError:
            self._set_right()
            raise
        claimed = message.get("left")
        clock = session.clock
        if claimed is not None and clock is not None:
            have = clock.left(self.peer_side) + clock.control.increment
            if claimed > have + 1.0:
                self.refuse(
                    _(
                        "clock claim refused: the guest says {claimed} s, it has {have} s "
                        "(the host keeps the clocks)"
                    ).format(claimed=f"{claimed:.1f}", have=f"{have:.1f}")
                )
        if not self.play_peer(move, message.get("move", "")) and session.timed_out():
            # the guest's flag fell first: the session ended the game on time instead
            raise ProtocolError(N_("move refused: the guest's time ran out first"), "time-out")

    def _set_right(self) -> None:
        """Send the guest the game as it is (its copy goes back to it), at most once a
        second: a flood of refused moves is no flood of states."""
        now = self.now()
        if now - self._state_at >= 1.0:
            self._state_at = now
            self.send_state()

    def on_draw_answer(self, message: Message) -> None:
        session = self.session
        if session.draw_offer is not self.side:
            raise ProtocolError(N_("draw answer: no draw was offered"), "no-draw-offered")
        accept = bool(message.get("accept"))
        session.answer_draw(accept)
        self.emit(
            Info(
                _("{name} accepts the draw.").format(name=self.remote.name)
                if accept
                else _("{name} declines the draw.").format(name=self.remote.name)
            )
        )

    def on_takeback_answer(self, message: Message) -> None:
        if not self.asked_takeback:
            raise ProtocolError(N_("takeback answer: no takeback was asked"), "no-takeback-asked")
        self.asked_takeback = False
        if message.get("accept"):
            self.take_back(self.side)
            self.emit(Info(_("{name} agrees: move taken back.").format(name=self.remote.name)))
        else:
            self.emit(Info(_("{name} refuses the takeback.").format(name=self.remote.name)))

    def on_resign(self, message: Message) -> None:
        if self.session.outcome is not None:
            raise ProtocolError(N_("resignation: the game is over"), "game-over")
        self.session.resign(self.peer_side)

    def on_bye(self, message: Message) -> None:
        self.emit(PeerLeft(self.remote.name))

    # -- the host's actions -------------------------------------------------------------------

    def take_back(self, side: Color) -> None:
        """Take back ``side``'s last move (and what followed), agreed by both."""
        session = self.session
        n = plies_back(session.game, side)
        if n == 0:
            return
        moves = [m for _s, m in session.game.history()][:-n]
        session.set_moves(moves, session.clock_marks[: len(moves)])
        self.send_state()
        self.emit(Synced())

    def answer_draw(self, accept: bool) -> None:
        session = self.session
        if session.draw_offer is not self.peer_side:
            return
        self.send("draw_answer", accept=accept)
        session.answer_draw(accept)

    def answer_takeback(self, accept: bool) -> None:
        if not self.peer_takeback:
            return
        self.peer_takeback = False
        self.send("takeback_answer", accept=accept)
        if accept:
            self.take_back(self.peer_side)

    def resign(self) -> None:
        if self.session.outcome is None:
            self.session.resign(self.side)


class _Gated(asyncio.Protocol):
    """A connection as the gate sees it: counted from its acceptance (below HTTP), cut
    at once when its address has too many waiting; the rest is aiohttp's."""

    def __init__(self, inner: asyncio.Protocol, gate: Gate) -> None:
        self.inner = inner
        self.gate = gate
        self.transport: asyncio.BaseTransport | None = None
        self.live = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else None
        if not self.gate.opened(transport, address):
            if isinstance(transport, asyncio.Transport):
                transport.abort()
            else:
                transport.close()
            return
        self.live = True
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.live:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.live else None

    def pause_writing(self) -> None:
        if self.live:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.live:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.gate.closed(self.transport)
        if self.live:
            self.live = False
            self.inner.connection_lost(exc)


class GatedSite(web.TCPSite):
    """aiohttp's TCP site, every connection passing the gate first."""

    def __init__(self, runner: web.AppRunner, gate: Gate, host: str, port: int) -> None:
        super().__init__(runner, host, port)
        self.gate = gate

    async def start(self) -> None:
        await web.BaseSite.start(self)  # (registered with the runner, which stops it)
        server = self._runner.server
        assert server is not None
        gate = self.gate
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Gated(server(), gate), self._host, self._port, reuse_address=True
        )
        sockets = self._server.sockets
        self._bound_port = int(sockets[0].getsockname()[1]) if sockets else self._port


class _IntoLog(logging.Handler):
    """What aiohttp says of a connection (a request that is not HTTP, a broken one): one
    line in the link's log, never a traceback on the terminal or over the screen."""

    def __init__(self, link: Link) -> None:
        super().__init__(logging.DEBUG)
        self.link = link

    def emit(self, record: logging.LogRecord) -> None:
        reason = ""
        if record.exc_info and record.exc_info[1] is not None:
            reason = f": {clean(str(record.exc_info[1]), 120)}"
        self.link.log.append(clean(f"http: {record.getMessage()}{reason}", 200))


def http_logger(link: Link) -> logging.Logger:
    """The logger of one host's HTTP server (its own: nothing goes to the root logger)."""
    logger = logging.Logger("shashki.online.http")
    logger.propagate = False
    logger.addHandler(_IntoLog(link))
    return logger


class Host:
    """The web app of one hosted game and its listening socket."""

    def __init__(self, link: HostLink) -> None:
        self.link = link
        self.app = web.Application(client_max_size=MAX_MESSAGE, logger=http_logger(link))
        self.app.router.add_get("/ws", link.handle)
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, bind: str, port: int) -> int:
        """Listen on ``bind``:``port`` (0: a free port); the port."""
        self.runner = web.AppRunner(
            self.app, handle_signals=False, access_log=None, logger=http_logger(self.link)
        )
        await self.runner.setup()
        site = GatedSite(self.runner, self.link.gate, bind, port)
        await site.start()
        self.port = site.port
        self.link.attach(None)
        return self.port

    async def stop(self, text: str = "") -> None:
        """Tell the guest the host leaves (after what is still to be sent), then stop."""
        link = self.link
        queue = link._queue
        if queue is not None:
            link.quit(text)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queue.join(), 2.0)
        guest = link.guest
        if guest is not None and not guest.closed:
            with contextlib.suppress(Exception):
                await guest.close()
        link.gate.abort_all()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


__all__ = ["Host", "HostLink", "lan_address", "state_fields"]
