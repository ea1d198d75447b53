"""DynamoDB: the memory repository, and ``DynamoStore``, every repository port in one.

One table, keys per ``engram.adapters.dynamodb.keys`` and ``docs/dynamodb.md``; each
port's repository is a ``DynamoBase`` over it (profiles and agent configuration in
``users.py``, API keys in ``api_keys.py``, turn counters in ``turns.py``, erasure in
``erasure.py``; memory entries here). ``DynamoStore`` is their union for the services
that take the whole ``Store``. A changeset is one ``TransactWriteItems``: a version
condition on each identity item, the entry and history puts, and one update of the
user's state item (live count under the capacity's condition, dream's due mark, the
erasure condition). DynamoDB deletes expired items late (moto never does), so every
listing and count filters on expiry itself.
"""

from __future__ import annotations

import base64
import contextlib
import json
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Self

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.api_keys import DynamoKeys
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
from engram.adapters.dynamodb.dream_state import DUE_SK, ITEM_DUE, due_pk, due_sk, is_marking_due, shard_of
from engram.adapters.dynamodb.erasure import DynamoErasure
from engram.adapters.dynamodb.items import (
    ITEM_ENTRY,
    ITEM_HISTORY,
    ITEM_IDENTITY,
    epoch_seconds,
)
from engram.adapters.dynamodb.turns import DynamoTurnCounter
from engram.adapters.dynamodb.user_state import (
    BOUNDED,
    BUCKET_PREFIX,
    BUCKETS_SETTLED,
    Tally,
    bounded,
    bucket_of,
    entry_bounded,
    entry_bucket,
)
from engram.adapters.dynamodb.users import DynamoAgentConfigs, DynamoProfiles
from engram.domain.agent_config import RecallOrder
from engram.domain.errors import CapacityReached, UserErased, ValidationFailed, VersionConflict
from engram.domain.models import (
    Changeset,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Page,
    Status,
    UserSettings,
    Visibility,
)
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import (
    entry_from_dict,
    entry_to_dict,
    history_from_dict,
    history_to_dict,
    settings_from_dict,
    ts,
)
from engram.ports import EntryQuery, IdentityState

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from engram.settings import Settings

MAX_TRANSACTION_ITEMS = 100
# In the cloud one recall in this many records access statistics (weighted by it):
# docs/dynamodb.md, "Access statistics".
ACCESS_SAMPLE_EVERY = 64
# An unsampled recall still records an entry whose last access is older than this.
ACCESS_REFRESH = timedelta(days=1)
# How often a capacity-checked transaction recounts and retries before giving the
# caller a version conflict to retry (only under heavy contention on one user).
CAPACITY_ATTEMPTS = 4
# The user's state item (docs/dynamodb.md, "Transactions" and "Capacity"): dream's due
# record (dream_state.py), which every change updates anyway, also holds the live count
# and vouches for erasure. Count: ``n`` live entries (an upper bound: expired ones are
# still in it), ``exact`` set once a recount settled it (then n is exact until
# ``nextExpiry``), and ``nextExpiry``, no later than the earliest expiry counted.
STATE_SK = DUE_SK
COUNTER_EXACT = "exact"
COUNTER_NEXT_EXPIRY = "nextExpiry"
# An origin at or after which no erasure of the user happened (see _state_actions).
CLEAR_SINCE = "clearSince"
# Set on the history version a guard wrote: it holds the identity's state (version,
# ``currentEntryId``), so no identity item is written (docs/dynamodb.md, "Transactions").
IDENTITY_STATE = "identityState"
_TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
_LIVE = Status.ACTIVE.value


@dataclass
class _Group:
    """Everything a changeset writes for one identity: applied in one transaction."""

    actions: list[dict[str, Any]] = field(default_factory=list)
    deferred_history: list[Item] = field(default_factory=list)
    delta: int = 0
    # How the live entries move between visibility buckets, and the bounded ones.
    buckets: dict[str, int] = field(default_factory=dict)
    bounded: int = 0


@dataclass(frozen=True)
class _Moves:
    """A chunk's changes to the visibility buckets and the bounded count."""

    buckets: dict[str, int]
    bounded: int

    @classmethod
    def of(cls, chunk: Iterable[_Group]) -> _Moves:
        buckets: dict[str, int] = {}
        bounded = 0
        for g in chunk:
            bounded += g.bounded
            for name, n in g.buckets.items():
                buckets[name] = buckets.get(name, 0) + n
        return cls({name: n for name, n in buckets.items() if n}, bounded)


