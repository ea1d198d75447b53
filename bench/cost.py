"""A cost model per operation on AWS, from measured request counts and latencies and list prices.

Inputs, each said where it comes from:

- DynamoDB request units per operation: ``bench/results/dynamodb_requests.json`` (moto
  server, units estimated from what went over the wire by DynamoDB's sizing rules);
- Lambda GB-seconds: the configured memory of each function (``infra``'s ``SPECS``) times
  a duration built from the in-process latency measured here (``vs_mem0.json``,
  ``core_latency.json``) scaled to Lambda's CPU share at that memory, plus the network
  waits of the calls the function makes (assumed, listed in ``ASSUMED_WAIT_MS``: nothing
  here reaches AWS);
- Bedrock tokens: Titan Text Embeddings v2 reads the query (recall) or the memory text
  (write); tokens estimated as characters / 4 over the generated evaluation's texts;
- OpenSearch: instance-hours do not scale with requests, so the share per million recalls
  depends on the monthly volume (a table of volumes), and stored memories need k-NN graph
  memory on the data nodes (AWS's sizing formula, below).

Prices: on-demand list prices for us-east-1 (N. Virginia) as published by AWS on its
pricing pages, as known in 2025 (DynamoDB after its November 2024 on-demand price cut).
They were not re-read from this machine (it has no network): check them before you
rely on the totals. Run: ``.venv/bin/python -m bench.cost``
"""

from __future__ import annotations

import ast
import json
import statistics
from pathlib import Path
from typing import Any

from bench.common import RESULTS, write_results
from bench.eval_data import fact_text, generate

ROOT = Path(__file__).resolve().parents[1]
REGION = "us-east-1"
PRICES_AS_OF = "2025 list prices (not re-checked from this machine)"
PRICES = {
    "dynamodb_usd_per_million_wru": 0.625,
    "dynamodb_usd_per_million_rru": 0.125,
    "dynamodb_usd_per_gb_month": 0.25,
    "lambda_arm_usd_per_gb_second": 0.0000133334,
    "lambda_usd_per_million_requests": 0.20,
    "api_gateway_rest_usd_per_million": 3.50,
    "titan_embed_v2_usd_per_million_tokens": 0.02,
    "opensearch_t3_medium_usd_per_hour": 0.073,
    "opensearch_gp3_usd_per_gb_month": 0.122,
}
# Network waits a function spends per call in AWS (nothing here measures them): typical
# same-region figures, to be replaced by X-Ray's once deployed.
ASSUMED_WAIT_MS = {"dynamodb_request": 6.0, "bedrock_embed": 25.0, "opensearch_query": 15.0, "opensearch_index": 10.0}
# Lambda gives a function one full vCPU at 1,769 MB and a proportional share below it;
# this machine's cores are taken as one vCPU each.
FULL_VCPU_MB = 1769
HOURS_PER_MONTH = 730
# AWS's k-NN sizing for HNSW: 1.1 * (4 * dimension + 8 * m) bytes per vector.
EMBEDDING_DIMENSION = 512
HNSW_M = 16
# The share of a t3.medium.search node's 4 GiB the k-NN graphs may use: half goes to the
# JVM heap, and the k-NN circuit breaker allows half of the rest by default.
T3_MEDIUM_KNN_BYTES = 1 * 1024**3


