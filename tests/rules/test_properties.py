"""Property tests over every registered variant, with seeded random games.

For each variant of the registry (so a new variant file is covered the day it is
added), hypothesis plays random games to their end and checks at every ply:

* the FEN round trip: ``Game(variant, game.fen())`` has the same position, FEN,
  counters and legal moves;
* the move text round trip: every legal move, written short or in full, reads back as
  itself;
* move identity (docs/rules/conventions.md#move-identity): no two legal moves share start, end and
  resulting position;

then that the game ended with a named outcome, and that popping every move restores
each earlier position, FEN, counter and move list exactly.

Last, the generator of every variant that the plain rule switches describe is compared,
move for move, with a small reference generator written from docs/rules/switches.md#switches alone,
on random positions.

The runs are derandomized (the same games on every machine) and small, so the file
stays fast.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.rules import Color, Game, Termination, all_variants, find_variant
from shashki.rules.game import game_state
from shashki.rules.notation import move_text, parse_move

VARIANTS = [v.id for v in all_variants()]
#: Plies after which a random game counts as endless (every variant has a draw rule or
#: a goal that ends random play long before this).
MAX_PLIES = 3000

SETTINGS = settings(
    max_examples=4,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game_state(game),
        game.fen(),
        game.turn,
        game.ply,
        game.reversible_plies,
        game.material_plies,
        sorted(game.legal_moves()),
    )


def check_fen_round_trip(game: Game) -> None:
    fen = game.fen()
    again = Game(game.variant, fen)
    assert game_state(again) == game_state(game), fen
    assert again.fen() == fen
    assert again.turn is game.turn
    assert again.reversible_plies == game.reversible_plies
    assert again.fullmove_number == game.fullmove_number
    assert sorted(again.legal_moves()) == sorted(game.legal_moves()), fen


def check_move_texts(game: Game) -> None:
    variant = game.variant
    legal = game.legal_moves()
    for move in legal:
        for text in (move_text(variant, move, legal), move_text(variant, move, full=True)):
            assert parse_move(variant, text, legal, game_state(game)) == move, (text, game.fen())


def check_move_identity(game: Game) -> None:
    after: dict[tuple[int, int, object], object] = {}
    for move in game.legal_moves():
        copy = game.copy()
        copy.push_unchecked(move)
        key = (move.start, move.end, game_state(copy))
        assert key not in after, f"{move!r} and {after[key]!r} are one move in {game.fen()}"
        after[key] = move


def new_game(variant: str, rng: random.Random) -> Game:
    """A game from the start, or from one of the variant's start options (the wolf's
    square, Artamonov's first mover), chosen by ``rng`` so that nothing is left to lot."""
    options = find_variant(variant).start_options
    if options:
        return Game(variant, start=rng.choice([label for label, _ in options]))
    return Game(variant)


def play_random_game(variant: str, rng: random.Random) -> Game:
    game = new_game(variant, rng)
    history = [snapshot(game)]
    while game.outcome() is None:
        assert game.ply < MAX_PLIES, f"{variant}: no end after {MAX_PLIES} plies: {game.fen()}"
        check_fen_round_trip(game)
        check_move_texts(game)
        check_move_identity(game)
        legal = game.legal_moves()
        assert legal, "a game with no legal move must have an outcome"
        played = game.push(rng.choice(legal))
        assert game.move_stack[-1] == played
        history.append(snapshot(game))

    outcome = game.outcome()
    assert outcome is not None
    assert isinstance(outcome.termination, Termination) and outcome.termination.value
    assert outcome.rule, outcome
    assert outcome.winner in (None, Color.WHITE, Color.BLACK)
    if outcome.termination is Termination.NO_LEGAL_MOVES:
        assert game.legal_moves() == []
    check_fen_round_trip(game)

    # pop everything: each earlier state comes back exactly
    for _ in range(len(history) - 1):
        history.pop()
        played = game.move_stack[-1]
        assert game.pop() == played
        assert snapshot(game) == history[-1]
    assert game.move_stack == []
    with pytest.raises(IndexError):
        game.pop()
    return game


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_random_games(variant: str, rng: random.Random) -> None:
    play_random_game(variant, rng)


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(rng=st.randoms(use_true_random=False), plies=st.integers(0, 60))
def test_copy_is_independent(variant: str, rng: random.Random, plies: int) -> None:
    game = new_game(variant, rng)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        game.push(rng.choice(game.legal_moves()))
    before = snapshot(game)
    copy = game.copy()
    assert snapshot(copy) == before
    if copy.outcome() is None:
        copy.push(rng.choice(copy.legal_moves()))
        assert snapshot(game) == before
        copy.pop()
    assert snapshot(copy) == before


