"""Dream's state on DynamoDB: the sparse due index (GSI2), runs, markers, the cost ledger.

Items (see the key table in ``docs/dynamodb.md``):

- due record, in the user partition: ``T#<t>#U#<u>`` / ``DREAMDUE``; ``activity`` counts
  the user's non-dream changesets. While the user is due it also carries ``GSI2PK``
  ``DREAMDUE#<shard>`` and ``GSI2SK`` ``<dueAt>#<t>#<u>``: GSI2 holds only due users
  (sparse), spread over ``DUE_SHARDS`` partitions so no partition takes every write.
  ``DynamoStore.apply`` updates it in a change's transaction (a user already due keeps
  the earlier ``dueAt``); the same item is the user's state item, and also holds the
  live count and the erasure mark's stand-in (adapters/dynamodb/state_item.py).
- done marker, in the user partition: ``T#<t>#U#<u>`` / ``DREAMRUN#<runId>`` (expires).
- run header: ``DREAMRUN#<runId>`` / ``RUN``, listed through GSI1 (``DREAMRUNS``).
- counters: ``DREAMRUN#<runId>#C#<shard>`` / ``DONE`` (users done) and ``T#<tenant>``
  (the tenant's stats): sharded like the due index, so a run of millions of users
  never funnels through one item.
- cost ledger: ``DREAMRUN#<runId>`` / ``COST#<tenant>#<agent>``.
"""

from __future__ import annotations

import base64
import contextlib
import json
import time
import zlib
from datetime import datetime, timedelta
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
from engram.domain.dream import DREAM_ACTOR
from engram.domain.dream_run import DreamRun, RunStatus, Stats, Trigger, UserOutcome
from engram.domain.errors import ValidationFailed
from engram.domain.models import Changeset, Page
from engram.domain.serialization import parse_ts, parse_ts_opt, ts
from engram.ports import DueState, DueUser

DUE_SHARDS = 16
DUE_SK = "DREAMDUE"
RUN_SK = "RUN"
DONE_SK = "DONE"
RUNS_GSI_PK = "DREAMRUNS"
ITEM_DUE = "dreamDue"
ITEM_MARKER = "dreamRunMarker"
ITEM_RUN = "dreamRun"
ITEM_COUNTERS = "dreamRunCounters"
ITEM_COST = "dreamCost"
# Done markers only guard against redelivery within a run; a month is plenty.
MARKER_LIFETIME = timedelta(days=30)


def shard_of(tenant_id: str, user_id: str) -> int:
    return zlib.crc32(f"{tenant_id}\x1f{user_id}".encode()) % DUE_SHARDS


def due_pk(shard: int) -> str:
    return k.join("DREAMDUE", str(shard))


def due_sk(due_at: str, tenant_id: str, user_id: str) -> str:
    return k.join(due_at, k.escape(tenant_id), k.escape(user_id))


def run_pk(run_id: str) -> str:
    return k.join("DREAMRUN", k.escape(run_id))


def counters_pk(run_id: str, shard: int) -> str:
    return k.join(run_pk(run_id), "C", str(shard))


def marker_sk(run_id: str) -> str:
    return k.join("DREAMRUN", k.escape(run_id))


def _due_update(tenant_id: str, user_id: str, at: datetime) -> dict[str, Any]:
    stamp = ts(at)
    return {
        "Key": key_of(k.user_pk(tenant_id, user_id), DUE_SK),
        "UpdateExpression": (
            "SET #type = :type, #t = :t, #u = :u, #due = :due, #g2pk = :g2pk, #g2sk = :g2sk ADD #activity :one"
        ),
        "ExpressionAttributeNames": {
            "#type": k.ITEM_TYPE,
            "#t": "tenantId",
            "#u": "userId",
            "#due": "dueAt",
            "#g2pk": k.GSI2PK,
            "#g2sk": k.GSI2SK,
            "#activity": "activity",
        },
        "ExpressionAttributeValues": {
            ":type": attr(ITEM_DUE),
            ":t": attr(tenant_id),
            ":u": attr(user_id),
            ":due": attr(stamp),
            ":g2pk": attr(due_pk(shard_of(tenant_id, user_id))),
            ":g2sk": attr(due_sk(stamp, tenant_id, user_id)),
            ":one": attr(1),
        },
    }


