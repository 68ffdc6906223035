"""Sentences that tell a player which rule of the variant refused a move.

The most common complaint about draughts programs is a legal move called a bug or the
reverse; the answer is to say, every time, which rule of *this* variant decided.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import N_, _
from .fen import square_text
from .game import Game, game_state
from .move import Color, FastMove, MoveLike
from .switches import CaptureChoice, KingLanding, NoMoves
from .variant import Variant


def _names(game: Game, squares: list[int] | set[int]) -> str:
    ordered = sorted(squares, key=game.variant.board.number)
    texts = [square_text(game.variant, s) for s in ordered]
    if len(texts) <= 1:
        return "".join(texts)
    if len(texts) > 6:
        return _("{squares} and {n} more").format(squares=", ".join(texts[:6]), n=len(texts) - 6)
    return _("{squares} or {last}").format(squares=", ".join(texts[:-1]), last=texts[-1])


def _or(words: list[str]) -> str:
    """Words joined by "or" ("forward or sideways") in the language spoken now."""
    out = words[0]
    for word in words[1:]:
        out = _("{this} or {that}").format(this=out, that=word)
    return out


def _direction_words(names: tuple[str, ...]) -> str:
    """'diagonally forward', 'forward or sideways'… for a set of relative directions."""
    diag = [n for n in names if "-" in n]
    orth = [n for n in names if "-" not in n]
    parts = []
    if diag:
        if all(n.startswith("forward") for n in diag):
            parts.append(_("diagonally forward"))
        elif all(n.startswith("back") for n in diag):
            parts.append(_("diagonally backward"))
        else:
            parts.append(_("diagonally forward or backward"))
    if orth:
        words = []
        if "forward" in orth:
            words.append(_("forward"))
        if "back" in orth:
            words.append(_("backward"))
        if "left" in orth or "right" in orth:
            words.append(_("sideways"))
        way = _or(words)
        parts.append(_("straight {directions}").format(directions=way) if diag else way)
    return _or(parts) if parts else ""


def capture_rule(game: Game) -> str:
    """The variant's capture rule in one sentence of its own ("In Frisian draughts
    capturing is compulsory: …."), with no brackets: a refusal says what to do first and
    then this, so that no rule is nested in another's brackets."""
    v = game.variant
    name = v.local_name
    if v.rules.capture_choice is CaptureChoice.MAJORITY:
        return _("In {variant} capturing is compulsory and you must take the most pieces.").format(
            variant=name
        )
    if v.rules.precedence:  # docs/rules/switches.md#precedence, criterion by criterion
        words = _(_PRECEDENCE_WORDS[v.rules.precedence[0]])
        for c in v.rules.precedence[1:]:
            words = _("{this}, then {that}").format(this=words, that=_(_PRECEDENCE_WORDS[c]))
        return _("In {variant} capturing is compulsory: you must {what}.").format(
            variant=name, what=words
        )
    return _("In {variant} capturing is compulsory, and you may choose which capture.").format(
        variant=name
    )


#: What each capture precedence criterion asks of a player, in words (no brackets: they
#: are said within the capture rule's sentence).
_PRECEDENCE_WORDS = {
    "count": N_("take the most pieces"),
    "value": N_("take the most value, a king counting almost two men"),
    "with-king": N_("capture with a king if a king can"),
    "kings": N_("take the most kings"),
    "king-order": N_("take the kings as early in the capture as possible"),
}


def why_not_select(game: Game, square: int, legal: Sequence[MoveLike] | None = None) -> str | None:
    """Why the piece on ``square`` cannot move now, or None if it can."""
    legal = game.legal_moves() if legal is None else legal
    if any(m.start == square for m in legal):
        return None
    v = game.variant
    name = square_text(v, square)
    side = game.turn
    mover = v.local_side(side)
    piece = game.piece_at(square)
    if piece is None:
        return _("There is no piece on {square}.").format(square=name)
    gen = v.generator
    if gen.frozen(game_state(game)) == square:
        return _("The piece on {square} made the last move: it may not move now.").format(
            square=name
        )
    outcome = game.outcome()
    if outcome is not None:
        return _("The game is over. {outcome}").format(outcome=outcome.describe(variant=v))
    if not legal:
        return _("{side} has no legal move.").format(side=mover)
    capturers = {m.start for m in legal if m.is_capture}
    if piece.color is not None and piece.color != side and not gen.may_move_opponent_pieces():
        return _("That is {owner}'s piece: it is {side}'s turn.").format(
            owner=v.local_side(piece.color), side=mover
        )
    if capturers:
        if piece.color is not None and piece.color != side:
            return _("{side} must capture with his own pieces first: {squares}.").format(
                side=mover, squares=_names(game, capturers)
            )
        most = max(len(m.captured) for m in legal)
        if v.rules.capture_choice is CaptureChoice.MAJORITY and _could_capture(game, square):
            return _(
                "You must take the most pieces ({n}) in {variant}: only {squares} can."
            ).format(n=most, variant=v.local_name, squares=_names(game, capturers))
        if v.rules.precedence and _could_capture(game, square):
            return _("Not this piece: only {squares} can. {rule}").format(
                rule=capture_rule(game), squares=_names(game, capturers)
            )
        return _("Capturing is compulsory in {variant}: {squares} must capture.").format(
            variant=v.local_name, squares=_names(game, capturers)
        )
    own_rule = gen.why_not(game_state(game), square)
    if own_rule is not None:
        return own_rule
    if piece.is_king:
        return _("The king on {square} has no legal move.").format(square=name)
    return _("The man on {square} has no legal move.").format(square=name)


