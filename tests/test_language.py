"""Ukrainian and Russian as a draughts player writes them (../shared/LANGUAGE.md): every
message of both catalogs and every text of every variant file (name, summary, card, sides,
draw rules, goals) uses one term per idea, no calque or word of the "never" column, the
Ukrainian apostrophe, «» rather than ASCII quotes, no double colon and no brackets inside
brackets; sides decline, and counts take their noun."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from shashki import i18n
from shashki.i18n import Noun, _, agree, ngettext, noun, parse_po, set_language
from shashki.rules import Game
from shashki.rules.outcome import Outcome, Termination
from shashki.rules.variant_registry import all_variants, find_variant

LOCAL = ("uk", "ru")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def catalog_texts(language: str) -> list[tuple[str, str]]:
    """(English, translation) of every message of ``language``'s catalog, plural forms
    each on its own."""
    entries = parse_po((i18n.LOCALE_DIR / f"{language}.po").read_text(encoding="utf-8"))
    return [
        (msgid, form)
        for (_context, msgid, _plural), forms in entries.items()
        if msgid
        for form in forms
        if form
    ]


def card_texts(language: str) -> list[tuple[str, str]]:
    """(English, translation) of every variant's own texts in ``language``."""
    return [
        (f"{v.id}: {english[:50]}", local)
        for v in all_variants()
        for english, local in v.translations.get(language, {}).items()
    ]


def texts(language: str) -> list[tuple[str, str]]:
    return catalog_texts(language) + card_texts(language)


#: Words of LANGUAGE.md's "never" column and the calques of its Grammar, by language:
#: (pattern, what to write instead).
FORBIDDEN: dict[str, list[tuple[str, str]]] = {
    "uk": [
        (r"\bнов(а|у|ої|ій) гр(а|у|и|і)\b", "нова партія"),
        (r"\bкорол(ь|я|ем|і|ева|еви)\b", "дамка"),
        (r"\bфігур(?!н\w* дуж)", "шашка"),
        (r"\bпорад", "підказка"),
        (r"\bколон", "стовп"),
        (r"\bсімейн", "споріднені ігри"),
        (r"\bжеребкуванн", "за жеребом"),
        (r"\bповорот|\bавтоповорот|\bповерт\w* дошк|\bповерн\w* дошк", "перевернути дошку"),
        (r"\bрахується\b|\bрахуються\b", "вважається, зараховується"),
        (r"\bнемає що\b", "нема чого"),
        (r"\bце не можна\b", "цього не можна"),
        (r"\bже\b", "одразу (не «же»)"),
        (r"\bчекерс\b(?!\))", "Американські шашки (чекерс)"),
        (r"\bшашок або менше\b", "шашок чи менше (з числом: 4 шашки)"),
        (r"\bвільно\b", "дозволено"),
        (r"\b[Хх]ід: \{", "хід білих (форма сторони)"),
        # wrong words
        (r"\bздач[аіуею]\b(?! парті)", "здатися (здача — це решта грошей)"),
        (r"\bдрук|\bнадрук", "виводить, вивести (друкує — на папері)"),
        (r"\bгр(а|и|і|у|ою)\s+«", "різновид «…» (гра — не різновид)"),
        (r"\bпоказ(у|ом|и|ів)? годинник", "показання годинника"),
        # grammar
        (r"\bграти (різновид|«)", "грати в різновид"),
        (r"95\s*% похибк", "95-відсотковий довірчий інтервал"),
        # calques and robotic phrasing
        (r"заради нової", "покинути цю партію й почати нову"),
        (r"програну за часом, не можна", "партію програно за часом: повернути хід не можна"),
        (r"ходу, який шукати", "нема чого шукати"),
        (r"головній лінії", "у головному варіанті"),
        (r"швидким поглядом", "після короткого пошуку"),
        (r"партія називає", "у партії вказано"),
        (r"\bсвітова гра", "шашки світових чемпіонатів"),
        (r"бити більшість", "бити найбільшу кількість шашок"),
        (r"\bсвоїм ходом\b", "під час свого ходу"),
        # one idea, one word
        (r"\bавтохід", "автоперегляд"),
        (r"\bпереграт|\bпереграє|\bпереграю", "відтворити (партію за правилами)"),
        (r"\bавтоповорот|\bавтоперевертан", "перевертати дошку після кожного ходу"),
        (r"\bслухаємо\b", "з’єднань чекаємо (не «слухаємо»)"),
        (r"\bзастосун", "програма (одне слово для app)"),
    ],
    "ru": [
        (r"\bнов(ая|ую|ой) игр(а|у|ы|е)\b", "новая партия"),
        (r"\bкорол(ь|я|ем|е|ева|евы)\b", "дамка"),
        (r"\bфигур(?!н\w* скоб)", "шашка"),
        (r"\bсовет\b", "подсказка"),
        (r"\bколонн", "башня"),
        (r"\bсемейн", "родственные игры"),
        (r"\bповорот|\bавтоповорот|\bповора\w* доск|\bповерн\w* доск", "перевернуть доску"),
        (r"\bшашок\b", "шашек"),
        (r"\bсвободно\b", "разрешено"),
        (r"\b[Хх]од: \{", "ход белых (форма стороны)"),
        # wrong words
        (r"\bсдач[аиуей]\b(?! парти)", "сдаться (сдача — это деньги)"),
        (r"\bобои\b", "часы (обои — на стене)"),
        (r"\bпечат|\bнапечат", "выводит, вывести (печатает — на бумаге)"),
        (r"\bигр(а|ы|е|у|ой)\s+«", "разновидность «…» (игра — не разновидность)"),
        # grammar
        (r"\bиграть (разновидность|«)", "играть в разновидность"),
        (r"95\s*% погрешн", "95-процентный доверительный интервал"),
        # calques and robotic phrasing
        (r"ради новой", "покинуть эту партию и начать новую"),
        (r"проигранную по времени, нельзя", "партия проиграна по времени: вернуть ход нельзя"),
        (r"хода, который искать", "искать нечего"),
        (r"главной линии", "в главном варианте"),
        (r"быстрым взглядом", "после короткого поиска"),
        (r"партия называет", "в партии указан"),
        (r"\bмировая игра", "шашки мировых чемпионатов"),
        (r"бить большинство", "бить наибольшее число шашек"),
        # one idea, one word
        (r"\bавтоход", "автопросмотр"),
        (r"\bпереигр", "воспроизвести (партию по правилам)"),
        (r"\bавтопереворот", "переворачивать доску после каждого хода"),
        (r"\bслушаем\b", "соединений ждём (не «слушаем»)"),
        (r"\bприложени", "программа (одно слово для app)"),
    ],
}

