"""Hub engines seated in the app: ``hub:COMMAND`` and the engines named in the settings;
an engine that crashes, hangs or answers an illegal move leaves the game to a person,
told in one line; engines stop with the game; a saved game never gives a command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.app.controller import Human
from shashki.app.dialogs import GameOverScreen
from shashki.app.engines import EngineSeat, engine_settings
from shashki.app.players import player_kinds, seat, seat_from_file
from shashki.app.unfinished import seat_kind
from shashki.engine.limits import Limit
from shashki.hub.player import make_player
from shashki.records import GameRecord
from shashki.session.seats import (
    PERSON,
    CommandSeat,
    LevelSeat,
    NamedEngineSeat,
    PersonSeat,
)
from shashki.store.settings import EngineSetting, Settings

from .conftest import game_screen, keys_play, make_app, notes, press, settle
from .test_computer import wait_for

FAKE = Path(__file__).parents[1] / "hub" / "fake_engine.py"
SIZE = (100, 32)


def fake(mode: str) -> CommandSeat:
    return CommandSeat(f"{sys.executable} {FAKE} {mode}")


#: The settings' engines of these tests (passed, as the app passes its settings').
DAME = engine_settings([{"name": "Dame", "command": "dame hub"}])
NONE: list[EngineSetting] = []


def test_seats_from_words() -> None:
    assert seat("hub:dame hub", engines=NONE) == CommandSeat("dame hub")
    assert seat("hub:", engines=NONE) is None and seat("hub:   ", engines=NONE) is None
    assert seat("dame", engines=NONE) is None  # not in the settings
    assert (
        seat("dame", engines=DAME)
        == seat("DAME", engines=DAME)
        == seat("engine:dame", engines=DAME)
        == NamedEngineSeat("Dame")
    )
    assert ("Engine: Dame", NamedEngineSeat("Dame").word) in player_kinds(engines=DAME)
    assert not any(key.startswith("engine:") for _label, key in player_kinds(engines=NONE))
    player = make_player(NamedEngineSeat("Dame"), "Black", engines=DAME)
    assert isinstance(player, EngineSeat) and player.name == "Dame" and player.setting == "Dame"
    assert isinstance(make_player(NamedEngineSeat("gone"), "Black", engines=DAME), Human)
    assert isinstance(make_player(CommandSeat("dame hub"), "Black"), EngineSeat)


def test_settings_engines_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    good = {"name": "Scan", "command": "/opt/scan/scan hub", "folder": "/opt/scan"}
    path.write_text(json.dumps({"engines": [good]}), encoding="utf-8")
    assert engine_settings(Settings.load(path).engines)[0].folder == "/opt/scan"
    for bad in ([good] * 21, [{"name": 3, "command": "x"}], "dame", [{"name": "x", "cmd": "y"}]):
        path.write_text(json.dumps({"engines": bad}), encoding="utf-8")
        assert Settings.load(path).engines == []
    # well-typed but unusable items are skipped one by one
    items = [{"name": "", "command": "x"}, {"name": "q", "command": 'a "b'}, good]
    assert [e.name for e in engine_settings(items)] == ["Scan"]
    # a name seats one engine: of two with one name (in any case), the first is kept
    twins = [good, {"name": "SCAN ", "command": "other hub"}]
    assert [e.command for e in engine_settings(twins)] == [good["command"]]


def test_a_saved_game_seats_only_an_engine_of_the_settings() -> None:
    record = GameRecord("international")
    record.headers.update({"BlackType": "program", "BlackEngine": "rm -rf ~"})
    assert seat_kind(record, "Black", DAME)[0] == PERSON
    record.headers["BlackEngine"] = "hub:rm -rf ~"
    assert seat_kind(record, "Black", DAME)[0] == PERSON
    record.headers["BlackEngine"] = "dame"
    assert seat_kind(record, "Black", NONE)[0] == PERSON  # not (or no longer) set up
    assert seat_kind(record, "Black", DAME) == (NamedEngineSeat("Dame"), None)


#: What a hostile file may put in a level or engine tag.
HOSTILE_SEATS = [
    "hub:sh -c 'touch pwned'",
    "HUB:sh -c 'touch pwned'",
    "  hub:sh",
    "hub:",
    "engine:hub:sh",
    "computer-hub:sh",
    "computer-9",
    "0",
    "9" * 5000,
    "dame\x1b[2J",
    "rm -rf ~",
]


@pytest.mark.parametrize("value", HOSTILE_SEATS)
@pytest.mark.parametrize("tag", ["Level", "Engine"])
def test_a_file_never_seats_a_command(value: str, tag: str) -> None:
    """Issue 23: a WhiteLevel tag of ``hub:COMMAND`` started COMMAND when the game was
    resumed.  A file seats a level 1-8, a person or an engine of the settings by its
    name; anything else is a person, said in one line naming the tag."""
    record = GameRecord("international")
    record.headers.update({"WhiteType": "program", f"White{tag}": value})
    kind, note = seat_kind(record, "White", DAME)
    assert kind == PERSON
    assert note is not None and "\n" not in note and f"White{tag}" in note
    assert "\x1b" not in note and len(note) < 250
    from_file = seat_from_file(value, engines=DAME)
    assert not isinstance(from_file, CommandSeat)


def test_the_tags_a_file_may_seat() -> None:
    record = GameRecord("international")
    record.headers.update({"WhiteType": "program", "WhiteLevel": "5"})
    assert seat_kind(record, "White", DAME) == (LevelSeat(5), None)
    record.headers["WhiteLevel"] = "dame"  # a level tag names a level, not an engine
    assert seat_kind(record, "White", DAME)[0] == PERSON
    record.headers["WhiteEngine"] = "DAME"
    assert seat_kind(record, "White", DAME) == (NamedEngineSeat("Dame"), None)
    record.headers["WhiteType"] = "human"  # a person's side: the other tags are not read
    assert seat_kind(record, "White", DAME) == (PERSON, None)
    # a program the file does not name (a Hub engine of a typed command): a person, said
    bare = GameRecord("international")
    bare.headers["BlackType"] = "program"
    kind, note = seat_kind(bare, "Black", DAME)
    assert kind == PERSON and note is not None and "BlackType" in note


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_no_words_of_a_file_seat_a_command(text: str) -> None:
    kind = seat_from_file(text, engines=DAME)
    assert kind is None or isinstance(kind, (PersonSeat, LevelSeat, NamedEngineSeat))
    # the command line's words still take hub:COMMAND
    assert seat("hub:" + text, engines=DAME) in (None, CommandSeat(text.strip()))


def autosave_with(home: Path, tags: dict[str, str]) -> str:
    """An unfinished game in the autosave folder, Black to move, with ``tags``; its key."""
    from shashki.records import write_game
    from shashki.rules import Game

    game = Game("international")
    game.push(game.legal_moves()[0])
    headers = {"White": "a", "Black": "b", "PlyCount": "1", **tags}
    folder = home / "data" / "shashki" / "autosave"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hostile.pdn").write_text(write_game(GameRecord.from_game(game, headers)))
    return "hostile"


async def test_a_resumed_autosave_never_starts_its_tags_command(home: Path) -> None:
    """The path of issue 23: the game is resumed, its seat is a person, nothing ran, and
    the player is told in one line."""
    marker = home / "pwned"
    command = f"{sys.executable} -c \"open({str(marker)!r}, 'w')\""
    key = autosave_with(home, {"BlackType": "program", "BlackLevel": f"hub:{command}"})
    app = make_app(home, autosave=True)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.resume_unfinished(key)
        await settle(pilot)
        assert ctl is not None and all(isinstance(p, Human) for p in ctl.session.players)
        said = notes(app)
        assert any("BlackLevel" in m and "a person plays" in m for m in said), said
        await keys_play(pilot, "c7", "d6")  # Black is the player's to move
        assert len(ctl.game.move_stack) == 2
        assert not marker.exists()


async def test_a_replayed_game_taken_over_seats_persons(home: Path) -> None:
    """A saved game opened in the replay viewer and taken over (t), or a position
    without moves opened to play: persons on both sides, whatever its tags say."""
    from shashki.app.replay import ReplayScreen
    from shashki.rules import Game

    game = Game("international")
    game.push(game.legal_moves()[0])
    hostile = {
        "WhiteType": "program",
        "WhiteLevel": "hub:sh -c 'touch pwned'",
        "BlackType": "program",
        "BlackEngine": "hub:sh",
    }
    record = GameRecord.from_game(game, dict(hostile))
    position = GameRecord.from_game(Game("international"), dict(hostile))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.open_record(record)
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "t")
        await settle(pilot)
        assert all(isinstance(p, Human) for p in game_screen(app).controller.session.players)
        app.open_menu()
        await settle(pilot)
        app.open_record(position)
        await settle(pilot)
        assert all(isinstance(p, Human) for p in game_screen(app).controller.session.players)


async def test_an_engine_plays_and_stops_with_the_game(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("international", kinds=(PERSON, fake("ok")))
        await settle(pilot)
        await keys_play(pilot, "d4", "e5")
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 2)
        engine_seat = ctl.session.players[1]
        assert isinstance(engine_seat, EngineSeat) and engine_seat.name == "fake-ok"
        assert engine_seat.engine is not None and engine_seat.engine.running
        process = engine_seat.engine
        ctl.session.resign()  # the end of the game, shown at once, stops its engine
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert engine_seat.engine is None and not process.running
        app.pop_screen()  # (the dialog)
        app.pop_screen()  # and so does leaving the game
        await settle(pilot)
        assert engine_seat.engine is None and not process.running


async def test_an_engine_seat_shows_the_engine_s_name_at_once(home: Path) -> None:
    """Issue 27: the seat of a ``hub:`` engine playing Black shows the name the engine
    gives in its handshake as soon as it has answered, before any move (not its command
    until its first reply)."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("international", kinds=(PERSON, fake("ok")))
        screen = game_screen(app)
        await wait_for(pilot, lambda: any("fake-ok" in seat.text() for seat in screen.seats))
        assert ctl.game.move_stack == []  # no move asked of it yet
        engine_seat = ctl.session.players[1]
        assert isinstance(engine_seat, EngineSeat) and engine_seat.name == "fake-ok"
        assert not any(str(FAKE) in seat.text() for seat in screen.seats)
        process = engine_seat.engine
        assert process is not None and process.running
        app.pop_screen()  # leaving the game before any move stops the engine too
        await wait_for(pilot, lambda: not process.running)


