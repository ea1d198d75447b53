"""Stand-ins, over real HTTP on loopback, for the two AWS services moto does not emulate.

- ``OpenSearchStandin``: the part of OpenSearch's REST API that Engram's adapter sends
  (index create/exists/mapping, ``_bulk``, ``_msearch``, ``_search``, ``_refresh``,
  ``_delete_by_query``), evaluating the query DSL that ``engram.adapters.opensearch.queries``
  builds: ``term``, ``terms``, ``range``, ``exists``, ``bool``, ``match`` (BM25),
  ``knn`` (exact cosine, scored ``(1 + cos) / 2`` as Lucene's ``cosinesimil``), the
  cosine ``script_score`` and ``terms`` aggregations; a strict mapping refuses a
  document with a field it does not name. No OpenSearch engine can run here (see docs/deployment.md),
  moto emulates only the service's control plane, and the opensearch-py client must
  really send its requests for a Lambda to be exercised from its artefacts, so this
  is the smallest thing that answers them honestly. ``fail_with`` makes it answer
  every request with an error status, as a domain that is down does.
- ``BedrockStandin``: ``InvokeModel`` for Titan Text Embeddings v2 (the request and
  answer bodies of the model's documentation), with deterministic hashing vectors.
  It counts calls, so tests can say how many embeddings a write, a recall or a dream
  run cost. botocore reaches it through ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from engram.adapters.hashing_embedder import HashingEmbedder

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _tokens(text: str) -> list[str]:
    out = []
    for word in _WORD.findall(text.lower()):
        out.append(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return out


def _values(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _as_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


class _Server(ThreadingHTTPServer):
    daemon_threads = True


class _Standin:
    """An HTTP server on 127.0.0.1 in a background thread; subclasses answer requests."""

    def __init__(self) -> None:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, payload = standin.handle(self.command, self.path, body)
                data = b"" if payload is None else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _answer

        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name=type(self).__name__, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def handle(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        raise NotImplementedError

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class OpenSearchStandin(_Standin):
    def __init__(self) -> None:
        self.indices: dict[str, dict[str, Any]] = {}
        self.fail_with: int | None = None
        self.requests: Counter[str] = Counter()
        # Documents written by _bulk index actions and removed by delete actions.
        self.indexed = 0
        self.deleted = 0
        super().__init__()

    # -- what tests read --------------------------------------------------------------
    def documents(self, index: str) -> dict[str, dict[str, Any]]:
        with self._lock:
            return dict(self.indices.get(index, {}).get("docs", {}))

    def doc_ids(self, index: str) -> set[str]:
        return {d["doc_id"] for d in self.documents(index).values()}

    # -- the REST API -----------------------------------------------------------------
    def handle(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        parts = urlsplit(path)
        segments = [s for s in parts.path.split("/") if s]
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        endpoint = segments[-1] if segments and segments[-1].startswith("_") else ""
        with self._lock:
            self.requests[endpoint or method] += 1
            if self.fail_with is not None:
                return self.fail_with, {"error": {"type": "service_unavailable"}, "status": self.fail_with}
            try:
                return self._route(method, segments, endpoint, query, body)
            except KeyError as exc:
                return 400, {"error": {"type": "parsing_exception", "reason": str(exc)}, "status": 400}

    def _route(
        self, method: str, segments: list[str], endpoint: str, query: dict[str, str], body: bytes
    ) -> tuple[int, Any]:
        if endpoint == "_bulk":
            return 200, self._bulk(list(self._ndjson(body)))
        if endpoint == "_msearch":
            return 200, self._msearch(list(self._ndjson(body)))
        name = segments[0] if segments else ""
        if not endpoint:
            if method == "HEAD":
                return (200 if name in self.indices else 404), None
            if method == "PUT":
                if name in self.indices:
                    return 400, {"error": {"type": "resource_already_exists_exception"}, "status": 400}
                self.indices[name] = {"body": json.loads(body or b"{}"), "docs": {}}
                return 200, {"acknowledged": True, "index": name}
            if method == "DELETE":
                return (200, {"acknowledged": True}) if self.indices.pop(name, None) else (404, self._missing(name))
        if name not in self.indices:
            return 404, self._missing(name)
        if endpoint == "_mapping":
            mappings = self.indices[name]["body"].setdefault("mappings", {})
            if method == "PUT":
                # Put mapping adds properties and replaces ``_meta``, as OpenSearch does.
                change = json.loads(body or b"{}")
                mappings.setdefault("properties", {}).update(change.get("properties", {}))
                if "_meta" in change:
                    mappings["_meta"] = change["_meta"]
                return 200, {"acknowledged": True}
            return 200, {name: {"mappings": mappings}}
        if endpoint == "_refresh":
            return 200, {"_shards": {"failed": 0}}
        if endpoint == "_search":
            return 200, self._search(name, json.loads(body or b"{}"))
        if endpoint == "_delete_by_query":
            clause = json.loads(body)["query"]
            docs = self.indices[name]["docs"]
            doomed = [i for i, d in docs.items() if self._matches(d, clause)]
            for i in doomed:
                del docs[i]
            return 200, {"deleted": len(doomed), "version_conflicts": 0}
        return 400, {"error": {"type": "unsupported_by_standin", "reason": f"{method} {endpoint}"}, "status": 400}

    @staticmethod
    def _missing(name: str) -> dict[str, Any]:
        return {"error": {"type": "index_not_found_exception", "index": name}, "status": 404}

    @staticmethod
    def _ndjson(body: bytes) -> Iterator[dict[str, Any]]:
        for line in body.decode().splitlines():
            if line.strip():
                yield json.loads(line)

    def _bulk(self, lines: list[dict[str, Any]]) -> dict[str, Any]:
        items: list[dict[str, Any]] = []
        i = 0
        while i < len(lines):
            action, meta = next(iter(lines[i].items()))
            index = self.indices.get(meta["_index"])
            if action == "index":
                source = lines[i + 1]
                i += 2
                if index is None:
                    items.append({"index": {"status": 404, "error": {"type": "index_not_found_exception"}}})
                    continue
                if self._unmapped(index, source):
                    # dynamic: strict refuses a field the mapping does not name.
                    items.append({"index": {"status": 400, "error": {"type": "strict_dynamic_mapping_exception"}}})
                    continue
                index["docs"][meta["_id"]] = source
                self.indexed += 1
                items.append({"index": {"_id": meta["_id"], "status": 201}})
            elif action == "delete":
                i += 1
                found = index is not None and index["docs"].pop(meta["_id"], None) is not None
                self.deleted += int(found)
                items.append({"delete": {"_id": meta["_id"], "status": 200 if found else 404}})
            else:
                raise KeyError(f"bulk action {action}")
        errors = any(next(iter(item.values()))["status"] >= 300 for item in items if "index" in item)
        return {"errors": errors, "items": items}

    @staticmethod
    def _unmapped(index: dict[str, Any], source: dict[str, Any]) -> bool:
        mappings = index["body"].get("mappings", {})
        return mappings.get("dynamic") == "strict" and not set(source) <= set(mappings.get("properties", {}))

    def _msearch(self, lines: list[dict[str, Any]]) -> dict[str, Any]:
        responses = []
        for header, body in zip(lines[::2], lines[1::2], strict=True):
            name = header["index"]
            if name not in self.indices:
                responses.append({**self._missing(name), "status": 404})
            else:
                responses.append(self._search(name, body))
        return {"responses": responses}

    # -- the query DSL ----------------------------------------------------------------
    def _search(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        docs = self.indices[name]["docs"]
        clause = body.get("query", {"match_all": {}})
        scored = self._score(docs, clause)
        ranked = sorted(scored.items(), key=lambda kv: -kv[1])[: int(body.get("size", 10))]
        fields = body.get("_source", True)
        hits = []
        for doc_key, score in ranked:
            source = docs[doc_key]
            # A field absent from a document is absent from its _source, as in OpenSearch.
            shown = {f: source[f] for f in fields if f in source} if isinstance(fields, list) else source
            hits.append({"_id": doc_key, "_score": score, "_source": shown})
        answer: dict[str, Any] = {"hits": {"hits": hits}, "status": 200}
        if body.get("aggs"):
            answer["aggregations"] = self._aggregate(name, [docs[k] for k in scored], body["aggs"])
        return answer

    def _aggregate(self, name: str, matched: list[dict[str, Any]], aggs: dict[str, Any]) -> dict[str, Any]:
        """``terms`` aggregations over the matched documents (keyword fields; values
        longer than the field's ``ignore_above`` are not indexed, so not counted)."""
        properties = self.indices[name]["body"].get("mappings", {}).get("properties", {})
        out: dict[str, Any] = {}
        for agg_name, spec in aggs.items():
            kind, params = next(iter(spec.items()))
            if kind != "terms":
                raise KeyError(f"aggregation {kind}")
            field = params["field"]
            if field not in properties:
                out[agg_name] = {"buckets": []}  # an unmapped field aggregates nothing
                continue
            limit = int(properties[field].get("ignore_above", 1 << 30))
            counts = Counter(v for d in matched for v in _values(d.get(field)) if len(str(v)) <= limit)
            ranked = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))[: int(params.get("size", 10))]
            out[agg_name] = {"buckets": [{"key": k, "doc_count": n} for k, n in ranked]}
        return out

    def _score(self, docs: dict[str, dict[str, Any]], clause: dict[str, Any]) -> dict[str, float]:
        kind, spec = next(iter(clause.items()))
        if kind == "knn":
            field, params = next(iter(spec.items()))
            passing = [k for k, d in docs.items() if field in d and self._matches(d, params.get("filter"))]
            scores = {k: (1 + _cosine(params["vector"], docs[k][field])) / 2 for k in passing}
            return dict(sorted(scores.items(), key=lambda kv: -kv[1])[: int(params["k"])])
        if kind == "script_score":
            vector = spec["script"]["params"]["query_value"]
            field = spec["script"]["params"]["field"]
            return {
                k: (1 + _cosine(vector, d[field])) if field in d else 0.0
                for k, d in docs.items()
                if self._matches(d, spec["query"])
            }
        if kind == "bool" and spec.get("must"):
            passing = {k: d for k, d in docs.items() if self._matches(d, {"bool": {**spec, "must": []}})}
            total: dict[str, float] = {}
            for must in _values(spec["must"]):
                part = self._score(passing, must)
                total = part if not total else {k: total[k] + v for k, v in part.items() if k in total}
            return total
        if kind == "match":
            field, params = next(iter(spec.items()))
            return self._bm25(docs, field, params["query"] if isinstance(params, dict) else params)
        return {k: 1.0 for k, d in docs.items() if self._matches(d, clause)}

    def _bm25(self, docs: dict[str, dict[str, Any]], field: str, text: str) -> dict[str, float]:
        terms = set(_tokens(text))
        bags = {k: Counter(_tokens(str(d.get(field) or ""))) for k, d in docs.items()}
        if not bags:
            return {}
        avg = sum(sum(b.values()) for b in bags.values()) / len(bags) or 1.0
        df = {t: sum(1 for b in bags.values() if t in b) for t in terms}
        out: dict[str, float] = {}
        for k, bag in bags.items():
            length = sum(bag.values())
            score = 0.0
            for t in terms:
                if bag[t]:
                    idf = math.log(1 + (len(bags) - df[t] + 0.5) / (df[t] + 0.5))
                    score += idf * bag[t] * 2.2 / (bag[t] + 1.2 * (0.25 + 0.75 * length / avg))
            if score > 0:
                out[k] = score
        return out

    def _matches(self, doc: dict[str, Any], clause: dict[str, Any] | None) -> bool:
        if not clause:
            return True
        kind, spec = next(iter(clause.items()))
        if kind == "match_all":
            return True
        if kind == "term":
            field, value = next(iter(spec.items()))
            return value in _values(doc.get(field))
        if kind == "terms":
            field, wanted = next(iter(spec.items()))
            return bool(set(_values(doc.get(field))) & set(wanted))
        if kind == "exists":
            return bool(_values(doc.get(spec["field"])))
        if kind == "range":
            field, bounds = next(iter(spec.items()))
            value = doc.get(field)
            if value is None:
                return False
            for op, bound in bounds.items():
                left, right = _as_time(value), _as_time(bound)
                if not {"gt": left > right, "gte": left >= right, "lt": left < right, "lte": left <= right}[op]:
                    return False
            return True
        if kind == "match":
            field, params = next(iter(spec.items()))
            text = params["query"] if isinstance(params, dict) else params
            return bool(set(_tokens(text)) & set(_tokens(str(doc.get(field) or ""))))
        if kind == "bool":
            if not all(self._matches(doc, c) for key in ("filter", "must") for c in _values(spec.get(key))):
                return False
            if any(self._matches(doc, c) for c in _values(spec.get("must_not"))):
                return False
            should = _values(spec.get("should"))
            needed = int(spec.get("minimum_should_match", 0 if spec.get("filter") or spec.get("must") else 1))
            return not should or sum(self._matches(doc, c) for c in should) >= needed
        raise KeyError(f"query {kind}")


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


class BedrockStandin(_Standin):
    """``POST /model/{modelId}/invoke`` for Titan Text Embeddings v2."""

    def __init__(self) -> None:
        self.calls = 0
        self.texts: list[str] = []
        self._embedders: dict[int, HashingEmbedder] = {}
        super().__init__()

    def reset(self) -> None:
        with self._lock:
            self.calls = 0
            self.texts.clear()

    def handle(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        segments = [s for s in urlsplit(path).path.split("/") if s]
        if method != "POST" or len(segments) != 3 or segments[0] != "model" or segments[2] != "invoke":
            return 404, {"message": f"no such operation: {method} {path}"}
        request = json.loads(body)
        dimension = int(request.get("dimensions", 1024))
        with self._lock:
            self.calls += 1
            self.texts.append(request["inputText"])
            embedder = self._embedders.setdefault(dimension, HashingEmbedder(dimension))
        vector = embedder.embed([request["inputText"]])[0]
        return 200, {"embedding": list(vector), "inputTextTokenCount": len(_tokens(request["inputText"]))}
