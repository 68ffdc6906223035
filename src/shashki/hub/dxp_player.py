"""A DXP engine as a :class:`~shashki.session.Player`: shashki connects to it and asks
for the game (the initiator; the engine, listening, is the follower).

A seat ``dxp:HOST:PORT`` (typed by the user, never read from a file) connects when the
game starts, sends GAMEREQ with the game's start, the engine's colour and the time, then
the moves of the other side as they are played; the engine's MOVE is the seat's move,
found among the legal moves of shashki's rules like anyone's.  When the game the session
holds is no longer the line the engine knows (a move taken back, a game resumed), the
engine is told the game is over (GAMEEND) and asked for a new one from the position now.
DXP carries no clock: the engine is told the minutes of the whole game in GAMEREQ (at
least one; the time per move times :data:`MOVES_GUESSED` when the game has no clock) and
may think as long as its own time lasts (with a time a move, :data:`SLOW_MOVES` times
that time at most), :data:`GRACE` seconds more; past that, or when
it leaves, sends what is not DXP or a move that is not legal, it fails (PlayerFailed).
"""

from __future__ import annotations

import math
import threading
import time

from ..base.numbers import one_line
from ..engine.limits import Limit
from ..i18n import N_
from ..rules import Game, Move
from ..rules.move import Color
from ..rules.variant import Variant
from ..session.players import Cancelled, Player, PlayerFailed
from .dxp import (
    ACCEPTED,
    DRAW,
    I_LOSE,
    I_WIN,
    UNKNOWN,
    BackRequest,
    DxpError,
    DxpPeer,
    GameAccept,
    GameEnd,
    GameRequest,
    MoveMessage,
    find_dxp_move,
    fits,
    move_message,
    position_of,
)

#: The moves a game is taken to last when the time is given per move.
MOVES_GUESSED = 40
#: Seconds the engine may take beyond its time, and to answer a GAMEREQ or a GAMEEND.
GRACE = 10.0
#: With a time a move, how many times that time the engine may take for one move (DXP
#: tells it only the time for the whole game).
SLOW_MOVES = 20
#: Seconds the engine has to say a game over when it is to move (then shashki says it).
END_WAIT = 2.0
#: The name shashki gives itself in GAMEREQ.
OUR_NAME = "shashki"


