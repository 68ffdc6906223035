"""DXP, the DamExchange protocol: two draughts programs playing over a TCP connection.

One program, the **initiator**, connects (or is connected to) and asks for a game with a
``GAMEREQ`` message; the other, the **follower**, answers ``GAMEACC`` and the two send
each other their moves (``MOVE``) strictly in turn until one sends ``GAMEEND``, which the
other confirms with a ``GAMEEND`` of its own.  ``CHAT`` may come at any time;
``BACKREQ``/``BACKACC`` take moves back.  Every message is ASCII text of 1 to
:data:`MAX_MESSAGE` characters ended by a NUL byte, its first letter naming it, its
fields of fixed width (numbers padded with zeros, names with blanks to 32):

======= =========== ==================================================================
letter  message     fields after the letter
======= =========== ==================================================================
``R``   GAMEREQ     version ``01``, the initiator's name (32), the follower's colour
                    ``W``/``Z`` (Z: black), minutes for the game (3), moves in the
                    game (3, ``000``: no limit), ``A`` (the start position) or ``B``
                    + the side to move + one letter a square (``e w z W Z``)
``A``   GAMEACC     the follower's name (32), a code: ``0`` accepted, ``1`` not this
                    version, ``2`` not this game, ``3`` no game at all
``M``   MOVE        seconds used (4), from (2), to (2), the number captured (2), each
                    captured square (2)
``E``   GAMEEND     a reason (``0`` none, ``1`` I lose, ``2`` a draw, ``3`` I win), a
                    stop code (``0`` another game may follow, ``1`` none)
``C``   CHAT        free text
``B``   BACKREQ     the move number (3), the side to move then (``W``/``Z``)
``K``   BACKACC     a code (``0`` accepted)
======= =========== ==================================================================

This module holds the messages (:func:`parse_message`, :func:`message_text`), the
positions and moves as DXP writes them, and :class:`DxpPeer`, one connection: it reads
the peer's messages in a thread of its own (a message longer than :data:`MAX_MESSAGE`,
a byte that is not ASCII, a message that cannot be read, a flood of messages between two
moves, and the peer's silence past a deadline each end the connection with one line of
:class:`DxpError`), and writes its traffic to the engine log like a Hub engine's.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..base.numbers import one_line, quoted
from ..engine.hub.errors import EngineError
from ..engine.hub.text import HubError, exact_position_text, find_move, parse_position
from ..engine.hub.transport import EngineLog, SocketTransport, _TooLong, engine_log
from ..i18n import N_
from ..rules import Game, Move
from ..rules.variant import Variant

#: The DXP port engines listen on unless told otherwise.
DEFAULT_PORT = 27531
#: The most characters of one message (the NUL that ends it not counted).
MAX_MESSAGE = 127
#: The width of a program's name in GAMEREQ and GAMEACC.
NAME_WIDTH = 32
#: The most messages a peer may send that are not a move, a game request or the end of a
#: game (chat, a request to go back), between two of those: more is a flood.
MAX_CHATTER = 200
#: Seconds a connection may take to be made.
CONNECT_TIMEOUT = 10.0

#: The codes of GAMEACC.
ACCEPTED, WRONG_VERSION, NOT_THIS_GAME, NO_GAME = 0, 1, 2, 3
#: The reasons of GAMEEND, as the sender sees the game.
UNKNOWN, I_LOSE, DRAW, I_WIN = 0, 1, 2, 3


class DxpError(EngineError):
    """A DXP peer that cannot be played with: it left, fell silent, or sent something
    that is not DXP or not legal (one line; ``said()`` in the language spoken)."""


@dataclass(frozen=True)
class GameRequest:
    """GAMEREQ: the initiator's ``name``, whether the follower plays white, the
    ``minutes`` of each side for the game, the ``moves`` of the game (0: no limit) and
    the start: None for the standard one, else ``W``/``Z`` and a letter a square."""

    name: str
    follower_white: bool
    minutes: int
    moves: int
    position: str | None = None
    version: int = 1


@dataclass(frozen=True)
class GameAccept:
    """GAMEACC: the follower's ``name`` and its ``code`` (:data:`ACCEPTED`…)."""

    name: str
    code: int


