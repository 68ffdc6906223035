"""The rule modifiers on their hosts (docs/rules/modified.md#diagonal, #giveaway, #self-capture,
#demotion, #move-opponent, #double-move): each modifier's own rules in hand-checked positions, and
cross-checks against the host game, move for move where the modifier cannot yet make a difference
and against small reference generators written from docs/rules/modified.md where it can.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from shashki.rules import (
    Color,
    Game,
    Kind,
    Piece,
    Termination,
    Variant,
    find_variant,
    load_variant_file,
)
from shashki.rules.game import game_state
from shashki.rules.movegen import State

from ..conftest import mv, paths

WHITE, BLACK = Color.WHITE, Color.BLACK
FILES = "abcdefgh"


def named(game: Game) -> set[tuple[str, tuple[str, ...]]]:
    """Legal moves as (landing squares, captured squares in order)."""
    geo = game.variant.board
    return {
        ("-".join(geo.name(p) for p in m.path), tuple(geo.name(c) for c in m.captured))
        for m in game.legal_moves()
    }


def at(game: Game, name: str) -> Piece | None:
    return game.piece_at(game.variant.board.parse_square(name))


def board_of(game: Game) -> dict[str, Piece]:
    geo = game.variant.board
    return {geo.name(p): piece for p, piece in game.pieces().items()}


def user_variant(tmp_path: Path, name: str, text: str) -> Variant:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'id = "{name}"\nname = "{name}"\n' + text, encoding="utf-8")
    return load_variant_file(path)


def random_position(rng: random.Random, max_pieces: int = 14) -> str:
    """A FEN of a random 8x8 diagonal position (no man on its own far row)."""
    dark = [(f, r) for f in range(8) for r in range(8) if (f + r) % 2 == 0]
    white, black = [], []
    for f, r in rng.sample(dark, rng.randint(2, max_pieces)):
        color = rng.choice("wb")
        king = rng.random() < 0.25 or (color == "w" and r == 7) or (color == "b" and r == 0)
        (white if color == "w" else black).append(("K" if king else "") + f"{FILES[f]}{r + 1}")
    return f"{rng.choice('WB')}:W{','.join(white)}:B{','.join(black)}"


# -- diagonal (docs/rules/modified.md#diagonal) ----------------------------------------------------


def test_diagonal_start_is_the_one_of_rules_v5() -> None:
    game = Game("diagonal")
    white = "c1 e1 g1 d2 f2 h2 e3 g3 f4 h4 g5 h6".split()
    black = "b8 d8 f8 a7 c7 e7 b6 d6 a5 c5 b4 a3".split()
    assert board_of(game) == {
        **{s: Piece(WHITE, Kind.MAN) for s in white},
        **{s: Piece(BLACK, Kind.MAN) for s in black},
    }
    # the main road is empty
    assert not any(at(game, f"{FILES[i]}{i + 1}") for i in range(8))
    assert game.turn is WHITE
    variant = find_variant("diagonal")
    assert variant.host == "traditional" and variant.rules == find_variant("traditional").rules
    assert variant.draws == find_variant("traditional").draws


def test_diagonal_opening() -> None:
    assert paths(Game("diagonal")) == {"c1-b2", "d2-c3", "e3-d4", "f4-e5", "g5-f6", "h6-g7"}


# -- giveaway (docs/rules/modified.md#giveaway) ----------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "host"), [("giveaway", "traditional"), ("giveaway-russian", "russian")]
)
def test_giveaway_moves_are_the_hosts_move_for_move(variant: str, host: str) -> None:
    def walk(a: Game, b: Game, depth: int) -> int:
        moves = a.legal_moves()
        assert moves == b.legal_moves(), a.fen()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            a.push(m)
            b.push(m)
            assert game_state(a) == game_state(b)
            total += walk(a, b, depth - 1)
            a.pop()
            b.pop()
        return total

    assert walk(Game(variant), Game(host), 3) == 302
    assert Game(variant).perft(5) == Game(host).perft(5)


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_random_positions_have_the_hosts_moves(variant: str) -> None:
    host = find_variant(variant).host
    rng = random.Random(11)
    for _ in range(200):
        fen = random_position(rng)
        assert Game(variant, fen).legal_moves() == Game(host, fen).legal_moves(), fen


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_no_pieces_wins(variant: str) -> None:
    outcome = Game(variant, "W:W:BKa1").outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is WHITE and outcome.rule == "White has no pieces left"


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_blocked_wins(variant: str) -> None:
    # White's man on a1 is blocked by b2 (c3 behind it stops the jump): White wins
    game = Game(variant, "W:Wa1:Bb2,c3")
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is WHITE
    # the same position in the host game is a loss
    host = Game(find_variant(variant).host, "W:Wa1:Bb2,c3").outcome()
    assert host is not None and host.winner is BLACK


def test_giveaway_a_capture_that_gives_everything_away() -> None:
    # White must take d4, and Black must then take the man back: White has nothing left
    game = Game("giveaway", "W:Wc3:Bd4,f6,g7")
    game.push(mv("giveaway", "c3", "e5", captured=("d4",)))
    assert paths(game) == {"f6-d4"}
    game.push(game.legal_moves()[0])
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is WHITE


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
@pytest.mark.parametrize("fen", ["W:WKa1:BKh6", "W:WKa1,Kc1:BKh6", "W:WKc1,Ke1,Kg1:BKh8"])
def test_giveaway_has_no_material_draws(variant: str, fen: str) -> None:
    assert Game(variant, fen).outcome() is None
    assert Game("traditional", fen).outcome() is not None  # drawn in the normal game


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_draw_rules(variant: str) -> None:
    draws = find_variant(variant).draws
    assert [(d.kind, d.counter.value if d.counter else None, d.plies) for d in draws] == [
        ("repetition", None, 0),
        ("count", "reversible", 30),
    ]


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_threefold_repetition(variant: str) -> None:
    game = Game(variant, "W:WKa1:BKh6")
    for i in range(8):
        assert game.outcome() is None, i
        a, b = [("a1", "b2"), ("h6", "f8"), ("b2", "a1"), ("f8", "h6")][i % 4]
        game.push(mv(variant, a, b))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_15_king_moves_each(variant: str) -> None:
    game = Game(variant, "W:WKa1,c1:BKh6:H29:F40")
    game.push(mv(variant, "a1", "b2"))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
    game = Game(variant, "W:WKa1,c1:BKh6:H29:F40")
    game.push(mv(variant, "c1", "d2"))  # a man moved: the count starts again
    assert game.outcome() is None


# -- self-capture (docs/rules/modified.md#self-capture) --------------------------------------------


def test_self_capture_own_jumps_are_optional() -> None:
    # rule 1 and 4: from the start White may jump its own men or simply move
    game = Game("self-capture")
    own_jumps = {"b2-d4", "d2-b4", "d2-f4", "f2-d4", "f2-h4", "h2-f4"}
    quiet = {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
    assert paths(game) == own_jumps | quiet
    assert game.captures() == []  # own jumps are no captures for the compulsion
    game.push(mv("self-capture", "b2", "d4", captured=("c3",)))
    assert at(game, "c3") is None and at(game, "d4") == Piece(WHITE, Kind.MAN)
    # Black now reaches d4 by jumping its own d6 (or f6) first: that is compulsory
    assert named(game) == {("c7-e5-c3", ("d6", "d4")), ("g7-e5-c3", ("f6", "d4"))}


def test_self_capture_may_stop_after_any_own_jump() -> None:
    # rule 4: c1xd2 may stop on e3 or go on over f4
    assert named(Game("self-capture", "W:Wc1,d2,f4:Bh8")) == {
        ("c1-b2", ()),
        ("c1-e3", ("d2",)),
        ("c1-e3-g5", ("d2", "f4")),
        ("d2-c3", ()),
        ("d2-e3", ()),
        ("f4-e5", ()),
        ("f4-g5", ()),
    }


def test_self_capture_enemy_jumps_are_compulsory() -> None:
    # rule 2: c3 must take an enemy man; no quiet move, no own jump
    assert named(Game("self-capture", "W:Wc3,e1:Bd4,b4")) == {
        ("c3-a5", ("b4",)),
        ("c3-e5", ("d4",)),
    }


def test_self_capture_an_enemy_jump_behind_an_own_one_is_compulsory() -> None:
    # the only enemy capture starts by jumping White's own d2: it must be played, in full
    assert named(Game("self-capture", "W:Wc1,d2:Bf4,h8")) == {("c1-e3-g5", ("d2", "f4"))}


def test_self_capture_majority_counts_enemy_pieces_only() -> None:
    # a1 would jump three pieces (two of them White's own): it takes one enemy; e1 takes two
    assert named(Game("self-capture", "W:Wa1,b2,d4,e1:Bd2,b4,f6")) == {
        ("e1-c3-a5", ("d2", "b4")),
        ("e1-c3-e5-g7", ("d2", "d4", "f6")),
    }


def test_self_capture_own_jumps_neither_required_nor_counted() -> None:
    # every sequence takes one enemy piece; own pieces on the way are optional extras
    game = Game("self-capture", "W:Wa1,b2,d4,g1:Bf6,f2,h8")
    assert named(game) == {
        ("a1-c3-e5-g7", ("b2", "d4", "f6")),
        ("g1-e3", ("f2",)),
        ("g1-e3-c5", ("f2", "d4")),
    }
    game.push(mv("self-capture", "g1", "c5", captured=("f2", "d4")))
    assert at(game, "d4") is None and at(game, "f2") is None


def test_self_capture_must_go_on_while_an_enemy_jump_remains() -> None:
    # rule 3: after a1xb2 and c3xd4 the enemy f6 can be jumped: the move may not stop
    assert named(Game("self-capture", "W:Wa1,b2,d4:Bf6")) == {("a1-c3-e5-g7", ("b2", "d4", "f6"))}


def test_self_capture_kings_jump_own_pieces_too() -> None:
    assert named(Game("self-capture", "W:WKa1,c3:Bf6,h8")) == {("a1-d4-g7", ("c3", "f6"))}


def test_self_capture_removing_ones_own_pieces_can_lose() -> None:
    # rule 5: White jumps its own f2 (no enemy jump is reachable: c5 and g5 are taken);
    # Black must take the last white man, and White, to move with no piece, loses
    game = Game("self-capture", "W:Wg1,f2:Bd4,f4,c5,g5")
    assert ("g1-e3", ("f2",)) in named(game)
    game.push(mv("self-capture", "g1", "e3", captured=("f2",)))
    assert game.outcome() is None
    assert paths(game) == {"d4-f2", "f4-d2"}
    game.push(mv("self-capture", "f4", "d2", captured=("e3",)))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is BLACK and outcome.rule == "White has no pieces left"


# -- self-capture against a reference generator ------------------------------------------------

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def self_capture_reference(board: dict[tuple[int, int], str], turn: int) -> set:
    """(start, end, resulting board) of every legal move of docs/rules/modified.md#self-capture on
    the docs/rules/classic.md#traditional host."""
    own = "bB" if turn else "wW"
    forward, far = (-1, 0) if turn else (1, 7)
    sequences: dict = {}
    for start, piece in board.items():
        if piece not in own:
            continue
        king = piece.isupper()

        def free(s: tuple[int, int], start: tuple[int, int] = start) -> bool:
            return s not in board or s == start

        def jumps(cur, taken, start=start, king=king, free=free):  # type: ignore[no-untyped-def]
            out = []
            for df, dr in DIAGONALS:
                f, r = cur[0] + df, cur[1] + dr
                while king and _on(f, r) and free((f, r)):
                    f, r = f + df, r + dr
                victim = (f, r)
                if not _on(f, r) or free(victim) or victim in taken:
                    continue
                lands = []
                f, r = f + df, r + dr
                while _on(f, r) and free((f, r)):
                    lands.append((f, r))
                    if not king:
                        break
                    f, r = f + df, r + dr
                if lands:
                    out.append((victim, lands))
            return out

        def walk(cur, taken, start=start, piece=piece, king=king, jumps=jumps):  # type: ignore[no-untyped-def]
            options = jumps(cur, taken)
            if taken and not any(board[v] not in own for v, _ in options):
                # rule 3: no enemy jump from here, so the move may end here
                left = {s: p for s, p in board.items() if s not in taken and s != start}
                left[cur] = piece.upper() if not king and cur[1] == far else piece
                enemies = sum(1 for s in taken if board[s] not in own)
                sequences[(start, cur, frozenset(left.items()))] = enemies
            for victim, lands in options:
                for land in lands:
                    walk(land, taken | {victim})

        walk(start, frozenset())
    enemy = {k: n for k, n in sequences.items() if n}
    if enemy:
        best = max(enemy.values())
        return {k for k, n in enemy.items() if n == best}
    out = set(sequences)
    for start, piece in board.items():
        if piece not in own:
            continue
        for df, dr in DIAGONALS:
            if piece.islower() and dr != forward:
                continue
            f, r = start[0] + df, start[1] + dr
            while _on(f, r) and (f, r) not in board:
                left = dict(board)
                del left[start]
                left[(f, r)] = piece.upper() if r == far else piece
                out.add((start, (f, r), frozenset(left.items())))
                if piece.islower():
                    break
                f, r = f + df, r + dr
    return out


