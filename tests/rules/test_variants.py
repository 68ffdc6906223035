"""The five classic variant files against docs/rules/switches.md#matrix and
docs/rules/conventions.md#draws, the registry, and what every registered variant must provide."""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.rules import (
    CaptureChoice,
    Color,
    Game,
    KingLanding,
    PromotionInCapture,
    Removal,
    UnknownVariantError,
    VariantFileError,
    all_variants,
    find_variant,
    load_variant_file,
)
from shashki.rules.game import game_state
from shashki.rules.switches import Counter

from ..conftest import ROOT

CLASSIC = ("traditional", "russian", "brazilian", "international", "english")
DIAGONAL = ("forward-right", "back-right", "back-left", "forward-left")
FORWARD = ("forward-left", "forward-right")


# -- the rule switches of docs/rules/switches.md#matrix --------------------------------------------

SWITCHES = {
    # variant: (man captures, kings fly, choice, promotion in capture, landing, first)
    "traditional": (
        DIAGONAL,
        True,
        CaptureChoice.MAJORITY,
        PromotionInCapture.AT_END,
        KingLanding.ANY,
        Color.WHITE,
    ),
    "russian": (
        DIAGONAL,
        True,
        CaptureChoice.FREE,
        PromotionInCapture.CONTINUE_AS_KING,
        KingLanding.MUST_CONTINUE,
        Color.WHITE,
    ),
    "brazilian": (
        DIAGONAL,
        True,
        CaptureChoice.MAJORITY,
        PromotionInCapture.AT_END,
        KingLanding.ANY,
        Color.WHITE,
    ),
    "international": (
        DIAGONAL,
        True,
        CaptureChoice.MAJORITY,
        PromotionInCapture.AT_END,
        KingLanding.ANY,
        Color.WHITE,
    ),
    "english": (
        FORWARD,
        False,
        CaptureChoice.FREE,
        PromotionInCapture.STOP,
        KingLanding.ANY,
        Color.BLACK,
    ),
}


@pytest.mark.parametrize("variant", CLASSIC)
def test_rule_switches(variant: str) -> None:
    rules = find_variant(variant).rules
    man_captures, fly, choice, promotion, landing, first = SWITCHES[variant]
    assert set(rules.man_moves) == set(FORWARD)
    assert set(rules.man_captures) == set(man_captures)
    assert set(rules.king_moves) == set(DIAGONAL)
    assert set(rules.king_captures) == set(DIAGONAL)
    assert rules.king_moves_fly is fly and rules.king_captures_fly is fly
    assert rules.capture_mandatory is True
    assert rules.capture_choice is choice
    assert rules.removal is Removal.END_OF_MOVE
    assert rules.no_180 is False
    assert rules.promotion_in_capture is promotion
    assert rules.king_landing is landing
    assert rules.first is first


@pytest.mark.parametrize(
    ("variant", "size", "men", "fen"),
    [
        ("traditional", 8, 12, "W:W21-32:B1-12"),
        ("russian", 8, 12, "W:W21-32:B1-12"),
        ("brazilian", 8, 12, "W:W21-32:B1-12"),
        ("international", 10, 20, "W:W31-50:B1-20"),
        ("english", 8, 12, "B:W21-32:B1-12"),
    ],
)
def test_board_and_start(variant: str, size: int, men: int, fen: str) -> None:
    v = find_variant(variant)
    assert (v.board.width, v.board.height, v.board.all_squares) == (size, size, False)
    game = Game(variant)
    assert game_state(game) == game_state(Game(variant, fen))
    pieces = game.pieces().values()
    assert sum(p.color is Color.WHITE for p in pieces) == men
    assert sum(p.color is Color.BLACK for p in pieces) == men
    assert not any(p.is_king for p in pieces)
    white_ranks = {v.board.rank_of[s] for s, p in game.pieces().items() if p.color is Color.WHITE}
    assert white_ranks == set(range(men // (size // 2)))


@pytest.mark.parametrize(
    ("variant", "notation", "mark", "gametype"),
    [
        ("traditional", "algebraic", "x", "26"),
        ("russian", "algebraic", ":", "25"),
        ("brazilian", "algebraic", "x", "26"),
        ("international", "numeric", "x", "20"),
        ("english", "numeric", "x", "21"),
    ],
)
def test_notation_and_pdn(variant: str, notation: str, mark: str, gametype: str) -> None:
    v = find_variant(variant)
    assert v.notation == notation
    assert v.capture_mark == mark
    assert v.gametype.split(",")[0] == gametype


# -- the draw rules of docs/rules/conventions.md#draws ---------------------------------------------


def _draw_table(variant: str) -> set[tuple[object, ...]]:
    out = set()
    for d in find_variant(variant).draws:
        if d.kind == "repetition":
            out.add(("repetition", d.count))
        else:
            out.add(
                (
                    d.counter.value if d.counter else None,
                    d.plies,
                    tuple(sorted(p.text for p in d.strong)),
                    tuple(sorted(p.text for p in d.weak)),
                    d.weak_on_main_road,
                    d.unless_capture,
                    tuple(d.total),
                    d.both_have_kings,
                )
            )
    return out


NONE = ((), (), False, False, (), False)
DRAWS = {
    "traditional": {
        ("repetition", 3),
        ("reversible", 30, *NONE),
        (None, 0, ("1K",), ("1K",), False, True, (), False),
        (None, 0, ("2K",), ("1K",), False, True, (), False),
        (None, 0, ("3K",), ("1K",), True, True, (), False),
    },
    "russian": {
        ("repetition", 3),
        ("material", 10, ("1K+2M", "2K+1M", "3K"), ("1K",), True, False, (), False),  # 7.2.7
        ("material", 10, ("1K", "1K+1M", "2K"), ("1K",), False, False, (), False),  # 7.2.8
        ("material", 30, ("3+K",), ("1K",), False, False, (), False),  # 7.2.4
        ("reversible", 30, *NONE),  # 7.2.5
        ("material", 60, (), (), False, False, (4, 5), True),  # 7.2.6
        ("material", 120, (), (), False, False, (6, 7), True),
    },
    "brazilian": {("repetition", 3), ("reversible", 40, *NONE)},
    "international": {
        ("repetition", 3),
        ("reversible", 50, *NONE),
        ("material", 32, ("1K+2M", "2K+1M", "3K"), ("1K",), False, False, (), False),
        ("material", 10, ("1K", "1K+1M", "2K"), ("1K",), False, False, (), False),
    },
    "english": {("repetition", 3), ("reversible", 80, *NONE)},
}


@pytest.mark.parametrize("variant", CLASSIC)
def test_draw_rules(variant: str) -> None:
    assert _draw_table(variant) == DRAWS[variant]
    names = [d.name for d in find_variant(variant).draws]
    assert all(names) and len(set(names)) == len(names)


def test_russian_draw_ids() -> None:
    ids = [d.rule_id for d in find_variant("russian").draws]
    assert sorted(ids) == ["7.2.3", "7.2.4", "7.2.5", "7.2.6a", "7.2.6b", "7.2.7", "7.2.8"]
    for d in find_variant("russian").draws:
        assert d.rule_id[:5] in d.name


def test_counters_are_the_documented_ones() -> None:
    assert {c.value for c in Counter} == {"reversible", "material"}


# -- the registry -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        ("russian", "russian"),
        ("RUSSIAN", "russian"),
        (" shashki ", "russian"),
        ("Russian draughts", "russian"),
        ("Русские шашки", "russian"),
        ("25", "russian"),
        ("25,W,8,8,A0,0", "russian"),
        ("checkers", "english"),
        ("american", "english"),
        ("21", "english"),
        ("10x10", "international"),
        ("20", "international"),
        ("dammen", "international"),
        ("26", "brazilian"),  # the primary variant of GameType 26
        ("classic", "traditional"),
        ("traditional", "traditional"),
    ],
)
def test_find_variant(name: str, variant: str) -> None:
    assert find_variant(name).id == variant


