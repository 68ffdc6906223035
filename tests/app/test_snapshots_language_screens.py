"""The screens a player sees most, in Ukrainian and Russian, at 80x24 and 120x40: the game,
the menu, the new-game dialog (with a drop-down open: one line per entry) and the end of
a game. Longer words must not be cut; the sides decline ("Хід білих") and counts take
their noun ("12 простих шашок").

Kept in a file of their own, so that a change of layout elsewhere (a wider drop-down)
re-records only these: ``pytest tests/app/test_snapshots_language_screens.py
--snapshot-update``, then look at the new SVGs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from shashki.app.dialogs import GameOverScreen
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.i18n import set_language
from shashki.rules import registry
from shashki.rules.move import Color

from .conftest import game_screen, make_app, settle, wait_for
from .test_snapshots_game_languages import capture_pending

LANGUAGES = [pytest.param("uk", id="uk"), pytest.param("ru", id="ru")]
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
#: The dialogs at the smallest terminal too (issue 49: fields cut or hidden at 60x20).
DIALOG_SIZES = [pytest.param((60, 20), id="60x20"), *SIZES]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_game(snap_compare, home: Path, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = make_app(home, variant="russian", language=lang)
    assert snap_compare(app, terminal_size=size, run_before=capture_pending)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_menu(snap_compare, home: Path, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def artamonov_highlighted(pilot: Pilot[None]) -> None:
        app: Any = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        listed = app.screen.query_one("#variants")
        listed.highlighted = listed.get_option_index("artamonov")
        await settle(pilot)

    app = make_app(home, language=lang)
    assert snap_compare(app, terminal_size=size, run_before=artamonov_highlighted)


async def _new_game(pilot: Pilot[None], open_kinds: bool) -> None:
    app: Any = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    app.push_screen(NewGameScreen(registry().find("artamonov")))
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, NewGameScreen) and app.screen.is_mounted,
        "the new-game dialog",
    )
    dialog = app.screen
    # the focus on the first field (drawn in the focus colour) before the picture, and no
    # blinking cursor in it: a picture taken a moment earlier or later once differed
    await wait_for(pilot, lambda: dialog.focused is dialog.query_one("#name0"), "the focus")
    for box in dialog.query(Input):
        box.cursor_blink = False
    if open_kinds:
        kinds = dialog.query_one("#kind0", Select)
        kinds.focus()
        kinds.expanded = True
        await wait_for(pilot, lambda: kinds.expanded, "the drop-down open")
    await settle(pilot)


@pytest.mark.parametrize("size", DIALOG_SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_new_game_dialog(snap_compare, home: Path, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def opened(pilot: Pilot[None]) -> None:
        await _new_game(pilot, open_kinds=False)

    assert snap_compare(make_app(home, language=lang), terminal_size=size, run_before=opened)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_new_game_drop_down(snap_compare, home: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    async def opened(pilot: Pilot[None]) -> None:
        await _new_game(pilot, open_kinds=True)

    assert snap_compare(make_app(home, language=lang), terminal_size=(80, 24), run_before=opened)


@pytest.mark.parametrize("size", DIALOG_SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_end_of_game(snap_compare, home: Path, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def white_resigned(pilot: Pilot[None]) -> None:
        app: Any = pilot.app
        await capture_pending(pilot)
        screen = game_screen(app)
        screen.controller.session.resign(Color.WHITE)
        screen.show_game_over()
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "the end")
        await settle(pilot)

    app = make_app(home, variant="russian", language=lang)
    assert snap_compare(app, terminal_size=size, run_before=white_resigned)


def _unfinished_games(home: Path) -> None:
    """Three unfinished games, last played on fixed days (the list says when)."""
    import os
    import time

    from .test_unfinished import autosave_folder, old_format

    folder = autosave_folder(home)
    folder.mkdir(parents=True)
    for n, (variant, plies) in enumerate((("russian", 3), ("international", 6), ("czech", 2))):
        path = folder / f"game{n}.pdn"
        path.write_bytes(old_format(variant, plies))
        stamp = time.mktime((2020, 1, 3 - n, 12, 0, 0, 0, 0, -1))
        os.utime(path, (stamp, stamp))


@pytest.mark.parametrize("size", DIALOG_SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_unfinished_games(snap_compare, home: Path, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """The unfinished games at the start: every button whole, at 60x20 too (issue 49)."""
    from shashki.app.unfinished import UnfinishedScreen

    _unfinished_games(home)

    async def listed(pilot: Pilot[None]) -> None:
        app: Any = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, UnfinishedScreen), "the list")
        await settle(pilot)

    app = make_app(home, language=lang, autosave=True, offer_resume=True)
    assert snap_compare(app, terminal_size=size, run_before=listed)
