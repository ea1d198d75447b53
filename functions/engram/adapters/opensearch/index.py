"""The search index on OpenSearch: k-NN vectors, BM25 text and filter fields.

A thin adapter: request bodies come from ``queries.py``; this class ships them, turns
the answers into hits and the client's errors into domain errors. The client is built
on first use, so a cold start that never searches never connects.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from aws_lambda_powertools import Logger
from opensearchpy.exceptions import NotFoundError, OpenSearchException, RequestError, TransportError

from engram.adapters.opensearch import connection, documents, mapping, queries
from engram.domain.errors import StoreUnavailable, Throttled
from engram.ports import IndexDocument, SearchHit, SearchQuery

if TYPE_CHECKING:
    from opensearchpy import OpenSearch

    from engram.settings import Settings

logger = Logger(service="engram", child=True)

RefreshPolicy = Literal[False, True, "wait_for"]


class OpenSearchIndex:
    def __init__(
        self,
        client_factory: Callable[[], OpenSearch],
        index_name: str,
        dimension: int,
        *,
        refresh: RefreshPolicy = False,
        model_id: str | None = None,
    ) -> None:
        """``refresh`` is False in the cloud (the index is eventually consistent and the
        store is the truth); tests that read their own writes pass ``"wait_for"``.
        ``model_id``: the embedder this process embeds with; the index records the one
        it was built with and is refused to another (``check_model``)."""
        self._factory = client_factory
        self.model_id = model_id
        self._model_checked = False
        self._refused_model: str | None = None  # the other embedder the index holds, once seen
        self._client: OpenSearch | None = None
        self._lock = threading.Lock()
        self._ready = False
        self.index_name = index_name
        self.dimension = dimension
        self.refresh = refresh

    @classmethod
    def from_settings(
        cls, settings: Settings, dimension: int, *, refresh: RefreshPolicy = False, model_id: str | None = None
    ) -> OpenSearchIndex:
        if not settings.opensearch_url:
            raise ValueError("ENGRAM_OPENSEARCH_URL is not set.")
        plan = connection.connection_plan(settings.opensearch_url, settings.aws_region)
        return cls(lambda: _make_client(plan), settings.opensearch_index, dimension, refresh=refresh, model_id=model_id)

    # -- writes -------------------------------------------------------------------------
    def upsert(self, docs: Sequence[IndexDocument]) -> None:
        if not docs:
            return
        self.ensure_index()
        actions = documents.upsert_actions(self.index_name, docs, self.dimension)
        for chunk in documents.chunks(actions, per_doc=2):
            self._bulk(chunk, "upsert")

    def delete(self, tenant_id: str, user_id: str, ids: Sequence[str]) -> None:
        if not ids:
            return
        self.ensure_index()
        actions = documents.delete_actions(self.index_name, tenant_id, user_id, ids)
        for chunk in documents.chunks(actions, per_doc=1):
            self._bulk(chunk, "delete")

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        client = self._get_client()
        deleted = 0
        with self._translate("erase_user"):
            if not client.indices.exists(index=self.index_name):
                return {"indexDocuments": 0}
            # delete_by_query reads a point-in-time view: documents written but not yet
            # refreshed would survive it, so make them visible first.
            client.indices.refresh(index=self.index_name)
            for _ in range(3):
                result = client.delete_by_query(
                    index=self.index_name,
                    body=documents.erase_user_body(tenant_id, user_id),
                    routing=documents.routing(tenant_id, user_id),
                    conflicts="proceed",
                    refresh=True,
                )
                deleted += int(result.get("deleted", 0))
                # A document rewritten while the erase ran is skipped as a conflict;
                # go again so nothing of the user is left behind.
                if not result.get("version_conflicts"):
                    break
            else:
                raise StoreUnavailable("Documents kept changing while the user was erased; retry the erase.")
        return {"indexDocuments": deleted}

    # -- reads --------------------------------------------------------------------------
    def speakers(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> frozenset[str]:
        """Who said the user's indexed past messages in ``agent_id``'s threads (None:
        every agent's): one routed aggregation. Messages indexed before the documents
        kept their speaker add nobody until they are indexed again (``engram reindex``)."""
        client = self._get_client()
        # Names are not vectors: an index of another embedder still knows who spoke, so
        # there is no model check here (a search refuses such an index).
        with self._translate("speakers"):
            try:
                answer = client.search(
                    index=self.index_name,
                    body=queries.speakers_body(tenant_id, user_id, agent_id),
                    routing=documents.routing(tenant_id, user_id),
                )
            except NotFoundError:
                return frozenset()  # nothing was ever indexed
        return queries.speakers_of(answer)

    def search(self, query: SearchQuery) -> list[SearchHit]:
        plan = queries.search_plan(self.index_name, query, self.dimension)
        if not plan.parts:
            return []
        self.check_model()
        client = self._get_client()
        with self._translate("search"):
            answer = client.msearch(body=list(plan.lines))
        found: dict[str, list[queries.RawHit]] = {"keyword": [], "semantic": []}
        for part, response in zip(plan.parts, answer.get("responses", []), strict=False):
            failure = documents.response_failure(response)
            if failure is not None:
                if failure.error_type == "index_not_found_exception":
                    return []  # nothing was ever indexed
                self._fail("search", failure.status, failure.error_type)
            found[part] = queries.hits_of(response)
        cosines: dict[str, float] = {}
        body = queries.cosine_body(query, queries.missing_cosines(found["keyword"], found["semantic"]), self.dimension)
        if body is not None:
            with self._translate("search"):
                answer = client.search(
                    index=self.index_name, body=body, routing=documents.routing(query.tenant_id, query.user_id)
                )
            cosines = queries.cosines_of(answer)
        return queries.merge_hits(found["keyword"], found["semantic"], cosines)

    # -- plumbing -----------------------------------------------------------------------
    def ensure_index(self) -> None:
        """Create the index on first write; refuse one built for another vector size.

        Writing first would let OpenSearch auto-create the index with a guessed
        mapping and no k-NN field, which no later write could repair.
        """
        if self._ready:
            return
        if self._refused_model is not None:
            self._refuse_another_model(self._refused_model)
        client = self._get_client()
        with self._translate("ensure_index"):
            if not client.indices.exists(index=self.index_name):
                try:
                    client.indices.create(index=self.index_name, body=mapping.index_body(self.dimension))
                except RequestError as exc:
                    # Another process created it between the check and here: that is fine.
                    if exc.error != "resource_already_exists_exception":
                        raise
            current = client.indices.get_mapping(index=self.index_name)
            existing = mapping.mapped_dimension(current)
            missing = mapping.missing_properties(current, self.dimension)
            if existing == self.dimension and missing:
                client.indices.put_mapping(index=self.index_name, body={"properties": missing})
            recorded = mapping.mapped_model(current)
            if existing == self.dimension and recorded is None and self.model_id is not None:
                # A new index, or one built before indexes recorded their embedder.
                client.indices.put_mapping(index=self.index_name, body=mapping.model_meta(self.model_id))
                recorded = self.model_id
        self._refuse_another_model(recorded)
        if existing != self.dimension:
            raise StoreUnavailable(
                f"The OpenSearch index '{self.index_name}' has "
                + ("no k-NN vector field" if existing is None else f"{existing}-dimension vectors")
                + f" but the embedder makes {self.dimension}-dimension ones; point ENGRAM_OPENSEARCH_INDEX "
                "at a new index and reindex from the store.",
                index=self.index_name,
                indexDimension=existing,
                embedderDimension=self.dimension,
            )
        self._ready = True
        self._model_checked = True

    def check_model(self) -> None:
        """Refuse, once per process, an index whose vectors another embedder made.

        A search compares a query only with vectors of its own model, so after an
        embedder change without a re-index every document would lose its meaning part
        without a word; refused, recall answers from the table flagged ``degraded`` and
        the logs say what to do. An index that records no model passes (``ensure_index``
        records it on the first write).
        """
        if self._model_checked or self.model_id is None:
            return
        if self._refused_model is not None:
            # Refused already: the index is not asked again (an embedder change needs a new
            # process anyway, pointed at a new index).
            self._refuse_another_model(self._refused_model)
        client = self._get_client()
        with self._translate("check_model"):
            if not client.indices.exists(index=self.index_name):
                return  # nothing indexed yet: the first write creates it for this model
            recorded = mapping.mapped_model(client.indices.get_mapping(index=self.index_name))
        self._refuse_another_model(recorded)
        self._model_checked = True

    def _refuse_another_model(self, recorded: str | None) -> None:
        if recorded is not None and self.model_id is not None and recorded != self.model_id:
            if self._refused_model is None:
                logger.error(
                    "the search index holds another embedder's vectors",
                    extra={"index": self.index_name, "index_model": recorded, "embedder_model": self.model_id},
                )
            self._refused_model = recorded
            raise StoreUnavailable(
                f"The OpenSearch index '{self.index_name}' holds vectors of '{recorded}' but the embedder is "
                f"'{self.model_id}'; point ENGRAM_OPENSEARCH_INDEX at a new index and reindex from the store "
                "(engram reindex).",
                index=self.index_name,
                indexModel=recorded,
                embedderModel=self.model_id,
            )

    def _bulk(self, actions: list[dict[str, Any]], operation: str) -> None:
        client = self._get_client()
        with self._translate(operation):
            response = client.bulk(body=actions, refresh=self.refresh)
        failures = documents.bulk_failures(response)
        if failures:
            worst = next((f for f in failures if f.status == 429), failures[0])
            logger.warning(
                "opensearch bulk items failed",
                extra={"operation": operation, "failed": len(failures), "status": worst.status},
            )
            self._fail(operation, worst.status, worst.error_type)

    def _get_client(self) -> OpenSearch:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._factory()
        return self._client

    @contextmanager
    def _translate(self, operation: str) -> Iterator[None]:
        try:
            yield
        except TransportError as exc:
            status = exc.status_code if isinstance(exc.status_code, int) else 0
            self._fail(operation, status, str(exc.error), exc)
        except OpenSearchException as exc:
            self._fail(operation, 0, type(exc).__name__, exc)

    def _fail(self, operation: str, status: int, error_type: str, cause: BaseException | None = None) -> None:
        logger.warning(
            "opensearch call failed",
            extra={"operation": operation, "status": status, "error_type": error_type, "index": self.index_name},
        )
        if status == 429:
            raise Throttled("The search index is busy; retry shortly.", operation=operation) from cause
        raise StoreUnavailable(
            "The search index is unavailable.", operation=operation, status=status, errorType=error_type
        ) from cause


def _make_client(plan: connection.ConnectionPlan) -> OpenSearch:
    from opensearchpy import OpenSearch, RequestsHttpConnection

    if plan.aws_region is None:
        return OpenSearch(hosts=[plan.url], timeout=10)
    import boto3
    from opensearchpy import AWSV4SignerAuth

    credentials = boto3.Session().get_credentials()
    if credentials is None:
        raise StoreUnavailable("No AWS credentials are available to sign OpenSearch requests.")
    return OpenSearch(
        hosts=[plan.url],
        http_auth=AWSV4SignerAuth(credentials, plan.aws_region, "es"),
        connection_class=RequestsHttpConnection,
        use_ssl=True,
        verify_certs=True,
        timeout=10,
        # One Lambda runs one request at a time, but the indexer may search and write.
        pool_maxsize=4,
    )