@pytest.mark.parametrize("name", ["", "chess", "99", "russia", "x,25"])
def test_unknown_variant(name: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant(name)
    assert repr(name) in str(info.value)
    assert "russian" in str(info.value)  # the message lists what is known


def test_registry_order_and_uniqueness() -> None:
    ids = [v.id for v in all_variants()]
    assert ids[:5] == list(CLASSIC)
    assert len(ids) == len(set(ids))
    keys: dict[str, str] = {}
    for v in all_variants():
        for key in (v.id, *v.aliases):
            assert find_variant(key) is v, key
            assert keys.setdefault(key.lower(), v.id) == v.id


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_every_variant_is_complete(variant: str) -> None:
    v = find_variant(variant)
    assert v.name and v.summary and len(v.card) > 100
    assert "\n\n" in v.card or len(v.card) < 400  # prose, in paragraphs
    game = Game(v)
    assert game.legal_moves(), "the start position has moves"
    assert game.outcome() is None
    assert game_state(Game(v, game.fen())) == game_state(game)


# -- definition files -------------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    return path


RUSSIAN = (ROOT / "variants" / "russian.toml").read_text(encoding="utf-8")


def test_a_copied_file_loads(tmp_path: Path) -> None:
    v = load_variant_file(_write(tmp_path, RUSSIAN.replace('id = "russian"', 'id = "copy"')))
    assert v.id == "copy"
    assert Game(v).perft(3) == 302


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (('capture_choice = "free"', 'capture_choice = "most"'), "capture_choice"),
        (('removal = "end-of-move"', 'removal = "later"'), "removal"),
        (("king_moves_fly = true", 'king_moves_fly = "yes"'), "king_moves_fly"),
        (('first = "white"', 'first = "red"'), "first"),
        (('man_moves = ["diagonal-forward"]', 'man_moves = ["sideways"]'), "sideways"),
        (("[rules]", "[rules]\nflying_men = true"), "flying_men"),
        (('start = "W:W21-32:B1-12"', 'start = "W:W21-40:B1-12"'), "FEN"),
        (('strong = ["3+K"]', 'strong = ["3Q"]'), "3Q"),
        (("width = 8", "width = 20"), "20"),
        (('id = "russian"', 'id = "russian'), "TOML"),
    ],
)
def test_bad_definition_files(tmp_path: Path, change: tuple[str, str], words: str) -> None:
    old, new = change
    assert old in RUSSIAN
    path = _write(tmp_path, RUSSIAN.replace(old, new, 1).replace('id = "russian"', 'id = "copy"'))
    with pytest.raises(VariantFileError) as info:
        load_variant_file(path)
    message = str(info.value)
    assert str(path) in message and words in message, message


def test_missing_definition_file(tmp_path: Path) -> None:
    with pytest.raises(VariantFileError):
        load_variant_file(tmp_path / "absent.toml")
