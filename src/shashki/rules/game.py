"""The game object: a position, its history, legal moves and the end of the game."""

from __future__ import annotations

import math
import random
import weakref
from collections.abc import Iterator

from ..base.numbers import quoted
from ..i18n import N_, _
from .endrules import EndRules, GameView
from .errors import IllegalMoveError, PerftDepthError
from .fen import format_fen, parse_fen
from .move import Color, FastMove, Move, Piece, public_move
from .movegen import State
from .notation import move_text, parse_move, parse_typed_move
from .outcome import Outcome, Termination
from .position import Position
from .switches import Irreversible
from .variant import Variant
from .variant_registry import find_variant

# (position, clock, legal moves if known (the generator's, the library's), the move
# (the generator's, the library's if it was played as one)) saved by each push: pop
# restores the legal moves with the position.  The clock packs two counters: plies since
# the last man move or capture (low bits) and plies since the last capture or promotion
# (high bits).
_Saved = tuple[State, int, list[FastMove] | None, list[Move] | None, FastMove, Move | None]
_REV_MASK = (1 << 24) - 1
_MAT_ONE = 1 << 24
_BOTH = _MAT_ONE + 1
_MATERIAL = ~_REV_MASK


class Game:
    """A game of one variant: ``push``/``pop`` moves, ask for ``legal_moves`` and ``outcome``.

    >>> g = Game("russian")
    >>> len(g.legal_moves())
    7
    """

    def __init__(
        self,
        variant: Variant | str = "russian",
        fen: str | None = None,
        *,
        start: str | None = None,
        seed: int | None = None,
    ) -> None:
        """A new game of ``variant``, from ``fen`` or from the variant's start position.

        Where the variant offers several start positions (the wolf's square, the first
        mover of Artamonov's game) ``start`` picks one by its label.  Without one the game
        starts from the default (the option that is the variant's ``start``), every time:
        a start the variant draws by lot is drawn only when a ``seed`` is given, with
        ``random.Random(seed)``; ``start_label`` and ``seed`` record the result.  Raises
        BadFenError or ValueError.
        """
        self.variant: Variant = find_variant(variant)
        self._gen = self.variant.generator
        self._apply = self._gen.apply
        self._inline = self._gen.inline_apply
        self._quiet = _quiet_moves(self.variant)
        self._ends: EndRules | None = None  # built when first asked (they take a while)
        #: The label of the start option chosen or drawn, "" for a plain start.
        self.start_label = ""
        #: The seed the start was drawn from (a variant that draws it by lot), or None.
        self.seed: int | None = None
        if fen is None:
            fen = self.variant.start
            options = self.variant.start_options
            if options and self.variant.start_by_lot:
                self.seed = seed
            if start is not None:
                labels = {label.lower(): (label, f) for label, f in options}
                if start.lower() not in labels:
                    known = ", ".join(label for label, _ in options) or "none"
                    raise ValueError(
                        f"{self.variant.name} has no start option {quoted(start)} "
                        f"(options: {known})"
                    )
                self.start_label, fen = labels[start.lower()]
            elif self.seed is not None:
                self.start_label, fen = random.Random(self.seed).choice(options)
            elif options:
                default = [o for o in options if o[1] == self.variant.start] or list(options)
                self.start_label, fen = default[0]
        self.set_fen(fen)

    # -- set-up ---------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN and forget the history; raises BadFenError."""
        state = parse_fen(self.variant, fen)
        self._pos: State = state.position
        # Plies since the last capture or promotion: unknown from a FEN, at least H.
        self._clock = state.reversible * _BOTH
        first = int(self.variant.rules.first)
        self._ply0 = 2 * (state.fullmove - 1) + (0 if state.position[3] == first else 1)
        self._stack: list[_Saved] = []
        self._moves: list[FastMove] | None = None
        self._listed: list[Move] | None = None
        self._ended: Outcome | None = None

    @classmethod
    def from_fen(cls, variant: Variant | str, fen: str) -> Game:
        return cls(variant, fen)

    def copy(self) -> Game:
        """An independent copy with the same position and history."""
        other = Game.__new__(Game)
        other.variant = self.variant
        other._gen = self._gen
        other._apply = self._apply
        other._inline = self._inline
        other._quiet = self._quiet
        other._ends = self._ends
        other.start_label = self.start_label
        other.seed = self.seed
        other._pos = self._pos
        other._clock = self._clock
        other._ply0 = self._ply0
        other._stack = list(self._stack)
        other._moves = self._moves
        other._listed = self._listed
        other._ended = self._ended
        return other

    # -- state ----------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position: what stands where, the side to move (an immutable,
        hashable :class:`~shashki.rules.position.Position`)."""
        return Position(self.variant, self._pos)

    @property
    def turn(self) -> Color:
        return Color(self._pos[3])

    @property
    def ply(self) -> int:
        """Plies played since the game's first move (counting the FEN's move number)."""
        return self._ply0 + len(self._stack)

    @property
    def fullmove_number(self) -> int:
        return 1 + self.ply // 2

    def move_count(self) -> int:
        """The moves played, as players count them and the move list numbers them: a
        move number holds a turn of each side (19 plies from the start are 10 moves, a
        turn of two moves is one, and a game begun by the second side counts its first
        turn as a move).

        >>> game = Game("russian")
        >>> for text in ("c3-d4", "f6-g5", "b2-c3"):
        ...     _ = game.push_text(text)
        >>> len(game.move_stack), game.move_count()
        (3, 2)
        """
        movers = [side for side, _move in self.history()]
        turns = [side for i, side in enumerate(movers) if i == 0 or movers[i - 1] is not side]
        first = self.variant.rules.first
        return sum(side is first for side in turns) + (bool(turns) and turns[0] is not first)

    @property
    def reversible_plies(self) -> int:
        """Plies since the last man move or capture."""
        return self._clock & _REV_MASK

    @property
    def material_plies(self) -> int:
        """Plies since the last capture or promotion."""
        return self._clock >> 24

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, first to last."""
        return [self._played(saved) for saved in self._stack]

    def history(self) -> list[tuple[Color, Move]]:
        """Each move played with the side that played it."""
        return [(Color(saved[0][3]), self._played(saved)) for saved in self._stack]

    def _played(self, saved: _Saved) -> Move:
        """The library's form of the move ``saved`` on the stack."""
        move = saved[5]
        if move is None:
            move = self._public(saved[0], saved[4])
        return move

    def piece_at(self, square: int) -> Piece | None:
        return self._gen.piece_at(self._pos, square)

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square and its piece."""
        out = {}
        for sq in self.variant.board.squares:
            piece = self._gen.piece_at(self._pos, sq)
            if piece is not None:
                out[sq] = piece
        return out

    def fen(self) -> str:
        return format_fen(self.variant, self._pos, self.reversible_plies, self.fullmove_number)

    def __repr__(self) -> str:
        return f"Game({self.variant.id!r}, {self.fen()!r})"

    # -- moves ----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move (a fresh list).

        >>> Game("russian").legal_moves()[:3]
        [<Move c3-b4>, <Move e3-d4>, <Move g3-f4>]
        """
        listed = self._listed
        if listed is None:
            listed = self._listed = self._list(self._pos, self._fast_moves())
        return list(listed)

    def _fast_moves(self) -> list[FastMove]:
        """The legal moves in the generator's form (kept until the position changes)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._gen.moves(self._pos)
        return moves

    def captures(self) -> list[Move]:
        """The capturing moves available to the side to move."""
        return self._list(self._pos, self._gen.captures(self._pos))

    def _list(self, pos: State, moves: list[FastMove]) -> list[Move]:
        """The library's form of the generator's ``moves`` in ``pos``; a quiet move is
        made once per variant (the generator's quiet moves are shared the same way)."""
        inline = self._inline
        variant = self.variant
        if inline is None:  # the generator makes its moves itself: it says what crowns
            crowns = self._gen.crowns
            return [public_move(m, crowns(pos, m), variant) for m in moves]
        kings = pos[2]
        row = inline[pos[3]]
        passing = inline[2]
        plain, crowned = self._quiet
        out = []
        for m in moves:
            # (as push_unchecked: a man crowned on its end square, or on any landing
            # square of a capture where the man crowned in passing goes on as a king)
            promotion = not kings & m[2] and bool((m[5] if passing else m[3]) & row)
            if m[4]:
                out.append(public_move(m, promotion, variant))
                continue
            table = crowned if promotion else plain
            made = table.get(m[0])
            if made is None:
                made = table[m[0]] = public_move(m, promotion, variant)
            out.append(made)
        return out

    def _public(self, pos: State, move: FastMove) -> Move:
        """The library's form of one of the generator's moves in ``pos``."""
        return self._list(pos, [move])[0]

    def find_move(self, move: Move) -> Move:
        """The legal move equal to ``move``: the same path, or the same start, end and
        captured pieces.  Raises IllegalMoveError."""
        legal = self.legal_moves()
        if move in legal:
            return legal[legal.index(move)]
        same = [
            m
            for m in legal
            if m.start == move.start and m.end == move.end and set(m.captured) == set(move.captured)
        ]
        if len(same) == 1:
            return same[0]
        board = self.variant.board
        names = "-".join(board.name(p) if 0 <= p < board.size else str(p) for p in move.path)
        over = None if legal else self.outcome()
        if over is not None:  # a goal reached, or no move: nothing is legal any more
            raise IllegalMoveError(
                f"{names} is not a legal move: the game is over "
                f"({over.describe(self.variant.side_names)})"
            )
        raise IllegalMoveError(f"{names} is not a legal move in {self.fen()}")

    def push(self, move: Move) -> Move:
        """Play a legal move; raises IllegalMoveError (and changes nothing) otherwise.

        Returns the legal move played (the listed form of ``move``).
        """
        if self._ended is not None:
            raise IllegalMoveError(
                f"the game is over ({self._ended.describe(self.variant.side_names)})"
            )
        legal_move = self.find_move(move)
        self.push_unchecked(legal_move)
        return legal_move

    def parse_move(self, text: str) -> Move:
        """The legal move that ``text`` names in the variant's notation (``"c3-d4"``,
        ``"32-28"``, ``"c3:e5:c7"``).

        Raises NotationError (not a move text), IllegalMoveError (no legal move matches) or
        AmbiguousMoveError (several do).

        >>> Game("russian").parse_move("c3-d4")
        <Move c3-d4>
        """
        return parse_move(self.variant, text, self.legal_moves(), self._pos)

    def parse_typed_move(self, text: str) -> Move:
        """The legal move a player's ``text`` names: what :meth:`parse_move` reads, and the
        forms players type besides (``c3d4``, ``c3 d4``, ``C3-D4``, ``3228`` where only one
        cut into squares fits, or ``d4`` when one legal move goes there).

        Raises as :meth:`parse_move` does; an ambiguous short form says the moves meant.

        >>> game = Game("russian")
        >>> game.parse_typed_move("c3d4"), game.parse_typed_move("h4")
        (<Move c3-d4>, <Move g3-h4>)
        >>> game.parse_typed_move("d4")
        Traceback (most recent call last):
        ...
        shashki.rules.errors.AmbiguousMoveError: d4: c3-d4 or e3-d4?
        """
        return parse_typed_move(self.variant, text, self.legal_moves(), self._pos)

    def move_text(self, move: Move, *, full: bool = False) -> str:
        """``move`` — a legal move here, or the move just played — in the variant's
        notation, written in full (every landing square) when ``full`` is set or when a
        shorter text would name another move of its position too.

        >>> game = Game("international")
        >>> game.move_text(game.parse_move("32-28"))
        '32-28'
        >>> game.move_text(game.push_text("32-28"))
        '32-28'
        """
        if full:  # every landing square: no other move need be looked at
            return move_text(self.variant, move, full=True)
        legal: list[FastMove] = self._fast_moves()
        if self._stack and not any(_same(m, move) for m in legal):
            before, _was, known, _listed, last, _kept = self._stack[-1]
            if _same(last, move):
                legal = known if known is not None else self._gen.moves(before)
        return move_text(self.variant, move, legal, full=full)

    def push_text(self, text: str) -> Move:
        """Play the legal move that ``text`` names; returns it.  Raises what
        :meth:`parse_move` raises, or IllegalMoveError when the game is over.

        >>> game = Game("russian")
        >>> game.move_text(game.push_text("c3-d4"))
        'c3-d4'
        """
        return self.push(self.parse_move(text))

    def push_unchecked(self, move: Move) -> None:
        """Play a move known to be legal (one of :meth:`legal_moves`), without checking
        it: the fastest way to walk a tree of moves."""
        fast = move._fast
        self._play(move.fast() if fast is None else fast, move)

    def _play(self, move: FastMove, public: Move | None = None) -> None:
        """Play the generator's ``move``, known to be legal (``public``: the library's
        form it was played as, if any)."""
        pos = self._pos
        clock = self._clock
        self._stack.append((pos, clock, self._moves, self._listed, move, public))
        self._moves = None
        self._listed = None
        inline = self._inline
        if inline is None:  # the generator makes its moves itself
            self._pos = new = self._apply(pos, move)
            if move[4]:  # a capture resets both counters
                self._clock = 0
            elif pos[2] & move[2]:  # a king moved: both counters go on
                self._clock = clock + _BOTH
            elif new[2] & move[3]:  # a man was crowned: the balance of forces changed
                self._clock = 0
            else:  # a man moved
                self._clock = (clock & ~_REV_MASK) + _MAT_ONE
            return
        # MoveGenerator.apply, inlined (the hot path of search and perft), and the clock.
        w, b, k, turn, extra = pos
        _s0, _s1, fm, tm, cm, lm = move
        if not cm:  # a quiet move
            if turn:
                b ^= fm | tm
            else:
                w ^= fm | tm
            if k & fm:  # a king moved: both counters go on
                self._pos = (w, b, k ^ (fm | tm), turn ^ 1, extra)
                self._clock = clock + _BOTH
            elif tm & inline[turn]:  # a man was crowned
                self._pos = (w, b, k | tm, turn ^ 1, extra)
                self._clock = 0
            else:  # a man moved
                self._pos = (w, b, k, turn ^ 1, extra)
                self._clock = (clock & _MATERIAL) + _MAT_ONE
            return
        if turn:
            b = (b ^ fm) | tm
            w &= ~cm
        else:
            w = (w ^ fm) | tm
            b &= ~cm
        if k & fm:
            self._pos = (w, b, ((k ^ fm) & ~cm) | tm, turn ^ 1, extra)
        elif (lm if inline[2] else tm) & inline[turn]:  # a man was crowned
            self._pos = (w, b, (k & ~cm) | tm, turn ^ 1, extra)
        else:
            self._pos = (w, b, k & ~cm, turn ^ 1, extra)
        self._clock = 0  # a capture resets both counters

    def pop(self) -> Move:
        """Take back the last move; raises IndexError when there is none."""
        saved = self._stack.pop()
        self._pos, self._clock, self._moves, self._listed, _fast, move = saved
        self._ended = None
        return self._played(saved) if move is None else move

    # -- the end of the game ----------------------------------------------------

    def resign(self, side: Color | None = None) -> Outcome:
        """``side`` (default: the side to move) resigns."""
        loser = self.turn if side is None else Color(side)
        self._ended = Outcome(
            Termination.RESIGNATION,
            loser.other,
            f"{self.variant.side_names[loser]} resigned",
            N_("{side} resigned"),
            {"side": loser},
        )
        return self._ended

    def abandon(self, side: Color) -> Outcome:
        """``side`` left the game and stayed away (an online game claimed by the other
        side): a loss, like a resignation, said as what it was."""
        loser = Color(side)
        self._ended = Outcome(
            Termination.ABANDONED,
            loser.other,
            f"{self.variant.side_names[loser]} left the game",
            N_("{side} left the game"),
            {"side": loser},
        )
        return self._ended

    @property
    def ended(self) -> Outcome | None:
        """The resignation, agreed draw or time forfeit that ended the game, if any."""
        return self._ended

    def reopen(self) -> bool:
        """Take back a resignation, an agreed draw or a time forfeit; False if there was
        none."""
        was = self._ended is not None
        self._ended = None
        return was

    def time_out(self, side: Color | None = None) -> Outcome:
        """``side``'s clock ran out (default: the side to move's): the other side wins,
        unless it could not win any more (:meth:`EndRules.could_win
        <shashki.rules.endrules.EndRules.could_win>`: it has no piece, or a draw rule of
        the variant that the material alone decides holds), then the game is drawn."""
        loser = self.turn if side is None else Color(side)
        winner = loser.other
        names = self.variant.side_names
        ends = self._ends
        if ends is None:
            ends = self._ends = EndRules(self.variant)
        if ends.could_win(self._pos, winner):
            self._ended = Outcome(
                Termination.TIME_FORFEIT,
                winner,
                f"{names[loser]} ran out of time",
                N_("{side} ran out of time"),
                {"side": loser},
            )
        else:
            self._ended = Outcome(
                Termination.TIME_FORFEIT,
                None,
                f"{names[loser]} ran out of time, but {names[winner]} cannot win",
                N_("{side} ran out of time, but {other} cannot win"),
                {"side": loser, "other": winner},
            )
        return self._ended

    def forfeit(self, side: Color, name: str, reason: str, said: str | None = None) -> Outcome:
        """``side``'s player (called ``name``) could not go on for ``reason`` (an engine
        that stopped, hung or answered an illegal move; ``said``: the same in the
        language spoken): the referee scores the game a loss for it."""
        loser = Color(side)
        names = self.variant.side_names
        self._ended = Outcome(
            Termination.FORFEIT,
            loser.other,
            f"{name} ({names[loser]}) could not go on: {reason}",
            N_("{name} ({side}) could not go on: {reason}"),
            {"name": name, "side": loser, "reason": said if said is not None else reason},
        )
        return self._ended

    def adjudicate(self, plies: int) -> Outcome:
        """The referee ends a game still going after ``plies`` plies: a draw."""
        self._ended = Outcome(
            Termination.ADJUDICATED,
            None,
            f"adjudicated at the limit of {plies} plies",
            N_("adjudicated at the limit of {plies} plies"),
            {"plies": plies},
        )
        return self._ended

    def agree_draw(self) -> Outcome:
        self._ended = Outcome(Termination.AGREED_DRAW, None, "by agreement", N_("by agreement"))
        return self._ended

    def repetitions(self) -> int:
        """How many times the current position has occurred (this time included), with
        the same side to move."""
        key_of = self._gen.key
        key = key_of(self._pos)
        count = 1
        stack = self._stack
        # Positions before the last move the generator declares irreversible (a capture,
        # a crowning, a man's move) cannot come back.  The key holds the side to move, so
        # only positions with the same side to move can match.
        stop = len(stack) - min(len(stack), self.lookback())
        for i in range(len(stack) - 1, stop - 1, -1):
            if key_of(stack[i][0]) == key:
                count += 1
        return count

    def lookback(self) -> int:
        """How many plies back a position may have occurred that can occur again now: to
        the last move the generator declares irreversible (``MoveGenerator.irreversible``),
        or the whole game."""
        level = self._gen.irreversible
        if level >= Irreversible.MEN:
            return self.reversible_plies
        if level >= Irreversible.MATERIAL:
            return self.material_plies
        return len(self._stack)

    def outcome(self) -> Outcome | None:
        """Why and how the game ended, or None while it goes on (the variant's end rules:
        :meth:`EndRules.outcome_of <shashki.rules.endrules.EndRules.outcome_of>`)."""
        if self._ended is not None:
            return self._ended
        ends = self._ends
        if ends is None:
            ends = self._ends = EndRules(self.variant)
        view = GameView(self._pos, self.repetitions)
        return ends.outcome_of(view, self._fast_moves(), self.reversible_plies, self.material_plies)

    def is_over(self) -> bool:
        return self.outcome() is not None

    # -- perft ------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Leaf nodes of the legal-move tree at exactly ``depth`` plies (fast: copy-make,
        moves counted, not made, at the last ply).  Raises PerftDepthError for a depth
        it cannot finish (:meth:`check_perft_depth`)."""
        self.check_perft_depth(depth)
        return perft_count(self.variant, self._pos, depth)

    def divide(self, depth: int) -> Iterator[tuple[Move, int]]:
        """Each legal move with the perft count below it at ``depth - 1``.  Raises
        PerftDepthError, before the first move, for a depth it cannot finish."""
        self.check_perft_depth(depth)
        gen = self._gen
        pos = self._pos
        for fast, mv in zip(self._fast_moves(), self.legal_moves(), strict=True):
            yield mv, perft_count(self.variant, gen.apply(pos, fast), depth - 1)

    def check_perft_depth(self, depth: int) -> None:
        """Refuse a perft depth that cannot be finished: one below 0, one deeper than
        MAX_PERFT_DEPTH (the count recurses once per ply), or one at which the tree,
        growing from here as it does over its first plies, would have more than
        10^PERFT_LIMIT leaves (months of counting).  The growth is measured by counting
        the first plies (a few thousand leaves), so the answer is the same every time.
        Raises PerftDepthError saying why, with the deepest depth it counts here."""
        if depth < 0:
            raise PerftDepthError(
                _("perft depth must be 0 or more, not {depth}").format(depth=_number(depth))
            )
        if depth > MAX_PERFT_DEPTH:
            raise PerftDepthError(
                _(
                    "perft depth {depth} cannot be counted: perft counts at most {most} plies deep"
                ).format(depth=_number(depth), most=MAX_PERFT_DEPTH)
            )
        if depth <= _PERFT_SURE:
            return
        counts = [1]
        while len(counts) <= min(depth - 1, _PERFT_PROBE_PLIES) and counts[-1] < _PERFT_PROBE:
            counts.append(perft_count(self.variant, self._pos, len(counts)))
        last = len(counts) - 1
        if counts[last] == 0:
            return  # the tree ends before that depth: nothing is left to count
        # the growth per ply, over two plies where it can (each side's moves in turn)
        if last >= 2:
            growth = (counts[last] / counts[last - 2]) ** 0.5
        else:
            growth = counts[last] / counts[last - 1]
        if growth <= 1.0:
            return
        per_ply = math.log10(growth)
        digits = math.log10(counts[last]) + (depth - last) * per_ply
        if digits <= PERFT_LIMIT:
            return
        deepest = last + int((PERFT_LIMIT - math.log10(counts[last])) / per_ply)
        raise PerftDepthError(
            _(
                "perft depth {depth} cannot be finished: the tree grows about {growth} "
                "times a ply from here, to some 10^{digits} leaves at that depth, and perft "
                "counts a few million a second; it counts to depth {deepest} here (at most "
                "10^{limit} leaves, months of counting)"
            ).format(
                depth=depth,
                growth=f"{growth:.1f}",
                digits=f"{digits:.0f}",
                deepest=max(deepest, _PERFT_SURE),
                limit=PERFT_LIMIT,
            )
        )


#: The deepest perft counts at all: the count recurses once per ply.
MAX_PERFT_DEPTH = 100
#: The most leaves perft sets out to count, as a power of ten: months of counting at the
#: few million leaves a second of the fast perft.  A deeper tree is refused, not started.
PERFT_LIMIT = 13
#: Depths counted without measuring the tree first (hours of counting at the most).
_PERFT_SURE = 10
#: The tree's growth is measured over at most this many plies and leaves.
_PERFT_PROBE_PLIES = 14
_PERFT_PROBE = 5_000


def _number(value: int) -> str:
    """``value`` for a message: a number too long to read (or to write: Python refuses
    more than 4,300 digits) is shown by its first digits and its length."""
    size = abs(value)
    if size.bit_length() <= 100:
        return str(value)
    digits = int(size.bit_length() * math.log10(2)) + 1
    if size < 10 ** (digits - 1):
        digits -= 1
    sign = "-" if value < 0 else ""
    return f"{sign}{size // 10 ** (digits - 12)}... ({digits} digits)"


def perft_count(variant: Variant, pos: State, depth: int) -> int:
    """Perft by copy-make on the engine's bitboards, counting at the last ply."""
    return variant.generator.perft(pos, depth)


