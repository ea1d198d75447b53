"""Recall's tier 1 on DynamoDB: a user's most important live core preferences.

Active entries of ``keys.CORE_CATEGORY`` carry ``LSI2SK = CORE#<importance>#<updatedAt>#<id>``
(``store.entry_item``), so a descending query on LSI2 reads them best first and stops
after ``limit`` visible ones: a few read units instead of a read of every entry.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import attr
from engram.adapters.dynamodb.entry_items import entry_of, scope_filter
from engram.adapters.dynamodb.store import DynamoStore
from engram.domain.models import MemoryEntry
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import ts
from engram.ports import EntryQuery


class DynamoCoreReader:
    def __init__(self, store: DynamoStore) -> None:
        self._store = store

    def top_by_importance(
        self,
        tenant_id: str,
        user_id: str,
        scope: VisibilityScope,
        category: str,
        now: datetime,
        limit: int,
    ) -> list[MemoryEntry]:
        if limit <= 0:
            return []
        if category != k.CORE_CATEGORY:
            return self._by_listing(tenant_id, user_id, scope, category, now, limit)
        names: dict[str, str] = {"#pk": k.PK, "#sk": k.LSI2SK, "#expiresAt": "expiresAt"}
        values: dict[str, Any] = {
            ":pk": attr(k.user_pk(tenant_id, user_id)),
            ":prefix": attr(k.core_prefix()),
            ":now": attr(ts(now)),
        }
        filters = ["(attribute_not_exists(#expiresAt) OR #expiresAt > :now)"]
        if not scope.everything:
            filters.append(scope_filter(scope, names, values))
        found: list[MemoryEntry] = []
        for page in self._store.query_pages(
            IndexName=k.LSI2,
            KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
            FilterExpression=" AND ".join(filters),
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            ConsistentRead=True,
            # A query pays for the bytes it reads: a little slack for entries the filter
            # drops, rather than a second round trip.
            Limit=limit + 2,
        ):
            for item in page.get("Items", []):
                entry = entry_of(item)
                # Checked again: a wrong answer would show an expired or foreign entry.
                if entry.is_live(now) and scope.allows(entry) and entry.category == category:
                    found.append(entry)
            if len(found) >= limit:
                break
        return _best(found, limit)

    def _by_listing(
        self, tenant_id: str, user_id: str, scope: VisibilityScope, category: str, now: datetime, limit: int
    ) -> list[MemoryEntry]:
        """Other categories have no index on importance: page through the category."""
        found: list[MemoryEntry] = []
        cursor: str | None = None
        while True:
            page = self._store.list_entries(
                tenant_id, user_id, EntryQuery(now=now, scope=scope, category=category, limit=500, cursor=cursor)
            )
            found.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return _best(found, limit)


def _best(entries: list[MemoryEntry], limit: int) -> list[MemoryEntry]:
    # The order CoreMemoryReader promises (the key order differs only on ids of entries
    # with the same importance and the same microsecond).
    entries.sort(key=lambda e: (-e.importance, -e.updated_at.timestamp(), e.id))
    return entries[:limit]
