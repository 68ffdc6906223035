"""A study of a recorded game (issue 47, item 2), without Textual: a move other than the
record's adds a variation, variations are promoted, made the main line or deleted,
comments and marks are written, every edit is undone and redone, and the whole tree is
written to PDN and read back the same (hypothesis: random sequences of edits)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.app.replay_controller import ReplayController
from shashki.records import GameRecord, read_games_text, write_game
from shashki.records.annotations import (
    BLUNDER,
    GOOD,
    Evaluation,
    comment_with,
    eval_in,
    mark_of,
    node_eval,
)
from shashki.rules import Game, find_variant

GAME = """\
[White "Anna"]
[Black "Boris"]
[Result "1-0"]
[GameType "25"]

{The opening.}
1. c3-d4 {[%clk 0:04:53] A classical start.} f6-e5 $2 (1... f6-g5 $1 {The main
alternative.} 2. g3-h4 b6-c5) 2. d4:f6 g7:e5 3. b2-c3 h6-g5 1-0
"""


def study(text: str = GAME) -> ReplayController:
    [record] = read_games_text(text)
    return ReplayController(record)


def texts(ctl: ReplayController, node: object | None = None) -> list[str]:
    """The moves of the line from the start to the node shown (or ``node``)."""
    target = ctl.node if node is None else node
    game = ctl.record.start()
    out = []
    for n in target.path():  # type: ignore[attr-defined]
        out.append(game.move_text(n.move))
        game.push(n.move)
    return out


def move(ctl: ReplayController, text: str):  # type: ignore[no-untyped-def]
    return ctl.game.parse_move(text)


def test_the_record_s_move_is_followed_and_another_adds_a_variation() -> None:
    ctl = study()
    step = ctl.play(move(ctl, "c3-d4"))
    assert step.moved and not step.edited and not ctl.changed
    assert ctl.node is ctl.record.variations[0]
    step = ctl.play(move(ctl, "f6-g5"))  # the variation there: followed too
    assert not step.edited and texts(ctl) == ["c3-d4", "f6-g5"]
    ctl.first()
    step = ctl.play(move(ctl, "c3-b4"))
    assert step.edited and ctl.changed
    assert [n.move for n in ctl.record.variations][1] == ctl.node.move
    assert not ctl.node.is_mainline()
    # the move list has a row for it, and the replay stands on it
    assert ctl.row_of(ctl.node) is not None
    assert ctl.game.fen() == _after("c3-b4")


def _after(*moves: str) -> str:
    game = Game("russian")
    for text in moves:
        game.push_text(text)
    return game.fen()


def test_a_move_that_is_not_legal_is_refused() -> None:
    ctl = study()
    other = Game("russian")
    other.push_text("c3-d4")
    wrong = other.parse_move("f6-g5")  # Black's move, not White's
    step = ctl.play(wrong)
    assert step.refused and not ctl.changed


def test_promote_make_main_and_delete() -> None:
    ctl = study()
    ctl.play(move(ctl, "c3-d4"))
    ctl.play(move(ctl, "f6-g5"))
    ctl.play(move(ctl, "g3-h4"))
    assert not ctl.node.is_mainline()
    # promote: the variation is now the main line there (two continuations: one step)
    assert ctl.promote().edited
    assert ctl.node.is_mainline()
    assert texts(ctl, ctl.record.end()) == ["c3-d4", "f6-g5", "g3-h4", "b6-c5"]
    assert ctl.promote().refused  # on the main line now
    assert ctl.undo().edited
    assert not ctl.node.is_mainline() and texts(ctl) == ["c3-d4", "f6-g5", "g3-h4"]
    # a third line at the first move, made the main line from deep inside it
    ctl.first()
    ctl.play(move(ctl, "a3-b4"))
    ctl.play(move(ctl, "b6-a5"))
    assert ctl.make_main().edited
    assert texts(ctl, ctl.record.end()) == ["a3-b4", "b6-a5"]
    assert [texts(ctl, n) for n in ctl.record.variations] == [["a3-b4"], ["c3-d4"]]
    # delete the old main line, now a variation: the replay goes to where it branched
    ctl.go(ctl.record.variations[1].variations[0])
    assert ctl.delete().edited
    assert ctl.node is ctl.record and len(ctl.record.variations) == 1
    assert ctl.delete().refused  # the main line is the game's own
    ctl.go(ctl.record.end())
    assert ctl.delete().refused
    # every edit undone, one by one, gives the record as read
    while ctl.can_undo():
        ctl.undo()
    assert ctl.record.same_tree(study().record)
    assert not ctl.changed
    # and redone, the study as it was
    while ctl.can_redo():
        ctl.redo()
    assert [texts(ctl, n) for n in ctl.record.variations] == [["a3-b4"]]


def test_comments_keep_the_clock_and_the_evaluation() -> None:
    ctl = study()
    ctl.next()
    assert ctl.comment_text() == "A classical start."
    ctl.node.comments = comment_with(ctl.node.comments, evaluation=Evaluation(0.35))
    ctl.set_comment("  Better: {a3-b4}\nlater ")
    assert ctl.comment_text() == "Better: (a3-b4) later"
    [comment] = ctl.node.comments
    assert "[%clk 0:04:53]" in comment and eval_in(comment) == Evaluation(0.35)
    ctl.set_comment("")
    assert ctl.comment_text() == "" and node_eval(ctl.node.comments) == Evaluation(0.35)
    ctl.undo()
    assert ctl.comment_text() == "Better: (a3-b4) later"
    # the root's comment: before the first move
    ctl.first()
    ctl.set_comment("Studied in 2026.")
    assert write_game(ctl.record).split("\n\n", 1)[1].startswith("{Studied in 2026.}")


def test_marks_are_set_replaced_and_taken_off() -> None:
    ctl = study()
    assert ctl.mark(GOOD).refused  # the start has no move
    ctl.next()
    ctl.next()
    assert mark_of(ctl.node.nags) == 2  # "?" as read
    ctl.mark(BLUNDER)
    assert ctl.node.nags == [BLUNDER]
    ctl.mark(BLUNDER)
    assert ctl.node.nags == []
    ctl.node.nags = [14]  # a position mark of another program stays
    ctl.mark(GOOD)
    assert ctl.node.nags == [GOOD, 14]


def test_saved_marks_the_state_and_an_edit_after_it_is_a_change() -> None:
    ctl = study()
    ctl.play(move(ctl, "a3-b4"))
    ctl.mark_saved()
    assert not ctl.changed
    ctl.undo()
    assert ctl.changed
    ctl.redo()
    assert not ctl.changed


def test_taking_over_still_starts_a_game_from_the_position_shown() -> None:
    ctl = study()
    ctl.play(move(ctl, "a3-b4"))
    taken = ctl.take_over()
    assert taken.game is not None and taken.game.fen() == _after("a3-b4")
    assert taken.names == ("Anna", "Boris")


# -- the round trip -----------------------------------------------------------------------

#: Comments as people type them: any text (braces, brackets, new lines, other scripts).
COMMENTS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=40,
)
EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "play",
                "play",
                "play",
                "step",
                "back",
                "first",
                "variation",
                "promote",
                "main",
                "delete",
                "comment",
                "mark",
                "undo",
                "redo",
            ]
        ),
        st.integers(0, 1000),
        COMMENTS,
    ),
    max_size=40,
)


@pytest.mark.parametrize("variant", ["russian", "international", "bashni", "turkish"])
@settings(max_examples=25)
@given(edits=EDITS)
def test_random_edits_are_written_and_read_back_the_same(
    variant: str, edits: list[tuple[str, int, str]]
) -> None:
    record = GameRecord(variant, headers={"White": "Anna", "Black": "Boris"})
    ctl = ReplayController(record)
    for action, n, text in edits:
        if action == "play":
            moves = ctl.game.legal_moves()
            if moves:
                ctl.play(moves[n % len(moves)])
        elif action == "step":
            ctl.next()
        elif action == "back":
            ctl.prev()
        elif action == "first":
            ctl.first()
        elif action == "variation":
            ctl.enter_variation()
        elif action == "promote":
            ctl.promote()
        elif action == "main":
            ctl.make_main()
        elif action == "delete":
            ctl.delete()
        elif action == "comment":
            ctl.set_comment(text)
        elif action == "mark":
            if ctl.node.parent is not None:
                ctl.mark(1 + n % 6)
        elif action == "undo":
            ctl.undo()
        else:
            ctl.redo()
    written = write_game(ctl.record)
    [back] = read_games_text(written)
    assert back.ok, (back.errors, written)
    assert back.same_tree(ctl.record), written
    assert write_game(back) == written
    # and the move list of the study read back is the same as the one edited
    again = ReplayController(back)
    assert [r.text for r in again.rows] == [r.text for r in ctl.rows]


def test_a_seeded_long_study_round_trips_in_every_family() -> None:
    rng = random.Random(47)
    for variant in ("frisian", "artamonov", "wolf-sheep", "double-move", "english"):
        ctl = ReplayController(GameRecord(find_variant(variant)))
        for _ in range(80):
            roll = rng.random()
            moves = ctl.game.legal_moves()
            if roll < 0.6 and moves:
                ctl.play(rng.choice(moves))
            elif roll < 0.7:
                ctl.go(rng.choice([ctl.record, *ctl.record.nodes()]))
            elif roll < 0.8:
                ctl.set_comment(rng.choice(["good", "a {brace}", "", "[%eval 3] not a command"]))
            elif roll < 0.9 and ctl.node.parent is not None:
                ctl.mark(rng.randint(1, 6))
            else:
                ctl.make_main()
        written = write_game(ctl.record)
        [back] = read_games_text(written)
        assert back.ok and back.same_tree(ctl.record), written
        # a comment that looks like a command stays a person's text
        assert all(eval_in(c) is None for n in back.nodes() for c in n.comments)
