"""The puzzle trainer's logic (shashki.training.trainer, shashki.store.puzzles): a right
move answered by the book's reply until solved, a wrong move not played and explained,
the hints, the solution played out, the Glicko-2 rating and the streaks, puzzles seen
not offered before the others, the daily puzzle, and a damaged record a fresh start."""

from __future__ import annotations

import json
import random
from datetime import date
from pathlib import Path

import pytest

from shashki.i18n import set_language
from shashki.rules import Game, find_variant
from shashki.store.puzzles import PuzzleRecord, VariantRecord
from shashki.training.book import BookWriter
from shashki.training.mining import Puzzle
from shashki.training.trainer import (
    Attempt,
    Library,
    Trainer,
    choose,
    daily_puzzle,
    glicko_update,
    key_text,
    load_library,
    refute,
)

#: English draughts: 23-18 gives a man, 14x23 takes it, 27x18x11x4 takes three and crowns.
SHOT_FEN = "W:W23,24,27,29,30,31,32:B1,2,3,5,8,12,14,15,22:H0:F10"
SHOT = Puzzle("english", SHOT_FEN, ("23-18", "14x23", "27x18x11x4"), ("shot", "crown"), 1300)


def russian(n: int, difficulty: int = 1500) -> Puzzle:
    """A Russian position after ``n`` plies of the usual start, solved by its first
    legal move (a puzzle for the trainer's bookkeeping, not a real one)."""
    game = Game(find_variant("russian"))
    for _ in range(n):
        game.push(game.legal_moves()[0])
    first = game.legal_moves()[0]
    return Puzzle(
        "russian", game.fen(), (game.move_text(first, full=True),), ("ending",), difficulty
    )


def write_book(path: Path, puzzles: list[Puzzle]) -> Path:
    writer = BookWriter(path)
    writer.add(puzzles)
    return path


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def test_a_right_move_is_answered_until_solved() -> None:
    attempt = Attempt(SHOT)
    game = attempt.game
    assert attempt.solver == 0 and not attempt.decided
    answer = attempt.play(game.parse_move("23-18"))
    assert answer.right and not answer.solved
    assert answer.reply is not None and answer.reply.captured
    assert attempt.ply == 2  # the reply 14x23 is played
    answer = attempt.play(attempt.game.parse_move("27x4"))
    assert answer.right and answer.solved and answer.reply is None
    assert attempt.done and attempt.clean and attempt.decided


def test_a_wrong_move_is_not_played_and_decides_a_loss() -> None:
    attempt = Attempt(SHOT)
    before = attempt.game.fen()
    answer = attempt.play(attempt.game.parse_move("24-19"))
    assert not answer.right
    assert attempt.game.fen() == before and attempt.wrong == 1
    assert attempt.decided and not attempt.clean
    # solved afterwards: done, but not a win for the rating
    attempt.play(attempt.game.parse_move("23-18"))
    attempt.play(attempt.game.parse_move("27x4"))
    assert attempt.done and not attempt.clean


def test_hints_name_the_piece_then_the_move() -> None:
    attempt = Attempt(SHOT)
    assert attempt.hint() == 1
    assert attempt.expected is not None and attempt.expected.start == find_square("23")
    assert attempt.hint() == 2 and attempt.hint() == 2
    assert attempt.helped and attempt.decided
    # the next move of the solver starts without a hint
    attempt.play(attempt.game.parse_move("23-18"))
    assert attempt.hints == 0


def find_square(text: str) -> int:
    return find_variant("english").parse_square(text)


def test_the_solution_is_played_out_move_by_move_and_retried() -> None:
    attempt = Attempt(SHOT)
    shown = []
    while (move := attempt.show_next()) is not None:
        shown.append(move)
    assert len(shown) == 3 and attempt.done and not attempt.clean
    assert attempt.texts() == ["23-18", "14x23", "27x4"]
    attempt.retry()
    assert attempt.game.fen() == SHOT_FEN and attempt.ply == 0


def test_a_wrong_move_is_explained_by_the_reply_it_allows() -> None:
    game = Game(find_variant("english"), SHOT_FEN)
    refutation = refute(game, game.parse_move("29-25"))
    assert refutation.reply == "22x29" and refutation.side == 1
    assert refutation.kind in ("crown", "pieces", "wins")
    words = refutation.words(game.variant)
    assert words.startswith("After 29-25, Black answers 22x29 and ")
    set_language("uk")
    assert "22x29" in refutation.words(game.variant)
    assert "Black" not in refutation.words(game.variant)


