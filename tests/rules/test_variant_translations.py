"""A variant file's own texts in other languages (issue 16): ``names``, ``[card.uk]``,
``sides``' languages, ``start_choices`` and options' ``labels``, and the ``names`` of
draw rules and goals; :meth:`Variant.local` finds them by the English text."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest

from shashki import i18n
from shashki.rules import VariantFileError
from shashki.rules.variant_file import merge_with_host, variant_from_mapping

FILE = '''
id = "lamb"
name = "Lamb draughts"
names = { uk = "Ягнячі шашки" }
summary = "A short game."
sides = { names = ["Wolf", "Sheep"], uk = ["Вовк", "Вівці"], ru = ["Волк", "Овцы"] }

[board]
width = 8
height = 8
start = "W:WKe1:Bb8,d8,f8,h8"
start_choice = "The wolf's square"
start_choices = { uk = "Поле вовка" }
start_options = [
    { label = "left", labels = { uk = "ліворуч" }, start = "W:WKa1:Bb8,d8,f8,h8" },
    { label = "e1", start = "W:WKe1:Bb8,d8,f8,h8" },
]

[rules]
first = "white"
man_moves = ["diagonal-forward"]
man_captures = []
king_moves = ["diagonal"]
king_moves_fly = false
king_captures = []
king_captures_fly = false
capture_mandatory = true
promotion = false

[[draws]]
kind = "repetition"
name = "the same position three times"
names = { uk = "та сама позиція тричі", ru = "одна и та же позиция трижды" }

[[goals]]
side = "white"
rank = 8
name = "the wolf reached the far row"
names = { ru = "волк дошёл до последнего ряда" }

[card]
text = """
The wolf must break through.
"""

[card.uk]
summary = "Коротка гра."
text = """
Вовк має прорватися.
"""
'''


def lamb(**changes: Any) -> Any:
    data = tomllib.loads(FILE)
    data.update(changes)
    return variant_from_mapping(data, "lamb.toml")


def test_every_text_of_the_file_is_found_by_its_english_text() -> None:
    v = lamb()
    assert v.local(v.name, "uk") == "Ягнячі шашки"
    assert v.local(v.summary, "uk") == "Коротка гра."
    assert v.local(v.card, "uk") == "Вовк має прорватися."
    assert [v.local(s, "ru") for s in v.side_names] == ["Волк", "Овцы"]
    assert v.local(v.start_choice, "uk") == "Поле вовка"
    assert [v.local(label, "uk") for label, _ in v.start_options] == ["ліворуч", "e1"]
    assert v.local(v.draws[0].name, "ru") == "одна и та же позиция трижды"
    assert v.local(v.goals[0].name, "ru") == "волк дошёл до последнего ряда"


def test_a_text_without_translation_stays_english() -> None:
    v = lamb()
    assert v.local(v.card, "ru") == v.card  # no [card.ru]
    assert v.local(v.name, "ru") == v.name
    assert v.local(v.goals[0].name, "uk") == v.goals[0].name
    assert v.local("something else", "uk") == "something else"
    assert v.local(v.name, "en") == v.name
    assert v.local(v.name, "uk-UA") == "Ягнячі шашки"


def test_the_language_spoken_now_is_the_default() -> None:
    v = lamb()
    try:
        i18n.set_language("uk")
        assert v.local_name == "Ягнячі шашки"
        assert v.local(v.side_names[0]) == "Вовк"
    finally:
        i18n.set_language("en")
    assert v.local_name == "Lamb draughts"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"card": {"text": "x", "uk": {"text": 3}}}, "[card] uk text must be a string"),
        ({"card": {"text": "x", "UK!": {"text": "y"}}}, "unknown key(s) [card] 'UK!'"),
        ({"card": {"text": "x", "uk": {"title": "y"}}}, "title"),
        ({"sides": {"names": ["A", "B"], "uk": ["A"]}}, "[sides] uk must have exactly 2 items"),
        ({"names": {"uk": 5}}, "[names] uk must be a string"),
    ],
)
def test_a_broken_translation_is_refused_naming_its_key(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(VariantFileError, match=re.escape(message)):
        lamb(**change)


def test_a_variant_that_renames_its_sides_does_not_keep_the_hosts_translations() -> None:
    host = tomllib.loads(FILE)
    child = {"id": "kid", "name": "Kid", "host": "lamb", "sides": {"names": ["Fox", "Hens"]}}
    v = variant_from_mapping(merge_with_host(child, host), "kid.toml")
    assert v.local("Fox", "uk") == "Fox"
    assert v.local("Wolf", "uk") == "Wolf"
    same = variant_from_mapping(merge_with_host({**child, "sides": {}}, host), "kid.toml")
    assert same.local("Wolf", "uk") == "Вовк"  # inherited with the names they translate
    # draw rule names come with the draws they name
    assert v.local(v.draws[0].name, "uk") == "та сама позиція тричі"
    # the card and summary are the host's own: not inherited
    assert v.card == "" and v.translations.get("uk", {}).get("Коротка гра.") is None


def _texts(v: Any) -> list[str]:
    """Every text of a variant a player reads, but labels that are squares (notation)."""
    texts = [v.name, v.summary, v.card, v.start_choice, *v.side_names]
    texts += [d.name for d in v.draws] + [g.name for g in v.goals]
    texts += [label for label, _ in v.start_options if not re.fullmatch(r"[a-z]?\d+", label)]
    return [t for t in texts if t and t not in ("White", "Black")]


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_builtin_variant_speaks_ukrainian_and_russian(language: str) -> None:
    """Issue 16: the rule cards, names, sides and rule names of every shipped variant."""
    from shashki.rules.variant_registry import all_variants, registry

    missing = [
        f"{v.id}: {t[:40]!r}"
        for v in all_variants()
        if v.id in registry().builtin
        for t in _texts(v)
        if v.local(t, language) == t
    ]
    assert not missing, missing


def test_a_translation_invents_no_number_and_keeps_the_rule_references() -> None:
    """Every number a translated text writes is in the English (12 may become
    "дванадцять", but 15 moves must not become 25), and references to a rule book's
    articles (7.2.3, Art. 21) are kept."""
    from shashki.rules.variant_registry import all_variants

    wrong = []
    for v in all_variants():
        for language, table in v.translations.items():
            for english, local in table.items():
                numbers = set(re.findall(r"\d+(?:[.×]\d+)*", english))
                theirs = set(re.findall(r"\d+(?:[.×]\d+)*", local))
                refs = {n for n in numbers if "." in n}
                if not theirs <= numbers or not refs <= theirs:
                    wrong.append((v.id, language, english[:40], theirs ^ numbers))
    assert not wrong, wrong
