"""Text from outside shashki is shown as it is, never read as Textual or Rich markup
(issue 11).

Player names typed in the new-game dialog, a variant file's names, card and start labels,
PDN tags and comments, autosaved games, file paths and moves typed in the move box may
hold square brackets.  Read as markup, ``[/x]`` crashes the app (MarkupError), ``[b]``
changes the look, and ``[@click=app.quit]x[/]`` would make a name a clickable action.
Each test goes where such text is shown and checks that the literal text is on screen,
read the way each widget reads its content (see :func:`shown`).
"""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from textual.app import App
from textual.content import Span
from textual.geometry import Region
from textual.screen import Screen
from textual.visual import visualize
from textual.widgets import DataTable, Input, OptionList, Select, Static

from shashki.app import app as app_module
from shashki.app.dialogs import ConfirmScreen, GameOverScreen, HelpScreen, TextPrompt
from shashki.app.game_screen import GameScreen
from shashki.app.menu import MenuScreen, NewGameScreen
from shashki.app.plain import literal, marked, visible
from shashki.app.replay import GameTableScreen, ReplayScreen
from shashki.app.unfinished import UnfinishedScreen
from shashki.rules import Game, variant_registry
from shashki.rules.variant_registry import find_variant
from shashki.store import AutosaveSlot

from .conftest import click_widget, make_app, press, settle, wait_for

SIZE = (160, 50)

#: Markup of every kind: a closing tag with nothing open (MarkupError), a style, an
#: action link, what Textual's and Rich's escape() leave alone (capitals, variables, a
#: space after the bracket, backslashes).
HOSTILE = [
    "[/x]",
    "[bold]",
    "[@click=app.quit]x[/]",
    "[B]x[/B]",
    "[$accent]y",
    "[ b]w[/]",
    "a\\",
    "\\[b]z",
    "[on red]r[/on red]",
    "[link=https://example.org]l[/link]",
]

#: Names made of the characters markup is made of.
markupish = (
    st.lists(
        st.sampled_from(["[", "]", "\\", "@", "=", "/", "$", "b", "x", " ", "click", "app.quit"]),
        min_size=1,
        max_size=12,
    )
    .map("".join)
    .filter(lambda s: s == s.strip() and bool(s))
)

#: A user's variant (on Wolf and Sheep) whose every text is markup.
HOSTILE_VARIANT = """
id = "hostile"
name = "[/w]olf [@click=app.quit]game[/]"
summary = "[/s] summary [bold]"
host = "wolf-sheep"
sides = { names = ["[/w]olf", "[@click=app.quit]Sheep[/]"] }
[board]
start_choice = "[/c] the [B]square[/B]"
start_options = [
    { label = "[/l]a1", start = "W:WKa1:Bb8,d8,f8,h8" },
    { label = "[$accent]c1", start = "W:WKc1:Bb8,d8,f8,h8" },
]
[card]
text = \"\"\"
[/card] The [@click=app.quit]wolf[/] moves first [link=https://example.org]here[/link].

A [b]second[/b] paragraph \\\\[x], [a *link*](https://example.org).
\"\"\"
"""
#: What the card says (TOML's "\\\\" is one backslash).
CARD = "[/card] The [@click=app.quit]wolf[/] moves first [link=https://example.org]here[/link]."
CARD2 = "A [b]second[/b] paragraph \\[x], [a *link*](https://example.org)."

#: Two Russian games whose tags, comments and errors are markup.
HOSTILE_PDN = """\
[Event "[/e]vent [@click=app.quit]q[/]"]
[Site "[b]site"]
[Date "2024.05.01"]
[White "[/x]"]
[Black "[@click=app.quit]x[/]"]
[Result "*"]
[GameType "25"]

{[/c] start [bold]} 1. c3-d4 {[@click=app.quit]quit[/] [/x]} f6-e5 *

[Event "[/e]2"]
[White "[B]w[/B]"]
[Black "[$accent]b"]
[Result "*"]
[GameType "25"]

1. c3-d4 f6-e5 2. a1-b2 *
"""


