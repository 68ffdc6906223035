"""The replay controller: the app's model of a recorded game being replayed (plain Python,
no Textual).

It holds the record, the move shown and the position after it, and the move list of the
whole tree (each variation indented after its move); it steps (first, previous, next, last,
any move of the list), enters, leaves and chooses variations, says where it is, and gives
the position to take over from.  The replay screen renders it and runs the timers
(auto-play, captures shown jump by jump).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _, ngettext, noun
from ..records import GameNode, GameRecord
from ..records.annotations import comment_with, mark_of, text_of, user_text, with_mark
from ..records.clocks import clock_in, end_clocks, time_control
from ..records.ending import record_outcome
from ..rules import Color, Game, Move, Outcome
from ..rules.outcome import Termination
from .clock import clock_display
from .controller import GameController
from .movelist import Entry, TurnRow, turn_rows
from .plain import visible

#: The move marks (PDN's numeric annotation glyphs) written after a move.
NAG_TEXT = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}


@dataclass(frozen=True)
class MoveRow:
    """One row of the move list: a move of the record's tree."""

    node: GameNode
    #: 0 on the main line, one more in each variation nested deeper.
    depth: int
    #: The move number as written before the move: "12. " (first side) or "12… ".
    number: str
    #: The move in the variant's notation with its marks: "c3-d4!".
    text: str
    #: An alternative to a move of a variation (drawn with a branch mark).
    branch: bool
    comments: tuple[str, ...]

    @property
    def name(self) -> str:
        """The move as the position line names it: "12… c3-d4!"."""
        return self.number + self.text


@dataclass(frozen=True)
class Step:
    """The answer to a replay action: where it went, or why it went nowhere."""

    moved: bool = False
    #: A capture of several jumps just stepped into (shown jump by jump).
    jumps: Move | None = None
    refused: str = ""
    #: The tree was changed (the move list is to be made again).
    edited: bool = False


@dataclass(frozen=True)
class _State:
    """A study as it was: its tree (a copy), where the replay stood, its number."""

    tree: GameNode
    where: list[int]
    number: int


@dataclass(frozen=True)
class TakeOver:
    """A live game from the position shown: the position (its moves kept) and the
    players' names from the record (empty where it has none), or why not."""

    game: Game | None = None
    names: tuple[str, str] = ("", "")
    refused: str = ""


