"""The table's change stream, as the search index needs it.

``entry_change`` turns one stream record (the Lambda event shape, which is also what
GetRecords returns) into an ``EntryChange``; the ``indexer`` Lambda uses it in the
cloud. ``StreamOutbox`` polls the stream in-process, for the local ``--backend aws``
mode where the embedded index has no Lambda to feed it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import from_item
from engram.domain.errors import StoreUnavailable
from engram.domain.models import MemoryEntry
from engram.domain.serialization import entry_from_dict
from engram.ports import EntryChange

if TYPE_CHECKING:
    from mypy_boto3_dynamodbstreams import DynamoDBStreamsClient

    from engram.adapters.dynamodb.store import DynamoStore
    from engram.settings import Settings

logger = logging.getLogger(__name__)

TTL_PRINCIPAL = "dynamodb.amazonaws.com"
SHARDS_TTL_SECONDS = 30.0


class MalformedRecord(ValueError):
    """A stream record that names a memory entry but cannot be read as one."""


def is_ttl_removal(record: Mapping[str, Any]) -> bool:
    """DynamoDB's TTL sweeper, not a request, deleted the item."""
    identity = record.get("userIdentity") or {}
    return bool(identity.get("type") == "Service" and identity.get("principalId") == TTL_PRINCIPAL)


def entry_change(record: Mapping[str, Any]) -> EntryChange | None:
    """The index change one stream record asks for; None if it is not about an entry.

    INSERT and MODIFY carry the entry as it now is (the indexer drops it from the index
    unless it is active); REMOVE, whether a delete, an erasure or a TTL expiry, always
    removes it. Each record states a whole outcome, so replaying one is harmless.
    """
    body = record.get("dynamodb") or {}
    key = k.entry_key_of(body.get("Keys") or {})
    if key is None:
        return None
    tenant_id, user_id, entry_id = key
    event = record.get("eventName")
    previous = _old_entry(body.get("OldImage"))
    if event == "REMOVE":
        return EntryChange(tenant_id, user_id, entry_id, None, previous)
    if event not in ("INSERT", "MODIFY"):
        raise MalformedRecord(f"unknown stream event {event!r}")
    image = body.get("NewImage")
    if not image:
        raise MalformedRecord("the stream carries no new image; the table needs NEW_AND_OLD_IMAGES")
    try:
        entry: MemoryEntry = entry_from_dict(from_item(image))
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedRecord("the new image is not a memory entry") from exc
    if (entry.tenant_id, entry.user_id, entry.id) != (tenant_id, user_id, entry_id):
        raise MalformedRecord("the new image does not match its keys")
    return EntryChange(tenant_id, user_id, entry_id, entry, previous)


def _old_entry(image: Mapping[str, Any] | None) -> MemoryEntry | None:
    """The entry before the change, if the record carries it; an old image that cannot be
    read only costs the comparison (the change is then indexed as if new)."""
    if not image:
        return None
    try:
        return entry_from_dict(from_item(image))
    except (KeyError, TypeError, ValueError):
        return None


