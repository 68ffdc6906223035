"""The jobs of the explorer's index and of puzzle mining on a Dask cluster: a local one
here (two worker processes), through the same ``Jobs`` as this machine's processes."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shashki.base.workers import Jobs
from shashki.store.explorer import Explorer, build

from ..store.test_explorer import GAMES

distributed = pytest.importorskip(
    "distributed", reason="Dask is an optional extra (pip install 'shashki[cluster]')"
)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def square(n: int) -> int:
    return n * n


def test_jobs_run_on_the_cluster(client: Any) -> None:
    from shashki.training.cluster import DaskBackend

    backend = DaskBackend(client)
    assert backend.workers == 2
    got = dict(Jobs(square, ((n,) for n in range(30)), backend=backend))
    assert got == {n: n * n for n in range(30)}


def test_the_index_built_on_the_cluster_is_the_one_built_here(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.training.cluster import DaskBackend

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "games.pdn"
    path.write_text(GAMES * 8, encoding="utf-8")
    answers = []
    for backend in (None, DaskBackend(client)):
        with Explorer(tmp_path / f"{backend is None}.sqlite", create=True) as ex:
            report = build(ex, [path], workers=1, backend=backend, piece_bytes=700)
            assert report.games == 24
            from shashki.rules import Game

            answers.append(ex.answer("russian", Game("russian").fen()))
    assert answers[0] == answers[1]


def test_an_unreachable_scheduler_is_one_line(closed_port: int) -> None:
    from shashki.training.cluster import ClusterError, DaskBackend

    address = f"127.0.0.1:{closed_port}"
    with pytest.raises(ClusterError) as caught:
        DaskBackend(f"tcp://{address}")
    assert "\n" not in str(caught.value) and address in str(caught.value)


def test_a_scheduler_that_speaks_something_else_is_one_line() -> None:
    """A port that answers with another protocol's bytes (a web server's, here) is not a
    Dask scheduler: one line, never Dask's MemoryError from reading them as a length."""
    from shashki.training.cluster import ClusterError, DaskBackend

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]

        def answer() -> None:
            for _ in range(8):
                try:
                    conn, _where = server.accept()
                except OSError:
                    return
                with conn:
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

        threading.Thread(target=answer, daemon=True).start()
        with pytest.raises(ClusterError) as caught:
            DaskBackend(f"tcp://127.0.0.1:{port}")
    assert "\n" not in str(caught.value) and f"127.0.0.1:{port}" in str(caught.value)


def test_puzzles_mined_on_the_cluster_are_those_mined_here(client: Any, tmp_path: Path) -> None:
    from shashki.training.book import BookWriter, read_book
    from shashki.training.cluster import DaskBackend
    from shashki.training.harvest import mine_files

    from .test_mining import OPTIONS, QUIET, SHOT

    path = tmp_path / "club.pdn"
    path.write_text(QUIET + "\n" + SHOT + "\n" + QUIET, encoding="utf-8")
    books = []
    for backend in (None, DaskBackend(client)):
        book = tmp_path / f"{backend is None}.pdn"
        report = mine_files(
            BookWriter(book), [path], options=OPTIONS, workers=1, backend=backend, piece_bytes=64
        )
        assert (report.games, report.found) == (3, 1)
        books.append(read_book(book).puzzles)
    assert books[0] == books[1]
