"""Served mode (``shashki serve``): the person at the keys is a visitor, not the owner of
the machine.  No program starts but the engines of the owner's settings (a ``hub:``
command typed anywhere seats nobody); the open dialog and "save as" stay inside
shashki's games folder (no absolute path, no ``..``, no ``~``, no link leading out);
the settings that name programs or paths are shown, never changed.  Each place the app
takes a path or a command from the visitor has its test here; the same words outside
served mode still do what they always did."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DirectoryTree, Input

from shashki.app.app import ShashkiApp
from shashki.app.controller import Human
from shashki.app.dialogs import ConfirmScreen, TextPrompt
from shashki.app.engines import EngineSeat, engine_settings
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.app.players import OTHER_ENGINE, player_kinds, seat
from shashki.app.replay import FileChooserScreen, GamesTree, GameTableScreen
from shashki.app.settings_screen import SettingsScreen
from shashki.app.widgets import Select
from shashki.hub.player import make_player
from shashki.records import GameRecord
from shashki.rules import Color
from shashki.session.seats import CommandSeat, NamedEngineSeat
from shashki.session.served import (
    JOIN_VARIABLE,
    SERVED_VARIABLE,
    NotAllowed,
    games_file,
    hide_paths,
    inside_games,
    join_allowed,
    served,
    shown_path,
)
from shashki.store import save_pdn
from shashki.store.settings import Settings

from .conftest import game_screen, make_app, notes, press, settle, wait_for

SIZE = (100, 32)
#: What a visitor may type for a program: each would run a command on the server.
COMMANDS = ["hub:touch pwned", "HUB: sh -c 'touch pwned'", " hub:/bin/sh"]
OWNER_ENGINE = {"name": "Dame", "command": "dame hub", "folder": "/opt/dame"}


@pytest.fixture
def visitor(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app is served: a visitor at the keys."""
    monkeypatch.setenv(SERVED_VARIABLE, "1")
    yield


@pytest.fixture
def games(home: Path) -> Path:
    """The games folder, with a game in it, a sub-folder, and links leading out of it
    (to a folder and to a file of the server's)."""
    folder = home / "data" / "shashki" / "games"
    (folder / "old").mkdir(parents=True)
    record = GameRecord("russian")
    save_pdn(folder / "mine.pdn", [record])
    save_pdn(folder / "old" / "older.pdn", [record])
    secret = home / "secret"
    secret.mkdir()
    save_pdn(secret / "secret.pdn", [record])
    (folder / "out").symlink_to(secret)
    (folder / "out.pdn").symlink_to(secret / "secret.pdn")
    return folder


def table(app: ShashkiApp) -> GameTableScreen | None:
    """The table of a file's games, when one is open (a file of one game goes on to it)."""
    found = [s for s in app.screen_stack if isinstance(s, GameTableScreen)]
    return found[-1] if found else None


def test_served_mode_is_the_variable_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SERVED_VARIABLE, raising=False)
    assert not served()
    monkeypatch.setenv(SERVED_VARIABLE, "1")
    assert served()


def test_a_typed_command_seats_nobody(visitor: None) -> None:
    owner = engine_settings([OWNER_ENGINE])
    for words in COMMANDS:
        assert seat(words, engines=owner) is None, words
        kind = CommandSeat(words.strip()[4:].strip())
        player = make_player(kind, "Black")  # (had a seat reached it some other way)
        assert isinstance(player, Human) and not isinstance(player, EngineSeat)
    assert OTHER_ENGINE not in [key for _label, key in player_kinds(engines=owner)]
    # the owner's engines are still seated by name
    assert seat("dame", engines=owner) == NamedEngineSeat("Dame")
    engine = make_player(NamedEngineSeat("Dame"), "Black", engines=owner)
    assert isinstance(engine, EngineSeat) and engine.command == "dame hub"


def test_outside_served_mode_a_command_still_seats_an_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SERVED_VARIABLE, raising=False)
    assert seat("hub:dame hub", engines=[]) == CommandSeat("dame hub")
    assert OTHER_ENGINE in [key for _label, key in player_kinds(engines=[])]


