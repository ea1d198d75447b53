"""The write rate per turn in the table: one counter item per (agent, turn), with a TTL."""

from __future__ import annotations

from datetime import datetime, timedelta

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import ConditionFailed, DynamoBase, attr, from_item, key_of, to_item
from engram.adapters.dynamodb.items import ITEM_TURN, epoch_seconds
from engram.domain.errors import GuardrailViolation, VersionConflict
from engram.domain.serialization import ts

# A turn counter is stale once its window closed a day before the current one opened
# (the same cut-off the embedded store uses).
TURN_STALE_AFTER = timedelta(days=2)


class DynamoTurnCounter(DynamoBase):
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


def _too_many_writes(total: int, limit: int, turn_id: str) -> GuardrailViolation:
    return GuardrailViolation(
        "too_many_writes",
        f"This turn would make {total} memory writes; this agent allows at most {limit} per turn.",
        maxWritesPerTurn=limit,
        turnId=turn_id,
    )