def test_move_stack_lists_the_moves_played() -> None:
    # it once read the wrong field of the push stack and raised IndexError
    game = Game("russian")
    played = [game.push(game.legal_moves()[0]) for _ in range(3)]
    assert game.move_stack == played


# -- the move generator against a plain reference ---------------------------------------
#
# A deliberately simple generator written from docs/rules/switches.md#switches alone (squares as
# (file, rank), a dict for the board, a depth-first search over every jump), for every variant
# whose moves the plain rule switches describe. The engine's legal moves must be exactly
# the reference's, move for move, on random positions: the same moves by
# docs/rules/conventions.md#move-identity (start, end, captured pieces, crowned or not), each with a
# path the reference also finds and its captured squares in jump order.

_REL = {  # relative direction -> (file step, rank step) for White; Black turns it round
    "forward": (0, 1),
    "forward-right": (1, 1),
    "right": (1, 0),
    "back-right": (1, -1),
    "back": (0, -1),
    "back-left": (-1, -1),
    "left": (-1, 0),
    "forward-left": (-1, 1),
}

Sq = tuple[int, int]
Key = tuple[Sq, Sq, frozenset[Sq], bool]


def _dirs(names: tuple[str, ...], side: int) -> list[Sq]:
    sign = -1 if side else 1
    return [(sign * _REL[n][0], sign * _REL[n][1]) for n in names]


