"""Files a user names: only regular files are opened, never blocking; text by its BOM."""

from __future__ import annotations

import codecs
import os
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shashki.base.userfiles import (
    UserFileError,
    bom_encoding,
    decode_text,
    open_regular,
    read_limited,
)


def test_regular_file_opens(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_bytes(b"hello")
    with open_regular(f) as fh:
        assert fh.read() == b"hello"


def test_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserFileError, match="folder"):
        open_regular(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            open_regular(fifo)
        except BaseException as exc:  # the thread reports what it saw
            outcome.append(exc)

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "opening a FIFO blocked"
    assert len(outcome) == 1 and isinstance(outcome[0], UserFileError)
    assert "pipe" in str(outcome[0])


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_device_is_refused() -> None:
    with pytest.raises(UserFileError, match="device"):
        open_regular("/dev/zero")
    with pytest.raises(UserFileError):
        read_limited("/dev/zero", 1000)


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "nothing")


def test_read_limited(tmp_path: Path) -> None:
    f = tmp_path / "big"
    f.write_bytes(b"x" * 101)
    assert read_limited(f, 101) == b"x" * 101
    with pytest.raises(UserFileError, match="too large"):
        read_limited(f, 100)


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [
        ("utf-8", codecs.BOM_UTF8),
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE),
        ("utf-32-be", codecs.BOM_UTF32_BE),
    ],
)
def test_bom_decides_the_encoding(encoding: str, bom: bytes) -> None:
    text = 'id = "шашки" # дамка'
    data = bom + text.encode(encoding)
    assert bom_encoding(data) == (encoding, len(bom))
    assert decode_text(data) == text


def test_no_bom_is_utf8_and_bad_bytes_say_where() -> None:
    assert bom_encoding(b"abc") is None
    assert decode_text("é".encode()) == "é"
    with pytest.raises(ValueError, match=r"variant\.toml is not valid UTF-8 text \(byte 3"):
        decode_text(b"abc\xff", "variant.toml")


@given(st.text())
def test_any_text_round_trips_with_any_bom(text: str) -> None:
    for enc in ("utf-8", "utf-16", "utf-32"):
        if enc == "utf-16" and text.startswith("\x00"):
            # FF FE 00 00 is also UTF-32's little-endian BOM: the bytes are ambiguous,
            # and the longer mark is the one read
            continue
        try:
            data = text.encode(enc)  # utf-16/32 write their BOM
        except UnicodeEncodeError:  # lone surrogates
            return
        if enc == "utf-8":
            data = codecs.BOM_UTF8 + data
        assert decode_text(data) == text


def test_the_user_s_folders_follow_the_xdg_base_directories(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One look-up for the data, settings and cache folders (the games, the variant files,
    settings.json, the ending tables); a variable that is empty or relative is ignored."""
    from shashki.base.userfiles import user_folder
    from shashki.engine.endings import cache_dir
    from shashki.rules.variant_registry import user_variant_dir
    from shashki.store import data_dir
    from shashki.store.settings import config_dir

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name, value in (("XDG_DATA_HOME", ""), ("XDG_CONFIG_HOME", "rel"), ("XDG_CACHE_HOME", "")):
        monkeypatch.setenv(name, value)
    home = tmp_path / "home"
    assert data_dir() == user_folder("data") == home / ".local" / "share" / "shashki"
    assert user_variant_dir() == home / ".local" / "share" / "shashki" / "variants"
    assert config_dir() == home / ".config" / "shashki"
    assert cache_dir() == home / ".cache" / "shashki" / "endings"
    for name, kind in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                       ("XDG_CACHE_HOME", "cache")):  # fmt: skip
        monkeypatch.setenv(name, str(tmp_path / kind))
        assert user_folder(kind) == tmp_path / kind / "shashki"  # type: ignore[arg-type]
    assert data_dir() == tmp_path / "data" / "shashki"
    assert config_dir() == tmp_path / "config" / "shashki"