def _could_capture(game: Game, square: int) -> bool:
    """Whether the piece on ``square`` has some capture (maybe not the longest)."""
    return any(m.start == square for m in game.captures()) or bool(_shorter_captures(game, square))


def _shorter_captures(game: Game, square: int) -> list[FastMove]:
    from dataclasses import replace

    from .movegen import MoveGenerator

    rules = replace(game.variant.rules, capture_precedence=())
    try:
        free = MoveGenerator(game.variant.board, rules)
        return [m for m in free.captures(game_state(game)) if m.start == square]
    except (TypeError, ValueError, AttributeError):  # special variants: no such view
        return []


def _landing_refused(game: Game, start: int, end: int) -> bool:
    """Whether a capture from ``start`` to ``end`` is refused only by the king landing
    ``behind-last-king`` or ``directly-behind`` (docs/rules/switches.md#landing): legal if the king
    could stop anywhere."""
    from dataclasses import replace

    from .movegen import MoveGenerator

    v = game.variant
    if v.rules.king_landing not in (KingLanding.BEHIND_LAST_KING, KingLanding.DIRECTLY_BEHIND):
        return False
    rules = replace(v.rules, king_landing=KingLanding.ANY)
    try:
        anywhere = MoveGenerator(v.board, rules)
        return any(m.start == start and m.end == end for m in anywhere.captures(game_state(game)))
    except (TypeError, ValueError, AttributeError):  # special variants: no such view
        return False


def why_not_move(
    game: Game, start: int, end: int, legal: Sequence[MoveLike] | None = None
) -> str | None:
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
    name = v.local_name
    squares = _names(game, ends)
    if game.piece_at(end) is not None and end != start:
        return _("{square} is occupied; this piece can go to {squares}.").format(
            square=to, squares=squares
        )
    if mine and mine[0].is_capture:
        return _why_not_this_capture(game, start, end, mine, squares)
    if (
        not geo.all_squares
        and (geo.file_of[end] + geo.rank_of[end]) % 2
        != (geo.file_of[start] + geo.rank_of[start]) % 2
    ):
        return _("{variant} is played on the dark squares only.").format(variant=name)
    rules = v.rules
    if not piece.is_king and not rules.man_captures_kings and _jumps_a_king(game, start, end):
        # docs/rules/switches.md#men-and-kings
        if ends:
            return _("In {variant} a man may not capture a king; it can go to {squares}.").format(
                variant=name, squares=squares
            )
        return _("In {variant} a man may not capture a king.").format(variant=name)
    text = _how_it_moves(v, piece.is_king)
    if ends:
        return _("{rule}; it can go to {squares}.").format(rule=text, squares=squares)
    return _("{rule}.").format(rule=text)


def _why_not_this_capture(
    game: Game, start: int, end: int, mine: Sequence[MoveLike], squares: str
) -> str:
    """Why the piece on ``start``, which must capture (``mine``, its captures, which end
    on ``squares``), may not capture to ``end``."""
    v = game.variant
    name = v.local_name
    if v.rules.capture_choice is CaptureChoice.MAJORITY and any(
        m.end == end for m in _shorter_captures(game, start)
    ):
        return _(
            "That capture takes fewer pieces: in {variant} you must take the most "
            "({n}); go to {squares}."
        ).format(variant=name, n=max(len(m.captured) for m in mine), squares=squares)
    if v.rules.precedence and any(m.end == end for m in _shorter_captures(game, start)):
        return _("Not that capture: go to {squares}. {rule}").format(
            rule=capture_rule(game), squares=squares
        )
    if _landing_refused(game, start, end):
        if v.rules.king_landing is KingLanding.DIRECTLY_BEHIND:
            return _(
                "In {variant} a king lands on the square just beyond each piece it "
                "takes: go to {squares}."
            ).format(variant=name, squares=squares)
        return _(
            "In {variant} a king that takes a king last must stop on the square just "
            "beyond it: go to {squares}."
        ).format(variant=name, squares=squares)
    return _("This piece must capture: it can go to {squares}. {rule}").format(
        rule=capture_rule(game), squares=squares
    )


def _how_it_moves(v: Variant, king: bool) -> str:
    """How a king (``king``) or a man moves in ``v``, as a sentence without its stop."""
    rules = v.rules
    name = v.local_name
    if king:
        how = _direction_words(rules.king_moves)
        if rules.king_moves_fly:
            text = _("In {variant} a king moves any distance {directions}")
        else:
            text = _("In {variant} a king moves one square {directions}")
        return text.format(variant=name, directions=how)
    how = _direction_words(rules.man_moves)
    text = _("In {variant} a man moves one square {directions}").format(
        variant=name, directions=how
    )
    if set(rules.man_captures) - set(rules.man_moves):
        return _("{rule}, and captures {directions}").format(
            rule=text, directions=_direction_words(rules.man_captures)
        )
    if rules.man_captures and set(rules.man_captures) == set(rules.man_moves):
        return _("{rule} and captures the same way").format(rule=text)
    return text


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
        return _("You win by making the first king, or when your opponent cannot move.")
    if v.rules.no_moves is NoMoves.WINS:
        return _("You win when you cannot move: lose all your pieces or get them all blocked.")
    extra = "; ".join(v.local(g.name) for g in v.goals)
    base = _("You win when your opponent cannot move.")
    return _("{rule} Also: {goals}.").format(rule=base, goals=extra) if extra else base


__all__ = ["Color", "capture_rule", "goal_sentence", "why_not_move", "why_not_select"]