#: One term per idea: where the English says this (a word of the msgid), the translation
#: says it with that term (LANGUAGE.md, Terms).
TERMS: dict[str, list[tuple[str, str]]] = {
    # a game type: різновид, never варіант (a line of play)
    "uk": [
        (r"(?<!\{)\bvariants?\b(?!\})(?!.*\bvariation)", r"різновид"),
        (r"^(Undo|undo)\b", r"поверн|поверт"),
        (r"\b(Hint|hint)\b", r"підказ"),
        (r"\b(Flip|flip)\b", r"перевер"),
        (r"\b[Ee]ngine(?!s? named| command)", r"руші|рушій"),
        (r"column \{column\}", r"стовпчик"),
        (r"(?i)auto-flip|turn the board|turns? (it )?after every move", r"після (кожного )?ходу"),
    ],
    "ru": [
        (r"(?<!\{)\bvariants?\b(?!\})(?!.*\bvariation)", r"разновидност"),
        (r"^(Undo|undo)\b", r"верн|возвра"),
        (r"\b(Hint|hint)\b", r"подсказ"),
        (r"\b(Flip|flip)\b", r"перевер|перевор"),
        (r"\b[Ee]ngine(?!s? named| command)", r"движ"),
        (r"column \{column\}", r"столбец"),
        (r"(?i)auto-flip|turn the board|turns? (it )?after every move", r"после (каждого )?хода"),
    ],
}
#: The word a term replaces, where the English asks for the term ("варіанти бою", the
#: captures to choose from, are lines of play: the seed documents say so).
NOT_THE_TERM = {"uk": r"\bваріант(?!\w* бою)", "ru": r"\bвариант(?!\w* боя)"}

#: Messages that speak of a variant file's own field or of the command line's word
#: ``--variant`` rather than of a game type.
NOT_A_GAME_TYPE = re.compile(r"--variant|\bVariant\b \{value\}|variant id|shashki replay")

