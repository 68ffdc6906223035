"""Refusals in the player's language: what a hostile or broken peer sent is refused in
Ukrainian or Russian on a uk/ru screen (no English beyond names, quoted text and format
names), while what crosses the wire stays English with a reason code in front."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator

import pytest

from shashki import i18n
from shashki.online.events import Info, Refused, Synced
from shashki.online.guest import Guest
from shashki.online.protocol import REASON_CODES, ProtocolError, parse, refusal_text

from .harness import FakeHost, Heard, Pair, hosted, until
from .test_hostile import joined

#: Names that stay as they are in any language (formats, the program).
PROPER = {"JSON", "UTF", "shashki"}


def english_words(line: str) -> list[str]:
    """The Latin words of ``line`` outside «quotations» (a name, a move, the peer's
    words are quoted) that are not a format's or the program's name (a position's FEN
    and a square are no words)."""
    bare = re.sub(r"«[^«»]*»", " ", line)
    return [w for w in re.findall(r"(?<!\w)[A-Za-z]{2,}(?!\w)", bare) if w not in PROPER]


@pytest.fixture
def ukrainian() -> Iterator[None]:
    i18n.set_language("uk")
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.fixture
async def pair(ukrainian: None) -> AsyncIterator[Pair]:
    pair = await hosted(clock="5+0")
    yield pair
    await pair.close()


async def test_a_hostile_guest_is_refused_in_ukrainian_and_told_in_english(pair: Pair) -> None:
    raw = await joined(pair, "Mallory")
    await raw.send("move", ply=0, move="f6-g5")  # white is to move: not the guest's turn
    await raw.send_text("hello")  # garbage
    await raw.send_text('{"v": 2, "t": "move", "ply": -3, "move": "x"}')  # a bad field
    await raw.send_text('{"v": 2, "t": "launch"}')  # an unknown type
    await raw.send_text('{"v": 3, "t": "move"}')  # another version
    await until(lambda: len(pair.heard.texts(Refused)) >= 5, "five refusals")
    lines = pair.heard.texts(Refused)
    assert lines[0] == "хід відхилено, бо зараз не хід гостя"
    assert "JSON" in lines[1] and "«move.ply»" in lines[2] and "«launch»" in lines[3]
    for line in lines:
        assert not english_words(line), line
    # what the guest is sent: the reason's code, then the English line
    wire = [(await raw.read("refused")).get("text") for _ in range(5)]
    assert wire[0] == "not-your-turn: move refused: it is not the guest's turn"
    assert wire[1].startswith("bad-message: message is not JSON (")
    assert wire[2] == "bad-message: field move.ply is not a whole number from 0"
    assert wire[3] == "bad-message: unknown message type 'launch'"
    assert wire[4] == "version: protocol version '3' is not 2 (update shashki)"
    await raw.close()


def test_each_reason_code_is_said_without_english(ukrainian: None) -> None:
    for code in REASON_CODES:
        line = refusal_text(f"{code}: the English line a host sends")
        assert line == i18n._(REASON_CODES[code]) and not english_words(line), (code, line)
    assert refusal_text("not-your-turn: move refused") == (
        "Господар партії відхилив наш хід: зараз не наш хід."
    )


@pytest.mark.parametrize(
    "text",
    [
        "move refused: it is not the guest's turn",  # an older host: no code
        "made-up-code: something new",  # a code this side does not know
        "\x1b[2Jno code\r\nat all",  # escapes and a line break
        "",
    ],
)
def test_an_unknown_or_missing_code_is_a_general_line_quoting_the_host(
    ukrainian: None, text: str
) -> None:
    line = refusal_text(text)
    assert line.startswith("Господар партії відхилив повідомлення зі словами «")
    assert "\x1b" not in line and "\n" not in line and "\r" not in line
    assert not english_words(line), line


def test_english_stays_english_and_the_wire_keeps_its_shape() -> None:
    error = ProtocolError(
        "move refused: it is for ply {ply}, the game is at ply {at}", "wrong-ply", ply=3, at=1
    )
    assert str(error) == error.local() == "move refused: it is for ply 3, the game is at ply 1"
    assert error.wire() == "wrong-ply: move refused: it is for ply 3, the game is at ply 1"
    i18n.set_language("ru")
    try:
        assert str(error) == "move refused: it is for ply 3, the game is at ply 1"
        assert (
            error.local() == "ход отклонён, так как он для полухода № 3, а партия на полуходе № 1"
        )
        assert (
            refusal_text(error.wire())
            == "Хозяин партии отклонил наш ход: он сделан в другой позиции."
        )
    finally:
        i18n.set_language("en")
    with pytest.raises(ProtocolError) as caught:
        parse("{garbage")
    assert str(caught.value).startswith("message is not JSON (")  # (the parser's words kept)
    assert caught.value.local() == "message is not JSON"
    assert refusal_text("made-up: x") == 'The host refused a message, saying "made-up: x".'


async def test_a_hostile_host_is_refused_in_ukrainian(ukrainian: None) -> None:
    fake = FakeHost()
    address = await fake.start()
    guest = Guest(address, fake.code, "Boris")
    try:
        await guest.connect()
        link = guest.make_link()
        heard = Heard()
        link.subscribe(heard)
        reader = asyncio.create_task(guest.run())
        await until(lambda: heard.saw(Synced), "the first state")
        await fake.send("moved", ply=0, move="c3-e5")  # illegal
        await fake.send("moved", ply=5, move="c3-d4")  # another ply
        await fake.send("moved", ply=0, move="c3-d4", left=[5000, 300])  # a clock claim
        await fake.send_text("{garbage")
        await fake.send("state", moves=[], end={"kind": "rules"})  # an end the rules deny
        await fake.send("draw_answer", accept=True)  # no offer was made
        await until(lambda: len(heard.texts(Refused)) >= 6, "six refusals")
        lines = heard.texts(Refused)
        assert lines[0].startswith("хід «c3-e5» відхилено — ")
        assert "напівходу № 5" in lines[1] and "час білих" in lines[2]
        for line in lines:
            assert not english_words(line), line
        await fake.send("refused", text="not-your-turn: move refused: not the guest's turn")
        await fake.send("refused", text="move refused: it is not the guest's turn")  # old host
        await until(lambda: len(heard.texts(Info)) >= 2, "the host's two refusals")
        told = heard.texts(Info)
        assert told[0] == "Господар партії відхилив наш хід: зараз не наш хід."
        assert told[1] == (
            "Господар партії відхилив повідомлення зі словами "
            "«move refused: it is not the guest's turn»."
        )
        await guest.close()
        await until(reader.done, "the reader's end")
    finally:
        await guest.close()
        assert fake.runner is not None
        await fake.runner.cleanup()
