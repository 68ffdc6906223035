"""Puzzle mining (shashki.training): a shot found in a game with its verified solution
and themes, a quiet game giving none, the book of puzzles (a PDN file) read back, a
hand-edited one, no position twice, and mining stopped resumed where it stopped."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from shashki.engine.scores import WON
from shashki.engine.search import Search
from shashki.records.pieces import Piece
from shashki.records.reader import read_games_text
from shashki.rules import Game, Move
from shashki.training.book import BookWriter, read_book
from shashki.training.harvest import mine_files
from shashki.training.mining import (
    FULL_WIDTH,
    MiningOptions,
    Puzzle,
    gain,
    mine_game,
    mine_piece,
    proven,
    small_ending,
    solution,
    table_values,
)
from shashki.training.themes import describe, difficulty, shot_size, themes_of

#: English draughts (GameType 21): 23-18 gives a man, 14x23 takes it, and 27x18x11x4
#: takes three and crowns.
SHOT_FEN = "W:W23,24,27,29,30,31,32:B1,2,3,5,8,12,14,15,22:H0:F10"
SHOT = f"""[Event "Club"]
[White "Ann"]
[Black "Bob"]
[GameType "21"]
[SetUp "1"]
[FEN "{SHOT_FEN}"]

10... 23-18 11. 14x23 27x4 *
"""
QUIET = """[Event "Club"]
[GameType "25"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. a1-b2 *
"""
#: Fast enough for a test, deep enough for this shot.
OPTIONS = MiningOptions(depth=4, verify_depth=6, first_ply=0)


def shot_game() -> Game:
    variant = read_games_text(SHOT)[0].variant
    assert variant is not None
    return Game(variant, SHOT_FEN)


def test_a_shot_is_found_with_its_solution_and_themes() -> None:
    record = read_games_text(SHOT)[0]
    found, judged = mine_game(record, "club.pdn", 4, OPTIONS)
    assert judged >= 1
    assert len(found) == 1
    origin, puzzle = found[0]
    assert puzzle.fen == SHOT_FEN
    assert puzzle.line == ("23-18", "14x23", "27x18x11x4")
    assert puzzle.themes == ("shot", "crown", "quiet")
    assert puzzle.score >= OPTIONS.win
    assert origin.words() == "club.pdn #5 (10.): Ann – Bob, Club"
    game = Game(puzzle.variant, puzzle.fen)
    line = []
    replay = game.copy()
    for text in puzzle.line:
        line.append(replay.parse_move(text))
        replay.push(line[-1])
    assert shot_size(game, line) == 3
    assert (
        describe(game, line, puzzle.themes)
        == "a shot of 3 pieces, breakthrough to crown, quiet move"
    )


def test_the_solution_is_the_only_winning_move_at_each_step() -> None:
    game = shot_game()
    solved = solution(game, OPTIONS)
    assert solved is not None
    line, _score = solved
    assert [game.copy().move_text(line[0], full=True)] == ["23-18"]
    # a quiet start position has no such move
    assert solution(Game(game.variant), OPTIONS) is None


def test_a_quiet_game_gives_no_puzzle() -> None:
    record = read_games_text(QUIET)[0]
    found, judged = mine_game(record, "q.pdn", 0, OPTIONS)
    assert found == []
    assert judged == 5


def test_themes_and_difficulty_of_a_plain_capture() -> None:
    game = shot_game()
    one = [game.parse_move("23-18")]
    assert themes_of(game, one, 0) == ("quiet",)
    assert difficulty(game, one) < difficulty(game, [*one, *shot_line(game)[1:]])


def shot_line(game: Game) -> list[Move]:
    g = game.copy()
    out = []
    for text in ("23-18", "14x23", "27x4"):
        out.append(g.parse_move(text))
        g.push(out[-1])
    return out


def a_puzzle() -> Puzzle:
    return Puzzle("english", SHOT_FEN, ("23-18", "14x23", "27x18x11x4"), ("shot",), 1370, "x #1")


def test_the_book_is_pdn_read_back_and_never_holds_a_position_twice(tmp_path: Path) -> None:
    path = tmp_path / "book.pdn"
    writer = BookWriter(path)
    assert writer.add([a_puzzle(), a_puzzle()]) == 1
    assert BookWriter(path).add([a_puzzle()]) == 0
    book = read_book(path)
    assert book.problems == []
    assert book.puzzles == [a_puzzle()]
    text = path.read_text()
    assert '[Theme "shot"]' in text and '[Difficulty "1370"]' in text
    assert '[Source "x #1"]' in text


def test_a_book_edited_by_hand_is_one_line_a_bad_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "book.pdn"
    BookWriter(path).add([a_puzzle()])
    good = path.read_text()
    bad = good.replace("23-18", "23-19").replace('"shot"', '"shot"')
    moveless = good.split("\n\n")[0] + "\n\n*\n"
    path.write_text(good + "\n" + bad + "\n" + moveless + "\nthis is not PDN at all {\n")
    book = read_book(path)
    assert book.puzzles == [a_puzzle()]
    assert len(book.problems) >= 2
    for line in book.problems:
        assert "\n" not in line and line.startswith(f"{path}, game ")
    # a damaged resume file: everything is mined again, nothing twice
    path.with_name("book.pdn.mined").write_text("{not json")
    assert BookWriter(path).resume_at("x", 1, 1.0, 8) == (0, 0)


def test_mining_stopped_resumes_where_it_stopped(tmp_path: Path) -> None:
    archive = tmp_path / "games.pdn"
    archive.write_text((QUIET + "\n") * 3 + SHOT)
    book = tmp_path / "book.pdn"
    seen: list[int] = []

    def stop_after_first(done: int, total: int) -> None:
        seen.append(done)

    report = mine_files(
        BookWriter(book),
        [archive],
        options=OPTIONS,
        workers=1,
        piece_bytes=64,
        progress=stop_after_first,
        cancelled=lambda: bool(seen),
    )
    assert report.stopped
    first_games = report.games
    assert 1 <= first_games < 4
    report = mine_files(BookWriter(book), [archive], options=OPTIONS, workers=1, piece_bytes=64)
    assert not report.stopped
    assert first_games + report.games == 4
    assert report.found == 1
    puzzles = read_book(book).puzzles
    assert [p.source for p in puzzles] == ["games.pdn #4 (10.): Ann – Bob, Club"]
    again = mine_files(BookWriter(book), [archive], options=OPTIONS, workers=1, piece_bytes=64)
    assert (again.kept, again.games, again.found) == (1, 0, 0)
    archive.write_text(SHOT)  # changed: mined again, its puzzle not kept twice
    again = mine_files(BookWriter(book), [archive], options=OPTIONS, workers=1, piece_bytes=64)
    assert (again.kept, again.games, again.found, again.repeated) == (0, 1, 0, 1)


def test_files_that_are_not_pdn_are_one_line_each(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not a game\n")
    binary = tmp_path / "image.pdn"
    binary.write_bytes(bytes(range(256)) * 4)
    report = mine_files(
        BookWriter(tmp_path / "book.pdn"),
        [text, binary, tmp_path / "missing.pdn", tmp_path],
        options=OPTIONS,
        workers=1,
    )
    assert len(report.problems) == 4
    for line in report.problems:
        assert "\n" not in line


def test_workers_find_what_one_process_finds(tmp_path: Path) -> None:
    piece = Piece("club.pdn", 0, SHOT.encode())
    here = mine_piece(piece, None, OPTIONS)
    archive = tmp_path / "club.pdn"
    archive.write_text(QUIET + "\n" + SHOT)
    report = mine_files(
        BookWriter(tmp_path / "b.pdn"), [archive], options=OPTIONS, workers=2, piece_bytes=64
    )
    assert report.found == len(here.found) == 1
    assert read_book(tmp_path / "b.pdn").puzzles[0].line == here.found[0][1].line


#: Tinsley's games (English draughts, 1946): 20-16 is the only move the search likes by two
#: men at depth 8, but it takes nothing and crowns nothing; a deeper search finds it
#: worth 1.6 men (benchmarks/training.py quality): no puzzle.
FORESEEN_FEN = "W:W19,20,21,22,23,24:B9,10,12,13,14,15:H0:F20"


def test_a_win_only_foreseen_is_no_puzzle() -> None:
    game = Game(shot_game().variant, FORESEEN_FEN)
    assert solution(game, MiningOptions(depth=4, verify_depth=8, first_ply=0)) is None


def test_the_gain_of_a_line() -> None:
    line = shot_line(shot_game())
    assert gain(line) == 3  # three taken and a crowning, one given
    assert gain(line[:1]) == 0


def test_the_turkish_strike_theme() -> None:
    """Black gives a man on f2; the white king's capture is stopped on f6 by the man on
    c3 it took (still on the board: with it gone the king would go on over b2); the man
    on g5 takes the king.  A theme only of the variants with the rule."""
    from shashki.rules import find_variant
    from shashki.training.themes import THEMES, themes_for, turkish_strike

    game = Game("russian", "B:WKg3,h4:Be3,c3,b6,e7,b2,g5")
    line = []
    replay = game.copy()
    for text in ("e3-f2", "g3:e1:a5:d8:f6", "g5:e7"):
        line.append(replay.parse_move(text))
        replay.push(line[-1])
    assert turkish_strike(game, line)
    assert themes_of(game, line, 0) == ("king", "ending", "quiet", "strike")
    assert describe(game, line, ("strike",)) == "Turkish strike"
    # the king's other capture, over f2, c3, e7 to f8, simply ends
    other = [line[0], game.copy()]
    after = other[1]
    after.push(line[0])
    assert not turkish_strike(game, [line[0], after.parse_move("g3:e1:b4:f8")])
    assert "strike" in themes_for(find_variant("russian"))
    assert "strike" not in themes_for(find_variant("turkish"))
    assert set(themes_for(find_variant("russian"))) == set(THEMES)


#: Russian, mined from self-play at depth 8 (2026-12-07) and shipped until the rule below:
#: f2-g1 crowns, three kings and a man... against a king and a man, a lead of 3.3 men to
#: the search; five pieces, which no table covers, and a search without forward pruning
#: ten plies deep sees no end of the game: not proven, so no puzzle.
UNPROVEN = "B:WKb8,b4:Bg3,f2,Kh2:H0:F34"
#: Brazilian, four pieces: g7-h8 crowns and wins in 49 plies, which the full-width search
#: does not see (3.3 men) but the shipped table says, and no other move wins.
TABLED = "W:Wg7,f4,e3:BKc1:H0:F37"


def test_a_small_ending_unproven_is_no_puzzle() -> None:
    game = Game("russian", UNPROVEN)
    assert small_ending(game) and table_values(game) is None
    assert solution(game, MiningOptions()) is None
    # (what the verification found before the rule: the search's win, its only move)
    alone = replace(MiningOptions(), verify_depth=8)
    search = Search(game.variant)
    found = search.search(game, depth=alone.verify_depth)
    assert found.score >= alone.win and game.move_text(found.move) == "f2-g1"
    assert not proven(game, found.move, alone)


def test_a_small_ending_the_tables_decide() -> None:
    game = Game("brazilian", TABLED)
    values = table_values(game)
    assert values is not None
    winning = [game.move_text(m) for m, v in values.items() if v > 0]
    assert winning == ["g7-h8"]
    move = next(m for m in values if game.move_text(m) == "g7-h8")
    assert proven(game, move, MiningOptions())
    full = Search(game.variant, options=FULL_WIDTH).search(game, depth=10)
    assert full.score < WON  # (the search alone would not prove it)
    # a move the tables say does not win is never proven, whatever a search says
    other = next(m for m in values if values[m] <= 0)
    assert not proven(game, other, MiningOptions())


def test_a_small_ending_won_by_force_is_proven_without_tables() -> None:
    # International, four pieces (no table shipped for them): 34-1! wins in nine plies
    # (34-1 16-11 35-40 11-7 1x34 6-1 40-45 1x40 45x34), every other move draws
    game = Game("international", "B:W6,16:BK34,35:H0:F71")
    assert table_values(game) is None
    move = next(m for m in game.legal_moves() if game.move_text(m) == "34-1")
    assert proven(game, move, MiningOptions())
    solved = solution(game, MiningOptions())
    assert solved is not None and game.move_text(solved[0][0]) == "34-1"
