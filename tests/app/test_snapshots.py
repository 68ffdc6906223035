"""SVG snapshots that guard the look: the menu, boards of every kind, the route choice, the
too-small message and the ASCII pieces, each at 80x24 and at a larger size.

The app runs with a private home (no user settings, variant files or autosave), no resume
question and no clock, so the pictures depend on the code alone.  Refresh them after an
intended change with ``pytest tests/app/test_snapshots.py --snapshot-update`` and look at
the new SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import TWO_ROUTES, clicks_play, make_app, press

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
def test_menu(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(home), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_board_8x8(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(home, variant="russian"), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_board_10x10(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(home, variant="international"), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_board_orthogonal(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(home, variant="turkish"), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_bashni_columns(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = make_app(home, variant="bashni", fen="W:Wc3,e5=bbw,g3=bw:Bd4,f6=wB")
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_route_choice(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def choose(pilot) -> None:  # type: ignore[no-untyped-def]
        await clicks_play(pilot, "c5", "g1")  # two routes end on g1
        await press(pilot, "tab")  # the second one on show

    app = make_app(home, variant="russian", fen=TWO_ROUTES)
    assert snap_compare(app, terminal_size=size, run_before=choose)


# every board fits at 80x24, so the message is shown at two sizes below the minimum
@pytest.mark.parametrize(
    ("variant", "size"),
    [
        pytest.param("russian", (24, 8), id="8x8-24x8"),
        pytest.param("international", (40, 12), id="10x10-40x12"),
    ],
)
def test_too_small(snap_compare, home: Path, variant: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(home, variant=variant), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_ascii_pieces(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = make_app(home, variant="russian", fen="W:WKa1,c3,e3,g3:BKh8,b6,d6,f6")
    assert snap_compare(app, press=["p", "p"], terminal_size=size)  # unicode, contrast, ascii


@pytest.mark.parametrize("size", SIZES)
def test_clocks(snap_compare, home: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    from shashki.records.clocks import TimeControl
    from shashki.session.seats import PERSON, LevelSeat

    # a person against the computer on a 5+3 clock, the person to move; the clock's time
    # stands still (a fake source), so the picture does not depend on the machine's speed
    app = make_app(home, variant="russian", kinds=(PERSON, LevelSeat(5)), clock=TimeControl(300, 3))
    app.clock_time = lambda: 0.0
    assert snap_compare(app, terminal_size=size)
