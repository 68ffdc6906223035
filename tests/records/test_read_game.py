"""read_game the python-chess way: called again and again on one handle, it gives the games
that read_games gives, and leaves the handle where the next game begins."""

from __future__ import annotations

import codecs
import io
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shashki.records import (
    GameNode,
    GameRecord,
    HeadersScanner,
    read_game,
    read_games,
    scan_headers,
)
from shashki.records import lines as lines_module
from shashki.records import tokens as tokens_module
from shashki.rules.errors import BadPdnError

from ..conftest import shared_path

# -- what is compared --------------------------------------------------------------


def tree(node: GameNode) -> tuple[Any, ...]:
    return (
        node.move,
        tuple(node.comments),
        tuple(node.nags),
        tuple(node.starting_comments),
        tuple(tree(child) for child in node.variations),
    )


def summary(game: GameRecord, start: tuple[int, int] | None = (1, 1)) -> tuple[Any, ...]:
    """All a record holds.  read_game counts lines and columns from where the handle stood
    (``start``, as line and column of the file): they are turned into the file's own, as
    read_games counts them; without ``start`` they are left out."""

    def place(line: int, column: int) -> tuple[int, int] | None:
        if start is None:
            return None
        return start[0] + line - 1, column + (start[1] - 1 if line == 1 else 0)

    def problems(found: list[BadPdnError]) -> tuple[Any, ...]:
        return tuple((place(p.line, p.column), p.message, p.token, p.fen) for p in found)

    return (
        dict(game.headers),
        game.variant.id if game.variant is not None else None,
        game.fen,
        game.result,
        tree(game),
        problems(game.errors),
        problems(game.warnings),
        None if start is None else start[0] + game.line - 1,
    )


_LINE_END = re.compile(r"\r\n?|\n")


def line_and_column(before: str) -> tuple[int, int]:
    """Where the text that follows ``before`` (a file's start) begins: line and column."""
    before = before.lstrip("\ufeff")
    ends = list(_LINE_END.finditer(before))
    if not ends:
        return 1, len(before) + 1
    return len(ends) + 1, len(before) - ends[-1].end() + 1


def one_by_one(handle: Any, before: Callable[[int], str]) -> list[tuple[Any, ...]]:
    """read_game until None; ``before(offset)`` is the file's text up to an offset."""
    games = []
    while True:
        at = handle.tell()
        game = read_game(handle)
        if game is None:
            return games
        games.append(summary(game, line_and_column(before(at))))
        assert len(games) < 500, "read_game keeps giving games"


def all_at_once(handle: Any) -> list[tuple[Any, ...]]:
    return [summary(game) for game in read_games(handle)]


# -- the texts -----------------------------------------------------------------------

GAME = (
    '[Event "{}"]\n[White "Фадеев"]\n[GameType "25"]\n'
    "1. c3-d4 f6-g5 {{a comment\nover two lines}} 2. b2-c3 (2. g3-h4 {{x}}\n"
    " g7-f6) g5-h4 {}\n"
)

TEXTS = {
    "blank lines between": "\n".join(GAME.format(i, "*") for i in range(3)),
    "no blank lines": "".join(GAME.format(i, "1-0") for i in range(3)),
    "no results": "\n".join(GAME.format(i, "") for i in range(3)),
    "no results, no blank lines": "".join(GAME.format(i, "") for i in range(3)),
    "after the result, on its line": (
        GAME.format(1, "1-0 White resigns {at move 40,\nin time trouble}")
        + GAME.format(2, "0-1 (time\nforfeit)")
        + GAME.format(3, "*")
    ),
    "several games on a line": (
        '[Event "1"] 1. 32-28 * [Event "2"] 1. 33-28 19-23 1-0 1. 34-29 * 1. 31-27 *\n'
        '[Event "3"] [GameType "25"] 1. c3-d4 f6-g5 [Event "4"] 1. 32-28 {x} 1-0\n'
    ),
    "comment never closed": (
        '[Event "1"]\n1. 32-28 {never closed\n19-23 *\n1. 33-28 {again\n'
        '[Event "2"]\n1. 31-27 (1. 32-28\n[Event "3"]\n1. 34-29 *\n'
    ),
    "words, errors, escapes": (
        "A title\n<p>\n%escaped line\n"
        '[Event "1"]\n1. 32-28 19-23 2. 99-98 *\nWhite won.\n\n'
        '%another\n[Event "2"]\n1. 32-28 ) 19-23 White resigns\n'
        '[Event "3"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. c3-b4 *\n'
    ),
}