async def test_the_new_game_dialog_offers_no_command(
    home: Path, visitor: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = {"engines": [OWNER_ENGINE], "engine_command": "owner-only --secret"}
    (home / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        await settle(pilot)
        dialog = app.screen
        for side in (0, 1):
            kinds = dialog.query_one(f"#kind{side}", Select)
            offered = [value for _label, value in kinds.choices]
            assert OTHER_ENGINE not in offered and "engine:Dame" in offered
            with pytest.raises(Exception):  # noqa: B017 (Textual's InvalidSelectValueError)
                kinds.value = OTHER_ENGINE
            # the owner's last command is neither shown nor used
            box = dialog.query_one(f"#engine{side}", Input)
            assert box.value == ""
            box.value = "touch pwned"  # (a hidden box, typed into all the same)
        await pilot.click("#play")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewGameScreen), "the game")
        players = game_screen(app).controller.session.players
        assert all(isinstance(p, Human) for p in players)
    saved = json.loads((home / "settings.json").read_text(encoding="utf-8"))
    assert saved["engine_command"] == "owner-only --secret"  # not the visitor's
    assert not (Path.cwd() / "pwned").exists()


async def test_the_open_dialog_stays_in_the_games_folder(
    home: Path, visitor: None, games: Path
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "o")
        await wait_for(pilot, lambda: isinstance(app.screen, FileChooserScreen), "the dialog")
        await settle(pilot)
        chooser = app.screen
        tree = chooser.query_one(DirectoryTree)
        assert isinstance(tree, GamesTree) and Path(tree.path) == games
        box = chooser.query_one("#path", Input)
        assert box.value == ""  # no path of the server's shown
        # the tree lists the folder's own entries, not the links that lead out
        await wait_for(pilot, lambda: len(tree.root.children) >= 2, "the tree filled")
        listed = {Path(node.data.path).name for node in tree.root.children if node.data}
        assert listed == {"mine.pdn", "old"}, listed
        # the folder's parent is as far as Up goes: not at all
        await press(pilot, "backspace")
        await settle(pilot)
        assert Path(tree.path) == games
        # every path that leads out is refused in one line, and the dialog stays
        for typed in (
            "/etc/passwd",
            str(home / "secret" / "secret.pdn"),
            "../../../../etc/passwd",
            "old/../../secret.pdn",
            "~/secret/secret.pdn",
            "out/secret.pdn",
            "out.pdn",
            "out",
        ):
            said = len(notes(app))
            box.value = typed
            box.focus()
            await press(pilot, "enter")
            await wait_for(pilot, lambda s=said: len(notes(app)) > s, f"{typed} refused")
            assert "games folder" in notes(app)[-1], (typed, notes(app)[-1])
            assert app.screen is chooser and Path(tree.path) == games
        # a file of the folder, typed by its name, opens
        box.value = "old/older.pdn"
        await press(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "its one game")
        await settle(pilot)
        assert table(app).path == games / "old" / "older.pdn"  # type: ignore[union-attr]


async def test_no_file_outside_the_games_folder_opens(
    home: Path, visitor: None, games: Path
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for path in (Path("/etc/passwd"), games / "out.pdn", games / "out" / "secret.pdn"):
            app.open_game_file(path)
            await settle(pilot)
            assert isinstance(app.screen, MenuScreen)
            assert "games folder" in notes(app)[-1]
        app.open_game_file(games / "mine.pdn")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "its one game")
        await settle(pilot)
        assert table(app).path == games / "mine.pdn"  # type: ignore[union-attr]