class ReplayController:
    """A recorded game and the move of it on show.

    Raises ShashkiError when the record has no variant shashki plays or its start
    position is bad."""

    def __init__(self, record: GameRecord, *, changed: bool = False) -> None:
        """``changed``: the record is a study's unsaved state (taken up again)."""
        self.record = record
        #: The node shown: the record itself for the start position, else the move just made.
        self.node: GameNode = record
        #: The position after :attr:`node`'s move.
        self.game = record.start()
        #: The game the board shows (nothing to select on it).
        self.controller = _shown(self.game)
        self.rows: list[MoveRow] = self._move_rows()
        #: The states before each edit (the tree and where the replay stood), newest
        #: last, and those undone, for redo.
        self._undo: list[_State] = []
        self._redo: list[_State] = []
        #: The number of the state shown; :meth:`mark_saved` remembers the one on disk.
        self._state = 0
        self._states = 0
        self._saved = -1 if changed else 0

    # -- the move list ---------------------------------------------------------------

    def _move_rows(self) -> list[MoveRow]:
        """One row per move of the whole tree: variations after their move."""
        rows: list[MoveRow] = []

        def row(node: GameNode, game: Game, depth: int) -> MoveRow:
            ply = game.ply
            number = ply // 2 + 1
            return MoveRow(
                node,
                depth,
                f"{number}. " if ply % 2 == 0 else f"{number}… ",
                game.move_text(node.move) + "".join(NAG_TEXT.get(n, "") for n in node.nags),  # type: ignore[arg-type]
                bool(depth and node.parent and node is not node.parent.variations[0]),
                # the clock's marks are shown in the position's lines, not as comments
                tuple(t for c in node.comments if (t := _without_clock(c))),
            )

        def walk(node: GameNode, game: Game, depth: int) -> None:
            # node's continuations: main first, then its alternatives
            while node.variations:
                main = node.variations[0]
                rows.append(row(main, game, depth))
                alternatives = node.variations[1:]
                for alt in alternatives:
                    g2 = game.copy()
                    rows.append(row(alt, g2, depth + 1))
                    g2.push_unchecked(alt.move)  # type: ignore[arg-type]
                    walk(alt, g2, depth + 1)
                game.push_unchecked(main.move)  # type: ignore[arg-type]
                node = main

        # the moves are the reader's, each legal where it stands: played without checks
        walk(self.record, self.record.start(), 0)
        return rows

    def turn_rows(self) -> list[TurnRow]:
        """The move list as the game screen writes it: numbered rows with both sides'
        moves (:func:`~shashki.app.movelist.turn_rows`), each variation's rows after the
        move it is an alternative to, indented; each move's key is its node."""
        rows: list[TurnRow] = []
        variant = self.record.variant
        first = int(variant.rules.first) if variant is not None else 0

        def entry(node: GameNode, game: Game, breaks: bool) -> Entry:
            nags = "".join(NAG_TEXT.get(n, "") for n in node.nags)
            note = " ".join(t for c in node.comments if (t := _without_clock(c)))
            text = game.move_text(node.move) + nags  # type: ignore[arg-type]
            return Entry(int(game.turn), text, node, note, breaks)

        def line(start: GameNode, game: Game, depth: int, branch: bool) -> None:
            """The rows of the line that starts with ``start``'s move (from ``game``)
            and goes on along its main continuation."""
            segment: list[Entry] = []
            number, opened = 0, False
            node = start
            while True:
                parent = node.parent
                alternatives = (
                    parent.variations[1:] if parent and parent.variations[0] is node else []
                )
                if not segment:
                    number = game.ply // 2 + 1
                segment.append(entry(node, game, bool(alternatives)))
                if alternatives:  # the row ends; the alternatives follow, one level in
                    rows.extend(turn_rows(segment, first, number, depth=depth, branch=branch))
                    branch, opened, segment = False, True, []
                    for alternative in alternatives:
                        line(alternative, game.copy(), depth + 1, True)
                game.push_unchecked(node.move)  # type: ignore[arg-type]
                if not node.variations:
                    break
                node = node.variations[0]
            if segment:
                rows.extend(
                    turn_rows(segment, first, number, depth=depth, branch=branch and not opened)
                )

        # the moves are the reader's, each legal where it stands: played without checks
        if self.record.variations:
            line(self.record.variations[0], self.record.start(), 0, False)
        return rows

    def row_of(self, node: GameNode) -> int | None:
        """The row of the move list that shows ``node``'s move (None for the start)."""
        for i, row in enumerate(self.rows):
            if row.node is node:
                return i
        return None

    # -- where it is -----------------------------------------------------------------

    def where(self) -> str:
        """Where the replay is, in a few lines: after which move, who is to move, the
        result at the end, and the variations that branch here."""
        node = self.node
        game = self.game
        names = self._names()
        if node.parent is None:
            where = _("Start position")
        else:
            i = self.row_of(node)
            number = (node.ply() + 1) // 2
            text = self.rows[i].name if i is not None else _("move {n}").format(n=number)
            if node.is_mainline():
                where = _("After {move}").format(move=text)
            else:
                where = _("After {move} (in a variation)").format(move=text)
        out = self.ending() if self.at_end() else game.outcome()
        where += "\n" + _("{side} to move").format(side=names[game.turn])
        if out is not None:
            variant = self.record.variant
            where += "\n" + (out.describe(variant=variant) if variant else out.describe(names))
        elif (
            not node.variations
            and node.parent is not None
            and self.record.result not in ("", "*", None)
        ):
            result = self.record.header("Result") or self.record.result
            where += "\n" + _("Result: {result}").format(result=result)
            said = " ".join(self.record.header("Termination").split())
            if said and self.at_end():  # how it ended, in the file's words
                where += " — " + visible(said[:120])
        clocks = self.clocks()
        if clocks:
            where += f"\n{clocks}"
        alts = len(node.variations) - 1
        if alts > 0:
            where += "\n" + ngettext(
                "{n} variation here: press v", "{n} variations here: press v", alts
            ).format(n=alts)
        return where

    def at_end(self) -> bool:
        """Whether the move shown is the last of the main line (where the game ended)."""
        node = self.node
        return node.parent is not None and not node.variations and node.is_mainline()

    def ending(self) -> Outcome | None:
        """How the game ended, at the end of its main line (the rules, or the record's
        ``Result`` and ``Termination``: :func:`~shashki.records.ending.record_outcome`)."""
        return record_outcome(self.record, self.game)

    def _names(self) -> tuple[str, str]:
        """The sides' names in the language spoken now."""
        v = self.record.variant
        if v is None:
            return noun(_("White"), "White"), noun(_("Black"), "Black")
        return v.local_side(0), v.local_side(1)

    def clocks(self) -> str:
        """Each side's time left at the move shown ("Clock: White 4:53, Black 4:50"),
        from the ``[%clk]`` marks of the moves so far and the ``TimeControl`` tag; ""
        when the record has no clock."""
        names = self._names()
        control = time_control(self.record)
        left: list[float | None] = [None, None]
        if control is not None:
            left = [control.seconds, control.seconds]
        game = self.record.start()
        for node in self.node.path():
            side = game.turn
            game.push_unchecked(node.move)  # type: ignore[arg-type]
            for comment in node.comments:
                mark = clock_in(comment)
                if mark is not None:
                    left[side] = mark
                    break
        at_end = self.clocks_at_end()
        if at_end is not None:  # the game ended between moves (a resignation…)
            left = list(at_end)
        if left == [None, None]:
            return ""
        out = self.ending() if self.at_end() else None
        loser = out.params.get("side") if out is not None else None
        if out is not None and out.termination is Termination.TIME_FORFEIT:
            if isinstance(loser, Color):
                left[loser] = 0.0  # the flag fell: that clock showed 0:00 at the end
        shown = [
            f"{names[side]} {clock_display(t)}" for side, t in enumerate(left) if t is not None
        ]
        return _("Clock: {clocks}").format(clocks=", ".join(shown))

    def clocks_at_end(self) -> tuple[float, float] | None:
        """Both clocks as they stood when the game ended (the record's ``EndClock``),
        at the end of its main line; None elsewhere, or for a record without it."""
        if not self.at_end():
            return None
        return end_clocks(self.record)

    def comments(self) -> str:
        """The comments on the move shown (and those before it), one a line."""
        node = self.node
        comments = list(getattr(node, "starting_comments", [])) + list(node.comments)
        return "\n".join(t for c in comments if (t := _without_clock(c)))

    # -- moving through the record ---------------------------------------------------

    def go(self, node: GameNode, animate: bool = False) -> Step:
        """Show the position after ``node``'s move; with ``animate``, a capture of
        several jumps made from the node shown is given back to be shown jump by jump."""
        prev = self.node
        game = self._position(node)
        self.node = node
        self.game = game
        self.controller = _shown(game)
        jumps = None
        if animate and node.parent is prev and node.move is not None and len(node.move.path) > 2:
            jumps = node.move
        return Step(moved=True, jumps=jumps)

    def _position(self, node: GameNode) -> Game:
        """A fresh game in the position after ``node``'s move."""
        game = self.record.start()
        for n in node.path():
            game.push_unchecked(n.move)  # type: ignore[arg-type]
        return game

    def first(self) -> Step:
        """The start position."""
        return self.go(self.record)

    def last(self) -> Step:
        """The end of the line shown."""
        return self.go(self.node.end())

    def next(self) -> Step:
        """One move on along the line shown (nothing at its end)."""
        nxt = self.node.next()
        if nxt is None:
            return Step()
        return self.go(nxt, animate=True)

    def prev(self) -> Step:
        """One move back (nothing at the start)."""
        if self.node.parent is None:
            return Step()
        return self.go(self.node.parent)

    def jump(self, row: int) -> Step:
        """The move of row ``row`` of the move list (any ply, on any line)."""
        if not 0 <= row < len(self.rows):
            return Step()
        return self.go(self.rows[row].node)

    def enter_variation(self) -> Step:
        """Into a variation: the first alternative to the next move, else the next
        alternative to the move shown (round to the main move after the last)."""
        node = self.node
        # variations branch at the parent: alternatives to the move just shown, or to the next
        if len(node.variations) > 1:
            return self.go(node.variations[1], animate=True)
        if node.parent is not None and len(node.parent.variations) > 1:
            siblings = node.parent.variations
            i = siblings.index(node)
            return self.go(siblings[(i + 1) % len(siblings)], animate=True)
        return Step(refused=_("No variation here."))

    def leave_variation(self) -> Step:
        """Out of the variation shown, back to the move where it branched off."""
        node = self.node
        while node.parent is not None and node.parent.variations[0] is node:
            node = node.parent
        if node.parent is None:
            return Step(refused=_("Already on the main line."))
        return self.go(node.parent)

    # -- editing the study -------------------------------------------------------------

    @property
    def changed(self) -> bool:
        """Whether the tree differs from the one read (or last saved)."""
        return self._state != self._saved

    def mark_saved(self) -> None:
        """The tree shown is the one on disk now."""
        self._saved = self._state

    def touched(self) -> None:
        """The tree was changed outside the edits (a review written into it): a change
        to save, not one to undo."""
        self._states += 1
        self._state = self._states

    def _edit(self) -> None:
        """Keep the state before an edit, for undo."""
        self._undo.append(self._snapshot())
        self._redo.clear()
        self._states += 1
        self._state = self._states

    def _snapshot(self) -> _State:
        return _State(self.record.copy_tree(), self.node.index_path(), self._state)

    def _restore(self, state: _State) -> None:
        self.record.set_tree(state.tree.copy_tree())
        self._state = state.number
        self._rebuilt(self.record.follow(state.where))

    def _rebuilt(self, node: GameNode) -> None:
        """The move list made again after an edit, the replay at ``node``."""
        self.rows = self._move_rows()
        self.go(node)

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Step:
        """Take the last edit back (the replay goes where it was before it)."""
        if not self._undo:
            return Step(refused=_("Nothing to undo."))
        self._redo.append(self._snapshot())
        self._restore(self._undo.pop())
        return Step(moved=True, edited=True)

    def redo(self) -> Step:
        """Make the last edit undone again."""
        if not self._redo:
            return Step(refused=_("Nothing to redo."))
        self._undo.append(self._snapshot())
        self._restore(self._redo.pop())
        return Step(moved=True, edited=True)

    def play(self, move: Move) -> Step:
        """A move played on the board from the position shown: the record's own move
        (or a variation's) is followed; another move starts a new variation there (or
        goes on from the end of a line)."""
        node = self.node.variation(move)
        if node is not None:
            return self.go(node, animate=True)
        # (the board's controller has played it on the game shown: asked afresh)
        if move not in self._position(self.node).legal_moves():
            return Step(refused=_("That move is not legal now."))
        self._edit()
        added = self.node.add_variation(move)
        self._rebuilt(added)
        return Step(moved=True, edited=True)

    def _branch(self) -> GameNode | None:
        """The first move of the variation the node shown is in (None on the main line)."""
        node = self.node
        while node.parent is not None and node.parent.variations[0] is node:
            node = node.parent
        return node if node.parent is not None else None

    def promote(self) -> Step:
        """The variation shown one place up: the first of them becomes the main line
        there."""
        branch = self._branch()
        if branch is None:
            return Step(refused=_("Already on the main line."))
        self._edit()
        branch.promote()
        self._rebuilt(self.node)
        return Step(moved=True, edited=True)

    def make_main(self) -> Step:
        """The line shown becomes the game's main line."""
        if self._branch() is None:
            return Step(refused=_("Already on the main line."))
        self._edit()
        self.node.promote_to_main()
        self._rebuilt(self.node)
        return Step(moved=True, edited=True)

    def delete(self) -> Step:
        """Delete the variation shown, from its first move; the replay goes to where it
        branched off.  The main line is the game itself: not deleted."""
        branch = self._branch()
        if branch is None:
            return Step(refused=_("This is the game's own line: only a variation can be deleted."))
        parent = branch.parent
        assert parent is not None
        self._edit()
        branch.remove()
        self._rebuilt(parent)
        return Step(moved=True, edited=True)

    def comment_text(self) -> str:
        """The comment a person wrote on the move shown (or before the first move)."""
        return user_text(self.node.comments)

    def set_comment(self, text: str) -> Step:
        """Write (or, empty, remove) the comment on the move shown, keeping its clock
        and evaluation."""
        new = comment_with(self.node.comments, text=text)
        if new == self.node.comments:
            return Step()
        self._edit()
        self.node.comments = new
        self._rebuilt(self.node)
        return Step(moved=True, edited=True)

    def mark(self, nag: int) -> Step:
        """Mark the move shown ``!``, ``?``… (a NAG); the same mark again takes it off."""
        if self.node.parent is None:
            return Step(refused=_("Step to a move first: the start has no move to mark."))
        mark = None if mark_of(self.node.nags) == nag else nag
        self._edit()
        self.node.nags = with_mark(self.node.nags, mark)
        self._rebuilt(self.node)
        return Step(moved=True, edited=True)

    # -- taking over -----------------------------------------------------------------

    def take_over(self) -> TakeOver:
        """The position shown as a live game, keeping the record up to here."""
        game = self.game.copy()
        if game.outcome() is not None:
            return TakeOver(refused=_("The game is over here: step back to take over earlier."))
        names = (self.record.header("White") or "", self.record.header("Black") or "")
        return TakeOver(game, names)


def _shown(game: Game) -> GameController:
    """A controller for a board that only shows ``game``."""
    return GameController(game, interactive=False)


def _without_clock(comment: str) -> str:
    """A comment without its commands (``[%clk …]``, ``[%eval …]``), its white space
    single ("" if that was all of it)."""
    return text_of(comment)
