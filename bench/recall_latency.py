"""Recall latency in-process on the embedded store: users of 10, 500 and 5,000 entries.

For each embedder (hash, minilm) the query embedding is timed on its own and the
recall itself (``RecallService.recall_with_vector``: index search, store reads, tier 1,
ranking, rendering, the access-statistics hand-off) apart from it. Goals at 500
entries, excluding model inference: p50 < 2 ms, p99 < 10 ms; and 10 -> 5,000 entries
no worse than linear (p50 ratio below the 500x growth in entries).

Run: ``.venv/bin/python -m bench.recall_latency [--calls 1000] [--embedders hash,minilm]``
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from engram.container import build
from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
from engram.domain.models import Principal, Role
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.settings import Settings

from bench.common import percentiles, time_calls, write_results
from bench.eval_data import TOPICS, scale
from bench.retrieval_eval import NOW, SetClock, make_embedder

SIZES = (10, 500, 5000)
TENANT = "bench"
AGENT = "agent-bench"
GOAL_P50_MS, GOAL_P99_MS = 2.0, 10.0


def _queries() -> list[str]:
    return [q for _, _, qs in TOPICS for q in qs]


def run(embedder_name: str, calls: int) -> dict[str, Any]:
    embedder = make_embedder(embedder_name)
    clock = SetClock(NOW)
    engram = build(
        Settings(data_dir=Path(tempfile.mkdtemp(prefix=f"engram-latency-{embedder_name}-"))),
        embedder=embedder,
        clock=clock,
    )
    engram.agents.put(
        TENANT,
        AGENT,
        AgentConfig(
            user_memory_config=UserMemoryConfig(
                max_entries_per_user=10_000, guardrails=Guardrails(max_writes_per_turn=1000)
            )
        ),
    )
    p = Principal(TENANT, AGENT, frozenset({Role.WRITER}))
    # Bulk load: index once at the end (one embedding call per 500 entries).
    engram.store.db.stop_notifying()  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    for size, facts in zip(SIZES, scale(len(SIZES), max(SIZES)), strict=True):
        user = f"user-{size}"
        engram.users.update_profile(p, user, name="Sam", pronouns="they/them")
        for f in sorted(facts[:size], key=lambda f: -f.age_days):
            clock.at = NOW - timedelta(days=f.age_days)
            engram.memory.upsert(p, user, [UpsertCommand(f.key, f.value, f.category, importance=f.importance)])
    clock.at = NOW
    engram.sync_index()
    loaded = time.perf_counter() - t0

    queries = _queries()
    embed_ms = time_calls(lambda i: embedder.embed([queries[i % len(queries)]]), min(calls, 300), warmup=5)
    vectors = embedder.embed(queries)
    out: dict[str, Any] = {
        "embedder": embedder.model_id,
        "load_s": round(loaded, 1),
        "query_embedding": percentiles(embed_ms),
        "sizes": {},
    }
    for size in SIZES:
        user = f"user-{size}"

        def once(i: int, user: str = user) -> None:
            req = RecallRequest(queries[i % len(queries)], token_budget=800, top_k=5)
            engram.recall.recall_with_vector(p, user, req, vectors[i % len(queries)])

        out["sizes"][str(size)] = percentiles(time_calls(once, calls, warmup=50))
    engram.recall.access.flush()  # type: ignore[attr-defined]
    small, mid, big = (out["sizes"][str(s)]["p50_ms"] for s in SIZES)
    out["goals"] = {
        "p50_at_500_below_2ms": mid < GOAL_P50_MS,
        "p99_at_500_below_10ms": out["sizes"]["500"]["p99_ms"] < GOAL_P99_MS,
        "growth_10_to_5000_p50": round(big / small, 2),
        "no_worse_than_linear": big / small < SIZES[-1] / SIZES[0],
    }
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--embedders", default="hash,minilm")
    args = ap.parse_args(argv)
    logging.getLogger("engram").setLevel(logging.WARNING)
    results = {name: run(name, args.calls) for name in args.embedders.split(",")}
    for name, r in results.items():
        e = r["query_embedding"]
        print(f"\n== {name} ({r['embedder']}), loaded in {r['load_s']} s")
        print(f"   query embedding (apart):  p50 {e['p50_ms']:.3f} ms  p99 {e['p99_ms']:.3f} ms")
        for size, m in r["sizes"].items():
            print(f"   recall, {size:>5} entries:    p50 {m['p50_ms']:.3f} ms  p99 {m['p99_ms']:.3f} ms")
        print(f"   goals: {r['goals']}")
    path = write_results("recall_latency", {"calls": args.calls, "results": results})
    print(f"\nwrote {path}")
    return results


if __name__ == "__main__":
    main()
