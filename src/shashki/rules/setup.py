"""Setting up a position by hand, in any variant: what may stand on a square (men and
kings of either side, the shared pieces of a game without colours, a column of pieces
where columns are played), the side to move, the position's FEN, and why a position
cannot be played.

The pieces a variant offers come from its start position and its rules, never from its
name: the sides whose men (or kings) stand at the start, and kings of both sides where
men are crowned; pieces without colour where the start lists them so; columns where the
generator keeps columns (its ``stack`` hook gives a square's pieces).

>>> setup = Setup(find_variant("russian"), "W:Wc3:Bf6")
>>> setup.place(setup.square("e5"), "b")
>>> setup.fen()
'W:Wc3:Be5,f6'
>>> setup.place(setup.square("h8"), "w")
>>> setup.problems()
['The man on h8 stands on its crowning row: it would be a king there.']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _, ngettext
from .errors import ShashkiError
from .game import Game
from .outcome import Termination
from .position import position_state
from .variant import Variant
from .variant_registry import find_variant

#: The letters of a piece: a side's man and king, and a piece without colour (man, king).
MAN = {0: "w", 1: "b", None: "n"}
KING = {0: "W", 1: "B", None: "N"}
SIDE_OF = {"w": 0, "W": 0, "b": 1, "B": 1, "n": None, "N": None}


@dataclass(frozen=True)
class SetupPiece:
    """A piece the editor offers: its letter, its side (None: a shared piece), a king?"""

    code: str
    side: int | None
    king: bool


class Setup:
    """An editable position of ``variant``: each square's pieces (one letter each, a
    column bottom to top), and the side to move."""

    def __init__(self, variant: Variant, fen: str | None = None) -> None:
        self.variant = variant
        start = Game(variant)
        self._start = position_state(start.position)
        gen = variant.generator
        geo = variant.board
        #: Pieces without colour (shared by both players).
        self.neutral = any(letter == "N" for letter, _bits in gen.fen_sections(self._start))
        #: Squares hold columns of pieces.
        self.columns = any(
            gen.stack(self._start, sq) for sq in geo.positions(self._start[0] | self._start[1])
        )
        self.squares: dict[int, str] = {}
        self.turn = int(self._start[3])
        if fen is not None:
            self.load(Game(variant, fen))
        else:
            self.load(start)

    @classmethod
    def of(cls, variant: Variant | str, fen: str | None = None) -> Setup:
        return cls(find_variant(variant), fen)

    def load(self, game: Game) -> None:
        """Take ``game``'s position as the one set up."""
        pos = position_state(game.position)
        gen = self.variant.generator
        self.squares = {}
        for sq in self.variant.board.positions(pos[0] | pos[1]):
            column = gen.stack(pos, sq) if self.columns else ""
            if column:
                self.squares[sq] = column
                continue
            piece = gen.piece_at(pos, sq)
            if piece is None:
                continue
            side = None if self.neutral else int(piece.color)  # type: ignore[arg-type]
            self.squares[sq] = (KING if piece.is_king else MAN)[side]
        self.turn = int(pos[3])

    # -- what may be placed ----------------------------------------------------------

    def palette(self) -> list[SetupPiece]:
        """The pieces this variant can have on its board, men first."""
        start = self._start
        rules = self.variant.rules
        men: set[int | None]
        kings: set[int | None]
        sides: list[int | None]
        if self.neutral:
            sides = [None]
            men = {None}
            kings = {None} if rules.promotion or start[2] else set()
        else:
            sides = [0, 1]
            men = {s for s in (0, 1) if start[s] & ~start[2]}
            kings = {0, 1} if rules.promotion else {s for s in (0, 1) if start[s] & start[2]}
        out = [SetupPiece(MAN[s], s, False) for s in sides if s in men]
        out += [SetupPiece(KING[s], s, True) for s in sides if s in kings]
        return out

    def square(self, name: str) -> int:
        """A square by its name or number; raises ShashkiError."""
        return self.variant.board.parse_square(name)

    def square_name(self, square: int) -> str:
        from .fen import square_text

        return square_text(self.variant, square)

    # -- editing ---------------------------------------------------------------------

    def place(self, square: int, code: str) -> None:
        """Put the piece ``code`` on ``square`` (in place of what stands there; on top
        of a column where columns are played and ``square`` holds one — see
        :meth:`stack_on`)."""
        self._check(square, code)
        self.squares[square] = code

    def stack_on(self, square: int, code: str) -> None:
        """Put ``code`` on top of the column on ``square`` (a new column where empty)."""
        self._check(square, code)
        if not self.columns:
            self.squares[square] = code
            return
        column = self.squares.get(square, "") + code
        if len(column) > self.most():
            raise ShashkiError(_("A column cannot be higher than the pieces of both sides."))
        self.squares[square] = column

    def lift(self, square: int) -> None:
        """Take the top piece off ``square`` (the whole piece where there are no columns)."""
        column = self.squares.get(square, "")[:-1]
        if column:
            self.squares[square] = column
        else:
            self.squares.pop(square, None)

    def clear(self, square: int | None = None) -> None:
        """Empty ``square`` (every square when None)."""
        if square is None:
            self.squares = {}
        else:
            self.squares.pop(square, None)

    def _check(self, square: int, code: str) -> None:
        if square not in self.variant.board.squares:
            raise ShashkiError(_("That square is not played in this game."))
        if code not in {p.code for p in self.palette()}:
            raise ShashkiError(_("This game has no such piece."))

    def most(self) -> int:
        """The pieces of the start position: no column is higher."""
        return (self._start[0] | self._start[1]).bit_count()

    # -- the FEN ---------------------------------------------------------------------

    def fen(self) -> str:
        """The position as PDN writes it (``W:Wc3,e5=bw:Bf6``)."""
        sections: dict[str, list[str]] = {"W": [], "B": [], "N": []}
        board = self.variant.board
        order = {sq: i for i, sq in enumerate(board.squares)}

        def place(sq: int) -> int:
            return board.number(sq) if self.variant.numeric else order[sq]

        for sq in sorted(self.squares, key=place):
            column = self.squares[sq]
            top = column[-1]
            side = SIDE_OF[top]
            letter = "N" if side is None else "WB"[side]
            name = self.square_name(sq)
            if len(column) > 1:
                sections[letter].append(f"{name}={column}")
            else:
                sections[letter].append(("K" if top.isupper() else "") + name)
        parts = ["WB"[self.turn]]
        if self.neutral:
            parts.append("N" + ",".join(sections["N"]))
        else:
            parts.append("W" + ",".join(sections["W"]))
            parts.append("B" + ",".join(sections["B"]))
        return ":".join(parts)

    def game(self) -> Game:
        """The position as a game to play; raises ShashkiError saying why it cannot be
        played (the first of :meth:`problems`)."""
        problems = self.problems()
        if problems:
            raise ShashkiError(problems[0])
        return Game(self.variant, self.fen())

    # -- why not ---------------------------------------------------------------------

    def counts(self) -> dict[int | None, int]:
        """The pieces of each side (None: without colour), columns' pieces included."""
        out: dict[int | None, int] = {}
        for column in self.squares.values():
            for code in column:
                out[SIDE_OF[code]] = out.get(SIDE_OF[code], 0) + 1
        return out

    def problems(self) -> list[str]:
        """Why this position cannot be played, each reason a sentence in the language
        spoken now; empty when it can."""
        out: list[str] = []
        variant = self.variant
        gen = variant.generator
        names = (variant.local_side(0), variant.local_side(1))
        start = self._start
        # a man standing where it would have been crowned
        promo = gen.promo
        for sq, column in sorted(self.squares.items()):
            top = column[-1]
            side = SIDE_OF[top]
            if top.islower() and side is not None and promo[side] >> sq & 1:
                out.append(
                    _(
                        "The man on {square} stands on its crowning row: it would be a king there."
                    ).format(square=self.square_name(sq))
                )
        # more pieces than the game starts with
        counts = self.counts()
        for side in [None] if self.neutral else [0, 1]:
            most = self.most() if side is None else start[side].bit_count()
            have = counts.get(side, 0)
            if have > most:
                if side is None:
                    out.append(
                        ngettext(
                            "{n} piece: more than the game starts with ({most}).",
                            "{n} pieces: more than the game starts with ({most}).",
                            have,
                        ).format(n=have, most=most)
                    )
                else:
                    out.append(
                        ngettext(
                            "{side}: {n} piece, more than the game starts with ({most}).",
                            "{side}: {n} pieces, more than the game starts with ({most}).",
                            have,
                        ).format(side=names[side], n=have, most=most)
                    )
        kings_at_start = start[2].bit_count()
        if not variant.rules.promotion and not self.neutral:
            kings = sum(1 for c in self.squares.values() for code in c if code.isupper())
            if kings > kings_at_start:
                out.append(
                    _("This game crowns no man: it has only the kings of its start ({n}).").format(
                        n=kings_at_start
                    )
                )
        if out:
            return out
        # the game itself: it must read, and not be over before the first move
        try:
            game = Game(variant, self.fen())
        except ShashkiError as exc:
            return [str(exc)]
        if not self.squares:
            return [_("The board is empty.")]
        side = int(game.turn)
        if not self.neutral and not counts.get(side):
            return [_("{side} to move, with no piece on the board.").format(side=names[side])]
        outcome = game.outcome()
        if outcome is not None:
            if outcome.termination is Termination.NO_LEGAL_MOVES:
                return [_("{side} to move, with no move to make.").format(side=names[side])]
            reason = outcome.describe(variant=variant)
            return [_("The game would be over at once: {reason}").format(reason=reason)]
        return []


__all__ = ["KING", "MAN", "SIDE_OF", "Setup", "SetupPiece"]