def _bytes(encoding: str, newline: str = "\n") -> Callable[[str], tuple[Any, Callable[[int], str]]]:
    def make(text: str) -> tuple[Any, Callable[[int], str]]:
        text = text.replace("\n", newline)
        data = text.encode(encoding)
        return io.BytesIO(data), lambda at: data[:at].decode(encoding)

    return make


def _text(prefix: str = "") -> Callable[[str], tuple[Any, Callable[[int], str]]]:
    def make(text: str) -> tuple[Any, Callable[[int], str]]:
        text = prefix + text
        return io.StringIO(text), lambda at: text[:at]

    return make


HANDLES = {
    "text": _text(),
    "text with a BOM": _text("\ufeff"),
    "UTF-8": _bytes("utf-8"),
    "UTF-8 CRLF": _bytes("utf-8", "\r\n"),
    "UTF-8 CR": _bytes("utf-8", "\r"),
    "UTF-8 with a BOM": _bytes("utf-8-sig"),
    "cp1251": _bytes("cp1251"),
    "UTF-16 with a BOM": _bytes("utf-16"),
    "UTF-16-LE without BOM": _bytes("utf-16-le"),
    "UTF-16-BE without BOM, CRLF": _bytes("utf-16-be", "\r\n"),
    "UTF-32 with a BOM": _bytes("utf-32"),
}


@pytest.mark.parametrize("kind", list(HANDLES))
@pytest.mark.parametrize("name", list(TEXTS))
def test_read_game_again_and_again_gives_the_games_read_games_gives(kind: str, name: str) -> None:
    handle, before = HANDLES[kind](TEXTS[name])
    games = one_by_one(handle, before)
    handle.seek(0)
    assert games == all_at_once(handle)
    assert len(games) >= 2


@pytest.mark.parametrize("newline", [None, "", "\n"])
def test_a_text_file_read_game_after_game(tmp_path: Path, newline: str | None) -> None:
    """A text file's positions are cookies: the handle is put back by them."""
    path = tmp_path / "games.pdn"
    text = "\ufeff" + "".join(TEXTS.values())
    path.write_bytes(text.replace("\n", "\r\n").encode())
    with open(path, encoding="utf-8", newline=newline) as handle:
        games = []
        while (game := read_game(handle)) is not None:
            games.append(summary(game, None))
        handle.seek(0)
        assert games == [summary(game, None) for game in read_games(handle)]
    data = path.read_bytes()
    with open(path, "rb") as handle:
        assert one_by_one(handle, lambda at: data[:at].decode()) == all_at_once(path)


def test_the_handle_is_left_where_the_next_game_begins() -> None:
    text = (
        '[Event "1"]\n1. 32-28 *\n\n\n'
        '[Event "2"]\n1. 32-28\n'
        '[Event "3"]\n1. 32-28 1-0 {done} [Event "4"] 1. 33-28 *'
    )
    for handle in (io.StringIO(text), io.BytesIO(text.encode())):
        stops = []
        while read_game(handle) is not None:
            stops.append(handle.tell())
        assert stops == [text.index(f'[Event "{n}"]') for n in (2, 3, 4)] + [len(text)]


def test_tags_only_and_the_default_variant() -> None:
    text = TEXTS["no results, no blank lines"] + TEXTS["several games on a line"]
    handle = io.BytesIO(text.encode())
    tags = []
    while (headers := read_game(handle, visitor=HeadersScanner)) is not None:
        tags.append(headers)
    assert tags == list(scan_headers(io.StringIO(text)))
    handle.seek(0)
    variants = []
    while (game := read_game(handle, default_variant="russian")) is not None:
        variants.append(game.variant.id)
    assert variants == [g.variant.id for g in read_games(io.StringIO(text), "russian")]
    assert "russian" in variants and "international" not in variants