@dataclass(frozen=True)
class MoveMessage:
    """MOVE: the ``seconds`` the mover used, the squares ``start``, ``end`` and the
    ``captured`` ones, by their numbers."""

    seconds: int
    start: int
    end: int
    captured: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameEnd:
    """GAMEEND: the ``reason`` as the sender sees it (:data:`UNKNOWN`…) and whether
    it wants no other game (``stop``)."""

    reason: int
    stop: bool


@dataclass(frozen=True)
class Chat:
    """CHAT: free text."""

    text: str


@dataclass(frozen=True)
class BackRequest:
    """BACKREQ: go back to the position of move ``number`` with ``white`` to move."""

    number: int
    white: bool


@dataclass(frozen=True)
class BackAccept:
    """BACKACC: the answer's ``code`` (0: accepted)."""

    code: int


Message = GameRequest | GameAccept | MoveMessage | GameEnd | Chat | BackRequest | BackAccept


def _bad(text: str, why: str) -> DxpError:
    return DxpError(
        N_("the DXP peer sent {message}, which is not DXP: {why}"),
        message=quoted(text, 60),
        why=why,
    )


def _number(text: str, field: str, whole: str) -> int:
    if len(text) == 0 or not text.isdigit() or not text.isascii():
        raise _bad(whole, f"{field} {quoted(text, 10)} is not a number")
    return int(text)


def parse_message(text: str) -> Message:
    """The message ``text`` (without its NUL); raises DxpError in one line."""
    if not text:
        raise _bad(text, "an empty message")
    if len(text) > MAX_MESSAGE:
        raise _bad(text, f"longer than {MAX_MESSAGE} characters")
    if not all(32 <= ord(c) < 127 for c in text):
        raise _bad(text, "characters that are not printable ASCII")
    head, body = text[0], text[1:]
    if head == "R":
        if len(body) not in (42, 93):
            raise _bad(text, "a GAMEREQ has 43 or 94 characters")
        version = _number(body[0:2], "the version", text)
        name = body[2:34].strip()
        colour = body[34]
        if colour not in "WZ":
            raise _bad(text, "the follower's colour is W or Z")
        minutes = _number(body[35:38], "the time", text)
        moves = _number(body[38:41], "the moves", text)
        start = body[41]
        if start == "A" and len(body) == 42:
            return GameRequest(name, colour == "W", minutes, moves, None, version)
        if start == "B" and len(body) == 93:
            position = body[42:]
            if position[0] not in "WZ" or any(c not in "ewzWZ" for c in position[1:]):
                raise _bad(text, "a position is W or Z, then e, w, z, W or Z a square")
            return GameRequest(name, colour == "W", minutes, moves, position, version)
        raise _bad(text, "the start is A, or B and a position")
    if head == "A":
        if len(body) != NAME_WIDTH + 1:
            raise _bad(text, "a GAMEACC has 34 characters")
        return GameAccept(body[:NAME_WIDTH].strip(), _number(body[-1], "the code", text))
    if head == "M":
        if len(body) < 10 or len(body) % 2:
            raise _bad(text, "a MOVE has 11 characters and 2 more for each piece captured")
        count = _number(body[8:10], "the number captured", text)
        if len(body) != 10 + 2 * count:
            raise _bad(text, f"{count} pieces captured need {11 + 2 * count} characters")
        captured = tuple(
            _number(body[10 + 2 * i : 12 + 2 * i], "a captured square", text) for i in range(count)
        )
        return MoveMessage(
            _number(body[0:4], "the time", text),
            _number(body[4:6], "the start", text),
            _number(body[6:8], "the end", text),
            captured,
        )
    if head == "E":
        if len(body) != 2 or body[0] not in "0123" or body[1] not in "01":
            raise _bad(text, "a GAMEEND is E, a reason 0-3 and a stop code 0 or 1")
        return GameEnd(int(body[0]), body[1] == "1")
    if head == "C":
        return Chat(body)
    if head == "B":
        if len(body) != 4 or body[3] not in "WZ":
            raise _bad(text, "a BACKREQ is B, a move number (3) and W or Z")
        return BackRequest(_number(body[0:3], "the move number", text), body[3] == "W")
    if head == "K":
        if len(body) != 1:
            raise _bad(text, "a BACKACC is K and a code")
        return BackAccept(_number(body, "the code", text))
    raise _bad(text, f"no DXP message starts with {quoted(head)}")


