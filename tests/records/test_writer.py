"""The PDN writer, and round trips: what shashki writes, it reads back to the same game."""

from __future__ import annotations

import io

import pytest

from shashki.records import (
    GameRecord,
    pdn_headers,
    read_games_text,
    write_game,
    write_games,
)
from shashki.rules import Game, Variant, all_variants, find_variant

from ..conftest import mv
from .randomgames import random_record

VARIANTS = all_variants()


def movetext(text: str) -> str:
    return text.split("\n\n", 1)[1]


def assert_round_trip(record: GameRecord) -> str:
    text = write_game(record)
    games = read_games_text(text)
    assert len(games) == 1, text
    back = games[0]
    assert back.ok, (back.errors, text)
    assert back.variant is record.variant
    assert back.fen == record.fen
    assert back.result == record.result
    assert back.comments == record.comments
    assert back.same_tree(record), text
    assert back.headers == pdn_headers(record.headers, record.variant, record.fen, record.result)
    assert write_game(back) == text
    for line in text.splitlines():
        if not line.startswith("["):
            assert len(line) <= 80 or " " not in line.strip(), line
    return text


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_round_trip(variant: Variant, seed: int) -> None:
    assert_round_trip(random_record(variant, seed))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_every_start_option_round_trips(variant: Variant) -> None:
    for _label, fen in variant.start_options or (("", variant.start),):
        start = Game(variant, fen)
        usual = Game(variant, variant.start)
        record = GameRecord(variant, None if start.fen() == usual.fen() else start.fen())
        node = record
        for _ in range(6):
            legal = start.legal_moves()
            if not legal or start.outcome() is not None:
                break
            node = node.add_variation(legal[len(legal) // 2])
            start.push(legal[len(legal) // 2])
        text = assert_round_trip(record)
        if record.fen is not None:
            assert '[SetUp "1"]' in text and f'[FEN "{record.fen}"]' in text


def test_seven_tag_roster_first_then_gametype_then_the_rest() -> None:
    record = GameRecord("russian", headers={"Opening": "Kosjak", "White": "A", "Setup": "0"})
    text = write_game(record)
    tags = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert tags == [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "GameType",
        "Opening",
    ]
    assert '[Date "????.??.??"]' in text and '[GameType "25,W,8,8,A0,0"]' in text


def test_variant_tag_when_the_gametype_does_not_say_it() -> None:
    assert '[Variant "traditional"]' in write_game(GameRecord("traditional"))
    assert "[Variant" not in write_game(GameRecord("brazilian"))
    text = write_game(GameRecord("bashni"))
    assert '[Variant "bashni"]' in text and "GameType" not in text


def test_fen_and_setup_only_off_the_start() -> None:
    assert "FEN" not in write_game(GameRecord("english"))
    text = write_game(GameRecord("english", "W:W22,24,27,32:B7,10,15,20"))
    assert '[SetUp "1"]' in text and '[FEN "W:W22,24,27,32:B7,10,15,20"]' in text
    assert movetext(text) == "*\n"


def test_numbering_when_the_second_side_starts() -> None:
    record = GameRecord("english", "W:W22,24,27,32:B7,10,15,20")
    game = record.start()
    node = record
    for _ in range(3):
        move = game.legal_moves()[0]
        node = node.add_variation(move)
        game.push(move)
    text = movetext(write_game(record))
    assert text.startswith("1... ") and " 2. " in text


def test_notation_of_each_variant() -> None:
    record = GameRecord("russian")
    node = record.add_variation(mv("russian", "c3", "d4"))
    node = node.add_variation(mv("russian", "f6", "e5"))
    node.add_variation(mv("russian", "d4", "f6", captured=("e5",)))
    assert movetext(write_game(record)) == "1. c3-d4 f6-e5 2. d4:f6 *\n"
    record = GameRecord("international")
    record.add_variation(mv("international", "32", "28"))
    assert movetext(write_game(record)) == "1. 32-28 *\n"


def test_full_path_when_the_ends_are_ambiguous() -> None:
    game = Game("english", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13")
    captures = [m for m in game.legal_moves() if m.is_capture]
    ends = {(m.start, m.end) for m in captures}
    assert len(ends) < len(captures)  # two captures 10 to 26 over different men
    record = GameRecord("english", game.fen())
    for move in captures:
        record.add_variation(move)
    text = assert_round_trip(record)
    assert "10x19x26" in text and "10x17x26" in text


def test_comments_nags_variations_written_the_standard_way() -> None:
    record = GameRecord("international")
    record.comments.append("A game")
    first = record.add_variation(mv("international", "32", "28"), nags=[1])
    first.comments.append("the usual start")
    alt = record.add_variation(mv("international", "33", "28"), nags=[146])
    alt.starting_comments.append("or")
    first.add_variation(mv("international", "19", "23"))
    text = movetext(assert_round_trip(record))
    assert text == ("{A game} 1. 32-28! {the usual start} ({or} 1. 33-28 $146) 1... 19-23 *\n")


def test_lines_are_at_most_80_characters() -> None:
    record = random_record(find_variant("international"), 7, plies=120)
    record.end().comments.append(" ".join(["word"] * 100))
    text = assert_round_trip(record)
    assert max(len(line) for line in movetext(text).splitlines()) <= 80


def test_comment_braces_and_percent_lines() -> None:
    record = GameRecord("russian")
    node = record.add_variation(mv("russian", "c3", "d4"))
    node.comments.append("{nested} " + "x " * 36 + "%not-an-escape")
    text = write_game(record)
    assert "{(nested)" in text
    assert not any(line.startswith("%") for line in text.splitlines())
    [back] = read_games_text(text)
    assert back.next().comments[0].endswith("%not-an-escape")


def test_tag_values_are_escaped() -> None:
    record = GameRecord("russian", headers={"White": 'a "b" \\ c', "Black": "line\nbreak"})
    [back] = read_games_text(write_game(record))
    assert back.headers["White"] == 'a "b" \\ c' and back.headers["Black"] == "line break"


def test_write_games_separates_games_by_a_blank_line() -> None:
    out = io.StringIO()
    assert write_games(out, [GameRecord("russian"), GameRecord("english")]) == 2
    games = read_games_text(out.getvalue())
    assert [g.variant.id for g in games] == ["russian", "english"]
    assert "\n\n[Event" in out.getvalue()


def test_a_read_game_written_again_is_the_same_game() -> None:
    text = (
        '[Event "x"]\n[Setup "1"]\n[FEN "W:W32,27,24,22:B20,15,10,7."]\n[GameType "21"]\n'
        "1. 27-23 {a long comment\n over two lines} (1. 22-17 7-11) 1... 20x27 2. 23-18 0-1\n"
    )
    [first] = read_games_text(text)
    assert first.ok
    assert_round_trip(first)


def test_double_move_turns_share_a_number() -> None:
    variant = find_variant("double-move")
    game = Game(variant)
    record = GameRecord(variant)
    node = record
    movers = []
    for _ in range(6):
        move = game.legal_moves()[0]
        movers.append(int(game.turn))
        node = node.add_variation(move)
        game.push(move)
    text = movetext(assert_round_trip(record))
    if movers[:4] == [0, 0, 1, 1]:
        assert text.startswith("1. ") and ";" in text and " 2. " in text


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_games_from_a_position_in_the_middle_of_a_game(variant: Variant) -> None:
    """The start FEN of any position a game reaches (Bashni columns, Artamonov's frozen
    piece and counts, the move counters) is written and read back exactly."""
    source = random_record(variant, 99, plies=40)
    node = source.end()
    while node.parent is not None and node.ply() > 20:
        node = node.parent
    game = node.replay()
    record = GameRecord(variant, game.fen())
    tail = record
    for follow in node.mainline():
        assert follow.move is not None
        tail = tail.add_variation(follow.move)
    text = assert_round_trip(record)
    [back] = read_games_text(text)
    assert back.start().fen() == game.fen()
    assert back.end().replay().fen() == source.end().replay().fen()