def letters(game: Game) -> dict[tuple[int, int], str]:
    geo = game.variant.board
    out = {}
    for p, piece in game.pieces().items():
        letter = "b" if piece.color else "w"
        out[(geo.file_of[p], geo.rank_of[p])] = letter.upper() if piece.is_king else letter
    return out


def test_self_capture_agrees_with_the_reference_on_random_positions() -> None:
    rng = random.Random(12)
    for _ in range(300):
        fen = random_position(rng)
        game = Game("self-capture", fen)
        geo = game.variant.board
        engine = set()
        for move in game.legal_moves():
            g = game.copy()
            g.push_unchecked(move)
            key = (
                (geo.file_of[move.start], geo.rank_of[move.start]),
                (geo.file_of[move.end], geo.rank_of[move.end]),
                frozenset(letters(g).items()),
            )
            assert key not in engine, (fen, move)
            engine.add(key)
        assert engine == self_capture_reference(letters(game), game_state(game)[3]), fen


# -- demotion (docs/rules/modified.md#demotion) ----------------------------------------------------


def test_demotion_a_captured_king_becomes_a_man() -> None:
    game = Game("demotion", "W:Wc3:BKd4,a7")
    game.push(mv("demotion", "c3", "e5", captured=("d4",)))
    assert board_of(game) == {
        "e5": Piece(WHITE, Kind.MAN),
        "d4": Piece(BLACK, Kind.MAN),
        "a7": Piece(BLACK, Kind.MAN),
    }


