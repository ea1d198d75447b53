"""What the cloud re-index reads from DynamoDB: every entry, thread and archival item, a
segment of a parallel Scan at a time, and the keys a failed stream batch carried.

The Scan is the backfill's source because the table, not the index, is the truth: it
needs no list of users, and segments let several workers share the table. A failed
stream batch reaches the indexer's failure queue as the shard and sequence range only
(the Lambda on-failure record, no item data); its keys are read back from the stream
while the stream still holds them (24 hours), and the entries from the table as they
are now.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb import user_control_keys as uk
from engram.adapters.dynamodb.base import from_item
from engram.adapters.dynamodb.blocks import archival_of_item
from engram.adapters.dynamodb.conversations import THREAD
from engram.domain.conversation import ThreadKey
from engram.domain.conversation_codec import thread_from_dict
from engram.domain.errors import StoreUnavailable
from engram.domain.serialization import entry_from_dict
from engram.ports import ScanPage

if TYPE_CHECKING:
    from engram.adapters.dynamodb.store import DynamoStore

ENTRY_PREFIX = k.ENTRY + k.SEP
THREAD_PREFIX = THREAD + k.SEP  # not a summary's "THS#"
ARCHIVAL_PREFIX = uk.ARCHIVAL + k.SEP


class DynamoEntryScanner:
    def __init__(self, store: DynamoStore) -> None:
        self._store = store

    def scan_entries(self, segment: int, segments: int, cursor: str | None, limit: int = 200) -> ScanPage:
        """One page of the segment's entry (any status), thread and archival items;
        ``next_cursor`` None at its end."""
        params: dict[str, Any] = {
            "TableName": self._store.table_name,
            "Segment": segment,
            "TotalSegments": segments,
            "Limit": limit,
            "FilterExpression": "begins_with(#sk, :entry) OR begins_with(#sk, :thread) OR begins_with(#sk, :archival)",
            "ExpressionAttributeNames": {"#sk": k.SK},
            "ExpressionAttributeValues": {
                ":entry": {"S": ENTRY_PREFIX},
                ":thread": {"S": THREAD_PREFIX},
                ":archival": {"S": ARCHIVAL_PREFIX},
            },
        }
        if cursor is not None:
            params["ExclusiveStartKey"] = json.loads(base64.urlsafe_b64decode(cursor))
        response = self._store.call("Scan", **params)
        page = ScanPage([], None)
        for item in response.get("Items", []):
            sk = item[k.SK]["S"]
            if sk.startswith(ENTRY_PREFIX):
                page.items.append(entry_from_dict(from_item(item)))
            elif sk.startswith(THREAD_PREFIX):
                t = thread_from_dict(from_item(item))
                page.threads.append(ThreadKey(t.tenant_id, t.user_id, t.agent_id, t.thread_id))
            else:
                page.archival.append(archival_of_item(item))
        last = response.get("LastEvaluatedKey")
        next_cursor = base64.urlsafe_b64encode(json.dumps(last).encode()).decode() if last else None
        return ScanPage(page.items, next_cursor, page.threads, page.archival)


class DynamoStreamRange:
    """The entry keys of the stream records between two sequence numbers of one shard."""

    def __init__(self, streams: Any) -> None:
        self._streams = streams

    def entry_keys(self, batch: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """(tenant, user, entry id) of every entry record of a failed batch, in order."""
        try:
            iterator = self._streams.get_shard_iterator(
                StreamArn=batch["streamArn"],
                ShardId=batch["shardId"],
                ShardIteratorType="AT_SEQUENCE_NUMBER",
                SequenceNumber=batch["startSequenceNumber"],
            )["ShardIterator"]
            end = int(batch["endSequenceNumber"])
            found: list[tuple[str, str, str]] = []
            for _ in range(10_000):  # a batch is at most 10,000 records
                page = self._streams.get_records(ShardIterator=iterator, Limit=1000)
                for record in page.get("Records", []):
                    if int(record["dynamodb"]["SequenceNumber"]) > end:
                        return found
                    keys = record["dynamodb"].get("Keys") or {}
                    owner_entry = k.entry_key_of(keys)
                    if owner_entry is not None:
                        found.append(owner_entry)
                iterator = page.get("NextShardIterator")
                if not iterator or not page.get("Records"):
                    return found
            return found
        except (ClientError, BotoCoreError) as exc:
            # Most often the records are past the stream's 24 hours: only a backfill can help.
            raise StoreUnavailable(
                "The failed stream batch cannot be read back; run a backfill (engram reindex).",
                shardId=batch.get("shardId"),
            ) from exc
