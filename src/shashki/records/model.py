"""The game record: a tree of moves with comments, NAGs and variations.

Shaped like python-chess's ``chess.pgn``: a :class:`GameRecord` is the root
:class:`GameNode`; every other node holds the move that leads to it, the comments and
NAGs written after that move, and its own continuations (``variations[0]`` is the main
line).  ``node.replay()`` gives a rules :class:`~shashki.rules.Game` in the position
after the node's move, with the moves that led there on its stack.

``record.accept(visitor)`` (:func:`walk_record`) sends a record to a
:class:`~shashki.records.visitor.Visitor` as the reader would; ``str(record)`` is its PDN
text.  The results and tag lookup live in :mod:`~shashki.records.tags`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from ..i18n import _
from ..rules import Game, Move, Variant, find_variant
from ..rules.errors import BadPdnError
from .tags import UNKNOWN, header_value
from .visitor import SKIP, Visitor
from .writer import write_game

T = TypeVar("T")


class GameNode:
    """A position in the game tree, reached by ``move`` from ``parent``."""

    __slots__ = ("comments", "move", "nags", "parent", "starting_comments", "variations")

    def __init__(self, parent: GameNode | None = None, move: Move | None = None) -> None:
        self.parent = parent
        self.move = move
        #: Comments written after the move (for the root: before the first move).
        self.comments: list[str] = []
        #: Comments written just before the move (the start of a variation).
        self.starting_comments: list[str] = []
        #: Numeric annotation glyphs: 1 = "!", 2 = "?", 3 = "!!", 4 = "??", 5 = "!?", 6 = "?!".
        self.nags: list[int] = []
        #: The continuations from this position; the first is the main line.
        self.variations: list[GameNode] = []

    # -- navigation ----------------------------------------------------------------

    def root(self) -> GameRecord:
        node = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, GameRecord):
            raise TypeError("this node is not part of a GameRecord's tree")
        return node

    def path(self) -> list[GameNode]:
        """The nodes from the first move to this one (empty for the root)."""
        out: list[GameNode] = []
        node: GameNode | None = self
        while node is not None and node.parent is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def ply(self) -> int:
        """How many moves lead from the start to this node."""
        return len(self.path())

    def next(self) -> GameNode | None:
        """The main continuation, or None at the end of a line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main continuation after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        return [n.move for n in self.mainline() if n.move is not None]

    def is_mainline(self) -> bool:
        """Whether this node lies on the game's main line."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def nodes(self) -> Iterator[GameNode]:
        """This node's descendants, depth first, main lines first."""
        stack = list(reversed(self.variations))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    # -- replay ----------------------------------------------------------------------

    def replay(self) -> Game:
        """A rules game in the position after this node's move, the moves on its stack.

        Raises IllegalMoveError if a move of the path is not legal (a tree built by hand).
        """
        game = self.root().start()
        for node in self.path():
            assert node.move is not None
            game.push(node.move)
        return game

    # -- building ----------------------------------------------------------------------

    def add_variation(
        self,
        move: Move,
        *,
        comment: str | Iterable[str] = (),
        nags: Iterable[int] = (),
        starting_comment: str | Iterable[str] = (),
    ) -> GameNode:
        """Add a continuation (the main line if it is the first) and return its node."""
        node = GameNode(self, move)
        node.comments = [comment] if isinstance(comment, str) else list(comment)
        node.starting_comments = (
            [starting_comment] if isinstance(starting_comment, str) else list(starting_comment)
        )
        node.nags = list(nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str | Iterable[str] = ()) -> GameNode:
        """Add a continuation as the new main line."""
        node = self.add_variation(move, comment=comment)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def variation(self, move: Move) -> GameNode | None:
        """The continuation that plays ``move``, if any."""
        for node in self.variations:
            if node.move == move:
                return node
        return None

    # -- editing the tree ------------------------------------------------------------------

    def promote(self) -> bool:
        """Move this line one place up among its parent's continuations (the first is the
        main line); False when it is first already (or the root)."""
        parent = self.parent
        if parent is None:
            return False
        i = parent.variations.index(self)
        if i == 0:
            return False
        parent.variations[i - 1], parent.variations[i] = self, parent.variations[i - 1]
        return True

    def promote_to_main(self) -> bool:
        """Make the line through this node the game's main line: at every branching on
        the way here, the continuation that leads here goes first.  False when it was
        the main line already."""
        changed = False
        node = self
        while node.parent is not None:
            siblings = node.parent.variations
            if siblings[0] is not node:
                siblings.remove(node)
                siblings.insert(0, node)
                changed = True
            node = node.parent
        return changed

    def remove(self) -> None:
        """Take this move and everything after it out of the tree."""
        if self.parent is not None:
            self.parent.variations.remove(self)

    def copy_tree(self) -> GameNode:
        """A copy of this node and everything after it, detached from any parent (a
        record's tags and start are not copied: see :meth:`GameRecord.copy`)."""
        top = GameNode(None, self.move)
        pairs = [(self, top)]
        while pairs:
            old, new = pairs.pop()
            new.comments = list(old.comments)
            new.starting_comments = list(old.starting_comments)
            new.nags = list(old.nags)
            for child in old.variations:
                copy = GameNode(new, child.move)
                new.variations.append(copy)
                pairs.append((child, copy))
        return top

    def index_path(self) -> list[int]:
        """Where this node is: the place among its parent's continuations of each node
        from the first move to here (:meth:`GameNode.follow` finds it again)."""
        return [node.parent.variations.index(node) for node in self.path() if node.parent]

    def follow(self, indices: list[int]) -> GameNode:
        """The node that :meth:`index_path` said (as far as the tree still goes)."""
        node = self
        for i in indices:
            if not 0 <= i < len(node.variations):
                break
            node = node.variations[i]
        return node

    # -- comparison ----------------------------------------------------------------------

    def same_tree(self, other: GameNode) -> bool:
        """Whether both subtrees hold the same moves, comments, NAGs and variations."""
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if (
                a.move != b.move
                or a.comments != b.comments
                or a.starting_comments != b.starting_comments
                or a.nags != b.nags
                or len(a.variations) != len(b.variations)
            ):
                return False
            stack.extend(zip(a.variations, b.variations, strict=True))
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ply {self.ply()} move {self.move!r}>"


