"""A deep recursion run on a roomy stack of frames: :func:`on_roomy_stack`.

CPython (3.11 and later) keeps the frames of Python functions on a stack of its own,
in chunks of 16 KB.  A call whose frame does not fit in what is left of the chunk maps
a new chunk, and the return that leaves the chunk empty unmaps it at once.  A recursion
whose depth goes back and forth across a chunk's end pays a ``mmap``, a ``munmap`` and
the page faults of fresh memory for every call that crosses it: the search does that
for tens of thousands of its nodes a second (a tree search spends most of its nodes
deep, where the chunk's end falls sooner or later).  The pure search of Artamonov and
giveaway spent a fifth of its time in the kernel so, and where the end fell moved
with every change of a frame's size: one more method a step, one local variable less.

:func:`on_roomy_stack` calls a function inside a frame so big that it never fits in a
chunk already there: the interpreter maps a chunk for it with room to spare (a chunk is
at least the frame and 8,000 bytes, rounded up to a power of two), and everything the
function calls is stacked behind it in that chunk, a recursion of well over a hundred
plies without crossing an end.  The big frame is only address space: the pages of its
unused part are never touched.  This file is never compiled (:mod:`shashki.native`):
its function must be the interpreter's, a frame of its own; called from compiled code
it costs one chunk a call and changes nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")

#: The words of the big frame's value stack: the frame takes a little over 120 KB, and
#: the chunk mapped for it 256 KB (the power of two above the frame and 8,000 bytes),
#: leaving about 139 KB to the frames stacked behind it.
STACK_WORDS = 15_400


def on_roomy_stack(fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """``fn(*args, **kwargs)``, its frames (and those of whatever it calls) stacked in a
    chunk of room of their own (see the module's text)."""
    return fn(*args, **kwargs)


# (the frame's size is the code's value stack, locals and a few words; the code only
# ever uses a few words of that stack, so a bigger one changes nothing but the size)
on_roomy_stack.__code__ = on_roomy_stack.__code__.replace(co_stacksize=STACK_WORDS)
