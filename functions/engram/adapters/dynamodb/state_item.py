"""The user's state item in the table (docs/dynamodb.md, "Transactions" and "Capacity").

Dream's due record (``dream_state.py``), which every change updates anyway, also holds
the live count, its visibility buckets (rules in ``user_state.py``) and erasure's
stand-in. ``DynamoUserState`` reads and recounts it, and builds the update that goes into
each change's transaction, under the capacity's condition; ``DynamoEntries``
(``entries.py``) plans the rest of the change.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import (
    ConditionFailed,
    DynamoBase,
    Item,
    TransactionCancelled,
    attr,
    from_item,
    key_of,
)
from engram.adapters.dynamodb.dream_state import DUE_SK, ITEM_DUE, due_pk, due_sk, shard_of
from engram.adapters.dynamodb.user_state import BOUNDED, BUCKET_PREFIX, BUCKETS_SETTLED, Tally
from engram.domain.errors import CapacityReached, UserErased, VersionConflict
from engram.domain.models import Status, UserSettings
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import settings_from_dict, ts

MAX_TRANSACTION_ITEMS = 100
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
LIVE = Status.ACTIVE.value


@dataclass
class Group:
    """Everything a changeset writes for one identity: applied in one transaction."""

    actions: list[dict[str, Any]] = field(default_factory=list)
    deferred_history: list[Item] = field(default_factory=list)
    delta: int = 0
    # How the live entries move between visibility buckets, and the bounded ones.
    buckets: dict[str, int] = field(default_factory=dict)
    bounded: int = 0


@dataclass(frozen=True)
class Moves:
    """A chunk's changes to the visibility buckets and the bounded count."""

    buckets: dict[str, int]
    bounded: int

    @classmethod
    def of(cls, chunk: Iterable[Group]) -> Moves:
        buckets: dict[str, int] = {}
        bounded = 0
        for g in chunk:
            bounded += g.bounded
            for name, n in g.buckets.items():
                buckets[name] = buckets.get(name, 0) + n
        return cls({name: n for name, n in buckets.items() if n}, bounded)


@dataclass(frozen=True)
class StateChange:
    """What a changeset tells the user's state item, whatever the chunk."""

    tenant_id: str
    user_id: str
    now: str
    marks_due: bool
    earliest_expiry: str | None
    origin: str | None


class DynamoUserState(DynamoBase):
    """The user's state item: the live count and its buckets, the due mark, the
    erasure stand-in, and the update each change's transaction makes to it."""

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        """One read of the user's state item while its count is exact; a recount when an
        expiry has passed since it was last settled, or the item has no settled count
        (a new user's, or one from a table of an older version)."""
        pk = k.user_pk(tenant_id, user_id)
        item = self.get(pk, STATE_SK)
        data = None if item is None else from_item(item)
        if data is not None and counter_exact(data, ts(now)):
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
        settled = data is not None and counter_exact(data, ts(now)) and int(data[COUNTER_EXACT]) >= BUCKETS_SETTLED
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
            ExpressionAttributeValues={":pk": attr(pk), ":prefix": attr(k.join(LIVE, ""))},
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

    def _state(self, pk: str, *, consistent: bool) -> dict[str, Any] | None:
        item = self.get(pk, STATE_SK, consistent=consistent)
        return None if item is None else from_item(item)

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
        change: StateChange,
        seen: dict[str, Any] | None,
        delta: int,
        cap: int | None,
        moves: Moves,
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
        change: StateChange,
        seen: dict[str, Any] | None,
        delta: int,
        cap: int | None,
        now: datetime,
        moves: Moves,
    ) -> None:
        if cap is not None and delta > cap:
            self._recount(pk, now, delta, cap)  # raises: no count can make room
        if cap is not None and not counter_exact(seen or {}, change.now):
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
            if cap is not None and not (counter_exact(seen or {}, change.now) and _room(seen, delta, cap)):
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


def _bucket_clauses(e: _Expression, moves: Moves) -> None:
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


def _lowers_expiry(change: StateChange, seen: dict[str, Any]) -> bool:
    earliest, seen_nx = change.earliest_expiry, seen.get(COUNTER_NEXT_EXPIRY)
    return earliest is not None and (seen_nx is None or earliest < str(seen_nx))


def _expiry_clauses(e: _Expression, change: StateChange, seen: dict[str, Any]) -> None:
    seen_nx = seen.get(COUNTER_NEXT_EXPIRY)
    e.names["#nx"] = COUNTER_NEXT_EXPIRY
    e.values[":nx"] = attr(change.earliest_expiry)
    e.sets.append("#nx = :nx")
    if seen_nx is None:
        e.conditions.append("attribute_not_exists(#nx)")
    else:
        e.values[":seenNx"] = attr(seen_nx)
        e.conditions.append("#nx = :seenNx")


def _due_clauses(e: _Expression, change: StateChange, seen: dict[str, Any]) -> None:
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


def counter_exact(data: dict[str, Any], now_ts: str) -> bool:
    if "n" not in data or COUNTER_EXACT not in data:
        return False
    next_expiry = data.get(COUNTER_NEXT_EXPIRY)
    return next_expiry is None or str(next_expiry) > now_ts


def move(group: Group, bucket: str, n: int, bounded: int) -> None:
    group.buckets[bucket] = group.buckets.get(bucket, 0) + n
    group.bounded += bounded


def _room(seen: dict[str, Any] | None, delta: int, cap: int) -> bool:
    return seen is not None and int(seen.get("n", 0)) + delta <= cap


def transaction_chunks(groups: Iterable[Group]) -> list[list[Group]]:
    """Groups packed into transactions, slots kept for the counter and the erasure check."""
    chunks: list[list[Group]] = []
    current: list[Group] = []
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


def _capacity_error(live: int, cap: int) -> CapacityReached:
    return CapacityReached(
        f"This user is at the most memories this agent allows ({cap}).",
        maxEntriesPerUser=cap,
    )