class GameRecord(GameNode):
    """A whole game: tags, start position, the move tree, the result and what went wrong
    while reading it."""

    __slots__ = ("errors", "fen", "headers", "line", "origin", "result", "variant", "warnings")

    def __init__(
        self,
        variant: Variant | str | None = None,
        fen: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        #: The tags, in the order they were read or set.
        self.headers: dict[str, str] = dict(headers or {})
        #: The variant, or None when the record names one shashki does not play.
        self.variant: Variant | None = find_variant(variant) if variant is not None else None
        #: The start position when it is not the variant's usual one (normalised FEN).
        self.fen: str | None = fen
        #: "1-0", "0-1", "1/2-1/2" or "*".
        self.result: str = UNKNOWN
        #: Everything that went wrong while reading, in file order.
        self.errors: list[BadPdnError] = []
        #: What the reader found odd but could read (text outside braces…).
        self.warnings: list[BadPdnError] = []
        #: The line of the file where the game begins (0 when built in memory).
        self.line: int = 0
        #: Where in its file the game's text came from when that is not the file itself
        #: ("item 3" of a JSON list), else "".
        self.origin: str = ""

    @property
    def ok(self) -> bool:
        """True when the record was read without any error."""
        return not self.errors

    def header(self, name: str, default: str = "") -> str:
        """A tag's value, looked up without regard to case ("Setup" = "SetUp")."""
        return header_value(self.headers, name, default)

    def start(self) -> Game:
        """A rules game in the start position; raises ShashkiError when there is no
        variant or the FEN is bad."""
        if self.variant is None:
            raise BadPdnError(_("the game is of a variant shashki does not play"))
        return Game(self.variant, self.fen if self.fen is not None else self.variant.start)

    def copy(self) -> GameRecord:
        """A copy of the whole record: tags, start, result, the tree (the errors and
        warnings of its reading are shared, as read)."""
        other = GameRecord(self.variant, self.fen, self.headers)
        other.result = self.result
        other.errors = list(self.errors)
        other.warnings = list(self.warnings)
        other.line, other.origin = self.line, self.origin
        other.set_tree(self.copy_tree())
        return other

    def set_tree(self, tree: GameNode) -> None:
        """Take the comments, NAGs and continuations of ``tree`` (a copy made by
        :meth:`GameNode.copy_tree` of this record's tree) as this record's own."""
        self.comments = tree.comments
        self.starting_comments = tree.starting_comments
        self.nags = tree.nags
        self.variations = tree.variations
        for child in self.variations:
            child.parent = self

    @classmethod
    def from_game(cls, game: Game, headers: dict[str, str] | None = None) -> GameRecord:
        """A record of a rules game: its start position and the moves on its stack."""
        start = game.copy()
        moves: list[Move] = []
        while True:  # taking the moves back gives both the moves and the start
            try:
                moves.append(start.pop())
            except IndexError:
                break
        moves.reverse()
        usual = Game(game.variant, game.variant.start)
        record = cls(game.variant, None if start.fen() == usual.fen() else start.fen(), headers)
        node: GameNode = record
        for move in moves:
            node = node.add_variation(move)
        outcome = game.outcome()
        if outcome is not None:
            record.result = outcome.result()
        return record

    def accept(self, visitor: Visitor[T]) -> T:
        """Send this game to a visitor (a writer, another builder…) as the reader would."""
        return walk_record(self, visitor)

    def __str__(self) -> str:
        return write_game(self)

    def __repr__(self) -> str:
        variant = self.variant.id if self.variant else None
        moves = sum(1 for _ in self.nodes())
        return (
            f"<GameRecord {variant} {self.header('White', '?')!r} vs "
            f"{self.header('Black', '?')!r}, {moves} moves, {self.result}>"
        )


def walk_record(record: GameRecord, visitor: Visitor[T]) -> T:
    """Send a game record to a visitor, in the order the reader would."""
    visitor.begin_game(record.line)
    for name, value in record.headers.items():
        visitor.visit_header(name, value)
    if visitor.end_headers() is not SKIP and record.variant is not None:
        game = record.start()
        visitor.visit_start(record.variant, record.fen, game)
        for text in record.comments:
            visitor.visit_comment(text)
        _walk_tree(record, game, visitor)
    for error in record.errors:
        visitor.visit_error(error)
    visitor.visit_result(record.result)
    visitor.end_game()
    return visitor.result()


def _walk_tree(root: GameNode, game: Game, visitor: Visitor[Any]) -> None:
    """Main move first, then the alternatives as variations, then the main line goes
    on — without recursion, so a game of any length can be written."""

    def emit(node: GameNode) -> None:
        for text in node.starting_comments:
            visitor.visit_comment(text)
        assert node.move is not None
        visitor.visit_move(game, node.move)
        for nag in node.nags:
            visitor.visit_nag(nag)
        for text in node.comments:
            visitor.visit_comment(text)

    # Actions: ("line", node) writes the continuation of ``node``; ("push", node) and
    # ("pop", None) keep ``game`` in step; ("begin"/"end", None) open and close a variation.
    stack: list[tuple[str, GameNode | None]] = [("line", root)]
    while stack:
        action, node = stack.pop()
        if action == "line":
            assert node is not None
            if not node.variations:
                continue
            main = node.variations[0]
            emit(main)
            todo: list[tuple[str, GameNode | None]] = []
            for alt in node.variations[1:]:
                todo += [
                    ("begin", None),
                    ("emit", alt),
                    ("push", alt),
                    ("line", alt),
                    ("pop", None),
                    ("end", None),
                ]
            todo += [("push", main), ("line", main), ("pop", None)]
            stack.extend(reversed(todo))
        elif action == "emit":
            assert node is not None
            emit(node)
        elif action == "push":
            assert node is not None and node.move is not None
            game.push(node.move)
        elif action == "pop":
            game.pop()
        elif action == "begin":
            visitor.begin_variation()
        else:
            visitor.end_variation()
