"""The line sealed by the room code, attacked message by message: the same code gives
the same keys and another gives nothing; a PAKE message truncated, forged, reflected or
replayed is refused; a sealed message replayed, reordered, dropped, cut, changed or
forged does not open."""

from __future__ import annotations

import pytest

from shashki.online.seal import (
    PAKE_BYTES,
    Keys,
    Pake,
    SealedLine,
    SealError,
    code_password,
    guest_line,
    hkdf,
    host_line,
    same_proof,
)


def handshake(guest_code: str, host_code: str) -> tuple[Keys, Keys]:
    guest, host = Pake(guest_code), Pake(host_code)
    return guest.finish(host.message), host.finish(guest.message)


def test_the_same_code_gives_the_same_keys_read_loosely() -> None:
    mine, theirs = handshake("k7wq m2", "K7WQ-M2")
    assert mine == theirs
    assert len({mine.guest_proof, mine.host_proof, mine.guest_to_host, mine.host_to_guest}) == 4
    assert code_password("К7WQ-M2") != code_password("K7WQ-M2")  # (a Cyrillic K)


def test_a_wrong_code_gives_keys_that_prove_nothing() -> None:
    mine, theirs = handshake("K7WQ-M3", "K7WQ-M2")
    assert not same_proof(mine.guest_proof, theirs.guest_proof)
    assert not same_proof(mine.host_proof, theirs.host_proof)
    line = guest_line(mine)
    with pytest.raises(SealError):
        host_line(theirs).open(line.seal('{"v":2,"t":"join"}'))


def test_each_run_has_new_keys() -> None:
    first, _ = handshake("K7WQ-M2", "K7WQ-M2")
    second, _ = handshake("K7WQ-M2", "K7WQ-M2")
    assert first.guest_to_host != second.guest_to_host


@pytest.mark.parametrize(
    "forged",
    [
        b"",
        b"S",
        b"S" + b"\x00" * (PAKE_BYTES - 1),  # (not a point of the group)
        b"S" + b"\xff" * (PAKE_BYTES - 1),
        b"A" + b"\x01" * (PAKE_BYTES - 1),  # (another side's kind of message)
        b"S" * (PAKE_BYTES + 1),
    ],
)
def test_a_forged_or_truncated_pake_message_is_refused(forged: bytes) -> None:
    with pytest.raises(SealError):
        Pake("K7WQ-M2").finish(forged)


def test_a_pake_message_sent_back_or_replayed_gives_no_key_that_works() -> None:
    guest = Pake("K7WQ-M2")
    with pytest.raises(SealError):
        guest.finish(guest.message)  # reflected: its own message back
    host = Pake("K7WQ-M2")
    keys = host.finish(Pake("K7WQ-M2").message)  # an old run's message replayed
    fresh = Pake("K7WQ-M2")
    assert fresh.finish(host.message) != keys  # (the replayer has no key of that run)
    with pytest.raises(SealError):
        host.finish(fresh.message)  # a run is finished once


def lines() -> tuple[SealedLine, SealedLine]:
    mine, theirs = handshake("K7WQ-M2", "K7WQ-M2")
    return guest_line(mine), host_line(theirs)


def test_sealed_messages_open_in_order_both_ways() -> None:
    guest, host = lines()
    assert host.open(guest.seal("one")) == "one"
    assert host.open(guest.seal("two")) == "two"
    assert guest.open(host.seal("back")) == "back"


def test_a_replayed_reordered_or_dropped_message_does_not_open() -> None:
    guest, host = lines()
    first, second, third = (guest.seal(t) for t in ("a", "b", "c"))
    assert host.open(first) == "a"
    with pytest.raises(SealError):
        host.open(first)  # replayed
    with pytest.raises(SealError):
        host.open(third)  # the second dropped (or reordered)
    assert host.open(second) == "b"
    with pytest.raises(SealError):
        guest.open(second)  # sent back to its sender


def test_a_changed_cut_or_forged_message_does_not_open() -> None:
    guest, host = lines()
    sealed = guest.seal('{"v":2,"t":"move","ply":0,"move":"c3-d4"}')
    for i in range(len(sealed)):  # every byte changed in turn
        changed = bytearray(sealed)
        changed[i] ^= 0x01
        with pytest.raises(SealError):
            host.open(bytes(changed))
    for cut in (0, 1, 15, 16, len(sealed) - 1):
        with pytest.raises(SealError):
            host.open(sealed[:cut])
    with pytest.raises(SealError):
        host.open(sealed + b"\x00")
    with pytest.raises(SealError):
        host.open(b"\x00" * len(sealed))
    assert host.open(sealed).endswith('"c3-d4"}')  # (still next)


def test_hkdf_is_rfc_5869s() -> None:
    # RFC 5869, test case 3 (SHA-256, no salt, no info)
    okm = hkdf(b"\x0b" * 22, b"", 42)
    assert okm.hex() == (
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
    )