def _name(name: str) -> str:
    """A program's name as a field: printable ASCII, 32 wide, never starting blank."""
    plain = "".join(c if 32 <= ord(c) < 127 else "?" for c in one_line(name, 200)).strip()
    return (plain or "shashki")[:NAME_WIDTH].ljust(NAME_WIDTH)


def message_text(message: Message) -> str:
    """The text of ``message`` (without its NUL)."""
    match message:
        case GameRequest():
            start = "A" if message.position is None else "B" + message.position
            return (
                f"R{message.version:02d}{_name(message.name)}"
                f"{'W' if message.follower_white else 'Z'}"
                f"{min(message.minutes, 999):03d}{min(message.moves, 999):03d}{start}"
            )
        case GameAccept():
            return f"A{_name(message.name)}{message.code}"
        case MoveMessage():
            captured = "".join(f"{n:02d}" for n in message.captured)
            return (
                f"M{min(message.seconds, 9999):04d}{message.start:02d}{message.end:02d}"
                f"{len(message.captured):02d}{captured}"
            )
        case GameEnd():
            return f"E{message.reason}{int(message.stop)}"
        case Chat():
            plain = "".join(c if 32 <= ord(c) < 127 else "?" for c in one_line(message.text, 500))
            return ("C" + plain)[:MAX_MESSAGE]
        case BackRequest():
            return f"B{min(message.number, 999):03d}{'W' if message.white else 'Z'}"
        case BackAccept():
            return f"K{message.code}"
    raise TypeError(message)


# -- positions and moves --------------------------------------------------------------


def fits(variant: Variant) -> bool:
    """Whether DXP can carry games of ``variant``: squares numbered 1-99 and positions
    that a letter a square says whole (men and kings of two colours)."""
    return len(variant.board.by_number) - 1 <= 99 and exact_position_text(Game(variant)) is not None


def position_of(game: Game) -> str | None:
    """``game``'s position as GAMEREQ writes it (``W``/``Z``, then ``e w z W Z`` a
    square), or None when DXP cannot say it."""
    text = exact_position_text(game)
    if text is None:
        return None
    return ("W" if text[0] == "W" else "Z") + text[1:].replace("b", "z").replace("B", "Z")


def game_at(variant: Variant, position: str | None) -> Game:
    """The game at a GAMEREQ's start (None: the variant's own); raises DxpError."""
    if position is None:
        return Game(variant)
    hub = ("W" if position[0] == "W" else "B") + position[1:].replace("z", "b").replace("Z", "B")
    try:
        game = parse_position(variant, hub)
        game.legal_moves()
        return game
    except (HubError, ValueError) as exc:
        raise DxpError(
            N_("the DXP peer asked for a game from a position shashki cannot play: {why}"),
            why=one_line(str(exc), 120),
        ) from None


def move_message(game: Game, move: Move, seconds: float) -> MoveMessage:
    """The MOVE of ``move`` played in ``game`` after ``seconds``."""
    number = game.variant.board.number
    return MoveMessage(
        max(0, round(seconds)),
        number(move.start),
        number(move.end),
        tuple(sorted(number(sq) for sq in move.captured)),
    )


def find_dxp_move(game: Game, message: MoveMessage) -> Move:
    """The legal move of ``game`` a MOVE names; raises DxpError (one line) when none is."""
    squares = (message.start, message.end, *message.captured)
    text = "x".join(map(str, squares)) if message.captured else f"{squares[0]}-{squares[1]}"
    try:
        return find_move(game, text)
    except HubError:
        raise DxpError(
            N_("the DXP peer played {move}, which is not a legal move in {fen}"),
            move=text,
            fen=game.fen(),
        ) from None


# -- one connection -------------------------------------------------------------------


class DxpTransport(SocketTransport):
    """A TCP connection carrying DXP messages: ended by NUL, at most MAX_MESSAGE long."""

    END = b"\0"
    LONGEST = MAX_MESSAGE


