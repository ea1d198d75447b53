"""Data written before threads were keyed by agent (issue #22) reads back after the upgrade.

The embedded store's migration ``conversations_by_agent_v1`` moves every conversation
row under its thread's agent, and the local index rewrites the ids of message and
summary documents (``msg|<thread>|<message>`` -> ``msg|<agent>|<thread>|<message>``).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from engram.adapters.local_index import LocalIndex
from engram.adapters.sqlite import SqliteStore
from engram.adapters.sqlite.conversations import SqliteConversations
from engram.adapters.sqlite.migrations import MIGRATIONS
from engram.domain.conversation import MessageRole, NewMessage, ThreadKey, ThreadSummary
from engram.domain.conversation_codec import message_to_dict, summary_to_dict
from engram.ports import DocKind, IndexDocument, SearchQuery

T0 = datetime(2026, 1, 15, 10, 0, tzinfo=UTC)


def _old_store(path: Path) -> sqlite3.Connection:
    """A file as the release before the upgrade left it: every migration but the new one."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, statements in MIGRATIONS:
        if name == "conversations_by_agent_v1":
            continue
        for sql in statements:
            conn.execute(sql)
        conn.execute("INSERT INTO schema_migrations VALUES (?, '2026-01-01T00:00:00Z')", (name,))
    return conn


def test_conversations_of_the_old_layout_are_read_under_their_agent(tmp_path: Path) -> None:
    path = tmp_path / "engram.db"
    conn = _old_store(path)
    for thread, agent in (("t1", "alpha"), ("t2", "beta")):
        conn.execute(
            "INSERT INTO conv_threads VALUES (?,?,?,?,?,?,?,?,?)",
            ("acme", "alice", thread, agent, 2, 1, 0, "2026-01-15T10:00:00.000000Z", "2026-01-15T10:00:00.000000Z"),
        )
        for seq in (1, 2):
            msg = NewMessage(f"m{seq}", MessageRole.USER, f"{agent} says {seq}", T0).stored(
                "acme", "alice", thread, agent, seq, T0
            )
            conn.execute(
                "INSERT INTO conv_messages (tenant_id, user_id, thread_id, message_id, seq, pending, body) "
                "VALUES (?,?,?,?,?,?,?)",
                ("acme", "alice", thread, msg.id, seq, 1 if seq == 2 else 0, json.dumps(message_to_dict(msg))),
            )
    summary = ThreadSummary("acme", "alice", "t1", "alpha", "- alpha says 1", 1, 1, T0, 1)
    conn.execute(
        "INSERT INTO conv_summaries VALUES (?,?,?,?,?,?)",
        ("acme", "alice", "t1", "alpha", 1, json.dumps(summary_to_dict(summary))),
    )
    conn.close()

    repo = SqliteConversations(SqliteStore(path).db)  # opening it migrates

    alpha = ThreadKey("acme", "alice", "alpha", "t1")
    assert repo.get_thread(alpha) is not None and repo.get_thread(ThreadKey("acme", "alice", "beta", "t1")) is None
    assert [m.content for m in repo.list_messages(alpha)] == ["alpha says 1", "alpha says 2"]
    assert repo.get_summary(alpha) == summary
    got = repo.get_messages("acme", "alice", [("beta", "t2", "m1"), ("alpha", "t1", "m2")])
    assert sorted(m.content for m in got) == ["alpha says 2", "beta says 1"]
    # Unprocessed messages are still found by the worker's crash recovery, with their agent.
    assert sorted((j.agent_id, j.thread_id) for j in repo.pending_jobs()) == [("alpha", "t1"), ("beta", "t2")]
    # Another agent may now start its own t1 beside alpha's.
    out = repo.append(ThreadKey("acme", "alice", "beta", "t1"), [NewMessage("m1", MessageRole.USER, "b", T0)], T0)
    assert out.created == ("m1",) and repo.get_thread(alpha).last_seq == 2
    assert repo.erase_user("acme", "alice") == {"messages": 5, "summaries": 1, "threads": 3}


