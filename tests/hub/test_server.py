"""``shashki hub``: shashki's engine over the Hub protocol, driven line by line and by
the project's own client (the conformance test), in several variants."""

from __future__ import annotations

import io
import sys
import threading

import pytest

from shashki.engine.hub.client import HubEngine
from shashki.engine.hub.text import find_move, parse_line
from shashki.hub.server import HubServer, seconds_for
from shashki.rules import Game
from tests.session.test_limits import clock_at
from tests.waiting import until_blocking


class Session:
    """A server fed line by line; its answers collected."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.server = HubServer(self.out)

    def say(self, *lines: str) -> list[str]:
        for text in lines:
            assert self.server.handle(text)
        return self.lines()

    def wait_done(self) -> list[str]:
        return self.wait_for("done")

    def wait_for(self, start: str, timeout: float = 60.0) -> list[str]:
        """The lines once one starts with ``start`` (a generous deadline: a loaded machine
        searches slowly)."""
        try:
            until_blocking(lambda: any(t.startswith(start) for t in self.lines()), timeout=timeout)
        except AssertionError:
            raise AssertionError(f"no {start} in {self.lines()}") from None
        return self.lines()

    def lines(self) -> list[str]:
        return [t for t in self.out.getvalue().splitlines() if t]


def test_the_handshake_names_the_engine_and_offers_every_variant() -> None:
    s = Session()
    lines = s.say("hub", "init")
    assert lines[0].startswith("id name=shashki")
    command, param = parse_line(lines[1])
    assert command == "param" and param["name"] == "variant" and param["value"] == "normal"
    values = param["values"].split()
    assert values[:5] == ["normal", "losing", "bt", "frisian", "killer"] or set(values[:5]) == {
        "normal", "killer", "bt", "frisian", "losing"
    }  # fmt: skip
    assert {"russian", "bashni", "turkish", "frysk"} <= set(values)
    assert lines[2:] == ["wait", "ready"]


def test_think_gives_info_lines_then_a_legal_move() -> None:
    s = Session()
    s.say("hub", "init", "new-game", "pos", "level depth=3", "go think")
    lines = s.wait_done()
    infos = [parse_line(t)[1] for t in lines if t.startswith("info")]
    assert [i["depth"] for i in infos] == ["1", "2", "3"]
    assert all({"score", "nodes", "time", "nps", "pv"} <= set(i) for i in infos)
    done = parse_line(lines[-1])[1]
    Game("international").parse_move(done["move"].replace("x", "x"))  # a legal move
    assert done["ponder"]


def test_a_position_with_moves_in_another_variant() -> None:
    s = Session()
    s.say(
        "set-param name=variant value=russian",
        'pos moves="c3-d4 f6-e5"',
        "level move-time=0.2",
        "go think",
    )
    done = parse_line(s.wait_done()[-1])[1]
    game = Game("russian")
    game.push_text("c3-d4")
    game.push_text("f6-e5")
    moves = {m.start for m in game.captures()}
    assert moves and game.variant.board.by_number[int(done["move"].split("x")[0])] in moves


def test_stop_ends_an_analysis_with_done() -> None:
    s = Session()
    s.say("pos", "level infinite", "go analyze")
    s.wait_for("info")  # searching, and on without end
    assert not any(t.startswith("done") for t in s.lines())
    s.say("ping")
    assert s.lines()[-1] == "pong" or "pong" in s.lines()
    s.say("stop")
    assert s.lines()[-1].startswith("done move=")


def test_any_other_line_stops_a_search_first() -> None:
    s = Session()
    s.say("pos", "level infinite", "go analyze")
    s.wait_for("info")  # searching
    lines = s.say("new-game")
    assert lines[-1].startswith("done")


def test_values_that_cannot_be_used_get_an_error_and_the_session_goes_on() -> None:
    s = Session()
    lines = s.say(
        "pos pos=Wxx",
        'pos moves="1-2"',
        "level move-time=abc",
        "level depth=0",
        "set-param name=variant value=chess",
        'level "',
    )
    errors = [t for t in lines if t.startswith("error")]
    assert len(errors) == 6 and lines == errors, lines
    s.say("pos", "level depth=1", "go think")
    assert s.wait_done()[-1].startswith("done move=")


def test_what_the_engine_does_not_know_is_ignored() -> None:
    """The specification: "Both the engine and the GUI should ignore commands and
    arguments that they don't understand" (so that the protocol can grow)."""
    s = Session()
    lines = s.say(
        "bogus",
        "bogus with=arguments",
        "level colour=red",
        "level",
        "set-param name=hash value=64",
        "set-param name=book value=false",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww frobnicate=1",
        "new-game clear-hash",
        "ping",
    )
    assert lines == ["pong"]
    assert s.server.level == {"seconds": 1.0}  # (a level with no word it knows: as it was)
    s.say("level depth=2 colour=red")
    assert s.server.level == {"depth": 2}
    s.say("go sideways")  # a mode it does not know: a search all the same, and its done
    assert s.wait_done()[-1].startswith("done move=")


