"""The two commands' mistakes are one line each (status 2), never a traceback."""

from __future__ import annotations

import pytest

from shashki.cli import main


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["host", "nosuch", "--auto", "1"], "unknown variant"),
        (["host", "russian", "--clock", "5+x", "--auto", "1"], "--clock"),
        (["host", "russian", "--port", "70000", "--auto", "1"], "--port must be 0 to 65535"),
        (["host", "russian", "--auto", "9"], "--auto must be a computer level"),
        (["host", "russian", "--public", "--local"], "not allowed with"),
        (["join", "nowhere", "ABCD-EF", "--auto", "1"], "is not an address"),
        (["join", "127.0.0.1:99999", "ABCD-EF", "--auto", "1"], "is not an address"),
        (["join", "127.0.0.1:CLOSED", "ABCD-EF", "--auto", "1"], "cannot join 127.0.0.1:CLOSED"),
        (["join", "127.0.0.1:1", "ABCD-EF", "--wait", "0"], "--wait must be from 1 to 600"),
        (["join", "127.0.0.1:1", "ABCD-EF", "--wait", "601"], "--wait must be from 1 to 600"),
    ],
)
def test_a_mistake_is_one_line(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str], closed_port: int
) -> None:
    args = [a.replace("CLOSED", str(closed_port)) for a in args]
    says = says.replace("CLOSED", str(closed_port))
    with pytest.raises(SystemExit) if "not allowed" in says else _nothing():
        code = main(args)
        assert code == 2
    err = capsys.readouterr().err
    assert says in err
    assert err.count("\n") == 1 and "Traceback" not in err


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "nobody answers at that port"),
        ("uk", "на цьому порту ніхто не відповідає"),
        ("ru", "на этом порту никто не отвечает"),
    ],
)
def test_a_closed_port_is_said_in_words(
    language: str, says: str, capsys: pytest.CaptureFixture[str], closed_port: int
) -> None:
    """Joining where nothing listens says so in the language spoken, never aiohttp's
    text ("ssl:default", a Python tuple of the address)."""
    try:
        assert (
            main(["--lang", language, "join", f"127.0.0.1:{closed_port}", "ABCD-EF", "--auto", "1"])
            == 2
        )
    finally:
        from shashki.i18n import set_language

        set_language("en")
    err = capsys.readouterr().err
    assert says in err, err
    assert "ssl:default" not in err and "('127.0.0.1', 1)" not in err, err