def test_demotion_jumped_king_blocks_during_the_move_and_counts_once() -> None:
    # a1xc3 lands on d4 and goes on over e5 (a king, demoted) to f6 or g7 (h8 blocks)
    game = Game("demotion", "W:WKa1:Bc3,Ke5,h8")
    assert paths(game) == {"a1-d4-f6", "a1-d4-g7"}
    game.push(mv("demotion", "a1", "d4", "g7", captured=("c3", "e5")))
    assert board_of(game) == {
        "g7": Piece(WHITE, Kind.KING),
        "e5": Piece(BLACK, Kind.MAN),
        "h8": Piece(BLACK, Kind.MAN),
    }


def test_demotion_men_are_removed_as_usual() -> None:
    game = Game("demotion", "B:WKe7:Bf8,a7")
    game.push(mv("demotion", "f8", "d6", captured=("e7",)))
    assert board_of(game) == {
        "e7": Piece(WHITE, Kind.MAN),
        "d6": Piece(BLACK, Kind.MAN),
        "a7": Piece(BLACK, Kind.MAN),
    }
    # the demoted man now moves and captures as a man: it must take d6 backward
    assert paths(game) == {"e7-c5"}
    game = Game("demotion", "W:Wc3:Bd4,a7")
    game.push(mv("demotion", "c3", "e5", captured=("d4",)))
    assert at(game, "d4") is None


