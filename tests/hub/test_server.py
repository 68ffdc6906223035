"""``shashki hub``: shashki's engine over the Hub protocol, driven line by line and by
the project's own client (the conformance test), in several variants."""

from __future__ import annotations

import io
import sys
import threading
import time

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
    assert HubServer(out).run(io.StringIO("hub\ninit\nquit\nhub\n")) == 0
    assert out.getvalue().count("wait") == 1
    out = io.StringIO()
    assert HubServer(out).run(io.StringIO("pos\nlevel infinite\ngo analyze\n")) == 0
    assert "done" in out.getvalue()  # the end of the input stops the search


def test_an_over_long_line_is_an_error() -> None:
    out = io.StringIO()
    HubServer(out).run(io.StringIO("x" * 200_000 + "\nping\n"))
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
    HubServer(out).run(io.StringIO("pos\nlevel move-time=5\ngo think\nquit\n"))
    assert threading.active_count() <= before