def test_the_local_index_puts_the_agent_into_old_message_and_summary_ids(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    index = LocalIndex(path)

    def doc(doc_id: str, kind: DocKind, text: str) -> IndexDocument:
        return IndexDocument(doc_id, "acme", "alice", kind, text, None, None, "self", "alpha", thread_id="t1")

    index.upsert(
        [
            doc("msg|t1|m1", DocKind.MESSAGE, "alpha lives in Oslo"),
            doc("sum|t1", DocKind.SUMMARY, "alpha lives in Oslo summary"),
            doc("mem_1", DocKind.MEMORY, "Oslo memory"),
            doc("msg|alpha|t2|m1", DocKind.MESSAGE, "already new Oslo"),
        ]
    )
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")  # as the release before the upgrade left it
    conn.commit()
    conn.close()

    upgraded = LocalIndex(path)
    hits = upgraded.search(
        SearchQuery(
            "acme",
            "alice",
            T0,
            text="Oslo",
            kinds=(DocKind.MESSAGE, DocKind.SUMMARY, DocKind.MEMORY),
            k=10,
        )
    )
    assert sorted(h.id for h in hits) == ["mem_1", "msg|alpha|t1|m1", "msg|alpha|t2|m1", "sum|alpha|t1"]
    # Deleting by the new id removes the upgraded document.
    upgraded.delete("acme", "alice", ["msg|alpha|t1|m1", "sum|alpha|t1"])
    assert upgraded.count("acme", "alice") == 2


def test_dynamodb_threads_of_the_old_keys_move_under_their_agent_with_their_index_documents(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    from engram.adapters.dynamodb import DynamoStore, create_table
    from engram.adapters.dynamodb import keys as k
    from engram.adapters.dynamodb.base import to_item
    from engram.adapters.dynamodb.conversations import DynamoConversations
    from engram.adapters.dynamodb.migrate import migrate_threads
    from engram.domain.conversation import Thread
    from engram.domain.conversation_codec import thread_to_dict
    from engram.local.migrate import reindexer

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
    from tests.support import ManualClock, engram_for

    endpoint = moto_endpoint()
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(endpoint)
    table = fresh_table_name()
    create_table(ddb, table)
    request.addfinalizer(lambda: ddb.delete_table(TableName=table))
    store = DynamoStore(ddb, table)
    engram = engram_for(tmp_path, store=store, clock=ManualClock(), extraction_worker="inline")
    repo = DynamoConversations(ddb, table)
    upk = k.user_pk("acme", "alice")

    # Given alpha's thread t1 as the release before wrote it: keys without the agent, and
    # index documents under the old ids.
    thread = Thread("acme", "alice", "t1", "alpha", T0, T0, last_seq=2)
    store.put({**to_item(thread_to_dict(thread)), k.PK: {"S": upk}, k.SK: {"S": "TH#t1"}, k.ITEM_TYPE: {"S": "thread"}})
    old_docs = []
    for seq in (1, 2):
        msg = NewMessage(f"m{seq}", MessageRole.USER, f"I live in Oslo, part {seq}", T0).stored(
            "acme", "alice", "t1", "alpha", seq, T0
        )
        body = message_to_dict(msg)
        body.pop("extraction")
        store.put(
            {
                k.PK: {"S": f"{upk}#TH#t1"},
                k.SK: {"S": f"MSG#{msg.id}"},
                k.LSI1SK: {"S": f"MSQ#{seq:012d}"},
                k.ITEM_TYPE: {"S": "message"},
                "body": {"S": json.dumps(body)},
            }
        )
        old_docs.append(
            IndexDocument(
                f"msg|t1|{msg.id}",
                "acme",
                "alice",
                DocKind.MESSAGE,
                msg.content,
                None,
                None,
                "self",
                "alpha",
                thread_id="t1",
            )
        )
    summary = ThreadSummary("acme", "alice", "t1", "alpha", "- I live in Oslo", 2, 2, T0, 1)
    store.put(
        {
            k.PK: {"S": upk},
            k.SK: {"S": "THS#t1"},
            k.ITEM_TYPE: {"S": "threadSummary"},
            "agentId": {"S": "alpha"},
            "version": {"N": "1"},
            "body": {"S": json.dumps(summary_to_dict(summary))},
        }
    )
    old_docs.append(
        IndexDocument(
            "sum|t1", "acme", "alice", DocKind.SUMMARY, summary.text, None, None, "self", "alpha", thread_id="t1"
        )
    )
    engram.index.upsert(old_docs)
    alpha = ThreadKey("acme", "alice", "alpha", "t1")
    assert repo.get_thread(alpha) is None  # not readable under the new key before the move

    # When the migration runs (twice: it is safe to repeat)
    counts = migrate_threads(store, reindexer(engram))
    assert counts == {"scanned": 1, "moved": 1, "messages": 2, "conflicts": 0}
    assert migrate_threads(store, reindexer(engram)) == {"scanned": 1, "moved": 0, "messages": 0, "conflicts": 0}

    # Then the thread, its messages and summary read back under alpha, nothing is left
    # under the old keys, and the index holds the documents under their new ids only.
    assert repo.get_thread(alpha) == thread
    assert [m.content for m in repo.list_messages(alpha)] == ["I live in Oslo, part 1", "I live in Oslo, part 2"]
    assert repo.get_summary(alpha) == summary
    assert store.get(upk, "TH#t1") is None and store.get(upk, "THS#t1") is None
    assert (
        list(
            store.query_items(
                KeyConditionExpression="PK = :pk", ExpressionAttributeValues={":pk": {"S": f"{upk}#TH#t1"}}
            )
        )
        == []
    )
    hits = engram.index.search(
        SearchQuery("acme", "alice", T0, text="Oslo", kinds=(DocKind.MESSAGE, DocKind.SUMMARY), k=10)
    )
    assert sorted(h.id for h in hits) == ["msg|alpha|t1|m1", "msg|alpha|t1|m2", "sum|alpha|t1"]


def test_dynamodb_erasure_removes_threads_of_the_old_keys_before_any_migration(
    request: pytest.FixtureRequest,
) -> None:
    from engram.adapters.dynamodb import DynamoStore, create_table
    from engram.adapters.dynamodb import keys as k
    from engram.adapters.dynamodb.base import to_item
    from engram.adapters.dynamodb.conversations import DynamoConversations
    from engram.domain.conversation import Thread
    from engram.domain.conversation_codec import thread_to_dict

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto

    endpoint = moto_endpoint()
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(endpoint)
    table = fresh_table_name()
    create_table(ddb, table)
    request.addfinalizer(lambda: ddb.delete_table(TableName=table))
    store, repo = DynamoStore(ddb, table), DynamoConversations(ddb, table)
    upk = k.user_pk("acme", "alice")
    thread = Thread("acme", "alice", "t1", "alpha", T0, T0, last_seq=1)
    store.put({**to_item(thread_to_dict(thread)), k.PK: {"S": upk}, k.SK: {"S": "TH#t1"}, k.ITEM_TYPE: {"S": "thread"}})
    store.put({k.PK: {"S": f"{upk}#TH#t1"}, k.SK: {"S": "MSG#m1"}, k.ITEM_TYPE: {"S": "message"}, "body": {"S": "{}"}})
    store.put({k.PK: {"S": upk}, k.SK: {"S": "THS#t1"}, k.ITEM_TYPE: {"S": "threadSummary"}, "body": {"S": "{}"}})
    repo.append(ThreadKey("acme", "alice", "beta", "t1"), [NewMessage("m1", MessageRole.USER, "new", T0)], T0)
    assert repo.erase_user("acme", "alice") == {"messages": 2, "summaries": 1, "threads": 2}
    left = ddb.scan(TableName=table)["Items"]
    assert [it for it in left if it[k.PK]["S"].startswith(upk)] == []


def test_dynamodb_migration_never_overwrites_a_thread_appended_to_under_the_new_key(
    request: pytest.FixtureRequest,
) -> None:
    """An append to the new key while the migration copies a thread (or before it reaches
    it) never gets its messages renumbered over or its ``lastSeq`` reset."""
    from engram.adapters.dynamodb import DynamoStore, create_table
    from engram.adapters.dynamodb import keys as k
    from engram.adapters.dynamodb.base import to_item
    from engram.adapters.dynamodb.conversations import DynamoConversations
    from engram.adapters.dynamodb.migrate import migrate_threads
    from engram.domain.conversation import Thread
    from engram.domain.conversation_codec import thread_to_dict

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto

    endpoint = moto_endpoint()
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(endpoint)
    table = fresh_table_name()
    create_table(ddb, table)
    request.addfinalizer(lambda: ddb.delete_table(TableName=table))
    store, repo = DynamoStore(ddb, table), DynamoConversations(ddb, table)
    upk = k.user_pk("acme", "alice")

    def old_thread(thread_id: str) -> None:
        thread = Thread("acme", "alice", thread_id, "alpha", T0, T0, last_seq=2)
        item = {**to_item(thread_to_dict(thread)), k.PK: {"S": upk}, k.SK: {"S": f"TH#{thread_id}"}}
        store.put({**item, k.ITEM_TYPE: {"S": "thread"}})
        for seq in (1, 2):
            msg = NewMessage(f"m{seq}", MessageRole.USER, f"old {seq}", T0).stored(
                "acme", "alice", thread_id, "alpha", seq, T0
            )
            body = message_to_dict(msg)
            body.pop("extraction")
            store.put(
                {
                    k.PK: {"S": f"{upk}#TH#{thread_id}"},
                    k.SK: {"S": f"MSG#{msg.id}"},
                    k.LSI1SK: {"S": f"MSQ#{seq:012d}"},
                    k.ITEM_TYPE: {"S": "message"},
                    "body": {"S": json.dumps(body)},
                }
            )

    def new(thread_id: str) -> ThreadKey:
        return ThreadKey("acme", "alice", "alpha", thread_id)

    # t1: appended to under the new key before the migration reaches it.
    old_thread("t1")
    repo.append(new("t1"), [NewMessage("n1", MessageRole.USER, "new 1", T0)], T0)
    # t2: appended to under the new key while the migration copies its messages.
    old_thread("t2")
    copy = store.query_items

    def query_then_append(**params: object) -> object:
        if params.get("ExpressionAttributeValues") == {":pk": {"S": f"{upk}#TH#t2"}}:
            repo.append(new("t2"), [NewMessage("n1", MessageRole.USER, "new 1", T0)], T0)
        return copy(**params)

    store.query_items = query_then_append  # type: ignore[method-assign]
    counts = migrate_threads(store)
    store.query_items = copy  # type: ignore[method-assign]

    assert {name: counts[name] for name in ("moved", "messages", "conflicts")} == {
        "moved": 1,
        "messages": 2,
        "conflicts": 1,
    }
    # t1 is left as both sides wrote it: the new thread untouched, the old one for an operator.
    assert repo.get_thread(new("t1")).last_seq == 1  # type: ignore[union-attr]
    assert [(m.seq, m.content) for m in repo.list_messages(new("t1"))] == [(1, "new 1")]
    assert store.get(upk, "TH#t1") is not None
    # t2 moved with every message numbered once: the append went after the old messages.
    assert repo.get_thread(new("t2")).last_seq == 3  # type: ignore[union-attr]
    assert [(m.seq, m.content) for m in repo.list_messages(new("t2"))] == [(1, "old 1"), (2, "old 2"), (3, "new 1")]
    assert store.get(upk, "TH#t2") is None
    # A rerun finds t1 still in conflict and has nothing left to move.
    assert migrate_threads(store) == {"scanned": 3, "moved": 0, "messages": 0, "conflicts": 1}


def test_dynamodb_export_and_erasure_read_the_messages_of_threads_not_yet_migrated(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    from engram.adapters.dynamodb import DynamoStore, create_table
    from engram.adapters.dynamodb import keys as k
    from engram.adapters.dynamodb.base import to_item
    from engram.domain.conversation import ExtractionJob, Thread
    from engram.domain.conversation_codec import thread_to_dict

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
    from tests.support import ManualClock, engram_for

    endpoint = moto_endpoint()
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(endpoint)
    table = fresh_table_name()
    create_table(ddb, table)
    request.addfinalizer(lambda: ddb.delete_table(TableName=table))
    store = DynamoStore(ddb, table)
    engram = engram_for(tmp_path, store=store, clock=ManualClock(), extraction_worker="inline")
    service = engram.conversation.conversations
    upk = k.user_pk("acme", "alice")
    thread = Thread("acme", "alice", "t1", "alpha", T0, T0, last_seq=1)
    store.put({**to_item(thread_to_dict(thread)), k.PK: {"S": upk}, k.SK: {"S": "TH#t1"}, k.ITEM_TYPE: {"S": "thread"}})
    msg = NewMessage("m1", MessageRole.USER, "I live in Oslo", T0).stored("acme", "alice", "t1", "alpha", 1, T0)
    body = message_to_dict(msg)
    body.pop("extraction")
    store.put(
        {
            k.PK: {"S": f"{upk}#TH#t1"},
            k.SK: {"S": "MSG#m1"},
            k.LSI1SK: {"S": f"MSQ#{1:012d}"},
            k.ITEM_TYPE: {"S": "message"},
            "body": {"S": json.dumps(body)},
        }
    )

    assert [m["content"] for m in service.export_user("acme", "alice")["messages"]] == ["I live in Oslo"]
    forgotten: list[ExtractionJob] = []
    service.forgetter.forget = lambda jobs: forgotten.extend(jobs) or 0  # type: ignore[method-assign]
    service.erase_user("acme", "alice")
    assert forgotten == [ExtractionJob("acme", "alice", "t1", "m1", "alpha")]
