"""The driver of an app served to a browser (``shashki serve`` names it in the app's
environment, ``TEXTUAL_DRIVER``): Textual's web driver, with two more rules.

- The terminal's size is bounded (:func:`~shashki.session.served.terminal_size`), at the
  start and at every resize: the server bounds it already; the app does not rely on that.
- The app ends when the server is gone.  The server writes to the app's standard input;
  when that ends (the server ended, however: SIGKILL too, its pipe then closes) the app
  is asked to quit, and after :data:`LAST_SECONDS` it ends at once — no app outlives its
  server, holding memory and engines.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

from textual import messages
from textual.drivers.web_driver import WebDriver

from ..session.served import terminal_size

#: Seconds an app whose server is gone is given to quit by itself.
LAST_SECONDS = 5.0


def _whole(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


class ServedDriver(WebDriver):
    """Textual's web driver, its size bounded and its app ended with its server."""

    def __init__(
        self,
        app: Any,
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        if self._size is not None:
            self._size = terminal_size(_whole(self._size[0]), _whole(self._size[1]))

    @property
    def start_size(self) -> tuple[int, int] | None:
        """The terminal's size the app starts with (bounded), if the server gave one."""
        return self._size

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "resize":
            width, height = _whole(payload.get("width")), _whole(payload.get("height"))
            if width is None or height is None:
                return
            bounded = terminal_size(width, height)
            payload = {**payload, "width": bounded[0], "height": bounded[1]}
        super().on_meta(packet_type, payload)

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:
            if not self.exit_event.is_set():  # the input ended: the server is gone
                self._server_gone()

    def _server_gone(self) -> None:
        """Ask the app to quit; end the process if it has not after a few seconds."""
        with contextlib.suppress(Exception):  # (the app may be ending already)
            self._app.post_message(messages.ExitApp())
        timer = threading.Timer(LAST_SECONDS, lambda: _end_now())
        timer.daemon = True
        timer.start()


def _end_now() -> None:
    """End this process at once (an app that did not quit when its server went)."""
    os._exit(1)


__all__ = ["LAST_SECONDS", "ServedDriver"]
