"""The game controller: selection, capture routes, refusals (no Textual); undo, redo and
draws are the session's (tests/session/test_offers.py)."""

from __future__ import annotations

from shashki.app.controller import GameController
from shashki.rules import Color, Game
from shashki.session import GameSession

from ..conftest import sq

TWO_ROUTES = "B:Wg5,b4,d4,g3,b2,d2,f2,h2:Ba7,e7,g7,b6,a5,c5"


def ctl(variant: str = "russian", fen: str | None = None, **kw) -> GameController:
    game = Game(variant, fen) if fen else Game(variant)
    return GameController(GameSession(game, **kw))


def test_select_then_destination_plays_the_move() -> None:
    c = ctl()
    assert c.click(sq("russian", "c3")).refused == ""
    assert c.destinations() == {sq("russian", "b4"), sq("russian", "d4")}
    fb = c.click(sq("russian", "d4"))
    assert fb.played is not None
    assert c.game.turn is Color.BLACK
    assert c.move_list() == ["c3-d4"]


def test_refusals_name_the_rule() -> None:
    c = ctl()
    fb = c.click(sq("russian", "c1"))
    assert "no legal move" in fb.refused
    fb = c.click(sq("russian", "f6"))
    assert "Black's piece" in fb.refused and "White's turn" in fb.refused
    c.click(sq("russian", "c3"))
    fb = c.click(sq("russian", "c5"))
    assert fb.played is None and "one square diagonally forward" in fb.refused


def test_compulsory_capture_is_explained() -> None:
    c = ctl("russian", "W:Wc3,g3:Bd4")
    fb = c.click(sq("russian", "g3"))
    assert "compulsory" in fb.refused and "c3" in fb.refused
    assert c.must_capture() == {sq("russian", "c3")}


def test_majority_rule_is_explained() -> None:
    # traditional: e3 takes two (g5 then e7), c... only the longest capture is legal
    c = ctl("traditional", "W:We3,a3:Bd4,f4,f6,b4")
    assert c.legal and all(len(m.captured) == 2 for m in c.legal)
    capturers = c.must_capture()
    assert sq("traditional", "a3") not in capturers
    fb = c.click(sq("traditional", "a3"))
    assert "most pieces" in fb.refused


def test_two_routes_to_one_square_are_chosen_by_the_player() -> None:
    c = ctl("russian", TWO_ROUTES)
    c.click(sq("russian", "c5"))
    fb = c.click(sq("russian", "g1"))
    assert fb.choose_route and fb.played is None
    assert len(c.selection.routes) == 2
    first = c.shown_route()
    c.next_route()
    second = c.shown_route()
    assert first != second
    fb = c.play_shown_route()
    assert fb.played == second
    assert len(c.game.move_stack) == 1


def test_a_waypoint_click_picks_the_route() -> None:
    c = ctl("russian", TWO_ROUTES)
    c.click(sq("russian", "c5"))
    fb = c.click(sq("russian", "a3"))  # the long routes land on a3 first
    assert fb.played is None and "ends" in fb.message
    assert sq("russian", "h6") in c.destinations()  # g1, h6 and c5 remain
    fb = c.click(sq("russian", "g1"))  # now only one route ends there
    played = fb.played
    assert played is not None and len(played.captured) == 4  # b4, b2, d2 and f2


def test_typed_ambiguous_move_asks_for_the_route() -> None:
    c = ctl("russian", TWO_ROUTES)
    fb = c.enter_text("c5:g1")
    assert fb.choose_route and "ambiguous" in fb.message
    fb = c.enter_text("c5:e3:g1")
    assert fb.played is not None and len(fb.played.captured) == 2


def test_typed_illegal_move_is_explained() -> None:
    c = ctl()
    fb = c.enter_text("c3-c5")
    assert fb.refused
    fb = c.enter_text("hello")
    assert "not a move" in fb.refused


def test_tab_goes_round_the_pieces_that_can_move_then_round_the_routes() -> None:
    c = ctl()
    order = sorted((sq("russian", s) for s in ("a3", "c3", "e3", "g3")), key=c.variant.board.number)
    assert c.next_piece(-1, 1) == order[0]  # (the cursor on no piece that can move)
    assert c.next_piece(order[0], 1) == order[1]
    assert c.next_piece(order[0], -1) == order[-1]
    assert c.next_piece(order[-1], 1) == order[0]
    two = ctl("russian", TWO_ROUTES)
    two.click(sq("russian", "c5"))
    assert two.click(sq("russian", "g1")).choose_route
    first = two.shown_route()
    assert two.next_piece(sq("russian", "g1"), 1) == sq("russian", "g1")  # (it stays)
    assert two.shown_route() != first
