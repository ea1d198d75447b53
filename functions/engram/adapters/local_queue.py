"""The local ``Queue``: an in-process worker that indexes and extracts after each turn.

Jobs run in order on one background thread (or inline, for deterministic tests and
benchmarks). Durability comes from the store, not from this queue: a message stays
marked pending until processed, and the worker re-queues pending messages when it
starts, so jobs lost with the process are picked up at the next start.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aws_lambda_powertools import Logger

from engram.domain.conversation import ExtractionJob

logger = Logger(service="engram", child=True)

Handler = Callable[[ExtractionJob], Any]


@dataclass
class InProcessContext:
    """A stand-in for the Lambda context object, for work run outside Lambda (Powertools
    idempotency reads the remaining time from it to expire in-progress records)."""

    function_name: str = "engram-local"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:local:000000000000:function:engram-local"
    aws_request_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    function_version: str = "$LATEST"
    log_group_name: str = "local"
    log_stream_name: str = "local"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


class InProcessQueue:
    def __init__(self, handler: Handler, background: bool = True, attempts: int = 3) -> None:
        self._handler = handler
        self._background = background
        self._attempts = attempts
        self._jobs: queue.Queue[ExtractionJob | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.failed = 0

    def send(self, jobs: Sequence[ExtractionJob]) -> None:
        if not self._background:
            for job in jobs:
                self._run(job)
            return
        self._ensure_worker()
        for job in jobs:
            self._jobs.put(job)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until every job sent so far has been processed (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while self._jobs.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def close(self) -> None:
        with self._lock:
            if self._thread is not None:
                self._jobs.put(None)
                self._thread.join(timeout=10)
                self._thread = None

    def _ensure_worker(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="engram-extraction", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                self._run(job)
            finally:
                self._jobs.task_done()

    def _run(self, job: ExtractionJob) -> None:
        for attempt in range(1, self._attempts + 1):
            try:
                self._handler(job)
                return
            except Exception as exc:  # the worker must outlive any one job
                logger.warning(
                    "extraction job failed",
                    extra={"attempt": attempt, "error_type": type(exc).__name__},
                    exc_info=attempt == self._attempts,
                )
                time.sleep(0.05 * attempt)
        # The message stays pending in the store; the next start re-queues it.
        self.failed += 1