def is_marking_due(changeset: Changeset) -> bool:
    """Does this change make its user due now? Not dream's own changes: the pass that
    made them records the user's next due time. (``DynamoStore.apply`` updates the due
    record in the change's own transaction, and keeps an earlier due time.)"""
    return not (changeset.history and all(h.actor == DREAM_ACTOR for h in changeset.history))


class DynamoDreamState(DynamoBase):
    # -- the due index -------------------------------------------------------------------
    def due_users(
        self, as_of: datetime, limit: int, cursor: str | None = None, tenant_id: str | None = None
    ) -> Page[DueUser]:
        shard, start = _decode(cursor) if cursor else (0, None)
        bound = ts(as_of) + "$"  # "$" sorts after "#": a user due exactly at as_of is in
        items: list[DueUser] = []
        while shard < DUE_SHARDS and len(items) < limit:
            params: dict[str, Any] = {
                "TableName": self.table_name,
                "IndexName": k.GSI2,
                "KeyConditionExpression": "#pk = :pk AND #sk < :bound",
                "ExpressionAttributeNames": {"#pk": k.GSI2PK, "#sk": k.GSI2SK},
                "ExpressionAttributeValues": {":pk": attr(due_pk(shard)), ":bound": attr(bound)},
                "Limit": limit - len(items),
            }
            if tenant_id is not None:
                # The index is the system's own, across tenants; a tenant's run keeps
                # only its users.
                params["FilterExpression"] = "#tenant = :tenant"
                params["ExpressionAttributeNames"]["#tenant"] = "tenantId"
                params["ExpressionAttributeValues"][":tenant"] = attr(tenant_id)
            if start is not None:
                params["ExclusiveStartKey"] = start
            page = self.call("Query", **params)
            for raw in page.get("Items", []):
                d = from_item(raw)
                items.append(DueUser(str(d["tenantId"]), str(d["userId"]), parse_ts(str(d["dueAt"]))))
            start = page.get("LastEvaluatedKey")
            if start is None:
                shard += 1
        if shard >= DUE_SHARDS:
            return Page(items, None)
        return Page(items, _encode(shard, start))

    def due_state(self, tenant_id: str, user_id: str) -> DueState | None:
        item = self.get(k.user_pk(tenant_id, user_id), DUE_SK)
        if item is None:
            return None
        d = from_item(item)
        return DueState(parse_ts_opt(d.get("dueAt")), int(d.get("activity", 0)), parse_ts_opt(d.get("lastPassAt")))

    def mark_due(self, tenant_id: str, user_id: str, at: datetime) -> None:
        self.call("UpdateItem", TableName=self.table_name, **_due_update(tenant_id, user_id, at))

    # -- runs ------------------------------------------------------------------------------
    def create_run(self, run: DreamRun) -> DreamRun:
        item = {
            k.PK: attr(run_pk(run.run_id)),
            k.SK: attr(RUN_SK),
            k.ITEM_TYPE: attr(ITEM_RUN),
            k.GSI1PK: attr(RUNS_GSI_PK),
            k.GSI1SK: attr(k.join(ts(run.started_at), k.escape(run.run_id))),
            "runId": attr(run.run_id),
            "trigger": attr(run.trigger.value),
            "asOf": attr(ts(run.as_of)),
            "startedAt": attr(ts(run.started_at)),
            "status": attr(run.status.value),
            "usersPlanned": attr(run.users_planned),
            "batchesSent": attr(run.batches_sent),
        }
        if run.tenant_id is not None:
            item["tenantId"] = attr(run.tenant_id)
        # A retried schedule event finds its run there, and resumes it.
        with contextlib.suppress(ConditionFailed):
            self.put(item, ConditionExpression="attribute_not_exists(#pk)", ExpressionAttributeNames={"#pk": k.PK})
        stored = self.get_run(run.run_id)
        assert stored is not None
        return stored

    def get_run(self, run_id: str) -> DreamRun | None:
        item = self.get(run_pk(run_id), RUN_SK)
        if item is None:
            return None
        done_keys = [key_of(counters_pk(run_id, s), DONE_SK) for s in range(DUE_SHARDS)]
        done = sum(int(from_item(i).get("n", 0)) for i in self.batch_get(done_keys, projection=("n",)))
        return _run(from_item(item), done)

    def list_runs(self, tenant_id: str, limit: int = 20, cursor: str | None = None) -> Page[DreamRun]:
        params: dict[str, Any] = {
            "TableName": self.table_name,
            "IndexName": k.GSI1,
            "KeyConditionExpression": "#pk = :pk",
            "FilterExpression": "attribute_not_exists(#tenant) OR #tenant = :tenant",
            "ExpressionAttributeNames": {"#pk": k.GSI1PK, "#tenant": "tenantId"},
            "ExpressionAttributeValues": {":pk": attr(RUNS_GSI_PK), ":tenant": attr(tenant_id)},
            "ScanIndexForward": False,
        }
        if cursor:
            params["KeyConditionExpression"] += " AND #sk < :after"
            params["ExpressionAttributeNames"]["#sk"] = k.GSI1SK
            params["ExpressionAttributeValues"][":after"] = attr(_decode_text(cursor))
        headers: list[dict[str, Any]] = []
        for raw in self.query_items(**params):
            headers.append(from_item(raw))
            if len(headers) > limit:
                break
        more = len(headers) > limit
        headers = headers[:limit]
        runs = [r for r in (self.get_run(str(h["runId"])) for h in headers) if r is not None]
        next_cursor = _encode_text(str(headers[-1][k.GSI1SK])) if more and headers else None
        return Page(runs, next_cursor)

    def record_plan_progress(
        self, run_id: str, expected_cursor: str | None, cursor: str | None, users: int, batches: int, done: bool
    ) -> DreamRun | None:
        names = {"#status": "status", "#cursor": "planCursor", "#users": "usersPlanned", "#batches": "batchesSent"}
        values = {
            ":planning": attr(RunStatus.PLANNING.value),
            ":users": attr(users),
            ":batches": attr(batches),
        }
        sets = []
        if cursor is None:
            removes = " REMOVE #cursor"
        else:
            removes = ""
            sets.append("#cursor = :cursor")
            values[":cursor"] = attr(cursor)
        if done:
            sets.append("#status = :running")
            values[":running"] = attr(RunStatus.RUNNING.value)
        condition = "#status = :planning AND "
        if expected_cursor is None:
            condition += "attribute_not_exists(#cursor)"
        else:
            condition += "#cursor = :expected"
            values[":expected"] = attr(expected_cursor)
        update = ("SET " + ", ".join(sets) + " " if sets else "") + "ADD #users :users, #batches :batches" + removes
        try:
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(run_pk(run_id), RUN_SK),
                UpdateExpression=update,
                ConditionExpression=condition,
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        except ConditionFailed:
            return None
        return self.get_run(run_id)

    def is_done(self, run_id: str, tenant_id: str, user_id: str) -> bool:
        return self.get(k.user_pk(tenant_id, user_id), marker_sk(run_id), projection=(k.SK,)) is not None

    def finish_user(self, run_id: str, outcome: UserOutcome) -> bool:
        t, u = outcome.tenant_id, outcome.user_id
        shard = shard_of(t, u)
        counters = {name: value for name, value in outcome.stats.counters().items() if value}
        marker = {
            k.PK: attr(k.user_pk(t, u)),
            k.SK: attr(marker_sk(run_id)),
            k.ITEM_TYPE: attr(ITEM_MARKER),
            k.TTL: attr(int(time.time() + MARKER_LIFETIME.total_seconds())),
        }
        actions: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": marker,
                    "ConditionExpression": "attribute_not_exists(#pk)",
                    "ExpressionAttributeNames": {"#pk": k.PK},
                }
            },
            {"Update": {"TableName": self.table_name, **_add(counters_pk(run_id, shard), DONE_SK, {"n": 1})}},
        ]
        if counters:
            tenant_counters = _add(counters_pk(run_id, shard), k.join("T", k.escape(t)), counters, tenant=t)
            actions.append({"Update": {"TableName": self.table_name, **tenant_counters}})
        try:
            self.call("TransactWriteItems", TransactItems=actions)
        except TransactionCancelled as exc:
            if exc.reasons and exc.reasons[0] == "ConditionalCheckFailed":
                return False
            raise
        self._record_pass(outcome)
        return True

    def _record_pass(self, outcome: UserOutcome) -> None:
        t, u = outcome.tenant_id, outcome.user_id
        names: dict[str, str] = {"#activity": "activity"}
        values: dict[str, Any] = {":seen": attr(outcome.seen_activity)}
        sets: list[str] = []
        removes: list[str] = []
        if outcome.next_due is None:
            names |= {"#due": "dueAt", "#g2pk": k.GSI2PK, "#g2sk": k.GSI2SK}
            removes = ["#due", "#g2pk", "#g2sk"]
        else:
            stamp = ts(outcome.next_due)
            names |= {"#due": "dueAt", "#g2pk": k.GSI2PK, "#g2sk": k.GSI2SK}
            sets += ["#due = :due", "#g2pk = :g2pk", "#g2sk = :g2sk"]
            values |= {
                ":due": attr(stamp),
                ":g2pk": attr(due_pk(shard_of(t, u))),
                ":g2sk": attr(due_sk(stamp, t, u)),
            }
        if outcome.passed_at is not None:
            names["#pass"] = "lastPassAt"
            sets.append("#pass = :pass")
            values[":pass"] = attr(ts(outcome.passed_at))
        expression = ("SET " + ", ".join(sets) if sets else "") + (" REMOVE " + ", ".join(removes) if removes else "")
        # A write since the pass read the user fails the condition: the user stays due.
        with contextlib.suppress(ConditionFailed):
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(k.user_pk(t, u), DUE_SK),
                UpdateExpression=expression.strip(),
                ConditionExpression="#activity = :seen",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )

    def complete_run(self, run_id: str, at: datetime) -> bool:
        run = self.get_run(run_id)
        if run is None or not run.complete:
            return False
        try:
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(run_pk(run_id), RUN_SK),
                UpdateExpression="SET #status = :completed, #finished = :at",
                ConditionExpression="#status = :running",
                ExpressionAttributeNames={"#status": "status", "#finished": "finishedAt"},
                ExpressionAttributeValues={
                    ":completed": attr(RunStatus.COMPLETED.value),
                    ":running": attr(RunStatus.RUNNING.value),
                    ":at": attr(ts(at)),
                },
            )
        except ConditionFailed:
            return False
        return True

    def run_stats(self, run_id: str, tenant_id: str | None = None) -> Stats:
        total: dict[str, float] = {}
        if tenant_id is not None:
            sk = k.join("T", k.escape(tenant_id))
            rows = self.batch_get([key_of(counters_pk(run_id, s), sk) for s in range(DUE_SHARDS)])
        else:
            rows = []
            for s in range(DUE_SHARDS):
                rows.extend(
                    self.query_items(
                        KeyConditionExpression="#pk = :pk AND begins_with(#sk, :t)",
                        ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
                        ExpressionAttributeValues={":pk": attr(counters_pk(run_id, s)), ":t": attr("T#")},
                        ConsistentRead=True,
                    )
                )
        for raw in rows:
            for name, value in from_item(raw).items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    total[name] = total.get(name, 0) + value
        return Stats.from_counters(total)

    # -- the cost ledger -------------------------------------------------------------------
    def reserve_cost(self, run_id: str, tenant_id: str, agent_id: str, micros: int, cap_micros: int) -> bool:
        if micros > cap_micros:
            return False
        try:
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(run_pk(run_id), _cost_sk(tenant_id, agent_id)),
                UpdateExpression="SET #type = :type ADD #committed :m",
                ConditionExpression="attribute_not_exists(#committed) OR #committed <= :room",
                ExpressionAttributeNames={"#type": k.ITEM_TYPE, "#committed": "committed"},
                ExpressionAttributeValues={
                    ":type": attr(ITEM_COST),
                    ":m": attr(micros),
                    ":room": attr(cap_micros - micros),
                },
            )
        except ConditionFailed:
            return False
        return True

    def settle_cost(self, run_id: str, tenant_id: str, agent_id: str, reserved: int, actual: int) -> None:
        self.call(
            "UpdateItem",
            TableName=self.table_name,
            Key=key_of(run_pk(run_id), _cost_sk(tenant_id, agent_id)),
            UpdateExpression="ADD #committed :delta, #spent :actual",
            ExpressionAttributeNames={"#committed": "committed", "#spent": "spent"},
            ExpressionAttributeValues={":delta": attr(actual - reserved), ":actual": attr(actual)},
        )

    # -- erasure -------------------------------------------------------------------------------
    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        pk = k.user_pk(tenant_id, user_id)
        keys = [
            {k.PK: raw[k.PK], k.SK: raw[k.SK]}
            for raw in self.query_items(
                KeyConditionExpression="#pk = :pk AND begins_with(#sk, :dream)",
                ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
                ExpressionAttributeValues={":pk": attr(pk), ":dream": attr("DREAM")},
                ProjectionExpression="#pk, #sk",
                ConsistentRead=True,
            )
        ]
        self.batch_delete(keys)
        due = sum(1 for key in keys if key[k.SK]["S"] == DUE_SK)
        return {"dreamDue": due, "dreamRunMarkers": len(keys) - due}