def test_a_piece_given_away_is_said_with_its_count() -> None:
    # Russian: white's man on c3 steps to d4 into black's capture (e5xc3), nothing
    # takes back: a piece lost.
    game = Game(find_variant("russian"), "W:Wa1,h2:Be5,h8")
    refutation = refute(game, game.parse_move("a1-b2"))
    assert refutation.kind != "pieces"
    game = Game(find_variant("russian"), "W:Wc3,h2:Be5,a7")
    refutation = refute(game, game.parse_move("c3-d4"))
    assert refutation.reply == "e5:c3"
    assert refutation.kind in ("pieces", "wins")
    assert "wins" in refutation.words(game.variant)


def test_glicko_update_follows_glickmans_example() -> None:
    # The example of Glickman's paper "Example of the Glicko-2 system": 1500 (RD 200)
    # beats 1400 (30), loses to 1550 (100) and 1700 (300): 1464.06, 151.52, 0.05999.
    rating, deviation, volatility = glicko_update(
        1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]
    )
    assert round(rating, 1) == 1464.1
    assert round(deviation, 1) == 151.5
    assert round(volatility, 6) == 0.059996  # (the package alone gives 0.059993)


def test_finishing_rates_once_and_keeps_streaks(tmp_path: Path) -> None:
    path = tmp_path / "trainer.json"
    trainer = Trainer(Library(), PuzzleRecord(), path=path)
    attempt = Attempt(SHOT)
    assert trainer.finish(attempt) is None  # nothing decided yet
    attempt.play(attempt.game.parse_move("23-18"))
    attempt.play(attempt.game.parse_move("27x4"))
    rated = trainer.finish(attempt)
    assert rated is not None and rated.solved and rated.after > rated.before
    assert rated.streak == 1 and rated.best_streak == 1 and not rated.problem
    assert trainer.finish(attempt) is None  # once
    again = Attempt(SHOT)
    again.play(again.game.parse_move("24-19"))
    lost = trainer.finish(again)
    assert lost is not None and not lost.solved and lost.after < lost.before
    assert lost.streak == 0 and lost.best_streak == 1
    kept = PuzzleRecord.load(path)
    rec = kept.of("english")
    assert (rec.played, rec.solved, rec.streak, rec.best_streak) == (2, 1, 0, 1)
    assert rec.seen == {key_text(SHOT): 0}
    assert rec.rating == pytest.approx(lost.after, abs=0.01)


def test_a_hint_or_the_solution_is_no_win(tmp_path: Path) -> None:
    trainer = Trainer(Library(), PuzzleRecord(), path=tmp_path / "t.json")
    attempt = Attempt(SHOT)
    attempt.hint()
    rated = trainer.finish(attempt)
    assert rated is not None and not rated.solved
    shown = Attempt(SHOT)
    shown.show_next()
    rated = trainer.finish(shown)
    assert rated is not None and not rated.solved


def test_puzzles_seen_come_after_the_others_and_near_the_rating() -> None:
    puzzles = [russian(n, 1000 + 100 * n) for n in range(10)]
    record = VariantRecord(rating=1500)
    rng = random.Random(1)
    picked = {key_text(choose(puzzles, record, rng)) for _ in range(40)}  # type: ignore[arg-type]
    nearest = sorted(puzzles, key=lambda p: abs(p.difficulty - 1500))[:5]
    assert picked <= {key_text(p) for p in nearest}
    for p in puzzles[:9]:
        record.saw(key_text(p), True)
    for _ in range(10):
        assert choose(puzzles, record, rng) is puzzles[9]
    record.saw(key_text(puzzles[9]), True)
    record.saw(key_text(puzzles[3]), False)
    assert choose(puzzles, record, rng) is puzzles[3]  # the one failed first
    assert choose([puzzles[3]], record, rng, avoid=key_text(puzzles[3])) is puzzles[3]


def test_the_daily_puzzle_is_the_same_for_a_date_and_changes_with_it() -> None:
    shipped = [russian(n) for n in range(12)]
    library = Library(puzzles={"russian": shipped[:]}, shipped={"russian": shipped[:]})
    shuffled = shipped[:]
    random.Random(5).shuffle(shuffled)
    other = Library(puzzles={"russian": shuffled}, shipped={"russian": shuffled})
    day = date(2026, 12, 7)
    first = daily_puzzle(library, "russian", day)
    assert first is not None and daily_puzzle(other, "russian", day) == first
    picks = {key_text(daily_puzzle(library, "russian", date(2026, 12, d))) for d in range(1, 29)}  # type: ignore[arg-type]
    assert len(picks) > 3
    assert daily_puzzle(library, "english", day) is None
    # only the shipped set: the player's own puzzles never make the daily one
    own = Library(puzzles={"russian": shipped[:]})
    assert daily_puzzle(own, "russian", day) is None


def test_the_daily_puzzle_finished_is_noted_for_its_day(tmp_path: Path) -> None:
    trainer = Trainer(Library(), PuzzleRecord(), path=tmp_path / "t.json")
    day = date(2026, 12, 7)
    attempt = Attempt(SHOT, daily=True)
    attempt.show_next()
    trainer.finish(attempt, day)
    assert trainer.daily_done("english", day)
    assert not trainer.daily_done("english", date(2026, 12, 8))


