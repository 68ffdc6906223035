"""What a variant's moves can never undo, as its generator declares it
(``MoveGenerator.irreversible``), and the repetition rule that relies on it.

``Game.repetitions`` and the search look for an earlier occurrence of a position only
back to the last move the generator declares irreversible: a man's move (MEN), a capture
or a crowning (MATERIAL), or none (NOTHING).  A claim too strong hides a repetition, so
every engine and every modifier (on hosts of each kind) is checked two ways:

* exhaustively on small positions: every position reachable (up to a bound) is explored,
  and no move of a kind the generator declares irreversible may lie on a cycle of the
  move graph, i.e. no position before it may come back after it.  Where the declaration
  is weaker than the standard games' (NOTHING, or MATERIAL with men moving forward
  only), one of the positions must show such a cycle: the declaration is as strong as
  the rules allow;
* on random games that seek repetitions (a move back to a position met before is
  preferred): at every ply ``Game.repetitions()`` and the search's count equal a count
  over the whole game.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki.engine.search import Search, _history_keys
from shashki.rules import Game, Termination, Variant, all_variants, find_variant, load_variant_file
from shashki.rules.endrules import EndRules
from shashki.rules.game import game_state
from shashki.rules.notation import parse_move
from shashki.rules.switches import Irreversible

MEN, MATERIAL, NOTHING = Irreversible.MEN, Irreversible.MATERIAL, Irreversible.NOTHING

#: Variants made for these tests: each modifier on hosts of each kind (an orthogonal host
#: whose men step sideways, the Bashni and Artamonov engines) and modifiers together.
SYNTHETIC = {
    "t-turkish-demotion": 'host = "turkish"\nmodifiers = ["demotion"]',
    "t-turkish-self-capture": 'host = "turkish"\nmodifiers = ["self-capture"]',
    "t-turkish-move-opponent": 'host = "turkish"\nmodifiers = ["move-opponent"]',
    "t-turkish-double-move": 'host = "turkish"\nmodifiers = ["double-move"]',
    "t-turkish-giveaway": 'host = "turkish"\nmodifiers = ["giveaway"]',
    "t-russian-demotion": 'host = "russian"\nmodifiers = ["demotion"]',
    "t-russian-move-opponent": 'host = "russian"\nmodifiers = ["move-opponent"]',
    "t-bashni-move-opponent": 'host = "bashni"\nmodifiers = ["move-opponent"]',
    "t-bashni-double-move": 'host = "bashni"\nmodifiers = ["double-move"]',
    "t-bashni-giveaway": 'host = "bashni"\nmodifiers = ["giveaway"]',
    "t-artamonov-giveaway": 'host = "artamonov"\nmodifiers = ["giveaway"]',
    "t-demotion-self-capture": 'host = "traditional"\nmodifiers = ["demotion", "self-capture"]',
    "t-demotion-move-opponent": 'host = "traditional"\nmodifiers = ["demotion", "move-opponent"]',
    "t-demotion-double-move": 'host = "traditional"\nmodifiers = ["demotion", "double-move"]',
    "t-move-opponent-double-move": (
        'host = "traditional"\nmodifiers = ["move-opponent", "double-move"]'
    ),
    "t-self-capture-move-opponent": (
        'host = "traditional"\nmodifiers = ["self-capture", "move-opponent"]'
    ),
}

_MADE: dict[str, Variant] = {}


def variant_of(name: str) -> Variant:
    """A registered variant, or one of SYNTHETIC (loaded once from a temporary file)."""
    if name not in SYNTHETIC:
        return find_variant(name)
    if name not in _MADE:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{name}.toml"
            path.write_text(f'id = "{name}"\nname = "{name}"\n{SYNTHETIC[name]}\n', "utf-8")
            _MADE[name] = load_variant_file(path)
    return _MADE[name]


#: What each generator declares.  The checks below show each claim holds, and each claim
#: weaker than MEN is as strong as it can be.
EXPECTED = {
    "traditional": MEN,
    "russian": MEN,
    "brazilian": MEN,
    "international": MEN,
    "english": MEN,
    "diagonal": MEN,
    "wolf-sheep": MEN,
    "giveaway": MEN,
    "giveaway-russian": MEN,
    "self-capture": MEN,
    "move-opponent": MEN,
    "double-move": MEN,
    # docs/rules/national.md#pool, #czech, #canadian, #malaysian: men only move forward
    "pool": MEN,
    "czech": MEN,
    "canadian": MEN,
    "malaysian": MEN,
    "killer": MEN,
    "frisian": MEN,
    "frysk": MEN,
    "breakthrough": MEN,
    "antidraughts": MEN,
    # docs/rules/national.md#italian, #spanish, #portuguese, #sri-lankan: men only move forward
    "italian": MEN,
    "spanish": MEN,
    "portuguese": MEN,
    "sri-lankan": MEN,
    "thai": MEN,  # docs/rules/national.md#thai: men only move forward
    "turkish": MATERIAL,  # men step sideways and back
    "tama": MATERIAL,
    "tama-armenian": MATERIAL,
    "artamonov": MATERIAL,  # a man is moved forward by either player
    "bashni": NOTHING,  # a prisoner comes back up its column
    "demotion": NOTHING,  # a demoted king is crowned again
    "t-turkish-demotion": NOTHING,
    "t-turkish-self-capture": MATERIAL,
    "t-turkish-move-opponent": MATERIAL,
    "t-turkish-double-move": MATERIAL,
    "t-turkish-giveaway": MATERIAL,
    "t-russian-demotion": NOTHING,
    "t-russian-move-opponent": MEN,
    "t-bashni-move-opponent": NOTHING,
    "t-bashni-double-move": NOTHING,
    "t-bashni-giveaway": NOTHING,
    "t-artamonov-giveaway": MATERIAL,
    "t-demotion-self-capture": NOTHING,
    "t-demotion-move-opponent": NOTHING,
    "t-demotion-double-move": NOTHING,
    "t-move-opponent-double-move": MEN,
    "t-self-capture-move-opponent": MEN,
}

#: Small positions explored exhaustively (up to LIMIT positions each), by kind of board;
#: kings and men near their crowning row, so that captures and crownings are in reach.
_DIAGONAL = ["B:WKc7,e7:BKd6,Kg5", "W:WKh4,a3:BKg1,a5", "W:Wg5,Kc1:Bf6,Kh8,b4"]
_ORTHOGONAL = ["W:Wa5:BKe2,Kc3", "W:WKa1,b6:Bh3,Kh8", "W:Wc6,Ka1:Bd3,Kh8"]
_FAMILY = {
    "english": ["W:WK1,10:BK32,23", "W:W27,K3:B6,K29"],
    "international": ["W:WK46,28:BK5,17", "W:W7,K48:B44,K3"],
    "bashni": ["W:WKb2:BKh8,e5=WWB", "W:Wg5,Kc1:Bf6=wb,Kh8"],
    "artamonov": ["W:Nd8,h6,a7,e1,d2", "W:NK1,10,23,K30"],
    "wolf-sheep": ["W:WKe1:Bb8,d8,f8,h8", "W:WKc5:Bb8,d6,f6,h8"],
    # the first king ends the game: men only (a side to move with a king is no position)
    "breakthrough": ["W:W7,12,28:B18,23,44", "W:W16,27:B22,29,34"],
}
#: Positions that show a move of a kind the standard games cannot undo undone.
_EXTRA = {
    "tama-armenian": ["B:WKb8,b5:Ba2"],  # a man steps sideways and back
    "t-turkish-demotion": ["B:WKc7,Kc8:BKh7,f2,Kd8"],
    "t-demotion-double-move": ["W:WKf8:BKc5,Ka7"],
}
LIMIT = 2000


def positions(name: str) -> list[str]:
    """The small positions explored for the variant ``name``."""
    variant = variant_of(name)
    if variant.family in _FAMILY:
        out = _FAMILY[variant.family]
    elif variant.id in _FAMILY:
        out = _FAMILY[variant.id]
    elif variant.board.all_squares:
        out = _ORTHOGONAL
    elif variant.numeric:
        out = _FAMILY["international" if variant.board.width == 10 else "english"]
    else:
        out = _DIAGONAL
    return out + _EXTRA.get(name, [])


#: Move sequences that come back to their start across a capture or a crowning, where
#: the small positions are too many to explore (a Bashni prisoner comes back up).
CYCLES = {
    "demotion": ("B:WKh4,a3:BKg1,a5", "g1-f2 h4xe1 f2-g1 e1-h4"),  # the example
    "bashni": (
        "W:WKb2:BKh8,e5=WWB",
        "b2:g7 h8:f6:d4 e5:c3 g7-h8 d4-e3 h8:a1 e3-c1 c3-h8 c1-b2 a1:e5",
    ),
    "t-bashni-giveaway": (
        "W:WKb2:BKh8,e5=WWB",
        "b2:g7 h8:f6:d4 e5:c3 g7-h8 d4-e3 h8:a1 e3-c1 c3-h8 c1-b2 a1:e5",
    ),
    "t-bashni-move-opponent": (
        "W:WKb2:BKh8,e5=WWB",
        "b2:f6 e5-f4 f4-h6 h8:a1 h6-c1 f6-h8 c1-b2 a1:e5",
    ),
    "t-bashni-double-move": (
        "W:We3=WW:BKc3,a1=WB",
        "e3-c1 c1-b2 c3-h8 a1:c3 b2:d4 c3-e1 h8:b2 d4-e5 e1-f2 f2-e3 b2-a1 e5-c3",
    ),
}


def test_every_variant_is_listed() -> None:
    assert {v.id for v in all_variants()} <= set(EXPECTED)
    assert set(SYNTHETIC) <= set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_declared(name: str) -> None:
    assert variant_of(name).generator.irreversible is EXPECTED[name]


# -- the move graph of small positions ----------------------------------------------------


def kinds_on_cycles(variant: Variant, fen: str, limit: int = LIMIT) -> tuple[set[str], set[str]]:
    """The kinds of move ("capture", "crowning", "man", "king") in the graph of positions
    reachable from ``fen`` (the first ``limit`` of them, breadth first), and those that
    lie on a cycle: a move on a cycle is one after which an earlier position comes back.

    Positions are told apart by the repetition key, as the repetition rule does.
    """
    gen = variant.generator
    start = game_state(Game(variant, fen))
    index = {gen.key(start): 0}
    positions = [start]
    edges: list[tuple[int, int, str]] = []
    i = 0
    while i < len(positions) and len(positions) < limit:
        pos = positions[i]
        for mv in gen.moves(pos):
            child = gen.apply(pos, mv)
            if mv[4]:
                kind = "capture"
            elif pos[2] & mv[2]:
                kind = "king"
            elif gen.host_position(child)[2] & mv[3]:
                kind = "crowning"
            else:
                kind = "man"
            key = gen.key(child)
            j = index.get(key)
            if j is None:
                j = index[key] = len(positions)
                positions.append(child)
            edges.append((i, j, kind))
        i += 1
    component = _components(len(positions), edges)
    return {kind for _, _, kind in edges}, {
        kind for a, b, kind in edges if component[a] == component[b]
    }


def _components(n: int, edges: list[tuple[int, int, str]]) -> list[int]:
    """The strongly connected component of every node (Tarjan's algorithm, iterative)."""
    succ: list[list[int]] = [[] for _ in range(n)]
    for a, b, _ in edges:
        succ[a].append(b)
    order = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = found = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, at = work.pop()
            if at == 0:
                order[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            for k in range(at, len(succ[node])):
                nxt = succ[node][k]
                if order[nxt] < 0:
                    work.append((node, k + 1))
                    work.append((nxt, 0))
                    break
                if on_stack[nxt]:
                    low[node] = min(low[node], order[nxt])
            else:
                if low[node] == order[node]:
                    while True:
                        member = stack.pop()
                        on_stack[member] = False
                        comp[member] = found
                        if member == node:
                            break
                    found += 1
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return comp


def play(game: Game, text: str) -> list[str]:
    """Play the moves of ``text``; the kind of each move."""
    kinds = []
    for word in text.split():
        move = parse_move(game.variant, word, game.legal_moves(), game_state(game))
        before = game_state(game)
        game.push(move)
        if move.is_capture:
            kinds.append("capture")
        elif before[2] >> move.start & 1:
            kinds.append("king")
        elif game.variant.generator.host_position(game_state(game))[2] >> move.end & 1:
            kinds.append("crowning")
        else:
            kinds.append("man")
    return kinds


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_declaration_holds_on_small_positions(name: str) -> None:
    variant = variant_of(name)
    level = variant.generator.irreversible
    explored: set[str] = set()
    shown: set[str] = set()
    for fen in positions(name):
        kinds, on_cycles = kinds_on_cycles(variant, fen)
        explored |= kinds
        shown |= on_cycles
        if level >= MATERIAL:
            assert not on_cycles & {"capture", "crowning"}, (fen, on_cycles)
        if level >= MEN:
            assert "man" not in on_cycles, (fen, on_cycles)
    # the positions put the claim to the test: captures and crownings were made
    if variant.rules.man_captures or variant.rules.king_captures:
        assert "capture" in explored
    if variant.rules.promotion:
        assert "crowning" in explored
    # a claim weaker than the standard games' is needed: a position shows why
    if name in CYCLES:
        fen, text = CYCLES[name]
        shown |= set(play(Game(variant, fen), text))
    if level == NOTHING:
        assert shown & {"capture", "crowning"}, shown
    elif level == MATERIAL:
        assert "man" in shown, shown


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_a_position_comes_back_across_a_capture(name: str) -> None:
    variant = variant_of(name)
    fen, text = CYCLES[name]
    game = Game(variant, fen)
    key = variant.generator.key
    start = key(game_state(game))
    kinds = play(game, text)
    assert key(game_state(game)) == start
    assert {"capture", "crowning"} & set(kinds)
    assert game.repetitions() == 2
    play(game, text)
    assert game.repetitions() == 3
    ends = EndRules(variant)
    keys = _history_keys(game, ends)
    assert ends.repetitions(keys, game.reversible_plies, game.material_plies) == 3
    outcome = game.outcome()
    if any(rule.kind == "repetition" for rule in variant.draws):
        assert outcome is not None and outcome.termination is Termination.REPETITION
    assert outcome == ends.outcome(
        game_state(game), game.legal_moves(), game.reversible_plies, game.material_plies, keys
    )


# -- random games that seek repetitions ------------------------------------------------------

SEEK = settings(
    max_examples=3,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@SEEK
@given(seed=st.integers(0, 2**32 - 1))
def test_repetitions_count_every_earlier_occurrence(name: str, seed: int) -> None:
    variant = variant_of(name)
    rng = random.Random(seed)
    starts = [variant.start, *positions(name)]
    if name in CYCLES:
        starts.append(CYCLES[name][0])
    game = Game(variant, rng.choice(starts))
    ends = EndRules(variant)
    key = variant.generator.key
    seen = [key(game_state(game))]
    for _ in range(160):
        count = seen.count(seen[-1])
        assert game.repetitions() == count, (game.fen(), [str(m) for m in game.move_stack])
        keys = _history_keys(game, ends)
        assert ends.repetitions(keys, game.reversible_plies, game.material_plies) == count
        moves = game.legal_moves()
        if not moves:
            break
        # a move back to a position met before, when there is one, most of the time
        back = [m for m in moves if _after(game, m) in seen]
        game.push_unchecked(rng.choice(back if back and rng.random() < 0.8 else moves))
        seen.append(key(game_state(game)))


def _after(game: Game, move: object) -> object:
    child = game.copy()
    child.push_unchecked(move)  # type: ignore[arg-type]
    return child.variant.generator.key(game_state(child))


def test_the_search_sees_a_threefold_repetition_across_a_capture() -> None:
    # White is a man ahead: every move scores above a draw but e1-h4, which brings the
    # start back a third time (after a capture and a crowning since the first time)
    game = Game("demotion", "B:WKh4,a3,c1:BKg1,a5")
    play(game, "g1-f2 h4xe1 f2-g1 e1-h4 g1-f2 h4xe1 f2-g1")
    result = Search(game.variant).search(game, depth=3)
    scores = {str(move): score for move, score in result.root_scores}
    back = parse_move(game.variant, "e1-h4", game.legal_moves(), game_state(game))
    assert scores.pop(str(back)) == 0
    assert min(scores.values()) < 0 < max(scores.values())