class DxpPeer:
    """One DXP connection: messages sent and received, each wait bounded.

    Every failure (the peer gone, silent past a deadline, a message too long, garbage,
    a flood) raises :class:`DxpError` and cuts the connection."""

    def __init__(
        self, sock: socket.socket, *, name: str = "", log: EngineLog | None = None
    ) -> None:
        sock.settimeout(None)
        self.transport = DxpTransport(sock, name=name, log=log)
        self.address = self.transport.who
        #: The messages since the last move, request or end (see MAX_CHATTER).
        self._chatter = 0
        #: The chat the peer sent, the last few lines.
        self.chat: list[str] = []

    @classmethod
    def connect(cls, host: str, port: int, *, name: str = "") -> DxpPeer:
        """Connect to ``host``:``port``; raises DxpError in one line."""
        try:
            log = engine_log()
        except EngineError:
            log = None
        try:
            sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
        except (OSError, ValueError, OverflowError) as exc:
            raise DxpError(
                N_("cannot connect to the DXP engine at {address}: {reason}"),
                address=f"{host}:{port}",
                reason=one_line(getattr(exc, "strerror", None) or str(exc), 120),
            ) from None
        return cls(sock, name=name, log=log)

    @property
    def alive(self) -> bool:
        return self.transport.alive

    def send(self, message: Message) -> None:
        """Send ``message``; raises DxpError when the peer cannot take it."""
        try:
            self.transport.write_line(message_text(message))
        except (OSError, ValueError):
            self.close()
            raise DxpError(N_("the DXP peer {peer} left"), peer=self.address) from None

    def receive(
        self, timeout: float | None, cancelled: Callable[[], bool] | None = None
    ) -> Message | None:
        """The peer's next message; None when ``cancelled()`` turned true first.  Raises
        DxpError when the peer left, was silent ``timeout`` seconds (None: any time), or
        sent what is not DXP or too much."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if cancelled is not None and cancelled():
                return None
            wait = 0.1 if cancelled is not None else 1.0
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.close()
                    raise DxpError(
                        N_("the DXP peer {peer} sent nothing for {seconds} seconds"),
                        peer=self.address,
                        seconds=round(timeout or 0),
                    )
                wait = min(wait, left)
            try:
                item = self.transport.lines.get(timeout=wait)
            except queue.Empty:
                continue
            if item is None:
                self.close()
                raise DxpError(N_("the DXP peer {peer} left"), peer=self.address)
            if isinstance(item, _TooLong):
                self.close()
                raise DxpError(
                    N_("the DXP peer {peer} sent a message longer than {most} characters"),
                    peer=self.address,
                    most=MAX_MESSAGE,
                )
            try:
                message = parse_message(item)
            except DxpError:
                self.close()
                raise
            if isinstance(message, (Chat, BackRequest, BackAccept, GameAccept)):
                self._chatter += 1
                if self._chatter > MAX_CHATTER:
                    self.close()
                    raise DxpError(
                        N_("the DXP peer {peer} sent more than {most} messages without a move"),
                        peer=self.address,
                        most=MAX_CHATTER,
                    )
                if isinstance(message, Chat):
                    self.chat = [*self.chat[-9:], one_line(message.text, 120)]
            else:
                self._chatter = 0
            return message

    def pending(self) -> list[Message]:
        """The messages already received and not yet read, without waiting (those that
        cannot be read are left out; the end of the connection is kept for
        :meth:`receive`)."""
        out: list[Message] = []
        while True:
            try:
                item = self.transport.lines.get_nowait()
            except queue.Empty:
                return out
            if item is None or isinstance(item, _TooLong):
                with contextlib.suppress(queue.Full):
                    self.transport.lines.put_nowait(item)
                return out
            with contextlib.suppress(DxpError):
                out.append(parse_message(item))

    def close(self) -> None:
        self.transport.kill()


__all__ = [
    "ACCEPTED",
    "DEFAULT_PORT",
    "DRAW",
    "I_LOSE",
    "I_WIN",
    "MAX_MESSAGE",
    "NOT_THIS_GAME",
    "NO_GAME",
    "UNKNOWN",
    "WRONG_VERSION",
    "BackAccept",
    "BackRequest",
    "Chat",
    "DxpError",
    "DxpPeer",
    "GameAccept",
    "GameEnd",
    "GameRequest",
    "Message",
    "MoveMessage",
    "find_dxp_move",
    "fits",
    "game_at",
    "message_text",
    "move_message",
    "parse_message",
    "position_of",
]
