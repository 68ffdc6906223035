"""The review job tells the screen that shows it of each batch and of its end through
one listener it is given (:meth:`ReviewJob.watch`), never a callback set on it; once
the screen has stopped watching, the end is kept in the record instead."""

from __future__ import annotations

from typing import Any

from shashki.app.review import ReviewEnded, ReviewEvent, ReviewJob, ReviewProgress


class _Review:
    def __init__(self) -> None:
        self.added: list[object] = []
        self.written = 0
        self.complete = False

    def add(self, scores: object) -> None:
        self.added.append(scores)

    def write(self) -> None:
        self.written += 1


class _App:
    def __init__(self) -> None:
        self.said: list[str] = []

    def notify(self, text: str, **_options: Any) -> None:
        self.said.append(text)


def test_the_screen_watching_hears_each_batch_and_the_end() -> None:
    review, app = _Review(), _App()
    job = ReviewJob(app, review, name="g.pdn")  # type: ignore[arg-type]
    heard: list[ReviewEvent] = []
    job.watch(heard.append)
    job._got([1])
    job._got([2])
    job._ended()
    assert heard == [ReviewProgress(), ReviewProgress(), ReviewEnded()]
    assert review.added == [[1], [2]]
    assert review.written == 0 and not app.said  # (the screen keeps it)


def test_a_job_no_screen_watches_keeps_its_end_in_the_record() -> None:
    review, app = _Review(), _App()
    job = ReviewJob(app, review, name="g.pdn")  # type: ignore[arg-type]
    heard: list[ReviewEvent] = []
    unwatch = job.watch(heard.append)
    job._got([1])
    unwatch()  # the screen was left
    job._got([2])
    job._ended()
    assert heard == [ReviewProgress()]
    assert review.written == 1
    assert app.said == ["The review of g.pdn is done: open the game again to read it."]


def test_an_older_screen_unwatching_leaves_the_newer_one_watching() -> None:
    job = ReviewJob(_App(), _Review())  # type: ignore[arg-type]
    old: list[ReviewEvent] = []
    new: list[ReviewEvent] = []
    unwatch_old = job.watch(old.append)
    job.watch(new.append)
    unwatch_old()
    job._ended()
    assert not old and new == [ReviewEnded()]
