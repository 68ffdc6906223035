"""Fuzzing the reader: on mutated real files and on random text it never raises, never
hangs, and every error it reports says where."""

from __future__ import annotations

import io
import time
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.records import PdnReader, read_games_text, write_game
from shashki.rules import find_variant

from ..conftest import SHARED
from .randomgames import random_record

#: Seconds one example may take at most (a hang would be far longer).
LIMIT = 10.0

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Pieces of PDN syntax that mutations splice in.
SYNTAX = [
    b"(",
    b")",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b"\\",
    b"%",
    b";",
    b"$",
    b"!?",
    b"1-0",
    b"2-0",
    b"1/2-1/2",
    b"*",
    b"1.",
    b"23...",
    b"x",
    b":",
    b"-",
    b" ",
    b"\n",
    b"\r",
    b"\r\n",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xd0",
    b"ed4",
    b"a3b4",
    b"32-28",
    b"c3:e5:c7",
    b'[GameType "25"]',
    b'[GameType "21"]',
    b'[FEN "W:W31-50:B1-20"]',
    b'[FEN "B:Wa1:Bh8"]',
    b'[Variant "bashni"]',
    b'[SetUp "1"]',
    b"\t",
    b"\x00",
]


@cache
def samples() -> tuple[bytes, ...]:
    """Windows of the corpus files (or of games shashki writes, without the corpus)."""
    root = SHARED / "corpora" / "pdn"
    out: list[bytes] = []
    if root.is_dir():
        for path in sorted(root.rglob("*.pdn")) + sorted(root.rglob("*.json")):
            data = path.read_bytes()
            for start in (0, len(data) // 3, len(data) // 2):
                out.append(data[start : start + 6000])
    for variant in ("russian", "english", "international", "bashni", "double-move"):
        out.append(write_game(random_record(find_variant(variant), 11)).encode())
    return tuple(out)


def read_all(data: bytes | str) -> list[object]:
    start = time.monotonic()
    handle = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    games = list(PdnReader(handle, "russian"))
    assert time.monotonic() - start < LIMIT
    for game in games:
        for problem in [*game.errors, *game.warnings]:
            assert problem.message
            assert problem.line >= 1 and problem.column >= 1, problem
    return games  # type: ignore[return-value]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(samples())))
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.integers(0, 4))
        at = draw(st.integers(0, len(data)))
        if kind == 0:  # delete a stretch
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == 1:  # splice in PDN syntax
            data[at:at] = draw(st.sampled_from(SYNTAX))
        elif kind == 2:  # random bytes
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == 3:  # duplicate a stretch elsewhere
            piece = bytes(data[at : at + draw(st.integers(1, 200))])
            where = draw(st.integers(0, len(data)))
            data[where:where] = piece
        else:  # flip a byte
            if data:
                i = min(at, len(data) - 1)
                data[i] = draw(st.integers(0, 255))
    return bytes(data)


@FUZZ
@given(mutated())
def test_mutated_real_files(data: bytes) -> None:
    read_all(data)


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes(data: bytes) -> None:
    read_all(data)


PIECES = [
    *'()[]{}"\\%;$!?*-x:./ \n\r\t0123456789abcdefghK',
    "1-0",
    "ed4",
    "é",
    "ш",
    '[GameType "25"]',
    '[FEN "W:Wc3:Bf6"]',
    "{",
    "}",
]


@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=600).map("".join))
def test_random_pdn_like_text(text: str) -> None:
    read_all(text)


@FUZZ
@given(st.integers(0, 10_000), st.sampled_from(["russian", "english", "international"]))
def test_what_shashki_writes_reads_without_error(seed: int, variant: str) -> None:
    record = random_record(find_variant(variant), seed, plies=30)
    [back] = read_games_text(write_game(record))
    assert back.ok and back.same_tree(record)


def test_a_long_line_of_open_parentheses_does_not_hang() -> None:
    read_all("1. 32-28 " + "(" * 20000 + " 19-23" + ")" * 5)
    read_all("{" + "x" * 200_000)
    read_all("1. " + "32-28 " * 3000)


def test_many_ambiguous_moves_in_a_row_stay_bounded() -> None:
    # Every move fits two readings; the look-ahead must not explode.
    text = '[GameType "25"]\n[FEN "W:WKa1,Ka3:BKh8,Kh6"]\n' + "ab2 hg7 bc3 gf6 " * 40
    start = time.monotonic()
    read_all(text)
    assert time.monotonic() - start < LIMIT


def test_samples_exist() -> None:
    assert samples()
    assert Path(__file__).exists()


def test_an_unclosed_comment_does_not_fill_memory() -> None:
    head = b'[GameType "20"]\n1. 32-28 {' + b"word " * 40 + b"\n"
    body = (b"x" * 200 + b"\n") * 5000  # 1 MB inside the comment
    tail = b'} 19-23 *\n[GameType "20"]\n1. 33-28 *\n'
    first, second = read_all(head + body + tail)
    assert first.ok and len(first.mainline_moves()) == 2  # type: ignore[attr-defined]
    assert first.warnings and len(first.next().comments[0]) < 200_000  # type: ignore[attr-defined]
    assert second.ok  # type: ignore[attr-defined]
