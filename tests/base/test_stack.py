"""The roomy stack of frames (shashki.base.stack): a deep recursion inside it stays in
one chunk of the interpreter's stack of frames, and the call is the plain call."""

from __future__ import annotations

import ctypes
import itertools
import platform
import sys

import pytest

from shashki.base.stack import on_roomy_stack

LEVELS = 400  # about 60 KB of small frames: over three chunks of 16 KB


def frame_addresses(levels: int) -> list[int]:
    """Where the interpreter keeps the frame of each level of a recursion (CPython: a
    frame object's ``f_frame``, the pointer after its header and ``f_back``)."""
    out: list[int] = []

    def down(n: int) -> None:
        here = sys._getframe()
        out.append(
            ctypes.c_void_p.from_address(id(here) + 3 * ctypes.sizeof(ctypes.c_void_p)).value or 0
        )
        if n:
            down(n - 1)

    down(levels)
    return out


def chunks(addresses: list[int]) -> int:
    """How many runs of evenly spaced frames (one chunk each) the addresses make."""
    steps = [b - a for a, b in itertools.pairwise(addresses)]
    return 1 + sum(1 for step in steps if step != steps[0])


@pytest.mark.skipif(
    platform.python_implementation() != "CPython" or sys.version_info < (3, 11),
    reason="the stack of frames in chunks is CPython's, from 3.11",
)
def test_a_deep_recursion_on_the_roomy_stack_stays_in_one_chunk() -> None:
    assert chunks(frame_addresses(LEVELS)) > 1  # (the plain call crosses ends of chunks)
    assert chunks(on_roomy_stack(frame_addresses, LEVELS)) == 1


def test_the_call_is_the_plain_call() -> None:
    def add(a: int, b: int = 0) -> int:
        return a + b

    assert on_roomy_stack(add, 2, b=3) == 5

    def fail() -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        on_roomy_stack(fail)
    assert on_roomy_stack.__code__.co_stacksize > 10_000  # (the interpreter's own function)
