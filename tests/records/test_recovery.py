"""Archives written by other programs: text where moves or a variation should be becomes
a comment with a warning and reading goes on at the next move, as python-chess's PGN
reader recovers; only a move that cannot be played (or a word that looks like a move gone
wrong) is an error."""

from __future__ import annotations

import io
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.records import GameNode, GameRecord, read_games_text, scan_headers, write_game
from shashki.rules import find_variant

from .randomgames import random_record


def games(text: str, variant: str | None = None) -> list[GameRecord]:
    return read_games_text(text, variant)


def moves(game: GameRecord) -> int:
    return len(game.mainline_moves())


def readable(game: GameRecord, count: int) -> None:
    """The game replays without error, ``count`` moves long, and says what it read
    leniently."""
    assert game.ok, game.errors
    assert moves(game) == count
    assert game.warnings


def test_a_prose_paragraph_between_moves() -> None:
    [g] = games(
        '[Event "a"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. b2-c3 g7-f6\n'
        "This is where the game turns. White had to\n"
        "choose between two plans, and chose the wrong one!\n"
        "3. c3-b4 b6-a5 *\n"
    )
    readable(g, 6)
    [warning] = g.warnings  # one paragraph, one comment
    assert warning.line == 4 and warning.column == 1
    assert "White had to choose between two plans, and chose" in g.end().parent.parent.comments[0]


def test_a_brace_never_closed_ends_with_its_line() -> None:
    text = (
        '[Event "b"]\n[GameType "25"]\n1. c3-d4 f6-g5 {White thinks a long time\n'
        "2. b2-c3 g7-f6 3. c3-b4 b6-a5 *\n\n"
        '[Event "c"]\n[GameType "25"]\n1. c3-d4 *\n'
    )
    first, second = games(text)
    readable(first, 6)
    assert first.warnings[0].line == 3 and "not closed" in first.warnings[0].message
    assert first.next().next().comments == ["White thinks a long time"]
    assert second.ok and moves(second) == 1 and second.header("Event") == "c"


def test_a_brace_never_closed_at_the_end_of_the_file() -> None:
    [g] = games('[GameType "20"]\n1. 32-28 {a note\n19-23 { another\n2. 28x19 14x23 *')
    readable(g, 4)
    assert [w.line for w in g.warnings] == [2, 3]


def test_stray_and_unopened_parentheses() -> None:
    [g] = games('[Event "d"]\n1. 32-28 19-23 ) 2. 28x19 14x23 ( 2... 13x24 ) *')
    readable(g, 4)
    assert "closes no variation" in g.warnings[0].message
    [g] = games('[Event "e"]\n(Analysis by the editor) 1. 32-28 (1. 33-28) 19-23 *')
    readable(g, 2)
    assert g.comments == ["Analysis by the editor"]
    assert len(g.variations) == 2  # the variation after a move is one


def test_a_variation_left_open() -> None:
    [g] = games('[Event "f"]\n1. 32-28 19-23 (1... 18-23 2. 38-32 *')
    readable(g, 2)
    assert "not closed" in g.warnings[0].message and g.warnings[0].column == 16


def test_move_numbers_of_every_form() -> None:
    [g] = games('[Event "g"]\n1.32-28 1... 19-23 2. 28x19 2…14x23 3 . 37-32 3. ... 10-14 *')
    assert g.ok and not g.warnings and moves(g) == 6


def test_resignation_text_before_and_after_the_result() -> None:
    first, second, third = games(
        '[Event "h"]\n1. 32-28 19-23 2. 28x19 14x23 White resigns 0-1\n'
        '[Event "i"]\n1. 32-28 1-0 Black resigned, lost on time\n'
        '[Event "j"]\n1. 33-28 *'
    )
    readable(first, 4)
    assert first.end().comments == ["White resigns"]
    readable(second, 1)
    assert second.end().comments == ["Black resigned, lost on time"]
    assert third.ok and not third.warnings and third.header("Event") == "j"


