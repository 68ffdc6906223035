"""The messages two shashki exchange over a WebSocket to play one game (docs/ONLINE.md).

Every message is one JSON object: ``{"v": 2, "t": TYPE, …}``.  The handshake's three
(``pake``, ``confirm``, and a ``refused`` turning a connection away) go in clear text
frames; every other is sealed with the line's key (:mod:`shashki.online.seal`) in a
binary frame.  A message is at most :data:`MAX_MESSAGE` bytes; its fields are checked
here, by type and size, before anything else looks at it: :func:`parse` gives a
:class:`Message` or raises :class:`ProtocolError` whose text is one line, safe to show
(the peer's words in it are cleaned and cut).  A peer may *name* a variant (by id) —
never a path, a program, or a file to read.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..base.numbers import one_line
from ..i18n import N_, _
from ..records.clocks import MAX_SECONDS
from ..rules.variant import Variant

#: The protocol's version: a peer of another version is refused with one line.
VERSION = 2
#: The largest message read, in bytes (a whole game's moves and clock marks fit).
MAX_MESSAGE = 64 * 1024
#: Frames larger than this close the connection (smaller ones past MAX_MESSAGE are
#: refused one by one): what is read stays bounded either way.
FRAME_LIMIT = 4 * MAX_MESSAGE
#: The most moves a state may hold.
MAX_PLIES = 2000
#: The longest move text, name, chat line (characters).
MAX_MOVE = 200
MAX_NAME = 40
MAX_CHAT = 200
#: Messages a peer may send: a burst of this many, then this many a second.
RATE_BURST = 40
RATE_PER_SECOND = 10.0
#: What a guest lets a host send (a host echoes every move and sends states).
HOST_BURST = 400
HOST_PER_SECOND = 100.0
#: Seconds away after which the other side may claim the game.
CLAIM_AFTER = 60.0

#: Letters of a room code: no 0/O, 1/I/L (read aloud or over the phone).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

#: Every message type and the fields it has: name -> (kind, required).
_STR, _INT, _BOOL, _NUM, _LIST, _OBJ = "str", "int", "bool", "num", "list", "obj"
FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    # the handshake, in clear (both ways: each side's SPAKE2 message, then its proof)
    "pake": {"pake": (_STR, True)},
    "confirm": {"confirm": (_STR, True)},
    # guest -> host, sealed from here on
    "join": {"name": (_STR, False), "program": (_BOOL, False), "game": (_STR, False)},
    "move": {"ply": (_INT, True), "move": (_STR, True), "left": (_NUM, False)},
    # host -> guest
    "welcome": {
        "variant": (_STR, True),
        "rules": (_STR, True),
        "side": (_STR, True),
        "clock": (_STR, False),
        "takeback": (_BOOL, True),
        "host": (_STR, False),
        "guest": (_STR, False),
        "start": (_STR, False),
        "seed": (_INT, False),
        "site": (_STR, False),
        "program": (_BOOL, False),
        "game": (_STR, True),
    },
    "state": {
        "moves": (_LIST, True),
        "marks": (_LIST, False),
        "left": (_LIST, False),
        "end": (_OBJ, False),
    },
    "moved": {"ply": (_INT, True), "move": (_STR, True), "left": (_LIST, False)},
    "refused": {"text": (_STR, True)},
    # both ways
    "draw": {},
    "draw_answer": {"accept": (_BOOL, True)},
    "takeback": {},
    "takeback_answer": {"accept": (_BOOL, True)},
    "resign": {},
    "chat": {"text": (_STR, True)},
    "bye": {"text": (_STR, False)},
}

#: Why a game ended, as ``state``'s ``end`` says it.
END_KINDS = ("rules", "resign", "agreed", "time", "claim")


class ProtocolError(Exception):
    """A message that cannot be taken: one line, safe to print.

    ``str(error)`` is the English line (logs, and the ``refused`` message's wire text);
    :meth:`local` is the same line in the player's language.  ``text`` is a message
    marked with ``N_`` whose ``{placeholders}`` take ``values``; ``detail`` (English,
    e.g. the JSON parser's words) is added to the English line only; ``code`` is the
    reason's code sent over the wire (:data:`REASON_CODES`)."""

    def __init__(
        self, text: str, code: str = "bad-message", *, detail: str = "", **values: Any
    ) -> None:
        self.template = text
        self.code = code
        self.values = values
        english = text.format(**values)
        super().__init__(f"{english} ({detail})" if detail else english)

    def local(self) -> str:
        """The line in the player's language."""
        return _(self.template).format(**self.values)

    def wire(self) -> str:
        """The ``refused`` message's text: the reason's code, then the English line."""
        return f"{self.code}: {self}"


#: What each reason code the host may send in a ``refused`` message's text means, as
#: the guest says it (docs/ONLINE.md); an unknown code is said with the host's words.
REASON_CODES: dict[str, str] = {
    "bad-message": N_("The host could not read a message of ours."),
    "version": N_("The host speaks another version of the protocol: update shashki."),
    "wrong-side": N_("The host refused a message only the host may send."),
    "game-over": N_("The host refused: the game is over."),
    "not-your-turn": N_("The host refused our move: it is not our turn."),
    "wrong-ply": N_("The host refused our move: it was for another position."),
    "time-out": N_("The host refused our move: our time ran out first."),
    "illegal-move": N_("The host refused our move: the rules do not allow it."),
    "draw-waiting": N_("The host refused the draw offer: an offer is waiting already."),
    "no-draw-offered": N_("The host refused our answer: no draw was offered."),
    "no-takebacks": N_("The host refused: takebacks are off in this game."),
    "nothing-to-take-back": N_("The host refused: there is no move to take back."),
    "takeback-waiting": N_("The host refused: our takeback request is waiting for an answer."),
    "no-takeback-asked": N_("The host refused our answer: no takeback was asked."),
    "not-join": N_("The host refused: the connection did not begin with the handshake."),
    "no-code": N_("The host refused: the handshake did not come in time."),
    "wrong-code": N_("The host refused: the room code is wrong."),
    "wait": N_(
        "The host refused: too many wrong codes came from this address; try again in a minute."
    ),
    "busy": N_("The host is busy with other connections: try again in a few seconds."),
    "too-many": N_("The host dropped some of our messages: we sent too many at once."),
    "flood": N_("The host closed the connection: we sent too many messages."),
    "superseded": N_("This game was joined again elsewhere: it goes on there."),
}
#: The shape of a reason code at the start of a ``refused`` text.
_CODE = re.compile(r"([a-z][a-z0-9-]{0,30}): ")


def refusal_text(text: Any, limit: int = 160) -> str:
    """What the host's ``refused`` text (cleaned) means, in the player's language: the
    sentence of its reason code, or a general line quoting the host's words (an unknown
    code, or an older host's text without one)."""
    line = clean(text if isinstance(text, str) else "", limit)
    found = _CODE.match(line)
    if found is not None and found.group(1) in REASON_CODES:
        return _(REASON_CODES[found.group(1)])
    return _('The host refused a message, saying "{text}".').format(text=line)


@dataclass
class Message:
    type: str
    fields: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def encode(type_: str, **fields: Any) -> str:
    """A message as the text frame sent (fields that are None left out)."""
    body: dict[str, Any] = {"v": VERSION, "t": type_}
    body.update({k: v for k, v in fields.items() if v is not None})
    return json.dumps(body, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def _refuse_constant(name: str) -> Any:
    raise ProtocolError(N_("not a number: {name}"), name=one_line(name, 20))


def parse(data: str | bytes) -> Message:
    """The message of a frame; raises ProtocolError (one line) for anything that is not
    one well-formed message of this version: too long, not JSON, truncated, a field
    missing, of the wrong type or too long, an unknown type."""
    if isinstance(data, bytes):
        if len(data) > MAX_MESSAGE:
            raise ProtocolError(
                N_("message too long ({n} bytes, at most {most})"), n=len(data), most=MAX_MESSAGE
            )
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(N_("message is not UTF-8 text")) from None
    if len(data) > MAX_MESSAGE:
        raise ProtocolError(
            N_("message too long ({n} characters, at most {most})"), n=len(data), most=MAX_MESSAGE
        )
    try:
        body = json.loads(data, parse_constant=_refuse_constant)
    except RecursionError:
        raise ProtocolError(N_("message nested too deeply")) from None
    except ValueError as exc:
        text = one_line(str(exc), 80)
        raise ProtocolError(N_("message is not JSON"), detail=text) from None
    if not isinstance(body, dict):
        raise ProtocolError(N_("message is not a JSON object"))
    version = body.get("v")
    if version != VERSION or isinstance(version, bool):
        raise ProtocolError(
            N_("protocol version '{version}' is not {want} (update shashki)"),
            "version",
            version=one_line(str(version), 10),
            want=VERSION,
        )
    kind = body.get("t")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(N_("unknown message type '{kind}'"), kind=one_line(str(kind), 20))
    spec = FIELDS[kind]
    fields: dict[str, Any] = {}
    for name, (want, required) in spec.items():
        if name not in body or body[name] is None:
            if required:
                raise ProtocolError(N_("field {kind}.{name} is missing"), kind=kind, name=name)
            continue
        fields[name] = _checked(kind, name, want, body[name])
    extra = [k for k in body if k not in spec and k not in ("v", "t")]
    if len(extra) > 0:
        raise ProtocolError(
            N_("{kind}: unknown field '{name}'"), kind=kind, name=one_line(str(extra[0]), 20)
        )
    return Message(kind, fields)


def _checked(kind: str, name: str, want: str, value: Any) -> Any:
    where = f"{kind}.{name}"
    if want == _STR:
        if not isinstance(value, str):
            raise ProtocolError(N_("field {where} is not text"), where=where)
        limit = {
            "text": MAX_CHAT * 2,
            "name": MAX_NAME * 4,
            "rules": 64,
            "pake": 66,
            "confirm": 64,
            "game": 32,
        }.get(name, MAX_MOVE)
        if len(value) > limit:
            raise ProtocolError(
                N_("field {where} is too long ({n} characters)"), where=where, n=len(value)
            )
        return value
    if want == _INT:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 2**31:
            raise ProtocolError(N_("field {where} is not a whole number from 0"), where=where)
        return value
    if want == _BOOL:
        if not isinstance(value, bool):
            raise ProtocolError(N_("field {where} is not true or false"), where=where)
        return value
    if want == _NUM:
        return _seconds(where, value)
    if want == _LIST:
        if not isinstance(value, list) or len(value) > MAX_PLIES:
            raise ProtocolError(
                N_("field {where} is not a list of at most {most}"), where=where, most=MAX_PLIES
            )
        return value
    if not isinstance(value, dict):
        raise ProtocolError(N_("field {where} is not an object"), where=where)
    return value


def _seconds(where: str, value: Any) -> float:
    """A clock reading: a finite number from 0 to the ten hours a clock can show."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError(N_("field {where} is not a number of seconds"), where=where)
    if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
        raise ProtocolError(
            N_("field {where}: '{value}' is not a clock reading"),
            where=where,
            value=one_line(str(value), 20),
        )
    return float(value)


def clock_pair(where: str, value: Any) -> tuple[float, float]:
    """Both sides' seconds left (``[white, black]``); raises ProtocolError."""
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError(N_("field {where} is not the two clocks"), where=where)
    return _seconds(where, value[0]), _seconds(where, value[1])


def marks_list(value: Any) -> list[float | None]:
    """The clock marks of a state: a number or null per move."""
    if not isinstance(value, list) or len(value) > MAX_PLIES:
        raise ProtocolError(N_("field state.marks is not a list"))
    return [None if v is None else _seconds("state.marks", v) for v in value]


def move_list(value: Any) -> list[str]:
    if not all(isinstance(v, str) and len(v) <= MAX_MOVE for v in value):
        raise ProtocolError(N_("field state.moves is not a list of move texts"))
    return list(value)


def clean(text: str, limit: int) -> str:
    """A peer's words (a name, a chat line) as one line of plain text: no escape
    sequence, no control character, no line break, at most ``limit`` characters."""
    return one_line(text, limit)


def rules_digest(variant: Variant) -> str:
    """A digest of what a variant's rules are (board, switches, start, draws, family,
    modifiers, options, goals, notation): two files that play the same game give the
    same digest, whatever their names, cards and translations."""
    text = repr(
        (
            variant.board,
            variant.rules,
            variant.start,
            variant.draws,
            variant.family,
            variant.modifiers,
            sorted(variant.options.items()),
            variant.start_options,
            variant.goals,
            variant.notation,
            variant.generator_class.__name__,
        )
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_code() -> str:
    """A one-time room code, e.g. ``K7WQ-M2`` (six letters of 31: about 30 bits; each
    connection tries one code, and an address a few a minute: docs/ONLINE.md)."""
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
    return f"{letters[:4]}-{letters[4:]}"


def new_game_id() -> str:
    """The identity of one online game, the same on both sides for its whole life
    (autosaves, rejoins): 32 hex digits drawn by ``secrets``."""
    return secrets.token_hex(16)


def game_id(value: Any) -> str | None:
    """A game's identity as a peer or a file gives it: 32 hex digits, or None."""
    if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{32}", value):
        return value
    return None


def older_version(data: str | bytes) -> int | None:
    """The version of a message of another version of the protocol (an older shashki's
    first message, or its refusal), or None: a clear frame is looked at only this far
    before it is turned away with one line."""
    if len(data) > MAX_MESSAGE:
        return None
    try:
        body = json.loads(data, parse_constant=_refuse_constant)
    except (ValueError, RecursionError, ProtocolError):
        return None
    if not isinstance(body, dict):
        return None
    version = body.get("v")
    if isinstance(version, int) and not isinstance(version, bool) and version != VERSION:
        return version if 0 < version < 1000 else None
    return None


def version_refusal(version: int) -> str:
    """A refusal an older shashki reads (in its own version's shape): the code
    ``version`` and the line to update."""
    text = f"version: this host speaks version {VERSION} of the protocol (update shashki)"
    body = {"v": version, "t": "refused", "text": text}
    return json.dumps(body, ensure_ascii=True, separators=(",", ":"))


class RateLimit:
    """A token bucket: :data:`RATE_BURST` messages at once, then
    :data:`RATE_PER_SECOND` a second."""

    def __init__(
        self, now: float, burst: int = RATE_BURST, per_second: float = RATE_PER_SECOND
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.at = now
        #: Messages refused in a row (a flood goes on: the peer is let go).
        self.refused = 0

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.per_second)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


__all__ = [
    "CLAIM_AFTER",
    "MAX_MESSAGE",
    "VERSION",
    "Message",
    "ProtocolError",
    "RateLimit",
    "clean",
    "clock_pair",
    "encode",
    "new_code",
    "new_game_id",
    "older_version",
    "parse",
    "rules_digest",
]