def test_demotion_on_its_own_far_row_is_not_crowned_again(tmp_path: Path) -> None:
    # On a diagonal board a piece on the edge cannot be jumped, so a king is never demoted
    # on a far row there; an orthogonal host shows it: Black's king takes White's king on
    # d8 along the row, and d8 is left with a white man, not a king.
    variant = user_variant(
        tmp_path, "turkish-demotion", 'host = "turkish"\nmodifiers = ["demotion"]\n'
    )
    game = Game(variant, "B:WKd8,a1:BKa8,h1")
    assert paths(game) == {"a8-e8", "a8-f8", "a8-g8", "a8-h8"}
    game.push(mv(variant, "a8", "h8", captured=("d8",)))
    assert at(game, "d8") == Piece(WHITE, Kind.MAN)
    assert game.fen().startswith("W:Wd8,a1:")
    # in the traditional game a man standing on his far row is not crowned by standing
    # there: with no capture it has no move at all
    game = Game("demotion", "W:Wb8:Bf6,h8")
    assert paths(game) == set()
    game = Game("demotion", "W:Wb8:Bc7,h8")
    game.push(mv("demotion", "b8", "d6", captured=("c7",)))
    assert at(game, "d6") == Piece(WHITE, Kind.MAN)


def test_demotion_equals_traditional_while_no_king_is_taken() -> None:
    # no king can be crowned, let alone captured, in the first 6 plies
    assert [Game("demotion").perft(d) for d in range(1, 7)] == [7, 49, 302, 1469, 7473, 37628]
    rng = random.Random(13)
    for _ in range(200):
        fen = random_position(rng)
        demotion, host = Game("demotion", fen), Game("traditional", fen)
        # the moves are always the host's (the jumped king is a blocker either way)
        assert demotion.legal_moves() == host.legal_moves(), fen
        for move in demotion.legal_moves():
            a, b = demotion.copy(), host.copy()
            a.push(move)
            b.push(move)
            kings_taken = [c for c in move.captured if host.piece_at(c).is_king]  # type: ignore[union-attr]
            if not kings_taken:
                assert game_state(a) == game_state(b), (fen, move)
            else:
                for c in kings_taken:
                    assert b.piece_at(c) is None
                    assert a.piece_at(c) == Piece(host.turn.other, Kind.MAN)


