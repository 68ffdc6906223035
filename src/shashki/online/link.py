"""What the host and the guest share: one game session seen from one side, its
messages to the peer, and what the peer's messages do to it.

A :class:`Link` subscribes to its :class:`~shashki.session.GameSession`: a move of the
local side, a draw offer, the end are sent to the peer.  The peer's messages arrive on
the asyncio loop's thread (:meth:`Link.received`); every action on the session happens
there too (a front end calls the link's methods on that thread: Textual's, or the
loop of ``shashki host --auto``).  What the front end should show or ask comes as a
typed event (:mod:`shashki.online.events`) to each subscriber.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from ..base.logs import package_logger
from ..i18n import N_, _
from ..rules import Color, Game, Move, ShashkiError
from ..session.game import DrawOffered, Event, GameEnded, GameSession, MovePlayed, UndoPolicy
from .events import (
    ChatLine,
    DrawOffer,
    LinkEvent,
    PeerMoved,
    Refused,
    TakebackRequest,
)
from .player import RemotePlayer
from .protocol import CLAIM_AFTER, MAX_CHAT, Message, ProtocolError, clean, encode
from .seal import SealedLine

logger = package_logger(__name__)

#: Refusals kept in a link's log (the newest).
LOG_LINES = 200


class LinkLog(deque[str]):
    """What a link refused or turned away, the newest :data:`LOG_LINES` (shown by the
    front end); each line is told to the log (``shashki.online``) too."""

    def __init__(self) -> None:
        super().__init__(maxlen=LOG_LINES)

    def append(self, line: str) -> None:
        logger.warning("online: %s", line)
        super().append(line)


#: Messages waiting to be sent to a slow peer before the connection is given up.
MAX_QUEUED = 512


class Socket(Protocol):
    """What a writer needs of a WebSocket (aiohttp's server side and client side)."""

    @property
    def closed(self) -> bool: ...

    async def send_bytes(self, data: bytes) -> None: ...

    async def close(self) -> bool: ...


async def write_sealed(ws: Socket, line: SealedLine, queue: asyncio.Queue[str | None]) -> None:
    """Send what ``queue`` gives, each message sealed in turn (one writer a connection:
    the order sealed is the order sent), until None; then close the connection."""
    while True:
        text = await queue.get()
        try:
            if text is None or ws.closed:
                with contextlib.suppress(Exception):
                    await ws.close()
                return
            await ws.send_bytes(line.seal(text))
        except (ConnectionError, RuntimeError, OSError):
            return
        except Exception:  # (aiohttp's client errors: the connection is gone)
            return
        finally:
            queue.task_done()


def move_before(game: Game, move: Move) -> str:
    """The text of ``move``, the last move of ``game`` (full: every landing square)."""
    before = game.copy()
    before.pop()
    return before.move_text(move, full=True)


def online_headers(site: str, day: str | None = None) -> dict[str, str]:
    """The record's tags of an online game (both sides write the same)."""
    return {
        "Event": "shashki online game",
        "Site": f"online {site}".strip(),
        "Date": day or date.today().strftime("%Y.%m.%d"),
        "Round": "-",
    }


def side_word(side: Color) -> str:
    return "white" if side is Color.WHITE else "black"


def plies_back(game: Game, side: Color) -> int:
    """How many plies a takeback asked by ``side`` takes: back to before its last
    move (0: it has played none)."""
    history = game.history()
    for i in range(len(history) - 1, -1, -1):
        if history[i][0] is side:
            return len(history) - i
    return 0


#: The chat lines a link keeps (both sides'), the oldest dropped first.
CHAT_HISTORY = 200


@dataclass(frozen=True)
class ChatEntry:
    """A line of the chat: said here (``mine``) or by the peer ``name``; cleaned (one
    line of plain text, at most ``MAX_CHAT`` characters)."""

    mine: bool
    name: str
    line: str


class Link:
    """One side of an online game."""

    def __init__(
        self,
        session: GameSession,
        side: Color,
        remote: RemotePlayer,
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        #: The side played here.
        self.side = side
        self.remote = remote
        self.now = now
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: list[Callable[[LinkEvent], None]] = []
        #: Every refusal, newest last (bounded).
        self.log: LinkLog = LinkLog()
        #: Whether takebacks may be asked (the host's setting).
        self.takebacks = session.undo_policy is not UndoPolicy.OFF
        #: A takeback this side asked and the peer has not answered.
        self.asked_takeback = False
        #: A takeback the peer asked and this side has not answered.
        self.peer_takeback = False
        self._queue: asyncio.Queue[str | None] | None = None
        self._offering = False  # (a draw offer of the peer's being recorded)
        #: The game ended here: the front end was told.
        self.closed = False
        #: Since when the peer is away (None: connected, or never came).
        self.away_since: float | None = None
        #: The chat so far, both sides' lines, the newest last (bounded).
        self.chat_log: deque[ChatEntry] = deque(maxlen=CHAT_HISTORY)
        session.subscribe(self._event)

    # -- the front end -------------------------------------------------------------------

    def subscribe(self, listener: Callable[[LinkEvent], None]) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; the function returned stops it."""
        self._subscribers.append(listener)

        def unsubscribe() -> None:
            if listener in self._subscribers:
                self._subscribers.remove(listener)

        return unsubscribe

    def emit(self, event: LinkEvent) -> None:
        if isinstance(event, Refused):
            self.log.append(event.reason)
        for listener in list(self._subscribers):
            listener(event)

    @property
    def peer_side(self) -> Color:
        return Color(1 - self.side)

    # -- sending -------------------------------------------------------------------------

    def attach(self, queue: asyncio.Queue[str | None] | None) -> None:
        """Messages go to ``queue`` from now on (a connection's writer); None: to nobody
        (the peer is away: what it missed comes back in a state when it returns)."""
        self._queue = queue
        self.remote.present = queue is not None
        if self.loop is None:
            self.loop = asyncio.get_running_loop()

    def send(self, type_: str, **fields: Any) -> None:
        """Send a message to the peer (from any thread); dropped while it is away."""
        text = encode(type_, **fields)
        loop = self.loop
        if loop is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._put(text)
        else:
            loop.call_soon_threadsafe(self._put, text)

    def _put(self, text: str) -> None:
        queue = self._queue
        if queue is None:
            return
        if queue.qsize() >= MAX_QUEUED:
            self.log.append("the peer does not read its messages: its connection is closed")
            queue.put_nowait(None)  # (the writer stops: the peer may come back)
            self._queue = None
            return
        queue.put_nowait(text)

    # -- the session's events --------------------------------------------------------------

    def _event(self, event: Event) -> None:
        if isinstance(event, MovePlayed):
            self.local_moved(event)
        elif isinstance(event, DrawOffered) and event.side is self.side and not self._offering:
            self.send("draw")
        elif isinstance(event, GameEnded):
            self.game_ended()

    def local_moved(self, event: MovePlayed) -> None:
        """A move was played on this side's session (sent as each side's protocol says)."""

    def game_ended(self) -> None:
        """The game ended on this side's session."""

    def clocks(self) -> list[float] | None:
        clock = self.session.clock
        if clock is None:
            return None
        return [round(clock.left(Color.WHITE), 3), round(clock.left(Color.BLACK), 3)]

    # -- the front end's actions (on the loop's thread) --------------------------------------

    def chat(self, text: str) -> str:
        """Send a chat line (cleaned: one line, no escapes); the line as sent."""
        line = clean(text, MAX_CHAT)
        if line:
            self.send("chat", text=line)
            self.chat_log.append(ChatEntry(True, "", line))
        return line

    def offer_draw(self) -> bool:
        """Offer the peer a draw (False: the game is over, or an offer is waiting)."""
        session = self.session
        if session.outcome is not None or session.draw_offer is not None:
            return False
        session.offer_draw(self.side)  # (sent by the event)
        return True

    def ask_takeback(self) -> str | None:
        """Ask the peer to take back this side's last move; None when asked, else why not."""
        if not self.takebacks:
            return _("Takebacks are off in this game.")
        if self.session.timed_out():
            return _("A game lost on time cannot be taken back.")
        if plies_back(self.session.game, self.side) == 0:
            return _("Nothing to undo.")
        if self.asked_takeback:
            return _("Your takeback request is waiting for an answer.")
        self.asked_takeback = True
        self.send("takeback")
        return None

    def answer_draw(self, accept: bool) -> None:
        """This side's answer to the peer's draw offer."""

    def answer_takeback(self, accept: bool) -> None:
        """This side's answer to the peer's takeback request."""

    def resign(self) -> None:
        """This side resigns."""

    def away_for(self) -> float:
        """Seconds the peer has been away (0: here)."""
        return 0.0 if self.away_since is None else self.now() - self.away_since

    def claim(self) -> str | None:
        """Claim the game of a peer away for :data:`~.protocol.CLAIM_AFTER` seconds: it
        is recorded as the peer's having left the game (the rules' "abandoned"); None
        when the game is won, else why not (:meth:`why_no_claim`).  Each side claims on
        its own session: the host tells a guest who comes back (the game is over), a
        guest's claim is its own record of a game whose referee is gone."""
        why = self.why_no_claim()
        if why is None:
            self.session.abandon(self.peer_side)
        return why

    def why_no_claim(self) -> str | None:
        """Why the game of the peer cannot be claimed now (None: it can)."""
        if self.session.outcome is not None:
            return _("The game is over.")
        if self.away_since is None:
            return _("{name} is here: the game goes on.").format(name=self.remote.name)
        wait = CLAIM_AFTER - self.away_for()
        if wait > 0:
            return _("{name} has been away less than a minute: wait {n} s more.").format(
                name=self.remote.name, n=int(wait) + 1
            )
        return None

    def quit(self, text: str = "") -> None:
        """This side leaves the game: the peer is told."""
        self.send("bye", text=text or None)

    # -- the peer's messages -----------------------------------------------------------------

    def received(self, message: Message) -> None:
        """A checked message of the peer's (on the loop's thread); a message that cannot
        be taken is refused with one line in the log, the game going on."""
        handler = getattr(self, "on_" + message.type, None)
        try:
            if handler is None:
                raise ProtocolError(
                    N_("{kind} is not for this side"), "wrong-side", kind=message.type
                )
            handler(message)
        except ProtocolError as exc:
            self.refused(exc)

    def refuse(self, text: str) -> None:
        """A message of the peer's was refused (logged, shown; the game goes on): ``text``
        in the player's language."""
        self.emit(Refused(text))

    def refused(self, error: ProtocolError) -> None:
        """A message of the peer's was refused for ``error`` (said in the player's
        language; the host tells the guest too)."""
        self.refuse(error.local())

    def on_chat(self, message: Message) -> None:
        line = clean(message.get("text", ""), MAX_CHAT)
        if line:
            self.chat_log.append(ChatEntry(False, self.remote.name, line))
            self.emit(ChatLine(self.remote.name, line))

    def on_draw(self, message: Message) -> None:
        session = self.session
        if session.outcome is not None:
            raise ProtocolError(N_("draw offer: the game is over"), "game-over")
        if session.draw_offer is not None:
            raise ProtocolError(N_("draw offer: an offer is waiting already"), "draw-waiting")
        self._offering = True
        try:
            session.offer_draw(self.peer_side)
        finally:
            self._offering = False
        self.emit(DrawOffer())

    def on_takeback(self, message: Message) -> None:
        if not self.takebacks:
            self.send("takeback_answer", accept=False)
            raise ProtocolError(
                N_("takeback asked: takebacks are off in this game"), "no-takebacks"
            )
        if plies_back(self.session.game, self.peer_side) == 0 or self.session.timed_out():
            self.send("takeback_answer", accept=False)
            raise ProtocolError(
                N_("takeback asked: there is no move to take back"), "nothing-to-take-back"
            )
        if self.peer_takeback:
            raise ProtocolError(
                N_("takeback asked again before it was answered"), "takeback-waiting"
            )
        self.peer_takeback = True
        self.emit(TakebackRequest())

    def play_peer(self, move: Move, text: str) -> bool:
        """Play the peer's checked move on this side's session (its driver then asks this
        side's computer, if one plays); the front ends hear of it.  False when the
        session did not play it (the peer's flag fell first: the game ended on time)."""
        if not self.session.play(move):
            return False
        self.emit(PeerMoved(move, text))
        return True

    def parse_move(self, game: Game, text: str) -> Move:
        """The legal move ``text`` names in ``game``; raises ProtocolError."""
        try:
            return game.parse_move(text)
        except (ShashkiError, ValueError) as exc:
            raise ProtocolError(
                N_("move '{move}' refused: {reason}"),
                "illegal-move",
                move=clean(text, 40),
                reason=clean(str(exc), 120),
            ) from None


__all__ = [
    "CHAT_HISTORY",
    "ChatEntry",
    "Link",
    "move_before",
    "online_headers",
    "plies_back",
    "side_word",
]
