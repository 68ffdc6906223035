"""Work on a Dask cluster: :class:`DaskBackend` runs the jobs of
:class:`~shashki.base.workers.Jobs` on the workers of a ``dask.distributed`` scheduler
instead of this machine's processes (``--cluster ADDRESS`` of ``shashki puzzles mine``
and ``shashki explore build``).

Dask is an optional extra (``pip install 'shashki[cluster]'``); every worker of the
cluster must have shashki installed (the same version), since a job names a function of
shashki and carries only its arguments: the games' text, never a path, so the workers
need no access to this machine's files.  Start the workers with one thread each (the
engine is pure Python: threads of one process share one core)::

    dask scheduler                                   # on one machine
    dask worker tcp://SCHEDULER:8786 --nworkers auto --nthreads 1   # on each machine
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..i18n import _
from ..rules.errors import ShashkiError

#: Seconds to reach the scheduler before giving up.
CONNECT_SECONDS = 10


class ClusterError(ShashkiError):
    """The cluster cannot be used (Dask missing, the scheduler not reached)."""


class DaskBackend:
    """The workers of a Dask scheduler, as a :class:`~shashki.base.workers.Backend`.

    ``address``: the scheduler's (``tcp://host:8786``), or a ``distributed.Client``
    already made (the tests' local cluster)."""

    def __init__(self, address: str | Any) -> None:
        try:
            # (read as Any: Dask's functions carry no types)
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ClusterError(
                _("--cluster needs Dask, an optional extra: `pip install shashki[cluster]`")
            ) from None
        self._distributed = distributed
        self._own = isinstance(address, str)
        if isinstance(address, str):
            try:
                self.client = distributed.Client(address, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(
                    _("cannot reach the Dask scheduler at {address}: {reason}").format(
                        address=address, reason=str(exc) or type(exc).__name__
                    )
                ) from None
            except Exception:  # (what answered there read as Dask's: MemoryError, …)
                raise ClusterError(
                    _("{address} does not answer as a Dask scheduler").format(address=address)
                ) from None
        else:
            self.client = address
        threads = self.client.nthreads()
        self.workers = max(1, sum(threads.values()))

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        return self.client.submit(fn, *args, pure=False)

    def wait(self, handles: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        try:
            done, pending = self._distributed.wait(
                list(handles), timeout=timeout, return_when="FIRST_COMPLETED"
            )
        except TimeoutError:
            return set(), set(handles)
        return set(done), set(pending)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self, cancel: bool) -> None:
        if self._own:
            self.client.close()


def backend_for(address: str | None) -> DaskBackend | None:
    """The cluster at ``address``, None for this machine's processes."""
    return None if address is None else DaskBackend(address)


__all__ = ["ClusterError", "DaskBackend", "backend_for"]