def reference_moves(
    rules,
    width: int,
    height: int,
    all_squares: bool,
    board: dict[Sq, tuple[int, bool]],
    side: int,
    mirrored: bool = False,
) -> dict[Key, set[tuple[tuple[Sq, ...], tuple[Sq, ...]]]]:
    """Every legal move, keyed by (start, end, captured set, crowned), with the
    (path, captured in order) pairs that make it."""

    def on(s: Sq) -> bool:
        dark = (s[0] + s[1]) % 2 == int(mirrored)  # a1 light on a mirrored board
        return 0 <= s[0] < width and 0 <= s[1] < height and (all_squares or dark)

    far_rank = height - 1 if side == 0 else 0
    immediate = rules.removal.value == "immediate"
    promote_now = rules.promotion and rules.promotion_in_capture.value == "continue-as-king"
    stop = rules.promotion and rules.promotion_in_capture.value == "stop"
    majority = rules.capture_choice.value == "majority"
    must_continue = rules.king_landing.value == "must-continue"
    halt_behind_king = rules.king_landing.value == "behind-last-king"
    land_behind = rules.king_landing.value == "directly-behind"  # docs/rules/switches.md#landing
    man_caps = _dirs(rules.man_captures, side)
    king_caps = _dirs(rules.king_captures, 0)
    found: dict[Key, set[tuple[tuple[Sq, ...], tuple[Sq, ...]]]] = {}

    def blocked(s: Sq, start: Sq, taken: list[Sq]) -> bool:
        """Is square s occupied for the moving piece?"""
        if s == start:
            return False
        if s in taken:
            return not immediate
        return s in board

    def jumps(cur: Sq, king: bool, start: Sq, taken: list[Sq], last: Sq | None):
        """(victim, landing squares, direction) of every jump from cur."""
        out = []
        for d in king_caps if king else man_caps:
            if rules.no_180 and last is not None and d == (-last[0], -last[1]):
                continue
            s = (cur[0] + d[0], cur[1] + d[1])
            if king and rules.king_captures_fly:
                while on(s) and not blocked(s, start, taken):
                    s = (s[0] + d[0], s[1] + d[1])
            if not on(s) or not blocked(s, start, taken):
                continue
            if s in taken or board[s][0] == side:
                continue  # own piece, or a captured one (still there, or gone)
            if not king and board[s][1] and not rules.man_captures_kings:
                continue  # a man may not jump a king (docs/rules/switches.md#men-and-kings)
            victim = s
            lands = []
            s = (s[0] + d[0], s[1] + d[1])
            while on(s) and not blocked(s, start, taken):
                lands.append(s)
                if not (king and rules.king_captures_fly) or land_behind:
                    break
                s = (s[0] + d[0], s[1] + d[1])
            if lands:
                out.append((victim, lands, d))
        return out

    def search(
        cur: Sq, king: bool, crowned: bool, start: Sq, path: list[Sq], taken: list[Sq], last
    ) -> None:
        options = jumps(cur, king, start, taken, last)
        if not options:
            if (
                halt_behind_king
                and king
                and taken
                and board[taken[-1]][1]
                and cur != (taken[-1][0] + last[0], taken[-1][1] + last[1])
            ):
                # docs/rules/switches.md#landing: a king taken last is jumped to just beyond it
                return
            if taken:
                crown = crowned or (rules.promotion and not king and cur[1] == far_rank)
                key = (start, cur, frozenset(taken), crown)
                found.setdefault(key, set()).add((tuple(path), tuple(taken)))
            return
        for victim, lands, d in options:
            taken.append(victim)
            if king and must_continue:
                going_on = [s for s in lands if jumps(s, True, start, taken, d)]
                lands = going_on or lands
            for land in lands:
                path.append(land)
                if not king and land[1] == far_rank and (promote_now or stop):
                    if stop:
                        key = (start, land, frozenset(taken), True)
                        found.setdefault(key, set()).add((tuple(path), tuple(taken)))
                    else:
                        search(land, True, True, start, path, taken, d)
                else:
                    search(land, king, crowned, start, path, taken, d)
                path.pop()
            taken.pop()

    for sq_, (color, king) in board.items():
        if color == side:
            search(sq_, king, False, sq_, [sq_], [], None)
    if found and majority:
        best = max(len(k[2]) for k in found)
        found = {k: v for k, v in found.items() if len(k[2]) == best}
    elif found and rules.precedence:
        # docs/rules/switches.md#precedence, per path (king-order depends on the path), higher
        # better
        def value(start: Sq, taken: tuple[Sq, ...]) -> tuple[object, ...]:
            kings = [i for i, t in enumerate(taken) if board[t][1]]
            values = {
                "count": len(taken),
                "value": (len(taken) + len(kings), -len(kings)),
                "with-king": board[start][1],
                "kings": len(kings),
                "king-order": [-i for i in kings],
            }
            return tuple(values[c] for c in rules.precedence)

        top = max(value(k[0], t) for k, paths in found.items() for _, t in paths)
        found = {
            k: {(p, t) for p, t in paths if value(k[0], t) == top} for k, paths in found.items()
        }
        found = {k: v for k, v in found.items() if v}
    if found and rules.capture_mandatory:
        return found
    for sq_, (color, king) in board.items():
        if color != side:
            continue
        fly = king and rules.king_moves_fly
        for d in _dirs(rules.king_moves, 0) if king else _dirs(rules.man_moves, side):
            s = (sq_[0] + d[0], sq_[1] + d[1])
            while on(s) and s not in board:
                crown = rules.promotion and not king and s[1] == far_rank
                found.setdefault((sq_, s, frozenset(), crown), set()).add(((sq_, s), ()))
                if not fly:
                    break
                s = (s[0] + d[0], s[1] + d[1])
    return found