class StreamOutbox:
    """The stream read as an outbox (``engram.service.indexing.ChangeOutbox``).

    Where the index stands in each shard is saved beside the index once the drainer has
    indexed up to there, so the next process starts from that point. Reading a record
    twice is harmless: the drainer indexes what the store holds now, not what a record
    said.
    """

    def __init__(self, store: DynamoStore, streams: DynamoDBStreamsClient, positions_file: Path | None = None) -> None:
        self._store = store
        self._streams = streams
        self._stream_arn: str | None = None
        self._positions_file = positions_file
        self._positions: dict[str, str] = {}  # shard id -> last sequence number indexed
        self._read: dict[str, str] = {}  # shard id -> last sequence number read
        self._buffer: list[tuple[int, str, str, str, str, str]] = []
        self._seq = 0
        self._shards_cache: tuple[float, list[Mapping[str, Any]]] | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, store: DynamoStore, settings: Settings) -> StreamOutbox:
        import boto3

        streams: DynamoDBStreamsClient = boto3.client(
            "dynamodbstreams", region_name=settings.aws_region, endpoint_url=settings.dynamodb_endpoint
        )
        # Beside the embedded index it feeds: where that index stands in the stream.
        return cls(store, streams, settings.data_dir / "stream-positions.json")

    def on_commit(self, listener: Callable[[], None]) -> None:
        self._store.on_commit(listener)

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]:
        return self._store.get_entries(tenant_id, user_id, entry_ids)

    def pending_changes(self, limit: int = 500) -> list[tuple[int, str, str, str]]:
        with self._lock:
            if not self._buffer:
                self._poll()
            return [c[:4] for c in self._buffer[:limit]]

    def pending_count(self, tenant_id: str, user_id: str) -> int | None:
        # The stream holds records this process has not read yet; it cannot count them cheaply.
        return None

    def ack_changes(self, up_to_seq: int) -> None:
        with self._lock:
            for change in self._buffer:
                if change[0] <= up_to_seq:
                    self._positions[change[4]] = change[5]
            self._buffer = [c for c in self._buffer if c[0] > up_to_seq]
            if not self._buffer:
                # Records that named no entry are done as soon as they are read.
                self._positions.update(self._read)
            self._save_positions()

    def _poll(self) -> None:
        arn = self._arn()
        if not self._read:
            self._read = dict(self._load_positions(arn))
            self._positions = dict(self._read)
        try:
            for shard in self._shards():
                shard_id = str(shard["ShardId"])
                records = self._records(arn, shard_id, self._read.get(shard_id))
                for record in records:
                    seq = str(record["dynamodb"]["SequenceNumber"])
                    self._read[shard_id] = seq
                    try:
                        change = entry_change(dict(record))
                    except MalformedRecord:
                        logger.warning("skipped a stream record", extra={"shard": shard_id})
                        continue
                    if change is not None:
                        self._seq += 1
                        self._buffer.append(
                            (self._seq, change.tenant_id, change.user_id, change.entry_id, shard_id, seq)
                        )
        except (ClientError, BotoCoreError) as exc:
            raise StoreUnavailable("The table's stream cannot be read.") from exc

    def _records(self, arn: str, shard_id: str, after: str | None) -> list[Any]:
        params: dict[str, Any] = {"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "TRIM_HORIZON"}
        if after is not None:
            params.update(ShardIteratorType="AFTER_SEQUENCE_NUMBER", SequenceNumber=after)
        try:
            iterator = self._streams.get_shard_iterator(**params).get("ShardIterator")
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "TrimmedDataAccessException":
                raise
            # The stream keeps 24 hours: changes older than that never reached this index.
            logger.warning("stream position trimmed; reindex to catch up", extra={"shard": shard_id})
            params = {"StreamArn": arn, "ShardId": shard_id, "ShardIteratorType": "TRIM_HORIZON"}
            iterator = self._streams.get_shard_iterator(**params).get("ShardIterator")
        if not iterator:
            return []
        return list(self._streams.get_records(ShardIterator=iterator, Limit=1000).get("Records", []))

    def _load_positions(self, arn: str) -> dict[str, str]:
        if self._positions_file is None or not self._positions_file.exists():
            return {}
        try:
            saved = json.loads(self._positions_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        # Positions of another table or an older stream mean nothing here.
        if not isinstance(saved, dict) or saved.get("streamArn") != arn or not isinstance(saved.get("shards"), dict):
            return {}
        return {str(shard): str(seq) for shard, seq in saved["shards"].items()}

    def _save_positions(self) -> None:
        if self._positions_file is None or self._stream_arn is None:
            return
        self._positions_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._positions_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"streamArn": self._stream_arn, "shards": self._positions}), encoding="utf-8")
        tmp.replace(self._positions_file)

    def _arn(self) -> str:
        if self._stream_arn is None:
            table = self._store.client.describe_table(TableName=self._store.table_name)["Table"]
            arn = table.get("LatestStreamArn")
            if not arn:
                raise StoreUnavailable("The table has no stream; enable NEW_AND_OLD_IMAGES.")
            self._stream_arn = arn
        return self._stream_arn

    def _shards(self) -> list[Mapping[str, Any]]:
        # Shards change rarely (splits, every few hours in AWS, never in moto).
        if self._shards_cache is not None and time.monotonic() - self._shards_cache[0] < SHARDS_TTL_SECONDS:
            return self._shards_cache[1]
        shards: list[Mapping[str, Any]] = []
        params: dict[str, Any] = {"StreamArn": self._arn()}
        while True:
            description = self._streams.describe_stream(**params)["StreamDescription"]
            shards.extend(description.get("Shards", []))
            last = description.get("LastEvaluatedShardId")
            if not last:
                self._shards_cache = (time.monotonic(), shards)
                return shards
            params["ExclusiveStartShardId"] = last
