"""Hub engines as players: version 2 and Scan 2.0's version 1, and engines that crash,
hang, answer an illegal move or do not start (a fake engine, tests/hub/fake_engine.py)."""

from __future__ import annotations

import socket
import sys
import threading
from pathlib import Path

import pytest

from shashki.engine.hub.client import (
    ENGINE_LOG_VARIABLE,
    EngineError,
    EngineLog,
    HubEngine,
    HubProtocol,
    HubV1Protocol,
    HubV2Protocol,
    SocketTransport,
    SubprocessTransport,
)
from shashki.engine.hub.text import position_text
from shashki.rules import Game, find_variant

FAKE = str(Path(__file__).with_name("fake_engine.py"))


def fake(mode: str, **kwargs: object) -> HubEngine:
    return HubEngine([sys.executable, FAKE, mode], **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("mode", "version"), [("ok", 2), ("v1", 1)])
def test_an_engine_plays_legal_moves_in_either_dialect(mode: str, version: int) -> None:
    game = Game("international")
    with fake(mode) as engine:
        assert engine.version == version
        for _ in range(6):
            move = engine.best_move(game, seconds=0.1)
            assert move in game.legal_moves()
            game.push(move)
        assert engine.last.depth == "1"
    assert len(game.move_stack) == 6


def test_an_engine_that_crashes_is_reported_in_one_line() -> None:
    with fake("crash") as engine, pytest.raises(EngineError, match="stopped"):
        engine.best_move(Game("international"), seconds=0.1)


def test_an_engine_that_hangs_is_stopped_after_its_time() -> None:
    engine = fake("hang", move_grace=0.5).start()
    try:
        with pytest.raises(EngineError, match="did not answer"):
            engine.best_move(Game("international"), seconds=0.1)
        assert isinstance(engine.transport, SubprocessTransport)
        assert engine.transport.proc.poll() is not None and not engine.running  # killed
    finally:
        engine.close()


def test_an_illegal_answer_is_refused_by_shashki_s_rules() -> None:
    with fake("illegal") as engine, pytest.raises(EngineError, match="illegal move"):
        engine.best_move(Game("international"), seconds=0.1)


def test_an_engine_that_does_not_answer_hub_times_out() -> None:
    engine = fake("mute", start_timeout=0.5)
    with pytest.raises(EngineError, match="did not answer hub"):
        engine.start()
    engine.close()


def test_a_command_that_cannot_start_is_one_line() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        HubEngine("/nonexistent/engine hub").start()
    with pytest.raises(EngineError, match="cannot start engine"):  # (settings.json may)
        HubEngine("engine\x00 hub").start()  # hold a NUL, which Popen refuses
    with pytest.raises(EngineError, match="empty"):
        HubEngine("   ")
    with pytest.raises(EngineError, match="No closing quotation"):
        HubEngine('engine "hub')


def test_an_engine_is_asked_only_for_the_variants_it_offers() -> None:
    with fake("russian") as engine:
        assert engine.plays(find_variant("russian"))
        assert not engine.plays(find_variant("international"))
        with pytest.raises(EngineError, match="does not play International"):
            engine.new_game(find_variant("international"))
        game = Game("russian")
        engine.new_game(game.variant)
        move = engine.best_move(game, seconds=0.1)
        assert move in game.legal_moves()
    with fake("ok") as engine:  # no variant parameter: International only
        assert engine.plays(find_variant("international"))
        assert not engine.plays(find_variant("russian"))


def test_an_engine_error_is_english_in_records_and_said_in_the_language() -> None:
    """Match records keep the English sentence; the app tells a player in theirs."""
    from shashki.i18n import set_language

    error = EngineError(
        "engine {name} does not play {variant}", name="dame", variant=find_variant("russian")
    )
    assert str(error) == "engine dame does not play Russian draughts"
    try:
        set_language("uk")
        assert error.said() == "рушій dame не грає в «Російські шашки»"
        assert str(error) == "engine dame does not play Russian draughts"
    finally:
        set_language("en")
    assert error.said() == str(error)


