"""The PDN reader: every dialect real files use, and errors that carry their place."""

from __future__ import annotations

import io
import itertools
import json

import pytest

from shashki.records import (
    SKIP,
    GameRecord,
    HeadersScanner,
    PdnReader,
    Visitor,
    read_file,
    read_game,
    read_games,
    read_games_text,
    scan_headers,
    variant_from_headers,
)
from shashki.rules import BadFenError, Game, find_variant
from shashki.rules.errors import BadPdnError

from ..conftest import mv


def one(text: str, variant: str | None = None) -> GameRecord:
    games = read_games_text(text, variant)
    assert len(games) == 1, [g.headers for g in games]
    return games[0]


def moves_text(game: GameRecord) -> list[str]:
    geo = game.variant.board
    return ["-".join(geo.name(p) for p in m.path) for m in game.mainline_moves()]


# -- tags -------------------------------------------------------------------------


def test_padded_names_trailing_spaces_no_blank_line() -> None:
    g = one('[Event       "Liepaja"]  \n[White   "A"] \n[GameType "25"]\n1. c3-d4 f6-g5 *\n')
    assert g.headers == {"Event": "Liepaja", "White": "A", "GameType": "25"}
    assert g.ok and len(g.mainline_moves()) == 2


def test_several_tags_on_a_line_then_moves_on_the_same_line() -> None:
    g = one('[White "He said \\"no\\" \\\\ twice"] [Black "B"] 32-28 19-23')
    assert g.headers["White"] == 'He said "no" \\ twice'
    assert g.variant.id == "international" and g.ok and len(g.mainline_moves()) == 2


def test_unquoted_value_and_missing_closing_quote() -> None:
    g = one('[Round 3]\n[Site "Grozny]\n[GameType "25"]\n1. c3-d4 *')
    assert g.headers["Round"] == "3"
    assert g.headers["Site"] == "Grozny"
    assert g.ok and g.warnings and g.warnings[0].line == 2


def test_tag_names_in_any_case() -> None:
    g = one('[gametype "25"]\n[setup "1"]\n[fen "W:Wc3:Bf6"]\n1. c3-d4 *')
    assert g.variant.id == "russian"
    assert g.fen == "W:Wc3:Bf6"
    assert g.header("SetUp") == "1" and g.header("FEN") == "W:Wc3:Bf6"


@pytest.mark.parametrize(
    ("tags", "variant"),
    [
        ({"GameType": "25"}, "russian"),
        ({"GameType": "25,W,8,8,A0,0"}, "russian"),
        ({"GameType": "20,W,10,10,N2,0"}, "international"),
        ({"GameType": "21"}, "english"),
        ({"GameType": "26"}, "brazilian"),
        ({"GameType": "26", "Variant": "traditional"}, "traditional"),
        ({"GameType": "26", "Variant": "Russian"}, "brazilian"),  # GameType wins
        ({"Variant": "American/English"}, "english"),
        ({"Variant": "Russian"}, "russian"),
        ({"Variant": "Standard"}, "international"),
        ({"Variant": "bashni"}, "bashni"),
        ({}, "international"),  # PDN's default game
    ],
)
def test_variant_from_tags(tags: dict[str, str], variant: str) -> None:
    assert variant_from_headers(tags).id == variant


def test_default_variant_is_only_a_default() -> None:
    assert variant_from_headers({}, "english").id == "english"
    assert variant_from_headers({"GameType": "25"}, "english").id == "russian"


@pytest.mark.parametrize(
    "tags",
    [{"GameType": "32"}, {"GameType": "41"}, {"GameType": "x"}, {"Variant": "Spantsiretti"}],
)
def test_games_shashki_does_not_play(tags: dict[str, str]) -> None:
    with pytest.raises(BadPdnError):
        variant_from_headers(tags)


def test_unplayable_game_is_an_error_and_the_next_game_is_read() -> None:
    text = '[GameType "41"]\n1. 32-28 19-23 *\n\n[GameType "25"]\n1. c3-d4 *\n'
    first, second = read_games_text(text)
    assert first.variant is None and not first.mainline_moves()
    assert "41" in str(first.errors[0]) and "Spantsiretti" in str(first.errors[0])
    assert len(first.errors) == 1  # the moves themselves are not reported
    assert second.ok and second.variant.id == "russian"


# -- positions --------------------------------------------------------------------


