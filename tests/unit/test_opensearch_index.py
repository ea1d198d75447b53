"""The OpenSearch adapter's glue, through the real opensearch-py client.

A recording connection stands where the HTTP connection would be: it keeps every
request the client serialises and answers from a script, so these tests see the exact
HTTP method, path, parameters and NDJSON bodies the adapter sends, without an engine.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from engram.adapters.opensearch import OpenSearchIndex, documents, mapping
from engram.adapters.opensearch import queries as q
from engram.domain.errors import StoreUnavailable, Throttled
from engram.ports import DocKind, IndexDocument, SearchQuery
from engram.settings import Settings
from opensearchpy import AWSV4SignerAuth, Connection, OpenSearch
from opensearchpy.exceptions import ConnectionError as OSConnectionError
from opensearchpy.exceptions import TransportError

from tests.support import T0

DIM = 4
Answer = tuple[int, Any]


class Script:
    """Answers by (method, path) in order; records every request."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, str], list[Answer | Exception]] = {}
        self.requests: list[dict[str, Any]] = []

    def on(self, method: str, path: str, *answers: Answer | Exception) -> Script:
        self.answers.setdefault((method, path), []).extend(answers)
        return self

    def paths(self) -> list[tuple[str, str]]:
        return [(r["method"], r["path"]) for r in self.requests]


def _client(script: Script) -> OpenSearch:
    class Recording(Connection):
        def perform_request(
            self,
            method: str,
            url: str,
            params: Any = None,
            body: Any = None,
            timeout: Any = None,
            ignore: Any = (),
            headers: Any = None,
        ) -> Any:
            text = body.decode() if isinstance(body, bytes) else body
            script.requests.append(
                {
                    "method": method,
                    "path": url,
                    "params": {k: v.decode() if isinstance(v, bytes) else v for k, v in (params or {}).items()},
                    "body": text,
                }
            )
            queue = script.answers.get((method, url))
            if not queue:
                raise AssertionError(f"unexpected request {method} {url}")
            answer = queue.pop(0) if len(queue) > 1 else queue[0]
            if isinstance(answer, Exception):
                raise answer
            status, data = answer
            raw = "" if data is None else json.dumps(data)
            if not 200 <= status < 300 and status not in ignore:
                self._raise_error(status, raw, "application/json")
            return status, {"content-type": "application/json"}, raw

    return OpenSearch(hosts=["http://opensearch.test:9200"], connection_class=Recording, max_retries=0)


def _index(script: Script, **kwargs: Any) -> OpenSearchIndex:
    return OpenSearchIndex(lambda: _client(script), "mem", DIM, **kwargs)


def _ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _doc(doc_id: str = "e1", vector: list[float] | None = None) -> IndexDocument:
    return IndexDocument(
        doc_id, "t1", "u1", DocKind.MEMORY, "likes tea", vector or [1.0, 0.0, 0.0, 0.0], "m", "self", "agent-a"
    )


# A current index: every field this version maps (an older one gets the missing fields put).
MAPPING = (200, {"mem": {"mappings": mapping.index_body(DIM)["mappings"]}})
BULK_OK = (200, {"errors": False, "items": [{"index": {"status": 201}}]})


def _hits(*pairs: tuple[str, float]) -> dict[str, Any]:
    return {
        "status": 200,
        "hits": {"hits": [{"_id": "x", "_score": s, "_source": {"doc_id": i, "kind": "memory"}} for i, s in pairs]},
    }


class TestLaziness:
    def test_given_a_new_index_object_then_no_client_is_built_until_first_use(self) -> None:
        built: list[int] = []

        def factory() -> OpenSearch:
            built.append(1)
            return _client(Script())

        OpenSearchIndex(factory, "mem", DIM)
        assert built == []