# -- hostile engines (issue 23) -----------------------------------------------------------

#: Runs one engine of fake_engine.py against HubEngine, and prints how much the largest
#: memory of the process grew meanwhile (kilobytes) and what the engine was told.
MEMORY_PROBE = """
import resource, sys
from shashki.engine.hub.client import EngineError, HubEngine, SubprocessTransport
from shashki.rules import Game
engine = HubEngine([sys.executable, sys.argv[1], sys.argv[2]])
game = Game("international")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    engine.start()
    engine.best_move(game, seconds=0.1)
    said = "no error"
except EngineError as exc:
    said = str(exc)
engine.close()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
print(said)
"""


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("flood", "wrote more than 50000 lines without answering go think"),
        ("endless", "wrote a line longer than 64 KB (answering go think)"),
        ("paramflood", "wrote more than 50000 lines without answering hub"),
    ],
)
def test_an_engine_that_floods_is_stopped_and_memory_stays_bounded(mode: str, said: str) -> None:
    """An endless line, endless info lines or endless param lines: before, the lines were
    all kept until the deadline (0.2 to 1 GB in a match); now a line is at most 64 KB, a
    few dozen wait to be read, and the engine is stopped at the flood."""
    import subprocess

    probe = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, FAKE, mode],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    grown, message = probe.stdout.splitlines()
    assert message.endswith(said), probe.stdout
    assert int(grown) < 40_000, f"{mode}: the memory grew by {grown} KB"


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("error", "answered go think with an error: no net file: cannot search"),
        ("v1error", "answered go with an error: bad position"),
    ],
)
def test_an_error_line_is_reported_with_its_message(mode: str, said: str) -> None:
    """Not skipped until the time is up ("did not answer go think in 5 s"): said at once,
    its message as plain text (the escape sequence in it removed)."""
    engine = fake(mode, move_grace=30).start()
    try:
        with pytest.raises(EngineError) as info:
            engine.best_move(Game("international"), seconds=0.1)
        assert str(info.value) == f"engine {engine.name} {said}"
        assert not engine.running
    finally:
        engine.close()


def test_the_last_lines_of_standard_error_are_shown_when_an_engine_fails() -> None:
    engine = fake("stderr").start()
    try:
        with pytest.raises(EngineError, match="stopped") as info:
            engine.best_move(Game("international"), seconds=0.1)
    finally:
        engine.close()
    error = info.value
    assert error.stderr[-1] == "fatal: the net file is missing"  # (its colour removed)
    assert len(error.stderr) == 3 and error.stderr[0] == "noise line 299"
    assert error.stderr[1].startswith("xxx") and len(error.stderr[1]) == 160  # cut
    assert str(error).endswith(
        "; its standard error ends: noise line 299 | " + error.stderr[1] + " | fatal: the net "
        "file is missing"
    )
    assert engine.transport is not None
    kept = engine.transport.stderr_kept()
    assert len(kept) == 20  # of the 302 lines, the last 20 kept
    assert all(len(raw) <= 400 for raw in kept)


def test_an_engine_writing_endlessly_on_standard_error_still_plays() -> None:
    """Its standard error is read as it comes (a pipe nobody read would stop it)."""
    game = Game("international")
    with fake("stderrflood") as engine:
        for _ in range(4):
            move = engine.best_move(game, seconds=0.1)
            assert move is not None
            game.push(move)
        assert engine.stderr[-1].startswith("debug: noise")


def test_an_engine_s_name_is_plain_text() -> None:
    """An ``id name=`` with escape sequences (a window title, a screen clear, a colour),
    a right-to-left override, C1 controls, a carriage return, a bell, DEL."""
    import unicodedata

    with fake("escape") as engine:
        assert engine.name == "fake-esca pe"
        assert all(unicodedata.category(c)[0] not in "CZ" or c == " " for c in engine.name)
        assert engine.best_move(Game("international"), seconds=0.1) is not None


