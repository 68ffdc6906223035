"""The players' languages: every message of the code translated in each catalog with the
same placeholders, plural forms done right, the language chosen from the environment or
--lang, and the gettext catalogs read as gettext reads them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki import i18n
from shashki.i18n import LANGUAGES, compile_mo, detect, ngettext, parse_po, set_language

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from i18n import messages  # noqa: E402  (tools/i18n.py: the messages of the code)

#: Named placeholders ({name}) and argparse's printf ones (%(name)s, %s, %r).
PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sr]|%[sr]")
#: A side's form in a translation ({side.gen}: LANGUAGE.md, Grammar) stands for {side}.
FORM = re.compile(r"\{([a-z_]+)\.(?:nom|gen|dat|ins)\}")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def catalog_entries(language: str) -> dict[tuple[str | None, str, str | None], list[str]]:
    return parse_po((i18n.LOCALE_DIR / f"{language}.po").read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    entries = catalog_entries(language)
    found = messages()
    assert found, "no message found in the code"
    for key in found:
        forms = entries.get(key)
        assert forms and all(f.strip() for f in forms), f"{language}: {key[1]!r} untranslated"
        wanted = sorted(PLACEHOLDER.findall(key[1]))
        for form in forms:
            used = PLACEHOLDER.findall(FORM.sub(r"{\1}", form))
            assert sorted(used) == wanted, (language, key[1], form)
        if key[2] is not None:
            assert len(forms) == 3, (language, key[1])  # three plural forms


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("uk", ["1 хід", "2 ходи", "5 ходів", "11 ходів", "21 хід", "22 ходи"]),
        ("ru", ["1 ход", "2 хода", "5 ходов", "11 ходов", "21 ход", "22 хода"]),
        ("en", ["1 move", "2 moves", "5 moves", "11 moves", "21 moves", "22 moves"]),
    ],
)
def test_plural_forms(language: str, expected: list[str]) -> None:
    set_language(language)
    assert [ngettext("{n} move", "{n} moves", n).format(n=n) for n in (1, 2, 5, 11, 21, 22)] == (
        expected
    )


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "uk_UA.UTF-8"}, "ru"),
        ({"LC_MESSAGES": "ru_RU", "LANG": "de_DE.UTF-8"}, "ru"),
        ({"LANGUAGE": "de:uk:ru", "LANG": "en_US.UTF-8"}, "uk"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "uk_UA.UTF-8"}, "en"),
        ({"LANG": "uk_UA@euro"}, "uk"),
    ],
)
def test_the_language_comes_from_the_environment(environ: dict[str, str], language: str) -> None:
    assert detect(environ) == language


def test_catalogs_read_as_gettext_reads_them() -> None:
    text = (
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        '#, fuzzy\nmsgid "Fuzzy"\nmsgstr "Unsure"\n\n'
        'msgctxt "piece"\nmsgid "King"\nmsgstr "Dame"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        'msgid "a"\n"b"\nmsgstr "c"\n"d"\n'
    )
    entries = parse_po(text)
    assert (None, "Fuzzy", None) not in entries
    assert entries[(None, "ab", None)] == ["cd"]
    import gettext
    import io

    translations = gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))
    assert translations.pgettext("piece", "King") == "Dame"
    assert translations.gettext("Empty") == "Empty"  # untranslated: the source shows
    assert translations.gettext("ab") == "cd"
    gap = parse_po('msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[2] "z"\n')
    assert gap[(None, "a", "as")] == ["x", "", "z"]  # a form left out: untranslated
    for bad in ('msgid "x"\nfoo "y"\n', 'msgid x\nmsgstr "y"\n', '"stray"\n'):
        with pytest.raises(ValueError, match="line"):
            parse_po(bad)


def test_an_unknown_language_falls_back_to_english() -> None:
    assert set_language("de") == "en"
    assert set_language("uk_UA.UTF-8") == "uk"


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LANG")}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "shashki", *args],
        capture_output=True,
        text=True,
        check=False,
        env=environ,
    )


@pytest.mark.parametrize(
    ("args", "env", "help_words", "error_words"),
    [
        (
            ["--lang", "uk"],
            {},
            ["використання:", "перелік різновидів"],
            "помилка: невідомий різновид",
        ),
        (
            [],
            {"LANG": "ru_RU.UTF-8"},
            ["использование:", "список разновидностей"],
            "ошибка: неизвестная разновидность",
        ),
        ([], {"LANG": "de_DE.UTF-8"}, ["usage:", "list the variants"], "error: unknown variant"),
    ],
)
def test_the_command_line_in_each_language(
    args: list[str], env: dict[str, str], help_words: list[str], error_words: str
) -> None:
    shown = run(*args, "--help", **env)
    assert shown.returncode == 0
    for words in help_words:
        assert words in shown.stdout
    failed = run(*args, "rules", "no-such-game", **env)
    assert failed.returncode == 2 and error_words in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1


def test_the_command_line_takes_lang() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shashki", "--lang", "xx", "variants"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "--lang" in done.stderr and "Traceback" not in done.stderr


def test_the_unfinished_games_list_speaks_ukrainian_and_russian() -> None:
    import time
    from types import SimpleNamespace

    from shashki.app.unfinished import describe

    now = time.time()
    game = SimpleNamespace(
        variant_name="Russian draughts",
        players=("Anna", "Boris"),
        moves=21,
        last_played=now,
        status="",
    )
    set_language("uk")
    assert "21 хід, востаннє грали сьогодні" in describe(game, now).plain  # type: ignore[arg-type]
    assert "Anna проти Boris" in describe(game, now).plain  # type: ignore[arg-type]
    set_language("ru")
    assert "21 ход, последний раз играли сегодня" in describe(game, now).plain  # type: ignore[arg-type]
    set_language("en")
    assert "21 moves, last played today" in describe(game, now).plain  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("language", "title", "words"),
    [
        ("ru", "Башни", ["побитую шашку не снимают", "другие названия для командной строки:"]),
        ("uk", "Башти", ["інші назви для командного рядка:"]),
        ("en", "Bashni (column draughts)", ["also called:"]),
    ],
)
def test_the_rule_card_and_variant_list_on_the_command_line(
    language: str, title: str, words: list[str]
) -> None:
    """``shashki rules`` prints the card of the variant file in the language, and
    ``shashki variants`` its name and summary."""
    card = run("--lang", language, "rules", "bashni")
    assert card.returncode == 0 and card.stdout.splitlines()[0] == title, card.stdout[:200]
    for word in words:
        assert word in card.stdout
    listed = run("--lang", language, "variants")
    line = next(t for t in listed.stdout.splitlines() if t.startswith("bashni "))
    assert title in line


@pytest.mark.parametrize(
    ("language", "start"),
    [
        ("en", "shashki: error: cannot join 127.0.0.1:9: "),
        ("uk", "shashki — помилка: не вдається "),
        ("ru", "shashki — ошибка: не удаётся "),
    ],
)
def test_an_error_line_reads_as_one_sentence(language: str, start: str) -> None:
    """A full sentence the app shows ("Не вдається…") follows "помилка:" in the command
    line's error line as a clause: small first letter, no full stop (issue 49)."""
    from shashki.i18n import _, error_line, set_language

    set_language(language)
    try:
        said = _("Cannot join {address}: no answer in {n} s.").format(address="127.0.0.1:9", n=15)
        assert said[0].isupper() and said.endswith(".")  # as the app shows it
        line = error_line(said)
        assert line.startswith(start) and not line.endswith("."), line
        assert "127.0.0.1:9" in line and "15" in line
        assert error_line("PDN files only.").endswith(": PDN files only")  # capitals kept
    finally:
        set_language("en")