class TestWrites:
    def test_given_no_index_when_first_upserting_then_it_is_created_with_the_mapping_then_bulk_written(self) -> None:
        script = (
            Script()
            .on("HEAD", "/mem", (404, None))
            .on("PUT", "/mem", (200, {"acknowledged": True}))
            .on("GET", "/mem/_mapping", MAPPING)
            .on("POST", "/_bulk", BULK_OK)
        )
        index = _index(script, refresh="wait_for")
        index.upsert([_doc()])
        index.upsert([_doc("e2")])
        assert script.paths() == [
            ("HEAD", "/mem"),
            ("PUT", "/mem"),
            ("GET", "/mem/_mapping"),
            ("POST", "/_bulk"),
            ("POST", "/_bulk"),  # the index is checked once per process
        ]
        assert json.loads(script.requests[1]["body"]) == mapping.index_body(DIM)
        bulk = script.requests[3]
        assert bulk["params"] == {"refresh": "wait_for"}
        assert _ndjson(bulk["body"]) == documents.upsert_actions("mem", [_doc()], DIM)

    def test_given_another_process_created_the_index_first_then_the_upsert_goes_on(self) -> None:
        script = (
            Script()
            .on("HEAD", "/mem", (404, None))
            .on("PUT", "/mem", (400, {"error": {"type": "resource_already_exists_exception"}, "status": 400}))
            .on("GET", "/mem/_mapping", MAPPING)
            .on("POST", "/_bulk", BULK_OK)
        )
        _index(script).upsert([_doc()])
        assert script.paths()[-1] == ("POST", "/_bulk")

    def test_given_an_index_built_for_another_vector_size_then_writes_are_refused_with_a_fix(self) -> None:
        other = (200, {"mem": {"mappings": {"properties": {"vector": {"type": "knn_vector", "dimension": 1024}}}}})
        script = Script().on("HEAD", "/mem", (200, None)).on("GET", "/mem/_mapping", other)
        with pytest.raises(StoreUnavailable, match="1024-dimension") as info:
            _index(script).upsert([_doc()])
        assert "ENGRAM_OPENSEARCH_INDEX" in info.value.message
        assert ("POST", "/_bulk") not in script.paths()

    def test_given_a_bulk_item_throttled_then_the_write_raises_throttled(self) -> None:
        answer = (200, {"errors": True, "items": [{"index": {"status": 429, "error": {"type": "rejected"}}}]})
        script = Script().on("HEAD", "/mem", (200, None)).on("GET", "/mem/_mapping", MAPPING)
        script.on("POST", "/_bulk", answer)
        with pytest.raises(Throttled):
            _index(script).upsert([_doc()])

    def test_given_a_bulk_item_rejected_then_the_write_raises_store_unavailable(self) -> None:
        answer = (200, {"errors": True, "items": [{"index": {"status": 400, "error": {"type": "mapper_parsing"}}}]})
        script = Script().on("HEAD", "/mem", (200, None)).on("GET", "/mem/_mapping", MAPPING)
        script.on("POST", "/_bulk", answer)
        with pytest.raises(StoreUnavailable):
            _index(script).upsert([_doc()])

    def test_given_ids_when_deleted_then_one_routed_bulk_delete_and_missing_ones_are_fine(self) -> None:
        answer = (200, {"errors": True, "items": [{"delete": {"status": 404, "result": "not_found"}}]})
        script = Script().on("HEAD", "/mem", (200, None)).on("GET", "/mem/_mapping", MAPPING)
        script.on("POST", "/_bulk", answer)
        _index(script).delete("t1", "u1", ["e1"])
        assert _ndjson(script.requests[-1]["body"]) == documents.delete_actions("mem", "t1", "u1", ["e1"])

    def test_given_nothing_to_write_then_no_request_is_sent(self) -> None:
        script = Script()
        index = _index(script)
        index.upsert([])
        index.delete("t1", "u1", [])
        assert script.requests == []


class TestErase:
    def test_given_a_user_when_erased_then_refresh_and_a_routed_delete_by_query_report_the_count(self) -> None:
        script = (
            Script()
            .on("HEAD", "/mem", (200, None))
            .on("POST", "/mem/_refresh", (200, {}))
            .on("POST", "/mem/_delete_by_query", (200, {"deleted": 7, "version_conflicts": 0}))
        )
        assert _index(script).erase_user("t1", "u1") == {"indexDocuments": 7}
        assert script.paths() == [("HEAD", "/mem"), ("POST", "/mem/_refresh"), ("POST", "/mem/_delete_by_query")]
        dbq = script.requests[-1]
        assert json.loads(dbq["body"]) == documents.erase_user_body("t1", "u1")
        assert dbq["params"] == {"routing": documents.routing("t1", "u1"), "conflicts": "proceed", "refresh": "true"}

    def test_given_a_doc_rewritten_during_the_erase_then_it_goes_again_and_counts_both(self) -> None:
        script = (
            Script()
            .on("HEAD", "/mem", (200, None))
            .on("POST", "/mem/_refresh", (200, {}))
            .on(
                "POST",
                "/mem/_delete_by_query",
                (200, {"deleted": 3, "version_conflicts": 1}),
                (200, {"deleted": 1, "version_conflicts": 0}),
            )
        )
        assert _index(script).erase_user("t1", "u1") == {"indexDocuments": 4}

    def test_given_no_index_yet_then_erasing_counts_zero(self) -> None:
        script = Script().on("HEAD", "/mem", (404, None))
        assert _index(script).erase_user("t1", "u1") == {"indexDocuments": 0}


