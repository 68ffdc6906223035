"""Sentences that tell a player which rule of the variant refused a move.

The most common complaint about draughts programs is a legal move called a bug or the
reverse; the answer is to say, every time, which rule of *this* variant decided.
"""

from __future__ import annotations

from .fen import square_text
from .game import Game
from .move import Color, Move
from .switches import CaptureChoice, KingLanding, NoMoves


def _names(game: Game, squares: list[int] | set[int]) -> str:
    ordered = sorted(squares, key=game.variant.board.number)
    texts = [square_text(game.variant, s) for s in ordered]
    if len(texts) <= 1:
        return "".join(texts)
    if len(texts) > 6:
        return ", ".join(texts[:6]) + f" and {len(texts) - 6} more"
    return ", ".join(texts[:-1]) + " or " + texts[-1]


def _direction_words(names: tuple[str, ...]) -> str:
    """'diagonally forward', 'forward or sideways'… for a set of relative directions."""
    diag = [n for n in names if "-" in n]
    orth = [n for n in names if "-" not in n]
    parts = []
    if diag:
        if all(n.startswith("forward") for n in diag):
            parts.append("diagonally forward")
        elif all(n.startswith("back") for n in diag):
            parts.append("diagonally backward")
        else:
            parts.append("diagonally forward or backward")
    if orth:
        words = []
        if "forward" in orth:
            words.append("forward")
        if "back" in orth:
            words.append("backward")
        if "left" in orth or "right" in orth:
            words.append("sideways")
        parts.append(("straight " if diag else "") + " or ".join(words))
    return " or ".join(parts)


def capture_rule(game: Game) -> str:
    """The variant's capture rule in one sentence."""
    v = game.variant
    if v.rules.capture_choice is CaptureChoice.MAJORITY:
        return f"in {v.name} capturing is compulsory and you must take the most pieces"
    if v.rules.precedence:  # NATIONAL.md C.5, criterion by criterion
        words = " and then ".join(_PRECEDENCE_WORDS[c] for c in v.rules.precedence)
        return f"in {v.name} capturing is compulsory and you must {words}"
    return f"in {v.name} capturing is compulsory (you may choose which capture)"


#: What each capture precedence criterion asks of a player, in words.
_PRECEDENCE_WORDS = {
    "count": "take the most pieces",
    "value": "take the most value (a king counts almost two men)",
    "with-king": "capture with a king if a king can",
    "kings": "take the most kings",
    "king-order": "take the kings as early in the capture as possible",
}


def why_not_select(game: Game, square: int, legal: list[Move] | None = None) -> str | None:
    """Why the piece on ``square`` cannot move now, or None if it can."""
    legal = game.legal_moves() if legal is None else legal
    if any(m.start == square for m in legal):
        return None
    v = game.variant
    name = square_text(v, square)
    side = game.turn
    mover = v.side_names[side]
    piece = game.piece_at(square)
    if piece is None:
        return f"There is no piece on {name}."
    gen = v.generator
    if gen.frozen(game.position) == square:
        return f"The piece on {name} made the last move: it may not move now."
    outcome = game.outcome()
    if outcome is not None:
        return "The game is over: " + outcome.describe(v.side_names)
    if not legal:
        return f"{mover} has no legal move."
    capturers = {m.start for m in legal if m.is_capture}
    if piece.color is not None and piece.color != side and not gen.may_move_opponent_pieces():
        return f"That is {v.side_names[piece.color]}'s piece: it is {mover}'s turn."
    if capturers:
        if piece.color is not None and piece.color != side:
            return f"{mover} must capture with his own pieces first: {_names(game, capturers)}."
        most = max(len(m.captured) for m in legal)
        if v.rules.capture_choice is CaptureChoice.MAJORITY and _could_capture(game, square):
            return (
                f"You must take the most pieces ({most}) in {v.name}: "
                f"only {_names(game, capturers)} can."
            )
        if v.rules.precedence and _could_capture(game, square):
            return f"Not this piece: {capture_rule(game)}; only {_names(game, capturers)} can."
        return f"Capturing is compulsory in {v.name}: {_names(game, capturers)} must capture."
    own_rule = gen.why_not(game.position, square)
    if own_rule is not None:
        return own_rule
    kind = "king" if piece.is_king else "man"
    return f"The {kind} on {name} has no legal move."


def _could_capture(game: Game, square: int) -> bool:
    """Whether the piece on ``square`` has some capture (maybe not the longest)."""
    return any(m.start == square for m in game.captures()) or bool(_shorter_captures(game, square))


def _shorter_captures(game: Game, square: int) -> list[Move]:
    from dataclasses import replace

    from .movegen import MoveGenerator

    rules = replace(game.variant.rules, capture_precedence=())
    try:
        free = MoveGenerator(game.variant.board, rules)
        return [m for m in free.captures(game.position) if m.start == square]
    except (TypeError, ValueError, AttributeError):  # special variants: no such view
        return []


