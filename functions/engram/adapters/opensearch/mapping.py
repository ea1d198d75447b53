"""The index's layout: its fields, text analyzer and k-NN vector settings, and what an
existing index lacks of it (fields added since it was created, its vector size).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

VECTOR_FIELD = "vector"


TEXT_ANALYZER = "engram_text"

# The longest speaker name the index aggregates (characters; Lucene's own limit on a
# keyword term is 32,766 bytes, which one over-long name must not hit).
SPEAKER_MAX = 256


def index_body(dimension: int) -> dict[str, Any]:
    """Settings and mapping of the index.

    The Lucene engine is pinned: it supports filtering inside the k-NN clause and its
    ``cosinesimil`` score is ``(1 + cos) / 2`` on every OpenSearch 2.x release, so the
    cosine can be recovered exactly (see ``queries.cosine_from_score``). Per-user filters are
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
                # Who said a past message (``IndexDocument.speaker``): recall ranks a
                # message on it and on ``occurred_at`` before reading it from the table,
                # and ``speakers`` aggregates it. A name longer than ``ignore_above`` is
                # kept in _source (recall still gets it) but not aggregated.
                "speaker": {"type": "keyword", "ignore_above": SPEAKER_MAX},
            },
        },
    }


def missing_properties(mapping: Mapping[str, Any], dimension: int) -> dict[str, Any]:
    """Fields this version maps that an existing index (a GET _mapping answer) lacks.

    The mapping is strict, so a document with a field the index does not know is
    rejected; fields added since an index was created (``occurred_at``, ``speaker``) are put into its
    mapping before the first write (adding a field is allowed on a live index)."""
    wanted: dict[str, Any] = index_body(dimension)["mappings"]["properties"]
    present: set[str] = set()
    for body in mapping.values():
        present |= set(body.get("mappings", {}).get("properties", {}))
    return {name: spec for name, spec in wanted.items() if name not in present}


META_MODEL = "engram_model_id"


def model_meta(model_id: str) -> dict[str, Any]:
    """The mapping's ``_meta``: which embedder's vectors the index holds."""
    return {"_meta": {META_MODEL: model_id}}


def mapped_model(mapping: Mapping[str, Any]) -> str | None:
    """The embedder an existing index records (a GET _mapping answer); None if it records none."""
    for body in mapping.values():
        model = (body.get("mappings", {}).get("_meta") or {}).get(META_MODEL)
        if isinstance(model, str):
            return model
    return None


def mapped_dimension(mapping: Mapping[str, Any]) -> int | None:
    """The vector dimension of an existing index, from a GET _mapping answer."""
    for body in mapping.values():
        field = body.get("mappings", {}).get("properties", {}).get(VECTOR_FIELD)
        if isinstance(field, dict) and "dimension" in field:
            return int(field["dimension"])
    return None
