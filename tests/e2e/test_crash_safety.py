"""A crash never loses an acknowledged write.

``engram serve`` is killed with SIGKILL in the middle of a stream of writes, many
times; after each restart every write that got a 200 is there, and SQLite's integrity
check passes on both the store and the index.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time

import httpx
import pytest

from tests.e2e.conftest import EngramServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CYCLES = 8


def test_sigkill_during_writes_loses_nothing_acknowledged(tmp_path_factory: pytest.TempPathFactory) -> None:
    server = EngramServer(tmp_path_factory.mktemp("crash"), {"ENGRAM_REQUESTS_PER_SECOND_PER_KEY": "100000"}, "sqlite")
    server.start()
    key = server.key("crash", "writer")
    # The default cap (500, evict_oldest) would evict early writes; that is not loss.
    with server.client(server.key("crash", "root", "admin")) as admin:
        cfg = {"userMemoryConfig": {"maxEntriesPerUser": 1_000_000}}
        assert admin.put("/v1/agents/writer/config", json=cfg).status_code == 200
    acknowledged: dict[str, str] = {}
    rng = random.Random(7)
    try:
        for cycle in range(CYCLES):
            stop = threading.Event()

            def stream(cycle: int = cycle, stop: threading.Event = stop) -> None:
                with server.client(key) as c:
                    n = 0
                    while not stop.is_set():
                        k, v = f"c{cycle}_k{n}", f"value {cycle}/{n}"
                        try:
                            r = c.put("/v1/users/u1/memories", json={"key": k, "value": v}, timeout=5)
                        except httpx.HTTPError:
                            return  # the server died under us: this write was never acknowledged
                        if r.status_code == 200:
                            acknowledged[k] = v
                        n += 1

            writers = [threading.Thread(target=stream)]
            for w in writers:
                w.start()
            time.sleep(rng.uniform(0.2, 0.6))
            assert server.proc is not None
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait()
            stop.set()
            for w in writers:
                w.join()
            server.start()
            _assert_all_present(server, key, acknowledged)
        assert len(acknowledged) > CYCLES  # the stream really ran between kills
    finally:
        server.stop()
    for name in ("engram.db", "index.db"):
        with sqlite3.connect(server.data_dir / name) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _assert_all_present(server: EngramServer, key: str, expected: dict[str, str]) -> None:
    seen: dict[str, str] = {}
    cursor = None
    with server.client(key) as c:
        while True:
            params = {"limit": "1000", **({"cursor": cursor} if cursor else {})}
            page = c.get("/v1/users/u1/memories", params=params).json()
            seen.update({e["key"]: e["value"] for e in page["items"]})
            cursor = page["nextCursor"]
            if not cursor:
                break
        missing = {k: v for k, v in expected.items() if seen.get(k) != v}
        assert not missing, f"{len(missing)} acknowledged writes lost, e.g. {list(missing.items())[:3]}"
        # The index caught up with the store on restart (outbox drain): the newest write is searchable.
        if expected:
            last = max(expected, key=lambda k: (int(k.split("_")[0][1:]), int(k.split("_k")[1])))
            hits = c.get("/v1/users/u1/memories/search", params={"q": expected[last]}).json()["items"]
            assert any(h["entry"]["key"] == last for h in hits)