def test_demotion_differs_once_a_king_is_captured() -> None:
    fen = "W:Wc3,g1:BKd4,a7,c7"
    assert Game("demotion", fen).perft(1) == Game("traditional", fen).perft(1) == 1
    # after c3xd4 the demoted man on d4 must take e5; in the host Black has 3 quiet moves
    assert Game("demotion", fen).perft(2) == 1
    assert Game("traditional", fen).perft(2) == 3


# -- move-opponent (docs/rules/modified.md#move-opponent) ------------------------------------------


def test_move_opponent_own_capture_first() -> None:
    assert paths(Game("move-opponent", "W:Wc3,a1:Bd4,h8")) == {"c3-e5"}


def test_move_opponent_quiet_moves_of_both_colours() -> None:
    # Black's men move down the board even when White moves them
    assert paths(Game("move-opponent", "W:Wc3:Bf6,b8")) == {
        "c3-b4",
        "c3-d4",
        "f6-e5",
        "f6-g5",
        "b8-a7",
        "b8-c7",
    }
    game = Game("move-opponent", "W:Wc3:Bf6,b8")
    game.push(mv("move-opponent", "f6", "e5"))
    assert game.turn is BLACK and at(game, "e5") == Piece(BLACK, Kind.MAN)


def test_move_opponent_pieces_never_capture() -> None:
    # Black's d4 could jump White's c3 (to b2); moved by White it only steps
    assert paths(Game("move-opponent", "W:Wc3:Bd4,e5")) == {"c3-b4", "d4-e3", "e5-f4"}