#: An ASCII apostrophe inside a Ukrainian word (обов'язково).
ASCII_APOSTROPHE = re.compile(r"\w'\w")
#: Words or moves between ASCII quotes in prose ('c3-d4', "engines").
ASCII_QUOTES = re.compile(r"(?<!\w)'[^'\s][^']*'(?!\w)|(?<![\w=])\"[^\"\s][^\"]*\"")
#: A colon that ends a label ("Партію завершено: …"), not one inside "5:00" or "0:00:00".
LABEL_COLON = re.compile(r":(?=\s|$)")
NESTED_BRACKETS = re.compile(r"\([^()]*\(")
#: argparse's placeholders (%(value)r), which are not brackets of the prose.
PRINTF = re.compile(r"%\([a-z_]+\)[sr]")


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n|;|·", text) if s.strip()]


@pytest.mark.parametrize("language", LOCAL)
def test_no_word_of_the_never_column(language: str) -> None:
    bad = [
        f"{english!r} -> {text!r}: {instead}"
        for english, text in texts(language)
        for pattern, instead in FORBIDDEN[language]
        if re.search(pattern, text, re.IGNORECASE)
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("language", LOCAL)
def test_one_term_per_idea(language: str) -> None:
    bad = []
    for english, text in catalog_texts(language):
        if NOT_A_GAME_TYPE.search(english):
            continue
        for idea, term in TERMS[language]:
            if re.search(idea, english) and not re.search(term, text, re.IGNORECASE):
                bad.append(f"{english!r} -> {text!r}: wants {term}")
        if re.search(r"(?<!\{)\bvariants?\b(?!\})", english) and "variation" not in english:
            if re.search(NOT_THE_TERM[language], text, re.IGNORECASE):
                bad.append(f"{english!r} -> {text!r}: a game type is not a line of play")
    for english, text in card_texts(language):
        if re.search(NOT_THE_TERM[language], text, re.IGNORECASE):
            bad.append(f"{english!r} -> {text!r}: a game type is not a line of play")
    assert not bad, "\n".join(bad)


def test_ukrainian_apostrophe() -> None:
    bad = [
        f"{english!r} -> {text!r}" for english, text in texts("uk") if ASCII_APOSTROPHE.search(text)
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("language", LOCAL)
def test_no_ascii_quotes_around_words(language: str) -> None:
    bad = [
        f"{english!r} -> {text!r}" for english, text in texts(language) if ASCII_QUOTES.search(text)
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("language", LOCAL)
def test_no_double_colon_nor_brackets_in_brackets(language: str) -> None:
    bad = []
    for english, text in texts(language):
        for sentence in sentences(text):
            if len(LABEL_COLON.findall(sentence)) > 1:
                bad.append(f"{english!r} -> {sentence!r}: two colons")
        if NESTED_BRACKETS.search(PRINTF.sub("", text)):
            bad.append(f"{english!r} -> {text!r}: brackets in brackets")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("language", "side", "forms"),
    [
        ("uk", "White", ("Білі", "білі", "білих", "білим", "білими", "plural")),
        ("uk", "Black", ("Чорні", "чорні", "чорних", "чорним", "чорними", "plural")),
        ("ru", "White", ("Белые", "белые", "белых", "белым", "белыми", "plural")),
        ("ru", "Black", ("Чёрные", "чёрные", "чёрных", "чёрным", "чёрными", "plural")),
        ("en", "White", ("White", "White", "White", "White", "White", "plural")),
    ],
)
def test_the_sides_decline(language: str, side: str, forms: tuple[str, ...]) -> None:
    set_language(language)
    name = find_variant("russian").local_side(0 if side == "White" else 1)
    assert (name, name.nom, name.gen, name.dat, name.ins, name.kind) == forms


def test_every_variant_side_declines_in_each_language() -> None:
    for language in LOCAL:
        set_language(language)
        for v in all_variants():
            for side in (0, 1):
                name = v.local_side(side)
                assert name.gen != str(name) or name.kind != "plural" or name == name.nom, (
                    v.id,
                    language,
                    name,
                )
                assert isinstance(name, Noun) and name.gen and name.kind in i18n.KINDS


def test_a_players_name_does_not_decline() -> None:
    set_language("uk")
    side = find_variant("russian").local_side(0).named("Іван")
    assert (str(side), side.gen) == ("Іван (Білі)", "білих (Іван)")
    assert noun("Петро").gen == "Петро"
    assert noun("<bad>", None).kind == "plural"
    # forms that a file gets wrong are the name itself, never an error
    assert Noun("Вовк", "вовк; nonsense").gen == "Вовк"


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("uk", "Хід білих"),
        ("ru", "Ход белых"),
        ("en", "White to move"),
    ],
)
def test_sentences_take_the_sides_forms(language: str, sentence: str) -> None:
    set_language(language)
    white = find_variant("russian").local_side(0)
    assert i18n._("{side} to move").format(side=white) == sentence


