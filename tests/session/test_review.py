"""The whole-game review (issue 47, item 1), without the app: moves judged on fixed
positions (a move that gives men away is a blunder, the engine's own move is not marked),
the curve and the accuracy, the review written into the record and read back without
analysing again, the same results on one core or two, and pydraughts' PDN reader still
replaying a reviewed file (the real package, in a virtual environment of its own)."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest

from shashki.engine.review import PlyScore, analyse_game, search_run
from shashki.engine.winprob import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Curve,
    accuracy,
    board_key,
    curve_for,
    judge,
    move_accuracy,
)
from shashki.records import GameRecord, read_games_text, write_game
from shashki.records.annotations import GOOD, node_eval, user_text
from shashki.rules import Game, find_variant
from shashki.session.review import (
    ANNOTATOR,
    LOOK_AGAIN,
    LOOK_AGAIN_FROM,
    Review,
    evaluation_of,
    score_of,
)

from ..hub.test_real_client import pydraughts  # noqa: F401 (the fixture)

#: Positions where one move gives men away (found by a search of 20,000 nodes with exact
#: root scores: the best move about level, the blunder four men down or so).
BLUNDERS = {
    "russian": (
        "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1:Bb8,d8,f8,h8,a7,g7,b6,d6,h6,a5,g5:H0:F5",
        "e3-f4",
    ),
    "international": (
        "B:W27,31,32,33,35,36,37,38,39,40,42,43,44,45,46,47,48,49,50:"
        "B1,2,3,4,5,6,7,9,10,11,12,13,14,15,16,17,18,24,25:H0:F5",
        "17-22",
    ),
}


def one_move(variant: str, fen: str, text: str) -> GameRecord:
    record = GameRecord(variant, fen)
    game = record.start()
    record.add_variation(game.parse_move(text))
    return record


@pytest.mark.parametrize("variant", sorted(BLUNDERS))
def test_a_move_that_gives_men_away_is_a_blunder(variant: str) -> None:
    fen, blunder = BLUNDERS[variant]
    review = Review(one_move(variant, fen, blunder), depth="quick")
    review.run(workers=1)
    assert review.complete
    verdict = review.verdict(1)
    assert verdict is not None
    assert verdict.mark == "??", verdict
    assert verdict.drop >= BLUNDER and verdict.best and verdict.best != blunder
    # the engine's own choice, played: nothing lost, no mark
    best = one_move(variant, fen, verdict.best)
    again = Review(best, depth="quick")
    again.run(workers=1)
    good = again.verdict(1)
    # (searched beside another position, the engine may prefer another move as good)
    assert good is not None and good.mark == "" and good.drop < INACCURACY
    assert again.key_moments() == [] and review.key_moments() == [verdict]


def test_a_move_that_lost_is_judged_by_a_second_deeper_look() -> None:
    fen, blunder = BLUNDERS["russian"]
    record = one_move("russian", fen, blunder)
    review = Review(record, depth="quick")
    first = review.analysis(workers=1)
    assert first.nodes == review.budget
    for scores in first:
        review.add(scores)
    # every position known, but the move lost a blunder's worth: looked at again
    assert review.known == review.total == 2 and not review.complete
    assert review.to_look_again() == [0, 1] and review.progress() == (2, 4)
    second = review.analysis(workers=1)
    assert second.nodes == LOOK_AGAIN * review.budget and second.jobs == [[0, 1]]
    for scores in second:
        review.add(scores)
    assert review.complete and review.deep == [True, True] and review.progress() == (4, 4)
    assert review.to_look_again() == [] and not review.analysis(workers=1).jobs
    # judged by the deeper search's scores of both positions (searched in one run)
    deeper = search_run("russian", fen, review.texts, [0, 1], LOOK_AGAIN * review.budget)
    assert sorted(deeper, key=lambda s: s.ply) == review.scores
    verdict = review.verdict(1)
    assert verdict is not None and verdict.mark == "??"
    # without the second look: the first searches alone
    plain = Review(record, depth="quick", look_again=False)
    plain.run(workers=1)
    assert plain.complete and plain.deep == [False, False] and plain.progress() == (2, 2)
    # read back from the record: complete, nothing searched again
    review.write()
    back = Review.read(record)
    assert back is not None and back.complete and not back.analysis(workers=1).jobs


def test_the_second_look_is_for_the_moves_that_lost_a_mistakes_worth() -> None:
    assert LOOK_AGAIN_FROM == MISTAKE
    [record] = read_games_text(SHORT)
    review = Review(record, depth="quick")
    curve = review.curve
    # scores for the side to move after each move: move 2 (Black's) loses a little less
    # than a mistake's worth, move 5 (White's) a little more, the others nothing
    white = [0, 0, 0, 0, 0, 0, 0, 0, 0]
    drop = {2: MISTAKE - 0.01, 5: MISTAKE + 0.01}
    for ply, lost in drop.items():
        side = review.turns[ply - 1]
        before = curve.expected(white[ply - 1] if side == 0 else -white[ply - 1])
        target = before - lost  # the mover's expected score after the move
        score = round(-curve.k * math.log(1 / target - 1))  # the mover's score
        for later in range(ply, len(white)):
            white[later] = score if side == 0 else -score
    review.add(
        PlyScore(ply, turn, white[ply] if turn == 0 else -white[ply], "x")
        for ply, turn in enumerate(review.turns)
    )
    assert review.known == review.total == len(white)
    drops = {p: round(v.drop, 3) for p in range(1, 9) if (v := review.verdict(p)) and v.drop}
    assert drops == pytest.approx({2: MISTAKE - 0.01, 5: MISTAKE + 0.01}, abs=0.005)
    assert review.to_look_again() == [4, 5] and not review.complete


def test_the_marks_follow_the_drop_of_the_expected_score() -> None:
    assert judge(0.5, 0.5) == ""
    assert judge(0.5, 0.5 - INACCURACY + 0.001) == ""
    assert judge(0.5, 0.5 - INACCURACY) == "?!"
    assert judge(0.5, 0.5 - MISTAKE) == "?"
    assert judge(0.9, 0.9 - BLUNDER) == "??"
    assert judge(0.3, 0.6) == ""  # a gain is no mistake
    curve = Curve(200.0)
    assert curve.expected(0) == 0.5
    values = [curve.expected(s) for s in range(-1000, 1001, 50)]
    assert values == sorted(values) and values[0] < 0.01 and values[-1] > 0.99
    assert curve.expected(99_990) == 1.0 and curve.expected(-99_990) == 0.0
    assert move_accuracy(0) == pytest.approx(100, abs=1e-3) and move_accuracy(1) == 0
    assert accuracy([]) is None and accuracy([0, 0]) == pytest.approx(100, abs=1e-3)
    # one bad move weighs: the harmonic mean of the accuracies pulls the figure down
    assert accuracy([0, 0, 0, 0.3]) < (3 * 100 + move_accuracy(0.3)) / 4


def test_every_board_has_a_fitted_curve() -> None:
    from shashki.engine.winprob import _table
    from shashki.rules import all_variants

    fitted = _table()
    for variant in all_variants():
        entry = fitted.get(board_key(variant))
        assert entry is not None, f"no curve fitted for {board_key(variant)}"
        assert entry["games"] >= 40 and entry["positions"] >= 1000
        assert curve_for(variant).k == entry["k"] > 0


def test_evaluations_are_written_as_players_read_them() -> None:
    # for the first side, in men; a win in moves
    assert evaluation_of(35, 0, 0).text() == "0.35"
    assert evaluation_of(35, 1, 0).text() == "-0.35"
    assert evaluation_of(100_000 - 5, 0, 0).text() == "#3"
    assert evaluation_of(100_000 - 5, 1, 0).text() == "#-3"
    for score in (0, 35, -120, 99_995, -99_993):
        for turn in (0, 1):
            back = score_of(evaluation_of(score, turn, 0), turn)
            assert back == score or (abs(score) >= 99_000 and (back > 0) == (score > 0))


SHORT = """\
[White "Anna"]
[Black "Boris"]
[Result "*"]
[GameType "25"]

