"""The rule switches of docs/rules/switches.md#switches and the draw rules of
docs/rules/conventions.md#draws, as plain data.

A variant file (``variants/*.toml``) is read into these dataclasses; the move
generator compiles them into tables once.  No code here knows any variant by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from ..base.numbers import bounded_int, quoted
from ..i18n import _
from .geometry import expand_directions
from .move import Color


class CaptureChoice(Enum):
    #: Any complete capture sequence may be chosen (Russian, English).
    FREE = "free"
    #: A sequence taking the most pieces must be chosen; kings count as men.
    MAJORITY = "majority"


#: The criteria of ``Rules.capture_precedence`` (docs/rules/switches.md#precedence), each a value of
#: a complete capture sequence, higher better: the pieces it takes; their value (a king
#: worth two men less a trifle); whether a king makes it; the kings it takes; where the
#: kings come in it (the earlier the better).
PRECEDENCE_CRITERIA = ("count", "value", "with-king", "kings", "king-order")


class Removal(Enum):
    #: Captured pieces stay on the board as blockers until the move ends and may not be
    #: jumped twice (the "Turkish strike" rule of the diagonal games).
    END_OF_MOVE = "end-of-move"
    #: Each captured piece leaves the board at once; its square may be crossed again.
    IMMEDIATE = "immediate"


class PromotionInCapture(Enum):
    #: A man reaching the far row during a capture becomes a king at once and goes on
    #: capturing as a king (Russian, Bashni, Tama).
    CONTINUE_AS_KING = "continue-as-king"
    #: A man is crowned only if its move ends on the far row; passing it, it goes on
    #: capturing as a man (International, Brazilian, Turkish).
    AT_END = "at-end"
    #: Reaching the far row ends the move (English).
    STOP = "stop"


class KingLanding(Enum):
    #: After a flying jump the king may stop on any empty square beyond the victim.
    ANY = "any"
    #: If the capture can go on from some of those squares, it must stop on one of them
    #: (Russian).
    MUST_CONTINUE = "must-continue"
    #: As ``any``, except the last landing of the whole sequence: when the last piece
    #: taken is a king, the king stops on the square just beyond it (Killer,
    #: docs/rules/switches.md#landing).
    BEHIND_LAST_KING = "behind-last-king"
    #: Every landing, between captures and at the end, is the square just beyond the
    #: piece taken, however far the king came from (Thai, docs/rules/switches.md#landing).
    DIRECTLY_BEHIND = "directly-behind"


class NoMoves(Enum):
    #: The side to move without a legal move loses (every standard game).
    LOSES = "loses"
    #: ... wins (giveaway).
    WINS = "wins"


class Irreversible(IntEnum):
    """What the moves of a variant can never undo, as its move generator declares it: no
    position played before such a move can occur again after it, so the repetition rule
    looks back only as far as the last one (docs/rules/conventions.md#repetition).

    Each level names the game counter that bounds the look-back.
    """

    #: Nothing: a captured piece or a crowned man may come back (a demoted king crowned
    #: again, a prisoner freed from a Bashni column); look back over the whole game.
    NOTHING = 0
    #: Captures and crownings: a capture takes pieces off the board for good and a king
    #: is never a man again; look back to the last one (``material_plies``).
    MATERIAL = 1
    #: Those, and every move of a man: men only move forward as well; look back to the
    #: last man move or capture (``reversible_plies``).
    MEN = 2


@dataclass(frozen=True)
class Rules:
    """How pieces move and capture.  Directions are relative to the side that moves."""

    #: Directions of a man's one-square step.
    man_moves: tuple[str, ...] = ("forward-left", "forward-right")
    #: Directions of a man's short jump.
    man_captures: tuple[str, ...] = ("forward-left", "forward-right", "back-left", "back-right")
    #: Directions of a king's move and whether it flies (any distance) or steps.
    king_moves: tuple[str, ...] = ("forward-left", "forward-right", "back-left", "back-right")
    king_moves_fly: bool = True
    #: Directions of a king's jump; a flying king jumps a piece at any distance and lands
    #: on any empty square beyond it.
    king_captures: tuple[str, ...] = ("forward-left", "forward-right", "back-left", "back-right")
    king_captures_fly: bool = True
    #: Capturing is compulsory.
    capture_mandatory: bool = True
    capture_choice: CaptureChoice = CaptureChoice.FREE
    #: The capture precedence (docs/rules/switches.md#precedence): criteria of PRECEDENCE_CRITERIA
    #: applied left to right over every complete capture sequence, keeping the best; () is free
    #: choice.  None: from ``capture_choice`` (free = (), majority = ("count",)); when
    #: given it decides, and ``capture_choice`` is set from it.
    capture_precedence: tuple[str, ...] | None = None
    #: A man may jump a king (False: an enemy king is an obstacle to a man,
    #: docs/rules/switches.md#men-and-kings).
    man_captures_kings: bool = True
    removal: Removal = Removal.END_OF_MOVE
    #: Two consecutive jumps of one move may not go in opposite directions.
    no_180: bool = False
    promotion_in_capture: PromotionInCapture = PromotionInCapture.AT_END
    king_landing: KingLanding = KingLanding.ANY
    no_moves: NoMoves = NoMoves.LOSES
    #: Men are crowned on the far row (False: never, as the sheep of Wolf and Sheep).
    promotion: bool = True
    #: The side that makes the first move of the game.
    first: Color = Color.WHITE
    #: How many simple moves in a row one and the same king may make while its side
    #: still has a man (docs/rules/switches.md#king-limit, Frisian Art. 17); 0: no limit.
    king_move_limit: int = 0

    def __post_init__(self) -> None:
        for name in ("man_moves", "man_captures", "king_moves", "king_captures"):
            object.__setattr__(self, name, expand_directions(getattr(self, name)))
        if self.capture_precedence is None:
            majority = self.capture_choice is CaptureChoice.MAJORITY
            object.__setattr__(self, "capture_precedence", ("count",) if majority else ())
        else:
            order = tuple(self.capture_precedence)
            for criterion in order:
                if criterion not in PRECEDENCE_CRITERIA:
                    raise ValueError(
                        _("unknown capture precedence criterion {name} (known: {known})").format(
                            name=quoted(criterion), known=", ".join(PRECEDENCE_CRITERIA)
                        )
                    )
            if len(set(order)) != len(order):
                raise ValueError(_("a capture precedence criterion is given twice"))
            object.__setattr__(self, "capture_precedence", order)
            choice = CaptureChoice.MAJORITY if order == ("count",) else CaptureChoice.FREE
            object.__setattr__(self, "capture_choice", choice)

    @property
    def precedence(self) -> tuple[str, ...]:
        """The capture precedence, never None (``capture_precedence`` after __post_init__)."""
        return self.capture_precedence or ()


_TERM = re.compile(r"([0-9]+)(\+?)([KM])")
#: The largest count a pattern may give (a 12x12 board has 144 squares).
MAX_PATTERN_COUNT = 144
_BARE = re.compile(r"()()([KM])")


@dataclass(frozen=True)
class MaterialPattern:
    """One side's material, written like ``3K``, ``2K+1M``, ``3+K`` (three or more kings).

    A letter that is absent means none of that kind.
    """

    kings: int = 0
    men: int = 0
    kings_or_more: bool = False
    men_or_more: bool = False
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> MaterialPattern:
        """Read a pattern; raises ValueError (quoting at most 40 characters of it)."""
        t = text.replace(" ", "").upper()
        if not t:
            raise ValueError(_("empty material pattern"))
        kings = men = 0
        kings_more = men_more = False
        pos = 0
        seen: set[str] = set()
        while pos < len(t):
            m = _TERM.match(t, pos) or _BARE.match(t, pos)  # a bare "K" means one king
            if not m:
                raise ValueError(
                    _("bad material pattern {text}: expected e.g. '2K+1M' or '3+K'").format(
                        text=quoted(text)
                    )
                )
            letter = m.group(3)
            count = bounded_int(m.group(1), MAX_PATTERN_COUNT) if m.group(1) else 1
            if count is None:
                raise ValueError(
                    _("bad material pattern {text}: more than {n} pieces of kind {letter}").format(
                        text=quoted(text), n=MAX_PATTERN_COUNT, letter=letter
                    )
                )
            if letter in seen:
                raise ValueError(
                    _("bad material pattern {text}: {letter} given twice").format(
                        text=quoted(text), letter=letter
                    )
                )
            seen.add(letter)
            if letter == "K":
                kings, kings_more = count, bool(m.group(2))
            else:
                men, men_more = count, bool(m.group(2))
            pos = m.end()
            if pos < len(t):
                if t[pos] != "+":
                    raise ValueError(_("bad material pattern {text}").format(text=quoted(text)))
                pos += 1
        return cls(kings, men, kings_more, men_more, text)

    def matches(self, kings: int, men: int) -> bool:
        ok_k = kings >= self.kings if self.kings_or_more else kings == self.kings
        ok_m = men >= self.men if self.men_or_more else men == self.men
        return ok_k and ok_m


class Counter(Enum):
    #: Plies since the last man move or capture (kings only, nothing taken).
    REVERSIBLE = "reversible"
    #: Plies since the last capture or promotion (the balance of forces unchanged).
    MATERIAL = "material"


@dataclass(frozen=True)
class DrawRule:
    """One way a game is drawn.  ``name`` is what the player is told.

    * ``kind = "repetition"``: the same position for the ``count``-th time, same side to move.
    * ``kind = "count"``: ``counter`` has reached ``plies`` while the material condition
      holds (no condition: always); with ``counter`` None the draw is immediate.
    * ``kind = "lone-kings"`` (docs/rules/conventions.md#draws, Frisian Art. 21.1): each side has
      one piece, a king, the side to move has no capture, and some move of it leaves the
      opponent no capture in reply.
    """

    kind: str
    name: str
    count: int = 3
    counter: Counter | None = None
    plies: int = 0
    #: The stronger side's material, one of these patterns (empty: any).
    strong: tuple[MaterialPattern, ...] = ()
    #: The weaker side's material, one of these patterns (empty: any).
    weak: tuple[MaterialPattern, ...] = ()
    #: The total number of pieces on the board is one of these (empty: any).
    total: tuple[int, ...] = ()
    #: Both sides have at least one king.
    both_have_kings: bool = False
    #: The weaker side's lone king stands on the long diagonal and is the only piece on it.
    weak_on_main_road: bool = False
    #: Only declared when the side to move has no capture.
    unless_capture: bool = False
    rule_id: str = field(default="")

    @property
    def has_material_condition(self) -> bool:
        return bool(self.strong or self.weak or self.total or self.both_have_kings)