def test_a_command_it_does_not_know_leaves_a_search_running() -> None:
    s = Session()
    s.say("pos", "level infinite", "go analyze")
    s.wait_for("info")
    s.say("bogus", "ping")
    assert not any(t.startswith("done") for t in s.lines())
    assert s.say("stop")[-1].startswith("done move=")


def test_after_a_position_it_cannot_read_there_is_nothing_to_search() -> None:
    """Not the position before it: that search would answer a move the GUI cannot play."""
    s = Session()
    lines = s.say("pos pos=Wxx", "level depth=1", "go think")
    assert lines[0].startswith("error") and lines[-2:] == [
        'error message="no position to search: the last pos could not be read"',
        "done",
    ]
    s.say("pos", "go think")
    assert s.wait_done()[-1].startswith("done move=")


def test_a_finished_game_answers_an_error_and_done() -> None:
    s = Session()
    lines = s.say("pos pos=W" + "b" * 5 + "e" * 45, "go think")
    assert lines[-2].startswith("error") and lines[-1] == "done"


def test_quit_and_end_of_input_end_the_session() -> None:
    out = io.StringIO()
    assert HubServer(out).run(io.BytesIO(b"hub\ninit\nquit\nhub\n")) == 0
    assert out.getvalue().count("wait") == 1
    out = io.StringIO()
    assert HubServer(out).run(io.BytesIO(b"pos\nlevel infinite\ngo analyze\n")) == 0
    assert "done" in out.getvalue()  # the end of the input stops the search


def test_an_over_long_line_is_an_error() -> None:
    out = io.StringIO()
    HubServer(out).run(io.BytesIO(b"x" * 200_000 + b"\nping\n"))
    assert out.getvalue().splitlines()[-2].startswith("error") and out.getvalue().endswith("pong\n")


def test_clock_levels_give_a_share_of_the_remaining_time() -> None:
    assert 0.02 <= seconds_for(60, 0, None) <= 3
    assert seconds_for(1, 0, None) < 1
    assert seconds_for(0.01, 0, None) == 0.02
    assert seconds_for(10, 2, 1) <= 10


def test_conformance_through_the_project_s_own_client() -> None:
    """``shashki hub`` as a subprocess, played by :class:`HubEngine`: ten plies."""
    engine = HubEngine([sys.executable, "-m", "shashki", "hub"])
    with engine:
        assert engine.version == 2 and engine.name == "shashki"
        for variant in ("international", "russian"):
            game = Game(variant)
            engine.variant = None
            engine.new_game(game.variant)
            for _ in range(5):
                move = engine.best_move(game, depth=2)
                game.push(move)
            assert len(game.move_stack) == 5


def test_the_search_thread_never_outlives_the_session() -> None:
    before = threading.active_count()
    out = io.StringIO()
    HubServer(out).run(io.BytesIO(b"pos\nlevel move-time=5\ngo think\nquit\n"))
    assert threading.active_count() <= before