class DxpPlayer(Player):
    """A DXP engine at ``host``:``port`` playing one side (the follower)."""

    is_human = False

    def __init__(self, host: str, port: int, name: str = "", *, keep_open: bool = False) -> None:
        self.host, self.port = host, port
        self.name = name or f"dxp:{host}:{port}"
        self._named = bool(name)
        #: Keep the connection between games (a tournament's next game): an engine such
        #: as Scan takes one connection only.  :meth:`disconnect` ends it.
        self.keep_open = keep_open
        self.peer: DxpPeer | None = None
        #: The game the engine knows: the game's moves before its start (None: no game),
        #: the moves since, and the engine's side.
        self._prefix: list[Move] | None = None
        self._line: list[Move] = []
        self._side = Color.WHITE
        #: Seconds the engine may still think (its time for the game, less what it used).
        self._budget = 0.0
        self._lock = threading.Lock()

    # -- the connection

    def _fail(self, exc: DxpError) -> PlayerFailed:
        self._drop()
        return PlayerFailed(str(exc), exc.said())

    def _drop(self) -> None:
        if self.peer is not None:
            self.peer.close()
        self.peer = None
        self._prefix = None
        self._line = []

    def _connected(self) -> DxpPeer:
        if self.peer is None or not self.peer.alive:
            self._drop()
            self.peer = DxpPeer.connect(self.host, self.port, name=self.name)
        return self.peer

    def start(self, variant: Variant) -> None:
        """Connect (the game itself is asked for at the first move: its start and
        time are known then)."""
        if not fits(variant):
            exc = DxpError(N_("DXP cannot carry games of {variant}"), variant=variant)
            raise PlayerFailed(str(exc), exc.said())
        with self._lock:
            try:
                self._end_game(UNKNOWN)
                self._connected()
            except DxpError as exc:
                raise self._fail(exc) from None

    def get_ready(self, variant: Variant) -> bool:
        self.start(variant)
        return False

    def _end_game(self, reason: int, *, stop: bool = False, theirs_first: float = 0.0) -> None:
        """Tell the engine the game it knows is over (and wait for its confirmation, a
        while); nothing when it knows none.  When the engine is to move in a game over,
        its own GAMEEND is awaited ``theirs_first`` seconds, and confirmed."""
        peer = self.peer
        if peer is None or self._prefix is None:
            return
        self._prefix = None
        self._line = []
        ended = any(isinstance(m, GameEnd) for m in peer.pending())
        deadline = time.monotonic() + theirs_first
        while not ended and time.monotonic() < deadline:
            message = peer.receive(None, lambda: time.monotonic() > deadline)
            ended = isinstance(message, GameEnd)
        if ended:  # it ended it: confirmed
            peer.send(GameEnd(UNKNOWN, stop))
            return
        peer.send(GameEnd(reason, stop))
        deadline = time.monotonic() + GRACE
        while (left := deadline - time.monotonic()) > 0:
            message = peer.receive(left)
            if isinstance(message, GameEnd):
                return
        raise DxpError(
            N_("the DXP peer {peer} did not confirm the end of the game"), peer=peer.address
        )

    def _new_game(self, peer: DxpPeer, game: Game, limit: Limit) -> list[Move]:
        """Ask for a game from ``game``'s position before the other side's last move
        (that move then sent), or from its position now; the moves to send."""
        history = game.history()
        first = 1 if history and history[-1][0] is not game.turn else 0
        start = game.copy()
        for _ in range(first):
            start.pop()
        position = position_of(start)
        if position is None:
            raise DxpError(N_("DXP cannot carry games of {variant}"), variant=game.variant)
        seconds = limit.left if limit.left is not None else limit.move_seconds(1.0) * MOVES_GUESSED
        minutes = max(1, math.ceil(seconds / 60))
        standard = start.fen() == Game(game.variant).fen()
        peer.send(
            GameRequest(
                OUR_NAME,
                follower_white=game.turn is Color.WHITE,
                minutes=minutes,
                moves=0,
                position=None if standard else position,
            )
        )
        deadline = time.monotonic() + GRACE
        while True:
            answer = peer.receive(max(0.0, deadline - time.monotonic()))
            if isinstance(answer, GameAccept):
                break
            if isinstance(answer, MoveMessage):
                raise DxpError(
                    N_("the DXP peer {peer} moved before accepting the game"), peer=peer.address
                )
            # (an old game's late end, chat: passed over)
        if not self._named and answer.name:
            self.name = one_line(answer.name, 32)
        if answer.code != ACCEPTED:
            raise DxpError(
                N_("the DXP engine {name} refused the game (code {code})"),
                name=self.name,
                code=answer.code,
            )
        self._prefix = game.move_stack[: len(history) - first]
        self._line = []
        self._side = game.turn
        self._budget = minutes * 60.0
        return game.move_stack[len(history) - first :]

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        with self._lock:
            try:
                return self._think(game, limit, cancelled)
            except DxpError as exc:
                raise self._fail(exc) from None

    def _to_send(self, game: Game) -> list[Move] | None:
        """The other side's moves played since the line the engine knows, or None when
        the game is no longer that line (a move taken back, the engine's side moved)."""
        if self._prefix is None:
            return None
        stack, history = game.move_stack, game.history()
        known = len(self._prefix) + len(self._line)
        if (
            stack[: len(self._prefix)] != self._prefix
            or stack[len(self._prefix) : known] != self._line
        ):
            return None
        if len(stack) < known or any(side is self._side for side, _move in history[known:]):
            return None
        return stack[known:]

    def _send_moves(self, game: Game, send: list[Move]) -> Game:
        """Send the engine the moves ``send`` that end ``game``; the game before them
        and them (its copy)."""
        assert self.peer is not None
        board = game.copy()
        for _ in send:
            board.pop()
        for move in send:
            self.peer.send(move_message(board, move, 0))
            self._line.append(move)
            board.push(move)
        return board

    def _think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        peer = self._connected()
        send = self._to_send(game)
        if send is None:
            self._end_game(UNKNOWN)
            send = self._new_game(peer, game, limit)
        board = self._send_moves(game, send)
        began = time.monotonic()
        while True:
            wait = max(0.0, self._budget)
            if limit.left is not None:
                wait = min(wait, limit.left)
            else:  # (a time a move: an engine far past it hangs)
                wait = min(wait, SLOW_MOVES * limit.move_seconds(1.0))
            wait += GRACE
            message = peer.receive(wait, cancelled)
            if message is None:
                return None  # (its move, when it comes, is read at the next turn)
            if isinstance(message, MoveMessage):
                move = find_dxp_move(board, message)
                self._budget -= max(float(message.seconds), time.monotonic() - began)
                self._line.append(move)
                return move
            if isinstance(message, GameEnd):
                self._prefix = None
                peer.send(GameEnd(UNKNOWN, False))
                reason = {I_LOSE: "resigned", DRAW: "claimed a draw", I_WIN: "claimed a win"}
                raise DxpError(
                    N_("the DXP engine {name} ended the game ({reason})"),
                    name=self.name,
                    reason=reason.get(message.reason, "no reason given"),
                )
            if isinstance(message, BackRequest):
                raise DxpError(N_("the DXP engine {name} asked to take moves back"), name=self.name)
            # (chat, a stray answer: read and passed over)

    def answer_draw(self, game: Game) -> bool | None:
        return False

    def answer_takeback(self, game: Game) -> bool | None:
        return True

    def tags(self) -> dict[str, str]:
        return {"Type": "program"}

    def game_over(self, game: Game) -> None:
        """The game ended: the engine is told the moves it has not seen and, unless it
        says the game is over itself (it is to move), the result as shashki sees it."""
        with self._lock:
            outcome = game.outcome()
            reason = UNKNOWN
            if outcome is not None:
                reason = (
                    DRAW
                    if outcome.winner is None
                    else (I_LOSE if outcome.winner is self._side else I_WIN)
                )
            try:
                send = self._to_send(game) if self.peer is not None else None
                if send:
                    self._send_moves(game, send)
                    self._end_game(reason, stop=not self.keep_open, theirs_first=END_WAIT)
                else:
                    self._end_game(reason, stop=not self.keep_open)
            except DxpError:
                self._drop()
            if not self.keep_open:
                self._drop()

    def close(self) -> None:
        """The game ended or was left: the engine is told, and the connection ends
        unless it is kept for another game (:attr:`keep_open`)."""
        with self._lock:
            try:
                self._end_game(UNKNOWN, stop=not self.keep_open)
            except DxpError:
                self._drop()
            if not self.keep_open:
                self._drop()

    def disconnect(self) -> None:
        """End the connection kept between games."""
        with self._lock:
            try:
                self._end_game(UNKNOWN, stop=True)
            except DxpError:
                pass
            self._drop()


__all__ = ["DxpPlayer"]
