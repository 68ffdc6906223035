"""Hostile record files: numbers of any size, every encoding, lines and games of any
size, JSON of any depth.  The reader never raises, never holds a whole huge line or game,
and no message quotes more than a few dozen characters of the file."""

from __future__ import annotations

import codecs
import gc
import io
import json
import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.records import (
    GameRecord,
    PdnReader,
    fixtures,
    lines,
    read_file,
    read_games_text,
    reader,
    tokens,
)

HYPOTHESIS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Longest message a problem may have: a sentence, a quote of the file, a position.
MESSAGE_LIMIT = 400


def short_problems(games: list[GameRecord]) -> None:
    for game in games:
        for problem in [*game.errors, *game.warnings]:
            assert len(problem.message) <= MESSAGE_LIMIT, problem.message[:200]
            assert len(problem.token) <= 81
            assert problem.line >= 1


def read_bytes(data: bytes, variant: str | None = None) -> list[GameRecord]:
    games = list(PdnReader(io.BytesIO(data), variant))
    short_problems(games)
    return games


# -- numbers of any size ----------------------------------------------------------------

BIG = "9" * 5000


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f'[GameType "{BIG}"]\n1. 32-28 *', "is not a variant shashki plays"),
        (f'[GameType "{BIG},W,10,10,N2,0"]\n1. 32-28 *', "is not a variant shashki plays"),
        ('[GameType "²"]\n1. 32-28 *', "does not start with a PDN game number"),
        ('[GameType "٢٥"]\n1. 32-28 *', "does not start with a PDN game number"),
        (f'[Variant "{BIG}"]\n1. 32-28 *', "is not a variant shashki plays"),
        ('[Variant "²"]\n1. 32-28 *', "is not a variant shashki plays"),
        (f'[Variant "x/{BIG}"]\n1. 32-28 *', "is not a variant shashki plays"),
        (f'[FEN "W:W{BIG}:B1"]\n1. 32-28 *', "bad FEN tag"),
        (f'[FEN "W:W1-{BIG}:B1"]\n1. 32-28 *', "bad FEN tag"),
        (f'[FEN "W:W31:B1:H{BIG}"]\n1. 32-28 *', "bad FEN tag"),
        ('[FEN "W:W²:B1"]\n1. 32-28 *', "bad FEN tag"),
        (f"1. {BIG}-28 *", "is not a move"),
    ],
    ids=lambda value: value[:30] if isinstance(value, str) else None,
)
def test_huge_numbers_in_tags_and_moves_are_errors(text: str, words: str) -> None:
    [g] = read_games_text(text)
    assert not g.ok and words in g.errors[0].message
    short_problems([g])


def test_huge_numbers_where_nothing_reads_them() -> None:
    tags = f'[Round "{BIG}"]\n[PlyCount "{BIG}"]\n'
    text = tags + f"{BIG}. 32-28 ${BIG} {{[%clk {BIG}]}} {BIG}... 19-23 *"
    [g] = read_games_text(text)
    assert g.ok and len(g.mainline_moves()) == 2 and g.headers["Round"] == BIG
    assert g.next().nags == []  # a NAG no program writes is left out


@HYPOTHESIS
@given(
    st.text(alphabet="0123456789²٣", min_size=1, max_size=6000),
    st.sampled_from(
        [
            '[GameType "{}"]\n1. 32-28 *',
            '[Variant "{}"]\n1. 32-28 *',
            '[FEN "W:W{}:B1"]\n1. 32-28 *',
            '[FEN "W:W31:B1-{}"]\n1. 32-28 *',
            '[FEN "W:W31:B1:F{}"]\n1. 32-28 *',
            "{}. 32-28 ${} 19-23 *",
            "1. 32-{} *",
            '[GameType "25"]\n1. c3-d{} *',
        ]
    ),
)
def test_digits_anywhere_never_raise(digits: str, template: str) -> None:
    short_problems(read_games_text(template.replace("{}", digits)))


# -- encodings ------------------------------------------------------------------------

