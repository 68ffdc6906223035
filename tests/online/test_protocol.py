"""The protocol's messages: every one bounded and checked; garbage refused in one line."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from shashki.online.protocol import (
    CODE_LETTERS,
    MAX_MESSAGE,
    VERSION,
    ProtocolError,
    RateLimit,
    clean,
    encode,
    new_code,
    older_version,
    parse,
    rules_digest,
    version_refusal,
)
from shashki.rules import find_variant


def test_a_message_goes_there_and_back() -> None:
    message = parse(encode("move", ply=3, move="c3-d4", left=12.5))
    assert message.type == "move"
    assert message.fields == {"ply": 3, "move": "c3-d4", "left": 12.5}


@pytest.mark.parametrize(
    ("frame", "says"),
    [
        ("hello", "not JSON"),
        ('{"v": 2, "t": "move", "ply": 3, "mo', "not JSON"),  # truncated
        ("[1, 2]", "not a JSON object"),
        ('{"v": 1, "t": "chat", "text": "hi"}', "version"),
        ('{"v": 3, "t": "chat", "text": "hi"}', "version"),
        ('{"t": "chat", "text": "hi"}', "version"),
        ('{"v": true, "t": "chat", "text": "hi"}', "version"),
        ('{"v": 2, "t": "exec", "cmd": "rm -rf /"}', "unknown message type"),
        ('{"v": 2, "t": "move", "move": "c3-d4"}', "ply is missing"),
        ('{"v": 2, "t": "move", "ply": "3", "move": "c3-d4"}', "not a whole number"),
        ('{"v": 2, "t": "move", "ply": -1, "move": "c3-d4"}', "not a whole number"),
        ('{"v": 2, "t": "move", "ply": 1, "move": 5}', "not text"),
        ('{"v": 2, "t": "move", "ply": 1, "move": "c3-d4", "left": NaN}', "not a number"),
        ('{"v": 2, "t": "move", "ply": 1, "move": "c3-d4", "left": 1e300}', "clock reading"),
        ('{"v": 2, "t": "move", "ply": 1, "move": "c3-d4", "left": -5}', "clock reading"),
        ('{"v": 2, "t": "move", "ply": 1, "move": "c3-d4", "path": "/etc"}', "unknown field"),
        ('{"v": 2, "t": "chat", "text": "' + "x" * 1000 + '"}', "too long"),
        ('{"v": 2, "t": "draw_answer", "accept": "yes"}', "true or false"),
        ("[" * 100_000, "message"),
        (b"\xff\xfe not utf-8", "not UTF-8"),
    ],
)
def test_garbage_is_refused_in_one_line(frame: str | bytes, says: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(frame)
    text = str(caught.value)
    assert says in text
    assert "\n" not in text and len(text) < 200


def test_an_oversized_message_is_refused_before_it_is_read() -> None:
    frame = json.dumps({"v": VERSION, "t": "chat", "text": "x" * MAX_MESSAGE})
    with pytest.raises(ProtocolError, match="too long"):
        parse(frame)


def test_names_and_chat_are_cleaned_of_escapes() -> None:
    line = clean("\x1b]0;pwned\x07Bo\x1b[31mris\u202e\r\nrm -rf\x9b2J", 40)
    assert line == "Boris rm -rf"
    assert all(c.isprintable() for c in line)
    assert len(clean("x" * 500, 40)) == 40


def test_a_room_code_is_short_random_and_read_loosely() -> None:
    codes = {new_code() for _ in range(50)}
    assert len(codes) == 50
    for code in codes:
        assert len(code) == 7 and code[4] == "-"
        assert all(c in CODE_LETTERS for c in code.replace("-", ""))


def test_an_older_peers_message_is_known_by_its_version_and_answered_in_its_shape() -> None:
    assert older_version('{"v": 1, "t": "join", "code": "K7WQ-M2"}') == 1
    assert older_version(encode("pake", pake="00" * 33)) is None  # (this version's)
    assert older_version("garbage") is None and older_version('{"v": true}') is None
    answer = json.loads(version_refusal(1))
    assert answer == {
        "v": 1,
        "t": "refused",
        "text": f"version: this host speaks version {VERSION} of the protocol (update shashki)",
    }


def test_the_rules_digest_changes_with_the_rules_only() -> None:
    russian = find_variant("russian")
    assert rules_digest(russian) == rules_digest(replace(russian, name="Mine", card="x"))
    assert rules_digest(russian) != rules_digest(find_variant("brazilian"))
    assert rules_digest(russian) != rules_digest(replace(russian, start=russian.start + " "))


def test_the_rate_limit_lets_a_burst_through_then_a_few_a_second() -> None:
    limit = RateLimit(0.0, burst=5, per_second=2.0)
    assert all(limit.take(0.0) for _ in range(5))
    assert not limit.take(0.0)
    assert limit.refused == 1
    assert limit.take(0.5)  # one more after half a second
    assert not limit.take(0.5)
