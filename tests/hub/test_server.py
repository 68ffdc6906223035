"""``shashki hub``: shashki's engine over the Hub protocol, driven line by line and by
the project's own client (the conformance test), in several variants."""

from __future__ import annotations

import io
import sys
import threading
import time

import pytest

from shashki.hub.client import HubEngine
from shashki.hub.server import HubServer, seconds_for
from shashki.hub.text import parse_line
from shashki.rules import Game


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
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(t.startswith(start) for t in self.lines()):
                return self.lines()
            time.sleep(0.01)
        raise AssertionError(f"no {start} in {self.lines()}")

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


def test_bad_lines_get_an_error_and_the_session_goes_on() -> None:
    s = Session()
    lines = s.say(
        "bogus",
        "pos pos=Wxx",
        'pos moves="1-2"',
        "level move-time=abc",
        "level depth=0",
        "level colour=red",
        "level",
        "set-param name=variant value=chess",
        "set-param name=hash value=64",
        "go sideways",
        'level "',
    )
    errors = [t for t in lines if t.startswith("error")]
    assert len(errors) == 11, lines
    s.say("pos", "level depth=1", "go think")
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
    assert out[3] == "error message=\"unknown command '\ufffd\ufffd'\""
    assert out[4].startswith("error message=\"position 'é' has 0 squares")


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
    "value", ["１", "٣", "1e1", "1E1", "1_0", "inf", "nan", "-1", "+1", ".5", "5.", "0x1", "1,5",
              "10000001", pytest.param("9" * 5000, id="5000 nines")],
)  # fmt: skip
def test_level_seconds_are_ascii_digits_only(value: str) -> None:
    s = Session()
    for name in ("move-time", "remaining-time", "increment", "time", "inc"):
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