@dataclass(frozen=True)
class _StateChange:
    """What a changeset tells the user's state item, whatever the chunk."""

    tenant_id: str
    user_id: str
    now: str
    marks_due: bool
    earliest_expiry: str | None
    origin: str | None


class DynamoEntries(DynamoBase):
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

    # -- memory entries ---------------------------------------------------------------
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
        filters = _listing_filters(query, names, values)
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
                if _listed(entry, query):
                    out.append(entry)
            if not accessed and len(out) >= want:
                break
        if not accessed:
            return out[:want]
        return _most_accessed(out, after, want)

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        """One read of the user's state item while its count is exact; a recount when an
        expiry has passed since it was last settled, or the item has no settled count
        (a new user's, or one from a table of an older version)."""
        pk = k.user_pk(tenant_id, user_id)
        item = self.get(pk, STATE_SK)
        data = None if item is None else from_item(item)
        if data is not None and _counter_exact(data, ts(now)):
            return max(0, int(data["n"]))
        return self._settle(pk, now, data).live

    def count_visible(self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime) -> int | None:
        """The live entries ``scope`` sees, from the buckets of the state item: one
        eventually consistent ``GetItem`` (half a read unit; a count may lag a write by
        DynamoDB's usual second) while they are settled, a recount otherwise. None when
        only a listing can tell (entries whose validity is bounded: see user_state.py)."""
        pk = k.user_pk(tenant_id, user_id)
        return self._visible(pk, scope, now, self._state(pk, consistent=False))

    def settings_and_count(
        self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime
    ) -> tuple[UserSettings | None, int | None]:
        """The settings and ``count_visible`` from one eventually consistent BatchGetItem
        of both items (half a read unit each) while the buckets are settled.

        Why eventual consistency is safe here: the answer is a number, never a memory,
        and every read that returns memories reads the settings consistently. At worst a
        count in the second after a change of settings applies the previous policy (it
        may show an agent how many memories there were just after the user turned memory
        off), and a count may lag a write by as long: the count already read the state
        item so. An erasure deletes both items; a count racing it may show the number
        from before, as a count started a moment earlier would have."""
        pk = k.user_pk(tenant_id, user_id)
        found = {
            it[k.SK]["S"]: from_item(it)
            for it in self.batch_get([key_of(pk, k.SETTINGS_SK), key_of(pk, STATE_SK)], consistent=False)
        }
        settings = found.get(k.SETTINGS_SK)
        data = found.get(STATE_SK)
        return (
            None if settings is None else settings_from_dict(settings),
            self._visible(pk, scope, now, data),
        )

    def _visible(self, pk: str, scope: VisibilityScope, now: datetime, data: dict[str, Any] | None) -> int | None:
        settled = data is not None and _counter_exact(data, ts(now)) and int(data[COUNTER_EXACT]) >= BUCKETS_SETTLED
        if data is not None and settled:
            tally = Tally.of_state(data)
        else:
            tally = self._settle(pk, now, self._state(pk, consistent=True))
        return tally.visible_to(scope)

    def _settle(self, pk: str, now: datetime, seen: dict[str, Any] | None, *, create: bool = False) -> Tally:
        """Count the live entries (by bucket), and store the counts and the next expiry in
        the state item unless a write moved it since ``seen`` was read; the tally either
        way. A user with no state item and nothing live gets none (a count is not a
        write), unless ``create``: the caller is about to write."""
        tally = self._exact_live(pk, now)
        if seen is None and tally.live == 0 and not create:
            return tally
        names = {
            "#n": "n",
            "#type": k.ITEM_TYPE,
            "#exact": COUNTER_EXACT,
            "#nx": COUNTER_NEXT_EXPIRY,
            "#w": BOUNDED,
        }
        values: dict[str, Any] = {
            ":live": attr(tally.live),
            ":type": attr(ITEM_DUE),
            ":exact": attr(BUCKETS_SETTLED),
            ":w": attr(tally.bounded),
        }
        sets = ["#n = :live", "#type = :type", "#exact = :exact", "#w = :w"]
        removes = []
        for i, (bucket, n) in enumerate(sorted(tally.buckets.items())):
            names[f"#b{i}"] = bucket
            values[f":b{i}"] = attr(n)
            sets.append(f"#b{i} = :b{i}")
        # Buckets that emptied since the last recount leave the item (its size is paid on
        # every write).
        gone = [b for b in (seen or {}) if b.startswith(BUCKET_PREFIX) and b not in tally.buckets]
        for i, bucket in enumerate(gone):
            names[f"#g{i}"] = bucket
            removes.append(f"#g{i}")
        if tally.next_expiry is None:
            removes.append("#nx")
        else:
            sets.append("#nx = :nx")
            values[":nx"] = attr(tally.next_expiry)
        expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        conditions = []
        if seen is None or "n" not in seen:
            conditions.append("attribute_not_exists(#n)")
        else:
            conditions.append("#n = :seenN")
            values[":seenN"] = attr(seen["n"])
        if seen is None or COUNTER_NEXT_EXPIRY not in seen:
            conditions.append("attribute_not_exists(#nx)")
        else:
            conditions.append("#nx = :seenNx")
            values[":seenNx"] = attr(seen[COUNTER_NEXT_EXPIRY])
        # A supersede can move an entry between buckets and leave n as it was; every
        # change but dream's moves ``activity`` (and dream's move n).
        names["#act"] = "activity"
        if seen is None or "activity" not in seen:
            conditions.append("attribute_not_exists(#act)")
        else:
            conditions.append("#act = :seenAct")
            values[":seenAct"] = attr(seen["activity"])
        # A write moved the item meanwhile: the next count settles it.
        with contextlib.suppress(ConditionFailed):
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(pk, STATE_SK),
                UpdateExpression=expression,
                ConditionExpression=" AND ".join(conditions),
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        return tally

    def _exact_live(self, pk: str, now: datetime) -> Tally:
        """The live entries (LSI1, active ones, consistent) by bucket, and the earliest
        expiry to come."""
        now_ts = ts(now)
        tally = Tally()
        wanted = ("expiresAt", "visibility", "sourceAgentId", "groupIds", "validFrom", "validTo")
        names = {f"#p{i}": name for i, name in enumerate(wanted)}
        for item in self.query_items(
            IndexName=k.LSI1,
            KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI1SK, **names},
            ExpressionAttributeValues={":pk": attr(pk), ":prefix": attr(k.join(_LIVE, ""))},
            ProjectionExpression=", ".join(names),
            ConsistentRead=True,
        ):
            data = from_item(item)
            expires = data.get("expiresAt")
            if expires is not None and str(expires) <= now_ts:
                continue
            tally.add(data, now_ts)
            if expires is not None:
                e = str(expires)
                tally.next_expiry = e if tally.next_expiry is None else min(tally.next_expiry, e)
        return tally

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
        expiries = [ts(e.expires_at) for e in changeset.entries if e.expires_at is not None and e.is_live(now)]
        change = _StateChange(
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
        chunks = _chunks(groups)
        for i, chunk in enumerate(chunks):
            delta = sum(g.delta for g in chunk)
            actions = [a for g in chunk for a in g.actions]
            moves = _Moves.of(chunk)
            self._transact(pk, actions, change, seen, delta, cap if delta > 0 else None, now, moves)
            deferred = [h for g in chunk for h in g.deferred_history]
            if deferred:
                self.batch_put(deferred)
            if i + 1 < len(chunks):
                seen = self._state(pk, consistent=True)  # this change moved it
        for listener in self._listeners:
            listener()

    def _state(self, pk: str, *, consistent: bool) -> dict[str, Any] | None:
        item = self.get(pk, STATE_SK, consistent=consistent)
        return None if item is None else from_item(item)

    def _plan(self, changeset: Changeset, pk: str, now: datetime) -> list[_Group]:
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
        groups: dict[str, _Group] = {}
        for guard in changeset.guards:
            group = groups.setdefault(guard.identity_id, _Group())
            # The optimistic lock of an identity is the put of its next history version
            # (``attribute_not_exists``): of two writers that read the same version, one
            # puts it and the other fails, as with a version condition on an identity
            # item, without writing one. A guard with no such version in the change (a
            # write's idempotency mark, an import of several versions) keeps the item.
            if not _history_locks(guard, by_identity.get(guard.identity_id, ())):
                group.actions.append(self._guard_action(changeset, pk, guard))
        for e in entries:
            self._entry_put(groups.setdefault(e.identity_id, _Group()), e, prior.get(e.id), now)
        for identity, records in by_identity.items():
            self._history_puts(groups.setdefault(identity, _Group()), pk, identity, records, guards.get(identity))
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

    def _entry_put(self, group: _Group, e: MemoryEntry, before: dict[str, Any] | None, now: datetime) -> None:
        """The entry's put, conditioned on the version read, and how the counts move."""
        now_ts = ts(now)
        was_live = before is not None and before.get("status") == _LIVE and _unexpired(before, now_ts)
        group.delta += int(e.is_live(now)) - int(was_live)
        if before is not None and was_live:
            _move(group, entry_bucket(before), -1, -int(entry_bounded(before, now_ts)))
        if e.is_live(now):
            after = bucket_of(e.visibility.value, e.source_agent_id, e.group_ids)
            _move(group, after, 1, int(bounded(_ts_opt(e.valid_from), _ts_opt(e.valid_to), now_ts)))
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
        self, group: _Group, pk: str, identity: str, records: list[HistoryRecord], guard: IdentityGuard | None
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
                        "Item": _history_item(pk, h, guard),
                        "ConditionExpression": "attribute_not_exists(#pk)",
                        "ExpressionAttributeNames": {"#pk": k.PK},
                    }
                }
            )
        group.deferred_history.extend(_history_item(pk, h) for h in records[room:])

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

    def _not_erased_since(self, tenant_id: str, user_id: str, origin: str) -> dict[str, Any]:
        return {
            "ConditionCheck": {
                "TableName": self.table_name,
                "Key": key_of(k.erasure_pk(tenant_id, user_id), k.ERASED_SK),
                "ConditionExpression": "attribute_not_exists(#at) OR #at < :origin",
                "ExpressionAttributeNames": {"#at": "erasedAt"},
                "ExpressionAttributeValues": {":origin": attr(origin)},
            }
        }

    def _state_actions(
        self,
        pk: str,
        change: _StateChange,
        seen: dict[str, Any] | None,
        delta: int,
        cap: int | None,
        moves: _Moves,
    ) -> list[dict[str, Any]]:
        """The update of the user's state item that goes into a change's transaction (and
        the erasure check when the item cannot vouch for it), built from ``seen``: its
        conditions fail if the item moved since, and the adapter then builds it again.

        - live count: ``ADD n``; under a cap, only while the count is settled and leaves
          room. An added entry expiring before ``nextExpiry`` lowers it, conditioned on
          the value seen.
        - dream: ``activity`` goes up by one; ``dueAt`` and the GSI2 keys are set only if
          the user was not due yet, so a busy user's GSI2 entry is not deleted and put
          again on every write (a changed index key costs both).
        - erasure: a change whose cause arrived at ``origin`` commits only if the user was
          not erased at or after it. ``clearSince`` vouches for that: it is set only by a
          change whose check on the erasure mark passed, and an erasure deletes the item
          with the rest of the partition. While it is at or before ``origin`` a condition
          on it replaces the check, a write unit less on each side of the transaction.
        """
        seen = seen or {}
        quiet = delta == 0 and not moves.buckets and not moves.bounded and not change.marks_due
        if quiet and change.origin is None and not _lowers_expiry(change, seen):
            return []  # nothing for the state item to learn or vouch for
        e = _Expression(
            names={"#type": k.ITEM_TYPE, "#t": "tenantId", "#u": "userId"},
            values={":type": attr(ITEM_DUE), ":t": attr(change.tenant_id), ":u": attr(change.user_id)},
            sets=["#type = :type", "#t = :t", "#u = :u"],
        )
        _count_clauses(e, delta, cap)
        _bucket_clauses(e, moves)
        if _lowers_expiry(change, seen):
            _expiry_clauses(e, change, seen)
        if change.marks_due:
            _due_clauses(e, change, seen)
        check: dict[str, Any] | None = None
        if change.origin is not None:
            e.names["#clear"] = CLEAR_SINCE
            e.values[":origin"] = attr(change.origin)
            clear = seen.get(CLEAR_SINCE)
            if clear is not None and str(clear) <= change.origin:
                e.conditions.append("#clear <= :origin")
            else:
                check = self._not_erased_since(change.tenant_id, change.user_id, change.origin)
                e.sets.append("#clear = :origin")
        update: dict[str, Any] = {
            "TableName": self.table_name,
            "Key": key_of(pk, STATE_SK),
            "UpdateExpression": "SET " + ", ".join(e.sets) + (" ADD " + ", ".join(e.adds) if e.adds else ""),
            "ExpressionAttributeNames": e.names,
            "ExpressionAttributeValues": e.values,
        }
        if e.conditions:
            update["ConditionExpression"] = " AND ".join(e.conditions)
        return [check, {"Update": update}] if check is not None else [{"Update": update}]

    def _transact(
        self,
        pk: str,
        actions: list[dict[str, Any]],
        change: _StateChange,
        seen: dict[str, Any] | None,
        delta: int,
        cap: int | None,
        now: datetime,
        moves: _Moves,
    ) -> None:
        if cap is not None and delta > cap:
            self._recount(pk, now, delta, cap)  # raises: no count can make room
        if cap is not None and not _counter_exact(seen or {}, change.now):
            seen = self._settled(pk, now, delta, cap)
        for _ in range(CAPACITY_ATTEMPTS):
            state = self._state_actions(pk, change, seen, delta, cap, moves)
            try:
                self.call("TransactWriteItems", TransactItems=actions + state)
                return
            except TransactionCancelled as exc:
                failed = {i for i, reason in enumerate(exc.reasons) if reason == "ConditionalCheckFailed"}
                if len(state) == 2 and len(actions) in failed:
                    raise UserErased("This user was erased after this write began; it was not applied.") from exc
                if not failed or min(failed) < len(actions):
                    raise VersionConflict(
                        "This memory was changed by another writer; retry.", reasons=sorted(set(exc.reasons))
                    ) from exc
            # Only the state item's conditions failed: another change or a dream pass
            # moved it, an erasure deleted it, or the count is near the cap (it is an
            # upper bound: entries that expired since are still in it). Read it again,
            # settle the count if the cap needs it, and build the update anew.
            seen = self._state(pk, consistent=True)
            if cap is not None and not (_counter_exact(seen or {}, change.now) and _room(seen, delta, cap)):
                seen = self._settled(pk, now, delta, cap)
        raise VersionConflict("Too many concurrent writers for this user; retry.")

    def _settled(self, pk: str, now: datetime, delta: int, cap: int) -> dict[str, Any] | None:
        """Settle the count (raising if the change does not fit) and read the item again."""
        self._recount(pk, now, delta, cap)
        return self._state(pk, consistent=True)

    def _recount(self, pk: str, now: datetime, delta: int, cap: int) -> None:
        live = self._settle(pk, now, self._state(pk, consistent=True), create=True).live
        if live + delta > cap:
            raise _capacity_error(live, cap)

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