def test_lines_read_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line longer than LINE_LIMIT comes in pieces: the handle is put back inside one."""
    monkeypatch.setattr(lines_module, "LINE_LIMIT", 48)
    moves = " ".join(["32-28 19-23 28x19 14x23"] * 4)
    text = f'[Event "1"] 1. {moves} {{{"word " * 30}}} 1-0 [Event "2"] 1. {moves} *\n' * 3
    for data in (text, text.encode(), text.encode("utf-16")):
        handle: Any = io.StringIO(data) if isinstance(data, str) else io.BytesIO(data)
        encoding = "utf-16" if data[:2] == codecs.BOM_UTF16_LE else "utf-8"

        def before(at: int, data: Any = data, encoding: str = encoding) -> str:
            return data[:at] if isinstance(data, str) else data[:at].decode(encoding)

        games = one_by_one(handle, before)
        handle.seek(0)
        assert games == all_at_once(handle) and len(games) == 6


def test_a_comment_never_closed_is_read_again_from_lines_long_past(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lines a comment never closed takes in are read again as moves: the next game
    may begin among them, however far back; the places kept reach back that far."""
    assert lines_module.PLACES > tokens_module.COMMENT_LIMIT // 2 + 2
    monkeypatch.setattr(tokens_module, "COMMENT_LIMIT", 400)
    monkeypatch.setattr(lines_module, "PLACES", 401)
    text = '[Event "1"]\n1. 32-28 {never closed\n19-23 *\n1. 33-28\n' + "x\n" * 150
    text += '[Event "2"]\n1. 31-27 *\n'
    for handle in (io.StringIO(text), io.BytesIO(text.encode())):
        games = one_by_one(handle, lambda at: text[:at])
        handle.seek(0)
        assert games == all_at_once(handle) and len(games) == 3


def test_bytes_that_cannot_be_decoded_end_the_games_as_they_do_read_whole() -> None:
    data = b'[Event "1"]\n1. 32-28 *\n[Event "2"]\n1. 33-28 *\n\x00\x01 junk\n[Event "3"]\n*\n'
    handle = io.BytesIO(data)
    games = []
    while (game := read_game(handle)) is not None:
        games.append(game)
        assert len(games) < 10
    whole = list(read_games(io.BytesIO(data)))
    assert [g.header("Event") for g in games] == [g.header("Event") for g in whole]
    assert [[e.message for e in g.errors] for g in games] == [
        [e.message for e in g.errors] for g in whole
    ]
    assert any("NUL" in e.message for e in games[-1].errors)
    assert read_game(handle) is None


def test_a_utf16_file_whose_games_hold_characters_with_a_zero_byte() -> None:
    """A game inside a UTF-16 file has no BOM: its zero bytes tell, even with a few
    characters such as 一 (U+4E00), whose low byte is zero."""
    text = "".join(GAME.format(i, "*").replace("Фадеев", "一二三 Ā") for i in range(4))
    for bom, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        data = bom + text.encode(encoding)
        games = one_by_one(io.BytesIO(data), lambda at, d=data: d[:at].decode("utf-16"))
        assert games == all_at_once(io.BytesIO(data)) and len(games) == 4


def test_a_text_file_opened_in_the_wrong_encoding(tmp_path: Path) -> None:
    path = tmp_path / "latin.pdn"
    path.write_bytes(('[White "é"]\n1. 32-28 *\n' * 2000).encode("latin-1"))
    with open(path, encoding="utf-8") as handle:
        games = []
        while (game := read_game(handle)) is not None:
            games.append(summary(game, None))
            assert len(games) < 10
    with open(path, encoding="utf-8") as handle:
        assert games == [summary(g, None) for g in read_games(handle)]
    assert "binary mode" in str(games[-1])


# -- the shared corpus ------------------------------------------------------------------

CORPUS_FILES = [
    "russian/wiegerw-pdn/ussr1947.pdn",  # CRLF
    "italian/mig0-Games-Checkers/40champ-1996.pdn",  # not UTF-8
    "english/wiegerw-pdn/OCA_2.0.pdn",
    "international/mig0-Games-Checkers/az2000.pdn",
    "russian/mig0-Games-Checkers/World_Championship_1998.pdn",
    "_parser_edge_cases/wiegerw-pdn/succeed/fen.pdn",  # three positions
]


@pytest.mark.parametrize("rel", CORPUS_FILES)
def test_corpus_files_read_game_after_game(rel: str) -> None:
    path = shared_path("corpora", "pdn", *rel.split("/"))
    data = path.read_bytes()
    try:
        data.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        encoding = "latin-1"  # read one byte a character, as the reader does
    with open(path, "rb") as handle:
        games = one_by_one(handle, lambda at: data[:at].decode(encoding))
    assert games == all_at_once(path) and games
    if encoding == "utf-8":
        with open(path, encoding="utf-8") as handle:
            texts = []
            while (game := read_game(handle)) is not None:
                texts.append(summary(game, None))
        assert texts == [summary(g, None) for g in read_games(path)]


# -- handles that cannot seek ---------------------------------------------------------------


