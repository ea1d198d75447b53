"""Progress bars for long CLI commands: on a terminal only, on stderr, never in pipes or logs."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class Bar(Protocol):
    def total(self, total: int | None) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def set(self, completed: int) -> None: ...

    def step(self, completed: int, total: int) -> None: ...


class _Quiet:
    def total(self, total: int | None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def set(self, completed: int) -> None:
        pass

    def step(self, completed: int, total: int) -> None:
        pass


class _Rich:
    def __init__(self, progress: Any, task: Any) -> None:
        self._progress = progress
        self._task = task

    def total(self, total: int | None) -> None:
        self._progress.update(self._task, total=total)

    def advance(self, n: int = 1) -> None:
        self._progress.advance(self._task, n)

    def set(self, completed: int) -> None:
        self._progress.update(self._task, completed=completed)

    def step(self, completed: int, total: int) -> None:
        self._progress.update(self._task, completed=completed, total=total)


def interactive() -> bool:
    return sys.stderr.isatty()


@contextmanager
def progress_bar(description: str, total: int | None = None, unit: str = "") -> Iterator[Bar]:
    """A bar on stderr when it is a terminal; a bar that draws nothing otherwise."""
    if not interactive():
        yield _Quiet()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn(description),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    with progress:
        yield _Rich(progress, progress.add_task(description, total=total))
