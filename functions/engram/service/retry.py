"""One way to retry an optimistic write that lost a race.

Every store commits conditionally on the version it read; a concurrent writer makes the
commit raise ``VersionConflict``, and the whole read-compute-commit step runs again on
the newer version. The jittered, capped backoff keeps many writers of one identity from
retrying in lock-step.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from engram.domain.errors import VersionConflict

T = TypeVar("T")

MAX_BACKOFF_SECONDS = 0.05


def retry_on_conflict(step: Callable[[], T], *, attempts: int, exhausted: str) -> T:
    """``step()``, run again after each ``VersionConflict``, at most ``attempts`` times.

    With one attempt the conflict itself reaches the caller (a write that named the
    version it expected must fail, not silently re-apply); after many, the caller gets
    ``exhausted`` as the conflict's message.
    """
    if attempts <= 1:
        return step()
    for attempt in range(attempts):
        try:
            return step()
        except VersionConflict:
            time.sleep(random.uniform(0, min(MAX_BACKOFF_SECONDS, 0.001 * 2 ** min(attempt, 6))))
    raise VersionConflict(exhausted)