def shown(app: App[None], only: Screen[object] | None = None) -> str:
    """Everything the app's screens (or ``only`` that one) show as text, one piece a line,
    read the way each widget reads it: statics, labels, toasts, help, option lists, table
    cells.  A text read as markup shows here without its tags (or raises the widget's
    MarkupError)."""
    parts: list[str] = []
    for screen in [only] if only is not None else app.screen_stack:
        for widget in screen.walk_children(with_self=False):
            if isinstance(widget, Static):  # Label, Toast, the Markdown blocks too
                parts.append(str(widget.render()))
            elif isinstance(widget, OptionList):
                # each option as the list makes it to draw (markup read, as by default)
                parts.extend(str(visualize(widget, option.prompt)) for option in widget.options)
            elif isinstance(widget, DataTable) and widget.size:
                # the lines as the table draws them (the part in view: the tests' tables fit)
                crop = Region(0, 0, widget.size.width, widget.size.height)
                parts.extend(strip.text for strip in widget.render_lines(crop))
    return "\n".join(parts)


def one_line(text: str) -> str:
    """``text`` with every run of white space as one space (widgets wrap and join)."""
    return " ".join(text.split())


@pytest.fixture
def variants(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's variant folder of ``home``, holding the hostile variant, read afresh."""
    monkeypatch.setattr(variant_registry, "_REGISTRY", None)
    folder = home / "data" / "shashki" / "variants"
    folder.mkdir(parents=True)
    (folder / "hostile.toml").write_text(HOSTILE_VARIANT, encoding="utf-8")
    return folder


async def type_move(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """Type ``text`` in the move box and send it."""
    await press(pilot, "colon")
    box = pilot.app.screen.query_one("#move-input", Input)
    box.value = text
    await press(pilot, "enter")
    await settle(pilot)


async def new_game(pilot, variant_id: str, names: tuple[str, str] | None = None) -> None:  # type: ignore[no-untyped-def]
    """From the menu: the new-game dialog of a variant, the names typed in, then Play."""
    app = pilot.app
    assert isinstance(app.screen, MenuScreen)
    menu = app.screen.query_one("#variants", OptionList)
    menu.highlighted = next(i for i, o in enumerate(menu.options) if o.id == variant_id)
    await press(pilot, "enter")
    await settle(pilot)
    assert isinstance(app.screen, NewGameScreen)
    if names is not None:
        for side in (0, 1):
            app.screen.query_one(f"#name{side}", Input).value = names[side]
    await settle(pilot)
    await click_widget(pilot, "#play")
    await settle(pilot)
    assert isinstance(app.screen, GameScreen), app.screen


# -- player names --------------------------------------------------------------------------


async def play_with_names(home: Path, names: tuple[str, str]) -> None:
    """A Russian game through the menu with ``names``: both shown in the side panel as
    typed, before and after a move, then an illegal typed move with brackets."""
    app = make_app(home)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await new_game(pilot, "russian", names)
        assert f"{names[0]} (White) to move" in shown(app)
        await type_move(pilot, "c3-d4")
        assert f"{names[1]} (Black) to move" in shown(app)
        await type_move(pilot, "[b]f6-g5")
        assert isinstance(app.screen, GameScreen)
        assert "'[b]f6-g5'" in shown(app)
        await press(pilot, "s")  # the save prompt over the names
        await settle(pilot)
        assert isinstance(app.screen, TextPrompt)


@pytest.mark.parametrize("name", HOSTILE)
async def test_hostile_player_names_are_names(home: Path, name: str) -> None:
    await play_with_names(home, (name, "[/" + name))


@pytest.mark.timeout(300)  # among the slowest tests (pyproject.toml: timeout)
@settings(  # (each example is a whole app run: the hostile names above are the many)
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(white=markupish, black=markupish)
@example(white="[@click=app.quit]x[/]", black="[/x]")
def test_any_player_names_are_names(home: Path, white: str, black: str) -> None:
    asyncio.run(play_with_names(home, (white, black)))


# -- a user's variant ----------------------------------------------------------------------


async def test_a_hostile_variant_file_plays_to_the_end(home: Path, variants: Path) -> None:
    """Menu, new game, the game, help, an illegal move, resignation, the end of the game
    and saving under a bracketed name: the variant's words are shown as written.

    Each step waits for the state it checks (a busy machine shows a screen or a note
    later than a ``pilot.pause()``; issue 23)."""
    v = find_variant("hostile")
    wolf, sheep = v.side_names
    app = make_app(home)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        menu = app.screen.query_one("#variants", OptionList)
        menu.highlighted = next(i for i, o in enumerate(menu.options) if o.id == "hostile")

        def card_shown() -> bool:
            text = one_line(shown(app))
            return v.name in text and "[/s] summary [bold]" in text and CARD in text

        await wait_for(pilot, card_shown, "the hostile variant's card")
        await press(pilot, "question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")

        def help_shown() -> bool:
            text = one_line(shown(app, app.screen))
            return v.name in text and CARD in text and CARD2 in text

        await wait_for(pilot, help_shown, "the variant's words in the help")
        await press(pilot, "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        await press(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new game")
        words = (f"New game: {v.name}", f"{wolf}:", f"{sheep}:", "[/c] the [B]square[/B]:")
        await wait_for(pilot, lambda: all(w in shown(app) for w in words), "the new game's words")
        assert "[/l]a1" in shown(app)
        await click_widget(pilot, "#play")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        started = (f"{wolf} to move", f"{wolf}: a1", f"{sheep}: b8")
        await wait_for(pilot, lambda: all(w in shown(app) for w in started), "the game's panel")
        await type_move(pilot, "[/m]a1-b2")
        await wait_for(pilot, lambda: "'[/m]a1-b2'" in shown(app), "the refusal of the move")
        await press(pilot, "R")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert f"Does {wolf} resign?" in shown(app, app.screen)
        await press(pilot, "y")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "the end")
        assert f"{sheep} wins: {wolf} resigned." in shown(app, app.screen)
        await press(pilot, "escape")
        await wait_for(
            pilot, lambda: f"Game over. {sheep} wins" in shown(app), "the game over line"
        )
        # saving under a bracketed name: the prompt, the note, the question over an
        # existing file and the note that it was kept all quote the path as it is
        target = home / "[/x] [@click=app.quit]game[/].pdn"  # in folders "[", "x] [@click…"
        target.parent.mkdir(parents=True)
        for answer, note in (("", f"Saved to {target}"), ("n", f"Not saved: {target} is left")):
            await press(pilot, "s")
            await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt), "the save prompt")
            app.screen.query_one(Input).value = str(target)
            await press(pilot, "enter")
            if answer:
                await wait_for(
                    pilot, lambda: isinstance(app.screen, ConfirmScreen), "the overwrite question"
                )
                assert f"{target} already exists" in one_line(shown(app, app.screen))
                await press(pilot, answer)
            # each note is read while its toast shows (a toast goes after a few seconds)
            await wait_for(pilot, lambda: note in one_line(shown(app)), note)  # noqa: B023
            assert target.is_file()


