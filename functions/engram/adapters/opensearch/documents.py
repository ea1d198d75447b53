"""What the index writes: each document's id and routing, its source, the bulk actions
that upsert and delete documents and their failures, and a user's erasure.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram.adapters.opensearch.mapping import VECTOR_FIELD
from engram.domain.serialization import ts_opt
from engram.ports import IndexDocument, Vector

# Bulk requests stay well under the smallest domain's 10 MiB HTTP payload limit even
# with 1024-dimension vectors (about 20 KiB of JSON each).
BULK_CHUNK = 200


def routing(tenant_id: str, user_id: str) -> str:
    """One routing value per (tenant, user): a user's documents share one shard."""
    return _digest(tenant_id, user_id)[:32]


def document_id(tenant_id: str, user_id: str, doc_id: str) -> str:
    """The OpenSearch ``_id``: the same entry id under two owners is two documents."""
    return _digest(tenant_id, user_id, doc_id)


def _digest(*parts: str) -> str:
    # JSON keeps the parts apart whatever characters the ids hold.
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def usable_vector(vector: Vector | None, dimension: int) -> list[float] | None:
    """The vector as OpenSearch accepts it, or None.

    A vector of another size (a model change in progress) cannot go into this field,
    and ``cosinesimil`` rejects the zero vector (an embedder's answer for empty text);
    both are treated as "no vector", as the local index does with sizes it cannot compare.
    """
    if vector is None or len(vector) != dimension:
        return None
    values = [float(v) for v in vector]
    if not all(math.isfinite(v) for v in values) or not any(values):
        return None
    return values


def document_source(doc: IndexDocument, dimension: int) -> dict[str, Any]:
    source: dict[str, Any] = {
        "doc_id": doc.id,
        "tenant_id": doc.tenant_id,
        "user_id": doc.user_id,
        "kind": doc.kind.value,
        "text": doc.text,
        "model_id": doc.model_id,
        "visibility": doc.visibility,
        "source_agent_id": doc.source_agent_id,
        "group_ids": list(doc.group_ids),
        "category": doc.category,
        "key": doc.key,
        "thread_id": doc.thread_id,
        "importance": doc.importance,
        "confidence": doc.confidence,
        "updated_at": ts_opt(doc.updated_at),
        "expires_at": ts_opt(doc.expires_at),
        "occurred_at": ts_opt(doc.occurred_at),
        "speaker": doc.speaker,
    }
    vector = usable_vector(doc.vector, dimension)
    if vector is not None:
        source[VECTOR_FIELD] = vector
    return source


def upsert_actions(index: str, docs: Sequence[IndexDocument], dimension: int) -> list[dict[str, Any]]:
    """Bulk ``index`` actions: a whole-document replace, so a changed doc loses old fields."""
    actions: list[dict[str, Any]] = []
    for doc in docs:
        actions.append(
            {
                "index": {
                    "_index": index,
                    "_id": document_id(doc.tenant_id, doc.user_id, doc.id),
                    "routing": routing(doc.tenant_id, doc.user_id),
                }
            }
        )
        actions.append(document_source(doc, dimension))
    return actions


def delete_actions(index: str, tenant_id: str, user_id: str, ids: Sequence[str]) -> list[dict[str, Any]]:
    route = routing(tenant_id, user_id)
    return [
        {"delete": {"_index": index, "_id": document_id(tenant_id, user_id, doc_id), "routing": route}}
        for doc_id in dict.fromkeys(ids)
    ]


def chunks(actions: Sequence[dict[str, Any]], per_doc: int, size: int = BULK_CHUNK) -> Iterator[list[dict[str, Any]]]:
    """Split bulk lines into requests of at most ``size`` documents (``per_doc`` lines each)."""
    step = per_doc * size
    for start in range(0, len(actions), step):
        yield list(actions[start : start + step])


def erase_user_body(tenant_id: str, user_id: str) -> dict[str, Any]:
    return {
        "query": {
            "bool": {
                "filter": [
                    {"term": {"tenant_id": tenant_id}},
                    {"term": {"user_id": user_id}},
                ]
            }
        }
    }


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed part of a bulk or msearch answer (no document content)."""

    status: int
    error_type: str


def bulk_failures(response: Mapping[str, Any]) -> list[Failure]:
    """Items that did not succeed; deleting what is already gone is a success."""
    if not response.get("errors"):
        return []
    out: list[Failure] = []
    for item in response.get("items", []):
        for action, result in item.items():
            status = int(result.get("status", 0))
            if 200 <= status < 300 or (action == "delete" and status == 404):
                continue
            error = result.get("error") or {}
            out.append(Failure(status, str(error.get("type", "unknown")) if isinstance(error, dict) else "unknown"))
    return out


def response_failure(response: Mapping[str, Any]) -> Failure | None:
    """The failure of one msearch answer, or None when it has hits."""
    if "error" not in response:
        return None
    error = response["error"]
    error_type = str(error.get("type", "unknown")) if isinstance(error, dict) else "unknown"
    return Failure(int(response.get("status", 500)), error_type)