def test_numeric_fen_with_trailing_dot_in_an_algebraic_game() -> None:
    fen = "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4."
    g = one(f'[GameType "25"]\n[FEN "{fen}"]\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *')
    assert g.fen is None  # it is the start position
    assert g.ok


def test_algebraic_fen_and_problem_without_moves() -> None:
    g = one('[GameType "25"]\n[SetUp "1"]\n[FEN "B:WKa1,c3:Bh8,Kd8"]\n0-1')
    assert g.fen == "B:Wc3,Ka1:BKd8,h8"
    assert g.result == "0-1" and not g.mainline_moves() and g.ok
    start = g.start()
    assert start.turn == 1 and len(start.pieces()) == 4


def test_fen_ranges_and_unknown_side() -> None:
    g = one('[FEN "?:W31-50:B1-20"]\n*')
    assert g.fen is None and g.ok
    g = one('[FEN "?:W29,13,11:B22,4,2"]\n*')
    assert g.fen == "W:W11,13,29:B2,4,22"


def test_bad_fen_is_an_error_with_its_text() -> None:
    g = one('[GameType "25"]\n[FEN "W:Wz9"]\n1. c3-d4 *')
    assert not g.ok and "FEN" in str(g.errors[0]) and g.errors[0].token == "W:Wz9"
    assert g.variant is None or not g.mainline_moves()


# -- movetext -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "movetext",
    [
        "1. 32-28 19-23 2. 28x19 14x23",
        "1.32-28 19-23 2.28x19 14x23",
        "01. 32-28 19-23 02. 28x19 14x23",
        "32-28 19-23 28x19 14x23",
        "1. 32-28 1... 19-23 2. 28x19 2... 14x23",
        "1. 32-28 ... 19-23 2. 28x19 . 14x23",
        "   1. 32-28 19-23   2. 28x19 14x23",
        "1. 32- 28 19- 23 2. 28x 19 14x23",
        "1. 32-28 19-23; 2. 28-19 14-23",  # captures written with '-'
        "1. 32x28 19x23 2. 28:19 14\u00d723",  # a quiet move with 'x'; a multiplication sign
        "1.\n32-28\n19-23 2.\n28x19 14x23",
    ],
)
def test_move_numbers_and_separators(movetext: str) -> None:
    g = one(movetext + " *")
    assert g.ok, g.errors
    assert [g.variant.board.number(m.end) for m in g.mainline_moves()] == [28, 23, 19, 23]


def test_every_landing_square_or_only_the_ends() -> None:
    # 10x19x26 in English: both ways of writing the capture.
    fen = "B:W14,15,18,23,30:B10,12"
    for text in ("10x19x26", "10x26", "10-19-26", "10:19:26"):
        g = one(f'[GameType "21"]\n[FEN "{fen}"]\n1. {text} *')
        assert g.ok, (text, g.errors)
        assert len(g.mainline_moves()[0].captured) == 2


def test_alphanumeric_moves_without_separator() -> None:
    g = one('[GameType "25"]\n1.c3d4 f6g5 2.d4e5 *')
    assert g.ok and moves_text(g) == ["c3-d4", "f6-g5", "d4-e5"]


def test_russian_short_notation() -> None:
    g = one('[GameType "25"]\n1. cd4 fg5 2. bc3 gh4 3. cb4 *')
    assert g.ok and moves_text(g) == ["c3-d4", "f6-g5", "b2-c3", "g5-h4", "c3-b4"]


def test_short_notation_capture_unmarked() -> None:
    g = one('[GameType "25"]\n[FEN "W:Wc5:Bd6,a1"]\n1. ce7 *')
    assert g.ok and g.mainline_moves()[0].captured


def test_ambiguous_move_settled_by_the_next_move() -> None:
    # "ab2" is a3-b2 or the king a1-b2; only after a3-b2 can White take c1:a3.
    g = one('[GameType "25"]\n[FEN "B:Wc1,h2:Ba3,Ka1"]\n1... ab2 2. c1:a3 *')
    assert g.ok
    assert moves_text(g) == ["a3-b2", "c1-a3"]
    assert g.warnings and "a3-b2" in str(g.warnings[0])


def test_ambiguous_move_that_nothing_settles_is_an_error() -> None:
    g = one('[GameType "25"]\n[FEN "B:Wc1,h2:Ba3,Ka1"]\n1... ab2 *')
    assert not g.ok
    e = g.errors[0]
    assert "ambiguous" in e.message and e.token == "ab2" and (e.line, e.column) == (3, 6)
    assert e.fen == Game("russian", "B:Wc1,h2:Ba3,Ka1").fen()