GAME = '[Event "Чемпионат — été"]\n[White "高文龙"]\n[GameType "25"]\n1. c3-d4 f6-g5 {хорошо} *\n'


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"]
)
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_unicode_encodings_with_their_bom(encoding: str, newline: str) -> None:
    text = (GAME + "\n" + GAME).replace("\n", newline)
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = codecs.BOM_UTF16_LE + data if encoding.endswith("le") else codecs.BOM_UTF16_BE + data
    games = read_bytes(data)
    assert len(games) == 2
    for g in games:
        assert g.ok and g.headers["Event"] == "Чемпионат — été" and g.headers["White"] == "高文龙"
        assert g.next().next().comments == ["хорошо"]
    assert games[1].line == 6


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_recognised(encoding: str) -> None:
    ascii_game = '[Event "E"]\n[GameType "25"]\n1. c3-d4 f6-g5 *\n'
    [g] = read_bytes(ascii_game.encode(encoding))
    assert g.ok and g.headers["Event"] == "E" and len(g.mainline_moves()) == 2


def test_eight_bit_code_pages_are_still_read() -> None:
    [g] = read_bytes('[White "Фадеев"]\n[GameType "25"]\n1. c3-d4 *\n'.encode("cp1251"))
    assert g.headers["White"] == "Фадеев"
    [g] = read_bytes('[Event "40° Champ., Città"]\n1. 32-28 *\n'.encode("latin-1"))
    assert g.headers["Event"] == "40° Champ., Città"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (codecs.BOM_UTF16_LE + "[Event ".encode("utf-16-le") + b"\x00\xdc" + b"]\x00", "UTF-16"),
        (codecs.BOM_UTF8 + b'[Event "\xff\xfe"]\n', "UTF-8"),
        (codecs.BOM_UTF32_LE + b"\x00\x00\x11\x00", "UTF-32"),
        (b'[Event "x"]\n1. 32-28 \x00\x00\x00\x01 *\n', "not a text file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "not a text file"),
    ],
)
def test_a_file_that_cannot_be_decoded_says_so(data: bytes, words: str) -> None:
    games = read_bytes(data)
    assert games and not games[-1].ok
    assert words in games[-1].errors[-1].message


@HYPOTHESIS
@given(
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
        max_size=300,
    ),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
)
def test_any_text_reads_the_same_in_every_unicode_encoding(text: str, encoding: str) -> None:
    def summary(games: list[GameRecord]) -> list[object]:
        return [(g.headers, g.comments, len(g.mainline_moves()), len(g.errors)) for g in games]

    plain = read_games_text(text)
    assert summary(read_bytes(text.encode(encoding))) == summary(plain)


# -- no line, tag, comment or game of any size is held whole ----------------------------


