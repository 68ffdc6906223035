"""DXP: the messages, shashki against shashki over a loopback connection in both roles,
and hostile peers on either side (each said in one line, the server going on, the game
so far kept)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shashki.engine.limits import Limit
from shashki.hub import dxp_player
from shashki.hub.dxp import (
    DRAW,
    I_LOSE,
    MAX_CHATTER,
    UNKNOWN,
    BackRequest,
    Chat,
    DxpError,
    GameAccept,
    GameEnd,
    GameRequest,
    MoveMessage,
    find_dxp_move,
    game_at,
    message_text,
    move_message,
    parse_message,
    position_of,
)
from shashki.hub.dxp_player import DxpPlayer
from shashki.hub.dxp_server import DxpServer
from shashki.hub.match import Opening, play_game
from shashki.records import GameRecord, read_games
from shashki.rules import Game, Move, find_variant
from shashki.rules.variant import Variant
from shashki.session.players import Cancelled, Computer, PlayerFailed
from shashki.session.seats import DxpSeat, dxp_address, parse_seat
from shashki.store.storage import GameLog
from tests.waiting import until_blocking

INTERNATIONAL = find_variant("international")


# -- messages -------------------------------------------------------------------------


def test_the_messages_of_a_real_exchange_are_read_and_written_alike() -> None:
    # (the exchange with Scan 2.0 recorded in the engines' notes)
    for text in (
        "R01shashki                         W005075A",
        "AScan 2.0                        0",
        "M0000343000",
        "M0010192300",
        "Cgood game",
        "E00",
        "B005Z",
        "K0",
        "M00002523021920",
    ):
        assert message_text(parse_message(text)) == text
    assert parse_message("M00002523021920") == MoveMessage(0, 25, 23, (19, 20))
    request = parse_message("R01shashki                         W005075A")
    assert request == GameRequest("shashki", True, 5, 75, None)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "X",
        "Mabc",
        "M000034300",  # one character short
        "M00003430000112",  # says no capture, names one
        "E4",
        "E07",
        "R01name",
        "R01" + "n" * 32 + "Q005075A",
        "R01" + "n" * 32 + "W005075B" + "W" + "q" * 50,
        "A" + "n" * 40,
        "B05W",
        "C" + "x" * 200,
        "Cnon-ascii é",
        "M0000343000\x01",
    ],
)
def test_what_is_not_dxp_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(DxpError) as caught:
        parse_message(text)
    said = str(caught.value)
    assert "\n" not in said and len(said) < 300


def test_a_position_goes_there_and_back() -> None:
    game = Game(INTERNATIONAL, "W:W31,32,K45:B5,6,K19")
    text = position_of(game)
    assert text is not None and text[0] == "W" and len(text) == 51
    assert game_at(INTERNATIONAL, text).fen() == game.fen()
    back = GameRequest("x", False, 1, 0, text)
    assert parse_message(message_text(back)) == back


def test_a_dxp_seat_is_typed_never_read_from_a_file() -> None:
    assert parse_seat("dxp:127.0.0.1:27531") == DxpSeat("127.0.0.1", 27531)
    assert DxpSeat("127.0.0.1", 27531).word == "dxp:127.0.0.1:27531"
    assert DxpSeat("::1", 27531).word == "dxp:[::1]:27531"
    assert parse_seat("dxp:127.0.0.1:27531", from_file=True) is None
    for bad in ("dxp:", "dxp:host", "dxp:host:0", "dxp:host:70000", "dxp:a b:1", "dxp::5"):
        assert parse_seat(bad) is None, bad
    assert dxp_address("[::1]:27531") == ("::1", 27531)


def _games(path: Path) -> list[GameRecord] | None:
    """The games of the PDN file once it has some (it is written after the line)."""
    if not path.exists():
        return None
    return list(read_games(str(path))) or None


# -- shashki against shashki ------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[DxpServer, list[str]]]:
    """shashki dxp at level 1 on a free port of 127.0.0.1, what it says, its PDN file."""
    said: list[str] = []
    lock = threading.Lock()

    def say(text: str) -> None:
        with lock:
            said.append(text)

    serving = DxpServer(
        lambda: Computer(1, seed=3),
        INTERNATIONAL,
        say,
        host="127.0.0.1",
        port=0,
        log=GameLog(tmp_path / "dxp.pdn", append=True),
        idle=30,
    )
    thread = threading.Thread(target=serving.serve, daemon=True)
    thread.start()
    yield serving, said
    serving.stop()
    thread.join(timeout=10)


def test_shashki_plays_a_whole_game_against_shashki_over_dxp(
    server: tuple[DxpServer, list[str]], tmp_path: Path
) -> None:
    serving, said = server
    host, port = serving.address[0], serving.address[1]
    player = DxpPlayer(host, port)
    try:
        record, _score, why = play_game(
            INTERNATIONAL,
            player,
            Computer(1, seed=5),
            Opening(None),
            limit=Limit(seconds=0.05),
        )
    finally:
        player.close()
    assert player.name == "shashki"  # (the name its GAMEACC gave)
    assert "lost:" not in why, why
    kept = until_blocking(
        lambda: [line for line in said if "ended (" in line], "the follower's end of the game"
    )
    assert len(kept) == 1
    games = until_blocking(lambda: _games(tmp_path / "dxp.pdn"), "the game in the PDN file")
    (game,) = games
    # the follower's record and the session's hold the same moves
    assert game.mainline_moves() == record.mainline_moves()
    assert game.result == record.result != "*"


def test_a_line_taken_back_asks_the_engine_for_a_new_game(
    server: tuple[DxpServer, list[str]],
) -> None:
    serving, said = server
    player = DxpPlayer(serving.address[0], serving.address[1])
    try:
        player.start(INTERNATIONAL)
        game = Game(INTERNATIONAL)
        game.push(game.legal_moves()[0])  # White's move; the engine plays Black
        answer = player.think(game.copy(), Limit(seconds=0.05), lambda: False)
        assert answer is not None and answer in game.legal_moves()
        game.pop()  # taken back: another White move
        game.push(game.legal_moves()[-1])
        again = player.think(game.copy(), Limit(seconds=0.05), lambda: False)
        assert again is not None and again in game.legal_moves()
    finally:
        player.close()
    until_blocking(lambda: sum("game 2 against" in line for line in said), "a second game")


# -- hostile initiators ------------------------------------------------------------------


def _connect(serving: DxpServer) -> socket.socket:
    return socket.create_connection((serving.address[0], serving.address[1]), timeout=30)


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed the connection (what it sent before is read away)."""
    try:
        while sock.recv(4096):
            pass
    except OSError:
        pass
    return True


