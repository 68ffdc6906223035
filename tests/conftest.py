"""Shared test helpers: where ../shared is, and square names to board positions."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from shashki import native

#: Set by tests/test_compiled.py for the run of the tests against the compiled build.
EXPECT_COMPILED = "SHASHKI_EXPECT_COMPILED"
if os.environ.get(EXPECT_COMPILED):
    native.use()  # (as the shashki command does, before the rules are imported)

from shashki.rules import Game, Move, find_variant  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The tests read English: a tester's own locale (LANG=uk_UA.UTF-8) must not translate
# them; the language tests set their own.
os.environ["LANGUAGE"] = "en"
SHARED = Path(os.environ.get("SHASHKI_SHARED", ROOT.parent / "shared"))

# Property tests are judged by what they find, never by the time an example takes: on a
# busy machine Hypothesis's 200 ms deadline and its too-slow check failed tests whose every
# example was right.  A hang is still caught by the per-test timeout.
settings.register_profile("shashki", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shashki")


#: A test that spies on a function a module calls inside itself, or patches one of its
#: classes: compiled (shashki.native), the module's own calls are not looked up, and its
#: classes are fixed; the run with the pure modules tests it.
pure_only = pytest.mark.skipif(
    native.in_use() is not None,
    reason="spies on a module that runs compiled here (shashki.native): the pure run tests it",
)


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get(EXPECT_COMPILED) and native.in_use() is None:
        raise pytest.UsageError(
            f"{EXPECT_COMPILED} is set but the compiled build is not in use ({native.why_pure()})"
        )


#: Seconds a test of the ``slow`` marker may take (every other test: ``timeout`` in
#: pyproject.toml; ``--timeout`` sets all); a test's own ``@pytest.mark.timeout`` wins.
SLOW_TIMEOUT = 3600


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("timeout"):
        return  # (tests/test_time_limits.py says it is missing)
    if config.getoption("timeout") is not None:
        return  # --timeout given: for every test
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or a skip saying it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared test data lives outside the project)")
    return path


def sq(variant: str, name: str) -> int:
    return find_variant(variant).board.parse_square(name)


def move_set(game: Game) -> set[tuple[tuple[str, ...], frozenset[str]]]:
    """Legal moves as (landing squares by name, captured squares by name)."""
    geo = game.variant.board
    return {
        (tuple(geo.name(p) for p in m.path), frozenset(geo.name(c) for c in m.captured))
        for m in game.legal_moves()
    }


def paths(game: Game) -> set[str]:
    """Legal moves as 'a1-b2-c3' strings of every landing square."""
    geo = game.variant.board
    return {"-".join(geo.name(p) for p in m.path) for m in game.legal_moves()}


def mv(variant: str, *names: str, captured: tuple[str, ...] = (), promotion: bool = False) -> Move:
    """The move through the squares ``names`` (a move made by hand, as a script makes one)."""
    v = find_variant(variant)
    return Move(
        tuple(v.parse_square(n) for n in names),
        tuple(v.parse_square(c) for c in captured),
        promotion,
        variant=v,
    )


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The engine's ending tables are cached under $XDG_CACHE_HOME: the tests use a folder
    of their own, never the user's."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture
def closed_port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A port of 127.0.0.1 where nothing listens, kept so for the test: bound and never
    listening, so a connection to it is refused (a fixed port such as 1 may be taken by
    anything running on the machine).  A Dask client tries a refused address again until
    its connect time is up: 1 s here (10 s for a user), the same one line after it."""
    from shashki.training import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]