def test_a_closed_engine_can_be_started_again() -> None:
    game = Game("international")
    engine = fake("ok")
    for _ in range(3):
        engine.start()
        move = engine.best_move(game, seconds=0.1)
        assert move is not None
        game.push(move)
        engine.close()
        assert not engine.running
    engine = fake("crash").start()  # and after a failure
    with pytest.raises(EngineError, match="stopped"):
        engine.best_move(game, seconds=0.1)
    engine.start()
    assert engine.running and engine.name == "fake-crash" and engine.variant is None
    engine.close()


def test_a_clock_is_given_in_the_specification_s_words() -> None:
    """``level time=… inc=…`` (Scan 3 and dame ignore ``remaining-time=``, and search as
    long as they like); an engine that refuses other words plays on a clock."""
    game = Game("international")
    with fake("strict") as engine:
        for _ in range(2):
            move = engine.best_move(game, remaining=30.0, increment=1.0)
            assert move is not None
            game.push(move)


def test_shashki_hub_reads_the_clock_its_client_sends() -> None:
    engine = HubEngine([sys.executable, "-m", "shashki", "hub"])
    with engine:
        game = Game("international")
        move = engine.best_move(game, remaining=1.0, increment=0.0)
        assert move in game.legal_moves()


# -- the protocol apart from the process (issue 25) ------------------------------------------

#: The engine's answers in the specification's example ("Hub protocol for draughts,
#: version 2", Scan 3.x's protocol.txt), for the commands that ask for them.
SPECIFICATION_ANSWERS = {
    "hub": [
        'id name=Scan version=3.0 author="Fabien Letouzey" country=France',
        'param name=variant value=normal type=enum values="normal killer bt"',
        "param name=book value=true type=bool",
        "wait",
    ],
    "init": ["(some information that the GUI should ignore)", "ready"],
    "go": [
        "info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 "
        'pv="32-28 17-22 28x17x22 12x21x17 33-28 7-12 39-33 19-23 28x19x23 14x23x19"',
        "done move=32-28 ponder=17-22",
    ],
}


class ScriptedPeer:
    """The other end of a socket pair: answers each command as ``answers`` says, and
    keeps what it was sent."""

    def __init__(self, sock: socket.socket, answers: dict[str, list[str]]) -> None:
        self.sock = sock
        self.answers = answers
        self.heard: list[str] = []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        with self.sock, self.sock.makefile("rb") as lines:
            for raw in lines:
                text = raw.decode().rstrip("\n")
                self.heard.append(text)
                for answer in self.answers.get(text.split(" ", 1)[0], []):
                    self.sock.sendall(answer.encode() + b"\n")
                if text == "quit":
                    return


def peer_pair(answers: dict[str, list[str]]) -> tuple[SocketTransport, ScriptedPeer]:
    mine, theirs = socket.socketpair()
    return SocketTransport(mine, name="peer"), ScriptedPeer(theirs, answers)


def test_the_protocol_runs_over_a_socket_with_the_specification_s_lines() -> None:
    """The same protocol code as for a subprocess, over a connected socket: the
    specification's own example answers are understood (the line after init that
    the GUI should ignore, the extra info fields, the ponder move)."""
    transport, peer = peer_pair(SPECIFICATION_ANSWERS)
    protocol = HubProtocol.connect(transport)
    assert isinstance(protocol, HubV2Protocol) and protocol.version == 2
    assert protocol.name == "Scan" and protocol.info["author"] == "Fabien Letouzey"
    assert set(protocol.params) == {"variant", "book"}
    assert protocol.plays(find_variant("killer")) and not protocol.plays(find_variant("russian"))
    game = Game("international")
    move = protocol.best_move(game, seconds=1.0)
    assert move is not None and game.move_text(move) == "32-28"
    assert protocol.last.depth == "21" and protocol.last.score == "-0.01"
    assert protocol.last.pv.startswith("32-28 17-22") and protocol.last.raw["mean-depth"] == "20.8"
    protocol.close()
    peer.thread.join()  # (the test's time limit bounds it)
    assert peer.heard == ["hub", "init", "new-game", f"pos pos={position_text(game)}",
                          "level move-time=1", "go think", "quit"]  # fmt: skip
    assert not transport.alive


