"""Every OpenSearch search the index sends, and how its answers become hits: pure functions.

The adapter (``index.py``) only ships these bodies and reads the answers, so all the
logic worth testing lives in this package's pure modules and is tested without an
engine: ``queries`` (searches and their hits), ``documents`` (what is written),
``mapping`` (the index's layout) and ``connection`` (how the cluster is reached).

References (OpenSearch documentation):
- Efficient k-NN filtering, the ``filter`` inside the ``knn`` clause (Lucene engine,
  OpenSearch 2.4+): https://docs.opensearch.org/latest/vector-search/filter-search-knn/efficient-knn-filtering/
- Spaces and scores; ``cosinesimil`` scores ``(2 - d) / 2`` with ``d = 1 - cos``:
  https://docs.opensearch.org/latest/mappings/supported-field-types/knn-spaces/
- ``knn_vector`` with an HNSW ``method``: https://docs.opensearch.org/latest/mappings/supported-field-types/knn-methods-engines/
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engram.adapters.opensearch.documents import routing, usable_vector
from engram.adapters.opensearch.mapping import VECTOR_FIELD
from engram.domain.models import Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import query_terms
from engram.domain.serialization import parse_ts_opt, ts
from engram.ports import DocKind, SearchHit, SearchQuery

# What a search hit needs back; the vector and text stay on the cluster.
# What recall ranks on rides along with each hit, so only the shown entries and past
# messages are read from DynamoDB: an entry's importance, confidence and time, and
# when a message was said and by whom (a document written before the index kept the
# speaker answers None, and recall reads its candidates from the table instead).
HIT_SOURCE = ["doc_id", "kind", "importance", "confidence", "updated_at", "occurred_at", "speaker"]

# The most distinct speakers ``speakers_body`` asks for: a user talks with a handful of
# people per agent; past this many, the rarest are left out of the question's names.
SPEAKERS_LIMIT = 1000


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
    occurred_at: datetime | None = None
    speaker: str | None = None


def hits_of(response: Mapping[str, Any]) -> list[RawHit]:
    out: list[RawHit] = []
    for hit in response.get("hits", {}).get("hits", []):
        source = hit.get("_source") or {}
        importance, confidence = source.get("importance"), source.get("confidence")
        speaker = source.get("speaker")
        out.append(
            RawHit(
                str(source["doc_id"]),
                DocKind(source["kind"]),
                float(hit.get("_score") or 0.0),
                None if importance is None else int(importance),
                None if confidence is None else float(confidence),
                parse_ts_opt(source.get("updated_at")),
                parse_ts_opt(source.get("occurred_at")),
                speaker if isinstance(speaker, str) and speaker else None,
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
        occurred_at=h.occurred_at,
        speaker=h.speaker,
    )


def speakers_body(tenant_id: str, user_id: str, agent_id: str | None) -> dict[str, Any]:
    """Who said the user's indexed past messages, in ``agent_id``'s threads only (None:
    every agent's, for an admin key): a terms aggregation, no hits.

    A thread is between the user and one agent, and its messages are indexed as that
    agent's own (``source_agent_id``): who talks with another agent must not change this
    agent's question, nor be told by it (the local index's rule, ``LocalIndex.speakers``).
    """
    clauses: list[dict[str, Any]] = [
        {"term": {"tenant_id": tenant_id}},
        {"term": {"user_id": user_id}},
        {"term": {"kind": DocKind.MESSAGE.value}},
    ]
    if agent_id is not None:
        clauses.append({"term": {"source_agent_id": agent_id}})
    return {
        "size": 0,
        "track_total_hits": False,
        "query": {"bool": {"filter": clauses}},
        "aggs": {"speakers": {"terms": {"field": "speaker", "size": SPEAKERS_LIMIT}}},
    }


def speakers_of(response: Mapping[str, Any]) -> frozenset[str]:
    """The speaker names of a ``speakers_body`` answer."""
    buckets = (response.get("aggregations") or {}).get("speakers", {}).get("buckets", [])
    return frozenset(str(b["key"]) for b in buckets if b.get("key"))
