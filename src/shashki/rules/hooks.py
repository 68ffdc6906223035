"""The hooks a special variant's generator may override (Bashni columns, Artamonov's
shared pieces, the modifiers), with the defaults of the standard games.

The move-generation hooks themselves (``moves``, ``captures``, ``count``, ``apply``,
``piece_at``, ``material``, ``key``) are defined by
:class:`~shashki.rules.movegen.MoveGenerator`; this base adds what the game object, the
FEN codec and the notation ask of a generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import BadFenError
from .numbers import quoted

if TYPE_CHECKING:
    from .fen import FenParts
    from .game import Game
    from .outcome import Outcome
    from .variant import Variant

#: (white, black, kings, turn, extra)
Position = tuple[int, int, int, int, Any]


class GeneratorHooks:
    """Defaults for the hooks of a variant's move generator."""

    variant: Variant | None = None
    options: Mapping[str, Any] = {}

    def configure(self, variant: Variant) -> None:
        """Called once when the variant builds its generator."""
        self.variant = variant
        self.options = variant.options

    def host_position(self, pos: Position) -> Position:
        """``pos`` in the form the engine's own code reads (a modifier such as
        double-move wraps the engine's extra state in its own)."""
        return pos

    # -- the end of the game -----------------------------------------------------

    def decide(self, game: Game) -> Outcome | None:
        """A variant's own way of ending ``game`` in its current position (checked after
        the goals and the no-legal-move rule, before the draw rules), or None."""
        return None

    # -- FEN ----------------------------------------------------------------------

    def fen_sections(self, pos: Position) -> list[tuple[str, int]]:
        """The piece sections of the FEN: (letter, bitboard of the squares listed)."""
        return [("W", pos[0]), ("B", pos[1])]

    def fen_item(self, pos: Position, square: int, name: str) -> str:
        """How one occupied square is written inside its section."""
        return ("K" if pos[2] >> square & 1 else "") + name

    def fen_fields(self, pos: Position) -> list[str]:
        """Extra fields written after the pieces (and the H/F counters)."""
        return []

    def fen_read(self, parts: FenParts) -> Position:
        """Build the position from what the FEN reader found.

        ``parts.neutral`` holds the squares of an ``N`` (colourless) section,
        ``parts.stacks`` the ``square=stack`` items, ``parts.fields`` the fields the
        reader does not know.  The standard games accept none of them.
        """
        fen = parts.fen
        if parts.neutral:
            raise BadFenError(f"this variant has no colourless pieces (FEN {quoted(fen, 80)})")
        if parts.stacks:
            raise BadFenError(f"this variant has no columns of pieces (FEN {quoted(fen, 80)})")
        if parts.fields:
            raise BadFenError(
                f"unexpected field {quoted(parts.fields[0])} in FEN {quoted(fen, 80)}"
            )
        return (parts.white, parts.black, parts.kings, parts.turn, None)