def test_a_clock_is_sent_as_the_specification_counts_it() -> None:
    """``level time=T inc=I``: the engine adds I before the move, so T is the clock less
    this move's increment (all of the clock is the increment when it holds less)."""
    transport, peer = peer_pair(SPECIFICATION_ANSWERS)
    protocol = HubProtocol.connect(transport)
    game = Game("international")
    protocol.best_move(game, remaining=30.0, increment=1.0)
    protocol.best_move(game, remaining=0.5, increment=1.0)
    protocol.best_move(game, remaining=12.0)
    protocol.close()
    peer.thread.join()  # (the test's time limit bounds it)
    levels = [text for text in peer.heard if text.startswith("level")]
    assert levels == ["level time=29.000 inc=1.000", "level time=0.000 inc=0.500",
                      "level time=12.000"]  # fmt: skip


def test_a_version_1_engine_gets_its_own_dialect() -> None:
    with fake("v1") as engine:
        assert type(engine.protocol) is HubV1Protocol and engine.version == 1
        assert engine.name == "fake-v1"  # (its "name" line, as Scan 2.0 writes one)
    with fake("ok") as engine:
        assert type(engine.protocol) is HubV2Protocol and engine.version == 2


def test_shashki_hub_over_a_tcp_connection() -> None:
    """``shashki hub``'s session on one end of a local TCP connection, the client's
    protocol on the other: a few moves, then quit ends the session."""
    from shashki.hub.server import HubServer

    listener = socket.create_server(("127.0.0.1", 0))
    ended: list[int] = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn, conn.makefile("rb") as stdin, conn.makefile("w", encoding="utf-8") as out:
            ended.append(HubServer(out).run(stdin))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        sock = socket.create_connection(listener.getsockname(), timeout=30)
        sock.settimeout(None)
        protocol = HubProtocol.connect(SocketTransport(sock, name="shashki"))
        assert protocol.name == "shashki" and protocol.version == 2
        game = Game("russian")
        protocol.new_game(game.variant)
        for _ in range(4):
            move = protocol.best_move(game, depth=2)
            assert move is not None
            game.push(move)
        assert protocol.last.depth == "2"
        protocol.close()
        server.join()  # (the test's time limit bounds it)
        assert ended == [0]
    finally:
        listener.close()


def test_the_traffic_and_standard_error_go_to_the_engine_log(tmp_path: Path) -> None:
    log_path = tmp_path / "engines.log"
    log = EngineLog(log_path)
    game = Game("international")
    with fake("ok", log=log) as engine:  # type: ignore[arg-type]
        pid = engine.transport.proc.pid  # type: ignore[union-attr]
        engine.best_move(game, seconds=0.1)
    engine = fake("stderr", log=log)  # type: ignore[arg-type]
    with engine, pytest.raises(EngineError):
        engine.best_move(game, seconds=0.1)
    with fake("escape", log=log) as engine:  # type: ignore[arg-type]
        pass
    text = log_path.read_text(encoding="utf-8")
    lines = text.splitlines()
    who = f"{Path(sys.executable).name}[{pid}]"
    mine = [t.split(f" {who} ", 1)[1] for t in lines if f" {who} " in t]
    assert mine[0].startswith("# started: ") and "fake_engine.py ok (in " in mine[0]
    assert "> hub" in mine and "< wait" in mine and "> go think" in mine and "> quit" in mine
    assert any(t.startswith("< done move=") for t in mine)
    assert "# ended, status 0" in mine[-2:]  # (the reader may note the end of output last)
    assert any(t.endswith(" ! noise line 299") for t in lines)
    assert any(t.endswith(" ! fatal: the \\x1b[31mnet\\x1b[0m file is missing") for t in lines)
    assert sum(" ! xxx" in t for t in lines) == 1  # (the start of a long line)
    assert any(" ! " + "x" * 4000 in t and len(t) < 4200 for t in lines)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text  # (escaped)
    assert any('id name="fake\\x1b]0;pwned\\x07-' in t for t in lines)


