"""``shashki dxp``: shashki's engine (or a Hub engine behind it) as a DXP follower.

It listens on a TCP port (127.0.0.1:27531 unless told otherwise); an initiator (Scan,
Kingsrow, Moby Dam, pydraughts' DXP client, another shashki) connects, asks for a game
(GAMEREQ) and the two play it over the connection (see :mod:`shashki.hub.dxp`), as many
games one after the other as the initiator asks for.  Up to :data:`MOST_PEERS`
connections are served at once, each with a player of its own (made by the caller's
``make_player``); more are closed at once.

Whatever a peer sends, the server goes on: garbage, a message too long, a flood, a move
that is not legal, silence past :data:`IDLE_SECONDS` or a peer that leaves mid-game each
end that connection with one line said (and a game in progress is kept, unfinished, in
the PDN file when there is one), never the server.  A peer names a game; it never names a
file or a program.
"""

from __future__ import annotations

import contextlib
import math
import socket
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..base.numbers import one_line
from ..engine.hub.errors import EngineError
from ..engine.hub.transport import EngineLog, engine_log
from ..engine.limits import Limit
from ..i18n import N_, _
from ..rules import Game, Move
from ..rules.move import Color
from ..rules.variant import Variant
from ..session.driver import InlineExecutor
from ..session.game import Event, GameSession, MovePlayed, OnFailure, SeatFailed, Thinking
from ..session.players import Cancelled, Player, PlayerFailed
from ..session.recorder import Recorder
from .dxp import (
    ACCEPTED,
    DRAW,
    I_LOSE,
    I_WIN,
    NOT_THIS_GAME,
    UNKNOWN,
    WRONG_VERSION,
    BackAccept,
    BackRequest,
    Chat,
    DxpError,
    DxpPeer,
    GameAccept,
    GameEnd,
    GameRequest,
    MoveMessage,
    find_dxp_move,
    game_at,
    move_message,
)

if TYPE_CHECKING:
    from ..store.storage import GameLog

#: Connections served at once.
MOST_PEERS = 4
#: Seconds a peer may stay silent while the server waits for it (between two games too).
IDLE_SECONDS = 3600.0
#: The name the server gives in GAMEACC.
OUR_NAME = "shashki"

#: Who hears what happens (one line each, said in the language spoken).
Say = Callable[[str], None]


class _Initiator(Player):
    """The initiator's side of a DXP game: its moves come over the connection, never
    from the session's driver."""

    is_human = False

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def thinks(self) -> bool:
        return False


class _Watched(Player):
    """The follower's player in one game: its search is given up as soon as the
    initiator leaves (the driver runs it on the connection's own thread)."""

    def __init__(self, player: Player, peer: DxpPeer, gone: Callable[[], None]) -> None:
        self.player, self.peer = player, peer
        self.name = player.name
        self.is_human = player.is_human
        #: Called when the initiator left during the search: the game is left unfinished
        #: (the session closed, the cut search's answer dropped), never scored a loss of
        #: the engine's.
        self.gone = gone

    @property
    def thinks(self) -> bool:
        return self.player.thinks

    def start(self, variant: Variant) -> None:
        self.player.start(variant)

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        peer = self.peer
        move = self.player.think(game, limit, lambda: cancelled() or not peer.alive)
        if not peer.alive:
            self.gone()
        return move

    def shown_name(self) -> str:
        return self.player.shown_name()