1. c3-d4 {Her favourite.} f6-g5 2. g3-h4 $1 b6-c5 3. d4:b6 a7:c5 4. h4:f6 g7:e5 *
"""


def test_the_review_is_written_and_read_back_without_analysing() -> None:
    [record] = read_games_text(SHORT)
    review = Review(record, depth="quick")
    review.run(workers=1)
    assert review.write()
    assert record.header("Annotator") == ANNOTATOR
    text = write_game(record)
    # a person's comment and mark stay beside the review's
    assert user_text(record.variations[0].comments) == "Her favourite."
    assert GOOD in record.variations[0].variations[0].variations[0].nags
    assert all(node_eval(n.comments) is not None for n in [record, *record.mainline()])
    [back] = read_games_text(text)
    again = Review.read(back)
    assert again is not None and again.complete
    assert again.graph() == pytest.approx(review.graph(), abs=1e-9)
    assert [(v.ply, v.mark, v.best) for v in again.verdicts()] == [
        (v.ply, v.mark, v.best) for v in review.verdicts()
    ]
    assert again.accuracy(0) == pytest.approx(review.accuracy(0))
    assert again.accuracy(1) == pytest.approx(review.accuracy(1))
    # written again (another review, or the same): one evaluation a move, no duplicates
    again.write()
    assert write_game(back) == text


def test_a_record_with_part_of_a_review_is_reviewed_again() -> None:
    [record] = read_games_text(SHORT)
    review = Review(record, depth="quick")
    review.run(workers=1)
    review.write()
    record.variations[0].variations[0].comments = []
    assert Review.read(record) is None
    assert Review.read(read_games_text(SHORT)[0]) is None


def test_evaluations_of_another_program_are_judged_from_the_evaluations() -> None:
    text = (
        '[GameType "25"]\n\n{[%eval 0.0]} 1. c3-d4 {[%eval 0.1]} f6-g5 {[%eval 3.0]} '
        "2. g3-h4 {[%eval 3.1]} *\n"
    )
    [record] = read_games_text(text)
    review = Review.read(record)
    assert review is not None
    marks = [(v.ply, v.mark) for v in review.verdicts()]
    assert marks == [(1, ""), (2, "??"), (3, "")]


def test_a_changed_main_line_keeps_what_is_known() -> None:
    [record] = read_games_text(SHORT)
    review = Review(record, depth="quick")
    review.run(workers=1)
    end = record.end()
    end.add_variation(end.replay().legal_moves()[0])
    assert not review.matches() and not review.write()
    other = review.reused(record)
    assert other.known == review.total and other.total == review.total + 1


def test_one_core_or_two_give_the_same_review() -> None:
    game = Game("russian")
    texts = []
    for i in range(9):  # a game of moves chosen by their place in the list
        moves = game.legal_moves()
        move = moves[(i * 7) % len(moves)]
        texts.append(game.move_text(move, full=True))
        game.push(move)
    one = analyse_game("russian", None, texts, nodes=3000, workers=1)
    two = analyse_game("russian", None, texts, nodes=3000, workers=2)
    assert one == two and [s.ply for s in one] == list(range(len(texts) + 1))


#: Reads a PDN file with pydraughts' reader and replays every move of each game on its
#: board; prints the moves read and replayed.
REPLAY = """
import json, sys
from draughts.PDN import PDNReader
from draughts import Board, Move
out = []
for game in PDNReader(filename=sys.argv[1]).games:
    board = Board(variant=game.variant, fen=game.tags.get("FEN", "startpos"))
    done = 0
    for text in game.moves:
        board.push(Move(board, pdn_move=text))
        done += 1
    out.append({"variant": game.variant, "read": len(game.moves), "replayed": done})
print(json.dumps(out))
"""


def test_pydraughts_replays_a_reviewed_file(pydraughts: Path, tmp_path: Path) -> None:  # noqa: F811
    # a game of shashki against itself, reviewed and written
    variant = find_variant("international")
    game = Game(variant)
    from shashki.engine import Search

    search = Search(variant)
    for _ in range(24):
        result = search.search(game, nodes=800)
        assert result.move is not None
        game.push(result.move)
    record = GameRecord.from_game(game, {"White": "A", "Black": "B"})
    record.variations[0].comments = ["An opening move."]
    review = Review(record, depth="quick")
    review.run(workers=1)
    review.write()
    path = tmp_path / "reviewed.pdn"
    path.write_text(write_game(record), encoding="utf-8")
    assert "[%eval" in path.read_text(encoding="utf-8")
    script = tmp_path / "replay.py"
    script.write_text(REPLAY, encoding="utf-8")
    done = subprocess.run(
        [str(pydraughts), str(script), str(path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    [read] = json.loads(done.stdout)
    assert read == {"variant": "standard", "read": 24, "replayed": 24}