# -- the replay viewer ---------------------------------------------------------------------


async def test_replay_of_hostile_tags_and_comments(home: Path, variants: Path) -> None:
    """The game table (cells, the error line, the variant choice naming a user's variant)
    and the replay screen (tags, comments, the move list, errors) show the file's text."""
    path = home / "[/f]ile [b].pdn"  # the file "f]ile [b].pdn" in the folder "["
    path.parent.mkdir()
    path.write_text(HOSTILE_PDN, encoding="utf-8")
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        # done is set when the file is read; the table draws its rows at its next layout
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, GameTableScreen)
                and app.screen.done
                and "[B]w[/B]" in shown(app)
            ),
            "the table drawing its rows",
        )
        screen = app.screen
        assert isinstance(screen, GameTableScreen) and screen.done
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        text = shown(app)
        for words in ("[/e]vent [@click=app", "[/x]", "[@click=app.quit]x[/]", "[B]w[/B]"):
            assert words in text, words
        select = screen.query_one("#default-variant", Select)
        select.expanded = True
        await settle(pilot)
        assert f"untagged games: {find_variant('hostile').name}" in shown(app)
        select.expanded = False
        table.focus()
        await press(pilot, "down")  # the second game: its error quotes the move
        await settle(pilot)
        assert "Game 2: " in shown(app)
        await press(pilot, "up", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        text = shown(app)
        for words in (
            "White: [/x]",
            "Black: [@click=app.quit]x[/]",
            "Event: [/e]vent [@click=app.quit]q[/]",
            "Site: [b]site",
            "{[@click=app.quit]quit[/] [/x]}",
        ):
            assert words in text, words
        await press(pilot, "right")
        await settle(pilot)
        assert "[@click=app.quit]quit[/] [/x]" in shown(app)


# -- the unfinished games --------------------------------------------------------------


async def test_unfinished_games_with_hostile_names(home: Path, variants: Path) -> None:
    """The list of unfinished games, the delete question and the resumed game show the
    autosaved names (and the user's variant's name) as they are."""
    folder = home / "data" / "shashki" / "autosave"
    for variant, white in (("russian", "[/x]"), ("hostile", "[@click=app.quit]w[/]")):
        game = Game(variant)
        game.push(game.legal_moves()[0])
        slot = AutosaveSlot.new(folder)
        slot.save(game, {"White": white, "Black": "[b]black", "Event": "[/e]"})
        slot.release()
    app = make_app(home, autosave=True, offer_resume=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UnfinishedScreen)
        text = shown(app)
        assert "[/x] v [b]black" in text
        assert f"{find_variant('hostile').name} — [@click=app.quit]w[/] v [b]black" in text
        games = app.screen.query_one("#games", OptionList)
        games.highlighted = next(i for i, o in enumerate(games.options) if "[/x]" in str(o.prompt))
        await press(pilot, "d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "([/x] v [b]black, 1 move)" in shown(app, app.screen)
        await press(pilot, "n", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert "[b]black (Black) to move" in shown(app)


# -- notifications ---------------------------------------------------------------------------


async def test_a_missing_file_with_brackets_is_named_as_it_is(home: Path) -> None:
    path = home / "[/x] [@click=app.quit]q[/].pdn"
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert f"Cannot open {path}: no such file" in one_line(shown(app))


def _notify_calls(tree: ast.AST) -> list[ast.Call]:
    """Every ``x.notify(...)`` call in ``tree``."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "notify"
    ]


def test_every_notification_is_plain_text() -> None:
    """Textual reads a notification as markup unless told not to; most of ours quote a
    path, a name or an error, so every one says markup=False (checked in the source, so
    that a new one cannot forget)."""
    folder = Path(app_module.__file__).parent
    missing = []
    for source in sorted(folder.glob("*.py")):
        for call in _notify_calls(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(call.func.value, ast.Call):  # type: ignore[attr-defined]
                continue  # super().notify(): ShashkiApp.notify handing every one on
            plain = any(
                k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in call.keywords
            )
            if not plain:
                missing.append(f"{source.name}:{call.lineno}")
    assert not missing, f"notify() without markup=False: {missing}"


# -- the helper --------------------------------------------------------------------------


@given(st.text())
@example("[/x]")
@example("a\\")
@example("[$accent]")
def test_values_are_filled_in_as_text(value: str) -> None:
    content = marked("[b]New game:[/b] $name and $name", name=value)
    assert content.plain == f"New game: {visible(value)} and {visible(value)}"
    assert content.spans == [Span(0, 9, "b")]
    assert literal(value).plain == visible(value) and not literal(value).spans


@given(st.text())
@example("a\x1b[2J\x1b]0;title\x07b\x9b1m\x7f")
def test_control_characters_are_shown_as_symbols(value: str) -> None:
    """Nothing shown drives the terminal: every control character but newline and tab
    becomes one printable character."""
    shown = visible(value)
    assert len(shown) == len(value)
    for before, after in zip(value, shown, strict=True):
        if re.fullmatch(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", before):
            assert after.isprintable(), repr(before)
        else:
            assert after == before


async def test_a_pdn_with_control_characters_does_not_reach_the_terminal(home: Path) -> None:
    """Escape sequences in tags and comments are shown as symbols in the table and the
    replay screen: what the widgets draw holds no ESC."""
    path = home / "esc.pdn"
    path.write_text(
        '[Event "a\x1b[2Jb"]\n[White "w\x1b]0;title\x1b\\\\"]\n[Black "b"]\n[GameType "25"]\n\n'
        "1. c3-d4 {c\x1b[5mblink} f6-e5 *\n\n"
        '[Event "second"]\n[GameType "25"]\n\n1. c3-d4 *\n',
        encoding="utf-8",
    )
    app = make_app(home, replay=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        # done is set when the file is read; the table draws its rows at its next layout
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, GameTableScreen)
                and app.screen.done
                and "a␛[2Jb" in shown(app)
            ),
            "the table drawing the first game's event",
        )
        assert "\x1b" not in shown(app)
        await press(pilot, "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "right")
        await settle(pilot)
        text = shown(app)
        assert "Event: a␛[2Jb" in text and "c␛[5mblink" in text and "\x1b" not in text
        drawn = "".join(
            segment.text
            for widget in app.screen.walk_children(with_self=False)
            if widget.region.area
            for strip in widget.render_lines(widget.region.reset_offset)
            for segment in strip
        )
        assert "\x1b" not in drawn
