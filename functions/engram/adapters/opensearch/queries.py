"""Every OpenSearch request body the index sends, built by pure functions.

The adapter (``index.py``) only ships these bodies and reads the answers, so all the
logic worth testing lives here and is tested without an engine.

References (OpenSearch documentation):
- Efficient k-NN filtering, the ``filter`` inside the ``knn`` clause (Lucene engine,
  OpenSearch 2.4+): https://docs.opensearch.org/latest/vector-search/filter-search-knn/efficient-knn-filtering/
- Spaces and scores; ``cosinesimil`` scores ``(2 - d) / 2`` with ``d = 1 - cos``:
  https://docs.opensearch.org/latest/mappings/supported-field-types/knn-spaces/
- ``knn_vector`` with an HNSW ``method``: https://docs.opensearch.org/latest/mappings/supported-field-types/knn-methods-engines/
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from engram.domain.models import Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import query_terms
from engram.domain.serialization import parse_ts_opt, ts, ts_opt
from engram.ports import DocKind, IndexDocument, SearchHit, SearchQuery, Vector

VECTOR_FIELD = "vector"
TEXT_ANALYZER = "engram_text"
# What a search hit needs back; the vector and text stay on the cluster.
# What recall ranks on rides along with each hit, so only the shown entries are read
# from DynamoDB.
HIT_SOURCE = ["doc_id", "kind", "importance", "confidence", "updated_at"]
# Bulk requests stay well under the smallest domain's 10 MiB HTTP payload limit even
# with 1024-dimension vectors (about 20 KiB of JSON each).
BULK_CHUNK = 200


def index_body(dimension: int) -> dict[str, Any]:
    """Settings and mapping of the index.

    The Lucene engine is pinned: it supports filtering inside the k-NN clause and its
    ``cosinesimil`` score is ``(1 + cos) / 2`` on every OpenSearch 2.x release, so the
    cosine can be recovered exactly (see ``cosine_from_score``). Per-user filters are
    very selective, and Lucene then answers them with an exact search over the user's
    own vectors. ``_routing`` is required so a write can never land on a shard the
    owner's searches and deletes do not read.
    """
    if dimension <= 0:
        raise ValueError("dimension must be positive")
    keyword = {"type": "keyword"}
    return {
        "settings": {
            "index": {"knn": True},
            "analysis": {
                "analyzer": {
                    # Close to the local index's FTS5 'porter unicode61': lower case,
                    # accents folded, English stemming, no stop words dropped.
                    TEXT_ANALYZER: {
                        "type": "custom",
                        "tokenizer": "standard",
                        "filter": ["lowercase", "asciifolding", "porter_stem"],
                    }
                }
            },
        },
        "mappings": {
            "dynamic": "strict",
            "_routing": {"required": True},
            # The index is rebuilt from the store, never read back whole: keeping the
            # vectors out of _source roughly halves the disk they take.
            "_source": {"excludes": [VECTOR_FIELD]},
            "properties": {
                "doc_id": keyword,
                "tenant_id": keyword,
                "user_id": keyword,
                "kind": keyword,
                "text": {"type": "text", "analyzer": TEXT_ANALYZER},
                VECTOR_FIELD: {
                    "type": "knn_vector",
                    "dimension": dimension,
                    "method": {
                        "name": "hnsw",
                        "engine": "lucene",
                        "space_type": "cosinesimil",
                        "parameters": {"m": 16, "ef_construction": 128},
                    },
                },
                "model_id": keyword,
                "visibility": keyword,
                "source_agent_id": keyword,
                "group_ids": keyword,
                "category": keyword,
                "key": keyword,
                "thread_id": keyword,
                "importance": {"type": "integer"},
                "confidence": {"type": "float"},
                "updated_at": {"type": "date"},
                # Nanosecond dates: expiry is compared to the microsecond, exactly as the
                # local index compares its timestamps; a millisecond date would round.
                "expires_at": {"type": "date_nanos"},
                # When what it records happened (a message's own timestamp): questions
                # about a time span filter on it.
                "occurred_at": {"type": "date_nanos"},
            },
        },
    }


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


def visibility_filter(scope: VisibilityScope | None) -> dict[str, Any] | None:
    """Global, or the agent's own, or a group entry of one of the agent's groups.

    The same rule as ``LocalIndex._visible`` and ``VisibilityScope.allows``.
    """
    if scope is None or scope.everything:
        return None
    should: list[dict[str, Any]] = [
        {"term": {"visibility": Visibility.GLOBAL.value}},
        {"term": {"source_agent_id": scope.agent_id}},
    ]
    if scope.group_ids:
        should.append(
            {
                "bool": {
                    "filter": [
                        {"term": {"visibility": Visibility.GROUP.value}},
                        {"terms": {"group_ids": list(scope.group_ids)}},
                    ]
                }
            }
        )
    return {"bool": {"should": should, "minimum_should_match": 1}}


def can_match(query: SearchQuery) -> bool:
    """False when an empty allow-list makes every document fail the filter."""
    return bool(query.kinds) and query.categories != () and query.thread_ids != () and query.k > 0


def search_filter(query: SearchQuery) -> dict[str, Any]:
    """The filter every search carries: owner, kinds, expiry, visibility and the rest."""
    clauses: list[dict[str, Any]] = [
        {"term": {"tenant_id": query.tenant_id}},
        {"term": {"user_id": query.user_id}},
        {"terms": {"kind": [k.value for k in query.kinds]}},
        {
            "bool": {
                "should": [
                    {"bool": {"must_not": {"exists": {"field": "expires_at"}}}},
                    {"range": {"expires_at": {"gt": ts(query.now)}}},
                ],
                "minimum_should_match": 1,
            }
        },
    ]
    if query.categories is not None:
        clauses.append({"terms": {"category": list(query.categories)}})
    if query.thread_ids is not None:
        clauses.append({"terms": {"thread_id": list(query.thread_ids)}})
    if query.occurred_from is not None or query.occurred_to is not None:
        span: dict[str, str] = {}
        if query.occurred_from is not None:
            span["gte"] = ts(query.occurred_from)
        if query.occurred_to is not None:
            span["lt"] = ts(query.occurred_to)
        clauses.append({"range": {"occurred_at": span}})
    visibility = visibility_filter(query.scope)
    if visibility is not None:
        clauses.append(visibility)
    body: dict[str, Any] = {"filter": clauses}
    if query.exclude_thread_ids:
        body["must_not"] = [{"terms": {"thread_id": list(query.exclude_thread_ids)}}]
    return {"bool": body}


def bm25_body(query: SearchQuery) -> dict[str, Any] | None:
    """Keyword search: BM25 on ``text``, filtered (filters do not change the score)."""
    if not query.text.strip() or not can_match(query):
        return None
    return {
        "size": query.k,
        "track_total_hits": False,
        "_source": HIT_SOURCE,
        "query": {
            "bool": {
                # The same words the local index matches: function words dropped
                # (domain.ranking.query_terms), so both backends rank alike.
                "must": [{"match": {"text": {"query": " ".join(query_terms(query.text))}}}],
                "filter": [search_filter(query)],
            }
        },
    }


def knn_body(query: SearchQuery, dimension: int) -> dict[str, Any] | None:
    """Vector search with the filter inside the ``knn`` clause (efficient filtering).

    A filter beside the ``knn`` clause would post-filter the global top k and could
    return nothing for a user whose vectors are not among them; inside the clause the
    engine searches only documents that pass it.
    """
    vector = usable_vector(query.vector, dimension)
    if vector is None or not can_match(query):
        return None
    return {
        "size": query.k,
        "track_total_hits": False,
        "_source": HIT_SOURCE,
        "query": {
            "knn": {
                VECTOR_FIELD: {
                    "vector": vector,
                    "k": query.k,
                    "filter": vector_filter(query),
                }
            }
        },
    }


def vector_filter(query: SearchQuery) -> dict[str, Any]:
    """The search filter, and only vectors of the query vector's model.

    Two models' vectors are meaningless to each other even at the same size (a re-embed
    in progress). Without a model named, every vector in the index takes part: the
    index's fixed dimension already keeps out vectors it could not compare.
    """
    body = search_filter(query)
    model = _model_of(query)
    if model is not None:
        body["bool"]["filter"].append({"term": {"model_id": model}})
    return body


def _model_of(query: SearchQuery) -> str | None:
    # ``SearchQuery.model_id`` arrives with the recall work; a query without it names no model.
    model = getattr(query, "model_id", None)
    return None if model is None else str(model)


# Painless' cosineSimilarity is the plain cosine; +1 keeps the score non-negative as
# script_score requires, and 0 marks a document without a vector.
# https://docs.opensearch.org/latest/vector-search/vector-search-techniques/painless-functions/
COSINE_SCRIPT = "doc[params.field].size() == 0 ? 0 : 1.0 + cosineSimilarity(params.query_value, doc[params.field])"


def cosine_body(query: SearchQuery, ids: Sequence[str], dimension: int) -> dict[str, Any] | None:
    """The exact cosine of named documents (keyword hits the k-NN top k left out).

    Fusion must not read "not among the k nearest" as "no similarity", so every hit
    carries its cosine whenever its document has a comparable vector.
    """
    vector = usable_vector(query.vector, dimension)
    if vector is None or not ids:
        return None
    wanted = list(dict.fromkeys(ids))
    return {
        "size": len(wanted),
        "track_total_hits": False,
        "_source": HIT_SOURCE,
        "query": {
            "script_score": {
                "query": {"bool": {"filter": [vector_filter(query), {"terms": {"doc_id": wanted}}]}},
                "script": {"source": COSINE_SCRIPT, "params": {"field": VECTOR_FIELD, "query_value": vector}},
            }
        },
    }


def cosines_of(response: Mapping[str, Any]) -> dict[str, float]:
    """Cosines from a ``cosine_body`` answer; documents without a vector are left out."""
    return {h.id: max(-1.0, min(1.0, h.score - 1.0)) for h in hits_of(response) if h.score > 0}


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """The msearch lines and which part (``keyword`` / ``semantic``) each answer is."""

    parts: tuple[str, ...]
    lines: tuple[dict[str, Any], ...]


def search_plan(index: str, query: SearchQuery, dimension: int) -> SearchPlan:
    header = {"index": index, "routing": routing(query.tenant_id, query.user_id)}
    parts: list[str] = []
    lines: list[dict[str, Any]] = []
    for part, body in (("keyword", bm25_body(query)), ("semantic", knn_body(query, dimension))):
        if body is not None:
            parts.append(part)
            lines.extend((dict(header), body))
    return SearchPlan(tuple(parts), tuple(lines))


def missing_cosines(keyword: Sequence[RawHit], semantic: Sequence[RawHit]) -> list[str]:
    """Keyword hits whose cosine the k-NN answer did not bring."""
    near = {h.id for h in semantic}
    return [h.id for h in keyword if h.id not in near]


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


def cosine_from_score(score: float) -> float:
    """Undo the ``cosinesimil`` score ``(2 - d) / 2`` with ``d = 1 - cos``: ``cos = 2s - 1``.

    Reported as a plain cosine, the same number the local index gives.
    """
    return max(-1.0, min(1.0, 2.0 * float(score) - 1.0))


@dataclass(frozen=True, slots=True)
class RawHit:
    id: str
    kind: DocKind
    score: float
    importance: int | None = None
    confidence: float | None = None
    updated_at: datetime | None = None


def hits_of(response: Mapping[str, Any]) -> list[RawHit]:
    out: list[RawHit] = []
    for hit in response.get("hits", {}).get("hits", []):
        source = hit.get("_source") or {}
        importance, confidence = source.get("importance"), source.get("confidence")
        out.append(
            RawHit(
                str(source["doc_id"]),
                DocKind(source["kind"]),
                float(hit.get("_score") or 0.0),
                None if importance is None else int(importance),
                None if confidence is None else float(confidence),
                parse_ts_opt(source.get("updated_at")),
            )
        )
    return out


def merge_hits(
    keyword: Sequence[RawHit], semantic: Sequence[RawHit], cosines: Mapping[str, float] | None = None
) -> list[SearchHit]:
    """Merge by id, as ``LocalIndex.search`` does: BM25 score and cosine side by side.

    ``cosines`` holds the similarity of keyword hits outside the k-NN answer.
    """
    cosines = cosines or {}
    hits: dict[str, SearchHit] = {}
    for h in keyword:
        hits.setdefault(h.id, _hit(h, h.score, cosines.get(h.id, 0.0)))
    for h in semantic:
        prior = hits.get(h.id)
        hits[h.id] = _hit(h, prior.keyword if prior else 0.0, cosine_from_score(h.score))
    return list(hits.values())


def _hit(h: RawHit, keyword: float, semantic: float) -> SearchHit:
    return SearchHit(
        h.id,
        h.kind,
        keyword=keyword,
        semantic=semantic,
        importance=h.importance,
        confidence=h.confidence,
        updated_at=h.updated_at,
    )


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


def missing_properties(mapping: Mapping[str, Any], dimension: int) -> dict[str, Any]:
    """Fields this version maps that an existing index (a GET _mapping answer) lacks.

    The mapping is strict, so a document with a field the index does not know is
    rejected; fields added since an index was created (``occurred_at``) are put into its
    mapping before the first write (adding a field is allowed on a live index)."""
    wanted: dict[str, Any] = index_body(dimension)["mappings"]["properties"]
    present: set[str] = set()
    for body in mapping.values():
        present |= set(body.get("mappings", {}).get("properties", {}))
    return {name: spec for name, spec in wanted.items() if name not in present}


def mapped_dimension(mapping: Mapping[str, Any]) -> int | None:
    """The vector dimension of an existing index, from a GET _mapping answer."""
    for body in mapping.values():
        field = body.get("mappings", {}).get("properties", {}).get(VECTOR_FIELD)
        if isinstance(field, dict) and "dimension" in field:
            return int(field["dimension"])
    return None


@dataclass(frozen=True, slots=True)
class ConnectionPlan:
    url: str
    # Set for an Amazon OpenSearch Service domain: requests are SigV4-signed for "es".
    aws_region: str | None


_AWS_SUFFIXES = (".es.amazonaws.com", ".es.amazonaws.com.cn")


def connection_plan(url: str, default_region: str) -> ConnectionPlan:
    """How to reach the cluster at ``url``.

    Amazon OpenSearch Service endpoints (``search-…`` and ``vpc-…``) end in
    ``.<region>.es.amazonaws.com``; anything else (a local container) is used as given.
    """
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        raise ValueError("The OpenSearch URL must look like https://host[:port].")
    host = parts.hostname.lower()
    for suffix in _AWS_SUFFIXES:
        if host.endswith(suffix):
            labels = host[: -len(suffix)].split(".")
            region = labels[-1] if len(labels) >= 2 else default_region
            return ConnectionPlan(url, region)
    return ConnectionPlan(url, None)
