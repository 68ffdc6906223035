"""The progress bar of a long command (``explore build``, ``puzzles mine``, ``match``,
``endings build``): on a terminal only, gone when the work is done."""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import ProgressColumn

__all__ = ["Bar"]


class Bar:
    """One task's bar on ``console`` (nothing when it is not a terminal): ``label`` (None:
    the task's ``description``, :meth:`show`), the bar, then ``columns`` (the count, the
    time left…) of a task of ``total`` (None: not known yet).  Use it as a context
    manager; :meth:`report` is what a long job calls with its progress."""

    def __init__(
        self,
        console: Console,
        *columns: ProgressColumn,
        label: str | None = None,
        description: str = "",
        total: float | None = None,
    ) -> None:
        from rich.progress import BarColumn, Progress, TextColumn

        self.progress = Progress(
            TextColumn("{task.description}" if label is None else label),
            BarColumn(),
            *columns,
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        self.task = self.progress.add_task(description, total=total)

    def __enter__(self) -> Bar:
        self.progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.progress.stop()

    def report(self, done: int, total: int) -> None:
        """``done`` of ``total`` (from any thread)."""
        self.progress.update(self.task, completed=done, total=total)

    def show(self, description: str, *, done: float = 0, total: float | None = None) -> None:
        """A new description (a new piece of the work), with where it stands."""
        self.progress.update(self.task, description=description, completed=done, total=total)

    def advance(self, description: str) -> None:
        """One more done, and a new description."""
        self.progress.update(self.task, advance=1, description=description)