@pytest.mark.parametrize(
    ("language", "variant", "loser", "expected"),
    [
        ("uk", "russian", 0, "Перемога чорних: білі здалися."),
        ("ru", "russian", 1, "Победа белых: чёрные сдались."),
        ("uk", "artamonov", 0, "Перемога Півночі: Південь здався."),
        ("uk", "artamonov", 1, "Перемога Півдня: Північ здалася."),
        ("ru", "wolf-sheep", 0, "Победа овец: волк сдался."),
        ("en", "russian", 0, "Black wins: White resigned."),
    ],
)
def test_end_of_game_sentences(language: str, variant: str, loser: int, expected: str) -> None:
    from shashki.rules.move import Color

    set_language(language)
    v = find_variant(variant)
    out = Outcome(
        Termination.RESIGNATION,
        Color(1 - loser),
        "resigned",
        message="{side} resigned",
        params={"side": Color(loser)},
    )
    assert out.describe(variant=v) == expected
    shown = i18n._("Game over. {outcome}").format(outcome=out.describe(variant=v))
    assert len(LABEL_COLON.findall(shown)) <= 1, shown


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "uk",
            [
                "1 проста шашка",
                "2 прості шашки",
                "5 простих шашок",
                "11 простих шашок",
                "21 проста шашка",
                "22 прості шашки",
                "111 простих шашок",
            ],
        ),
        (
            "ru",
            [
                "1 простая шашка",
                "2 простые шашки",
                "5 простых шашек",
                "11 простых шашек",
                "21 простая шашка",
                "22 простые шашки",
                "111 простых шашек",
            ],
        ),
    ],
)
def test_counts_take_their_noun(language: str, expected: list[str]) -> None:
    set_language(language)
    shown = [ngettext("{n} man", "{n} men", n).format(n=n) for n in (1, 2, 5, 11, 21, 22, 111)]
    assert shown == expected


@pytest.mark.parametrize("language", LOCAL)
def test_each_verb_agrees_with_each_kind_of_side(language: str) -> None:
    set_language(language)
    said = {kind: agree("{side} resigned", Noun("X", f"x, x, x, x; {kind}")) for kind in i18n.KINDS}
    assert len(set(said.values())) == len(i18n.KINDS), said


#: The placeholders that stand for a side (a :class:`Noun`): only they take its forms.
SIDE_PLACEHOLDERS = {"side", "other", "owner", "white", "black"}


@pytest.mark.parametrize("language", LOCAL)
def test_only_sides_take_forms(language: str) -> None:
    used = {
        (name, form)
        for _english, text in catalog_texts(language)
        for name, form in re.findall(r"\{([a-z_]+)\.([a-z_]+)\}", text)
    }
    assert used, "no side form used"
    assert {name for name, _form in used} <= SIDE_PLACEHOLDERS, used
    assert {form for _name, form in used} <= {"nom", "gen", "dat", "ins"}, used


@pytest.mark.parametrize("language", LOCAL)
def test_refusals_and_ends_said_in_one_sentence_each(language: str) -> None:
    """What a refused move or the end of a game says, as built from its parts in every
    variant: never two label colons in one sentence, never brackets inside brackets
    ("Ця шашка мусить бити (у грі … (бій можна вибрати))")."""
    import random

    from shashki.rules import Game
    from shashki.rules.explain import why_not_move

    set_language(language)
    rng = random.Random(28)
    said: set[str] = set()
    for v in all_variants():
        game = Game(v)
        squares = list(range(len(v.board.by_number) - 1))
        for _ply in range(4):
            legal = game.legal_moves()
            for _try in range(30):
                start, end = rng.choice(squares), rng.choice(squares)
                text = why_not_move(game, start, end, legal)
                if text:
                    said.add(text)
            if not legal:
                break
            game.push(rng.choice(legal))
        game.resign(game.turn)
        out = game.outcome()
        assert out is not None
        said.add(i18n._("Game over. {outcome}").format(outcome=out.describe(variant=v)))
    assert len(said) > 50, len(said)
    bad = [
        text
        for text in said
        if any(len(LABEL_COLON.findall(s)) > 1 for s in sentences(text))
        or NESTED_BRACKETS.search(text)
    ]
    assert not bad, "\n".join(sorted(bad))


