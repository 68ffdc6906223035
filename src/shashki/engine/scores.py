"""The search's scale of scores, shared by the search and the ending tables."""

from __future__ import annotations

from typing import Final

#: The score of a won game at the root; a win in n plies scores WIN - n.
WIN: Final = 100_000
#: Scores beyond this are wins or losses, not evaluations.
WON: Final = WIN - 1000
INF: Final = WIN + 1

__all__ = ["INF", "WIN", "WON"]