def _history_item(pk: str, h: HistoryRecord, guard: IdentityGuard | None = None) -> Item:
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


def _history_locks(guard: IdentityGuard, records: Iterable[HistoryRecord]) -> bool:
    """Is the put of ``guard``'s next history version its lock? Only for a step of one
    version: the version before it exists for every identity that exists."""
    step = guard.new_version == (guard.expected_version or 0) + 1
    return step and any(h.version == guard.new_version for h in records)


def _listing_filters(query: EntryQuery, names: dict[str, str], values: dict[str, Any]) -> list[str]:
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


def _listed(entry: MemoryEntry, query: EntryQuery) -> bool:
    # The filter expression did this already; checked again because a wrong answer here
    # would show an expired or foreign entry.
    if not query.include_expired and entry.is_expired(query.now):
        return False
    return query.scope is None or query.scope.allows(entry)


def _most_accessed(entries: list[MemoryEntry], after: list[Any] | None, want: int) -> list[MemoryEntry]:
    """Most accessed first: no index keeps that order any more (an access count in a key
    would rewrite an index entry on every recall), so every entry of the status is read and
    sorted here. Listings in this order are rare; recall never uses it."""
    if after is not None:
        bound = tuple(after)
        entries = [e for e in entries if _sort_tuple_accessed(e) < bound]
    entries.sort(key=_sort_tuple_accessed, reverse=True)
    return entries[:want]


