"""API keys in the table: one item per key (by its hash), listed through GSI1."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import ConditionFailed, DynamoBase, Item, attr, from_item, key_of, to_item
from engram.adapters.dynamodb.items import ITEM_API_KEY
from engram.domain.models import ApiKeyRecord
from engram.domain.serialization import key_from_dict, key_to_dict, ts


class DynamoKeys(DynamoBase):
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
