"""A review under way: the engine's worker processes fed from a thread of the app, each
batch of results handed to the screen that shows the review (if it is still open).

The job belongs to the app, not to the screen: leaving the screen does not stop it (a
game can be played meanwhile); when it ends without a screen to show it, the review is
written into the record and the study's changes autosaved, so that opening the game
again offers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from ..i18n import _
from ..session.review import Review
from ..store.studies import Origin, StudyAutosave

if TYPE_CHECKING:
    from textual.app import App

#: The review's workers run below the app's own priority: the board and a game played
#: meanwhile come first.
NICE = 5


class ReviewJob:
    """One review being searched (:meth:`start`); ``on_update`` after each batch and
    ``on_done`` at the end are the screen's, while it shows the review."""

    def __init__(self, app: App[object], review: Review, name: str = "") -> None:
        self.app = app
        self.review = review
        self.name = name
        self.on_update: Callable[[], None] | None = None
        self.on_done: Callable[[], None] | None = None
        #: Where the game came from: its study's changes are kept under it when no
        #: screen shows the review at its end.
        self.origin: Origin | None = None
        self.running = False
        self.failed = ""
        self._analysis: object = None

    def start(self) -> None:
        if self.running or self.review.complete:
            return
        self.running = True
        self.app.run_worker(self._work, thread=True, group="review", name="review")

    def _work(self) -> None:
        worker = get_current_worker()
        try:
            # the first searches, then the second looks they ask for (each batch is
            # added on the app's thread before the next is chosen)
            while (analysis := self.review.analysis(nice=NICE)).jobs:
                self._analysis = analysis
                for scores in analysis:
                    if worker.is_cancelled:
                        analysis.cancel()
                        return
                    self.app.call_from_thread(self._got, scores)
        except Exception as exc:  # a worker process that died, a position that failed
            self.failed = " ".join(str(exc).split()) or type(exc).__name__
        finally:
            try:
                self.app.call_from_thread(self._ended)
            except RuntimeError:  # the app has gone
                pass

    def cancel(self) -> None:
        analysis = self._analysis
        if analysis is not None:
            analysis.cancel()  # type: ignore[attr-defined]

    def _got(self, scores: list[object]) -> None:
        self.review.add(scores)  # type: ignore[arg-type]
        if self.on_update is not None:
            self.on_update()

    def _ended(self) -> None:
        self.running = False
        if self.on_done is not None:
            self.on_done()
            return
        # no screen shows it any more: kept in the record and on disk
        self.review.write()
        if self.origin is not None and self.origin.key:
            autosave = StudyAutosave(self.origin)
            autosave.save(self.review.record)
            autosave.close()
        if self.failed:
            return
        if self.name:
            said = _("The review of {game} is done: open the game again to read it.").format(
                game=self.name
            )
        else:
            said = _("The review is done: open the game again to read it.")
        self.app.notify(said, timeout=8, markup=False)


__all__ = ["NICE", "ReviewJob"]