#: Environments where Python's own stdin and stdout are strict: UTF-8 that stops at a
#: byte that is not UTF-8 (as under LC_ALL=en_US.UTF-8, or PYTHONIOENCODING=utf-8), and
#: ASCII (the C locale without UTF-8 mode), where a letter such as "é" cannot be written.
STRICT_STREAMS = [
    {"PYTHONIOENCODING": "utf-8"},
    {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"},
    {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    {"PYTHONIOENCODING": "ascii"},
]


@pytest.mark.parametrize(
    "env", STRICT_STREAMS, ids=lambda e: " ".join(f"{k}={v}" for k, v in e.items())
)
def test_the_hub_reads_any_bytes_and_writes_utf_8_under_any_locale(env: dict[str, str]) -> None:
    """``shashki hub`` as a GUI runs it: bytes that are not UTF-8 (0xff), then a letter
    that is not ASCII in a line it answers with an error quoting it."""
    import os
    import subprocess

    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONIO", "LC_"))}
    clean.pop("PYTHONUTF8", None)
    lines = b"hub\n\xff\xfe bogus\npos pos=\xc3\xa9\nping\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "shashki", "hub"],
        input=lines,
        capture_output=True,
        env={**clean, **env},
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode(errors="replace")
    out = done.stdout.decode("utf-8").splitlines()  # (UTF-8, whatever the locale)
    assert out[2] == "wait" and out[-1] == "pong"
    # (the line that is not UTF-8 names no command it knows: ignored)
    assert out[3].startswith("error message=\"position 'é' has 0 squares")


def test_a_session_whose_output_went_away_ends_quietly() -> None:
    """The GUI closed its end: the session ends at the next line it would answer, with
    no traceback (also from a search thread writing its info lines)."""

    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    server = HubServer(Gone())
    with pytest.raises(BrokenPipeError):  # (the command line ends quietly: status 141)
        server.run(io.BytesIO(b"pos\nlevel depth=3\ngo think\nping\n" + b"ping\n" * 1000))
    assert isinstance(server.closed, BrokenPipeError) and not server.searching()


@pytest.mark.parametrize(
    "text",
    ["set-param name=variant value=", 'set-param name=variant value=""', "set-param name=variant",
     'set-param name=variant value="  "'],
)  # fmt: skip
def test_an_empty_variant_is_refused_not_read_as_another(text: str) -> None:
    s = Session()
    s.say("set-param name=variant value=russian")
    lines = s.say(text)
    assert lines[-1].startswith('error message="no variant named'), lines
    assert s.server.variant.id == "russian"  # unchanged


@pytest.mark.parametrize(
    "value", ["１", "٣", "1_0", "inf", "nan", "-1", "+1", ".5", "5.", "0x1", "1,5", "1e", "1e+",
              "1e99999", "1e400", "1e7.5", "10000001", pytest.param("9" * 5000, id="5000 nines")],
)  # fmt: skip
def test_level_seconds_are_real_numbers_of_ascii_digits_only(value: str) -> None:
    s = Session()
    for name in ("move-time", "remaining-time", "increment", "time", "inc"):
        if value == "-1" and name in ("time", "remaining-time"):
            continue  # (the clock before the increment: see the test below)
        lines = s.say(f"level {name}={value}")
        assert lines[-1].startswith("error message=") and "number of seconds" in lines[-1]
    assert s.server.level == {"seconds": 1.0}  # the default still


def test_level_seconds_read() -> None:
    s = Session()
    s.say("level move-time=0.25")
    assert s.server.level == {"seconds": 0.25}
    s.say("level remaining-time=0300.5 increment=2")
    assert s.server.level == {"remaining-time": 300.5, "increment": 2.0}
    s.say("level moves=9 time=291.587 inc=2")  # (the specification's words)
    assert s.server.level == {"moves": 9, "remaining-time": 291.587, "increment": 2.0}
    assert not [t for t in s.lines() if t.startswith("error")]
    # a real number as a GUI's language prints it (pydraughts: Python's repr)
    s.say("level time=7.010100016487109e-05 inc=0.05")
    assert s.server.level == {"remaining-time": 7.010100016487109e-05, "increment": 0.05}
    s.say("level move-time=1E1")
    assert s.server.level == {"seconds": 10.0}
    s.say("level time=-1.5e-3 inc=2.5E+0")
    assert s.server.level == {"remaining-time": -0.0015, "increment": 2.5}
    assert not [t for t in s.lines() if t.startswith("error")]


@pytest.mark.parametrize(
    ("level", "depth"),
    [("move-time=1 depth=4", "4"), ("time=60 depth=4", "1")],
    ids=["a time a move", "a clock"],
)
def test_a_time_a_move_is_spent_whole_and_a_clock_s_share_is_not(
    monkeypatch: pytest.MonkeyPatch, level: str, depth: str
) -> None:
    """Past the share of its time after which a search starts no new depth: a time a
    move goes on to the depth asked, a clock's share keeps the rest."""
    s = Session()
    s.say("hub", "init", f"level {level}")
    clock_at(monkeypatch, 0.6 * s.server.think_seconds())
    s.say("new-game", "go think")
    infos = [parse_line(t)[1] for t in s.wait_done() if t.startswith("info")]
    assert infos[-1]["depth"] == depth


def test_the_increment_is_added_before_every_move() -> None:
    """``level time=T inc=I``: the engine has T + I for this move (the specification),
    and a GUI that takes the increment from a clock holding less sends T below 0, as
    pydraughts does."""
    s = Session()
    s.say("level time=0 inc=2")
    assert s.server.think_seconds() == seconds_for(2.0, 2.0, None) > 0.5
    s.say("level time=-0.5 inc=1")
    assert s.server.level["remaining-time"] == -0.5
    assert s.server.think_seconds() == seconds_for(0.5, 1.0, None)
    s.say("level time=-5 inc=1")  # (never below nothing)
    assert s.server.think_seconds() == seconds_for(0.0, 1.0, None)
    s.say("level moves=9 time=291.587")  # x moves in y
    assert s.server.think_seconds() == seconds_for(291.587, 0.0, 9)
    for bad in ("-", "--1", "-nan", "-.5", "-inf", "-1e400"):
        before = len(s.lines())
        assert s.say(f"level time={bad}")[before:] == [
            f"error message=\"level time='{bad}' is not a number of seconds from 0 to 10^7 "
            '(digits, a decimal point, an exponent: 0.5, 7.5e-05)"'
        ], bad


#: The example lines of the specification ("Hub protocol for draughts, version 2",
#: Scan 3.x's protocol.txt): the initialisation, then a search of each example.
SPECIFICATION_EXAMPLE = [
    "hub",
    "set-param name=variant value=killer",
    "set-param name=book value=false",
    "init",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    "level move-time=1",
    "go think",
]
SPECIFICATION_PONDER = [
    "set-param name=variant value=normal",
    'pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee moves="38-15 5-41 48-26"',
    "level moves=9 time=291.587",
    "go ponder",
]


def test_the_specification_s_own_example_lines() -> None:
    s = Session()
    lines = s.say(*SPECIFICATION_EXAMPLE[:4])
    assert [parse_line(t)[0] for t in lines] == ["id", "param", "wait", "ready"]
    s.say(*SPECIFICATION_EXAMPLE[4:])
    assert s.server.variant.hub_name == "killer" and s.server.level == {"seconds": 1.0}
    lines = s.wait_done()
    done = parse_line(lines[-1])[1]
    start = Game("killer")
    assert start.parse_move(done["move"]) in start.legal_moves()
    s.out.truncate(0)
    s.out.seek(0)
    s.say(*SPECIFICATION_PONDER)
    assert s.server.level == {"moves": 9, "remaining-time": 291.587}
    s.wait_for("info")
    assert s.say("ping")[-1] == "pong" and not any(t.startswith("done") for t in s.lines())
    s.say("ponder-hit")  # (a timed search now: a share of 291.587 s for 9 moves)
    assert s.server.mode == "think" and s.server.deadline is not None
    lines = s.say("stop")
    assert not [t for t in lines if t.startswith("error")], lines
    done = parse_line(lines[-1])[1]
    game = s.server.game
    assert game is not None and len(game.move_stack) == 3  # (the position, then the three moves)
    assert find_move(game, done["move"]) in game.legal_moves()