class FollowerGame:
    """One connection: the games an initiator asks for, played by ``player``.

    Each game is a :class:`~shashki.session.GameSession` driven on the connection's
    thread (the one turn driver, with :class:`~shashki.session.InlineExecutor`): the
    initiator's moves are played on it, the session asks ``player`` for its moves, starts
    it, and scores a player that fails a loss by forfeit."""

    def __init__(
        self,
        peer: DxpPeer,
        player: Player,
        variant: Variant,
        say: Say,
        *,
        log: GameLog | None = None,
        idle: float = IDLE_SECONDS,
        stopping: threading.Event | None = None,
    ) -> None:
        self.peer = peer
        self.player = player
        self.variant = variant
        self.say = say
        self.log = log
        self.idle = idle
        self.stopping = stopping or threading.Event()
        self.opponent = "?"
        self.session: GameSession | None = None
        #: The recorder appending the game in progress to ``log``.
        self.recorder: Recorder | None = None
        self.side = Color.WHITE
        #: Seconds left to the engine for the game (None: no time given).
        self.left: float | None = None
        self.games = 0
        #: The engine said the game is over (GAMEEND sent) and awaits the answer.
        self.ending = False
        #: When the driver last asked the engine for its move.
        self._asked = 0.0
        #: What went wrong inside the session's events (raised once its call returns).
        self._error: DxpError | PlayerFailed | None = None

    @property
    def game(self) -> Game | None:
        """The game in progress (None: none)."""
        return self.session.game if self.session is not None else None

    # -- the loop

    def run(self) -> None:
        """Serve the connection until the peer stops, leaves or fails (one line said)."""
        try:
            while not self.stopping.is_set():
                message = self.peer.receive(self.idle, self.stopping.is_set)
                if message is None:
                    break
                if not self.handle(message):
                    break
        except DxpError as exc:
            self.say(_("DXP {peer}: {reason}").format(peer=self.peer.address, reason=exc.said()))
        except PlayerFailed as exc:
            self.say(_("DXP {peer}: {reason}").format(peer=self.peer.address, reason=exc.said))
            with contextlib.suppress(DxpError):
                self.peer.send(GameEnd(UNKNOWN, True))
        finally:
            if self.session is not None:
                self.keep(None)
            self.peer.close()
            self.player.close()

    def handle(self, message: object) -> bool:
        """Answer one message; False when the connection is to end."""
        match message:
            case GameRequest():
                self.request(message)
            case MoveMessage():
                session = self.session
                if session is None or session.game.turn is self.side:
                    raise _out_of_turn(self.peer)
                if not session.play(find_dxp_move(session.game, message)):
                    raise _out_of_turn(self.peer)  # (the game had ended)
                self.after_move()
            case GameEnd():
                if self.session is not None:
                    if not self.ending:  # (its own end, not the answer to ours)
                        self.peer.send(GameEnd(UNKNOWN, message.stop))
                    self.keep(message.reason)
                return not message.stop
            case Chat():
                self.say(
                    _("DXP {peer} says: {text}").format(
                        peer=self.opponent, text=one_line(message.text, 120)
                    )
                )
            case BackRequest():
                self.back(message)
            case GameAccept() | BackAccept():
                pass  # (an answer to nothing we asked: passed over)
        return True

    def request(self, request: GameRequest) -> None:
        if self.session is not None:  # a new request ends the game in progress
            self.keep(None)
        self.opponent = one_line(request.name, 32) or "?"
        if request.version != 1:
            self.peer.send(GameAccept(OUR_NAME, WRONG_VERSION))
            return
        try:
            game = game_at(self.variant, request.position)
        except DxpError as exc:
            self.say(_("DXP {peer}: {reason}").format(peer=self.peer.address, reason=exc.said()))
            self.peer.send(GameAccept(OUR_NAME, NOT_THIS_GAME))
            return
        if game.is_over():
            self.peer.send(GameAccept(OUR_NAME, NOT_THIS_GAME))
            return
        self.side = Color.WHITE if request.follower_white else Color.BLACK
        self.left = request.minutes * 60.0 if request.minutes else None
        ours: Player = _Watched(self.player, self.peer, self._gone)
        theirs = _Initiator(self.opponent)
        session = GameSession(
            game,
            (ours, theirs) if self.side is Color.WHITE else (theirs, ours),
            limit=self._limit(),
            on_failure=OnFailure.LOSE,
        )
        session.subscribe(self._event)
        if self.log is not None:
            session.retag(headers={"Event": "shashki dxp", "Date": time.strftime("%Y.%m.%d")})
            self.recorder = Recorder(
                session, log=self.log, on_log_failure=self.say, log_unfinished=True
            )
        self.session = session
        self.ending = False
        self.peer.send(GameAccept(OUR_NAME, ACCEPTED))
        self.games += 1
        if self.side is Color.WHITE:
            text = _("DXP {peer}: game {n} against {name}, shashki plays white")
        else:
            text = _("DXP {peer}: game {n} against {name}, shashki plays black")
        self.say(text.format(peer=self.peer.address, n=self.games, name=self.opponent))
        session.start(InlineExecutor())  # (the engine started, and asked if it is to move)
        self.after_move()

    def _gone(self) -> None:
        """The initiator left while the engine searched: the session stops (the search's
        answer, cut short, is dropped, not taken for a failure of the engine's)."""
        if self.session is not None:
            self.session.close()

    def _limit(self) -> Limit:
        return Limit(left=self.left) if self.left is not None else Limit()

    def _event(self, event: Event) -> None:
        """The session's word: the engine's move goes to the peer with its time; a
        player that failed ends the connection (once the session's call returns)."""
        if isinstance(event, Thinking):
            self._asked = time.monotonic()
        elif isinstance(event, MovePlayed) and event.side is self.side:
            used = time.monotonic() - self._asked
            if self.left is not None:
                self.left = max(0.0, self.left - used)
            if self.session is not None:
                self.session.limit = self._limit()
            try:
                self.peer.send(move_message(self.session_game(), event.move, math.ceil(used)))
            except DxpError as exc:
                self._error = self._error or exc
        elif isinstance(event, SeatFailed) and event.side is self.side:
            failure: DxpError | PlayerFailed = (
                PlayerFailed(event.message, event.message) if self.peer.alive else _left(self.peer)
            )
            self._error = self._error or failure

    def session_game(self) -> Game:
        assert self.session is not None
        return self.session.game

    def after_move(self) -> None:
        """After the session's call: what went wrong in it raised; the end said when the
        game is over."""
        error, self._error = self._error, None
        if error is not None:
            raise error
        game = self.game
        if game is not None and game.is_over():
            self.finished()

    def finished(self) -> None:
        """The game is over by the rules: when the engine is to move it says so
        (GAMEEND, as it sees the game); else the peer is to move and will."""
        game = self.game
        assert game is not None
        outcome = game.outcome()
        if game.turn is self.side and outcome is not None and not self.ending:
            reason = (
                DRAW
                if outcome.winner is None
                else (I_WIN if outcome.winner is self.side else I_LOSE)
            )
            self.peer.send(GameEnd(reason, False))
            self.ending = True

    def back(self, request: BackRequest) -> None:
        """Go back to the move a BACKREQ names, if the game has it."""
        session = self.session
        if session is None:
            self.peer.send(BackAccept(1))
            return
        game = session.game
        start = game.ply - len(game.move_stack)
        target = (request.number - 1) * 2 + (0 if request.white else 1)
        steps = game.ply - target
        if not 0 <= steps <= len(game.move_stack) or target < start:
            self.peer.send(BackAccept(1))
            return
        self.peer.send(BackAccept(0))
        # (the engine, to move again, is asked by the session's driver at once)
        session.set_moves(game.move_stack[: len(game.move_stack) - steps])
        self.after_move()

    def keep(self, reason: int | None) -> None:
        """The game is over (or left): the peer's word on it (``reason``, GAMEEND's as
        the peer sees it; None: no word) given to the session when the rules have not
        ended it — the peer resigning, both agreeing a draw, shashki's side conceding a
        win the peer claims —, said, and the recorder closed (it appends the game, an
        unfinished one as far as it went)."""
        session, self.session = self.session, None
        recorder, self.recorder = self.recorder, None
        if session is None:
            return
        peer = Color(1 - self.side)
        if session.outcome is None:
            if reason == I_LOSE:
                session.resign(peer)
            elif reason == I_WIN:
                session.resign(self.side)
            elif reason == DRAW:
                session.answer_draw(True)
        outcome = session.outcome
        result = outcome.result() if outcome is not None else "*"
        self.say(
            _("DXP {peer}: game {n} against {name} ended ({result})").format(
                peer=self.peer.address, n=self.games, name=self.opponent, result=result
            )
        )
        if recorder is not None:
            recorder.close()


