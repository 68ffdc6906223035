"""The line sealed by the room code: SPAKE2 with the code as its password, then every
message sealed with the session key (as magic-wormhole does: the ``spake2`` package's
``SPAKE2_Symmetric``, keys derived with HKDF-SHA256, PyNaCl's ``SecretBox``).

- **The handshake.**  Each side starts SPAKE2 with the room code and sends its message
  (33 bytes); each finishes with the other's and gets a key.  Both get the same key only
  if both used the same code; a side with another code gets a key that tells it nothing
  of the right one (SPAKE2: one run tests one guess, and only online).
- **Key confirmation.**  The guest proves it holds the key first (a value derived from
  it); the host checks it before it says anything derived from the key, then proves it
  holds the key too.  So a wrong code costs its one guess and learns nothing, and a
  guest knows it reached the room's host, not someone in the middle.
- **Sealing.**  Each direction has its own key; message ``n`` of a direction is sealed
  with nonce ``n`` (a counter, never sent): a message replayed, reordered, dropped from
  the middle, cut or changed does not open, and the connection ends.  The keys are new
  for each connection (SPAKE2 draws its own secret each run), so a message of another
  connection does not open either.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from nacl.exceptions import CryptoError
from nacl.secret import SecretBox
from spake2 import SPAKE2_Symmetric  # type: ignore[import-untyped]

#: The application's name in SPAKE2 (and the protocol's version: a key of another
#: version's run never matches).
APP_ID = b"shashki.online/2"
#: The length of a SPAKE2 message (Ed25519: a side byte and a point).
PAKE_BYTES = 33
#: The length of a key confirmation.
CONFIRM_BYTES = 32
#: What a sealed message adds to its text (the authenticator).
SEAL_OVERHEAD = SecretBox.MACBYTES


class SealError(Exception):
    """A handshake message that cannot be taken, or a message that does not open with the
    line's key (changed, replayed, reordered, cut, or sealed with another key)."""


def code_password(code: str) -> bytes:
    """The room code as SPAKE2's password: its letters, upper case, without the dash or
    spaces (``k7wq-m2`` and ``K7WQM2`` are the same code)."""
    letters = "".join(c for c in code.upper() if c.isalnum())
    return letters.encode("utf-8", "replace")


def hkdf(key: bytes, purpose: bytes, length: int = 32) -> bytes:
    """HKDF-SHA256 (RFC 5869) of ``key`` for ``purpose``, without a salt."""
    prk = hmac.new(b"\0" * hashlib.sha256().digest_size, key, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + purpose + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


@dataclass(frozen=True)
class Keys:
    """What one handshake gives both sides."""

    #: The guest's and the host's key confirmations.
    guest_proof: bytes
    host_proof: bytes
    #: The keys of the messages from the guest to the host, and back.
    guest_to_host: bytes
    host_to_guest: bytes


class Pake:
    """One side's SPAKE2 run with the room code (one run per connection: a run is never
    used twice)."""

    def __init__(self, code: str) -> None:
        self._spake = SPAKE2_Symmetric(code_password(code), idSymmetric=APP_ID)
        #: This side's message, to send.
        self.message: bytes = bytes(self._spake.start())
        self._done = False

    def finish(self, theirs: bytes) -> Keys:
        """The keys from the other side's message; raises SealError for a message that is
        not one (of another length or kind, not a point of the group, this side's own
        message sent back)."""
        if self._done:
            raise SealError("a handshake is finished once")
        self._done = True
        if len(theirs) != PAKE_BYTES or theirs[:1] != self.message[:1]:
            raise SealError("not a handshake message")
        try:
            key = bytes(self._spake.finish(theirs))
        except Exception:  # (SPAKEError, a point not in the group, a reflection)
            raise SealError("not a handshake message") from None
        return Keys(
            guest_proof=hkdf(key, b"shashki: the guest holds the key"),
            host_proof=hkdf(key, b"shashki: the host holds the key"),
            guest_to_host=hkdf(key, b"shashki: guest to host"),
            host_to_guest=hkdf(key, b"shashki: host to guest"),
        )


def same_proof(given: bytes, want: bytes) -> bool:
    """Whether a key confirmation is the one expected (compared in constant time)."""
    return secrets.compare_digest(given, want)


class SealedLine:
    """Both directions of one connection after the handshake: :meth:`seal` what this
    side sends, :meth:`open` what it receives, each in order."""

    def __init__(self, send_key: bytes, receive_key: bytes) -> None:
        self._out = SecretBox(send_key)
        self._in = SecretBox(receive_key)
        self.sent = 0
        self.received = 0

    @staticmethod
    def _nonce(n: int) -> bytes:
        return n.to_bytes(SecretBox.NONCE_SIZE, "big")

    def seal(self, text: str) -> bytes:
        """The next message sent, sealed (its nonce is its number: not sent)."""
        nonce = self._nonce(self.sent)
        self.sent += 1
        return bytes(self._out.encrypt(text.encode("utf-8"), nonce).ciphertext)

    def open(self, data: bytes) -> str:
        """The next message received; raises SealError when it does not open as the next
        one (the line cannot go on: the caller ends the connection)."""
        try:
            plain = self._in.decrypt(data, self._nonce(self.received))
        except (CryptoError, ValueError, TypeError):
            raise SealError("a message that does not open with the line's key") from None
        self.received += 1
        try:
            return bytes(plain).decode("utf-8")
        except UnicodeDecodeError:
            raise SealError("a sealed message that is not text") from None


def guest_line(keys: Keys) -> SealedLine:
    return SealedLine(keys.guest_to_host, keys.host_to_guest)


def host_line(keys: Keys) -> SealedLine:
    return SealedLine(keys.host_to_guest, keys.guest_to_host)


__all__ = [
    "APP_ID",
    "Keys",
    "Pake",
    "SealError",
    "SealedLine",
    "code_password",
    "guest_line",
    "hkdf",
    "host_line",
    "same_proof",
]