def test_move_opponent_crowns_for_the_owner() -> None:
    game = Game("move-opponent", "W:Wh2:Bb2,e7")
    game.push(mv("move-opponent", "b2", "a1"))
    assert at(game, "a1") == Piece(BLACK, Kind.KING)
    assert game.turn is BLACK


def test_move_opponent_without_own_pieces_loses() -> None:
    outcome = Game("move-opponent", "W:W:Bb2,g3").outcome()
    assert outcome is not None and outcome.winner is BLACK


def test_move_opponent_blocked_own_pieces_may_move_the_opponents() -> None:
    game = Game("move-opponent", "W:Wa1:Bb2,c3,h8")
    assert paths(game) == {"b2-c1", "c3-d2", "h8-g7"}
    assert game.outcome() is None


def test_move_opponent_keeps_threefold_repetition() -> None:
    assert any(d.kind == "repetition" for d in find_variant("move-opponent").draws)


_FREE: list[Variant] = []


def _free_capture_host() -> Variant:
    """The traditional game without compulsory capture (not registered): its quiet moves
    are those of a side that has a capture."""
    if not _FREE:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "free.toml"
            path.write_text(
                'id = "traditional-free"\nname = "t"\nhost = "traditional"\n'
                "[rules]\ncapture_mandatory = false\n",
                encoding="utf-8",
            )
            _FREE.append(load_variant_file(path))
    return _FREE[0]


def host_children(pos: State) -> list[State]:
    """The positions after each legal move of the traditional game."""
    host = find_variant("traditional").generator
    return [host.apply(pos, m) for m in host.moves(pos)]


def move_opponent_children(pos: State) -> list[State]:
    """docs/rules/modified.md#move-opponent on the traditional game: own moves (captures first),
    then, with no own capture, quiet moves of the opponent's pieces by their own rules."""
    host = find_variant("traditional").generator
    free = _free_capture_host().generator
    mover = pos[3]
    if not (pos[0] if mover == 0 else pos[1]):
        return []
    children = host_children(pos)
    if not host.captures(pos):
        view = (pos[0], pos[1], pos[2], 1 - mover, pos[4])
        for m in free.moves(view):
            if not m.is_capture:
                after = free.apply(view, m)
                children.append((after[0], after[1], after[2], 1 - mover, after[4]))
    return children


def move_opponent_perft(pos: State, depth: int) -> int:
    children = move_opponent_children(pos)
    if depth == 1:
        return len(children)
    return sum(move_opponent_perft(child, depth - 1) for child in children)


def test_move_opponent_perft_from_the_start() -> None:
    game = Game("move-opponent")
    # White's 7 moves and 7 quiet moves of Black's men
    assert game.perft(1) == 14
    assert [game.perft(d) for d in (1, 2, 3)] == [
        move_opponent_perft(game_state(game), d) for d in (1, 2, 3)
    ]


def test_move_opponent_random_positions() -> None:
    rng = random.Random(14)
    for _ in range(150):
        fen = random_position(rng)
        game = Game("move-opponent", fen)
        assert game.perft(2) == move_opponent_perft(game_state(game), 2), fen


# -- double-move (docs/rules/modified.md#double-move) ----------------------------------------------


def half_turn(game: Game) -> int:
    return game.variant.generator.half_turn(game_state(game))  # type: ignore[attr-defined,no-any-return]


def test_double_move_white_starts_with_two_moves() -> None:
    game = Game("double-move")
    assert game.start_label == "two moves" and half_turn(game) == 1
    game.push(mv("double-move", "c3", "d4"))
    assert game.turn is WHITE and half_turn(game) == 2
    assert game.fen().endswith(":T2")
    game.push(mv("double-move", "d4", "c5"))
    assert game.turn is BLACK and half_turn(game) == 1