class Pipe(io.RawIOBase):
    """Bytes that can be read once, as from a pipe: no seek, no tell."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self._data.readinto(buffer)


PIPES: dict[str, Callable[[bytes, str], Any]] = {
    "binary": lambda data, encoding: io.BufferedReader(Pipe(data)),
    "binary, no peek": lambda data, encoding: Pipe(data),
    "text": lambda data, encoding: io.TextIOWrapper(
        io.BufferedReader(Pipe(data)), encoding=encoding
    ),
}
WITH_RESULTS = ["blank lines between", "no blank lines", "after the result, on its line"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-32"])
@pytest.mark.parametrize("pipe", list(PIPES))
@pytest.mark.parametrize("name", WITH_RESULTS)
def test_a_pipe_is_read_to_the_line_of_each_result(pipe: str, name: str, encoding: str) -> None:
    data = TEXTS[name].encode(encoding)
    handle = PIPES[pipe](data, encoding)
    games = []
    while (game := read_game(handle)) is not None:
        games.append(summary(game, None))
        assert len(games) < 10
    assert games == [summary(g, None) for g in read_games(io.BytesIO(data))]


@pytest.mark.parametrize("pipe", list(PIPES))
def test_a_pipe_cannot_be_given_back_a_line_and_the_game_says_so(pipe: str) -> None:
    text = '[Event "1"]\n1. 32-28\n[Event "2"]\n[Site "here"]\n1. 33-28 *\n[Event "3"]\n*\n'
    handle = PIPES[pipe](text.encode(), "utf-8")
    first, second, third = read_game(handle), read_game(handle), read_game(handle)
    assert read_game(handle) is None
    assert first is not None and second is not None and third is not None
    assert len(first.mainline_moves()) == 1 and first.ok
    [warning] = first.warnings
    assert warning.line == 3 and "line 3" in warning.message and "cannot seek" in warning.message
    # the next game lost its first line, and says nothing of it
    assert second.headers == {"Site": "here"} and len(second.mainline_moves()) == 1
    assert third.headers == {"Event": "3"} and third.ok and not third.warnings


def test_read_game_on_a_pipe_leaves_the_rest_of_it_unread() -> None:
    text = '[Event "1"]\n1. 32-28 19-23 1-0\n[Event "2"]\n1. 33-28 *\n'
    pipe = io.BufferedReader(Pipe(text.encode()))
    game = read_game(pipe)
    assert game is not None and game.ok and not game.warnings
    assert pipe.read() == b'[Event "2"]\n1. 33-28 *\n'


# -- random texts -------------------------------------------------------------------------

PARTS = [
    '[Event "x"]', '[GameType "25"]', '[White "Фадеев"]', '[FEN "W:W31:B1"]',
    '[Event "y"] [Site "z"]', "1.", "2.", "c3-d4", "f6-g5", "b2-c3", "32-28", "19-23",
    "99-98", "{a comment}", "{open", "close}", "{", "}", "(", ")", "*", "1-0", "0-1",
    "1/2-1/2", "White wins", "x", "%esc", "$3", "!?",
]  # fmt: skip
SEPARATORS = [" ", "\n", "\n\n", "\r\n", "\r", "", "  \n"]


@pytest.mark.parametrize("seed", range(3))
def test_random_texts_read_game_after_game(seed: int) -> None:
    """Random runs of PDN pieces, through every kind of handle: what read_game gives again
    and again is what read_games gives; from a pipe too, unless a game says it read lines
    that the pipe could not be given back."""
    rng = random.Random(seed)
    for _ in range(50):
        text = "".join(
            rng.choice(PARTS) + rng.choice(SEPARATORS) for _ in range(rng.randint(1, 40))
        )
        for encoding in ("text", "utf-8", "utf-16", "utf-32"):
            data: Any = text if encoding == "text" else text.encode(encoding)
            handle: Any = io.StringIO(data) if encoding == "text" else io.BytesIO(data)

            def before(at: int, data: Any = data, encoding: str = encoding) -> str:
                return data[:at] if encoding == "text" else data[:at].decode(encoding)

            assert one_by_one(handle, before) == all_at_once(handle.__class__(data)), text
        for encoding in ("utf-8", "utf-16"):
            data = text.encode(encoding)
            whole = [summary(g, None) for g in read_games(io.BytesIO(data))]
            for pipe in PIPES.values():
                handle = pipe(data, encoding)
                games, lost = [], False
                while (game := read_game(handle)) is not None:
                    games.append(summary(game, None))
                    lost = lost or any("cannot seek" in w.message for w in game.warnings)
                    assert len(games) < 100
                assert lost or games == whole, text