#: A form that says the gender of its subject: a past tense or an adjective (uk, ru).
GENDERED = {
    "uk": re.compile(r"^\w{2,}(ов|ав|ив|ів|ув|яв|вся|ла|лася|ий|ій)$"),
    "ru": re.compile(r"^\w{2,}(ал|ял|ил|ел|ыл|ол|ул|ёл|лся|лась|ла|ый|ий)$"),
}
#: Prepositions that would put the word after them into a case.
PREPOSITIONS = {
    "uk": r"у|в|від|для|до|з|із|зі|про|при|по|на|над|під|без|біля|проти|о|об",
    "ru": r"у|в|во|от|для|до|из|с|со|о|об|про|при|по|на|над|под|без|к|ко|против",
}


@pytest.mark.parametrize("language", LOCAL)
def test_a_players_name_has_neither_case_nor_gender(language: str) -> None:
    """A player's name is written as the player typed it: it takes no case (no
    preposition right before it where the English names a player after one) and says
    nothing of its gender (no past tense or adjective right after it as the subject:
    "Оксана приєднався", "для Пётр" were said to a friend online)."""
    gendered = GENDERED[language]
    before = re.compile(rf"(?i)(?<!\w)({PREPOSITIONS[language]})\s+\{{name\}}")
    wrong = []
    for english, text in catalog_texts(language):
        if "{name}" not in english:
            continue
        for m in re.finditer(r"(?:^|[.:!?;]\s+)\{name\}\s+(\w+)", text):
            if gendered.match(m.group(1)):
                wrong.append((english, text))
        if re.search(r"\b(to|of|from|against|with|for) \{name\}", english) and before.search(text):
            wrong.append((english, text))
    assert not wrong, wrong


# -- English left on screen ----------------------------------------------------------------

#: Latin words a translation may keep: names of formats, protocols and programs, the tags
#: and fields of files, environment variables, letters of FEN and key names.
LATIN_TERMS = frozenset(
    """ANSI ASCII FEN FIFO GameType Hub JSON NUL PDN Python SVG TOML Textual TimeControl UTF
    Variant pid stdin stdout perft mypy mypyc shashki LANG LANGUAGE HOST PORT N W B K FMJD
    KNDB lidraughts Enter Tab Esc Ctrl+C DXP DamExchange TCP Scan Kingsrow Dask""".split()
)
#: What a translation writes as it is, not as words of its language: placeholders, code,
#: quoted names, TOML tables and keys, options, paths and names with dots, identifiers, a
#: command of shashki or pip, a room code.
NOT_WORDS = re.compile(
    r"\{[^}]*\}|%\([a-z_]+\)[sr]|%s|`[^`]*`|«[^»]*»|\$\w+"
    r"|\[\[?[a-z_]+\]\]?(?: #\{number\})?(?: \w+)?"  # a TOML table and a key of it
    r"|(?<!\w)--?[a-z][\w-]*|\S*[./\\:]\S*|\b\w*[_\d]\w*\b|\b[A-Za-z]+-[A-Za-z-]+\b"
    r"|\bshashki \w+|\bpip install \w+|\b\w+\.json\b|\bdame hub\b"
)


def latin_words(text: str) -> list[str]:
    """The Latin words of a translation that are words, not names or code."""
    return re.findall(r"[A-Za-z][A-Za-z+]*", NOT_WORDS.sub(" ", text))