def _request(white_follower: bool = False) -> bytes:
    return message_text(GameRequest("hostile", white_follower, 1, 0)).encode() + b"\0"


def _garbage(sock: socket.socket) -> None:
    sock.sendall(b"Xhello\0")


def _too_long(sock: socket.socket) -> None:
    sock.sendall(b"C" + b"a" * 5000 + b"\0")


def _flood(sock: socket.socket) -> None:
    sock.sendall(b"Chi\0" * (MAX_CHATTER + 50))


def _not_ascii(sock: socket.socket) -> None:
    sock.sendall("Cпривіт\0".encode())


def _illegal(sock: socket.socket) -> None:
    sock.sendall(_request())  # shashki plays Black: White (the peer) moves
    sock.sendall(message_text(MoveMessage(0, 31, 22)).encode() + b"\0")


def _vanishes(sock: socket.socket) -> None:
    sock.sendall(_request())
    sock.sendall(message_text(MoveMessage(0, 32, 28)).encode() + b"\0")
    # (then the connection is closed below, mid-game)


@pytest.mark.parametrize(
    ("act", "words"),
    [
        (_garbage, "not DXP"),
        (_too_long, "longer than 127"),
        (_flood, "without a move"),
        (_not_ascii, "not DXP"),
        (_illegal, "not a legal move"),
        (_vanishes, "left"),
    ],
)
def test_a_hostile_initiator_is_said_in_one_line_and_the_server_goes_on(
    server: tuple[DxpServer, list[str]],
    tmp_path: Path,
    act: Callable[[socket.socket], None],
    words: str,
) -> None:
    serving, said = server
    with _connect(serving) as sock:
        act(sock)
        if act is _vanishes:  # its move answered (GAMEACC, then a MOVE), then it is gone
            heard = [b""]

            def answered() -> bool:
                heard[0] += sock.recv(4096)
                return heard[0].count(b"\0") >= 2

            until_blocking(answered, "shashki's acceptance and move")
        else:
            assert _closed(sock)
    line = until_blocking(
        lambda: next((t for t in said if words in t), None), f"a line saying {words!r}"
    )
    assert "\n" not in line
    # the server goes on: a whole exchange on a new connection
    with _connect(serving) as sock:
        sock.sendall(_request(white_follower=True))
        data = until_blocking(lambda: sock.recv(4096), "an answer")
        assert data.startswith(b"Ashashki")
    if act is _vanishes:  # the game so far is kept, unfinished
        games = until_blocking(lambda: _games(tmp_path / "dxp.pdn"), "the game in the PDN file")
        assert games[0].result == "*"
        assert len(games[0].mainline_moves()) == 2
    # a game the initiator left is unfinished, never lost by shashki: the second connection
    # closes while shashki searches its first move (its search cut short is no failure)
    games_begun = 2 if act in (_illegal, _vanishes) else 1
    ended = until_blocking(
        lambda: [t for t in said if " ended (" in t][games_begun - 1 :] or None,
        "the end of every game said",
    )
    assert all(line.endswith("(*)") for line in said if " ended (" in line), said
    assert ended


