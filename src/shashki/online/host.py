"""The host of an online game: an aiohttp web app with one WebSocket endpoint (``/ws``).

The host is the referee: its session is the game, its clocks are the clocks; a guest's
move is checked against the rules (and the side to move, and the ply it is meant
for) before it is played, and what was refused is said in one line and logged.  A
guest proves it holds the room code in its first message; after
:data:`~.protocol.MAX_WRONG_CODES` wrong codes the host takes nobody new.  One guest at
a time: while it is connected a second one is refused; after a drop the holder of the
code comes back and gets the whole game again (a ``state``).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from aiohttp import WSMsgType, web

from ..i18n import N_, _
from ..rules import Color
from ..rules.outcome import Termination
from ..session.game import GameSession, MovePlayed
from .events import GameOver, Info, PeerAway, PeerJoined, PeerLeft, Synced
from .link import Link, move_before, plies_back, side_word
from .player import RemotePlayer
from .protocol import (
    FRAME_LIMIT,
    MAX_MESSAGE,
    MAX_NAME,
    MAX_WRONG_CODES,
    Message,
    ProtocolError,
    RateLimit,
    clean,
    encode,
    parse,
    rules_digest,
    same_code,
)

#: Seconds a new connection has to say its room code.
JOIN_SECONDS = 10.0
#: Connections that may wait to say their code at once (more are turned away).
MAX_KNOCKING = 8
#: Refused messages in a row after which a flooding guest is let go.
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
        **kwargs: Any,
    ) -> None:
        super().__init__(session, side, remote, **kwargs)
        self.code = code
        self.name = name
        #: What the host printed (``192.168.1.20:8765``): the record's Site.
        self.address = address
        self.wrong_codes = 0
        #: False once too many wrong codes came: nobody new is taken.
        self.accepting = True
        self.guest: web.WebSocketResponse | None = None
        #: Whether a guest ever joined (its name is the record's from then on).
        self.joined = False
        self._state_at = -1e9
        #: Connections that have not said their code yet.
        self._knocking = 0

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
        }

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One connection to ``/ws``: the code first, then the game's messages."""
        ws = web.WebSocketResponse(max_msg_size=FRAME_LIMIT, heartbeat=15.0)
        await ws.prepare(request)
        if not self.accepting:
            await self._turn_away(
                ws, "closed: this game takes no more guests (too many wrong codes)"
            )
            return ws
        if self._knocking >= MAX_KNOCKING:
            self.log.append("a connection was turned away: too many are waiting to join")
            await self._turn_away(ws, "busy: too many connections are waiting to join")
            return ws
        self._knocking += 1
        try:
            first = await asyncio.wait_for(ws.receive(), JOIN_SECONDS)
        except TimeoutError:
            await self._turn_away(ws, "no-code: no room code came")
            return ws
        finally:
            self._knocking -= 1
        if first.type is not WSMsgType.TEXT:
            await self._turn_away(ws, "not-join: the first message must be a join")
            return ws
        try:
            hello = parse(first.data)
            if hello.type != "join":
                raise ProtocolError(N_("the first message must be a join"), "not-join")
        except ProtocolError as exc:
            self.log.append(f"a connection: {exc}")  # (logged only: no code, no guest)
            await self._turn_away(ws, exc.wire())
            return ws
        if not same_code(hello.get("code", ""), self.code):
            self.wrong_codes += 1
            self.refuse(
                _("A wrong room code was given ({n} of {most}).").format(
                    n=self.wrong_codes, most=MAX_WRONG_CODES
                )
            )
            if self.wrong_codes >= MAX_WRONG_CODES:
                self.accepting = False
                self.emit(Info(_("Too many wrong codes: this game takes no more guests.")))
            await self._turn_away(ws, "wrong-code: wrong room code")
            return ws
        if self.guest is not None and not self.guest.closed:
            self.refuse(_("A second guest was turned away: a guest is playing."))
            await self._turn_away(ws, "guest-playing: a guest is playing this game already")
            return ws
        if not self.joined:
            name = clean(hello.get("name", ""), MAX_NAME) or self.remote.name
            self.remote.name = name
            self.remote.program = bool(hello.get("program"))
            self.joined = True
        await self._serve(ws)
        return ws

    async def _turn_away(self, ws: web.WebSocketResponse, text: str) -> None:
        """Refuse a connection with ``text``: a reason code, then an English line."""
        with contextlib.suppress(Exception):
            await ws.send_str(encode("refused", text=text))
            await ws.close()

    async def _serve(self, ws: web.WebSocketResponse) -> None:
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.guest = ws
        back = self.away_since is not None
        self.away_since = None
        queue.put_nowait(encode("welcome", **self.welcome()))
        queue.put_nowait(encode("state", **state_fields(self.session)))
        self.attach(queue)
        self.emit(PeerJoined(self.remote.name, again=back))
        writer = asyncio.create_task(self._write(ws, queue))
        limit = RateLimit(self.now())
        try:
            async for frame in ws:
                if frame.type is WSMsgType.TEXT:
                    if not limit.take(self.now()) and not self.move_due(frame.data, "move"):
                        if limit.refused == 1:
                            self.refuse(_("The guest sends too many messages: some were dropped."))
                        if limit.refused >= FLOOD_REFUSALS:
                            self.refuse(_("The guest flooded the game: its connection is closed."))
                            break
                        continue
                    try:
                        message = parse(frame.data)
                    except ProtocolError as exc:
                        self.refused(exc)
                        self.send("refused", text=exc.wire())
                        continue
                    self.received(message)
                elif frame.type is WSMsgType.BINARY:
                    self.refuse(_("A binary message was refused."))
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

    async def _write(self, ws: web.WebSocketResponse, queue: asyncio.Queue[str | None]) -> None:
        while True:
            text = await queue.get()
            try:
                if text is None or ws.closed:
                    return
                await ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
            finally:
                queue.task_done()

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
            now = self.now()
            if now - self._state_at >= 1.0:  # (at most once a second: no flood of states)
                self._state_at = now
                self.send_state()  # (the guest's copy goes back to the game)
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


class Host:
    """The web app of one hosted game and its listening socket."""

    def __init__(self, link: HostLink) -> None:
        self.link = link
        self.app = web.Application(client_max_size=MAX_MESSAGE)
        self.app.router.add_get("/ws", link.handle)
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, bind: str, port: int) -> int:
        """Listen on ``bind``:``port`` (0: a free port); the port."""
        self.runner = web.AppRunner(self.app, handle_signals=False, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, bind, port)
        await site.start()
        server = site._server  # (aiohttp keeps the sockets there)
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1]) if sockets else port
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
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


__all__ = ["Host", "HostLink", "lan_address", "state_fields"]