async def test_save_as_stays_in_the_games_folder(home: Path, visitor: None, games: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("russian")
        await wait_for(pilot, lambda: game_screen(app) is not None, "the game")
        await settle(pilot)
        for typed in (
            "/tmp/pwned.pdn",
            str(home / "pwned.pdn"),
            "../pwned.pdn",
            "old/../../pwned.pdn",
            "~/pwned.pdn",
            "out/pwned.pdn",
        ):
            await press(pilot, "s")
            await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt), "the prompt")
            box = app.screen.query_one(Input)
            assert "/" not in box.value and box.value.endswith(".pdn")  # a name, no path
            said = len(notes(app))
            box.value = typed
            await press(pilot, "enter")
            await wait_for(pilot, lambda s=said: len(notes(app)) > s, f"{typed} refused")
            assert notes(app)[-1].startswith("Not saved:"), notes(app)[-1]
            assert "games folder" in notes(app)[-1]
        assert not (home / "pwned.pdn").exists() and not (home / "secret" / "pwned.pdn").exists()
        # a link in the folder is not written through either
        await press(pilot, "s")
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt), "the prompt")
        app.screen.query_one(Input).value = "out.pdn"
        await press(pilot, "enter")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)  # not even asked: refused
        assert notes(app)[-1].startswith("Not saved:"), notes(app)[-1]
        assert (games / "out.pdn").is_symlink()
        # a plain name is saved in the games folder, and said by its name alone
        await press(pilot, "s")
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt), "the prompt")
        app.screen.query_one(Input).value = "old/kept.pdn"
        await press(pilot, "enter")
        await wait_for(pilot, lambda: (games / "old" / "kept.pdn").is_file(), "the save")
        assert notes(app)[-1] == "Saved as kept.pdn in the games folder"
        assert str(home) not in notes(app)[-1]
        # saved again under that name: asked about by its name alone, and replaced
        await press(pilot, "s")
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt), "the prompt")
        app.screen.query_one(Input).value = "old/kept.pdn"
        await press(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert app.screen.question == "kept.pdn already exists. Replace it with this game?"
        said = len(notes(app))
        await press(pilot, "y")
        await wait_for(pilot, lambda: len(notes(app)) > said, "the save")
        assert notes(app)[-1] == "Saved as kept.pdn in the games folder"


def test_names_are_checked_in_the_games_folder(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "link").symlink_to(tmp_path)
    assert games_file("a.pdn", folder) == folder / "a.pdn"
    assert games_file(" sub/a.pdn ", folder) == folder / "sub" / "a.pdn"
    assert inside_games(folder / "a.pdn", folder) == (folder / "a.pdn").resolve()
    for name in ("", "  ", "/a.pdn", "../a.pdn", "a/../../b", "~/a", "~root", "link/a", "a\x00b"):
        with pytest.raises(NotAllowed):
            games_file(name, folder)
    for path in (tmp_path, tmp_path / "x.pdn", folder / "link" / "x", Path("/etc/passwd")):
        with pytest.raises(NotAllowed):
            inside_games(path, folder)


async def test_settings_that_name_programs_are_shown_not_changed(home: Path, visitor: None) -> None:
    (home / "settings.json").write_text(json.dumps({"engines": [OWNER_ENGINE]}), encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "comma")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        await settle(pilot)
        screen = app.screen
        assert not screen.query(Input)  # nothing on it takes a path or a command
        assert str(screen.query_one("#engines").render()) == "Dame"
        note = str(screen.query_one("#settings-note").render())
        assert "web browser" in note and "cannot be changed from here" in note
        assert "dame hub" not in note and "/opt/dame" not in note
    assert Settings.load(home / "settings.json").engines == [OWNER_ENGINE]


async def test_the_menu_does_not_show_where_the_owners_files_are(
    home: Path, visitor: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.app.menu import MenuScreen
    from shashki.rules import variant_registry

    monkeypatch.setattr(variant_registry, "_REGISTRY", None)  # (read again, with this one)
    folder = home / "data" / "shashki" / "variants"
    folder.mkdir(parents=True)
    (folder / "own.toml").write_text(OWN_VARIANT, encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=(160, 60)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await settle(pilot)
        menu = app.screen
        menu.show_variant("served-own")  # type: ignore[attr-defined]
        card = str(menu.query_one("#card").render())
        assert "Owner's own" in card and str(home) not in card
    monkeypatch.delenv(SERVED_VARIABLE)
    app = make_app(home)
    async with app.run_test(size=(160, 60)) as pilot:  # (the owner is told where it is)
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await settle(pilot)
        app.screen.show_variant("served-own")  # type: ignore[attr-defined]
        assert str(folder) in str(app.screen.query_one("#card").render())


#: A variant file of the owner's.
OWN_VARIANT = """
id = "served-own"
name = "Owner's own"
summary = "Russian draughts under another name."
host = "russian"
"""


async def test_a_visitor_is_offered_no_online_play_unless_the_owner_allows_joining(
    home: Path, visitor: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hosting would open a port on the owner's machine, joining connects from it to any
    address a visitor types: a served app offers neither a friend's seat nor "Play
    online"; every way in says so in one line and opens nothing."""
    from shashki.app import online

    monkeypatch.delenv(JOIN_VARIABLE, raising=False)
    assert not join_allowed()
    assert "online" not in [key for _label, key in player_kinds(engines=[])]
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        menu = app.screen
        assert menu.check_action("online", ()) is False  # (not in the footer, w does nothing)
        await press(pilot, "w")
        await settle(pilot)
        assert app.screen is menu
        online.online_menu(app, "russian")
        await wait_for(pilot, lambda: online.join_off() in notes(app), "the refusal")
        assert online.host_game(app, "russian", side=Color.WHITE, name="v", clock=None) is None
        assert await online.join_game(app, "127.0.0.1:9", "K7WQ-M2", "v") is None
        await settle(pilot)
        assert notes(app)[-1] == online.join_off()
        assert app.screen is menu


async def test_with_join_allowed_a_visitor_joins_and_is_never_offered_hosting(
    home: Path, visitor: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.app import online

    monkeypatch.setenv(JOIN_VARIABLE, "1")
    assert join_allowed()
    assert "online" not in [key for _label, key in player_kinds(engines=[])]
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert app.screen.check_action("online", ()) is True
        await press(pilot, "w")  # no choice with "Host" in it: the address is asked at once
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt), "the address asked")
        assert not any(isinstance(s, online.OnlineChoice) for s in app.screen_stack)
        assert online.host_game(app, "russian", side=Color.WHITE, name="v", clock=None) is None
        await wait_for(pilot, lambda: online.host_refused() in notes(app), "the refusal")


async def test_no_notice_names_the_owners_folders(home: Path, visitor: None, games: Path) -> None:
    """A file that is not there is named as the visitor typed it; an error that quotes a
    path of the owner's says it from the games folder, or says which folder."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "o")
        await wait_for(pilot, lambda: isinstance(app.screen, FileChooserScreen), "the dialog")
        await settle(pilot)
        box = app.screen.query_one("#path", Input)
        box.value = "old/x.pdn"
        box.focus()
        await press(pilot, "enter")
        await wait_for(pilot, lambda: any("x.pdn" in n for n in notes(app)), "no such file")
        await press(pilot, "escape")
        app.open_game_file(games / "nowhere.pdn")
        await wait_for(pilot, lambda: any("nowhere.pdn" in n for n in notes(app)), "not there")
        app.error_notice(f"[Errno 13] Permission denied: '{games / 'old' / 'y.pdn'}'")
        app.error_notice(f"cannot write {home / 'config' / 'shashki' / 'settings.json'}")
        await settle(pilot)
        said = notes(app)[-4:]
        assert said[0] == "No such file: old/x.pdn", said
        assert said[1] == "Cannot open nowhere.pdn: no such file", said
        assert said[2] == "[Errno 13] Permission denied: 'old/y.pdn'", said
        assert said[3] == "cannot write shashki's settings folder/settings.json", said
        for note in notes(app):
            assert str(home) not in note and "shashki/games" not in note, note


def test_paths_are_shown_whole_outside_served_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SERVED_VARIABLE, raising=False)
    if served():
        pytest.skip("this process runs in served mode")
    path = tmp_path / "games" / "a.pdn"
    assert shown_path(path, tmp_path / "games") == str(path)
    assert hide_paths(f"Cannot open {path}") == f"Cannot open {path}"
    monkeypatch.setenv(SERVED_VARIABLE, "1")
    assert shown_path(path, tmp_path / "games") == "a.pdn"
    assert shown_path(tmp_path / "elsewhere" / "b.pdn", tmp_path / "games") == "b.pdn"


async def test_every_failure_to_join_reads_the_same_after_the_same_time(
    home: Path, visitor: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With joining allowed, a visitor could scan the owner's network through "Join a
    game": a closed port, a port that accepts and says nothing, a web server, and
    ``shashki serve``'s own port all give one line after one delay (and the server's
    terminal shows no traceback, nor the visitor's code)."""
    import asyncio
    import socket
    import time

    from aiohttp import web

    from shashki.app import online
    from shashki.serve import Addresses, make_server

    monkeypatch.setenv(JOIN_VARIABLE, "1")
    seconds = 2.0
    monkeypatch.setattr(online, "JOIN_SECONDS", seconds)

    def bound() -> socket.socket:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        return sock

    closed = bound()
    closed_port = closed.getsockname()[1]
    closed.close()
    silent = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    runners = []

    async def serving(app: web.Application, sock: socket.socket) -> int:
        runner = web.AppRunner(app)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        runners.append(runner)
        return int(sock.getsockname()[1])

    web_port = await serving(web.Application(), bound())
    sock = bound()
    said: list[str] = []
    server = make_server(
        ["true"],
        Addresses(sock.getsockname()[1], public=False),
        visitors=2,
        join=False,
        say=said.append,
    )
    server.initialize_logging()
    serve_port = await serving(await server.web_app(), sock)
    ports = [closed_port, silent.sockets[0].getsockname()[1], web_port, serve_port]
    app = make_app(home)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")

            async def join(port: int) -> float:
                started = time.monotonic()
                result = await online.join_game(app, f"127.0.0.1:{port}", "K7WQ-M2", "v")
                assert result is None
                return time.monotonic() - started

            took = await asyncio.gather(*(join(port) for port in ports))
            await settle(pilot)
    finally:
        silent.close()
        for runner in runners:
            await runner.cleanup()
    for port, elapsed in zip(ports, took, strict=True):
        assert online.join_failed(f"127.0.0.1:{port}") in notes(app), (port, notes(app))
        assert elapsed >= seconds, (port, elapsed)
    failures = [n for n in notes(app) if "127.0.0.1" in n]
    assert len(failures) == len(ports)
    assert sorted(failures) == sorted(online.join_failed(f"127.0.0.1:{p}") for p in ports)
    printed = capsys.readouterr()
    for text in (printed.out, printed.err, *said):
        assert "Traceback" not in text and "K7WQ" not in text, text


@pytest.mark.parametrize(
    "tag", ["host K7WQ-M2 8765 lan white on", "join 127.0.0.1:9 K7WQ-M2 black on"]
)
async def test_an_online_autosave_goes_on_at_the_keyboard_in_the_browser(
    home: Path, visitor: None, monkeypatch: pytest.MonkeyPatch, tag: str
) -> None:
    """The owner's unfinished online game, resumed by a visitor: neither hosted again
    (a port of the server) nor joined (joining is off): one line, and the game goes on
    at this keyboard."""
    from shashki.app.online import OnlineGameScreen
    from shashki.records import read_games_text
    from shashki.store import AutosaveSlot

    monkeypatch.delenv(JOIN_VARIABLE, raising=False)
    slot = AutosaveSlot.new()
    record = next(
        iter(
            read_games_text(
                '[White "Anna"]\n[Black "Boris"]\n[Result "*"]\n[GameType "25"]\n'
                f'[ShashkiOnline "{tag}"]\n\n1. c3-d4 *\n'
            )
        )
    )
    slot.save(record.end().replay(), dict(record.headers))
    slot.release()
    app = make_app(home, autosave=True)
    async with app.run_test(size=SIZE) as pilot:
        assert app.resume_unfinished(slot.key) is not None
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert not isinstance(app.screen, OnlineGameScreen)
        assert any("goes on at this keyboard" in n for n in notes(app)), notes(app)