def _log() -> EngineLog | None:
    try:
        return engine_log()
    except EngineError:
        return None


def _out_of_turn(peer: DxpPeer) -> DxpError:
    return DxpError(N_("the DXP peer {peer} moved out of turn"), peer=peer.address)


def _left(peer: DxpPeer) -> DxpError:
    return DxpError(N_("the DXP peer {peer} left"), peer=peer.address)


class DxpServer:
    """Listens for initiators and serves each connection in a thread of its own."""

    def __init__(
        self,
        make_player: Callable[[], Player],
        variant: Variant,
        say: Say,
        *,
        host: str = "127.0.0.1",
        port: int = 27531,
        log: GameLog | None = None,
        idle: float = IDLE_SECONDS,
    ) -> None:
        self.make_player = make_player
        self.variant = variant
        self.say = say
        #: Where every game is appended (one file for every connection).
        self.log = log
        self.idle = idle
        self.stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _name, address = infos[0]
        self.sock = socket.socket(family, kind, proto)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind(address)
            self.sock.listen(MOST_PEERS)
        except OSError:
            self.sock.close()
            raise
        self.address = self.sock.getsockname()[:2]

    def serve(self) -> None:
        """Serve until :meth:`stop` (or Ctrl+C in the caller)."""
        self.sock.settimeout(0.2)
        while not self.stopping.is_set():
            try:
                conn, _addr = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                if self.stopping.is_set():
                    break
                continue
            self._threads = [t for t in self._threads if t.is_alive()]
            if len(self._threads) >= MOST_PEERS:
                with contextlib.suppress(OSError):
                    conn.close()
                self.say(
                    _("DXP: a connection refused, {n} games are being played").format(n=MOST_PEERS)
                )
                continue
            thread = threading.Thread(target=self._serve_one, args=(conn,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve_one(self, conn: socket.socket) -> None:
        try:
            peer = DxpPeer(conn, log=_log())
        except OSError:
            return
        self.say(_("DXP: {peer} connected").format(peer=peer.address))
        try:
            player = self.make_player()
        except PlayerFailed as exc:
            self.say(exc.said)
            peer.close()
            return
        FollowerGame(
            peer,
            player,
            self.variant,
            self.say,
            log=self.log,
            idle=self.idle,
            stopping=self.stopping,
        ).run()
        self.say(_("DXP: {peer} disconnected").format(peer=peer.address))

    def stop(self) -> None:
        self.stopping.set()
        with contextlib.suppress(OSError):
            self.sock.close()
        for thread in self._threads:
            thread.join(timeout=5)


__all__ = ["IDLE_SECONDS", "MOST_PEERS", "DxpServer", "FollowerGame"]
