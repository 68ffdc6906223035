"""The menu and its dialogs in Ukrainian and Russian: snapshots at 80x24, the layout that
must hold with longer words, and the Language setting that switches the app at once.

Refresh the snapshots after an intended change with ``pytest
tests/app/test_snapshots_menu_languages.py --snapshot-update`` and look at the new SVGs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Static

from shashki.app.dialogs import ConfirmScreen, GameOverScreen, HelpScreen, TextPrompt
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.app.replay import FileChooserScreen
from shashki.app.settings_screen import SettingsScreen
from shashki.app.widgets import Select
from shashki.i18n import language, set_language

from .conftest import click_widget, footer_entries, footer_shows, make_app, press, settle, wait_for

LANGUAGES = [pytest.param("uk", id="uk"), pytest.param("ru", id="ru")]

#: The footer's main keys of the menu, in each language.
MENU_KEYS = {
    "uk": ["Нова партія", "Відкрити", "Незавершені", "Довідка", "Вихід", "команди"],
    "ru": ["Новая партия", "Открыть", "Незавершённые", "Справка", "Выход", "команды"],
}
#: The start of Russian draughts' card, in each language.
CARD_START = {"uk": "У російські шашки грають", "ru": "В русские шашки играют"}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def on_top(app: App[Any], kind: type[Screen[Any]]) -> bool:
    """Whether a screen of ``kind`` is on top, made."""
    return isinstance(app.screen, kind) and app.screen.is_mounted


def settings_file(home: Path) -> dict[str, object]:
    data = json.loads((home / "settings.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


async def highlight(pilot, variant_id: str) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: on_top(pilot.app, MenuScreen), "the menu")
    menu = pilot.app.screen
    listed = menu.query_one("#variants", OptionList)
    listed.highlighted = listed.get_option_index(variant_id)
    await settle(pilot)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_menu_snapshot(snap_compare, home: Path, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(home, language=lang), terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_footer_keys_and_the_card_show_at_80x24(home: Path, lang: str) -> None:
    app = make_app(home, language=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await highlight(pilot, "russian")
        await footer_shows(pilot, *MENU_KEYS[lang])
        shown = lambda: [k for k in footer_entries(app.screen) if k.shown]  # noqa: E731
        # (an empty footer, while it composes its keys again, is not "every key drawn")
        await wait_for(
            pilot,
            lambda: (
                {k.description for k in shown()} >= set(MENU_KEYS[lang])
                and all(k.region for k in shown())
            ),
            "the footer's keys drawn",
        )
        keys = {k.description: k for k in shown()}
        palette = keys[MENU_KEYS[lang][-1]].region  # Textual's, docked at the right
        for word in MENU_KEYS[lang]:
            assert word in keys, (word, list(keys))
            region = keys[word].region
            # drawn whole, on the screen: not cut off at the right, nor under the palette key
            assert region.width >= len(word) + 2 and region.right <= 80, (word, region)
            if keys[word].region != palette:
                assert region.right <= palette.x, (word, region, palette)
        card = app.screen.query_one("#card", Static)
        assert CARD_START[lang] in str(card.content)
        assert card.region.width >= 30 and card.region.height >= 5, card.region
        hint = app.screen.query_one("#menu-hint", Static)
        assert hint.region.height >= 1 and "Enter" in str(hint.content)


async def test_the_language_setting_switches_the_app_at_once(home: Path) -> None:
    """Menu in Ukrainian, Russian chosen in the settings: the settings screen, the menu
    and its footer speak Russian at once, the variant highlighted stays, and the choice is
    saved; the next start speaks it too."""
    app = make_app(home, language="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        await highlight(pilot, "brazilian")
        await footer_shows(pilot, "Нова партія")
        await press(pilot, "comma")
        await wait_for(pilot, lambda: on_top(app, SettingsScreen), "the settings")
        settings = app.screen
        assert str(settings.query_one("#label-language", Label).content) == "Мова"
        choice = settings.query_one("#language", Select)
        await wait_for(pilot, lambda: app.focused is choice, "the language list focused")
        choice.value = "ru"
        await wait_for(pilot, lambda: language() == "ru", "Russian spoken")
        await wait_for(
            pilot,
            lambda: str(settings.query_one("#label-language", Label).content) == "Язык",
            "the settings in Russian",
        )
        assert str(settings.query_one("#label-board_theme", Label).content) == "Тема доски"
        assert settings.query_one("#piece_set", Select).value == "unicode"  # kept
        assert str(settings.query_one("#settings-close", Button).label) == "Закрыть"
        assert settings_file(home)["language"] == "ru"
        await press(pilot, "escape")
        await wait_for(pilot, lambda: on_top(app, MenuScreen), "the menu")
        menu = app.screen
        listed = menu.query_one("#variants", OptionList)
        assert listed.highlighted_option is not None
        assert listed.highlighted_option.id == "brazilian"
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert "Классические шашки" in prompts and "  Русские шашки" in prompts
        assert "Бразильские шашки" in str(menu.query_one("#card", Static).content)
        await footer_shows(pilot, "Новая партия", "Выход")
        assert menu.sub_title == "выберите разновидность"
    set_language("en")
    again = make_app(home)  # the setting, saved, is the language of the next start
    assert language() == "ru" and again.settings.language == "ru"


async def test_lang_on_the_command_line_wins_over_the_setting(home: Path) -> None:
    (home / "settings.json").write_text('{"language": "uk"}', encoding="utf-8")
    make_app(home, language="ru")
    assert language() == "ru"
    make_app(home)
    assert language() == "uk"
    (home / "settings.json").write_text('{"language": "fr"}', encoding="utf-8")
    set_language("en")
    assert make_app(home).settings.language == "" and language() == "en"  # automatic


async def test_the_new_game_dialog_keeps_what_was_typed_when_the_language_changes(
    home: Path,
) -> None:
    app = make_app(home, language="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        await highlight(pilot, "russian")
        await press(pilot, "enter")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        assert dialog.query_one("#name0", Input).value == "Білі"  # the side's own name
        dialog.query_one("#name1", Input).value = "Оксана"
        dialog.query_one("#kind0", Select).value = "computer-3"
        dialog.query_one("#clock", Select).value = "5+3"
        assert str(dialog.query_one("#play", Button).label) == "Грати"
        app.apply_language("ru")
        await settle(pilot)
        assert dialog.query_one("#name0", Input).value == "Белые"  # nobody typed it
        assert dialog.query_one("#name1", Input).value == "Оксана"
        assert dialog.query_one("#kind0", Select).value == "computer-3"
        assert dialog.query_one("#clock", Select).value == "5+3"
        assert str(dialog.query_one("#play", Button).label) == "Играть"
        assert str(dialog.query_one("#autoflip", Checkbox).label).startswith("Переворачивать")
        assert "Новая партия" in str(dialog.query_one("#new-title", Label).content)
        labels = [str(label) for label, _ in dialog.query_one("#kind0", Select).choices]
        assert "Компьютер, уровень 3 (любитель)" in labels
        await click_widget(pilot, "#play")
        await settle(pilot)
        controller = app.controller
        assert controller is not None
        # the side's name is kept as the variant file writes it (saved games read alike)
        assert controller.session.players[0].name == "White"
        assert controller.session.players[1].name == "Оксана"
        for screen in app.screen_stack:  # stop the computer before the app closes
            cancel = getattr(screen, "cancel_thinking", None)
            if cancel is not None:
                cancel()


async def test_dialogs_and_help_follow_the_language(home: Path) -> None:
    app = make_app(home, language="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await highlight(pilot, "russian")
        await press(pilot, "question_mark")
        await settle(pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert "Русские шашки" in str(help_screen.query_one("#help-title", Static).content)
        app.apply_language("uk")
        await settle(pilot)
        assert "Російські шашки" in str(help_screen.query_one("#help-title", Static).content)
        await press(pilot, "escape")
        await settle(pilot)
        question = ConfirmScreen("{path} already exists. Replace it with this game?", path="x")
        app.push_screen(question)
        await settle(pilot)
        assert "x уже існує" in str(question.query_one("#question", Static).content)
        app.apply_language("ru")
        await settle(pilot)
        assert "x уже существует" in str(question.query_one("#question", Static).content)
        assert str(question.query_one("#yes", Button).label) == "Да (y)"
        await press(pilot, "n")
        await settle(pilot)
        prompt = TextPrompt("Save the game as (PDN file):", "a.pdn")
        app.push_screen(prompt)
        await settle(pilot)
        prompt.query_one("#text", Input).value = "моя партія.pdn"
        app.apply_language("uk")
        await settle(pilot)
        assert "Зберегти партію як" in str(prompt.query_one("#question", Static).content)
        assert prompt.query_one("#text", Input).value == "моя партія.pdn"  # what was typed
        await press(pilot, "escape")
        await settle(pilot)
        app.open_game_dialog()
        await settle(pilot)
        chooser = app.screen
        assert isinstance(chooser, FileChooserScreen)
        typed = chooser.query_one("#path", Input).value
        app.apply_language("ru")
        await settle(pilot)
        assert "Открыть файл партий" in str(chooser.query_one("#chooser-prompt", Label).content)
        assert str(chooser.query_one("#up", Button).label) == "Вверх"
        assert chooser.query_one("#path", Input).value == typed
        await press(pilot, "escape")
        await settle(pilot)
        over = GameOverScreen("That game is over already.", can_undo=True)
        app.push_screen(over)
        await settle(pilot)
        assert str(over.query_one("#title", Static).content) == "Партия окончена"
        app.apply_language("uk")
        await settle(pilot)
        assert str(over.query_one("#title", Static).content) == "Партію завершено"
        assert str(over.query_one("#result", Static).content) == "Ця партія вже завершена."
        assert str(over.query_one("#undo", Button).label) == "Повернути хід (u)"


async def test_the_palette_offers_the_languages(home: Path) -> None:
    app = make_app(home, language="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Мова: Русский" in commands and "Мова: Автоматично (із системи)" in commands
        assert "Налаштування" in commands
        commands["Мова: Русский"].callback()
        assert language() == "ru"
        await footer_shows(pilot, "Новая партия")


async def test_the_unfinished_games_and_the_game_table_follow_the_language(home: Path) -> None:
    from shashki.app.replay import GameTableScreen
    from shashki.app.unfinished import UnfinishedScreen
    from shashki.records import GameRecord, write_game
    from shashki.rules import Game
    from shashki.store.autosaves import new_key

    def game(variant: str, plies: int) -> str:
        g = Game(variant)
        for _ in range(plies):
            g.push(g.legal_moves()[0])
        return write_game(GameRecord.from_game(g, {"White": "Оксана", "Black": "Black"}))

    folder = home / "data" / "shashki" / "autosave"
    folder.mkdir(parents=True)
    (folder / f"{new_key()}.pdn").write_text(game("russian", 5), encoding="utf-8")
    file = home / "two.pdn"
    file.write_text(game("russian", 4) + "\n" + game("turkish", 2), encoding="utf-8")
    app = make_app(home, language="uk", autosave=True, offer_resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        listed = app.screen
        assert isinstance(listed, UnfinishedScreen)
        options = listed.query_one("#games", OptionList)

        def line() -> str:
            return str(options.get_option_at_index(0).prompt)

        assert "Російські шашки — Оксана проти чорних" in line() and "3 ходи" in line()
        app.apply_language("ru")
        await settle(pilot)
        assert "Русские шашки — Оксана против чёрных" in line() and "3 хода" in line()
        assert "Незавершённые партии (1)" in str(listed.query_one("#title", Static).content)
        assert str(listed.query_one("#resume", Button).label).startswith("Продолжить")
        await press(pilot, "n")
        await settle(pilot)
        app.open_game_file(file)
        await settle(pilot)
        await settle(pilot)
        table_screen = app.screen
        assert isinstance(table_screen, GameTableScreen)
        from textual.widgets import DataTable

        table = table_screen.query_one(DataTable)
        table.move_cursor(row=1)
        progress = table_screen.query_one("#progress", Static)
        assert "2 партии" in str(progress.content)
        app.apply_language("uk")
        await settle(pilot)
        assert "2 партії" in str(progress.content)
        headings = [str(c.label) for c in table.columns.values()]
        assert "Білі" in headings and "Різновид" in headings
        assert table.row_count == 2 and table.cursor_row == 1  # the rows and the cursor stay
        assert table_screen.query_one("#filter", Input).placeholder.startswith("пошук")


def test_lang_reaches_the_app_from_the_command_line(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shashki.commands.common as common
    from shashki.cli import main

    seen: dict[str, object] = {}
    monkeypatch.setattr(
        common, "run_app", lambda start=None, **kw: seen.update(kw, start=start) or 0
    )
    assert main(["--lang", "ru", "play", "russian"]) == 0
    assert seen["language"] == "ru"
    assert main(["--lang", "uk", "replay", str(home / "none.pdn")]) != 0  # no such file
    (home / "one.pdn").write_text("1. c3-d4 *\n", encoding="utf-8")
    assert main(["--lang", "uk", "replay", str(home / "one.pdn")]) == 0
    assert seen["language"] == "uk"
    assert main(["play", "russian"]) == 0
    assert seen["language"] is None  # the setting (or the system's) decides


def test_the_autosaves_damage_report_and_clock_errors_are_translated(tmp_path: Path) -> None:
    from shashki.records.clocks import BadTimeControl, TimeControl
    from shashki.store.autosaves import Damaged, Scan

    found = Scan(tmp_path)
    found.damaged = [Damaged(tmp_path / f"{i}.pdn", tmp_path / "damaged", "x") for i in range(5)]
    set_language("ru")
    assert found.damage_report() == f"5 повреждённых автосохранений перенесено в {tmp_path}."
    found.damaged = found.damaged[:2]
    set_language("uk")
    assert found.damage_report() == f"2 пошкоджені автозбереження перенесено в {tmp_path}."
    with pytest.raises(BadTimeControl, match="хвилини \\+ додаток"):
        TimeControl.parse("soon")
