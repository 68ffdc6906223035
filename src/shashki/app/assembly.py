"""A screen is taken down only once it is put together (:func:`assembled`)."""

from __future__ import annotations

import asyncio

from textual.screen import Screen
from textual.widget import Widget

#: The longest a screen is waited for to be put together before it is taken down (a safety
#: valve: it takes milliseconds, a little more on a loaded machine).
ASSEMBLY_WAIT = 30.0


def is_assembled(screen: Screen) -> bool:  # type: ignore[type-arg]
    """Whether ``screen`` and every widget in it are mounted."""
    return all(node.is_mounted for node in screen.walk_children(Widget, with_self=True))


async def assembled(screen: Screen) -> None:  # type: ignore[type-arg]
    """Wait until ``screen`` and every widget in it are composed and mounted.

    A screen taken down while it is still being put together (closed by the app right
    after it was opened, or the app quit by a key typed right behind the one that opened
    it, on a slow or loaded machine) was left half-made: Textual mounts no children into
    a widget being removed, nor once the app exits, but it still runs the widget's mount
    handler, and the handlers that look up their children (the screens' own, Textual's
    ``Select``, ``Header`` and command palette) failed with ``NoMatches``. Waiting for the
    mount first, a screen is taken down whole. (``_mounted_event`` is Textual's own signal
    of a finished mount; it is set also when a mount fails.)"""
    while not is_assembled(screen):
        waits: list[asyncio.Future[bool]] = [
            asyncio.ensure_future(node._mounted_event.wait())
            for node in screen.walk_children(Widget, with_self=True)
            if not node.is_mounted
        ]
        _done, pending = await asyncio.wait(waits, timeout=ASSEMBLY_WAIT)
        for task in pending:
            task.cancel()
        if pending:
            return  # never hang: taken down as it is, as Textual would


__all__ = ["ASSEMBLY_WAIT", "assembled", "is_assembled"]
