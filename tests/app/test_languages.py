"""The menu in the players' languages: group headings from the catalogs, variant names
from the variant files' ``names`` tables (``LANG=uk_UA.UTF-8 shashki``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import Button, Label, OptionList, Static

from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.app.settings_screen import SettingsScreen
from shashki.i18n import language, set_language
from shashki.rules import find_variant

from .conftest import footer_entries, footer_shows, make_app, press, settle, wait_for


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
        await settle(pilot)
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

    def keys() -> list[str]:
        return [k.description for k in footer_entries(app.screen)]

    set_language("uk")
    app = make_app(home)
    async with app.run_test(size=(120, 24)) as pilot:
        await footer_shows(pilot, "Нова партія", "Вихід")
        set_language("en")
        app.screen.refresh_bindings()  # the footer is drawn again
        await footer_shows(pilot, "New game", "Quit")
        assert "Вихід" not in keys(), keys()


@pytest.mark.parametrize(
    ("lang", "names", "menu_names"),
    [
        ("en", ["Back", "Play"], ["New game", "Quit"]),
        ("uk", ["Назад", "Грати"], ["Нова партія", "Вихід"]),
        ("ru", ["Назад", "Играть"], ["Новая партия", "Выход"]),
    ],
)
async def test_a_dialog_names_its_own_keys(
    home: Path, lang: str, names: list[str], menu_names: list[str]
) -> None:
    """Over the menu, the new-game dialog's footer names its keys (Esc goes back, F5
    plays), in the language spoken, instead of the menu's, which do nothing meanwhile;
    closed, the menu's footer is the one on show. The menu's hint line (Enter: a new game
    of the variant highlighted), untrue while the dialog is open, is hidden meanwhile."""

    set_language(lang)
    app = make_app(home)
    async with app.run_test(size=(100, 30)) as pilot:
        await footer_shows(pilot, *menu_names)
        menu = app.screen
        hint = menu.query_one("#menu-hint", Static)
        assert hint.display
        app.push_screen(NewGameScreen(find_variant("russian")))
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        await footer_shows(pilot, *names)
        shown = [k.description for k in footer_entries(app.screen) if k.shown]
        assert shown == names, shown
        await wait_for(pilot, lambda: not hint.display, "the menu's hint hidden")
        await press(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        await footer_shows(pilot, *menu_names)
        await wait_for(pilot, lambda: hint.display, "the menu's hint again")


#: Screens with words to redraw: the settings (whose language list is the setting itself)
#: and the new-game dialog.
SCREENS_WITH_WORDS = {
    "settings": lambda: SettingsScreen(),
    "new-game dialog": lambda: NewGameScreen(find_variant("russian")),
}


def english_words(screen: Screen[None]) -> list[str]:
    """The labels and buttons of ``screen`` still in English."""
    texts = [str(label.content) for label in screen.query(Label)]
    texts += [str(button.label) for button in screen.query(Button)]
    return [t for t in texts if t.isascii() and any(c.isalpha() for c in t)]


async def change_language_while_made(
    home: Path, make_screen: Callable[[], Screen[None]], turns: int
) -> None:
    set_language("en")
    (home / "settings.json").unlink(missing_ok=True)  # (the last case saved Russian)
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), what="the menu")
        await settle(pilot)  # (the turns are counted from an app at rest)
        screen = make_screen()
        app.push_screen(screen)
        for _ in range(turns):
            await asyncio.sleep(0)
        app.apply_language("ru")
        await wait_for(pilot, lambda: screen.is_mounted, what="the screen made")
        await wait_for(
            pilot,
            lambda: not english_words(screen),
            what=f"the screen in Russian (the language changed after {turns} turns)",
        )
        assert language() == "ru" and app.settings.language == "ru", turns


@pytest.mark.parametrize("make_screen", SCREENS_WITH_WORDS.values(), ids=SCREENS_WITH_WORDS.keys())
async def test_a_screen_being_made_when_the_language_changes_speaks_the_new_one(
    home: Path, make_screen: Callable[[], Screen[None]]
) -> None:
    """The language changed (a palette command) after 0, 1, 2... turns of the event loop
    of a screen's making (issue 23): the screen's words were redrawn half-way (stopped
    at its first widget not made yet) and the rest stayed in the old language; the
    settings screen, made with the old language as its value, set the old one back as
    it mounted. Once made, it speaks the new language whole, and the setting stays."""
    for turns in range(10):
        await change_language_while_made(home, make_screen, turns)


async def test_a_side_name_nobody_typed_is_not_carried_to_the_next_game(home: Path) -> None:
    """Artamonov's "South" and "North", offered and played as they were, are not the
    names of the players of the next game: a Russian game offers "Білі" and "Чорні"; a
    settings file that kept them (an older version) is read the same way."""
    from textual.widgets import Input

    set_language("uk")
    app = make_app(home)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        app.push_screen(NewGameScreen(find_variant("artamonov")))
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        await wait_for(pilot, lambda: app.screen.is_mounted, "the dialog made")
        dialog = app.screen
        assert dialog.query_one("#name0", Input).value == "Південь"
        dialog.query_one("#play", Button).press()
        await wait_for(pilot, lambda: not isinstance(app.screen, NewGameScreen), "the game")
        assert app.settings.names == ["", ""]
        app.settings.names = ["South", "Північ"]  # as an older version kept them
        app.push_screen(NewGameScreen(find_variant("russian")))
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the dialog")
        await wait_for(pilot, lambda: app.screen.is_mounted, "the dialog made")
        names = [app.screen.query_one(f"#name{s}", Input).value for s in (0, 1)]
        assert names == ["Білі", "Чорні"]


def test_the_app_s_constructor_sets_no_language(tmp_path: Path) -> None:
    """The process's language is the entry point's choice (``run``: --lang, else the
    settings'); making an app changes nothing outside it (issue 46)."""
    from shashki.app.app import ShashkiApp, use_language

    (tmp_path / "settings.json").write_text('{"language": "uk"}', encoding="utf-8")
    set_language("en")
    try:
        app = ShashkiApp(settings_path=tmp_path / "settings.json", autosave=False)
        assert language() == "en" and app.settings.language == "uk"
        use_language(None, app.settings)
        assert language() == "uk"
        use_language("ru", app.settings)  # --lang wins over the setting
        assert language() == "ru"
    finally:
        set_language("en")
