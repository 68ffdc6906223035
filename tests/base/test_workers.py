"""shashki.base.workers: jobs over worker processes, results as they come."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from shashki.base.workers import Jobs, LocalBackend, workers_wanted


def square(n: int) -> int:
    return n * n


def whose(n: int) -> tuple[int, int]:
    return n, os.getpid()


def fails(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    return n


def test_workers_wanted_is_at_least_one() -> None:
    assert workers_wanted() >= 1


def test_one_worker_runs_in_this_process() -> None:
    got = dict(Jobs(whose, [(n,) for n in range(5)], workers=1))
    assert sorted(got) == list(range(5))
    assert {pid for _, pid in got.values()} == {os.getpid()}


def test_every_job_once_numbered_as_given() -> None:
    jobs = Jobs(square, ((n,) for n in range(20)), workers=2)
    got = dict(jobs)
    assert got == {n: n * n for n in range(20)}


def test_the_jobs_run_in_other_processes() -> None:
    got = dict(Jobs(whose, [(n,) for n in range(6)], workers=2))
    assert os.getpid() not in {pid for _, pid in got.values()}


def test_the_jobs_are_read_lazily() -> None:
    read: list[int] = []

    def stream() -> Iterator[tuple[int]]:
        for n in range(100):
            read.append(n)
            yield (n,)

    jobs = Jobs(square, stream(), workers=2, ahead=2)
    first = next(iter(jobs))
    assert first[1] == first[0] ** 2
    # four handed out at first, one more after each result at most
    assert len(read) <= 2 * 2 + 1
    jobs.cancel()


def test_cancel_stops_handing_out() -> None:
    jobs = Jobs(square, [(n,) for n in range(200)], workers=2)
    seen = 0
    for _ in jobs:
        seen += 1
        if seen == 3:
            jobs.cancel()
    assert seen < 200


def test_a_jobs_error_is_raised() -> None:
    with pytest.raises(ValueError, match="three"):
        list(Jobs(fails, [(n,) for n in range(6)], workers=2))


class Counting:
    """A backend of one's own: the four calls, run at once in this process."""

    workers = 3

    def __init__(self) -> None:
        self.submitted = 0
        self.closed = False

    def submit(self, fn: Any, args: tuple[Any, ...]) -> Any:
        self.submitted += 1
        return (fn(*args), self.submitted)

    def wait(self, handles: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        return set(handles), set()

    def result(self, handle: Any) -> Any:
        return handle[0]

    def close(self, cancel: bool) -> None:
        self.closed = True


def test_another_backend_gives_the_same() -> None:
    backend = Counting()
    got = dict(Jobs(square, [(n,) for n in range(10)], backend=backend))
    assert got == {n: n * n for n in range(10)}
    assert backend.submitted == 10
    assert not backend.closed  # the caller's to close


def test_local_backend_closes() -> None:
    backend = LocalBackend(1)
    try:
        assert backend.workers == 1
        assert dict(Jobs(square, [(4,)], backend=backend)) == {0: 16}
    finally:
        backend.close(cancel=False)


STARTED: list[str] = []


def mark_started() -> None:
    STARTED.append("started")


def what_started(n: int) -> list[str]:
    return list(STARTED)


def test_a_worker_does_at_its_start_what_the_parent_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the parent asks (the compiled build, when it runs compiled: shashki.native.use
    asks it) is done in every worker process before its first job, once."""
    from shashki.base import workers

    monkeypatch.setattr(workers, "_STARTS", [])
    got = dict(Jobs(what_started, [(n,) for n in range(4)], workers=2))
    assert all(started == [] for started in got.values())
    workers.at_worker_start(mark_started)
    workers.at_worker_start(mark_started)  # (once)
    assert workers.worker_starts() == ((__name__, "mark_started", ()),)
    got = dict(Jobs(what_started, [(n,) for n in range(4)], workers=2))
    assert all(started == ["started"] for started in got.values()), got
    assert STARTED == []  # (not in this process)