def test_results_written_loosely_and_notes_after_them() -> None:
    first, second, third = games(
        '[Event "a"]\n1. 32-28 1/2 - 1/2\n[Event "b"]\n1. 32-28 ½:½\n'
        '[Event "c"]\n1. 32-28 1-0 (on time) {adjudicated}\n'
    )
    assert first.ok and first.result == "1/2-1/2" and not first.warnings
    assert second.ok and second.result == "1/2-1/2"
    readable(third, 1)
    assert third.result == "1-0" and third.end().comments == ["on time", "adjudicated"]


def test_debris_between_games_is_no_game() -> None:
    first, second = games('--\n[Event "a"]\n1. 32-28 *\n=====\n\n[Event "b"]\n1. 33-28 *\n--\n')
    readable(first, 1)
    readable(second, 1)
    assert second.comments == ["====="]


def test_invisible_spaces_between_moves() -> None:
    [g] = games('[Event "z"]\n1.\u200b32-28\u00a019-23\u2060 2. 28x19\ufeff14x23 *')
    assert g.ok and not g.warnings and moves(g) == 4


def test_html_around_the_games() -> None:
    first, second = games(
        "<html><body><pre>\n"
        '[Event "k"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 1-0\n'
        "</pre><p>The next game:</p><pre>\n"
        '[Event "l"]\n1. 33-28 *\n'
        "</pre></body></html>\n"
    )
    readable(first, 4)
    assert first.comments == ["<html><body><pre>"]
    readable(second, 1)
    assert second.comments == ["</pre><p>The next game:</p><pre>"]


def test_html_entities_between_moves() -> None:
    [g] = games('[Event "m"]\n1. 32-28&nbsp;19-23 2. 28x19 <br> 14x23 *')
    readable(g, 4)


def test_mixed_variants_in_one_file() -> None:
    text = (
        '[Event "n"]\n[GameType "25"]\n1. c3-d4 *\n'
        '[Event "o"]\n[GameType "21"]\n1. 11-15 *\n'
        '[Event "p"]\n[Variant "brazilian"]\n1. c3-d4 *\n'
        '[Event "q"]\n1. 32-28 *\n'
    )
    assert [(g.variant.id, g.ok, moves(g)) for g in games(text)] == [  # type: ignore[union-attr]
        ("russian", True, 1),
        ("english", True, 1),
        ("brazilian", True, 1),
        ("international", True, 1),
    ]


def test_moves_glued_to_the_tags() -> None:
    first, second = games(
        '[Event "r"][GameType "25"]1. c3-d4 f6-g5 2. b2-c3 *\n[Event "s"]1.32-28 19-23*'
    )
    assert first.ok and moves(first) == 3 and first.header("GameType") == "25"
    assert second.ok and moves(second) == 2 and second.result == "*"


def test_a_title_before_the_first_game() -> None:
    [g] = games('Championship 1998-1999, round 5\n\n[Event "t"]\n1. 32-28 *')
    readable(g, 1)
    assert g.comments == ["Championship 1998-1999, round 5"]
    assert g.line == 3  # the game begins at its tags


def test_a_sentence_that_starts_with_a_number() -> None:
    [g] = games('[Event "u"]\n1. 32-28 19-23 40 moves were played here 2. 28x19 *')
    readable(g, 3)


def test_words_alone_are_no_game() -> None:
    assert games("A file of notes\nwith no game in it.\n") == []
    [g] = games("Game abandoned before the first move *")
    assert g.ok and moves(g) == 0 and g.comments == ["Game abandoned before the first move"]


def test_what_stays_an_error() -> None:
    # A move that cannot be played, placeholders for moves, a move gone wrong.
    [g] = games('[GameType "20"]\n1. 32-28 19-30 *')
    assert not g.ok and g.errors[0].token == "19-30"
    [g] = games('[GameType "25"]\n1. - - 2. - - 1/2-1/2')
    assert not g.ok and g.errors[0].token == "-"
    [g] = games('[GameType "20"]\n1. 32-28 19-23 -28 *')
    assert not g.ok and g.errors[0].token == "-28" and moves(g) == 2


# -- generated: deviant text spliced into games shashki writes ---------------------------