def test_the_library_reads_what_books_are_there(tmp_path: Path) -> None:
    starter = tmp_path / "starter"
    starter.mkdir()
    write_book(starter / "russian.pdn", [russian(2), russian(4)])
    (starter / "english.pdn").write_text('[Event "x"]\n[GameType "21"]\n\n*\n')  # no puzzle
    own = write_book(tmp_path / "mined.pdn", [SHOT, russian(2)])
    library = load_library(starter, [own, tmp_path / "missing.pdn"])
    assert library.count("russian") == 2 and library.count("english") == 1
    assert len(library.shipped["russian"]) == 2 and "english" not in library.shipped
    assert len(library.problems) == 1 and "not a puzzle" in library.problems[0]
    assert library.themes("english") == [("crown", 1), ("shot", 1)]
    assert library.of("english", "shot") == [SHOT] and library.of("english", "king") == []
    # no folder at all, no own book: nothing, and no error
    empty = load_library(tmp_path / "none", [])
    assert empty.puzzles == {} and empty.problems == []


def test_a_book_that_is_a_folder_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "book.pdn").mkdir()
    library = load_library(tmp_path / "none", [tmp_path / "book.pdn"])
    assert len(library.problems) == 1 and "book.pdn" in library.problems[0]


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"[1, 2]",
        b'{"version": 99}',
        b'{"version": 1, "variants": {"russian": {"rating": "high"}}}',
        b'{"version": 1, "variants": {"russian": {"seen": [1]}}}',
        b'{"version": 1, "variants": []}',
        b"\xff\xfe\x00",
        b"[" * 100_000,
    ],
    ids=["text", "list", "version", "rating", "seen", "variants", "bytes", "deep"],
)
def test_a_damaged_record_is_one_line_and_a_fresh_start(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "trainer.json"
    path.write_bytes(content)
    record = PuzzleRecord.load(path)
    assert record.variants == {}
    assert record.problem.startswith("Your puzzle record") and "\n" not in record.problem
    assert record.save(path) is None
    assert PuzzleRecord.load(path).problem == ""


def test_a_record_keeps_its_values_within_bounds(tmp_path: Path) -> None:
    path = tmp_path / "trainer.json"
    data = {
        "version": 1,
        "variants": {
            "russian": {
                "rating": 99999,
                "deviation": -5,
                "volatility": 3,
                "played": 4,
                "seen": {"ab": 1, "cd": 7, "x" * 99: 0},
                "daily": "2026-12-07",
            }
        },
    }
    path.write_text(json.dumps(data))
    rec = PuzzleRecord.load(path).of("russian")
    assert rec.rating == 3500 and rec.deviation == 1 and rec.volatility == 1
    assert rec.played == 4 and rec.seen == {"ab": 1} and rec.daily == "2026-12-07"


def test_a_record_in_place_of_a_link_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text('{"version": 1, "variants": {}}')
    link = tmp_path / "trainer.json"
    link.symlink_to(target)
    assert PuzzleRecord.load(link).problem  # not read through the link
    assert PuzzleRecord().save(link) is not None  # nor written over it
    assert target.read_text() == '{"version": 1, "variants": {}}'


def test_a_book_read_again_after_it_changed(tmp_path: Path) -> None:
    own = write_book(tmp_path / "mined.pdn", [russian(2)])
    assert load_library(tmp_path / "none", [own]).count("russian") == 1
    BookWriter(own).add([russian(4), russian(6)])
    assert load_library(tmp_path / "none", [own]).count("russian") == 3


def test_a_record_that_cannot_be_saved_is_said_and_the_puzzle_still_counts(
    tmp_path: Path,
) -> None:
    path = tmp_path / "trainer.json"
    path.mkdir()  # (a folder where the file goes)
    trainer = Trainer(Library(), PuzzleRecord(), path=path)
    attempt = Attempt(SHOT)
    attempt.show_next()
    rated = trainer.finish(attempt)
    assert rated is not None and rated.problem.startswith("cannot save")
    assert trainer.record.of("english").played == 1


def test_two_trainers_on_one_record_keep_both_results(tmp_path: Path) -> None:
    path = tmp_path / "trainer.json"
    first = Trainer(Library(), PuzzleRecord.load(path), path=path)
    second = Trainer(Library(), PuzzleRecord.load(path), path=path)
    one = Attempt(SHOT)
    one.show_next()
    first.finish(one)
    two = Attempt(russian(2))
    two.play(two.game.parse_move(two.puzzle.line[0]))
    second.finish(two)
    kept = PuzzleRecord.load(path)
    assert kept.of("english").played == 1 and kept.of("russian").solved == 1