def test_a_huge_line_is_read_in_pieces() -> None:
    limit = lines.LINE_LIMIT
    line = ("word " * (limit // 2)).encode()  # one line of 2.5 limits
    pieces = list(lines.decoded_lines(io.BytesIO(b"first\n" + line + b"\nlast\n")))
    assert max(len(p.text) for p in pieces) <= limit
    assert [p.text for p in pieces if p.offset == 0] == ["first", pieces[1].text, "last"]
    assert "".join(p.text for p in pieces[1:-1]) == line.decode()
    # with no line end at all, and no blank to cut at
    pieces = list(lines.decoded_lines(io.BytesIO(b"x" * (3 * limit))))
    assert [len(p.text) for p in pieces] == [limit, limit, limit]
    assert [p.offset for p in pieces] == [0, limit, 2 * limit]


def test_a_cut_never_splits_a_utf8_character() -> None:
    limit = lines.LINE_LIMIT
    data = "ш".encode() * limit  # two bytes each, no blank anywhere
    pieces = list(lines.decoded_lines(io.BytesIO(data)))
    assert "".join(p.text for p in pieces) == "ш" * limit


def test_a_file_with_only_cr_line_ends() -> None:
    games = read_bytes(b'[Event "a"]\r1. 32-28 *\r[Event "b"]\r1. 33-28 *\r')
    assert [(g.header("Event"), g.line, g.ok) for g in games] == [("a", 1, True), ("b", 3, True)]


def test_a_huge_line_of_junk_is_one_short_problem() -> None:
    limit = lines.LINE_LIMIT
    games = read_bytes(b'[GameType "20"]\n1. 32-28 ' + b"1-2-3-4-" * (limit // 5) + b" *\n")
    [g] = games
    assert not g.ok and len(g.mainline_moves()) == 1


@pytest.mark.parametrize(
    "line",
    [
        b"32-28-" * 170_000,
        b"a1b2" * 250_000,
        b"1" + b"." * 1_000_000,
        b'[Event "' + b"e" * 1_000_000 + b'"]',
        b'[Event "' + b'\\"' * 500_000 + b'"]',
        b'[Event "' + b"e" * 1_000_000,
        b"{" + b"n" * 1_000_000 + b"}",
    ],
    ids=["move", "algebraic", "dots", "tag", "escapes", "unclosed-tag", "comment"],
)
def test_a_line_of_a_megabyte_takes_a_few_megabytes(line: bytes) -> None:
    """Python's regular expressions keep a frame per repetition of a group: no token may
    repeat one a million times (that took 300 MB for one line of a megabyte)."""
    data = b'[GameType "20"]\n1. 32-28 ' + line + b" *\n"
    gc.collect()
    tracemalloc.start()
    try:
        games = read_bytes(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert games and peak < 40 * len(line) // 10 + 10_000_000, peak


def test_a_huge_tag_value_is_cut() -> None:
    limit = tokens.TAG_LIMIT
    [g] = read_bytes(b'[Event "' + b"e" * (5 * limit) + b'"]\n1. 32-28 *\n')
    assert g.ok and len(g.headers["Event"]) == limit
    assert "tag value longer than" in g.warnings[0].message


def test_a_huge_comment_on_one_line_is_cut() -> None:
    limit = tokens.COMMENT_LIMIT
    [g] = read_bytes(b"1. 32-28 {" + b"c" * (3 * limit) + b"} 19-23 *\n")
    assert g.ok and len(g.mainline_moves()) == 2 and len(g.next().comments[0]) == limit


@pytest.mark.parametrize(
    "filler",
    [b"$1 ", b"{} ", b"{note} ", b"( ", b") ", b"6-1 50-45 1-6 45-50 ", b"words ", b"! "],
)
def test_no_game_grows_without_bound(filler: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many marks, comments, variations or moves in one game: past the game's
    limit, the rest of the game is left out with an error; the next game is read."""
    items = 3000
    monkeypatch.setattr(reader, "_GAME_ITEMS", items)
    head = b'[GameType "20"]\n[FEN "W:WK45:BK6"]\n1. 45-50 '
    data = head + filler * (items + 10) + b'*\n[Event "next"]\n1. 32-28 *\n'
    *first, second = read_bytes(data)
    if filler == b"( ":  # a parenthesis that opens nothing: one comment
        assert first[0].ok
    elif filler in (b"words ",):  # one paragraph: one comment, cut
        assert first[0].ok and len(first[0].next().comments[0]) <= tokens.COMMENT_LIMIT + 10
    else:
        [g] = first
        assert "too large" in g.errors[-1].message
        held = sum(len(n.comments) + len(n.nags) + 1 for n in [g, *g.nodes()])
        assert held <= items + 2
    assert second.header("Event") == "next" and second.ok


def test_many_tags_in_one_game_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    items = 3000
    monkeypatch.setattr(reader, "_GAME_ITEMS", items)
    tags = b"".join(b'[T%d "v"]\n' % i for i in range(items + 5))
    [g] = read_bytes(tags + b"1. 32-28 *\n")
    assert len(g.headers) <= items and "too large" in g.errors[0].message


# -- no message echoes the file --------------------------------------------------------


@HYPOTHESIS
@given(
    st.sampled_from(
        [
            '[GameType "{}"]',
            '[Variant "{}"]',
            '[FEN "{}"]',
            "1. {}",
            "1. 32-28 {} *",
            "1. 32-28 ({}) *",
            "({}",
            "1. 32-{}",
            "{}-28",
        ]
    ),
    st.text(alphabet="ab1-2x: Xé{(}", min_size=100, max_size=3000),
)
def test_no_problem_quotes_more_than_a_few_words(template: str, filler: str) -> None:
    short_problems(read_games_text(template.replace("{}", filler)))


# -- JSON fixtures ------------------------------------------------------------------------


def json_file(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "games.json"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def test_json_of_any_nesting_depth(tmp_path: Path) -> None:
    depth = 100_000
    text = "[" * depth + json.dumps('[GameType "20"]\n1. 32-28 *') + "]" * depth
    [g] = list(read_file(json_file(tmp_path, text)))
    assert g.ok and g.origin == "item 1"
    deep_object = '{"a":' * depth + '["1. 32-28 *", {"k": "1. 33-28 *"}]' + "}" * depth
    assert [g.origin for g in read_file(json_file(tmp_path, deep_object))] == ["item 1", "item 2"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        "[" * 50_000 + "]" * 49_999,
        '{"a": [1, 2,]}',
        '["x" "y"]',
        "[1e5000, " + "9" * 5000 + ', "1. 32-28 *"] extra',
        '{"a" 1}',
        "",
        '["\\ud800 unpaired"',
    ],
    ids=["open", "unclosed", "comma", "no-comma", "extra", "no-colon", "empty", "unpaired"],
)
def test_json_that_is_not_json_is_one_error(tmp_path: Path, text: str) -> None:
    [g] = list(read_file(json_file(tmp_path, text)))
    assert not g.ok and g.errors[0].message.startswith("not a JSON list of PDN texts")
    short_problems([g])


def test_json_numbers_of_any_size_and_every_unicode_encoding(tmp_path: Path) -> None:
    doc = '{"n": ' + "9" * 5000 + ', "games": ["1. 32-28 *"], "x": [1.5e999, true, null]}'
    for data in (doc.encode(), doc.encode("utf-8-sig"), doc.encode("utf-16"), doc.encode("utf-32")):
        [g] = list(read_file(json_file(tmp_path, data)))
        assert g.ok, g.errors
    [g] = list(read_file(json_file(tmp_path, doc.encode("cp1251") + b"\xff")))
    assert "not valid UTF-8" in g.errors[0].message


def test_json_too_large_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fixtures, "JSON_LIMIT", 100)
    path = json_file(tmp_path, json.dumps(["1. 32-28 *"] * 20))
    with pytest.raises(OSError, match="too large"):
        list(read_file(path))


@HYPOTHESIS
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=30,
    )
)
def test_json_strings_are_read_as_the_json_module_reads_them(data: object) -> None:
    def strings(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, list):
            return [s for item in value for s in strings(item)]
        if isinstance(value, dict):
            return [s for item in value.values() for s in strings(item)]
        return []

    for indent in (None, 2):
        assert fixtures.json_strings(json.dumps(data, indent=indent)) == strings(data)


@pytest.mark.parametrize(
    "text",
    ['["never closed', '["a\x01b"]', '["\\q"]', '["\\u12"]'],
    ids=["open", "ctl", "esc", "u"],
)
def test_a_broken_json_string_is_said_in_the_language(tmp_path: Path, text: str) -> None:
    """Python's own words for a JSON string it cannot read are not shown in Ukrainian:
    each reason is the catalog's."""
    from shashki.i18n import set_language

    set_language("uk")
    try:
        [g] = list(read_file(json_file(tmp_path, text)))
        message = g.errors[0].message
    finally:
        set_language("en")
    assert not g.ok
    assert not re.search(r"[A-Za-z]{3,}", message.replace("JSON", "").replace("PDN", "")), message
