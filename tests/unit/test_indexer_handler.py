"""The indexer Lambda on DynamoDB stream events of the shape Lambda delivers.

Records follow the documented event (Records[].eventName / dynamodb.Keys / NewImage /
OldImage / SequenceNumber / StreamViewType, and userIdentity on TTL deletions); their
images are entries exactly as the DynamoDB store writes them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dynamodb.entry_items import entry_item
from engram.container import build, set_engram
from engram.domain.models import MemoryEntry, Status, Visibility
from engram.handlers import indexer
from engram.local.lambda_context import LocalContext
from engram.ports import IndexDocument, SearchHit, SearchQuery
from engram.settings import Settings

from tests.support import T0, ManualClock

STREAM_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/engram/stream/2026-01-15T10:30:00.000"


class RecordingIndex:
    """Records what reaches the index; fails on the ids it is told to."""

    def __init__(self, fail_on: Sequence[str] = ()) -> None:
        self.ops: list[tuple[str, str, str, str]] = []
        self.docs: list[IndexDocument] = []
        self.fail_on = set(fail_on)

    def upsert(self, docs: Sequence[IndexDocument]) -> None:
        for d in docs:
            if d.id in self.fail_on:
                raise ConnectionError("index unavailable")
            self.ops.append(("upsert", d.tenant_id, d.user_id, d.id))
            self.docs.append(d)

    def delete(self, tenant_id: str, user_id: str, ids: Sequence[str]) -> None:
        for i in ids:
            if i in self.fail_on:
                raise ConnectionError("index unavailable")
            self.ops.append(("delete", tenant_id, user_id, i))

    def search(self, query: SearchQuery) -> list[SearchHit]:
        return []

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        return {}

    def speakers(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> frozenset[str]:
        return frozenset()


@pytest.fixture
def index(tmp_path: Path) -> Iterator[RecordingIndex]:
    recording = RecordingIndex()
    set_engram(build(Settings(data_dir=tmp_path), index=recording, clock=ManualClock()))
    yield recording
    set_engram(None)


def _entry(entry_id: str, *, tenant: str = "t1", user: str = "u1", status: Status = Status.ACTIVE) -> MemoryEntry:
    return MemoryEntry(
        id=entry_id,
        tenant_id=tenant,
        user_id=user,
        identity_id="0" * 32,
        key="favorite_color",
        value="blue",
        category="preference",
        visibility=Visibility.SELF,
        source_agent_id="agent-a",
        created_at=T0,
        updated_at=T0,
        version=1,
        confidence=0.9,
        status=status,
    )


def _record(
    event: str, seq: int, new: MemoryEntry | None = None, old: MemoryEntry | None = None, ttl: bool = False
) -> dict[str, Any]:
    some = new or old
    assert some is not None
    image = entry_item(some)
    body: dict[str, Any] = {
        "ApproximateCreationDateTime": 1768473000,
        "Keys": {"PK": image["PK"], "SK": image["SK"]},
        "SequenceNumber": f"{4421584500000000017450439000 + seq}",
        "SizeBytes": 512,
        "StreamViewType": "NEW_AND_OLD_IMAGES",
    }
    if new is not None:
        body["NewImage"] = entry_item(new)
    if old is not None:
        body["OldImage"] = entry_item(old)
    record: dict[str, Any] = {
        "eventID": f"c4ca4238a0b923820dcc509a6f7584{seq:02d}",
        "eventName": event,
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "dynamodb": body,
        "eventSourceARN": STREAM_ARN,
    }
    if ttl:
        record["userIdentity"] = {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
    return record


def _history_record(seq: int) -> dict[str, Any]:
    keys = {"PK": {"S": "T#t1#U#u1"}, "SK": {"S": "H#" + "0" * 32 + "#0000000001"}}
    return {
        "eventID": "history",
        "eventName": "INSERT",
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "dynamodb": {
            "Keys": keys,
            "NewImage": {**keys, "itemType": {"S": "history"}},
            "SequenceNumber": f"{4421584500000000017450439000 + seq}",
            "SizeBytes": 64,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
        "eventSourceARN": STREAM_ARN,
    }


def _handle(records: list[dict[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = indexer.handler({"Records": records}, LocalContext())
    return result


def test_given_insert_modify_and_remove_records_when_handled_then_the_index_follows_each(
    index: RecordingIndex,
) -> None:
    a, b = _entry("mem_" + "a" * 24), _entry("mem_" + "b" * 24)
    superseded = a.evolve(status=Status.SUPERSEDED, version=2)
    result = _handle(
        [
            _record("INSERT", 1, new=a),
            _record("INSERT", 2, new=b),
            _record("MODIFY", 3, new=superseded, old=a),
            _history_record(4),
            _record("REMOVE", 5, old=b),
        ]
    )
    assert result == {"batchItemFailures": []}
    # One change per entry, where it ended: both left the index within the batch.
    assert index.ops == [("delete", "t1", "u1", a.id), ("delete", "t1", "u1", b.id)]


def test_given_an_insert_when_handled_then_the_document_holds_the_typed_entry(index: RecordingIndex) -> None:
    a = _entry("mem_" + "a" * 24)
    assert _handle([_record("INSERT", 1, new=a)]) == {"batchItemFailures": []}
    assert index.ops == [("upsert", "t1", "u1", a.id)]
    # The image became the domain entity: typed fields survive the attribute-value form.
    doc = index.docs[0]
    assert (doc.text, doc.confidence, doc.category, doc.updated_at) == ("favorite color: blue", 0.9, "preference", T0)
    assert isinstance(doc.importance, int)


def test_given_modifies_that_leave_text_and_filters_alone_then_nothing_is_embedded_or_written(
    index: RecordingIndex,
) -> None:
    a = _entry("mem_" + "5" * 24)
    accessed = a.evolve(access_count=3, last_accessed_at=T0, version=2)
    again = accessed.evolve(access_count=4, version=3)
    superseded = a.evolve(status=Status.SUPERSEDED, version=4)
    deleted = superseded.evolve(status=Status.DELETED, version=5)
    records = [
        _record("MODIFY", 1, new=accessed, old=a),  # a recall's access count
        _record("MODIFY", 2, new=again, old=accessed),  # and the next one's
    ]
    assert _handle(records) == {"batchItemFailures": []}
    assert index.ops == []
    # A ranking signal the index keeps (a dream's decay) is written.
    assert _handle([_record("MODIFY", 6, new=again.evolve(confidence=0.5, version=6), old=again)]) == {
        "batchItemFailures": []
    }
    assert index.ops == [("upsert", "t1", "u1", a.id)]
    index.ops.clear()
    # Inactive before and after: the index never held it.
    assert _handle([_record("MODIFY", 3, new=deleted, old=superseded)]) == {"batchItemFailures": []}
    assert index.ops == []


def test_given_a_modify_of_the_text_or_a_filter_then_the_document_is_rewritten(index: RecordingIndex) -> None:
    a = _entry("mem_" + "6" * 24)
    b = _entry("mem_" + "7" * 24)
    records = [
        _record("MODIFY", 1, new=a.evolve(value="green", version=2), old=a),
        _record("MODIFY", 2, new=b.evolve(visibility=Visibility.GLOBAL, version=2), old=b),
    ]
    assert _handle(records) == {"batchItemFailures": []}
    assert index.ops == [("upsert", "t1", "u1", a.id), ("upsert", "t1", "u1", b.id)]
    assert [d.text for d in index.docs] == ["favorite color: green", "favorite color: blue"]


def test_given_a_batch_then_its_changed_texts_are_embedded_in_one_call(index: RecordingIndex) -> None:
    from engram.container import get_engram

    calls: list[int] = []
    embedder = get_engram().indexer._embedder
    real = embedder.embed
    embedder.embed = lambda texts: calls.append(len(texts)) or real(texts)  # type: ignore[method-assign]
    entries = [_entry(f"mem_{i:024d}") for i in range(5)]
    records = [_record("INSERT", i, new=e) for i, e in enumerate(entries, 1)]
    records.append(_record("MODIFY", 9, new=entries[0].evolve(access_count=1, version=2), old=entries[0]))
    assert _handle(records) == {"batchItemFailures": []}
    assert calls == [5]
    assert [op[3] for op in index.ops] == [e.id for e in entries[1:]] + [entries[0].id]


def test_given_a_ttl_expiry_when_handled_then_the_entry_leaves_the_index(index: RecordingIndex) -> None:
    gone = _entry("mem_" + "c" * 24, tenant="acme", user="alice")
    record = _record("REMOVE", 1, old=gone, ttl=True)
    assert _handle([record]) == {"batchItemFailures": []}
    assert index.ops == [("delete", "acme", "alice", gone.id)]


def test_given_a_remove_without_old_image_then_the_keys_alone_reach_the_index(index: RecordingIndex) -> None:
    gone = _entry("mem_" + "d" * 24, tenant="t#1", user="u%2")
    record = _record("REMOVE", 1, old=gone)
    del record["dynamodb"]["OldImage"]
    assert _handle([record]) == {"batchItemFailures": []}
    assert index.ops == [("delete", "t#1", "u%2", gone.id)]


def test_given_a_replayed_batch_when_handled_twice_then_the_index_ends_the_same(index: RecordingIndex) -> None:
    a = _entry("mem_" + "e" * 24)
    batch = [_record("INSERT", 1, new=a), _record("REMOVE", 2, old=a)]
    _handle(copy.deepcopy(batch))
    _handle(copy.deepcopy(batch))
    assert index.ops == [("delete", "t1", "u1", a.id)] * 2


def test_given_a_record_the_index_rejects_when_handled_then_only_it_is_reported_as_failed(
    index: RecordingIndex,
) -> None:
    ok, bad = _entry("mem_" + "1" * 24), _entry("mem_" + "2" * 24)
    index.fail_on = {bad.id}
    records = [_record("INSERT", 1, new=ok), _record("INSERT", 2, new=bad), _record("REMOVE", 3, old=ok)]
    result = _handle(records)
    assert result == {"batchItemFailures": [{"itemIdentifier": records[1]["dynamodb"]["SequenceNumber"]}]}
    assert index.ops == [("upsert", "t1", "u1", ok.id), ("delete", "t1", "u1", ok.id)]


def test_given_an_image_that_is_not_an_entry_then_the_record_fails_rather_than_vanish(
    index: RecordingIndex,
) -> None:
    good = _entry("mem_" + "3" * 24)
    broken = _record("MODIFY", 2, new=_entry("mem_" + "4" * 24))
    del broken["dynamodb"]["NewImage"]["value"]
    records = [_record("INSERT", 1, new=good), broken]
    result = _handle(records)
    assert result == {"batchItemFailures": [{"itemIdentifier": broken["dynamodb"]["SequenceNumber"]}]}
    assert index.ops == [("upsert", "t1", "u1", good.id)]
