"""The per-key request rate of ``engram serve``, one budget for all its worker processes.

API Gateway throttles in front of the cloud API; locally the gateway does it. With
``--workers N`` every process used to keep its own buckets, so a key got N times its
rate (the kernel spreads a client's connections over the processes). The buckets now
live in shared memory that ``serve`` creates before it spawns the workers and hands to
each of them, behind one cross-process lock: a decision is a few arithmetic steps, no
system call but the lock's.

The table has a fixed number of slots (keys are hashed in, probing a few neighbours).
A key that has been idle long enough for its bucket to refill completely holds nothing
worth keeping, so its slot is reused; only when every probed slot belongs to a key that
is active right now is the least recently seen one evicted, which hands that key a full
bucket again: with 4,096 slots that takes more than a thousand keys busy within one
refill period.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from collections.abc import Callable
from multiprocessing.context import BaseContext
from typing import Any

SLOTS = 4096
PROBES = 8


def _fingerprint(key: str) -> int:
    # Never 0: 0 marks a free slot.
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True) or 1


class TokenBuckets:
    """``rate`` requests per second per key with bursts up to ``max(rate, 1)``, in shared memory.

    Picklable into processes started with ``multiprocessing`` (pass it as an argument of
    ``Process``), which then share the same buckets. ``clock`` must be the same in every
    process: ``time.monotonic`` is system-wide on Linux and macOS.
    """

    def __init__(
        self, slots: int = SLOTS, ctx: BaseContext | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        ctx = ctx or multiprocessing.get_context("spawn")
        self._slots = slots
        self._clock = clock
        self._lock = ctx.Lock()
        self._ids: Any = ctx.RawArray("q", slots)
        self._tokens: Any = ctx.RawArray("d", slots)
        self._stamps: Any = ctx.RawArray("d", slots)

    def admit(self, key: str, rate: float) -> bool:
        """Take one token from ``key``'s bucket; False when it is empty."""
        burst = max(rate, 1.0)
        fp = _fingerprint(key)
        with self._lock:
            now = self._clock()
            slot = self._slot(fp, now, burst / rate)
            if self._ids[slot] == fp:
                tokens = min(burst, self._tokens[slot] + (now - self._stamps[slot]) * rate)
            else:
                self._ids[slot] = fp
                tokens = burst
            self._stamps[slot] = now
            admitted: bool = tokens >= 1
            self._tokens[slot] = tokens - 1 if admitted else tokens
            return admitted

    def _slot(self, fp: int, now: float, refill_seconds: float) -> int:
        start = fp % self._slots
        reusable: int | None = None
        oldest = start
        for i in range(PROBES):
            slot = (start + i) % self._slots
            owner = self._ids[slot]
            if owner == fp:
                return slot
            if reusable is None and (owner == 0 or now - self._stamps[slot] >= refill_seconds):
                reusable = slot
            if self._stamps[slot] < self._stamps[oldest]:
                oldest = slot
        return oldest if reusable is None else reusable
