"""``engram serve --workers 2``: the per-key request rate holds for the server as a whole."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.e2e.conftest import EngramServer
from tests.e2e.keys import make_keys

pytestmark = pytest.mark.e2e

# One request per 100 s per key (the burst is one request): within the test, a budget
# shared by the workers admits exactly one request, a budget per process one per worker;
# no figure depends on how fast a busy machine serves.
RATE = 0.01


def test_given_two_workers_when_one_key_floods_them_then_it_gets_one_budget_not_two(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # Given a server of two processes and a small per-key rate
    server = EngramServer(
        tmp_path_factory.mktemp("rate"),
        {"ENGRAM_REQUESTS_PER_SECOND_PER_KEY": str(RATE)},
        "sqlite",
        serve_args=("--workers", "2"),
        ready_seconds=120,
    )
    server.start()
    try:
        (key,) = make_keys(server, ("acme", "agent", ("writer",)))

        # When 16 connections (the kernel spreads them over both processes) send 48 requests
        def send(n: int) -> int:
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
                return c.get("/v1/users/u/memories/count").status_code

        t0 = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(send, range(48)))
        elapsed = time.monotonic() - t0

        # Then the key got its burst plus what refilled meanwhile, once, whichever process answered
        admitted = statuses.count(200)
        assert set(statuses) <= {200, 429}
        assert admitted == 1, (admitted, elapsed)
        # And /mcp spends from the same budget
        rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        headers = {
            "Authorization": f"Bearer {key}",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
        }
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as c:
            assert [c.post("/mcp", json=rpc).status_code for _ in range(4)] == [429] * 4
    finally:
        server.stop()