#: Words other programs leave between moves; none is a move, a number or a result.
NOISE = [
    "White",
    "resigns.",
    "Black",
    "overstepped",
    "the",
    "time",
    "limit!",
    "Analysis:",
    "<p>",
    "</b>",
    "&nbsp;",
    "see",
    "diagram",
    "-->",
    "½",
    "шашки",
    "d'abord,",
    "etc.",
    "9n",
    "#",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10_000),
    st.sampled_from(["russian", "english", "international", "brazilian"]),
    st.data(),
)
def test_noise_between_moves_loses_no_move(seed: int, variant: str, data: st.DataObject) -> None:
    """Prose (and an unclosed brace or a stray ')' among it) spliced between the
    moves of a game: every move is still read, and each splice is a warning."""
    full = random_record(find_variant(variant), seed, plies=24)
    record = GameRecord(full.variant, full.fen, full.headers)  # the main line alone
    node: GameNode = record
    for move in full.mainline_moves():
        node = node.add_variation(move)
    record.result = full.result
    text = write_game(record)
    head, _, body = text.partition("\n\n")
    words = body.split()
    rng = random.Random(data.draw(st.integers(0, 1 << 30)))
    for _ in range(data.draw(st.integers(1, 6))):
        at = rng.randint(0, len(words) - 1)  # never after the result
        noise = " ".join(rng.choice(NOISE) for _ in range(rng.randint(1, 8)))
        if rng.random() < 0.2:
            noise += " )"
        words.insert(at, noise)
    if rng.random() < 0.3:
        at = rng.randint(0, len(words) - 1)
        words[at:at] = ["{an", "unclosed", "brace\n"]
    [back] = read_games_text(head + "\n\n" + " ".join(words) + "\n")
    assert back.ok, back.errors
    assert back.mainline_moves() == record.mainline_moves()
    assert back.warnings


#: Pieces of deviant archives, for texts made at random.
PIECES = [
    *NOISE,
    "(",
    ")",
    "{",
    "}",
    "1.",
    "2...",
    "32-28",
    "19-23",
    "28x19",
    "--",
    "-",
    "1-0",
    "1/2 - 1/2",
    "*",
    "$1",
    "!?",
    " ",
    " ",
    "\n",
    "\n",
    '\n[Event "x"]\n',
    '[GameType "20"]',
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=300).map("".join))
def test_every_visitor_sees_the_same_games(text: str) -> None:
    """Skipping the moves (the replay table's way to reach game N) finds the games that
    reading them finds, however deviant the text."""
    built = read_games_text(text)
    scanned = list(scan_headers(io.StringIO(text)))
    assert [g.headers for g in built] == scanned


def test_squares_in_capitals() -> None:
    g = read_games_text('[GameType "25"]\n1. C3-D4 F6-G5 2. D4-E5 *')[0]
    assert g.ok and len(g.mainline_moves()) == 3
    assert [w.message for w in g.warnings] == ["squares in capitals read as squares"]
    # a capital letter in a sentence is still prose
    g = read_games_text('[GameType "25"]\n1. c3-d4 See A1 for more 1... f6-g5 *')[0]
    assert len(g.mainline_moves()) == 2


def test_move_numbers_with_a_parenthesis() -> None:
    g = read_games_text('[GameType "20"]\n1) 32-28 19-23 2) 28x19 14x23 *')[0]
    assert g.ok and not g.warnings and len(g.mainline_moves()) == 4
    # inside a variation "3)" is no number: the ')' closes the variation
    g = read_games_text('[GameType "20"]\n1. 32-28 19-23 (1... 18-23 3) 2. 28x19 *')[0]
    assert len(g.mainline_moves()) == 3


def test_times_in_parentheses_leave_the_game_whole() -> None:
    text = '[GameType "20"]\n1. 32-28 (0:15) 19-23 (0:20) 2. 28x19 14x23 *'
    g = read_games_text(text)[0]
    assert g.ok and len(g.mainline_moves()) == 4
    assert all("in a variation" in w.message for w in g.warnings)
