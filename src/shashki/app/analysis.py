"""Analysis on demand: the engine's evaluation of the position shown, in men with a small
bar, and its best line, updated as it searches deeper; it stops when the position
changes (and starts again on the new one) or when it is turned off.

The panel is a widget of the game and replay screens: the screen calls
:meth:`AnalysisPanel.follow` with the game it shows whenever that may have changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.worker import get_current_worker

from ..engine.endings import covered, probe_built
from ..engine.scores import WON
from ..engine.search import Iteration, Search
from ..i18n import _, ngettext, noun
from ..rules import Game
from ..rules.game import game_state
from ..rules.move import Color
from ..rules.variation import variation_text
from .plain import Plain

#: The bar's width in cells and the score (in men) that fills one half of it.
BAR_CELLS = 20
BAR_MEN = 5.0


def score_words(score: int, turn: Color, names: tuple[str, str] = ("White", "Black")) -> str:
    """A score of the side to move as the first side's, for people: ``+0.35``, ``White
    wins in 4 moves`` (the winner's moves, as players count them: the search's 7 plies
    to the win; ``names`` are the sides' names as shown)."""
    white = score if turn is Color.WHITE else -score
    if abs(white) >= WON:
        moves = (100_000 - abs(white) + 1) // 2
        return ngettext("{side} wins in {n} move", "{side} wins in {n} moves", moves).format(
            side=noun(names[0] if white > 0 else names[1]), n=moves
        )
    return f"{white / 100:+.2f}"


def bar(score: int, turn: Color, cells: int = BAR_CELLS) -> str:
    """White's share of a bar, ``█`` for White and ``░`` for Black; even is half."""
    white = score if turn is Color.WHITE else -score
    if abs(white) >= WON:
        share = 1.0 if white > 0 else 0.0
    else:
        share = 0.5 + max(-1.0, min(1.0, white / 100 / BAR_MEN)) / 2
    filled = round(share * cells)
    return "█" * filled + "░" * (cells - filled)


class AnalysisPanel(Plain):
    """The engine's view of the shown position, when analysis is on."""

    DEFAULT_CSS = """
    AnalysisPanel { height: auto; display: none; }
    AnalysisPanel.-on { display: block; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.on = False
        self._key: object = None
        self._game: Game | None = None
        self._searches: dict[str, Search] = {}
        #: What the panel says, said again when the language changes.
        self._said: Callable[[], str] = lambda: ""

    def say(self, said: Callable[[], str]) -> None:
        """Show ``said()``; it is said again by :meth:`retranslate`."""
        self._said = said
        self.update(said())

    def retranslate(self) -> None:
        """Say the panel again in the language spoken now (the search goes on)."""
        self.update(self._said())

    def toggle(self, game: Game) -> bool:
        """Turn the analysis on (of ``game``) or off; whether it is on now."""
        self.on = not self.on
        self.set_class(self.on, "-on")
        self._key = None
        if self.on:
            self.follow(game)
        else:
            self.stop()
        return self.on

    def follow(self, game: Game) -> None:
        """Analyse ``game``'s position if it is not the one analysed (a no-op when off)."""
        if not self.on:
            return
        key = (game.variant.id, game.position, game.ply)
        if key == self._key:
            return
        self._key = key
        self.stop()
        if game.outcome() is not None:
            self.say(lambda: _("Analysis: the game is over."))
            return
        self.say(lambda: _("Analysis: thinking…"))
        self._game = game.copy()
        self.run_worker(
            lambda: self._search(self._game), thread=True, group="analysis", exclusive=True
        )

    def stop(self) -> None:
        self.workers.cancel_group(self, "analysis")

    def on_unmount(self) -> None:
        self.stop()

    def _search(self, game: Game | None) -> None:
        if game is None:
            return
        worker = get_current_worker()
        search = self._searches.get(game.variant.id)
        if search is None:
            search = self._searches[game.variant.id] = Search(game.variant)
        # an ending the tables hold a draw: said as such, whatever the depth shows
        drawn = (
            covered(game.variant, game_state(game))
            and probe_built(game.variant, game_state(game)) == 0
        )

        def show(it: Iteration) -> None:
            if worker.is_cancelled:
                return
            turn = game.turn
            v = game.variant
            depth, score = it.depth, it.score
            shown_bar, line = bar(score, turn), variation_text(game, it.pv, most=8)

            def text() -> str:
                names = (v.local_side(0), v.local_side(1))
                head = _("Analysis, depth {depth}: {score}").format(
                    depth=depth, score=score_words(score, turn, names)
                )
                if drawn:
                    head = _("Analysis: a draw (ending database)")
                return f"{head}\n{shown_bar}\n{line}"

            self.app.call_from_thread(self._shown, worker, text)

        search.search(game, cancelled=lambda: worker.is_cancelled, on_iteration=show)

    def _shown(self, worker: object, text: Callable[[], str]) -> None:
        if self.on and not getattr(worker, "is_cancelled", True):
            self.say(text)


__all__ = ["AnalysisPanel", "bar", "score_words"]