@pytest.mark.parametrize(
    ("reason", "result", "termination"),
    [(I_LOSE, "1-0", "Black resigned"), (DRAW, "1/2-1/2", "agreement"), (UNKNOWN, "*", None)],
)
def test_a_game_the_initiator_ends_is_kept_as_it_ended(
    server: tuple[DxpServer, list[str]], reason: int, result: str, termination: str | None
) -> None:
    """The peer's GAMEEND goes through the session (the peer resigning, a draw both
    agree), and the recorder appends the game with its end: the server writes no record
    of its own.  A game left without a word is kept unfinished."""
    serving, said = server
    path = serving.log.path if serving.log is not None else None
    assert path is not None
    with _connect(serving) as sock:
        sock.sendall(_request(white_follower=True))  # shashki plays White, the peer Black
        heard = _read(sock, b"", 2)  # GAMEACC, shashki's first move
        sock.sendall(message_text(GameEnd(reason, True)).encode() + b"\0")
        assert _closed(sock)
    until_blocking(lambda: any("ended (" in line for line in said), "the game's end said")
    (kept,) = until_blocking(lambda: _games(path), "the game kept")
    assert kept.result == result and len(kept.mainline_moves()) == 1
    assert kept.headers["Event"] == "shashki dxp" and kept.headers["Black"] == "hostile"
    if termination is None:
        assert "Termination" not in kept.headers
    else:
        assert termination in kept.headers["Termination"]
    assert heard.startswith(b"A")


def _read(sock: socket.socket, heard: bytes, count: int) -> bytes:
    """What ``sock`` sent, read until it holds ``count`` messages (each read waits)."""
    while heard.count(b"\0") < count:
        data = sock.recv(4096)
        assert data, heard
        heard += data
    return heard


class _Breaks(Computer):
    """Level 1, started by whoever seats it (counted), failing at its second move."""

    def __init__(self) -> None:
        super().__init__(1, seed=3)
        self.starts = 0
        self.moves = 0

    def start(self, variant: Variant) -> None:
        self.starts += 1
        super().start(variant)

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        self.moves += 1
        if self.moves > 1:
            raise PlayerFailed("the engine stopped", "the engine stopped")
        return super().think(game, limit, cancelled)