def test_double_move_balanced_start() -> None:
    game = Game("double-move", start="one move (balanced)")
    assert half_turn(game) == 2
    game.push(mv("double-move", "c3", "d4"))
    assert game.turn is BLACK and half_turn(game) == 1
    game.push(mv("double-move", "f6", "g5"))
    assert game.turn is BLACK and half_turn(game) == 2
    # the balanced start is the host game for its first two plies
    assert [Game("double-move", start="one move (balanced)").perft(d) for d in (1, 2)] == [7, 49]


def test_double_move_capture_is_compulsory_before_each_move() -> None:
    game = Game("double-move", "W:Wc3:Be5,a7")
    assert paths(game) == {"c3-b4", "c3-d4"}
    game.push(mv("double-move", "c3", "d4"))
    assert paths(game) == {"d4-f6"}  # the first move left a capture: the second takes it


def test_double_move_a_man_crowned_on_the_first_move_moves_as_a_king() -> None:
    game = Game("double-move", "W:Wg7:Ba7")
    game.push(mv("double-move", "g7", "h8"))
    assert at(game, "h8") == Piece(WHITE, Kind.KING)
    assert game.turn is WHITE
    assert {"h8-a1", "h8-b2", "h8-g7"} <= paths(game)


def test_double_move_an_impossible_second_move_ends_the_turn() -> None:
    # after c5-b6 White's man is stuck (a7, c7 taken, d8 behind c7): Black moves next
    game = Game("double-move", "W:Wc5:Ba7,c7,d8")
    game.push(mv("double-move", "c5", "b6"))
    assert game.turn is BLACK and half_turn(game) == 1
    assert game.outcome() is None
    # the other first move leaves a second one
    game = Game("double-move", "W:Wc5:Ba7,c7,d8")
    game.push(mv("double-move", "c5", "d6"))
    assert game.turn is WHITE and half_turn(game) == 2


def test_double_move_taking_the_last_piece_ends_the_game() -> None:
    game = Game("double-move", "W:Wc3,a1:Bd4")
    game.push(mv("double-move", "c3", "e5", captured=("d4",)))
    assert game.turn is BLACK
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is WHITE