def _plain(variant) -> bool:
    from shashki.rules.movegen import MoveGenerator

    return type(variant.generator) is MoveGenerator


def _plain_rule_sets() -> list[str]:
    """One variant per distinct (rules, board) among the plain ones: variants that only
    change the start position or the goal (diagonal, giveaway) move like their host."""
    seen: dict[object, str] = {}
    for v in all_variants():
        if _plain(v):
            seen.setdefault(
                (v.rules, v.board.width, v.board.height, v.board.all_squares, v.board.mirrored),
                v.id,
            )
    return list(seen.values())


PLAIN = _plain_rule_sets()


def check_against_reference(variant: str, pieces: dict[int, tuple[int, bool]], side: int) -> None:
    """The engine's legal moves in the position ``pieces`` (square -> (colour, king)),
    ``side`` to move, are exactly the reference's."""
    v = find_variant(variant)
    geo = v.board
    board: dict[Sq, tuple[int, bool]] = {}
    items = []
    for pos, (color, king) in pieces.items():
        f, r = geo.file_of[pos], geo.rank_of[pos]
        far = geo.height - 1 if color == 0 else 0
        if not king and r == far and v.rules.promotion:
            king = True  # no man stands on its own crowning row
        board[(f, r)] = (color, king)
        items.append((color, ("K" if king else "") + geo.name(pos)))
    fen = "{}:W{}:B{}".format(
        "B" if side else "W",
        ",".join(t for c, t in items if c == 0),
        ",".join(t for c, t in items if c == 1),
    )
    game = Game(v, fen)
    expected = reference_moves(
        v.rules, geo.width, geo.height, geo.all_squares, board, side, geo.mirrored
    )

    def at(pos: int) -> Sq:
        return (geo.file_of[pos], geo.rank_of[pos])

    got: dict[Key, object] = {}
    for move in game.legal_moves():
        before = game.piece_at(move.start)
        after = game.copy()
        after.push_unchecked(move)
        crowned = not before.is_king and after.piece_at(move.end).is_king
        key = (at(move.start), at(move.end), frozenset(at(c) for c in move.captured), crowned)
        assert key not in got, f"{fen}: {move!r} and {got[key]!r} are one move"
        got[key] = move
        assert key in expected, f"{fen}: the engine's {move!r} is not legal by the reference"
        walk = (tuple(at(p) for p in move.path), tuple(at(c) for c in move.captured))
        assert walk in expected[key], f"{fen}: {move!r} has a path the reference does not know"
    missing = [k for k in expected if k not in got]
    assert not missing, f"{fen}: the engine misses {sorted(expected[missing[0]])[0]}"


@pytest.mark.parametrize("variant", PLAIN)
@settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_generator_agrees_with_a_reference(variant: str, data: st.DataObject) -> None:
    squares = list(find_variant(variant).board.squares)
    pieces = data.draw(
        st.dictionaries(
            st.sampled_from(squares), st.tuples(st.integers(0, 1), st.booleans()), max_size=14
        ),
        label="pieces",
    )
    check_against_reference(variant, pieces, data.draw(st.integers(0, 1), label="side"))


@pytest.mark.slow
@pytest.mark.parametrize("variant", PLAIN)
def test_generator_agrees_with_a_reference_at_length(variant: str) -> None:
    """The same on 4000 seeded random positions per variant (a regression net for work
    on the generator: run with ``pytest -m slow``)."""
    rng = random.Random(f"reference-{variant}")
    squares = list(find_variant(variant).board.squares)
    for _ in range(4000):
        count = rng.randint(2, 16)
        pieces = {
            pos: (rng.randint(0, 1), rng.random() < 0.3) for pos in rng.sample(squares, count)
        }
        check_against_reference(variant, pieces, rng.randint(0, 1))