def test_a_followers_engine_that_fails_loses_by_the_sessions_forfeit(tmp_path: Path) -> None:
    """The follower's game is a session's: the session starts the engine once and, when
    it fails, scores the game a loss for it; the peer is told (GAMEEND), the failure is
    said in one line, the game is kept with the session's result, the server goes on."""
    said: list[str] = []
    engine = _Breaks()
    serving = DxpServer(
        lambda: engine,
        INTERNATIONAL,
        said.append,
        port=0,
        log=GameLog(tmp_path / "dxp.pdn", append=True),
        idle=30,
    )
    thread = threading.Thread(target=serving.serve, daemon=True)
    thread.start()
    try:
        with _connect(serving) as sock:
            sock.sendall(_request(white_follower=True))  # shashki moves first
            heard = _read(sock, b"", 2)  # GAMEACC, its move
            move = parse_message(heard.split(b"\0")[1].decode())
            assert isinstance(move, MoveMessage)
            game = Game(INTERNATIONAL)
            game.push(find_dxp_move(game, move))
            reply = game.legal_moves()[0]
            sock.sendall(message_text(move_message(game, reply, 0)).encode() + b"\0")
            heard = _read(sock, heard, 3)
            assert isinstance(parse_message(heard.split(b"\0")[2].decode()), GameEnd)
            assert _closed(sock)
        line = until_blocking(lambda: next((t for t in said if "stopped" in t), None), "said")
        assert "\n" not in line and engine.starts == 1
        (kept,) = until_blocking(lambda: _games(tmp_path / "dxp.pdn"), "the game kept")
        assert kept.result == "0-1" and len(kept.mainline_moves()) == 2
    finally:
        serving.stop()
        thread.join(timeout=10)


# -- hostile followers -------------------------------------------------------------------


class _Follower:
    """A follower on a free port that accepts a game, then does ``act``."""

    def __init__(self, act: Callable[[socket.socket], None]) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.act = act
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        conn, _addr = self.sock.accept()
        with conn:
            data = b""
            while b"\0" not in data:
                data += conn.recv(4096)
            conn.sendall(message_text(GameAccept("hostile", 0)).encode() + b"\0")
            self.act(conn)
            _closed(conn)

    def close(self) -> None:
        self.sock.close()


def _sends_garbage(conn: socket.socket) -> None:
    conn.sendall(b"Zzz\0")


def _plays_illegal(conn: socket.socket) -> None:
    conn.sendall(message_text(MoveMessage(0, 31, 22)).encode() + b"\0")


def _leaves(conn: socket.socket) -> None:
    conn.close()


def _says_too_much(conn: socket.socket) -> None:
    conn.sendall(b"M" + b"0" * 400 + b"\0")


def _ends_it(conn: socket.socket) -> None:
    conn.sendall(message_text(GameEnd(3, False)).encode() + b"\0")


def _asks_back(conn: socket.socket) -> None:
    conn.sendall(message_text(BackRequest(1, True)).encode() + b"\0")


def _silent(conn: socket.socket) -> None:
    conn.sendall(message_text(Chat("thinking...")).encode() + b"\0")


@pytest.mark.parametrize(
    ("act", "words"),
    [
        (_sends_garbage, "not DXP"),
        (_plays_illegal, "not a legal move"),
        (_leaves, "left"),
        (_says_too_much, "longer than 127"),
        (_ends_it, "ended the game"),
        (_asks_back, "take moves back"),
        (_silent, "sent nothing"),
    ],
)
def test_a_hostile_follower_loses_its_game_in_one_line(
    act: Callable[[socket.socket], None], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dxp_player, "GRACE", 0.3)  # (the silent one: its time, then this)
    follower = _Follower(act)
    player = DxpPlayer("127.0.0.1", follower.port)
    try:
        record, score, why = play_game(
            INTERNATIONAL, player, Computer(1, seed=1), Opening(None), limit=Limit(seconds=0.2)
        )
    finally:
        player.close()
        follower.close()
    assert score == 0.0 and record.result == "0-1"
    assert words in why and "\n" not in why


def test_no_engine_there_is_one_line() -> None:
    with socket.create_server(("127.0.0.1", 0)) as sock:
        port = sock.getsockname()[1]
    player = DxpPlayer("127.0.0.1", port)
    _record, score, why = play_game(
        INTERNATIONAL, Computer(1, seed=1), player, Opening(None), limit=Limit(seconds=0.1)
    )
    assert score == 1.0 and "cannot connect to the DXP engine" in why and "\n" not in why