def test_double_move_blocking_does_not_end_the_turn() -> None:
    # h2-g3 leaves Black's h4 without a move, but Black still has a piece: White moves
    # again, and then Black, blocked at the start of its turn, loses
    game = Game("double-move", "W:Wh2,f2,e1:Bh4")
    game.push(mv("double-move", "h2", "g3"))
    assert game.turn is WHITE and half_turn(game) == 2
    game.push(mv("double-move", "e1", "d2"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is WHITE


def test_double_move_position_text_round_trip() -> None:
    game = Game("double-move", "W:Wc3:Be5,a7")
    game.push(mv("double-move", "c3", "d4"))
    again = Game("double-move", game.fen())
    assert game_state(again) == game_state(game) and half_turn(again) == 2


def test_double_move_repetition_tells_the_half_turns_apart() -> None:
    a = Game("double-move", "W:WKa1:BKh6:T2")
    b = Game("double-move", "W:WKa1:BKh6")
    assert a.variant.generator.key(game_state(a)) != b.variant.generator.key(game_state(b))


def double_move_perft(pos: State, second: bool, depth: int, children=host_children) -> int:  # type: ignore[no-untyped-def]
    """Perft of docs/rules/modified.md#double-move over a one-move generator ``children`` (default:
    traditional)."""
    total = 0
    mover = pos[3]
    for after in children(pos):
        again = (after[0], after[1], after[2], mover, after[4])
        if not second and after[1 - mover] and children(again):
            child, child_second = again, True
        else:
            child, child_second = after, False
        total += 1 if depth == 1 else double_move_perft(child, child_second, depth - 1, children)
    return total


@pytest.mark.parametrize("start", ["two moves", "one move (balanced)"])
def test_double_move_perft_from_the_start(start: str) -> None:
    game = Game("double-move", start=start)
    host = game_state(Game("traditional"))
    second = start != "two moves"
    assert [game.perft(d) for d in range(1, 5)] == [
        double_move_perft(host, second, d) for d in range(1, 5)
    ]


def test_double_move_depth_two_is_the_hosts_with_white_moving_twice() -> None:
    # docs/rules/modified.md#double-move: perft(2) = for each first move, White's moves in the
    # position it leaves
    host = Game("traditional")
    total = 0
    for move in host.legal_moves():
        host.push(move)
        pos = game_state(host)
        total += Game("traditional", host.fen().replace("B:", "W:", 1)).perft(1)
        assert pos[1]
        host.pop()
    assert Game("double-move").perft(2) == total == 56


def test_double_move_random_positions() -> None:
    rng = random.Random(15)
    for _ in range(60):
        fen = random_position(rng)
        game = Game("double-move", fen)
        assert game.perft(3) == double_move_perft(game_state(Game("traditional", fen)), False, 3), (
            fen
        )


# -- two modifiers at once ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "order", [("double-move", "move-opponent"), ("move-opponent", "double-move")]
)
def test_double_move_with_move_opponent_in_either_order(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    # each half-turn is a docs/rules/modified.md#move-opponent move; the order the file lists the
    # modifiers in is no matter
    listed = ", ".join(f'"{m}"' for m in order)
    variant = user_variant(
        tmp_path, "double-opponent", f'host = "traditional"\nmodifiers = [{listed}]\n'
    )
    game = Game(variant)
    start = game_state(Game("traditional"))
    assert [game.perft(d) for d in (1, 2, 3)] == [
        double_move_perft(start, False, d, move_opponent_children) for d in (1, 2, 3)
    ]
    # White moves a black man, then one of its own: then it is Black's turn
    game.push(mv(variant, "f6", "e5"))
    assert game.turn is WHITE
    game.push(mv(variant, "c3", "d4"))
    assert game.turn is BLACK and paths(game) == {"e5-c3"}


def test_demotion_with_self_capture_keeps_each_kings_colour(tmp_path: Path) -> None:
    # White's king on a1 jumps its own king on b2 (no enemy can be reached: d4 is taken)
    variant = user_variant(
        tmp_path, "demote-self", 'host = "traditional"\nmodifiers = ["self-capture", "demotion"]\n'
    )
    game = Game(variant, "W:WKa1,Kb2,d4:Bh8")
    assert "a1-c3" in paths(game)
    game.push(mv(variant, "a1", "c3", captured=("b2",)))
    assert at(game, "b2") == Piece(WHITE, Kind.MAN)
    assert at(game, "c3") == Piece(WHITE, Kind.KING)


def test_self_capture_on_a_no_180_host_may_stop_before_a_forbidden_reversal(tmp_path: Path) -> None:
    # Turkish with self-capture: d4xc4 lands on b4; the only enemy still in line, e4, could
    # only be taken by turning straight back, which Turkish forbids; so the move may stop
    # on b4 (or go on over White's own b5)
    variant = user_variant(
        tmp_path, "turkish-self", 'host = "turkish"\nmodifiers = ["self-capture"]\n'
    )
    assert paths(Game(variant, "W:WKd4,b5:Bc4,e4,h8")) == {
        "d4-a4",
        "d4-b4",
        "d4-b4-b6",
        "d4-b4-b7",
        "d4-b4-b8",
        "d4-f4",
        "d4-g4",
        "d4-h4",
    }


def test_an_end_says_no_pieces_or_no_moves() -> None:
    """Every piece taken: "no pieces left"; pieces all blocked: "no legal move"."""
    taken = Game("russian", "B:Wc3:B").outcome()
    assert taken is not None and taken.rule == "Black has no pieces left"
    blocked = Game("russian", "B:Wb4,c3:Ba5").outcome()
    assert blocked is not None and blocked.rule == "Black has no legal move"
    assert blocked.termination is taken.termination is Termination.NO_LEGAL_MOVES
