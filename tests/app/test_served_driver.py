"""The driver of a served app (``shashki serve`` names it): Textual's web driver, the
terminal's size bounded at the start and at every resize, and the app ended when its
input ends (the server gone), at once if it does not quit by itself."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events, messages

from shashki.app import served_driver
from shashki.app.served_driver import ServedDriver
from shashki.session.served import MOST_COLUMNS, MOST_ROWS

from ..waiting import until_blocking


class FakeApp:
    """What the driver tells the app, kept (a driver is made in the app's loop)."""

    def __init__(self) -> None:
        self.told: list[object] = []

    def post_message(self, message: object) -> bool:
        self.told.append(message)
        return True


class Ended:
    """No input: the server's end of the pipe closed."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __iter__(self) -> Any:
        return iter(())

    def close(self) -> None:
        pass


@pytest.fixture
async def driver(monkeypatch: pytest.MonkeyPatch) -> tuple[ServedDriver, FakeApp]:
    monkeypatch.setattr("textual.drivers.web_driver.InputReader", Ended)
    monkeypatch.setenv("COLUMNS", "10000")
    monkeypatch.setenv("ROWS", "10000")
    app = FakeApp()
    return ServedDriver(app), app  # type: ignore[arg-type]


async def test_the_size_is_bounded(driver: tuple[ServedDriver, FakeApp]) -> None:
    served, app = driver
    assert served.start_size == (MOST_COLUMNS, MOST_ROWS)  # (from the environment)
    served.on_meta("resize", {"type": "resize", "width": 10000, "height": 10000})
    served.on_meta("resize", {"type": "resize", "width": -3, "height": 0})
    served.on_meta("resize", {"type": "resize", "width": 120, "height": 40})
    for junk in ("120", 1.5, None, True, [1]):
        served.on_meta("resize", {"type": "resize", "width": junk, "height": 40})
    sizes = [(m.size.width, m.size.height) for m in app.told if isinstance(m, events.Resize)]
    assert sizes == [(MOST_COLUMNS, MOST_ROWS), (1, 1), (120, 40)]


async def test_the_app_ends_when_its_input_ends(
    driver: tuple[ServedDriver, FakeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    served, app = driver
    ended: list[bool] = []
    monkeypatch.setattr(served_driver, "LAST_SECONDS", 0.01)
    monkeypatch.setattr(served_driver, "_end_now", lambda: ended.append(True))
    served.run_input_thread()  # (the input at its end at once)
    assert any(isinstance(m, messages.ExitApp) for m in app.told)
    until_blocking(lambda: ended, "the process ended (the app did not quit)")


async def test_an_app_that_quits_is_not_ended_again(
    driver: tuple[ServedDriver, FakeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    served, app = driver
    monkeypatch.setattr(served_driver, "_end_now", lambda: pytest.fail("ended"))
    served.exit_event.set()  # (the app stopped its input: it is quitting)
    served.run_input_thread()
    assert not any(isinstance(m, messages.ExitApp) for m in app.told)