@dataclass
class _Expression:
    """An update of the state item being built: attribute names and values, SET and ADD
    clauses, and the conditions it commits under."""

    names: dict[str, str]
    values: dict[str, Any]
    sets: list[str]
    adds: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)


def _count_clauses(e: _Expression, delta: int, cap: int | None) -> None:
    if delta != 0:
        e.names["#n"] = "n"
        e.values[":delta"] = attr(delta)
        e.adds.append("#n :delta")
    if cap is not None:
        # Only a settled count is trusted with the cap: a failed condition makes the
        # adapter settle it.
        e.names |= {"#n": "n", "#exact": COUNTER_EXACT}
        e.values[":room"] = attr(cap - delta)
        e.conditions.append("(attribute_exists(#exact) AND #n <= :room)")


def _bucket_clauses(e: _Expression, moves: _Moves) -> None:
    # The visibility buckets move with n (user_state.py); a supersede within one bucket
    # moves none.
    for i, (bucket, n) in enumerate(sorted(moves.buckets.items())):
        e.names[f"#b{i}"] = bucket
        e.values[f":b{i}"] = attr(n)
        e.adds.append(f"#b{i} :b{i}")
    if moves.bounded:
        e.names["#w"] = BOUNDED
        e.values[":w"] = attr(moves.bounded)
        e.adds.append("#w :w")


