"""The menu with a user folder full of bad variant files (issue 11): it opens, lists the
built-in variants and the good user ones, and says in a notification which files were
skipped.  Text from a variant file (its name, side names, start labels) is shown as
text, never read as Textual markup: a name like ``[/i]`` is a name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.rules import variant_registry
from shashki.rules.variant_registry import registry

from ..rules.test_hostile_variant_files import GOOD, hostile_folder
from .conftest import make_app, notes, press, settle, wait_for

MARKUP = """
id = "markup"
name = "[bold red]Mark[/] [/i] [link=x]"
summary = "[/] summary"
host = "wolf-sheep"
sides = { names = ["[/w]olf", "[b]Sheep"] }
[board]
start_choice = "[/c] choice"
start_options = [
    { label = "[/l]a1", start = "W:WKa1:Bb8,d8,f8,h8" },
    { label = "c1", start = "W:WKc1:Bb8,d8,f8,h8" },
]
"""


@pytest.fixture
def folder(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's variant folder of ``home``, read by a fresh registry."""
    monkeypatch.setattr(variant_registry, "_REGISTRY", None)
    path = home / "data" / "shashki" / "variants"
    path.mkdir(parents=True)
    return path


async def test_the_menu_lists_the_good_variants_beside_bad_files(home: Path, folder: Path) -> None:
    hostile_folder(folder)
    (folder / "markup.toml").write_text(MARKUP, encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.is_mounted, "the menu"
        )
        ids = [o.id for o in app.screen.query_one("#variants", OptionList).options if o.id]
        assert ids == [v.id for v in registry()]
        assert {"russian", "double-brazilian", "markup"} <= set(ids)
        await press(pilot, *["down"] * (len(ids) + 6), "up")  # to the user's variants
        said = notes(app)
        assert any("latin1.toml" in n and "[board] width" in n for n in said), said


async def test_variant_file_text_is_not_markup(home: Path, folder: Path) -> None:
    (folder / "markup.toml").write_text(MARKUP, encoding="utf-8")
    (folder / "good.toml").write_text(GOOD, encoding="utf-8")
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        variants = app.screen.query_one("#variants", OptionList)
        variants.highlighted = [o.id for o in variants.options].index("markup")
        await settle(pilot)
        await press(pilot, "enter")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        await press(pilot, *["tab"] * 10)
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)


@pytest.mark.parametrize("language", ["uk", "ru"])
async def test_the_problems_are_said_in_the_players_language(
    home: Path, folder: Path, language: str
) -> None:
    from shashki.i18n import set_language

    from ..rules.test_variant_file_languages import allowed_words, broken_folder, english_words

    broken_folder(folder)
    app = make_app(home, language=language)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: any("width.toml" in n for n in notes(app)), "the note")
            note = next(n for n in notes(app) if "width.toml" in n)
            head, *lines = note.splitlines()
            assert (
                head
                == {
                    "uk": "Проблеми з вашими файлами різновидів:",
                    "ru": "Проблемы с вашими файлами разновидностей:",
                }[language]
            )
            assert len(lines) >= 40
            allowed = allowed_words(folder)
            bad = [line for line in lines if english_words(line, folder, allowed)]
            assert not bad, "\n".join(bad)
    finally:
        set_language("en")
