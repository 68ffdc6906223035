"""Variants as data: the :class:`Variant` and :class:`Goal` dataclasses, and what a
variant id and a PDN GameType may be.

A variant is read from a definition file (``variants/*.toml``, :mod:`.variant_file`)
and found by id, alias, name or PDN GameType in the one registry
(:mod:`.variant_registry`).  Nothing here reads a file or chooses a generator: the
file's loader resolves the class that generates the variant's moves
(:func:`.generators.generator_class`) and the variant keeps it as data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .. import i18n
from ..base.numbers import bounded_int, quoted
from ..i18n import N_, pgettext
from .errors import NotationError, VariantFileError
from .geometry import Geometry
from .move import Color
from .movegen import MoveGenerator
from .switches import DrawRule, Rules

#: The side names most variants use, translated by the catalogs where a file does not.
_COMMON_SIDES = (N_("White"), N_("Black"))


def _common_side_forms() -> tuple[str, str]:  # pragma: no cover - marks the messages
    """Marks the forms of the usual sides for the catalogs (:func:`shashki.i18n.noun`
    reads them): "білі, білих, білим, білими; plural"."""
    return pgettext("side forms", "White"), pgettext("side forms", "Black")


@dataclass(frozen=True)
class Goal:
    """``side`` wins as soon as one of its pieces stands on ``rank`` (1-based)."""

    side: Color
    rank: int
    name: str


@dataclass(frozen=True, eq=False)
class Variant:
    """Everything the engine and the interface know about one variant."""

    id: str
    name: str
    board: Geometry
    rules: Rules
    start: str
    draws: tuple[DrawRule, ...] = ()
    aliases: tuple[str, ...] = ()
    #: Names in other languages, e.g. {"ru": "Русские шашки"}.
    names: Mapping[str, str] = field(default_factory=dict)
    #: Menu group: classic, national (the national games), orthogonal, family, modified.
    group: str = "classic"
    #: One line for lists and menus.
    summary: str = ""
    #: The rule card: the prose a player reads before choosing the variant.
    card: str = ""
    #: PDN GameType tag value, e.g. "25,W,8,8,A0,0", or "" when PDN has none.
    gametype: str = ""
    #: This variant is what its GameType number means (others share it with a Variant tag).
    gametype_primary: bool = False
    #: The name Hub engines give this game (``normal`` for International draughts), or
    #: "" where they have none (the Hub protocol then uses the id).
    hub_name: str = ""
    #: How squares are written in moves and positions: "numeric" or "algebraic".
    notation: str = "algebraic"
    #: The capture separator the variant writes ("x" or ":").
    capture_mark: str = "x"
    side_names: tuple[str, str] = ("White", "Black")
    #: Where the definition came from.
    source: str = ""
    #: The variant this one is built on (its id), if any.
    host: str = ""
    #: The generator family, for what data cannot say: "standard", "bashni", "artamonov".
    family: str = "standard"
    #: Rule modifiers applied on top of the host rules, with their options.
    modifiers: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Alternative start positions the players choose from: (label, FEN); the one
    #: that is ``start`` is the default (else the first).  Empty: ``start`` is the only
    #: one.
    start_options: tuple[tuple[str, str], ...] = ()
    #: What the choice is about, for the new-game dialog ("Wolf's square").
    start_choice: str = ""
    #: The start option is drawn by lot (Artamonov's first mover).
    start_by_lot: bool = False
    #: Ways to win besides leaving the opponent without a move.
    goals: tuple[Goal, ...] = ()
    #: The class that generates its moves: the family's generator with the modifiers'
    #: mixins (and the goal rule), as :func:`.generators.generator_class` builds it from
    #: ``family``, ``modifiers`` and ``goals`` when the variant is read.
    generator_class: type[MoveGenerator] = MoveGenerator
    #: The variant's own texts in other languages, by language and then by the English
    #: text they translate (its name, summary, card, side names, start choice and
    #: options, draw rule and goal names): see :meth:`local`.
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # the id names files (the ending tables' cache): never a path of its own
        if not is_valid_id(self.id):
            raise VariantFileError(
                f"{self.source or '<data>'}: "
                + i18n._("{key} must be {expected}, not {actual}").format(
                    key="id", expected=i18n._(ID_RULE), actual=quoted(self.id)
                )
            )

    def local(self, text: str, language: str | None = None) -> str:
        """``text`` (one of this variant's own English texts: its name, summary, card,
        a side's name, a draw rule's or goal's name…) in ``language`` (by default the
        language shashki speaks now), or as it is where the file has no translation."""
        if language is None:
            language = i18n.language()
        table = self.translations.get(language)
        if table is None:  # "pt-BR" falls back to "pt"
            table = self.translations.get(language.replace("_", "-").split("-")[0], {})
        return table.get(text, text)

    def local_side(self, side: int) -> i18n.Noun:
        """The name of ``side`` (0 or 1) in the language spoken now, with the forms a
        sentence takes (``{side.gen}``…): the file's own translation and forms, else the
        catalogs' for the usual "White" and "Black"."""
        name = self.side_names[side]
        local = self.local(name)
        if local == name and name in _COMMON_SIDES:
            return i18n.noun(i18n._(name), name)
        return i18n.Noun(local, self.local("side forms: " + name))

    @property
    def local_name(self) -> str:
        """The variant's name in the language shashki speaks now."""
        return self.local(self.name)

    @cached_property
    def generator(self) -> MoveGenerator:
        """The variant's move generator (built once, configured from this variant)."""
        gen = self.generator_class(self.board, self.rules)
        gen.configure(self)
        return gen

    @property
    def numeric(self) -> bool:
        return self.notation == "numeric"

    # -- squares ----------------------------------------------------------------------

    @property
    def squares(self) -> tuple[int, ...]:
        """The squares the game is played on, in the order of their PDN numbers (1, 2, …):
        the integers :class:`~shashki.rules.Move`, :class:`~shashki.rules.Piece` maps and
        :meth:`square_name` speak of."""
        board = self.board
        return tuple(board.by_number[1:])

    def square_name(self, square: int) -> str:
        """``square`` as the variant writes it in moves and positions: its PDN number
        (``"32"``) in the numeric games, its algebraic name (``"c3"``) in the others.
        Raises ValueError for a number that is no square of the board.

        >>> from shashki import find_variant
        >>> russian, international = find_variant("russian"), find_variant("international")
        >>> russian.parse_square("c3"), russian.square_name(10)
        (10, 'c3')
        >>> international.square_name(international.parse_square("32"))
        '32'
        """
        board = self.board
        if type(square) is not int or not 0 <= square < len(board.number_of):
            raise ValueError(f"{square!r} is not a square of {self.name}")
        number = board.number_of[square]
        if not number:
            raise ValueError(f"{square!r} is not a square of {self.name}")
        return str(number) if self.numeric else board.names[square]

    def parse_square(self, text: str) -> int:
        """The square ``text`` names: its algebraic name (``"c3"``) or its PDN number
        (``"22"``), in either notation.  Raises NotationError (a ValueError) saying why
        when it names no playing square of this board."""
        try:
            return self.board.parse_square(text)
        except ValueError as exc:
            raise NotationError(str(exc)) from None

    @property
    def gametype_number(self) -> int | None:
        """The number of the PDN GameType (25 for "25,W,8,8,A0,0"), or None."""
        return gametype_number(self.gametype)

    def __repr__(self) -> str:
        return f"<Variant {self.id}>"


# -- ids and GameTypes ----------------------------------------------------------

#: What a variant id and an alias may be: they name files (the ending tables' cache)
#: and are typed on the command line.  All digits would read as a PDN GameType.
ID_PATTERN = re.compile(r"(?![0-9]+\Z)[a-z0-9][a-z0-9-]{0,39}")
ID_RULE = N_(
    "lower-case letters a-z, digits and '-' (at most 40, not starting with '-', not all digits)"
)
#: The largest PDN GameType number read (the standard's go up to about 40).
MAX_GAMETYPE = 9999


def gametype_number(text: str) -> int | None:
    """The number a PDN GameType text starts with ("25" of "25,W,8,8,A0,0"), or None when
    it starts with no number of at most :data:`MAX_GAMETYPE` (a number of any length is
    answered at once)."""
    return bounded_int(text.split(",", 1)[0].strip(), MAX_GAMETYPE)


def is_valid_id(text: str) -> bool:
    """Whether ``text`` may be a variant id or alias (see :data:`ID_PATTERN`)."""
    return ID_PATTERN.fullmatch(text) is not None