def _lowers_expiry(change: _StateChange, seen: dict[str, Any]) -> bool:
    earliest, seen_nx = change.earliest_expiry, seen.get(COUNTER_NEXT_EXPIRY)
    return earliest is not None and (seen_nx is None or earliest < str(seen_nx))


def _expiry_clauses(e: _Expression, change: _StateChange, seen: dict[str, Any]) -> None:
    seen_nx = seen.get(COUNTER_NEXT_EXPIRY)
    e.names["#nx"] = COUNTER_NEXT_EXPIRY
    e.values[":nx"] = attr(change.earliest_expiry)
    e.sets.append("#nx = :nx")
    if seen_nx is None:
        e.conditions.append("attribute_not_exists(#nx)")
    else:
        e.values[":seenNx"] = attr(seen_nx)
        e.conditions.append("#nx = :seenNx")


def _due_clauses(e: _Expression, change: _StateChange, seen: dict[str, Any]) -> None:
    e.names["#activity"] = "activity"
    e.names["#due"] = "dueAt"
    e.values[":one"] = attr(1)
    e.values[":now"] = attr(change.now)
    e.adds.append("#activity :one")
    due = seen.get("dueAt")
    if due is not None and str(due) <= change.now:
        e.conditions.append("#due <= :now")  # still due when this commits
    else:
        e.names |= {"#g2pk": k.GSI2PK, "#g2sk": k.GSI2SK}
        e.values[":g2pk"] = attr(due_pk(shard_of(change.tenant_id, change.user_id)))
        e.values[":g2sk"] = attr(due_sk(change.now, change.tenant_id, change.user_id))
        e.sets += ["#due = :now", "#g2pk = :g2pk", "#g2sk = :g2sk"]