@pytest.mark.parametrize(
    ("token", "result"),
    [
        ("1-0", "1-0"),
        ("2-0", "1-0"),
        ("1:0", "1-0"),
        ("0-1", "0-1"),
        ("0-2", "0-1"),
        ("0:1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("1-1", "1/2-1/2"),
        ("1/2:1/2", "1/2-1/2"),
        ("*", "*"),
    ],
)
def test_results(token: str, result: str) -> None:
    g = one(f"1. 32-28 19-23 {token}")
    assert g.result == result and g.ok


def test_result_tag_without_result_token() -> None:
    g = one('[Result "2-0"]\n1. 32-28 19-23\n')
    assert g.result == "1-0"


def test_result_on_its_own_line_after_a_blank_line() -> None:
    g = one('[GameType "25"]\n1. c3-d4 f6-g5\n\n                1-0\n')
    assert g.result == "1-0" and g.ok


# -- comments, NAGs, variations -------------------------------------------------------


def test_comments_over_lines_before_tags_and_escape_lines() -> None:
    text = (
        "% a line the reader skips\n"
        "{ A file comment }\n"
        '[GameType "25"]\n'
        "{Before the\n first move} 1. c3-d4 {good\r\n  move} f6-g5 *\n"
    )
    g = one(text)
    assert g.comments == ["A file comment", "Before the first move"]
    assert g.next().comments == ["good move"]


def test_nags_and_move_marks() -> None:
    g = one("1. 32-28!? 19-23 $4 2. 28x19 ! 14x23(!?!) *")
    nodes = list(g.mainline())
    assert nodes[0].nags == [5] and nodes[1].nags == [4] and nodes[2].nags == [1]
    assert g.ok


def test_variations_are_kept_nested_and_replay() -> None:
    text = "32-28 19-23 (18-23 38-32 (37-32? 23-29! {wins}) 12-18) 28x19 14x23 *"
    g = one(text)
    assert g.ok
    main = list(g.mainline())
    assert len(main) == 4
    first_reply = main[0]
    assert len(first_reply.variations) == 2
    side = first_reply.variations[1]
    geo = g.variant.board
    assert geo.number(side.move.start) == 18
    side_reply = side.next()
    assert len(side.variations) == 2  # 38-32, and 37-32 instead
    inner = side.variations[1]
    assert inner.nags == [2] and inner.next().comments == ["wins"] and inner.next().nags == [1]
    assert not inner.is_mainline() and main[-1].is_mainline()
    assert [geo.number(m.end) for m in (side.move, side_reply.move, side_reply.next().move)] == [
        23,
        32,
        18,
    ]
    # Replay to a node deep in a variation.
    game = inner.next().replay()
    expected = Game("international")
    for text in ("32-28", "18-23", "37-32", "23-29"):
        start, end = (int(x) for x in text.split("-"))
        [move] = [
            m
            for m in expected.legal_moves()
            if (geo.number(m.start), geo.number(m.end)) == (start, end)
        ]
        expected.push(move)
    assert game.fen() == expected.fen()


def test_comment_at_the_start_of_a_variation() -> None:
    g = one("1. 32-28 ({other} 1. 33-28 18-23) 1... 19-23 *")
    alt = g.variations[1]
    assert alt.starting_comments == ["other"] and alt.next() is not None


def test_parentheses_around_words_are_a_comment() -> None:
    g = one("1. 32-28 19-23 (White is better) 2. 28x19 ({only} ) 14x23 *")
    assert len(g.mainline_moves()) == 4 and g.ok
    second = g.next().next()
    assert second.comments == ["White is better"] and len(second.parent.variations) == 1
    assert g.end().parent.comments == ["only"]


def test_variation_with_an_illegal_move_ends_only_that_variation() -> None:
    # an annotator's side line that cannot be played is a warning: the game replays
    g = one("1. 32-28 19-23 (1... 50-45 20-25) 2. 28x19 14x23 *")
    assert len(g.mainline_moves()) == 4
    assert g.ok and len(g.warnings) == 1 and g.warnings[0].token == "50-45"
    assert "in a variation" in g.warnings[0].message
    # on the main line the same move is an error that ends the game's moves
    g = one("1. 32-28 50-45 2. 28x19 *")
    assert not g.ok and g.errors[0].token == "50-45" and len(g.mainline_moves()) == 1


def test_broken_parentheses_are_warnings() -> None:
    # A variation before any move: its text becomes a comment.
    g = one("(1. 32-28) 1. 33-28 *")
    assert g.ok and g.comments == ["1. 32-28"] and len(g.mainline_moves()) == 1
    assert "a variation must follow a move" in g.warnings[0].message
    # A stray ')' is left out.
    g = one("1. 32-28 19-23 ) 2. 28x19 *")
    assert g.ok and len(g.mainline_moves()) == 3 and "')'" in g.warnings[0].message
    # A variation never closed ends with the game, its moves kept.
    g = one("1. 32-28 19-23 (1... 18-23 2. 38-32 *")
    assert g.ok and len(g.mainline_moves()) == 2 and len(list(g.nodes())) == 4
    assert "not closed" in g.warnings[0].message


# -- errors ---------------------------------------------------------------------------


def test_illegal_move_error_has_line_column_text_and_position() -> None:
    text = '[Event "E"]\n[GameType "25"]\n\n1. c3-d4 f6-g5\n2. d4-e6 g5-h4 *\n'
    g = one(text)
    assert len(g.mainline_moves()) == 2  # what came before is kept
    [e] = g.errors
    assert (e.line, e.column, e.token) == (5, 4, "d4-e6")
    assert e.fen.startswith("W:") and "d4-e6" in str(e) and str(e).startswith("line 5, column 4")


def test_junk_is_an_error_but_prose_is_a_comment() -> None:
    g = one("1. 32-28 19-23 -32 2. 28x19 *")  # a move gone wrong
    assert not g.ok and g.errors[0].token == "-32"
    g = one("1. 32-28 19-23 9n 2. 28x19 *")  # a word: reading goes on at the next move
    assert g.ok and g.warnings[0].token == "9n" and len(g.mainline_moves()) == 3
    g = one("1. 32-28 19-23 2. 28x19Black resigned. 1-0")
    assert g.ok and g.warnings
    assert g.end().comments == ["Black resigned."]


@pytest.mark.parametrize(
    ("movetext", "token", "square"),
    [
        ("1. z9-z8 *", "z9-z8", "z9"),  # letters of no board
        ("1. 32-28 19-23 2. m3xn4 *", "m3xn4", "m3"),
        ("1. 32-28 19-23 2. A1-Z9 *", "A1-Z9", "Z9"),  # in capitals
        ("1. 32-28 19-23 2. 28-23-z9 *", "28-23-z9", "z9"),  # board squares, then none
        ("1. 32-28 z9:z8 2. 28x19 *", "z9:z8", "z9"),
        ("1. 32-28 19-23 2. с3-d4 *", "с3-d4", "с3"),  # a Cyrillic "с"
        ("1. 32-28 19-23 2. 28x19 a0-b1 *", "a0-b1", "a0"),
        ("Red played 32-28 then z9-z8 1-0", "z9-z8", "z9"),  # after words, as 32-28 is
    ],
)
def test_a_token_shaped_like_a_move_is_a_move(movetext: str, token: str, square: str) -> None:
    """A token with the shape of a move whose squares no board has ("z9-z8") is a move
    that cannot be played: an error that names the square, not words read as a comment
    (the game was "ok, 0 moves")."""
    g = one(movetext)
    assert not g.ok and g.errors[0].token == token, (g.errors, g.warnings)
    assert f"{square!r} is not a square of this 10x10 board" in g.errors[0].message


@pytest.mark.parametrize(
    ("movetext", "moves"),
    [
        ("1. 32-28 {played after 3-4 hours of thought, z9-z8 too} 19-23 2-0", 2),
        ("1. 32-28 19-23 (White is better, R2 or D2 here) 2. 28x19 1/2-1/2", 3),
        ("1. 32-28 19-23 2. 28x19 Game abandoned after 5 hours, X-ray of move 14 1-0", 3),
        ('[Round "z9-z8"]\n1. 32-28 19-23 0-1', 2),
    ],
)
def test_words_comments_and_results_are_not_moves(movetext: str, moves: int) -> None:
    """Comments in braces, words in parentheses, prose, tags and results stay what they
    are: only a token of squares and separators is a move."""
    g = one(movetext)
    assert g.ok and len(g.mainline_moves()) == moves, g.errors


def test_placeholder_moves_are_errors() -> None:
    g = one('[GameType "25"]\n1. - - 2. - - 1/2-1/2')
    assert not g.ok and g.errors[0].token == "-"


def test_the_next_game_is_read_after_errors() -> None:
    text = (
        '[Event "1"]\n1. 32-29 *\n[Event "2"]\n1. 32-28 {unclosed\n[Event "3"]\n1. 32-28 19-23 *\n'
    )
    games = read_games_text(text)
    assert [g.header("Event") for g in games] == ["1", "2", "3"]
    assert not games[0].ok and games[1].ok and games[2].ok
    assert games[1].warnings[0].line == 4 and "not closed" in games[1].warnings[0].message


def test_games_without_result_or_blank_lines_split_at_tags() -> None:
    text = '[Event "a"]\n1. 32-28\n[Event "b"]\n[Event "c"]\n[FEN "W:W31:B1"]\n'
    games = read_games_text(text)
    assert [g.header("Event") for g in games] == ["a", "b", "c"]
    assert games[2].fen == "W:W31:B1"


def test_game_terminator_without_tags() -> None:
    assert [g.result for g in read_games_text("1.32-28 1/2-1/2\n1.33-28 *")] == [
        "1/2-1/2",
        "*",
    ]


def test_empty_and_comment_only_input() -> None:
    assert read_games_text("") == []
    assert read_games_text("\n\n  \n") == []
    assert read_games_text("{just a comment}\n") == []


# -- encodings and streams -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "white"),
    [
        ('[White "Блиндер"]\n1. 32-28 *'.encode(), "Блиндер"),
        ('\ufeff[White "Блиндер"]\n1. 32-28 *'.encode(), "Блиндер"),
        ('[White "Блиндер"]\r\n1. 32-28 *\r\n'.encode("cp1251"), "Блиндер"),
        ('[White "Bärwald 40°"]\r\n1. 32-28 *'.encode("latin-1"), "Bärwald 40°"),
        (b'[White "Mac"]\r1. 32-28\r19-23 *\r', "Mac"),
    ],
)
def test_bytes_in_any_encoding_and_line_end(data: bytes, white: str) -> None:
    [g] = list(PdnReader(io.BytesIO(data)))
    assert g.header("White") == white
    assert g.ok and g.mainline_moves()


