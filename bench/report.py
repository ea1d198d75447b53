"""Writes docs/performance.md from bench/results/*.json and the charts in docs/img/.

Every number in the page comes from a results file written by a benchmark; the prose
around them only says how they were measured. A benchmark without results gets a line
saying how to produce them instead of a table. Run: ``.venv/bin/python -m bench.report``
(``make bench`` runs it after the benchmarks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench import cost
from bench.charts import IMAGES, load

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"


def _img(name: str) -> str:
    path = IMAGES / f"{name}.png"
    return f"![{name.replace('_', ' ')}](img/{name}.png)\n" if path.exists() else ""


def _missing(module: str) -> str:
    return f"_No results yet: run `.venv/bin/python -m bench.{module}`._\n"


def _machine(data: dict[str, Any]) -> str:
    m = data.get("machine", {})
    return f"{data.get('at', '?')}, Python {m.get('python', '?')}, {m.get('cpus', '?')} CPUs"


def _ratio(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}×"


def vs_mem0_section() -> str:
    data = load("vs_mem0")
    out = ["## Engram and mem0, side by side\n\n"]
    if not data:
        return "".join([*out, _missing("vs_mem0")])
    out.append(
        f"One run ({_machine(data)}), the same embedder object for both, {data['users']} users of the "
        "generated evaluation (`bench/eval_data.py`), top "
        f"{data['top_k']}. mem0 {next(iter(data['results'].values()))['mem0']['notes'].get('mem0_version', '')} "
        "with `infer=False`, qdrant in memory, no LLM (a stub that raises if called), telemetry off. "
        "Quality is on the held-out test users: Engram's ranking weights were tuned on the training users. "
        "How each side is set up, and why, is in `bench/vs_mem0.py`.\n\n"
        "| embedder | system | ingest memories/s | search p50 ms | p95 ms | p99 ms | recall@5 (test) | MRR@10 (test) "
        "| recall@5 (all) | stale returned |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    for name, r in data["results"].items():
        for side in ("engram", "mem0"):
            s = r[side]
            q = s["quality"]
            out.append(
                f"| {name} | {'Engram' if side == 'engram' else 'mem0'} | {s['ingest']['per_second']:,.1f} "
                f"| {s['search']['p50_ms']:.2f} | {s['search']['p95_ms']:.2f} | {s['search']['p99_ms']:.2f} "
                f"| {q['test']['recall@5']:.3f} | {q['test']['mrr@10']:.3f} | {q['all']['recall@5']:.3f} "
                f"| {s['stale_returned']} |\n"
            )
    out.append(
        "\nRatios, Engram / mem0 (above 1 is better for throughput and quality, below 1 is better for latency):\n\n"
        "| embedder | ingest | search p50 | p95 | p99 | recall@5 test | MRR@10 test |\n|---|---:|---:|---:|---:|---:|---:|\n"
    )
    for name, r in data["results"].items():
        x = r["ratio_engram_over_mem0"]
        out.append(
            f"| {name} | {_ratio(x['ingest_per_second'])} | {_ratio(x['search_p50_ms'])} | {_ratio(x['search_p95_ms'])} "
            f"| {_ratio(x['search_p99_ms'])} | {_ratio(x['recall@5_test'])} | {_ratio(x['mrr@10_test'])} |\n"
        )
    out.append(
        "\nWhat the comparison is not: mem0 here ranks by cosine similarity alone, because its BM25 "
        "keyword search needs fastembed's `Qdrant/bm25` model from a model hub and its lemmas and entity "
        "boosts need spaCy models, none of which can be downloaded here; with them its quality may be "
        "higher and its latency will be. Engram's search is a hybrid of BM25 (SQLite FTS5), cosine, "
        "importance, recency and confidence. mem0's in-memory qdrant scans every stored point under a "
        "filter, so its search time grows with the whole store, not with one user's memories.\n\n"
    )
    out.append(_img("vs_mem0"))
    return "".join(out)


def latency_section() -> str:
    data = load("recall_latency")
    out = ["## Recall latency against entries per user\n\n"]
    if not data:
        return "".join([*out, _missing("recall_latency")])
    out.append(
        f"In-process `RecallService` on the embedded store ({_machine(data)}, {data.get('calls', '?')} calls "
        "per size); the query embedding is timed apart and not included.\n\n"
        "| embedder | entries per user | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|---:|\n"
    )
    for name, r in data["results"].items():
        for size in sorted(r["sizes"], key=int):
            s = r["sizes"][size]
            out.append(f"| {name} | {int(size):,} | {s['p50_ms']:.2f} | {s['p95_ms']:.2f} | {s['p99_ms']:.2f} |\n")
    out.append("\n" + _img("recall_latency_vs_entries"))
    return "".join(out)


def throughput_section() -> str:
    out = ["## Throughput\n\n"]
    rows = []
    vs = load("vs_mem0")
    if vs:
        for name, r in vs["results"].items():
            rows.append(
                f"| ingest, Engram, {name} embedder (`bench.vs_mem0`) | {r['engram']['ingest']['per_second']:,.1f} memories/s |"
            )
            rows.append(
                f"| ingest, mem0, {name} embedder (`bench.vs_mem0`) | {r['mem0']['ingest']['per_second']:,.1f} memories/s |"
            )
    ex = load("extraction")
    if ex and "rule_extraction" in ex:
        rows.append(
            f"| rule-based extraction (`bench.extraction`) | {ex['rule_extraction']['messages_per_second']:,.0f} messages/s |"
        )
    dream = load("dream")
    if dream:
        for s in ("cold", "steady"):
            if s in dream:
                rows.append(
                    f"| dream, {s} pass (`bench.dream`, {dream.get('workers', '?')} workers) | {dream[s]['entries_per_second']:,.0f} entries/s |"
                )
    ld = load("load")
    if ld:
        for phase, r in ld["phases"].items():
            rows.append(f"| `engram serve`, {phase} (`bench.load`) | {r['rps']:,.1f} requests/s |")
    if not rows:
        return "".join([*out, "_No throughput results yet: run `make bench`._\n"])
    out.append("| what | throughput |\n|---|---:|\n" + "\n".join(rows) + "\n\n" + _img("throughput"))
    return "".join(out)


def load_section() -> str:
    data = load("load")
    out = ["## Local server under concurrent load\n\n"]
    if not data:
        return "".join([*out, _missing("load")])
    seed = data.get("seed", {})
    out.append(
        f"`engram serve` on 127.0.0.1 started by `bench.load` ({_machine(data)}), {seed.get('users', '?')} users of "
        f"{seed.get('entries_per_user', '?')} entries, {data['connections']} connections, load generator "
        f"`{data['generator']}`, the per-key rate limit raised for the run"
        + (
            f"; load average {data['load_average_1m']} at the end of the run (other work shared the machine)"
            if data.get("load_average_1m", 0) > (data.get("machine", {}).get("cpus") or 1)
            else ""
        )
        + ".\n\n"
        "| phase | requests/s | p50 ms | p95 ms | p99 ms | non-200 | server CPU (cores) | server CPU ms per request "
        "| generator CPU ms per request |"
        "\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    for phase, r in data["phases"].items():
        lat = r["latency_ms"]
        share = r.get("server_cpu_share")
        per = r.get("server_cpu_ms_per_request") or (round(1000 * share / r["rps"], 2) if share and r["rps"] else "?")
        out.append(
            f"| {phase} | {r['rps']:,.1f} | {lat['p50_ms']:.1f} | {lat['p95_ms']:.1f} | {lat['p99_ms']:.1f} "
            f"| {r['non_2xx']} | {share if share is not None else '?'} | {per} "
            f"| {r.get('generator_cpu_ms_per_request', '?')} |\n"
        )
    tenants = data["phases"].get("tenants", {})
    if "cross_tenant_entries" in tenants:
        out.append(
            f"\nAfter the tenants phase each tenant's entries were read back: {tenants['entries_read_back']:,} "
            f"entries, {tenants['cross_tenant_entries']} of another tenant.\n"
        )
    met = data.get("goal_met")
    recall = data["phases"].get("recall")
    if recall and recall.get("server_cpu_share"):
        cpu_ms = 1000 * recall["server_cpu_share"] / recall["rps"]
        out.append(
            f"\nThe server spent {cpu_ms:.1f} ms of CPU per recall request, so one process, which cannot use more "
            f"than one core, tops out near {1000 / cpu_ms:,.0f} recalls per second on this machine, and two "
            f"(`--workers 2`) with two idle cores near {2000 / cpu_ms:,.0f}, less what the load generator takes"
            + (
                f" ({data['recall_messages']} recall messages, embedder {data['embedder']})"
                if "recall_messages" in data and "embedder" in data
                else ""
            )
            + ".\n"
        )
    out.append(
        f"\nGoal: over {data['goal_recall_rps']} recall requests per second on 2 cores: "
        f"**{'met' if met else 'not met'}**.\n\n"
        "Phases: `recall` (one key), `upsert` (one key, every write supersedes an entry) and `tenants` (the "
        "same writes from six writer keys of three tenants at once to the same user ids, each with a fresh "
        "`Idempotency-Key`, so the idempotency records are written and checked too).\n\n"
        "Where a recall request's time goes (py-spy on the server under this load): the Lambda handler "
        "path (Powertools resolver with request and response validation, logging and metrics decorators) "
        "around `RecallService.recall`, the JSON response, uvicorn's event loop, and the access-statistics "
        "writer thread. Inside recall (profiled for #14): the index's full-text query (FTS5 computes BM25 "
        "for every document of the user that shares a query word, about 5 microseconds each), reading and "
        "parsing the entries about to be shown (their access counts change with every recall, so their "
        "stored text does too), building and serialising the response models, and ranking. #14 removed "
        "the per-document Python filters of vector search, re-reading and re-parsing every candidate "
        "message, a second scoring of unchanged candidates, searches for kinds a user has none of, and "
        "onnxruntime's thread pool for one query (see docs/recall.md, Latency, for the figures); later, the "
        "round trip of every entry's times through text into the response model, the standard library's JSON "
        "encoder for the response (orjson writes the same text, `engram.api.json_text`) and the parsing and "
        "rewriting of every recalled entry's body by the access-statistics thread (one SQL statement now), and "
        "uvicorn's pure-Python HTTP parser and event loop (httptools and uvloop now). A process resolves one request at a time (Powertools keeps the request it resolves "
        "in state its threads share; docs/security.md measures that serialising costs no CPU per request), "
        "and the interpreter lock caps a process at one core anyway, so the server runs one process per core "
        "(`--workers`), which share the store, the index's outbox drainer (a cross-process lock) and one "
        "per-key rate limit (shared memory).\n"
    )
    other = load("load_minilm")
    if other and "recall" in other.get("phases", {}):
        r = other["phases"]["recall"]
        out.append(
            f"\nThe same run with the default MiniLM embedder ({other.get('recall_messages', '?')} recall messages, "
            f"`bench/results/load_minilm.json`, {other['at'][:16].replace('T', ' ')} UTC, load average "
            f"{other.get('load_average_1m', '?')}): recall {r['rps']:,.1f} requests/s at "
            f"{r.get('server_cpu_ms_per_request', '?')} ms of server CPU per request"
            + "".join(
                f", {phase} {q['rps']:,.1f} requests/s at {q.get('server_cpu_ms_per_request', '?')} ms"
                for phase, q in other["phases"].items()
                if phase != "recall"
            )
            + " (each write embeds its text, and semantic dedup embeds its candidates).\n"
        )
    return "".join(out)


def cold_start_section() -> str:
    data = load("cold_start")
    out = ["## Cold start\n\n"]
    if not data:
        return "".join([*out, _missing("cold_start")])
    out.append(
        f"Import of each handler module in a fresh interpreter, median of {data['repeats']} "
        f'({_machine(data)}; load average {data.get("load_average_1m", "?")} during the run). "Lambda env" '
        "sets `LAMBDA_TASK_ROOT` as the runtime does, which turns X-Ray tracing on.\n\n"
        "| handler | here ms | Lambda env ms |\n|---|---:|---:|\n"
    )
    for module, ms in data["import_ms"].items():
        out.append(f"| `{module}` | {ms:.0f} | {data['import_ms_lambda_env'][module]:.0f} |\n")
    cold = data["api_cold_path_ms"]
    out.append(
        f"\nThe API handler's whole cold path (import, first request, first recall): "
        f"{cold['import_ms']:.0f} + {cold['first_request_ms']:.0f} + {cold['first_recall_ms']:.0f} = "
        f"**{cold['total_ms']:.0f} ms**. Deferring an import only moves it into the first request, so this "
        "total is the figure to watch.\n\n"
        "Heaviest direct imports of `engram.handlers.api` (cumulative ms, best of three): "
        + ", ".join(f"`{h['package']}` {h['ms']:.0f}" for h in data["api_heaviest_imports"])
        + ".\n\n"
    )
    if "tracer_cpu_ms" in data:
        before = data["api_import_cpu_ms"] + data["tracer_cpu_ms"]
        out.append(
            f"In CPU time, which the machine's load disturbs far less than wall time: importing the API handler "
            f"takes {data['api_import_cpu_ms']:.0f} ms; constructing Powertools' `Tracer` as every handler did at "
            f"import before this change adds {data['tracer_cpu_ms']:.0f} ms, so before it was about "
            f"{before:.0f} ms ({100 * data['tracer_cpu_ms'] / before:.0f}% saved outside Lambda).\n\n"
        )
    s = data["sizes"]
    out.append("| artifact | unzipped MiB | files |\n|---|---:|---:|\n")
    for name, v in s.items():
        out.append(
            f"| {name} | {'not built (make layer)' if v is None else v['unzipped_mib']} | {'' if v is None else v['files']} |\n"
        )
    goals = data["goals"]
    out.append(
        f"\nGoals: API handler import under 250 ms here: **{'met' if goals['api_import_below_250ms'] else 'not met'}**; "
        f"code asset under 2 MB: **{'met' if goals['code_asset_below_2mb'] else 'not met'}**.\n\n"
        "What changed for cold starts: the handlers build Powertools' `Tracer` only inside the Lambda "
        "runtime (`engram.handlers.observability.py`). The Tracer imports the X-Ray SDK and botocore's session "
        "machinery when it is constructed, even though it then turns itself off outside Lambda, so "
        "`engram serve`, the CLI and tests paid for a tracer that recorded nothing. In Lambda nothing is "
        "lost: the handler is wrapped exactly as before, and only botocore and requests (the clients Engram "
        "calls AWS and OpenSearch with) are patched, instead of every library X-Ray supports that happens "
        "to be installed. In Lambda, botocore is needed by the DynamoDB client anyway, so the import there "
        "stays; the remedy for the Lambda figure is SnapStart for Python (3.12+), which restores an "
        "initialised snapshot instead of importing, at the price of a cached snapshot per version.\n\n"
    )
    out.append(_img("cold_start"))
    return "".join(out)


def _money(d: dict[str, float]) -> str:
    return " | ".join(f"${v:,.2f}" for v in d.values())


def cost_section() -> str:
    c = cost.model()
    p = c["prices"]
    out = [
        "## Cost model\n\n",
        f"Per operation on AWS, {c['region']}, on-demand, {c['prices_as_of']}. Computed by `bench/cost.py` from the "
        "measured request counts (`bench/results/dynamodb_requests.json`), the in-process latencies measured "
        "here, the functions' configured memory, and the prices below; check the prices before relying on "
        "the totals.\n\n",
        "| price | USD |\n|---|---:|\n",
        f"| DynamoDB on-demand, per million write request units | {p['dynamodb_usd_per_million_wru']} |\n",
        f"| DynamoDB on-demand, per million read request units | {p['dynamodb_usd_per_million_rru']} |\n",
        f"| DynamoDB storage, per GB-month | {p['dynamodb_usd_per_gb_month']} |\n",
        f"| Lambda (arm64), per GB-second | {p['lambda_arm_usd_per_gb_second']} |\n",
        f"| Lambda, per million requests | {p['lambda_usd_per_million_requests']} |\n",
        f"| API Gateway REST, per million requests | {p['api_gateway_rest_usd_per_million']} |\n",
        f"| Bedrock Titan Text Embeddings v2, per million input tokens | {p['titan_embed_v2_usd_per_million_tokens']} |\n",
        f"| OpenSearch t3.medium.search, per hour | {p['opensearch_t3_medium_usd_per_hour']} |\n\n",
    ]
    i = c["inputs"]
    out.append(
        "Assumptions: a recall is one API Lambda invocation of "
        f"{c['lambda_memory_mb']['api']} MB billed {c['billed_ms']['recall_api']} ms: the recall CPU measured "
        f"here ({i['recall_cpu_ms_here']:.2f} ms p50, `bench.vs_mem0`) scaled by {c['cpu_scale_at_api_memory']} "
        f"(Lambda's CPU share at {c['lambda_memory_mb']['api']} MB against a full vCPU at 1,769 MB) plus assumed "
        f"network waits {c['assumed_wait_ms']} (ms; nothing here reaches AWS); DynamoDB as measured for "
        f"'{i['recall_dynamodb'].get('case')}' ({i['recall_dynamodb']['requests']} requests, "
        f"{i['recall_dynamodb']['estimatedReadUnits']} read and {i['recall_dynamodb']['estimatedWriteUnits']} write "
        "units, the write being the share of the sampled access statistics); the query is embedded by Titan "
        f"({c['tokens_per_text']['query']} tokens, characters / 4). A write is one API invocation "
        f"(billed {c['billed_ms']['upsert_api']} ms; DynamoDB as measured for 'upsert: create': "
        f"{i['write_dynamodb']['requests']} requests, {i['write_dynamodb']['estimatedReadUnits']} read and "
        f"{i['write_dynamodb']['estimatedWriteUnits']} write units) and the stream indexer's share "
        f"(billed {c['billed_ms']['indexer_per_entry']} ms, one Titan embedding of "
        f"{c['tokens_per_text']['memory']} tokens). The authorizer is left out: API Gateway caches its "
        "answer per key for five minutes.\n\n"
    )
    r, w = c["usd_per_million_recalls"], c["usd_per_million_memories_written"]
    out.append(
        "| USD per million | DynamoDB | Lambda | Bedrock | API Gateway | total without OpenSearch |\n"
        "|---|---:|---:|---:|---:|---:|\n"
        f"| recalls | {_money(r)} |\n| memories written | {_money(w)} |\n\n"
    )
    os_ = c["opensearch"]
    vols = os_["usd_per_million_recalls_at_monthly_volume"]
    out.append(
        f"OpenSearch is billed by the instance-hour ({os_['node']}: ${os_['usd_per_node_month']:,.2f} a month), "
        "so its share of a recall depends on the monthly volume: "
        + ", ".join(f"${v:,.2f} per million at {k} recalls a month" for k, v in vols.items())
        + ". Stored memories need k-NN graph memory on the data nodes: "
        f"{os_['knn_graph_bytes_per_memory']:,} bytes each (1.1 × (4 × 512 + 8 × 16), AWS's HNSW sizing), "
        f"so a million memories need about {os_['t3_medium_nodes_per_million_memories']} t3.medium.search "
        "nodes' worth of k-NN memory (about 1 GiB of each node's 4 GiB).\n\n"
    )
    s = c["usd_per_million_memories_stored_per_month"]
    out.append(
        "| USD per million memories stored, per month | |\n|---|---:|\n"
        f"| DynamoDB storage (item and two LSI copies, ~1 KB each, assumed) | ${s['dynamodb_storage']:,.2f} |\n"
        f"| OpenSearch nodes for their k-NN memory | ${s['opensearch_nodes_for_knn_memory']:,.2f} |\n\n"
    )
    for note in c["notes"]:
        out.append(f"- Note: {note}.\n")
    return "".join(out)


HEADER = """# Performance

Generated by `make bench` (`bench/run_all.py` runs every benchmark under `bench/` within a
time budget, then `bench/charts.py` draws the charts and `bench/report.py` writes this page).
Each figure below comes from `bench/results/<benchmark>.json`; the command that produced it
is at the top of `bench/results/logs/<benchmark>.log`. The machine is a 2-core Linux VM that
other work may share: timings move with its load, which is why the cold-start run records
the load average. Ratios measured in one run on one machine are steadier than absolute times.

"""


def render() -> str:
    sections = [
        vs_mem0_section(),
        latency_section(),
        throughput_section(),
        load_section(),
        cold_start_section(),
        cost_section(),
    ]
    return HEADER + "\n".join(sections)


def main() -> Path:
    DOC.write_text(render(), encoding="utf-8")
    return DOC


if __name__ == "__main__":
    print(main())
