"""Small helpers of hosting that the screens share with the command line."""

from __future__ import annotations

import socket

from .host import lan_address


def free_port(port: int, public: bool, local: bool = False) -> int:
    """``port`` if it can be listened on (0: a free one, found now); raises OSError."""
    bind = "0.0.0.0" if public else "127.0.0.1" if local else lan_address()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((bind, port))
        return int(probe.getsockname()[1])


__all__ = ["free_port"]
