"""``engram serve --workers 2``: two processes over one embedded store stay consistent."""

from __future__ import annotations

import threading

import pytest

from tests.e2e.conftest import EngramServer

pytestmark = pytest.mark.e2e


def test_concurrent_writes_through_two_workers_leave_store_and_index_in_step(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    server = EngramServer(
        tmp_path_factory.mktemp("workers"),
        {"ENGRAM_REQUESTS_PER_SECOND_PER_KEY": "100000"},
        "sqlite",
        serve_args=("--workers", "2"),
    )
    server.start()
    try:
        key = server.key("w", "agent")
        errors: list[str] = []

        def writer(n: int) -> None:
            with server.client(key) as c:
                for i in range(15):
                    # Every thread rewrites the same memory: supersedes race across processes.
                    r = c.put("/v1/users/u/memories", json={"key": "city", "value": f"city-{n}-{i}"})
                    if r.status_code != 200:
                        errors.append(r.text)
                    c.put("/v1/users/u/memories", json={"key": f"own-{n}-{i}", "value": f"note {n} {i}"})

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        with server.client(key) as c:
            live = c.get("/v1/users/u/memories/key/city").json()["items"]
            assert len(live) == 1  # one live entry, every other version superseded
            history = c.get(f"/v1/users/u/memories/{live[0]['id']}/history", params={"limit": 1000}).json()["items"]
            assert [h["version"] for h in history] == list(range(1, 91))
            # The index holds exactly the live value: no stale version written last.
            hits = c.get("/v1/users/u/memories/search", params={"q": "city", "limit": 100}).json()["items"]
            city_hits = [h["entry"]["value"] for h in hits if h["entry"]["key"] == "city"]
            assert city_hits == [live[0]["value"]]
            assert c.get("/v1/users/u/memories/count").json()["count"] == 91
    finally:
        server.stop()
    import sqlite3

    with sqlite3.connect(server.data_dir / "index.db") as conn:
        docs = dict(conn.execute("SELECT id, 1 FROM idx_docs").fetchall())
    with sqlite3.connect(server.data_dir / "engram.db") as conn:
        live_ids = {r[0] for r in conn.execute("SELECT id FROM entries WHERE status = 'active'")}
    assert set(docs) == live_ids
