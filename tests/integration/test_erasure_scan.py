"""Erasure, proven by a scan of every store.

A user is given data in every kind of storage Engram has (memories with history,
profile, settings, conversations with summaries and extraction, proposals, blocks with
history, archival memory, dream state, Idempotency-Key records, the search index).
Every value carries a unique marker. Then:

- export (before erasure) returns every marker the scan finds anywhere;
- erasure returns a receipt whose counts match what the scan counted;
- afterwards a scan of every table of both SQLite files finds no row of the user and
  no marker, while a second user's data is untouched;
- and a scan of the bytes of every file of the data directory (databases, their -wal
  and -shm files, anything else there) finds neither the user id nor a marker: erasure
  zeroes freed pages (secure_delete), checkpoints and truncates the write-ahead logs,
  and merges the full-text index so no segment keeps the erased words.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from engram.domain.models import Role

from tests.integration.conftest import Api

USER, OTHER = "erase-me", "keep-me"
MARK = re.compile(r"MARK-[a-z]+-\d+")


def _scan(data_dir: Path, needles: tuple[str, ...]) -> dict[str, int]:
    """Rows mentioning any needle, by database and table, over every table that exists."""
    found: dict[str, int] = {}
    for db in sorted(data_dir.glob("*.db")):
        with sqlite3.connect(db) as conn:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            for table in tables:
                if table.startswith("sqlite_") or "_fts_" in table:
                    continue
                try:
                    rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()
                except sqlite3.DatabaseError:
                    continue
                hits = sum(1 for row in rows if any(n in repr(row) for n in needles))
                if hits:
                    found[f"{db.name}:{table}"] = hits
    return found


def _file_scan(data_dir: Path, needles: tuple[str, ...]) -> dict[str, int]:
    """Occurrences of any needle in the raw bytes of every file under the data dir."""
    found: dict[str, int] = {}
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        raw = path.read_bytes()
        hits = sum(raw.count(n.encode()) for n in needles)
        if hits:
            found[path.name] = hits
    return found


def _fts_segments_holding(data_dir: Path, term: str) -> int:
    """Segments of the full-text index whose bytes still hold the term.

    FTS5 deletes write tombstones and leave the term in the old segments, where no
    query (nor fts5vocab) sees it but the bytes are still there.
    """
    with sqlite3.connect(data_dir / "index.db") as conn:
        rows = conn.execute("SELECT block FROM idx_fts_data").fetchall()
    return sum(1 for (block,) in rows if block is not None and term.encode() in bytes(block))


def _markers(data_dir: Path) -> set[str]:
    out: set[str] = set()
    for db in data_dir.glob("*.db"):
        with sqlite3.connect(db) as conn:
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"):
                if table.startswith("sqlite_") or "_fts_" in table:
                    continue
                for row in conn.execute(f'SELECT * FROM "{table}"'):
                    out.update(MARK.findall(repr(row)))
    return out


def _populate(api: Api, user: str, tag: str) -> None:
    admin = api.key("acme", "console", Role.ADMIN)
    writer = api.key("acme", "coach", Role.WRITER, groups=("team",))
    base = f"/v1/users/{user}"
    config = {
        "requireApproval": ["block:human"],
        "memoryBlocks": {
            "rotation": "aggressive",
            "schemas": [{"name": "log", "fields": [{"name": "done", "kind": "list"}], "maxChars": 200}],
        },
    }
    assert api.call("PUT", "/v1/agents/coach/config", admin, json_body=config).status == 200

    def ok(reply: object, *statuses: int) -> dict:
        assert reply.status in (statuses or (200,)), reply.body  # type: ignore[attr-defined]
        return reply.json()  # type: ignore[attr-defined]

    ok(api.call("PUT", f"{base}/memories", writer, json_body={"key": "color", "value": f"MARK-{tag}-1"}))
    ok(api.call("PUT", f"{base}/memories", writer, json_body={"key": "color", "value": f"MARK-{tag}-2"}))
    ok(
        api.call(
            "PUT",
            f"{base}/memories",
            writer,
            json_body={"key": "team", "value": f"MARK-{tag}-3", "visibility": "group"},
        )
    )
    gone = ok(
        api.call(
            "PUT",
            f"{base}/memories",
            writer,
            json_body={"key": "city", "value": f"MARK-{tag}-4", "visibility": "global"},
        )
    )
    ok(api.call("DELETE", f"{base}/memories/{gone['entry']['id']}", writer))
    ok(
        api.call(
            "PUT",
            f"{base}/memories",
            writer,
            json_body={"key": "pet", "value": f"MARK-{tag}-5"},
            headers={"Idempotency-Key": f"idem-{tag}"},
        )
    )
    ok(api.call("PATCH", f"{base}/profile", writer, json_body={"name": f"MARK-{tag}-6"}))
    ok(api.call("PATCH", f"{base}/settings", admin, json_body={"retentionDays": 400}))
    messages = [
        {"id": f"m{i}", "content": text}
        for i, text in enumerate([f"my favorite food is MARK-{tag}-7", f"I live in MARK-{tag}-8", "hello there"])
    ]
    ok(api.call("POST", f"{base}/threads/t1/messages", writer, json_body={"messages": messages}))
    feature = api.engram.conversation
    assert feature is not None
    assert feature.worker.wait_idle(10)  # type: ignore[union-attr]
    ok(api.call("PATCH", f"{base}/blocks/human", writer, json_body={"set": {"name": f"MARK-{tag}-9"}}), 202)
    ok(api.call("PUT", f"{base}/blocks/log", writer, json_body={"values": {}}))
    for i in range(10, 20):
        ok(
            api.call(
                "PATCH",
                f"{base}/blocks/log",
                writer,
                json_body={"append": {"done": [f"finished MARK-{tag}-{i} today"]}},
            )
        )
    ok(api.call("POST", f"{base}/recall", writer, json_body={"message": "what food do I like?"}))
    ok(api.call("POST", "/v1/dream/runs", admin, json_body={}), 200, 201, 202)


def test_erasure_leaves_nothing_and_export_held_everything(api: Api) -> None:
    _populate(api, USER, "gone")
    _populate(api, OTHER, "kept")
    data_dir = Path(api.engram.settings.data_dir)
    admin = api.key("acme", "console", Role.ADMIN)

    before = _scan(data_dir, (USER, "MARK-gone-"))
    assert _file_scan(data_dir, (USER, "MARK-gone-")), "the file scan must see the user before erasure"
    assert _fts_segments_holding(data_dir, "gone") > 0
    stored = {m for m in _markers(data_dir) if m.startswith("MARK-gone-")}
    assert len(stored) >= 15, stored  # the population really reached the stores

    export = api.call("GET", f"/v1/users/{USER}/export", admin)
    assert export.status == 200
    exported = set(MARK.findall(json.dumps(export.json())))
    assert stored <= exported, f"stored but not exported: {sorted(stored - exported)}"

    receipt = api.call("DELETE", f"/v1/users/{USER}", admin, query="confirm=CONFIRM").json()
    counts = receipt["counts"]
    assert counts["entries"] == before.get("engram.db:entries", 0)
    assert counts["history"] == before.get("engram.db:history", 0)
    assert counts["indexDocuments"] >= 1
    assert counts["writeIdempotencyRecords"] == 1

    after = _scan(data_dir, (USER, "MARK-gone-"))
    assert after == {}, f"left behind after erasure: {after}"
    in_files = _file_scan(data_dir, (USER, "MARK-gone-"))
    assert in_files == {}, f"bytes left behind in files after erasure: {in_files}"
    assert _fts_segments_holding(data_dir, "gone") == 0, "the full-text index still holds the erased words"
    assert {m for m in _markers(data_dir) if m.startswith("MARK-kept-")}, "the other user's data must survive"
    assert api.call("GET", f"/v1/users/{OTHER}/memories/count", admin).json()["count"] >= 3