def _cost_sk(tenant_id: str, agent_id: str) -> str:
    return k.join("COST", k.escape(tenant_id), k.escape(agent_id))


def _add(pk: str, sk: str, counters: dict[str, int], tenant: str | None = None) -> dict[str, Any]:
    names = {f"#c{i}": name for i, name in enumerate(counters)}
    values = {f":c{i}": attr(v) for i, v in enumerate(counters.values())}
    sets = "SET #type = :type"
    names["#type"] = k.ITEM_TYPE
    values[":type"] = attr(ITEM_COUNTERS)
    if tenant is not None:
        sets += ", #tenant = :tenant"
        names["#tenant"] = "tenantId"
        values[":tenant"] = attr(tenant)
    adds = ", ".join(f"#c{i} :c{i}" for i in range(len(counters)))
    return {
        "Key": key_of(pk, sk),
        "UpdateExpression": f"{sets} ADD {adds}",
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values,
    }


def _run(d: dict[str, Any], done: int) -> DreamRun:
    return DreamRun(
        run_id=str(d["runId"]),
        as_of=parse_ts(str(d["asOf"])),
        started_at=parse_ts(str(d["startedAt"])),
        trigger=Trigger(str(d["trigger"])),
        tenant_id=None if d.get("tenantId") is None else str(d["tenantId"]),
        status=RunStatus(str(d["status"])),
        plan_cursor=None if d.get("planCursor") is None else str(d["planCursor"]),
        users_planned=int(d.get("usersPlanned", 0)),
        batches_sent=int(d.get("batchesSent", 0)),
        users_done=done,
        finished_at=parse_ts_opt(d.get("finishedAt")),
    )


def _encode(shard: int, start: Item | None) -> str:
    raw = json.dumps([shard, start], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str) -> tuple[int, Item | None]:
    try:
        shard, start = json.loads(base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
    if not isinstance(shard, int) or not 0 <= shard < DUE_SHARDS or not (start is None or isinstance(start, dict)):
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return shard, start


def _encode_text(value: str) -> str:
    return base64.urlsafe_b64encode(value.encode()).decode().rstrip("=")


def _decode_text(cursor: str) -> str:
    try:
        return base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()).decode()
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
