"""The hooks a special variant's generator may override (Bashni columns, Artamonov's
shared pieces, the modifiers), with the defaults of the standard games.

The move-generation hooks themselves (``moves``, ``captures``, ``count``, ``apply``,
``piece_at``, ``material``, ``key``) are defined by
:class:`~shashki.rules.movegen.MoveGenerator`; this base adds what the game object, the
FEN codec and the notation ask of a generator, and what the app and the engine ask of a
variant's special pieces (a column, a frozen piece, a half-turn, lines for the game
screen's panel, the family of the evaluation, whether the ending tables apply), so that
no code outside the rules package tests a variant's, a family's or a modifier's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._compiled import mypyc_attr
from ..base.numbers import quoted
from ..i18n import _
from .errors import BadFenError

if TYPE_CHECKING:
    from .endrules import Played
    from .fen import FenParts
    from .geometry import Geometry
    from .move import FastMove
    from .outcome import Outcome
    from .variant import Variant

#: A position as the generators and the engine hold it: ``(white, black, kings, turn,
#: extra)``, three bitboards, the side to move (0 or 1) and the state of a special variant
#: (None in the standard games); see :mod:`~shashki.rules.movegen`.  Internal to the
#: rules and the engine: the library's form is :class:`~shashki.rules.position.Position`.
#: Defined here, the one place, and named from there too.
State = tuple[int, int, int, int, Any]


def walk_perft(
    pos: State,
    depth: int,
    moves: Callable[[State], list[FastMove]],
    count: Callable[[State], int],
    apply: Callable[[State, FastMove], State],
    over: Callable[[State], bool] | None = None,
) -> int:
    """Leaf nodes at exactly ``depth`` (at least 1) plies below ``pos``, walked over a
    generator's hooks: ``moves`` and ``apply`` to go down, ``count`` at the last ply.  A
    position where ``over`` says the game has ended (a goal reached, a first king) has no
    moves below it, so it counts 0."""

    def walk(p: State, d: int) -> int:
        if over is not None and over(p):
            return 0
        if d == 1:
            return count(p)
        total = 0
        for mv in moves(p):
            total += walk(apply(p, mv), d - 1)
        return total

    return walk(pos, depth)


@mypyc_attr(allow_interpreted_subclasses=True)
class GeneratorHooks:
    """Defaults for the hooks of a variant's move generator."""

    variant: Variant | None = None
    options: Mapping[str, Any] = {}
    #: The board (set by the generator's constructor).
    geo: Geometry

    def configure(self, variant: Variant) -> None:
        """Called once when the variant builds its generator."""
        self.variant = variant
        self.options = variant.options

    def host_position(self, pos: State) -> State:
        """``pos`` in the form the engine's own code reads (a modifier such as
        double-move wraps the engine's extra state in its own)."""
        return pos

    def host_view(self) -> Callable[[State], State] | None:
        """A function giving a position in its host's form, for code that reads the
        host's bitboards and extra state directly (the evaluation), when this generator
        wraps them (double-move's half-turns); None, the default, when its positions are
        the host's own."""
        return None

    # -- what the app and the engine ask -------------------------------------------

    def stack(self, pos: State, square: int) -> str:
        """The column of pieces on ``square``, bottom to top, one letter a piece
        (``w b W B``: white man, black man, white king, black king), "" for an empty
        square.  Default: "" everywhere (no columns: a square's piece is
        :meth:`piece_at`'s)."""
        return ""

    def frozen(self, pos: State) -> int:
        """The square of the piece that may not move now (Artamonov: the piece that made
        the last move), or -1.  Default: -1 (every piece may move)."""
        return -1

    def half_turn(self, pos: State) -> int | None:
        """Which move of a two-move turn the side to move is about to make (1 or 2), or
        None when a turn is one move.  Default: None."""
        return None

    def may_move_opponent_pieces(self) -> bool:
        """Whether the side to move may (without a capture) move a piece of the other
        colour.  Default: False."""
        return False

    def panel_lines(
        self, pos: State, lines: list[str], square: int, legal: Sequence[FastMove]
    ) -> list[str]:
        """The lines the game screen's panel shows about ``pos`` below whose turn it is.

        ``lines`` are the screen's own (each side's men and kings, or where the pieces
        stand in a game without captures); a generator may replace them or add its own.
        ``square`` is the square under the cursor (-1 for none), ``legal`` the moves of
        the side to move (none once the game is over).  Default: ``lines`` as they are.
        """
        return lines

    def why_not(self, pos: State, square: int) -> str | None:
        """Why the piece of the side to move on ``square`` may not move now, when a rule
        of this generator's own refuses it (the same-king move limit), or None.  Asked by
        the "why not" explanations once the common reasons are ruled out.  Default:
        None."""
        return None

    def panel_follows_cursor(self) -> bool:
        """Whether :meth:`panel_lines` depend on the square under the cursor (the game
        screen then redraws them as the cursor moves).  Default: False."""
        return False

    def evaluation_family(self) -> str:
        """The key of the engine's evaluation for this generator's positions (the
        registry ``EVALUATORS`` of :mod:`shashki.engine.evaluate`).  Default:
        ``"all-squares"`` on a board whose every square is played (the orthogonal games),
        ``"dark-squares"`` otherwise (the diagonal games)."""
        return "all-squares" if self.geo.all_squares else "dark-squares"

    def plain_positions(self) -> bool:
        """Whether a position is men and kings of two colours on the bitboards and nothing
        else, moved by the rule switches alone (no column, shared piece or extra state,
        no modifier's code): what the kings' ending tables and the goal solver of the
        engine assume.  Default: True; the Bashni and Artamonov generators and the
        modifiers' mixins say False (the goals, a variant's data, are left to the
        caller)."""
        return True

    # -- the end of the game -----------------------------------------------------

    def has_pieces(self, pos: State, side: int) -> bool:
        """Whether ``side`` has a piece left on the board (the end of a game says "no
        pieces left" rather than "no legal move" when it has none): one of its own on a
        square, or inside a column (:meth:`stack`)."""
        if pos[side]:
            return True
        letters = "bB" if side else "wW"
        return any(
            c in letters for sq in self.geo.positions(pos[0] | pos[1]) for c in self.stack(pos, sq)
        )

    def first_king_wins(self) -> bool:
        """Whether a king on the board means its owner has won (the modifier
        ``promotion-wins``: checked first of all the ways a game ends).  Default: False."""
        return False

    def decide(self, game: Played) -> Outcome | None:
        """A variant's own way of ending ``game`` in its current position (checked after
        the goals and the no-legal-move rule, before the draw rules), or None."""
        return None

    # -- FEN ----------------------------------------------------------------------

    def fen_sections(self, pos: State) -> list[tuple[str, int]]:
        """The piece sections of the FEN: (letter, bitboard of the squares listed)."""
        return [("W", pos[0]), ("B", pos[1])]

    def fen_item(self, pos: State, square: int, name: str) -> str:
        """How one occupied square is written inside its section."""
        return ("K" if pos[2] >> square & 1 else "") + name

    def fen_fields(self, pos: State) -> list[str]:
        """Extra fields written after the pieces (and the H/F counters)."""
        return []

    def fen_read(self, parts: FenParts) -> State:
        """Build the position from what the FEN reader found.

        ``parts.neutral`` holds the squares of an ``N`` (colourless) section,
        ``parts.stacks`` the ``square=stack`` items, ``parts.fields`` the fields the
        reader does not know.  The standard games accept none of them.
        """
        fen = parts.fen
        if parts.neutral:
            raise BadFenError(
                _("this variant has no colourless pieces (FEN {fen})").format(fen=quoted(fen, 80))
            )
        if parts.stacks:
            raise BadFenError(
                _("this variant has no columns of pieces (FEN {fen})").format(fen=quoted(fen, 80))
            )
        if parts.fields:
            raise BadFenError(
                _("unexpected field {field} in FEN {fen}").format(
                    field=quoted(parts.fields[0]), fen=quoted(fen, 80)
                )
            )
        return (parts.white, parts.black, parts.kings, parts.turn, None)
