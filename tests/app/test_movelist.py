"""The move list shared by the game screen and the replay: numbered rows with both
sides' moves, "…" where a row starts with the second side, a row ended by a comment or
a variation, turns of two moves in one column, and the move looked at marked."""

from __future__ import annotations

from shashki.app.movelist import CURRENT, Entry, draw_row, turn_rows


def entries(*texts: str, first_side: int = 0) -> list[Entry]:
    return [Entry((first_side + i) % 2, text, i + 1) for i, text in enumerate(texts)]


def test_plies_pair_into_numbered_rows() -> None:
    rows = turn_rows(entries("c3-d4", "f6-g5", "b2-c3"), 0, 1)
    assert [row.columns() for row in rows] == [("1.", "c3-d4", "f6-g5"), ("2.", "b2-c3", "")]
    assert [row.last for row in rows] == [2, 3]
    assert rows[0].name(2, "f6-g5") == "1… f6-g5" and rows[1].name(3, "b2-c3") == "2. b2-c3"


def test_a_line_begun_by_the_second_side_starts_with_an_ellipsis() -> None:
    rows = turn_rows(entries("f6-g5", "c3-d4", first_side=1), 0, 7)
    assert [row.columns() for row in rows] == [("7.", "…", "f6-g5"), ("8.", "c3-d4", "")]
    assert rows[0].name(1, "f6-g5") == "7… f6-g5"


def test_a_comment_or_a_variation_ends_the_row() -> None:
    line = [
        Entry(0, "c3-d4", 1, note="A classical start."),
        Entry(1, "f6-g5", 2),
        Entry(0, "g3-h4", 3, breaks=True),
        Entry(1, "b6-a5", 4),
    ]
    rows = turn_rows(line, 0, 1)
    assert [row.columns() for row in rows] == [
        ("1.", "c3-d4", ""),
        ("1.", "…", "f6-g5"),
        ("2.", "g3-h4", ""),
        ("2.", "…", "b6-a5"),
    ]
    assert rows[0].first.note == "A classical start."
    assert "{A classical start.}" in draw_row(rows[0], 2, 40).plain


def test_a_turn_of_two_moves_is_one_column() -> None:
    line = [Entry(0, "c3-d4", 1), Entry(0, "d4-c5", 2), Entry(1, "b6:d4", 3), Entry(0, "e3:c5", 4)]
    rows = turn_rows(line, 0, 1)
    assert [row.columns() for row in rows] == [
        ("1.", "c3-d4; d4-c5", "b6:d4"),
        ("2.", "e3:c5", ""),
    ]
    assert rows[0].first.keys == (1, 2) and rows[0].holds(1) and rows[0].last == 3


def test_the_move_looked_at_is_marked_and_a_variation_indented() -> None:
    (row,) = turn_rows(entries("c3-d4", "f6-g5"), 0, 1)
    plain = draw_row(row, 2, 40)
    assert plain.plain == "1. c3-d4" + " " * 14 + "f6-g5" and not plain.spans
    marked = draw_row(row, 2, 40, current=2)
    assert [marked.plain[s.start : s.end] for s in marked.spans if s.style == CURRENT] == ["f6-g5"]
    (alt,) = turn_rows(entries("c3-b4"), 0, 1, depth=1, branch=True)
    assert draw_row(alt, 2, 40).plain.startswith("\u2514 1. c3-b4")
    assert str(draw_row(alt, 2, 40).style) == "dim"
