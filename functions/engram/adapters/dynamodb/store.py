"""DynamoDB implementation of every repository port (the source of truth in the cloud).

One table, keys per ``engram.adapters.dynamodb.keys`` and ``docs/dynamodb.md``. A
changeset is one ``TransactWriteItems``: a version condition on each identity item, the
entry and history puts, and an update of the user's live-count item whose condition
enforces the capacity. DynamoDB deletes expired items late (moto never does), so every
listing and count filters on expiry itself.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import (
    ConditionFailed,
    DynamoBase,
    DynamoMetrics,
    Item,
    TransactionCancelled,
    attr,
    from_item,
    key_of,
    to_item,
)
from engram.adapters.dynamodb.dream_state import mark_due_action
from engram.domain.agent_config import AgentConfig, RecallOrder
from engram.domain.errors import CapacityReached, GuardrailViolation, ValidationFailed, VersionConflict
from engram.domain.models import (
    ApiKeyRecord,
    Changeset,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Page,
    Status,
    UserProfile,
    UserSettings,
    Visibility,
)
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import (
    entry_from_dict,
    entry_to_dict,
    history_from_dict,
    history_to_dict,
    key_from_dict,
    key_to_dict,
    profile_from_dict,
    profile_to_dict,
    settings_from_dict,
    settings_to_dict,
    ts,
)
from engram.ports import EntryQuery, IdentityState

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from engram.settings import Settings

MAX_TRANSACTION_ITEMS = 100
# How often a capacity-checked transaction recounts and retries before giving the
# caller a version conflict to retry (only under heavy contention on one user).
CAPACITY_ATTEMPTS = 4
# A turn counter is stale once its window closed a day before the current one opened
# (the same cut-off the embedded store uses).
TURN_STALE_AFTER = timedelta(days=2)

ITEM_ENTRY = "entry"
ITEM_HISTORY = "history"
ITEM_IDENTITY = "identity"
ITEM_PROFILE = "profile"
ITEM_SETTINGS = "settings"
ITEM_LIVE_COUNT = "liveCount"
ITEM_AGENT_CONFIG = "agentConfig"
ITEM_API_KEY = "apiKey"
ITEM_TURN = "turn"

# What erase_user reports, by item type; bookkeeping items are deleted but not reported.
_ERASED_AS = {
    ITEM_ENTRY: "entries",
    ITEM_HISTORY: "history",
    ITEM_IDENTITY: "identities",
    ITEM_PROFILE: "profiles",
    ITEM_SETTINGS: "settings",
}
_TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
_LIVE = Status.ACTIVE.value


def epoch_seconds(moment: datetime) -> int:
    """The ``ttl`` value: rounded up, so DynamoDB never deletes before the domain expiry."""
    return math.ceil(moment.timestamp())


@dataclass
class _Group:
    """Everything a changeset writes for one identity: applied in one transaction."""

    actions: list[dict[str, Any]] = field(default_factory=list)
    deferred_history: list[Item] = field(default_factory=list)
    delta: int = 0


class DynamoStore(DynamoBase):
    def __init__(self, client: DynamoDBClient, table_name: str, metrics: DynamoMetrics | None = None) -> None:
        super().__init__(client, table_name, metrics)
        self._listeners: list[Callable[[], None]] = []

    @classmethod
    def from_settings(cls, settings: Settings) -> DynamoStore:
        return cls(cls.client_from_settings(settings), settings.table_name)

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every applied changeset (the local change feed)."""
        self._listeners.append(listener)

    # -- memory entries ---------------------------------------------------------------
    def get_entry(self, tenant_id: str, user_id: str, entry_id: str) -> MemoryEntry | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.entry_sk(entry_id))
        return None if item is None else _entry(item)

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]:
        pk = k.user_pk(tenant_id, user_id)
        keys = [key_of(pk, k.entry_sk(i)) for i in dict.fromkeys(entry_ids)]
        return [_entry(item) for item in self.batch_get(keys)]

    def get_identity(self, tenant_id: str, user_id: str, identity_id: str) -> IdentityState | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.identity_sk(identity_id))
        if item is None:
            return None
        data = from_item(item)
        return IdentityState(int(data["version"]), data.get("currentEntryId"))

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Page[MemoryEntry]:
        if query.limit < 1:
            raise ValidationFailed("The limit must be at least 1.", field="limit")
        pk = k.user_pk(tenant_id, user_id)
        accessed = query.order is RecallOrder.MOST_ACCESSED
        after = _decode_cursor(query.cursor, 3 if accessed else 2) if query.cursor else None
        want = query.limit + 1
        found: list[MemoryEntry] = []
        for status in dict.fromkeys(query.statuses):
            found.extend(self._list_status(pk, status.value, query, accessed, after, want))
        order = _sort_tuple_accessed if accessed else _sort_tuple_recent
        found.sort(key=order, reverse=True)
        items = found[: query.limit]
        more = len(found) > query.limit
        return Page(items, _encode_cursor(list(order(items[-1]))) if more and items else None)

    def _list_status(
        self,
        pk: str,
        status: str,
        query: EntryQuery,
        accessed: bool,
        after: list[Any] | None,
        want: int,
    ) -> list[MemoryEntry]:
        index, sk_attr = (k.LSI2, k.LSI2SK) if accessed else (k.LSI1, k.LSI1SK)
        names = {"#pk": k.PK, "#sk": sk_attr}
        values: dict[str, Any] = {":pk": attr(pk)}
        upper: str | None = None
        if after is None:
            condition = "#pk = :pk AND begins_with(#sk, :prefix)"
            values[":prefix"] = attr(k.join(status, ""))
        else:
            upper = k.access_sk(status, *after) if accessed else k.recency_sk(status, *after)
            # BETWEEN is inclusive: the cursor's own item is dropped below.
            condition = "#pk = :pk AND #sk BETWEEN :lo AND :hi"
            values[":lo"] = attr(k.join(status, ""))
            values[":hi"] = attr(upper)
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
            clause = _scope_filter(query.scope, names, values)
            filters.append(clause)
        params: dict[str, Any] = {
            "IndexName": index,
            "KeyConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": False,
            "ConsistentRead": True,
            # Filters drop items after the page is read: read a little more than needed,
            # and go on reading only if that was not enough.
            "Limit": min(want + max(want // 4, 5), 1000),
        }
        if filters:
            params["FilterExpression"] = " AND ".join(filters)
        out: list[MemoryEntry] = []
        for page in self.query_pages(**params):
            for item in page.get("Items", []):
                if upper is not None and item.get(sk_attr, {}).get("S") == upper:
                    continue
                entry = _entry(item)
                # The filter expression did this already; checked again because a wrong
                # answer here would show an expired or foreign entry.
                if not query.include_expired and entry.is_expired(query.now):
                    continue
                if query.scope is not None and not query.scope.allows(entry):
                    continue
                out.append(entry)
            if len(out) >= want:
                break
        return out[:want]

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        return self._count_live(k.user_pk(tenant_id, user_id), now)

    def _count_live(self, pk: str, now: datetime) -> int:
        total = 0
        for page in self.query_pages(
            IndexName=k.LSI3,
            KeyConditionExpression="#pk = :pk AND #sk > :after",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI3SK},
            ExpressionAttributeValues={":pk": attr(pk), ":after": attr(k.live_after(ts(now)))},
            Select="COUNT",
            ConsistentRead=True,
        ):
            total += int(page.get("Count", 0))
        return total

    # -- the atomic write ---------------------------------------------------------------
    def apply(self, changeset: Changeset, now: datetime) -> None:
        pk = k.user_pk(changeset.tenant_id, changeset.user_id)
        groups = self._plan(changeset, pk, now)
        if not groups:
            return
        cap = changeset.max_active
        # Removals first, so a change split over several transactions frees room
        # before it takes any.
        groups.sort(key=lambda g: g.delta)
        # Dream: the changed user is due, marked in the change's own transaction (or
        # right after it, if a split change left no room in its first one).
        due = mark_due_action(self.table_name, changeset, now)
        for chunk in _chunks(groups):
            delta = sum(g.delta for g in chunk)
            actions = [a for g in chunk for a in g.actions]
            limit = cap if delta > 0 else None
            counter = None
            if delta != 0:
                counter = len(actions)
                actions.append(self._count_action(pk, delta, limit))
            if due is not None and len(actions) < MAX_TRANSACTION_ITEMS:
                actions.append(due)
                due = None
            self._transact(pk, actions, counter, delta, limit, now)
            deferred = [h for g in chunk for h in g.deferred_history]
            if deferred:
                self.batch_put(deferred)
        if due is not None:
            self.call("UpdateItem", **due["Update"])
        for listener in self._listeners:
            listener()

    def _plan(self, changeset: Changeset, pk: str, now: datetime) -> list[_Group]:
        guards = {g.identity_id: g for g in changeset.guards}
        entries = list({e.id: e for e in changeset.entries}.values())
        # Entries of identities that did not exist cannot exist either; the others are
        # read to learn whether they were live (the live count moves by the difference).
        maybe = [
            e for e in entries if e.identity_id not in guards or guards[e.identity_id].expected_version is not None
        ]
        prior: dict[str, dict[str, Any]] = {}
        if maybe:
            keys = [key_of(pk, k.entry_sk(e.id)) for e in maybe]
            for item in self.batch_get(keys, projection=("id", "status", "expiresAt", "version")):
                data = from_item(item)
                prior[str(data["id"])] = data
        groups: dict[str, _Group] = {}
        for guard in changeset.guards:
            groups.setdefault(guard.identity_id, _Group()).actions.append(self._guard_action(changeset, pk, guard))
        now_ts = ts(now)
        for e in entries:
            group = groups.setdefault(e.identity_id, _Group())
            before = prior.get(e.id)
            was_live = before is not None and before.get("status") == _LIVE and _unexpired(before, now_ts)
            group.delta += int(e.is_live(now)) - int(was_live)
            put: dict[str, Any] = {"TableName": self.table_name, "Item": entry_item(e)}
            if before is None:
                put["ConditionExpression"] = "attribute_not_exists(#pk)"
                put["ExpressionAttributeNames"] = {"#pk": k.PK}
            else:
                put["ConditionExpression"] = "#version = :version"
                put["ExpressionAttributeNames"] = {"#version": "version"}
                put["ExpressionAttributeValues"] = {":version": attr(before["version"])}
            group.actions.append({"Put": put})
        by_identity: dict[str, list[HistoryRecord]] = {}
        for h in changeset.history:
            by_identity.setdefault(h.identity_id, []).append(h)
        for identity, records in by_identity.items():
            group = groups.setdefault(identity, _Group())
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
                            "Item": _history_item(pk, h),
                            "ConditionExpression": "attribute_not_exists(#pk)",
                            "ExpressionAttributeNames": {"#pk": k.PK},
                        }
                    }
                )
            group.deferred_history.extend(_history_item(pk, h) for h in records[room:])
        return list(groups.values())

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

    def _count_action(self, pk: str, delta: int, cap: int | None) -> dict[str, Any]:
        update: dict[str, Any] = {
            "TableName": self.table_name,
            "Key": key_of(pk, k.LIVE_COUNT_SK),
            "UpdateExpression": "SET #type = :type ADD #n :delta",
            "ExpressionAttributeNames": {"#n": "n", "#type": k.ITEM_TYPE},
            "ExpressionAttributeValues": {":delta": attr(delta), ":type": attr(ITEM_LIVE_COUNT)},
        }
        if cap is not None:
            update["ConditionExpression"] = "attribute_not_exists(#n) OR #n <= :room"
            update["ExpressionAttributeValues"][":room"] = attr(cap - delta)
        return {"Update": update}

    def _transact(
        self,
        pk: str,
        actions: list[dict[str, Any]],
        counter: int | None,
        delta: int,
        cap: int | None,
        now: datetime,
    ) -> None:
        if cap is not None and delta > cap:
            self._recount(pk, now, delta, cap)  # raises: no count can make room
        for _ in range(CAPACITY_ATTEMPTS):
            try:
                self.call("TransactWriteItems", TransactItems=actions)
                return
            except TransactionCancelled as exc:
                failed = [i for i, reason in enumerate(exc.reasons) if reason == "ConditionalCheckFailed"]
                capacity_only = cap is not None and counter is not None and failed == [counter]
                if not capacity_only:
                    raise VersionConflict(
                        "This memory was changed by another writer; retry.", reasons=sorted(set(exc.reasons))
                    ) from exc
            # The live count is an upper bound (entries that expired since are still in
            # it): recount before telling the caller the user is full.
            assert cap is not None
            self._recount(pk, now, delta, cap)
        raise VersionConflict("Too many concurrent writers for this user; retry.")

    def _recount(self, pk: str, now: datetime, delta: int, cap: int) -> None:
        item = self.get(pk, k.LIVE_COUNT_SK, projection=("n",))
        stored = None if item is None or "n" not in item else int(item["n"]["N"])
        live = self._count_live(pk, now)
        if live + delta > cap:
            raise _capacity_error(live, cap)
        update: dict[str, Any] = {
            "TableName": self.table_name,
            "Key": key_of(pk, k.LIVE_COUNT_SK),
            "UpdateExpression": "SET #n = :live, #type = :type",
            "ExpressionAttributeNames": {"#n": "n", "#type": k.ITEM_TYPE},
            "ExpressionAttributeValues": {":live": attr(live), ":type": attr(ITEM_LIVE_COUNT)},
        }
        # Only if no write moved the count since it was read; otherwise the next
        # attempt recounts again.
        if stored is None:
            update["ConditionExpression"] = "attribute_not_exists(#n)"
        else:
            update["ConditionExpression"] = "#n = :stored"
            update["ExpressionAttributeValues"][":stored"] = attr(stored)
        try:
            self.call("UpdateItem", **update)
        except ConditionFailed:
            return

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
            value = _decode_cursor(cursor, 1)[0]
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
        return Page(records, _encode_cursor([records[-1].version]) if more and records else None)

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

    def record_access(self, tenant_id: str, user_id: str, entry_ids: Sequence[str], at: datetime) -> None:
        if not entry_ids:
            return
        pk = k.user_pk(tenant_id, user_id)
        projection = ("id", "status", "updatedAt", "version", "accessCount")
        wanted = [key_of(pk, k.entry_sk(i)) for i in dict.fromkeys(entry_ids)]
        current: list[dict[str, Any] | None] = [from_item(it) for it in self.batch_get(wanted, projection=projection)]
        for state in current:
            for _ in range(5):
                if state is None:
                    break
                try:
                    self._bump_access(pk, state, at)
                    break
                except ConditionFailed:
                    # A write replaced the entry in between: count on its new state.
                    fresh = self.get(pk, k.entry_sk(str(state["id"])), projection=projection)
                    state = None if fresh is None else from_item(fresh)

    def _bump_access(self, pk: str, state: dict[str, Any], at: datetime) -> None:
        count = int(state.get("accessCount", 0)) + 1
        self.call(
            "UpdateItem",
            TableName=self.table_name,
            Key=key_of(pk, k.entry_sk(str(state["id"]))),
            UpdateExpression="SET #ac = :count, #la = :at, #sk2 = :sk2",
            # Not a versioned change, but the version pins status and updatedAt, which
            # the access sort key repeats.
            ConditionExpression="#version = :version",
            ExpressionAttributeNames={
                "#ac": "accessCount",
                "#la": "lastAccessedAt",
                "#sk2": k.LSI2SK,
                "#version": "version",
            },
            ExpressionAttributeValues={
                ":count": attr(count),
                ":at": attr(ts(at)),
                ":sk2": attr(k.access_sk(str(state["status"]), count, str(state["updatedAt"]), str(state["id"]))),
                ":version": attr(state["version"]),
            },
        )

    # -- profiles and settings ------------------------------------------------------------
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.PROFILE_SK)
        return None if item is None else profile_from_dict(from_item(item))

    def put_profile(self, profile: UserProfile) -> None:
        pk = k.user_pk(profile.tenant_id, profile.user_id)
        self.put(to_item({**profile_to_dict(profile), k.PK: pk, k.SK: k.PROFILE_SK, k.ITEM_TYPE: ITEM_PROFILE}))

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.SETTINGS_SK)
        return None if item is None else settings_from_dict(from_item(item))

    def put_settings(self, settings: UserSettings) -> None:
        pk = k.user_pk(settings.tenant_id, settings.user_id)
        self.put(to_item({**settings_to_dict(settings), k.PK: pk, k.SK: k.SETTINGS_SK, k.ITEM_TYPE: ITEM_SETTINGS}))

    # -- agent configuration ----------------------------------------------------------------
    def get_agent_config(self, tenant_id: str, agent_id: str) -> AgentConfig | None:
        item = self.get(k.tenant_pk(tenant_id), k.agent_config_sk(agent_id))
        return None if item is None else AgentConfig.model_validate_json(item["body"]["S"])

    def put_agent_config(self, tenant_id: str, agent_id: str, config: AgentConfig) -> None:
        self.put(
            to_item(
                {
                    k.PK: k.tenant_pk(tenant_id),
                    k.SK: k.agent_config_sk(agent_id),
                    k.ITEM_TYPE: ITEM_AGENT_CONFIG,
                    "tenantId": tenant_id,
                    "agentId": agent_id,
                    # pydantic owns this shape; a JSON string keeps it exact (no Decimals).
                    "body": config.model_dump_json(by_alias=True),
                }
            )
        )

    # -- API keys ---------------------------------------------------------------------------
    def put_api_key(self, record: ApiKeyRecord) -> None:
        self.put(_api_key_item(record))

    def get_api_key(self, key_id: str) -> ApiKeyRecord | None:
        item = self.get(k.api_key_pk(key_id), k.API_KEY_SK)
        return None if item is None else key_from_dict(from_item(item))

    def list_api_keys(self, tenant_id: str | None = None) -> list[ApiKeyRecord]:
        names = {"#pk": k.GSI1PK}
        values: dict[str, Any] = {":pk": attr(k.API_KEYS_GSI_PK)}
        condition = "#pk = :pk"
        if tenant_id is not None:
            names["#sk"] = k.GSI1SK
            values[":prefix"] = attr(k.join(k.escape(tenant_id), ""))
            condition += " AND begins_with(#sk, :prefix)"
        records = [
            key_from_dict(from_item(item))
            for item in self.query_items(
                IndexName=k.GSI1,
                KeyConditionExpression=condition,
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        ]
        return sorted(records, key=lambda r: r.key_id)

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        try:
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(k.api_key_pk(key_id), k.API_KEY_SK),
                UpdateExpression="SET #revoked = :at",
                ConditionExpression="attribute_exists(#pk) AND attribute_not_exists(#revoked)",
                ExpressionAttributeNames={"#revoked": "revokedAt", "#pk": k.PK},
                ExpressionAttributeValues={":at": attr(ts(at))},
            )
        except ConditionFailed:
            return False
        return True

    # -- write rate per turn ------------------------------------------------------------------
    def add_turn_writes(
        self,
        tenant_id: str,
        agent_id: str,
        turn_id: str,
        count: int,
        limit: int,
        expires_at: datetime,
    ) -> int:
        pk = k.turn_pk(tenant_id, agent_id, turn_id)
        stale = ts(expires_at - TURN_STALE_AFTER)
        for _ in range(5):
            if count > limit:
                raise _too_many_writes(count, limit, turn_id)
            try:
                response = self.call(
                    "UpdateItem",
                    TableName=self.table_name,
                    Key=key_of(pk, k.TURN_SK),
                    UpdateExpression="SET #exp = :exp, #ttl = :ttl, #type = :type ADD #c :n",
                    ConditionExpression="attribute_not_exists(#c) OR (#exp >= :stale AND #c <= :room)",
                    ExpressionAttributeNames={"#c": "count", "#exp": "expiresAt", "#ttl": k.TTL, "#type": k.ITEM_TYPE},
                    ExpressionAttributeValues={
                        ":n": attr(count),
                        ":exp": attr(ts(expires_at)),
                        ":ttl": attr(epoch_seconds(expires_at + TURN_STALE_AFTER)),
                        ":type": attr(ITEM_TURN),
                        ":stale": attr(stale),
                        ":room": attr(limit - count),
                    },
                    ReturnValues="UPDATED_NEW",
                )
                return int(response["Attributes"]["count"]["N"])
            except ConditionFailed:
                pass
            item = self.get(pk, k.TURN_SK)
            if item is None:
                continue
            data = from_item(item)
            if str(data.get("expiresAt", "")) >= stale:
                raise _too_many_writes(int(data["count"]) + count, limit, turn_id)
            # A long-closed turn with the same id: start it afresh.
            try:
                self.put(
                    to_item(
                        {
                            k.PK: pk,
                            k.SK: k.TURN_SK,
                            k.ITEM_TYPE: ITEM_TURN,
                            "count": count,
                            "expiresAt": ts(expires_at),
                            k.TTL: epoch_seconds(expires_at + TURN_STALE_AFTER),
                        }
                    ),
                    ConditionExpression="#exp = :old",
                    ExpressionAttributeNames={"#exp": "expiresAt"},
                    ExpressionAttributeValues={":old": attr(data["expiresAt"])},
                )
                return count
            except ConditionFailed:
                continue
        raise VersionConflict("Too many concurrent writes in this turn; retry.", turnId=turn_id)

    # -- erasure --------------------------------------------------------------------------------
    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        pk = k.user_pk(tenant_id, user_id)
        counts = dict.fromkeys(_ERASED_AS.values(), 0)
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
                return counts
            self.batch_delete([{k.PK: it[k.PK], k.SK: it[k.SK]} for it in batch])
            for it in batch:
                kind = it.get(k.ITEM_TYPE, {}).get("S", "")
                if kind in _ERASED_AS:
                    counts[_ERASED_AS[kind]] += 1
                elif kind != ITEM_LIVE_COUNT:
                    counts[kind or "other"] = counts.get(kind or "other", 0) + 1