@pytest.mark.parametrize("language", LOCAL)
def test_no_english_word_left_in_a_translation(language: str) -> None:
    """A translation keeps no English word: a Latin word is a term of LATIN_TERMS, a key
    (one letter), or a name written as code ("Undo" left in a footer, "White" as a name)."""
    bad = []
    for english, text in texts(language):
        if english in ("White", "Black") or "side forms" in english:
            continue  # a side's forms: its cases, then its kind (plural, masculine…)
        words = [w for w in latin_words(text) if w not in LATIN_TERMS and len(w) > 1]
        if words:
            bad.append(f"{english!r} -> {text!r}: {words}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("language", LOCAL)
def test_ranges_take_an_en_dash(language: str) -> None:
    """A range of numbers is written with an en dash (1–8), never a hyphen (1-8)."""
    plain = re.compile(r"«[^»]*»|`[^`]*`|\{[^}]*\}|\S*[:/]\S*")
    bad = [
        f"{english!r} -> {text!r}"
        for english, text in texts(language)
        if re.search(r"(?<![\w.])\d+-\d+(?!\w)", plain.sub(" ", text))
    ]
    assert not bad, "\n".join(bad)


def _parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser of the command line: the command's, each subcommand's (and theirs)."""
    from shashki.cli import build_parser

    todo: list[argparse.ArgumentParser] = [build_parser()]
    while todo:
        parser = todo.pop()
        yield parser.prog, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())


@pytest.mark.parametrize("language", LOCAL)
def test_the_command_line_speaks_the_language(language: str) -> None:
    """Every subcommand has a description line; every argument says what it is; every
    value an argument takes is named in the language (РІЗНОВИД, АДРЕСА, ПОРТ: never
    VARIANT, ADDRESS, PORT), but for the terms (FEN, N), a file's extension (ТУРНІР.toml) and a
    choice of literal values."""
    set_language(language)
    bad = []
    for prog, parser in _parsers():
        if prog != "shashki" and not parser.description:
            bad.append(f"{prog}: no description")
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                names = [a.metavar for a in [action]]
            elif action.nargs == 0 or action.help == argparse.SUPPRESS:
                continue
            else:
                names = [action.metavar]
                if not action.help:
                    bad.append(f"{prog} {action.dest}: no help")
            if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
                continue  # literal values, shown as they are typed
            for name in names:
                if name is None:
                    bad.append(f"{prog} {action.dest}: no metavar (argparse shows the English)")
                    continue
                words = re.findall(r"[A-Za-z]+", re.sub(r"\.[a-z]+$", "", str(name)))
                if [w for w in words if w not in ("N", "FEN")]:
                    bad.append(f"{prog} {action.dest}: {name}")
    assert not bad, "\n".join(bad)


def _described(table: object) -> list[str]:
    """The descriptions a keys panel shows (its table's second column), as drawn."""
    from shashki.app.keys_panel import LocalBindingsTable

    assert isinstance(table, LocalBindingsTable)
    rich_table = table.render_bindings_table()
    return [str(getattr(cell, "plain", cell)) for cell in rich_table.columns[1].cells]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Private data and config folders for the app (never the user's own)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


@pytest.mark.parametrize("language", LOCAL)
async def test_the_keys_panel_and_textuals_own_keys_speak_the_language(
    home: Path, language: str
) -> None:
    """The palette's "Keys" panel names every key in the language, ours and Textual's own
    (the move box's, a list's, the drop-down's "Dismiss menu"), on the game screen, the
    new-game dialog with a drop-down open, and the menu; a drop-down's own footer key
    too: no Latin word but the terms."""
    from textual.widgets import HelpPanel, Select

    from shashki.app.keys_panel import LocalBindingsTable
    from shashki.app.menu import NewGameScreen

    from .app.conftest import footer_keys, make_app, press, screen_made, settle, status, wait_for

    def words(texts: Iterable[str]) -> list[str]:
        return [w for text in texts for w in latin_words(text) if w not in LATIN_TERMS]

    async def panel_words() -> tuple[list[str], list[str]]:
        app.action_show_help_panel()
        await wait_for(pilot, lambda: app.screen.query(LocalBindingsTable), "the keys panel")
        shown = _described(app.screen.query_one(LocalBindingsTable))
        assert shown, "an empty keys panel"
        app.screen.query(HelpPanel).remove()
        await settle(pilot)
        return shown, words(shown)

    set_language(language)
    app = make_app(home, variant="russian")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        shown, bad = await panel_words()  # the board focused
        assert not bad, shown
        assert i18n._("Offer draw") in shown and i18n._("Resign") in shown
        helps = [c.help for c in app.get_system_commands(app.screen)]
        keys = [h.rsplit("(", 1)[-1].rstrip(")") for h in helps if h.endswith(")")]
        assert "Enter" in keys and "#" in keys, keys  # as the keyboard writes them
        assert not [k for k in keys if k.isascii() and k.islower() and len(k) > 1], keys
        for key in ("p", "p", "p", "t", "t"):  # each piece set, each board theme, by name
            await press(pilot, key)
            assert not words([status(app)]), status(app)
        await press(pilot, "colon")  # the move box focused: Textual's input keys
        shown, bad = await panel_words()
        assert not bad, shown
        assert i18n._("Delete character left") in shown
        await press(pilot, "escape", "n")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "MenuScreen", "the menu")
        shown, bad = await panel_words()
        assert not bad, shown
        await press(pilot, "enter")
        await screen_made(pilot, NewGameScreen)
        select = app.screen.query(Select).first()
        select.focus()
        await settle(pilot)
        await press(pilot, "enter")  # the drop-down opens: its own keys
        await wait_for(pilot, lambda: select.expanded, "the drop-down open")
        shown, bad = await panel_words()
        assert not bad, shown
        assert i18n._("Dismiss menu") in shown
        assert not words(footer_keys(app.screen)), footer_keys(app.screen)


@pytest.mark.parametrize("language", LOCAL)
def test_the_replay_panel_shows_no_default_tag_as_a_name(language: str) -> None:
    """A game of the app keeps the tags shashki fills in when nobody named a player or the
    event ("White", "Computer 3", "shashki game"): the replay panel shows none of them as
    if it were a name (never «Білі: White»), and a computer by its words in the language."""
    from shashki.app.replay import shown_tags
    from shashki.rules import Game
    from shashki.session import Computer, GameSession

    set_language(language)
    for players in (None, (Computer(3), Computer(5, name="Kingsrow"))):
        for variant in ("russian", "artamonov"):
            session = GameSession(Game(variant), players)
            tags = shown_tags(session.record())
            words = [w for line in tags for w in latin_words(line) if w not in LATIN_TERMS]
            assert words in ([], ["Kingsrow"]), tags
            assert not any(line.endswith(("White", "Black", "South", "North")) for line in tags)
    white = _("White")
    assert any(line.startswith(f"{white}: ") and "3" in line for line in tags), tags
    # a game of the app that ended: its Termination (English, for programs) in the language
    from shashki.records import read_games_text

    pdn = (
        '[GameType "20"]\n[White "White"]\n[Black "Black"]\n[WhiteType "program"]\n'
        '[WhiteLevel "3"]\n[Result "1-0"]\n[Termination "White wins: Black resigned."]\n'
        '[PlyCount "1"]\n\n1. 32-28 1-0\n'
    )
    tags = shown_tags(next(iter(read_games_text(pdn))))
    words = [w for line in tags for w in latin_words(line) if w not in LATIN_TERMS]
    assert not words, tags


@pytest.mark.parametrize("language", LOCAL)
async def test_a_move_typed_on_the_other_sides_turn_names_who_moves(
    home: Path, language: str
) -> None:
    """A move typed while the other side is to move says who it waits for: a friend
    online or an engine is not «the computer» (its name, which does not decline)."""
    import threading

    from shashki.session.players import Cancelled, Player
    from shashki.session.seats import PERSON

    from .app.conftest import make_app, press, settle, status

    class Friend(Player):
        is_human = False

        def __init__(self) -> None:
            self.name = "Olena"
            self.go = threading.Event()

        def think(self, game: Game, limit: object, cancelled: Cancelled) -> object:
            while not self.go.wait(0.05):  # a friend who has not moved yet
                if cancelled():
                    return None
            return game.legal_moves()[0]

    set_language(language)
    friend = Friend()
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.start_game("russian", kinds=(PERSON, PERSON)).session
        session.players = (session.players[0], friend)
        await settle(pilot)
        await press(pilot, "colon", *"c3-d4", "enter")
        await settle(pilot)
        await press(pilot, "colon", *"e3-f4", "enter")
        await settle(pilot)
        said = status(app)
        assert "Olena" in said and _("computer") not in said.lower(), said
        friend.go.set()


@pytest.mark.parametrize("language", LOCAL)
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_new_game_dialog_shows_each_sides_name_whole(
    home: Path, language: str, size: tuple[int, int]
) -> None:
    """The name boxes of the new-game dialog hold the longest side name of any variant
    («Південь», «Чёрные») whole, the cursor after it, at 80×24 and 60×20 (never «вдень»)."""
    from textual.widgets import Input

    from shashki.app.menu import NewGameScreen

    from .app.conftest import make_app, screen_made, settle

    set_language(language)
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.push_screen(NewGameScreen(find_variant("artamonov")))
        await screen_made(pilot, NewGameScreen)
        await settle(pilot)
        for side in (0, 1):
            box = app.screen.query_one(f"#name{side}", Input)
            box.focus()
            await settle(pilot)
            assert box.scroll_offset.x == 0, (box.value, box.scroll_offset)
            assert box.content_region.width > len(box.value), (box.value, box.content_region)


@pytest.mark.parametrize("language", LOCAL)
async def test_the_turn_lines_fit_a_small_terminals_panel(home: Path, language: str) -> None:
    """At 60×20 the turn box has two lines in a panel 24 columns wide: the side to move
    and the paused clocks' line («Пауза (P — продовжити)») each fit one, as in English,
    never cut in the middle («Часы на паузе (P:»)."""
    from rich.cells import cell_len
    from textual.widgets import Static

    from shashki.records.clocks import TimeControl

    from .app.conftest import make_app, press, settle

    set_language(language)
    app = make_app(home, variant="russian", clock=TimeControl(300, 3))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await press(pilot, "P")
        turn = app.screen.query_one("#turn", Static)
        lines = str(turn.content).splitlines()
        assert len(lines) == 2 and lines[1].startswith(_("Clocks paused (P: go on)")[:5]), lines
        width = turn.content_region.width
        assert all(cell_len(line) <= width for line in lines), (lines, width)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("uk", "Перемога чорних: у білих не залишилося шашок."),
        ("ru", "Победа чёрных: у белых не осталось шашек."),
        ("en", "Black wins: White has no pieces left."),
    ],
)
def test_a_reason_after_the_winner_takes_the_sides_form(language: str, expected: str) -> None:
    """The reason after "Перемога чорних:" names the loser in a form of the sentence
    («у білих»), never as a capitalised name after the colon («: Білі без шашок»); said
    so by ``shashki match`` too."""
    from shashki.rules.move import Color

    set_language(language)
    out = Outcome(
        Termination.NO_LEGAL_MOVES,
        Color.BLACK,
        "White has no pieces left",
        message="{side} has no pieces left",
        params={"side": Color.WHITE},
    )
    assert out.describe(variant=find_variant("russian")) == expected


