"""A crash never loses an acknowledged write, nor leaves search behind the store.

``engram serve`` is killed with SIGKILL in the middle of two streams of writes (memories,
and messages in a thread), many times. After each restart every acknowledged memory
holds the value its acknowledgement described, every acknowledged message is there, and
a search for each memory's own unique word finds it in the top five: the server catches
the index up before it answers. At the end SQLite's integrity check passes on the store
and the index.

``ENGRAM_CRASH_KILLS`` sets the number of kills (the suite runs a few; the long run in
docs/security.md is ``ENGRAM_CRASH_KILLS=100 pytest -n 0 tests/e2e/test_crash_safety.py``).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import threading
import time
from collections.abc import Callable

import httpx
import pytest

from tests.e2e.conftest import EngramServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

KILLS = int(os.environ.get("ENGRAM_CRASH_KILLS", "6"))
LETTERS = "bcdfghjklmnpqrstvwxz"


def unique_word(n: int) -> str:
    """A word no other write holds (and no tokenizer splits): n spelled in consonants."""
    return "zq" + "".join(LETTERS[int(d)] for d in str(n)) + "x"


def test_sigkill_during_writes_loses_nothing_and_search_keeps_up(tmp_path_factory: pytest.TempPathFactory) -> None:
    server = EngramServer(tmp_path_factory.mktemp("crash"), {"ENGRAM_REQUESTS_PER_SECOND_PER_KEY": "100000"}, "sqlite")
    server.start()
    key = server.key("crash", "writer")
    # The default cap (500, evict_oldest) would evict early writes; that is not loss.
    with server.client(server.key("crash", "root", "admin")) as admin:
        cfg = {"userMemoryConfig": {"maxEntriesPerUser": 1_000_000}}
        assert admin.put("/v1/agents/writer/config", json=cfg).status_code == 200
    memories: dict[str, str] = {}  # key -> value, as acknowledged
    messages: set[str] = set()
    rng = random.Random(7)
    counter = iter(range(10**9))
    try:
        for cycle in range(KILLS):
            stop = threading.Event()

            def remember(c: httpx.Client) -> None:
                n = next(counter)
                k, v = f"k{n}", f"note {unique_word(n)} from cycle {cycle}"
                r = c.put("/v1/users/u1/memories", json={"key": k, "value": v}, timeout=5)
                if r.status_code == 200:
                    body = r.json()
                    # The acknowledgement describes this request's write, not another's.
                    assert (body["entry"]["key"], body["entry"]["value"]) == (k, v), body
                    memories[k] = v

            def say(c: httpx.Client) -> None:
                n = next(counter)
                msg = {"id": f"m{n}", "role": "user", "content": f"message {unique_word(n)}"}
                r = c.post("/v1/users/u1/threads/t1/messages", json={"messages": [msg]}, timeout=5)
                if r.status_code == 200:
                    assert msg["id"] in r.json()["created"] + r.json()["duplicates"], r.json()
                    messages.add(msg["id"])

            def stream(write: Callable[[httpx.Client], None], stop: threading.Event = stop) -> None:
                with server.client(key) as c:
                    while not stop.is_set():
                        try:
                            write(c)
                        except httpx.HTTPError:
                            return  # the server died under us: this write was never acknowledged

            writers = [threading.Thread(target=stream, args=(w,)) for w in (remember, say)]
            before = (len(memories), len(messages))
            for w in writers:
                w.start()
            # Kill mid-stream: once both streams have been acknowledged this cycle (a loaded
            # machine may take seconds for the first), then at a random moment after.
            deadline = time.monotonic() + 60
            while (len(memories) == before[0] or len(messages) == before[1]) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(rng.uniform(0.1, 0.5))
            assert server.proc is not None
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait()
            stop.set()
            for w in writers:
                w.join()
            server.start()
            _assert_values(server, key, memories)
        assert len(memories) > KILLS and messages  # both streams really ran between kills
        _assert_messages(server, key, messages)
        _assert_searchable(server, key, memories)
    finally:
        server.stop()
    for name in ("engram.db", "index.db"):
        with sqlite3.connect(server.data_dir / name) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _assert_values(server: EngramServer, key: str, expected: dict[str, str]) -> None:
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
    wrong = {k: (v, seen.get(k)) for k, v in expected.items() if seen.get(k) != v}
    assert not wrong, f"{len(wrong)} acknowledged writes lost or changed, e.g. {list(wrong.items())[:3]}"


def _assert_messages(server: EngramServer, key: str, expected: set[str]) -> None:
    with server.client(key) as c:
        missing = [m for m in sorted(expected) if c.get(f"/v1/users/u1/threads/t1/messages/{m}").status_code != 200]
    assert not missing, f"{len(missing)} acknowledged messages lost, e.g. {missing[:3]}"


def _assert_searchable(server: EngramServer, key: str, expected: dict[str, str]) -> None:
    # Right after the last restart, with no time given to catch up.
    not_found = []
    with server.client(key) as c:
        for k, v in expected.items():
            word = v.split()[1]
            hits = c.get("/v1/users/u1/memories/search", params={"q": word, "limit": "5"}).json()["items"]
            if not any(h["entry"]["key"] == k for h in hits):
                not_found.append(k)
    assert not not_found, f"{len(not_found)} of {len(expected)} acknowledged writes not found by their own word"