def test_read_game_goes_on_where_it_stopped() -> None:
    handle = io.StringIO('[Event "1"]\n1. 32-28\n[Event "2"]\n1. 33-28 *\n\n[Event "3"]\n*')
    events = []
    while (game := read_game(handle)) is not None:
        events.append(game.header("Event"))
    assert events == ["1", "2", "3"]


@pytest.mark.parametrize("binary", [False, True])
def test_read_game_reads_from_where_the_handle_stands(binary: bool) -> None:
    """No reader is kept for a handle between calls: seeking the handle back (or to a
    game's offset noted before) and reading again gives the games from there."""
    text = '[Event "1"]\n1. 32-28 *\n\n[Event "2"]\n1. 33-28 *\n\n[Event "3"]\n1. 34-29 *\n'
    handle: io.StringIO | io.BytesIO = io.BytesIO(text.encode()) if binary else io.StringIO(text)
    first = read_game(handle)
    assert first is not None and first.header("Event") == "1"
    handle.seek(0)
    again = read_game(handle)
    assert again is not None and again.header("Event") == "1"
    assert again.mainline_moves() == first.mainline_moves()
    handle.seek(len(text[: text.index('[Event "2"]')].encode()))
    assert [g.header("Event") for g in PdnReader(handle)] == ["2", "3"]
    handle.seek(len(text[: text.index('[Event "3"]')].encode()))
    third = read_game(handle, visitor=HeadersScanner)
    assert third == {"Event": "3"}
    handle.seek(0)
    assert [g.header("Event") for g in read_games(handle)] == ["1", "2", "3"]


