"""The kinds of player a new game can seat on each side."""

from __future__ import annotations

from ..i18n import N_, _
from ..session.seats import TOP_LEVEL, Engines, Seat, parse_seat
from ..session.served import served

#: The computer's levels' names (the engine's, in English), for the catalogs.
LEVEL_NAMES = {
    "beginner": N_("beginner"),
    "novice": N_("novice"),
    "casual": N_("casual"),
    "club": N_("club"),
    "strong club": N_("strong club"),
    "expert": N_("expert"),
    "master": N_("master"),
    "strongest": N_("strongest"),
}


def level_label(number: int) -> str:
    """A computer level as the new-game dialog offers it, in the language spoken now."""
    from ..engine import LEVELS  # (imported on first need, not at start-up)

    name = LEVELS[number].name
    return _("Computer, level {n} ({name})").format(
        n=number, name=_(LEVEL_NAMES[name]) if name in LEVEL_NAMES else name
    )


#: The new-game dialog's kind "another Hub engine": its command is typed there.
OTHER_ENGINE = "hub-other"


def player_kinds(*, engines: Engines) -> list[tuple[str, str]]:
    """(label, key) of every kind of player, a person first, the settings' ``engines``
    and a Hub engine of a command typed in the dialog
    last (not in a served app: a visitor starts no program but the engines of the
    owner's settings)."""
    named = [(_("Engine: {name}").format(name=e.name), f"engine:{e.name}") for e in engines]
    from ..engine import LEVELS  # (imported on first need, not at start-up)

    computers = [(level_label(number), f"computer-{number}") for number in LEVELS]
    if served():
        return [(_("Person"), "human"), *computers, *named]
    other = (_("Hub engine (a command)…"), OTHER_ENGINE)
    friend = (_("A friend online"), "online")  # (this side hosts)
    return [(_("Person"), "human"), *computers, *named, other, friend]


def seat(text: str, *, engines: Engines) -> Seat | None:
    """The seat the command line's or the dialog's words name: ``person`` (or
    ``human``), a computer level (``5``, ``computer-5``), ``hub:COMMAND`` (a Hub engine)
    or the name of one of ``engines`` (the settings'); None if it is none of them.  Words
    from a file go through :func:`seat_from_file` instead, which never gives a command."""
    return parse_seat(text, engines=engines)


def seat_from_file(text: str, *, engines: Engines) -> Seat | None:
    """The seat a file's words name (a saved game's tags): a person, a computer level
    1-8, or one of ``engines`` (the settings') by its name; None for anything else.  It
    never gives ``hub:COMMAND``: a file does not start a program."""
    return parse_seat(text, from_file=True, engines=engines)


__all__ = [
    "LEVEL_NAMES",
    "OTHER_ENGINE",
    "TOP_LEVEL",
    "level_label",
    "player_kinds",
    "seat",
    "seat_from_file",
]