def _landing_refused(game: Game, start: int, end: int) -> bool:
    """Whether a capture from ``start`` to ``end`` is refused only by the king landing
    ``behind-last-king`` or ``directly-behind`` (NATIONAL.md C.6): legal if the king
    could stop anywhere."""
    from dataclasses import replace

    from .movegen import MoveGenerator

    v = game.variant
    if v.rules.king_landing not in (KingLanding.BEHIND_LAST_KING, KingLanding.DIRECTLY_BEHIND):
        return False
    rules = replace(v.rules, king_landing=KingLanding.ANY)
    try:
        anywhere = MoveGenerator(v.board, rules)
        return any(m.start == start and m.end == end for m in anywhere.captures(game.position))
    except (TypeError, ValueError, AttributeError):  # special variants: no such view
        return False


def why_not_move(game: Game, start: int, end: int, legal: list[Move] | None = None) -> str | None:
    """Why the piece on ``start`` may not go to ``end``, or None if some legal move does."""
    legal = game.legal_moves() if legal is None else legal
    if any(m.start == start and m.end == end for m in legal):
        return None
    refused = why_not_select(game, start, legal)
    if refused:
        return refused
    v = game.variant
    geo = v.board
    piece = game.piece_at(start)
    assert piece is not None
    mine = [m for m in legal if m.start == start]
    ends = {m.end for m in mine}
    to = square_text(v, end)
    if game.piece_at(end) is not None and end != start:
        return f"{to} is occupied; this piece can go to {_names(game, ends)}."
    if mine and mine[0].is_capture:
        most = max(len(m.captured) for m in mine)
        if v.rules.capture_choice is CaptureChoice.MAJORITY and any(
            m.end == end for m in _shorter_captures(game, start)
        ):
            return (
                f"That capture takes fewer pieces: in {v.name} you must take the most "
                f"({most}); go to {_names(game, ends)}."
            )
        if v.rules.precedence and any(m.end == end for m in _shorter_captures(game, start)):
            return f"Not that capture: {capture_rule(game)}; go to {_names(game, ends)}."
        if _landing_refused(game, start, end):
            if v.rules.king_landing is KingLanding.DIRECTLY_BEHIND:
                return (
                    f"In {v.name} a king lands on the square just beyond each piece it "
                    f"takes: go to {_names(game, ends)}."
                )
            return (
                f"In {v.name} a king that takes a king last must stop on the square just "
                f"beyond it: go to {_names(game, ends)}."
            )
        return f"This piece must capture ({capture_rule(game)}): it can go to {_names(game, ends)}."
    if (
        not geo.all_squares
        and (geo.file_of[end] + geo.rank_of[end]) % 2
        != (geo.file_of[start] + geo.rank_of[start]) % 2
    ):
        return f"{v.name} is played on the dark squares only."
    rules = v.rules
    if not piece.is_king and not rules.man_captures_kings and _jumps_a_king(game, start, end):
        text = f"In {v.name} a man may not capture a king"  # NATIONAL.md C.4
        return text + (f"; it can go to {_names(game, ends)}." if ends else ".")
    if piece.is_king:
        how = _direction_words(rules.king_moves)
        reach = "any distance" if rules.king_moves_fly else "one square"
        return f"In {v.name} a king moves {reach} {how}; it can go to {_names(game, ends)}."
    how = _direction_words(rules.man_moves)
    text = f"In {v.name} a man moves one square {how}"
    if set(rules.man_captures) - set(rules.man_moves):
        text += " (it captures " + _direction_words(rules.man_captures) + ")"
    elif rules.man_captures and set(rules.man_captures) == set(rules.man_moves):
        text += " and captures the same way"
    return text + (f"; it can go to {_names(game, ends)}." if ends else ".")


def _jumps_a_king(game: Game, start: int, end: int) -> bool:
    """Whether ``end`` lies just beyond an enemy king next to ``start`` (a short jump)."""
    geo = game.variant.board
    mover = game.piece_at(start)
    for step in geo.step:
        over = step[start]
        if over < 0 or step[over] != end:
            continue
        victim = game.piece_at(over)
        if victim is not None and mover is not None and victim.is_king:
            return victim.color != mover.color
    return False


def goal_sentence(game: Game) -> str:
    """How to win this variant, in a few words."""
    v = game.variant
    if v.generator.first_king_wins():
        return "You win by making the first king, or when your opponent cannot move."
    if v.rules.no_moves is NoMoves.WINS:
        return "You win when you cannot move: lose all your pieces or get them all blocked."
    extra = "; ".join(g.name for g in v.goals)
    base = "You win when your opponent cannot move."
    return f"{base} Also: {extra}." if extra else base


__all__ = ["Color", "capture_rule", "goal_sentence", "why_not_move", "why_not_select"]