@pytest.mark.parametrize(("mode", "said"), [("crash", "stopped"), ("illegal", "illegal move")])
async def test_a_failing_engine_leaves_its_side_to_a_person(
    home: Path, mode: str, said: str
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        ctl = app.start_game("international", kinds=(PERSON, fake(mode)))
        await settle(pilot)
        await keys_play(pilot, "d4", "e5")
        await wait_for(pilot, lambda: ctl.session.players[1].is_human)
        await settle(pilot)
        assert len(ctl.game.move_stack) == 1  # the game is kept
        messages = notes(app)
        assert any(said in m and "you play that side now" in m for m in messages), messages
        await keys_play(pilot, "c7", "d6")  # Black is a person now
        assert len(ctl.game.move_stack) == 2
        assert game_screen(app).controller is ctl


async def test_the_new_game_dialog_seats_a_hub_engine_by_its_command(home: Path) -> None:
    """Issue 15: "Hub engine (a command)…" in the dialog shows a box for the command; an
    empty one is said there (no game), a command typed seats the engine and is offered
    again next time."""
    from textual.widgets import Button, Input, Static

    from shashki.app.menu import NewGameScreen
    from shashki.app.players import OTHER_ENGINE
    from shashki.app.widgets import Select
    from shashki.rules import find_variant

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(NewGameScreen(find_variant("international")))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        row = dialog.query_one("#engine-row1")
        assert not row.display  # hidden until that kind is chosen
        kind = dialog.query_one("#kind1", Select)
        assert OTHER_ENGINE in [value for _label, value in kind.choices]
        kind.value = OTHER_ENGINE
        await settle(pilot)
        box = dialog.query_one("#engine1", Input)
        assert row.display and app.focused is box
        dialog.query_one("#play", Button).press()
        await settle(pilot)
        assert app.screen is dialog  # no command: said, no game
        assert "Hub engine" in str(dialog.query_one("#engine-problem", Static).content)
        box.value = f"{sys.executable} {FAKE} ok"
        dialog.query_one("#play", Button).press()
        await settle(pilot)
        ctl = game_screen(app).controller
        engine_seat = ctl.session.players[1]
        assert isinstance(engine_seat, EngineSeat)
        assert app.settings.engine_command == f"{sys.executable} {FAKE} ok"
        await keys_play(pilot, "d4", "e5")
        await wait_for(pilot, lambda: len(ctl.game.move_stack) == 2)  # it plays
        assert engine_seat.name == "fake-ok"
        app.pop_screen()
        await settle(pilot)
        app.push_screen(NewGameScreen(find_variant("international")))
        await settle(pilot)
        assert app.screen.query_one("#engine0", Input).value == app.settings.engine_command


def test_a_hostile_engine_command_in_the_settings_is_dropped(tmp_path: Path) -> None:
    """The dialog's remembered command comes from a file anyone may edit: too long, not
    text or with control characters, it is forgotten (the box starts empty)."""
    path = tmp_path / "settings.json"
    for bad in ("x" * 1001, 42, ["dame", "hub"], "dame\nhub", "dame\x1b[2Jhub"):
        path.write_text(json.dumps({"engine_command": bad}), encoding="utf-8")
        assert Settings.load(path).engine_command == ""
    path.write_text(json.dumps({"engine_command": "dame hub"}), encoding="utf-8")
    assert Settings.load(path).engine_command == "dame hub"


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("flood", "wrote more than 50000 lines without answering go think"),
        ("error", "answered go think with an error: no net file: cannot search"),
        ("stderr", "its standard error ends: noise line 299 | xxx"),
    ],
)
def test_a_seat_s_engine_that_floods_or_errs_is_said_at_once(mode: str, said: str) -> None:
    """``play --black hub:…`` uses the same client: the player is told what went wrong
    (not "did not answer in 5 s"), and the seat's engine is stopped."""
    from shashki.app.engines import EngineFailed
    from shashki.rules import Game

    engine_seat = EngineSeat(fake(mode).command)
    with pytest.raises(EngineFailed) as info:
        engine_seat.think(Game("international"), Limit(), lambda: False)
    assert said in str(info.value)
    assert engine_seat.engine is None


