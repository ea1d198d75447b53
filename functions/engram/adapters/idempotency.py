"""Powertools idempotency persistence whose records can be erased per user.

Powertools names a record ``<function>#<hash of the key>``, so nothing ties it to the
user it concerns, yet a stored answer may quote what the user said. These layers put
the owner (``tenant#user``) in front of the record id when the payload names one, and
``IdempotencyEraser`` deletes a user's records: by id prefix on SQLite, and on DynamoDB
by a filtered scan of the idempotency table — a table that only ever holds records
younger than their expiry (a day for API writes), so the scan stays small.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer, DynamoDBPersistenceLayer

from engram.adapters.sqlite.idempotency import SqliteIdempotencyLayer


def owner_of(tenant_id: str, user_id: str) -> str:
    # Tenant and user ids never contain "#" (the API's id pattern), so this cannot collide.
    return f"{tenant_id}#{user_id}"


class _OwnerScopedKeys(BasePersistenceLayer):
    def _get_hashed_idempotency_key(self, data: dict[str, Any]) -> str | None:
        key = super()._get_hashed_idempotency_key(data)
        owner = data.get("owner") if isinstance(data, dict) else None
        return f"owner:{owner}#{key}" if key and owner else key


class OwnedSqliteLayer(_OwnerScopedKeys, SqliteIdempotencyLayer):
    def erase_owner(self, owner: str) -> int:
        pattern = "owner:" + owner.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "#%"
        cur = self.db.conn().execute("DELETE FROM idempotency_records WHERE id LIKE ? ESCAPE '\\'", (pattern,))
        return int(cur.rowcount)


class OwnedDynamoLayer(_OwnerScopedKeys, DynamoDBPersistenceLayer):
    def erase_owner(self, owner: str) -> int:
        prefix = f"owner:{owner}#"
        deleted = 0
        kwargs: dict[str, Any] = {
            "TableName": self.table_name,
            "FilterExpression": "begins_with(#k, :p)",
            "ExpressionAttributeNames": {"#k": self.key_attr},
            "ExpressionAttributeValues": {":p": {"S": prefix}},
            "ProjectionExpression": "#k",
        }
        while True:
            try:
                page = self.client.scan(**kwargs)
            except self.client.exceptions.ResourceNotFoundException:
                return deleted  # no idempotency table (a local run): no records to erase
            for item in page.get("Items", []):
                self.client.delete_item(TableName=self.table_name, Key={self.key_attr: item[self.key_attr]})
                deleted += 1
            if "LastEvaluatedKey" not in page:
                return deleted
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


OwnedLayer = OwnedSqliteLayer | OwnedDynamoLayer


class IdempotencyEraser:
    """The ``UserDataEraser`` for the records of Idempotency-Key writes."""

    def __init__(self, layer: OwnedLayer) -> None:
        self._layer = layer

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        return {"writeIdempotencyRecords": self._layer.erase_owner(owner_of(tenant_id, user_id))}