def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def memory_sizes() -> dict[str, int]:
    """Each function's configured memory, read from the stack's source: importing the CDK
    starts a Node.js process, far too much to read a few numbers."""
    tree = ast.parse((ROOT / "infra" / "engram_infra" / "functions.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "SPECS":
            assert isinstance(node.value, ast.Dict)
            out = {}
            for key, call in zip(node.value.keys, node.value.values, strict=True):
                assert isinstance(key, ast.Constant)
                assert isinstance(call, ast.Call)
                memory = call.args[2]
                assert isinstance(memory, ast.Constant)
                out[str(key.value)] = int(memory.value)
            return out
    raise LookupError("SPECS not found in infra/engram_infra/functions.py")


def tokens_per_text() -> dict[str, float]:
    """Characters / 4, the usual rough English estimate, over the evaluation's own texts."""
    data = generate(users=20)
    queries = [q.text for u in data for q in u.queries]
    facts = [fact_text(f.key, f.value) for u in data for f in u.facts]
    return {
        "query": round(statistics.fmean(len(t) for t in queries) / 4, 1),
        "memory": round(statistics.fmean(len(t) for t in facts) / 4, 1),
    }


def dynamodb_case(cases: list[dict[str, Any]], *prefixes: str) -> dict[str, Any] | None:
    for prefix in prefixes:
        for case in cases:
            if case["case"].startswith(prefix):
                return case
    return None


def lambda_usd(memory_mb: int, duration_ms: float) -> float:
    # Billed per millisecond, rounded up.
    return memory_mb / 1024 * (int(duration_ms) + 1) / 1000 * PRICES["lambda_arm_usd_per_gb_second"]


def model() -> dict[str, Any]:
    ddb = _load("dynamodb_requests")
    vs = _load("vs_mem0")
    core = _load("core_latency")
    memory = memory_sizes()
    tokens = tokens_per_text()
    cpu_scale = FULL_VCPU_MB / memory["api"]
    notes: list[str] = []

    # In-process CPU time on this machine: recall through the service (vs_mem0, hash
    # embedder: the embedding itself is Bedrock's in AWS), upsert through the API handler.
    recall_cpu = vs["results"]["hash"]["engram"]["search"]["p50_ms"] if vs and "hash" in vs["results"] else 2.0
    upsert_cpu = core["upsert_create"]["p50_ms"] if core else 8.0
    if not vs:
        notes.append("no vs_mem0 results: recall CPU assumed 2 ms")
    if not core:
        notes.append("no core_latency results: upsert CPU assumed 8 ms")

    cases = ddb["cases"] if ddb else []
    recall_case = dynamodb_case(cases, "recall", "search")
    write_case = dynamodb_case(cases, "upsert: create")
    if recall_case and not recall_case["case"].startswith("recall"):
        notes.append(f"DynamoDB side of a recall taken from the '{recall_case['case']}' case (no recall case measured)")
    if not ddb:
        notes.append("no dynamodb_requests results: DynamoDB requests and units assumed (3 reads, 1 transaction)")
    recall_ddb = dict(recall_case or {"requests": 3, "estimatedReadUnits": 1.5, "estimatedWriteUnits": 0.0})
    write_ddb = write_case or {"requests": 2, "estimatedReadUnits": 1.0, "estimatedWriteUnits": 6.0}
    # Access statistics: one recall in ``every`` writes them (docs/dynamodb.md); a recall's
    # expected cost carries that share of the sampled recall's write.
    every = int(ddb.get("accessSampleEvery", 1)) if ddb else 1
    sampled = dynamodb_case(cases, "recall, sampled")
    if recall_case and sampled:
        recall_ddb["requests"] = recall_case["requests"] + 1 / every
        recall_ddb["estimatedWriteUnits"] = recall_case["estimatedWriteUnits"] + sampled["estimatedWriteUnits"] / every
        recall_ddb["case"] = f"{recall_case['case']}, plus 1/{every} of '{sampled['case']}'"
    elif recall_case:
        notes.append("no sampled recall measured: access statistics left out of the recall's cost")

    w = ASSUMED_WAIT_MS
    recall_ms = (
        recall_cpu * cpu_scale
        + w["bedrock_embed"]
        + w["opensearch_query"]
        + recall_ddb["requests"] * w["dynamodb_request"]
    )
    upsert_ms = upsert_cpu * cpu_scale + write_ddb["requests"] * w["dynamodb_request"]
    # The stream indexer embeds and indexes each new entry (batched by the stream; one
    # entry's share of a batch is taken as one embedding call and one index request).
    indexer_ms = w["bedrock_embed"] + w["opensearch_index"] + w["dynamodb_request"]

    p = PRICES
    per_recall = {
        "dynamodb": recall_ddb["estimatedReadUnits"] * p["dynamodb_usd_per_million_rru"] / 1e6
        + recall_ddb["estimatedWriteUnits"] * p["dynamodb_usd_per_million_wru"] / 1e6,
        "lambda": lambda_usd(memory["api"], recall_ms) + p["lambda_usd_per_million_requests"] / 1e6,
        "bedrock": tokens["query"] * p["titan_embed_v2_usd_per_million_tokens"] / 1e6,
        "api_gateway": p["api_gateway_rest_usd_per_million"] / 1e6,
    }
    per_write = {
        "dynamodb": write_ddb["estimatedReadUnits"] * p["dynamodb_usd_per_million_rru"] / 1e6
        + write_ddb["estimatedWriteUnits"] * p["dynamodb_usd_per_million_wru"] / 1e6,
        "lambda": lambda_usd(memory["api"], upsert_ms)
        + lambda_usd(memory["indexer"], indexer_ms)
        + 2 * p["lambda_usd_per_million_requests"] / 1e6,
        "bedrock": tokens["memory"] * p["titan_embed_v2_usd_per_million_tokens"] / 1e6,
        "api_gateway": p["api_gateway_rest_usd_per_million"] / 1e6,
    }

    node_month = p["opensearch_t3_medium_usd_per_hour"] * HOURS_PER_MONTH
    graph_bytes = 1.1 * (4 * EMBEDDING_DIMENSION + 8 * HNSW_M)
    nodes_per_million = 1e6 * graph_bytes / T3_MEDIUM_KNN_BYTES
    # DynamoDB storage: the entry, its copy in LSI1 (ALL projection) and its history
    # record, ~1 KB each for a short memory with its metadata (an assumption: the bench
    # does not report sizes).
    ddb_gb_per_million = 3 * 1e6 * 1024 / 1024**3

    return {
        "region": REGION,
        "prices_as_of": PRICES_AS_OF,
        "prices": PRICES,
        "assumed_wait_ms": ASSUMED_WAIT_MS,
        "lambda_memory_mb": memory,
        "cpu_scale_at_api_memory": round(cpu_scale, 2),
        "tokens_per_text": tokens,
        "inputs": {
            "recall_cpu_ms_here": recall_cpu,
            "upsert_cpu_ms_here": upsert_cpu,
            "recall_dynamodb": {
                k: (round(v, 3) if isinstance(v, float) else v)
                for k in ("case", "requests", "estimatedReadUnits", "estimatedWriteUnits")
                for v in [recall_ddb.get(k)]
            },
            "write_dynamodb": {
                k: write_ddb.get(k) for k in ("case", "requests", "estimatedReadUnits", "estimatedWriteUnits")
            },
        },
        "billed_ms": {
            "recall_api": round(recall_ms, 1),
            "upsert_api": round(upsert_ms, 1),
            "indexer_per_entry": indexer_ms,
        },
        "usd_per_million_recalls": {k: round(v * 1e6, 2) for k, v in per_recall.items()}
        | {"total_without_opensearch": round(sum(per_recall.values()) * 1e6, 2)},
        "usd_per_million_memories_written": {k: round(v * 1e6, 2) for k, v in per_write.items()}
        | {"total_without_opensearch": round(sum(per_write.values()) * 1e6, 2)},
        # Issue 16's budget counts what scales with the call: Lambda, DynamoDB, Bedrock.
        "lambda_dynamodb_bedrock_usd_per_million": {
            "recalls": round(sum(per_recall[x] for x in ("lambda", "dynamodb", "bedrock")) * 1e6, 2),
            "writes": round(sum(per_write[x] for x in ("lambda", "dynamodb", "bedrock")) * 1e6, 2),
        },
        "dynamodb_cases": cases,
        "access_sample_every": every,
        "opensearch": {
            "node": "t3.medium.search",
            "usd_per_node_month": round(node_month, 2),
            "knn_graph_bytes_per_memory": round(graph_bytes),
            "t3_medium_nodes_per_million_memories": round(nodes_per_million, 2),
            "usd_per_million_recalls_at_monthly_volume": {
                f"{volume:,}": round(node_month / (volume / 1e6), 2) for volume in (1_000_000, 10_000_000, 100_000_000)
            },
        },
        "usd_per_million_memories_stored_per_month": {
            "dynamodb_storage": round(ddb_gb_per_million * p["dynamodb_usd_per_gb_month"], 2),
            "opensearch_nodes_for_knn_memory": round(nodes_per_million * node_month, 2),
        },
        "notes": notes,
    }


README = ROOT / "README.md"
DYNAMODB_DOC = ROOT / "docs" / "dynamodb.md"
BEGIN, END = "<!-- cost:begin (generated by bench/cost.py) -->", "<!-- cost:end -->"


def readme_block(c: dict[str, Any]) -> str:
    """The README's cost lines, from the same model and results as docs/performance.md."""
    r, w = c["usd_per_million_recalls"], c["usd_per_million_memories_written"]
    i = c["inputs"]
    rd, wd = i["recall_dynamodb"], i["write_dynamodb"]
    both = c["lambda_dynamodb_bedrock_usd_per_million"]
    return (
        f"Per call, from `bench/cost.py` over the request counts measured on moto "
        f"(`bench/results/dynamodb_requests.json`, a user with 500 memories; details in "
        f"[docs/performance.md](docs/performance.md#cost-model) and [docs/dynamodb.md](docs/dynamodb.md)):\n\n"
        "| per million | DynamoDB | Lambda | Bedrock | Lambda + DynamoDB + Bedrock | API Gateway |\n"
        "|---|---:|---:|---:|---:|---:|\n"
        f"| recalls ({rd['requests']:.3g} requests, {rd['estimatedReadUnits']:g} read and "
        f"{rd['estimatedWriteUnits']:g} write units) | ${r['dynamodb']:,.2f} | ${r['lambda']:,.2f} | "
        f"${r['bedrock']:,.2f} | **${both['recalls']:,.2f}** | ${r['api_gateway']:,.2f} |\n"
        f"| memories written ({wd['requests']} requests, {wd['estimatedReadUnits']:g} read and "
        f"{wd['estimatedWriteUnits']:g} write units) | ${w['dynamodb']:,.2f} | ${w['lambda']:,.2f} | "
        f"${w['bedrock']:,.2f} | **${both['writes']:,.2f}** | ${w['api_gateway']:,.2f} |\n\n"
        "OpenSearch, WAF, logs and tracing come on top (below)."
    )


def dynamodb_table(c: dict[str, Any]) -> str:
    """Each access pattern's measured cost, for docs/dynamodb.md."""
    rows = [
        "| case | requests | read units | write units | by operation |",
        "|---|---:|---:|---:|---|",
    ]
    for case in c["dynamodb_cases"]:
        ops = ", ".join(f"{op} {n}" for op, n in case["byOperation"].items())
        rows.append(
            f"| {case['case']} | {case['requests']} | {case['estimatedReadUnits']:g} | "
            f"{case['estimatedWriteUnits']:g} | {ops} |"
        )
    return "\n".join(rows)


def replace_block(text: str, block: str) -> str:
    start, end = text.index(BEGIN), text.index(END)
    return text[: start + len(BEGIN)] + "\n" + block + "\n" + text[end:]


def main() -> dict[str, Any]:
    result = model()
    path = write_results("cost", result)
    for doc, block in ((README, readme_block(result)), (DYNAMODB_DOC, dynamodb_table(result))):
        doc.write_text(replace_block(doc.read_text(encoding="utf-8"), block), encoding="utf-8")
    print(f"Cost model, {REGION}, {PRICES_AS_OF}")
    print(f"  per million recalls (USD): {result['usd_per_million_recalls']}")
    print(f"  per million memories written (USD): {result['usd_per_million_memories_written']}")
    print(f"  Lambda + DynamoDB + Bedrock per million (USD): {result['lambda_dynamodb_bedrock_usd_per_million']}")
    print(
        f"  OpenSearch per million recalls by monthly volume: {result['opensearch']['usd_per_million_recalls_at_monthly_volume']}"
    )
    print(f"  per million memories stored, per month (USD): {result['usd_per_million_memories_stored_per_month']}")
    for note in result["notes"]:
        print(f"  note: {note}")
    print(f"  -> {path}")
    return result


if __name__ == "__main__":
    main()