# -- items ------------------------------------------------------------------------------------


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
            k.LSI2SK: k.access_sk(e.status.value, e.access_count, updated, e.id),
        }
    )
    if e.status is Status.ACTIVE:
        data[k.LSI3SK] = k.expiry_sk(data["expiresAt"], e.id)
    if e.expires_at is not None:
        data[k.TTL] = epoch_seconds(e.expires_at)
    return to_item(data)


def _entry(item: Item) -> MemoryEntry:
    return entry_from_dict(from_item(item))


def _history_item(pk: str, h: HistoryRecord) -> Item:
    return to_item(
        {
            **history_to_dict(h),
            k.PK: pk,
            k.SK: k.history_sk(h.identity_id, h.version),
            k.ITEM_TYPE: ITEM_HISTORY,
        }
    )


def _api_key_item(record: ApiKeyRecord) -> Item:
    return to_item(
        {
            **key_to_dict(record),
            k.PK: k.api_key_pk(record.key_id),
            k.SK: k.API_KEY_SK,
            k.ITEM_TYPE: ITEM_API_KEY,
            k.GSI1PK: k.API_KEYS_GSI_PK,
            k.GSI1SK: k.api_key_listing_sk(record.tenant_id, record.key_id),
        }
    )


def _unexpired(data: dict[str, Any], now_ts: str) -> bool:
    expires = data.get("expiresAt")
    return expires is None or str(expires) > now_ts


