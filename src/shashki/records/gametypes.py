"""Which variant a game's tags name, and from which position it starts.

The variant comes from the tags — ``GameType`` first, then a ``Variant`` tag (an id,
alias or name, as lidraughts and PlayStrategy write them) — and otherwise from the
caller's default, which is International draughts (PDN's default GameType 20) unless
given.  :func:`needs_variant_tag` tells the writer when a GameType alone would not name
a variant.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..base.numbers import is_digits
from ..i18n import _
from ..rules import Game, ShashkiError, Variant, all_variants, find_variant
from ..rules.errors import BadPdnError
from ..rules.variant import gametype_number
from .quoting import quote
from .tags import header_value
from .viewpoint import renumber_fen

#: The PDN GameType numbers (PDN 3.0, plus lidraughts' own 96-98) and the game each one
#: stands for.  A GameType whose game is registered reads as that variant, even when
#: other shashki variants share the number (``traditional`` also writes 26).
PDN_GAMETYPES: dict[int, tuple[str, str]] = {
    20: ("international", "International draughts"),
    21: ("english", "English draughts"),
    22: ("italian", "Italian draughts"),
    23: ("pool", "Pool checkers"),
    24: ("spanish", "Spanish draughts"),
    25: ("russian", "Russian draughts"),
    26: ("brazilian", "Brazilian draughts"),
    27: ("canadian", "Canadian draughts"),
    28: ("portuguese", "Portuguese draughts"),
    29: ("czech", "Czech draughts"),
    30: ("turkish", "Turkish draughts"),
    31: ("thai", "Thai draughts"),
    40: ("frisian", "Frisian draughts"),
    41: ("spantsiretti", "Spantsiretti draughts"),
    96: ("breakthrough", "Breakthrough draughts (lidraughts)"),
    97: ("frysk", "Frysk! (lidraughts)"),
    98: ("antidraughts", "Antidraughts (lidraughts)"),
}

#: Names other programs put in a ``Variant`` tag that are none of our ids or aliases.
_VARIANT_TAG_NAMES = {"standard": "international", "from position": "international"}

#: The PDN default when a game has no GameType: International draughts.
DEFAULT_VARIANT = "international"


def _lookup_variant_name(name: str) -> Variant | None:
    """A registered variant named ``name`` as another program wrote it, or None."""
    text = name.strip()
    if not text:
        return None
    tries = [text, text.lower().replace(" ", "-"), _VARIANT_TAG_NAMES.get(text.lower(), "")]
    tries += [part.strip() for part in re.split(r"[/,;]", text) if part.strip()]
    for candidate in tries:
        if not candidate:
            continue
        try:
            return find_variant(candidate)
        except ShashkiError:
            continue
    return None


@lru_cache(maxsize=256)
def _gametype_key(text: str) -> tuple[str, ...]:
    """A GameType's fields as compared: spaces and the case of letters do not count."""
    return tuple(part.strip().upper() for part in text.split(","))


def variant_from_headers(headers: dict[str, str], default: Variant | str | None = None) -> Variant:
    """The variant a game's tags name: a ``Variant`` tag that names a variant of the
    ``GameType`` number, else the variant whose full GameType is the one written, else
    the one the number means; without a GameType, the ``Variant`` tag, then ``default``
    (International draughts when None).

    Raises BadPdnError when the tags name a game that shashki does not play.
    """
    gametype = header_value(headers, "GameType").strip()
    named = header_value(headers, "Variant").strip()
    if gametype:
        head = gametype.split(",")[0].strip()
        if not is_digits(head):  # ASCII digits only: "²" is a digit to str.isdigit()
            message = _("GameType {value} does not start with a PDN game number").format(
                value=quote(gametype)
            )
            raise BadPdnError(message)
        number = gametype_number(head)  # never int() of a number of any length
        if number is None:
            raise BadPdnError(
                _("GameType {value} is not a variant shashki plays").format(value=quote(head))
            )
        by_name = _lookup_variant_name(named) if named else None
        if by_name is not None and by_name.gametype_number == number:
            return by_name
        standard = PDN_GAMETYPES.get(number, ("", ""))
        sharing = [v for v in all_variants() if v.gametype_number == number]
        # docs/rules/conventions.md#pdn-reading: the variant whose full GameType is the one written
        # ("27,W,12,12,N2,1" is Sri Lankan draughts), else the one that is what the
        # number means: marked primary in its file, or PDN's own game of that number.
        if len(sharing) > 1:
            written = _gametype_key(gametype)
            sharing = [v for v in sharing if _gametype_key(v.gametype) == written] or sharing
        sharing.sort(key=lambda v: (not v.gametype_primary, v.id != standard[0]))
        if sharing:
            return sharing[0]
        what = f" ({standard[1]})" if standard[1] else ""
        raise BadPdnError(
            _("GameType {value} is not a variant shashki plays").format(value=f"{number}{what}")
        )
    if named:
        found = _lookup_variant_name(named)
        if found is None:
            raise BadPdnError(
                _("Variant {value} is not a variant shashki plays").format(value=quote(named))
            )
        return found
    return find_variant(default if default is not None else DEFAULT_VARIANT)


def start_from_headers(variant: Variant, headers: dict[str, str]) -> tuple[str | None, Game]:
    """The start position the tags give: (normalised FEN or None for the variant's own
    start, a rules game there).  Raises BadPdnError for a FEN that cannot be read.

    A ``FEN`` tag is used whether or not ``SetUp``/``Setup`` says "1", its squares
    numbered as the GameType numbers them (docs/rules/conventions.md#gametype, read into the
    variant's numbers).  Without one the game starts from ``variant.start`` (for a variant whose
    start is drawn by lot, the writer always records the drawn position when it is not
    that one), with the GameType's starting colour to move: ``31,B,8,8,N2,0`` starts
    Thai draughts with Black.
    """
    fen = header_value(headers, "FEN").strip()
    # The variant's own start, never a start drawn by lot: a record that does not say
    # otherwise starts there, every time.
    usual = Game(variant, variant.start)
    if fen:
        fen = renumber_fen(variant, headers, fen)
    else:
        colour = header_value(headers, "GameType").split(",")[1:2]
        first = colour[0].strip().upper() if colour else ""
        if first not in ("W", "B") or first == "WB"[int(variant.rules.first)]:
            return None, usual
        fen = first + variant.start[variant.start.find(":") :]  # the GameType's first mover
    try:
        game = Game(variant, fen)
    except ShashkiError as exc:
        raise BadPdnError(_("bad FEN tag: {reason}").format(reason=exc), token=fen) from None
    if game.position == usual.position and game.fen() == usual.fen():
        return None, game
    return game.fen(), game


def needs_variant_tag(variant: Variant) -> bool:
    """Whether a GameType alone would not name ``variant`` (it has none, or shares its
    number with the game PDN means by it, as ``traditional`` shares 26 with Brazilian)."""
    number = variant.gametype_number
    if number is None:
        return True
    try:
        return variant_from_headers({"GameType": str(number)}) is not variant
    except BadPdnError:
        return True