def test_the_engine_log_is_named_by_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.engine.hub import transport

    monkeypatch.setattr(transport, "_env_logs", {})
    path = tmp_path / "from-env.log"
    monkeypatch.setenv(ENGINE_LOG_VARIABLE, str(path))
    with fake("ok"):
        pass
    assert "> hub" in path.read_text(encoding="utf-8")
    monkeypatch.setenv(ENGINE_LOG_VARIABLE, str(tmp_path))  # a folder: one line, at start
    with pytest.raises(EngineError, match=r"cannot write the engine log .*: Is a directory"):
        fake("ok").start()
    monkeypatch.setenv(ENGINE_LOG_VARIABLE, "")
    assert transport.engine_log() is None


def test_a_fifo_nobody_reads_is_refused_as_a_log_without_waiting(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(EngineError, match="cannot write the engine log"):
        EngineLog(fifo)


def test_an_engine_flooding_its_standard_error_fills_the_log_only_so_far(tmp_path: Path) -> None:
    """A megabyte of one start's standard error goes to the log, then one line saying
    the rest is left out; its moves are still logged."""
    from shashki.engine.hub.transport import LOG_STDERR_BYTES

    log_path = tmp_path / "engines.log"
    game = Game("international")
    with fake("stderrflood", log=EngineLog(log_path)) as engine:  # type: ignore[arg-type]
        transport = engine.transport
        assert transport is not None
        # (play until the flood has passed the log's share, a generous minute at most on
        # a loaded machine: the reader logs as it reads)
        import time

        deadline = time.monotonic() + 60
        while transport._logged["stderr"] <= LOG_STDERR_BYTES and time.monotonic() < deadline:
            engine.best_move(game, seconds=0.01)
        assert transport._logged["stderr"] > LOG_STDERR_BYTES
        engine.best_move(game, seconds=0.01)
    lines = log_path.read_text(encoding="utf-8").splitlines()
    noise = [t for t in lines if " ! debug: noise" in t]
    assert 0 < sum(len(t.split(" ! ", 1)[1]) + 1 for t in noise) <= LOG_STDERR_BYTES
    assert sum("leaves out the rest of this stderr" in t for t in lines) == 1
    assert sum(" < done move=" in t for t in lines) >= 2


def test_a_start_the_letters_cannot_write_is_the_engines_own() -> None:
    # Artamonov's start has no Hub letters (its pieces are shared): the position is sent
    # as the moves from the engine's own start, not as an empty board
    engine = HubEngine([sys.executable, "-m", "shashki", "hub"])
    with engine:
        game = Game("artamonov")
        game.push(game.legal_moves()[0])
        move = engine.best_move(game, seconds=0.05)
        assert move in game.legal_moves()


def test_a_position_the_letters_cannot_write_is_refused_in_words() -> None:
    engine = HubEngine([sys.executable, "-m", "shashki", "hub"])
    with engine:
        moved = Game("artamonov")
        moved.push(moved.legal_moves()[0])
        game = Game("artamonov", moved.fen())  # (a start of its own: no moves to send)
        with pytest.raises(EngineError, match="cannot be written in the Hub protocol"):
            engine.best_move(game, seconds=0.05)
