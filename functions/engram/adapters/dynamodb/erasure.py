"""Erasure in the table: the user's erasure mark and the deletion of their partition.

The mark is keyed by a hash of tenant and user (``keys.erasure_pk``), never the ids
themselves; every later commit of a write that began before it is refused in its
transaction, by a condition check on the mark or on the user's state item, which this
deletes with the rest of the partition (``state_item.DynamoUserState._state_actions``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import DynamoBase, Item, attr, key_of
from engram.adapters.dynamodb.items import (
    ITEM_ENTRY,
    ITEM_ERASURE,
    ITEM_HISTORY,
    ITEM_IDENTITY,
    ITEM_LIVE_COUNT,
    ITEM_PROFILE,
    ITEM_SETTINGS,
    epoch_seconds,
)
from engram.domain.serialization import parse_ts, ts

# A tombstone must outlive every queued job of the user: SQS keeps a message 14 days.
ERASURE_MARK_KEPT = timedelta(days=15)
# What erase_user reports, by item type; bookkeeping items are deleted but not reported.
_ERASED_AS = {
    ITEM_ENTRY: "entries",
    ITEM_HISTORY: "history",
    ITEM_IDENTITY: "identities",
    ITEM_PROFILE: "profiles",
    ITEM_SETTINGS: "settings",
}
_IDENTITY_PREFIXES = (k.HISTORY + k.SEP, k.IDENTITY + k.SEP)


class DynamoErasure(DynamoBase):
    def mark_erased(self, tenant_id: str, user_id: str, at: datetime) -> None:
        self.put(
            {
                **key_of(k.erasure_pk(tenant_id, user_id), k.ERASED_SK),
                k.ITEM_TYPE: attr(ITEM_ERASURE),
                "erasedAt": attr(ts(at)),
                k.TTL: attr(epoch_seconds(at + ERASURE_MARK_KEPT)),
            }
        )

    def erased_at(self, tenant_id: str, user_id: str) -> datetime | None:
        item = self.get(k.erasure_pk(tenant_id, user_id), k.ERASED_SK)
        return None if item is None else parse_ts(item["erasedAt"]["S"])

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        pk = k.user_pk(tenant_id, user_id)
        counts = dict.fromkeys(_ERASED_AS.values(), 0)
        # Identities are counted by id: most have only history versions since key design 3
        # (their state is in the newest one), older ones and idempotency marks an item.
        identities: set[str] = set()
        while True:
            # Deleting while paging would skip items; take a batch of keys, delete it,
            # and ask again until the partition is empty.
            batch: list[Item] = []
            for item in self.query_items(
                KeyConditionExpression="#pk = :pk",
                ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK, "#type": k.ITEM_TYPE},
                ExpressionAttributeValues={":pk": attr(pk)},
                ProjectionExpression="#pk, #sk, #type",
                ConsistentRead=True,
                Limit=1000,
            ):
                batch.append(item)
                if len(batch) >= 1000:
                    break
            if not batch:
                counts["identities"] = len(identities)
                return counts
            self.batch_delete([{k.PK: it[k.PK], k.SK: it[k.SK]} for it in batch])
            for it in batch:
                sk = it[k.SK]["S"]
                if sk.startswith(_IDENTITY_PREFIXES):
                    identities.add(sk.split(k.SEP)[1])
                kind = it.get(k.ITEM_TYPE, {}).get("S", "")
                if kind in _ERASED_AS:
                    counts[_ERASED_AS[kind]] += 1
                elif kind != ITEM_LIVE_COUNT:
                    counts[kind or "other"] = counts.get(kind or "other", 0) + 1
