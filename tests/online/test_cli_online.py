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
        (["join", "127.0.0.1:1", "ABCD-EF", "--auto", "1"], "Cannot join 127.0.0.1:1"),
    ],
)
def test_a_mistake_is_one_line(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
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
