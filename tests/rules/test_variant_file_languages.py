"""What is wrong with a user's variant files is said in the player's language (issue 28):
every problem of a folder of broken files, in Ukrainian and in Russian, holds no English
word but the TOML keys and values it quotes from the files, the names of the built-in
variants, generators and modifiers, and the names of formats (TOML, UTF-8, FEN)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shashki.i18n import set_language
from shashki.rules.generators import GENERATORS, MODIFIERS
from shashki.rules.schema import Either, ListOf, MapOf, Schema, Table
from shashki.rules.variant_file import VARIANT_SCHEMA, toml_reason
from shashki.rules.variant_registry import builtin_variant_dir, registry, user_file_problems

from .test_hostile_variant_files import BASE, fresh, hostile_folder  # noqa: F401

#: More faults, one a file, beside the hostile files: each message of the three modules
#: that a user's file meets most.
FAULTS: dict[str, str] = {
    "keys": 'id = "k"\ncolour = "red"\nflavour = 1\n' + BASE,
    "width": 'id = "w"\n' + BASE + '[board]\nwidth = "8"\n',
    "squares": 'id = "sq"\n' + BASE + '[board]\nsquares = "round"\n',
    "long": 'id = "long"\nname = "' + "x" * 90 + '"\nhost = "russian"\n',
    "sides": 'id = "sides"\n' + BASE + 'sides = { names = ["a"] }\n',
    "lang": 'id = "lang"\n' + BASE + 'names = { "UK!" = "y" }\n',
    "gametype": 'id = "gt"\n' + BASE + '[pdn]\ngametype = "x,y"\n',
    "host": 'id = "h"\nname = "x"\nhost = "chess"\n',
    "loop1": 'id = "loop1"\nname = "x"\nhost = "loop2"\n',
    "loop2": 'id = "loop2"\nname = "x"\nhost = "loop1"\n',
    "taken": 'id = "russian"\nname = "Mine"\nhost = "english"\n',
    "alias": 'id = "al"\nname = "Al"\nhost = "russian"\naliases = ["shashki"]\n',
    "primary": 'id = "pr"\nname = "Pr"\nhost = "russian"\n[pdn]\ngametype = "25"\nprimary = true\n',
    "modifier": 'id = "mod"\n' + BASE + 'modifiers = ["triple-move"]\n',
    "generator": 'id = "gen"\n' + BASE + 'generator = "hex"\n',
    "pattern": 'id = "pat"\n' + BASE + '[[draws]]\nstrong = "2Q"\n',
    "lone": 'id = "lone"\n' + BASE + '[[draws]]\nkind = "lone-kings"\nstrong = "1K"\n',
    "goal": 'id = "goal"\n' + BASE + '[[goals]]\nside = "white"\nrank = 12\n',
    "precedence": 'id = "prec"\n' + BASE + '[rules]\ncapture_precedence = ["count", "count"]\n',
    "colouring": 'id = "col"\n' + BASE + '[board]\nsquares = "all"\ncolouring = "mirrored"\n',
    "toml": 'id = "t"\nname = "x"\nhost = "russian"\n[board\n',
    "toml-twice": 'id = "t2"\nid = "t3"\n',
}

#: Words a message may hold in any language: formats and the words of TOML itself.
NAMES = {"TOML", "UTF", "FEN", "NUL", "FIFO", "PDN", "GameType", "id", "true", "false"}
NAMES |= {"a", "z", "x", "K", "M"}  # a–z; patterns such as 2K+1M


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def schema_keys(schema: Schema) -> set[str]:
    """Every key name a definition file may write."""
    if isinstance(schema, Table):
        found = set(schema.fields)
        for item in schema.fields.values():
            found |= schema_keys(item)
        return found | (schema_keys(schema.others) if schema.others else set())
    if isinstance(schema, (ListOf, MapOf)):
        return schema_keys(schema.item if isinstance(schema, ListOf) else schema.value)
    if isinstance(schema, Either):
        return set().union(*(schema_keys(o) for o in schema.options))
    return set()


def allowed_words(folder: Path) -> set[str]:
    """The words a message may quote: the files' own text, the keys a file may have,
    the built-in variants' ids, the generators' and modifiers' names."""
    words = set(NAMES)
    texts = [
        p.read_bytes().decode("utf-8", "replace") for p in folder.glob("*.toml") if p.is_file()
    ]
    texts += [p.stem for p in builtin_variant_dir().glob("*.toml")]
    texts += [*schema_keys(VARIANT_SCHEMA), *GENERATORS, *MODIFIERS]
    texts += ["lone-kings", "must-continue", "any", "normal", "mirrored"]
    for text in texts:
        words |= set(re.findall(r"[A-Za-z]+", text[:4000]))
    return words


def english_words(line: str, folder: Path, allowed: set[str]) -> list[str]:
    """The words of ``line`` that are neither Cyrillic nor allowed, its paths and the
    values it quotes between «» left out."""
    line = re.sub(re.escape(str(folder)) + r"/[\w.-]+", "", line)
    line = re.sub(r"«[^»]*»", "", line)
    return [w for w in re.findall(r"[A-Za-z]+", line) if w not in allowed]


def broken_folder(folder: Path) -> None:
    hostile_folder(folder)
    for name, text in FAULTS.items():
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_problem_is_said_without_english(fresh: Path, language: str) -> None:  # noqa: F811
    broken_folder(fresh)
    set_language(language)
    problems = registry().errors
    assert len(problems) >= len(FAULTS) + 20, problems
    allowed = allowed_words(fresh)
    bad = [(line, words) for line in problems if (words := english_words(line, fresh, allowed))]
    assert not bad, "\n".join(f"{words}: {line}" for line, words in bad)


def test_the_check_sees_english(fresh: Path) -> None:  # noqa: F811
    # the same folder in English: the check above would see its words
    broken_folder(fresh)
    set_language("en")
    allowed = allowed_words(fresh)
    said = [english_words(line, fresh, allowed) for line in registry().errors]
    assert all(said) and {"skipped", "integer"} <= {w for words in said for w in words}


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("uk", "[board\n", "заголовок [таблиці] без закривної ], рядок 1, стовпчик 7"),
        (
            "ru",
            "a = [1,\n",
            "значение, которое не является ни строкой, ни числом, ни «true» или «false»,"
            " ни списком, ни таблицей в конце файла",
        ),
        ("uk", "a = 1\na = 2\n", "ключу двічі задано значення, рядок 2, стовпчик 6"),
        ("ru", 'a = "x\n', "символ «\\n» здесь недопустим, строка 1, столбец 7"),
        ("en", "a = 1\na = 2\n", "Cannot overwrite a value (at line 2, column 6)"),
    ],
)
def test_toml_reasons_in_the_language(language: str, text: str, expected: str) -> None:
    import tomllib

    set_language(language)
    with pytest.raises(tomllib.TOMLDecodeError) as caught:
        tomllib.loads(text)
    assert toml_reason(caught.value) == expected


def test_the_problems_follow_a_change_of_language(fresh: Path) -> None:  # noqa: F811
    # a registry made in English (``--lang en``, ``--variant-file``) before the app took
    # its setting: the problems are said again in the language spoken when shown
    (fresh / "width.toml").write_text(FAULTS["width"], encoding="utf-8")
    set_language("en")
    english = list(registry().errors)
    assert english == user_file_problems()
    assert "must be an integer" in english[0]
    set_language("ru")
    said = user_file_problems()
    assert said == registry().errors and len(said) == len(english)
    assert "[board] width — ожидается целое число, а не строка" in said[0], said
    assert user_file_problems() is registry().errors  # said once, then kept
