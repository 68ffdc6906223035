"""The menu in the players' languages: group headings from the catalogs, variant names
from the variant files' ``names`` tables (``LANG=uk_UA.UTF-8 shashki``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import OptionList

from shashki.i18n import set_language

from .conftest import make_app


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("uk", ["Класичні шашки", "Російські шашки", "Національні ігри", "Фризькі шашки"]),
        ("ru", ["Классические шашки", "Русские шашки", "Национальные игры", "Тайские шашки"]),
        ("en", ["Classic draughts", "Russian draughts", "National games", "Thai draughts"]),
    ],
)
async def test_the_menu_speaks_the_language(home: Path, language: str, words: list[str]) -> None:
    set_language(language)
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        listed = app.screen.query_one("#variants", OptionList)
        texts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        shown = "\n".join(texts)
        for word in words:
            assert word in shown, (language, word)
        hint = str(app.screen.query_one("#menu-hint").content)
        assert ("Enter" in hint) and (language == "en") == ("a new game" in hint)


async def test_the_footer_names_the_keys_in_the_language_and_follows_a_change(
    home: Path,
) -> None:
    """Key names are written once (``N_``) and translated each time the footer is drawn."""
    from textual.widgets._footer import FooterKey

    def keys() -> list[str]:
        return [k.description for k in app.screen.query(FooterKey)]

    set_language("uk")
    app = make_app(home)
    async with app.run_test(size=(120, 24)) as pilot:
        await pilot.pause()
        assert {"Нова гра", "Вихід"} <= set(keys()), keys()
        set_language("en")
        app.screen.refresh_bindings()  # the footer is drawn again
        await pilot.pause()
        await pilot.pause()
        assert {"New game", "Quit"} <= set(keys()), keys()
