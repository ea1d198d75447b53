"""How a memory entry and its history are stored in the table, and how listings of
them filter, order and page (``docs/dynamodb.md``, "Keys" and "Access patterns").
Pure: no calls to DynamoDB."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import Item, attr, from_item, to_item
from engram.adapters.dynamodb.items import ITEM_ENTRY, ITEM_HISTORY, epoch_seconds
from engram.domain.errors import ValidationFailed
from engram.domain.models import HistoryRecord, IdentityGuard, MemoryEntry, Status, Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import entry_from_dict, entry_to_dict, history_to_dict, ts
from engram.ports import EntryQuery

# Set on the history version a guard wrote: it holds the identity's state (version,
# ``currentEntryId``), so no identity item is written (docs/dynamodb.md, "Transactions").
IDENTITY_STATE = "identityState"
_TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")


def entry_item(e: MemoryEntry) -> Item:
    """An entry as the table holds it (attribute values, keys and index attributes)."""
    pk = k.user_pk(e.tenant_id, e.user_id)
    data: dict[str, Any] = entry_to_dict(e)
    updated = data["updatedAt"]
    data.update(
        {
            k.PK: pk,
            k.SK: k.entry_sk(e.id),
            k.ITEM_TYPE: ITEM_ENTRY,
            k.LSI1SK: k.recency_sk(e.status.value, updated, e.id),
        }
    )
    # Only recall's tier 1 reads LSI2 for entries: every other entry stays out of it, and
    # no entry is in LSI3 (the live count is a counter). An index holding the item costs
    # a write of its size on every change, so each one must earn its place.
    if e.status is Status.ACTIVE and e.category == k.CORE_CATEGORY:
        data[k.LSI2SK] = k.core_sk(e.importance, updated, e.id)
    if e.expires_at is not None:
        data[k.TTL] = epoch_seconds(e.expires_at)
    return to_item(data)


def entry_of(item: Item) -> MemoryEntry:
    return entry_from_dict(from_item(item))


def history_item(pk: str, h: HistoryRecord, guard: IdentityGuard | None = None) -> Item:
    data = {
        **history_to_dict(h),
        k.PK: pk,
        k.SK: k.history_sk(h.identity_id, h.version),
        k.ITEM_TYPE: ITEM_HISTORY,
    }
    if guard is not None and guard.new_version == h.version:
        # The identity's state as of this version: ``get_identity`` reads it from here.
        data[IDENTITY_STATE] = 1
        data["currentEntryId"] = guard.current_entry_id
    return to_item(data)


def history_locks(guard: IdentityGuard, records: Iterable[HistoryRecord]) -> bool:
    """Is the put of ``guard``'s next history version its lock? Only for a step of one
    version: the version before it exists for every identity that exists."""
    step = guard.new_version == (guard.expected_version or 0) + 1
    return step and any(h.version == guard.new_version for h in records)


def listing_filters(query: EntryQuery, names: dict[str, str], values: dict[str, Any]) -> list[str]:
    """The filter expressions of a listing (category, key, expiry, visibility)."""
    filters: list[str] = []
    if query.category is not None:
        names["#category"] = "category"
        values[":category"] = attr(query.category)
        filters.append("#category = :category")
    if query.key is not None:
        names["#key"] = "key"
        values[":key"] = attr(query.key)
        filters.append("#key = :key")
    if not query.include_expired:
        names["#expiresAt"] = "expiresAt"
        values[":now"] = attr(ts(query.now))
        filters.append("(attribute_not_exists(#expiresAt) OR #expiresAt > :now)")
    if query.scope is not None and not query.scope.everything:
        filters.append(scope_filter(query.scope, names, values))
    return filters


def listed(entry: MemoryEntry, query: EntryQuery) -> bool:
    # The filter expression did this already; checked again because a wrong answer here
    # would show an expired or foreign entry.
    if not query.include_expired and entry.is_expired(query.now):
        return False
    return query.scope is None or query.scope.allows(entry)


def most_accessed(entries: list[MemoryEntry], after: list[Any] | None, want: int) -> list[MemoryEntry]:
    """Most accessed first: no index keeps that order any more (an access count in a key
    would rewrite an index entry on every recall), so every entry of the status is read and
    sorted here. Listings in this order are rare; recall never uses it."""
    if after is not None:
        bound = tuple(after)
        entries = [e for e in entries if sort_tuple_accessed(e) < bound]
    entries.sort(key=sort_tuple_accessed, reverse=True)
    return entries[:want]


def ts_opt(moment: datetime | None) -> str | None:
    return None if moment is None else ts(moment)


def unexpired(data: dict[str, Any], now_ts: str) -> bool:
    expires = data.get("expiresAt")
    return expires is None or str(expires) > now_ts


def scope_filter(scope: VisibilityScope, names: dict[str, str], values: dict[str, Any]) -> str:
    names.update({"#vis": "visibility", "#src": "sourceAgentId"})
    values.update({":global": attr(Visibility.GLOBAL.value), ":agent": attr(scope.agent_id)})
    clauses = ["#vis = :global", "#src = :agent"]
    if scope.group_ids:
        names["#groups"] = "groupIds"
        values[":group"] = attr(Visibility.GROUP.value)
        members = []
        for i, group in enumerate(dict.fromkeys(scope.group_ids)):
            values[f":g{i}"] = attr(group)
            members.append(f"contains(#groups, :g{i})")
        clauses.append(f"(#vis = :group AND ({' OR '.join(members)}))")
    return "(" + " OR ".join(clauses) + ")"


def sort_tuple_recent(e: MemoryEntry) -> tuple[Any, ...]:
    return (ts(e.updated_at), e.id)


def sort_tuple_accessed(e: MemoryEntry) -> tuple[Any, ...]:
    return (e.access_count, ts(e.updated_at), e.id)


def encode_cursor(values: list[Any]) -> str:
    raw = json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, arity: int) -> list[Any]:
    """The sort values a cursor carries, checked: they end up inside key conditions."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
    if not isinstance(values, list) or len(values) != arity:
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    if arity >= 2:
        *count, updated, entry_id = values
        ok = (
            isinstance(updated, str)
            and _TS_RE.match(updated) is not None
            and isinstance(entry_id, str)
            and 0 < len(entry_id) <= 256
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 10**k.COUNT_DIGITS for c in count)
        )
        if not ok:
            raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return values
