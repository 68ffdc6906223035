"""Setting up a position by hand (issue 47, item 3): the pieces each family of variants
offers, the FEN of what was set up, and the editor's refusals — a man on its crowning row,
too many pieces, no piece or no move for the side to move, a game already over, kings
where no man is crowned — for the diagonal games (8x8, 10x10), the orthogonal ones,
columns (Bashni), shared pieces (Artamonov), a goal game (Wolf and Sheep) and the
modifiers, said in the player's language."""

from __future__ import annotations

import pytest

from shashki.i18n import set_language
from shashki.rules import Game, ShashkiError, all_variants
from shashki.rules.setup import Setup


def setup(variant: str, fen: str | None = None) -> Setup:
    return Setup.of(variant, fen)


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_every_variant_s_start_is_set_up_as_it_is(variant: str) -> None:
    s = setup(variant)
    game = Game(variant)
    assert s.problems() == []
    assert Game(variant, s.fen()).position == game.position or s.fen() == game.fen()
    assert s.palette(), variant
    # every piece of the palette can be put on some square and taken off again
    free = [sq for sq in s.variant.board.squares if sq not in s.squares]
    for piece in s.palette():
        if free:
            s.place(free[0], piece.code)
            assert s.squares[free[0]] == piece.code
            s.lift(free[0])
            assert free[0] not in s.squares


def test_the_pieces_each_family_offers() -> None:
    codes = {v: [p.code for p in setup(v).palette()] for v in ("russian", "turkish", "bashni")}
    assert all(c == ["w", "b", "W", "B"] for c in codes.values())
    # the wolf (a king that was never crowned) and the sheep (men that never crown)
    assert [p.code for p in setup("wolf-sheep").palette()] == ["b", "W"]
    # shared pieces have no colour
    assert [p.code for p in setup("artamonov").palette()] == ["n", "N"]
    assert setup("bashni").columns and not setup("russian").columns
    assert setup("artamonov").neutral and not setup("bashni").neutral


def test_a_man_on_its_crowning_row() -> None:
    for variant, fen, square in (
        ("russian", "W:Wc3:Bf6", "d8"),
        ("international", "W:W31:B20", "3"),
        ("turkish", "W:Wa3:Bh6", "c8"),
    ):
        s = setup(variant, fen)
        s.place(s.square(square), "w")
        assert s.problems() == [
            f"The man on {square} stands on its crowning row: it would be a king there."
        ], variant
        s.place(s.square(square), "W")  # a king may stand there
        assert s.problems() == []
    # a black man on White's first row
    s = setup("russian", "W:Wc3:Bf6")
    s.place(s.square("a1"), "b")
    assert "The man on a1" in s.problems()[0]


def test_a_column_with_a_man_on_top_on_its_crowning_row() -> None:
    s = setup("bashni", "W:Wc3:Bf6")
    s.stack_on(s.square("d8"), "b")
    s.stack_on(s.square("d8"), "w")
    assert s.squares[s.square("d8")] == "bw"
    assert "The man on d8" in s.problems()[0]
    s.lift(s.square("d8"))  # the top piece off: a black man under it now on top
    assert s.squares[s.square("d8")] == "b" and s.problems() == []
    s.stack_on(s.square("e5"), "b")
    s.stack_on(s.square("e5"), "W")
    assert "e5=bW" in s.fen()
    assert Game("bashni", s.fen()).position.column(s.square("e5")) == "bW"


def test_too_many_pieces() -> None:
    s = setup("russian")
    s.place(s.square("d4"), "w")
    assert s.problems() == ["White: 13 pieces, more than the game starts with (12)."]
    s = setup("bashni")
    s.stack_on(s.square("d4"), "b")
    assert s.problems() == ["Black: 13 pieces, more than the game starts with (12)."]
    s = setup("artamonov")
    s.place(s.square("d4"), "n")
    assert s.problems() == ["25 pieces: more than the game starts with (24)."]
    s = setup("wolf-sheep")
    s.place(s.square("a5"), "b")
    assert s.problems() == ["Sheep: 5 pieces, more than the game starts with (4)."]


def test_kings_where_no_man_is_crowned() -> None:
    s = setup("wolf-sheep")
    s.place(s.square("c3"), "W")  # a second wolf
    assert "This game crowns no man: it has only the kings of its start (1)." in s.problems()
    with pytest.raises(ShashkiError):
        s.place(s.square("c5"), "B")  # no black king in this game
    with pytest.raises(ShashkiError):
        setup("artamonov").place(0, "w")  # no colours in this one


def test_no_piece_or_no_move_for_the_side_to_move() -> None:
    s = setup("russian", "W:Wc3:Bf6")
    s.clear(s.square("c3"))
    assert s.problems() == ["White to move, with no piece on the board."]
    s = setup("russian", "B:Wa1:Bh8")
    s.place(s.square("h8"), "b")
    s.clear(s.square("h8"))
    s.place(s.square("a7"), "b")
    s.place(s.square("b6"), "w")
    s.place(s.square("c5"), "w")  # a7 blocked: b6 taken, c5 behind it
    s.turn = 1
    assert s.problems() == ["Black to move, with no move to make."]
    s.clear()
    assert s.problems() == ["The board is empty."]


def test_a_game_over_before_the_first_move() -> None:
    s = setup("wolf-sheep")
    s.clear(s.square("e1"))
    s.place(s.square("c7"), "W")  # the wolf on... c7, one row short: playable
    assert s.problems() == []
    s.clear(s.square("c7"))
    s.clear(s.square("d8"))
    s.place(s.square("d8"), "W")  # the wolf on the far row: it has won already
    s.turn = 1
    problems = s.problems()
    assert problems and problems[0].startswith("The game would be over at once")


def test_a_modifier_s_own_rule_is_said() -> None:
    # double-move: a normal position of its host plays
    s = setup("double-move", "W:Wc3:Bf6")
    assert s.problems() == [] and s.game().fen().startswith("W:")
    # the first king wins: the side to move may not own one
    for v in all_variants():
        if v.generator.first_king_wins():
            s = Setup(v, None)
            s.clear()
            s.place(v.board.squares[0], "W")
            s.place(v.board.squares[-1], "b")
            assert s.problems(), v.id
            break
    else:
        pytest.skip("no variant where the first king wins")


def test_the_refusals_are_said_in_the_player_s_language() -> None:
    try:
        set_language("uk")
        s = setup("russian")
        s.place(s.square("d4"), "w")
        [said] = s.problems()
        assert "13" in said and "Білі" in said and "more" not in said
        s = setup("russian", "W:Wc3:Bf6")
        s.place(s.square("d8"), "w")
        assert "d8" in s.problems()[0] and "crowning" not in s.problems()[0]
        set_language("ru")
        s = setup("russian", "W:Wc3:Bf6")
        s.clear(s.square("c3"))
        assert "белых" in s.problems()[0].lower()
    finally:
        set_language("en")