class TestSearch:
    def _query(self, **kw: Any) -> SearchQuery:
        return SearchQuery("t1", "u1", T0, text="tea", vector=[1.0, 0.0, 0.0, 0.0], **kw)

    def test_given_text_and_vector_then_one_msearch_merges_bm25_and_cosine(self) -> None:
        answer = (200, {"responses": [_hits(("e1", 2.0), ("e2", 1.0)), _hits(("e2", 0.9), ("e3", 0.5))]})
        script = Script().on("POST", "/_msearch", answer)
        script.on("POST", "/mem/_search", (200, _hits(("e1", 1.6))))
        hits = {h.id: h for h in _index(script).search(self._query())}
        assert set(hits) == {"e1", "e2", "e3"}
        assert (hits["e1"].keyword, hits["e1"].semantic) == (2.0, pytest.approx(0.6))
        assert (hits["e2"].keyword, hits["e2"].semantic) == (1.0, pytest.approx(0.8))
        assert (hits["e3"].keyword, hits["e3"].semantic) == (0.0, pytest.approx(0.0))
        sent = _ndjson(script.requests[0]["body"])
        plan = q.search_plan("mem", self._query(), DIM)
        assert sent == list(plan.lines)
        # The keyword hit the k-NN answer left out gets its exact cosine, routed to the owner.
        follow_up = script.requests[1]
        assert follow_up["params"] == {"routing": documents.routing("t1", "u1")}
        assert json.loads(follow_up["body"]) == q.cosine_body(self._query(), ["e1"], DIM)

    def test_given_keyword_hits_all_among_the_nearest_then_no_follow_up_request(self) -> None:
        answer = (200, {"responses": [_hits(("e1", 2.0)), _hits(("e1", 0.9))]})
        script = Script().on("POST", "/_msearch", answer)
        hits = _index(script).search(self._query())
        assert [(h.id, h.semantic) for h in hits] == [("e1", pytest.approx(0.8))]
        assert script.paths() == [("POST", "/_msearch")]

    def test_given_nothing_indexed_yet_then_search_finds_nothing(self) -> None:
        missing = {"error": {"type": "index_not_found_exception"}, "status": 404}
        script = Script().on("POST", "/_msearch", (200, {"responses": [missing, missing]}))
        assert _index(script).search(self._query()) == []

    def test_given_a_part_throttled_then_search_raises_throttled(self) -> None:
        busy = {"error": {"type": "rejected_execution_exception"}, "status": 429}
        script = Script().on("POST", "/_msearch", (200, {"responses": [_hits(), busy]}))
        with pytest.raises(Throttled):
            _index(script).search(self._query())

    def test_given_a_query_nothing_can_match_then_no_request_is_sent(self) -> None:
        script = Script()
        assert _index(script).search(self._query(categories=())) == []
        assert script.requests == []


class TestErrors:
    @pytest.mark.parametrize(
        ("failure", "expected"),
        [
            ((429, {"error": {"type": "too_many_requests"}, "status": 429}), Throttled),
            ((503, {"error": {"type": "unavailable"}, "status": 503}), StoreUnavailable),
            ((403, {"error": {"type": "security_exception"}, "status": 403}), StoreUnavailable),
            (OSConnectionError("N/A", "connection refused", None), StoreUnavailable),
        ],
        ids=["429", "503", "403", "no-connection"],
    )
    def test_given_a_client_error_then_a_domain_error_is_raised_from_it(
        self, failure: Answer | Exception, expected: type[Exception]
    ) -> None:
        script = Script().on("POST", "/_msearch", failure)
        with pytest.raises(expected) as info:
            _index(script).search(SearchQuery("t1", "u1", T0, text="tea"))
        assert isinstance(info.value.__cause__, TransportError)


class TestFromSettings:
    def test_given_a_local_url_then_the_client_is_unsigned(self) -> None:
        index = OpenSearchIndex.from_settings(Settings(opensearch_url="http://localhost:9200"), DIM)
        client = index._get_client()
        assert client.transport.kwargs.get("http_auth") is None
        assert (index.index_name, index.dimension) == ("engram-memory", DIM)

    def test_given_an_amazon_domain_then_requests_are_sigv4_signed_for_es_in_its_region(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
        settings = Settings(opensearch_url="https://search-mem-abc.eu-west-1.es.amazonaws.com", opensearch_index="m2")
        client = OpenSearchIndex.from_settings(settings, DIM)._get_client()
        auth = client.transport.kwargs["http_auth"]
        assert isinstance(auth, AWSV4SignerAuth)
        assert (auth.signer.region, auth.signer.service) == ("eu-west-1", "es")

    def test_given_no_url_then_from_settings_refuses(self) -> None:
        with pytest.raises(ValueError, match="ENGRAM_OPENSEARCH_URL"):
            OpenSearchIndex.from_settings(Settings(), DIM)


def test_given_the_container_with_an_opensearch_url_then_it_builds_the_opensearch_index(
    tmp_path: Any,
) -> None:
    from engram.backends import shared_search_index

    index, _ = shared_search_index(Settings(data_dir=tmp_path, opensearch_url="http://localhost:9200"), 384)
    assert isinstance(index, OpenSearchIndex) and index.dimension == 384


def test_given_an_index_from_before_occurred_at_when_first_writing_then_the_field_is_put_into_its_mapping() -> None:
    old = mapping.index_body(DIM)["mappings"]
    old = {**old, "properties": {k: v for k, v in old["properties"].items() if k != "occurred_at"}}
    script = (
        Script()
        .on("HEAD", "/mem", (200, None))
        .on("GET", "/mem/_mapping", (200, {"mem": {"mappings": old}}))
        .on("PUT", "/mem/_mapping", (200, {"acknowledged": True}))
    )
    _index(script).ensure_index()
    put = [r for r in script.requests if r["method"] == "PUT"]
    assert put and json.loads(put[0]["body"])["properties"] == {
        "occurred_at": mapping.index_body(DIM)["mappings"]["properties"]["occurred_at"]
    }
