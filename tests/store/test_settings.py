"""The settings file has one reader: the engines ``shashki play`` and ``shashki match``
seat by name are read by the same :meth:`Settings.load` as the app's settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shashki.store.settings import EngineSetting, Settings, read_engines, settings_path


def test_the_engines_are_read_as_the_app_reads_them(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    engines = [{"name": "Scan", "command": "scan hub", "folder": "/opt/scan"}]
    path.write_text(json.dumps({"engines": engines, "bell": "loud"}), encoding="utf-8")
    assert read_engines(path) == [EngineSetting("Scan", "scan hub", "/opt/scan")]
    assert read_engines(path) == Settings.load(path).engine_list
    assert Settings.load(path).bell is False  # a bad value: its default


@pytest.mark.parametrize(
    "text", ['{"engines": 5}', '{"engines": [{"name": 1}]}', "{not json", "[" * 10_000]
)
def test_bad_engines_give_none(tmp_path: Path, text: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    assert read_engines(path) == []


def test_saved_settings_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "shashki" / "settings.json"
    settings = Settings(names=["Anna", "Bohdan"], clock="5+3", language="uk")
    assert settings.save() is None
    assert Settings.load() == settings