def test_text_handle_with_the_wrong_encoding_does_not_raise(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "latin.pdn"
    path.write_bytes('[White "é"]\n1. 32-28 *\n[White "b"]\n*\n'.encode("latin-1") + b"\xff\xfe\n")
    with open(path, encoding="utf-8") as fh:
        games = list(PdnReader(fh))
    assert games  # whatever could be decoded, and an error rather than an exception
    errors = [e for g in games for e in g.errors]
    assert errors and "binary mode" in str(errors[-1]) and errors[-1].line >= 1


def test_headers_scanner_skips_moves_unparsed() -> None:
    text = '[Event "a"]\n[GameType "22"]\n1. 99-98 nonsense (((\n\n[Event "b"]\n1. 32-28 *\n'
    assert list(scan_headers(io.StringIO(text))) == [
        {"Event": "a", "GameType": "22"},
        {"Event": "b"},
    ]


def test_a_visitor_sees_events_in_order() -> None:
    class Recorder(Visitor[list[str]]):
        def begin_game(self, line: int) -> None:
            self.seen = [f"begin {line}"]

        def visit_header(self, name: str, value: str) -> None:
            self.seen.append(f"{name}={value}")

        def visit_start(self, variant, fen, game) -> None:  # type: ignore[no-untyped-def]
            self.seen.append(f"start {variant.id}")

        def visit_move(self, game: Game, move) -> None:  # type: ignore[no-untyped-def]
            self.seen.append(f"move {game.variant.board.number(move.end)}")

        def visit_comment(self, text: str) -> None:
            self.seen.append(f"comment {text}")

        def begin_variation(self) -> None:
            self.seen.append("(")

        def end_variation(self) -> None:
            self.seen.append(")")

        def visit_result(self, result: str) -> None:
            self.seen.append(result)

        def result(self) -> list[str]:
            return self.seen

    seen = PdnReader(io.StringIO('[Event "x"]\n1. 32-28 {c} (1. 33-28) 19-23 1-0')).read_game(
        Recorder
    )
    assert seen == [
        "begin 1",
        "Event=x",
        "start international",
        "move 28",
        "comment c",
        "(",
        "move 28",
        ")",
        "move 23",
        "1-0",
    ]


def test_end_headers_skip() -> None:
    class Titles(HeadersScanner):
        pass

    reader = PdnReader(io.StringIO('[Event "x"]\n1. 1-2 3-4 *\n[Event "y"]\n*'))
    assert reader.read_game(Titles) == {"Event": "x"}
    assert reader.read_game(Titles) == {"Event": "y"}
    assert reader.read_game(Titles) is None
    assert Titles().end_headers() is SKIP


def test_json_lists_of_pdn_texts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "games.json"
    path.write_text(
        json.dumps(
            {"pdn_positions": ['[GameType "25"]\n1. c3-d4 *', "1. 32-28 19-23 *\n1. 33-28 *"]}
        )
    )
    games = list(read_file(path))
    assert [g.origin for g in games] == ["item 1", "item 2", "item 2"]
    assert all(g.ok for g in games)
    (tmp_path / "bad.json").write_text("{not json")
    [broken] = list(read_file(tmp_path / "bad.json"))
    assert not broken.ok and "JSON" in str(broken.errors[0])


def test_unreadable_file_raises_oserror(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OSError):
        list(read_file(tmp_path / "missing.pdn"))


# -- the game tree ----------------------------------------------------------------------


def test_tree_navigation_and_replay() -> None:
    g = one('[GameType "25"]\n1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6) 2. b2-c3 *')
    last = g.end()
    assert last.ply() == 3 and last.root() is g
    assert [n.ply() for n in g.mainline()] == [1, 2, 3]
    game = last.replay()
    assert game.fen() == Game("russian").fen() or len(game.pieces()) == 24
    side = g.next().variations[1]
    assert side.next().replay().fen() != last.replay().fen()
    assert g.next().variation(mv("russian", "f6", "e5")) is side


def test_record_from_a_rules_game() -> None:
    game = Game("russian")
    for text in ("c3-d4", "f6-g5", "b2-c3"):
        legal = {
            "-".join(game.variant.board.name(p) for p in m.path): m for m in game.legal_moves()
        }
        game.push(legal[text])
    record = GameRecord.from_game(game, {"White": "me"})
    assert record.variant.id == "russian" and record.fen is None
    assert len(record.mainline_moves()) == 3 and record.header("white") == "me"


def test_record_start_never_draws_by_lot() -> None:
    for variant in ("artamonov", "wolf-sheep"):
        v = find_variant(variant)
        starts = {GameRecord(v).start().fen() for _ in range(20)}
        assert starts == {Game(v, v.start).fen()}


def test_bad_fen_error_class() -> None:
    with pytest.raises(BadFenError):
        Game("russian", "W:Wz9")


# -- PlayStrategy's English games ------------------------------------------------------


def playstrategy_text(seed: int, plies: int = 60) -> tuple[str, Game]:
    """A random English game written the way PlayStrategy writes them: algebraic squares
    seen from the first mover (Black) and every jump of a capture as a move of its own,
    numbered in pairs of entries.  Returns the text and the game played."""
    import random

    rng = random.Random(seed)
    game = Game("english")
    geo = game.variant.board

    def seen_by_black(square: int) -> str:
        name = geo.name(square)
        return f"{'abcdefgh'[7 - 'abcdefgh'.index(name[0])]}{9 - int(name[1:])}"

    entries: list[str] = []
    for _ in range(plies):
        legal = game.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        path = [seen_by_black(sq) for sq in move.path]
        sep = "x" if move.is_capture else "-"
        entries.extend(f"{a}{sep}{b}" for a, b in itertools.pairwise(path))
        game.push(move)
    numbered = []
    for i in range(0, len(entries), 2):
        numbered.append(f"{i // 2 + 1}. " + " ".join(entries[i : i + 2]))
    tags = '[Event "Casual game"]\n[P1 "a"]\n[P2 "b"]\n[Variant "American/English"]\n\n'
    return tags + " ".join(numbered) + " *\n", game


@pytest.mark.parametrize("seed", range(6))
def test_playstrategy_english_games(seed: int) -> None:
    text, game = playstrategy_text(seed)
    g = one(text)
    assert g.ok, g.errors[:1]
    assert g.variant.id == "english"
    assert g.end().replay().fen() == game.fen()


def test_playstrategy_view_is_chosen_by_the_tags_only() -> None:
    text, _ = playstrategy_text(1)
    plain = text.replace('[P1 "a"]\n[P2 "b"]\n', "")
    assert not one(plain).ok  # the same moves, read as ordinary algebraic English
    site = plain.replace("[Event", '[Site "https://playstrategy.org/abc"]\n[Event')
    assert one(site).ok


def test_a_capture_written_jump_by_jump_is_joined() -> None:
    g = one('[GameType "21"]\n[FEN "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"]\n1. 10x19 19x26 *')
    assert g.ok and len(g.mainline_moves()) == 1
    assert len(g.mainline_moves()[0].captured) == 2


# -- read_games ---------------------------------------------------------------------

TWO_GAMES = '[Event "a"]\n[GameType "25"]\n1. c3-d4 f6-g5 *\n\n[Event "b"]\n1. 32-28 99-98 *\n'


def test_read_games_reads_paths_and_handles(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "two.pdn"
    path.write_text(TWO_GAMES, encoding="utf-8")
    from_text = read_games_text(TWO_GAMES)
    for source in (path, str(path), io.StringIO(TWO_GAMES), io.BytesIO(TWO_GAMES.encode())):
        records = list(read_games(source))
        assert [r.headers for r in records] == [r.headers for r in from_text]
        assert [r.variant.id for r in records if r.variant] == ["russian", "international"]
        assert [len(r.mainline_moves()) for r in records] == [2, 1]
        assert records[0].ok and not records[1].ok
        assert records[1].errors[0].token == "99-98" and records[1].errors[0].line == 6
    json_file = tmp_path / "two.json"
    json_file.write_text(json.dumps([TWO_GAMES]), encoding="utf-8")
    assert [r.origin for r in read_games(json_file)] == ["item 1", "item 1"]
    untagged = list(read_games(io.StringIO("1. c3-d4 *"), "russian"))
    assert untagged[0].variant is not None and untagged[0].variant.id == "russian"


def test_read_games_opens_nothing_before_the_first_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    games = read_games(tmp_path / "missing.pdn")
    with pytest.raises(OSError):
        next(games)


def test_read_games_streams() -> None:
    """The first record comes before the rest of the handle is read."""
    lines = TWO_GAMES.splitlines(keepends=True) * 1000
    handle = _LineHandle(lines)
    games = read_games(handle)  # type: ignore[arg-type]
    first = next(games)
    assert first.header("Event") == "a" and handle.given < 20
    assert sum(1 for _ in games) == 2 * 1000 - 1
    assert handle.given == len(lines)


class _LineHandle:
    """A text handle that gives its lines one at a time, counting them."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = iter(lines)
        self.given = 0

    def readline(self, limit: int = -1) -> str:
        line = next(self._lines, "")
        self.given += bool(line)
        return line