def _same(a: FastMove | Move, b: FastMove | Move) -> bool:
    """Whether two moves, in either form, have the same squares."""
    return a.path == b.path and a.captured == b.captured


#: Each variant's quiet moves in the library's form, made once: (not crowning, crowning),
#: by path.
_QUIET: weakref.WeakKeyDictionary[
    Variant, tuple[dict[tuple[int, ...], Move], dict[tuple[int, ...], Move]]
] = weakref.WeakKeyDictionary()


def _quiet_moves(
    variant: Variant,
) -> tuple[dict[tuple[int, ...], Move], dict[tuple[int, ...], Move]]:
    tables = _QUIET.get(variant)
    if tables is None:
        tables = _QUIET[variant] = ({}, {})
    return tables


# -- the side door of the rules and the engine ------------------------------------------
#
# The library's Game speaks of Move and Position; the engine, the app's board and the
# records' reader need the generator's forms without the cost of making the library's.
# These functions are that door (internal: not part of the library's surface).


def game_state(game: Game) -> State:
    """The generator's form of ``game``'s current position."""
    return game._pos


def played_states(game: Game) -> list[State]:
    """The generator's form of every position of ``game``, from the first to the
    current one."""
    return [saved[0] for saved in game._stack] + [game._pos]


def fast_moves(game: Game) -> list[FastMove]:
    """The legal moves of ``game`` in the generator's form (the list the game keeps: not
    to be changed)."""
    return game._fast_moves()


def push_fast(game: Game, move: FastMove) -> None:
    """Play the generator's ``move``, known to be legal in ``game``."""
    game._play(move)


def library_move(game: Game, move: FastMove) -> Move:
    """The library's form of the generator's ``move``, legal in ``game``'s position."""
    return game._public(game._pos, move)


def library_moves(game: Game, moves: list[FastMove]) -> list[Move]:
    """The library's form of the generator's ``moves``, legal in ``game``'s position."""
    return game._list(game._pos, moves)
