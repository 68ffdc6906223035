"""The settings file: whatever it holds, the app starts with sane settings."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.app.app import SETTING_CHOICES, load_settings
from shashki.store.settings import Settings

from .conftest import make_app, notes, press, settle

SIZE = (100, 40)

DEFAULTS = Settings()


def load_text(tmp_path: Path, text: str | bytes) -> Settings:
    path = tmp_path / "settings.json"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return Settings.load(path, choices=SETTING_CHOICES)


def test_good_values_are_kept(tmp_path: Path) -> None:
    s = load_text(
        tmp_path,
        json.dumps({"piece_set": "ascii", "undo_policy": "ask", "names": ["Ann", "Bob"]}),
    )
    assert (s.piece_set, s.undo_policy, s.names) == ("ascii", "ask", ["Ann", "Bob"])


@pytest.mark.parametrize(
    "text",
    [
        '{"names": 5}',
        '{"names": ["only one"]}',
        '{"names": [1, 2]}',
        '{"names": ["\\u001b[2J", "Bob"]}',
        '{"piece_set": 3}',
        '{"piece_set": "runes"}',
        '{"board_theme": ["classic"]}',
        '{"undo_policy": "sometimes"}',
        '{"coords": "yes"}',
        '{"bell": 1}',
        '{"autoflip": null}',
        "[1, 2, 3]",
        '"a string"',
        "{not json",
        "[" * 100_000 + "]" * 100_000,
        "",
    ],
)
def test_bad_values_fall_back_to_the_defaults(tmp_path: Path, text: str) -> None:
    assert load_text(tmp_path, text) == DEFAULTS


def test_one_bad_value_keeps_the_good_ones(tmp_path: Path) -> None:
    s = load_text(tmp_path, '{"piece_set": "ascii", "names": 5, "coords": false}')
    assert (s.piece_set, s.names, s.coords) == ("ascii", DEFAULTS.names, False)


@pytest.mark.parametrize("data", [b"\xff\xfe\x00garbage", b"\x00" * 100, os.urandom(300)])
def test_bytes_that_are_not_text(tmp_path: Path, data: bytes) -> None:
    assert isinstance(load_text(tmp_path, data), Settings)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_the_file_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "settings.json")
    loaded: list[Settings] = []
    reader = threading.Thread(
        target=lambda: loaded.append(Settings.load(tmp_path / "settings.json")), daemon=True
    )
    reader.start()
    reader.join(10)
    assert loaded == [DEFAULTS], "reading a FIFO blocked"


def test_a_folder_in_place_of_the_file(tmp_path: Path) -> None:
    (tmp_path / "settings.json").mkdir()
    assert Settings.load(tmp_path / "settings.json") == DEFAULTS


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([*Settings.__dataclass_fields__, "other"]), _json))
def test_any_json_gives_valid_settings(data: dict[str, object]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        s = Settings.load(path, choices=SETTING_CHOICES)
    assert s.piece_set in {"unicode", "contrast", "ascii"}
    assert isinstance(s.coords, bool) and isinstance(s.bell, bool)
    assert isinstance(s.autoflip, bool)
    assert s.undo_policy in {"free", "ask", "off"}
    assert s.board_theme in {"classic", "green", "contrast", "ansi"}
    assert isinstance(s.names, list) and len(s.names) == 2
    assert all(isinstance(n, str) for n in s.names)


async def test_the_app_starts_over_a_hostile_settings_file(home: Path) -> None:
    (home / "settings.json").write_text('{"names": 5, "piece_set": 7}', encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # the new-game dialog reads the names
        await settle(pilot)
        assert app.settings.names == DEFAULTS.names


# -- writing the settings never follows a link (issue 23) -------------------------------


def precious(tmp_path: Path) -> Path:
    path = tmp_path / "precious.txt"
    path.write_text("the user's own words\n")
    return path


def test_the_settings_are_never_written_through_a_link(tmp_path: Path) -> None:
    target = precious(tmp_path)
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "settings.json").symlink_to(target)
    problem = Settings(bell=True).save(folder / "settings.json")
    assert problem is not None and "a link, not a file" in problem and "\n" not in problem
    assert target.read_text() == "the user's own words\n"
    assert (folder / "settings.json").is_symlink()


def test_a_link_planted_as_the_settings_temporary_file_is_not_followed(tmp_path: Path) -> None:
    """The temporary file had a name anyone could foresee (``.settings.json.PID.tmp``)
    and was written through whatever stood there."""
    target = precious(tmp_path)
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / f".settings.json.{os.getpid()}.tmp").symlink_to(target)
    assert Settings(bell=True).save(folder / "settings.json") is None
    assert target.read_text() == "the user's own words\n"
    assert Settings.load(folder / "settings.json").bell is True


def test_a_config_folder_that_is_a_link_is_not_written_into(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "shashki").symlink_to(elsewhere)
    problem = Settings().save(tmp_path / "shashki" / "settings.json")
    assert problem is not None and "a link, not a folder" in problem
    assert list(elsewhere.iterdir()) == []


async def test_settings_that_cannot_be_saved_are_said_once(home: Path) -> None:
    target = precious(home)
    (home / "settings.json").symlink_to(target)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            app.next_board_theme()
        await settle(pilot)
        said = [n for n in notes(app) if "Settings not saved" in n]
        assert len(said) == 1 and "a link, not a file" in said[0], said
    assert target.read_text() == "the user's own words\n"


def test_the_defaults_are_among_the_app_s_names() -> None:
    """The store's model holds the defaults, the app the names it knows: they agree."""
    for name, allowed in SETTING_CHOICES.items():
        assert getattr(DEFAULTS, name) in allowed, name


def test_a_name_the_app_does_not_know_is_kept_by_no_reader_of_the_app(tmp_path: Path) -> None:
    """Read without the app's names (shashki play reads only the engines), a short name is
    taken as it is; read by the app, the default replaces it."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"piece_set": "runes", "engines": []}), encoding="utf-8")
    assert Settings.load(path).piece_set == "runes"
    assert Settings.load(path, choices=SETTING_CHOICES).piece_set == DEFAULTS.piece_set


def test_no_color_shows_the_pieces_by_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    monkeypatch.setenv("NO_COLOR", "1")
    assert load_settings(path).piece_set == "contrast"
    path.write_text(json.dumps({"piece_set": "ascii"}), encoding="utf-8")
    assert load_settings(path).piece_set == "ascii"
    monkeypatch.delenv("NO_COLOR")
    path.unlink()
    assert load_settings(path).piece_set == "unicode"
