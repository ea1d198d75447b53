"""Proposals in DynamoDB (``ProposalRepository``); keys in ``user_control_keys``.

The proposal is kept as one JSON ``body`` (its change may clear a field with ``null``,
which a DynamoDB map would drop) beside the attributes the keys and conditions need.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb import user_control_keys as uk
from engram.adapters.dynamodb.base import ConditionFailed, DynamoBase, Item, TransactionCancelled, attr, key_of
from engram.domain.errors import VersionConflict
from engram.domain.models import Page
from engram.domain.proposals import Proposal, ProposalStatus, proposal_from_dict, proposal_to_dict, superseded_by
from engram.domain.serialization import ts
from engram.ports import ProposalQuery

ATTEMPTS = 5


class DynamoProposalStore(DynamoBase):
    def create_proposal(self, proposal: Proposal, now: datetime) -> list[str]:
        p = proposal
        pk = k.user_pk(p.tenant_id, p.user_id)
        for _ in range(ATTEMPTS):
            pending = self._by_target(pk, p.target_id, ProposalStatus.PENDING)
            # A transaction takes at most 100 actions: the new proposal and 99 it replaces.
            replaced = superseded_by(p, pending, now)[:99]
            actions: list[dict[str, Any]] = [
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": _item(p),
                        "ConditionExpression": "attribute_not_exists(#pk)",
                        "ExpressionAttributeNames": {"#pk": k.PK},
                    }
                }
            ]
            for gone in replaced:
                actions.append(
                    {
                        "Put": {
                            "TableName": self.table_name,
                            "Item": _item(gone),
                            # Conditional on the revision it had when read (one less).
                            "ConditionExpression": "#rev = :rev",
                            "ExpressionAttributeNames": {"#rev": "revision"},
                            "ExpressionAttributeValues": {":rev": attr(gone.revision - 1)},
                        }
                    }
                )
            try:
                self.call("TransactWriteItems", TransactItems=actions)
            except TransactionCancelled:
                continue  # an open proposal changed meanwhile: look again
            return [gone.id for gone in replaced]
        raise VersionConflict("Proposals for this memory keep changing; retry.", targetId=p.target_id)

    def _by_target(self, pk: str, target_id: str, status: ProposalStatus) -> list[Proposal]:
        items = self.query_items(
            IndexName=k.LSI2,
            KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI2SK},
            ExpressionAttributeValues={
                ":pk": attr(pk),
                ":prefix": attr(uk.proposal_target_prefix(target_id, status.value)),
            },
            ConsistentRead=True,
        )
        return [_proposal(it) for it in items]

    def get_proposal(self, tenant_id: str, user_id: str, proposal_id: str) -> Proposal | None:
        item = self.get(k.user_pk(tenant_id, user_id), uk.proposal_sk(proposal_id))
        return None if item is None else _proposal(item)

    def list_proposals(self, tenant_id: str, user_id: str, query: ProposalQuery) -> Page[Proposal]:
        pk = k.user_pk(tenant_id, user_id)
        values: dict[str, Any] = {":pk": attr(pk), ":lo": attr(k.join(uk.PROPOSAL, ""))}
        upper: str | None = None
        if query.cursor:
            created, pid = uk.decode_time_cursor(query.cursor)
            upper = uk.proposal_time_sk(created, pid)
        # "PRP#~" sorts after every "PRP#<timestamp>#..." key.
        values[":hi"] = attr(upper or k.join(uk.PROPOSAL, "~"))
        want = query.limit + 1
        out: list[Proposal] = []
        for page in self.query_pages(
            IndexName=k.LSI1,
            KeyConditionExpression="#pk = :pk AND #sk BETWEEN :lo AND :hi",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI1SK},
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            ConsistentRead=True,
            Limit=min(max(want * 2, 20), 1000),
        ):
            for item in page.get("Items", []):
                if upper is not None and item.get(k.LSI1SK, {}).get("S") == upper:
                    continue
                p = _proposal(item)
                if _matches(p, query):
                    out.append(p)
            if len(out) >= want:
                break
        items = out[: query.limit]
        more = len(out) > query.limit
        cursor = uk.encode_cursor([ts(items[-1].created_at), items[-1].id]) if more and items else None
        return Page(items, cursor)

    def update_proposal(self, proposal: Proposal, expected_revision: int) -> bool:
        try:
            self.put(
                _item(proposal),
                ConditionExpression="#rev = :rev",
                ExpressionAttributeNames={"#rev": "revision"},
                ExpressionAttributeValues={":rev": attr(expected_revision)},
            )
        except ConditionFailed:
            return False
        return True

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        pk = k.user_pk(tenant_id, user_id)
        keys: list[Item] = [
            key_of(pk, it[k.SK]["S"])
            for it in self.query_items(
                KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
                ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
                ExpressionAttributeValues={":pk": attr(pk), ":prefix": attr(k.join(uk.PROPOSAL, ""))},
                ProjectionExpression="#pk, #sk",
                ConsistentRead=True,
            )
        ]
        self.batch_delete(keys)
        return {"proposals": len(keys)}


def _matches(p: Proposal, query: ProposalQuery) -> bool:
    if query.statuses is not None and p.effective_status(query.now) not in query.statuses:
        return False
    if query.agent_id is not None and p.agent_id != query.agent_id:
        return False
    return query.target_id is None or p.target_id == query.target_id


def _item(p: Proposal) -> Item:
    created = ts(p.created_at)
    return {
        k.PK: {"S": k.user_pk(p.tenant_id, p.user_id)},
        k.SK: {"S": uk.proposal_sk(p.id)},
        k.ITEM_TYPE: {"S": uk.ITEM_PROPOSAL},
        k.LSI1SK: {"S": uk.proposal_time_sk(created, p.id)},
        k.LSI2SK: {"S": uk.proposal_target_prefix(p.target_id, p.status.value) + created},
        "revision": {"N": str(p.revision)},
        "status": {"S": p.status.value},
        "body": {"S": json.dumps(proposal_to_dict(p), separators=(",", ":"), ensure_ascii=False)},
    }


def _proposal(item: Item) -> Proposal:
    return proposal_from_dict(json.loads(item["body"]["S"]))
