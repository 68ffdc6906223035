"""A review under way: the engine's worker processes fed from a thread of the app, each
batch of results handed to the screen that shows the review (if it is still open).

The job belongs to the app, not to the screen: leaving the screen does not stop it (a
game can be played meanwhile); when it ends without a screen to show it, the review is
written into the record and the study's changes autosaved, so that opening the game
again offers them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class ReviewProgress:
    """A batch of the review's results has been added."""


@dataclass(frozen=True)
class ReviewEnded:
    """The review has ended (complete, cancelled, or failed: the job's ``failed``)."""


ReviewEvent = ReviewProgress | ReviewEnded


class ReviewJob:
    """One review being searched (:meth:`start`); the screen that shows it hears of each
    batch and of the end (:meth:`watch`)."""

    def __init__(self, app: App[object], review: Review, name: str = "") -> None:
        self.app = app
        self.review = review
        self.name = name
        self._listener: Callable[[ReviewEvent], None] | None = None
        #: Where the game came from: its study's changes are kept under it when no
        #: screen shows the review at its end.
        self.origin: Origin | None = None
        self.running = False
        self.failed = ""
        self._analysis: object = None

    def watch(self, listener: Callable[[ReviewEvent], None]) -> Callable[[], None]:
        """``listener`` hears of the review's progress and end (one screen at a time,
        on the app's thread) until the call returned is made."""
        self._listener = listener

        def unwatch() -> None:
            if self._listener is listener:
                self._listener = None

        return unwatch

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
        if self._listener is not None:
            self._listener(ReviewProgress())

    def _ended(self) -> None:
        self.running = False
        if self._listener is not None:
            self._listener(ReviewEnded())
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


__all__ = ["NICE", "ReviewEnded", "ReviewEvent", "ReviewJob", "ReviewProgress"]