@pytest.mark.parametrize("language", LOCAL)
@pytest.mark.parametrize(
    "setting",
    ['format = "swiss"\nrounds = 2\nclock = "40/5"\n', "depth = 2\n", 'format = "gauntlet"\n'],
)
def test_a_tournaments_heading_speaks_the_language(
    tmp_path: Path, language: str, setting: str
) -> None:
    """The event's heading (the screen's and the tables') says its format and limit in
    the language («коловий турнір», «глибина 2»), never «round-robin, depth 2»."""
    from shashki.tournament.event import read_event
    from shashki.tournament.runner import Tournament

    path = tmp_path / "cup.toml"
    path.write_text(
        f'name = "Cup"\n{setting}[[player]]\nseat = "1"\n[[player]]\nseat = "2"\n',
        encoding="utf-8",
    )
    set_language(language)
    heading = Tournament(read_event(str(path))).heading()
    words = [w for w in latin_words(heading) if w not in LATIN_TERMS and w != "Cup"]
    assert not words, heading


@pytest.mark.parametrize("language", LOCAL)
@pytest.mark.parametrize("who", ["9", "hub:", "nosuch"])
def test_a_matchs_refused_player_is_said_in_the_language(
    language: str, who: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``shashki match`` refuses a player it cannot seat in the language spoken (it said
    "a player is a level 1-8…" in English under --lang uk)."""
    from shashki.cli import main

    assert main(["--lang", language, "match", "russian", "--white", who, "--black", "1"]) == 2
    err = capsys.readouterr().err
    words = [w for w in latin_words(err) if w not in LATIN_TERMS and w != "shashki"]
    assert not words, err


@pytest.mark.parametrize("language", LOCAL)
def test_the_explorers_games_show_no_default_tag_as_a_name(language: str) -> None:
    """The explorer's strongest games name a side where the record named nobody («Білі –
    Чорні», never «White – Black, shashki game»), on the command line and on the screen."""
    from shashki.app.explorer import game_words
    from shashki.commands.explore import game_line
    from shashki.store.explorer import TopGame

    set_language(language)
    variant = find_variant("russian")
    mine = TopGame("c3-d4", "White", "Black", 1, 2026, "shashki game", 0, "mine", 1)
    theirs = TopGame("c3-d4", "Ivanov", "", 0, 1990, "Cup", 0, "cup.pdn", 3)
    for said in (game_line(mine, variant), game_words(mine, variant)):
        assert not [w for w in latin_words(said) if w not in LATIN_TERMS], said
        assert str(variant.local_side(0)) in said, said
    assert game_line(theirs, variant).startswith("Ivanov – ? ½-½, 1990, Cup")


def test_turning_the_board_has_one_name_in_english() -> None:
    """The dialog, the settings, the help, the key and the status say "turn the board
    after every move" (issue 49: the status said "Auto-flip on" beside "Turn the
    board…")."""
    said = [
        english for english, _text in catalog_texts("uk") if re.search(r"(?i)auto-?flip", english)
    ]
    assert not said, said
