"""DynamoDB's memory repository: entries, identities, history, access statistics.

A changeset is one ``TransactWriteItems``: the entry puts, each conditioned on the
version read; the history puts (the newest version is also the identity's lock); and
one update of the user's state item (live count under the capacity's condition, dream's
due mark, the erasure condition: ``state_item.py``). DynamoDB deletes expired items late
(moto never does), so every listing and count filters on expiry itself. How items look:
``entry_items.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Self

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import DynamoMetrics, TransactionCancelled, attr, from_item, key_of, to_item
from engram.adapters.dynamodb.dream_state import is_marking_due
from engram.adapters.dynamodb.entry_items import (
    IDENTITY_STATE,
    decode_cursor,
    encode_cursor,
    entry_item,
    entry_of,
    history_item,
    history_locks,
    listed,
    listing_filters,
    most_accessed,
    sort_tuple_accessed,
    sort_tuple_recent,
    ts_opt,
    unexpired,
)
from engram.adapters.dynamodb.items import ITEM_IDENTITY
from engram.adapters.dynamodb.state_item import (
    LIVE,
    MAX_TRANSACTION_ITEMS,
    DynamoUserState,
    Group,
    Moves,
    StateChange,
    move,
    transaction_chunks,
)
from engram.adapters.dynamodb.user_state import bounded, bucket_of, entry_bounded, entry_bucket
from engram.domain.agent_config import RecallOrder
from engram.domain.errors import ValidationFailed
from engram.domain.models import Changeset, HistoryRecord, IdentityGuard, MemoryEntry, Page
from engram.domain.serialization import history_from_dict, ts
from engram.ports import EntryQuery, IdentityState

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from engram.settings import Settings

# In the cloud one recall in this many records access statistics (weighted by it):
# docs/dynamodb.md, "Access statistics".
ACCESS_SAMPLE_EVERY = 64
# An unsampled recall still records an entry whose last access is older than this.
ACCESS_REFRESH = timedelta(days=1)


class DynamoEntries(DynamoUserState):
    """The memory repository: entries, identities, history, the live count, access."""

    def __init__(
        self,
        client: DynamoDBClient,
        table_name: str,
        metrics: DynamoMetrics | None = None,
        *,
        access_sample_every: int = 1,
        sampler: random.Random | None = None,
    ) -> None:
        super().__init__(client, table_name, metrics)
        self._listeners: list[Callable[[], None]] = []
        if access_sample_every < 1:
            raise ValueError("access_sample_every must be at least 1")
        self.access_sample_every = access_sample_every
        self._sampler = sampler or random.Random()

    @classmethod
    def from_settings(cls, settings: Settings) -> Self:
        return cls(
            cls.client_from_settings(settings),
            settings.table_name,
            access_sample_every=ACCESS_SAMPLE_EVERY,
        )

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every applied changeset (the local change feed)."""
        self._listeners.append(listener)

    def get_entry(self, tenant_id: str, user_id: str, entry_id: str) -> MemoryEntry | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.entry_sk(entry_id))
        return None if item is None else entry_of(item)

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]:
        pk = k.user_pk(tenant_id, user_id)
        keys = [key_of(pk, k.entry_sk(i)) for i in dict.fromkeys(entry_ids)]
        return [entry_of(item) for item in self.batch_get(keys)]

    def get_identity(self, tenant_id: str, user_id: str, identity_id: str) -> IdentityState | None:
        """From the identity's newest history version (one item read); from its identity
        item when that version does not say (written before key design 3) or there is no
        history at all (a write's idempotency mark)."""
        pk = k.user_pk(tenant_id, user_id)
        names = {"#pk": k.PK, "#sk": k.SK, "#v": "version", "#cur": "currentEntryId", "#state": IDENTITY_STATE}
        for item in self.query_items(
            KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={":pk": attr(pk), ":prefix": attr(k.history_prefix(identity_id))},
            ProjectionExpression="#v, #cur, #state",
            ScanIndexForward=False,
            ConsistentRead=True,
            Limit=1,
        ):
            data = from_item(item)
            if IDENTITY_STATE in data:
                return IdentityState(int(data["version"]), data.get("currentEntryId"))
            break
        legacy = self.get(pk, k.identity_sk(identity_id))
        if legacy is None:
            return None
        data = from_item(legacy)
        return IdentityState(int(data["version"]), data.get("currentEntryId"))

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Page[MemoryEntry]:
        if query.limit < 1:
            raise ValidationFailed("The limit must be at least 1.", field="limit")
        pk = k.user_pk(tenant_id, user_id)
        accessed = query.order is RecallOrder.MOST_ACCESSED
        after = decode_cursor(query.cursor, 3 if accessed else 2) if query.cursor else None
        want = query.limit + 1
        found: list[MemoryEntry] = []
        for status in dict.fromkeys(query.statuses):
            found.extend(self._list_status(pk, status.value, query, accessed, after, want))
        order = sort_tuple_accessed if accessed else sort_tuple_recent
        found.sort(key=order, reverse=True)
        items = found[: query.limit]
        more = len(found) > query.limit
        return Page(items, encode_cursor(list(order(items[-1]))) if more and items else None)

    def _list_status(
        self,
        pk: str,
        status: str,
        query: EntryQuery,
        accessed: bool,
        after: list[Any] | None,
        want: int,
    ) -> list[MemoryEntry]:
        names = {"#pk": k.PK, "#sk": k.LSI1SK}
        values: dict[str, Any] = {":pk": attr(pk)}
        upper: str | None = None
        if after is None or accessed:
            condition = "#pk = :pk AND begins_with(#sk, :prefix)"
            values[":prefix"] = attr(k.join(status, ""))
        else:
            upper = k.recency_sk(status, *after)
            # BETWEEN is inclusive: the cursor's own item is dropped below.
            condition = "#pk = :pk AND #sk BETWEEN :lo AND :hi"
            values[":lo"] = attr(k.join(status, ""))
            values[":hi"] = attr(upper)
        filters = listing_filters(query, names, values)
        params: dict[str, Any] = {
            "IndexName": k.LSI1,
            "KeyConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": False,
            "ConsistentRead": True,
        }
        if not accessed:
            # Filters drop items after the page is read: read a little more than needed,
            # and go on reading only if that was not enough.
            params["Limit"] = min(want + max(want // 4, 5), 1000)
        if filters:
            params["FilterExpression"] = " AND ".join(filters)
        out: list[MemoryEntry] = []
        for page in self.query_pages(**params):
            for item in page.get("Items", []):
                if upper is not None and item.get(k.LSI1SK, {}).get("S") == upper:
                    continue
                entry = entry_of(item)
                if listed(entry, query):
                    out.append(entry)
            if not accessed and len(out) >= want:
                break
        if not accessed:
            return out[:want]
        return most_accessed(out, after, want)

    def apply(self, changeset: Changeset, now: datetime) -> None:
        pk = k.user_pk(changeset.tenant_id, changeset.user_id)
        groups = self._plan(changeset, pk, now)
        if not groups:
            return
        cap = changeset.max_active
        # Removals first, so a change split over several transactions frees room
        # before it takes any.
        groups.sort(key=lambda g: g.delta)
        expiries = [ts(e.expires_at) for e in changeset.entries if e.expires_at is not None and e.is_live(now)]
        change = StateChange(
            tenant_id=changeset.tenant_id,
            user_id=changeset.user_id,
            now=ts(now),
            # Dream: the changed user is due (dream's own changes excepted: the pass that
            # made them records the user's next due time).
            marks_due=is_marking_due(changeset),
            earliest_expiry=min(expiries) if expiries else None,
            origin=None if changeset.origin is None else ts(changeset.origin),
        )
        # The state item as it was: a hint, read eventually consistent (half a read
        # unit). The transaction's conditions keep the write safe whatever it says; a
        # failed one makes the adapter read it again, consistently.
        seen = self._state(pk, consistent=False)
        chunks = transaction_chunks(groups)
        for i, chunk in enumerate(chunks):
            delta = sum(g.delta for g in chunk)
            actions = [a for g in chunk for a in g.actions]
            moves = Moves.of(chunk)
            self._transact(pk, actions, change, seen, delta, cap if delta > 0 else None, now, moves)
            deferred = [h for g in chunk for h in g.deferred_history]
            if deferred:
                self.batch_put(deferred)
            if i + 1 < len(chunks):
                seen = self._state(pk, consistent=True)  # this change moved it
        for listener in self._listeners:
            listener()

    def _plan(self, changeset: Changeset, pk: str, now: datetime) -> list[Group]:
        guards = {g.identity_id: g for g in changeset.guards}
        entries = list({e.id: e for e in changeset.entries}.values())
        # Entries of identities that did not exist cannot exist either; the others are
        # read to learn whether they were live (the live count moves by the difference).
        maybe = [
            e for e in entries if e.identity_id not in guards or guards[e.identity_id].expected_version is not None
        ]
        prior = self._prior(pk, maybe)
        by_identity: dict[str, list[HistoryRecord]] = {}
        for h in changeset.history:
            by_identity.setdefault(h.identity_id, []).append(h)
        groups: dict[str, Group] = {}
        for guard in changeset.guards:
            group = groups.setdefault(guard.identity_id, Group())
            # The optimistic lock of an identity is the put of its next history version
            # (``attribute_not_exists``): of two writers that read the same version, one
            # puts it and the other fails, as with a version condition on an identity
            # item, without writing one. A guard with no such version in the change (a
            # write's idempotency mark, an import of several versions) keeps the item.
            if not history_locks(guard, by_identity.get(guard.identity_id, ())):
                group.actions.append(self._guard_action(changeset, pk, guard))
        for e in entries:
            self._entry_put(groups.setdefault(e.identity_id, Group()), e, prior.get(e.id), now)
        for identity, records in by_identity.items():
            self._history_puts(groups.setdefault(identity, Group()), pk, identity, records, guards.get(identity))
        return list(groups.values())

    def _prior(self, pk: str, entries: list[MemoryEntry]) -> dict[str, dict[str, Any]]:
        """What the table holds of ``entries`` now, by id (none: never written)."""
        prior: dict[str, dict[str, Any]] = {}
        if entries:
            keys = [key_of(pk, k.entry_sk(e.id)) for e in entries]
            wanted = ("id", "status", "expiresAt", "version", "visibility", "sourceAgentId", "groupIds")
            for item in self.batch_get(keys, projection=(*wanted, "validFrom", "validTo")):
                data = from_item(item)
                prior[str(data["id"])] = data
        return prior

    def _entry_put(self, group: Group, e: MemoryEntry, before: dict[str, Any] | None, now: datetime) -> None:
        """The entry's put, conditioned on the version read, and how the counts move."""
        now_ts = ts(now)
        was_live = before is not None and before.get("status") == LIVE and unexpired(before, now_ts)
        group.delta += int(e.is_live(now)) - int(was_live)
        if before is not None and was_live:
            move(group, entry_bucket(before), -1, -int(entry_bounded(before, now_ts)))
        if e.is_live(now):
            after = bucket_of(e.visibility.value, e.source_agent_id, e.group_ids)
            move(group, after, 1, int(bounded(ts_opt(e.valid_from), ts_opt(e.valid_to), now_ts)))
        put: dict[str, Any] = {"TableName": self.table_name, "Item": entry_item(e)}
        if before is None:
            put["ConditionExpression"] = "attribute_not_exists(#pk)"
            put["ExpressionAttributeNames"] = {"#pk": k.PK}
        else:
            put["ConditionExpression"] = "#version = :version"
            put["ExpressionAttributeNames"] = {"#version": "version"}
            put["ExpressionAttributeValues"] = {":version": attr(before["version"])}
        group.actions.append({"Put": put})

    def _history_puts(
        self, group: Group, pk: str, identity: str, records: list[HistoryRecord], guard: IdentityGuard | None
    ) -> None:
        room = MAX_TRANSACTION_ITEMS - 1 - len(group.actions)
        if room < 1:
            raise ValidationFailed("This change touches too many items at once.", identityId=identity)
        # The newest versions go in the transaction; older ones of an identity with
        # a longer history (an import) follow right after it commits.
        records.sort(key=lambda h: h.version, reverse=True)
        for h in records[:room]:
            group.actions.append(
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": history_item(pk, h, guard),
                        "ConditionExpression": "attribute_not_exists(#pk)",
                        "ExpressionAttributeNames": {"#pk": k.PK},
                    }
                }
            )
        group.deferred_history.extend(history_item(pk, h) for h in records[room:])

    def _guard_action(self, changeset: Changeset, pk: str, guard: IdentityGuard) -> dict[str, Any]:
        item = to_item(
            {
                k.PK: pk,
                k.SK: k.identity_sk(guard.identity_id),
                k.ITEM_TYPE: ITEM_IDENTITY,
                "tenantId": changeset.tenant_id,
                "userId": changeset.user_id,
                "identityId": guard.identity_id,
                "version": guard.new_version,
                "currentEntryId": guard.current_entry_id,
            }
        )
        put: dict[str, Any] = {"TableName": self.table_name, "Item": item}
        if guard.expected_version is None:
            put["ConditionExpression"] = "attribute_not_exists(#pk)"
            put["ExpressionAttributeNames"] = {"#pk": k.PK}
        else:
            put["ConditionExpression"] = "#version = :expected"
            put["ExpressionAttributeNames"] = {"#version": "version"}
            put["ExpressionAttributeValues"] = {":expected": attr(guard.expected_version)}
        return {"Put": put}

    def history(
        self,
        tenant_id: str,
        user_id: str,
        identity_id: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[HistoryRecord]:
        after = 0
        if cursor:
            value = decode_cursor(cursor, 1)[0]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValidationFailed("The cursor is not one this API issued.", field="cursor")
            after = value
        pk = k.user_pk(tenant_id, user_id)
        records: list[HistoryRecord] = []
        for item in self.query_items(
            KeyConditionExpression="#pk = :pk AND #sk BETWEEN :lo AND :hi",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
            ExpressionAttributeValues={
                ":pk": attr(pk),
                ":lo": attr(k.history_sk(identity_id, after + 1)),
                ":hi": attr(k.history_prefix(identity_id) + "9" * k.VERSION_DIGITS),
            },
            ConsistentRead=True,
            Limit=limit + 1,
        ):
            records.append(history_from_dict(from_item(item)))
            if len(records) > limit:
                break
        more = len(records) > limit
        records = records[:limit]
        return Page(records, encode_cursor([records[-1].version]) if more and records else None)

    def history_of_user(self, tenant_id: str, user_id: str) -> list[HistoryRecord]:
        return [
            history_from_dict(from_item(item))
            for item in self.query_items(
                KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
                ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
                ExpressionAttributeValues={
                    ":pk": attr(k.user_pk(tenant_id, user_id)),
                    ":prefix": attr(k.history_prefix()),
                },
                ConsistentRead=True,
            )
        ]

    def record_access(
        self,
        tenant_id: str,
        user_id: str,
        entry_ids: Sequence[str],
        at: datetime,
        last_accessed: Mapping[str, datetime | None] | None = None,
    ) -> None:
        """Sampled and batched (docs/dynamodb.md, "Access statistics"): one recall in
        ``access_sample_every`` adds that many to the count of every entry it showed;
        the others write only entries whose ``lastAccessedAt`` (as the caller read it)
        is missing or older than ``ACCESS_REFRESH``, adding one, so dream never takes a
        recalled entry for a stale one. At most one ``TransactWriteItems``, usually
        none: a write per entry per recall would cost more than the recall itself (each
        rewrites the entry and its LSI copies, and wakes the stream)."""
        ids = list(dict.fromkeys(entry_ids))
        if not ids:
            return
        every = self.access_sample_every
        if every == 1 or self._sampler.random() * every < 1:
            weights = dict.fromkeys(ids, every)
        elif last_accessed is None:
            weights = dict.fromkeys(ids, 1)  # nothing known: count them all, once
        else:
            stale = at - ACCESS_REFRESH
            weights = {i: 1 for i in ids if (last_accessed.get(i) or stale) <= stale}
        if not weights:
            return
        pk = k.user_pk(tenant_id, user_id)
        chunks = list(weights.items())
        for start in range(0, len(chunks), MAX_TRANSACTION_ITEMS):
            chunk = chunks[start : start + MAX_TRANSACTION_ITEMS]
            for _ in range(2):
                try:
                    actions = [self._access_action(pk, i, w, at) for i, w in chunk]
                    self.call("TransactWriteItems", TransactItems=actions)
                    break
                except TransactionCancelled as exc:
                    # An entry erased meanwhile fails its condition; the others go again.
                    chunk = [c for c, r in zip(chunk, exc.reasons, strict=False) if r != "ConditionalCheckFailed"]
                    if not chunk:
                        break

    def _access_action(self, pk: str, entry_id: str, weight: int, at: datetime) -> dict[str, Any]:
        # Not a versioned change: the entry's version and index keys stay as they are. A
        # versioned write racing with it may keep the count it read (best effort).
        return {
            "Update": {
                "TableName": self.table_name,
                "Key": key_of(pk, k.entry_sk(entry_id)),
                "UpdateExpression": "SET #la = :at ADD #ac :weight",
                "ConditionExpression": "attribute_exists(#pk)",
                "ExpressionAttributeNames": {"#ac": "accessCount", "#la": "lastAccessedAt", "#pk": k.PK},
                "ExpressionAttributeValues": {":weight": attr(weight), ":at": attr(ts(at))},
            }
        }
