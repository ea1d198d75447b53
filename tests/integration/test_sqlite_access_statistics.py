"""The embedded store's access statistics, written in SQL, leave the body as the Python
rewrite did (#14): the same count and time, every other byte of the body untouched."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from engram.adapters.sqlite import SqliteStore
from engram.adapters.sqlite.db import dumps
from engram.domain.models import Actor, ActorType, Changeset, Visibility
from engram.domain.serialization import entry_from_dict, ts
from engram.domain.writes import WriteRequest, plan_write

from tests.support import T0


def _write(store: SqliteStore, key: str, value: str) -> str:
    req = WriteRequest(
        "t1", "u1", key, value, "fact", Visibility.SELF, "a", Actor(ActorType.AGENT, "a"), confidence=0.1 + 0.2
    )
    plan = plan_write(req, None, None, T0)
    store.apply(Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, plan.active_delta), T0)
    return plan.entry.id


def _body(store: SqliteStore, entry_id: str) -> str:
    row = store.db.conn().execute("SELECT body, access_count FROM entries WHERE id=?", (entry_id,)).fetchone()
    assert json.loads(row[0])["accessCount"] == row[1]
    return str(row[0])


def _python_rewrite(body: str, stamp: str) -> dict[str, Any]:
    # What record_access did before: parse, count, stamp, write back.
    d = json.loads(body)
    d["accessCount"] = int(d.get("accessCount", 0)) + 1
    d["lastAccessedAt"] = stamp
    return json.loads(dumps(d))


def test_recorded_access_rewrites_only_the_count_and_the_time(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.db")
    ids = [_write(store, "city", "Zürich, near the lake 😀"), _write(store, "note", 'quotes " and \\ and \u2028')]
    before = {i: _body(store, i) for i in ids}
    at = T0 + timedelta(minutes=5)
    store.record_access("t1", "u1", [ids[0], ids[1], ids[0], "missing"], at)
    for i in ids:
        after = _body(store, i)
        assert json.loads(after) == _python_rewrite(before[i], ts(at))
        # Byte for byte, outside the two fields: json_set rewrites nothing else.
        old, new = json.loads(before[i]), json.loads(after)
        assert [k for k in old] == [k for k in new]
        assert after.replace(f'"lastAccessedAt":"{ts(at)}"', "").replace('"accessCount":1', "") == before[i].replace(
            '"lastAccessedAt":null', ""
        ).replace('"accessCount":0', "")
    store.record_access("t1", "u1", [ids[0]], at + timedelta(seconds=1))
    entry = store.get_entry("t1", "u1", ids[0])
    assert entry is not None and entry.access_count == 2 and entry.last_accessed_at == at + timedelta(seconds=1)
    assert store.get_entry("t1", "u1", ids[1]).access_count == 1  # type: ignore[union-attr]


def test_a_body_without_a_count_starts_from_none(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.db")
    entry_id = _write(store, "k", "v")
    body = json.loads(_body(store, entry_id))
    del body["accessCount"]
    with store.db.tx() as conn:
        conn.execute("UPDATE entries SET body=?, access_count=0 WHERE id=?", (dumps(body), entry_id))
    store.record_access("t1", "u1", [entry_id], T0)
    assert json.loads(_body(store, entry_id)) == _python_rewrite(dumps(body), ts(T0))


def test_an_entry_read_again_after_an_access_is_what_its_body_says(tmp_path: Path) -> None:
    # Whatever the store remembers of parsed bodies, a read after an access must equal a
    # full parse of the new body, every time.
    store = SqliteStore(tmp_path / "s.db")
    tricky = 'says "accessCount":7,"lastAccessedAt":null,"lastReinforcedAt": in its text'
    ids = [_write(store, "plain", "v"), _write(store, "tricky", tricky)]
    for step in range(3):
        for i in ids:
            got = store.get_entry("t1", "u1", i)
            assert got == entry_from_dict(json.loads(_body(store, i)))
            assert got is not None and got.access_count == step
        store.record_access("t1", "u1", ids, T0 + timedelta(seconds=step))
    assert store.get_entry("t1", "u1", ids[1]).value == tricky  # type: ignore[union-attr]
    assert {e.id: e for e in store.get_entries("t1", "u1", ids)} == {
        i: entry_from_dict(json.loads(_body(store, i))) for i in ids
    }