def test_a_seat_s_engine_name_is_plain_text() -> None:
    from shashki.rules import Game

    engine_seat = EngineSeat(fake("escape").command)
    try:
        assert engine_seat.think(Game("international"), Limit(), lambda: False) is not None
        assert engine_seat.name == "fake-esca pe"
    finally:
        engine_seat.close()


def test_each_app_seats_the_engines_of_its_own_settings(tmp_path: Path) -> None:
    """The settings' engines are the app's (its settings'), passed down to where a seat
    is parsed and a player made; nothing is kept for the process (issue 46): two apps
    made with different settings each offer and seat their own, and the library's
    parser, given none, knows no named engine."""
    from shashki.app.app import ShashkiApp
    from shashki.session.seats import parse_seat

    apps = []
    for name in ("Dame", "Scan"):
        path = tmp_path / name / "settings.json"
        path.parent.mkdir()
        engine = {"name": name, "command": f"{name.lower()} hub"}
        path.write_text(json.dumps({"engines": [engine]}))
        apps.append(ShashkiApp(settings_path=path, autosave=False))
    dame, scan = apps
    assert [e.name for e in dame.settings.engine_list] == ["Dame"]
    assert [e.name for e in scan.settings.engine_list] == ["Scan"]
    for app, own, other in ((dame, "Dame", "Scan"), (scan, "Scan", "Dame")):
        engines = app.settings.engine_list
        keys = [key for _label, key in player_kinds(engines=engines)]
        assert f"engine:{own}" in keys and f"engine:{other}" not in keys
        assert seat(own.lower(), engines=engines) == NamedEngineSeat(own)
        assert seat(other.lower(), engines=engines) is None
        player = make_player(NamedEngineSeat(own), "Black", engines=engines)
        assert isinstance(player, EngineSeat) and player.command == f"{own.lower()} hub"
        assert isinstance(make_player(NamedEngineSeat(other), "Black", engines=engines), Human)
    assert parse_seat("dame") is None and parse_seat("scan") is None
