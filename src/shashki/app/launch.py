"""What the command line asks the app to open first.

``shashki play``, ``replay``, ``host`` and ``join`` each hand the app one typed request
(:class:`PlayRequest`, :class:`ReplayRequest`, :class:`HostRequest`,
:class:`JoinRequest`) through
:func:`shashki.app.app.run`; ``shashki`` alone hands none and the menu opens.  This module
imports no Textual, so the command line builds a request (and refuses a bad one) before
the app is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..session.seats import PERSON, Seat

if TYPE_CHECKING:
    from ..records.clocks import TimeControl
    from ..rules.move import Color


@dataclass(frozen=True)
class PlayRequest:
    """A game of ``variant`` at once, the menu underneath (``shashki play``)."""

    variant: str
    #: The position to start from (else the variant's start, or the lot drawn by ``seed``).
    fen: str | None = None
    #: Who plays each side (the command line's words, parsed once by
    #: :func:`~shashki.session.seats.parse_seat`).
    kinds: tuple[Seat, Seat] = (PERSON, PERSON)
    seed: int | None = None
    clock: TimeControl | None = None


@dataclass(frozen=True)
class ReplayRequest:
    """A PDN file in the replay viewer (``shashki replay``): its table of games, or game
    number ``game`` (1 = the first) at once."""

    path: Path
    game: int | None = None
    #: The variant of games whose tags name none (else guessed from their moves).
    default_variant: str | None = None
    #: The game opens with its review under way (``shashki review``).
    review: bool = False


@dataclass(frozen=True)
class HostRequest:
    """A game hosted for a friend on another machine (``shashki host``), listening on
    ``port`` (already checked free)."""

    variant: str
    side: Color
    name: str
    port: int
    clock: TimeControl | None = None
    #: Listen on every network of this machine (else its own address only).
    public: bool = False
    #: Listen on 127.0.0.1 only: a friend on this machine.
    local: bool = False


@dataclass(frozen=True)
class JoinRequest:
    """The game a friend hosts at ``address``, with its room ``code`` (``shashki join``)."""

    address: str
    code: str
    name: str
    #: Seconds to wait for the host's answer (None: the usual 15).
    wait: float | None = None


#: What the app opens first; None: the menu.
StartRequest = PlayRequest | ReplayRequest | HostRequest | JoinRequest


__all__ = [
    "HostRequest",
    "JoinRequest",
    "PlayRequest",
    "ReplayRequest",
    "StartRequest",
]
