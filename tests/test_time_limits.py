"""Every test runs with a time limit (pytest-timeout): a hang fails that one test, with
the stacks of its threads shown, instead of stopping the whole run (issue 23)."""

from __future__ import annotations

import pytest

from .conftest import SLOW_TIMEOUT


def test_every_test_has_a_time_limit(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("timeout"), "pytest-timeout is not installed"
    limit = float(request.config.getini("timeout"))
    # long enough for the slowest test on a busy machine (the few slower than that have
    # their own), short enough to stop a hang soon
    assert 60 <= limit <= 120, limit
    assert SLOW_TIMEOUT > limit


@pytest.mark.slow
def test_a_slow_test_has_the_longer_limit(request: pytest.FixtureRequest) -> None:
    if request.config.getoption("timeout") is not None:
        pytest.skip("--timeout sets the limit of every test")
    marker = request.node.get_closest_marker("timeout")
    assert marker is not None and marker.args == (SLOW_TIMEOUT,)


def test_property_tests_have_no_time_deadline() -> None:
    # a busy machine makes an example slow, not wrong: no deadline, no too-slow check,
    # also for a test that sets its own number of examples
    from hypothesis import HealthCheck, settings

    for chosen in (settings(), settings(max_examples=3)):
        assert chosen.deadline is None
        assert HealthCheck.too_slow in chosen.suppress_health_check
