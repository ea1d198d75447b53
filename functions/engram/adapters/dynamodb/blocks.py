"""Memory blocks, their versions and archival memory in DynamoDB (``BlockRepository``);
keys in ``user_control_keys``.

A block change is one transaction: the current block (conditional on its version), the
new version record and the archival records it moved out. Archival records carry the
``ttl`` of the user's retention; reads filter on expiry too, since DynamoDB deletes late.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb import user_control_keys as uk
from engram.adapters.dynamodb.base import ConditionFailed, DynamoBase, Item, TransactionCancelled, attr, key_of
from engram.adapters.dynamodb.items import epoch_seconds
from engram.domain.archival import ArchivalRecord, archival_from_dict, archival_to_dict
from engram.domain.blocks import (
    BlockVersion,
    MemoryBlock,
    block_from_dict,
    block_to_dict,
    block_version_from_dict,
    block_version_to_dict,
)
from engram.domain.errors import VersionConflict
from engram.domain.models import Page
from engram.domain.serialization import ts

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class DynamoBlockStore(DynamoBase):
    # -- blocks ---------------------------------------------------------------------------
    def get_block(self, tenant_id: str, user_id: str, agent_id: str, name: str) -> MemoryBlock | None:
        item = self.get(k.user_pk(tenant_id, user_id), uk.block_sk(agent_id, name))
        return None if item is None else block_from_dict(json.loads(item["body"]["S"]))

    def list_blocks(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[MemoryBlock]:
        blocks = [
            block_from_dict(json.loads(it["body"]["S"]))
            for it in self._prefix(k.user_pk(tenant_id, user_id), uk.block_prefix(agent_id))
        ]
        return sorted(blocks, key=lambda b: (b.agent_id, b.name))

    def commit_block(
        self, version: BlockVersion, expected_version: int | None, archival: Sequence[ArchivalRecord] = ()
    ) -> None:
        b = version.block
        pk = k.user_pk(b.tenant_id, b.user_id)
        block_put: dict[str, Any] = {
            "TableName": self.table_name,
            "Item": {
                k.PK: {"S": pk},
                k.SK: {"S": uk.block_sk(b.agent_id, b.name)},
                k.ITEM_TYPE: {"S": uk.ITEM_BLOCK},
                "version": {"N": str(b.version)},
                "body": {"S": _dumps(block_to_dict(b))},
            },
        }
        if expected_version is None:
            block_put["ConditionExpression"] = "attribute_not_exists(#pk)"
            block_put["ExpressionAttributeNames"] = {"#pk": k.PK}
        else:
            block_put["ConditionExpression"] = "#v = :v"
            block_put["ExpressionAttributeNames"] = {"#v": "version"}
            block_put["ExpressionAttributeValues"] = {":v": attr(expected_version)}
        actions: list[dict[str, Any]] = [
            {"Put": block_put},
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": {
                        k.PK: {"S": pk},
                        k.SK: {"S": uk.block_version_sk(b.agent_id, b.name, b.version)},
                        k.ITEM_TYPE: {"S": uk.ITEM_BLOCK_VERSION},
                        "body": {"S": _dumps(block_version_to_dict(version))},
                    },
                    "ConditionExpression": "attribute_not_exists(#pk)",
                    "ExpressionAttributeNames": {"#pk": k.PK},
                }
            },
        ]
        actions += [{"Put": {"TableName": self.table_name, "Item": _archival_item(r)}} for r in archival]
        try:
            self.call("TransactWriteItems", TransactItems=actions)
        except TransactionCancelled as exc:
            raise VersionConflict(
                "This block was changed by someone else; read it again and retry.",
                block=b.name,
                expected=expected_version,
            ) from exc

    def block_history(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str,
        name: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[BlockVersion]:
        after = uk.decode_version_cursor(cursor) if cursor else 0
        prefix = uk.block_version_prefix(agent_id, name)
        out: list[BlockVersion] = []
        for page in self.query_pages(
            KeyConditionExpression="#pk = :pk AND #sk BETWEEN :lo AND :hi",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
            ExpressionAttributeValues={
                ":pk": attr(k.user_pk(tenant_id, user_id)),
                ":lo": attr(prefix + k.padded(after + 1, k.VERSION_DIGITS)),
                ":hi": attr(prefix + "9" * k.VERSION_DIGITS),
            },
            ConsistentRead=True,
            Limit=min(limit + 1, 1000),
        ):
            out.extend(block_version_from_dict(json.loads(it["body"]["S"])) for it in page.get("Items", []))
            if len(out) > limit:
                break
        items = out[:limit]
        more = len(out) > limit
        return Page(items, uk.encode_cursor([items[-1].version]) if more and items else None)

    def block_version(
        self, tenant_id: str, user_id: str, agent_id: str, name: str, version: int
    ) -> BlockVersion | None:
        if version < 1:
            return None
        item = self.get(k.user_pk(tenant_id, user_id), uk.block_version_sk(agent_id, name, version))
        return None if item is None else block_version_from_dict(json.loads(item["body"]["S"]))

    def block_history_of_user(self, tenant_id: str, user_id: str) -> list[BlockVersion]:
        return [
            block_version_from_dict(json.loads(it["body"]["S"]))
            for it in self._prefix(k.user_pk(tenant_id, user_id), uk.block_version_prefix())
        ]

    # -- archival -------------------------------------------------------------------------
    def get_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> list[ArchivalRecord]:
        pk = k.user_pk(tenant_id, user_id)
        keys = [key_of(pk, uk.archival_sk(i)) for i in dict.fromkeys(archival_ids)]
        return [_archival(it) for it in self.batch_get(keys)]

    def list_archival(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[ArchivalRecord]:
        upper: str | None = None
        if cursor:
            upper = uk.archival_time_sk(*uk.decode_time_cursor(cursor))
        want = limit + 1
        out: list[ArchivalRecord] = []
        for page in self.query_pages(
            IndexName=k.LSI1,
            KeyConditionExpression="#pk = :pk AND #sk BETWEEN :lo AND :hi",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI1SK},
            ExpressionAttributeValues={
                ":pk": attr(k.user_pk(tenant_id, user_id)),
                ":lo": attr(k.join(uk.ARCHIVAL_BY_TIME, "")),
                ":hi": attr(upper or k.join(uk.ARCHIVAL_BY_TIME, "~")),
            },
            ScanIndexForward=False,
            ConsistentRead=True,
            Limit=min(max(want * 2, 20), 1000),
        ):
            for it in page.get("Items", []):
                if upper is not None and it.get(k.LSI1SK, {}).get("S") == upper:
                    continue
                r = _archival(it)
                if agent_id is None or r.agent_id == agent_id:
                    out.append(r)
            if len(out) >= want:
                break
        items = out[:limit]
        more = len(out) > limit
        return Page(items, uk.encode_cursor([ts(items[-1].created_at), items[-1].id]) if more and items else None)

    def unindexed_archival(self, tenant_id: str, user_id: str, limit: int = 100) -> list[ArchivalRecord]:
        out: list[ArchivalRecord] = []
        for it in self.query_items(
            IndexName=k.LSI2,
            KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI2SK},
            ExpressionAttributeValues={
                ":pk": attr(k.user_pk(tenant_id, user_id)),
                ":prefix": attr(k.join(uk.ARCHIVAL_UNINDEXED, "")),
            },
            ConsistentRead=True,
            Limit=limit,
        ):
            out.append(_archival(it))
            if len(out) >= limit:
                break
        return out

    def mark_archival_indexed(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> None:
        pk = k.user_pk(tenant_id, user_id)
        for archival_id in dict.fromkeys(archival_ids):
            try:
                self.call(
                    "UpdateItem",
                    TableName=self.table_name,
                    Key=key_of(pk, uk.archival_sk(archival_id)),
                    UpdateExpression="SET #indexed = :yes REMOVE #lsi2",
                    ConditionExpression="attribute_exists(#pk)",
                    ExpressionAttributeNames={"#indexed": "indexed", "#lsi2": k.LSI2SK, "#pk": k.PK},
                    ExpressionAttributeValues={":yes": {"BOOL": True}},
                )
            except ConditionFailed:
                continue  # deleted meanwhile: nothing to mark

    def delete_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> int:
        pk = k.user_pk(tenant_id, user_id)
        keys = [key_of(pk, uk.archival_sk(i)) for i in dict.fromkeys(archival_ids)]
        present = self.batch_get(keys, projection=(k.PK, k.SK))
        self.batch_delete([key_of(it[k.PK]["S"], it[k.SK]["S"]) for it in present])
        return len(present)

    # -- erasure --------------------------------------------------------------------------
    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        pk = k.user_pk(tenant_id, user_id)
        counts: dict[str, int] = {}
        for name, prefix in (
            ("blocks", uk.block_prefix()),
            ("blockVersions", uk.block_version_prefix()),
            ("archival", k.join(uk.ARCHIVAL, "")),
        ):
            keys = [key_of(pk, it[k.SK]["S"]) for it in self._prefix(pk, prefix, keys_only=True)]
            self.batch_delete(keys)
            counts[name] = len(keys)
        return counts

    def _prefix(self, pk: str, prefix: str, keys_only: bool = False) -> list[Item]:
        params: dict[str, Any] = {
            "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :prefix)",
            "ExpressionAttributeNames": {"#pk": k.PK, "#sk": k.SK},
            "ExpressionAttributeValues": {":pk": attr(pk), ":prefix": attr(prefix)},
            "ConsistentRead": True,
        }
        if keys_only:
            params["ProjectionExpression"] = "#pk, #sk"
        return list(self.query_items(**params))


def _archival_item(r: ArchivalRecord) -> Item:
    created = ts(r.created_at)
    item: Item = {
        k.PK: {"S": k.user_pk(r.tenant_id, r.user_id)},
        k.SK: {"S": uk.archival_sk(r.id)},
        k.ITEM_TYPE: {"S": uk.ITEM_ARCHIVAL},
        k.LSI1SK: {"S": uk.archival_time_sk(created, r.id)},
        "agentId": {"S": r.agent_id},
        "indexed": {"BOOL": r.indexed},
        "body": {"S": _dumps(archival_to_dict(r))},
    }
    if not r.indexed:
        item[k.LSI2SK] = {"S": uk.archival_unindexed_sk(created, r.id)}
    if r.expires_at is not None:
        item[k.TTL] = {"N": str(epoch_seconds(r.expires_at))}
    return item


def archival_of_item(item: Item) -> ArchivalRecord:
    """An archival item as its record (the cloud re-index scans them)."""
    return _archival(item)


def _archival(item: Item) -> ArchivalRecord:
    return archival_from_dict(json.loads(item["body"]["S"]), bool(item.get("indexed", {}).get("BOOL", False)))