def _scope_filter(scope: VisibilityScope, names: dict[str, str], values: dict[str, Any]) -> str:
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


def _chunks(groups: Iterable[_Group]) -> list[list[_Group]]:
    """Groups packed into transactions, one slot per transaction kept for the counter."""
    chunks: list[list[_Group]] = []
    current: list[_Group] = []
    size = 0
    for g in groups:
        if current and size + len(g.actions) > MAX_TRANSACTION_ITEMS - 1:
            chunks.append(current)
            current, size = [], 0
        current.append(g)
        size += len(g.actions)
    if current:
        chunks.append(current)
    return chunks


def _sort_tuple_recent(e: MemoryEntry) -> tuple[Any, ...]:
    return (ts(e.updated_at), e.id)


def _sort_tuple_accessed(e: MemoryEntry) -> tuple[Any, ...]:
    return (e.access_count, ts(e.updated_at), e.id)


def _capacity_error(live: int, cap: int) -> CapacityReached:
    return CapacityReached(
        f"This user already has {live} memories, the most this agent allows ({cap}).",
        maxEntriesPerUser=cap,
    )


def _too_many_writes(total: int, limit: int, turn_id: str) -> GuardrailViolation:
    return GuardrailViolation(
        "too_many_writes",
        f"This turn would make {total} memory writes; this agent allows at most {limit} per turn.",
        maxWritesPerTurn=limit,
        turnId=turn_id,
    )


# -- cursors ------------------------------------------------------------------------------------


def _encode_cursor(values: list[Any]) -> str:
    raw = json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str, arity: int) -> list[Any]:
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
