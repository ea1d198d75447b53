"""The per-key request budget of ``engram serve``: token buckets in shared memory."""

from __future__ import annotations

import multiprocessing

from engram.local.rate_limit import TokenBuckets


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_given_a_rate_when_a_key_bursts_then_it_gets_the_burst_and_then_the_rate() -> None:
    clock = Clock()
    buckets = TokenBuckets(clock=clock)
    assert [buckets.admit("k", 4) for _ in range(6)] == [True] * 4 + [False] * 2
    clock.now += 0.5  # two tokens back
    assert [buckets.admit("k", 4) for _ in range(3)] == [True, True, False]
    assert buckets.admit("other", 4)  # every key has its own bucket


def test_given_a_rate_below_one_then_the_burst_is_one_request() -> None:
    clock = Clock()
    buckets = TokenBuckets(clock=clock)
    assert [buckets.admit("k", 0.5) for _ in range(2)] == [True, False]
    clock.now += 2
    assert buckets.admit("k", 0.5)


def test_given_a_full_table_when_new_keys_come_then_idle_slots_are_reused_and_busy_keys_keep_their_budget() -> None:
    clock = Clock()
    buckets = TokenBuckets(slots=4, clock=clock)
    assert [buckets.admit("busy", 1) for _ in range(2)] == [True, False]
    for n in range(20):  # many one-off keys, each idle long enough to refill before the next
        assert buckets.admit(f"one-off-{n}", 1)
        clock.now += 0.1
    # "busy" was seen 2 s ago at rate 1: refilled, so its slot was fair game; nothing over-admits.
    assert buckets.admit("busy", 1)
    assert not buckets.admit("busy", 1)


def _spend(buckets: TokenBuckets, key: str, tries: int, out: multiprocessing.Queue[int]) -> None:
    out.put(sum(buckets.admit(key, 0.001) for _ in range(tries)))


def test_given_two_processes_when_both_spend_one_key_then_they_share_one_budget() -> None:
    ctx = multiprocessing.get_context("spawn")
    buckets = TokenBuckets(ctx=ctx)
    out: multiprocessing.Queue[int] = ctx.Queue()
    procs = [ctx.Process(target=_spend, args=(buckets, "shared", 200, out)) for _ in range(2)]
    for p in procs:
        p.start()
    admitted = out.get(timeout=60) + out.get(timeout=60)
    for p in procs:
        p.join(timeout=60)
    # One request per 1,000 s: the pair gets one between them, as one process would;
    # a budget per process would have admitted two.
    assert admitted == 1
