"""What an online link tells its front ends: typed events, like the session's.

A front end subscribes to a link (:meth:`~shashki.online.link.Link.subscribe`) and gets
every event below; it dispatches on the type (``isinstance`` or ``match``), never on a
word.  What the peer does to the game itself (its moves, a takeback, the end) also
reaches the session's own subscribers as the session's events: these say what the
person should be told or asked, and what the connection does.

Sentences are said in the player's language when the front end shows them (``text``),
so that a language changed mid-game is followed; a peer's words in them are cleaned.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from ..rules import Move


class LinkEvent:
    """Something that happened on an online link (subscribers get every event)."""

    @property
    def text(self) -> str:
        """The line to show for it ("" for an event that is only a signal)."""
        return ""


@dataclass(frozen=True)
class Info(LinkEvent):
    """A line to show: the peer accepted or declined, a host's refusal said in our
    language, a wrong code given…  (already in the player's language)."""

    line: str

    @property
    def text(self) -> str:
        return self.line


@dataclass(frozen=True)
class ChatLine(LinkEvent):
    """The peer's chat line (cleaned: one line of plain text)."""

    name: str
    line: str

    @property
    def text(self) -> str:
        return f"{self.name}: {self.line}"


@dataclass(frozen=True)
class Refused(LinkEvent):
    """A message of the peer's was refused: logged, never played; the game goes on."""

    reason: str

    @property
    def text(self) -> str:
        return self.reason


@dataclass(frozen=True)
class DrawOffer(LinkEvent):
    """The peer offers a draw: the person is asked (the answer goes to the link)."""


@dataclass(frozen=True)
class TakebackRequest(LinkEvent):
    """The peer asks to take back its last move: the person is asked."""


@dataclass(frozen=True)
class PeerMoved(LinkEvent):
    """The peer's move was checked and played on this side's session."""

    move: Move
    notation: str


@dataclass(frozen=True)
class Synced(LinkEvent):
    """The game was made equal to the host's (a state came: joined, joined again, a
    takeback, a refused move set right)."""


@dataclass(frozen=True)
class PeerJoined(LinkEvent):
    """A guest joined the host (``again``: the holder of the code came back)."""

    name: str
    again: bool

    @property
    def text(self) -> str:
        if self.again:
            return _("{name} is back.").format(name=self.name)
        return _("{name} joined.").format(name=self.name)


@dataclass(frozen=True)
class PeerAway(LinkEvent):
    """The peer's connection dropped; the clock goes on."""

    name: str

    @property
    def text(self) -> str:
        return _("{name} is away; the clock goes on.").format(name=self.name)


@dataclass(frozen=True)
class PeerLeft(LinkEvent):
    """The peer said goodbye (quit)."""

    name: str

    @property
    def text(self) -> str:
        return _("{name} left the game.").format(name=self.name)


@dataclass(frozen=True)
class GameOver(LinkEvent):
    """The game ended (the session's outcome says how)."""


@dataclass(frozen=True)
class ConnectionClosed(LinkEvent):
    """This side's connection is over (a guest may join again)."""


@dataclass(frozen=True)
class Superseded(LinkEvent):
    """The host took a newer connection of this game (it was joined again, from here or
    from elsewhere): this copy stops trying to join; the game goes on there."""

    @property
    def text(self) -> str:
        return _("This game was joined again elsewhere: it goes on there.")


__all__ = [
    "ChatLine",
    "ConnectionClosed",
    "DrawOffer",
    "GameOver",
    "Info",
    "LinkEvent",
    "PeerAway",
    "PeerJoined",
    "PeerLeft",
    "PeerMoved",
    "Refused",
    "Superseded",
    "Synced",
    "TakebackRequest",
]