def _counter_exact(data: dict[str, Any], now_ts: str) -> bool:
    if "n" not in data or COUNTER_EXACT not in data:
        return False
    next_expiry = data.get(COUNTER_NEXT_EXPIRY)
    return next_expiry is None or str(next_expiry) > now_ts


def _move(group: _Group, bucket: str, n: int, bounded: int) -> None:
    group.buckets[bucket] = group.buckets.get(bucket, 0) + n
    group.bounded += bounded


def _ts_opt(moment: datetime | None) -> str | None:
    return None if moment is None else ts(moment)


def _room(seen: dict[str, Any] | None, delta: int, cap: int) -> bool:
    return seen is not None and int(seen.get("n", 0)) + delta <= cap


def _unexpired(data: dict[str, Any], now_ts: str) -> bool:
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


def _chunks(groups: Iterable[_Group]) -> list[list[_Group]]:
    """Groups packed into transactions, slots kept for the counter and the erasure check."""
    chunks: list[list[_Group]] = []
    current: list[_Group] = []
    size = 0
    for g in groups:
        if current and size + len(g.actions) > MAX_TRANSACTION_ITEMS - 2:
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
        f"This user is at the most memories this agent allows ({cap}).",
        maxEntriesPerUser=cap,
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


class DynamoStore(DynamoEntries, DynamoProfiles, DynamoAgentConfigs, DynamoKeys, DynamoTurnCounter, DynamoErasure):
    """Every repository port over the one table (the services' ``Store``); no behaviour of its own."""
