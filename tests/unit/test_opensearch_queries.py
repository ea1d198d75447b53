"""The OpenSearch request builders, against the documented request shapes.

Shapes: efficient k-NN filtering (filter inside the knn clause),
https://docs.opensearch.org/latest/vector-search/filter-search-knn/efficient-knn-filtering/ ;
knn_vector method and spaces, https://docs.opensearch.org/latest/mappings/supported-field-types/knn-spaces/ .
The filter is also evaluated, with the query DSL's documented meaning, against the local
index's own rule on random documents and queries: both adapters must agree.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from engram.adapters import local_index_filters
from engram.adapters.opensearch import connection, documents, mapping
from engram.adapters.opensearch import queries as q
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import ts
from engram.ports import DocKind, IndexDocument, SearchHit, SearchQuery
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import T0

DIM = 4


def _doc(**overrides: Any) -> IndexDocument:
    base: dict[str, Any] = {
        "id": "e1",
        "tenant_id": "t1",
        "user_id": "u1",
        "kind": DocKind.MEMORY,
        "text": "favourite colour is blue",
        "vector": [0.5, 0.5, 0.5, 0.5],
        "model_id": "m",
        "visibility": "self",
        "source_agent_id": "agent-a",
    }
    base.update(overrides)
    return IndexDocument(**base)


def _query(**overrides: Any) -> SearchQuery:
    base: dict[str, Any] = {"tenant_id": "t1", "user_id": "u1", "now": T0, "text": "colour", "k": 5}
    base.update(overrides)
    return SearchQuery(**base)


class TestIndexBody:
    def test_given_a_dimension_when_the_mapping_is_built_then_the_vector_field_is_an_hnsw_cosine_lucene_knn_vector(
        self,
    ) -> None:
        body = mapping.index_body(512)
        assert body["settings"]["index"]["knn"] is True
        vector = body["mappings"]["properties"]["vector"]
        assert vector["type"] == "knn_vector"
        assert vector["dimension"] == 512
        assert vector["method"]["name"] == "hnsw"
        assert vector["method"]["space_type"] == "cosinesimil"
        assert vector["method"]["engine"] == "lucene"

    def test_given_the_mapping_then_text_is_bm25_text_and_every_filter_field_is_a_keyword(self) -> None:
        props = mapping.index_body(8)["mappings"]["properties"]
        assert props["text"]["type"] == "text"
        assert props["text"]["analyzer"] in mapping.index_body(8)["settings"]["analysis"]["analyzer"]
        for name in (
            "doc_id",
            "tenant_id",
            "user_id",
            "kind",
            "visibility",
            "source_agent_id",
            "group_ids",
            "category",
            "key",
            "thread_id",
        ):
            assert props[name] == {"type": "keyword"}, name
        assert props["expires_at"]["type"] in {"date", "date_nanos"}
        assert props["updated_at"]["type"] == "date"
        assert props["importance"]["type"] == "integer"
        assert props["confidence"]["type"] == "float"

    def test_given_the_mapping_then_it_is_strict_routed_and_keeps_vectors_out_of_source(self) -> None:
        mappings = mapping.index_body(8)["mappings"]
        assert mappings["dynamic"] == "strict"
        assert mappings["_routing"] == {"required": True}
        assert mappings["_source"] == {"excludes": ["vector"]}

    def test_given_every_document_field_when_mapped_then_each_has_a_mapping(self) -> None:
        # dynamic: strict would refuse a document carrying a field the mapping lacks.
        props = mapping.index_body(DIM)["mappings"]["properties"]
        source = documents.document_source(
            _doc(thread_id="th", category="fact", key="k", updated_at=T0, expires_at=T0), DIM
        )
        assert set(source) <= set(props)

    def test_given_a_nonpositive_dimension_then_it_is_refused(self) -> None:
        with pytest.raises(ValueError, match="dimension"):
            mapping.index_body(0)


class TestBulkActions:
    def test_given_docs_when_upserted_then_each_is_an_index_action_with_its_owner_id_and_routing(self) -> None:
        docs = [_doc(), _doc(id="e2", tenant_id="t2")]
        actions = documents.upsert_actions("idx", docs, DIM)
        assert len(actions) == 4
        meta, source = actions[0]["index"], actions[1]
        assert meta == {
            "_index": "idx",
            "_id": documents.document_id("t1", "u1", "e1"),
            "routing": documents.routing("t1", "u1"),
        }
        assert source["doc_id"] == "e1" and source["tenant_id"] == "t1" and source["vector"] == [0.5] * 4
        assert actions[2]["index"]["_id"] == documents.document_id("t2", "u1", "e2")
        assert actions[2]["index"]["routing"] == documents.routing("t2", "u1")

    def test_given_the_same_entry_id_under_two_owners_then_the_document_ids_and_routings_differ(self) -> None:
        assert documents.document_id("t1", "u1", "e1") != documents.document_id("t2", "u1", "e1")
        assert documents.document_id("t1", "u1", "e1") != documents.document_id("t1", "u2", "e1")
        # A separator in the ids cannot make two owners collide.
        assert documents.document_id("a\x1fb", "c", "e") != documents.document_id("a", "b\x1fc", "e")
        assert documents.routing("t1", "u1") != documents.routing("t2", "u1")

    def test_given_a_doc_with_times_when_serialised_then_times_are_iso_utc(self) -> None:
        source = documents.document_source(_doc(updated_at=T0, expires_at=T0 + timedelta(hours=1)), DIM)
        assert source["updated_at"] == "2026-01-15T10:30:00.000000Z"
        assert source["expires_at"] == "2026-01-15T11:30:00.000000Z"

    @pytest.mark.parametrize(
        "vector",
        [None, [0.1, 0.2], [0.0, 0.0, 0.0, 0.0], [float("nan"), 0.1, 0.1, 0.1]],
        ids=["none", "other-size", "zero", "nan"],
    )
    def test_given_a_vector_opensearch_cannot_take_when_serialised_then_the_field_is_left_out(
        self, vector: list[float] | None
    ) -> None:
        assert "vector" not in documents.document_source(_doc(vector=vector), DIM)

    def test_given_ids_when_deleted_then_one_delete_action_each_with_the_upserts_id_and_routing(self) -> None:
        actions = documents.delete_actions("idx", "t1", "u1", ["e1", "e2", "e1"])
        assert actions == [
            {
                "delete": {
                    "_index": "idx",
                    "_id": documents.document_id("t1", "u1", "e1"),
                    "routing": documents.routing("t1", "u1"),
                }
            },
            {
                "delete": {
                    "_index": "idx",
                    "_id": documents.document_id("t1", "u1", "e2"),
                    "routing": documents.routing("t1", "u1"),
                }
            },
        ]
        assert actions[0]["delete"]["_id"] == documents.upsert_actions("idx", [_doc()], DIM)[0]["index"]["_id"]

    def test_given_many_actions_when_chunked_then_no_document_is_split_from_its_source(self) -> None:
        actions = documents.upsert_actions("idx", [_doc(id=f"e{i}") for i in range(5)], DIM)
        parts = list(documents.chunks(actions, per_doc=2, size=2))
        assert [len(p) for p in parts] == [4, 4, 2]
        assert [line for p in parts for line in p] == actions

    def test_given_a_user_when_erased_then_delete_by_query_matches_exactly_that_tenant_and_user(self) -> None:
        assert documents.erase_user_body("t1", "u1") == {
            "query": {"bool": {"filter": [{"term": {"tenant_id": "t1"}}, {"term": {"user_id": "u1"}}]}}
        }


class TestSearchBodies:
    def test_given_a_vector_when_the_knn_query_is_built_then_the_filter_sits_inside_the_knn_clause(self) -> None:
        query = _query(vector=[1.0, 0.0, 0.0, 0.0], k=7)
        body = q.knn_body(query, DIM)
        assert body is not None
        assert body["size"] == 7
        clause = body["query"]["knn"]["vector"]
        assert clause["vector"] == [1.0, 0.0, 0.0, 0.0]
        assert clause["k"] == 7
        assert clause["filter"] == q.search_filter(query)
        assert set(body["query"]) == {"knn"}  # no post-filter beside the knn clause
        assert body["_source"] == ["doc_id", "kind", "importance", "confidence", "updated_at", "occurred_at", "speaker"]

    @pytest.mark.skipif("model_id" not in SearchQuery.__dataclass_fields__, reason="SearchQuery has no model_id yet")
    def test_given_the_query_vectors_model_then_only_that_models_vectors_are_compared(self) -> None:
        query = _query(vector=[1.0, 0.0, 0.0, 0.0], model_id="bedrock:titan:512")
        body = q.knn_body(query, DIM)
        assert body is not None
        clauses = body["query"]["knn"]["vector"]["filter"]["bool"]["filter"]
        assert {"term": {"model_id": "bedrock:titan:512"}} in clauses
        assert {"term": {"model_id": "bedrock:titan:512"}} not in q.search_filter(query)["bool"]["filter"]

    def test_given_no_model_named_then_every_vector_of_the_index_takes_part(self) -> None:
        body = q.knn_body(_query(vector=[1.0, 0.0, 0.0, 0.0]), DIM)
        assert body is not None
        assert body["query"]["knn"]["vector"]["filter"] == q.search_filter(_query())

    def test_given_keyword_hits_outside_the_nearest_then_an_exact_cosine_script_scores_just_those(self) -> None:
        query = _query(vector=[0.0, 1.0, 0.0, 0.0])
        keyword = [q.RawHit("a", DocKind.MEMORY, 2.0), q.RawHit("b", DocKind.MEMORY, 1.0)]
        missing = q.missing_cosines(keyword, [q.RawHit("b", DocKind.MEMORY, 0.9)])
        assert missing == ["a"]
        body = q.cosine_body(query, missing, DIM)
        assert body is not None
        assert body["size"] == 1
        script_score = body["query"]["script_score"]
        assert script_score["query"]["bool"]["filter"] == [q.vector_filter(query), {"terms": {"doc_id": ["a"]}}]
        assert "cosineSimilarity(params.query_value, doc[params.field])" in script_score["script"]["source"]
        assert "doc[params.field].size() == 0" in script_score["script"]["source"]
        assert script_score["script"]["params"] == {"field": "vector", "query_value": [0.0, 1.0, 0.0, 0.0]}

    def test_given_no_ids_or_no_vector_then_there_is_no_cosine_request(self) -> None:
        assert q.cosine_body(_query(vector=[0.0, 1.0, 0.0, 0.0]), [], DIM) is None
        assert q.cosine_body(_query(), ["a"], DIM) is None

    @pytest.mark.parametrize("vector", [None, [1.0, 0.0], [0.0] * DIM], ids=["none", "other-size", "zero"])
    def test_given_no_usable_vector_then_there_is_no_knn_query(self, vector: list[float] | None) -> None:
        assert q.knn_body(_query(vector=vector), DIM) is None

    def test_given_text_when_the_bm25_query_is_built_then_it_matches_text_under_the_same_filter(self) -> None:
        query = _query(text="favourite colour", k=3)
        body = q.bm25_body(query)
        assert body is not None
        assert body["size"] == 3
        assert body["query"]["bool"]["must"] == [{"match": {"text": {"query": "favourite colour"}}}]
        assert body["query"]["bool"]["filter"] == [q.search_filter(query)]

    def test_given_blank_text_then_there_is_no_bm25_query(self) -> None:
        assert q.bm25_body(_query(text="  ")) is None

    def test_given_any_query_then_the_filter_always_pins_tenant_user_kinds_and_expiry(self) -> None:
        clauses = q.search_filter(_query(kinds=(DocKind.MEMORY, DocKind.ARCHIVAL)))["bool"]["filter"]
        assert {"term": {"tenant_id": "t1"}} in clauses
        assert {"term": {"user_id": "u1"}} in clauses
        assert {"terms": {"kind": ["memory", "archival"]}} in clauses
        expiry = {
            "bool": {
                "should": [
                    {"bool": {"must_not": {"exists": {"field": "expires_at"}}}},
                    {"range": {"expires_at": {"gt": ts(T0)}}},
                ],
                "minimum_should_match": 1,
            }
        }
        assert expiry in clauses

    def test_given_an_agent_scope_then_visibility_is_global_or_own_or_a_shared_group(self) -> None:
        clause = q.visibility_filter(VisibilityScope("agent-a", ("g1", "g2")))
        assert clause == {
            "bool": {
                "should": [
                    {"term": {"visibility": "global"}},
                    {"term": {"source_agent_id": "agent-a"}},
                    {"bool": {"filter": [{"term": {"visibility": "group"}}, {"terms": {"group_ids": ["g1", "g2"]}}]}},
                ],
                "minimum_should_match": 1,
            }
        }

    def test_given_no_scope_or_the_admin_view_then_there_is_no_visibility_clause(self) -> None:
        assert q.visibility_filter(None) is None
        assert q.visibility_filter(VisibilityScope("admin", everything=True)) is None

    def test_given_threads_to_keep_and_to_skip_then_both_are_in_the_filter(self) -> None:
        body = q.search_filter(_query(thread_ids=("a", "b"), exclude_thread_ids=("c",), categories=("fact",)))["bool"]
        assert {"terms": {"thread_id": ["a", "b"]}} in body["filter"]
        assert {"terms": {"category": ["fact"]}} in body["filter"]
        assert body["must_not"] == [{"terms": {"thread_id": ["c"]}}]

    def test_given_text_and_vector_when_planned_then_one_msearch_pair_each_routed_to_the_owner(self) -> None:
        query = _query(vector=[0.0, 1.0, 0.0, 0.0])
        plan = q.search_plan("idx", query, DIM)
        assert plan.parts == ("keyword", "semantic")
        header = {"index": "idx", "routing": documents.routing("t1", "u1")}
        assert plan.lines == (header, q.bm25_body(query), header, q.knn_body(query, DIM))

    @pytest.mark.parametrize(
        "overrides",
        [{"categories": ()}, {"thread_ids": ()}, {"kinds": ()}, {"k": 0}, {"text": "", "vector": None}],
        ids=["no-categories", "no-threads", "no-kinds", "k0", "nothing-to-search"],
    )
    def test_given_a_query_nothing_can_match_then_no_request_is_planned(self, overrides: dict[str, Any]) -> None:
        plan = q.search_plan("idx", _query(**{"vector": [1.0, 0.0, 0.0, 0.0], **overrides}), DIM)
        assert plan.parts == () and plan.lines == ()


class TestAnswers:
    @pytest.mark.parametrize(("score", "cosine"), [(1.0, 1.0), (0.75, 0.5), (0.5, 0.0), (0.0, -1.0), (1.0000001, 1.0)])
    def test_given_a_cosinesimil_score_then_the_cosine_is_recovered(self, score: float, cosine: float) -> None:
        assert q.cosine_from_score(score) == pytest.approx(cosine)

    def test_given_keyword_and_semantic_hits_when_merged_then_each_id_once_with_both_scores(self) -> None:
        keyword = [q.RawHit("a", DocKind.MEMORY, 3.2), q.RawHit("b", DocKind.MEMORY, 1.1)]
        semantic = [q.RawHit("b", DocKind.MEMORY, 0.9), q.RawHit("c", DocKind.MEMORY, 0.6)]
        merged = {h.id: h for h in q.merge_hits(keyword, semantic)}
        assert merged == {
            "a": SearchHit("a", DocKind.MEMORY, keyword=3.2, semantic=0.0),
            "b": SearchHit("b", DocKind.MEMORY, keyword=1.1, semantic=pytest.approx(0.8)),
            "c": SearchHit("c", DocKind.MEMORY, keyword=0.0, semantic=pytest.approx(0.2)),
        }

    def test_given_a_cosine_answer_then_one_plus_cosine_is_undone_and_vectorless_docs_left_out(self) -> None:
        answer = {
            "hits": {
                "hits": [
                    {"_score": 1.6, "_source": {"doc_id": "a", "kind": "memory"}},
                    {"_score": 0.25, "_source": {"doc_id": "b", "kind": "memory"}},
                    {"_score": 0.0, "_source": {"doc_id": "no-vector", "kind": "memory"}},
                ]
            }
        }
        assert q.cosines_of(answer) == {"a": pytest.approx(0.6), "b": pytest.approx(-0.75)}

    def test_given_cosines_for_keyword_hits_when_merged_then_those_hits_carry_them(self) -> None:
        merged = q.merge_hits([q.RawHit("a", DocKind.MEMORY, 3.0)], [], {"a": 0.4})
        assert merged == [SearchHit("a", DocKind.MEMORY, keyword=3.0, semantic=0.4)]

    def test_given_a_search_answer_then_hits_carry_id_kind_and_score(self) -> None:
        answer = {"hits": {"hits": [{"_id": "x", "_score": 2.5, "_source": {"doc_id": "e1", "kind": "message"}}]}}
        assert q.hits_of(answer) == [q.RawHit("e1", DocKind.MESSAGE, 2.5)]

    def test_given_a_message_hit_then_it_carries_when_it_was_said_and_by_whom(self) -> None:
        source = {"doc_id": "m1", "kind": "message", "occurred_at": ts(T0), "speaker": "Maya"}
        answer = {"hits": {"hits": [{"_id": "x", "_score": 1.0, "_source": source}]}}
        [hit] = q.merge_hits(q.hits_of(answer), [])
        assert (hit.occurred_at, hit.speaker) == (T0, "Maya")
        # A document written before the index kept the speaker: unknown, not empty.
        source.pop("speaker")
        assert q.hits_of(answer)[0].speaker is None

    def test_given_an_agent_then_speakers_aggregate_its_messages_only_and_none_means_every_agent(self) -> None:
        body = q.speakers_body("t1", "u1", "alpha")
        assert body["size"] == 0
        assert body["query"]["bool"]["filter"] == [
            {"term": {"tenant_id": "t1"}},
            {"term": {"user_id": "u1"}},
            {"term": {"kind": "message"}},
            {"term": {"source_agent_id": "alpha"}},
        ]
        assert body["aggs"]["speakers"]["terms"]["field"] == "speaker"
        assert {"term": {"source_agent_id": "alpha"}} not in q.speakers_body("t1", "u1", None)["query"]["bool"][
            "filter"
        ]
        answer = {
            "aggregations": {"speakers": {"buckets": [{"key": "Maya", "doc_count": 3}, {"key": "Leo", "doc_count": 1}]}}
        }
        assert q.speakers_of(answer) == {"Maya", "Leo"}
        assert q.speakers_of({}) == frozenset()

    def test_given_a_bulk_answer_then_only_real_failures_are_reported(self) -> None:
        assert documents.bulk_failures({"errors": False, "items": [{"index": {"status": 201}}]}) == []
        answer = {
            "errors": True,
            "items": [
                {"index": {"status": 201}},
                {"delete": {"status": 404, "result": "not_found"}},
                {"index": {"status": 429, "error": {"type": "es_rejected_execution_exception", "reason": "x"}}},
                {"index": {"status": 400, "error": {"type": "mapper_parsing_exception"}}},
            ],
        }
        assert documents.bulk_failures(answer) == [
            documents.Failure(429, "es_rejected_execution_exception"),
            documents.Failure(400, "mapper_parsing_exception"),
        ]

    def test_given_an_msearch_part_with_an_error_then_it_is_a_failure(self) -> None:
        assert documents.response_failure({"hits": {"hits": []}, "status": 200}) is None
        assert documents.response_failure(
            {"error": {"type": "index_not_found_exception"}, "status": 404}
        ) == documents.Failure(404, "index_not_found_exception")

    def test_given_a_mapping_answer_then_the_vector_dimension_is_read(self) -> None:
        answer = {"idx": {"mappings": {"properties": {"vector": {"type": "knn_vector", "dimension": 256}}}}}
        assert mapping.mapped_dimension(answer) == 256
        assert mapping.mapped_dimension({"idx": {"mappings": {"properties": {"text": {"type": "text"}}}}}) is None


class TestConnectionPlan:
    @pytest.mark.parametrize(
        ("url", "region"),
        [
            ("https://search-mem-abc123.eu-west-1.es.amazonaws.com", "eu-west-1"),
            ("https://vpc-mem-abc123.us-west-2.es.amazonaws.com:443", "us-west-2"),
            ("https://search-mem-abc.cn-north-1.es.amazonaws.com.cn", "cn-north-1"),
        ],
    )
    def test_given_an_amazon_opensearch_domain_then_requests_are_signed_in_its_region(
        self, url: str, region: str
    ) -> None:
        assert connection.connection_plan(url, "us-east-1") == connection.ConnectionPlan(url, region)

    def test_given_a_local_cluster_then_requests_are_not_signed(self) -> None:
        assert connection.connection_plan("http://localhost:9200", "us-east-1").aws_region is None

    def test_given_a_url_without_scheme_then_it_is_refused(self) -> None:
        with pytest.raises(ValueError, match="https://host"):
            connection.connection_plan("localhost:9200", "us-east-1")


# -- the filter, evaluated with the DSL's documented meaning ------------------------------
def _holds(clause: dict[str, Any], doc: dict[str, Any]) -> bool:
    """term/terms/exists/range(gt)/bool, as OpenSearch evaluates them on keyword fields."""
    (kind, body), *_ = clause.items()
    if kind == "term":
        (field, value), *_ = body.items()
        return value in _values(doc, field)
    if kind == "terms":
        (field, wanted), *_ = body.items()
        return any(v in wanted for v in _values(doc, field))
    if kind == "exists":
        return bool(_values(doc, body["field"]))
    if kind == "range":
        (field, bounds), *_ = body.items()
        return any(v > bounds["gt"] for v in _values(doc, field))  # fixed-width ISO strings
    if kind == "bool":
        must = [*_as_list(body.get("filter")), *_as_list(body.get("must"))]
        if not all(_holds(c, doc) for c in must):
            return False
        if any(_holds(c, doc) for c in _as_list(body.get("must_not"))):
            return False
        should = _as_list(body.get("should"))
        return not should or sum(_holds(c, doc) for c in should) >= body.get("minimum_should_match", 1)
    raise AssertionError(f"unexpected clause {kind}")


def _as_list(value: Any) -> list[dict[str, Any]]:
    return [] if value is None else value if isinstance(value, list) else [value]


def _values(doc: dict[str, Any], field: str) -> list[Any]:
    value = doc.get(field)
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


_names = st.sampled_from(["a", "b", "c"])
_docs = st.builds(
    _doc,
    id=st.just("e1"),
    tenant_id=st.sampled_from(["t1", "t2"]),
    user_id=st.sampled_from(["u1", "u2"]),
    kind=st.sampled_from(list(DocKind)),
    visibility=st.sampled_from(["self", "group", "global"]),
    source_agent_id=_names,
    group_ids=st.lists(_names, max_size=2, unique=True).map(tuple),
    category=st.none() | st.sampled_from(["fact", "event"]),
    thread_id=st.none() | _names,
    expires_at=st.none() | st.integers(-3, 3).map(lambda s: T0 + timedelta(microseconds=s)),
)
_scopes = st.none() | st.builds(
    VisibilityScope,
    agent_id=_names,
    group_ids=st.lists(_names, max_size=2, unique=True).map(tuple),
    everything=st.booleans(),
)
_queries = st.builds(
    _query,
    scope=_scopes,
    kinds=st.lists(st.sampled_from(list(DocKind)), min_size=1, unique=True).map(tuple),
    categories=st.none() | st.lists(st.sampled_from(["fact", "event"]), min_size=1, unique=True).map(tuple),
    thread_ids=st.none() | st.lists(_names, min_size=1, unique=True).map(tuple),
    exclude_thread_ids=st.lists(_names, max_size=2, unique=True).map(tuple),
)


@settings(max_examples=400, deadline=None)
@given(doc=_docs, query=_queries)
def test_given_any_doc_and_query_then_the_opensearch_filter_agrees_with_the_local_index(
    doc: IndexDocument, query: SearchQuery
) -> None:
    source = documents.document_source(doc, DIM)
    meta = local_index_filters.meta_from(local_index_filters.meta_json(doc))
    local = (doc.tenant_id, doc.user_id) == (query.tenant_id, query.user_id) and local_index_filters.passes(
        meta, query, local_index_filters.QueryFilter.of(query)
    )
    assert _holds(q.search_filter(query), source) == local


def test_an_index_created_before_a_field_was_added_gets_it_before_the_first_write() -> None:
    from engram.adapters.opensearch.mapping import index_body, missing_properties

    body = index_body(8)
    old = {"engram": {"mappings": {"properties": dict(body["mappings"]["properties"])}}}
    del old["engram"]["mappings"]["properties"]["occurred_at"]
    assert missing_properties(old, 8) == {"occurred_at": body["mappings"]["properties"]["occurred_at"]}
    assert missing_properties({"engram": {"mappings": body["mappings"]}}, 8) == {}
